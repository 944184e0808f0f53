"""Section A: what a unit pays to enter a hex, and the vehicle breakdown rolls (A.4-A.5)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from kitgen import messages as msg
from kitgen.errors import UsageError
from kitgen.model.base import PROHIBITED
from kitgen.model.rules import Breakdown, MovementRules, UnitType
from kitgen.rules.dice import Dice

River = Literal["none", "crossable", "major"]
Barrier = Literal["terrain", "river", "track", "sea"]
"""What bars a step a unit may not take: terrain (`p*` off the roads), a river, leaving the
track (a unit that keeps to it), sea or open water."""
RIVERS: tuple[River, ...] = ("none", "crossable", "major")


def pontoon_types(rules: MovementRules) -> frozenset[str]:
    """A.1: the unit types that emplace and pick up pontoons (the pontoon type and any moving as it)."""
    return frozenset(t.id for t in rules.unit_types if t.id == "pontoon" or t.moves_as == "pontoon")


@dataclass(frozen=True)
class EntryCost:
    """The MP to enter one hex, or why the unit may not; `parts` explain the sum."""

    mp: int | None
    parts: tuple[str, ...]
    rule: str
    whole_move: bool = False
    reason: str | None = None
    barrier: Barrier | None = None
    """Why the step may not be taken, as data (`reason` says it in words)."""

    @property
    def allowed(self) -> bool:
        return self.mp is not None


def unit_type(rules: MovementRules, type_id: str) -> UnitType:
    """The unit type with this id; an unknown id is a UsageError naming the known ones."""
    for u in rules.unit_types:
        if u.id == type_id:
            return u
    raise UsageError(msg.lookup_unknown_unit_type(type_id, [u.id for u in rules.unit_types]))


def movement_row(rules: MovementRules, type_id: str) -> UnitType:
    """The row of the A table a unit type moves by (following `moves_as`)."""
    row = unit_type(rules, type_id)
    return unit_type(rules, row.moves_as) if row.moves_as else row


def entry_cost(
    rules: MovementRules,
    type_id: str,
    terrain: str,
    *,
    river: River = "none",
    bridge: bool = False,
    road: bool = False,
    rail: bool = False,
    pontoon: bool = False,
) -> EntryCost:
    """MP for a unit of `type_id` to enter a hex of `terrain` (A, A.1, RULES-NOTES rulings).

    `river` is the class of the hexside crossed; `bridge` a road or rail crossing there;
    `road`/`rail` a road or rail line through the hex entered; `pontoon` a pontoon or
    ferry at the hexside.
    """
    row = movement_row(rules, type_id)
    terrains = [t.id for t in rules.terrain]
    if terrain not in terrains:
        raise UsageError(msg.lookup_unknown_terrain(terrain, terrains))
    if row.rail_only:
        if not rail:
            return EntryCost(None, (), "A", reason=f"{row.name} must stay on RR track", barrier="track")
        if river == "major" and not bridge:
            return EntryCost(None, (), "A.1", reason="track crosses a major river only at a bridge", barrier="river")
        return EntryCost(1, ("1 hex along the track",), "A")
    assert row.cost is not None and row.crossable_river is not None
    parts: list[str] = []
    cost = row.cost[terrain]
    if cost == PROHIBITED:
        if not (road or rail):
            return EntryCost(
                None,
                (),
                "A",
                reason=f"{row.name} may enter {terrain} only along a road or rail line (p*)",
                barrier="terrain",
            )
        cost = rules.road_cost
        parts.append(f"{terrain} along road/rail {cost}")
    else:
        parts.append(f"{terrain} {cost}")
    assert isinstance(cost, int)
    total = cost
    if river == "crossable":
        if bridge:
            parts.append("+0 at a bridge")
        elif row.crossable_river == PROHIBITED:
            return EntryCost(
                None, (), "A", reason=f"{row.name} cross a crossable river only at a bridge (p*)", barrier="river"
            )
        else:
            assert isinstance(row.crossable_river, int)
            total += row.crossable_river
            parts.append(f"+{row.crossable_river} crossable river")
    elif river == "major":
        if bridge:
            parts.append("+0 at a bridge")
        elif pontoon:
            assert row.mp is not None
            return EntryCost(row.mp, ("major river by pontoon or ferry: the whole move",), "A.1", whole_move=True)
        else:
            return EntryCost(
                None,
                (),
                "A.1",
                reason="a major river is crossed only at a bridge or with a pontoon or ferry",
                barrier="river",
            )
    return EntryCost(total, tuple(parts), "A.1" if river != "none" else "A")


def breakdown_roll(rules: MovementRules, type_id: str, *, carried: bool) -> Breakdown | None:
    """A.4-A.5: the roll owed by a vehicle that moved this turn; none when carried by train or ship."""
    if carried and rules.breakdown_exempt_when_carried:
        return None
    return next((b for b in rules.breakdown if b.unit_type == type_id), None)


def breaks_down(breakdown: Breakdown, roll: int) -> bool:
    return roll in breakdown.fails_on


def breakdown_chance(breakdown: Breakdown) -> Fraction:
    return Dice.parse(breakdown.roll).chance(lambda total: total in breakdown.fails_on)
