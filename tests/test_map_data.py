"""Issue 12 part 3: a map given hex by hex in map.yaml (`board:`), corrections to a built map
(`overrides:`), the board written back as YAML, and the mostly-water hexes that took mountain."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from kitgen.errors import KitgenError
from kitgen.loader import load_scenario_map
from kitgen.mapping.board import Board
from kitgen.mapping.handmade import board_spec, board_yaml, hex_map_of, parse_window, spec_of
from kitgen.mapping.hexmap import HexMap
from kitgen.mapping.places import place_hexes, point_hexes
from tests.conftest import BUNDLED, edit, run_cli

FIELDS = ("terrain", "sides", "rail", "roads", "towns", "ports", "coastal", "ferries", "sources", "conditional_sources")


@pytest.fixture(scope="module")
def built() -> HexMap:
    return load_scenario_map()[1]


def same_board(a: Board, b: Board) -> None:
    """Two boards agree field by field (each named when it does not)."""
    assert (a.grid.columns, a.grid.rows) == (b.grid.columns, b.grid.rows)
    for name in FIELDS:
        assert getattr(a, name) == getattr(b, name), name


def read_back(text: str) -> HexMap:
    return hex_map_of(board_spec(yaml.safe_load(text)["board"]))


# --- mostly-water hexes ---------------------------------------------------------------------


def test_mostly_water_hexes_2728_and_3932_are_not_mountain(built: HexMap) -> None:
    """2728 (7% land, the Feodosia railhead) and 3932 (12% land, on the coast road) were coded
    mountain: the railway or road through them made them land, and the Crimean and Caucasus
    mountain areas covered more of their sliver of land than anything else. A line through a
    hex mostly of water no longer makes it land; a station there keeps it as open coast."""
    by_id = built.by_id()
    feodosia, coast_road = by_id["2728"], by_id["3932"]
    assert feodosia.land_share < 0.1 and coast_road.land_share < 0.15
    assert feodosia.terrain == "open" and feodosia.coastal and feodosia.rail
    assert coast_road.terrain == "sea" and not coast_road.road and not coast_road.coastal
    roads = {k.hexes for k in built.roads if k.line == "Black Sea coast road"}
    assert ("3931", "4031") in roads and ("4031", "4032") in roads  # the road keeps to land round it
    assert not any("3932" in k.hexes for k in built.roads + built.rail)
    water_marked = [h.id for h in built.hexes if h.land_share < 0.25 and h.terrain not in ("sea", "open")]
    assert water_marked == []


# --- the board as YAML ----------------------------------------------------------------------


def test_the_bundled_map_written_as_yaml_reads_back_as_the_same_board(built: HexMap) -> None:
    text = board_yaml(built)
    assert text == board_yaml(built)  # deterministic
    again = read_back(text)
    same_board(Board.from_map(built), Board.from_map(again))
    assert len(again.hexes) == len(built.hexes) == 1809  # the cells the frame cuts away stay off the map


def test_a_window_keeps_the_map_ids_and_only_its_hexes(built: HexMap) -> None:
    corners = parse_window("2010-3525", built.grid)
    assert corners == ((20, 10), (35, 25))
    part = read_back(board_yaml(built, corners))
    ids = {h.id for h in part.hexes}
    assert ids == {h.id for h in built.hexes if 20 <= h.col <= 35 and 10 <= h.row <= 25}
    assert len(ids) == 16 * 16 and "2010" in ids and "3525" in ids and "1910" not in ids
    whole = Board.from_map(built)
    inside = Board.from_map(part)
    assert inside.terrain == {h: t for h, t in whole.terrain.items() if h in ids}
    assert inside.rail == {k for k in whole.rail if k <= ids}
    assert inside.towns == {h: t for h, t in whole.towns.items() if h in ids}
    assert spec_of(built, corners)["columns"] == 35


def test_kitgen_map_writes_yaml_and_refuses_a_bad_window(tmp_path: Path) -> None:
    out = tmp_path / "board.yaml"
    run = run_cli("map", "denikin-1919", "--format", "yaml", "--window", "2010-2111", "--out", str(out))
    assert run.returncode == 0, run.stderr
    board = yaml.safe_load(out.read_text(encoding="utf-8"))["board"]
    assert (board["columns"], board["rows"]) == (21, 11) and "2010" not in board["off_map"]
    bad = run_cli("map", "--format", "yaml", "--window", "2010")
    assert bad.returncode == 2 and "CCRR-CCRR" in bad.stderr


# --- map.yaml's board: and overrides: -------------------------------------------------------


def test_a_scenario_whose_map_is_its_board_alone_needs_no_geography(tmp_path: Path, built: HexMap) -> None:
    folder = tmp_path / "board-only"
    shutil.copytree(BUNDLED, folder)
    bundled = load_scenario_map()[0]
    (folder / "map.yaml").write_text(board_yaml(built, places=point_hexes(bundled, built)), encoding="utf-8")
    shutil.rmtree(folder / "geo")
    scenario, hex_map = load_scenario_map(folder, use_cache=False)
    assert hex_map.projection == "none" and scenario.coast.features == []
    same_board(Board.from_map(built), Board.from_map(hex_map))
    assert place_hexes(scenario, hex_map) == place_hexes(bundled, built)  # points named by hex now


def test_a_board_names_the_line_of_a_bad_hex_side_or_link(tmp_path: Path) -> None:
    folder = tmp_path / "bad-board"
    shutil.copytree(BUNDLED, folder)
    (folder / "map.yaml").write_text(
        "board:\n"
        "  columns: 4\n"
        "  rows: 3\n"
        '  hexes: {"0401": {terrain: sea}, "0101": {towns: [Kharkov]}, "0202": {towns: [Kharkov]}, "0909": {},\n'
        '    "0303": {places: [Perekop, Slavyanskaya, Veshenskaya]}}\n'
        "  sides:\n"
        '    - {hexes: ["0101", "0301"], river: Donets, class: crossable}\n'
        "  rail:\n"
        '    - ["0301", "0401"]\n'
        "  ferries:\n"
        '    - {hexes: ["0101", "0102"], units: 1}\n',
        encoding="utf-8",
    )
    with pytest.raises(KitgenError) as error:
        load_scenario_map(folder, use_cache=False)
    found = {(p.code, p.line) for p in error.value.problems}
    assert found == {
        ("map.town_twice", 4),
        ("map.hex_unknown", 4),
        ("map.not_adjacent", 7),
        ("map.rail_at_sea", 9),
        ("map.ferry_not_major", 11),
    }
    assert all(p.file.endswith("map.yaml") and p.column >= 1 for p in error.value.problems)


def test_overrides_correct_single_hexes_sides_and_links(tmp_path: Path, built: HexMap) -> None:
    folder = tmp_path / "overrides"
    shutil.copytree(BUNDLED, folder)
    rail = next(k for k in built.rail if "2727" in k.hexes)
    a, b = rail.hexes
    with (folder / "map.yaml").open("a", encoding="utf-8") as f:
        f.write(
            "\noverrides:\n"
            '  - {hex: "2728", terrain: sea}\n'
            '  - {hexside: ["2615", "2616"], river: Dnieper, class: major, bridge: false}\n'
            f'  - {{rail: ["{a}", "{b}"], remove: true}}\n'
            '  - {road: ["1010", "1011"]}\n'
        )
    _, fixed = load_scenario_map(folder, use_cache=False)
    board = Board.from_map(fixed)
    assert board.is_sea("2728") and "2728" not in board.coastal
    side = board.side("2616", "2615")
    assert side is not None and side.river == "Dnieper" and side.river_class == "major" and not side.bridge
    assert not board.rail_link(a, b) and board.road_link("1011", "1010")
    assert fixed.by_id()["1010"].road
    untouched = Board.from_map(built)
    assert {h: t for h, t in board.terrain.items() if h != "2728"} == {
        h: t for h, t in untouched.terrain.items() if h != "2728"
    }


def test_an_override_off_the_map_or_between_strangers_is_an_error_at_its_line(tmp_path: Path) -> None:
    folder = tmp_path / "bad-overrides"
    shutil.copytree(BUNDLED, folder)
    text = (folder / "map.yaml").read_text(encoding="utf-8")
    lines = text.count("\n")
    (folder / "map.yaml").write_text(
        text + 'overrides:\n  - {hex: "9999", terrain: sea}\n  - {hexside: ["2615", "2617"], river: Dnieper}\n',
        encoding="utf-8",
    )
    with pytest.raises(KitgenError) as error:
        load_scenario_map(folder, use_cache=False)
    assert {(p.code, p.line) for p in error.value.problems} == {
        ("map.hex_unknown", lines + 2),
        ("map.not_adjacent", lines + 3),
    }


def test_an_override_of_two_kinds_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "two-kinds"
    shutil.copytree(BUNDLED, folder)
    edit(
        folder / "map.yaml",
        "default_terrain: open\n",
        'default_terrain: open\noverrides:\n  - {hex: "2728", river: Don}\n',
    )
    with pytest.raises(KitgenError) as error:
        load_scenario_map(folder, use_cache=False)
    assert [p.code for p in error.value.problems] == ["value.override"]
