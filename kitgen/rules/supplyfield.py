"""B.3 for the whole board at once: in which hexes a faction's unit would be in supply, and the
path that proves it for any one hex, the same path `supply_trace` finds.

One pass per faction: the rail net from the sources over intact, enemy-free track (a search
in the order `rail_tree` makes it, so that every hex's next hex towards a source is the same),
then rings of overland steps outwards from every hex of the net and every source, over the
whole board at once. A unit's own hex is not enemy-held for its own trace (the engine's reading
for a contested hex): a hex holding enemy units is judged as its own start, never entered.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from kitgen.mapping.board import Board, BoardArrays

FAR = np.int16(np.iinfo(np.int16).max)
"""Steps to a hex no trace reaches."""


@dataclass(frozen=True)
class RailNet:
    """Every hex joined over intact, enemy-free track to a source, and its next hex towards one."""

    on: npt.NDArray[np.bool_]
    """(N + 1,): on the net; the padding is False."""
    toward: list[int]
    """Hex -> the next hex towards a source along the track; -1 at a source or off the net."""
    order: npt.NDArray[np.int32]
    """(N,): when the search reached the hex (sources first, in id order); -1 off the net."""
    _rails: dict[int, tuple[str, ...]] = field(default_factory=dict, repr=False, compare=False)
    """Hex -> its way along the track to a source, as walked so far."""

    def rail(self, ids: tuple[str, ...], hex_: int) -> tuple[str, ...]:
        """The hex and the track from it to a source (just the hex when it is off the net)."""
        walked = []
        while hex_ >= 0 and hex_ not in self._rails:
            walked.append(hex_)
            hex_ = self.toward[hex_]
        tail = self._rails.get(hex_, ())
        for h in reversed(walked):  # each hex of the way keeps its own path, for the next unit
            tail = self._rails[h] = (ids[h], *tail)
        return tail


def rail_net(arrays: BoardArrays, roots: Collection[int], blocked: Collection[int]) -> RailNet:
    """The net from `roots` (hex numbers) over track avoiding `blocked` hexes.

    A breadth-first search, each hex's next hex the first that reached it, sources in id order:
    the same tree as `rail_tree`. The net is a thin graph (on the bundled map 485 of 1,809 hexes,
    up to 62 steps deep), so it walks hex by hex: ring by ring in arrays, the same tree took
    0.62 ms against 0.10 ms, each ring's few hexes paying the arrays' overhead."""
    n = arrays.count
    toward = [-1] * n
    order = np.full(n, -1, dtype=np.int32)
    free = [True] * n
    for b in blocked:
        free[b] = False
    queue = [r for r in sorted(roots) if free[r]]
    for r in queue:
        free[r] = False
    track, reach = arrays.track_steps, queue.append
    for here in queue:  # the loop goes on over the hexes appended meanwhile: first in, first out
        for there in track[here]:
            if free[there]:
                free[there] = False
                toward[there] = here
                reach(there)
    on = np.zeros(n + 1, dtype=np.bool_)
    if queue:
        reached = np.array(queue, dtype=np.intp)
        on[reached] = True
        order[reached] = np.arange(len(queue), dtype=np.int32)
    return RailNet(on, toward, order)


@dataclass(frozen=True)
class SupplyField:
    """One faction's supply over the whole board: `need[h]` is how many overland hexes a unit
    in hex h must trace to reach the rail net or a source (0 on them; more than `trace_hexes`
    when it cannot), with its own hex not counted as enemy-held."""

    arrays: BoardArrays
    trace_hexes: int
    net: RailNet
    source: npt.NDArray[np.bool_]
    """(N + 1,): the faction's source hexes on the board."""
    sources: frozenset[str]
    steps: npt.NDArray[np.int16]
    """(N + 1,): overland hexes from the hex to the net or a source through hexes a trace may
    enter (FAR beyond `trace_hexes` - 1, and for a hex no trace may enter)."""
    need: npt.NDArray[np.int16]
    """(N + 1,): the trace a unit standing in the hex needs; FAR for the padding."""
    crossings: frozenset[tuple[int, int]]
    """(hex, neighbour) pairs the faction's pontoons bridge."""
    _steps: list[list[int]] = field(default_factory=list, repr=False, compare=False)
    """`steps` as a list, once a path is walked: read hex by hex, a list is quicker."""
    _paths: dict[int, tuple[str, ...] | None] = field(default_factory=dict, repr=False, compare=False)
    _railheads: dict[str, int] = field(default_factory=dict, repr=False, compare=False)

    @property
    def in_supply(self) -> npt.NDArray[np.bool_]:
        """(N,): a unit in the hex would be in supply."""
        return np.asarray(self.need[:-1] <= self.trace_hexes)

    def path(self, hex_id: str) -> tuple[str, ...] | None:
        """The hexes that prove a unit in `hex_id` is in supply, from it to a source, or None:
        overland first, shortest and first clockwise from north at each step, then the track."""
        i = self.arrays.index.get(hex_id)
        if i is None:  # off the board: only a source proves itself
            return (hex_id,) if hex_id in self.sources else None
        if i not in self._paths:
            self._paths[i] = self._walk(i) if self.need[i] <= self.trace_hexes else None
        return self._paths[i]

    def railhead(self, path: tuple[str, ...]) -> int:
        """Where a path of this field (`path(hex)`) leaves the overland part: the index of its
        first hex on the rail net or on a source (overland path[:i + 1], rail path[i:])."""
        key = path[0] if path else ""
        if key not in self._railheads:  # a field walks one path from each hex: its start names it
            index, i = self.arrays.index, len(path) - 1
            for k, hex_id in enumerate(path):
                j = index.get(hex_id, -1)
                if j < 0 or self.net.on[j] or self.source[j]:
                    i = k
                    break
            self._railheads[key] = i
        return self._railheads[key]

    def _walk(self, start: int) -> tuple[str, ...]:
        ids = self.arrays.ids
        if self.need[start] == 0 and not self.net.on[start] and not self.source[start]:
            # enemy-held track next to the net: the unit's own hex joins the net for its own trace
            near = [j for j in self.arrays.track_steps[start] if self.net.on[j]]
            return (ids[start], *self._rail(min(near, key=lambda j: int(self.net.order[j]))))
        if not self._steps:
            self._steps.append(self.steps.tolist())
        steps = self._steps[0]
        overland = [start]
        here, left = start, int(self.need[start])
        while left > 0:
            left -= 1
            here = next(
                j
                for _, j, open_side in self.arrays.steps[here]
                if steps[j] == left and (open_side or (here, j) in self.crossings)
            )
            overland.append(here)
        return (*(ids[h] for h in overland[:-1]), *self._rail(here))

    def _rail(self, hex_: int) -> tuple[str, ...]:
        return self.net.rail(self.arrays.ids, hex_)


