"""Crossings and the sea in the turn engine: pontoons over major rivers (A.1), ships up the rivers
to their ports (D.1, D.2) and naval gunfire (D.3). Tsaritsyn (5313) has the Volga on its
5412 and 5413 sides, with no bridge; Taganrog (3719) and Rostov (3919) share the sea hex 3720
with 3819, the Don delta."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kitgen.campaign import load_campaign
from kitgen.engine.replay import replay
from kitgen.errors import KitgenError
from kitgen.mapping.board import Board
from kitgen.rules.transport import river_passages
from tests.conftest import edit, log

TSARITSYN, ACROSS = "5313", "5412"


def pontoon_orders(turn: int, extra: str = "") -> str:
    guns = f'  - {{purpose: "II.C r_tsaritsyn_art command roll, turn {turn}", value: 1}}\n' if extra else ""
    return (
        f'pontoons:\n  reds:\n    - {{unit: r_volga_pontoons, emplace: ["{TSARITSYN}", "{ACROSS}"]}}\n{extra}'
        f'dice:\n  - {{purpose: "II.C r_volga_pontoons command roll, turn {turn}", value: 1}}\n{guns}'
    )


def test_A1_the_volga_is_crossed_only_at_a_bridge_or_pontoon(folder: Path) -> None:
    """A.1: "Major river hexsides must be crossed at bridge points on map or with pontoons/ferries."
    With no pontoon the Tsaritsyn guns cannot cross the Volga: they stop before it, where they
    stood (RULES-NOTES, ruling of 2026-12-02)."""
    log(
        folder,
        1,
        f'orders:\n  reds:\n    - {{unit: r_tsaritsyn_art, move: ["{TSARITSYN}", "{ACROSS}"]}}\n'
        'dice:\n  - {purpose: "II.C r_tsaritsyn_art command roll, turn 1", value: 1}\n',
    )
    (verdict,) = replay(load_campaign(folder)).verdicts
    assert (verdict.result, verdict.stop, verdict.end, verdict.rule) == ("stopped", "river", TSARITSYN, "A.1")
    assert "bridge or with a pontoon" in verdict.explanation


def test_A1_emplacing_a_pontoon_takes_full_movement_and_units_cross_it(folder: Path) -> None:
    """A.1: "Takes full movement just to emplace pontoons and cross". The pontoon company spends
    its turn on the bridge; the guns cross on it the same turn, and the crossing is their move."""
    move = f'orders:\n  reds:\n    - {{unit: r_tsaritsyn_art, move: ["{TSARITSYN}", "{ACROSS}"]}}\n'
    log(folder, 1, pontoon_orders(1, move))
    state = replay(load_campaign(folder))
    emplaced, crossed = state.verdicts
    assert (emplaced.result, emplaced.rule) == ("done", "A.1") and "emplaces a pontoon" in emplaced.explanation
    assert crossed.result == "done" and "the whole move" in crossed.explanation
    guns, company = state.unit("r_tsaritsyn_art"), state.unit("r_volga_pontoons")
    assert guns is not None and guns.hex == ACROSS
    assert company is not None and company.hex == TSARITSYN and company.moved
    assert state.pontoons == ({"faction": "reds", "unit": "r_volga_pontoons", "hexes": [TSARITSYN, ACROSS]},)


def test_A1_a_pontoon_stays_until_picked_up(folder: Path) -> None:
    """RULES-NOTES: "it stays until picked up". Turn 2: still there; turn 3: taken up."""
    log(folder, 1, pontoon_orders(1))
    log(folder, 2)
    log(
        folder,
        3,
        "pontoons:\n  reds:\n    - {unit: r_volga_pontoons, pick_up: true}\n"
        'dice:\n  - {purpose: "II.C r_volga_pontoons command roll, turn 3", value: 1}\n',
    )
    campaign = load_campaign(folder)
    assert len(replay(campaign, 2).pontoons) == 1
    last = replay(campaign, 3)
    assert last.pontoons == () and [v.result for v in last.verdicts] == ["done"]


def test_A1_only_a_pontoon_unit_emplaces_and_only_across_a_major_river(folder: Path) -> None:
    """A.1: pontoons are a unit type of the A table; a hexside with no major river needs none."""
    log(
        folder,
        1,
        f'pontoons:\n  reds:\n    - {{unit: r_tsaritsyn_art, emplace: ["{TSARITSYN}", "{ACROSS}"]}}\n'
        '    - {unit: r_volga_pontoons, emplace: ["5313", "5312"]}\n'
        'dice:\n  - {purpose: "II.C r_tsaritsyn_art command roll, turn 1", value: 1}\n'
        '  - {purpose: "II.C r_volga_pontoons command roll, turn 1", value: 1}\n',
    )
    guns, company = replay(load_campaign(folder)).verdicts
    assert guns.result == "void" and "only a pontoon unit" in guns.explanation
    assert company.result == "void" and "no major river between 5313 and 5312" in company.explanation


def test_D1_ships_reach_river_ports_up_their_rivers(folder: Path) -> None:
    """D.1 (ruling river_ports): Rostov has no sea hex beside it; a ship reaches it from the sea
    by the Don delta hex 3819. The gunboat at Taganrog sails there and lands the 7th Division."""
    campaign = load_campaign(folder)
    board = Board.from_map(campaign.hex_map)
    assert river_passages(board, ["3919"]) == {"3919": ("3819",)}
    log(
        folder,
        1,
        'sea:\n  whites:\n    - {ship: w_gb_kubanets, carry: [w_7th_inf_div], path: ["3719", "3720", "3819", "3919"]}\n'
        'dice:\n  - {purpose: "II.C Bredov command roll, turn 1", value: 1}\n',
    )
    state = replay(load_campaign(folder))
    (verdict,) = state.verdicts
    assert verdict.result == "done", verdict.explanation
    unit = state.unit("w_7th_inf_div")
    assert unit is not None and unit.hex == "3919"
    assert [s["hex"] for s in state.ships if s["id"] == "w_gb_kubanets"] == ["3919"]


def test_D1_ships_do_not_sail_overland(folder: Path) -> None:
    """D.1: ships move by sea; 3818 is land and on no river passage: the ship stops before it
    (RULES-NOTES, ruling of 2026-12-02: "a ship before a hex it may not enter")."""
    log(folder, 1, 'sea:\n  whites:\n    - {ship: w_gb_kubanets, path: ["3719", "3818", "3819"]}\n')
    (verdict,) = replay(load_campaign(folder)).verdicts
    assert (verdict.result, verdict.stop, verdict.end) == ("stopped", "land", "3719")
    assert "keeps to sea hexes" in verdict.explanation


def kerch_battle(ships: str) -> str:
    return (
        'battles:\n  - hex: "3026"\n    winner: whites\n'
        f"    ships: [{ships}]\n"
        '    units:\n      - {unit: w_crimea_azov_1}\n      - {unit: r_crimean_army, lost: {infantry: 2}, retreat: "2927"}\n'
    )


def reds_at_kerch(folder: Path) -> None:
    line = "name: Crimean Army (Trans-Dnieper Div), type: infantry, size: army, stands: {infantry: 4, machine_gun: 1}, at: Simferopol"
    edit(folder / "setup.yaml", line, line.replace("Simferopol", "Kerch"))


def test_D3_ships_fire_in_support_worth_their_rating_in_batteries(folder: Path) -> None:
    """D.3: "Naval ships can provide artillery support into coastal hexes. Each ship is rated for
    how many artillery batteries it is worth on tabletop battles." HMS Marlborough (4) in Kerch."""
    reds_at_kerch(folder)
    log(folder, 1, kerch_battle("w_hms_marlborough"))
    state = replay(load_campaign(folder))
    (fire,) = state.naval_fire  # the result as data; the umpire's note is made from it
    assert (fire.ship, fire.faction, fire.hex, fire.from_hex, fire.batteries) == (
        "w_hms_marlborough",
        "whites",
        "3026",
        "3026",
        4,
    )
    assert "D.3 HMS Marlborough (Royal Navy) fires in support in 3026: 4 batteries" in state.umpire


