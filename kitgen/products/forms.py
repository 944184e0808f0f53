"""The kit's charts and forms: one player aid per faction, and the blank forms to photocopy.

Every number printed here is read from the scenario (the rule tables of data/) and every look
from layouts/forms.yaml; the code only arranges them. Pages are drawn straight on a reportlab
canvas with a small table helper: header shading, alternate row tints, ruled rows, tick boxes.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Literal

from kitgen.messages import ordinal, plural
from kitgen.model.base import PROHIBITED
from kitgen.model.scenario import Faction, Scenario
from kitgen.render.fonts import SANS, SANS_BOLD, SANS_ITALIC, text_width
from kitgen.render.formstyle import FormStyle, form_style, stand_abbreviation
from kitgen.render.formstyle import short_stand_name as _short
from kitgen.render.pages import MM, PAPER, Part, faction_mark, hex_colour, ink_on, landscape, new_canvas, set_page
from kitgen.rules.sequence import turn_sequence

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.model.base import Modifier
    from kitgen.model.geography import SupplySource
    from kitgen.model.rules import Placement

Align = Literal["left", "centre", "right"]
DASH = "\u2013"
MINUS = "\u2212"
PAD = 3.0
"""Inner padding of table cells, in points."""


# --- small words ---------------------------------------------------------------------


def _upto(n: int) -> str:
    """The faces 1 to n of a die: '1' or '1-4'."""
    return "1" if n == 1 else f"1{DASH}{n}"


def _either(items: Sequence[str], word: str = "or") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def _signed(value: int) -> str:
    return f"+{value}" if value >= 0 else f"{MINUS}{-value}"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


# --- drawing -------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """A table cell: text, or tick boxes, optionally after a faction's mark."""

    text: str = ""
    span: int = 1
    align: Align | None = None
    bold: bool = False
    fill: str | None = None
    mark: str | None = None
    """A faction id: its mark is drawn before the text (the fill, if any, is its colour)."""
    boxes: tuple[str, ...] = ()
    """Tick boxes, each with its label, drawn instead of the text."""
    runs: tuple[tuple[str, str], ...] = ()
    """(text, font) runs flowed together, wrapped, instead of the text (tables with `wrap`)."""
    size: float | None = None
    """A type size other than the table's."""


@dataclass(frozen=True)
class Column:
    share: float
    """The column's share of the table width (shares are normalised)."""
    align: Align = "left"


CellLike = Cell | str


def _cell(value: CellLike) -> Cell:
    return value if isinstance(value, Cell) else Cell(value)


