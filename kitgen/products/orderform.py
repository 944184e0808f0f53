"""The faction order form: one row per unit, train and ship of the faction, pre-filled from the
state the orders are written against, with fillable fields (AcroForm) for the path, what a
carrier takes and a special order. Printed empty, its ruled boxes take a pen just as well.

The fields' names (`kitgen.orders.rows`) are what `kitgen orders import` reads back; hidden,
read-only fields say the faction, turn and campaign the form is for."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import Field

from kitgen.campaign import Campaign
from kitgen.engine.state import CampaignState
from kitgen.model.base import Model
from kitgen.model.scenario import Faction
from kitgen.orders.rows import PATH_HEXES, OrderRow, field_name, identity, identity_name, order_rows
from kitgen.products.sheetparts import sheets_part
from kitgen.render.fonts import SANS, SANS_BOLD, text_width
from kitgen.render.formstyle import FormStyle, form_style
from kitgen.render.lengths import Length
from kitgen.render.pages import MM, PAPER
from kitgen.render.sheet import PAD, CellLike, Column, Page, Sheet
from kitgen.render.style import layouts_dir, load_layout

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

DASH = "\u2013"
FIELD_FONT = "Helvetica"
"""The viewer's font for typed text: one of the PDF standard fonts every viewer has."""
INFO = ("unit", "hex", "type", "stands", "mp", "supply", "commander")
ORDERS = ("path", "carry", "special")


class OrderFormLayout(Model):
    """layouts/orderform.yaml: one paper's geometry of the order form."""

    info_row: Length = Field(gt=0)
    field_row: Length = Field(gt=0)
    field_font: Length = Field(gt=0)
    field_inset: Length = Field(ge=0)
    label_font: Length = Field(gt=0)
    field_border: Length = Field(gt=0)
    gap: Length = Field(ge=0)
    key_space: Length = Field(ge=0)
    identity_line: Length = Field(gt=0)
    info_columns: dict[str, float]
    order_columns: dict[str, float]


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


