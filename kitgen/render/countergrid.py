"""Where pieces go on a counter sheet: a grid of equal squares inside the margins, groups of
pieces under their heading rows, whole rows to a group, and the cutting lines along the
squares' shared edges. Counters and markers are laid out by the same grid at their own sizes."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from kitgen.render.pages import MM, PAPER, hex_colour

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.render.counterstyle import CounterStyle

EPS = 1e-6


@dataclass(frozen=True)
class Grid:
    """The counter grid of a page, in points: columns centred, rows from under the title line."""

    page_w: float
    page_h: float
    size: float
    """A counter's side."""
    pitch: float
    """From one counter to the next (side plus gap)."""
    columns: int
    x0: float
    top: float
    bottom: float

    def x(self, column: int) -> float:
        return self.x0 + column * self.pitch

    def back_x(self, x: float) -> float:
        """Where the back of a counter at front x goes: duplex flipped on the long edge mirrors columns."""
        return self.page_w - x - self.size


def grid(style: CounterStyle, paper: str, size_mm: float | None = None) -> Grid:
    """The grid of `size_mm` pieces (the counters' size unless given) on a page of `paper`."""
    from kitgen import messages as msg
    from kitgen.errors import UsageError

    if paper not in PAPER:
        raise UsageError(msg.layout_unknown_paper(paper, list(PAPER)))
    page_w, page_h = PAPER[paper]
    size, gap, margin = (size_mm or style.counter_mm) * MM, style.gap_mm * MM, style.margin_mm * MM
    pitch = size + gap
    columns = math.floor((page_w - 2 * margin + gap) / pitch + EPS)
    x0 = (page_w - (columns * pitch - gap)) / 2
    return Grid(page_w, page_h, size, pitch, columns, x0, page_h - margin - style.title_mm * MM, margin)


@dataclass(frozen=True)
class Heading:
    sheet: int
    group: int
    y: float
    """The heading row's bottom edge; the counters start right under it."""
    continued: bool


@dataclass(frozen=True)
class Block:
    """A group's rows on one sheet, for the cutting lines."""

    sheet: int
    group: int
    top: float
    rows: int


@dataclass(frozen=True)
class Slot:
    sheet: int
    group: int
    index: int
    """The counter's index within its group; at or past the group's size, a blank spare."""
    x: float
    y: float
    """The front's lower-left corner."""


Sides = tuple[float, float, float, float]
"""(left, bottom, right, top): how far a piece's art runs past each of its edges."""


@dataclass(frozen=True)
class Layout:
    grid: Grid
    sheets: int
    headings: tuple[Heading, ...]
    blocks: tuple[Block, ...]
    slots: tuple[Slot, ...]
    bleed: float = 0.0
    """How far the art of a piece on the edge of its block runs past the cut there, so that a
    cut a little outside the line shows the piece's ground, not white paper."""
    end: float = 0.0
    """Where its last block ends on its last sheet: another layout laid out after it starts there."""

    def on(self, sheet: int) -> bool:
        """Whether any of its pieces is on `sheet`."""
        return any(s.sheet == sheet for s in self.slots)

    def bleeds(self, slot: Slot, back: bool) -> Sides:
        """How far `slot`'s art runs past each side (`Sides`): `bleed` where the side is its
        block's edge; where it faces a neighbour across the grid's gap, half the gap at most
        (none where they abut); a back mirrors its front."""
        if not self.bleed:
            return (0.0, 0.0, 0.0, 0.0)
        g, b = self.grid, self.bleed
        columns = g.columns
        col = slot.index % columns

        def side(index: int, beside: bool) -> float:
            return min(b, (g.pitch - g.size) / 2) if beside and (slot.sheet, slot.group, index) in self._taken else b

        left = side(slot.index - 1, col > 0)
        right = side(slot.index + 1, col < columns - 1)
        top = side(slot.index - columns, True)
        bottom = side(slot.index + columns, True)
        return (right, bottom, left, top) if back else (left, bottom, right, top)

    @cached_property
    def _taken(self) -> frozenset[tuple[int, int, int]]:
        """(sheet, group, index) of every piece: a neighbour in its block is on its sheet."""
        return frozenset((s.sheet, s.group, s.index) for s in self.slots)

    def bleed_boxes(self, sheet: int, back: bool) -> list[tuple[float, float, float, float]]:
        """(x0, y0, x1, y1) of every piece on a sheet's side with its bleed."""
        g = self.grid
        out = []
        for s in self.slots:
            if s.sheet == sheet:
                x = g.back_x(s.x) if back else s.x
                left, bottom, right, top = self.bleeds(s, back)
                out.append((x - left, s.y - bottom, x + g.size + right, s.y + g.size + top))
        return out


