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


def roll(campaign: Campaign, log: TurnLog, purpose: str, dice: str) -> Roll:
    """A roll the umpire wrote in the log, else one drawn from the campaign's seeded dice."""
    given = next((r for r in log.dice if r.purpose == purpose), None)
    if given is not None:
        return Roll(purpose, dice, given.value, "given")
    rng = random.Random(seed_for(campaign, purpose))
    d = Dice.parse(dice)
    return Roll(purpose, dice, sum(rng.randint(1, d.sides) for _ in range(d.count)), "drawn")
