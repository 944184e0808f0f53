"""II.D Partisans: evading a fight, ambushes, the Makhnovist artillery cap."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from kitgen import messages as msg
from kitgen.errors import UsageError
from kitgen.model.base import Modifier
from kitgen.model.rules import PartisanRules
from kitgen.rules.dice import Dice

MAKHNO_PRESENT = "makhno_present"
FOREST_OR_MOUNTAIN = "forest_or_mountain"
ENEMY_WITHOUT_CAVALRY = "enemy_without_cavalry"
EVADE_CONDITIONS = (MAKHNO_PRESENT, FOREST_OR_MOUNTAIN, ENEMY_WITHOUT_CAVALRY)
"""II.D.1: the conditions kitgen judges for an evade roll; partisans.yaml gives their values."""
AMBUSH_CONDITIONS = (MAKHNO_PRESENT,)
"""II.D.2: likewise for an ambush."""


def total_modifier(modifiers: Iterable[Modifier], conditions: Iterable[str]) -> int:
    """Sum of the modifiers whose condition holds; an unknown condition is an error."""
    mods = {m.id: m.value for m in modifiers}
    total = 0
    for c in conditions:
        if c not in mods:
            raise UsageError(msg.lookup_unknown_modifier(c, list(mods)))
        total += mods[c]
    return total


def evades(partisan_roll: int, enemy_roll: int, modifier: int) -> bool:
    """II.D.1: no battle when the partisans' total (roll + modifiers) is strictly higher."""
    return partisan_roll + modifier > enemy_roll


def evade_chance(rules: PartisanRules, modifier: int) -> Fraction:
    die = Dice.parse(rules.evade.roll)
    dist = die.distribution()
    return sum(
        (pp * pe for p, pp in dist.items() for e, pe in dist.items() if evades(p, e, modifier)),
        Fraction(0),
    )


def ambush_succeeds(rules: PartisanRules, roll: int, modifier: int) -> bool:
    """II.D.2: a 6 (modified) springs the ambush."""
    return roll + modifier >= rules.ambush.succeeds_at


def ambush_chance(rules: PartisanRules, modifier: int) -> Fraction:
    return Dice.parse(rules.ambush.roll).chance(lambda roll: ambush_succeeds(rules, roll, modifier))


def guns_kept(rules: PartisanRules, held: int, captured: int) -> tuple[int, int]:
    """II.D.4: (kept, destroyed) of captured batteries, never above the cap in all."""
    room = max(0, rules.artillery_cap - held)
    kept = min(room, captured)
    return kept, captured - kept
