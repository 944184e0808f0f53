"""The umpire's look-ups: each answers one question from the scenario's data in a sentence."""

from __future__ import annotations

from collections.abc import Mapping

from kitgen import messages as msg
from kitgen.errors import UsageError
from kitgen.model.scenario import Scenario
from kitgen.rules import battle, command, events, movement, partisans, supply, transport, victory
from kitgen.rules.dice import Dice, percent


def ident(text: str) -> str:
    """Command-line spelling to data id: 'armoured-car' -> 'armoured_car'."""
    return text.strip().lower().replace("-", "_").replace(" ", "_")


def _faction(s: Scenario, name: str) -> str:
    key = ident(name)
    for f in s.meta.factions:
        if key in (f.id, ident(f.name), ident(f.adjective)):
            return f.id
    raise UsageError(msg.lookup_unknown_faction(name, [f.id for f in s.meta.factions]))


def _range(low: int, high: int) -> str:
    return str(low) if low == high else f"{low}-{high}"


def move(
    s: Scenario,
    unit_type: str,
    terrain: str,
    *,
    river: movement.River = "none",
    bridge: bool = False,
    road: bool = False,
    rail: bool = False,
    pontoon: bool = False,
) -> str:
    type_id = ident(unit_type)
    row = movement.movement_row(s.movement, type_id)
    name = movement.unit_type(s.movement, type_id).name
    cost = movement.entry_cost(
        s.movement, type_id, ident(terrain), river=river, bridge=bridge, road=road, rail=rail, pontoon=pontoon
    )
    across = {"none": "", "crossable": " across a crossable river", "major": " across a major river"}[river]
    via = [w for w, on in (("bridge", bridge), ("road", road), ("rail", rail), ("pontoon/ferry", pontoon)) if on]
    head = f"{name} ({row.mp} MP) into {ident(terrain)}{across}" + (f" with {', '.join(via)}" if via else "")
    stops = "a move stops before the hex (ruling stop_short)"
    if not cost.allowed:
        return f"{head}: prohibited: {cost.reason}; {stops} [{cost.rule}]"
    if cost.whole_move:
        return f"{head}: {cost.mp} MP ({', '.join(cost.parts)}); it ends the move across [{cost.rule}]"
    over = f"; more than its {row.mp} MP: {stops}" if row.mp is not None and (cost.mp or 0) > row.mp else ""
    return f"{head}: {cost.mp} MP ({', '.join(cost.parts)}){over} [{cost.rule}]"


def load(s: Scenario, items: Mapping[str, int], carrier: transport.Carrier) -> str:
    result = transport.load_points(s.transport, {ident(k): n for k, n in items.items()}, carrier)
    lines = "; ".join(f"{n} {kind} x {each} = {n * each}" for kind, n, each in result.lines)
    verdict = "fits" if result.fits else f"does not fit ({result.total - result.capacity} over)"
    rule = "C.1" if carrier == "train" else "D.3"
    return f"{carrier.capitalize()} load: {lines}; total {result.total} of {result.capacity} points: {verdict} [{rule}]"


def town(s: Scenario, name: str) -> str:
    t = s.find_town(name)
    if t is None:
        other = [n for x in s.towns for n in x.names()]
        raise UsageError(msg.lookup_unknown_town(name, [x.name for x in s.towns], other))
    other = [n for n in t.names()[1:]]
    aka = f" (also {', '.join(other)})" if other else ""
    parts = []
    for f in s.meta.factions:
        if not f.scores_vp:
            parts.append(f"{f.name} do not score towns")
            continue
        vp = victory.town_vp(t, f.id)
        parts.append(f"{f.name} {vp}" if vp is not None else f"{f.name} - (no VP)")
    return f"{t.name}{aka}: {', '.join(parts)} [E.1]"


def reinforcements(s: Scenario, faction: str, roll: int) -> str:
    fid = _faction(s, faction)
    n = victory.reinforcement_draws(s.victory, fid, roll)
    name = s.faction_name(fid)
    chart = s.victory.reinforcement_chart
    return f"{name} roll {roll} on their chart ({chart.roll}): {n} draw{'s' if n != 1 else ''} from the {name} pile [II.E.2]"


def threshold(s: Scenario, faction: str, total: int) -> str:
    fid = _faction(s, faction)
    r = victory.chart_rolls(s.victory, fid, total)
    name = s.faction_name(fid)
    bonus = s.victory.bonus.get(fid)
    extra = f"; they also add {bonus} VP every award turn [E.3]" if bonus else ""
    return (
        f"{name} at {total} VP: {r.rolls} chart roll{'s' if r.rolls != 1 else ''} "
        f"({r.threshold} VP each), {r.remainder} VP carried over [E]{extra}"
    )


def _obey_text(s: Scenario, target: int, failures: int) -> str:
    die = Dice.parse(s.command.roll)
    top = min(target, die.high)
    chance = die.chance(lambda roll: roll <= target)
    after = (
        f" after {failures} failure{'s' if failures != 1 else ''} in a row (-{failures} on the roll)"
        if failures
        else ""
    )
    return f"obeys on {s.command.roll} {_range(die.low, top)}{after}: {percent(chance)} [II.C]"


