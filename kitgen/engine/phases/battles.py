"""Phases 7-8 (II.B, D.3): the tabletop battles as the log reports them, and their results unit
by unit: stands lost for good or back next turn, equipment, retreats and surrenders."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from kitgen import messages as msg
from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource, Turn
from kitgen.engine.logcheck import check_battles
from kitgen.engine.phases.pontoons import friendly_pontoons
from kitgen.engine.phases.postbattle import contact_groups
from kitgen.engine.phases.sea import ships_lost
from kitgen.engine.rolls import roll as make_roll
from kitgen.engine.state import BattleResult, BreakoutOwed, CampaignState, NavalFire, StandLoss, UnitState, Verdict
from kitgen.engine.turnlog import Battle, TurnLog
from kitgen.errors import KitgenError
from kitgen.mapping.board import Board
from kitgen.rules.battle import Side, equipment_recovered, losses
from kitgen.rules.paths import land_path
from kitgen.rules.supply import full_loads
from kitgen.validation import dotted


def run(turn: Turn, state: CampaignState) -> CampaignState:
    check_battles(turn.source, turn.log, state, turn.board, turn.campaign)
    state = battles(turn.campaign, turn.board, state, turn.log, turn.source)
    return ships_lost(state, turn.log, turn.source)


def battles(campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: LogSource) -> CampaignState:
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
    file = located.name
    fired: set[str] = set()
    naval: list[NavalFire] = []
    judged: dict[tuple[int, str], BattleResult] = {}
    owed: dict[str, tuple[str, int, int]] = {}
    """II.B.1: Elite/Fanatic units beaten where they cannot retreat -> (hex, battle, part) until
    the log reports their breakout."""
    lost_in: dict[str, tuple[str, ...]] = {}
    """The hexes of the battle each of them lost: a breakout is into another hex."""
    groups = {h: g for g in contact_groups(state) for h in g}
    """A battle is fought in its hex and across a hexside where enemy moves met (ruling)."""
    for b, battle in enumerate(log.battles):
        field = groups.get(battle.hex, (battle.hex,))
        booty: dict[str, int] = {}
        for j, part in enumerate(battle.units):  # II.B.1: a breakout attacks from the unit's hex into this one
            if part.breakout:
                units[part.unit] = _breaking_out(board, state, units, owed, lost_in, battle, b, j, located)
        losers = [
            p.unit
            for p in battle.units
            if p.unit in units
            and units[p.unit].hex in field
            and units[p.unit].aboard is None
            and not state.allied(units[p.unit].faction, battle.winner, state.turn)
        ]
        if not losers:
            message = msg.log_battle_no_loser(battle.hex).within(f"battles[{b}]")
            raise KitgenError([located.problem(("battles", b), message)])
        fire = _naval_gunfire(campaign, board, state, battle, field, b, located, fired)
        naval += fire
        names = {x["id"]: x["name"] for x in state.ships}
        umpire += [f"D.3 {names[f.ship]} fires in support in {f.hex}: {f.batteries} batteries" for f in fire]
        sides = {units[p.unit].faction for p in battle.units if p.unit in units}
        if not any(state.allied(f, battle.winner, state.turn) for f in sides):
            message = msg.log_battle_no_winner(battle.winner, battle.hex).within(f"battles[{b}].winner")
            raise KitgenError([located.problem(("battles", b, "winner"), message)])
        for j, part in enumerate(battle.units):
            where = ("battles", b, "units", j)
            unit = units.get(part.unit)
            if unit is None or unit.hex not in field or unit.aboard is not None:  # D.1: none fight from aboard
                where_now = None if unit is None else unit.hex
                if unit is not None and unit.aboard is not None:
                    where_now = f"{unit.hex}, aboard ship {unit.aboard}"
                message = msg.log_battle_unit_elsewhere(part.unit, where_now, battle.hex, sorted(units))
                raise KitgenError([located.problem(where + ("unit",), message.within(f"battles[{b}].units[{j}].unit"))])
            if (unit.hex, unit.faction) in state.evaded:
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
            kinds: list[StandLoss] = []
            for kind in sorted(set(part.lost) | set(part.routed)):
                lost, routed = part.lost.get(kind, 0), part.routed.get(kind, 0)
                if not lost + routed:  # a form filled in with zeros
                    continue
                stands[kind] -= lost + routed
                if kind in rules.equipment_stands:  # II.B.3 equipment: rolled for by the winner, lost by the loser
                    back = routed if side == "winner" else 0
                    equipment = []
                    for k in range(1, lost + 1 if side == "winner" else 1):
                        what = f"{unit.id} {kind} {k} equipment, turn {state.turn}"
                        r = make_roll(campaign, log, "II.B.3", what, rules.winner.equipment.roll, units=(unit.id,))
                        rolls.append(r)
                        equipment.append(r.value)
                        back += equipment_recovered(rules, side, r.value)
                    if side == "loser":
                        booty[kind] = booty.get(kind, 0) + routed
                    gone_for_good += lost + routed - back
                    kinds.append(StandLoss(kind, lost, routed, lost + routed - back, back, 0, tuple(equipment)))
                else:
                    result = losses(rules, side, lost, routed, exempt=exempt)
                    back = result.returning + result.routed_returning
                    gone_for_good += result.permanent + result.routed_lost
                    kinds.append(StandLoss(kind, lost, routed, result.permanent, back, result.routed_lost))
                if back:
                    returning.append((unit.id, kind, back))
            line, column = located.position(where)
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
            fate = "holds"
            if part.breakout:
                fate = "breaks_out"
                text += f"; breaks out into {battle.hex} (II.B.1)"
                if side == "loser":  # II.B.1: "to break out or perish"
                    fate = "perishes"
                    unit = replace(unit, hex="perished")
                    returning = [r for r in returning if r[0] != unit.id]
                    text = (
                        f"{unit.name}, loser of its breakout into {battle.hex}: perishes, all its stands lost (II.B.1)"
                    )
            elif side == "loser":
                if part.retreat is None and not part.surrender and not exempt:
                    message = msg.log_battle_loser_fate(unit.id).within(dotted(where))
                    raise KitgenError([located.problem(where, message)])
                if part.retreat is not None:
                    why = retreat_blocked(campaign, board, state, unit, part.retreat, unit.hex, units.values())
                    if why:
                        at = where + ("retreat",)
                        raise KitgenError([located.problem(at, msg.log_battle_retreat_blocked(why).within(dotted(at)))])
                    unit = replace(unit, hex=part.retreat)
                    fate = "retreats"
                    text += f"; retreats to {part.retreat}"
                else:
                    ways = [
                        n
                        for n in board.neighbours(unit.hex)
                        if retreat_blocked(campaign, board, state, unit, n, unit.hex, units.values()) is None
                    ]
                    if ways and not part.surrender:  # an Elite/Fanatic loser with a way out
                        message = msg.log_battle_loser_fate(unit.id).within(dotted(where))
                        raise KitgenError([located.problem(where, message)])
                    if ways:
                        at = where + ("surrender",)
                        message = msg.log_battle_surrender_not_cornered(unit.id, ways).within(dotted(at))
                        raise KitgenError([located.problem(at, message)])
                    if exempt:  # II.B.1: Elite/Fanatic units do not surrender: they break out or perish
                        text += "; cannot retreat: Elite/Fanatic, it must attack at once to break out or perish"
                        owed[unit.id] = (unit.hex, b, j)
                        lost_in[unit.id] = field
                        fate = "must_break_out"
                    else:
                        unit = replace(unit, hex="surrendered")
                        fate = "surrenders"
                        returning = [r for r in returning if r[0] != unit.id]  # captured with the unit
                        text = f"{unit.name}, loser: cannot retreat and surrenders, all its stands lost (II.B.1)"
            verdicts.append(
                Verdict(
                    file,
                    line,
                    unit.faction,
                    unit.id,
                    f"battle {battle.hex}",
                    "done",
                    text,
                    "II.B",
                    kind="battle",
                    column=column,
                )
            )
            deserted = sum(x.deserted for x in kinds)
            permanent = sum(x.permanent for x in kinds)
            judged[(b, unit.id)] = BattleResult(
                b,
                battle.hex,
                unit.id,
                unit.faction,
                side,
                tuple(kinds),
                permanent,
                sum(x.returning for x in kinds),
                deserted,
                fate,
                part.retreat if fate == "retreats" else None,
            )
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
                taken = judged[(b, unit.id)]
                judged[(b, unit.id)] = replace(taken, captured={**taken.captured, kind: n})
                stands = {**unit.stands, kind: unit.stands.get(kind, 0) + n}
                unit = replace(unit, stands=dict(sorted(stands.items())))
            units[unit.id] = unit
    for unit_id, (hex_id, _, _) in owed.items():  # unfinished business: validate warns of it
        umpire.append(
            f"{units[unit_id].name} is Elite/Fanatic and cannot retreat from {hex_id}: it must attack at once "
            "to break out or perish (II.B.1), and the log reports no breakout battle"
        )
    rejoining = {unit_id for unit_id, _, _ in returning}  # a unit wiped out still gets its returning stands
    kept = tuple(
        u
        for u in (units[x.id] for x in state.units)
        if (u.stands or u.id in rejoining) and u.hex not in ("surrendered", "perished")
    )
    return replace(
        state,
        breakouts_owed=tuple(BreakoutOwed(u, h, b, j) for u, (h, b, j) in owed.items()),
        units=kept,
        returning=tuple(returning),
        verdicts=tuple(verdicts),
        umpire=tuple(umpire),
        rolls=tuple(rolls),
        battle_results=(*state.battle_results, *judged.values()),
        naval_fire=(*state.naval_fire, *naval),
        lost_battle=tuple(sorted({r.unit for r in judged.values() if r.side == "loser"} & {u.id for u in kept})),
    )


def _breaking_out(
    board: Board,
    state: CampaignState,
    units: dict[str, UnitState],
    owed: dict[str, tuple[str, int, int]],
    lost_in: dict[str, tuple[str, ...]],
    battle: Battle,
    b: int,
    j: int,
    located: LogSource,
) -> UnitState:
    """II.B.1: the unit breaking out, placed in the battle's hex for the battle: it must owe a
    breakout from an earlier battle this turn, into an adjacent hex where enemy units are."""
    unit_id = battle.units[j].unit
    unit = units.get(unit_id)
    at = ("battles", b, "units", j, "breakout")
    if unit is None or unit_id not in owed:
        why = "it lost no battle this turn where it could not retreat (Elite/Fanatic)"
        raise KitgenError([located.problem(at, msg.log_breakout_bad(unit_id, why).within(dotted(at)))])
    hex_id = owed.pop(unit_id)[0]
    foes = [
        u
        for u in _there(state, units.values())
        if u.hex == battle.hex and not state.allied(u.faction, unit.faction, state.turn)
    ]
    if battle.hex in lost_in.get(unit_id, ()):
        why = f"it breaks out into {battle.hex}, a hex of the battle it lost: a breakout attacks another hex"
        raise KitgenError([located.problem(at, msg.log_breakout_bad(unit_id, why).within(dotted(at)))])
    if not board.adjacent(hex_id, battle.hex) or not foes:
        why = f"it breaks out of {hex_id} into {battle.hex}, which is not an adjacent hex with enemy units"
        raise KitgenError([located.problem(at, msg.log_breakout_bad(unit_id, why).within(dotted(at)))])
    return replace(unit, hex=battle.hex)


def _naval_gunfire(
    campaign: Campaign,
    board: Board,
    state: CampaignState,
    battle: Battle,
    field: tuple[str, ...],
    b: int,
    located: LogSource,
    fired: set[str],
) -> list[NavalFire]:
    """D.3: ships that fired in support of a battle (fought in the hexes of `field`): at sea next
    to the coastal battle hex, or in its port; each worth its rating in batteries."""
    ships = {x["id"]: x for x in state.ships}
    sides = {u.faction for u in state.units if u.hex in field}
    notes = []
    for k, ship_id in enumerate(battle.ships):
        ship = ships.get(ship_id)
        where = ("battles", b, "ships", k)
        if ship is None or not any(state.allied(ship["faction"], f, state.turn) for f in sides):
            raise KitgenError([located.problem(where, msg.log_ship_not_in_battle(ship_id).within(dotted(where)))])
        if ship_id in fired:  # D.3: a ship's rating is its batteries for one battle a turn
            raise KitgenError([located.problem(where, msg.log_ship_fired(ship["name"]).within(dotted(where)))])
        fired.add(ship_id)
        if not any(gunfire_reaches(board, ship["hex"], h) for h in field):  # either hex of a hexside contact
            message = msg.log_ship_out_of_range(ship["name"], ship["hex"], battle.hex).within(dotted(where))
            raise KitgenError([located.problem(where, message)])
        notes.append(NavalFire(ship_id, ship["faction"], battle.hex, ship["hex"], int(ship.get("gunfire", 0))))
    return notes


def gunfire_reaches(board: Board, ship_hex: str, battle_hex: str) -> bool:
    """D.3: a ship's guns reach a coastal battle hex from the sea next to it, or from its port."""
    coastal = battle_hex in board.coastal or board.is_port(battle_hex)
    close = ship_hex == battle_hex or (board.is_sea(ship_hex) and board.adjacent(ship_hex, battle_hex))
    return coastal and close


def _stands(n: int) -> str:
    return f"{n} stand" if n == 1 else f"{n} stands"


def _there(state: CampaignState, units: Iterable[UnitState]) -> list[UnitState]:
    """The units on the map as the battles have left them so far: none aboard a ship, no
    partisans who evaded (II.D.1)."""
    return [u for u in units if u.aboard is None and (u.hex, u.faction) not in state.evaded]


def retreat_blocked(
    campaign: Campaign,
    board: Board,
    state: CampaignState,
    unit: UnitState,
    to: str,
    battle_hex: str,
    now: Iterable[UnitState],
) -> str | None:
    """II.B.1: the loser retreats one hex from the enemy, a step it could move (no major river
    without a bridge, no open water, no p* terrain off the roads) into a hex free of enemies
    where they stand now (earlier battles this turn may have moved them)."""
    if any(u.hex == to and not state.allied(u.faction, unit.faction, state.turn) for u in _there(state, now)):
        return f"enemy units are in {to}"
    step = land_path(
        board,
        campaign.scenario.movement,
        unit.type,
        [battle_hex, to],
        mp_modifier=99,
        pontoons=friendly_pontoons(state, unit.faction),
    )
    return None if step.complete else f"{battle_hex} to {to}: {step.reason}"
