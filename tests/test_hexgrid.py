"""Hex grid arithmetic (kitgen.mapping.hexgrid), checked against the geometry of a flat-topped hex grid.

RULES-NOTES: "Map: flat-topped hexes, columns west to east, rows north to south, hex id `CCRR`
(column, row, both two digits, from 01), as on GDW and SPI maps." The module docstring adds that even
columns sit half a hex lower than odd ones. Positions are km with y pointing north.

Most expectations below are derived from first principles (distances between centres, compass
bearings), not from the module's own formulas.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from kitgen.mapping.hexgrid import HexGrid

SIZE = 30.0
SIDE = SIZE / math.sqrt(3)
GRID = HexGrid(SIZE, columns=8, rows=6, left=100.0, top=500.0)


def bearing(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Compass bearing in degrees (0 = north, clockwise) from point a to point b."""
    return math.degrees(math.atan2(b[0] - a[0], b[1] - a[1])) % 360


COMPASS = {0: "N", 60: "NE", 120: "SE", 180: "S", 240: "SW", 300: "NW"}
"""Flat-topped hexes have sides facing these bearings."""


# --- ids -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("col", "row", "expected"),
    [(1, 1, "0101"), (12, 7, "1207"), (8, 6, "0806"), (3, 10, "0310"), (52, 32, "5232"), (99, 99, "9999")],
)
def test_hex_id_is_column_then_row_two_digits_each(col: int, row: int, expected: str) -> None:
    """RULES-NOTES: hex id `CCRR` (column, row, both two digits, from 01)."""
    grid = HexGrid(SIZE, columns=99, rows=99, left=0.0, top=0.0)
    assert grid.hex_id(col, row) == expected


def test_ids_widen_past_99_columns() -> None:
    """The module: "the hex id is `CCRR`, or wider when the grid has more than 99 columns or rows"."""
    grid = HexGrid(SIZE, columns=120, rows=40, left=0.0, top=0.0)
    assert grid.hex_id(1, 1) == "001001"
    assert grid.hex_id(105, 7) == "105007"
    assert grid.hex_id(120, 40) == "120040"
    # every id of the grid has the same width, so ids sort in column-then-row order
    ids = [grid.hex_id(c, r) for c, r in grid.cells()]
    assert {len(i) for i in ids} == {6}
    assert ids == sorted(ids)
    assert len(set(ids)) == grid.count


def test_ids_widen_past_99_rows() -> None:
    grid = HexGrid(SIZE, columns=5, rows=150, left=0.0, top=0.0)
    assert grid.hex_id(5, 150) == "005150"
    assert grid.parse_id("005150") == (5, 150)
    assert grid.parse_id("0550") is None  # the short form is not an id of this grid


@pytest.mark.parametrize("grid", [GRID, HexGrid(SIZE, 120, 7, 0.0, 0.0), HexGrid(SIZE, 3, 101, 0.0, 0.0)])
def test_parse_id_round_trips_every_hex(grid: HexGrid) -> None:
    for col, row in grid.cells():
        assert grid.parse_id(grid.hex_id(col, row)) == (col, row)


@pytest.mark.parametrize("bad", ["", "01", "010", "0000", "0100", "0001", "0901", "0107", "01a1", "-101", "010101"])
def test_parse_id_refuses_what_is_no_hex_of_the_grid(bad: str) -> None:
    """Ids count from 01; GRID has 8 columns and 6 rows, so 0901 and 0107 are off the map."""
    assert GRID.parse_id(bad) is None


def test_index_follows_the_order_of_cells() -> None:
    cells = list(GRID.cells())
    assert len(cells) == GRID.count == 48
    assert [GRID.index(c, r) for c, r in cells] == list(range(GRID.count))
    assert cells[:3] == [(1, 1), (1, 2), (1, 3)]  # column by column


# --- centres and corners -------------------------------------------------------------------


def test_hex_0101_touches_the_top_left_corner_of_the_grid() -> None:
    """Hex 0101's west corner lies on the grid's left edge and its top flat side on the top edge."""
    x, y = GRID.centre(1, 1)
    assert x - SIDE == pytest.approx(GRID.left)
    assert y + SIZE / 2 == pytest.approx(GRID.top)


