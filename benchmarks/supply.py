"""B.3 for every hex of the bundled scenario's board and every faction, whole-board arrays
(kitgen/rules/supplyfield.py) against networkx on the same graph, in process.

The set-up's state gives each faction its sources, its enemies' hexes, the wrecked track and
its pontoons. networkx searches the same graph: the rail net from the sources over track
(wrecked track left out, enemy-held track reached but never left, which is how a unit in a
contested hex sees its own hex), then at most `trace_hexes` overland steps back from the net
and the sources, each step into a hex the trace may enter. Its graphs are built before the
clock starts; only the searches are timed. Both must find the same in-supply hexes.

Run as `python benchmarks/supply.py`, or call `measure()` / `supply_rows()`; networkx is in the
`bench` extra (`pip install -e '.[bench]'`).
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import networkx as nx
import numpy as np
import numpy.typing as npt

from kitgen.campaign import load_campaign, new_campaign
from kitgen.engine.context import enemies
from kitgen.engine.phases.pontoons import friendly_pontoons
from kitgen.engine.phases.supply import supply_sources
from kitgen.engine.setup import initial_state
from kitgen.mapping.board import Board
from kitgen.rules.supplyfield import supply_field

SCENARIO = "denikin-1919"


@dataclass(frozen=True)
class Faction:
    """What one faction's supply is judged from, at the set-up."""

    name: str
    sources: frozenset[str]
    enemy: frozenset[str]
    wrecked: frozenset[str]
    crossings: frozenset[frozenset[str]]


@dataclass(frozen=True)
class Timing:
    median: float
    low: float
    high: float

    @classmethod
    def of(cls, seconds: list[float]) -> Timing:
        return cls(statistics.median(seconds), min(seconds), max(seconds))

    def __str__(self) -> str:
        return f"{self.median * 1000:.2f} ms (min {self.low * 1000:.2f}, max {self.high * 1000:.2f})"


@dataclass(frozen=True)
class Result:
    hexes: int
    factions: int
    in_supply: int
    """In-supply hexes summed over the factions (the same for both searches)."""
    arrays: Timing
    networkx: Timing
    ratio: float
    """networkx's median over the arrays' median."""
    networkx_bfs: Timing
    """networkx's breadth-first layers instead of Dijkstra: its quicker search here."""
    ratio_bfs: float


def setup_state() -> tuple[Board, int, list[Faction]]:
    """The bundled scenario's board, its trace length and each faction's set-up."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "campaign"
        new_campaign(folder, SCENARIO, 1919)
        campaign = load_campaign(folder)
    board = Board.from_map(campaign.hex_map)
    state = initial_state(campaign)
    factions = [
        Faction(
            f,
            frozenset(supply_sources(campaign, board, state, f)),
            frozenset(enemies(state, f, state.turn)),
            frozenset(state.wrecked_track),
            frozenset(friendly_pontoons(state, f)),
        )
        for f in sorted({u.faction for u in state.units})
    ]
    return board, campaign.scenario.supply.trace_hexes, factions


def by_arrays(board: Board, trace: int, factions: list[Faction]) -> list[npt.NDArray[np.bool_]]:
    """Each faction's answer for every hex, True where a unit would be in supply."""
    return [
        supply_field(
            board, f.sources, enemy=f.enemy, wrecked=f.wrecked, trace_hexes=trace, crossings=f.crossings
        ).in_supply
        for f in factions
    ]


@dataclass(frozen=True)
class Graphs:
    """One faction's two search graphs for networkx."""

    rail: nx.DiGraph[str]
    """Track links, none from an enemy-held hex, none into or out of wrecked track."""
    back: nx.DiGraph[str]
    """Overland steps reversed: v -> u for a step from u into v, when v may be entered."""
    sources: frozenset[str]


def graphs(board: Board, f: Faction) -> Graphs:
    rail: nx.DiGraph[str] = nx.DiGraph()
    back: nx.DiGraph[str] = nx.DiGraph()
    rail.add_nodes_from(board.terrain)
    back.add_nodes_from(board.terrain)
    for u in board.terrain:
        for v in board.neighbours(u):
            if board.rail_link(u, v) and u not in f.enemy and u not in f.wrecked and v not in f.wrecked:
                rail.add_edge(u, v)
            if v in f.enemy or board.is_sea(v):
                continue
            side = board.side(u, v)
            bridged = side is not None and (side.bridge or frozenset((u, v)) in f.crossings)
            if side is None or bridged or not (side.sea or side.river_class == "major"):
                back.add_edge(v, u)
    return Graphs(rail, back, frozenset(s for s in f.sources if s in board.terrain))


