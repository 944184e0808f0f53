"""Section E and II.E: VP awards, thresholds and chart rolls, the Makhnovist strength roll."""

from __future__ import annotations

from dataclasses import dataclass

from kitgen import messages as msg
from kitgen.errors import UsageError
from kitgen.model.rules import VictoryRules
from kitgen.model.scenario import Town


def is_award_turn(rules: VictoryRules, turn: int) -> bool:
    """E.2: VPs are added at the end of every 3rd strategic turn."""
    return turn > 0 and turn % rules.award_every_turns == 0


def town_vp(town: Town, faction: str) -> int | None:
    """E.1/E.5: the town's VP for the faction; None where the table has '-' (it scores nothing)."""
    return town.vp.get(faction)


@dataclass(frozen=True)
class ChartRolls:
    rolls: int
    remainder: int
    threshold: int


def chart_rolls(rules: VictoryRules, faction: str, total: int) -> ChartRolls:
    """E.3-E.5: one chart roll per threshold reached, subtracting it each time."""
    if faction not in rules.thresholds:
        raise UsageError(msg.lookup_no_threshold(faction, list(rules.thresholds)))
    if total < 0:
        raise UsageError(msg.lookup_negative_vp(total))
    threshold = rules.thresholds[faction]
    rolls, remainder = divmod(total, threshold)
    return ChartRolls(rolls, remainder, threshold)


def reinforcement_draws(rules: VictoryRules, faction: str, roll: int) -> int:
    """II.E.2: draws from the faction's pile for a roll on its chart."""
    chart = rules.reinforcement_chart
    if faction not in chart.draws:
        raise UsageError(msg.lookup_no_chart(faction, list(chart.draws)))
    faces = chart.draws[faction]
    if not 1 <= roll <= len(faces):
        raise UsageError(msg.lookup_roll_off_chart(roll, chart.roll, len(faces)))
    return faces[roll - 1]


STRENGTH_CONDITIONS = ("gulai_pole_lost", "makhno_dead")
"""E.6: the conditions kitgen judges for the Makhnovist strength roll; victory.yaml gives their values."""


def makhnovist_modifier(rules: VictoryRules, *, holds_gulai_pole: bool, makhno_alive: bool) -> int:
    """E.6: -1 if they do not hold Gulai Pole, -2 if Makhno is dead."""
    return sum(v for _, v in makhnovist_modifiers(rules, holds_gulai_pole=holds_gulai_pole, makhno_alive=makhno_alive))


def makhnovist_modifiers(rules: VictoryRules, *, holds_gulai_pole: bool, makhno_alive: bool) -> list[tuple[str, int]]:
    """E.6: the modifiers that apply, each its id in the scenario's table and its value."""
    lost, dead = STRENGTH_CONDITIONS
    applies = {lost: not holds_gulai_pole, dead: not makhno_alive}
    return [(m.id, m.value) for m in rules.makhnovist_strength.modifiers if applies.get(m.id, False)]
