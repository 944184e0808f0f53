"""Phase 3 (II.C): command control rolls for every hex with ordered units."""

from __future__ import annotations

from dataclasses import replace

from kitgen.engine.context import Turn, modifier
from kitgen.engine.rolls import roll as make_roll
from kitgen.engine.state import CampaignState, CommandRoll
from kitgen.model.scenario import Commander
from kitgen.rules.command import obey_target


def run(turn: Turn, state: CampaignState) -> CampaignState:
    """II.C: for each hex with ordered units, the highest-ranking commander there rolls a D10 and
    obeys at or under his rating; units with no commander roll each, 1-4 with a commander
    adjacent, 1-3 if not; each failure in a row makes the next roll 1 easier (II.C.4). The state
    carries the rolls, the failures and the units held back, with why; a unit on a retreat order
    is held only from its other orders (II.C.2: "Units can always continue to retreat"), which
    the land phase reads from the order."""
    campaign, board, log = turn.campaign, turn.board, turn.log
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
    judged: list[CommandRoll] = []
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
            target = obey_target(rules, rating, failures=before, adjacent=adjacent) - modifier(
                state, "command", faction
            )
            roll = make_roll(campaign, log, f"II.C {key} command roll, turn {state.turn}", rules.roll)
            rolls.append(roll)
            obeyed = roll.value <= target
            judged.append(
                CommandRoll(
                    faction=faction,
                    hex=hex_id,
                    commander=key if rating is not None else None,
                    rating=rating,
                    adjacent=adjacent,
                    failures_before=before,
                    target=target,
                    roll=roll.value,
                    obeyed=obeyed,
                    units=tuple(members),
                )
            )
            if obeyed:
                failures.pop(key, None)
                continue
            failures[key] = before + 1
            who = key if rating is not None else "no commander in the hex"
            for unit_id in members:
                halted[unit_id] = f"command roll {roll.value} over {target} ({who}): the unit does not move, II.C.2"
    return replace(state, rolls=tuple(rolls), command_failures=failures, held=halted, commands=tuple(judged))
