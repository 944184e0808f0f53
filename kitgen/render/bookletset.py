"""The rules booklet set with reportlab's platypus: a designed cover, a one-page contents, then
the rules in two columns under mirrored running heads. Headings keep with what follows, tables
are sized from their content (never a word broken) and kept together where they are short,
designer's notes sit in a tinted box and rulings carry a mark in the margin."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from reportlab.platypus import Flowable, Paragraph

from kitgen import messages as msg
from kitgen.errors import KitgenError
from kitgen.render.bookletstyle import LAYOUT, BookletStyle
from kitgen.render.fonts import SANS, SANS_BOLD, SANS_BOLD_ITALIC, SANS_ITALIC, register_fonts
from kitgen.render.pages import diamond, hex_colour, set_page
from kitgen.render.tablefit import Span, fit, measure
from kitgen.render.wording import typographic

if TYPE_CHECKING:
    from reportlab.lib.styles import ParagraphStyle

    from kitgen.model.scenario import Scenario
    from kitgen.render.mapart import MapArt
    from kitgen.render.recorded import Picture

Block = tuple[str, str]
"""(kind, text): part, rule, para, ruling, item, quote or table."""
Tables = dict[str, list[list[str]]]

CELL_PAD = 2.8
"""Left and right padding of a table cell, in points at every scale."""


@dataclass(frozen=True)
class Fitted:
    """A table as set: its rows (headings abbreviated where they had to be), column widths
    and type size, in points, and its cells' padding each side."""

    rows: list[list[str]]
    widths: list[float]
    size: float
    pad: float
    spans: list[Span]
    bold: frozenset[int]
    """The header and the group-title rows, set bold."""


@dataclass(frozen=True)
class Typeset:
    """The booklet's PDF, its outline (part titles and their 0-based pages), how full each
    page's columns are (0 to 1), the pages that end a part (1-based), and each table as set."""

    pdf: bytes
    outline: tuple[tuple[str, int], ...]
    fill: tuple[float, ...]
    part_ends: frozenset[int]
    tables: tuple[tuple[str, Fitted], ...]


