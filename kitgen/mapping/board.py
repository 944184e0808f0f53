"""The hex map as a board for play: quick look-ups of hexes, neighbours, hexsides and links."""

from __future__ import annotations

from dataclasses import dataclass, field

from kitgen.mapping.hexgrid import HexGrid
from kitgen.mapping.hexmap import SEA, HexMap, Hexside


@dataclass(frozen=True)
class Board:
    """What the rules ask of the map: terrain by hex, hexside features, rail and road links."""

    grid: HexGrid
    terrain: dict[str, str]
    """Hex id -> terrain id, or 'sea'."""
    sides: dict[frozenset[str], Hexside] = field(default_factory=dict)
    rail: frozenset[frozenset[str]] = frozenset()
    roads: frozenset[frozenset[str]] = frozenset()

    @classmethod
    def from_map(cls, hex_map: HexMap) -> Board:
        return cls(
            grid=hex_map.grid,
            terrain={h.id: h.terrain for h in hex_map.hexes},
            sides={frozenset(s.hexes): s for s in hex_map.hexsides},
            rail=frozenset(frozenset(k.hexes) for k in hex_map.rail),
            roads=frozenset(frozenset(k.hexes) for k in hex_map.roads),
        )

    def on_map(self, hex_id: str) -> bool:
        return hex_id in self.terrain

    def is_sea(self, hex_id: str) -> bool:
        return self.terrain.get(hex_id) == SEA

    def neighbours(self, hex_id: str) -> list[str]:
        """Adjacent hexes on the map, clockwise from north."""
        cell = self.grid.parse_id(hex_id)
        if cell is None:
            return []
        found = (self.grid.hex_id(*n) for n in self.grid.neighbours(*cell))
        return [n for n in found if n in self.terrain]

    def adjacent(self, a: str, b: str) -> bool:
        ca, cb = self.grid.parse_id(a), self.grid.parse_id(b)
        return ca is not None and cb is not None and self.grid.direction(ca, cb) is not None

    def side(self, a: str, b: str) -> Hexside | None:
        return self.sides.get(frozenset((a, b)))

    def rail_link(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.rail

    def road_link(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.roads
