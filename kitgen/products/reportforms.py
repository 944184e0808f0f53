"""The umpire's forms beside the order form, in its style: a battle report form for each contact
(who won, the ships that fired, and a block a unit: its stands lost and routed by arm, what
becomes of it if beaten, its ammunition left, the equipment rolls, what it captured) and the roll
sheet (a line a roll, a bubble for every total its dice can show). Corner markers and a QR code
let `kitgen orders scan` read a page filled in pencil back (`kitgen.reports.plan` holds where
everything stands); a check box over every bubble takes the marks on screen, and hidden,
read-only fields say which form it is (`kitgen.reports.fields`), for `kitgen orders import`."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from kitgen.campaign import Campaign
from kitgen.orders.rows import campaign_key
from kitgen.products.orderform import _bubble, _framed, _identity_fields, _qr, _step, _written_by
from kitgen.products.sheetparts import sheets_part
from kitgen.render.fonts import SANS, SANS_BOLD
from kitgen.render.formfields import check_box
from kitgen.render.pages import ink_on
from kitgen.render.sheet import PAD, Page, Sheet
from kitgen.reports.battleform import BattleForm
from kitgen.reports.fields import identity, identity_name, tick_name
from kitgen.reports.plan import (
    KEY_LEAD,
    KEYS,
    ReportPlan,
    Words,
    battle_plans,
    chip_height,
    chip_size,
    report_layout,
    roll_plans,
)
from kitgen.reports.rollsheet import SheetRoll, sheet_key


def report_form_pages(campaign: Campaign, forms: Sequence[BattleForm], paper: str) -> list[Page]:
    """A battle report form for each contact of `forms`, as many pages as its units need on `paper`."""
    key = campaign_key(campaign)
    pages: list[Page] = []
    for form in forms:
        plans = battle_plans(form, campaign.scenario, paper, key)
        for k, plan in enumerate(plans, start=1):
            more = f" ({k} of {len(plans)})" if len(plans) > 1 else ""
            title = f"Battle report: {form.place}, turn {form.turn}{more}"
            ids = identity("B", form.key, key, form.turn, form.hex) if k == 1 else None
            draw = partial(_draw_battle, form=form, plan=plan, ids=ids)
            pages.append((title, f"report-{form.turn:02d}-{form.hex}-{k}", draw))
    return pages


def roll_sheet_pages(campaign: Campaign, rolls: Sequence[SheetRoll], turn: int, paper: str) -> list[Page]:
    """The roll sheet of `turn`: a line a roll, grouped by faction, over as many pages as it needs."""
    key, sheet = campaign_key(campaign), sheet_key(rolls)
    plans = roll_plans(rolls, campaign.scenario, paper, key, sheet, turn)
    pages: list[Page] = []
    for k, plan in enumerate(plans, start=1):
        more = f" ({k} of {len(plans)})" if len(plans) > 1 else ""
        ids = identity("R", sheet, key, turn) if k == 1 else None
        draw = partial(_draw_rolls, turn=turn, count=len(rolls), plan=plan, ids=ids)
        pages.append((f"Roll sheet, turn {turn}{more}", f"rolls-{turn:02d}-{k}", draw))
    return pages


def _pdf(campaign: Campaign, paper: str, pages: list[Page], label: str, file: str, purpose: str) -> bytes:
    """The pages as a PDF with their fields, as the order form alone is made."""
    from kitgen.render.formfields import add_fields
    from kitgen.render.mapembed import Increment

    part = sheets_part(campaign.scenario, paper, pages, label=label, file=file, title=label, purpose=purpose)
    inc = Increment(part.pdf)
    add_fields(inc, part.fields)
    return inc.result()


def report_forms_name(turn: int, paper: str) -> str:
    return f"report-forms-turn-{turn:02d}-{paper}.pdf"


def roll_sheet_name(turn: int, paper: str) -> str:
    return f"roll-sheet-turn-{turn:02d}-{paper}.pdf"


def report_forms_pdf(campaign: Campaign, forms: Sequence[BattleForm], turn: int, paper: str) -> bytes:
    """Every contact's battle report form of `turn`, alone, as a PDF to fill on screen or by hand."""
    pages = report_form_pages(campaign, forms, paper)
    purpose = f"a battle report form for each contact of turn {turn}, to fill on screen or in pencil"
    return _pdf(campaign, paper, pages, "Battle report forms", report_forms_name(turn, paper), purpose)