def commander(s: Scenario, name: str, failures: int = 0) -> str:
    c = s.find_commander(name)
    if c is None:
        other = [n for x in s.commanders for n in x.names()]
        raise UsageError(msg.lookup_unknown_commander(name, [x.name for x in s.commanders], other))
    faction = s.faction_name(c.faction)
    aka = f" (seed: {c.seed_name})" if c.seed_name else ""
    charisma = "charismatic (tabletop only, II.C.5)" if c.charismatic else "not charismatic"
    if c.added:  # not in the seed's table: say whose rating it is
        charisma += "; added by this scenario, rated by the designer"
    target = command.obey_target(s.command, c.dependability, failures=failures)
    return f"{c.name}{aka}, {faction} rank {s.rank(c)}: dependability {c.dependability}, {charisma}; " + _obey_text(
        s, target, failures
    )


def leaderless(s: Scenario, *, adjacent: bool, failures: int = 0) -> str:
    target = command.obey_target(s.command, None, failures=failures, adjacent=adjacent)
    where = "a commander in an adjacent hex" if adjacent else "no commander adjacent"
    return f"Units with no commander in the hex, {where}: " + _obey_text(s, target, failures)


def breakdown(s: Scenario, unit_type: str, *, carried: bool = False) -> str:
    type_id = ident(unit_type)
    name = movement.unit_type(s.movement, type_id).name
    b = movement.breakdown_roll(s.movement, type_id, carried=carried)
    if b is None:
        why = (
            "carried by train or ship"
            if carried and s.movement.breakdown_exempt_when_carried
            else "not a vehicle that breaks down"
        )
        return f"{name}: no breakdown roll ({why}) [A.4-A.5]"
    fails = ", ".join(map(str, b.fails_on))
    return (
        f"{name}: roll {b.roll} for each vehicle that moved; lost for the campaign on {fails}: "
        f"{percent(movement.breakdown_chance(b))} [{b.source}]"
    )


def losses(s: Scenario, side: battle.Side, lost: int, routed: int = 0, *, exempt: bool = False) -> str:
    r = battle.losses(s.battle, side, lost, routed, exempt=exempt)
    part = s.battle.winner if side == "winner" else s.battle.loser
    text = (
        f"{side.capitalize()}, {lost} stands lost: {r.permanent} lost for good ({part.permanent_pct}%, half up), "
        f"{r.returning} return next turn"
    )
    if routed:
        if side == "winner":
            text += f"; {routed} routed all return"
        elif exempt:
            text += f"; {routed} routed all return (Elite/Fanatic)"
        else:
            text += f"; of {routed} routed, {r.routed_lost} desert or are captured, {r.routed_returning} return"
    if side == "winner":
        eq = s.battle.winner.equipment
        text += f"; equipment: roll {eq.roll} each, {eq.recovered_on} recovered"
    else:
        text += "; equipment lost for the campaign"
    return text + " [II.B.3]"


def evade(s: Scenario, conditions: list[str]) -> str:
    mod = partisans.total_modifier(s.partisans.evade.modifiers, conditions)
    names = {m.id: m.text for m in s.partisans.evade.modifiers}
    why = "; ".join(f"{names[c]}" for c in conditions) or "no modifiers"
    chance = partisans.evade_chance(s.partisans, mod)
    return f"Partisan evade: {s.partisans.evade.roll}{mod:+d} ({why}) against the enemy's {s.partisans.evade.roll}; evades on a higher total: {percent(chance)} [II.D.1]"


def ambush(s: Scenario, conditions: list[str]) -> str:
    mod = partisans.total_modifier(s.partisans.ambush.modifiers, conditions)
    a = s.partisans.ambush
    chance = partisans.ambush_chance(s.partisans, mod)
    need = max(a.succeeds_at - mod, 1)
    return (
        f"Ambush: {a.roll}{mod:+d}, springs on {a.succeeds_at} or more (a natural {need}+): {percent(chance)} [II.D.2]"
    )


def depot(s: Scenario, use: int) -> str:
    target = supply.depot_empty_target(s.supply, use)
    die = Dice.parse(s.supply.depot_cutoff.roll)
    chance = supply.depot_empty_chance(s.supply, use)
    return (
        f"Cut-off depot, turn {use} of use: roll {s.supply.depot_cutoff.roll}, emptied on "
        f"{_range(die.low, min(target, die.high))}: {percent(chance)} [B.7]"
    )


def event_roll(s: Scenario) -> str:
    on = ", ".join(map(str, s.events.draw_on))
    return f"Random events: roll {s.events.roll} each turn after orders are plotted; draw a card on {on}: {percent(events.event_chance(s.events))} [II.A.1]"


def makhnovists(s: Scenario, *, holds_gulai_pole: bool, makhno_alive: bool) -> str:
    ms = s.victory.makhnovist_strength
    mod = victory.makhnovist_modifier(s.victory, holds_gulai_pole=holds_gulai_pole, makhno_alive=makhno_alive)
    return f"Makhnovist Current Strength roll: {ms.roll}{mod:+d} every {msg.ordinal(s.victory.award_every_turns)} turn [E.6]"
