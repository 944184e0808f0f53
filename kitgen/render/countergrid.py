"""Where pieces go on a counter sheet: a grid of equal squares inside the margins, groups of
pieces under their heading rows, whole rows to a group, and the cutting lines along the
squares' shared edges. Counters and markers are laid out by the same grid at their own sizes."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
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


@dataclass(frozen=True)
class Layout:
    grid: Grid
    sheets: int
    headings: tuple[Heading, ...]
    blocks: tuple[Block, ...]
    slots: tuple[Slot, ...]


def lay_out(
    style: CounterStyle, paper: str, sizes: Sequence[int], *, size_mm: float | None = None, spares: bool | None = None
) -> Layout:
    """Place groups of `sizes` counters on sheets: each group under its heading row, new rows
    for each group; a group that fits on a sheet of its own starts a new sheet rather than
    break, a longer one runs on to the next sheet under its heading again.
    With spares (`style.spares` unless given) a group's last row is filled with blank counters;
    `size_mm` lays out pieces of another size (the markers)."""
    g = grid(style, paper, size_mm)
    spares = style.spares if spares is None else spares
    heading_h = style.heading_mm * MM
    headings: list[Heading] = []
    blocks: list[Block] = []
    slots: list[Slot] = []
    sheet, y = 0, g.top
    for group, n in enumerate(sizes):
        if n == 0:
            continue
        rows = math.ceil(n / g.columns)
        total = rows * g.columns if spares else n
        done = 0
        room = math.floor((y - heading_h - g.bottom - g.size) / g.pitch + EPS) + 1
        whole = math.floor((g.top - heading_h - g.bottom - g.size) / g.pitch + EPS) + 1
        if y < g.top - EPS and room < rows <= whole:
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
    return Layout(g, sheet + 1, tuple(headings), tuple(blocks), tuple(slots))


def cut_lines(c: Canvas, layout: Layout, sheet: int, style: CounterStyle) -> None:
    """The cutting lines of a sheet's blocks, run past the grid into the margin."""
    g = layout.grid
    c.saveState()
    c.setStrokeColorRGB(*hex_colour(style.cut_line.colour))
    c.setLineWidth(style.cut_line.width)
    over = style.cut_line.overhang_mm * MM
    left, right = g.x0, g.x(g.columns - 1) + g.size
    for b in layout.blocks:
        if b.sheet != sheet:
            continue
        tops = [b.top - r * g.pitch for r in range(b.rows)]
        for yy in sorted({round(v, 4) for t in tops for v in (t, t - g.size)}):
            c.line(left - over, yy, right + over, yy)
        bottom = tops[-1] - g.size
        for xx in sorted({round(v, 4) for col in range(g.columns) for v in (g.x(col), g.x(col) + g.size)}):
            c.line(xx, b.top, xx, bottom)
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


def sheet_pairs(
    c: Canvas,
    layout: Layout,
    first: int,
    key: str,
    title_of: Callable[[int], str],
    draw: Callable[[Canvas, int, bool], None],
    bookmarks: list[tuple[str, int]],
) -> None:
    """The layout's sheets from sheet `first` of the file: each front then its back, the front in
    the outline under `title_of(sheet)`, each page trimmed round its counters (they bleed no
    further: the cut runs along their edges)."""
    from kitgen.render.pages import declare_cut

    g = layout.grid
    for sheet in range(layout.sheets):
        title = title_of(sheet)
        bookmarks.append((title, 2 * (first + sheet)))
        c.bookmarkPage(f"{key}{sheet}")
        c.addOutlineEntry(title, f"{key}{sheet}", level=0)
        for back in (False, True):
            draw(c, sheet, back)
            pieces = piece_boxes(layout, sheet, back)
            declare_cut(c, pieces or [(0.0, 0.0, g.page_w, g.page_h)], [])  # boxes carry on to later pages
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
