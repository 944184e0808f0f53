"""II.A Random events: the roll each strategic turn that draws a card."""

from __future__ import annotations

from fractions import Fraction

from kitgen.model.rules import EventRules
from kitgen.rules.dice import Dice


def draws_event(rules: EventRules, roll: int) -> bool:
    """II.A.1: draw an event card on a 6."""
    return roll in rules.draw_on


def event_chance(rules: EventRules) -> Fraction:
    return Dice.parse(rules.roll).chance(lambda roll: roll in rules.draw_on)
