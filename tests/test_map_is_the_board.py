"""The printed map is the board (issue 12): every game feature the drawing paints is one the
engine plays, and every one the engine plays is painted; towns sit at their hex's centre."""

from __future__ import annotations

import io

import pytest

from kitgen.loader import load_scenario_map
from kitgen.mapping.board import Board
from kitgen.mapping.handmade import board_spec, hex_map_of
from kitgen.render.mapart import MapArt, link_chains
from kitgen.render.style import map_style
from tests.conftest import BUNDLED


def drawn(art: MapArt) -> MapArt:
    from reportlab.pdfgen.canvas import Canvas

    art.draw(Canvas(io.BytesIO(), pagesize=(art.width, art.height)))
    return art


@pytest.fixture(scope="module")
def bundled() -> tuple[MapArt, Board]:
    scenario, hex_map = load_scenario_map(str(BUNDLED))
    return drawn(MapArt(hex_map, scenario, map_style())), Board.from_map(hex_map)


def test_the_drawing_paints_exactly_the_boards_rail_roads_and_rivers(bundled: tuple[MapArt, Board]) -> None:
    art, board = bundled
    assert art.drawn.rail == set(board.rail) and board.rail
    assert art.drawn.roads == set(board.roads)
    rivers = {(pair, side.river_class) for pair, side in board.sides.items() if side.river_class}
    assert art.drawn.rivers == rivers and rivers


def test_the_drawing_paints_exactly_the_boards_bridges_ferries_and_open_water(bundled: tuple[MapArt, Board]) -> None:
    art, board = bundled
    bridges = {p for p, side in board.sides.items() if side.bridge and (side.river_class or side.sea)}
    assert art.drawn.bridges == bridges and bridges
    assert art.drawn.ferries == set(board.ferries.items()) and board.ferries
    assert art.drawn.sea_sides == {p for p, side in board.sides.items() if side.sea and not side.bridge}


def test_every_town_is_drawn_in_its_hex_at_the_hexs_centre(bundled: tuple[MapArt, Board]) -> None:
    art, board = bundled
    assert art.drawn.towns == {(h, t) for h, towns in board.towns.items() for t in towns}
    for hex_id, marks in art.towns.items():
        for mark in marks:
            assert (mark.x, mark.y) == tuple(art.centres[hex_id])


def test_a_rail_line_runs_through_the_centres_of_the_hexes_it_links(bundled: tuple[MapArt, Board]) -> None:
    """Each drawn rail line is a chain of the board's links, point by point at hex centres."""
    art, board = bundled
    for line in art.link_lines(board.rail):
        hexes = [next(h for h, c in art.centres.items() if (c == point).all()) for point in line]
        assert all(board.rail_link(a, b) for a, b in zip(hexes, hexes[1:], strict=False))


def test_link_chains_join_links_through_hexes_with_two_and_stop_at_branches() -> None:
    links = [frozenset(p) for p in (("a", "b"), ("b", "c"), ("c", "d"), ("c", "e"), ("x", "y"), ("y", "z"), ("z", "x"))]
    chains = link_chains(links)
    assert sorted(len(c) for c in chains) == [2, 2, 3, 4]  # a-b-c, c-d, c-e and the loop x-y-z-x
    assert {frozenset(p) for c in chains for p in zip(c, c[1:], strict=False)} == set(links)


def test_a_hand_made_map_is_drawn_from_its_board_too() -> None:
    from kitgen.loader import load_scenario

    spec = {
        "columns": 4,
        "rows": 3,
        "hexes": {"0202": {"towns": ["Kharkov"]}, "0302": {"towns": ["Kursk", "Belgorod"]}},
        "sides": [{"hexes": ["0202", "0302"], "river": "Donets", "class": "major", "bridge": True}],
        "rail": [["0101", "0202", "0302", "0402"]],
        "ferries": [{"hexes": ["0301", "0401"], "units": 2}],
    }
    hex_map = hex_map_of(board_spec(spec))
    art = drawn(MapArt(hex_map, load_scenario("denikin-1919"), map_style()))
    board = Board.from_map(hex_map)
    assert art.drawn.rail == set(board.rail) and art.drawn.bridges == {frozenset(("0202", "0302"))}
    assert art.drawn.towns == {("0202", "Kharkov"), ("0302", "Kursk"), ("0302", "Belgorod")}
    assert art.drawn.ferries == {(frozenset(("0301", "0401")), 2)}
