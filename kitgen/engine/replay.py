"""Replaying a campaign: the set-up made into turn-0 state, then each turn log played in order.

A strategic turn (RULES-NOTES' order) as far as kitgen plays it yet: 1 supply judged for every
unit (B.2-B.4); 5 land movement (A, A.1), each order judged against the board, a void order
leaving its unit where it stood; contacts listed for the tabletop; towns pass to a faction
that holds them alone; every 3rd turn VPs are awarded (E.2), with the Red 3D6 bonus (E.3).
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import replace
from pathlib import Path
from typing import Any

from kitgen import messages as msg
from kitgen.campaign import TURN_NAME, Campaign
from kitgen.engine.arrivals import place, strength_gap
from kitgen.engine.logistics import after_judgement, judge_depots, resupply, tabletop_moves, used_fuel
from kitgen.engine.pontoons import friendly_pontoons, orphaned_pontoons, pontoon_work
from kitgen.engine.rolls import BadRoll, seed_for
from kitgen.engine.rolls import roll as make_roll
from kitgen.engine.state import CampaignState, UnitState, Verdict, stand_totals
from kitgen.engine.turnlog import Battle, RailOrder, SeaOrder, TurnLog
from kitgen.errors import KitgenError, Problem, display_path
from kitgen.mapping.board import Board
from kitgen.model.forces import Effect
from kitgen.model.scenario import Commander, Scenario, name_key
from kitgen.rules.battle import Side, equipment_recovered, losses
from kitgen.rules.command import obey_target
from kitgen.rules.dice import Dice
from kitgen.rules.movement import breakdown_roll, breaks_down, movement_row
from kitgen.rules.partisans import (
    ENEMY_WITHOUT_CAVALRY,
    FOREST_OR_MOUNTAIN,
    MAKHNO_PRESENT,
    ambush_succeeds,
    evades,
    total_modifier,
)
from kitgen.rules.paths import land_path
from kitgen.rules.supply import full_loads
from kitgen.rules.supplyfield import SupplyField, supply_field
from kitgen.rules.transport import Carrier, Load, load_points, river_passages
from kitgen.rules.victory import is_award_turn, makhnovist_modifier, reinforcement_draws
from kitgen.validation import dotted, validate
from kitgen.yamlsource import Loc, Located, load_yaml


def initial_state(campaign: Campaign) -> CampaignState:
    """Turn 0: the set-up on the map."""
    hexes = campaign.places
    setup = campaign.setup
    supply = campaign.scenario.supply
    units = tuple(
        UnitState.raised(u, supply, id=u.id, faction=u.faction, hex=hexes[name_key(u.at)], commander=u.commander)
        for u in setup.units
    )
    cards = [c.id for c in campaign.scenario.cards.events]
    random.Random(seed_for(campaign, "II.A event deck")).shuffle(cards)
    return CampaignState(
        turn=0,
        deck=tuple(cards),
        piles={f: tuple(slip.id for slip in pile) for f, pile in sorted(campaign.scenario.cards.piles.items())},
        units=units,
        owners=dict(sorted(setup.owners.items())),
        vp={f.id: 0 for f in campaign.scenario.meta.factions if f.scores_vp},
        wrecked_track=tuple(sorted(hexes[name_key(n)] for n in setup.destroyed_track)),
        alliances=tuple((a.factions[0], a.factions[1], a.turns) for a in setup.alliances),
        ships=tuple(
            {"id": s.id, "faction": s.faction, "name": s.name, "hex": hexes[name_key(s.at)], "gunfire": s.gunfire}
            for s in setup.ships
        ),
        trains=tuple(
            {"id": t.id, "faction": t.faction, "hex": hexes[name_key(t.at)], "armoured": t.armoured}
            for t in setup.trains
        ),
        depots=tuple({"faction": d.faction, "hex": hexes[name_key(d.at)]} for d in setup.depots),
    )


def replay(campaign: Campaign, upto: int | None = None) -> CampaignState:
    """The state after turn `upto` (default: the last log); a malformed log stops with its file:line."""
    board = Board.from_map(campaign.hex_map)
    state = initial_state(campaign)
    for number, path in _logs(campaign):
        if upto is not None and number > upto:
            break
        if number != state.turn + 1:
            raise KitgenError.at(path, 1, 1, msg.log_turn_out_of_order(number, state.turn))
        state = play_turn(campaign, board, state, path)
    if upto is not None and upto > state.turn:
        raise KitgenError.at(campaign.folder / "turns", 1, 1, msg.log_no_such_turn(upto, state.turn))
    return state


def _logs(campaign: Campaign) -> list[tuple[int, Path]]:
    found = []
    for path in campaign.turns:
        match = TURN_NAME.fullmatch(path.name)
        if match:
            found.append((int(match.group(1)), path))
    return sorted(found)


def play_turn(campaign: Campaign, board: Board, state: CampaignState, path: Path) -> CampaignState:
    """One strategic turn from its log; nothing of a malformed log is applied."""
    located = load_yaml(path)
    log, problems = validate(located, TurnLog)
    problems = located.problems + problems
    if log is None or problems:
        raise KitgenError(problems)
    turn = state.turn + 1
    if log.turn != turn:
        raise KitgenError([located.problem(("turn",), msg.log_turn_mismatch(log.turn, turn).within("turn"))])
    _check_orders(located, log, state, board, campaign)
    try:
        return _play(campaign, board, state, log, located, turn)
    except BadRoll as bad:  # a given roll its dice cannot show, found where the turn uses it
        at = ("dice", bad.index, "value")
        message = msg.log_dice_out_of_range(bad.value, bad.dice, bad.low, bad.high)
        raise KitgenError([located.problem(at, message.within(dotted(at)))]) from None


def _play(
    campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: Located, turn: int
) -> CampaignState:
    """The phases of one turn, in RULES-NOTES' order."""
    state = replace(
        state,
        turn=turn,
        rolls=(),
        verdicts=(),
        contacts=(),
        draws={},
        events=(),
        umpire=(),
    )
    state = rejoin(state)
    state = judge_supply(campaign, board, state)  # last turn's evaded partisans count as absent (II.D.1)
    state = replace(state, evaded=frozenset())
    state = after_judgement(campaign, state, log)
    started_out = {u.id for u in state.units if u.in_supply is False}
    state, halted = command(campaign, board, state, log, located)
    state = random_event(campaign, state, log)
    state = remove_stands(campaign, state, log, located)
    state = rail_moves(campaign, board, state, log, located, halted)
    state = sea_moves(campaign, board, state, log, located, halted)
    state = pontoon_work(campaign, board, state, log, located, halted)
    state = move(campaign, board, state, log, located, halted)
    state = breakdowns(campaign, state, log)
    state = used_fuel(campaign, state, started_out)
    state = resupply(campaign, state, log, located, halted)
    state = partisans(campaign, board, state, log)
    state = tabletop_moves(campaign, state, log)
    state = battles(campaign, board, state, log, located)
    state = track_work(campaign, board, state, log, located, halted)
    state = settle(campaign, board, state)
    state = orphaned_pontoons(state)
    if is_award_turn(campaign.scenario.victory, turn):
        state = award_vp(campaign, state, log)
    state = draw_slips(campaign, state)
    state = place(campaign, board, state, log, located)
    gap = strength_gap(campaign, state)
    if gap:
        state = replace(state, umpire=(*state.umpire, gap))
    _check_dice(located, log, state)
    return state


def _check_dice(located: Located, log: TurnLog, state: CampaignState) -> None:
    """Every roll the log gives must be one the turn needed, once, and a face of its dice: a
    misspelt purpose would otherwise be drawn instead without a word."""
    needed = {r.purpose: r for r in state.rolls}
    problems = []
    seen: set[str] = set()
    for i, given in enumerate(log.dice):
        where = ("dice", i, "purpose")
        if given.purpose in seen:
            problems.append(located.problem(where, msg.log_dice_twice(given.purpose).within(dotted(where))))
        seen.add(given.purpose)
        roll = needed.get(given.purpose)
        if roll is None:
            message = msg.log_dice_unknown_purpose(given.purpose, sorted(needed))
            problems.append(located.problem(where, message.within(dotted(where))))
            continue
        d = Dice.parse(roll.dice)
        if not d.low <= given.value <= d.high:
            message = msg.log_dice_out_of_range(given.value, roll.dice, d.low, d.high)
            problems.append(located.problem(("dice", i, "value"), message.within(f"dice[{i}].value")))
    if problems:
        raise KitgenError(problems)


