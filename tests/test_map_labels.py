"""Map labels (issue 12): town and place names are placed where they cross nothing that matters:
no two labels overlap, no label covers a hex id that is printed or any town's or place's symbol.
The drawing records every label, symbol and hex id it paints, as a box in points."""

from __future__ import annotations

import io
import shutil
import subprocess

import numpy as np
import pytest
import shapely
from PIL import Image

from kitgen.loader import load_scenario_map
from kitgen.render.labels import Box
from kitgen.render.mapart import MapArt
from kitgen.render.style import map_style
from tests.conftest import BUNDLED


@pytest.fixture(scope="module")
def art() -> MapArt:
    from reportlab.pdfgen.canvas import Canvas

    scenario, hex_map = load_scenario_map(str(BUNDLED))
    drawing = MapArt(hex_map, scenario, map_style())
    drawing.draw(Canvas(io.BytesIO(), pagesize=(drawing.width, drawing.height)))
    return drawing


def boxes(rows: list[tuple[str, Box]]) -> np.ndarray:
    return shapely.box(*np.array([box for _, box in rows], dtype=float).T)


def overlapping(a: np.ndarray, b: np.ndarray) -> list[tuple[int, int]]:
    """Index pairs (i in a, j in b) of boxes that share some area (touching edges do not count)."""
    i, j = shapely.STRtree(b).query(a, predicate="intersects")
    shared = shapely.area(shapely.intersection(a[i], b[j])) > 1e-6
    return sorted(zip(i[shared].tolist(), j[shared].tolist(), strict=True))


def test_every_town_hex_and_named_place_has_one_label(art: MapArt) -> None:
    keys = [key for key, _ in art.drawn.labels]
    assert len(keys) == len(set(keys))
    assert set(keys) == set(art.town_keys().values()) | {key for key, _, _ in art.place_labels()}


def test_no_two_labels_overlap(art: MapArt) -> None:
    labels = boxes(art.drawn.labels)
    pairs = [(i, j) for i, j in overlapping(labels, labels) if i < j]
    assert not [(art.drawn.labels[i][0], art.drawn.labels[j][0]) for i, j in pairs]


def test_no_label_overlaps_a_printed_hex_id(art: MapArt) -> None:
    pairs = overlapping(boxes(art.drawn.labels), boxes(art.drawn.hex_ids))
    assert not [(art.drawn.labels[i][0], art.drawn.hex_ids[j][0]) for i, j in pairs]


def test_no_label_overlaps_a_symbol_its_own_or_another_towns(art: MapArt) -> None:
    pairs = overlapping(boxes(art.drawn.labels), boxes(art.drawn.symbols))
    assert not [(art.drawn.labels[i][0], art.drawn.symbols[j][0]) for i, j in pairs]


def test_labels_lie_inside_the_frame_and_few_hex_ids_give_way(art: MapArt) -> None:
    corners = np.array([box for _, box in art.drawn.labels])
    assert (corners[:, :2] >= 0).all() and (corners[:, 2] <= art.width).all() and (corners[:, 3] <= art.height).all()
    skipped = len(art.map.hexes) - len(art.drawn.hex_ids)
    assert skipped <= len(art.drawn.labels) // 4, "labels sit on hex ids where there was room elsewhere"


def test_a_town_is_labelled_with_its_1919_name_and_the_rules_name_beneath(art: MapArt) -> None:
    """RULES-NOTES: maps print the 1919 name of a town with the rules' name beneath where they differ."""
    hexes = {mark.name: hex_id for hex_id, marks in art.towns.items() for mark in marks}
    assert [r.text for r in art.town_rows(hexes["Kirovograd"]) if r.text] == ["Elisavetgrad", "Kirovograd"]
    assert [r.text for r in art.town_rows(hexes["Kiev"]) if r.text] == ["Kiev"]
    rows = [r for r in art.town_rows(hexes["Donetsk"]) if r.text]
    assert [r.text for r in rows] == ["Makeevka", "Iuzovka", "Donetsk"]  # one block for the hex
    assert rows[2].size < rows[1].size
    assert art.s.find_town("Elisavetgrad") is art.s.find_town("Kirovograd") is not None


