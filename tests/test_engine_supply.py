"""Section B beyond the trace, as the turn engine plays it: ammunition loads (B.5-B.6), depots
(B.7) and fuel (B.8). Elista (hex 5322) is out of everyone's supply at the start: no rail
within 5 hexes joins a source, which the first test proves."""

from __future__ import annotations

from pathlib import Path

from kitgen.campaign import load_campaign
from kitgen.engine.replay import replay
from kitgen.engine.state import CampaignState
from tests.conftest import edit, log

ELISTA = "5322"
EAST = "5422"
"""Next to Elista, and out of the Reds' supply too."""
CARS = "{id: r_armoured_cars, faction: reds, name: Kharkov Armoured Car Detachment, type: armoured_car, size: company, stands: {armoured_car: 2}, at: Kharkov}"


def state_of(folder: Path, upto: int | None = None) -> CampaignState:
    return replay(load_campaign(folder), upto)


def move_to_elista(folder: Path, unit_line: str, old_at: str) -> None:
    edit(folder / "setup.yaml", unit_line, unit_line.replace(f"at: {old_at}", "at: Elista"))


def test_B5_units_in_supply_enter_battle_with_full_loads(folder: Path) -> None:
    """B.5: "When IN SUPPLY units enter a battle with full loads of ammo"; the allotments: "Rifle
    Stands: 16 Shots, MG Stands 12 Bursts; Arty Stands 12 Shells"."""
    log(folder, 1)
    state = state_of(folder)
    rifles, guns = state.unit("w_drozdovsky_1"), state.unit("w_vol_artillery")
    assert rifles is not None and rifles.in_supply and rifles.ammo == {"infantry": 16, "machine_gun": 12}
    assert guns is not None and guns.in_supply and guns.ammo == {"artillery": 12}


def test_B6_out_of_supply_units_keep_the_ammo_left_from_their_last_action(folder: Path) -> None:
    """B.6: "When OUT OF SUPPLY, units enter battle with current load of ammo left from last
    action." The Kornilov regiment fights Reds at Elista, is left with 5 shots a rifle stand,
    and has no more at the start of the next turn; back in supply (B.5) it would be full."""
    kornilov = "{id: w_kornilov_1, faction: whites, name: Kornilov Shock Regiment, type: infantry, size: regiment, stands: {infantry: 4, machine_gun: 1}, flags: [elite], at: Gorlovka"
    edit(folder / "setup.yaml", kornilov, kornilov.replace("Gorlovka", "Elista"))
    reds = "{id: r_16th_div, faction: reds, name: 16th Kikvidze Rifle Div (vs Veshenskaya rising), type: infantry, size: division, stands: {infantry: 3}, at: Mikhailovka}"
    edit(folder / "setup.yaml", reds, reds.replace("Mikhailovka", "Elista"))
    log(
        folder,
        1,
        "battles:\n"
        f'  - hex: "{ELISTA}"\n    winner: whites\n    units:\n'
        "      - {unit: w_kornilov_1, ammo_left: {infantry: 5}}\n"
        '      - {unit: r_16th_div, lost: {infantry: 1}, retreat: "5321"}\n',
    )
    log(folder, 2)
    after_battle, next_turn = state_of(folder, 1), state_of(folder, 2)
    unit = after_battle.unit("w_kornilov_1")
    assert unit is not None and unit.in_supply is False and unit.ammo == {"infantry": 5, "machine_gun": 12}
    unit = next_turn.unit("w_kornilov_1")
    assert unit is not None and unit.in_supply is False and unit.ammo["infantry"] == 5


def test_B5_a_unit_in_supply_needs_no_depot(folder: Path) -> None:
    """B.5: a unit in supply has full loads already, so a resupply order achieves nothing: void."""
    log(
        folder,
        1,
        "resupply:\n  whites:\n    - {unit: w_drozdovsky_1}\n"
        'dice:\n  - {purpose: "II.C Mai-Maevsky command roll, turn 1", value: 1}\n',
    )
    (verdict,) = state_of(folder).verdicts
    assert verdict.result == "void" and verdict.rule == "B.5" and "full already" in verdict.explanation


def cut_off_depot(folder: Path) -> None:
    """A White depot and the Kornilov regiment at Elista, both cut off."""
    kornilov = "{id: w_kornilov_1, faction: whites, name: Kornilov Shock Regiment, type: infantry, size: regiment, stands: {infantry: 4, machine_gun: 1}, flags: [elite], at: Gorlovka"
    edit(folder / "setup.yaml", kornilov, kornilov.replace("Gorlovka", "Elista"))
    edit(
        folder / "setup.yaml",
        "  - {faction: whites, at: Kerch}\n",
        "  - {faction: whites, at: Kerch}\n  - {faction: whites, at: Elista}\n",
    )