def test_D3_a_ship_far_from_the_battle_cannot_fire(folder: Path) -> None:
    """D.3: support goes "into coastal hexes" from the sea next to them: the cruiser at
    Novorossiisk is far from Kerch."""
    reds_at_kerch(folder)
    path = log(folder, 1, kerch_battle("w_cruiser_kornilov"))
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    (problem,) = caught.value.problems
    assert problem.line == 5 and "cannot fire into 3026" in problem.message
    assert path.name in problem.file


def test_D1_ships_pass_the_kerch_strait_through_the_port(folder: Path) -> None:
    """D.1 (ruling through_ports): "Ships can move 16 hexes per turn"; Kerch's hex holds the strait,
    so a ship from Taganrog reaches Novorossiisk in one turn through it."""
    campaign = load_campaign(folder)
    board = Board.from_map(campaign.hex_map)
    sea = {h.id for h in campaign.hex_map.hexes if board.is_sea(h.id)}
    route = _sea_route(board, "3719", "3428", sea | {"3026"})
    assert "3026" in route and len(route) - 1 <= 16
    log(folder, 1, f"sea:\n  whites:\n    - {{ship: w_gb_kubanets, path: {route}}}\n".replace("'", '"'))
    (verdict,) = replay(load_campaign(folder)).verdicts
    assert verdict.result == "done", verdict.explanation


