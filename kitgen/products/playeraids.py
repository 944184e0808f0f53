"""The player aids: a two-sided card per faction (sequence of play, terrain, supply and
transport on side 1; command, partisans, after a battle and the reinforcement chart on side 2).

Every number printed here is read from the scenario (the rule tables of data/) and every look
from layouts/forms.yaml; the code only chooses and orders what goes on each side."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from kitgen.messages import ordinal, plural
from kitgen.model.base import PROHIBITED
from kitgen.model.scenario import Faction, Scenario
from kitgen.products.sheetparts import sheets_part
from kitgen.products.tailoring import uses_ships
from kitgen.render.fonts import SANS, SANS_BOLD, SANS_ITALIC
from kitgen.render.formstyle import short_stand_name as _short
from kitgen.render.formstyle import stand_abbreviation
from kitgen.render.pages import Part, ink_on
from kitgen.render.sheet import PAD, Cell, CellLike, Column, Page, Sheet
from kitgen.render.wording import MINUS, either, signed, upto
from kitgen.rules.sequence import turn_sequence

if TYPE_CHECKING:
    from kitgen.model.base import Modifier
    from kitgen.model.geography import SupplySource
    from kitgen.model.rules import Placement


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
            f"prohibited unless a road or rail line runs through the hex; along it the hex costs {mv.road_cost} MP.",
        ),
        (
            "Stops:",
            "a unit goes along its path hex by hex and stops before a hex it cannot pay for or may not enter, "
            "or in a hex where enemy units are when movement ends (a train stops before it); the rest of the "
            "path is dropped. A hex the enemy leaves holds no one. Enemy moves, trains too, that would cross "
            "one hexside the opposite ways both stop before it, in contact across it.",
        ),
    ]
    if alike:
        moves = "; ".join(f"{either(alike[k], 'and')} as {names[k]}" for k in alike)
        notes.append(("Move alike:", moves + "."))
    notes.append(
        (
            "Rivers:",
            "a bridge (road or rail crossing) cancels the river cost. Major-river hexsides only at a bridge, "
            "or by pontoon or ferry, which takes the whole move and ends it across; past a ferry's number "
            "a turn, units stop on the near bank.",
        )
    )
    breakdowns = [
        f"{names[b.unit_type]} {b.roll}, lost on {either([str(v) for v in b.fails_on])}" for b in mv.breakdown
    ]
    ships = uses_ships(sheet.s)
    if breakdowns:
        by = "train or ship" if ships else "train"
        carried = f" (none when carried by {by})" if mv.breakdown_exempt_when_carried else ""
        notes.append(("Breakdown", "each turn a vehicle moves on the map: " + "; ".join(breakdowns) + carried + "."))
    if ships:
        rail = "no map move the turn a unit boards or leaves a train or ship; landings on a coast by infantry only."
        notes.append(("Rail and sea:", rail))
    else:
        notes.append(("Rail:", "no map move the turn a unit boards or leaves a train."))
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
    vehicles = either([types[v].name if v in types else stands.get(v, v) for v in fuel.vehicles], "and")
    odd = "odd" if fuel.intact_on == "even" else "even"
    loads = "; ".join(
        f"{_short(stands.get(a.stand, a.stand))} {a.rounds} {a.unit}"
        + (f" of {either(a.natures)}" if a.natures else "")
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
        items.append(("Your sources:", either([_source_text(src) for src in sources], "and") + "."))
    items += [
        (
            "Ammunition:",
            f"battles start with full loads ({loads}), renewed in {plural(sup.resupply_turns, 'full turn')} still "
            "at the friendly board edge or a depot. Out of supply: what is left; no board-edge resupply.",
        ),
        (
            "Cut-off depot:",
            f"{cut.roll} each turn it is used; empty on {upto(first)} the first turn, {upto(second)} the second, "
            f"{upto(third)} the third, and so on.",
        ),
        (
            "Fuel:",
            f"{vehicles} starting a turn out of supply get {plural(fuel.moves_out_of_supply, 'turn')} of map "
            f"movement, then are immobilised; a turn later, still out of supply, abandoned: {fuel.abandon_roll}, "
            f"{fuel.intact_on} left intact, {odd} destroyed. "
            f"Tabletop, out of supply: {fuel.tabletop_moves_roll} moves.",
        ),
    ]
    ly = sheet.bullets(sheet.left, ly, left_w, items, gap=0.8)

    # trains and ships, on the right
    ships = uses_ships(s)  # a scenario with no ships and no ports prints no naval rules (issue 44)
    ry = sheet.heading(right_x, y, right_w, "Trains and ships" if ships else "Trains", "C, D" if ships else "C")
    train_mp = types[tr.train.unit_type].mp if tr.train.unit_type in types else None
    mp = f", {train_mp} MP a turn on rail track" if train_mp else ""
    carriers: list[tuple[str, str]] = [("Train:", f"carries {tr.train.capacity} points{mp}.")]
    if ships:
        carriers.append(
            (
                "Ship:",
                f"{tr.ship.move_hexes} hexes a turn, carries {tr.ship.capacity} points; board in port at the "
                "start of the turn.",
            )
        )
    ry = sheet.bullets(right_x, ry, right_w, carriers, gap=0.8)
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
    repair = either([types[t].name if t in types else t for t in track.repair_unit_types], "and")
    wreck = either([types[t].name.lower() if t in types else t for t in track.wreck_unit_types])
    ry = sheet.bullets(
        right_x,
        ry - 2,
        right_w,
        [
            (
                "Track:",
                f"{repair} repair {track.repair_hexes_per_turn} wrecked hexes a turn along the line, from their "
                "own hex or the next, ending in the last; an "
                f"{wreck} unit of "
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
            f"in the hex: obey on {upto(cmd.leaderless.adjacent)} if one is adjacent, {upto(cmd.leaderless.alone)} if not.",
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
    columns = [Column(0.45, "centre"), Column(3.1), Column(0.6, "centre"), Column(0.4, "centre")] * groups
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
        parts.append("anywhere on " + either(edges))
    if placement.supply_towns:
        towns = [src.town for src in s.map.supply_sources.get(faction.id, []) if src.town]
        parts.append(f"in {either(towns)} if held" if towns else "in a supply-source town held")
    if placement.town:
        other = ", otherwise in your westernmost town" if placement.else_westernmost else ""
        parts.append(f"in {placement.town} if you hold it{other}")
    return either(parts) + "."


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
    return f"{signed(m.value)} {m.text}"


def _strength_chart(sheet: Sheet, y: float) -> float:
    s = sheet.s
    v = s.victory
    ms = v.makhnovist_strength
    faction = s.faction(ms.faction)
    every = ordinal(v.award_every_turns)
    y = sheet.heading(sheet.left, y, sheet.span, "Current strength chart", "E.6")
    mods = "; ".join(_modifier_text(m) for m in ms.modifiers)
    towns = [src.town for src in s.map.supply_sources.get(ms.faction, []) if src.town]
    leader = next((c.name for c in s.commanders if c.faction == ms.faction), None)
    where = f" at {either(towns)}" + (f", or with {leader} if you hold none" if leader else "") if towns else ""
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
    return sheet.table(sheet.left, y - 2, sheet.span, columns, [header], rows, wrap=True)


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
    evade = ", ".join(f"{signed(m.value)} if {m.text}" for m in p.evade.modifiers)
    ambush = ", ".join(f"{signed(m.value)} if {m.text}" for m in p.ambush.modifiers)
    items = []
    if not _all_partisans(s, faction):
        items.append(("Your partisans:", either(_partisan_units(s, faction), "and") + "."))
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
