"""Section B beyond the trace: ammunition loads (B.5-B.6), depots used for resupply and their
cut-off rolls (B.7), vehicles out of fuel and abandoned (B.8)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource
from kitgen.engine.rolls import roll as make_roll
from kitgen.engine.state import CampaignState, DepotRoll, Result, UnitState, Verdict
from kitgen.engine.turnlog import TurnLog
from kitgen.model.rules import SupplyRules
from kitgen.rules.supply import abandoned_vehicle, depot_emptied, depot_empty_target, full_loads


def depot_what(hex_id: str, use: int, turn: int) -> str:
    """What a cut-off depot's roll decides (B.7): its purpose after its rule."""
    return f"depot in {hex_id} cut off, use {use}, turn {turn}"


def vehicles(rules: SupplyRules, unit: UnitState) -> dict[str, int]:
    return {k: n for k, n in unit.stands.items() if k in rules.fuel.vehicles and n > 0}


def after_judgement(campaign: Campaign, state: CampaignState, log: TurnLog) -> CampaignState:
    """Once supply is judged (B.2), for units out of supply: B.6 they keep the loads they had; B.8
    a vehicle unit that starts a turn out of supply after its one move out of it is immobilised,
    and abandoned if it starts the next one still out of supply (vehicles carried by another
    kind of unit are abandoned at once)."""
    rules = campaign.scenario.supply
    units: list[UnitState] = []
    rolls, notes, abandoned = list(state.rolls), list(state.umpire), list(state.abandoned)
    for unit in state.units:  # judge_supply has filled the loads of units in supply
        if unit.in_supply:
            units.append(unit)
            continue
        # stands gone since drop their loads; stands new to the unit (captured, given) come full
        ammo = {**full_loads(rules, unit.stands), **{k: v for k, v in unit.ammo.items() if unit.stands.get(k)}}
        if ammo != unit.ammo:
            unit = replace(unit, ammo=ammo)
        cars = vehicles(rules, unit)
        if not cars or unit.moves_out_of_supply < rules.fuel.moves_out_of_supply:
            units.append(unit)
            continue
        if unit.type in rules.fuel.vehicles and not unit.immobilised:
            notes.append(
                f"B.8 {unit.name}: out of fuel in {unit.hex}, immobilised; abandoned next turn unless supply is restored"
            )
            units.append(replace(unit, immobilised=True))
            continue
        roll = make_roll(
            campaign, log, "B.8", f"{unit.id} abandoned, turn {state.turn}", rules.fuel.abandon_roll, units=(unit.id,)
        )
        rolls.append(roll)
        fate = abandoned_vehicle(rules, roll.value)
        if fate == "intact":
            abandoned.append({"faction": unit.faction, "unit": unit.id, "stands": cars, "hex": unit.hex})
        left = {k: n for k, n in unit.stands.items() if k not in cars}
        what = ", ".join(f"{n} {k}" for k, n in sorted(cars.items()))
        notes.append(
            f"B.8 {unit.name}: out of fuel in {unit.hex}, abandoned ({what}): "
            f"roll {roll.value}, {'left intact' if fate == 'intact' else 'destroyed by the crew'}"
        )
        if left:  # the vehicles are abandoned; the rest of the unit goes on (ruling out_of_fuel)
            units.append(replace(unit, stands=left, moves_out_of_supply=0))
    return replace(state, units=tuple(units), rolls=tuple(rolls), umpire=tuple(notes), abandoned=tuple(abandoned))


def used_fuel(campaign: Campaign, state: CampaignState, started_out: set[str]) -> CampaignState:
    """B.8: a vehicle unit that started the turn out of supply (`started_out`: as judged, not
    as a card made it since) and moved on the map has used its one turn of movement."""
    rules = campaign.scenario.supply
    units = tuple(
        replace(u, moves_out_of_supply=u.moves_out_of_supply + 1)
        if u.id in started_out and u.moved and not u.carried and vehicles(rules, u)
        else u
        for u in state.units
    )
    return replace(state, units=units)


def judge_depots(state: CampaignState, traced: dict[str, bool]) -> CampaignState:
    """B.7: a depot is cut off while no supply trace reaches it; the count of its turns of use
    starts again once supply is restored at the start of a turn."""
    depots = []
    for d in state.depots:
        cut_off = not traced.get(d["hex"] + ":" + d["faction"], False)
        depots.append({**d, "cut_off": cut_off, "uses": d.get("uses", 0) if cut_off else 0})
    return replace(state, depots=tuple(depots))


