"""The faction order form: one row per unit, train and ship of the faction, pre-filled from the
state the orders are written against, with fillable fields (AcroForm) for the path, what a
carrier takes and a special order. Printed empty, its ruled boxes take a pen just as well.

The fields' names (`kitgen.orders.rows`) are what `kitgen orders import` reads back; hidden,
read-only fields say the faction, turn and campaign the form is for."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import Field

from kitgen.campaign import Campaign
from kitgen.engine.state import CampaignState
from kitgen.model.base import Model
from kitgen.model.scenario import Faction
from kitgen.orders.rows import PATH_HEXES, TICKS, OrderRow, field_name, identity, identity_name, order_rows, tick_name
from kitgen.products.sheetparts import sheets_part
from kitgen.render.fonts import SANS, SANS_BOLD, text_width
from kitgen.render.formfields import check_box, text_field
from kitgen.render.formstyle import FormStyle, form_style
from kitgen.render.lengths import Length
from kitgen.render.pages import MM, PAPER
from kitgen.render.sheet import PAD, CellLike, Column, Page, Sheet
from kitgen.render.style import layouts_dir, load_layout

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

DASH = "\u2013"
INFO = ("unit", "hex", "type", "stands", "mp", "supply", "commander")


class OrderFormLayout(Model):
    """layouts/orderform.yaml: one paper's geometry of the order form."""

    info_row: Length = Field(gt=0)
    path_row: Length = Field(gt=0)
    path_box: Length = Field(gt=0)
    order_row: Length = Field(gt=0)
    tick: Length = Field(gt=0)
    roll_box: Length = Field(gt=0)
    field_font: Length = Field(gt=0)
    label_font: Length = Field(gt=0)
    field_border: Length = Field(gt=0)
    gap: Length = Field(ge=0)
    key_space: Length = Field(ge=0)
    identity_line: Length = Field(gt=0)
    info_columns: dict[str, float]


class OrderFormLayouts(Model):
    layouts: dict[str, OrderFormLayout]
    """By paper: a4, letter."""


@cache
def order_form_layouts(path: Path | None = None) -> dict[str, OrderFormLayout]:
    """The order form's layouts by paper, from layouts/orderform.yaml."""
    return load_layout(OrderFormLayouts, path or layouts_dir() / "orderform.yaml", named="layouts").layouts


def _layout_for(size: tuple[float, float]) -> OrderFormLayout:
    layouts = order_form_layouts()
    for paper, paper_size in PAPER.items():
        if paper in layouts and all(abs(a - b) < 0.5 for a, b in zip(paper_size, size, strict=True)):
            return layouts[paper]
    return layouts["a4"]


def _header_h(st: FormStyle) -> float:
    """A one-line header row of Sheet.table."""
    return max(st.charts.header_row, st.fonts.header * 1.15 + PAD * 1.6)


def _room() -> float:
    """The height a page has for rows, on every paper (the pages are split before the paper is known)."""
    st = form_style()
    fits = []
    for paper, (_, height) in PAPER.items():
        lay = order_form_layouts().get(paper, order_form_layouts()["a4"])
        top = height - st.margin_mm * MM - st.band_mm * MM - st.gap
        top -= lay.identity_line + lay.gap
        top -= st.fonts.heading * 1.75 + 3.5  # the heading bar
        top -= _header_h(st)
        bottom = st.margin_mm * MM + st.footer_mm * MM + lay.key_space
        fits.append(top - bottom)
    return min(fits)


def _width() -> float:
    """The width a row has, on every paper."""
    st = form_style()
    return min(w for w, _ in PAPER.values()) - 2 * st.margin_mm * MM


def order_form_pages(campaign: Campaign, state: CampaignState, faction: str, turn: int) -> list[Page]:
    """The order form of `faction` for turn `turn`, written against `state` (the state after
    turn - 1): as many pages as its rows need."""
    found = next(f for f in campaign.scenario.meta.factions if f.id == faction)
    rows = order_rows(campaign, state, faction, turn)
    lay, room, width = order_form_layouts()["a4"], _room(), _width()
    chunks: list[list[OrderRow]] = [[]]
    used = 0.0
    for row in rows:
        height = _row_height(lay, row, width)
        if chunks[-1] and used + height > room:
            chunks.append([])
            used = 0.0
        chunks[-1].append(row)
        used += height
    ids = identity(campaign, state, faction, turn)
    pages: list[Page] = []
    for k, chunk in enumerate(chunks, start=1):
        title = f"Order form: {found.name}, turn {turn}" + (f" ({k} of {len(chunks)})" if len(chunks) > 1 else "")
        draw = partial(_draw, faction=found, turn=turn, rows=chunk, ids=ids if k == 1 else None)
        pages.append((title, f"orders-{faction}-{turn}-{k}", draw))
    return pages


