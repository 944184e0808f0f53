"""The faction order form: one row per unit, train and ship of the faction, pre-filled from the
state the orders are written against. Each row's path is a line of steps, a small hexagon of
six bubbles each (the side the unit leaves its hex by), the hex written under it; its special
orders, the side they face and a carrier's cargo are bubbles too. Corner markers and a QR code
let `kitgen orders scan` read a page filled in pencil back (`kitgen.orders.sheetplan` holds
where everything stands); fillable fields (AcroForm) over the same boxes take orders on screen.

The fields' names (`kitgen.orders.rows`) are what `kitgen orders import` reads back; hidden,
read-only fields say the faction, turn and campaign the form is for."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from kitgen.campaign import Campaign
from kitgen.engine.state import CampaignState
from kitgen.model.scenario import Faction
from kitgen.orders.rows import MORE_PATH, OrderRow, field_name, identity, identity_name, order_rows, tick_name
from kitgen.orders.sheetplan import (
    CHECK_BOXES,
    CHECK_LINES,
    CHECK_STEPS,
    HEADER,
    LABEL_MOST,
    MARKER_CELLS,
    MARKERS,
    NO_CARGO,
    SIDES,
    Bubble,
    FixedPage,
    FormPage,
    Item,
    OrderFormLayout,
    PagePlan,
    RowPlan,
    blank_plan,
    bubble_lines,
    check_plan,
    info_columns,
    info_lines,
    page_plan,
    split_pages,
    width,
)
from kitgen.products.sheetparts import sheets_part
from kitgen.render.fonts import SANS, SANS_BOLD, text_width
from kitgen.render.formfields import check_box, text_field
from kitgen.render.formstyle import form_style
from kitgen.render.pages import PAPER
from kitgen.render.sheet import PAD, CellLike, Column, Page, Sheet

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

DASH = "\u2013"


def order_form_pages(campaign: Campaign, state: CampaignState, faction: str, turn: int) -> list[Page]:
    """The order form of `faction` for turn `turn`, written against `state` (the state after
    turn - 1): as many pages as its rows need."""
    factions = [f.id for f in campaign.scenario.meta.factions]
    found = campaign.scenario.meta.factions[factions.index(faction)]
    chunks = split_pages(order_rows(campaign, state, faction, turn))
    ids = identity(campaign, state, faction, turn)
    pages: list[Page] = []
    for k, chunk in enumerate(chunks, start=1):
        title = f"Order form: {found.name}, turn {turn}" + (f" ({k} of {len(chunks)})" if len(chunks) > 1 else "")
        page = partial(FormPage, ids["campaign"], ids["state"], turn, factions.index(faction), k, len(chunks))
        draw = partial(_draw, faction=found, turn=turn, rows=chunk, page=page, ids=ids if k == 1 else None)
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


def paper_of(sheet: Sheet) -> str:
    """The paper a sheet is, by its size (A4 for any other)."""
    return next(
        (
            p
            for p, size in PAPER.items()
            if all(abs(a - b) < 0.5 for a, b in zip(size, (sheet.width, sheet.height), strict=True))
        ),
        "a4",
    )


def _draw(
    sheet: Sheet,
    *,
    faction: Faction,
    turn: int,
    rows: Sequence[OrderRow],
    page: partial[FormPage],
    ids: dict[str, str] | None,
) -> float:
    plan = _framed(sheet, partial(page_plan, rows))
    lay, paper = plan.layout, plan.paper
    y = sheet.band("Order form", faction, f"{faction.name}, turn {turn}")
    code = page(paper)
    _identity_strip(sheet, plan, y, turn, code, faction.id, ids)
    y -= lay.identity_strip + lay.gap
    y = sheet.heading(sheet.left, y, sheet.span, "Orders", "A, C, D, II.C")
    info = info_columns(lay)
    header: list[CellLike] = list(HEADER)
    y = sheet.table(sheet.left, y, sheet.span, info, [header], [], tint=False)
    if abs(y - plan.rows_top) > 0.01:
        raise ValueError(f"order form: its rows start at {y:.2f} pt, its plan says {plan.rows_top:.2f} pt")
    bubbles: dict[str, list[Bubble]] = {}
    for b in plan.bubbles:
        bubbles.setdefault(b.row, []).append(b)
    for k, rp in enumerate(plan.rows):
        _row(sheet, plan, rp, bubbles.get(rp.row.id, []), info, tint=k % 2 == 1)
        y = rp.bottom
    if not rows:
        y = sheet.para(sheet.left, y - 2, sheet.span, "The faction has no units, trains or ships on the map.")
    if code.page == code.pages:
        y = _key(sheet, y - lay.gap)
    return y


def _framed(sheet: Sheet, plan_of: Callable[[str], PagePlan]) -> PagePlan:
    """The plan of a page kitgen reads back, on the sheet's paper, the sheet set to it: the
    forms' own style (a packet's style for its other pages must not move a bubble), the frame
    inside the markers' margin, and the markers drawn."""
    sheet.st = st = form_style()
    plan = plan_of(paper_of(sheet))
    sheet.left, sheet.right = plan.left, plan.right
    sheet.top = sheet.height - plan.layout.margin
    sheet.bottom = plan.layout.margin + st.footer_mm * 72 / 25.4
    _markers(sheet, plan)
    return plan


