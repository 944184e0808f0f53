"""A page of the kit's forms, aids, charts and packets, drawn on a reportlab canvas: its content
frame, title band and section headings, paragraphs and bullets, tick boxes and faction chips, and
a table helper (header shading, alternate row tints, ruled rows, tick boxes), then its footer.
The looks are layouts/forms.yaml's."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from kitgen.model.scenario import Faction, Scenario
from kitgen.render.fonts import SANS, SANS_BOLD, register_fonts, text_width
from kitgen.render.formstyle import FormStyle
from kitgen.render.pages import MM, faction_mark, hex_colour, ink_on
from kitgen.render.wording import curled, typographic

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas


Align = Literal["left", "centre", "right"]
PAD = 3.0
"""Inner padding of table cells, in points."""


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
    boxes: int = 0
    """Write-in boxes across the column's body cells (an order's path: a box a hex); 0 for none."""


CellLike = Cell | str


def broken_headings(st: FormStyle, edges: Sequence[float], cells: Sequence[Cell]) -> list[Cell]:
    """A header row's cells between column `edges`, each heading too wide for its column even at
    the smallest size broken into lines between its words ("Lost for / good"), never shrunk below it."""
    from dataclasses import replace

    from reportlab.lib.utils import simpleSplit

    col, found = 0, []
    for cell in cells:
        w = edges[col + cell.span] - edges[col] - 2 * PAD
        plain = cell.text and not (cell.runs or cell.boxes or cell.mark)
        text = curled(cell.text)  # measured as `Sheet.text` sets it
        if plain and any(text_width(line, SANS_BOLD, st.fonts.min) > w for line in text.split("\n")):
            cell = replace(cell, text="\n".join(simpleSplit(text, SANS_BOLD, st.fonts.header, w)))
        found.append(cell)
        col += cell.span
    return found


HEADING_GAP = 3.5
"""Points between a section heading's bar and what stands under it."""


def heading_height(st: FormStyle) -> float:
    """The height `Sheet.heading` takes: its bar and the gap under it."""
    return st.fonts.heading * 1.75 + HEADING_GAP


def header_height(
    st: FormStyle, width: float, columns: Sequence[Column], headers: Sequence[Sequence[CellLike]]
) -> float:
    """The height of a table's header rows, `width` wide, as `Sheet.table` draws them."""
    total = sum(col.share for col in columns)
    edges = [0.0]
    for col in columns:
        edges.append(edges[-1] + width * col.share / total)
    return sum(_header_row_h(st, broken_headings(st, edges, [_cell(v) for v in header])) for header in headers)


def _header_row_h(st: FormStyle, cells: Sequence[Cell]) -> float:
    lines = max(len(c.text.split("\n")) for c in cells)
    return max(st.charts.header_row, lines * st.fonts.header * 1.15 + PAD * 1.6)


def _cell(value: CellLike) -> Cell:
    return value if isinstance(value, Cell) else Cell(value)


