"""A turn log checked against the state before it is played: orders for units, trains and hexes
that exist, of the faction that gives them; its battle reports against the state the battles
find; and after it is played, every given roll given once and a face of its dice, and those the
turn did not ask for set apart, unused."""

from __future__ import annotations

from dataclasses import dataclass

from kitgen import messages as msg
from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource
from kitgen.engine.phases.postbattle import contact_groups
from kitgen.engine.state import CampaignState, UnitState
from kitgen.engine.turnlog import TurnLog
from kitgen.errors import KitgenError, Problem
from kitgen.mapping.board import Board
from kitgen.rules.dice import Dice
from kitgen.validation import dotted
from kitgen.yamlsource import Loc


@dataclass(frozen=True)
class UnusedRoll:
    """A roll given in the log that the turn does not ask for: not used, a warning at its line
    (RULES-NOTES, ruling of 2026-12-02), never an error that stops the replay."""

    index: int
    """Its place in the log's `dice:`."""
    purpose: str
    note: Problem
    """Where its purpose stands, and the catalogue's words for it."""


def check_dice(located: LogSource, log: TurnLog, state: CampaignState) -> tuple[UnusedRoll, ...]:
    """Every roll the log gives must be given once and be a face of its dice; a roll the turn did
    not ask for is returned, unused (a misspelt purpose is drawn instead, so `kitgen validate`
    warns of it with the purposes the turn did ask for). An entry left with no value is held to
    the same purposes: it names a roll the turn should ask for."""
    needed = {r.purpose: r for r in state.rolls}
    written = {g.purpose for g in log.dice if g.value is not None}
    ungiven = sorted(p for p in needed if p not in written)
    problems = []
    unused = []
    seen: set[str] = set()
    for i, given in enumerate(log.dice):
        where = ("dice", i, "purpose")
        if given.purpose in seen:
            problems.append(located.problem(where, msg.log_dice_twice(given.purpose).within(dotted(where))))
        seen.add(given.purpose)
        roll = needed.get(given.purpose)
        if roll is None:
            message = msg.note_roll_unused(given.purpose, sorted(needed), ungiven)
            unused.append(UnusedRoll(i, given.purpose, located.problem(where, message.within(dotted(where)))))
            continue
        d = Dice.parse(roll.dice)
        if given.value is not None and not d.low <= given.value <= d.high:
            message = msg.log_dice_out_of_range(given.value, roll.dice, d.low, d.high)
            problems.append(located.problem(("dice", i, "value"), message.within(f"dice[{i}].value")))
    if problems:
        raise KitgenError(problems)
    return tuple(unused)


