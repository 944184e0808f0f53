"""Sections C.1 and D: load points of stands and whether they fit a train or a ship; the way
ships reach river ports."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from kitgen import messages as msg
from kitgen.errors import UsageError

if TYPE_CHECKING:
    from kitgen.mapping.board import Board
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
        raise UsageError(msg.lookup_unknown_stand_kind(unknown[0], list(points)))
    lines = tuple((kind, n, points[kind]) for kind, n in items.items())
    capacity = rules.train.capacity if carrier == "train" else rules.ship.capacity
    return Load(lines, sum(n * each for _, n, each in lines), capacity, carrier)


def river_passages(board: Board, ports: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """D.1 (ruling river_ports): a port with no sea hex beside it (Rostov up the Don, Nikolaev and
    Kherson up their limans) is reached along the shortest run of land hexes from the nearest sea
    hex; ships pass those hexes as sea. Port -> the passage hexes, from the sea end inwards."""
    found: dict[str, tuple[str, ...]] = {}
    for port in sorted(ports):
        if any(board.is_sea(n) for n in board.neighbours(port)):
            continue
        back: dict[str, str | None] = {port: None}
        queue = deque([port])
        while queue:
            here = queue.popleft()
            if any(board.is_sea(n) for n in board.neighbours(here)):
                path = []
                step: str | None = back[here]
                path.append(here)
                while step is not None and step != port:
                    path.append(step)
                    step = back[step]
                found[port] = tuple(path)
                break
            for n in board.neighbours(here):
                if n not in back and not board.is_sea(n):
                    back[n] = here
                    queue.append(n)
    return found