def roll_sheet_pdf(campaign: Campaign, rolls: Sequence[SheetRoll], turn: int, paper: str) -> bytes:
    """The roll sheet of `turn`, alone, as a PDF to fill on screen or by hand."""
    pages = roll_sheet_pages(campaign, rolls, turn, paper)
    purpose = f"every roll turn {turn} may ask for, to fill on screen or in pencil"
    return _pdf(campaign, paper, pages, "Roll sheet", roll_sheet_name(turn, paper), purpose)


# --- the pages ----------------------------------------------------------------------------------


def _draw_battle(sheet: Sheet, *, form: BattleForm, plan: ReportPlan, ids: dict[str, str] | None) -> float:
    _framed(sheet, lambda _: plan.page)
    y = sheet.band(f"Battle report: {form.place}", None, f"turn {form.turn}")
    s = sheet.s
    sides = " against ".join(" and ".join(s.faction_name(f) for f in side) for side in form.sides)
    said = (f"The battle at {form.place}, turn {form.turn}: {sides}", f"contact {form.key}")
    _strip(sheet, plan, y, said, ids, "Fill one bubble a line: here 2 stands lost. None filled: 0; ammunition: full.")
    return _draw_plan(sheet, plan)


def _draw_rolls(sheet: Sheet, *, turn: int, count: int, plan: ReportPlan, ids: dict[str, str] | None) -> float:
    _framed(sheet, lambda _: plan.page)
    y = sheet.band("Roll sheet", None, f"turn {turn}")
    said = (
        f"Turn {turn}: the {count} rolls it may ask for, as the state after turn {turn - 1} has them",
        f"sheet {plan.code.key}",
    )
    _strip(sheet, plan, y, said, ids, "Fill the bubble of the total the dice show (here 2), one a line.")
    return _draw_plan(sheet, plan)


def _strip(
    sheet: Sheet, plan: ReportPlan, top: float, said: tuple[str, str], ids: dict[str, str] | None, how: str
) -> None:
    """Under the band, as the order form's: which form it is and who filled it in; how to mark a
    line; the QR code."""
    st, lay, code = sheet.st, plan.page.layout, plan.code
    size = st.fonts.small
    x = sheet.left
    line = top - size - 2
    sheet.text(x, line, said[0], size=size, fit=sheet.span * 0.44)
    where = f"Page {code.page} of {code.pages}  \u00b7  campaign {code.campaign[:8]}, {said[1]}"
    sheet.text(x, line - size * 1.5, where, size=size, colour=st.colours.muted, fit=sheet.span * 0.44)
    if ids is not None:
        key = ids.get("contact_key") or ids.get("sheet_key", "")
        _identity_fields(sheet.c, "", ids, x, line, named=partial(identity_name, code.kind, key))
        _written_by(sheet, lay, f"{code.kind.lower()}{key}", x, top - lay.identity_strip + 4, sheet.span * 0.42)
    _how_to_mark(sheet, plan, sheet.left + sheet.span * 0.46, top, plan.page.qr[0] - 8, how)
    _qr(sheet.c, code.code(), plan.page.qr, lay.qr)


def _how_to_mark(sheet: Sheet, plan: ReportPlan, x0: float, top: float, x1: float, how: str) -> None:
    """A line of bubbles as the form prints it, one filled, and how to mark it."""
    st, lay, rl = sheet.st, plan.page.layout, report_layout(plan.page.paper)
    r = lay.bubble / 2
    cy = top - lay.identity_strip / 2 - 2
    for k in range(5):
        x = x0 + r + k * rl.pitch
        _bubble(sheet, lay, x, cy, filled=k == 2)
        number = str(k + (1 if plan.code.kind == "R" else 0))
        sheet.text(x, cy + r + rl.number_gap, number, size=lay.label_font, align="centre")
    x = x0 + 4 * rl.pitch + lay.bubble + 8
    words = f"{how} Soft pencil; erase cleanly. On screen, click the bubble."
    sheet.para(x, top - 2, x1 - x, words, size=st.fonts.min, colour=st.colours.ink)


