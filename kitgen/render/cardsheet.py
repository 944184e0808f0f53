"""The card sheet's geometry: where each card and its back stand on the page (nine to a sheet,
bleeds meeting in the gutters or butting where gutters would not fit), and the crop marks outside
the grid, on every cut line, never nearer the paper's edge than the layouts' clearance."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kitgen.render.cardstyle import CardStyle, card_style
from kitgen.render.pages import MM, PAPER

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas


def card_slots(paper: str, style: CardStyle | None = None) -> list[tuple[float, float]]:
    """The lower-left corners (points) of the trim boxes of a sheet's card slots, row by row from
    the top left: a grid of `columns` x `rows` cards, `gutter_mm` apart (or butting, sharing
    their cuts, where the gutters would not fit), centred on the page."""
    g = (style or card_style()).card
    page_w, page_h = PAPER[paper]
    w, h, gutter = g.width_mm * MM, g.height_mm * MM, g.gutter_mm * MM
    row_gutter = 0.0 if shared_rows(paper, style) else gutter
    col_gutter = 0.0 if shared_columns(paper, style) else gutter
    block_w = g.columns * w + (g.columns - 1) * col_gutter
    block_h = g.rows * h + (g.rows - 1) * row_gutter
    left, top = (page_w - block_w) / 2, (page_h + block_h) / 2
    return [
        (left + col * (w + col_gutter), top - h - row * (h + row_gutter))
        for row in range(g.rows)
        for col in range(g.columns)
    ]


def _butt(n: int, size_mm: float, page: float, style: CardStyle | None) -> bool:
    """Whether `n` cards of `size_mm` along a page side must butt: with gutters, their outer
    bleeds, the crop marks and the marks' clearance from the edge would not fit."""
    g = (style or card_style()).card
    need = n * size_mm + (n - 1) * g.gutter_mm + 2 * (g.bleed_mm + g.crop_mark_mm + g.mark_clearance_mm)
    return need * MM > page + 1e-6


def shared_rows(paper: str, style: CardStyle | None = None) -> bool:
    """Whether the rows butt and share their cuts (three poker cards down US Letter)."""
    g = (style or card_style()).card
    return _butt(g.rows, g.height_mm, PAPER[paper][1], style)


def shared_columns(paper: str, style: CardStyle | None = None) -> bool:
    """Whether the columns butt and share their cuts (three poker cards across A4 or US Letter)."""
    g = (style or card_style()).card
    return _butt(g.columns, g.width_mm, PAPER[paper][0], style)


SEAM = 0.3
"""Points a card's ground runs past a cut it shares with a neighbour of its own colours: no
hairline of paper shows between two fills that only meet."""


def bleed_box(
    paper: str, slot: int, style: CardStyle | None = None, *, seam: float = 0.0
) -> tuple[float, float, float, float]:
    """(x0, y0, x1, y1) a card in slot `slot` may print into: its trim plus the bleed, except
    along a cut it shares with a neighbour, where it stops `seam` past the cut."""
    s = style or card_style()
    g = s.card
    x, y = card_slots(paper, s)[slot]
    w, h, bleed = g.width_mm * MM, g.height_mm * MM, g.bleed_mm * MM
    row, col = divmod(slot, g.columns)
    rows, cols = shared_rows(paper, s), shared_columns(paper, s)
    top = seam if rows and row > 0 else bleed
    bottom = seam if rows and row < g.rows - 1 else bleed
    left = seam if cols and col > 0 else bleed
    right = seam if cols and col < g.columns - 1 else bleed
    return x - left, y - bottom, x + w + right, y + h + top


def back_slots(paper: str, style: CardStyle | None = None) -> list[tuple[float, float]]:
    """Where the back of the card in each slot of `card_slots` is printed on the next page, for
    long-edge duplex: x mirrored across the page (back x = page width - front x - card width),
    the same row."""
    s = style or card_style()
    page_w = PAPER[paper][0]
    w = s.card.width_mm * MM
    return [(page_w - x - w, y) for x, y in card_slots(paper, s)]


def crop_mark_lines(
    slots: Sequence[tuple[float, float]], style: CardStyle, paper: str
) -> list[tuple[float, float, float, float]]:
    """The crop marks of the used slots, as lines: each cut line of a card marked outside the
    sheet's grid, at both ends (never between cards, where it would print on one), a bleed out
    from the grid's trim where there is room, and never nearer the paper's edge than the clearance."""
    g = style.card
    w, h = g.width_mm * MM, g.height_mm * MM
    page_w, page_h = PAPER[paper]
    grid = card_slots(paper, style)
    left, right = min(x for x, _ in grid), max(x for x, _ in grid) + w
    bottom, top = min(y for _, y in grid), max(y for _, y in grid) + h
    bleed, length, clear = g.bleed_mm * MM, g.crop_mark_mm * MM, g.mark_clearance_mm * MM

    def span(margin: float) -> tuple[float, float]:
        """(offset from the trim, length) of a mark in a margin this wide."""
        room = margin - clear
        size = min(length, max(room - 0.5 * MM, 0.0))
        return min(bleed, room - size), size

    xs = sorted({round(v, 4) for x, _ in slots for v in (x, x + w)})
    ys = sorted({round(v, 4) for _, y in slots for v in (y, y + h)})
    lines = []
    (top_off, top_len), (bottom_off, bottom_len) = span(page_h - top), span(bottom)
    (left_off, left_len), (right_off, right_len) = span(left), span(page_w - right)
    for x in xs:
        lines.append((x, top + top_off, x, top + top_off + top_len))
        lines.append((x, bottom - bottom_off, x, bottom - bottom_off - bottom_len))
    for y in ys:
        lines.append((left - left_off, y, left - left_off - left_len, y))
        lines.append((right + right_off, y, right + right_off + right_len, y))
    return [ln for ln in lines if ln[:2] != ln[2:]]


def draw_crop_marks(c: Canvas, slots: Sequence[tuple[float, float]], style: CardStyle, paper: str) -> None:
    """The used slots' crop marks (`crop_mark_lines`), hairlines over white halos."""
    lines = crop_mark_lines(slots, style, paper)
    g = style.card
    if g.crop_halo_pt > 0:
        c.saveState()
        c.setStrokeColorRGB(1, 1, 1)
        c.setLineWidth(g.crop_halo_pt)
        for line in lines:
            c.line(*line)
        c.restoreState()
    c.saveState()
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.25)
    for line in lines:
        c.line(*line)
    c.restoreState()


def clip(c: Canvas, box: tuple[float, float, float, float]) -> None:
    x0, y0, x1, y1 = box
    path = c.beginPath()
    path.rect(x0, y0, x1 - x0, y1 - y0)
    c.clipPath(path, stroke=0, fill=0)
