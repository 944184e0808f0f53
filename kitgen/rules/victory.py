"""Section E and II.E: VP awards, thresholds and chart rolls, the Makhnovist strength roll."""

from __future__ import annotations

from dataclasses import dataclass

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
        raise LookupError(f"faction '{faction}' has no VP threshold; factions with one: {', '.join(rules.thresholds)}")
    if total < 0:
        raise LookupError(f"a VP total is 0 or more, not {total}")
    threshold = rules.thresholds[faction]
    rolls, remainder = divmod(total, threshold)
    return ChartRolls(rolls, remainder, threshold)


def reinforcement_draws(rules: VictoryRules, faction: str, roll: int) -> int:
    """II.E.2: draws from the faction's pile for a roll on its chart."""
    chart = rules.reinforcement_chart
    if faction not in chart.draws:
        raise LookupError(
            f"faction '{faction}' has no reinforcement chart; factions with one: {', '.join(chart.draws)}"
        )
    faces = chart.draws[faction]
    if not 1 <= roll <= len(faces):
        raise LookupError(f"a {chart.roll} roll is 1 to {len(faces)}, not {roll}")
    return faces[roll - 1]


def makhnovist_modifier(rules: VictoryRules, *, holds_gulai_pole: bool, makhno_alive: bool) -> int:
    """E.6: -1 if they do not hold Gulai Pole, -2 if Makhno is dead."""
    applies = {"gulai_pole_lost": not holds_gulai_pole, "makhno_dead": not makhno_alive}
    return sum(m.value for m in rules.makhnovist_strength.modifiers if applies.get(m.id, False))