class Sheet:
    """One page being drawn: its content frame, the title band, sections and tables, the footer."""

    def __init__(self, c: Canvas, style: FormStyle, scenario: Scenario, size: tuple[float, float], label: str) -> None:
        register_fonts()  # a sheet may measure text before anything is drawn (a probe of a part's rows)
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
        literal: bool = False,
    ) -> float:
        """Draw one line at baseline y, set with curly quotes and en dashes (`curled`) unless it is
        `literal` (what the umpire copies into a log, as it must be typed); shrink it (not below
        the style's minimum) to fit `fit` points. Returns the width drawn."""
        text = text if literal else curled(text)
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
        """`text` in lines of at most `width`, broken between words, and a word too long for a
        line after a hyphen of its own ("Aleksandrovsk-" / "Grushevsky")."""
        from reportlab.lib.utils import simpleSplit

        lines: list[str] = []
        for line in simpleSplit(text, font, size, width):
            while text_width(line, font, size) > width:
                cuts = [
                    k for k, ch in enumerate(line[:-1]) if ch == "-" and text_width(line[: k + 1], font, size) <= width
                ]
                if not cuts:
                    break
                lines.append(line[: cuts[-1] + 1])
                line = line[cuts[-1] + 1 :]
            lines.append(line)
        return lines or [""]

    def runs_paragraph(
        self, runs: Sequence[tuple[str, str]], size: float, colour: str | tuple[float, float, float] | None = None
    ) -> Any:
        """Runs of (text, font), a space between each, as one platypus Paragraph at `size`, lines
        1.2 x size apart."""
        from xml.sax.saxutils import escape

        from reportlab.lib import colors
        from reportlab.lib.styles import ParagraphStyle
        from reportlab.platypus import Paragraph

        ink = colour or self.st.colours.ink
        rgb = hex_colour(ink) if isinstance(ink, str) else ink
        style = ParagraphStyle(
            "runs", fontName=SANS, fontSize=size, leading=size * 1.2, textColor=colors.Color(*rgb), spaceShrinkage=0
        )
        return Paragraph(
            " ".join(f'<font name="{font}">{typographic(escape(text))}</font>' for text, font in runs), style
        )

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
        lines = self._para_lines(width, text, font, size, indent)
        base = y - size
        if lead:
            self.text(x, base, lead, font=SANS_BOLD, size=size, colour=colour)
        for k, line in enumerate(lines):
            self.text(x + (indent if k == 0 else 0), base, line, font=font, size=size, colour=colour)
            base -= leading
        return base + leading - size * 0.45

    def para_height(self, width: float, text: str, *, font: str = SANS, lead: str = "") -> float:
        """The points `para` takes for `text` (after its run-in `lead`) at the body size, measured
        without drawing."""
        size, leading = self.st.fonts.body, self.st.charts.leading
        indent = text_width(lead + " ", SANS_BOLD, size) if lead else 0.0
        return size * 1.45 + leading * (len(self._para_lines(width, text, font, size, indent)) - 1)

    def _para_lines(self, width: float, text: str, font: str, size: float, indent: float) -> list[str]:
        first = self.wrap(text, font, size, width - indent)[0]
        rest = text[len(first) :].strip()
        return [first] + (self.wrap(rest, font, size, width) if rest else [])

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
            self.box(x, y + size * 0.35 - b / 2, b)  # centred on the label's type
            x += b + 2.5
            x += self.text(x, y, label, size=size) + gap
        return x

    def faction_ticks(self, x: float, y: float, factions: Sequence[Faction]) -> float:
        """A tick box and chip for each faction, on baseline y; returns the x after the last."""
        b = self.st.forms.box
        h = self.st.fonts.field * 1.55
        for f in factions:
            self.box(x, y + self.st.fonts.field * 0.35 - b / 2, b)
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
        right = self.right - h * 0.3
        # the title (shrunk if it must be) and its note keep clear of the scenario's names on the
        # right, each measured as `text` sets it
        title, note = curled(title), note and curled(note)
        block = max(
            text_width(curled(self.s.meta.title), SANS_BOLD, st.fonts.band_note),
            text_width(curled(self.s.meta.subtitle), SANS, st.fonts.small),
        )
        room = right - block - 10 - x
        size = st.fonts.title
        while size > st.fonts.title * 0.6 and text_width(title, SANS_BOLD, size) > room:
            size -= 0.5
        base = self.top - h / 2 - size * 0.36
        x += self.text(x, base, title, font=SANS_BOLD, size=size, colour=ink)
        note_size = st.fonts.title * 0.72
        if note and x + 8 + text_width(note, SANS, note_size) <= right - block - 10:
            self.text(x + 8, base, note, font=SANS, size=note_size, colour=ink)
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
        h = heading_height(st) - HEADING_GAP
        self.fill(st.colours.heading)
        self.c.rect(x, y - h, width, h, stroke=0, fill=1)
        ink = ink_on(st.colours.heading)
        base = y - h / 2 - st.fonts.heading * 0.36
        self.text(x + PAD * 1.5, base, text.upper(), font=SANS_BOLD, size=st.fonts.heading, colour=ink)
        if ref:
            self.text(x + width - PAD * 1.5, base, ref, font=SANS, size=st.fonts.small, align="right", colour=ink)
        return y - heading_height(st)

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
            cells = broken_headings(st, edges, [_cell(v) for v in header])
            h = _header_row_h(st, cells)
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

        for col, column in enumerate(columns):  # the write-in boxes of a boxed column
            step = widths[col] / column.boxes if column.boxes else 0.0
            self.stroke(st.colours.rule, st.widths.rule)
            for k in range(1, column.boxes):
                self.c.line(edges[col] + k * step, y, edges[col] + k * step, header_bottom)

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
                n = round(self.runs_paragraph(cell.runs, cs).wrap(w, 1e6)[1] / (cs * 1.2))
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
            lines = curled(cell.text).split("\n") if cell.text and not (cell.runs or cell.boxes) else []
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
        if cell.runs:  # the first baseline 0.85 x size under the cell's padded top, as a line's
            para = self.runs_paragraph(cell.runs, size, ink)
            _, ph = para.wrapOn(self.c, inner, h)
            para.drawOn(self.c, left, y + h - PAD * 0.7 + size * 0.15 - ph)
            return
        if not cell.text:
            return
        lines = self.wrap(cell.text, font, size, inner) if wrap else cell.text.split("\n")  # keeps a "\n" break
        leading = size * 1.15 if not wrap else size * 1.2
        block = leading * (len(lines) - 1)
        base = y + h / 2 + block / 2 - size * 0.36
        if wrap:  # a table that wraps sets every cell from the row's top, a label level with its text
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
        gap = 4.0
        total = sum(parts) + gap * (len(parts) - 1)
        x = (x0 + x1 - total) / 2 if align == "centre" else x0
        for label, part in zip(labels, parts, strict=True):
            self.box(x, y + (h - b) / 2, b)
            self.text(x + b + 2, y + h / 2 - size * 0.36, label, size=size)
            x += part + gap


Page = tuple[str, str, Callable[["Sheet"], float]]
"""One page of a part: its outline title ('' for a page that carries on the one before, as a
card's back does), its bookmark key, and what draws it (returning the y where its content ends)."""
