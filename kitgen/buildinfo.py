"""The edition every printed part carries: kitgen's version and the build date.

The date is `SOURCE_DATE_EPOCH` when it is set (reproducible builds set it), else the date of
this release: never the clock, so the same inputs give the same bytes."""

from __future__ import annotations

import os
import time
from typing import Any

from kitgen import __version__

RELEASED = (2026, 12, 1)
"""The date of this release (year, month, day), the build date unless SOURCE_DATE_EPOCH says otherwise."""


def build_epoch() -> int:
    """Seconds since 1970 (UTC) of the build date."""
    given = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if given.isascii() and given.isdigit() and len(given) <= 12:
        return int(given)
    import calendar

    return calendar.timegm((*RELEASED, 0, 0, 0, 0, 0, 0))


def build_date() -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(build_epoch()))


def edition() -> str:
    """'kitgen 0.1.0, 2026-12-01': printed in footers and set in every PDF's metadata."""
    return f"kitgen {__version__}, {build_date()}"


def stamp(canvas: Any) -> None:
    """The canvas's PDF dated at the build date (reportlab's invariant mode would say 2000-01-01)."""
    from reportlab.lib.utils import TimeStamp

    ts = TimeStamp(invariant=True)
    t = build_epoch()
    lt = time.gmtime(t)
    ts.t, ts.lt, ts.YMDhms = t, lt, tuple(lt)[:6]
    canvas._doc._timeStamp = ts
    canvas.setCreator(f"kitgen {__version__}")