def test_a_place_in_a_towns_hex_is_named_in_the_towns_label_and_has_no_square(art: MapArt) -> None:
    inside = art.places_in_town_hexes()
    assert inside, "the bundled map has a named place in a town's hex (Debaltsevo)"
    for hex_id, names in inside.items():
        assert all(name in [r.text for r in art.town_rows(hex_id)] for name in names)
    assert not {name for names in inside.values() for name in names} & {key for key, _, _ in art.place_labels()}


def test_a_label_with_no_free_place_by_its_symbol_stands_off_on_a_leader_line() -> None:
    """Every place next to the symbol is taken by other symbols, so the label goes further out."""
    from kitgen.render.labels import Obstacles, Want, place_labels

    around = (-2.0, -2.0, 2.0, 2.0)
    # a ring of symbols hugging this one on every side
    blockers = [(x - 3, y - 3, x + 3, y + 3) for x in (-8, 0, 8) for y in (-8, 0, 8) if (x, y) != (0, 0)]
    want = Want("A", 20.0, 8.0, 0.0, 0.0, around, 2.0)
    [spot] = place_labels(
        [want],
        Obstacles(),
        frame=(-100, -100, 100, 100),
        symbols=[around, *blockers],
        gap=1.0,
        step=6.0,
        pad=0.5,
        leader_cost=50.0,
    )
    assert spot.leader is not None
    assert not overlapping(shapely.box(*np.array([spot.box]).T), shapely.box(*np.array(blockers + [around]).T))
    (sx, sy), _ = spot.leader
    assert abs(np.hypot(sx, sy) - 2.0) < 1e-9  # it starts on the symbol's edge


def test_the_label_goes_below_its_symbol_where_nothing_is_in_the_way() -> None:
    from kitgen.render.labels import Obstacles, Want, place_labels

    want = Want("A", 20.0, 8.0, 0.0, 0.0, (-2.0, -2.0, 2.0, 2.0), 2.0)
    obstacles = Obstacles()
    obstacles.add_lines([np.array([[0.0, -50.0], [0.0, 0.0]])], 4.0)  # a railway in from the south
    [free] = place_labels(
        [want], Obstacles(), frame=(-100, -100, 100, 100), symbols=[], gap=1.0, step=6.0, pad=0.5, leader_cost=50.0
    )
    [moved] = place_labels(
        [want], obstacles, frame=(-100, -100, 100, 100), symbols=[], gap=1.0, step=6.0, pad=0.5, leader_cost=50.0
    )
    assert (free.side, moved.side) == ("below", "right") and free.leader is None and moved.leader is None


# --- issue 25, item 5: smooth rail, knockouts, river names beside their river -------------------


def test_issue25_a_railway_runs_smooth_through_the_same_hexes() -> None:
    """Issue 25, item 5: "Rail runs as a smooth line through the hex centres (a spline through
    the same hexes; the board is unchanged)": on three hexes in a bend, the drawn line starts and
    ends at the end hexes' centres, crosses each hexside at its middle, bends without a corner and
    never leaves the three hexes."""
    from kitgen.render.mapart import smooth_through

    across = 72.0  # flat to flat
    side = across / np.sqrt(3)
    centres = np.array([[0.0, 0.0], [across * np.sqrt(3) / 2, across / 2], [across * np.sqrt(3), 0.0]])
    hexes = shapely.union_all(
        [shapely.Point(*c).buffer(side, quad_segs=1).envelope.intersection(_hexagon(c, side)) for c in centres]
    )
    line = smooth_through(centres)
    assert np.allclose(line[0], centres[0]) and np.allclose(line[-1], centres[-1])
    for a, b in zip(centres, centres[1:], strict=False):
        assert shapely.LineString(line).distance(shapely.Point(*((a + b) / 2))) < 1e-6
    assert hexes.buffer(1e-6).contains(shapely.LineString(line))
    turns = np.degrees(np.abs(np.diff(np.unwrap(np.arctan2(*np.diff(line, axis=0).T[::-1])))))
    assert turns.max() < 15  # no corner: the straight line through the centres turns 60 degrees at once
    assert np.array_equal(smooth_through(centres[:2]), centres[:2])  # two hexes: straight