def _draw_plan(sheet: Sheet, plan: ReportPlan) -> float:
    """What the plan places: grounds and bars, hexagons and bubbles, words; a check box over every
    bubble; the key under the last block of the form's last page."""
    st, lay, c = sheet.st, plan.page.layout, sheet.c
    for s in plan.stretches:
        if s.kind == "heading":
            sheet.heading(sheet.left, s.top, sheet.span, s.text, s.ref)
        elif s.kind == "side":
            _bar(sheet, s.top, s.top - s.bottom, s.text, s.ref, s.faction)
        else:
            if s.tint:
                sheet.fill(st.colours.tint)
                c.rect(sheet.left, s.bottom, sheet.span, s.top - s.bottom, stroke=0, fill=1)
            sheet.stroke(st.colours.rule, st.widths.rule)
            c.line(sheet.left, s.bottom, sheet.right, s.bottom)
    in_hexagon = set()
    for row, cx, cy in plan.hexagons:
        _step(sheet, lay, cx, cy, "")
        in_hexagon.add(row)
    for b in plan.page.bubbles:
        if not (b.step and b.row in in_hexagon):
            _bubble(sheet, lay, b.x, b.y)
    rl = report_layout(plan.page.paper)
    for w in plan.words:
        _words(sheet, w, lay.label_font, rl.name_font)
    r = lay.bubble / 2
    kind, key = plan.code.kind, plan.code.key
    for b in plan.page.bubbles:
        check_box(c, tick_name(kind, key, b.row, b.part, b.choice), (b.x - r, b.y - r, 2 * r))
    y = plan.stretches[-1].bottom if plan.stretches else plan.page.rows_top
    if plan.key_top is not None:
        y = sheet.para(
            sheet.left,
            plan.key_top - lay.gap,
            sheet.span,
            KEYS[kind],
            lead=KEY_LEAD,
            size=st.fonts.small,
            colour=st.colours.muted,
        )
    return y


def _bar(sheet: Sheet, top: float, h: float, text: str, ref: str, faction: str | None) -> None:
    """A side's (or a faction's rolls') bar: its colour, its mark and its name."""
    st = sheet.st
    f = sheet.s.faction(faction) if faction else None
    colour = f.colour if f else st.colours.band
    ink = ink_on(colour)
    sheet.fill(colour)
    sheet.stroke(st.colours.ink, st.widths.rule)
    sheet.c.rect(sheet.left, top - h, sheet.span, h, stroke=1, fill=1)
    x = sheet.left + PAD * 1.5
    base = top - h / 2 - st.fonts.heading * 0.36
    if f is not None:
        sheet.mark(f.id, x + h * 0.35, top - h / 2, h * 0.62, ink)
        x += h * 0.85
    sheet.text(x, base, text, font=SANS_BOLD, size=st.fonts.heading, colour=ink)
    if ref:
        sheet.text(sheet.right - PAD * 1.5, base, ref, size=st.fonts.small, align="right", colour=ink)


def _words(sheet: Sheet, w: Words, label: float, name: float) -> None:
    st = sheet.st
    if w.kind == "chip":
        f = sheet.s.faction(w.faction or "")
        if f is not None:
            h = chip_height()
            sheet.chip(w.x, w.y - h / 2, h, f, size=chip_size())
        return
    font = SANS_BOLD if w.kind in ("name", "lead") else SANS
    size = name if w.kind == "name" else (st.fonts.small if w.kind == "note" else label)
    colour = st.colours.muted if w.kind in ("note", "off") else st.colours.ink
    literal = w.kind in ("hex", "off", "number")
    sheet.text(w.x, w.y, w.text, font=font, size=size, align=w.align, colour=colour, fit=w.fit, literal=literal)