def _markers(sheet: Sheet, plan: PagePlan) -> None:
    """The four corner markers: black cells of ArUco's 4x4 code in a black border, on white."""
    c = sheet.c
    cell = plan.layout.marker / MARKER_CELLS
    sheet.fill(sheet.st.colours.paper)
    for _, x, y in plan.markers:
        c.rect(x - cell, y - cell, plan.layout.marker + 2 * cell, plan.layout.marker + 2 * cell, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    for number, x, y in plan.markers:
        path = c.beginPath()
        for r in range(MARKER_CELLS):
            for col in range(MARKER_CELLS):
                inner = 0 < r < MARKER_CELLS - 1 and 0 < col < MARKER_CELLS - 1
                if inner and MARKERS[number][r - 1][col - 1] == "0":
                    continue
                path.rect(x + col * cell, y + plan.layout.marker - (r + 1) * cell, cell, cell)
        c.drawPath(path, stroke=0, fill=1)


def _identity_strip(
    sheet: Sheet, plan: PagePlan, top: float, turn: int, code: FormPage, faction: str, ids: dict[str, str] | None
) -> None:
    """Under the band: what the form is written against and who wrote it; how to mark a step; the QR code."""
    st, lay = sheet.st, plan.layout
    size = st.fonts.small
    x = sheet.left
    line = top - size - 2
    sheet.text(x, line, f"Written against the state after turn {turn - 1}", size=size)
    sheet.text(
        x,
        line - size * 1.5,
        f"Page {code.page} of {code.pages}  \u00b7  campaign {code.campaign}, state {code.state}",
        size=size,
        colour=st.colours.muted,
    )
    written = top - lay.identity_strip + 4
    if ids is not None:
        _identity_fields(sheet.c, faction, ids, x, line)
        _written_by(sheet, lay, faction, x, written, sheet.span * 0.42)
    _how_to_mark(sheet, lay, sheet.left + sheet.span * 0.46, top, plan.qr[0] - 8)
    _qr(sheet.c, code.code(), plan.qr, lay.qr)


def _how_to_mark(sheet: Sheet, lay: OrderFormLayout, x0: float, top: float, x1: float) -> None:
    """A step as the rows print it, its sides named as the map's compass names them, and how to mark it."""
    st = sheet.st
    cy = top - lay.identity_strip / 2
    cx = x0 + lay.hexagon + lay.bubble
    _step(sheet, lay, cx, cy, "", marked="NE")
    size = st.fonts.min
    for d, (dx, dy) in SIDES.items():
        r = lay.hexagon + lay.bubble / 2 + size * 0.9
        sheet.text(cx + dx * r, cy + dy * r - size * 0.36, d, font=SANS_BOLD, size=size, align="centre", literal=True)
    x = cx + lay.hexagon + lay.bubble + size * 2.2
    words = (
        "Mark one bubble a step, filled, ticked or crossed: the side the unit leaves its hex by (here NE). "
        "Steps in order from 1; leave the rest empty. A ring round a bubble, or two marked in a step, is "
        "asked about. Write each hex in the box under its step. Erase cleanly."
    )
    sheet.para(x, top - 2, x1 - x, words, size=size, colour=st.colours.ink)


def _qr(c: Canvas, text: str, at: tuple[float, float], size: float) -> None:
    """The page's QR code, black modules on white, a quiet zone of two modules inside `size`:
    drawn as paths (reportlab's widget would set a font the page does not embed)."""
    from reportlab.graphics.barcode import qrencoder

    qr = qrencoder.QRCode(None, qrencoder.QRErrorCorrectLevel.M)
    qr.addData(text)
    qr.make()
    n = qr.getModuleCount()  # type: ignore[no-untyped-call]
    module = size / (n + 4)
    x0, top = at[0] + 2 * module, at[1] + size - 2 * module
    c.setFillColorRGB(1, 1, 1)
    c.rect(at[0], at[1], size, size, stroke=0, fill=1)
    c.setFillColorRGB(0, 0, 0)
    path = c.beginPath()
    for r in range(n):
        for col in range(n):
            if qr.isDark(r, col):  # type: ignore[no-untyped-call]
                path.rect(x0 + col * module, top - (r + 1) * module, module, module)
    c.drawPath(path, stroke=0, fill=1)


def _edges(x: float, width: float, columns: Sequence[Column]) -> list[float]:
    total = sum(c.share for c in columns)
    edges = [x]
    for c in columns:
        edges.append(edges[-1] + width * c.share / total)
    return edges


def _row(
    sheet: Sheet,
    plan: PagePlan,
    rp: RowPlan,
    bubbles: Sequence[Bubble],
    info: Sequence[Column],
    *,
    tint: bool,
    fields: bool = True,
) -> None:
    """One unit's block: what it is, printed; its path, a step of bubbles and a hex box a hex;
    its special orders, the side they face, or a carrier's cargo, a bubble each; with `fields`,
    the fields that take them on screen."""
    st, c, lay, row = sheet.st, sheet.c, plan.layout, rp.row
    if tint:
        sheet.fill(st.colours.tint)
        c.rect(sheet.left, rp.bottom, sheet.span, rp.top - rp.bottom, stroke=0, fill=1)
    base = rp.top - 2 - lay.label_font
    for text, bold in info_lines(row, lay):
        font = SANS_BOLD if bold else SANS
        sheet.text(sheet.left + PAD, base, text, font=font, size=lay.label_font, fit=lay.info_width - 2 * PAD)
        base -= lay.info_leading
    sheet.stroke(st.colours.rule, st.widths.rule)
    c.line(sheet.left + lay.info_width, rp.top, sheet.left + lay.info_width, rp.bottom)
    _path(sheet, plan, rp, [b for b in bubbles if b.part == "step"], fields=fields)
    _lines(sheet, plan, rp, [b for b in bubbles if b.part != "step"], fields=fields)
    sheet.stroke(st.colours.ink, st.widths.rule * 1.6)
    c.line(sheet.left, rp.bottom, sheet.right, rp.bottom)


def _path(sheet: Sheet, plan: PagePlan, rp: RowPlan, bubbles: Sequence[Bubble], *, fields: bool = True) -> None:
    """The path's steps, each a hexagon of six bubbles over a box for the hex it enters; on
    screen, one field across each line's boxes, its characters four to a box (a comb)."""
    lay, row = plan.layout, rp.row
    steps: dict[int, list[Bubble]] = {}
    for b in bubbles:
        steps.setdefault(b.step, []).append(b)
    boxes = [box for box in plan.boxes if box.row == row.id]
    middles = {
        n: (sum(b.x for b in around) / len(around), sum(b.y for b in around) / len(around))
        for n, around in sorted(steps.items())
    }
    by_line: dict[float, list[int]] = {}
    for n, (_, cy) in middles.items():
        by_line.setdefault(round(cy, 3), []).append(n)
    for numbers in by_line.values():
        x0, y0 = middles[numbers[0]]
        marks = [(middles[n][0] - x0, middles[n][1] - y0, str(n)) for n in numbers]
        under = [(box.x - x0, box.y - y0, box.w, box.h) for box in boxes if box.step in numbers]
        _placed(
            sheet, ("steps", tuple(marks), tuple(under)), (x0, y0), partial(_steps, lay=lay, marks=marks, boxes=under)
        )
    lines: dict[float, list[float]] = {}
    for box in boxes:
        lines.setdefault(box.y, []).append(box.x)
    for k, (y, xs) in enumerate(sorted(lines.items(), reverse=True) if fields else ()):
        x0, x1 = min(xs), max(xs) + boxes[0].w
        name = field_name(row.id, "path" if k == 0 else MORE_PATH)
        tip = "the hexes to enter, in order" if k == 0 else "the path's hexes after the first line's"
        text_field(
            sheet.c, name, (x0, y, x1 - x0, boxes[0].h), size=lay.field_font, maxlen=len(xs) * 4, comb=True, tip=tip
        )


def _placed(sheet: Sheet, key: object, at: tuple[float, float], draw: Callable[[Sheet], None]) -> None:
    """What `draw` draws round (0, 0), placed at `at`: drawn once a PDF, as a form (a PDF Form
    XObject) that every row alike places again (a faction's rows share their lines of steps and of
    special orders: drawn anew, they were most of the form's drawing)."""
    c = sheet.c
    made: dict[object, str] = c.__dict__.setdefault("_kitgen_order_parts", {})
    name = made.get(key)
    if name is None:
        name = made[key] = f"KgOrderPart{len(made)}"
        c.beginForm(name, -1000, -1000, 1000, 1000)
        draw(sheet)
        c.endForm()
    c.saveState()
    c.translate(*at)
    c.doForm(name)
    c.restoreState()


def _steps(
    sheet: Sheet,
    *,
    lay: OrderFormLayout,
    marks: Sequence[tuple[float, float, str]],
    boxes: Sequence[tuple[float, float, float, float]],
) -> None:
    """A line of steps round (0, 0), each numbered, and the hex boxes under them."""
    for x, y, number in marks:
        _step(sheet, lay, x, y, number)
    sheet.stroke(sheet.st.colours.ink, lay.field_border)
    sheet.fill(sheet.st.colours.paper)
    for x, y, w, h in boxes:
        sheet.c.rect(x, y, w, h, stroke=1, fill=1)


def _step(sheet: Sheet, lay: OrderFormLayout, cx: float, cy: float, number: str, marked: str = "") -> None:
    """A step: a faint hexagon, its six bubbles on its sides, its number in the middle."""
    import math

    st, c = sheet.st, sheet.c
    corner = lay.hexagon / math.cos(math.radians(30))
    sheet.stroke(st.colours.rule, st.widths.rule)
    path = c.beginPath()
    for k in range(7):
        a = math.radians(60 * k)
        (path.moveTo if k == 0 else path.lineTo)(cx + corner * math.cos(a), cy + corner * math.sin(a))
    c.drawPath(path, stroke=1, fill=0)
    if number:
        size = lay.label_font
        sheet.text(cx, cy - size * 0.36, number, font=SANS_BOLD, size=size, align="centre", colour=st.colours.muted)
    for d, (dx, dy) in SIDES.items():
        _bubble(sheet, lay, cx + dx * lay.hexagon, cy + dy * lay.hexagon, filled=d == marked)


def _bubble(sheet: Sheet, lay: OrderFormLayout, x: float, y: float, *, filled: bool = False) -> None:
    """A bubble to fill: a dark ring on white (the scan measures what is inside against it)."""
    st = sheet.st
    sheet.stroke(st.colours.ink, lay.ring)
    sheet.fill(st.colours.ink if filled else st.colours.paper)
    sheet.c.circle(x, y, lay.bubble / 2, stroke=1, fill=1)


def _bubble_lines(
    sheet: Sheet,
    *,
    lay: OrderFormLayout,
    said: Sequence[tuple[str, Sequence[Item], float]],
    drawn: Sequence[tuple[float, float, str, str]],
) -> None:
    """A row's lines of bubbles round (0, the first line's middle): lead words, bubbles, labels."""
    st = sheet.st
    for lead, items, mid in said:
        base = mid - lay.label_font * 0.36
        if lead:
            sheet.text(PAD, base, lead, font=SANS_BOLD, size=lay.label_font)
        for part, _, label, dx in items:
            if part == "word":
                sheet.text(dx, base, label, font=SANS_BOLD, size=lay.label_font)
        if lead == "Takes aboard:" and not items:
            x = PAD + text_width(lead, SANS_BOLD, lay.label_font) + 6
            sheet.text(x, base, NO_CARGO, size=lay.label_font, colour=st.colours.muted)
    r = lay.bubble / 2
    for x, y, label, kind in drawn:
        _bubble(sheet, lay, x, y)
        sheet.text(
            x + r + 2.5, y - lay.label_font * 0.36, label, size=lay.label_font, fit=LABEL_MOST, literal=kind == "toward"
        )


def _lines(sheet: Sheet, plan: PagePlan, rp: RowPlan, bubbles: Sequence[Bubble], *, fields: bool = True) -> None:
    """The lines of bubbles under the path: lead words, bubbles and their labels, the roll box;
    on screen, a check box over each bubble."""
    st, lay, row = sheet.st, plan.layout, rp.row
    lines = bubble_lines(row, lay, plan.left + width() - rp.lines_left)  # the plan's width, on every paper
    mids = {round(mid, 3) for _, mid in rp.lines}
    beside = [b for b in bubbles if round(b.y, 3) not in mids]
    if beside:
        _side(sheet, lay, beside)
    if lines:
        x0, y0 = rp.lines_left, rp.lines[0][1]
        said = tuple(
            (lead, tuple(items), round(mid - y0, 3)) for (lead, items), (_, mid) in zip(lines, rp.lines, strict=True)
        )
        drawn = tuple((b.x - x0, b.y - y0, b.label, b.part) for b in bubbles if round(b.y, 3) in mids)
        _placed(sheet, ("lines", said, drawn), (x0, y0), partial(_bubble_lines, lay=lay, said=said, drawn=drawn))
    r = lay.bubble / 2
    for b in bubbles if fields else ():
        choice = b.choice.lower() if b.part == "toward" else b.choice
        check_box(sheet.c, tick_name(row.id, b.part, choice), (b.x - r, b.y - r, 2 * r))
    if rp.roll is not None:
        x, y = rp.roll
        h = lay.path_box
        sheet.stroke(st.colours.ink, lay.field_border)
        sheet.fill(st.colours.paper)
        sheet.c.rect(x, y, lay.roll_box, h, stroke=1, fill=1)
        sheet.text(
            x + lay.roll_box / 2, y + h + 2.5, "roll", size=lay.label_font, align="centre", colour=st.colours.muted
        )


def _side(sheet: Sheet, lay: OrderFormLayout, bubbles: Sequence[Bubble]) -> None:
    """The bubbles beside a path's first line: the special orders, each with its word, and the
    side they face as a hexagon of six, "to" in its middle, drawn once a PDF and placed again."""
    x0, y0 = (
        min(b.x for b in bubbles),
        sum(b.y for b in bubbles if b.part == "special") / max(1, sum(1 for b in bubbles if b.part == "special")),
    )
    toward = [b for b in bubbles if b.part == "toward"]
    middle = (sum(b.x for b in toward) / len(toward), sum(b.y for b in toward) / len(toward)) if toward else None
    y0 = middle[1] if middle else y0
    words = tuple((b.x - x0, b.y - y0, b.label) for b in bubbles if b.part == "special")
    centre = (middle[0] - x0, 0.0) if middle else None
    _placed(sheet, ("side", words, centre), (x0, y0), partial(_side_drawn, lay=lay, words=words, centre=centre))


def _side_drawn(
    sheet: Sheet,
    *,
    lay: OrderFormLayout,
    words: Sequence[tuple[float, float, str]],
    centre: tuple[float, float] | None,
) -> None:
    r = lay.bubble / 2
    for x, y, label in words:
        _bubble(sheet, lay, x, y)
        sheet.text(x + r + 2.5, y - lay.label_font * 0.36, label, size=lay.label_font, fit=LABEL_MOST)
    if centre is not None:
        _step(sheet, lay, *centre, "to")


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


def _identity_fields(
    c: Canvas, faction: str, ids: dict[str, str], x: float, y: float, *, named: Callable[[str], str] | None = None
) -> None:
    """Hidden, read-only fields saying whose form it is, for the import to check; `named` names
    them (by default the faction's order form's: `id-<faction>-<what>`)."""
    for k, (what, value) in enumerate(sorted(ids.items())):
        box = (float(int(x) + k), float(int(y)), 1.0, 1.0)
        name = named(what) if named is not None else identity_name(faction, what)
        text_field(c, name, box, size=0, maxlen=max(64, len(value)), value=value, hidden=True)


def _key(sheet: Sheet, y: float) -> float:
    st = sheet.st
    return sheet.para(
        sheet.left,
        y,
        sheet.span,
        "Path: mark one bubble a step (a fill, a tick, a cross or a firm dot, the only pencil in its step), "
        "the side the unit leaves its hex by, from step 1 on; a ring round a bubble, two bubbles marked in a "
        "step or a smudge is asked about, never guessed; write the hex it "
        "enters under each step, for people (a scan reads the bubbles, and asks when the hexes are fewer or "
        "more). A path stops at the first hex "
        "of enemy units. Roll: the commander's roll for the hex, if the umpire has it made at the table. "
        "A row has as many steps as the unit can take this turn; a unit aboard a ship or immobilised has "
        "none. Special: fill one: retreat (II.C.2), wreck (the track of the last hex entered, C.2), repair "
        "(the track of the last hex and, toward, the next, C.2), emplace (a pontoon across its side toward, "
        "A.1), pick up (the pontoon), resupply (B.5), evade or ambush (partisans, II.D); a ship: land (on the "
        "hex toward, A.3). Toward: the hexagon marked to, one bubble, the side the order faces. Takes aboard: "
        "the units a train or ship takes where it starts. Leave a row empty for "
        "no order. On screen, type the hexes' digits alone: they fall four to a box. kitgen orders scan reads "
        "the page back from a scan or a photo; kitgen orders import reads it filled on screen.",
        lead="Key:",
        size=st.fonts.small,
        colour=st.colours.muted,
    )


def check_page(sheet: Sheet) -> float:
    """The scanner check: lines of steps to fill as each says (fully, not at all, half, filled
    and rubbed out) and boxes to write in, with the order form's markers and a QR code of its
    own; `kitgen orders check` says how a club's scanner or phone reads it."""
    plan = _framed(sheet, check_plan)
    st, lay, paper = sheet.st, plan.layout, plan.paper
    y = sheet.band("Scanner check", None, "before the first paper orders")
    words = (
        "Print this page as you print the order forms. Fill it in soft pencil as each line says, then "
        "scan or photograph it as you will the forms, and run kitgen orders check with the picture. It says "
        "how each line was read, and whether your scanner or phone reads order forms."
    )
    sheet.para(sheet.left, y - 2, sheet.span * 0.42, words, size=st.fonts.small, colour=st.colours.ink)
    _how_to_mark(sheet, lay, sheet.left + sheet.span * 0.46, y, plan.qr[0] - 8)
    _qr(sheet.c, FixedPage("CHECK", paper).code(), plan.qr, lay.qr)
    y -= lay.identity_strip + lay.gap
    sheet.heading(sheet.left, y, sheet.span, "Fill in pencil", "")
    y = plan.rows_top - 4
    steps: dict[str, list[Bubble]] = {}
    for b in plan.bubbles:
        steps.setdefault(b.row, []).append(b)
    for (_, said), (number, line) in zip(CHECK_LINES, enumerate(steps.values(), start=1), strict=True):
        sheet.text(sheet.left + PAD, y - lay.order_row * 0.7, f"{number}. {said}", font=SANS_BOLD, size=st.fonts.small)
        y -= lay.order_row
        for k in range(CHECK_STEPS):
            around = [b for b in line if b.step == k + 1]
            cx, cy = sum(b.x for b in around) / 6, sum(b.y for b in around) / 6
            _step(sheet, lay, cx, cy, str(k + 1))
        y -= lay.step_height + 2 + lay.gap
    sheet.stroke(st.colours.ink, lay.field_border)
    for n, (name, said) in enumerate(CHECK_BOXES, start=len(CHECK_LINES) + 1):
        sheet.text(sheet.left + PAD, y - lay.order_row * 0.7, f"{n}. {said}", font=SANS_BOLD, size=st.fonts.small)
        y -= lay.order_row
        sheet.fill(st.colours.paper)
        for box in (b for b in plan.boxes if b.row == name):
            sheet.c.rect(box.x, box.y, box.w, box.h, stroke=1, fill=1)
        y -= lay.path_box + 2 + lay.gap
    return sheet.para(
        sheet.left,
        y - lay.gap,
        sheet.span,
        "A scanner that reads every line as it should reads the order forms: each bubble filled, ticked or "
        "crossed read as a mark (lines 1 to 3), no empty one (line 4), and what kitgen asks the umpire about "
        "rather than guess (lines 5 and 6: a ring round a bubble, a mark rubbed out but not quite gone) never "
        "read as a mark. Scan at 150 dpi or more, in greyscale or colour; a phone photograph square on, in "
        "even light, with the four corner squares in the picture.",
        lead="What it shows:",
        size=st.fonts.small,
        colour=st.colours.muted,
    )


def blank_page(sheet: Sheet) -> float:
    """The kit's blank order form: the faction's form's rows, steps and bubbles, each row's unit
    and hex to write in by hand. Its rows name no unit, so `kitgen orders scan` reads its marks
    for the umpire to type, and imports none of them: a name written by hand is not read."""
    plan = _framed(sheet, blank_plan)
    st, lay, paper = sheet.st, plan.layout, plan.paper
    y = sheet.band("Paper order form", None, "to copy")
    x, base = sheet.left, y - st.fonts.field * 1.6
    for label, share in (("Faction", 0.22), ("Turn", 0.12)):
        x = sheet.field(x, base, label, sheet.span * share)
    sheet.field(sheet.left, base - st.fonts.field * 2.4, "Written by", sheet.span * 0.42)
    sheet.para(
        sheet.left,
        base - st.fonts.field * 3.6,
        sheet.span * 0.42,
        "Write each unit's name as its counter prints it, and its hex. The umpire types these orders: "
        "kitgen reads a page of the form printed for the turn (the packet's) back on its own.",
        size=st.fonts.small,
        colour=st.colours.muted,
    )
    _how_to_mark(sheet, lay, sheet.left + sheet.span * 0.46, y, plan.qr[0] - 8)
    _qr(sheet.c, FixedPage("BLANK", paper).code(), plan.qr, lay.qr)
    y -= lay.identity_strip + lay.gap
    y = sheet.heading(sheet.left, y, sheet.span, "Orders", "A, C, D, II.C")
    info = info_columns(lay)
    y = sheet.table(sheet.left, y, sheet.span, info, [list(HEADER)], [], tint=False)
    bubbles: dict[str, list[Bubble]] = {}
    for b in plan.bubbles:
        bubbles.setdefault(b.row, []).append(b)
    for k, rp in enumerate(plan.rows):
        _row(sheet, plan, rp, bubbles.get(rp.row.id, []), info, tint=k % 2 == 1, fields=False)
        sheet.stroke(st.colours.rule, st.widths.rule)
        x0, x1 = sheet.left + PAD, sheet.left + lay.info_width - PAD
        for n, what in enumerate(("unit", "hex"), start=1):  # the unit's name and hex, written in
            line = rp.top - 2 - lay.label_font - n * lay.info_leading * 1.6
            sheet.text(x0, line + 1.5, what, size=lay.label_font, colour=st.colours.muted)
            sheet.c.line(x0 + 18, line, x1, line)
        y = rp.bottom
    return y
