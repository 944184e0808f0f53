"""Rivers drawn as rivers (issue 44): "Rivers are blue hex outlines that look like highlighted
grid lines" and "river pieces start and end nowhere". A river is one line along its hexsides,
bending a little within each, never leaving them, and ending only where its hexsides do; the grid
draws no second line beside it."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
import shapely

from kitgen.loader import load_scenario
from kitgen.mapping.cache import hex_map
from kitgen.render.mapart import MapArt, corner_key
from kitgen.render.style import map_style

SCENARIOS = ["tsaritsyn-1919", "denikin-1919"]
CLASSES = ("major", "crossable")


def art_of(scenario: str) -> MapArt:
    s = load_scenario(scenario)
    built, _ = hex_map(s)
    assert built is not None
    return MapArt(built, s, map_style())


def river_sides(art: MapArt, river_class: str) -> list[np.ndarray]:
    return [
        art.hexside(*sorted(pair))
        for pair, side in sorted(art.board.sides.items(), key=lambda kv: sorted(kv[0]))
        if side.river_class == river_class
    ]


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_issue44_a_river_is_one_line_along_its_hexsides_ending_where_they_end(scenario: str) -> None:
    """Each run of a river's line ends at a corner where its hexsides end or branch (or change
    class), never where they go on; every river hexside is drawn, and no point of the line strays
    from its hexsides by more than a tenth of a side (its bends, RIVER_BEND, and rounded corners)."""
    art = art_of(scenario)
    for river_class in CLASSES:
        sides = river_sides(art, river_class)
        runs = art.river_lines[river_class]
        assert bool(sides) == bool(runs)
        if not sides:
            continue
        degree = Counter(corner_key(p) for side in sides for p in side)
        for run in runs:
            for end in (run[0], run[-1]):
                assert degree[corner_key(end)] != 2, f"{river_class} river line ends at {end}, where its hexsides go on"
        along = shapely.MultiLineString([s.tolist() for s in sides])
        drawn = shapely.MultiLineString([r.tolist() for r in runs])
        length = float(np.linalg.norm(sides[0][1] - sides[0][0]))
        assert along.hausdorff_distance(drawn) <= 0.1 * length  # its bends and rounded corners: a tenth of a side
        ends_of_runs = Counter(corner_key(p) for r in runs for p in (r[0], r[-1]))
        branching = {k for k, d in degree.items() if d != 2}
        assert set(ends_of_runs) == branching  # every end and branch, and nothing else, ends a run


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_issue44_the_grid_draws_no_line_along_a_river(scenario: str) -> None:
    """A river is its hexsides' line: the grid's lines leave out every river hexside, so that a
    river's bend shows no grid line beside it like a second bank, and keep every other hexside."""
    art = art_of(scenario)
    grid = Counter(
        frozenset((corner_key(a), corner_key(b)))
        for line in art.grid_lines
        for a, b in zip(line, line[1:], strict=False)
    )
    rivers = {
        frozenset(corner_key(p) for p in side) for river_class in CLASSES for side in river_sides(art, river_class)
    }
    assert not rivers & set(grid)
    assert all(n == 1 for n in grid.values())  # each hexside drawn once
    every = {
        frozenset((corner_key(a), corner_key(b)))
        for h in art.map.hexes
        for ring in [art.corners(h)]
        for a, b in zip(ring, ring[1:], strict=False)
        if corner_key(a) != corner_key(b)
    }
    assert set(grid) == every - rivers


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_issue44_each_river_is_one_piece_or_its_pieces_end_at_the_maps_edge(scenario: str) -> None:
    """ "Every river's drawn line is one connected piece per river of the scenario's data, or
    ends at the map's edge or a sea" ("river pieces start and end nowhere": the Khoper, the Sula
    and the Teterev were in two): a river's hexsides are one piece, or each of its pieces reaches
    a corner of the map's edge or of a sea hex (a river that runs along the edge, out and back)."""
    art = art_of(scenario)
    around: dict[tuple[float, float], list[str]] = {}
    for h in art.map.hexes:
        for p in art.corners(h)[:6]:
            around.setdefault(corner_key(p), []).append(h.terrain)
    ends = {k for k, terrains in around.items() if len(terrains) < 3 or "sea" in terrains}  # the edge, a sea
    by_river: dict[str, list[list[tuple[float, float]]]] = {}
    for pair, side in sorted(art.board.sides.items(), key=lambda kv: sorted(kv[0])):
        if side.river:
            by_river.setdefault(side.river, []).append([corner_key(p) for p in art.hexside(*sorted(pair))])
    assert by_river
    for river, sides in by_river.items():
        pieces: list[set[tuple[float, float]]] = []
        for a, b in sides:
            touching = [p for p in pieces if a in p or b in p]
            pieces = [p for p in pieces if p not in touching] + [{a, b}.union(*touching)]
        if len(pieces) > 1:
            for piece in pieces:
                assert piece & ends, f"a piece of the {river} starts and ends inside the map"