def check_orders(located: LogSource, log: TurnLog, state: CampaignState, board: Board, campaign: Campaign) -> None:
    """Malformed orders stop the replay: an unknown faction, unit, train or stand kind, a unit of
    another faction, a hex off the map, a unit listed twice. (Battle reports are checked when the
    battles begin, `check_battles`.)"""
    factions = [f.id for f in campaign.scenario.meta.factions]
    problems: list[Problem] = []

    def add(loc: Loc, message: msg.Msg, *, key: bool = False) -> None:
        problems.append(located.problem(loc, message.within(dotted(loc)), key=key))

    by_id: dict[str, UnitState] = {}
    for u in state.units:
        by_id.setdefault(u.id, u)  # the first of an id, as state.unit finds it

    def foreign(unit_id: str, faction: str) -> msg.Msg | None:
        """Why the unit is not one the faction can order: unknown, or another faction's."""
        unit = by_id.get(unit_id)
        if unit is None:
            return msg.log_unknown_unit(unit_id, sorted(by_id))
        return None if unit.faction == faction else msg.log_foreign_unit(unit_id, unit.faction, faction)

    def off_map(loc: Loc, hexes: list[str]) -> None:
        for hex_id in hexes:
            if not board.on_map(hex_id):
                add(loc, msg.log_off_map(hex_id))

    for table, entries in (("orders", log.orders), ("rail", log.rail), ("sea", log.sea), ("track", log.track)):
        for faction in entries:
            if faction not in factions:
                add((table, faction), msg.log_unknown_faction(faction, factions), key=True)
    for faction, orders in log.orders.items():
        for i, order in enumerate(orders if faction in factions else []):
            why = foreign(order.unit, faction)
            if why:
                add(("orders", faction, i, "unit"), why)
            for j, hex_id in enumerate(order.move):
                off_map(("orders", faction, i, "move", j), [hex_id])
    trains = {t["id"]: t for t in state.trains}
    for faction, rail_orders in log.rail.items():
        for i, rail in enumerate(rail_orders if faction in factions else []):
            train = trains.get(rail.train)
            if train is None:
                add(("rail", faction, i, "train"), msg.log_unknown_train(rail.train, sorted(trains)))
            elif train["faction"] != faction:
                add(("rail", faction, i, "train"), msg.log_foreign_train(rail.train, train["faction"], faction))
            for j, hex_id in enumerate(rail.path):
                off_map(("rail", faction, i, "path", j), [hex_id])
    for faction, sea_orders in log.sea.items():
        for i, sea in enumerate(sea_orders):
            off_map(("sea", faction, i), [*sea.path, *([sea.land] if sea.land else [])])
    carried = [("rail", f, i, o.carry) for f, orders in log.rail.items() for i, o in enumerate(orders) if f in factions]
    carried += [("sea", f, i, o.carry) for f, orders in log.sea.items() for i, o in enumerate(orders) if f in factions]
    for table, faction, i, carry in carried:
        if len(set(carry)) != len(carry):
            add((table, faction, i, "carry"), msg.log_listed_twice())
        for j, unit_id in enumerate(carry):
            why = foreign(unit_id, faction)
            if why:
                add((table, faction, i, "carry", j), why)
    for faction, track_orders in log.track.items():
        for i, work in enumerate(track_orders if faction in factions else []):
            why = foreign(work.unit, faction)
            if why:
                add(("track", faction, i, "unit"), why)
            off_map(("track", faction, i), [*([work.wreck] if work.wreck else []), *work.repair])
    stand_kinds = {k.id for k in campaign.scenario.transport.stands}
    unit_orders: list[tuple[str, dict[str, list[str]]]] = [
        ("pontoons", {f: [o.unit for o in orders] for f, orders in log.pontoons.items()}),
        ("resupply", {f: [o.unit for o in orders] for f, orders in log.resupply.items()}),
    ]
    for kind_name, by_faction in unit_orders:
        for faction, by_unit in by_faction.items():
            if faction not in factions:
                add((kind_name, faction), msg.log_unknown_faction(faction, factions), key=True)
                continue
            for i, unit_id in enumerate(by_unit):
                why = foreign(unit_id, faction)
                if why:
                    add((kind_name, faction, i, "unit"), why)
    for faction, emplacing in log.pontoons.items():
        for i, bridge in enumerate(emplacing):
            off_map(("pontoons", faction, i, "emplace"), bridge.emplace)
    for faction, placing in log.place.items():
        if faction not in factions:
            add(("place", faction), msg.log_unknown_faction(faction, factions), key=True)
            continue
        for i, p in enumerate(placing):
            off_map(("place", faction, i, "at"), [p.at] if p.at else [])
            for unit_id, given in p.give.items():
                for kind, n in given.items():
                    if kind not in stand_kinds or n < 1:
                        add(("place", faction, i, "give", unit_id), msg.log_bad_stands(kind, n, sorted(stand_kinds), 1))
    for faction, ids in log.disband.items():
        if faction != campaign.scenario.victory.makhnovist_strength.faction:
            add(
                ("disband", faction),
                msg.log_disband_faction(faction, campaign.scenario.victory.makhnovist_strength.faction),
                key=True,
            )
            continue
        for i, unit_id in enumerate(ids):
            why = foreign(unit_id, faction)
            if why:
                add(("disband", faction, i), why)
    ships = {x["id"] for x in state.ships}
    if len(set(log.ships_lost)) != len(log.ships_lost):
        add(("ships_lost",), msg.log_listed_twice())
    for i, ship_id in enumerate(log.ships_lost):
        if ship_id not in ships:
            add(("ships_lost", i), msg.log_unknown_lost_ship(ship_id, sorted(ships)))
    for i, choice in enumerate(log.partisans):
        if choice.faction not in factions or not board.on_map(choice.hex):
            add(("partisans", i), msg.log_partisans_bad(choice.faction, choice.hex))
    if problems:
        raise KitgenError(problems)