def by_networkx(trace: int, all_graphs: list[Graphs]) -> list[set[str]]:
    """Each faction's in-supply hexes: Dijkstra from many sources, as networkx offers it."""
    found = []
    for g in all_graphs:
        if not g.sources:
            found.append(set())
            continue
        # a wrecked or enemy-held source has no links out: it is in supply as a source only
        net = nx.multi_source_dijkstra_path_length(g.rail, g.sources)
        reached = nx.multi_source_dijkstra_path_length(g.back, set(net), cutoff=trace)
        found.append(set(reached))
    return found


def by_networkx_bfs(trace: int, all_graphs: list[Graphs]) -> list[set[str]]:
    """The same with networkx's multi-source breadth-first layers, stopped after `trace` steps."""
    found = []
    for g in all_graphs:
        net = set(g.sources).union(*nx.bfs_layers(g.rail, g.sources)) if g.sources else set()
        reached: set[str] = set()
        for k, layer in enumerate(nx.bfs_layers(g.back, net) if net else ()):
            if k > trace:
                break
            reached.update(layer)
        found.append(reached)
    return found


def timed(fns: list[Callable[[], object]], runs: int) -> list[Timing]:
    """Each function `runs` times, taking turns (a b c a b c ...) so that a machine that slows
    down or speeds up meanwhile slows or speeds them alike."""
    seconds: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for fn, took in zip(fns, seconds, strict=True):
            start = time.perf_counter()
            fn()
            took.append(time.perf_counter() - start)
    return [Timing.of(took) for took in seconds]


def measure(runs: int = 51) -> Result:
    """Both searches over every hex for every faction, `runs` times each, checked to agree."""
    board, trace, factions = setup_state()
    all_graphs = [graphs(board, f) for f in factions]
    ids = board.arrays.ids
    ours = [{ids[i] for i in answer.nonzero()[0]} for answer in by_arrays(board, trace, factions)]
    for theirs in (by_networkx(trace, all_graphs), by_networkx_bfs(trace, all_graphs)):
        for f, a, b in zip(factions, ours, theirs, strict=True):
            if a != b:
                raise AssertionError(f"{f.name}: the searches disagree on {sorted(a ^ b)}")
    arrays, dijkstra, bfs = timed(
        [
            lambda: by_arrays(board, trace, factions),
            lambda: by_networkx(trace, all_graphs),
            lambda: by_networkx_bfs(trace, all_graphs),
        ],
        runs,
    )
    return Result(
        hexes=len(board.terrain),
        factions=len(factions),
        in_supply=sum(len(a) for a in ours),
        arrays=arrays,
        networkx=dijkstra,
        ratio=dijkstra.median / arrays.median,
        networkx_bfs=bfs,
        ratio_bfs=bfs.median / arrays.median,
    )


def supply_rows(runs: int = 51) -> list[tuple[str, float, str]]:
    """Rows for benchmarks/run.py: (what, median seconds, target)."""
    r = measure(runs)
    what = f"{r.hexes} hexes x {r.factions} factions"
    return [
        (f"B.3 supply, whole board, {what} (in process)", r.arrays.median, "under 50 ms"),
        (f"  networkx Dijkstra on the same graph, {what}", r.networkx.median, f"{r.ratio:.1f}x the arrays; target 5x"),
        (f"  networkx BFS layers on the same graph, {what}", r.networkx_bfs.median, f"{r.ratio_bfs:.1f}x the arrays"),
    ]


def main() -> None:
    r = measure()
    print(f"B.3 supply for every hex: {r.hexes} hexes x {r.factions} factions ({r.in_supply} in supply in all)")
    print(f"  whole-board arrays  {r.arrays}")
    print(f"  networkx Dijkstra   {r.networkx}  {r.ratio:.1f}x the arrays (medians)")
    print(f"  networkx BFS layers {r.networkx_bfs}  {r.ratio_bfs:.1f}x the arrays (medians)")


if __name__ == "__main__":
    sys.exit(main())
