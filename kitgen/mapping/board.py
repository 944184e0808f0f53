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
    _around: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)
    """Hex id -> its neighbours on the map, worked out once: the rules ask for them millions of times."""

    _tracks: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)
    """Hex id -> the hexes a railway joins it to."""

    def __post_init__(self) -> None:
        for hex_id in self.terrain:
            cell = self.grid.parse_id(hex_id)
            found = () if cell is None else (self.grid.hex_id(*n) for n in self.grid.neighbours(*cell))
            self._around[hex_id] = tuple(n for n in found if n in self.terrain)
            self._tracks[hex_id] = tuple(n for n in self._around[hex_id] if frozenset((hex_id, n)) in self.rail)

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

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        """Adjacent hexes on the map, clockwise from north."""
        return self._around.get(hex_id, ())

    def adjacent(self, a: str, b: str) -> bool:
        ca, cb = self.grid.parse_id(a), self.grid.parse_id(b)
        return ca is not None and cb is not None and self.grid.direction(ca, cb) is not None

    def side(self, a: str, b: str) -> Hexside | None:
        return self.sides.get(frozenset((a, b)))

    def rail_neighbours(self, hex_id: str) -> tuple[str, ...]:
        """The hexes the railway joins `hex_id` to, clockwise from north."""
        return self._tracks.get(hex_id, ())

    def rail_link(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.rail

    def road_link(self, a: str, b: str) -> bool:
        return frozenset((a, b)) in self.roads