def test_columns_run_west_to_east_and_rows_north_to_south() -> None:
    """RULES-NOTES: "columns west to east, rows north to south"; neighbouring columns are 1.5 sides apart."""
    for col in range(1, GRID.columns):
        assert GRID.centre(col + 1, 1)[0] - GRID.centre(col, 1)[0] == pytest.approx(1.5 * SIDE)
    for col in (1, 2):
        for row in range(1, GRID.rows):
            assert GRID.centre(col, row)[1] - GRID.centre(col, row + 1)[1] == pytest.approx(SIZE)


def test_even_columns_sit_half_a_hex_lower() -> None:
    """RULES-NOTES ("as on GDW and SPI maps"); the module: even-numbered columns half a hex lower."""
    for row in range(1, GRID.rows + 1):
        odd = GRID.centre(1, row)[1]
        assert GRID.centre(2, row)[1] == pytest.approx(odd - SIZE / 2)
        assert GRID.centre(3, row)[1] == pytest.approx(odd)
        assert GRID.centre(8, row)[1] == pytest.approx(odd - SIZE / 2)


def test_centres_array_matches_centre_in_index_order() -> None:
    centres = GRID.centres()
    assert centres.shape == (GRID.count, 2)
    for col, row in GRID.cells():
        assert tuple(centres[GRID.index(col, row)]) == pytest.approx(GRID.centre(col, row))


def test_corners_are_a_flat_topped_hexagon() -> None:
    """Six corners one side-length from the centre: two at the centre's height (east and west
    points), four on the flat top and bottom, half the size above and below; rings closed."""
    centres = GRID.centres()
    rings = GRID.corners(centres)
    assert rings.shape == (GRID.count, 7, 2)
    assert np.allclose(rings[:, 0], rings[:, 6])
    for centre, ring in zip(centres, rings, strict=True):
        corners = ring[:6]
        assert np.allclose(np.hypot(*(corners - centre).T), SIDE)
        dy = np.round(corners[:, 1] - centre[1], 9)
        assert sorted(dy.tolist()) == pytest.approx([-SIZE / 2] * 2 + [0.0] * 2 + [SIZE / 2] * 2)
        # counter-clockwise: positive signed area (shoelace)
        x, y = ring[:, 0], ring[:, 1]
        assert float(np.sum(x[:-1] * y[1:] - x[1:] * y[:-1])) > 0


def test_adjacent_hexes_share_exactly_two_corners() -> None:
    rings = {(c, r): GRID.corners(np.array([GRID.centre(c, r)]))[0, :6] for c, r in GRID.cells()}

    def shared(a: tuple[int, int], b: tuple[int, int]) -> int:
        d = np.hypot(*(rings[a][:, None, :] - rings[b][None, :, :]).transpose(2, 0, 1))
        return int((d < 1e-6).sum())

    for cell in GRID.cells():
        for other in GRID.cells():
            if other != cell:
                assert shared(cell, other) == (2 if other in GRID.neighbours(*cell) else 0), (cell, other)


def test_bounds_hold_every_corner_and_touch_the_outermost() -> None:
    left, bottom, right, top = GRID.bounds
    corners = GRID.corners(GRID.centres()).reshape(-1, 2)
    assert corners[:, 0].min() == pytest.approx(left)
    assert corners[:, 0].max() == pytest.approx(right)
    assert corners[:, 1].min() == pytest.approx(bottom)
    assert corners[:, 1].max() == pytest.approx(top)


def test_bounds_of_a_single_column_have_no_half_hex_step() -> None:
    grid = HexGrid(SIZE, columns=1, rows=4, left=0.0, top=0.0)
    assert grid.bounds == pytest.approx((0.0, -4 * SIZE, 2 * SIDE, 0.0))


# --- neighbours and directions -------------------------------------------------------------


def neighbours_by_distance(grid: HexGrid, col: int, row: int) -> set[tuple[int, int]]:
    """The cells whose centres lie one hex-width (`size`) away: the definition of adjacency."""
    here = np.array(grid.centre(col, row))
    return {
        (c, r)
        for c, r in grid.cells()
        if abs(float(np.hypot(*(np.array(grid.centre(c, r)) - here))) - grid.size) < 1e-6
    }


