"""The rolls ahead of a turn: those the turn makes whatever is ordered (found by playing it with
no orders), and the command rolls (II.C) each hex would make if its units were given orders."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kitgen.campaign import Campaign
from kitgen.engine.phases.command import command_groups
from kitgen.engine.state import CampaignState, Roll
from kitgen.engine.turn import play_phases, play_turn
from kitgen.engine.turnlog import TurnLog

Kind = Literal["command", "event", "depot", "breakdown", "partisan", "victory", "reinforcement", "strength", "other"]

KINDS: tuple[tuple[str, Kind], ...] = (
    ("II.C", "command"),
    ("II.A", "event"),
    ("B.7", "depot"),
    ("A.4", "breakdown"),
    ("A.5", "breakdown"),
    ("II.D", "partisan"),
    ("E.3", "victory"),
    ("II.E", "reinforcement"),
    ("E.6", "strength"),
)
"""The kind of a roll by the rule it is made under (`Roll.rule`)."""


@dataclass(frozen=True)
class RollAhead:
    """One roll the turn ahead asks for: its purpose exactly as the log's `dice:` names it."""

    purpose: str
    dice: str
    rule: str
    """The rule section the roll is made under (II.C, II.A, E.3...)."""
    kind: Kind
    target: int | None
    """Command rolls: the highest roll that obeys now; None where the roll has no single target."""
    needed: Literal["always", "if_ordered"]
    """always: the turn makes it with no orders at all; if_ordered: only if the units are ordered."""
    who: str | None
    """Who rolls: the commander's name, or the unit's id where it rolls alone."""
    units: tuple[str, ...]
    hex: str | None
    note: str
    """What the roll decides, in a few words."""
    rating: int | None = None
    """Command rolls: the commander's dependability (None: no commander in the hex)."""
    adjacent: bool = False
    """Leaderless command rolls: a friendly commander is adjacent."""
    failures: int = 0
    """Command rolls: failures in a row before it (II.C.4)."""
    faction: str | None = None


def kind_of(rule: str) -> Kind:
    for section, kind in KINDS:
        if rule == section or rule.startswith(section + "."):
            return kind
    return "other"


def before_orders(campaign: Campaign, state: CampaignState, turn: int) -> CampaignState:
    """The state of turn `turn` as its orders find it: the phases before command control played
    (supply judged, B.2) with no orders given."""
    return play_phases(campaign, state, TurnLog(turn=turn), through="supply")[1]


def rolls_ahead(campaign: Campaign, state: CampaignState, turn: int) -> list[RollAhead]:
    """Every roll of turn `turn` after `state`: those a log with no orders asks for (the turn is
    played so, and its rolls read), with the command rolls each faction's units would make if
    ordered put at the command phase; by the turn's phases, then faction, then hex."""
    record = play_turn(campaign, state, TurnLog(turn=turn))
    made = record.state.rolls  # the turn starts with none: every roll here is this turn's
    start = before_orders(campaign, state, turn)
    first = len(start.rolls)  # the rolls of the phases before command control
    factions = [f.id for f in campaign.scenario.meta.factions]
    everyone = [(u.faction, u.id) for u in start.units]
    groups = sorted(
        command_groups(campaign, campaign.board, start, everyone),
        key=lambda g: (factions.index(g.faction) if g.faction in factions else len(factions), g.faction, g.hex),
    )
    dice = campaign.scenario.command.roll
    command = [
        RollAhead(
            purpose=g.purpose(turn),
            dice=dice,
            rule="II.C",
            kind="command",
            target=g.target,
            needed="if_ordered",
            who=g.key,
            units=g.units,
            hex=g.hex,
            note=f"obeys on {g.target} or under",
            rating=g.rating,
            adjacent=g.adjacent,
            failures=g.failures,
            faction=g.faction,
        )
        for g in groups
    ]
    always = [_always(campaign, r) for r in made]
    moving = len(play_phases(campaign, state, TurnLog(turn=turn), through="events")[1].rolls)
    return always[:first] + command + always[first:moving] + _movement(campaign, start, turn) + always[moving:]


def _movement(campaign: Campaign, start: CampaignState, turn: int) -> list[RollAhead]:
    """The movement phase's rolls if ordered: each vehicle's breakdown if its unit moves on the
    map (A.4-A.5), each cut-off depot's if a unit resupplies from it (B.7)."""
    from kitgen.engine.phases.land import breakdown_what, vehicle_name
    from kitgen.engine.phases.logistics import depot_what
    from kitgen.rules.movement import breakdown_roll
    from kitgen.rules.supply import depot_empty_target

    s = campaign.scenario
    found: list[RollAhead] = []
    for u in start.units:
        if u.aboard is not None or u.immobilised:
            continue
        for kind in sorted(u.stands):
            check = breakdown_roll(s.movement, kind, carried=False)
            if check is None:
                continue
            fails = ", ".join(str(v) for v in check.fails_on)
            for k in range(1, u.stands[kind] + 1):
                vehicle = vehicle_name(kind, u.type, k)
                found.append(
                    RollAhead(
                        purpose=f"{check.source} {breakdown_what(u.id, vehicle, turn)}",
                        dice=check.roll,
                        rule=check.source,
                        kind="breakdown",
                        target=None,
                        needed="if_ordered",
                        who=u.id,
                        units=(u.id,),
                        hex=u.hex,
                        note=f"if it moves on the map: its {vehicle} breaks down on {fails}",
                        faction=u.faction,
                    )
                )
    for d in start.depots:
        if not d.get("cut_off"):
            continue
        use = int(d.get("uses", 0)) + 1
        target = depot_empty_target(s.supply, use)
        found.append(
            RollAhead(
                purpose=f"B.7 {depot_what(d['hex'], use, turn)}",
                dice=s.supply.depot_cutoff.roll,
                rule="B.7",
                kind="depot",
                target=None,
                needed="if_ordered",
                who=None,
                units=(),
                hex=d["hex"],
                note=f"if a unit resupplies there: the depot is found empty on {target} or under",
                faction=d["faction"],
            )
        )
    return found


def _always(campaign: Campaign, made: Roll) -> RollAhead:
    rule, purpose, dice = made.rule, made.purpose, made.dice
    kind = kind_of(rule)
    return RollAhead(purpose, dice, rule, kind, None, "always", None, (), None, _meaning(campaign, kind))


def _meaning(campaign: Campaign, kind: Kind) -> str:
    s = campaign.scenario
    if kind == "event":
        faces = ", ".join(str(n) for n in s.events.draw_on)
        return f"an event card is drawn on {faces}"
    return {
        "command": "the command roll",
        "depot": "the cut-off depot empties on a low roll",
        "breakdown": "the vehicle breaks down on the scenario's table",
        "partisan": "the partisans' evade or ambush",
        "victory": "added to the faction's VP",
        "reinforcement": "the reinforcement chart: slips drawn from the pile",
        "strength": "the Current Strength Chart, with its modifiers",
        "other": "see the rule named",
    }[kind]