def _check_orders(located: Located, log: TurnLog, state: CampaignState, board: Board, campaign: Campaign) -> None:
    """Malformed orders stop the replay: an unknown faction, unit, train or stand kind, a unit of
    another faction, a hex off the map, a unit listed twice."""
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
    for b, battle in enumerate(log.battles):
        if battle.winner not in factions:
            add(("battles", b, "winner"), msg.log_unknown_faction(battle.winner, factions))
        listed = [part.unit for part in battle.units]
        if len(set(listed)) != len(listed):
            add(("battles", b, "units"), msg.log_listed_twice())
        for j, part in enumerate(battle.units):
            for key in ("lost", "routed", "captured"):
                for kind, n in getattr(part, key).items():
                    if kind not in stand_kinds or n < 0:
                        add(("battles", b, "units", j, key, kind), msg.log_bad_stands(kind, n, sorted(stand_kinds), 0))
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
    for i, choice in enumerate(log.partisans):
        if choice.faction not in factions or not board.on_map(choice.hex):
            add(("partisans", i), msg.log_partisans_bad(choice.faction, choice.hex))
    if problems:
        raise KitgenError(problems)


def enemies(state: CampaignState, faction: str, turn: int) -> set[str]:
    """Hexes holding units of the faction's enemies; partisans who evaded there count as absent
    (II.D.1: "for purposes of VPs and supply the nonpartisan unit is assumed to be there only")."""
    hostile = {f for f in {u.faction for u in state.units} if not state.allied(f, faction, turn)}
    return {u.hex for u in state.units if u.faction in hostile and (u.hex, u.faction) not in state.evaded}


def supply_sources(
    campaign: Campaign, board: Board, state: CampaignState, faction: str, *, depots: bool = True
) -> set[str]:
    """The faction's source hexes now: fixed sources, towns it holds, ports with its ships, its depots."""
    found, held = _sources(campaign, board, state, faction)
    return found | held if depots else found


def _sources(campaign: Campaign, board: Board, state: CampaignState, faction: str) -> tuple[set[str], set[str]]:
    """The faction's source hexes other than depots, and its depots' hexes if they are sources."""
    found = set()
    for source in campaign.hex_map.supply_sources:
        if source.faction != faction:
            continue
        if source.kind == "town" and source.while_held and state.owners.get(source.town or "") != faction:
            continue
        found.add(source.hex)
    conditions = campaign.hex_map.conditional_sources.get(faction, ())
    if "ports with_friendly_ship" in conditions:
        ports = {p for p, towns in board.ports.items() if any(state.owners.get(t) == faction for t in towns)}
        ships = {s["hex"] for s in state.ships if s["faction"] == faction}
        found |= {p for p in ports if p in ships or any(n in ships for n in board.neighbours(p))}
    held = set()
    if "depots captured" in conditions:
        held = {d["hex"] for d in state.depots if d["faction"] == faction}
    return found, held


def judge_supply(campaign: Campaign, board: Board, state: CampaignState) -> CampaignState:
    """B.2: every unit judged in or out of supply at the start of the turn, with the path that proves it."""
    trace = campaign.scenario.supply.trace_hexes
    wrecked = set(state.wrecked_track)
    fields: dict[tuple[str, frozenset[str], frozenset[frozenset[str]]], SupplyField] = {}

    def field_of(faction: str, found: set[str], crossings: Collection[frozenset[str]]) -> SupplyField:
        """The faction's supply over the whole board; a unit's own hex is not enemy-held for its own trace."""
        key = (faction, frozenset(found), frozenset(crossings))
        if key not in fields:
            foes = enemies(state, faction, state.turn)
            fields[key] = supply_field(
                board, found, enemy=foes, wrecked=wrecked, trace_hexes=trace, crossings=crossings
            )
        return fields[key]

    undepoted, depots = {}, {}
    for f in sorted({u.faction for u in state.units} | {d["faction"] for d in state.depots}):
        undepoted[f], depots[f] = _sources(campaign, board, state, f)
    by_faction = {
        f: field_of(f, undepoted[f] | depots[f], friendly_pontoons(state, f)) for f in {u.faction for u in state.units}
    }
    cut = {f: bool(_active(state, "supply_cut", f)) for f in undepoted}
    loads: dict[tuple[tuple[str, int], ...], dict[str, int]] = {}
    judged = []
    for unit in state.units:
        path = None if cut[unit.faction] else by_faction[unit.faction].path(unit.hex)
        if path is not None:  # B.5: in supply, full loads; B.8: fuel again
            stands = tuple(unit.stands.items())
            if stands not in loads:
                loads[stands] = full_loads(campaign.scenario.supply, unit.stands)
            ammo, out, stuck = loads[stands], 0, False
        else:
            ammo, out, stuck = unit.ammo, unit.moves_out_of_supply, unit.immobilised
        judgement = (path is not None, path or (), False, False, list(ammo.items()), out, stuck)
        if judgement == (
            unit.in_supply,
            unit.supply_path,
            unit.moved,
            unit.carried,
            list(unit.ammo.items()),  # in order: the state's JSON lists them so
            unit.moves_out_of_supply,
            unit.immobilised,
        ):
            judged.append(unit)  # judged as it stood: the same unit, without the cost of a copy
            continue
        judged.append(
            replace(
                unit,
                in_supply=path is not None,
                supply_path=path or (),
                moved=False,
                carried=False,
                ammo=dict(ammo),
                moves_out_of_supply=out,
                immobilised=stuck,
            )
        )
    traced = {}
    for d in state.depots:  # B.7: is the depot itself cut off? (depots are no sources for this)
        f = d["faction"]
        path = field_of(f, undepoted[f], ()).path(d["hex"])
        traced[d["hex"] + ":" + d["faction"]] = path is not None and not cut[f]
    return judge_depots(replace(state, units=tuple(judged)), traced)


def _active(state: CampaignState, kind: str, faction: str, unit_type: str | None = None) -> list[int]:
    """Modifiers of lasting card effects that apply now (to that unit type, if the card names types)."""
    return [
        m
        for k, f, m, last, types in state.modifiers
        if k == kind and f in (faction, "all") and state.turn <= last and (not types or unit_type in types.split(","))
    ]


def _modifier(state: CampaignState, kind: str, faction: str, unit_type: str | None = None) -> int:
    return sum(_active(state, kind, faction, unit_type))


def random_event(campaign: Campaign, state: CampaignState, log: TurnLog) -> CampaignState:
    """II.A.1: a D6 every strategic turn; on a 6 the top event card is drawn and its effects
    applied (RULES-NOTES: discarded after use unless the card goes back into the deck)."""
    events = campaign.scenario.events
    roll = make_roll(campaign, log, f"II.A event roll, turn {state.turn}", events.roll)
    state = replace(state, rolls=(*state.rolls, roll))
    if roll.value not in events.draw_on or not state.deck:
        return state
    card = next(c for c in campaign.scenario.cards.events if c.id == state.deck[0])
    deck = state.deck[1:] + ((card.id,) if card.returns_to_deck else ())
    state = replace(state, deck=deck, events=(*state.events, card.id))
    for effect in card.effects:
        state = apply_effect(campaign, state, card.id, effect)
    return state


