"""Phase 10's end (II.E, E.3-E.6): the slips owed drawn, slips placed on the map as units or
replacement stands, and the Makhnovists' forces matched to their Current Strength Chart row."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import replace

from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource, Turn
from kitgen.engine.phases.draws import draw_slips
from kitgen.engine.state import Arrival, CampaignState, Result, Task, UnitState, Verdict, stand_totals
from kitgen.engine.turnlog import PlaceOrder, TurnLog
from kitgen.mapping.board import Board
from kitgen.model.forces import Slip, StrengthRow, UnitSpec
from kitgen.model.scenario import name_key

STRENGTH = "strength"
"""The `slip` of a place order that raises Makhnovist units from the strength chart (E.6)."""


def run(turn: Turn, state: CampaignState) -> CampaignState:
    """Slips drawn, then placed; a Makhnovist force off its strength row is the umpire's to mend."""
    state = draw_slips(turn.campaign, state)
    state = place(turn.campaign, turn.board, state, turn.log, turn.source)
    gap = strength_gap(turn.campaign, state)
    if not gap:
        return state
    task = Task("strength_gap", "E.6", turn.campaign.scenario.victory.makhnovist_strength.faction, detail=gap)
    return replace(state, umpire=(*state.umpire, gap), tasks=(*state.tasks, task))


def arrival_hexes(campaign: Campaign, state: CampaignState, faction: str) -> tuple[set[str], str]:
    """Where the faction's reinforcements may arrive now (E.3-E.5), and the rule in words; hexes
    with enemy units are left out."""
    rule = campaign.scenario.victory.placement.get(faction)
    board = campaign.board
    enemy = {u.hex for u in state.units if not state.allied(u.faction, faction, state.turn)}
    town_hex = {t: h for h, towns in board.towns.items() for t in towns}
    held = {h for h, towns in board.towns.items() for t in towns if state.owners.get(t) == faction}
    found: set[str] = set()
    words: list[str] = []
    if rule is None:
        return set(), f"the {faction} have no reinforcement rule"
    for edge in rule.edges:
        limit = None
        if edge.north_of:
            town = campaign.scenario.find_town(edge.north_of)
            cell = board.grid.parse_id(town_hex[town.name]) if town and town.name in town_hex else None
            limit = cell[1] if cell else None
        for hex_id in board.edge_hexes(edge.edge):
            row = (board.grid.parse_id(hex_id) or (0, 0))[1]
            if not board.is_sea(hex_id) and (limit is None or row < limit):
                found.add(hex_id)
        words.append(f"the {edge.edge} edge" + (f" north of {edge.north_of}" if edge.north_of else ""))
    if rule.supply_towns:
        sources = {s.hex for s in board.sources if s.faction == faction and s.kind == "town"}
        found |= sources & held
        words.append("a supply-source town it holds")
    if rule.town:
        town = campaign.scenario.find_town(rule.town)
        there = town_hex.get(town.name) if town else None
        if there in held:
            found.add(there)
        elif rule.else_westernmost and held:
            cells = sorted((*(board.grid.parse_id(h) or (0, 0)), h) for h in held)
            found.add(cells[0][2])
        words.append(f"{rule.town} if held" + (", else the westernmost town held" if rule.else_westernmost else ""))
    return found - enemy, " or ".join(words)


def surrounded(board: Board, state: CampaignState, unit: UnitState) -> bool:
    """E.3: every land hex next to the unit holds enemy units (ruling placing_slips)."""
    enemy = {u.hex for u in state.units if not state.allied(u.faction, unit.faction, state.turn)}
    land = [n for n in board.neighbours(unit.hex) if not board.is_sea(n)]
    return bool(land) and all(n in enemy for n in land)


