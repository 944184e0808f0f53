"""Sections C.1 and D.3: load points of stands and whether they fit a train or a ship."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from kitgen.model.rules import TransportRules

Carrier = Literal["train", "ship"]


@dataclass(frozen=True)
class Load:
    """A carrier's load: (kind, count, points each) per line, and the total against capacity."""

    lines: tuple[tuple[str, int, int], ...]
    total: int
    capacity: int
    carrier: Carrier

    @property
    def fits(self) -> bool:
        return self.total <= self.capacity


def load_points(rules: TransportRules, items: Mapping[str, int], carrier: Carrier) -> Load:
    """Points of `items` (stand kind -> count) and the capacity of one train or ship."""
    points = {k.id: k.points for k in rules.stands}
    unknown = [k for k in items if k not in points]
    if unknown:
        raise LookupError(f"unknown stand kind '{unknown[0]}'; expected one of: {', '.join(points)}")
    lines = tuple((kind, n, points[kind]) for kind, n in items.items())
    capacity = rules.train.capacity if carrier == "train" else rules.ship.capacity
    return Load(lines, sum(n * each for _, n, each in lines), capacity, carrier)