def remove_stands(campaign: Campaign, state: CampaignState, log: TurnLog, located: Located) -> CampaignState:
    """II.A.2: "The card must be acted upon immediately": the stands a card drawn this turn takes
    come off the units the log's `remove` names, exactly as many of each kind as the card says."""
    owed: dict[tuple[str, str], int] = {}
    for card in (c for c in campaign.scenario.cards.events if c.id in state.events):
        for effect in card.effects:
            if effect.kind == "remove_stands" and effect.stand:
                every = sorted({u.faction for u in state.units})
                for f in every if effect.faction == "all" else [effect.faction or ""]:
                    owed[(f, effect.stand)] = owed.get((f, effect.stand), 0) + (effect.count or 0)
    have: dict[tuple[str, str], int] = {}
    for u in state.units:
        for kind, n in u.stands.items():
            have[(u.faction, kind)] = have.get((u.faction, kind), 0) + n
    notes = list(state.umpire)
    for key in sorted(owed):
        if owed[key] > have.get(key, 0):  # a card cannot take stands the faction no longer has
            notes.append(
                f"II.A.2 the {key[0]} have only {have.get(key, 0)} {key[1]} stands of the {owed[key]} the card takes"
            )
            owed[key] = have.get(key, 0)
    state = replace(state, umpire=tuple(notes))
    units = {u.id: u for u in state.units}
    problems: list[Problem] = []
    for faction, orders in sorted(log.remove.items()):
        taken: dict[str, int] = {}
        for i, order in enumerate(orders):
            unit = units.get(order.unit)
            where = ("remove", faction, i)
            if unit is None or unit.faction != faction:
                at = where + ("unit",)
                problems.append(located.problem(at, msg.log_remove_unit(order.unit, faction).within(dotted(at))))
                continue
            stands = dict(unit.stands)
            for kind, n in order.stands.items():
                if n < 1 or n > stands.get(kind, 0):
                    at = where + ("stands",)
                    message = msg.log_remove_too_many(n, kind, unit.id, stands.get(kind, 0))
                    problems.append(located.problem(at, message.within(dotted(at))))
                    continue
                stands[kind] -= n
                taken[kind] = taken.get(kind, 0) + n
            units[unit.id] = replace(unit, stands={k: n for k, n in stands.items() if n > 0})
        for kind in sorted({*taken, *(k for f, k in owed if f == faction)}):
            if taken.get(kind, 0) != owed.get((faction, kind), 0):
                message = msg.log_remove_owed(taken.get(kind, 0), kind, owed.get((faction, kind), 0))
                problems.append(located.problem(("remove", faction), message.within(f"remove.{faction}"), key=True))
    if problems:
        raise KitgenError(problems)
    if not log.remove:
        return state
    done = tuple(f"{c}: the {f} lose " for c in state.events for f in log.remove)
    notes = [n for n in state.umpire if not n.startswith(done)]
    kept = tuple(units[u.id] for u in state.units if units[u.id].stands)
    return replace(state, units=kept, umpire=tuple(notes))


def apply_effect(campaign: Campaign, state: CampaignState, card: str, effect: Effect) -> CampaignState:
    """One card effect in rule terms; what kitgen cannot do is listed for the umpire."""
    hexes = campaign.places
    scoring = list(state.vp)
    last = state.turn + (effect.turns or 1) - 1
    faction = effect.faction or "all"
    match effect.kind:
        case "vp":
            vp = dict(state.vp)
            for f in scoring if faction == "all" else [faction]:
                if f in vp:
                    vp[f] = max(0, vp[f] + (effect.amount or 0))
            return replace(state, vp=vp)
        case "draws":
            draws = dict(state.draws)
            draws[faction] = draws.get(faction, 0) + (effect.draws or 0)
            return replace(state, draws=draws)
        case "command":  # this turn's command rolls are made: it counts from the next one
            lasting = ("command", faction, effect.modifier or 0, last + 1, ",".join(effect.unit_types))
            return replace(state, modifiers=(*state.modifiers, lasting))
        case "movement":
            lasting = ("movement", faction, effect.modifier or 0, last, ",".join(effect.unit_types))
            return replace(state, modifiers=(*state.modifiers, lasting))
        case "supply_cut":  # from this turn on: its units are out of supply now, and at the next judgements
            cut = tuple(
                replace(u, in_supply=False, supply_path=()) if faction in (u.faction, "all") else u for u in state.units
            )
            return replace(state, units=cut, modifiers=(*state.modifiers, ("supply_cut", faction, 0, last, "")))
        case "alliance":
            a, b = effect.factions
            return replace(state, alliances=(*state.alliances, (a, b, last)))
        case "track_destroyed" if effect.at and name_key(effect.at) in hexes:
            wrecked = tuple(sorted({*state.wrecked_track, hexes[name_key(effect.at)]}))
            return replace(state, wrecked_track=wrecked)
        case "town_owner" if effect.at and campaign.scenario.find_town(effect.at):
            town = campaign.scenario.find_town(effect.at)
            assert town is not None
            return replace(state, owners={**state.owners, town.name: faction})
        case "units" if effect.at and name_key(effect.at) in hexes:
            at = hexes[name_key(effect.at)]
            new = tuple(
                UnitState.raised(spec, campaign.scenario.supply, id=f"{card}_{k}", faction=faction, hex=at)
                for k, spec in enumerate(effect.units, 1)
            )
            return replace(state, units=state.units + new)
    if effect.kind == "remove_stands":
        what = (
            f"the {faction} lose {effect.count} {effect.stand} stand{'s' if effect.count != 1 else ''} "
            "from units of their choice: list them under `remove:` in this turn's log (II.A.2)"
        )
    else:
        what = effect.text or f"{effect.kind}: {effect.model_dump(exclude_defaults=True)}"
    return replace(state, umpire=(*state.umpire, f"{card}: {what}"))


def command(
    campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: Located
) -> tuple[CampaignState, dict[str, str]]:
    """II.C: for each hex with ordered units, the highest-ranking commander there rolls a D10 and
    obeys at or under his rating; units with no commander roll each, 1-4 with a commander
    adjacent, 1-3 if not; each failure in a row makes the next roll 1 easier (II.C.4). Returns the
    state (rolls, failures) and the units held back, with why."""
    s = campaign.scenario
    rules = s.command
    ordered = [(f, o.unit) for f, orders in log.orders.items() for o in orders]
    ordered += [(f, u) for f, orders in log.rail.items() for o in orders for u in o.carry]  # carried units obey too
    ordered += [(f, u) for f, orders in log.sea.items() for o in orders for u in o.carry]
    ordered += [(f, o.unit) for f, orders in log.track.items() for o in orders]  # and so do wreckers and repairers
    ordered += [(f, o.unit) for f, orders in log.pontoons.items() for o in orders]
    ordered += [(f, o.unit) for f, orders in log.resupply.items() for o in orders]
    units = {u.id: u for u in state.units}
    by_hex: dict[tuple[str, str], list[str]] = {}
    for faction, unit_id in ordered:
        if unit_id not in units:  # gone earlier this turn (abandoned, or its last stands taken by a card)
            continue
        group = by_hex.setdefault((faction, units[unit_id].hex), [])
        if unit_id not in group:
            group.append(unit_id)
    failures = dict(state.command_failures)
    rolls = list(state.rolls)
    halted: dict[str, str] = {}
    leaders: dict[tuple[str, str], list[Commander]] = {}
    for u in state.units:
        found = s.find_commander(u.commander) if u.commander else None
        if found is not None:
            leaders.setdefault((u.faction, u.hex), []).append(found)
    for (faction, hex_id), ids in sorted(by_hex.items()):
        present = leaders.get((faction, hex_id), [])
        groups: list[tuple[str, int | None, bool, list[str]]]
        if present:
            leader = min(present, key=s.rank)
            groups = [(leader.name, leader.dependability, False, ids)]
        else:
            adjacent = any((faction, n) in leaders for n in board.neighbours(hex_id))
            groups = [(unit_id, None, adjacent, [unit_id]) for unit_id in ids]
        for key, rating, adjacent, members in groups:
            before = failures.get(key, 0)
            # a card's command modifier is added to the roll, so it comes off the target
            target = obey_target(rules, rating, failures=before, adjacent=adjacent) - _modifier(
                state, "command", faction
            )
            roll = make_roll(campaign, log, f"II.C {key} command roll, turn {state.turn}", rules.roll)
            rolls.append(roll)
            if roll.value <= target:
                failures.pop(key, None)
                continue
            failures[key] = before + 1
            who = key if rating is not None else "no commander in the hex"
            for unit_id in members:
                halted[unit_id] = f"command roll {roll.value} over {target} ({who}): the unit does not move, II.C.2"
    return replace(state, rolls=tuple(rolls), command_failures=failures), halted