class LaidOut(Paragraph):
    """A Paragraph that breaks its lines once for each width it is given: platypus wraps every
    flowable again at each pass of multiBuild and at each try of a table split, and the lines
    depend only on the width (and the text and style, which do not change)."""

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803 (reportlab's names)
        laid: dict[float, tuple[Any, Any, float]] = self.__dict__.setdefault("_laid", {})
        if availWidth in laid:
            self.width = availWidth
            self.blPara, self._wrapWidths, self.height = laid[availWidth]
            return self.width, self.height
        size = super().wrap(availWidth, availHeight)
        if getattr(self, "width", None) == availWidth:  # laid out, not refused as too narrow
            laid[availWidth] = (self.blPara, self._wrapWidths, self.height)
        return size


class Marked(Flowable):
    """A ruling: its paragraph indented, a bar down the margin in the accent colour and a
    diamond at its first line, so a ruling reads apart from the rule it settles."""

    def __init__(
        self, para: Flowable, colour: tuple[float, float, float], indent: float, size: float, first: bool = True
    ) -> None:
        super().__init__()
        self.para, self.colour, self.indent, self.size, self.first = para, colour, indent, size, first

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:  # noqa: N803
        _, h = self.para.wrap(availWidth - self.indent, availHeight)
        self.width, self.height = availWidth, h
        return availWidth, h

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:  # noqa: N803
        parts = self.para.split(availWidth - self.indent, availHeight)
        return [Marked(p, self.colour, self.indent, self.size, self.first and i == 0) for i, p in enumerate(parts)]

    def getSpaceBefore(self) -> float:  # noqa: N802 (reportlab's name)
        return float(self.para.getSpaceBefore())

    def getSpaceAfter(self) -> float:  # noqa: N802
        return float(self.para.getSpaceAfter())

    def draw(self) -> None:
        c = self.canv
        c.saveState()
        c.setFillColorRGB(*self.colour)
        c.setStrokeColorRGB(*self.colour)
        bar = self.indent * 0.3
        c.setLineWidth(self.indent * 0.12)
        c.line(bar, 0, bar, self.height)
        if self.first:
            c.setFillColorRGB(1, 1, 1)
            c.setLineWidth(self.indent * 0.1)
            diamond(c, bar, self.height - self.size * 0.62, self.size * 0.42, stroke=True)
        c.restoreState()
        self.para.drawOn(c, self.indent, 0)


def heading_level(text: str) -> int:
    """1 for a rule ('A.1 Major rivers', 'II.A Random events', 'Dice'), 2 for a clause under
    one ('II.A.1 The event roll')."""
    number = text.split(" ", 1)[0]
    parts = [p for p in number.split(".") if p]
    if len(parts) < 2 or not all(p.isdigit() or p.isupper() for p in parts):
        return 1
    return min(2, len(parts) - 1)


def cell(text: str, style: ParagraphStyle, width: float) -> str | Flowable:
    """A table cell: the plain text where it fits on one line as it is (no run of spaces for a
    Paragraph to squeeze), which the table draws at the Paragraph's place far more cheaply than
    a Paragraph lays itself out; a Paragraph where the text must wrap."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    plain = text == " ".join(text.split())
    if text and plain and stringWidth(text, style.fontName, style.fontSize) <= width + 0.01:
        return text
    return LaidOut(escape(text), style)


def table_spans(rows: Sequence[Sequence[str]]) -> list[Span]:
    """A group title alone in a row's first cell runs across the row; a note in a row whose
    last cells are empty ('moves as Cavalry') runs to the row's end."""
    spans = []
    for r, row in enumerate(rows):
        filled = [i for i, v in enumerate(row) if v]
        if r and len(row) > 2 and filled == [0]:
            spans.append(Span(r, 0, len(row) - 1))
        elif r and len(row) > 3 and filled and filled[-1] < len(row) - 2:
            spans.append(Span(r, filled[-1], len(row) - 1))
    return spans


def fit_table(name: str, rows: list[list[str]], width: float, st: BookletStyle, k: float) -> Fitted:
    """The table's rows, column widths and type size: at the table size with its headings in
    full if its longest words fit `width`, else with the headings abbreviated, else smaller
    (down to min_table); a table that fits at none is an error naming the layouts file."""
    spans = table_spans(rows)
    bold = frozenset({0} | {s.row for s in spans if s.first == 0})
    fonts = [SANS_BOLD if r in bold else SANS for r in range(len(rows))]
    short = [[st.abbreviations.get(v, v) for v in rows[0]], *rows[1:]]
    sizes = []
    size = st.fonts.table
    while size >= st.fonts.min_table - 1e-9:
        sizes.append(size)
        size = round(size - 0.2, 3)
    for size in sizes:
        for version in (rows, short):
            widths = fit(version, fonts, size * k, CELL_PAD * k, width, spans)
            if widths is not None:
                return Fitted(version, widths, size * k, CELL_PAD * k, spans, bold)
    need = sum(m.word for m in measure(short, fonts, st.fonts.min_table * k, CELL_PAD * k, spans))
    raise KitgenError.at(
        LAYOUT, 1, 1, msg.booklet_table_too_wide(name, need * 25.4 / 72, width * 25.4 / 72, st.fonts.min_table * k)
    )


def typeset(
    scenario: Scenario,
    blocks: list[Block],
    built: Tables,
    size: tuple[float, float],
    style: BookletStyle,
    scale: float = 1.0,
    columns: int = 2,
) -> Typeset:
    """The booklet's blocks and tables as a PDF on pages of `size`, in `columns` (1 or 2)."""
    from reportlab.lib.colors import Color
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import (
        ActionFlowable,
        BaseDocTemplate,
        Frame,
        FrameBreak,
        KeepTogether,
        NextPageTemplate,
        PageBreak,
        PageTemplate,
        Spacer,
        Table,
        TableStyle,
    )
    from reportlab.platypus.tableofcontents import TableOfContents

    from kitgen.buildinfo import edition, stamp
    from kitgen.render.contentskept import contents_key, keep, recall
    from kitgen.render.pages import output_intent

    register_fonts()
    st = style
    k = scale
    ink = hex_colour(st.colours.ink)
    accent = hex_colour(st.colours.accent)
    fs = st.fonts

    def ps(name: str, font: str, size: float, lead: float, **kw: Any) -> ParagraphStyle:
        kw.setdefault("textColor", Color(*ink))
        return ParagraphStyle(
            name,
            fontName=font,
            bulletFontName=SANS,
            bulletFontSize=size * k,
            fontSize=size * k,
            leading=lead * k,
            allowWidows=0,
            allowOrphans=0,
            **kw,
        )

    lead = fs.body * 1.32
    body = ps("body", SANS, fs.body, lead, spaceAfter=fs.body * 0.45 * k)
    notes = ps("notes", SANS_ITALIC, fs.body, lead, spaceAfter=fs.body * 0.45 * k)
    ruled = ps("ruling", SANS, fs.body, lead, spaceBefore=1 * k, spaceAfter=fs.body * 0.6 * k)
    item = ps("item", SANS, fs.body, fs.body * 1.28, leftIndent=11 * k, bulletIndent=2 * k, spaceAfter=1.5 * k)
    heads = {
        0: ps(
            "part",
            SANS_BOLD,
            fs.part,
            fs.part * 1.15,
            spaceBefore=10 * k,
            spaceAfter=6 * k,
            keepWithNext=1,
            textColor=Color(*accent),
        ),
        1: ps("rule", SANS_BOLD, fs.rule, fs.rule * 1.2, spaceBefore=7 * k, spaceAfter=2.5 * k, keepWithNext=1),
        2: ps(
            "clause",
            SANS_BOLD_ITALIC,
            fs.clause,
            fs.clause * 1.2,
            spaceBefore=4 * k,
            spaceAfter=1.5 * k,
            keepWithNext=1,
            textColor=Color(*accent),
        ),
    }
    lead_in = ParagraphStyle("lead-in", parent=body, keepWithNext=1)

    margin = st.margin_mm * 72 / 25.4 * k
    gutter = st.gutter_mm * 72 / 25.4 * k
    w, h = size
    full = w - 2 * margin
    column = (full - gutter) / 2 if columns == 2 else full
    outline: list[tuple[str, int]] = []
    used: dict[int, dict[str, float]] = {}
    ends: set[int] = set()

    class Heading(LaidOut):
        """A heading: it goes into the contents and the outline, a part's into the running head."""

        def __init__(self, text: str, style: ParagraphStyle, level: int) -> None:
            super().__init__(text, style)
            self.level = level

    class Doc(BaseDocTemplate):
        section = ""
        """The part being set; the running head shows the first part begun on the page, or
        the part the page carries on."""
        first_on_page: str | None = None
        carried = ""
        marks = 0

        def beforeDocument(self) -> None:  # noqa: N802 (reportlab's name): each pass of multiBuild
            outline.clear()
            used.clear()
            ends.clear()
            Doc.marks = 0
            Doc.section = Doc.carried = ""
            Doc.first_on_page = None

        def afterFlowable(self, flowable: Flowable) -> None:  # noqa: N802 (reportlab's name)
            frame = getattr(self, "frame", None)
            if frame is not None and not isinstance(flowable, ActionFlowable):
                used.setdefault(self.page, {})[frame.id] = (frame._y2 - frame._y) / frame._height
            if isinstance(flowable, Heading):
                text = flowable.getPlainText()
                if flowable.level < 2:  # the contents list parts and rules; the outline has clauses too
                    self.notify("TOCEntry", (flowable.level, text, self.page))
                if flowable.level == 0:
                    Doc.section = text
                    if Doc.first_on_page is None:  # the first part begun on a page heads it
                        Doc.first_on_page = text
                    outline.append((text, self.page - 1))
                    if text in st.new_page:
                        ends.add(self.page - 1)
                Doc.marks += 1
                key = f"b{Doc.marks}"
                self.canv.bookmarkPage(key)
                self.canv.addOutlineEntry(text, key, level=flowable.level)

    def decorate(c: Any, doc: Any) -> None:
        """Mirrored running heads: on a left-hand (even) page the title and the folio at the
        outer left, on a right-hand page the part and the folio at the outer right."""
        set_page(c, size)  # printed whole and trimmed nowhere: a booklet's pages are its sheets
        c.saveState()
        c.setFillColorRGB(*ink)
        c.setStrokeColorRGB(*accent)
        c.setLineWidth(0.6 * k)
        c.setFont(SANS, fs.running * k)
        top = h - margin * 0.62
        left_page = doc.page % 2 == 0
        section = Doc.first_on_page or Doc.carried
        Doc.first_on_page, Doc.carried = None, Doc.section
        foot = margin * 0.45
        if left_page:
            c.drawString(margin, top, typographic(scenario.meta.title))
            c.setFont(SANS_BOLD, fs.running * k * 1.15)
            c.drawString(margin, foot, str(doc.page))
        else:
            c.drawRightString(w - margin, top, section)
            c.setFont(SANS_BOLD, fs.running * k * 1.15)
            c.drawRightString(w - margin, foot, str(doc.page))
        c.line(margin, top - 3 * k, w - margin, top - 3 * k)
        c.setFont(SANS, fs.running * k)
        (c.drawRightString if left_page else c.drawString)(w - margin if left_page else margin, foot, edition())
        stamp(c)
        output_intent(c)
        c.restoreState()

    def on_cover(c: Any, _doc: Any) -> None:
        set_page(c, size)  # printed whole and trimmed nowhere: a booklet's pages are its sheets
        cover(c, scenario, size, k, st)

    def frame(x: float, width: float, name: str) -> Frame:
        return Frame(
            x, margin, width, h - 2 * margin, id=name, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0
        )

    doc = Doc(
        io.BytesIO(),
        pagesize=size,
        invariant=1,
        title=f"{scenario.meta.title}: rules",
        author="kitgen",
        subject=scenario.meta.subtitle,
        creator="kitgen",
        initialFontName=SANS,
        leftMargin=margin,
        rightMargin=margin,
        topMargin=margin,
        bottomMargin=margin,
    )
    two = [frame(margin, column, "left"), frame(margin + column + gutter, column, "right")][:columns]
    doc.addPageTemplates(
        [
            PageTemplate(id="cover", frames=[frame(margin, full, "cover")], onPage=on_cover),
            PageTemplate(id="body", frames=two, onPageEnd=decorate),
            PageTemplate(id="wide", frames=[frame(margin, full, "wide")], onPageEnd=decorate),
        ]
    )
    shade = Color(*hex_colour(st.colours.table_head))
    stripe = Color(*hex_colour(st.colours.table_stripe))
    rule = Color(*hex_colour(st.colours.rule))
    cell_styles: dict[float, tuple[ParagraphStyle, ParagraphStyle]] = {}
    set_tables: dict[str, Fitted] = {}

    def table(name: str, width: float) -> Flowable:
        rows = built[name]
        fitted = fit_table(name, rows, width, st, k)
        set_tables[name] = fitted
        size_pt = fitted.size
        if size_pt not in cell_styles:
            cell_styles[size_pt] = (
                ParagraphStyle(
                    f"cell{size_pt}", fontName=SANS, fontSize=size_pt, leading=size_pt * 1.2, textColor=Color(*ink)
                ),
                ParagraphStyle(
                    f"head{size_pt}", fontName=SANS_BOLD, fontSize=size_pt, leading=size_pt * 1.2, textColor=Color(*ink)
                ),
            )
        plain, bold_style = cell_styles[size_pt]
        spans, bold = fitted.spans, fitted.bold
        room = {(s.row, s.first): sum(fitted.widths[s.first : s.last + 1]) for s in spans}
        data = [
            [
                cell(v, bold_style if r in bold else plain, room.get((r, c), cw) - 2 * CELL_PAD * k)
                for c, (v, cw) in enumerate(zip(row, fitted.widths, strict=True))
            ]
            for r, row in enumerate(fitted.rows)
        ]
        t = Table(data, colWidths=fitted.widths, repeatRows=1, hAlign="LEFT")
        commands: list[tuple[Any, ...]] = [
            # plain-text cells are drawn by the table in its cell style: the same font, size,
            # leading and colour as the Paragraph cells
            ("FONTNAME", (0, 0), (-1, -1), SANS),
            *[("FONTNAME", (0, r), (-1, r), SANS_BOLD) for r in sorted(bold)],
            ("FONTSIZE", (0, 0), (-1, -1), size_pt),
            ("LEADING", (0, 0), (-1, -1), plain.leading),
            ("TEXTCOLOR", (0, 0), (-1, -1), plain.textColor),
            ("LEFTPADDING", (0, 0), (-1, -1), CELL_PAD * k),
            ("RIGHTPADDING", (0, 0), (-1, -1), CELL_PAD * k),
            ("BACKGROUND", (0, 0), (-1, 0), shade),
            ("LINEABOVE", (0, 0), (-1, 0), 0.8 * k, rule),
            ("LINEBELOW", (0, 0), (-1, 0), 0.5 * k, rule),
            ("LINEBELOW", (0, -1), (-1, -1), 0.8 * k, rule),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("TOPPADDING", (0, 0), (-1, -1), 1.3 * k),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 1.3 * k),
        ]
        commands += [("BACKGROUND", (0, r), (-1, r), stripe) for r in range(2, len(rows), 2)]
        for s in spans:
            commands.append(("SPAN", (s.first, s.row), (s.last, s.row)))
            if s.first == 0:
                commands.append(("BACKGROUND", (0, s.row), (-1, s.row), shade))
        t.setStyle(TableStyle(commands))
        _, th = t.wrap(width, h)
        if th < (h - 2 * margin) * 0.45:  # a short table is never split, nor parted from its heading
            lead: list[Flowable] = []
            while story and story[-1].getKeepWithNext():  # type: ignore[no-untyped-call]
                lead.insert(0, story.pop())
            return KeepTogether([*lead, t, Spacer(1, 5 * k)])
        return t

    def notes_box(paras: list[str]) -> Flowable:
        box = Table([[LaidOut(p, notes)] for p in paras], colWidths=[column], hAlign="LEFT")
        pad = 6 * k
        box.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, -1), SANS),  # a table sets its font even round a Paragraph
                    ("BACKGROUND", (0, 0), (-1, -1), Color(*hex_colour(st.colours.notes))),
                    ("LEFTPADDING", (0, 0), (-1, -1), pad),
                    ("RIGHTPADDING", (0, 0), (-1, -1), pad),
                    ("TOPPADDING", (0, 0), (-1, -1), pad * 0.4),
                    ("BOTTOMPADDING", (0, 0), (-1, -1), pad * 0.4),
                    ("TOPPADDING", (0, 0), (-1, 0), pad),
                    ("BOTTOMPADDING", (0, -1), (-1, -1), pad),
                ]
            )
        )
        return box

    story: list[Flowable] = [Spacer(1, 1), NextPageTemplate("body"), PageBreak()]  # the cover is drawn
    toc = TableOfContents()
    toc.tableStyle = TableStyle(
        [
            ("FONTNAME", (0, 0), (-1, -1), SANS),
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
        ]
    )
    toc.dotsMinLevel = 1
    toc.levelStyles = [
        ps("toc0", SANS_BOLD, fs.body, fs.body * 1.25, spaceBefore=3.5 * k),
        ps("toc1", SANS, fs.body, fs.body * 1.25, leftIndent=9 * k),
    ]
    story += [LaidOut("Contents", heads[0]), toc, FrameBreak()]  # the designer's notes beside it
    make_item = _item(item)
    width = column
    quotes: list[str] = []
    for n, (kind, text) in enumerate(blocks):
        if kind == "quote":
            quotes.append(text)
            if n + 1 < len(blocks) and blocks[n + 1][0] == "quote":
                continue
            story.append(notes_box(quotes))
            story.append(Spacer(1, 6 * k))
            quotes = []
        elif kind == "part":
            if text in st.new_page:
                wide = text in st.one_column
                width = full if wide else column
                story += [NextPageTemplate("wide" if wide else "body"), PageBreak()]
            story.append(Heading(text, heads[0], level=0))
        elif kind == "rule":
            level = heading_level(text)
            story.append(Heading(text, heads[level], level=level))
        elif kind == "table":
            story.append(table(text, width))
        elif kind == "ruling":
            story.append(Marked(LaidOut(text, ruled), accent, 10 * k, ruled.fontSize))
        elif kind == "item":
            story.append(make_item(text))
        else:
            follows = blocks[n + 1][0] if n + 1 < len(blocks) else ""
            introduces = text.rstrip().endswith(":") and follows in ("item", "table")
            story.append(LaidOut(text, lead_in if introduces else body))
    kept = contents_key(scenario.meta.id, blocks, built, size, style.model_dump_json(), scale, columns)
    seed = recall(kept)
    toc.addEntries(seed)  # set in one pass, not two, when the last identical run's are right
    doc.multiBuild(story)
    entries = toc._entries  # type: ignore[attr-defined]  # the entries the last pass printed
    if entries != seed:
        keep(kept, scenario.meta.id, entries)
    pages = max(used) if used else 0
    ends.update({1, pages})  # the cover and the last page
    per_page = {p: columns if {"left", "right"} & set(frames) else 1 for p, frames in used.items()}
    fill = tuple(sum(used.get(p, {}).values()) / per_page.get(p, 1) for p in range(1, pages + 1))
    return Typeset(doc.filename.getvalue(), tuple(outline), fill, frozenset(ends), tuple(set_tables.items()))


