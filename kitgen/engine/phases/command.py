"""Phase 3 (II.C): command control rolls for every hex with ordered units."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from kitgen.campaign import Campaign
from kitgen.engine.context import Turn, modifier
from kitgen.engine.rolls import roll as make_roll
from kitgen.engine.state import CampaignState, CommandRoll
from kitgen.mapping.board import Board
from kitgen.model.scenario import Commander
from kitgen.rules.command import obey_target


@dataclass(frozen=True)
class CommandGroup:
    """II.C: one command control roll a turn would make: who rolls, for which units, and the
    highest roll that obeys."""

    faction: str
    hex: str
    key: str
    """The highest-ranking commander's name, or the id of a unit with no commander in its hex
    (it rolls alone): what II.C.4's failures in a row are counted by."""
    rating: int | None
    """The commander's dependability, None for a leaderless unit."""
    adjacent: bool
    """Leaderless: a friendly commander stands in an adjacent hex (1-4 rather than 1-3)."""
    failures: int
    """II.C.4: failures in a row before this roll."""
    target: int
    """Obeys on a roll at or under this, card modifiers included."""
    units: tuple[str, ...]

    def purpose(self, turn: int) -> str:
        return command_purpose(self.key, turn)

    def what(self, turn: int) -> str:
        return command_what(self.key, turn)


COMMAND_RULE = "II.C"


def command_purpose(key: str, turn: int) -> str:
    """The purpose of a command roll, as the log's `dice:` names it."""
    return f"{COMMAND_RULE} {command_what(key, turn)}"


def command_what(key: str, turn: int) -> str:
    """What a command roll decides, its purpose after its rule."""
    return f"{key} command roll, turn {turn}"


def command_groups(
    campaign: Campaign, board: Board, state: CampaignState, ordered: Iterable[tuple[str, str]]
) -> list[CommandGroup]:
    """II.C: the rolls for the (faction, unit id) pairs `ordered`, by faction and hex: in a hex
    with a commander of the faction, the highest-ranking one rolls once for its ordered units;
    elsewhere each unit rolls alone, obeying on 1-4 with a commander adjacent, 1-3 if not; each
    failure in a row makes the next roll easier (II.C.4), and a card's command modifier, added
    to the roll, comes off the target. `state` is the turn's own (its `turn` the one played)."""
    s = campaign.scenario
    rules = s.command
    units = {u.id: u for u in state.units}
    by_hex: dict[tuple[str, str], list[str]] = {}
    for faction, unit_id in ordered:
        if unit_id not in units:  # gone earlier this turn (abandoned, or its last stands taken by a card)
            continue
        group = by_hex.setdefault((faction, units[unit_id].hex), [])
        if unit_id not in group:
            group.append(unit_id)
    leaders: dict[tuple[str, str], list[Commander]] = {}
    for u in state.units:
        found = s.find_commander(u.commander) if u.commander else None
        if found is not None:
            leaders.setdefault((u.faction, u.hex), []).append(found)
    groups = []
    for (faction, hex_id), ids in sorted(by_hex.items()):
        present = leaders.get((faction, hex_id), [])
        rolling: list[tuple[str, int | None, bool, list[str]]]
        if present:
            leader = min(present, key=s.rank)
            rolling = [(leader.name, leader.dependability, False, ids)]
        else:
            adjacent = any((faction, n) in leaders for n in board.neighbours(hex_id))
            rolling = [(unit_id, None, adjacent, [unit_id]) for unit_id in ids]
        for key, rating, adjacent, members in rolling:
            before = state.command_failures.get(key, 0)
            target = obey_target(rules, rating, failures=before, adjacent=adjacent) - modifier(
                state, "command", faction
            )
            groups.append(CommandGroup(faction, hex_id, key, rating, adjacent, before, target, tuple(members)))
    return groups


def run(turn: Turn, state: CampaignState) -> CampaignState:
    """II.C: each group of ordered units (`command_groups`) rolls a D10 and obeys at or under
    its target. The state carries the rolls, the failures and the units held back, with why; a
    unit on a retreat order is held only from its other orders (II.C.2: "Units can always
    continue to retreat"), which the land phase reads from the order."""
    campaign, log = turn.campaign, turn.log
    ordered = [(f, o.unit) for f, orders in log.orders.items() for o in orders]
    ordered += [(f, u) for f, orders in log.rail.items() for o in orders for u in o.carry]  # carried units obey too
    ordered += [(f, u) for f, orders in log.sea.items() for o in orders for u in o.carry]
    ordered += [(f, o.unit) for f, orders in log.track.items() for o in orders]  # and so do wreckers and repairers
    ordered += [(f, o.unit) for f, orders in log.pontoons.items() for o in orders]
    ordered += [(f, o.unit) for f, orders in log.resupply.items() for o in orders]
    failures = dict(state.command_failures)
    rolls = list(state.rolls)
    halted: dict[str, str] = {}
    judged: list[CommandRoll] = []
    for group in command_groups(campaign, turn.board, state, ordered):
        roll = make_roll(
            campaign, log, COMMAND_RULE, group.what(state.turn), campaign.scenario.command.roll, units=group.units
        )
        rolls.append(roll)
        obeyed = roll.value <= group.target
        judged.append(
            CommandRoll(
                faction=group.faction,
                hex=group.hex,
                commander=group.key if group.rating is not None else None,
                rating=group.rating,
                adjacent=group.adjacent,
                failures_before=group.failures,
                target=group.target,
                roll=roll.value,
                obeyed=obeyed,
                units=group.units,
            )
        )
        if obeyed:
            failures.pop(group.key, None)
            continue
        failures[group.key] = group.failures + 1
        who = group.key if group.rating is not None else "no commander in the hex"
        for unit_id in group.units:
            halted[unit_id] = f"command roll {roll.value} over {group.target} ({who}): the unit does not move, II.C.2"
    return replace(state, rolls=tuple(rolls), command_failures=failures, held=halted, commands=tuple(judged))