def move(
    campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: Located, halted: dict[str, str]
) -> CampaignState:
    """A, A.1: each land move judged on the board; a void order leaves its unit where it stood.
    Moves are simultaneous: enemy units block where they stood when land movement began."""
    units = {u.id: u for u in state.units}
    verdicts = list(state.verdicts)
    file = display_path(located.path)
    for faction in log.orders:  # in the order the log gives them
        foes, bridged = enemies(state, faction, state.turn), friendly_pontoons(state, faction)
        for i, order in enumerate(log.orders[faction]):
            line, _ = located.position(("orders", faction, i))
            unit = units.get(order.unit)
            route = "-".join(order.move)
            if unit is None:
                gone = f"{order.unit}: path {route}: no longer on the map: void"
                verdicts.append(Verdict(file, line, faction, order.unit, f"path {route}", "void", gone, "A"))
                continue
            row = f"{unit.name} ({unit.type}, {movement_row(campaign.scenario.movement, unit.type).mp} MP)"
            if unit.carried:
                why = f"{row}: path {route}: embarked or detrained this turn, so no map move: void, A.2"
                verdicts.append(Verdict(file, line, faction, unit.id, f"path {route}", "void", why, "A.2"))
                continue
            if unit.moved:
                verdicts.append(
                    Verdict(
                        file,
                        line,
                        faction,
                        unit.id,
                        f"path {route}",
                        "void",
                        f"{row} has moved already this turn: void",
                        "A",
                    )
                )
                continue
            if unit.id in halted:
                why = f"{row}: path {route}: {halted[unit.id]}"
                verdicts.append(Verdict(file, line, faction, unit.id, f"path {route}", "held", why, "II.C"))
                continue
            if order.move[0] != unit.hex:
                why = f"{row} is in {unit.hex}, not {order.move[0]}: void"
                verdicts.append(Verdict(file, line, faction, unit.id, f"path {route}", "void", why, "A"))
                continue
            if unit.immobilised:
                why = f"{row}: path {route}: out of fuel and immobilised: void, B.8"
                verdicts.append(Verdict(file, line, faction, unit.id, f"path {route}", "void", why, "B.8"))
                continue
            mp = _modifier(state, "movement", faction, unit.type)
            judged = land_path(
                board,
                campaign.scenario.movement,
                unit.type,
                list(order.move),
                mp_modifier=mp,
                pontoons=bridged,
                enemy=foes,
            )
            verdicts.append(
                Verdict(
                    file,
                    line,
                    faction,
                    unit.id,
                    f"path {route}",
                    "done" if judged.allowed else "void",
                    f"{row}: path {route} {judged.explain()}",
                    judged.rule,
                )
            )
            if judged.allowed:
                units[unit.id] = replace(unit, hex=order.move[-1], moved=True)
    return replace(state, units=tuple(units[u.id] for u in state.units), verdicts=tuple(verdicts))


def rail_moves(
    campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: Located, halted: dict[str, str]
) -> CampaignState:
    """C.1: a train moves along intact track free of enemy units, up to its move, carrying up to
    its capacity in points; the units it carries embark where it starts and detrain where it
    stops (A.2). Units held by command control stay behind."""
    trains = {t["id"]: dict(t) for t in state.trains}
    units = {u.id: u for u in state.units}
    moved_trains: set[str] = set()
    verdicts = list(state.verdicts)
    file = display_path(located.path)
    for faction, orders in log.rail.items():
        for i, order in enumerate(orders):
            line, _ = located.position(("rail", faction, i))
            route = "-".join(order.path)
            result, why, rule, aboard = _judge_rail(campaign, board, state, order, trains, units, halted, moved_trains)
            verdicts.append(
                Verdict(
                    file,
                    line,
                    faction,
                    order.train,
                    f"rail {route}",
                    result,
                    f"train {order.train}: path {route} {why}",
                    rule,
                )
            )
            if result == "done":
                trains[order.train]["hex"] = order.path[-1]
                moved_trains.add(order.train)
                for u in aboard:
                    units[u] = replace(units[u], hex=order.path[-1], moved=True, carried=True)
    return replace(
        state,
        units=tuple(units[u.id] for u in state.units),
        trains=tuple(trains[t["id"]] for t in state.trains),
        verdicts=tuple(verdicts),
    )


def sea_moves(
    campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: Located, halted: dict[str, str]
) -> CampaignState:
    """D.1: a ship moves up to 16 hexes through the sea, from and to a port; D.3: it carries 16
    points; its units go ashore at the port it reaches, or land on a coastal hex beside the sea
    hex where it stops (A.3: infantry only, and no map move from the landing hex that turn)."""
    s = campaign.scenario
    ships = {x["id"]: dict(x) for x in state.ships}
    units = {u.id: u for u in state.units}
    ports = {h.id for h in campaign.hex_map.hexes if h.port}
    coastal = {h.id for h in campaign.hex_map.hexes if h.coastal}
    waters = {h for passage in river_passages(board, ports).values() for h in passage}
    verdicts = list(state.verdicts)
    file = display_path(located.path)
    moved: set[str] = set()
    for faction, orders in log.sea.items():
        for i, order in enumerate(orders):
            line, _ = located.position(("sea", faction, i))
            ship = ships.get(order.ship)
            if ship is None or ship["faction"] != faction:
                at = ("sea", faction, i, "ship")
                mine = sorted(x for x, y in ships.items() if y["faction"] == faction)
                message = msg.log_unknown_ship(order.ship, faction, mine)
                raise KitgenError([located.problem(at, message.within(dotted(at)))])
            route = "-".join(order.path)
            why, aboard, load_text = _judge_sea(s, board, order, ship, units, halted, ports, coastal, waters, moved)
            if why:
                result, text = "void", f"ship {ship['name']}: path {route}: {why}: void"
            else:
                result, text = (
                    "done",
                    f"ship {ship['name']}: path {route}, {len(order.path) - 1} hexes, carrying {', '.join(aboard) or 'nothing'} ({load_text})",
                )
                ship["hex"] = order.path[-1]
                moved.add(order.ship)
                ashore = order.land or order.path[-1]
                for u in aboard:
                    units[u] = replace(units[u], hex=ashore, moved=True, carried=True)
                if order.land:
                    text += f"; lands them on {order.land}"
                left = [u for u in order.carry if u not in aboard]
                if left:
                    text += f"; left behind (not in {order.path[0]} at the start, moved, or held by command): {', '.join(left)}"
            rule = "A.3" if order.land else "D.1"
            verdicts.append(Verdict(file, line, faction, order.ship, f"sea {route}", result, text, rule))
    return replace(
        state,
        units=tuple(units[u.id] for u in state.units),
        ships=tuple(ships[x["id"]] for x in state.ships),
        verdicts=tuple(verdicts),
    )