def _item(style: Any) -> Callable[[str], Flowable]:
    """A list item: '1. text' numbered, anything else bulleted."""

    def make(text: str) -> Flowable:
        number, _, rest = text.partition(" ")
        if number.endswith(".") and number[:-1].isdigit():
            return LaidOut(rest, style, bulletText=number)
        return LaidOut(text, style, bulletText="•")

    return make


def cover(c: Any, scenario: Scenario, size: tuple[float, float], k: float, st: BookletStyle) -> None:
    """The cover: a band in the accent colour with the title; the campaign's own map as its art,
    framed; the factions with their colours and marks; what the booklet holds; the credits and
    the edition."""
    from kitgen.buildinfo import edition
    from kitgen.render.pages import faction_chip

    w, h = size
    band = h * 0.30
    c.saveState()
    c.setFillColorRGB(*hex_colour(st.colours.accent))
    c.rect(0, h - band, w, band, stroke=0, fill=1)
    c.setFillColorRGB(1, 1, 1)
    c.setFont(SANS_BOLD, st.fonts.title * k)
    c.drawCentredString(w / 2, h - band * 0.45, typographic(scenario.meta.title))
    margin = st.margin_mm * 2.8346 * k
    room = w - 2 * margin

    def fitted(lines: Sequence[str], font: str, size: float) -> list[str]:
        """The lines, each broken where it is wider than the page between its margins."""
        from reportlab.lib.utils import simpleSplit

        return [part for line in lines for part in simpleSplit(line, font, size, room)]

    c.setFont(SANS, 12.5 * k)
    for n, line in enumerate(fitted([typographic(scenario.meta.subtitle)], SANS, 12.5 * k)):
        c.drawCentredString(w / 2, h - band * 0.45 - (26 + 15 * n) * k, line)
    c.setFont(SANS_BOLD, 15 * k)
    c.drawCentredString(w / 2, h - band + 20 * k, "RULES OF PLAY")
    _cover_map(c, scenario, margin, h * 0.34, room, h - band - h * 0.34 - 14 * k)
    factions = scenario.meta.factions
    size_mark, gap = 24 * k, 30 * k
    total = len(factions) * size_mark + (len(factions) - 1) * gap
    x = (w - total) / 2
    y = h * 0.34 - 44 * k
    for f in factions:
        faction_chip(c, f.id, f.colour, x, y, size_mark)
        c.setFillColorRGB(0.12, 0.12, 0.12)
        c.setFont(SANS, 9 * k)
        c.drawCentredString(x + size_mark / 2, y - 12 * k, f.name)
        x += size_mark + gap
    c.setFont(SANS, 9.5 * k)
    c.setFillColorRGB(0.3, 0.3, 0.3)
    lines = [typographic(line) for line in st.cover_note]
    note = fitted([" ".join(lines)], SANS, 9.5 * k) if len(fitted(lines, SANS, 9.5 * k)) > len(lines) else lines
    for n, line in enumerate(note):  # under the factions' names; one paragraph where its lines must break
        c.drawCentredString(w / 2, y - (34 + 13 * n) * k, line)
    small = st.fonts.running * k
    c.setFont(SANS, small)
    c.setFillColorRGB(0.4, 0.4, 0.4)
    foot = fitted([*(typographic(line) for line in st.credits), edition()], SANS, small)
    for n, line in enumerate(foot):
        c.drawCentredString(w / 2, margin * 0.9 + (len(foot) - 1 - n) * small * 1.3, line)
    c.restoreState()