def resupply_log(turn: int, roll: int, use: int = 1) -> str:
    return (
        "resupply:\n  whites:\n    - {unit: w_kornilov_1}\n"
        f'dice:\n  - {{purpose: "II.C Skoblin command roll, turn {turn}", value: 1}}\n'
        f'  - {{purpose: "B.7 depot in {ELISTA} cut off, use {use}, turn {turn}", value: {roll}}}\n'
    )


def test_B7_a_cut_off_depot_empties_on_a_1_the_first_turn_it_is_used(folder: Path) -> None:
    """B.7: "If a depot is cut off from supply lines, first turn it is utilized for resupply roll
    a D6 and on a 1 emptied." A 1: found empty (ruling depot_found_empty), and gone."""
    cut_off_depot(folder)
    log(folder, 1, resupply_log(1, 1))
    state = state_of(folder)
    (verdict,) = state.verdicts
    assert verdict.result == "void" and verdict.rule == "B.7" and "found empty" in verdict.explanation
    assert not any(d["hex"] == ELISTA for d in state.depots)


def test_B7_second_turn_of_use_empties_on_1_or_2(folder: Path) -> None:
    """B.7: "Second turn utilized would be a 1, 2 emptied, etc." A 2 passes the first turn (the
    unit is resupplied to 16 shots) and empties the depot the second."""
    cut_off_depot(folder)
    reds = "{id: r_16th_div, faction: reds, name: 16th Kikvidze Rifle Div (vs Veshenskaya rising), type: infantry, size: division, stands: {infantry: 3}, at: Mikhailovka}"
    edit(folder / "setup.yaml", reds, reds.replace("Mikhailovka", "Elista"))
    log(
        folder,
        1,
        "battles:\n"
        f'  - hex: "{ELISTA}"\n    winner: whites\n    units:\n      - {{unit: w_kornilov_1, ammo_left: {{infantry: 3}}}}\n'
        '      - {unit: r_16th_div, retreat: "5321"}\n',
    )
    log(folder, 2, resupply_log(2, 2, use=1))
    log(folder, 3, resupply_log(3, 2, use=2))
    first, second = state_of(folder, 2), state_of(folder, 3)
    unit = first.unit("w_kornilov_1")
    assert unit is not None and unit.ammo["infantry"] == 16
    assert [v.result for v in first.verdicts] == ["done"]
    assert [d["uses"] for d in first.depots if d["hex"] == ELISTA] == [1]
    assert [v.result for v in second.verdicts] == ["void"] and "at or under 2" in second.verdicts[0].explanation
    assert not any(d["hex"] == ELISTA for d in second.depots)
    # the rolls as data: each with its use and the target that empties the depot
    assert [(r.hex, r.faction, r.use, r.roll, r.target, r.empty) for r in first.depot_rolls] == [
        (ELISTA, "whites", 1, 2, 1, False)
    ]
    assert [(r.use, r.roll, r.target, r.empty) for r in second.depot_rolls] == [(2, 2, 2, True)]


def test_B7_supply_restored_clears_the_count(folder: Path) -> None:
    """B.7: "This penalty is removed if supply is restored at beginning of new turn." A depot in
    supply is not cut off and has no count of uses."""
    log(folder, 1)
    depots = state_of(folder).depots
    kharkov = [d for d in depots if d["hex"] == "2909"]
    assert kharkov == [{"faction": "reds", "hex": "2909", "cut_off": False, "uses": 0}]


def cars_at_elista(folder: Path) -> None:
    edit(folder / "setup.yaml", CARS, CARS.replace("at: Kharkov", "at: Elista"))


def car_move(turn: int, start: str, end: str) -> str:
    return (
        f'orders:\n  reds:\n    - {{unit: r_armoured_cars, move: ["{start}", "{end}"]}}\n'
        f'dice:\n  - {{purpose: "II.C r_armoured_cars command roll, turn {turn}", value: 1}}\n'
        f'  - {{purpose: "A.4 r_armoured_cars vehicle 1 breakdown, turn {turn}", value: 7}}\n'
        f'  - {{purpose: "A.4 r_armoured_cars vehicle 2 breakdown, turn {turn}", value: 7}}\n'
    )


def test_B8_vehicles_out_of_supply_get_one_turn_of_movement(folder: Path) -> None:
    """B.8: "Vehicles burn up fuel. If they start turn OUT OF SUPPLY they only get 1 turn of
    strategic map movement then immobilized." The cars at Elista make their one move."""
    cars_at_elista(folder)
    log(folder, 1, car_move(1, ELISTA, EAST))
    state = state_of(folder)
    cars = state.unit("r_armoured_cars")
    assert cars is not None and cars.hex == EAST and cars.moves_out_of_supply == 1
    assert [v.result for v in state.verdicts] == ["done"]