class Sheet:
    """One page being drawn: its content frame, the title band, sections and tables, the footer."""

    def __init__(self, c: Canvas, style: FormStyle, scenario: Scenario, size: tuple[float, float], label: str) -> None:
        self.c, self.st, self.s = c, style, scenario
        self.width, self.height = size
        margin = style.margin_mm * MM
        self.left, self.right = margin, self.width - margin
        self.top = self.height - margin
        self.bottom = margin + style.footer_mm * MM
        self.label = label

    @property
    def span(self) -> float:
        return self.right - self.left

    # colours and text

    def fill(self, colour: str | tuple[float, float, float]) -> None:
        self.c.setFillColorRGB(*(hex_colour(colour) if isinstance(colour, str) else colour))

    def stroke(self, colour: str, width: float) -> None:
        self.c.setStrokeColorRGB(*hex_colour(colour))
        self.c.setLineWidth(width)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        *,
        font: str = SANS,
        size: float | None = None,
        align: Align = "left",
        colour: str | tuple[float, float, float] | None = None,
        fit: float | None = None,
    ) -> float:
        """Draw one line at baseline y; shrink it (not below the style's minimum) to fit `fit` points.
        Returns the width drawn."""
        size = size or self.st.fonts.body
        if fit is not None:
            while size > self.st.fonts.min and text_width(text, font, size) > fit:
                size = max(self.st.fonts.min, size - 0.2)
        self.fill(colour or self.st.colours.ink)
        self.c.setFont(font, size)
        w = text_width(text, font, size)
        if align == "centre":
            self.c.drawCentredString(x, y, text)
        elif align == "right":
            self.c.drawRightString(x, y, text)
        else:
            self.c.drawString(x, y, text)
        return w

    def wrap(self, text: str, font: str, size: float, width: float) -> list[str]:
        from reportlab.lib.utils import simpleSplit

        lines: list[str] = simpleSplit(text, font, size, width)
        return lines or [""]

    def flow(self, runs: Sequence[tuple[str, str]], size: float, width: float) -> list[list[tuple[str, str]]]:
        """Runs of (text, font) wrapped into lines of (piece, font), each piece ending in its space."""
        words = [(w + " ", font) for text, font in runs for w in text.split()]
        lines: list[list[tuple[str, str]]] = [[]]
        used = 0.0
        for word, font in words:
            w = text_width(word, font, size)
            if lines[-1] and used + w - text_width(" ", font, size) > width:
                lines.append([])
                used = 0.0
            lines[-1].append((word, font))
            used += w
        return lines

    def para(
        self,
        x: float,
        y: float,
        width: float,
        text: str,
        *,
        font: str = SANS,
        size: float | None = None,
        leading: float | None = None,
        colour: str | None = None,
        lead: str | None = None,
    ) -> float:
        """A wrapped paragraph, its first baseline `size` under y; `lead` is a bold run-in.
        Returns the y under it."""
        size = size or self.st.fonts.body
        leading = leading or self.st.charts.leading
        indent = text_width(lead + " ", SANS_BOLD, size) if lead else 0.0
        first = self.wrap(text, font, size, width - indent)[0]
        rest = text[len(first) :].strip()
        lines = [first] + (self.wrap(rest, font, size, width) if rest else [])
        base = y - size
        if lead:
            self.text(x, base, lead, font=SANS_BOLD, size=size, colour=colour)
        for k, line in enumerate(lines):
            self.text(x + (indent if k == 0 else 0), base, line, font=font, size=size, colour=colour)
            base -= leading
        return base + leading - size * 0.45

    def bullets(self, x: float, y: float, width: float, items: Sequence[tuple[str, str]], *, gap: float = 2.5) -> float:
        """Run-in paragraphs (bold lead, text), each after a small square bullet."""
        size = self.st.fonts.body
        for lead, text in items:
            self.fill(self.st.colours.heading)
            self.c.rect(x, y - size * 0.78, size * 0.38, size * 0.38, stroke=0, fill=1)
            y = self.para(x + size * 0.85, y, width - size * 0.85, text, lead=lead) - gap
        return y + gap

    def step_number(self, cx: float, cy: float, r: float, n: int) -> None:
        """A step of the turn's number, white in a dark disc centred at (cx, cy)."""
        st = self.st
        self.fill(st.colours.heading)
        self.c.circle(cx, cy, r, stroke=0, fill=1)
        size = st.fonts.field
        self.text(
            cx, cy - size * 0.36, str(n), font=SANS_BOLD, size=size, align="centre", colour=ink_on(st.colours.heading)
        )

    def box(self, x: float, y: float, size: float | None = None, *, fill: str | None = None) -> None:
        """A tick box, bottom-left at (x, y)."""
        size = size or self.st.forms.box
        self.stroke(self.st.colours.ink, self.st.widths.frame * 0.8)
        if fill:
            self.fill(fill)
        else:
            self.fill(self.st.colours.paper)
        self.c.rect(x, y, size, size, stroke=1, fill=1)

    def mark(self, faction: str, cx: float, cy: float, size: float, colour: str | tuple[float, float, float]) -> None:
        self.fill(colour)
        faction_mark(self.c, faction, cx, cy, size)

    def chip(
        self,
        x: float,
        y: float,
        h: float,
        faction: Faction,
        *,
        name: bool = True,
        size: float | None = None,
        width: float | None = None,
    ) -> float:
        """The faction's colour patch with its mark (and name), bottom-left at (x, y); returns its width."""
        size = size or self.st.fonts.table
        ink = ink_on(faction.colour)
        w = width or h + (text_width(faction.name, SANS_BOLD, size) + PAD * 1.5 if name else 0)
        self.fill(faction.colour)
        self.stroke(self.st.colours.ink, self.st.widths.rule)
        self.c.rect(x, y, w, h, stroke=1, fill=1)
        self.mark(faction.id, x + h / 2, y + h / 2, h * 0.66, ink)
        if name:
            self.text(x + h, y + h / 2 - size * 0.36, faction.name, font=SANS_BOLD, size=size, colour=ink)
        return w

    def writing_line(self, x0: float, x1: float, y: float) -> None:
        self.stroke(self.st.colours.rule, self.st.widths.writing)
        self.c.line(x0, y, x1, y)

    def field(self, x: float, y: float, label: str, width: float) -> float:
        """A write-in field: label, then a line to x + width. Returns the x after it."""
        w = self.text(x, y, label, font=SANS_BOLD, size=self.st.fonts.field)
        self.writing_line(x + w + PAD, x + width - PAD * 2, y - 1.5)
        return x + width

    def ticks(self, x: float, y: float, labels: Sequence[str], *, size: float | None = None, gap: float = 8) -> float:
        """Tick boxes with labels after them on baseline y; returns the x after the last."""
        size = size or self.st.fonts.field
        b = self.st.forms.box
        for label in labels:
            self.box(x, y - 0.5, b)
            x += b + 2.5
            x += self.text(x, y, label, size=size) + gap
        return x

    def faction_ticks(self, x: float, y: float, factions: Sequence[Faction]) -> float:
        """A tick box and chip for each faction, on baseline y; returns the x after the last."""
        b = self.st.forms.box
        h = self.st.fonts.field * 1.55
        for f in factions:
            self.box(x, y - 0.5, b)
            x += b + 3
            x += self.chip(x, y - h * 0.3, h, f, size=self.st.fonts.small + 0.6) + 9
        return x

    # page structure

    def band(self, title: str, faction: Faction | None = None, note: str | None = None) -> float:
        """The title band across the top; returns the y under it, a gap below."""
        st = self.st
        h = st.band_mm * MM
        colour = faction.colour if faction else st.colours.band
        ink = ink_on(colour)
        self.fill(colour)
        self.stroke(st.colours.ink, st.widths.frame)
        self.c.rect(self.left, self.top - h, self.span, h, stroke=1, fill=1)
        x = self.left + h * 0.3
        if faction:
            self.mark(faction.id, self.left + h * 0.55, self.top - h / 2, h * 0.68, ink)
            x = self.left + h * 1.1
        base = self.top - h / 2 - st.fonts.title * 0.36
        x += self.text(x, base, title, font=SANS_BOLD, size=st.fonts.title, colour=ink)
        if note:
            self.text(x + 8, base, note, font=SANS, size=st.fonts.title * 0.72, colour=ink)
        right = self.right - h * 0.3
        self.text(
            right,
            self.top - h / 2 + 1,
            self.s.meta.title,
            font=SANS_BOLD,
            size=st.fonts.band_note,
            align="right",
            colour=ink,
        )
        self.text(
            right,
            self.top - h / 2 - st.fonts.band_note - 0.5,
            self.s.meta.subtitle,
            size=st.fonts.small,
            align="right",
            colour=ink,
        )
        return self.top - h - st.gap

    def heading(self, x: float, y: float, width: float, text: str, ref: str = "") -> float:
        """A section heading bar; returns the y under it."""
        st = self.st
        h = st.fonts.heading * 1.75
        self.fill(st.colours.heading)
        self.c.rect(x, y - h, width, h, stroke=0, fill=1)
        ink = ink_on(st.colours.heading)
        base = y - h / 2 - st.fonts.heading * 0.36
        self.text(x + PAD * 1.5, base, text.upper(), font=SANS_BOLD, size=st.fonts.heading, colour=ink)
        if ref:
            self.text(x + width - PAD * 1.5, base, ref, font=SANS, size=st.fonts.small, align="right", colour=ink)
        return y - h - 3.5

    def finish(self, y: float, number: int, total: int) -> None:
        """Check the content ended above the footer, draw the footer and end the page."""
        if y < self.bottom - 0.5:
            raise ValueError(f"{self.label}, page {number}: the content runs {self.bottom - y:.0f} pt into the footer")
        st = self.st
        line = self.bottom - st.footer_mm * MM * 0.35
        self.stroke(st.colours.rule, st.widths.rule)
        self.c.line(self.left, line, self.right, line)
        base = line - st.fonts.footer * 1.3
        from kitgen.buildinfo import edition

        self.text(
            self.left,
            base,
            f"{self.s.meta.title}  \u00b7  {self.label}  \u00b7  {edition()}",
            size=st.fonts.footer,
            colour=st.colours.muted,
        )
        self.text(
            self.right, base, f"Page {number} of {total}", size=st.fonts.footer, align="right", colour=st.colours.muted
        )
        self.c.showPage()

    # tables

    def table(
        self,
        x: float,
        y: float,
        width: float,
        columns: Sequence[Column],
        headers: Sequence[Sequence[CellLike]],
        rows: Sequence[Sequence[CellLike]],
        *,
        row_h: float | None = None,
        wrap: bool = False,
        tint: bool = True,
        size: float | None = None,
    ) -> float:
        """Draw a table with its top-left at (x, y); returns the y under it.

        Header rows are shaded and bold; body rows alternate with a light tint. With `wrap`,
        body text wraps and a row grows to hold it; otherwise a line shrinks to fit its cell."""
        st = self.st
        size = size or st.fonts.table
        row_h = row_h or st.charts.row
        total = sum(col.share for col in columns)
        widths = [width * col.share / total for col in columns]
        edges = [x]
        for w in widths:
            edges.append(edges[-1] + w)
        top = y

        for header in headers:
            cells = [_cell(v) for v in header]
            lines = max(len(c.text.split("\n")) for c in cells)
            h = max(st.charts.header_row, lines * st.fonts.header * 1.15 + PAD * 1.6)
            self._row(edges, columns, cells, y, h, SANS_BOLD, st.fonts.header, st.colours.header, header=True)
            y -= h
        header_bottom = y

        for k, row in enumerate(rows):
            cells = [_cell(v) for v in row]
            grows = wrap or self._overflows(edges, cells, size)
            h = self._row_height(edges, cells, size, row_h) if grows else row_h
            shade = st.colours.tint if tint and k % 2 == 1 else None
            self._row(edges, columns, cells, y, h, SANS, size, shade, wrap=grows)
            y -= h

        # rules: rows, columns, the header's foot, the frame
        self.stroke(st.colours.ink, st.widths.frame)
        self.c.rect(x, y, width, top - y, stroke=1, fill=0)
        if headers:
            self.c.line(x, header_bottom, x + width, header_bottom)
        return y

    def _row_height(self, edges: Sequence[float], cells: Sequence[Cell], size: float, least: float) -> float:
        """A wrapped body row's height: its tallest cell's lines."""
        h, col = least, 0
        for cell in cells:
            w = edges[col + cell.span] - edges[col] - 2 * PAD
            cs = cell.size or size
            if cell.runs:
                n = len(self.flow(cell.runs, cs, w))
            else:
                n = len(self.wrap(cell.text, SANS_BOLD if cell.bold else SANS, cs, w))
            h = max(h, n * cs * 1.2 + PAD * 1.4)
            col += cell.span
        return h

    def _overflows(self, edges: Sequence[float], cells: Sequence[Cell], size: float) -> bool:
        """Whether a line of the row is wider than its cell even at the style's smallest size:
        such a row wraps rather than run over its neighbour."""
        least, col = self.st.fonts.min, 0
        for cell in cells:
            w = edges[col + cell.span] - edges[col] - 2 * PAD
            if cell.mark:
                w -= min(self.st.charts.row - PAD, (cell.size or size) * 1.5) + PAD
            font = SANS_BOLD if cell.bold else SANS
            lines = cell.text.split("\n") if cell.text and not (cell.runs or cell.boxes) else []
            if any(text_width(line, font, least) > w for line in lines):
                return True
            col += cell.span
        return False

    def row_heights(
        self,
        width: float,
        columns: Sequence[Column],
        rows: Sequence[Sequence[CellLike]],
        size: float | None = None,
        *,
        wrap: bool = True,
    ) -> list[float]:
        """The height each body row of a table `width` wide would take, as `table` draws it."""
        total = sum(col.share for col in columns)
        edges = [0.0]
        for col in columns:
            edges.append(edges[-1] + width * col.share / total)
        size = size or self.st.fonts.table
        least = self.st.charts.row
        heights = []
        for row in rows:
            cells = [_cell(v) for v in row]
            grows = wrap or self._overflows(edges, cells, size)
            heights.append(self._row_height(edges, cells, size, least) if grows else least)
        return heights

    def _row(
        self,
        edges: Sequence[float],
        columns: Sequence[Column],
        cells: Sequence[Cell],
        top: float,
        h: float,
        font: str,
        size: float,
        shade: str | None,
        *,
        header: bool = False,
        wrap: bool = False,
    ) -> None:
        st = self.st
        if shade:
            self.fill(shade)
            self.c.rect(edges[0], top - h, edges[-1] - edges[0], h, stroke=0, fill=1)
        col = 0
        for cell in cells:
            x0, x1 = edges[col], edges[min(col + cell.span, len(columns))]
            align = cell.align or ("centre" if header and columns[col].align != "left" else columns[col].align)
            self._cell(x0, top - h, x1 - x0, h, cell, align, SANS_BOLD if cell.bold else font, size, wrap)
            col += cell.span
            if col < len(columns):
                self.stroke(st.colours.rule, st.widths.rule)
                self.c.line(x1, top, x1, top - h)
        self.stroke(st.colours.rule, st.widths.rule)
        self.c.line(edges[0], top - h, edges[-1], top - h)

    def _cell(
        self, x: float, y: float, w: float, h: float, cell: Cell, align: Align, font: str, size: float, wrap: bool
    ) -> None:
        ink: str | tuple[float, float, float] = self.st.colours.ink
        if cell.fill:
            self.fill(cell.fill)
            self.c.rect(x, y, w, h, stroke=0, fill=1)
            ink = ink_on(cell.fill)
        left = x + PAD
        if cell.mark:
            m = min(h - PAD, size * 1.5)
            self.mark(cell.mark, left + m / 2, y + h / 2, m, ink)
            left += m + PAD
        inner = x + w - PAD - left
        size = cell.size or size
        if cell.boxes:
            self._boxes(left, x + w - PAD, y, h, cell.boxes, align)
            return
        if cell.runs:
            base = y + h - PAD * 0.7 - size * 0.85
            for pieces in self.flow(cell.runs, size, inner):
                xx = left
                for word, wfont in pieces:
                    xx += self.text(xx, base, word, font=wfont, size=size, colour=ink)
                base -= size * 1.2
            return
        if not cell.text:
            return
        lines = self.wrap(cell.text, font, size, inner) if wrap and "\n" not in cell.text else cell.text.split("\n")
        leading = size * 1.15 if not wrap else size * 1.2
        block = leading * (len(lines) - 1)
        base = y + h / 2 + block / 2 - size * 0.36
        if wrap and len(lines) > 1:
            base = y + h - PAD * 0.7 - size * 0.85
        for line in lines:
            if align == "centre":
                self.text(
                    (left + x + w - PAD) / 2, base, line, font=font, size=size, align="centre", colour=ink, fit=inner
                )
            elif align == "right":
                self.text(x + w - PAD, base, line, font=font, size=size, align="right", colour=ink, fit=inner)
            else:
                self.text(left, base, line, font=font, size=size, colour=ink, fit=inner)
            base -= leading

    def _boxes(self, x0: float, x1: float, y: float, h: float, labels: Sequence[str], align: Align) -> None:
        b = self.st.forms.box
        size = self.st.fonts.small
        parts = [b + 2 + text_width(label, SANS, size) for label in labels]
        gap = 5.0
        total = sum(parts) + gap * (len(parts) - 1)
        x = (x0 + x1 - total) / 2 if align == "centre" else x0
        for label, part in zip(labels, parts, strict=True):
            self.box(x, y + (h - b) / 2, b)
            self.text(x + b + 2, y + h / 2 - size * 0.36, label, size=size)
            x += part + gap


