"""Names drawn with a halo in the paper's colour, so that they read over lines and fills: the
name stroked wide, then filled over it, in one text object. The stroke is marked as carrying no
text of its own (an empty ActualText), so that a search or a copy of the page gives each name
once, not twice ("MMoorroozzoovv")."""

from __future__ import annotations

from typing import Any

NO_TEXT = "/Span <</ActualText ()>> BDC"
"""Marked content whose text a reader takes as empty: the halo's stroke."""


def halo_runs(
    t: Any,
    text: str,
    x: float,
    y: float,
    *,
    halo_fill: tuple[float, float, float] | None = None,
    fill: tuple[float, float, float] | None = None,
) -> None:
    """Into the text object `t`: `text` at (x, y) stroked (the halo, with the stroke colour and
    width already set), then filled; `halo_fill` and `fill` set the fill colour of each where
    given. The render mode is left at fill."""
    t._code.append(NO_TEXT)  # reportlab's text object: one operator a line
    t.setTextRenderMode(1)
    if halo_fill is not None:
        t.setFillColorRGB(*halo_fill)
    t.setTextOrigin(x, y)
    t.textOut(text)
    t._code.append("EMC")
    t.setTextRenderMode(0)
    if fill is not None:
        t.setFillColorRGB(*fill)
    t.setTextOrigin(x, y)
    t.textOut(text)