def place(campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: LogSource) -> CampaignState:
    """E.3-E.5 (end of turn): each place order puts a drawn slip on the map; slips not placed wait."""
    slips = {s.id: s for pile in campaign.scenario.cards.piles.values() for s in pile}
    pending = {f: list(ids) for f, ids in state.slips.items()}
    units = list(state.units)
    verdicts, notes = list(state.verdicts), list(state.umpire)
    file = located.name
    for faction in sorted(log.disband):
        for i, unit_id in enumerate(log.disband[faction]):
            line, column = located.position(("disband", faction, i))
            unit = next((u for u in units if u.id == unit_id), None)
            if unit is None:
                result: Result
                said, result = f"disband {unit_id}: no longer on the map: void", "void"
            elif unit.commander and name_key(unit.commander) == name_key("Makhno"):
                # disbanding is not his death (E.6: "-2 if Makhno is dead"): his own band stays
                said, result = f"disband {unit.name}: Makhno's own band is not disbanded: void", "void"
            else:
                said, result = f"disband {unit.name} (E.6)", "done"
                units = [u for u in units if u.id != unit_id]
            verdicts.append(
                Verdict(file, line, faction, unit_id, "disband", result, said, "E.6", kind="disband", column=column)
            )
    taken = {u.id for u in units}
    arrived: list[Arrival] = []
    for faction, orders in log.place.items():
        for i, order in enumerate(orders):
            line, column = located.position(("place", faction, i))
            current = replace(state, units=tuple(units))
            if order.slip == STRENGTH:
                why, new = _strength(campaign, current, faction, order)
            else:
                slip = slips.get(order.slip)
                if slip is None or order.slip not in pending.get(faction, []):
                    why, new = f"no slip '{order.slip}' of the {faction} is waiting to be placed", []
                else:
                    why, new, units = _slip(campaign, board, current, faction, slip, order, units)
            rule = "E.6" if order.slip == STRENGTH else "E.3"
            if why:
                verdicts.append(
                    Verdict(
                        file,
                        line,
                        faction,
                        order.slip,
                        "place",
                        "void",
                        f"place {order.slip}: {why}: void",
                        rule,
                        kind="place",
                        column=column,
                    )
                )
                continue
            if order.slip != STRENGTH:
                pending[faction].remove(order.slip)
            named = []
            for spec in new:
                unit_id = arrival_id(order.slip, state.turn, taken)
                taken.add(unit_id)
                named.append(f"{spec.name} as {unit_id}")
                arrived.append(Arrival(faction, order.slip, unit_id, order.at or "", rule))
                units.append(
                    UnitState.raised(
                        spec, campaign.scenario.supply, id=unit_id, faction=faction, hex=order.at or "", moved=True
                    )
                )
            what = ", ".join(named) or "replacements"
            text = f"place {order.slip}: {what}" + (f" in {order.at}" if new else "")
            verdicts.append(
                Verdict(file, line, faction, order.slip, "place", "done", text, rule, kind="place", column=column)
            )
    for faction, ids in sorted(pending.items()):
        if ids:
            notes.append(f"E.3-E.5 {faction}: slips waiting to be placed: {', '.join(ids)}")
    return replace(
        state,
        units=tuple(units),
        slips={f: tuple(ids) for f, ids in sorted(pending.items()) if ids},
        verdicts=tuple(verdicts),
        umpire=tuple(notes),
        arrivals=(*state.arrivals, *arrived),
    )


def arrival_id(slip: str, turn: int, taken: Collection[str]) -> str:
    """The id of a unit placed from `slip` on `turn`: `red_first_cavalry_t3`, then
    `red_first_cavalry_t3b`, `_t3c`... for more units of that slip that turn (ids in `taken`
    are skipped)."""
    stem = f"{name_key(slip).replace(' ', '_')}_t{turn}"
    for suffix in ("", *_LETTERS):
        if stem + suffix not in taken:
            return stem + suffix
    n = 2
    while f"{stem}_{n}" in taken:
        n += 1
    return f"{stem}_{n}"


_LETTERS = tuple("bcdefghijklmnopqrstuvwxyz")


