"""Phase 4 (II.A): the random event roll, the card drawn on a 6 and its effects in rule terms,
and the stands a card takes from the units the log names."""

from __future__ import annotations

from dataclasses import replace

from kitgen import messages as msg
from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource, Turn
from kitgen.engine.rolls import roll as make_roll
from kitgen.engine.state import CampaignState, CardInForce, Task, UnitState
from kitgen.engine.turnlog import TurnLog
from kitgen.errors import KitgenError, Problem
from kitgen.model.forces import Effect
from kitgen.model.scenario import name_key
from kitgen.validation import dotted


def run(turn: Turn, state: CampaignState) -> CampaignState:
    """The event roll and its card; then the stands it takes, and a note of those the log owes."""
    state = replace(state, in_force=tuple(c for c in state.in_force if c.last >= state.turn))
    state = random_event(turn.campaign, state, turn.log)
    state = remove_stands(turn.campaign, state, turn.log, turn.source)
    owed = tuple(f"{t.card}: {_owed(t)}" for t in state.tasks if t.code == "stands_owed")
    return replace(state, umpire=(*state.umpire, *owed))


def _owed(task: Task) -> str:
    """The umpire's note of stands a card takes that the log's `remove` does not place."""
    n, kind = task.count, task.stand
    return (
        f"the {task.faction} lose {n} {kind} stand{'s' if n != 1 else ''} "
        "from units of their choice: list them under `remove:` in this turn's log (II.A.2)"
    )


def random_event(campaign: Campaign, state: CampaignState, log: TurnLog) -> CampaignState:
    """II.A.1: a D6 every strategic turn; on a 6 the top event card is drawn and its effects
    applied (RULES-NOTES: discarded after use unless the card goes back into the deck)."""
    events = campaign.scenario.events
    roll = make_roll(campaign, log, "II.A", f"event roll, turn {state.turn}", events.roll)
    state = replace(state, rolls=(*state.rolls, roll))
    if roll.value not in events.draw_on or not state.deck:
        return state
    card = next(c for c in campaign.scenario.cards.events if c.id == state.deck[0])
    deck = state.deck[1:] + ((card.id,) if card.returns_to_deck else ())
    state = replace(state, deck=deck, events=(*state.events, card.id))
    for k, effect in enumerate(card.effects):
        state = apply_effect(campaign, state, card.id, effect)
        if effect.kind == "umpire" and effect.battles is not None:
            lasting = CardInForce(card.id, k, state.turn + (effect.turns or 1) - 1)
            state = replace(state, in_force=(*state.in_force, lasting))
    return state


def remove_stands(campaign: Campaign, state: CampaignState, log: TurnLog, located: LogSource) -> CampaignState:
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
    tasks = tuple(t for t in state.tasks if not (t.code == "stands_owed" and t.faction in log.remove))
    kept = tuple(units[u.id] for u in state.units if units[u.id].stands)
    return replace(state, units=kept, tasks=tasks)


def apply_effect(campaign: Campaign, state: CampaignState, card: str, effect: Effect) -> CampaignState:
    """One card effect in rule terms; what kitgen cannot do is listed for the umpire."""
    hexes = campaign.board.places
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
    if effect.kind == "remove_stands":  # noted once the log's `remove` is read (run)
        owed = Task("stands_owed", "II.A.2", faction, card, count=effect.count or 0, stand=effect.stand)
        return replace(state, tasks=(*state.tasks, owed))
    what = effect.text or f"{effect.kind}: {effect.model_dump(exclude_defaults=True)}"
    task = Task("card_effect", "II.A.2", faction, card, what)
    return replace(state, umpire=(*state.umpire, f"{card}: {what}"), tasks=(*state.tasks, task))