def _judge_sea(
    s: Scenario,
    board: Board,
    order: SeaOrder,
    ship: dict[str, Any],
    units: dict[str, UnitState],
    halted: dict[str, str],
    ports: set[str],
    coastal: set[str],
    waters: set[str],
    moved: set[str],
) -> tuple[str | None, list[str], str]:
    """(why void or None, units aboard, load text) of one sea order."""
    if order.ship in moved:
        return "has moved already this turn", [], ""
    if order.path[0] != ship["hex"]:
        return f"starts in {order.path[0]}, but the ship is in {ship['hex']}", [], ""
    if len(order.path) - 1 > s.transport.ship.move_hexes:
        return f"{len(order.path) - 1} hexes, more than a ship's {s.transport.ship.move_hexes} (D.1)", [], ""
    for here, there in zip(order.path, order.path[1:], strict=False):
        if not board.adjacent(here, there):
            return f"{here} and {there} are not adjacent", [], ""
    inner = order.path[1:-1]
    if any(not board.is_sea(h) and h not in waters and h not in ports for h in inner):
        return "a ship keeps to sea hexes, ports, and rivers up to their ports (D.1)", [], ""
    end = order.path[-1]
    if not board.is_sea(end) and end not in ports:
        return f"{end} is neither sea nor a port", [], ""
    aboard = _boarding(order.carry, order.path[0], units, halted)
    if order.land is not None:
        if not board.is_sea(end) or not board.adjacent(end, order.land) or order.land not in coastal:
            return (
                f"a landing is made on a coastal hex beside the sea hex where the ship stops, not {order.land} (A.3)",
                [],
                "",
            )
        others = [u for u in aboard if set(units[u].stands) - set(s.transport.landing_stands)]
        if others:
            return f"only infantry land on a coast; the rest go ashore at a port (A.3): {', '.join(others)}", [], ""
    elif aboard and end not in ports:
        return f"troops go ashore at a port city, and {end} is none (A.3)", [], ""
    load = _load(s, aboard, units, "ship")
    if not load.fits:
        return f"load of {load.total} points is over a ship's {load.capacity} (D.3)", [], ""
    return None, aboard, f"{load.total} of {load.capacity} points"


def _boarding(carry: list[str], start: str, units: dict[str, UnitState], halted: dict[str, str]) -> list[str]:
    """A.2: the units of a carry order that embark: in the start hex, not moved, not held by command."""
    return [u for u in carry if u in units and u not in halted and units[u].hex == start and not units[u].moved]


def _load(s: Scenario, aboard: list[str], units: dict[str, UnitState], carrier: Carrier) -> Load:
    """C.1, D.3: the points the embarked units weigh, against the carrier's capacity."""
    return load_points(s.transport, stand_totals(units[u].stands for u in aboard), carrier)


def _judge_rail(
    campaign: Campaign,
    board: Board,
    state: CampaignState,
    order: RailOrder,
    trains: dict[str, dict[str, Any]],
    units: dict[str, UnitState],
    halted: dict[str, str],
    moved_trains: set[str],
) -> tuple[str, str, str, list[str]]:
    """(result, why, rule, units aboard) of one rail order."""
    s = campaign.scenario
    train = trains[order.train]
    if order.train in moved_trains:
        return "void", "has moved already this turn: void", "C.1", []
    if order.path[0] != train["hex"]:
        return "void", f"starts in {order.path[0]}, but the train is in {train['hex']}: void", "C.1", []
    judged = land_path(board, s.movement, s.transport.train.unit_type, list(order.path))
    if not judged.allowed:
        return "void", judged.explain(), judged.rule, []
    wrecked = [h for h in order.path[1:] if h in state.wrecked_track]
    if wrecked:
        return "void", f"track wrecked in {', '.join(wrecked)}: void", "C.2", []
    blocked = [h for h in order.path[1:] if h in enemies(state, train["faction"], state.turn)]
    if blocked:
        return "void", f"enemy units in {', '.join(blocked)} block the line: void", "C.1", []
    aboard = _boarding(order.carry, order.path[0], units, halted)
    left = [u for u in order.carry if u not in aboard]
    load = _load(s, aboard, units, "train")
    if not load.fits:
        return "void", f"load of {load.total} points is over the train's {load.capacity}: void", "C.1", []
    stays = f"; left behind (not in {order.path[0]}, moved, or held by command): {', '.join(left)}" if left else ""
    carried = ", ".join(aboard) or "nothing"
    return (
        "done",
        f"{len(order.path) - 1} hex{'es' if len(order.path) != 2 else ''}, carrying {carried} ({load.total} of {load.capacity} points){stays}",
        "C.1",
        aboard,
    )


def track_work(
    campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: Located, halted: dict[str, str]
) -> CampaignState:
    """C.2 (phase 9): an infantry or cavalry unit of 3 or more stands wrecks the track of a hex
    it entered this turn, if no enemy is there; an RR repair or engineer unit repairs up to 2
    wrecked hexes, its own and the next along the line, and ends in the last."""
    rules = campaign.scenario.transport.track
    units = {u.id: u for u in state.units}
    wrecked = set(state.wrecked_track)
    verdicts = list(state.verdicts)
    file = display_path(located.path)
    for faction, orders in log.track.items():
        for i, order in enumerate(orders):
            line, _ = located.position(("track", faction, i))
            unit = units.get(order.unit)
            if unit is None:  # surrendered or broken down earlier this turn
                gone = f"{order.unit} is no longer on the map: void"
                verdicts.append(Verdict(file, line, faction, order.unit, "track", "void", gone, "C.2"))
                continue
            stands = sum(unit.stands.values())
            label = f"{unit.name} ({unit.type}, {stands} stands)"
            if unit.id in halted:
                work = f"wreck {order.wreck}" if order.wreck else f"repair {'-'.join(order.repair)}"
                verdicts.append(
                    Verdict(file, line, faction, unit.id, work, "held", f"{label}: {work}: {halted[unit.id]}", "II.C")
                )
                continue
            if order.wreck is not None:
                rail_here = any(board.rail_link(order.wreck, n) for n in board.neighbours(order.wreck))
                enemy_there = any(
                    u.hex == order.wreck and not state.allied(u.faction, faction, state.turn) for u in state.units
                )
                why = None
                if unit.type not in rules.wreck_unit_types or stands < rules.wreck_min_stands:
                    why = f"only {' or '.join(rules.wreck_unit_types)} units of {rules.wreck_min_stands} or more stands wreck track"
                elif not unit.moved or unit.hex != order.wreck:
                    why = f"it did not enter {order.wreck} this turn"
                elif not rail_here:
                    why = f"no railway runs through {order.wreck}"
                elif enemy_there:
                    why = f"enemy units are in {order.wreck}"
                if why:
                    verdicts.append(
                        Verdict(
                            file,
                            line,
                            faction,
                            unit.id,
                            f"wreck {order.wreck}",
                            "void",
                            f"{label}: wreck {order.wreck}: {why}: void, C.2",
                            "C.2",
                        )
                    )
                else:
                    wrecked.add(order.wreck)
                    verdicts.append(
                        Verdict(
                            file,
                            line,
                            faction,
                            unit.id,
                            f"wreck {order.wreck}",
                            "done",
                            f"{label}: wrecks the track in {order.wreck}",
                            "C.2",
                        )
                    )
            if order.repair:
                hexes = order.repair
                why = None
                if unit.type not in rules.repair_unit_types:
                    why = f"only {' or '.join(rules.repair_unit_types)} units repair track"
                elif len(hexes) > rules.repair_hexes_per_turn:
                    why = f"{len(hexes)} hexes; at most {rules.repair_hexes_per_turn} a turn"
                elif hexes[0] != unit.hex:
                    why = f"the repair starts in the unit's own hex, {unit.hex}"
                elif len(hexes) == 2 and not board.rail_link(hexes[0], hexes[1]):
                    why = f"{hexes[1]} is not the next hex along the line"
                elif unit.moved:
                    why = "the unit moved this turn; repairing is its move"
                elif any(u.hex in hexes and not state.allied(u.faction, faction, state.turn) for u in state.units):
                    why = "enemy units are on that track"
                elif any(h not in wrecked for h in hexes):
                    why = f"the track is not wrecked in {', '.join(h for h in hexes if h not in wrecked)}"
                route = "-".join(hexes)
                if why:
                    verdicts.append(
                        Verdict(
                            file,
                            line,
                            faction,
                            unit.id,
                            f"repair {route}",
                            "void",
                            f"{label}: repair {route}: {why}: void, C.2",
                            "C.2",
                        )
                    )
                else:
                    wrecked -= set(hexes)
                    units[unit.id] = replace(unit, hex=hexes[-1])
                    verdicts.append(
                        Verdict(
                            file,
                            line,
                            faction,
                            unit.id,
                            f"repair {route}",
                            "done",
                            f"{label}: repairs the track in {route}",
                            "C.2",
                        )
                    )
    return replace(
        state,
        units=tuple(units[u.id] for u in state.units),
        wrecked_track=tuple(sorted(wrecked)),
        verdicts=tuple(verdicts),
    )