def _sea_route(board: Board, start: str, end: str, water: set[str]) -> list[str]:
    """The shortest way from port to port through `water` (breadth first, for the test)."""
    back: dict[str, str] = {}
    frontier = [start]
    while frontier and end not in back:
        nxt = []
        for here in frontier:
            for n in board.neighbours(here):
                if n not in back and (n in water or n == end):
                    back[n] = here
                    nxt.append(n)
        frontier = nxt
    path = [end]
    while path[-1] != start:
        path.append(back[path[-1]])
    return path[::-1]


def test_A1_a_pontoon_goes_with_its_unit_and_carries_supply(folder: Path) -> None:
    """RULES-NOTES: the pontoon "stays until picked up"; a unit lost can never pick it up, so the
    bridge goes with it (ruling pontoons). While it stands, the side's supply crosses on it."""
    log(
        folder,
        1,
        pontoon_orders(1, f'orders:\n  reds:\n    - {{unit: r_tsaritsyn_art, move: ["{TSARITSYN}", "{ACROSS}"]}}\n'),
    )
    log(folder, 2)
    across = replay(load_campaign(folder)).unit("r_tsaritsyn_art")
    assert across is not None and across.in_supply and TSARITSYN in across.supply_path
    from kitgen.engine.phases.pontoons import orphaned_pontoons

    state = replay(load_campaign(folder), 2)
    gone = orphaned_pontoons(replace(state, units=tuple(u for u in state.units if u.id != "r_volga_pontoons")))
    assert len(state.pontoons) == 1 and gone.pontoons == ()


def test_A3_only_infantry_land_on_a_coast(folder: Path) -> None:
    """A.3: "Amphibious landings on coastal hexes can only be done by infantry. Rest of units must
    disembark at a port city." A brigade with a gun stand may not land on the beach: it stays
    aboard, on a verdict of its own."""
    line = "name: Crimean-Azov Army (5th Inf Div), type: infantry, size: corps, stands: {infantry: 3, machine_gun: 1}"
    edit(folder / "setup.yaml", line, line.replace("machine_gun: 1", "machine_gun: 1, artillery: 1"))
    log(
        folder,
        1,
        'sea:\n  whites:\n    - {ship: w_tr_rion, carry: [w_crimea_azov_1], path: ["3026", "3126"], land: "3127"}\n'
        'dice:\n  - {purpose: "II.C Slashchev command roll, turn 1", value: 1}\n',
    )
    state = replay(load_campaign(folder))
    ship, brigade = state.verdicts
    assert brigade.unit == "w_crimea_azov_1" and brigade.result == "void"
    assert "only infantry land on a coast" in brigade.explanation
    assert ship.result == "done" and state.unit("w_crimea_azov_1").aboard == "w_tr_rion"  # type: ignore[union-attr]


def test_D3_a_ship_fires_in_one_battle_a_turn(folder: Path) -> None:
    """D.3: "Each ship is rated for how many artillery batteries it is worth on tabletop battles":
    listed twice, it would count twice."""
    reds_at_kerch(folder)
    log(folder, 1, kerch_battle("w_hms_marlborough, w_hms_marlborough"))
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    (problem,) = caught.value.problems
    assert problem.code == "log.ship_fired" and "firing a second time this turn" in problem.message
