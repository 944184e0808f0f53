"""kitgen: print-ready kits and turn packets for the 1919-1920 South Russia campaign."""

import os

# numpy's BLAS starts a thread a processor at import, and they spin: a tenth of a second of a
# processor's time for every kitgen command that loads a campaign, on arrays too small for
# threads to help. A user's own setting is kept.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
