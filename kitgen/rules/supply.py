"""Section B: depot cut-off rolls and vehicles out of fuel."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Literal

from kitgen import messages as msg
from kitgen.errors import UsageError
from kitgen.model.rules import SupplyRules
from kitgen.rules.dice import Dice


def full_loads(rules: SupplyRules, stands: Mapping[str, int]) -> dict[str, int]:
    """B.8 AMMO ALLOTMENTS: rounds per stand for each kind of the unit that carries ammunition."""
    return {a.stand: a.rounds for a in rules.ammo if stands.get(a.stand)}


def depot_empty_target(rules: SupplyRules, use: int) -> int:
    """B.7: the highest roll that empties a cut-off depot on its `use`-th turn of use (1 first)."""
    if use < 1:
        raise UsageError(msg.lookup_depot_use(use))
    c = rules.depot_cutoff
    return c.empties_on_first_use + (use - 1) * c.added_each_further_use


def depot_emptied(rules: SupplyRules, use: int, roll: int) -> bool:
    return roll <= depot_empty_target(rules, use)


def depot_empty_chance(rules: SupplyRules, use: int) -> Fraction:
    target = depot_empty_target(rules, use)
    return Dice.parse(rules.depot_cutoff.roll).chance(lambda roll: roll <= target)


def abandoned_vehicle(rules: SupplyRules, roll: int) -> Literal["intact", "destroyed"]:
    """B.8: an abandoned vehicle is left intact on an even roll, destroyed by its crew on odd."""
    even = roll % 2 == 0
    return "intact" if even == (rules.fuel.intact_on == "even") else "destroyed"
