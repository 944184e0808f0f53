"""The blank forms to photocopy: the VP record and turn tracks, the VP ledger, the order form
(two landscape sides), the battle setup sheet, the umpire's turn record and the scanner check.

Every number printed here is read from the scenario and every look from layouts/forms.yaml;
the code only chooses and orders what goes on each page."""

from __future__ import annotations

import math
from collections.abc import Callable

from kitgen.messages import ordinal, plural
from kitgen.model.scenario import Faction, Scenario
from kitgen.products.sheetparts import sheets_part
from kitgen.products.tailoring import on_map, uses_ships
from kitgen.render.fonts import SANS, SANS_BOLD, SANS_ITALIC, text_width
from kitgen.render.formstyle import short_stand_name as _short
from kitgen.render.pages import MM, Part
from kitgen.render.sheet import PAD, Cell, CellLike, Column, Sheet
from kitgen.render.wording import MINUS, either, signed, upto
from kitgen.rules.ending import MONTHS, days_text, turn_days
from kitgen.rules.sequence import turn_sequence

# --- the forms -----------------------------------------------------------------------

FORMS = (
    "VP record track",
    "VP ledger",
    "Order form",
    "Command rolls",
    "Battle setup sheet",
    "Umpire's turn record",
    "Paper order form",
    "Scanner check",
)
WIDE = frozenset({"Order form", "Command rolls"})
"""The order form's two pages, landscape: a path of twelve hexes needs the width."""


def build_forms(scenario: Scenario, paper: str) -> list[Part]:
    """The blank forms: VP record track, VP ledger, order form and its command rolls, battle
    setup sheet, umpire's turn record."""
    drawers: list[Callable[[Sheet], float]] = [
        _vp_track,
        _vp_ledger,
        _order_form,
        _command_rolls,
        _battle_sheet,
        _umpire_sheet,
        _paper_order_form,
        _scanner_check,
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
            "battle setup sheet, umpire's turn record, a paper order form of steps and bubbles, and a page to check a "
            "scanner or phone reads order forms"
        ),
        wide=frozenset(key for title, key, _ in pages if title in WIDE),
    )
    return [part]


def _paper_order_form(sheet: Sheet) -> float:
    from kitgen.products.orderform import blank_page

    return blank_page(sheet)


def _scanner_check(sheet: Sheet) -> float:
    from kitgen.products.orderform import check_page

    return check_page(sheet)


def _scoring(s: Scenario) -> list[Faction]:
    return [f for f in s.meta.factions if f.scores_vp]


