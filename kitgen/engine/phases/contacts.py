"""Phase 6 (II.D, B.8): contacts found where enemies meet; partisans evade or ambush, and vehicles
out of supply get their tabletop moves."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource, Turn
from kitgen.engine.phases.logistics import tabletop_moves
from kitgen.engine.phases.postbattle import contact_groups
from kitgen.engine.rolls import roll as make_roll
from kitgen.engine.state import CampaignState, NamedModifier, PartisanContact, UnitState, Verdict
from kitgen.engine.turnlog import TurnLog
from kitgen.mapping.board import Board
from kitgen.model.base import Modifier
from kitgen.model.scenario import name_key
from kitgen.rules.partisans import (
    ENEMY_WITHOUT_CAVALRY,
    FOREST_OR_MOUNTAIN,
    MAKHNO_PRESENT,
    ambush_succeeds,
    evades,
    total_modifier,
)


def run(turn: Turn, state: CampaignState) -> CampaignState:
    state = partisans(turn.campaign, turn.board, state, turn.log, turn.source)
    return tabletop_moves(turn.campaign, state, turn.log)


def partisans(
    campaign: Campaign, board: Board, state: CampaignState, log: TurnLog, located: LogSource
) -> CampaignState:
    """II.D.1-2 (phase 6): where the enemy meets a faction whose units there are all partisans,
    they do what the log chooses for them (RULES-NOTES: neither is assumed): try to evade (each
    side rolls a D6 plus modifiers; the partisans evade on a strictly higher total), or, if none
    of them moved this turn, an ambush (a D6 of 6, +1 with Makhno); an ambush by partisans who
    moved is void, and they fight. Partisans the log gives no choice fight, with no roll."""
    rules = campaign.scenario.partisans
    chosen = {(c.hex, c.faction): (c.choice, i) for i, c in enumerate(log.partisans)}
    makhno = campaign.scenario.find_commander("Makhno")
    by_hex: dict[str, list[UnitState]] = {}
    for u in state.units:
        if u.aboard is None:  # D.1: units aboard a ship meet no one on land
            by_hex.setdefault(u.hex, []).append(u)
    rolls, notes, evaded = list(state.rolls), list(state.umpire), set(state.evaded)
    verdicts = list(state.verdicts)
    met: list[PartisanContact] = []
    for hexes in contact_groups(state):  # a hex of enemies, or two met across a hexside (ruling)
        here = [u for h in hexes for u in by_hex.get(h, ())]
        for faction in sorted({u.faction for u in here}):
            own = [u for u in here if u.faction == faction]
            foes = [u for u in here if not state.allied(u.faction, faction, state.turn)]
            if not foes or not all("partisan" in u.flags for u in own):
                continue
            asked = [h for h in sorted({u.hex for u in own}) if (h, faction) in chosen]
            hex_id = asked[0] if asked else own[0].hex  # the partisans' hex, as the log's choice names it
            choice, index = chosen.get((hex_id, faction), ("fight", None))
            with_makhno = makhno is not None and any(
                u.commander and name_key(u.commander) == name_key(makhno.name) for u in own
            )
            moved = [u for u in own if u.moved]
            if index is None:
                met.append(PartisanContact(faction, hex_id, "fight", "fight"))
                notes.append(f"II.D.1 {faction} in {hex_id}: the log chooses neither evade nor ambush: they fight")
            elif choice == "fight":  # the log's choice: no roll
                met.append(PartisanContact(faction, hex_id, "fight", "fight"))
            elif choice == "ambush" and moved:  # II.D.2: "not having moved in that same turn"
                line, column = located.position(("partisans", index))
                names = ", ".join(u.name for u in moved)
                why = (
                    f"{faction} partisans in {hex_id}: ambush: {names} moved this turn, and only partisans "
                    "who had not moved may ambush: void, II.D.2; they fight"
                )
                verdicts.append(
                    Verdict(
                        located.name,
                        line,
                        faction,
                        moved[0].id,
                        f"ambush {hex_id}",
                        "void",
                        why,
                        "II.D.2",
                        column=column,
                    )
                )
                met.append(PartisanContact(faction, hex_id, "fight", "fight"))
                notes.append(f"II.D.2 {faction} in {hex_id}: moved this turn, so no ambush: they fight")
            elif choice == "ambush":
                applied = [MAKHNO_PRESENT] if with_makhno else []
                mod = total_modifier(rules.ambush.modifiers, applied)
                roll = make_roll(
                    campaign,
                    log,
                    "II.D.2",
                    f"{faction} ambush in {hex_id}, turn {state.turn}",
                    rules.ambush.roll,
                    hex=hex_id,
                )
                rolls.append(roll)
                sprung = ambush_succeeds(rules, roll.value, mod)
                named = _named(rules.ambush.modifiers, applied)
                outcome = "sprung" if sprung else "failed"
                met.append(PartisanContact(faction, hex_id, "ambush", outcome, roll.value, named, roll.value + mod))
                result = (
                    "springs the ambush: the enemy sets up first, the partisans round it"
                    if sprung
                    else "fails to ambush"
                )
                notes.append(f"II.D.2 {faction} in {hex_id}: {roll.value}{mod:+d}: {result}")
            elif choice == "evade":
                conditions = [MAKHNO_PRESENT] if with_makhno else []
                if board.terrain.get(hex_id) in ("forest", "mountain"):
                    conditions.append(FOREST_OR_MOUNTAIN)
                if not any("cavalry" in u.stands for u in foes):
                    conditions.append(ENEMY_WITHOUT_CAVALRY)
                mod = total_modifier(rules.evade.modifiers, conditions)
                mine = make_roll(
                    campaign,
                    log,
                    "II.D.1",
                    f"{faction} evade in {hex_id}, turn {state.turn}",
                    rules.evade.roll,
                    hex=hex_id,
                )
                theirs = make_roll(
                    campaign,
                    log,
                    "II.D.1",
                    f"enemy of {faction} in {hex_id}, turn {state.turn}",
                    rules.evade.roll,
                    hex=hex_id,
                )
                rolls += [mine, theirs]
                away = evades(mine.value, theirs.value, mod)
                named = _named(rules.evade.modifiers, conditions)
                outcome = "evaded" if away else "caught"
                total = mine.value + mod
                met.append(PartisanContact(faction, hex_id, "evade", outcome, mine.value, named, total, theirs.value))
                if away:
                    evaded |= {(u.hex, faction) for u in own}
                    notes.append(
                        f"II.D.1 {faction} in {hex_id} evade ({mine.value}{mod:+d} against {theirs.value}): no battle"
                    )
                else:
                    notes.append(
                        f"II.D.1 {faction} in {hex_id} fail to evade ({mine.value}{mod:+d} against {theirs.value})"
                    )
    return replace(
        state,
        rolls=tuple(rolls),
        umpire=tuple(notes),
        evaded=frozenset(evaded),
        verdicts=tuple(verdicts),
        partisan_contacts=tuple(met),
    )


def _named(modifiers: Iterable[Modifier], conditions: list[str]) -> tuple[NamedModifier, ...]:
    """The modifiers of the table that applied, by id and value."""
    values = {m.id: m.value for m in modifiers}
    return tuple(NamedModifier(c, values[c]) for c in conditions)