def order_form_pdf(campaign: Campaign, state: CampaignState, faction: str, turn: int, paper: str) -> bytes:
    """The order form alone, as a PDF."""
    part = sheets_part(
        campaign.scenario,
        paper,
        order_form_pages(campaign, state, faction, turn),
        label="Order form",
        file=f"orders-{faction}-turn-{turn:02d}-{paper}.pdf",
        title="Order form",
        purpose=f"the {faction} orders for turn {turn}, to fill on screen or by hand",
    )
    from kitgen.render.formfields import add_fields
    from kitgen.render.mapembed import Increment

    inc = Increment(part.pdf)
    add_fields(inc, part.fields)
    return inc.result()


def _draw(sheet: Sheet, *, faction: Faction, turn: int, rows: Sequence[OrderRow], ids: dict[str, str] | None) -> float:
    st, lay = sheet.st, _layout_for((sheet.width, sheet.height))
    y = sheet.band("Order form", faction, f"{faction.name}, turn {turn}")
    base = y - lay.identity_line + 4
    x = sheet.left
    x += sheet.text(x, base, f"Written against the state after turn {turn - 1}", size=st.fonts.small)
    if ids is not None:
        x += sheet.text(
            x + 8,
            base,
            f"campaign {ids['campaign']}, state {ids['state']}",
            size=st.fonts.small,
            colour=st.colours.muted,
        )
        _identity_fields(sheet.c, faction.id, ids, sheet.left, base)
        _written_by(sheet, lay, faction.id, sheet.left + sheet.span * 0.6, base, sheet.span * 0.4)
    y -= lay.identity_line + lay.gap
    y = sheet.heading(sheet.left, y, sheet.span, "Orders", "A, C, D, II.C")
    info = [
        Column(lay.info_columns[k], "left" if k in ("unit", "type", "stands", "commander") else "centre") for k in INFO
    ]
    header: list[CellLike] = ["Unit", "Hex", "Type", "Stands", "MP", "Supply", "Commander (obeys on)"]
    y = sheet.table(sheet.left, y, sheet.span, info, [header], [], tint=False)
    for k, row in enumerate(rows):
        y = _row(sheet, lay, row, y, info, tint=k % 2 == 1)
    if not rows:
        y = sheet.para(sheet.left, y - 2, sheet.span, "The faction has no units, trains or ships on the map.")
    return _key(sheet, y - lay.gap)


def _edges(x: float, width: float, columns: Sequence[Column]) -> list[float]:
    total = sum(c.share for c in columns)
    edges = [x]
    for c in columns:
        edges.append(edges[-1] + width * c.share / total)
    return edges


def _target_text(row: OrderRow) -> str:
    if row.kind != "unit" or row.target is None:
        return ""
    obeys = "no roll" if row.target < 1 else ("1" if row.target == 1 else f"1{DASH}{row.target}")
    return f"{row.commander} ({obeys})"


Tick = tuple[str, str, str, float]
"""(field part, what, label, x from the line's start) of one tick box."""
Line = tuple[str, list[Tick]]
"""A line of tick boxes and its lead word ('' for a group's lines after its first)."""
LABEL_MOST = 150.0
"""Points a tick box's label takes at most (a unit's name is cut to fit)."""


def _tick_lines(lay: OrderFormLayout, row: OrderRow, width: float) -> list[Line]:
    """The row's tick boxes in lines of `width`: a train's or ship's units to take aboard
    ("Takes aboard:"), then its special orders ("Special:"), each group from a new line; the
    special orders' first line keeps room at its end for the hexes they name."""
    groups: list[tuple[str, list[tuple[str, str, str]]]] = []
    if row.kind != "unit":
        groups.append(("Takes aboard:", [("carry", unit, name) for unit, name in row.carriable]))
    if row.specials:
        groups.append(("Special:", [("special", TICKS[word], word) for word in row.specials]))
    lines: list[Line] = []
    for lead, ticks in groups:
        start = text_width(lead, SANS_BOLD, lay.label_font) + 6
        lines.append((lead, []))
        x = start
        for part, what, label in ticks:
            need = lay.tick + 3 + min(text_width(label, SANS, lay.label_font), LABEL_MOST) + 10
            room = width - (_hex_box_room(lay, row) if lead == "Special:" and len(lines[-1][0]) else 0.0)
            if lines[-1][1] and x + need > room:
                lines.append(("", []))
                x = start
            lines[-1][1].append((part, what, label, x))
            x += need
    return lines