def test_B8_then_immobilised(folder: Path) -> None:
    """B.8: "only get 1 turn of strategic map movement then immobilized": turn 2, still out of
    supply after their move, the cars may not move."""
    cars_at_elista(folder)
    log(folder, 1, car_move(1, ELISTA, EAST))
    held = car_move(2, EAST, ELISTA).split('  - {purpose: "A.4')[0]  # no breakdown roll: it does not move
    log(folder, 2, held)
    state = state_of(folder)
    cars = state.unit("r_armoured_cars")
    assert cars is not None and cars.immobilised and cars.hex == EAST
    (verdict,) = state.verdicts
    assert (verdict.result, verdict.rule) == ("void", "B.8") and "immobilised" in verdict.explanation


def test_B8_then_abandoned_even_left_intact(folder: Path) -> None:
    """B.8: "It will then be abandoned. Roll D6: EVEN - Left intact. ODD - Destroyed by crew." The
    cars start turn 3 still out of supply, immobilised: abandoned, a 4 leaves them intact
    (ruling out_of_fuel)."""
    cars_at_elista(folder)
    log(folder, 1, car_move(1, ELISTA, EAST))
    log(folder, 2)
    log(folder, 3, 'dice:\n  - {purpose: "B.8 r_armoured_cars abandoned, turn 3", value: 4}\n')
    state = state_of(folder)
    assert state.unit("r_armoured_cars") is None
    assert [(a["unit"], a["hex"], a["stands"]) for a in state.abandoned] == [
        ("r_armoured_cars", EAST, {"armoured_car": 2})
    ]
    assert any("left intact" in note for note in state.umpire)


def test_B8_odd_destroyed_by_the_crew(folder: Path) -> None:
    """B.8: "ODD - Destroyed by crew": nothing is left to take."""
    cars_at_elista(folder)
    log(folder, 1, car_move(1, ELISTA, EAST))
    log(folder, 2)
    log(folder, 3, 'dice:\n  - {purpose: "B.8 r_armoured_cars abandoned, turn 3", value: 3}\n')
    state = state_of(folder)
    assert state.unit("r_armoured_cars") is None and state.abandoned == ()
    assert any("destroyed by the crew" in note for note in state.umpire)


def test_B8_vehicles_that_did_not_move_keep_their_turn_of_fuel(folder: Path) -> None:
    """B.8: "1 turn of strategic map movement": cars that stood still out of supply still have
    it, and move on turn 2."""
    cars_at_elista(folder)
    log(folder, 1)
    log(folder, 2, car_move(2, ELISTA, EAST))
    cars = state_of(folder).unit("r_armoured_cars")
    assert cars is not None and cars.hex == EAST and not cars.immobilised


def test_B8_out_of_supply_vehicles_roll_2D6_for_their_tabletop_moves(folder: Path) -> None:
    """B.8: "If OUT OF SUPPLY on tabletop battle roll 2 D6 for number of moves it gets in the
    tactical battle." White cavalry meets the cars at Elista."""
    cars_at_elista(folder)
    terek = "{id: w_terek_host, faction: whites, name: Terek Cossack Host, type: cavalry, size: division, stands: {cavalry: 3}, at: Pyatigorsk"
    edit(folder / "setup.yaml", terek, terek.replace("Pyatigorsk", "Elista"))
    log(folder, 1, 'dice:\n  - {purpose: "B.8 r_armoured_cars tabletop moves, turn 1", value: 9}\n')
    state = state_of(folder)
    assert ELISTA in state.contacts
    (roll,) = [r for r in state.rolls if r.purpose.startswith("B.8")]
    assert (roll.dice, roll.value, roll.source) == ("2D6", 9, "given")
    assert any("9 moves in the battle" in note for note in state.umpire)


def test_B8_an_order_for_abandoned_vehicles_is_void_not_a_crash(folder: Path) -> None:
    """A unit gone before its order is judged (here abandoned at the start of turn 3, B.8) leaves
    a void verdict with its file and line, not a stopped replay."""
    cars_at_elista(folder)
    log(folder, 1, car_move(1, ELISTA, EAST))
    log(folder, 2)
    log(
        folder,
        3,
        f'orders:\n  reds:\n    - {{unit: r_armoured_cars, move: ["{EAST}", "{ELISTA}"]}}\n'
        'dice:\n  - {purpose: "B.8 r_armoured_cars abandoned, turn 3", value: 3}\n',
    )
    (verdict,) = state_of(folder).verdicts
    assert verdict.result == "void" and verdict.line == 4 and "no longer on the map" in verdict.explanation