def check_battles(located: LogSource, log: TurnLog, state: CampaignState, board: Board, campaign: Campaign) -> None:
    """Every name of the battle reports checked against `state`, the state the battles find: a
    faction as winner, units on the map, stand kinds of the scenario, retreats and battle hexes of
    the map, ships; all at once, each misspelling with the closest right names (the units of the
    battle's contact first). The battles then judge ids that exist, so that a misspelt unit is
    never reported as a side missing from the fight."""
    factions = [f.id for f in campaign.scenario.meta.factions]
    stand_kinds = sorted(k.id for k in campaign.scenario.transport.stands)
    units = {u.id: u for u in state.units}
    ships = {x["id"]: x for x in state.ships}
    groups = {h: g for g in contact_groups(state) for h in g}
    problems: list[Problem] = []

    def add(loc: Loc, message: msg.Msg, *, key: bool = False) -> None:
        problems.append(located.problem(loc, message.within(dotted(loc)), key=key))

    for b, battle in enumerate(log.battles):
        if not board.on_map(battle.hex):
            add(("battles", b, "hex"), msg.log_off_map(battle.hex))
        field = groups.get(battle.hex, (battle.hex,))
        there = [
            u for u in state.units if u.hex in field and u.aboard is None and (u.hex, u.faction) not in state.evaded
        ]
        contact = sorted(u.id for u in there)
        if battle.winner not in factions:
            add(("battles", b, "winner"), msg.log_unknown_faction(battle.winner, factions))
        listed = [part.unit for part in battle.units]
        if len(set(listed)) != len(listed):
            add(("battles", b, "units"), msg.log_listed_twice())
        for j, part in enumerate(battle.units):
            where = ("battles", b, "units", j)
            unit = units.get(part.unit)
            if unit is None:
                unlisted = [u for u in contact if u not in listed]
                message = msg.log_battle_unknown_unit(part.unit, battle.hex, contact, unlisted, sorted(units))
                add((*where, "unit"), message)
            for key in ("lost", "routed", "captured", "ammo_left"):
                for kind, n in getattr(part, key).items():
                    if kind not in stand_kinds:
                        add((*where, key, kind), msg.log_bad_stands(kind, n, stand_kinds, 0), key=True)
                    elif n < 0 and key != "ammo_left":  # rounds left are judged against the unit's loads (B.6)
                        add((*where, key, kind), msg.log_bad_stands(kind, n, stand_kinds, 0))
            if part.retreat is not None and not board.on_map(part.retreat):
                start = unit.hex if unit is not None and board.on_map(unit.hex) else battle.hex
                message = msg.log_battle_retreat_off_map(part.retreat, start, list(board.neighbours(start)))
                add((*where, "retreat"), message)
        sides = {u.faction for u in there}
        theirs = sorted(s for s, x in ships.items() if any(state.allied(x["faction"], f, state.turn) for f in sides))
        for k, ship_id in enumerate(battle.ships):
            if ship_id not in ships:
                add(("battles", b, "ships", k), msg.log_battle_unknown_ship(ship_id, theirs, sorted(ships)))
    if problems:
        raise KitgenError(problems)
