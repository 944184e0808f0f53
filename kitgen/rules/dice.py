"""Dice: parsing 'D6', '2D6', '3D6', 'D10', and exact odds."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache


@dataclass(frozen=True)
class Dice:
    count: int
    sides: int

    @classmethod
    def parse(cls, spec: str) -> Dice:
        count, _, sides = spec.upper().partition("D")
        return cls(int(count or 1), int(sides))

    @property
    def low(self) -> int:
        return self.count

    @property
    def high(self) -> int:
        return self.count * self.sides

    def __str__(self) -> str:
        return f"{self.count if self.count > 1 else ''}D{self.sides}"

    def distribution(self) -> dict[int, Fraction]:
        """Exact probability of each total."""
        return dict(_distribution(self.count, self.sides))

    def chance(self, wins: Callable[[int], bool]) -> Fraction:
        """Probability that the total satisfies `wins`."""
        return sum((p for total, p in _distribution(self.count, self.sides) if wins(total)), Fraction(0))


@cache
def _distribution(count: int, sides: int) -> tuple[tuple[int, Fraction], ...]:
    ways: dict[int, int] = {0: 1}
    for _ in range(count):
        nxt: dict[int, int] = {}
        for total, n in ways.items():
            for face in range(1, sides + 1):
                nxt[total + face] = nxt.get(total + face, 0) + n
        ways = nxt
    whole = sides**count
    return tuple((t, Fraction(n, whole)) for t, n in sorted(ways.items()))


def percent(p: Fraction) -> str:
    """A probability as a percentage with one decimal where needed: '8.3%', '50%'."""
    value = float(p) * 100
    return f"{value:.0f}%" if abs(value - round(value)) < 1e-9 else f"{value:.1f}%"