def rejoin(state: CampaignState) -> CampaignState:
    """II.B.3: stands that "return to unit strengths next turn" rejoin their unit."""
    back: dict[str, dict[str, int]] = {}
    for unit_id, kind, n in state.returning:
        back.setdefault(unit_id, {})[kind] = back.get(unit_id, {}).get(kind, 0) + n
    if not back:
        return state
    units = []
    for u in state.units:
        if u.id in back:
            stands = dict(u.stands)
            for kind, n in back[u.id].items():
                stands[kind] = stands.get(kind, 0) + n
            u = replace(u, stands=dict(sorted(stands.items())))
        units.append(u)
    return replace(state, units=tuple(units), returning=())


def battles(campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: Located) -> CampaignState:
    """II.B (phase 8): each battle's losses, unit by unit (RULES-NOTES): of stands lost the winner
    loses 40% for good and the loser 55% (half up), the rest return next turn; half the loser's
    routed stands (rounded up) desert or are captured unless Elite/Fanatic, the rest return;
    the loser retreats one hex from the enemy (II.B.1), or surrenders."""
    rules = campaign.scenario.battle
    units = {u.id: u for u in state.units}
    returning = list(state.returning)
    verdicts = list(state.verdicts)
    umpire = list(state.umpire)
    rolls = list(state.rolls)
    file = display_path(located.path)
    fired: set[str] = set()
    for b, battle in enumerate(log.battles):
        booty: dict[str, int] = {}
        losers = [
            p.unit
            for p in battle.units
            if p.unit in units
            and units[p.unit].hex == battle.hex
            and not state.allied(units[p.unit].faction, battle.winner, state.turn)
        ]
        if not losers:
            message = msg.log_battle_no_loser(battle.hex).within(f"battles[{b}]")
            raise KitgenError([located.problem(("battles", b), message)])
        umpire += _naval_gunfire(campaign, board, state, battle, b, located, fired)
        sides = {units[p.unit].faction for p in battle.units if p.unit in units}
        if not any(state.allied(f, battle.winner, state.turn) for f in sides):
            message = msg.log_battle_no_winner(battle.winner, battle.hex).within(f"battles[{b}].winner")
            raise KitgenError([located.problem(("battles", b, "winner"), message)])
        for j, part in enumerate(battle.units):
            where = ("battles", b, "units", j)
            unit = units.get(part.unit)
            if unit is None or unit.hex != battle.hex:
                message = msg.log_battle_unit_elsewhere(
                    part.unit, unit.hex if unit else None, battle.hex, sorted(units)
                )
                raise KitgenError([located.problem(where + ("unit",), message.within(f"battles[{b}].units[{j}].unit"))])
            if (battle.hex, unit.faction) in state.evaded:
                message = msg.log_battle_evaded(unit.id, battle.hex).within(dotted(where))
                raise KitgenError([located.problem(where, message)])
            for kind in sorted(set(part.lost) | set(part.routed)):
                n = part.lost.get(kind, 0) + part.routed.get(kind, 0)
                if n > unit.stands.get(kind, 0):
                    message = msg.log_battle_too_many_lost(n, kind, unit.id, unit.stands.get(kind, 0))
                    raise KitgenError([located.problem(where, message.within(dotted(where)))])
            side: Side = "winner" if state.allied(unit.faction, battle.winner, state.turn) else "loser"
            exempt = bool(set(unit.flags) & set(rules.loser.routed_lost_exempt))
            stands = dict(unit.stands)
            gone_for_good = 0
            for kind in sorted(set(part.lost) | set(part.routed)):
                lost, routed = part.lost.get(kind, 0), part.routed.get(kind, 0)
                if not lost + routed:  # a form filled in with zeros
                    continue
                stands[kind] -= lost + routed
                if kind in rules.equipment_stands:  # II.B.3 equipment: rolled for by the winner, lost by the loser
                    back = routed if side == "winner" else 0
                    for k in range(1, lost + 1 if side == "winner" else 1):
                        purpose = f"II.B.3 {unit.id} {kind} {k} equipment, turn {state.turn}"
                        r = make_roll(campaign, log, purpose, rules.winner.equipment.roll)
                        rolls.append(r)
                        back += equipment_recovered(rules, side, r.value)
                    if side == "loser":
                        booty[kind] = booty.get(kind, 0) + routed
                    gone_for_good += lost + routed - back
                else:
                    result = losses(rules, side, lost, routed, exempt=exempt)
                    back = result.returning + result.routed_returning
                    gone_for_good += result.permanent + result.routed_lost
                if back:
                    returning.append((unit.id, kind, back))
            line, _ = located.position(where)
            back_total = sum(n for who, _, n in returning if who == unit.id) - sum(
                n for who, _, n in state.returning if who == unit.id
            )
            text = f"{unit.name}, {side}: {_stands(gone_for_good)} lost for good, {_stands(back_total)} back next turn"
            ammo = dict(unit.ammo)
            allotment = full_loads(campaign.scenario.supply, unit.stands)
            for kind, left in part.ammo_left.items():
                if kind not in allotment or not 0 <= left <= allotment[kind]:
                    allowed = ", ".join(f"{k} 0-{n}" for k, n in sorted(allotment.items()))
                    at = where + ("ammo_left",)
                    raise KitgenError(
                        [located.problem(at, msg.log_battle_ammo(kind, left, allowed).within(dotted(at)))]
                    )
                ammo[kind] = left
            unit = replace(unit, stands={k: n for k, n in stands.items() if n > 0}, ammo=ammo)
            if side == "loser":
                if part.retreat is None and not part.surrender:
                    message = msg.log_battle_loser_fate(unit.id).within(dotted(where))
                    raise KitgenError([located.problem(where, message)])
                if part.retreat is not None:
                    why = _retreat_blocked(campaign, board, state, unit, part.retreat, battle.hex)
                    if why:
                        at = where + ("retreat",)
                        raise KitgenError([located.problem(at, msg.log_battle_retreat_blocked(why).within(dotted(at)))])
                    unit = replace(unit, hex=part.retreat)
                    text += f"; retreats to {part.retreat}"
                else:
                    ways = [
                        n
                        for n in board.neighbours(battle.hex)
                        if _retreat_blocked(campaign, board, state, unit, n, battle.hex) is None
                    ]
                    if ways:
                        at = where + ("surrender",)
                        message = msg.log_battle_surrender_not_cornered(unit.id, ways).within(dotted(at))
                        raise KitgenError([located.problem(at, message)])
                    if exempt:  # II.B.1: Elite/Fanatic units do not surrender
                        text += "; cannot retreat: Elite/Fanatic, it must attack at once to break out or perish"
                        umpire.append(
                            f"{unit.name} is Elite/Fanatic: it must attack at once to break out or perish (II.B.1)"
                        )
                    else:
                        unit = replace(unit, hex="surrendered")
                        returning = [r for r in returning if r[0] != unit.id]  # captured with the unit
                        text = f"{unit.name}, loser: cannot retreat and surrenders, all its stands lost (II.B.1)"
            verdicts.append(Verdict(file, line, unit.faction, unit.id, f"battle {battle.hex}", "done", text, "II.B"))
            units[unit.id] = unit
        for j, part in enumerate(battle.units):  # II.B.3: the loser's routed equipment, captured
            if not part.captured:
                continue
            unit = units[part.unit]
            for kind, n in sorted((k, n) for k, n in part.captured.items() if n):
                if not state.allied(unit.faction, battle.winner, state.turn) or n < 0 or n > booty.get(kind, 0):
                    at = ("battles", b, "units", j, "captured")
                    spoils = ", ".join(f"{v} {k}" for k, v in sorted(booty.items())) or "none"
                    raise KitgenError(
                        [located.problem(at, msg.log_battle_captured(kind, n, spoils).within(dotted(at)))]
                    )
                booty[kind] -= n
                stands = {**unit.stands, kind: unit.stands.get(kind, 0) + n}
                unit = replace(unit, stands=dict(sorted(stands.items())))
            units[unit.id] = unit
    rejoining = {unit_id for unit_id, _, _ in returning}  # a unit wiped out still gets its returning stands
    kept = tuple(
        u for u in (units[x.id] for x in state.units) if (u.stands or u.id in rejoining) and u.hex != "surrendered"
    )
    return replace(
        state,
        units=kept,
        returning=tuple(returning),
        verdicts=tuple(verdicts),
        umpire=tuple(umpire),
        rolls=tuple(rolls),
    )


