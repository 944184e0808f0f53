"""The booklet's contents as the last run with the same inputs set them, kept on disk.

Platypus sets a book with a table of contents at least twice: once to learn each heading's
page, again to print them. Given the entries the last identical run printed, its first pass
already prints the right ones, and it stops there. The entries are only a hint: platypus
checks them against the pages it sets and goes on until they agree, so a stale or damaged
entry costs a pass, never a wrong page number."""

from __future__ import annotations

import hashlib
from typing import Any

Entry = tuple[int, str, int, Any]
"""(level, text, page, key) as reportlab's TableOfContents holds them."""


def contents_key(scenario_id: str, *inputs: object) -> str:
    """A file name for the contents of a booklet set from `inputs` by this kitgen and reportlab."""
    import reportlab

    from kitgen.scenariocache import code_digest

    digest = hashlib.sha256(f"kitgen-contents 1 reportlab {reportlab.Version}\n{code_digest()}\n".encode())
    digest.update(repr(inputs).encode())
    return f"contents-{scenario_id}-{digest.hexdigest()[:32]}.pickle"


def recall(name: str) -> list[Entry]:
    """The entries kept under `name`, or none."""
    from kitgen.scenariocache import cache_dir, read_private

    found = read_private(cache_dir() / name)
    if isinstance(found, list) and all(isinstance(e, tuple) and len(e) == 4 for e in found):
        return found
    return []


def keep(name: str, scenario_id: str, entries: list[Entry]) -> None:
    from kitgen.scenariocache import KEEP, cache_dir, prune, write_private

    write_private(cache_dir() / name, entries)
    prune(f"contents-{scenario_id}-*.pickle", 2 * KEEP)  # two sizes of booklet a scenario
