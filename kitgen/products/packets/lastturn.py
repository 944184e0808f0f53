"""A faction's last turn, for its player: what each of his orders came to, the battles he fought
and what they cost, his command rolls, the event card drawn, and the towns and VP he gained or
lost. Every sentence is made from the state's typed results (verdicts, battle results, command
rolls), never from the umpire's wording; only what the faction knows is said."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from kitgen.engine.state import Arrival, BattleResult, CampaignState, CommandRoll, Verdict
from kitgen.messages import plural
from kitgen.model.scenario import Scenario
from kitgen.rules.paths import STOP_WORDS

if TYPE_CHECKING:
    from kitgen.campaign import Campaign
    from kitgen.products.packets.lists import Packets

KINDS = {
    "land": "move",
    "rail": "by train",
    "sea": "by sea",
    "pontoon": "pontoon",
    "resupply": "resupply",
    "track": "track",
    "battle": "battle",
    "place": "placed",
    "disband": "disband",
}
RESULTS = {"done": "done", "stopped": "stopped", "void": "void", "held": "held"}
FATES = {
    "holds": "held its ground",
    "retreats": "retreated",
    "surrenders": "surrendered",
    "breaks_out": "broke out",
    "perishes": "perished",
    "must_break_out": "could not retreat and must break out",
}


def order_rows(
    verdicts: Sequence[Verdict],
    commands: Sequence[CommandRoll],
    names: dict[str, str],
    arrivals: Sequence[Arrival],
    scenario: Scenario,
    faction: str,
    where: Callable[[str, str], str] | None = None,
) -> list[list[Any]]:
    """One row an order: the piece by name, what was ordered, what came of it, where it went,
    and why, from the verdict's typed fields. A place order carried out names the unit it raised
    (the arrivals in the log's order, slip by slip); any other, its slip as the slips print it."""
    from kitgen.products.cardkey import slip_label

    held = {u: c for c in commands if not c.obeyed for u in c.units}
    raised: dict[str, list[Arrival]] = {}
    for a in arrivals:
        if a.faction == faction:
            raised.setdefault(a.slip, []).append(a)
    pile = {slip.id for slip in scenario.cards.piles.get(faction, [])}
    rows: list[list[Any]] = []
    for v in verdicts:
        here = v.end or v.start
        at = (
            f"{_said(v.start, where)} to {_said(v.end, where)}"
            if v.start and v.end and v.start != v.end
            else _said(here, where)
        )
        name = names.get(v.unit, v.unit)
        if v.kind == "place":
            made = raised.get(v.unit, [])
            if v.result == "done" and made:
                arrival = made.pop(0)
                name, at = names.get(arrival.unit, arrival.unit), _said(arrival.hex, where)
            elif v.unit in pile:
                name = slip_label(scenario, faction, v.unit)
        if v.result == "stopped" and v.stop is not None:
            why = f"stopped short: {STOP_WORDS[v.stop]}"
        elif v.result == "held":
            roll = held.get(v.unit)
            who = roll.commander or "no commander" if roll else "its commander"
            why = (
                f"command roll {roll.roll} over {roll.target} ({who}), II.C"
                if roll
                else "held by command control, II.C"
            )
        elif v.result == "void":
            why = f"against the rules ({v.rule}): the order was not carried out"
        else:
            why = f"{v.spent} of {v.allowance} MP" if v.kind == "land" and v.spent is not None else ""
        rows.append([name, KINDS.get(v.kind, v.kind), RESULTS[v.result], at, why])
    return rows


def _said(hex_id: str | None, where: Callable[[str, str], str] | None) -> str:
    return "" if not hex_id else where(hex_id, "") if where else hex_id


def story(
    campaign: Campaign,
    faction: str,
    before: CampaignState,
    after: CampaignState,
    names: dict[str, str],
    where: Callable[[str, str], str] | None = None,
) -> list[tuple[str, str]]:
    """The turn in sentences, each with its run-in: the event card, the battles fought, the
    command rolls, towns gained and lost, and VP."""
    said: list[tuple[str, str]] = []
    s = campaign.scenario
    titles = {c.id: c.title for c in s.cards.events}
    cards = [titles.get(e, e) for e in after.events]
    said.append(("Event card:", "; ".join(cards) + "." if cards else "none drawn."))
    factions = {f.id: f.name for f in s.meta.factions}
    said += [
        ("Battle:", text)
        for text in battle_lines(factions, campaign.board.towns, faction, after.battle_results, names, where=where)
    ]
    rolls = [c for c in after.commands if c.faction == faction]
    if rolls:
        failed = [c for c in rolls if not c.obeyed]
        text = f"{plural(len(rolls), 'roll')}, {len(rolls) - len(failed)} obeyed"
        if failed:
            text += "; failed: " + "; ".join(
                f"{c.commander or 'no commander'} {where(c.hex, 'at') if where else 'in ' + c.hex} ({c.roll} over {c.target})"
                for c in failed
            )
        said.append(("Command rolls:", text + "."))
    shown = s.shown_place  # as the map prints them
    gained = sorted(shown(t) for t, f in after.owners.items() if f == faction and before.owners.get(t) != faction)
    lost = sorted(shown(t) for t, f in before.owners.items() if f == faction and after.owners.get(t) != faction)
    towns = []
    if gained:
        towns.append("gained " + ", ".join(gained))
    if lost:
        towns.append("lost " + ", ".join(lost))
    said.append(("Towns:", ("; ".join(towns) if towns else "none gained or lost") + "."))
    if faction in after.vp:  # VP totals drop as chart rolls spend them (E): the total now, not a change
        said.append(("VP:", f"{after.vp[faction]} now."))
    return said


def battle_lines(
    factions: Mapping[str, str],
    towns: Mapping[str, Sequence[str]],
    faction: str,
    results: Sequence[BattleResult],
    names: dict[str, str],
    *,
    subject: str = "",
    where: Callable[[str, str], str] | None = None,
) -> list[str]:
    """A sentence a battle the faction fought: where, won or lost against whom, and what each of
    its units lost and did; the enemy's units by name, as the faction met them (`factions`: their
    names by id; `towns`: the board's towns by hex; `subject`: who fought, named after the place)."""
    by_battle: dict[int, list[BattleResult]] = {}
    for r in results:
        by_battle.setdefault(r.battle, []).append(r)
    lines = []
    for parts in by_battle.values():
        own = [r for r in parts if r.faction == faction]
        if not own:
            continue
        side = own[0].side
        friends = sorted({factions.get(r.faction, r.faction) for r in parts if r.faction != faction and r.side == side})
        foes = [r for r in parts if r.side != side]
        outcome = "won" if side == "winner" else "lost"
        against = ", ".join(sorted({factions.get(r.faction, r.faction) for r in foes})) or "the enemy"
        units = [f"{names.get(r.unit, r.unit)}: {_cost(r, where)}" for r in own]
        enemy = "; ".join(f"{names.get(r.unit, r.unit)} {FATES.get(r.fate, r.fate)}" for r in foes)
        here = towns.get(own[0].hex, ())
        at = where(own[0].hex, "at") if where else "at " + (f"{here[0]} ({own[0].hex})" if here else own[0].hex)
        with_them = f", with the {', '.join(friends)}," if friends else ""
        who = f", {subject}" if subject else ""
        line = f"{at}{with_them}{who} {outcome} against the {against}. " + ". ".join(units) + "."
        lines.append(line + (f" The enemy: {enemy}." if enemy else ""))
    return lines


def _cost(r: BattleResult, where: Callable[[str, str], str] | None = None) -> str:
    """What a battle cost a unit, as the engine counts it: stands lost for good (the routed who
    deserted among them) and back next turn, and its fate; a unit taken or destroyed loses all."""
    if r.fate in ("surrenders", "perishes"):
        return f"all its stands lost; {FATES[r.fate]}"
    to = (where(r.retreat, "to") if where else f"to {r.retreat}") if r.retreat else ""
    fate = FATES.get(r.fate, r.fate) + (f" {to}" if to else "")
    return f"{plural(r.permanent + r.deserted, 'stand')} lost for good, {r.returning} back next turn; {fate}"


def _names(before: CampaignState, after: CampaignState) -> dict[str, str]:
    """Names of every piece of either state: a unit lost last turn is named as it was."""
    from kitgen.engine.piecenames import piece_names

    return piece_names(before) | piece_names(after)


def named_story(campaign: Campaign, faction: str, before: CampaignState, after: CampaignState) -> list[tuple[str, str]]:
    """`story`, every place said by its name (`kitgen.products.packets.report.place`)."""
    from kitgen.products.packets.report import place

    names = _names(before, after)
    return story(campaign, faction, before, after, names, partial(place, campaign))


def order_rows_named(p: Packets, faction: str, before: CampaignState, after: CampaignState) -> list[list[Any]]:
    """The faction's orders of last turn and what came of each, every place by its name."""
    from kitgen.products.packets.report import place

    commands = [c for c in after.commands if c.faction == faction]
    mine = [v for v in after.verdicts if v.faction == faction and v.kind != "battle"]
    names = _names(before, after)
    return order_rows(mine, commands, names, after.arrivals, p.s, faction, partial(place, p.c))