def _naval_gunfire(
    campaign: Campaign, board: Board, state: CampaignState, battle: Battle, b: int, located: Located, fired: set[str]
) -> list[str]:
    """D.3: ships that fired in support of a battle: at sea next to the coastal battle hex, or in
    its port; each worth its rating in batteries."""
    ships = {x["id"]: x for x in state.ships}
    coastal = {h.id for h in campaign.hex_map.hexes if h.coastal or h.port}
    sides = {u.faction for u in state.units if u.hex == battle.hex}
    notes = []
    for k, ship_id in enumerate(battle.ships):
        ship = ships.get(ship_id)
        where = ("battles", b, "ships", k)
        if ship is None or not any(state.allied(ship["faction"], f, state.turn) for f in sides):
            raise KitgenError([located.problem(where, msg.log_ship_not_in_battle(ship_id).within(dotted(where)))])
        if ship_id in fired:  # D.3: a ship's rating is its batteries for one battle a turn
            raise KitgenError([located.problem(where, msg.log_ship_fired(ship["name"]).within(dotted(where)))])
        fired.add(ship_id)
        close = ship["hex"] == battle.hex or (board.is_sea(ship["hex"]) and board.adjacent(ship["hex"], battle.hex))
        if battle.hex not in coastal or not close:
            message = msg.log_ship_out_of_range(ship["name"], ship["hex"], battle.hex).within(dotted(where))
            raise KitgenError([located.problem(where, message)])
        notes.append(f"D.3 {ship['name']} fires in support in {battle.hex}: {ship.get('gunfire', 0)} batteries")
    return notes


def _stands(n: int) -> str:
    return f"{n} stand" if n == 1 else f"{n} stands"


def _retreat_blocked(
    campaign: Campaign, board: Board, state: CampaignState, unit: UnitState, to: str, battle_hex: str
) -> str | None:
    """II.B.1: the loser retreats one hex from the enemy, a step it could move (no major river
    without a bridge, no open water, no p* terrain off the roads) into a hex free of enemies."""
    if any(u.hex == to and not state.allied(u.faction, unit.faction, state.turn) for u in state.units):
        return f"enemy units are in {to}"
    step = land_path(
        board,
        campaign.scenario.movement,
        unit.type,
        [battle_hex, to],
        mp_modifier=99,
        pontoons=friendly_pontoons(state, unit.faction),
    )
    return None if step.allowed else f"{battle_hex} to {to}: {step.reason}"


def breakdowns(campaign: Campaign, state: CampaignState, log: TurnLog) -> CampaignState:
    """A.4, A.5: every vehicle of a unit that moved on the map rolls for breakdown; a vehicle that
    breaks down is lost for the campaign (none roll when carried by train or ship)."""
    rules = campaign.scenario.movement
    rolls, notes = list(state.rolls), list(state.umpire)
    units = []
    for unit in state.units:
        stands = dict(unit.stands)
        for kind in sorted(stands) if unit.moved else []:  # A.4-A.5: per vehicle, of whatever unit
            check = breakdown_roll(rules, kind, carried=unit.carried)
            if check is None:
                continue
            for k in range(1, stands.get(kind, 0) + 1):
                vehicle = f"vehicle {k}" if kind == unit.type else f"{kind} {k}"
                purpose = f"{check.source} {unit.id} {vehicle} breakdown, turn {state.turn}"
                roll = make_roll(campaign, log, purpose, check.roll)
                rolls.append(roll)
                if breaks_down(check, roll.value):
                    stands[kind] -= 1
                    notes.append(
                        f"{check.source} {unit.name}: {vehicle} breaks down on a {roll.value}, lost for the campaign"
                    )
        stands = {kind: n for kind, n in stands.items() if n > 0}
        if stands == unit.stands:
            units.append(unit)
        elif stands:
            units.append(replace(unit, stands=stands))
    return replace(state, units=tuple(units), rolls=tuple(rolls), umpire=tuple(notes))


def partisans(campaign: Campaign, board: Board, state: CampaignState, log: TurnLog) -> CampaignState:
    """II.D.1-2 (phase 6): where the enemy meets a faction whose units there are all partisans,
    they try to evade (each side rolls a D6 plus modifiers; the partisans evade on a strictly
    higher total) or, if none of them moved this turn and the log says so, an ambush (a D6 of 6,
    +1 with Makhno). A fight needs no roll."""
    rules = campaign.scenario.partisans
    chosen = {(c.hex, c.faction): c.choice for c in log.partisans}
    makhno = campaign.scenario.find_commander("Makhno")
    by_hex: dict[str, list[UnitState]] = {}
    for u in state.units:
        by_hex.setdefault(u.hex, []).append(u)
    rolls, notes, evaded = list(state.rolls), list(state.umpire), set(state.evaded)
    for hex_id in sorted(by_hex):
        here = by_hex[hex_id]
        for faction in sorted({u.faction for u in here}):
            own = [u for u in here if u.faction == faction]
            foes = [u for u in here if not state.allied(u.faction, faction, state.turn)]
            if not foes or not all("partisan" in u.flags for u in own):
                continue
            choice = chosen.get((hex_id, faction), "evade")
            with_makhno = makhno is not None and any(
                u.commander and name_key(u.commander) == name_key(makhno.name) for u in own
            )
            if choice == "ambush" and not any(u.moved for u in own):
                mod = total_modifier(rules.ambush.modifiers, [MAKHNO_PRESENT] if with_makhno else [])
                roll = make_roll(
                    campaign, log, f"II.D.2 {faction} ambush in {hex_id}, turn {state.turn}", rules.ambush.roll
                )
                rolls.append(roll)
                result = (
                    "springs the ambush: the enemy sets up first, the partisans round it"
                    if ambush_succeeds(rules, roll.value, mod)
                    else "fails to ambush"
                )
                notes.append(f"II.D.2 {faction} in {hex_id}: {roll.value}{mod:+d}: {result}")
            elif choice == "evade" or choice == "ambush":
                conditions = [MAKHNO_PRESENT] if with_makhno else []
                if board.terrain.get(hex_id) in ("forest", "mountain"):
                    conditions.append(FOREST_OR_MOUNTAIN)
                if not any("cavalry" in u.stands for u in foes):
                    conditions.append(ENEMY_WITHOUT_CAVALRY)
                mod = total_modifier(rules.evade.modifiers, conditions)
                mine = make_roll(
                    campaign, log, f"II.D.1 {faction} evade in {hex_id}, turn {state.turn}", rules.evade.roll
                )
                theirs = make_roll(
                    campaign, log, f"II.D.1 enemy of {faction} in {hex_id}, turn {state.turn}", rules.evade.roll
                )
                rolls += [mine, theirs]
                if evades(mine.value, theirs.value, mod):
                    evaded.add((hex_id, faction))
                    notes.append(
                        f"II.D.1 {faction} in {hex_id} evade ({mine.value}{mod:+d} against {theirs.value}): no battle"
                    )
                else:
                    notes.append(
                        f"II.D.1 {faction} in {hex_id} fail to evade ({mine.value}{mod:+d} against {theirs.value})"
                    )
    return replace(state, rolls=tuple(rolls), umpire=tuple(notes), evaded=frozenset(evaded))


