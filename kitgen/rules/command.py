"""II.C Command control: a D10 at or under the rating obeys; failures make the next roll easier."""

from __future__ import annotations

from fractions import Fraction

from kitgen import messages as msg
from kitgen.errors import UsageError
from kitgen.model.rules import CommandRules
from kitgen.rules.dice import Dice


def obey_target(rules: CommandRules, rating: int | None, *, failures: int = 0, adjacent: bool = False) -> int:
    """The highest natural roll that obeys.

    `rating` is the commander's dependability, or None for units with no commander in the
    hex (II.C.1: 1-4 with one adjacent, 1-3 if not). Each earlier failure in a row takes
    `failure_bonus` off the roll (II.C.4), i.e. raises the target.
    """
    if failures < 0:
        raise UsageError(msg.lookup_negative_failures(failures))
    base = rating if rating is not None else (rules.leaderless.adjacent if adjacent else rules.leaderless.alone)
    return base + failures * rules.failure_bonus


def obeys(rules: CommandRules, roll: int, rating: int | None, *, failures: int = 0, adjacent: bool = False) -> bool:
    return roll <= obey_target(rules, rating, failures=failures, adjacent=adjacent)


def obey_chance(rules: CommandRules, rating: int | None, *, failures: int = 0, adjacent: bool = False) -> Fraction:
    target = obey_target(rules, rating, failures=failures, adjacent=adjacent)
    return Dice.parse(rules.roll).chance(lambda roll: roll <= target)