def _vp_track(sheet: Sheet) -> float:
    """One VP track for every faction and the game-turn track, their boxes sized for the
    marker sheet's VP and turn markers."""
    s, st = sheet.s, sheet.st
    v = s.victory
    fm = st.forms
    every = v.award_every_turns
    lap = fm.vp_lap
    factions = _scoring(s)
    y = sheet.band(FORMS[0])
    y = sheet.para(
        sheet.left,
        y,
        sheet.span,
        f"At the end of every {ordinal(every)} turn, move each faction's VP marker along the track by the VP "
        "of the towns it holds (and any bonus). A marker that reaches the faction's threshold (a box with its "
        "mark) rolls on the faction's reinforcement chart: subtract the threshold, and roll again while still "
        "at or above it, so that the marker ends below the threshold. While adding up, past "
        f"{fm.vp_track_max} flip the marker to its +{lap} side and go on from 0.",
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
    y = _turn_track(sheet, y, box)
    bonus = "; ".join(f"{s.faction_name(f)} add {d}" for f, d in v.bonus.items())
    ms = s.faction(v.makhnovist_strength.faction)
    extra = f"; {ms.adjective} strength roll" if ms else ""
    last = s.meta.turns.last
    end = (
        f" The heavy box marked END is the last turn: the scenario ends after turn {last}. A club that plays on "
        "(a house rule) goes on to a second sheet."
        if last is not None
        else " The campaign has no last turn: start a second sheet if it runs longer."
    )
    return sheet.para(
        sheet.left,
        y,
        sheet.span,
        f"Shaded turns (every {ordinal(every)}): towns score VP ({bonus}); reinforcement charts{extra}.{end} "
        "Move the game-turn marker along the track.",
        size=st.fonts.small,
        colour=st.colours.muted,
    )


def _turn_track(sheet: Sheet, y: float, box: float) -> float:
    """The game-turn track (RULES-NOTES, 2026-12-02): the days a turn stands for, each box with
    its number and first day, award turns shaded, the scenario's last turn marked END."""
    s, st, fm = sheet.s, sheet.st, sheet.st.forms
    every, last = s.victory.award_every_turns, s.meta.turns.last
    days = plural(s.meta.turns.days, "day")
    first = turn_days(s, 1)
    begins = f"; turn 1 begins on {days_text(first[0], first[0])}" if first else ""
    y = sheet.para(sheet.left, y, sheet.span, f"A turn stands for {days}{begins}.", size=st.fonts.small) - 2
    count = fm.turns if last is None else last  # a box a turn of the scenario
    per_row = min(fm.turns_per_row, count)
    tw = min(sheet.span / per_row, box * 1.4)
    tx = sheet.left + (sheet.span - per_row * tw) / 2
    year = None
    for start in range(1, count + 1, per_row):
        for n in range(start, min(start + per_row, count + 1)):
            bx = tx + (n - start) * tw
            award = n % every == 0
            heavy = award or n == last
            sheet.fill(st.colours.marked if award else st.colours.paper)
            sheet.stroke(st.colours.ink, st.widths.heavy * (1.5 if n == last else 1) if heavy else st.widths.frame)
            sheet.c.rect(bx, y - box, tw, box, stroke=1, fill=1)
            sheet.text(bx + PAD, y - st.fonts.track - 2, str(n), font=SANS_BOLD, size=st.fonts.track)
            if n == last:
                sheet.text(
                    bx + tw - PAD, y - st.fonts.track - 2, "END", font=SANS_BOLD, size=st.fonts.track, align="right"
                )
            if award:
                sheet.text(bx + tw - PAD, y - box + PAD + 1, "VP", font=SANS_BOLD, size=st.fonts.small, align="right")
            span = turn_days(s, n)
            if span is not None:
                day = span[0]
                label = f"{day.day} {MONTHS[day.month - 1][:3]}" + (f" {day.year}" if day.year != year else "")
                year = day.year
                room = tw - 2 * PAD - (text_width("VP", SANS_BOLD, st.fonts.small) + PAD if award else 0)
                sheet.text(bx + PAD, y - box + PAD + 1, label, size=st.fonts.small, fit=room)
        y -= box
    return y - 3


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
    end = s.meta.turns.last or fm.ledger_turns  # no award row after the scenario's last turn
    rows: list[list[CellLike]] = [
        [Cell(str(t), bold=True)] + [""] * (len(columns) - 1) for t in range(every, end + 1, every)
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
        Column(0.4, "centre"),
        Column(1.75),
        Column(1.0, "centre"),
        Column(0.75 * cells, boxes=cells),  # a box for each hex, as wide as a hex id written by hand
        Column(1.45, "centre"),  # three 4 mm tick boxes and their letters
        Column(1.0, "centre"),  # two
        Column(1.1),
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
    y = sheet.table(sheet.left, y, sheet.span, columns, [header], rows, row_h=fm.order_row)
    tr = s.transport.track
    types = {u.id: u.name.lower() for u in s.movement.unit_types}
    y = sheet.para(
        sheet.left,
        y - 2,
        sheet.span,
        f"T by train, S by ship, L amphibious landing (infantry only): no map move the turn a unit boards or "
        f"leaves. X wreck track ({either([types.get(t, t) for t in tr.wreck_unit_types])}, "
        f"{tr.wreck_min_stands}+ stands); R repair track ({tr.repair_hexes_per_turn} hexes a turn). "
        "A path stops at the first hex holding enemy units. More orders: another sheet; command rolls "
        "and notes: the next page (copy the two back to back).",
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
        f"Obeys on a {cmd.roll} at or under his dependability. No commander in the hex: {upto(cmd.leaderless.adjacent)} "
        f"if one is adjacent, {upto(cmd.leaderless.alone)} if not. Only the highest-ranking commander of a hex rolls.",
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
    has = on_map(s)  # what its map has: a ticked box for each (issue 44)
    kinds = [t.name for t in s.movement.terrain if t.id in has]
    kinds += [name for key, name in (("crossable", "Crossable river"), ("major", "Major river")) if key in has]
    kinds += ["Town"] + (["Coastal hex"] if "coastal" in has else [])
    sheet.ticks(x, base, kinds)
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
        columns = [Column(2.1), Column(1.6), Column(0.75, "centre")]
        header: list[CellLike] = ["Unit", "Stands\ninf / MG / cav / art / other", "In\nsupply"]
        for a in ammo.values():
            columns.append(Column(0.9, "centre"))
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
    ny = top
    if uses_ships(sheet.s):  # D.3: no ships in the scenario, no gunfire to note
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
    else:  # the result takes the left half
        rx = sheet.left

    ry = sheet.heading(rx, top, half, "Result", "II.B")
    base = ry - st.fonts.field - 4
    x = rx + sheet.text(rx, base, "Winner:", font=SANS_BOLD, size=st.fonts.field) + 6
    sheet.ticks(x, base, ["Side A", "Side B"])
    base -= st.fonts.field * 2.4
    sheet.field(rx, base, f"Loser retreats {plural(b.retreat_hexes, 'hex')} to", half * 0.7)
    sheet.ticks(rx + half * 0.7, base, ["Surrendered"])
    base -= st.fonts.field * 2.4
    x = rx + sheet.text(rx, base, f"Equipment ({b.winner.equipment.roll}):", font=SANS_BOLD, size=st.fonts.field) + 6
    bsz = st.forms.roll_box
    while x + bsz < rx + half:
        sheet.box(x, base - 2, bsz)
        x += bsz + 3
    ry = base - 4
    y = min(ny, ry)
    w, lo = b.winner, b.loser
    exempt = either([e.capitalize() for e in lo.routed_lost_exempt])
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
    bsz = st.forms.roll_box
    chip_w = (
        max(text_width(f.name, SANS_BOLD, st.fonts.small + 0.6) for f in factions) + st.fonts.field * 1.55 + PAD * 2
    )

    lift = (st.fonts.small + 0.6) * 0.35  # from a line's baseline to the middle of its small type
    box_line = bsz + 4  # the pitch of lines of roll boxes
    pitch = bsz + 2.5

    def box_base(y: float) -> float:
        """The baseline of a line of roll boxes whose top is at y: the boxes centred on its type."""
        return y - 3 - bsz / 2 - lift

    def roll_boxes(x: float, base: float, n: int, label: str = "") -> tuple[float, float]:
        """`n` roll boxes after `label`, running on to further lines under the first box where the
        cell is full; returns the x after the last box and the baseline of its line."""
        if label:
            x += sheet.text(x, base, label, size=st.fonts.small + 0.6) + 4
        first, room = x, max(1, int((rx + rw - x + 2.5) // pitch))
        per_line = math.ceil(n / math.ceil(n / room))  # the lines the boxes need, filled evenly
        for k in range(n):
            if k and k % per_line == 0:
                x, base = first, base - box_line
            sheet.box(x, base + lift - bsz / 2, bsz)
            x += pitch
        return x, base

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
        """A box for each commander (II.C.1), its rank in its corner, a line a faction (or more)."""
        base = box_base(y)
        ranks = {f.id: sum(1 for c in s.commanders if c.faction == f.id) for f in factions}
        x0 = rx + chip_w + 6
        per_line = max(1, int((rx + rw - x0 + 2.5) // pitch))  # more commanders run on to a second line
        tiny = st.fonts.min
        chip_h = st.fonts.field * 1.55
        for f in factions:
            sheet.chip(rx, base + lift - chip_h / 2, chip_h, f, size=st.fonts.small + 0.6, width=chip_w)
            for k in range(ranks[f.id]):
                if k and k % per_line == 0:
                    base -= box_line
                x = x0 + (k % per_line) * pitch
                bottom = base + lift - bsz / 2
                sheet.box(x, bottom, bsz)
                sheet.text(x + 1.2, bottom + bsz - tiny * 0.95, str(k + 1), size=tiny, colour=st.colours.muted)
            base -= box_line
        return base + box_line + lift - bsz / 2 - 4

    def event(y: float) -> float:
        base = box_base(y)
        ev = s.events
        x, base = roll_boxes(rx, base, 1, f"{ev.roll}:")
        x += 6
        on = either([str(d) for d in ev.draw_on])
        sheet.field(x, base, f"card on {on}:", rx + rw - x)
        return base + lift - bsz / 2 - 4

    def movement(y: float) -> float:
        base = box_base(y)
        labels = [
            f"{names.get(b.unit_type, b.unit_type)} ({b.roll}, lost on {either([str(v) for v in b.fails_on])}):"
            for b in mv.breakdown
        ]
        x = rx + max((text_width(t, SANS, st.fonts.small + 0.6) for t in labels), default=0.0) + 6
        for label in labels:
            sheet.text(rx, base, label, size=st.fonts.small + 0.6)
            _, base = roll_boxes(x, base, fm.roll_boxes)
            base -= box_line
        return base + box_line + lift - bsz / 2 - 4

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
        base = box_base(y)
        x = sheet.ticks(rx, base, ["Losses applied", "Retreats made", "Returns noted"], size=st.fonts.small + 0.6)
        _, base = roll_boxes(x, base, 5, f"Equipment {s.battle.winner.equipment.roll}:")
        return base + lift - bsz / 2 - 4

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
            base = box_base(yy)
            chip_h = st.fonts.field * 1.55
            w = sheet.chip(rx, base + lift - chip_h / 2, chip_h, mf, size=st.fonts.small + 0.6, width=chip_w)
            x, base = roll_boxes(rx + w + 6, base, 1, f"strength {ms.roll}:")
            mods = ", ".join(f"{signed(m.value)}" for m in ms.modifiers)
            x, base = roll_boxes(x + 8, base, 1, f"modifiers ({mods}):")
            sheet.field(x + 8, base, "row:", rx + rw - x - 8)
            yy = base + lift - bsz / 2 - 4
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
