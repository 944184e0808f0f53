"""Issue 12, part 4: the introductory scenario tsaritsyn-1919, on a hand-made map given hex by
hex (a window of the campaign map), and its sample campaign data/tsaritsyn-sample."""

from __future__ import annotations

from pathlib import Path

import pytest

from kitgen.campaign import load_campaign
from kitgen.engine.replay import replay
from kitgen.loader import load_scenario, load_scenario_map
from kitgen.mapping.board import Board
from kitgen.render.mapart import MapArt
from kitgen.render.style import map_style
from kitgen.scenariofolders import data_dir
from tests.conftest import run_cli
from tests.test_map_is_the_board import drawn
from tests.test_map_labels import boxes, overlapping
from tests.test_map_print import page_sizes

INTRO = data_dir() / "tsaritsyn-1919"
INTRO_SAMPLE = data_dir() / "tsaritsyn-sample"


@pytest.fixture(autouse=True, scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> None:  # type: ignore[misc]
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KITGEN_CACHE", str(tmp_path_factory.mktemp("intro-cache")))
        yield


@pytest.fixture(scope="module")
def art() -> MapArt:
    scenario, hex_map = load_scenario_map(str(INTRO))
    return drawn(MapArt(hex_map, scenario, map_style()))


def test_the_scenario_validates_with_two_factions_and_its_towns() -> None:
    run = run_cli("validate", str(INTRO))
    assert run.returncode == 0, run.stderr + run.stdout
    scenario = load_scenario(INTRO)
    assert [f.id for f in scenario.meta.factions] == ["reds", "whites"]
    assert {t.name for t in scenario.towns} == {"Tsaritsyn", "Morozovsk", "Mikhailovka"}


def test_its_map_is_the_board_alone_with_no_geography() -> None:
    assert not (INTRO / "geo").exists()
    scenario, hex_map = load_scenario_map(str(INTRO))
    assert scenario.map.board is not None and not scenario.coast.features and not scenario.river_courses.features
    assert {h.id for h in hex_map.hexes if h.towns} == {"5313", "4515", "4908"}  # the campaign map's ids
    assert len(hex_map.hexes) == 10 * 12


def test_the_sample_campaign_replays_three_turns_with_every_roll_given() -> None:
    run = run_cli("validate", str(INTRO_SAMPLE))
    assert run.returncode == 0, run.stderr + run.stdout
    campaign = load_campaign(INTRO_SAMPLE)
    assert campaign.scenario.meta.id == "tsaritsyn-1919"
    rolls = [roll for turn in range(1, 4) for roll in replay(campaign, turn).rolls]
    state = replay(campaign, 3)
    assert state.turn == 3 and rolls
    assert all(roll.source == "given" for roll in state.rolls), [r.purpose for r in state.rolls if r.source != "given"]
    assert state.owners["Tsaritsyn"] == "whites"  # Wrangel takes the city on the third turn
    assert state.vp == {"reds": 12, "whites": 3}
    assert run_cli("state", str(INTRO_SAMPLE)).returncode == 0


def test_the_kit_builds_and_the_map_fits_on_four_a4_tiles(tmp_path: Path) -> None:
    run = run_cli("kit", "--scenario", "tsaritsyn-1919", "--out", str(tmp_path))
    assert run.returncode == 0, run.stderr + run.stdout
    pages = page_sizes(tmp_path / "map-tiles-a4.pdf")
    assert 2 + 1 <= len(pages) <= 2 + 4  # assembly and key pages, then the tiles


def test_the_drawing_is_the_board(art: MapArt) -> None:
    board = Board.from_map(art.map)
    assert art.drawn.rail == set(board.rail) and board.rail
    assert art.drawn.roads == set(board.roads)
    rivers = {(pair, side.river_class) for pair, side in board.sides.items() if side.river_class}
    assert art.drawn.rivers == rivers and rivers
    bridges = {p for p, side in board.sides.items() if side.bridge and (side.river_class or side.sea)}
    assert art.drawn.bridges == bridges and bridges
    assert art.drawn.towns == {(h, t) for h, towns in board.towns.items() for t in towns}


def test_no_label_overlaps_another_a_hex_id_or_a_symbol(art: MapArt) -> None:
    labels = boxes(art.drawn.labels)
    assert not [(i, j) for i, j in overlapping(labels, labels) if i < j]
    assert not overlapping(labels, boxes(art.drawn.hex_ids))
    assert not overlapping(labels, boxes(art.drawn.symbols))


def test_both_sides_can_win_from_the_set_up(tmp_path: Path) -> None:
    """Issue 29: "The Tsaritsyn scenario keeps playing. Its sample and its victory conditions ...
    must still make sense after the positions move. Check that both sides can win." Played to the
    end, the sample is a White win (the storm of turn 3 takes the city); the same three turns with
    the storm thrown back leave the city Red, a Red win."""
    import shutil

    from kitgen.rules.ending import ending

    end = ending(load_scenario(INTRO), replay(load_campaign(INTRO_SAMPLE), 3))
    assert end.over and end.winners == ("whites",)
    held = tmp_path / "held"
    shutil.copytree(INTRO_SAMPLE, held)
    log = held / "turns" / "turn-03.yaml"
    text = log.read_text(encoding="utf-8")
    storm = text[text.index('  - hex: "5313"') : text.index('  - hex: "5212"')]
    thrown_back = (
        '  - hex: "5313"\n    winner: reds\n    units:\n'
        "      - {unit: r_37th_div, lost: {infantry: 1}}\n"
        "      - {unit: r_tsaritsyn_art}\n"
        "      - {unit: r_communists}\n"
        + "".join(
            f'      - {{unit: {unit}, lost: {{{kind}: 1}}, retreat: "5314"}}\n'
            for unit, kind in (
                ("w_7th_inf_div", "infantry"),
                ("w_1st_kuban_div", "cavalry"),
                ("w_3rd_kuban_div", "cavalry"),
            )
        )
        + '      - {unit: w_tank_det, retreat: "5314"}\n'
    )
    log.write_text(text.replace(storm, thrown_back), encoding="utf-8")
    state = replay(load_campaign(held), 3)
    assert state.owners["Tsaritsyn"] == "reds" and not [v for v in state.verdicts if v.result not in ("done",)]
    end = ending(load_scenario(INTRO), state)
    assert end.over and end.winners == ("reds",)