def test_neighbours_are_the_hexes_one_width_away_everywhere() -> None:
    """Interior, edge and corner hexes of both column parities."""
    for col, row in GRID.cells():
        assert set(GRID.neighbours(col, row)) == neighbours_by_distance(GRID, col, row), (col, row)


@pytest.mark.parametrize(
    ("cell", "expected"),
    [
        # odd column, interior: the columns either side sit half a hex lower, so NE/SE are rows r-1 and r
        ((5, 3), [(5, 2), (6, 2), (6, 3), (5, 4), (4, 3), (4, 2)]),
        # even column, interior: the columns either side sit half a hex higher, so NE/SE are rows r and r+1
        ((4, 3), [(4, 2), (5, 3), (5, 4), (4, 4), (3, 4), (3, 3)]),
        ((1, 1), [(2, 1), (1, 2)]),  # north-west corner
        ((8, 1), [(8, 2), (7, 2), (7, 1)]),  # north-east corner, an even column
        ((1, 6), [(1, 5), (2, 5), (2, 6)]),  # south-west corner
        ((8, 6), [(8, 5), (7, 6)]),  # south-east corner, an even column
        ((4, 1), [(5, 1), (5, 2), (4, 2), (3, 2), (3, 1)]),  # north edge, even column
        ((3, 1), [(4, 1), (3, 2), (2, 1)]),  # north edge, odd column
        ((3, 6), [(3, 5), (4, 5), (4, 6), (2, 6), (2, 5)]),  # south edge, odd column
        ((6, 6), [(6, 5), (7, 6), (5, 6)]),  # south edge, even column
        ((1, 3), [(1, 2), (2, 2), (2, 3), (1, 4)]),  # west edge
        ((8, 3), [(8, 2), (8, 4), (7, 4), (7, 3)]),  # east edge, even column
    ],
)
def test_neighbours_clockwise_from_north(cell: tuple[int, int], expected: list[tuple[int, int]]) -> None:
    assert GRID.neighbours(*cell) == expected


def test_direction_names_are_the_compass_bearing_of_the_neighbour() -> None:
    for col, row in GRID.cells():
        here = GRID.centre(col, row)
        for other in GRID.neighbours(col, row):
            b = round(bearing(here, GRID.centre(*other))) % 360
            assert b in COMPASS, (col, row, other, b)
            assert GRID.direction((col, row), other) == COMPASS[b]


def test_direction_is_reversed_from_the_other_side() -> None:
    opposite = {"N": "S", "NE": "SW", "SE": "NW", "S": "N", "SW": "NE", "NW": "SE"}
    for cell in GRID.cells():
        for other in GRID.neighbours(*cell):
            there = GRID.direction(cell, other)
            assert there is not None
            assert GRID.direction(other, cell) == opposite[there]


@pytest.mark.parametrize(("a", "b"), [((4, 3), (4, 3)), ((4, 3), (4, 5)), ((4, 3), (6, 3)), ((5, 3), (6, 4))])
def test_direction_of_hexes_that_are_not_adjacent_is_none(a: tuple[int, int], b: tuple[int, int]) -> None:
    assert GRID.direction(a, b) is None


def test_direction_works_off_the_grid_edge() -> None:
    """A direction is arithmetic: (1, 1) and the cell north-west of it, off the map, are still adjacent."""
    assert GRID.direction((2, 1), (1, 1)) == "NW"
    assert GRID.direction((1, 1), (1, 0)) == "N"


# --- locate --------------------------------------------------------------------------------


def test_locate_of_every_centre_is_its_own_hex() -> None:
    located = GRID.locate(GRID.centres())
    assert located.dtype.kind == "i"
    assert [tuple(c) for c in located.tolist()] == list(GRID.cells())
    assert GRID.inside(located).all()


def test_points_just_inside_each_corner_and_side_belong_to_that_hex() -> None:
    """A point 2% of the way from a corner (or a side's midpoint) towards the centre is in that hex,
    even where three hexes meet."""
    centres = GRID.centres()
    rings = GRID.corners(centres)[:, :6, :]
    mids = (rings + np.roll(rings, -1, axis=1)) / 2
    for edge_points in (rings, mids):
        for k in range(6):
            points = edge_points[:, k, :] + 0.02 * (centres - edge_points[:, k, :])
            assert [tuple(c) for c in GRID.locate(points).tolist()] == list(GRID.cells())