def lay_out(
    style: CounterStyle,
    paper: str,
    sizes: Sequence[int],
    *,
    size_mm: float | None = None,
    spares: bool | None = None,
    after: Layout | None = None,
    keep_together: bool = True,
) -> Layout:
    """Place groups of `sizes` counters on sheets: each group under its heading row, new rows
    for each group; a group that fits on a sheet of its own starts a new sheet rather than
    break, a longer one runs on to the next sheet under its heading again.
    With spares (`style.spares` unless given) a group's last row is filled with blank counters;
    `size_mm` lays out pieces of another size (the markers), `after` starts where that layout
    ends, on its last sheet (the sheets are shared: no half-empty sheet of card); without
    `keep_together` a group runs on to the next sheet wherever the sheet it starts on is full."""
    g = grid(style, paper, size_mm)
    spares = style.spares if spares is None else spares
    heading_h = style.heading_mm * MM
    headings: list[Heading] = []
    blocks: list[Block] = []
    slots: list[Slot] = []
    sheet, y = (after.sheets - 1, after.end) if after is not None and after.slots else (0, g.top)
    for group, n in enumerate(sizes):
        if n == 0:
            continue
        rows = math.ceil(n / g.columns)
        total = rows * g.columns if spares else n
        done = 0
        room = math.floor((y - heading_h - g.bottom - g.size) / g.pitch + EPS) + 1
        whole = math.floor((g.top - heading_h - g.bottom - g.size) / g.pitch + EPS) + 1
        if keep_together and y < g.top - EPS and room < rows <= whole:
            sheet, y = sheet + 1, g.top  # the whole group fits on a fresh sheet: keep it together
        while done < rows:
            if y - heading_h - g.size < g.bottom - EPS:
                sheet, y = sheet + 1, g.top
            y -= heading_h
            headings.append(Heading(sheet, group, y, done > 0))
            fit = math.floor((y - g.bottom - g.size) / g.pitch + EPS) + 1
            take = min(fit, rows - done)
            blocks.append(Block(sheet, group, y, take))
            for r in range(take):
                for col in range(g.columns):
                    index = (done + r) * g.columns + col
                    if index < total:
                        slots.append(Slot(sheet, group, index, g.x(col), y - r * g.pitch - g.size))
            y -= take * g.pitch
            done += take
    return Layout(g, sheet + 1, tuple(headings), tuple(blocks), tuple(slots), style.bleed_mm * MM, y)


def cut_lines(c: Canvas, layout: Layout, sheet: int, style: CounterStyle) -> None:
    """The cutting lines of a sheet's blocks along their pieces' edges, run past the block into
    the margin; a short last row's lines stop at its last piece, no empty cell drawn."""
    g = layout.grid
    c.saveState()
    c.setStrokeColorRGB(*hex_colour(style.cut_line.colour))
    c.setLineWidth(style.cut_line.width)
    over = layout.bleed + style.cut_line.overhang_mm * MM  # past the bleed, into the margin
    left = g.x0
    for b in layout.blocks:
        if b.sheet != sheet:
            continue
        tops = [b.top - r * g.pitch for r in range(b.rows)]
        filled = [
            sum(1 for s in layout.slots if s.sheet == sheet and s.group == b.group and abs(s.y + g.size - top) < 0.01)
            for top in tops
        ]
        ends = [g.x(n - 1) + g.size for n in filled]
        for r, top in enumerate(tops):
            reach = max(ends[r], ends[r - 1]) if r else ends[r]
            c.line(left - over, top, reach + over, top)
            if g.pitch > g.size:  # a gap: each row's own bottom edge
                c.line(left - over, top - g.size, ends[r] + over, top - g.size)
            for xx in sorted({round(v, 4) for col in range(filled[r]) for v in (g.x(col), g.x(col) + g.size)}):
                c.line(xx, top, xx, top - g.size)
        c.line(left - over, tops[-1] - g.size, ends[-1] + over, tops[-1] - g.size)
    c.restoreState()