# --- the player aids -----------------------------------------------------------------


Page = tuple[str, str, Callable[["Sheet"], float]]
"""One page of a part: its outline title ('' for a page that carries on the one before, as a
card's back does), its bookmark key, and what draws it (returning the y where its content ends)."""


def sheets_part(
    scenario: Scenario,
    paper: str,
    pages: Sequence[Page],
    *,
    label: str,
    file: str,
    title: str,
    purpose: str,
    duplex: bool = False,
    wide: frozenset[str] = frozenset(),
) -> Part:
    """A part of one Sheet per page, each titled page in the outline, on A4 or US Letter; the
    pages whose keys are in `wide` are landscape."""
    style = form_style()
    size = PAPER[paper]
    buffer = io.BytesIO()
    c = new_canvas(buffer, size, scenario, label.lower())
    for number, (heading, key, draw) in enumerate(pages, start=1):
        page_size = landscape(size) if key in wide else size
        set_page(c, page_size)
        if heading:
            c.bookmarkPage(key)
            c.addOutlineEntry(heading, key, level=0)
        sheet = Sheet(c, style, scenario, page_size, label)
        sheet.finish(draw(sheet), number, len(pages))
    c.save()
    bookmarks = tuple((heading, number) for number, (heading, _, _) in enumerate(pages) if heading)
    return Part(
        file=file,
        title=title,
        purpose=purpose,
        pdf=buffer.getvalue(),
        pages=len(pages),
        bookmarks=bookmarks,
        duplex=duplex,
    )


def table_pages(
    scenario: Scenario,
    paper: str,
    title: str,
    key: str,
    faction: str | None,
    heading: tuple[str, str],
    columns: list[Column],
    header: Sequence[CellLike],
    rows: list[list[Any]],
    *,
    before: Callable[[Sheet, float], float] | None = None,
    reserve: float = 0.0,
    wrap: bool = False,
) -> list[Page]:
    """A table over as many pages as its rows need, each page with the band and heading;
    `before` draws above the first page's table, taking `reserve` points."""
    st = form_style()
    probe = Sheet(None, st, scenario, PAPER[paper], "")  # type: ignore[arg-type]  # its geometry only
    height = probe.top - probe.bottom - st.band_mm * MM - st.gap
    height -= st.fonts.heading * 1.75 + 3.5 + st.charts.header_row + 6
    heights = probe.row_heights(probe.span, columns, rows, wrap=wrap)
    chunks: list[list[list[Any]]] = [[]]
    room = height - reserve
    for row, h in zip(rows, heights, strict=True):
        if chunks[-1] and h > room:
            chunks.append([])
            room = height
        chunks[-1].append(row)
        room -= h
    f = scenario.faction(faction) if faction else None
    pages: list[Page] = []
    for k, chunk in enumerate(chunks):
        more = f" ({k + 1} of {len(chunks)})" if len(chunks) > 1 else ""

        def draw(sheet: Sheet, chunk: list[list[Any]] = chunk, k: int = k, more: str = more) -> float:
            y = sheet.band(title + more, f, "")
            if k == 0 and before is not None:
                y = before(sheet, y)
            y = sheet.heading(sheet.left, y, sheet.span, heading[0], heading[1])
            return sheet.table(sheet.left, y, sheet.span, columns, [header], chunk, wrap=wrap)

        pages.append((title + more, f"{key}-{k + 1}", draw))
    return pages


def build_charts(scenario: Scenario, paper: str) -> list[Part]:
    """The player aids: a two-sided card per faction, in the order of the scenario's factions."""
    pages: list[Page] = []
    for f in scenario.meta.factions:
        pages.append((f"Player aid: {f.name}", f"aid-{f.id}", partial(_aid_front, faction=f)))
        pages.append(("", f"aid-{f.id}-back", partial(_aid_back, faction=f)))
    part = sheets_part(
        scenario,
        paper,
        pages,
        label="Player aids",
        file=f"player-aids-{paper}.pdf",
        title="Player aids",
        purpose="a two-sided card per faction: the sequence of play, terrain effects, supply, trains and "
        "ships; on the back command control, commanders and the reinforcement chart",
        duplex=True,
    )
    return [part]


def _aid_front(sheet: Sheet, faction: Faction) -> float:
    """Side 1: the sequence of play, then moving and supplying."""
    st = sheet.st
    y = sheet.band(faction.name, faction, "Player aid")
    y = _sequence(sheet, y)
    y = _terrain_table(sheet, y - st.gap)
    return _supply_and_transport(sheet, y - st.gap, faction)


def _aid_back(sheet: Sheet, faction: Faction) -> float:
    """Side 2: commanding, the partisans and the faction's chart."""
    s, st = sheet.s, sheet.st
    y = sheet.band(faction.name, faction, "Player aid, side 2")
    side = None
    if _all_partisans(s, faction) or _partisan_units(s, faction):

        def side(x: float, top: float, width: float) -> float:
            return _partisans(sheet, x, top, width, faction)

    y = _command(sheet, y, faction, side=side)
    y = _after_battle(sheet, y - st.gap)
    if _all_partisans(s, faction):
        y = _strength_chart(sheet, y - st.gap)
    if faction.id in s.victory.reinforcement_chart.draws:
        y = _reinforcement_chart(sheet, y - st.gap, faction)
    return y


def _after_battle(sheet: Sheet, y: float) -> float:
    """II.B: the retreat and II.B.3's losses, as the booklet's table gives them."""
    from kitgen.products.booklet import losses_rows

    s, st = sheet.s, sheet.st
    b = s.battle
    y = sheet.heading(sheet.left, y, sheet.span, "After a battle", "II.B")
    text_w = sheet.span * 0.34
    exempt = " and ".join(x.title() for x in b.loser.routed_lost_exempt)
    items = [
        (
            "Retreat:",
            f"the loser retreats {plural(b.retreat_hexes, 'hex', 'hexes')} away from the enemy; if it cannot, all "
            f"but its {exempt} units surrender, and those attack at once to break out or perish.",
        ),
        ("Losses:", "unit by unit, stand by stand, rounded half up; the rest come back next turn."),
        ("Trains and depots", "are captured when enemy units enter their hexes."),
    ]
    ty = sheet.bullets(sheet.left, y, text_w, items, gap=0.8)
    header, *rows = losses_rows(s)
    tx = sheet.left + text_w + st.gap * 1.5
    columns = [Column(0.7), Column(0.9, "centre"), Column(0.9, "centre"), Column(2.1), Column(2.3)]
    body: list[list[CellLike]] = [[Cell(r[0], bold=True), *r[1:]] for r in rows]
    cy = sheet.table(tx, y, sheet.right - tx, columns, [list(header)], body, wrap=True)
    return min(ty, cy)