def rows_per_page() -> int:
    """Rows that fit on one page on every paper (the pages are split before the paper is known)."""
    st = form_style()
    fits = []
    for paper, (_, height) in PAPER.items():
        lay = order_form_layouts().get(paper, order_form_layouts()["a4"])
        top = height - st.margin_mm * MM - st.band_mm * MM - st.gap
        top -= lay.identity_line + lay.gap
        top -= st.fonts.heading * 1.75 + 3.5  # the heading bar
        top -= 2 * _header_h(st)
        bottom = st.margin_mm * MM + st.footer_mm * MM + lay.key_space
        fits.append(int((top - bottom) // (lay.info_row + lay.field_row)))
    return max(1, min(fits))


def order_form_pages(campaign: Campaign, state: CampaignState, faction: str, turn: int) -> list[Page]:
    """The order form of `faction` for turn `turn`, written against `state` (the state after
    turn - 1): as many pages as its rows need."""
    found = next(f for f in campaign.scenario.meta.factions if f.id == faction)
    rows = order_rows(campaign, state, faction, turn)
    per = rows_per_page()
    chunks = [rows[k : k + per] for k in range(0, len(rows), per)] or [[]]
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
    return part.pdf


def _draw(sheet: Sheet, *, faction: Faction, turn: int, rows: Sequence[OrderRow], ids: dict[str, str] | None) -> float:
    st, lay = sheet.st, _layout_for((sheet.width, sheet.height))
    y = sheet.band("Order form", faction, f"{faction.name}, turn {turn}")
    base = y - lay.identity_line + 3
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
    sheet.field(sheet.left + sheet.span * 0.62, base, "Written by", sheet.span * 0.38)
    y -= lay.identity_line + lay.gap
    y = sheet.heading(sheet.left, y, sheet.span, "Orders", "A, C, D, II.C")
    info = [
        Column(lay.info_columns[k], "left" if k in ("unit", "type", "stands", "commander") else "centre") for k in INFO
    ]
    header: list[CellLike] = ["Unit", "Hex", "Type", "Stands", "MP", "Supply", "Commander (obeys on)"]
    y = sheet.table(sheet.left, y, sheet.span, info, [header], [], tint=False)
    orders = [Column(lay.order_columns[k]) for k in ORDERS]
    header = ["Path: the hexes to enter, in order", "Carries: unit ids (train, ship)", "Special order"]
    y = sheet.table(sheet.left, y, sheet.span, orders, [header], [], tint=False)
    for k, row in enumerate(rows):
        y = _row(sheet, lay, row, y, info, orders, tint=k % 2 == 1)
    if rows:
        sheet.stroke(st.colours.ink, st.widths.frame)
        block = lay.info_row + lay.field_row
        sheet.c.rect(sheet.left, y, sheet.span, block * len(rows), stroke=1, fill=0)
    else:
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


def _row(
    sheet: Sheet,
    lay: OrderFormLayout,
    row: OrderRow,
    top: float,
    info: Sequence[Column],
    orders: Sequence[Column],
    *,
    tint: bool,
) -> float:
    """One unit's two lines: what it is, printed; under it, the fields to fill."""
    st, c = sheet.st, sheet.c
    block = lay.info_row + lay.field_row
    if tint:
        sheet.fill(st.colours.tint)
        c.rect(sheet.left, top - block, sheet.span, block, stroke=0, fill=1)
    unit = row.label or row.id
    mp = "" if row.mp is None else str(row.mp)
    texts = [unit, row.hex, row.type, row.stands, mp, row.supply, _target_text(row)]
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
        if k:
            sheet.stroke(st.colours.rule, st.widths.rule)
            c.line(x0, top, x0, top - lay.info_row)
    middle = top - lay.info_row
    sheet.stroke(st.colours.rule, st.widths.rule)
    c.line(sheet.left, middle, sheet.right, middle)
    edges = _edges(sheet.left, sheet.span, orders)
    wanted = {"path": True, "carry": row.kind != "unit", "special": row.kind != "train"}
    labels = {"path": "path", "carry": "carries", "special": "special"}
    for k, part in enumerate(ORDERS):
        x0, x1 = edges[k], edges[k + 1]
        if k:
            sheet.stroke(st.colours.rule, st.widths.rule)
            c.line(x0, middle, x0, middle - lay.field_row)
        if not wanted[part]:
            sheet.text(
                (x0 + x1) / 2, middle - lay.field_row / 2 - size * 0.36, DASH, align="centre", colour=st.colours.muted
            )
            continue
        label = labels[part]
        w = sheet.text(
            x0 + PAD,
            middle - lay.field_row / 2 - lay.label_font * 0.36,
            label,
            size=lay.label_font,
            colour=st.colours.muted,
        )
        fx = x0 + PAD + w + 2
        box = (
            fx,
            middle - lay.field_row + lay.field_inset,
            x1 - lay.field_inset - fx,
            lay.field_row - 2 * lay.field_inset,
        )
        _field(sheet, lay, row, part, box)
    bottom = top - block
    sheet.stroke(st.colours.ink, st.widths.rule * 1.6)
    c.line(sheet.left, bottom, sheet.right, bottom)
    return bottom


def path_font(lay: OrderFormLayout, row: OrderRow, width: float) -> float:
    """The type size at which the row's path field holds its hexes (12, 16 for a ship) of 4 digits."""
    room = text_width(" ".join(["0000"] * PATH_HEXES[row.kind]), FIELD_FONT, 1.0) + 2 * 2.0
    return min(lay.field_font, width / room)


def _field(
    sheet: Sheet, lay: OrderFormLayout, row: OrderRow, part: str, box: tuple[float, float, float, float]
) -> None:
    from reportlab.lib.colors import HexColor

    x, y, w, h = box
    form = sheet.c.acroForm
    common: dict[str, Any] = {
        "name": field_name(row.id, part),
        "x": x,
        "y": y,
        "width": w,
        "height": h,
        "borderWidth": lay.field_border,
        "borderColor": HexColor(sheet.st.colours.rule),
        "fillColor": HexColor(sheet.st.colours.paper),
        "textColor": HexColor(sheet.st.colours.ink),
        "fontName": FIELD_FONT,
    }
    if part == "special":
        # a text field, not a choice: reportlab's choice field fails on an empty value, and
        # several special orders carry hexes (repair HEX HEX, land HEX) a list cannot offer
        tip = (
            "land HEX"
            if row.kind == "ship"
            else "retreat, wreck, repair HEX HEX, emplace HEX, pick up, evade, ambush, resupply"
        )
        form.textfield(value="", tooltip=tip, fontSize=lay.field_font, maxlen=40, **common)
        return
    if part == "path":
        hexes = PATH_HEXES[row.kind]
        tip = f"up to {hexes} hexes to enter, in order, e.g. 3316 3216"
        form.textfield(value="", tooltip=tip, fontSize=path_font(lay, row, w), maxlen=hexes * 7, **common)
        return
    form.textfield(value="", tooltip="the ids of the units it carries", fontSize=lay.field_font, maxlen=400, **common)


def _identity_fields(c: Canvas, faction: str, ids: dict[str, str], x: float, y: float) -> None:
    """Hidden, read-only fields saying whose form it is, for the import to check."""
    for k, (what, value) in enumerate(sorted(ids.items())):
        c.acroForm.textfield(
            name=identity_name(faction, what),
            value=value,
            x=int(x) + k,
            y=int(y),
            width=1,
            height=1,
            borderWidth=0,
            fieldFlags="readOnly",
            annotationFlags="hidden",
            maxlen=max(64, len(value)),
        )


def _key(sheet: Sheet, y: float) -> float:
    st = sheet.st
    return sheet.para(
        sheet.left,
        y,
        sheet.span,
        "Path: the hexes to enter, in order, separated by spaces, commas or dashes (3316 3216); the unit's own "
        "hex may be left out; a path stops at the first hex of enemy units. Carries: the ids of the units a train "
        "or ship takes aboard where it starts. Special: retreat (II.C.2), wreck (the track of the last hex "
        "entered, C.2), repair HEX HEX (C.2), emplace HEX (a pontoon across to HEX, A.1), pick up (the pontoon), "
        "evade or ambush (partisans, II.D), resupply (B.5); a ship: land HEX (A.3). Leave a row empty for no "
        "order. Filled on screen, the form is read back by kitgen orders import.",
        lead="Key:",
        size=st.fonts.small,
        colour=st.colours.muted,
    )