def test_issue44_a_railway_runs_through_the_town_in_each_hex() -> None:
    """Issue 44: "the rail misses the town's dot (Tsaritsyn poster, 4908)": the drawn line passes
    through the centre of every hex with a town, where its dot stands, bending there without a
    corner."""
    from kitgen.render.mapart import smooth_through

    across = 72.0
    centres = np.array(
        [[0.0, 0.0], [across * np.sqrt(3) / 2, across / 2], [across * np.sqrt(3), 0.0], [across * np.sqrt(3), -across]]
    )
    line = shapely.LineString(smooth_through(centres, [False, True, True, False]))
    for centre in centres:
        assert line.distance(shapely.Point(*centre)) < 1e-6
    turns = np.degrees(np.abs(np.diff(np.unwrap(np.arctan2(*np.diff(np.asarray(line.coords), axis=0).T[::-1])))))
    assert turns.max() < 15  # no corner at the towns either


def _hexagon(centre: np.ndarray, side: float) -> shapely.Polygon:
    """A flat-topped hexagon of corner radius `side` round `centre`."""
    angles = np.radians(np.arange(0, 360, 60))
    return shapely.Polygon(np.c_[centre[0] + side * np.cos(angles), centre[1] + side * np.sin(angles)])


def test_issue25_every_railway_of_the_map_stays_in_its_hexes(art: MapArt) -> None:
    """The smooth railways of the bundled map keep to the hexes the board links: each drawn line
    lies within its hexes (found by the board's own centres), so the board is unchanged."""
    from kitgen.render.mapart import link_chains

    polygons = {h.id: shapely.Polygon(art.corners(h)) for h in art.map.hexes}
    chains = [chain for chain in link_chains(art.board.rail) if len(chain) > 1]
    assert len(chains) == len(art.rail_lines)
    for chain, line in zip(chains, art.rail_lines, strict=True):
        inside = shapely.union_all([polygons[h] for h in chain]).buffer(0.01)
        assert inside.contains(shapely.LineString(line)), chain