def settle(campaign: Campaign, board: Board, state: CampaignState) -> CampaignState:
    """Contacts for the tabletop; trains and depots captured (II.B.2: non-armoured trains and
    depots are captured when enemy units enter their hex); towns passing to the faction that
    holds them alone."""
    by_hex: dict[str, set[str]] = {}
    for u in state.units:
        if (u.hex, u.faction) not in state.evaded:  # II.D.1: "the nonpartisan unit is assumed to be there only"
            by_hex.setdefault(u.hex, set()).add(u.faction)
    contacts = tuple(
        sorted(h for h, fs in by_hex.items() if any(not state.allied(a, b, state.turn) for a in fs for b in fs))
    )
    trains: list[dict[str, Any]] = []
    depots: list[dict[str, Any]] = []
    for items, into in ((state.trains, trains), (state.depots, depots)):
        for item in items:
            there = by_hex.get(item["hex"], set())
            takers = sorted(f for f in there if not state.allied(f, item["faction"], state.turn))
            if len(there) == 1 and takers and not item.get("armoured"):  # II.B.2: an enemy alone in the hex
                item = {**item, "faction": takers[0], **({"uses": 0} if "uses" in item else {})}
            into.append(item)
    state = replace(state, trains=tuple(trains), depots=tuple(depots))
    state = _take_abandoned(campaign, state, by_hex)
    state = _artillery_cap(campaign, state)
    owners = dict(state.owners)
    for hex_id, towns in board.towns.items():
        factions = by_hex.get(hex_id, set())
        if len(factions) == 1:
            for town in towns:
                owners[town] = next(iter(factions))
    return replace(state, contacts=contacts, owners=owners)


def _take_abandoned(campaign: Campaign, state: CampaignState, by_hex: dict[str, set[str]]) -> CampaignState:
    """B.8 (ruling out_of_fuel): an enemy unit that enters the hex of an intact abandoned vehicle
    takes it: the vehicles join the order of battle of the one faction there."""
    units, left, notes = list(state.units), [], list(state.umpire)
    for item in state.abandoned:
        takers = sorted(f for f in by_hex.get(item["hex"], set()) if not state.allied(f, item["faction"], state.turn))
        if len(takers) != 1 or len(by_hex[item["hex"]]) != 1:
            left.append(item)
            continue
        kind = next(iter(item["stands"]))
        units.append(
            UnitState(
                id=f"{item['unit']}_taken",
                name=f"Captured {kind.replace('_', ' ')}s",
                faction=takers[0],
                type=kind,
                stands=dict(item["stands"]),
                hex=item["hex"],
                moved=True,
                ammo=full_loads(campaign.scenario.supply, item["stands"]),
            )
        )
        notes.append(f"B.8 the {takers[0]} take the vehicles abandoned in {item['hex']}")
    return replace(state, units=tuple(units), abandoned=tuple(left), umpire=tuple(notes))


def _artillery_cap(campaign: Campaign, state: CampaignState) -> CampaignState:
    """II.D.4: the Makhnovists never have more than 3 batteries; guns beyond the cap are destroyed
    (RULES-NOTES), the last gained first."""
    rules = campaign.scenario.partisans
    cap, faction = rules.artillery_cap, rules.artillery_cap_faction
    total = sum(u.stands.get("artillery", 0) for u in state.units if u.faction == faction)
    if total <= cap:
        return state
    excess, units = total - cap, []
    for u in reversed(state.units):
        if u.faction == faction and excess and u.stands.get("artillery"):
            cut = min(excess, u.stands["artillery"])
            excess -= cut
            stands = {k: n - (cut if k == "artillery" else 0) for k, n in u.stands.items()}
            u = replace(u, stands={k: n for k, n in stands.items() if n > 0})
        if u.stands:
            units.append(u)
    note = f"II.D.4 the {faction} may have no more than {cap} batteries: {total - cap} destroyed"
    return replace(state, units=tuple(reversed(units)), umpire=(*state.umpire, note))


def award_vp(campaign: Campaign, state: CampaignState, log: TurnLog) -> CampaignState:
    """E.2: every 3rd turn each faction adds the VP of the towns it holds; E.3: the Reds add 3D6."""
    vp = dict(state.vp)
    for town in campaign.scenario.towns:
        owner = state.owners.get(town.name, "none")
        if owner in vp:
            vp[owner] += town.vp.get(owner) or 0
    rolls = list(state.rolls)
    for faction, dice in sorted(campaign.scenario.victory.bonus.items()):
        purpose = f"E.3 {faction} {dice} bonus VP, turn {state.turn}"
        roll = make_roll(campaign, log, purpose, dice)
        rolls.append(roll)
        vp[faction] = vp.get(faction, 0) + roll.value
    victory = campaign.scenario.victory
    draws = dict(state.draws)  # with any an event card gave this turn
    for faction, threshold in sorted(victory.thresholds.items()):
        k = 0
        while vp.get(faction, 0) >= threshold:  # RULES-NOTES: subtract and roll again while still at or above it
            k += 1
            chart = victory.reinforcement_chart.roll
            roll = make_roll(campaign, log, f"II.E.2 {faction} reinforcement chart, roll {k}, turn {state.turn}", chart)
            rolls.append(roll)
            draws[faction] = draws.get(faction, 0) + reinforcement_draws(victory, faction, roll.value)
            vp[faction] -= threshold
    return makhnovist_strength(campaign, replace(state, vp=vp, rolls=tuple(rolls), draws=draws), log)


def draw_slips(campaign: Campaign, state: CampaignState) -> CampaignState:
    """II.E: the draws owed are drawn from the faction's pile (shuffled from the seed for each
    draw); a slip goes back into the pile unless it says otherwise. Placing what arrives is the
    umpire's: the log's `place` orders put them on the map (E.3-E.5)."""
    cards = {slip.id: slip for pile in campaign.scenario.cards.piles.values() for slip in pile}
    piles = dict(state.piles)
    drawn: dict[str, tuple[str, ...]] = dict(state.slips)  # with any still waiting to be placed
    notes = list(state.umpire)
    for faction, count in sorted({**state.draws}.items()):
        pile = list(piles.get(faction, ()))
        for k in range(1, count + 1):
            if not pile:
                break
            rng = random.Random(seed_for(campaign, f"II.E {faction} draw {k}, turn {state.turn}"))
            slip = cards[pile[rng.randrange(len(pile))]]
            drawn[faction] = (*drawn.get(faction, ()), slip.id)
            if not slip.returns_to_pile:
                pile.remove(slip.id)
            notes.append(f"{faction} draw {k}: {slip.text}")
        piles[faction] = tuple(pile)
    return replace(state, piles=piles, slips=drawn, umpire=tuple(notes))


def makhnovist_strength(campaign: Campaign, state: CampaignState, log: TurnLog) -> CampaignState:
    """E.6: every 3rd turn the Makhnovists roll on their Current Strength Chart, -1 if they do
    not hold Gulai Pole, -2 if Makhno is dead, for the forces they may field the next three turns."""
    chart = campaign.scenario.victory.makhnovist_strength
    faction = chart.faction
    if not any(u.faction == faction for u in state.units) and faction not in state.owners.values():
        return state
    gulai_pole = next((t.name for t in campaign.scenario.towns if name_key(t.name) == name_key("Gulai Pole")), None)
    holds = gulai_pole is not None and state.owners.get(gulai_pole) == faction
    makhno = campaign.scenario.find_commander("Makhno")
    alive = makhno is None or any(u.commander and name_key(u.commander) == name_key(makhno.name) for u in state.units)
    modifier = makhnovist_modifier(campaign.scenario.victory, holds_gulai_pole=holds, makhno_alive=alive)
    roll = make_roll(campaign, log, f"E.6 {faction} strength, turn {state.turn}", chart.roll)
    total = roll.value + modifier
    row = next((r for r in campaign.scenario.cards.makhnovist_strength if r.low <= total <= r.high), None)
    text = row.text if row else f"no row for {total}"
    note = f"E.6 {faction}: {roll.value}{modifier:+d} = {total}: {text}"
    return replace(state, rolls=(*state.rolls, roll), makhnovist_strength=text, umpire=(*state.umpire, note))
