"""Phase 10 (E.2-E.6, every 3rd turn): VP for towns held, the Red bonus, reinforcement chart
rolls while a total reaches its threshold, and the Makhnovist strength roll."""

from __future__ import annotations

from dataclasses import replace

from kitgen.campaign import Campaign
from kitgen.engine.context import Turn
from kitgen.engine.rolls import roll as make_roll
from kitgen.engine.state import CampaignState, NamedModifier, StrengthRoll
from kitgen.engine.turnlog import TurnLog
from kitgen.model.scenario import name_key
from kitgen.rules.victory import is_award_turn, makhnovist_modifiers, reinforcement_draws


def run(turn: Turn, state: CampaignState) -> CampaignState:
    if not is_award_turn(turn.campaign.scenario.victory, state.turn):
        return state
    return award_vp(turn.campaign, state, turn.log)


def award_vp(campaign: Campaign, state: CampaignState, log: TurnLog) -> CampaignState:
    """E.2: every 3rd turn each faction adds the VP of the towns it holds; E.3: the Reds add 3D6."""
    vp = dict(state.vp)
    for town in campaign.scenario.towns:
        owner = state.owners.get(town.name, "none")
        if owner in vp:
            vp[owner] += town.vp.get(owner) or 0
    rolls = list(state.rolls)
    for faction, dice in sorted(campaign.scenario.victory.bonus.items()):
        what = f"{faction} {dice} bonus VP, turn {state.turn}"
        roll = make_roll(campaign, log, "E.3", what, dice)
        rolls.append(roll)
        vp[faction] = vp.get(faction, 0) + roll.value
    victory = campaign.scenario.victory
    draws = dict(state.draws)  # with any an event card gave this turn
    for faction, threshold in sorted(victory.thresholds.items()):
        k = 0
        while vp.get(faction, 0) >= threshold:  # RULES-NOTES: subtract and roll again while still at or above it
            k += 1
            chart = victory.reinforcement_chart.roll
            roll = make_roll(
                campaign, log, "II.E.2", f"{faction} reinforcement chart, roll {k}, turn {state.turn}", chart
            )
            rolls.append(roll)
            draws[faction] = draws.get(faction, 0) + reinforcement_draws(victory, faction, roll.value)
            vp[faction] -= threshold
    return makhnovist_strength(campaign, replace(state, vp=vp, rolls=tuple(rolls), draws=draws), log)


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
    applied = makhnovist_modifiers(campaign.scenario.victory, holds_gulai_pole=holds, makhno_alive=alive)
    modifier = sum(v for _, v in applied)
    roll = make_roll(campaign, log, "E.6", f"{faction} strength, turn {state.turn}", chart.roll)
    total = roll.value + modifier
    row = next((r for r in campaign.scenario.cards.makhnovist_strength if r.low <= total <= r.high), None)
    text = row.text if row else f"no row for {total}"
    rolled = StrengthRoll(faction, roll.value, tuple(NamedModifier(i, v) for i, v in applied), total, text)
    note = f"E.6 {faction}: {rolled.roll}{modifier:+d} = {rolled.total}: {rolled.row}"
    return replace(
        state,
        rolls=(*state.rolls, roll),
        makhnovist_strength=text,
        strength_roll=rolled,
        umpire=(*state.umpire, note),
    )
