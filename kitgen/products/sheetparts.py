"""Parts made of Sheets: one drawer a page on A4 or US Letter (some pages landscape), each
titled page in the outline; and a long table run over as many pages as it takes."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kitgen.model.scenario import Scenario
from kitgen.render.formstyle import FormStyle, form_style
from kitgen.render.pages import MM, PAPER, Part, landscape, new_canvas, set_page
from kitgen.render.sheet import CellLike, Column, Page, Sheet, header_height, heading_height

PARA_GAP = 3.0
"""Points between the intro paragraphs over a table."""


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
    style: FormStyle | None = None,
    styles: Mapping[str, FormStyle] | None = None,
    maps: Sequence[str] = (),
) -> Part:
    """A part of one Sheet per page, each titled page in the outline, on A4 or US Letter; the
    pages whose keys are in `wide` are landscape, and those in `styles` take their own style;
    `maps` names the maps its pages draw (`kitgen.render.mapembed.place_map`), to fill once made."""
    style = style or form_style()
    size = PAPER[paper]
    buffer = io.BytesIO()
    c = new_canvas(buffer, size, scenario, label.lower())
    for number, (heading, key, draw) in enumerate(pages, start=1):
        page_size = landscape(size) if key in wide else size
        set_page(c, page_size)
        if heading:
            c.bookmarkPage(key)
            c.addOutlineEntry(heading, key, level=0)
        sheet = Sheet(c, (styles or {}).get(key, style), scenario, page_size, label)
        sheet.finish(draw(sheet), number, len(pages))
    if maps:
        from kitgen.render.mapembed import define_maps

        define_maps(c, maps)
    c.save()
    from kitgen.render.formfields import fields_on

    bookmarks = tuple((heading, number) for number, (heading, _, _) in enumerate(pages) if heading)
    return Part(
        file=file,
        title=title,
        purpose=purpose,
        pdf=buffer.getvalue(),
        pages=len(pages),
        bookmarks=bookmarks,
        duplex=duplex,
        fields=tuple(fields_on(c)),
    )


@dataclass(frozen=True)
class Table:
    """A table under its heading, to draw on a page of a `table_pages` run."""

    heading: str
    columns: list[Column]
    header: Sequence[CellLike]
    rows: list[list[Any]]

    def height(self, probe: Sheet) -> float:
        """Its height as `draw` sets it, on `probe`'s page."""
        st = probe.st
        body = sum(probe.row_heights(probe.span, self.columns, self.rows, wrap=True))
        return heading_height(st) + header_height(st, probe.span, self.columns, [self.header]) + body

    def draw(self, sheet: Sheet, y: float) -> float:
        y = sheet.heading(sheet.left, y, sheet.span, self.heading)
        return sheet.table(sheet.left, y, sheet.span, self.columns, [self.header], self.rows, wrap=True)


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
    intro: Sequence[str] = (),
    wrap: bool = False,
    style: FormStyle | None = None,
    then: Table | None = None,
) -> list[Page]:
    """A table over as many pages as its rows need, each page with the band and heading; the
    `intro` paragraphs above the first page's table, measured as they are set; `then`, a second
    table under the last row (on a page of its own when it does not fit). `style` is the one the
    pages are drawn in (the forms' by default): the rows are measured in it too."""
    st = style or form_style()
    probe = Sheet(None, st, scenario, PAPER[paper], "")  # type: ignore[arg-type]  # its geometry only
    height = probe.top - probe.bottom - st.band_mm * MM - st.gap
    height -= heading_height(st) + st.charts.header_row + 6
    heights = probe.row_heights(probe.span, columns, rows, wrap=wrap)
    chunks: list[list[list[Any]]] = [[]]
    room = height - sum(probe.para_height(probe.span, text) + PARA_GAP for text in intro)
    room -= st.gap - PARA_GAP if intro else 0.0
    for row, h in zip(rows, heights, strict=True):
        if chunks[-1] and h > room:
            chunks.append([])
            room = height
        chunks[-1].append(row)
        room -= h
    if then is not None and then.height(probe) > room - st.gap:
        chunks.append([])
    f = scenario.faction(faction) if faction else None
    pages: list[Page] = []
    for k, chunk in enumerate(chunks):
        more = f" ({k + 1} of {len(chunks)})" if len(chunks) > 1 else ""

        def draw(sheet: Sheet, chunk: list[list[Any]] = chunk, k: int = k, more: str = more) -> float:
            y = sheet.band(title + more, f, "")
            if k == 0 and intro:
                for text in intro:
                    y = sheet.para(sheet.left, y, sheet.span, text) - PARA_GAP
                y -= sheet.st.gap - PARA_GAP
            if chunk:
                y = sheet.heading(sheet.left, y, sheet.span, heading[0], heading[1])
                y = sheet.table(sheet.left, y, sheet.span, columns, [header], chunk, wrap=wrap)
            if then is not None and k == len(chunks) - 1:
                y = then.draw(sheet, y - sheet.st.gap if chunk else y)
            return y

        pages.append((title + more, f"{key}-{k + 1}", draw))
    return pages
