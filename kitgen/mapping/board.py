"""The hex map as a board for play: quick look-ups of hexes, neighbours, hexsides and links,
and the same board as integer-indexed arrays for whole-board searches."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from kitgen.mapping.hexgrid import DIRECTIONS, HexGrid
from kitgen.mapping.hexmap import SEA, HexMap, Hexside, SupplySourceHex


@dataclass(frozen=True)
class BoardArrays:
    """The board as integer-indexed arrays for whole-board searches.

    Hexes are numbered 0..N-1 in the order of their ids, so sorting ids and sorting numbers
    agree. Tables have six columns, one per direction clockwise from north, with -1 for no hex,
    and are stored column by column so that a direction's column is contiguous. Per-hex arrays
    have one element more, the padding at index -1, so that a look-up through -1 lands on it."""

    ids: tuple[str, ...]
    index: dict[str, int]
    around: npt.NDArray[np.intp]
    """(N, 6): the neighbour in each direction, or -1."""
    track: npt.NDArray[np.intp]
    """(N, 6): the neighbour a railway joins the hex to in each direction, or -1."""
    sea: npt.NDArray[np.bool_]
    """(N + 1,): sea hexes; the padding is False."""
    open_sides: npt.NDArray[np.bool_]
    """(N, 6): a neighbour lies that way and no open water or unbridged major river is between
    (B.3: the trace runs "not across sea or an unbridged major-river hexside")."""
    open_from: npt.NDArray[np.intp]
    """(6, N + 1): direction by direction, the neighbour across each open side, or -1; the
    padding's column is -1 too, so whole-board look-ups through it keep to the padding."""
    track_from: npt.NDArray[np.intp]
    """(6, N + 1): `track` direction by direction, padded the same way."""
    steps: tuple[tuple[tuple[int, int, bool], ...], ...]
    """Hex -> its (direction, neighbour, open side) triples, clockwise from north: for walking one path."""
    track_steps: tuple[tuple[int, ...], ...]
    """Hex -> the hexes a railway joins it to, clockwise from north."""

    @property
    def count(self) -> int:
        return len(self.ids)

    def direction(self, a: int, b: int) -> int | None:
        """Which column of the tables leads from hex `a` to hex `b`, if they are neighbours."""
        return next((d for d, n, _ in self.steps[a] if n == b), None)


def board_arrays(
    grid: HexGrid, terrain: Mapping[str, str], sides: Mapping[frozenset[str], Hexside], rail: Collection[frozenset[str]]
) -> BoardArrays:
    """The arrays of a board: neighbours by offset arithmetic over the whole grid at once."""
    ids = tuple(sorted(terrain))
    index = {h: i for i, h in enumerate(ids)}
    n = len(ids)
    cells = [grid.parse_id(h) or (0, 0) for h in ids]
    col = np.array([c for c, _ in cells], dtype=np.intp).reshape(n)
    row = np.array([r for _, r in cells], dtype=np.intp).reshape(n)
    at = np.full((grid.columns + 2, grid.rows + 2), -1, dtype=np.intp)
    at[col, row] = np.arange(n)
    at[0, 0] = -1  # ids that are no hex of the grid have no neighbours
    # axial coordinates (RULES-NOTES' even columns half a hex lower), as HexGrid.neighbours
    q = col - 1
    r = (row - 1) - (q - (q & 1)) // 2
    around = np.full((n, 6), -1, dtype=np.intp, order="F")
    for d, (dq, dr) in enumerate(DIRECTIONS):
        nq = q + dq
        ncol, nrow = nq + 1, r + dr + (nq - (nq & 1)) // 2 + 1
        inside = (col > 0) & (ncol >= 1) & (ncol <= grid.columns) & (nrow >= 1) & (nrow <= grid.rows)
        around[inside, d] = at[ncol[inside], nrow[inside]]

    def step(a: str, b: str) -> tuple[int, int, int] | None:
        """(hex, direction, neighbour) from a to b, when both are hexes of the board and adjacent."""
        i, j = index.get(a, -1), index.get(b, -1)
        if i < 0 or j < 0:
            return None
        d = next((d for d in range(6) if around[i, d] == j), None)
        return None if d is None else (i, d, j)

    track = np.full((n, 6), -1, dtype=np.intp, order="F")
    for link in rail:
        found = step(*sorted(link)) if len(link) == 2 else None
        if found is not None:
            i, d, j = found
            track[i, d], track[j, (d + 3) % 6] = j, i
    open_sides = np.asfortranarray(around >= 0)
    for pair, side in sides.items():
        found = step(*sorted(pair)) if len(pair) == 2 else None
        if found is not None and not side.bridge and (side.sea or side.river_class == "major"):
            i, d, j = found
            open_sides[i, d] = open_sides[j, (d + 3) % 6] = False
    sea = np.zeros(n + 1, dtype=np.bool_)
    sea[:n] = [terrain[h] == SEA for h in ids]
    open_from = np.full((6, n + 1), -1, dtype=np.intp)
    open_from[:, :n] = np.where(open_sides, around, -1).T
    track_from = np.full((6, n + 1), -1, dtype=np.intp)
    track_from[:, :n] = track.T
    return BoardArrays(
        ids=ids,
        index=index,
        around=around,
        track=track,
        sea=sea,
        open_sides=open_sides,
        open_from=open_from,
        track_from=track_from,
        steps=tuple(
            tuple((d, j, o) for d, (j, o) in enumerate(zip(js, os, strict=True)) if j >= 0)
            for js, os in zip(around.tolist(), open_sides.tolist(), strict=True)
        ),
        track_steps=tuple(tuple(j for j in js if j >= 0) for js in track.tolist()),
    )


