"""The turn's dice: a roll the umpire gave in the log, else one drawn from the campaign's seed."""

from __future__ import annotations

import hashlib
import random

from kitgen.campaign import Campaign
from kitgen.engine.state import Roll
from kitgen.engine.turnlog import TurnLog
from kitgen.rules.dice import Dice


def seed_for(campaign: Campaign, purpose: str) -> int:
    """Each roll its own stream, from the campaign's seed and the roll's purpose: a replay draws
    the same, and adding a roll to one turn does not change the others."""
    return int.from_bytes(hashlib.sha256(f"{campaign.meta.seed}:{purpose}".encode()).digest()[:8], "big")


class BadRoll(Exception):
    """A roll given in the log that its dice cannot show; the replay reports it at its line."""

    def __init__(self, index: int, value: int, dice: str, low: int, high: int) -> None:
        super().__init__(index, value, dice)
        self.index, self.value, self.dice, self.low, self.high = index, value, dice, low, high


def roll(
    campaign: Campaign,
    log: TurnLog,
    rule: str,
    what: str,
    dice: str,
    *,
    units: tuple[str, ...] = (),
    hex: str | None = None,
) -> Roll:
    """The roll under `rule` for `what` (its purpose the two together): one the umpire wrote in
    the log, else one drawn from the campaign's seeded dice (an entry left with no value counts
    as not given). `units` and `hex` say what it decides, for the umpire's lists."""
    purpose = f"{rule} {what}"
    for index, given in enumerate(log.dice):
        if given.purpose == purpose and given.value is not None:
            d = Dice.parse(dice)
            if not d.low <= given.value <= d.high:
                raise BadRoll(index, given.value, dice, d.low, d.high)
            return Roll(purpose, dice, given.value, "given", rule, units, hex)
    rng = random.Random(seed_for(campaign, purpose))
    d = Dice.parse(dice)
    return Roll(purpose, dice, sum(rng.randint(1, d.sides) for _ in range(d.count)), "drawn", rule, units, hex)