def test_points_outside_the_grid_are_located_off_it() -> None:
    left, bottom, right, top = GRID.bounds
    points = np.array(
        [[left - 1, top - SIZE], [right + 5, bottom + SIZE], [left + SIDE, top + 1], [left + 40, bottom - 20]]
    )
    located = GRID.locate(points)
    assert not GRID.inside(located).any()
    assert tuple(located[2]) == (1, 0)  # just north of hex 0101: row 0 of column 1


@settings(max_examples=300, deadline=None)
@given(
    size=st.floats(min_value=0.5, max_value=200.0),
    u=st.floats(min_value=0.0, max_value=1.0),
    v=st.floats(min_value=0.0, max_value=1.0),
    left=st.floats(min_value=-1000.0, max_value=1000.0),
    top=st.floats(min_value=-1000.0, max_value=1000.0),
)
def test_locate_finds_the_hex_with_the_nearest_centre(size: float, u: float, v: float, left: float, top: float) -> None:
    """A hex is the set of points nearer its centre than any other (a hexagonal Voronoi cell)."""
    grid = HexGrid(size, columns=9, rows=9, left=left, top=top)
    g_left, g_bottom, g_right, g_top = grid.bounds
    # keep a hex's margin from the grid's edges, so the nearest centre is one of the grid's
    x = g_left + 2 * size + u * (g_right - g_left - 4 * size)
    y = g_bottom + 2 * size + v * (g_top - g_bottom - 4 * size)
    located = grid.locate(np.array([[x, y]]))[0]
    assert grid.inside(located[None, :])[0]
    centres = grid.centres()
    distances = np.hypot(centres[:, 0] - x, centres[:, 1] - y)
    found = distances[grid.index(int(located[0]), int(located[1]))]
    assert found <= distances.min() + 1e-9 * size + 1e-9


# --- covering ------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)  # each union of up to 1,600 hexes costs; `make fuzz` runs more
@given(
    size=st.floats(min_value=1.0, max_value=100.0),
    width=st.floats(min_value=1.0, max_value=40.0),
    height=st.floats(min_value=1.5, max_value=40.0),
)
def test_covering_fills_the_rectangle_with_as_few_hexes_as_it_takes(size: float, width: float, height: float) -> None:
    """HexGrid.covering: "The hexes that cover the rectangle: column 1's centres half a side in from
    its west edge, the odd columns' first centres on its north edge, and as many more as it takes"."""
    side = size / math.sqrt(3)
    w, h = width * 1.5 * side, height * size
    left, bottom, right, top = 10.0, 20.0 - h, 10.0 + w, 20.0
    grid = HexGrid.covering(size, left, bottom, right, top)
    assert grid.edges == (left, bottom, right, top)
    assert grid.centre(1, 1) == pytest.approx((left + side / 2, top))
    frame = shapely.box(left, bottom, right, top)

    def hexes(g: HexGrid) -> shapely.Geometry:
        # snapped to a fine grid first: GEOS may drop a hex whose corners differ in the last bit
        return shapely.union_all(shapely.set_precision(shapely.polygons(g.corners(g.centres())), 1e-6))

    assert shapely.area(shapely.difference(frame, hexes(grid))) < 1e-6 * w * h
    # and no fewer would do: one column less stops short of the east edge where the hexes are
    # narrowest, one row less leaves the odd columns short of the south edge
    assert grid.centre(grid.columns - 1, 1)[0] + side / 2 < right + 1e-9 * w
    assert grid.rows == 1 or grid.centre(1, grid.rows - 1)[1] - size / 2 > bottom - 1e-9 * h


def test_covering_example() -> None:
    """300 x 200 km with 30 km hexes (side 17.32 km): column n's centre stands at 8.66 + 25.98 (n - 1)
    km and reaches 8.66 km further at its narrowest, so 12 columns reach 300 km; the odd columns,
    whose first hex is centred on the top edge, reach 30 (m - 0.5) km down, so 8 rows reach 200 km."""
    grid = HexGrid.covering(30.0, 0.0, 0.0, 300.0, 200.0)
    assert (grid.columns, grid.rows) == (12, 8)
