"""Map labels (issue 12): town and place names are placed where they cross nothing that matters:
no two labels overlap, no label covers a hex id that is printed or any town's or place's symbol.
The drawing records every label, symbol and hex id it paints, as a box in points."""

from __future__ import annotations

import io

import numpy as np
import pytest
import shapely

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