def _sequence(sheet: Sheet, y: float) -> float:
    """The ten steps of a turn in two columns: each numbered, its title and rules, what is done."""
    st = sheet.st
    steps = turn_sequence(sheet.s)
    y = sheet.heading(sheet.left, y, sheet.span, "Sequence of play", "each strategic turn")
    per = math.ceil(len(steps) / 2)
    width = (sheet.span - st.gap) / 2
    r = st.fonts.field * 0.8
    row = st.fonts.body * 1.25 + st.fonts.small * 1.3 + 3
    top = y
    for k, step in enumerate(steps):
        x = sheet.left + (k // per) * (width + st.gap)
        row_top = top - (k % per) * row
        if k % per % 2 == 1:  # rows striped alike in both columns
            sheet.fill(st.colours.tint)
            sheet.c.rect(x, row_top - row, width, row, stroke=0, fill=1)
        cy = row_top - row / 2
        sheet.step_number(x + PAD + r, cy, r, k + 1)
        tx = x + PAD * 2.5 + 2 * r
        base = row_top - 2 - st.fonts.body
        sheet.text(tx, base, step.title, font=SANS_BOLD, size=st.fonts.body)
        if step.rule:
            sheet.text(x + width - PAD, base, step.rule, size=st.fonts.small, align="right", colour=st.colours.muted)
        sheet.text(
            tx,
            base - st.fonts.small * 1.3,
            step.hint,
            font=SANS_ITALIC,
            size=st.fonts.small,
            colour=st.colours.muted,
            fit=x + width - PAD - tx,
        )
    bottom = top - per * row
    sheet.stroke(st.colours.ink, st.widths.frame)
    for column in range(2):
        x = sheet.left + column * (width + st.gap)
        sheet.c.rect(x, bottom, width, top - bottom, stroke=1, fill=0)
    return bottom


def _terrain_table(sheet: Sheet, y: float) -> float:
    s, st = sheet.s, sheet.st
    mv = s.movement
    names = {u.id: u.name for u in mv.unit_types}
    terrain = mv.terrain
    y = sheet.heading(sheet.left, y, sheet.span, "Terrain effects on movement", "A")
    columns = [Column(2.1), Column(0.8, "centre")] + [Column(1, "centre") for _ in terrain] + [Column(1.3, "centre")]
    header: list[CellLike] = ["Unit type", "MP", *[t.name for t in terrain], "Crossable river"]
    sub: list[CellLike] = [
        "",
        "a turn",
        Cell("MP to enter a hex", span=len(terrain)),
        "extra MP at the hexside",
    ]

    def cost(value: int | str) -> Cell:
        if value == PROHIBITED:
            return Cell(PROHIBITED, fill=st.colours.prohibited, bold=True)
        return Cell(str(value))

    rows: list[list[CellLike]] = []
    for u in mv.unit_types:
        if u.moves_as:
            continue
        if u.rail_only:
            rows.append([Cell(u.name, bold=True), str(u.mp), Cell("on rail track only", span=len(terrain) + 1)])
            continue
        river = u.crossable_river
        rcell = Cell("") if river is None else cost(river) if river == PROHIBITED else Cell(f"+{river}")
        costs = [cost((u.cost or {})[t.id]) for t in terrain]
        rows.append([Cell(u.name, bold=True), str(u.mp), *costs, rcell])
    top = y
    y = sheet.table(sheet.left, y, sheet.span, columns, [header, sub], rows)
    _terrain_swatches(sheet, top, columns, [t.id for t in terrain])
    alike: dict[str, list[str]] = {}
    for u in mv.unit_types:
        if u.moves_as:
            alike.setdefault(u.moves_as, []).append(u.name)
    notes = [
        (
            f"{PROHIBITED}",
            f"prohibited unless a road or rail line runs through the hex; along it the hex costs {mv.road_cost} MP. "
            "A unit stops when the next hex costs more than it has left.",
        ),
    ]
    if alike:
        moves = "; ".join(f"{_either(alike[k], 'and')} as {names[k]}" for k in alike)
        notes.append(("Move alike:", moves + "."))
    notes.append(
        (
            "Rivers:",
            "a bridge (road or rail crossing) cancels the river cost. Major-river hexsides only at a bridge, "
            "or by pontoon, which takes the whole move.",
        )
    )
    breakdowns = [
        f"{names[b.unit_type]} {b.roll}, lost on {_either([str(v) for v in b.fails_on])}" for b in mv.breakdown
    ]
    if breakdowns:
        carried = " (none when carried by train or ship)" if mv.breakdown_exempt_when_carried else ""
        notes.append(("Breakdown", "each turn a vehicle moves on the map: " + "; ".join(breakdowns) + carried + "."))
    notes.append(
        (
            "Rail and sea:",
            "no map move the turn a unit boards or leaves a train or ship; landings on a coast by infantry only.",
        )
    )
    return sheet.bullets(sheet.left, y - 2, sheet.span, notes, gap=0.8)


def _terrain_swatches(sheet: Sheet, top: float, columns: Sequence[Column], terrain: Sequence[str]) -> None:
    """In the terrain table's header, beside each terrain's name, its hex as the map draws it (its
    colour and symbol): the chart's columns tied to the map."""
    from kitgen.render.mapart import terrain_swatch
    from kitgen.render.style import map_style

    st = sheet.st
    total = sum(col.share for col in columns)
    edges = [sheet.left]
    for col in columns:
        edges.append(edges[-1] + sheet.span * col.share / total)
    h = st.charts.header_row
    across = h * 0.8
    for k, terrain_id in enumerate(terrain):
        left = edges[2 + k]
        terrain_swatch(sheet.c, map_style(), terrain_id, left + PAD + across * 0.58, top - h / 2, across)


def _source_text(source: SupplySource) -> str:
    if source.rail_exits is not None:
        limits = [f"{k.replace('_', ' ')} {v}" for k, v in source.limits().items() if v]
        return f"rail exits on the {source.rail_exits} edge" + (f" {' '.join(limits)}" if limits else "")
    if source.town is not None:
        return source.town + (" while held" if source.while_held else "")
    if source.ports is not None:
        return "ports held, with a friendly ship in or next to them"
    return "captured depots"


def _supply_and_transport(sheet: Sheet, y: float, faction: Faction) -> float:
    s, st = sheet.s, sheet.st
    sup, tr = s.supply, s.transport
    gutter = st.gap * 1.5
    left_w = sheet.span * 0.55
    right_x = sheet.left + left_w + gutter
    right_w = sheet.right - right_x
    stands = {k.id: k.name for k in tr.stands}
    types = {u.id: u for u in s.movement.unit_types}

    # supply, on the left
    ly = sheet.heading(sheet.left, y, left_w, "Supply", "B")
    sources = s.map.supply_sources.get(faction.id, [])
    rail = " (the rail any length)" if sup.rail_unlimited else ""
    cut = sup.depot_cutoff
    first = cut.empties_on_first_use
    second = first + cut.added_each_further_use
    third = second + cut.added_each_further_use
    fuel = sup.fuel
    vehicles = _either([types[v].name if v in types else stands.get(v, v) for v in fuel.vehicles], "and")
    odd = "odd" if fuel.intact_on == "even" else "even"
    loads = "; ".join(
        f"{_short(stands.get(a.stand, a.stand))} {a.rounds} {a.unit}"
        + (f" of {_either(a.natures)}" if a.natures else "")
        for a in sup.ammo
    )
    items = [
        (
            "In supply",
            f"(judged at the start of each turn): at most {sup.trace_hexes} hexes free of enemy units to rail "
            f"track linked to a supply source{rail}.",
        ),
    ]
    if sources:
        items.append(("Your sources:", _either([_source_text(src) for src in sources], "and") + "."))
    items += [
        (
            "Ammunition:",
            f"battles start with full loads ({loads}), renewed in {_plural(sup.resupply_turns, 'full turn')} still "
            "at the friendly board edge or a depot. Out of supply: what is left; no board-edge resupply.",
        ),
        (
            "Cut-off depot:",
            f"{cut.roll} each turn it is used; empty on {_upto(first)} the first turn, {_upto(second)} the second, "
            f"{_upto(third)} the third, and so on.",
        ),
        (
            "Fuel:",
            f"{vehicles} starting a turn out of supply get {_plural(fuel.moves_out_of_supply, 'turn')} of map "
            f"movement, then are immobilised; a turn later, still out of supply, abandoned: {fuel.abandon_roll}, "
            f"{fuel.intact_on} left intact, {odd} destroyed. "
            f"Tabletop, out of supply: {fuel.tabletop_moves_roll} moves.",
        ),
    ]
    ly = sheet.bullets(sheet.left, ly, left_w, items, gap=0.8)

    # trains and ships, on the right
    ry = sheet.heading(right_x, y, right_w, "Trains and ships", "C, D")
    train_mp = types[tr.train.unit_type].mp if tr.train.unit_type in types else None
    mp = f", {train_mp} MP a turn on rail track" if train_mp else ""
    ry = sheet.bullets(
        right_x,
        ry,
        right_w,
        [
            ("Train:", f"carries {tr.train.capacity} points{mp}."),
            (
                "Ship:",
                f"{tr.ship.move_hexes} hexes a turn, carries {tr.ship.capacity} points; board in port at the "
                "start of the turn.",
            ),
        ],
        gap=0.8,
    )
    kinds = list(tr.stands)
    groups = 3
    per = math.ceil(len(kinds) / groups)
    rows: list[list[CellLike]] = []
    for k in range(per):
        row: list[CellLike] = []
        for g in range(groups):
            if g * per + k < len(kinds):
                kind = kinds[g * per + k]
                short = _short(kind.name)
                row += [short[:1].upper() + short[1:], Cell(str(kind.points), bold=True)]
            else:
                row += ["", ""]
        rows.append(row)
    cols = [Column(2.45), Column(0.8, "centre")] * groups
    ry = sheet.table(right_x, ry - 2, right_w, cols, [["Load (a stand)", "Pts"] * groups], rows)
    track = tr.track
    repair = _either([types[t].name if t in types else t for t in track.repair_unit_types], "and")
    wreck = _either([types[t].name.lower() if t in types else t for t in track.wreck_unit_types])
    ry = sheet.bullets(
        right_x,
        ry - 2,
        right_w,
        [
            (
                "Track:",
                f"{repair} repair {track.repair_hexes_per_turn} hexes a turn; an {wreck} unit of "
                f"{track.wreck_min_stands}+ stands wrecks the track of a hex it enters.",
            )
        ],
    )
    return min(ly, ry)


def _command(
    sheet: Sheet, y: float, faction: Faction, side: Callable[[float, float, float], float] | None = None
) -> float:
    """Command control and the faction's commanders; `side(x, y, width)` fills the right of the row
    when the commanders need only one column."""
    s, st = sheet.s, sheet.st
    cmd = s.command
    commanders = [c for c in s.commanders if c.faction == faction.id]
    per = st.charts.commander_rows
    groups = max(1, math.ceil(len(commanders) / per))
    gutter = st.gap * 1.5
    width = sheet.span if side is None or groups > 1 else sheet.span * 0.55
    y0 = y
    y = sheet.heading(sheet.left, y, width, "Command control", "II.C")
    text_w = (width - gutter) * (0.34 if width == sheet.span else 0.62)
    items = [
        (
            "Roll",
            f"{cmd.roll} for each commander after orders are written: at or under his dependability (Dep.), "
            "his units obey.",
        ),
        (
            "No commander",
            f"in the hex: obey on {_upto(cmd.leaderless.adjacent)} if one is adjacent, {_upto(cmd.leaderless.alone)} if not.",
        ),
        (
            "Failure:",
            f"the units stay put (a retreat goes on); his next roll is {cmd.failure_bonus} lower, "
            "cumulative, until he obeys.",
        ),
        ("Rank:", "only the highest in a hex rolls (No. 1 highest)."),
        ("C", "= charismatic: tabletop battles only."),
    ]
    ty = sheet.bullets(sheet.left, y, text_w, items, gap=0.8)
    rows_n = math.ceil(len(commanders) / groups)
    tx = sheet.left + text_w + gutter
    tw = sheet.left + width - tx
    if width == sheet.span:
        tw = tw * groups / max(groups, 3)
    columns = [Column(0.5, "centre"), Column(2.75), Column(0.7, "centre"), Column(0.45, "centre")] * groups
    header: list[CellLike] = ["No.", "Commander", "Dep.", "C"] * groups
    rows: list[list[CellLike]] = []
    for r in range(rows_n):
        row: list[CellLike] = []
        for g in range(groups):
            k = g * rows_n + r
            if k < len(commanders):
                c = commanders[k]
                row += [str(k + 1), Cell(c.name, bold=True), str(c.dependability), "C" if c.charismatic else ""]
            else:
                row += ["", "", "", ""]
        rows.append(row)
    cy = sheet.table(tx, y, tw, columns, [header], rows)
    bottom = min(ty, cy)
    if side is not None and width < sheet.span:
        sx = sheet.left + width + gutter
        bottom = min(bottom, side(sx, y0, sheet.right - sx))
    elif side is not None:
        bottom = side(sheet.left, bottom - st.gap, sheet.span)
    return bottom


def placement_text(s: Scenario, faction: Faction, placement: Placement) -> str:
    parts = []
    if placement.edges:
        edges = [f"the {e.edge} edge" + (f" north of {e.north_of}" if e.north_of else "") for e in placement.edges]
        parts.append("anywhere on " + _either(edges))
    if placement.supply_towns:
        towns = [src.town for src in s.map.supply_sources.get(faction.id, []) if src.town]
        parts.append(f"in {_either(towns)} if held" if towns else "in a supply-source town held")
    if placement.town:
        other = ", otherwise in your westernmost town" if placement.else_westernmost else ""
        parts.append(f"in {placement.town} if you hold it{other}")
    return _either(parts) + "."


def _reinforcement_chart(sheet: Sheet, y: float, faction: Faction) -> float:
    s, st = sheet.s, sheet.st
    v = s.victory
    chart = v.reinforcement_chart
    draws = chart.draws[faction.id]
    threshold = v.thresholds.get(faction.id)
    y = sheet.heading(sheet.left, y, sheet.span, f"{faction.adjective} reinforcement chart", "E, II.E")
    gutter = st.gap * 1.5
    x = sheet.left
    row_h = st.charts.row * 2
    if threshold:
        # the threshold, in a box of the faction's colour
        bw = sheet.span * 0.12
        hh = st.charts.header_row
        bh = hh + row_h
        sheet.fill(faction.colour)
        sheet.stroke(st.colours.ink, st.widths.frame)
        sheet.c.rect(x, y - bh, bw, bh, stroke=1, fill=1)
        sheet.c.line(x, y - hh, x + bw, y - hh)
        ink = ink_on(faction.colour)
        sheet.text(
            x + bw / 2,
            y - hh / 2 - st.fonts.header * 0.36,
            "Threshold",
            font=SANS_BOLD,
            size=st.fonts.header,
            align="centre",
            colour=ink,
        )
        big = st.fonts.title
        label = f"{threshold} VP"
        sheet.text(
            x + bw / 2, y - hh - row_h / 2 - big * 0.36, label, font=SANS_BOLD, size=big, align="centre", colour=ink
        )
        x += bw + gutter * 0.6
    chart_w = sheet.span * 0.42
    columns = [Column(2.0)] + [Column(1, "centre") for _ in draws]
    header: list[CellLike] = [f"{chart.roll} roll", *[str(k) for k in range(1, len(draws) + 1)]]
    row: list[CellLike] = [
        Cell("Draws from\nyour pile", bold=True),
        *[Cell(str(d), bold=True, size=st.fonts.title) for d in draws],
    ]
    cy = sheet.table(x, y, chart_w, columns, [header], [row], row_h=row_h)
    tx = x + chart_w + gutter
    tw = sheet.right - tx
    every = ordinal(v.award_every_turns)
    items = []
    if threshold:
        items.append(
            (
                "Roll",
                f"each time your VP total reaches {threshold}: subtract {threshold}, and roll again while still "
                f"at {threshold} or more. Towns score at the end of every {every} turn.",
            )
        )
    bonus = v.bonus.get(faction.id)
    if bonus:
        items.append(("Bonus:", f"every {every} turn the {faction.name} also add {bonus} VP."))
    placement = v.placement.get(faction.id)
    if placement:
        items.append(("Reinforcements", "arrive " + placement_text(s, faction, placement)))
    items.append(("Replacements", "go to your units on the map in supply and not surrounded."))
    items.append(
        ("Slips", "go back into the pile unless they say otherwise; placed at the end of the turn, they move the next.")
    )
    ty = sheet.bullets(tx, y, tw, items, gap=0.8)
    return min(cy, ty)


def _modifier_text(m: Modifier) -> str:
    return f"{_signed(m.value)} {m.text}"


def _strength_chart(sheet: Sheet, y: float) -> float:
    s, st = sheet.s, sheet.st
    v = s.victory
    ms = v.makhnovist_strength
    faction = s.faction(ms.faction)
    every = ordinal(v.award_every_turns)
    y = sheet.heading(sheet.left, y, sheet.span, "Current strength chart", "E.6")
    mods = "; ".join(_modifier_text(m) for m in ms.modifiers)
    towns = [src.town for src in s.map.supply_sources.get(ms.faction, []) if src.town]
    leader = next((c.name for c in s.commanders if c.faction == ms.faction), None)
    where = f" at {_either(towns)}" + (f", or with {leader} if you hold none" if leader else "") if towns else ""
    whose = faction.adjective if faction else ""
    y = sheet.para(
        sheet.left,
        y,
        sheet.span,
        f"every {every} turn {ms.roll} ({mods}). The row is your whole {whose} force for the next "
        f"{v.award_every_turns} turns: disband units beyond it, raise the rest{where}. Captured guns are kept apart.",
        lead="Roll",
    )
    stands = {k.id: k.name for k in s.transport.stands}
    used: dict[str, str] = {}
    rows: list[list[CellLike]] = []
    for r in s.cards.makhnovist_strength:
        roll = _num(r.low) if r.low == r.high else f"{_num(r.low)} to {_num(r.high)}"
        runs: list[tuple[str, str]] = [(r.text, SANS_ITALIC)]
        for k, u in enumerate(r.units):
            kinds = []
            for kind, n in u.stands.items():
                short = stand_abbreviation(s, kind)
                used[short] = _short(stands.get(kind, kind))
                kinds.append(f"{n} {short}")
            runs += [(u.name, SANS_BOLD), (f"({', '.join(kinds)})" + (";" if k < len(r.units) - 1 else ""), SANS)]
        runs[0] = (runs[0][0] + "  ", SANS_ITALIC)
        rows.append([Cell(roll, bold=True), Cell(runs=tuple(runs))])
    key = ", ".join(f"{a} {n}" for a, n in used.items())
    columns = [Column(0.55, "centre"), Column(6.5)]
    header: list[CellLike] = ["Roll", f"The movement, and the forces it fields (stands: {key})"]
    return sheet.table(sheet.left, y - 2, sheet.span, columns, [header], rows, wrap=True, size=st.fonts.table - 0.3)


def _num(n: int) -> str:
    return f"{MINUS}{-n}" if n < 0 else str(n)


def _partisan_units(s: Scenario, faction: Faction) -> list[str]:
    """The faction's units flagged as partisans, at the start and in its reinforcement pile."""
    names = [u.name for u in s.setup.units if u.faction == faction.id and "partisan" in u.flags]
    names += [u.name for slip in s.cards.piles.get(faction.id, []) for u in slip.units if "partisan" in u.flags]
    return list(dict.fromkeys(names))


def _all_partisans(s: Scenario, faction: Faction) -> bool:
    """The faction whose whole force is the strength chart's partisan bands (E.6, II.D)."""
    return faction.id == s.victory.makhnovist_strength.faction


def _partisans(sheet: Sheet, x: float, y: float, width: float, faction: Faction) -> float:
    s = sheet.s
    p = s.partisans
    y = sheet.heading(x, y, width, "Partisans", "II.D")
    evade = ", ".join(f"{_signed(m.value)} if {m.text}" for m in p.evade.modifiers)
    ambush = ", ".join(f"{_signed(m.value)} if {m.text}" for m in p.ambush.modifiers)
    items = []
    if not _all_partisans(s, faction):
        items.append(("Your partisans:", _either(_partisan_units(s, faction), "and") + "."))
    items += [
        (
            "Evade:",
            f"when contacted, each side rolls {p.evade.roll}; partisans add {evade}. On a strictly higher "
            "total, no battle; for VP and supply only the other side is there.",
        ),
        (
            "Ambush:",
            f"partisans in the hex that did not move roll {p.ambush.roll}: {p.ambush.succeeds_at}+ succeeds "
            f"({ambush}); the enemy sets up first, the partisans round them.",
        ),
    ]
    if p.artillery_cap_faction == faction.id:
        items.append(
            (
                "Guns:",
                f"the {faction.name} never have more than {p.artillery_cap} artillery batteries; guns captured "
                "beyond the cap are destroyed.",
            )
        )
    return sheet.bullets(x, y, width, items, gap=0.8)


# --- the forms -----------------------------------------------------------------------

FORMS = ("VP record track", "VP ledger", "Order form", "Command rolls", "Battle setup sheet", "Umpire's turn record")
ORDER_PAGES = (2, 3)
"""The order form's two sides, landscape: a path of twelve hexes needs the width."""


def build_forms(scenario: Scenario, paper: str) -> list[Part]:
    """The blank forms: VP record track, order form, battle setup sheet, umpire's turn record."""
    drawers: list[Callable[[Sheet], float]] = [
        _vp_track,
        _vp_ledger,
        _order_form,
        _command_rolls,
        _battle_sheet,
        _umpire_sheet,
    ]
    pages = [(title, f"form-{k}", draw) for k, (title, draw) in enumerate(zip(FORMS, drawers, strict=True), start=1)]
    part = sheets_part(
        scenario,
        paper,
        pages,
        label="Forms",
        file=f"forms-{paper}.pdf",
        title="Forms",
        purpose=(
            "blank forms to photocopy: VP record track and ledger, order form (two sides, landscape), "
            "battle setup sheet, umpire's turn record"
        ),
        wide=frozenset(f"form-{k + 1}" for k in ORDER_PAGES),
    )
    return [part]


def _scoring(s: Scenario) -> list[Faction]:
    return [f for f in s.meta.factions if f.scores_vp]


def _vp_track(sheet: Sheet) -> float:
    """One VP track for every faction and the game-turn track, their boxes sized for the
    marker sheet's VP and turn markers."""
    s, st = sheet.s, sheet.st
    v = s.victory
    fm = st.forms
    every = v.award_every_turns
    lap = fm.vp_track_max + 1
    factions = _scoring(s)
    y = sheet.band(FORMS[0])
    y = sheet.para(
        sheet.left,
        y,
        sheet.span,
        f"At the end of every {ordinal(every)} turn, move each faction's VP marker along the track by the VP "
        "of the towns it holds (and any bonus). A marker that reaches the faction's threshold (a box with its "
        "mark) rolls on the faction's reinforcement chart: subtract the threshold, and roll again while still "
        f"at or above it. Past {fm.vp_track_max}, flip the marker to its +{lap} side and go on from 0.",
        lead="How to use:",
    )
    y = sheet.heading(sheet.left, y - st.gap * 0.6, sheet.span, "VP record track", "E")
    box = fm.track_box_mm * MM
    columns = fm.track_columns
    x0 = sheet.left + (sheet.span - columns * box) / 2
    at: dict[int, list[Faction]] = {}
    for f in factions:
        if f.id in v.thresholds:
            at.setdefault(v.thresholds[f.id], []).append(f)
    for n in range(lap):
        row, col = divmod(n, columns)
        bx, by = x0 + col * box, y - (row + 1) * box
        marked = n in at
        sheet.fill(st.colours.marked if marked else (st.colours.tint if row % 2 else st.colours.paper))
        sheet.stroke(st.colours.ink, st.widths.heavy if marked else st.widths.frame)
        sheet.c.rect(bx, by, box, box, stroke=1, fill=1)
        sheet.text(
            bx + PAD * 0.8,
            by + box - st.fonts.track - 1,
            str(n),
            font=SANS_BOLD if n % 10 == 0 or marked else SANS,
            size=st.fonts.track,
        )
        for k, f in enumerate(at.get(n, [])):  # each faction whose threshold this is: its chip
            chip = box * 0.3
            sheet.chip(bx + box - PAD * 0.6 - (k + 1) * (chip + 1), by + PAD * 0.6, chip, f, name=False)
    y -= math.ceil(lap / columns) * box + 3
    thresholds = ", ".join(f"{f.name} {v.thresholds[f.id]}" for f in factions if f.id in v.thresholds)
    y = sheet.para(
        sheet.left, y, sheet.span, f"Thresholds: {thresholds}.", size=st.fonts.small, colour=st.colours.muted
    )

    # the turn record track
    y = sheet.heading(sheet.left, y - st.gap, sheet.span, "Turn record", "E.2")
    per_row = fm.turns_per_row
    tw = min(sheet.span / per_row, box * 1.4)
    tx = sheet.left + (sheet.span - per_row * tw) / 2
    for start in range(1, fm.turns + 1, per_row):
        for n in range(start, min(start + per_row, fm.turns + 1)):
            bx = tx + (n - start) * tw
            award = n % every == 0
            sheet.fill(st.colours.marked if award else st.colours.paper)
            sheet.stroke(st.colours.ink, st.widths.heavy if award else st.widths.frame)
            sheet.c.rect(bx, y - box, tw, box, stroke=1, fill=1)
            sheet.text(bx + PAD, y - st.fonts.track - 2, str(n), font=SANS_BOLD, size=st.fonts.track)
            if award:
                sheet.text(bx + tw - PAD, y - box + PAD + 1, "VP", font=SANS_BOLD, size=st.fonts.small, align="right")
        y -= box
    y -= 3
    bonus = "; ".join(f"{s.faction_name(f)} add {d}" for f, d in v.bonus.items())
    ms = s.faction(v.makhnovist_strength.faction)
    extra = f"; {ms.adjective} strength roll" if ms else ""
    return sheet.para(
        sheet.left,
        y,
        sheet.span,
        f"Shaded turns (every {ordinal(every)}): towns score VP ({bonus}); reinforcement charts{extra}. "
        "Move the game-turn marker along the track; start a second sheet if the campaign runs longer.",
        size=st.fonts.small,
        colour=st.colours.muted,
    )


def _vp_ledger(sheet: Sheet) -> float:
    """The VP ledger: each award turn's sums, faction by faction."""
    s, st = sheet.s, sheet.st
    v = s.victory
    fm = st.forms
    every = v.award_every_turns
    factions = _scoring(s)
    y = sheet.band(FORMS[1])
    y = sheet.heading(sheet.left, y - st.gap, sheet.span, "VP ledger", "E.2-E.5")
    columns = [Column(0.7, "centre")]
    top_row: list[CellLike] = [Cell("", span=1)]
    sub: list[CellLike] = ["Turn"]
    for f in factions:
        fields = ["Carried", "Towns"] + (["Bonus"] if f.id in v.bonus else []) + ["Total", "Rolls"]
        columns += [Column(1, "centre") for _ in fields]
        top_row.append(Cell(f.name, span=len(fields), fill=f.colour, mark=f.id, bold=True, align="centre"))
        sub += fields
    rows: list[list[CellLike]] = [
        [Cell(str(t), bold=True)] + [""] * (len(columns) - 1) for t in range(every, fm.ledger_turns + 1, every)
    ]
    return sheet.table(sheet.left, y, sheet.span, columns, [top_row, sub], rows, row_h=fm.form_row)


def _faction_line(sheet: Sheet, y: float) -> tuple[float, float]:
    """'Faction:' and a tick box for each faction under the band at y; returns its baseline and
    the x after the last faction."""
    st = sheet.st
    base = y - st.fonts.field - 2
    x = sheet.text(sheet.left, base, "Faction:", font=SANS_BOLD, size=st.fonts.field) + sheet.left + 5
    return base, sheet.faction_ticks(x, base, sheet.s.meta.factions)


def _order_form(sheet: Sheet) -> float:
    s, st = sheet.s, sheet.st
    fm = st.forms
    base, _ = _faction_line(sheet, sheet.band(FORMS[2]))
    base -= st.fonts.field * 2.6
    x = sheet.field(sheet.left, base, "Turn", sheet.span * 0.18)
    x = sheet.field(x, base, "Date", sheet.span * 0.3)
    sheet.field(x, base, "Written by", sheet.right - x)
    y = base - st.gap

    y = sheet.heading(sheet.left, y, sheet.span, "Orders", "A, C, D")
    cells = fm.path_hexes
    columns = [
        Column(0.35, "centre"),
        Column(2.0),
        Column(0.75, "centre"),
        Column(0.75 * cells),
        Column(1.25, "centre"),
        Column(0.85, "centre"),
        Column(1.6),
    ]
    header: list[CellLike] = [
        "No.",
        "Unit",
        "From hex",
        f"Path: the hexes entered, in order, one a box (up to {cells})",
        "Train / ship\n/ landing",
        "Track",
        "Notes",
    ]
    rows: list[list[CellLike]] = [
        [str(k), "", "", "", Cell(boxes=("T", "S", "L"), align="centre"), Cell(boxes=("X", "R"), align="centre"), ""]
        for k in range(1, fm.order_rows + 1)
    ]
    bottom = sheet.table(sheet.left, y, sheet.span, columns, [header], rows, row_h=fm.order_row)
    share = sheet.span / sum(col.share for col in columns)
    x0 = sheet.left + share * sum(col.share for col in columns[:3])
    step = share * columns[3].share / cells
    sheet.stroke(st.colours.rule, st.widths.rule)
    for k in range(1, cells):  # a box for each hex, as wide as a hex id written by hand
        sheet.c.line(x0 + k * step, bottom, x0 + k * step, bottom + fm.order_rows * fm.order_row)
    y = bottom
    tr = s.transport.track
    types = {u.id: u.name.lower() for u in s.movement.unit_types}
    y = sheet.para(
        sheet.left,
        y - 2,
        sheet.span,
        f"T by train, S by ship, L amphibious landing (infantry only): no map move the turn a unit boards or "
        f"leaves. X wreck track ({_either([types.get(t, t) for t in tr.wreck_unit_types])}, "
        f"{tr.wreck_min_stands}+ stands); R repair track ({tr.repair_hexes_per_turn} hexes a turn). "
        "A path stops at the first hex holding enemy units. More orders: another sheet; command rolls "
        "and notes: the other side.",
        lead="Key:",
        size=st.fonts.small,
        colour=st.colours.muted,
    )
    return y


def _command_rolls(sheet: Sheet) -> float:
    """The order form's other side: the command rolls and the notes to the umpire."""
    s, st = sheet.s, sheet.st
    fm = st.forms
    base, x = _faction_line(sheet, sheet.band(FORMS[3]))
    sheet.field(x + 12, base, "Turn", sheet.span * 0.18)
    y = base - st.gap
    cmd = s.command
    y = sheet.heading(sheet.left, y, sheet.span, "Command rolls", "II.C")
    columns = [
        Column(1.8),
        Column(2.4),
        Column(0.9, "centre"),
        Column(1.2, "centre"),
        Column(0.9, "centre"),
        Column(0.9, "centre"),
    ]
    header: list[CellLike] = [
        "Commander (or none)",
        "Units commanded",
        "Dependability",
        f"Failures before\n({MINUS}{cmd.failure_bonus} each)",
        f"{cmd.roll} roll",
        "Obeys",
    ]
    rows: list[list[CellLike]] = [
        ["", "", "", "", "", Cell(boxes=("yes", "no"), align="centre")] for _ in range(fm.command_rows)
    ]
    y = sheet.table(sheet.left, y, sheet.span, columns, [header], rows, row_h=fm.order_row)
    y = sheet.para(
        sheet.left,
        y - 2,
        sheet.span,
        f"Obeys on a {cmd.roll} at or under his dependability. No commander in the hex: {_upto(cmd.leaderless.adjacent)} "
        f"if one is adjacent, {_upto(cmd.leaderless.alone)} if not. Only the highest-ranking commander of a hex rolls.",
        size=st.fonts.small,
        colour=st.colours.muted,
    )
    return _notes(sheet, y - st.gap, "Notes to the umpire")


def _battle_sheet(sheet: Sheet) -> float:
    s, st = sheet.s, sheet.st
    fm = st.forms
    b = s.battle
    y = sheet.band(FORMS[4])
    base = y - st.fonts.field - 2
    x = sheet.field(sheet.left, base, "Hex", sheet.span * 0.18)
    x = sheet.field(x, base, "Turn", sheet.span * 0.14)
    x = sheet.field(x, base, "Date", sheet.span * 0.26)
    sheet.field(x, base, "Town or place", sheet.right - x)
    base -= st.fonts.field * 2.4
    x = sheet.left + sheet.text(sheet.left, base, "Terrain:", font=SANS_BOLD, size=st.fonts.field) + 6
    sheet.ticks(
        x, base, [t.name for t in s.movement.terrain] + ["Crossable river", "Major river", "Town", "Coastal hex"]
    )
    y = base - st.gap

    ammo = {a.stand: a for a in s.supply.ammo}
    stands = {k.id: k.name for k in s.transport.stands}
    for side in ("A", "B"):
        y = sheet.heading(sheet.left, y, sheet.span, f"Side {side}", "II.B, II.C.5")
        base = y - st.fonts.field - 3
        x = sheet.left + sheet.text(sheet.left, base, "Faction:", font=SANS_BOLD, size=st.fonts.field) + 5
        sheet.faction_ticks(x, base, s.meta.factions)
        base -= st.fonts.field * 2.5
        x = sheet.field(sheet.left, base, "Commander", sheet.span * 0.4)
        x = sheet.field(x, base, "Dependability", sheet.span * 0.2)
        x = sheet.ticks(x, base, ["Charismatic"], gap=12)
        sheet.field(x, base, "Allies", sheet.right - x)
        y = base - 6
        columns = [Column(2.4), Column(1.6), Column(0.75, "centre")]
        header: list[CellLike] = ["Unit", "Stands\ninf / MG / cav / art / other", "In\nsupply"]
        for a in ammo.values():
            columns.append(Column(0.8, "centre"))
            header.append(f"{_short(stands.get(a.stand, a.stand)).capitalize()}\n{a.unit} /{a.rounds}")
        columns += [Column(0.7, "centre"), Column(0.7, "centre"), Column(0.7, "centre")]
        header += ["Stands\nlost", "Routed", "Elite /\nFanatic"]
        rows: list[list[CellLike]] = [
            ["", "", Cell(boxes=("",), align="centre"), *[""] * len(ammo), "", "", Cell(boxes=("",), align="centre")]
            for _ in range(fm.battle_unit_rows)
        ]
        y = sheet.table(sheet.left, y, sheet.span, columns, [header], rows, row_h=fm.form_row) - st.gap
    full = ", ".join(f"{_short(stands.get(a.stand, a.stand))} {a.rounds} {a.unit}" for a in ammo.values())
    y = sheet.para(
        sheet.left,
        y + st.gap - 2,
        sheet.span,
        f"In supply: full loads ({full}). Out of supply: what is left from the last battle.",
        lead="Ammunition:",
        size=st.fonts.small,
        colour=st.colours.muted,
    )

    half = (sheet.span - st.gap * 1.5) / 2
    rx = sheet.left + half + st.gap * 1.5
    top = y - st.gap * 0.8
    ny = sheet.heading(sheet.left, top, half, "Naval gunfire", "D.3")
    base = ny - st.fonts.field - 4
    sheet.field(sheet.left, base, "Ships", half * 0.55)
    sheet.field(sheet.left + half * 0.55, base, "Batteries", half * 0.45)
    base -= st.fonts.field * 2.4
    x = sheet.left + sheet.text(sheet.left, base, "Supports:", font=SANS_BOLD, size=st.fonts.field) + 6
    sheet.ticks(x, base, ["Side A", "Side B"])
    base -= st.fonts.field * 2.4
    sheet.field(sheet.left, base, "Notes", half)
    ny = base - 4

    ry = sheet.heading(rx, top, half, "Result", "II.B")
    base = ry - st.fonts.field - 4
    x = rx + sheet.text(rx, base, "Winner:", font=SANS_BOLD, size=st.fonts.field) + 6
    sheet.ticks(x, base, ["Side A", "Side B"])
    base -= st.fonts.field * 2.4
    sheet.field(rx, base, f"Loser retreats {_plural(b.retreat_hexes, 'hex')} to", half * 0.7)
    sheet.ticks(rx + half * 0.7, base, ["Surrendered"])
    base -= st.fonts.field * 2.4
    x = rx + sheet.text(rx, base, f"Equipment ({b.winner.equipment.roll}):", font=SANS_BOLD, size=st.fonts.field) + 6
    bsz = st.forms.box * 1.6
    while x + bsz < rx + half:
        sheet.box(x, base - 2, bsz)
        x += bsz + 3
    ry = base - 4
    y = min(ny, ry)
    w, lo = b.winner, b.loser
    exempt = _either([e.capitalize() for e in lo.routed_lost_exempt])
    odd = "odd" if w.equipment.recovered_on == "even" else "even"
    y = sheet.para(
        sheet.left,
        y - 4,
        sheet.span,
        f"winner {w.permanent_pct}% of stands lost for good, {w.return_pct}% back next turn; loser "
        f"{lo.permanent_pct}% for good, {lo.return_pct}% back, and {lo.routed_lost_pct}% of routed stands desert "
        f"or are captured unless {exempt} (rounded half up, stand by stand). Winner's guns and vehicles: "
        f"{w.equipment.roll} each, {w.equipment.recovered_on} recovered, {odd} lost; the loser's are lost. "
        f"A loser that cannot retreat surrenders, but for {exempt} units, which must break out.",
        lead="Post-battle:",
        size=st.fonts.small,
        colour=st.colours.muted,
    )
    return _notes(sheet, y - st.gap, "Battle report")


def _umpire_sheet(sheet: Sheet) -> float:
    s, st = sheet.s, sheet.st
    fm = st.forms
    v = s.victory
    mv = s.movement
    y = sheet.band(FORMS[5])
    base = y - st.fonts.field - 2
    x = sheet.field(sheet.left, base, "Turn", sheet.span * 0.18)
    x = sheet.field(x, base, "Date", sheet.span * 0.3)
    sheet.ticks(x, base, [f"VP turn (every {ordinal(v.award_every_turns)})"])
    y = base - st.gap

    names = {u.id: u.name for u in mv.unit_types}
    factions = s.meta.factions
    scoring = _scoring(s)
    label_w = sheet.span * 0.27
    rx = sheet.left + label_w + PAD * 2
    rw = sheet.right - rx - PAD
    line = st.fonts.field * 2.1
    bsz = st.forms.box * 1.7
    chip_w = (
        max(text_width(f.name, SANS_BOLD, st.fonts.small + 0.6) for f in factions) + st.fonts.field * 1.55 + PAD * 2
    )

    def roll_boxes(x: float, base: float, n: int, label: str = "") -> float:
        if label:
            x += sheet.text(x, base, label, size=st.fonts.small + 0.6) + 4
        for _ in range(n):
            sheet.box(x, base - 3, bsz)
            x += bsz + 2.5
        return x

    def supply(y: float) -> float:
        base = y - line * 0.75
        sheet.field(rx, base, "Out of supply:", rw)
        sheet.writing_line(rx, rx + rw - PAD * 2, base - line)
        return base - line - line * 0.4

    def orders(y: float) -> float:
        base = y - line * 0.75
        x = rx + sheet.text(rx, base, "Received:", size=st.fonts.small + 0.6) + 5
        sheet.faction_ticks(x, base, factions)
        return base - line * 0.4

    def commands(y: float) -> float:
        """A box for each commander (II.C.1), numbered by his rank, in one line a faction."""
        base = y - line * 0.75
        ranks = {f.id: sum(1 for c in s.commanders if c.faction == f.id) for f in factions}
        x0 = rx + chip_w + 6
        pitch = min(bsz + 2.5, (rx + rw - x0) / max(1, *ranks.values()))
        size = min(bsz, pitch - 1.8)
        tiny = st.fonts.min
        for f in factions:
            sheet.chip(rx, base - 4, st.fonts.field * 1.55, f, size=st.fonts.small + 0.6, width=chip_w)
            for k in range(ranks[f.id]):
                x = x0 + k * pitch
                sheet.box(x, base - 3, size)
                sheet.text(
                    x + size / 2, base - 3 + size + 0.8, str(k + 1), size=tiny, align="centre", colour=st.colours.muted
                )
            base -= line * 0.9
        return base + line * 0.9 - line * 0.4

    def event(y: float) -> float:
        base = y - line * 0.75
        ev = s.events
        x = roll_boxes(rx, base, 1, f"{ev.roll}:")
        x += 6
        on = _either([str(d) for d in ev.draw_on])
        sheet.field(x, base, f"card on {on}:", rx + rw - x)
        return base - line * 0.4

    def movement(y: float) -> float:
        base = y - line * 0.75
        for b in mv.breakdown:
            label = (
                f"{names.get(b.unit_type, b.unit_type)} ({b.roll}, lost on {_either([str(v) for v in b.fails_on])}):"
            )
            sheet.text(rx, base, label, size=st.fonts.small + 0.6)
            roll_boxes(rx + rw * 0.34, base, fm.roll_boxes)
            base -= line * 0.9
        return base + line * 0.9 - line * 0.4

    def contacts(y: float) -> float:
        p = s.partisans
        columns = [Column(0.8), Column(1.6), Column(1.6), Column(1.2, "centre"), Column(1.2, "centre"), Column(1.6)]
        header: list[CellLike] = [
            "Hex",
            "Partisans",
            "Enemy",
            f"Evade {p.evade.roll}\npartisan / enemy",
            f"Ambush {p.ambush.roll}\n({p.ambush.succeeds_at}+)",
            "Result",
        ]
        rows: list[list[CellLike]] = [[""] * 6 for _ in range(3)]
        return sheet.table(rx, y - 3, rw, columns, [header], rows, row_h=fm.form_row * 0.9) - 4

    def battles(y: float) -> float:
        columns = [Column(0.8), Column(2.6), Column(1.4), Column(1.2), Column(0.9, "centre")]
        header: list[CellLike] = ["Hex", "Sides", "Winner", "Retreat to", "Sheet filed"]
        rows: list[list[CellLike]] = [["", "", "", "", Cell(boxes=("",), align="centre")] for _ in range(3)]
        return sheet.table(rx, y - 3, rw, columns, [header], rows, row_h=fm.form_row * 0.9) - 4

    def post(y: float) -> float:
        base = y - line * 0.75
        x = sheet.ticks(rx, base, ["Losses applied", "Retreats made", "Returns noted"], size=st.fonts.small + 0.6)
        roll_boxes(x, base, 5, f"Equipment {s.battle.winner.equipment.roll}:")
        return base - line * 0.4

    def track(y: float) -> float:
        base = y - line * 0.75
        sheet.field(rx, base, "Wrecked:", rw * 0.5)
        sheet.field(rx + rw * 0.5, base, "Repaired:", rw * 0.5)
        return base - line * 0.4

    def award(y: float) -> float:
        columns = [
            Column(1.6),
            Column(0.8, "centre"),
            Column(0.8, "centre"),
            Column(0.8, "centre"),
            Column(0.8, "centre"),
            Column(0.8, "centre"),
            Column(1.7, "centre"),
            Column(0.8, "centre"),
        ]
        header: list[CellLike] = [
            "Faction",
            "Carried",
            "Towns",
            "Bonus",
            "Total",
            "Threshold",
            f"Chart rolls ({v.reinforcement_chart.roll})",
            "Draws",
        ]
        rows: list[list[CellLike]] = []
        for f in scoring:
            bonus = v.bonus.get(f.id)
            rows.append(
                [
                    Cell(f.name, fill=f.colour, mark=f.id, bold=True),
                    "",
                    "",
                    "" if bonus else Cell("\u2014", align="centre"),
                    "",
                    Cell(str(v.thresholds[f.id]), bold=True) if f.id in v.thresholds else "",
                    "",
                    "",
                ]
            )
        yy = sheet.table(rx, y - 3, rw, columns, [header], rows, row_h=fm.form_row * 0.9)
        ms = v.makhnovist_strength
        mf = s.faction(ms.faction)
        if mf:
            base = yy - line * 0.75
            w = sheet.chip(rx, base - 4, st.fonts.field * 1.55, mf, size=st.fonts.small + 0.6, width=chip_w)
            x = roll_boxes(rx + w + 6, base, 1, f"strength {ms.roll}:")
            mods = ", ".join(f"{_signed(m.value)}" for m in ms.modifiers)
            x = roll_boxes(x + 8, base, 1, f"modifiers ({mods}):")
            sheet.field(x + 8, base, "row:", rx + rw - x - 8)
            yy = base - line * 0.4
        return yy - 2

    draws = (supply, orders, commands, event, movement, contacts, battles, post, track, award)
    steps = [
        (step.title, ", ".join(x for x in (step.rule, step.hint) if x), draw)
        for step, draw in zip(turn_sequence(s), draws, strict=True)
    ]
    y = sheet.heading(sheet.left, y, sheet.span, "Turn sequence", "II, B.2-E.6")
    top = y
    r = st.fonts.field * 0.95
    tx = sheet.left + PAD * 2.5 + 2 * r
    note_w = sheet.left + label_w - tx - PAD
    small = st.fonts.small
    for k, (title, note, draw) in enumerate(steps, start=1):
        row_top = y
        cy = row_top - PAD - r
        notes = sheet.wrap(note, SANS_ITALIC, small, note_w)
        label_bottom = cy - st.fonts.field * 0.6 - small * 1.2 * len(notes) - PAD
        y = min(draw(row_top), label_bottom)
        if k % 2 == 0:
            sheet.fill(st.colours.tint)
            sheet.c.rect(sheet.left, y, label_w, row_top - y, stroke=0, fill=1)
        sheet.step_number(sheet.left + PAD + r, cy, r, k)
        sheet.box(sheet.left + label_w - PAD - st.forms.box, cy - st.forms.box / 2)
        sheet.text(
            tx,
            cy - st.fonts.field * 0.36,
            title,
            font=SANS_BOLD,
            size=st.fonts.field,
            fit=label_w - (tx - sheet.left) - st.forms.box - PAD * 2,
        )
        base = cy - st.fonts.field * 0.6 - small
        for text in notes:
            sheet.text(tx, base, text, font=SANS_ITALIC, size=small, colour=st.colours.muted)
            base -= small * 1.2
        sheet.stroke(st.colours.rule, st.widths.rule)
        sheet.c.line(sheet.left, y, sheet.right, y)
    sheet.stroke(st.colours.ink, st.widths.frame)
    sheet.c.rect(sheet.left, y, sheet.span, top - y, stroke=1, fill=0)
    sheet.c.line(sheet.left + label_w, y, sheet.left + label_w, top)
    return _notes(sheet, y - st.gap, "Umpire's notes")


def _notes(sheet: Sheet, y: float, title: str) -> float:
    """A heading and ruled writing lines down to the foot of the page."""
    st = sheet.st
    pitch = st.forms.form_row
    if y - pitch * 3 < sheet.bottom:
        return y
    y = sheet.heading(sheet.left, y, sheet.span, title)
    y -= pitch
    while y >= sheet.bottom + 2:
        sheet.writing_line(sheet.left, sheet.right, y)
        y -= pitch
    return y + pitch
