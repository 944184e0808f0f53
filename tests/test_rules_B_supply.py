"""Rule cases for section B, Supply Rules (the numbers; the trace itself comes with the map)."""

from __future__ import annotations

from fractions import Fraction

from kitgen.model.scenario import Scenario
from kitgen.rules.supply import abandoned_vehicle, depot_emptied, depot_empty_chance, depot_empty_target


def test_B3_trace_is_at_most_5_hexes(scenario: Scenario) -> None:
    """'...a clear line of non-enemy occupied hexes no more than 5 hexes long from a rail line...'"""
    assert scenario.supply.trace_hexes == 5


def test_B4_rail_lines_unlimited(scenario: Scenario) -> None:
    """'While non-RR hexes cannot extend past 5 hexes, rail lines can be unlimited in length.'"""
    assert scenario.supply.rail_unlimited is True


def test_B5_edge_resupply_takes_1_full_turn(scenario: Scenario) -> None:
    """'...retire to friendly edge of board ... to renew supply. Takes I full turn stationary to do so.'"""
    assert scenario.supply.resupply_turns == 1


def test_B8_ammo_allotments(scenario: Scenario) -> None:
    """'AMMO ALLOTMENTS: Rifle Stands: 16 Shots, MG Stands 12 Bursts; Arty Stands 12 Shells (HE,shrapnel,smoke)'"""
    ammo = {a.stand: (a.rounds, a.unit) for a in scenario.supply.ammo}
    assert ammo == {"infantry": (16, "shots"), "machine_gun": (12, "bursts"), "artillery": (12, "shells")}
    arty = next(a for a in scenario.supply.ammo if a.stand == "artillery")
    assert arty.natures == ["HE", "shrapnel", "smoke"]


def test_B7_cut_off_depot_first_use_empties_on_1(scenario: Scenario) -> None:
    """'first turn it is utilized for resupply roll a D6 and on a I emptied.'"""
    assert scenario.supply.depot_cutoff.roll == "D6"
    assert depot_empty_target(scenario.supply, 1) == 1
    assert depot_emptied(scenario.supply, 1, 1) and not depot_emptied(scenario.supply, 1, 2)


def test_B7_cut_off_depot_second_use_empties_on_1_2_and_so_on(scenario: Scenario) -> None:
    """'Second turn utilized would be a 1, 2 emptied, etc.'"""
    assert [depot_empty_target(scenario.supply, n) for n in (1, 2, 3, 4)] == [1, 2, 3, 4]
    assert depot_emptied(scenario.supply, 2, 2) and not depot_emptied(scenario.supply, 2, 3)
    assert depot_empty_chance(scenario.supply, 2) == Fraction(1, 3)
    assert depot_empty_chance(scenario.supply, 6) == 1


def test_B8_out_of_supply_vehicles_get_1_turn_of_movement(scenario: Scenario) -> None:
    """'If they start turn OUT OF SUPPLY they only get 1 turn of strategic map movement then immobilized.'"""
    assert scenario.supply.fuel.moves_out_of_supply == 1


def test_B8_abandoned_vehicle_even_intact_odd_destroyed(scenario: Scenario) -> None:
    """'Roll DG: EVEN - Left intact. ODD - Destroyed by crew.'"""
    assert scenario.supply.fuel.abandon_roll == "D6"
    assert [abandoned_vehicle(scenario.supply, r) for r in range(1, 7)] == ["destroyed", "intact"] * 3


def test_B8_out_of_supply_vehicle_gets_2D6_tabletop_moves(scenario: Scenario) -> None:
    """'If OUT OF SUPPLY on tabletop battle roll 2 DG for number of moves it gets in the tactical battle.'"""
    assert scenario.supply.fuel.tabletop_moves_roll == "2D6"
