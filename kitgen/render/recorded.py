"""A picture drawn once and laid down again: the map's art is on the booklet's cover at both
sizes and on the tiles' assembly page; working out its thousands of path operators each time
was a fifth of the kit's time."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

NAMING_RESOURCES = frozenset({"Tf", "gs", "Do", "sh", "cs", "CS", "scn", "SCN", "BI", "ri", "BDC", "BMC"})
"""Operators that name one of the page's resources (a font, graphics state, form, shading,
colour space, pattern or image) or open marked content: a drawing with any of them is not
self-contained, since its resources would have to be registered on each canvas."""


@dataclass(frozen=True)
class Picture:
    """Page operators that draw on their own, and the size they fill from the origin."""

    width: float
    height: float
    code: str

    def draw(self, c: Canvas) -> None:
        """Laid down as they are, between a save and a restore of the graphics state, so the
        canvas's own state is untouched."""
        c._code.append(self.code)  # type: ignore[attr-defined]  # reportlab's page stream, a line an item


def record(paint: Callable[[Canvas], None], width: float, height: float) -> Picture:
    """What `paint` draws, worked out on a scratch canvas; a painting that names a resource is
    a mistake of kitgen's (it could not be laid down on another canvas)."""
    from reportlab.pdfgen.canvas import Canvas

    scratch = Canvas(io.BytesIO(), invariant=1)
    code: list[str] = scratch._code  # type: ignore[attr-defined]
    start = len(code)
    scratch.saveState()
    paint(scratch)
    scratch.restoreState()
    drawn = "\n".join(code[start:])
    named = NAMING_RESOURCES.intersection(drawn.split())
    if named:
        raise ValueError(f"a picture names resources of its page ({', '.join(sorted(named))}): draw it directly")
    return Picture(width, height, drawn)
