"""II.B Post-battle: permanent and returning losses, routed troops, equipment."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_HALF_UP, Decimal
from typing import Literal

from kitgen import messages as msg
from kitgen.errors import UsageError
from kitgen.model.rules import BattleRules

Side = Literal["winner", "loser"]


@dataclass(frozen=True)
class Losses:
    permanent: int
    returning: int
    routed_lost: int
    routed_returning: int


def _share(n: int, pct: int, rounding: str) -> int:
    return int((Decimal(n) * pct / 100).quantize(Decimal(1), rounding=rounding))


def losses(rules: BattleRules, side: Side, lost: int, routed: int = 0, *, exempt: bool = False) -> Losses:
    """II.B.3 for one unit: `lost` stands lost and `routed` stands routed on the tabletop.

    Permanent losses round half up (RULES-NOTES); the loser's routed stands desert or are
    captured at routed_lost_pct, rounded up, unless the unit is Elite/Fanatic (`exempt`).
    """
    if lost < 0 or routed < 0:
        raise UsageError(msg.lookup_negative_stands(lost, routed))
    part = rules.winner if side == "winner" else rules.loser
    permanent = _share(lost, part.permanent_pct, ROUND_HALF_UP)
    routed_lost = 0
    if side == "loser" and not exempt:
        routed_lost = _share(routed, rules.loser.routed_lost_pct, ROUND_CEILING)
    return Losses(permanent, lost - permanent, routed_lost, routed - routed_lost)


def equipment_recovered(rules: BattleRules, side: Side, roll: int | None = None) -> bool:
    """II.B.3: the winner's lost equipment is recovered on an even (D6) roll; the loser's is lost."""
    if side == "loser":
        return False
    if roll is None:
        raise UsageError(msg.lookup_no_equipment_roll())
    return (roll % 2 == 0) == (rules.winner.equipment.recovered_on == "even")
