"""The README's table of limits says what `kitgen/limits.py` holds: each constant named in a row
with its value as the README writes it, and no constant left out (issue 41: "The README lists the
limits")."""

from __future__ import annotations

import re
from pathlib import Path

import kitgen.limits as limits

README = Path(__file__).resolve().parent.parent / "docs" / "reference" / "data.md"  # the manual's data reference
MB = 1024 * 1024


def shown(name: str, value: object) -> str:
    """A limit as the README writes it."""
    if isinstance(value, tuple):
        return f"{value[0]:g}-{value[1]:g} pt"
    if isinstance(value, float):
        return f"{value:g} times"
    assert isinstance(value, int)
    if name.endswith("_BYTES"):
        return f"{value // MB} MB" if value % MB == 0 else f"{value:,} bytes"
    if name == "PDF_DPI":
        return f"{value} dpi"
    if name.endswith("_DEPTH"):
        return f"{value} deep"
    return f"{value:,}"


def test_every_limit_is_in_the_readmes_table_with_its_value() -> None:
    rows = [line for line in README.read_text(encoding="utf-8").splitlines() if line.strip().startswith("| ")]
    constants = {n: v for n, v in vars(limits).items() if n.isupper() and not n.startswith("_")}
    assert len(constants) >= 20
    for name, value in constants.items():
        row = next((r for r in rows if re.search(rf"`{name}`", r)), None)
        assert row is not None, f"{name} is in no row of the README's table of limits"
        assert shown(name, value) in row, (name, row)