def counter_positions(style: CounterStyle, paper: str, n: int) -> list[tuple[float, float]]:
    """The fronts' lower-left corners (x, y) of a single group of `n` counters, in order (a
    position repeats on the sheets that follow the first)."""
    return [(s.x, s.y) for s in lay_out(style, paper, [n]).slots if s.index < n]


def piece_boxes(layout: Layout, sheet: int, back: bool) -> list[tuple[float, float, float, float]]:
    """(x0, y0, x1, y1), in points from the page's lower left, of every piece on a sheet's front
    or (mirrored for long-edge duplex) its back."""
    g = layout.grid
    return [
        (g.back_x(s.x) if back else s.x, s.y, (g.back_x(s.x) if back else s.x) + g.size, s.y + g.size)
        for s in layout.slots
        if s.sheet == sheet
    ]


Draw = Callable[["Canvas", int, bool, bool], None]
"""Draws a layout's part of a sheet's side: (canvas, sheet, back, titled: the sheet's title too)."""


def sheet_pairs(
    c: Canvas,
    parts: Sequence[tuple[Layout, Draw]],
    title_of: Callable[[int], str],
    bookmarks: list[tuple[str, int]],
) -> None:
    """The sheets the layouts of `parts` share (a later one starts on an earlier one's last
    sheet): each front then its back, each layout drawing its own pieces there, the first the
    sheet's title; the front in the outline under `title_of(sheet)`, each page's trim round its
    pieces and its bleed round their art (`Layout.bleeds`)."""
    from kitgen.render.pages import declare_cut

    sheets = max(layout.sheets for layout, _ in parts)
    g = parts[0][0].grid
    for sheet in range(sheets):
        title = title_of(sheet)
        bookmarks.append((title, 2 * sheet))
        c.bookmarkPage(f"sheet{sheet}")
        c.addOutlineEntry(title, f"sheet{sheet}", level=0)
        for back in (False, True):
            here = [(layout, draw) for layout, draw in parts if layout.on(sheet)]
            for k, (_, draw) in enumerate(here):
                draw(c, sheet, back, k == 0)
            pieces = [box for layout, _ in here for box in piece_boxes(layout, sheet, back)]
            bleeds = [box for layout, _ in here for box in layout.bleed_boxes(sheet, back)]
            declare_cut(c, pieces or [(0.0, 0.0, g.page_w, g.page_h)], bleeds)
            c.showPage()


def sheet_title(c: Canvas, g: Grid, style: CounterStyle, text: str, key: str) -> None:
    """A sheet's title line over the grid, and its key at the right where both fit."""
    from kitgen.render.fonts import SANS, SANS_BOLD, text_width
    from kitgen.render.wording import curled

    text, key = curled(text), curled(key)

    base = g.top + style.title_mm * MM * 0.4
    left, right = g.x0, g.x(g.columns - 1) + g.size
    size = style.fonts.title
    while size > 6 and text_width(text, SANS_BOLD, size) > right - left:
        size -= 0.25
    c.setFillColorRGB(0, 0, 0)
    c.setFont(SANS_BOLD, size)
    c.drawString(left, base, text)
    c.setFont(SANS, style.fonts.key)
    c.setFillColorRGB(0.25, 0.25, 0.25)
    if text_width(text, SANS_BOLD, size) + text_width(key, SANS, style.fonts.key) + 12 < right - left:
        c.drawRightString(right, base, key)


def heading_text(c: Canvas, style: CounterStyle, x: float, y: float, bold: str, more: str) -> None:
    """A group's heading in its row (bottom edge y): its name in bold, then `more` in grey."""
    from kitgen.render.fonts import SANS, SANS_BOLD, text_width
    from kitgen.render.wording import curled

    bold, more = curled(bold), curled(more)

    size = style.fonts.heading
    base = heading_base(style, y)
    c.setFillColorRGB(0, 0, 0)
    c.setFont(SANS_BOLD, size)
    c.drawString(x, base, bold)
    c.setFont(SANS, size * 0.85)
    c.setFillColorRGB(0.3, 0.3, 0.3)
    c.drawString(x + text_width(bold, SANS_BOLD, size), base, more)


def heading_base(style: CounterStyle, y: float) -> float:
    """The baseline of a heading whose row's bottom edge is at y."""
    size = style.fonts.heading
    return y + (style.heading_mm * MM - size) / 2 + size * 0.15