def supply_field(
    board: Board,
    sources: Collection[str],
    *,
    enemy: Collection[str] = frozenset(),
    wrecked: Collection[str] = frozenset(),
    trace_hexes: int,
    crossings: Collection[frozenset[str]] = frozenset(),
) -> SupplyField:
    """B.3 for every hex of the board for one faction: `sources` its source hexes, `enemy` the
    hexes holding its enemies' units, `wrecked` the hexes of wrecked track, `crossings` the
    hexsides its own pontoons bridge."""
    arrays = board.arrays
    n = arrays.count
    index = arrays.index
    roots = [index[h] for h in sources if h in index]
    held = [index[h] for h in enemy if h in index]
    wrecked_at = [index[h] for h in wrecked if h in index]
    net = rail_net(arrays, roots, {*held, *wrecked_at})
    source, enemy_at = _mask(n, roots), _mask(n, held)

    bridged = set()
    for pair in crossings:
        a, b = (index.get(h, -1) for h in sorted(pair))
        if a >= 0 and b >= 0 and arrays.direction(a, b) is not None:
            bridged |= {(a, b), (b, a)}
    came = arrays.open_from
    if bridged:
        came = came.copy()
        for a, b in bridged:
            came[arrays.direction(a, b), a] = b

    enterable = ~arrays.sea & ~enemy_at
    target = net.on | source
    steps = np.full(n + 1, FAR, dtype=np.int16)
    ring = target & enterable
    steps[ring] = 0
    reached = ring
    for k in range(1, trace_hexes):  # the rings a unit's trace may pass through
        ring = reached[came].any(axis=0) & enterable & ~reached
        if not ring.any():  # nothing more to reach: a search without a limit ends here too
            break
        steps[ring] = k
        reached = reached | ring
    need = np.minimum(steps[came].min(axis=0), FAR - 1) + 1  # FAR stays FAR
    # a unit on a source or on the net needs no overland hex; nor one whose own hex is enemy-held
    # track next to the net, for its own hex is not enemy-held for its own trace
    beside_net = np.asarray(net.on[arrays.track_from].any(axis=0))
    beside_net[wrecked_at] = False
    need[target | beside_net] = 0
    return SupplyField(
        arrays=arrays,
        trace_hexes=trace_hexes,
        net=net,
        source=source,
        sources=frozenset(sources),
        steps=steps,
        need=need,
        crossings=frozenset(bridged),
    )


def _mask(n: int, hexes: list[int]) -> npt.NDArray[np.bool_]:
    """(N + 1,): True at `hexes`."""
    out = np.zeros(n + 1, dtype=np.bool_)
    out[hexes] = True
    return out