def _hex_box_room(lay: OrderFormLayout, row: OrderRow) -> float:
    """Room at the end of the first line of special orders for the hexes they name (repair 2,
    emplace or land 1)."""
    if not row.specials:
        return 0.0
    return text_width("its hexes", SANS, lay.label_font) + 6 + 2 * lay.path_box + 2


def _row_height(lay: OrderFormLayout, row: OrderRow, width: float) -> float:
    return lay.info_row + lay.path_row + lay.order_row * max(1, len(_tick_lines(lay, row, width)))


def _row(
    sheet: Sheet,
    lay: OrderFormLayout,
    row: OrderRow,
    top: float,
    info: Sequence[Column],
    *,
    tint: bool,
) -> float:
    """One unit's block: what it is, printed; its path, a box a hex; its tick boxes."""
    st, c = sheet.st, sheet.c
    block = _row_height(lay, row, sheet.span)
    bottom = top - block
    if tint:
        sheet.fill(st.colours.tint)
        c.rect(sheet.left, bottom, sheet.span, block, stroke=0, fill=1)
    mp = "" if row.mp is None else str(row.mp)
    texts = [row.label or row.id, row.hex, row.type, row.stands, mp, row.supply, _target_text(row)]
    edges = _edges(sheet.left, sheet.span, info)
    size = st.fonts.table
    base = top - lay.info_row / 2 - size * 0.36
    for k, (text, col) in enumerate(zip(texts, info, strict=True)):
        x0, x1 = edges[k], edges[k + 1]
        font = SANS_BOLD if k == 0 else SANS
        if col.align == "centre":
            sheet.text((x0 + x1) / 2, base, text, font=font, size=size, align="centre", fit=x1 - x0 - 2 * PAD)
        else:
            sheet.text(x0 + PAD, base, text, font=font, size=size, fit=x1 - x0 - 2 * PAD)
    y = top - lay.info_row
    _path(sheet, lay, row, y)
    y -= lay.path_row
    _ticks(sheet, lay, row, y)
    sheet.stroke(st.colours.ink, st.widths.rule * 1.6)
    c.line(sheet.left, bottom, sheet.right, bottom)
    return bottom


def _boxes(
    sheet: Sheet, lay: OrderFormLayout, x: float, top: float, count: int, height: float
) -> tuple[float, float, float, float]:
    """`count` hex boxes side by side from x under `top`; their whole (x, y, w, h)."""
    w = lay.path_box * count
    y = top - (lay.path_row - height) / 2 - height
    sheet.fill(sheet.st.colours.paper)
    sheet.stroke(sheet.st.colours.ink, lay.field_border)
    for k in range(count):
        sheet.c.rect(x + k * lay.path_box, y, lay.path_box, height, stroke=1, fill=1)
    return (x, y, w, height)


def _path(sheet: Sheet, lay: OrderFormLayout, row: OrderRow, top: float) -> None:
    """The path: a box for each hex to enter (12, a ship 16), one field across them whose
    characters fall four to a box (a comb); for a unit its commander's roll, a box that takes '10'."""
    hexes = PATH_HEXES[row.kind]
    height = lay.path_row * 0.8
    box = _boxes(sheet, lay, sheet.left + PAD, top, hexes, height)
    _comb(sheet, lay, field_name(row.id, "path"), box, hexes * len(row.hex), f"the {hexes} hexes to enter, in order")
    if row.kind != "unit" or row.target is None or row.target < 1:
        return
    x = sheet.right - PAD - lay.roll_box
    y = box[1]
    sheet.fill(sheet.st.colours.paper)
    sheet.c.rect(x, y, lay.roll_box, height, stroke=1, fill=1)
    sheet.text(
        x - 4,
        y + height / 2 - lay.label_font * 0.36,
        "roll",
        size=lay.label_font,
        align="right",
        colour=sheet.st.colours.muted,
    )