@dataclass(frozen=True)
class Board:
    """Everything the rules ask of the map: terrain by hex, hexsides, rail and road links,
    towns, ports and coasts, the map's edges, ferries and supply sources. The engine reads
    the map through this alone."""

    grid: HexGrid
    terrain: dict[str, str]
    """Hex id -> terrain id, or 'sea'."""
    sides: dict[frozenset[str], Hexside] = field(default_factory=dict)
    rail: frozenset[frozenset[str]] = frozenset()
    roads: frozenset[frozenset[str]] = frozenset()
    ports: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Port hex -> the towns in it."""
    towns: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Hex -> the towns in it, for the hexes with towns, in the map's order of hexes."""
    coastal: frozenset[str] = frozenset()
    """Land hexes on the coast (A.3: where infantry may land from a ship)."""
    ferries: dict[frozenset[str], int] = field(default_factory=dict)
    """A.1: major-river hexsides with a ferry, and the units each takes across per turn."""
    sources: tuple[SupplySourceHex, ...] = ()
    """B.4: the fixed supply sources, by faction."""
    conditional_sources: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Per faction, sources that are no fixed hex: 'ports with_friendly_ship', 'depots captured'."""
    places: dict[str, str] = field(default_factory=dict)
    """name_key of every named place (towns by any of their names, railway and map points, hex
    ids) -> its hex: where a set-up, a card or a slip puts things."""
    _around: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)
    """Hex id -> its neighbours on the map, worked out once: the rules ask for them millions of times."""

    _tracks: dict[str, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)
    """Hex id -> the hexes a railway joins it to."""

    _on_edge: dict[str, frozenset[str]] = field(default_factory=dict, repr=False, compare=False)
    """Map edge -> the hexes on it, worked out the first time an edge is asked for."""

    arrays: BoardArrays = field(init=False, repr=False, compare=False)
    """The same board as arrays, for whole-board searches; the look-ups above are made from them."""

    def __post_init__(self) -> None:
        arrays = board_arrays(self.grid, self.terrain, self.sides, self.rail)
        object.__setattr__(self, "arrays", arrays)
        ids = arrays.ids
        for hex_id, steps, tracks in zip(ids, arrays.steps, arrays.track_steps, strict=True):
            self._around[hex_id] = tuple(ids[j] for _, j, _ in steps)
            self._tracks[hex_id] = tuple(ids[j] for j in tracks)

    @classmethod
    def from_map(cls, hex_map: HexMap, places: dict[str, str] | None = None) -> Board:
        return cls(
            grid=hex_map.grid,
            terrain={h.id: h.terrain for h in hex_map.hexes},
            sides={frozenset(s.hexes): s for s in hex_map.hexsides},
            rail=frozenset(frozenset(k.hexes) for k in hex_map.rail),
            roads=frozenset(frozenset(k.hexes) for k in hex_map.roads),
            ports={h.id: tuple(h.towns) for h in hex_map.hexes if h.port},
            towns={h.id: tuple(h.towns) for h in hex_map.hexes if h.towns},
            coastal=frozenset(h.id for h in hex_map.hexes if h.coastal),
            ferries={frozenset(f.hexes): f.units for f in hex_map.ferries},
            sources=hex_map.supply_sources,
            conditional_sources=dict(hex_map.conditional_sources),
            places=dict(places or {}),
        )

    @classmethod
    def from_spec(cls, data: object) -> Board:
        """A board given hex by hex (kitgen/mapping/handmade.py has the format)."""
        from kitgen.mapping.handmade import board_spec, hex_map_of
        from kitgen.model.scenario import name_key

        hex_map = hex_map_of(board_spec(data))
        places = {h.id: h.id for h in hex_map.hexes} | {name_key(t): h.id for h in hex_map.hexes for t in h.towns}
        return cls.from_map(hex_map, places)

    def edges(self, hex_id: str) -> frozenset[str]:
        """The map edges a hex lies on: north, south, east, west."""
        cell = self.grid.parse_id(hex_id)
        if cell is None or hex_id not in self.terrain:
            return frozenset()
        col, row = cell
        sides = {"north": row == 1, "south": row == self.grid.rows, "west": col == 1, "east": col == self.grid.columns}
        return frozenset(edge for edge, on in sides.items() if on)

    def edge_hexes(self, edge: str) -> frozenset[str]:
        """The hexes on a map edge (north, south, east or west), sea included."""
        found = self._on_edge.get(edge)
        if found is None:
            found = self._on_edge[edge] = frozenset(h for h in self.terrain if edge in self.edges(h))
        return found

    def is_port(self, hex_id: str) -> bool:
        return hex_id in self.ports

    def ferry(self, a: str, b: str) -> int:
        """A.1: how many units the ferry across the a-b hexside takes a turn (0: no ferry)."""
        return self.ferries.get(frozenset((a, b)), 0)

    def on_map(self, hex_id: str) -> bool:
        return hex_id in self.terrain

    def is_sea(self, hex_id: str) -> bool:
        return self.terrain.get(hex_id) == SEA

    def neighbours(self, hex_id: str) -> tuple[str, ...]:
        """Adjacent hexes on the map, clockwise from north."""
        return self._around.get(hex_id, ())

    def adjacent(self, a: str, b: str) -> bool:
        """Neighbours on the grid, on the map or not."""
        if b in self._around.get(a, ()):
            return True
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