_cover_art: dict[int, tuple[Scenario, Picture | None]] = {}
"""The cover's map by scenario, with the scenario itself: platypus may set the booklet in several
passes, each drawing the cover. The scenario is kept and checked, since once it is gone its id
may be another's: a booklet once printed another scenario's map on its cover that way."""


def _cover_map(c: Any, scenario: Scenario, x: float, y: float, width: float, height: float) -> None:
    """The campaign's clean map, scaled into the box and framed: the art of the cover."""
    from kitgen.render.mapcache import map_picture
    from kitgen.render.style import map_style

    kept = _cover_art.get(id(scenario))
    if kept is None or kept[0] is not scenario:
        if len(_cover_art) >= 8:
            _cover_art.clear()
        kept = _cover_art[id(scenario)] = (scenario, map_picture(scenario, map_style(), lambda: _art(scenario)))
    art = kept[1]
    if art is None:
        return
    scale = min(width / art.width, height / art.height)
    mw, mh = art.width * scale, art.height * scale
    left, bottom = x + (width - mw) / 2, y + (height - mh) / 2
    c.saveState()
    c.translate(left, bottom)
    c.scale(scale, scale)
    art.draw(c)
    c.restoreState()
    c.setStrokeColorRGB(0.15, 0.15, 0.15)
    c.setLineWidth(0.8)
    c.rect(left, bottom, mw, mh, stroke=1, fill=0)


def _art(scenario: Scenario) -> MapArt | None:
    from kitgen.mapping.cache import hex_map
    from kitgen.render.mapart import MapArt
    from kitgen.render.style import map_style

    built, _ = hex_map(scenario)
    return None if built is None else MapArt(built, scenario, map_style())