def _ticks(sheet: Sheet, lay: OrderFormLayout, row: OrderRow, top: float) -> None:
    """The row's tick boxes (check boxes on screen), line by line (`_tick_lines`); at the end
    of the special orders' first line, boxes for the hexes they name."""
    st = sheet.st
    for n, (lead, ticks) in enumerate(_tick_lines(lay, row, sheet.span)):
        y = top - n * lay.order_row - lay.order_row / 2
        base = y - lay.label_font * 0.36
        if lead:
            sheet.text(sheet.left + PAD, base, lead, font=SANS_BOLD, size=lay.label_font)
        if lead == "Takes aboard:" and not ticks:
            x = sheet.left + PAD + text_width(lead, SANS_BOLD, lay.label_font) + 6
            sheet.text(x, base, "no unit of yours in its hex", size=lay.label_font, colour=st.colours.muted)
        for part, what, label, dx in ticks:
            x = sheet.left + PAD + dx
            sheet.fill(st.colours.paper)
            sheet.stroke(st.colours.ink, lay.field_border)
            sheet.c.rect(x, y - lay.tick / 2, lay.tick, lay.tick, stroke=1, fill=1)
            check_box(sheet.c, tick_name(row.id, part, what), (x, y - lay.tick / 2, lay.tick))
            sheet.text(x + lay.tick + 3, base, label, size=lay.label_font, fit=LABEL_MOST)
        if lead == "Special:":
            _hex_boxes(sheet, lay, row, y)


def _hex_boxes(sheet: Sheet, lay: OrderFormLayout, row: OrderRow, mid: float) -> None:
    """The boxes for the hexes a special order names: two (repair), one for a ship (land)."""
    st = sheet.st
    count = 1 if row.specials == ("land",) else 2
    x = sheet.right - PAD - count * lay.path_box
    label = "hex landed on" if count == 1 else "its hexes"
    sheet.text(x - 4, mid - lay.label_font * 0.36, label, size=lay.label_font, align="right", colour=st.colours.muted)
    height = lay.order_row * 0.85
    box = (x, mid - height / 2, count * lay.path_box, height)
    sheet.fill(st.colours.paper)
    sheet.stroke(st.colours.ink, lay.field_border)
    for k in range(count):
        sheet.c.rect(x + k * lay.path_box, box[1], lay.path_box, height, stroke=1, fill=1)
    _comb(sheet, lay, field_name(row.id, "special"), box, count * len(row.hex), "the hexes its special order names")


def _comb(
    sheet: Sheet, lay: OrderFormLayout, name: str, box: tuple[float, float, float, float], length: int, tip: str
) -> None:
    """A text field over printed boxes, its characters spread evenly across them (a comb)."""
    text_field(sheet.c, name, box, size=lay.field_font, maxlen=length, comb=True, tip=tip)


def _written_by(sheet: Sheet, lay: OrderFormLayout, faction: str, x: float, y: float, width: float) -> None:
    """'Written by': a line for a pen, a field on screen (for people: the import reads none of it)."""
    w = sheet.text(x, y, "Written by", font=SANS_BOLD, size=sheet.st.fonts.field)
    x0 = x + w + PAD
    sheet.writing_line(x0, x + width - PAD * 2, y - 1.5)
    box = (x0, y - 3, x + width - PAD * 2 - x0, lay.field_font * 1.6)
    text_field(sheet.c, f"written_by_{faction}", box, size=lay.field_font, maxlen=60, tip="who wrote these orders")


def _identity_fields(c: Canvas, faction: str, ids: dict[str, str], x: float, y: float) -> None:
    """Hidden, read-only fields saying whose form it is, for the import to check."""
    for k, (what, value) in enumerate(sorted(ids.items())):
        box = (float(int(x) + k), float(int(y)), 1.0, 1.0)
        text_field(c, identity_name(faction, what), box, size=0, maxlen=max(64, len(value)), value=value, hidden=True)


def _key(sheet: Sheet, y: float) -> float:
    st = sheet.st
    return sheet.para(
        sheet.left,
        y,
        sheet.span,
        "Path: the hexes to enter, in order, one to a box (the unit's own hex may be left out); a path stops "
        "at the first hex of enemy units. Roll: the commander's roll for the hex, if the umpire has it made at "
        "the table. Special: tick one: retreat (II.C.2), wreck (the track of the last hex entered, C.2), repair "
        "(the track between its hexes, C.2), emplace (a pontoon across to its hex, A.1), pick up (the "
        "pontoon), resupply (B.5), evade or ambush (partisans, II.D); a ship: land (on its hex, A.3). Takes "
        "aboard: tick the units a train or ship takes where it starts. Leave a row empty for no order. On "
        "screen, type the hexes' digits alone: they fall four to a box. The form is read back by kitgen "
        "orders import.",
        lead="Key:",
        size=st.fonts.small,
        colour=st.colours.muted,
    )
