"""Words that flow: a part's blocks (headings, paragraphs, tables that break between rows, and
drawings of a known height) packed onto as few pages as they take, each page under the part's
band, a table's header row repeated where it runs on. A published game's situation report
reads on one page or three, not a section a page."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kitgen.model.scenario import Scenario
from kitgen.render.formstyle import FormStyle
from kitgen.render.pages import MM, PAPER
from kitgen.render.sheet import CellLike, Column, Page, Sheet, header_height, heading_height

GAP = 7.0
"""Points between two blocks."""


@dataclass(frozen=True)
class Heading:
    """A section's bar; kept on the page of what follows it."""

    text: str
    ref: str = ""

    def height(self, probe: Sheet) -> float:
        return heading_height(probe.st)

    def draw(self, sheet: Sheet, y: float) -> float:
        return sheet.heading(sheet.left, y, sheet.span, self.text, self.ref)


@dataclass(frozen=True)
class Para:
    """A paragraph, with a bold run-in `lead` if given."""

    text: str
    lead: str = ""

    def height(self, probe: Sheet) -> float:
        return probe.para_height(probe.span, self.text, lead=self.lead)

    def draw(self, sheet: Sheet, y: float) -> float:
        return sheet.para(sheet.left, y, sheet.span, self.text, lead=self.lead or None)


@dataclass(frozen=True)
class Drawn:
    """Anything else drawn across the page at a height known before (a track, a ledger)."""

    measure: Callable[[Sheet], float]
    drawer: Callable[[Sheet, float], float]

    def height(self, probe: Sheet) -> float:
        return self.measure(probe)

    def draw(self, sheet: Sheet, y: float) -> float:
        return self.drawer(sheet, y)


@dataclass(frozen=True)
class Rows:
    """A table, broken between rows where a page ends; its header row (and its `heading`, marked
    as carried on) drawn again over the rows of each further page."""

    columns: Sequence[Column]
    header: Sequence[CellLike]
    rows: Sequence[Sequence[Any]]
    heading: str = ""
    ref: str = ""
    tint: bool = True

    def top(self, probe: Sheet) -> float:
        """The heading's and the header row's height: what every page of the table starts with."""
        h = heading_height(probe.st) if self.heading else 0.0
        return h + header_height(probe.st, probe.span, list(self.columns), [list(self.header)])

    def draw_rows(self, sheet: Sheet, y: float, rows: Sequence[Sequence[Any]], more: bool) -> float:
        if self.heading:
            text = f"{self.heading} (continued)" if more else self.heading
            y = sheet.heading(sheet.left, y, sheet.span, text, self.ref)
        return sheet.table(
            sheet.left, y, sheet.span, list(self.columns), [list(self.header)], rows, wrap=True, tint=self.tint
        )


Block = Heading | Para | Drawn | Rows


@dataclass
class _Piece:
    block: Block
    rows: list[Sequence[Any]] = field(default_factory=list)
    more: bool = False
    """A table's rows carried on from the page before."""


def pack(blocks: Sequence[Block], probe: Sheet, room: float) -> list[list[_Piece]]:
    """The blocks on pages of `room` points: each page as full as it can be, a heading never
    last on a page, a table broken only between rows (never with its header alone)."""
    pages: list[list[_Piece]] = [[]]
    left = room

    def new_page() -> None:
        nonlocal left
        pages.append([])
        left = room

    def gap() -> float:
        return GAP if pages[-1] else 0.0

    def first_need(k: int) -> float:
        """What block k needs on a page at least: all of it, a table's top and first row."""
        b = blocks[k]
        if isinstance(b, Rows):
            first = probe.row_heights(probe.span, list(b.columns), b.rows[:1], wrap=True) if b.rows else [0.0]
            return b.top(probe) + first[0]
        need = b.height(probe)
        if isinstance(b, Heading) and k + 1 < len(blocks):
            need += GAP + first_need(k + 1)
        return need

    for k, b in enumerate(blocks):
        if pages[-1] and first_need(k) + gap() > left:
            new_page()
        if not isinstance(b, Rows):
            left -= gap() + b.height(probe)
            pages[-1].append(_Piece(b))
            continue
        heights = probe.row_heights(probe.span, list(b.columns), b.rows, wrap=True)
        rows = list(zip(b.rows, heights, strict=True))
        more = False
        while True:
            left -= gap() + b.top(probe)
            piece = _Piece(b, more=more)
            pages[-1].append(piece)
            while rows and (rows[0][1] <= left or not piece.rows):
                row, h = rows.pop(0)
                piece.rows.append(row)
                left -= h
            if not rows:
                break
            new_page()
            more = True
    return [page for page in pages if page]


def flow_pages(
    scenario: Scenario,
    paper: str,
    title: str,
    key: str,
    faction: str | None,
    blocks: Sequence[Block],
    style: FormStyle,
    *,
    note: str = "",
) -> list[Page]:
    """The blocks flowed onto as few pages as they take, each under the band of `title` (and
    "(2 of 3)" on a run of more than one page)."""
    probe = Sheet(None, style, scenario, PAPER[paper], "")  # type: ignore[arg-type]  # its geometry only
    room = probe.top - probe.bottom - style.band_mm * MM - style.gap
    laid = pack(blocks, probe, room)
    f = scenario.faction(faction) if faction else None
    pages: list[Page] = []
    for n, pieces in enumerate(laid):
        more = f" ({n + 1} of {len(laid)})" if len(laid) > 1 else ""

        def draw(sheet: Sheet, pieces: list[_Piece] = pieces, more: str = more) -> float:
            y = sheet.band(title + more, f, note)
            for k, piece in enumerate(pieces):
                y -= GAP if k else 0.0
                b = piece.block
                y = b.draw_rows(sheet, y, piece.rows, piece.more) if isinstance(b, Rows) else b.draw(sheet, y)
            return y

        pages.append((title + more, f"{key}-{n + 1}", draw))
    return pages