def _slip(
    campaign: Campaign,
    board: Board,
    state: CampaignState,
    faction: str,
    slip: Slip,
    order: PlaceOrder,
    units: list[UnitState],
) -> tuple[str | None, list[UnitSpec], list[UnitState]]:
    """(why void, units to raise, units with replacements given) of one slip placed."""
    if slip.units:
        allowed, words = arrival_hexes(campaign, state, faction)
        if order.at is None:
            return f"its units need `at`: {words}", [], units
        if order.at not in allowed:
            return f"{order.at} is not {words} (now: {', '.join(sorted(allowed)) or 'nowhere'})", [], units
    elif order.at is not None:
        return "the slip has no units to place `at` a hex", [], units
    if stand_totals(order.give.values()) != dict(slip.replacements):
        expected = ", ".join(f"{n} {k}" for k, n in sorted(slip.replacements.items())) or "none"
        return f"`give` must hand out the slip's replacements exactly ({expected})", [], units
    by_id = {u.id: u for u in units}
    for unit_id in order.give:
        unit = by_id.get(unit_id)
        if unit is None or unit.faction != faction:
            return f"'{unit_id}' is not a {faction} unit on the map", [], units
        if not unit.in_supply or surrounded(board, state, unit):
            return f"{unit.name} is out of supply or surrounded (E.3)", [], units
    topped = []
    for u in units:
        extra = order.give.get(u.id, {})
        stands = {k: u.stands.get(k, 0) + extra.get(k, 0) for k in sorted({*u.stands, *extra})}
        topped.append(replace(u, stands=stands) if extra else u)
    return None, list(slip.units), topped


def _strength(
    campaign: Campaign, state: CampaignState, faction: str, order: PlaceOrder
) -> tuple[str | None, list[UnitSpec]]:
    """E.6: units of the last strength roll's row raised at Gulai Pole (or with Makhno), so long
    as the Makhnovists' stands stay within the row's."""
    chart = campaign.scenario.victory.makhnovist_strength
    row = _strength_row(campaign, state)
    if faction != chart.faction or row is None:
        return f"only the {chart.faction} raise units from their strength roll, once they have made it", []
    specs = []
    for name in order.units:
        spec = next((u for u in row.units if name_key(u.name) == name_key(name)), None)
        if spec is None:
            return f"no unit '{name}' in the strength row '{row.text}'", []
        specs.append(spec)
    held = {
        h
        for h, towns in campaign.board.towns.items()
        for t in towns
        if name_key(t) == name_key("Gulai Pole") and state.owners.get(t) == faction
    }
    makhno = campaign.scenario.find_commander("Makhno")
    with_makhno = {
        u.hex for u in state.units if makhno and u.commander and name_key(u.commander) == name_key(makhno.name)
    }
    enemy = {u.hex for u in state.units if not state.allied(u.faction, faction, state.turn)}
    allowed = (held or with_makhno) - enemy
    if order.at not in allowed:
        return (
            f"new Makhnovist units arrive at Gulai Pole while held, else with Makhno: {', '.join(sorted(allowed))}",
            [],
        )
    limit = stand_totals(spec.stands for spec in row.units)
    fielded = [u.stands for u in state.units if u.faction == faction]
    have = stand_totals([*fielded, *(spec.stands for spec in specs)])
    over = [
        f"{have[k]} {k} against {limit.get(k, 0)}"
        for k in sorted(have)
        if k != "artillery" and have[k] > limit.get(k, 0)  # guns are captured, not raised (II.D.4)
    ]
    if over:
        return f"more than the strength row allows: {', '.join(over)}", []
    return None, specs


def _strength_row(campaign: Campaign, state: CampaignState) -> StrengthRow | None:
    """The Current Strength Chart row of the Makhnovists' last roll (E.6), if they have rolled."""
    rows = campaign.scenario.cards.makhnovist_strength
    return next((r for r in rows if r.text == state.makhnovist_strength), None)


def strength_gap(campaign: Campaign, state: CampaignState) -> str | None:
    """E.6: how the Makhnovists' stands differ from their strength row (artillery aside: II.D.4)."""
    chart = campaign.scenario.victory.makhnovist_strength
    row = _strength_row(campaign, state)
    if row is None:
        return None
    want = stand_totals(spec.stands for spec in row.units)
    fielded = stand_totals(u.stands for u in state.units if u.faction == chart.faction)
    have = {k: n for k, n in fielded.items() if k != "artillery"}  # guns are captured, not raised (II.D.4)
    gaps = [
        f"{k} {have.get(k, 0)} of {want.get(k, 0)}" for k in sorted({*want, *have}) if have.get(k, 0) != want.get(k, 0)
    ]
    return f"E.6 {chart.faction} field {', '.join(gaps)}: disband or raise to match" if gaps else None