def resupply(
    campaign: Campaign, state: CampaignState, log: TurnLog, located: LogSource, halted: dict[str, str]
) -> CampaignState:
    """B.5, B.7 (after movement): a unit that stayed all turn in a friendly depot's hex renews its
    loads; a cut-off depot rolls once for the turn it is used, and on its number is found empty."""
    rules = campaign.scenario.supply
    units = {u.id: u for u in state.units}
    depots: list[dict[str, Any]] = [dict(d) for d in state.depots]
    verdicts, rolls = list(state.verdicts), list(state.rolls)
    rolled: dict[str, bool] = {}
    cut_off_rolls: list[DepotRoll] = []
    file = located.name
    for faction, orders in log.resupply.items():
        for i, order in enumerate(orders):
            line, column = located.position(("resupply", faction, i))
            unit = units.get(order.unit)
            if unit is None:
                verdicts.append(
                    Verdict(
                        file,
                        line,
                        faction,
                        order.unit,
                        "resupply",
                        "void",
                        f"{order.unit} is gone: void",
                        "B.5",
                        kind="resupply",
                        column=column,
                    )
                )
                continue
            depot = next((d for d in depots if d["hex"] == unit.hex and d["faction"] == faction), None)
            result: Result
            result, why, rule = "void", "", "B.5"
            if unit.id in halted:
                result, why, rule = "held", halted[unit.id], "II.C"
            elif depot is None:
                why = f"no {faction} depot in {unit.hex}: void"
            elif unit.moved:
                why = "it moved this turn; resupply takes the full turn stationary: void"
            elif unit.in_supply:
                why = "in supply, its loads are full already: void"
            elif not depot["cut_off"]:
                result, why = "done", f"full loads from the depot in {unit.hex}"
            else:
                if unit.hex not in rolled:
                    depot["uses"] = depot.get("uses", 0) + 1
                    what = depot_what(unit.hex, depot["uses"], state.turn)
                    r = make_roll(campaign, log, "B.7", what, rules.depot_cutoff.roll)
                    rolls.append(r)
                    rolled[unit.hex] = depot_emptied(rules, depot["uses"], r.value)
                    depot["empty"] = rolled[unit.hex]
                    target = depot_empty_target(rules, depot["uses"])
                    cut_off_rolls.append(DepotRoll(unit.hex, faction, depot["uses"], r.value, target, rolled[unit.hex]))
                target = depot_empty_target(rules, depot["uses"])
                rule = "B.7"
                if rolled[unit.hex]:
                    why = f"the cut-off depot in {unit.hex} is found empty (a roll at or under {target}): void"
                else:
                    result = "done"
                    why = f"full loads from the cut-off depot in {unit.hex} (it empties at or under {target})"
            if result == "done":
                units[unit.id] = replace(unit, ammo=full_loads(rules, unit.stands))
            text = f"{unit.name}: resupply: {why}"
            verdicts.append(
                Verdict(file, line, faction, unit.id, "resupply", result, text, rule, kind="resupply", column=column)
            )
    return replace(
        state,
        units=tuple(units[u.id] for u in state.units),
        depots=tuple(d for d in depots if not d.pop("empty", False)),
        depot_rolls=(*state.depot_rolls, *cut_off_rolls),
        verdicts=tuple(verdicts),
        rolls=tuple(rolls),
    )


def tabletop_moves(campaign: Campaign, state: CampaignState, log: TurnLog) -> CampaignState:
    """B.8 (once contacts are found): an out-of-supply vehicle in a battle gets 2D6 moves on the tabletop."""
    fuel = campaign.scenario.supply.fuel
    rolls, notes = list(state.rolls), list(state.umpire)
    present: dict[str, set[str]] = {}
    for u in state.units:
        if (u.hex, u.faction) not in state.evaded and u.aboard is None:  # D.1: none fight from aboard
            present.setdefault(u.hex, set()).add(u.faction)
    for unit in state.units:
        if unit.aboard is not None:
            continue
        foes = [f for f in present.get(unit.hex, ()) if not state.allied(f, unit.faction, state.turn)]
        if foes and unit.in_supply is False and vehicles(campaign.scenario.supply, unit):
            r = make_roll(
                campaign, log, "B.8", f"{unit.id} tabletop moves, turn {state.turn}", fuel.tabletop_moves_roll
            )
            rolls.append(r)
            notes.append(f"B.8 {unit.name} is out of supply: {r.value} moves in the battle in {unit.hex}")
    return replace(state, rolls=tuple(rolls), umpire=tuple(notes))