@pytest.mark.skipif(not shutil.which("pdftoppm"), reason="poppler-utils renders the page")
def test_issue25_hex_ids_are_knocked_out_of_the_rail(art: MapArt) -> None:
    """Issue 25, item 5: "rail runs through hex ids (2111-2113, ...) with no knockout": where a
    railway crosses a hex id, the line stops short of the figures: rendered at 600 dpi, no
    pixel of the id's box is as dark as the rail (the id itself is mid-grey)."""
    from reportlab.pdfgen.canvas import Canvas

    rails = shapely.union_all([shapely.LineString(line) for line in art.rail_lines])
    inner = shapely.box(2, 2, art.width - 2, art.height - 2)  # clear of the frame's own dark line
    crossed = [
        (h, box)
        for h, _, _, box in art.hex_id_spots()
        if rails.intersects(shapely.box(*box)) and inner.contains(shapely.box(*box))
    ]
    assert len(crossed) >= 5
    for hex_id, (x0, y0, x1, y1) in crossed[:: max(1, len(crossed) // 6)]:
        buf = io.BytesIO()
        c = Canvas(buf, pagesize=(x1 - x0, y1 - y0))
        c.translate(-x0, -y0)
        art.draw(c)
        c.showPage()
        c.save()
        png = subprocess.run(
            ["pdftoppm", "-r", "600", "-png", "-"], input=buf.getvalue(), capture_output=True, check=True
        )
        pixels = np.asarray(Image.open(io.BytesIO(png.stdout)).convert("L"))[2:-2, 2:-2]
        assert pixels.min() > 70, (hex_id, int(pixels.min()))


def test_issue25_river_names_sit_beside_their_river_clear_of_every_hexside(art: MapArt) -> None:
    """Issue 25, item 5: "River names sit along their river, never over a hexside or under its
    line" ("Southern Bug prints over hexes 0410 and 0813"; "Dnieper", "Oskol" and "Donets"
    crossed by their own rivers): every river's name is placed, each inside one hex, crossing no
    hexside, no hex id and no railway, and beside a side of its own river."""
    size = art.style.fonts.river
    rings = [shapely.LinearRing(art.corners(h)[:-1]) for h in art.map.hexes]
    grid = shapely.STRtree(rings)
    ids = [shapely.box(*box) for *_, box in art.hex_id_spots()]
    rivers = {side.river for side in art.board.sides.values() if side.river and side.river_class}
    placed = {name for name, _, _ in art.river_name_spots}
    assert rivers <= placed | {name for name in rivers if _short_river(art, name)}
    assert "Southern Bug" in placed
    rails = shapely.union_all([shapely.LineString(line) for line in art.rail_lines])
    for name, _, shape in art.river_name_spots:
        assert not len(grid.query(shape, predicate="intersects")), name
        assert not any(shape.intersects(box) for box in ids), name
        assert shape.distance(rails) > 2.2, name  # clear of the railways and their ties ("Desna" over a bridge)
        own = shapely.union_all(
            [
                shapely.LineString(art.hexside(*sorted(pair)))
                for pair, side in art.board.sides.items()
                if side.river == name and side.river_class
            ]
        )
        assert art.style.widths.major_river / 2 < own.distance(shape) < 1.5 * size, name  # beside it


def _short_river(art: MapArt, name: str) -> bool:
    """A river no stretch of which runs 4 sides (too short to name)."""
    from kitgen.render.mapart import link_chains

    ends = [
        frozenset(tuple(p) for p in np.round(art.hexside(*sorted(pair)), 1))
        for pair, side in art.board.sides.items()
        if side.river == name and side.river_class
    ]
    return all(len(chain) < 5 for chain in link_chains(ends))


@pytest.mark.parametrize("scenario", ["tsaritsyn-1919", "denikin-1919"])
def test_issue44_a_towns_name_stands_by_its_hex_and_off_the_railway(scenario: str) -> None:
    """Issue 44: "Every town's label is in its own hex, off rail and river, never on its VP box"
    (Mikhailovka's name and VP box sat on the rail line; Mechetinskaia, in 4220, was labelled in
    4320). Every town's label block (its names and VP boxes) covers no railway but a graze of
    its corner (2.5 pt of line at most); nine in ten stand in their own hex; and each lies within
    its hex and the hexes round it (a long name, like Aleksandrovsk-Grushevsky over Shakhty, half
    a hex further), or stands off on a leader line to its dot."""
    from kitgen.loader import load_scenario
    from kitgen.mapping.cache import hex_map
    from kitgen.render.mapart import MapArt
    from kitgen.render.style import map_style

    s = load_scenario(scenario)
    built, _ = hex_map(s)
    assert built is not None
    art = MapArt(built, s, map_style())
    rails = shapely.MultiLineString([line.tolist() for line in art.rail_lines])
    hexes = built.by_id()
    in_own = 0
    for hex_id, key in art.town_keys().items():
        spot = art.label_spots[key]
        box = shapely.box(*spot.box)
        own = shapely.Polygon(art.corners(hexes[hex_id]))
        around = own.buffer(1.5 * art.hex_pt)  # the hexes round it, and half a hex for a long name
        assert spot.leader is not None or around.contains(box), (key, hex_id, spot)
        assert box.intersection(rails).length <= 2.5, (key, hex_id, box.intersection(rails).length)
        in_own += own.contains(box.centroid)
    assert in_own >= 0.9 * len(art.town_keys())
