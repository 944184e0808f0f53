"""Rule cases for section A, Map Movement (and the RULES-NOTES rulings on it)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kitgen.errors import UsageError
from kitgen.model.scenario import Scenario
from kitgen.rules.movement import breakdown_chance, breakdown_roll, breaks_down, entry_cost, movement_row


def mp(s: Scenario, unit: str, terrain: str, **kw: object) -> int | None:
    return entry_cost(s.movement, unit, terrain, **kw).mp  # type: ignore[arg-type]


def test_A_table_infantry_has_2_mp_and_pays_1_1_2_2(scenario: Scenario) -> None:
    """'Infantry 2 1 1 2 2 +1'"""
    assert movement_row(scenario.movement, "infantry").mp == 2
    assert [mp(scenario, "infantry", t) for t in ("open", "forest", "mountain", "marsh")] == [1, 1, 2, 2]


def test_A_table_cavalry_forest_costs_2(scenario: Scenario) -> None:
    """'Cavalry 4 1 2 4 4 +1'"""
    assert movement_row(scenario.movement, "cavalry").mp == 4
    assert mp(scenario, "cavalry", "forest") == 2
    assert [mp(scenario, "cavalry", t) for t in ("open", "mountain", "marsh")] == [1, 4, 4]


def test_A_table_artillery_mountain_and_marsh_prohibited_without_road(scenario: Scenario) -> None:
    """'Artillery 3 1 3 p* p* +1' and 'p* = Prohibited unless road/RR track runs thorough hex.'"""
    assert movement_row(scenario.movement, "artillery").mp == 3
    assert mp(scenario, "artillery", "forest") == 3
    assert mp(scenario, "artillery", "mountain") is None
    assert mp(scenario, "artillery", "marsh") is None


def test_A_p_star_terrain_enterable_along_road_or_rail_for_1(scenario: Scenario) -> None:
    """RULES-NOTES: 'entering a p* hex along a road or rail line costs 1 MP (the Open cost).'"""
    assert scenario.movement.road_cost == 1
    assert mp(scenario, "artillery", "mountain", road=True) == 1
    assert mp(scenario, "armoured_car", "forest", rail=True) == 1


def test_A_roads_do_not_change_other_costs(scenario: Scenario) -> None:
    """RULES-NOTES: 'Elsewhere roads do not change costs.'"""
    assert mp(scenario, "infantry", "mountain", road=True) == 2
    assert mp(scenario, "cavalry", "marsh", road=True) == 4


def test_A_table_armoured_cars_6_mp_open_only(scenario: Scenario) -> None:
    """'Armored Cars 6 1 p* p* p* p*'"""
    assert movement_row(scenario.movement, "armoured_car").mp == 6
    assert mp(scenario, "armoured_car", "open") == 1
    for t in ("forest", "mountain", "marsh"):
        assert mp(scenario, "armoured_car", t) is None


def test_A_table_armoured_cars_cross_rivers_only_at_bridges(scenario: Scenario) -> None:
    """'Armored Cars ... Crossable River p*'"""
    assert mp(scenario, "armoured_car", "open", river="crossable") is None
    assert mp(scenario, "armoured_car", "open", river="crossable", bridge=True) == 1


def test_A_table_tanks_3_mp_marsh_3(scenario: Scenario) -> None:
    """'Tanks 3 1 p* p* 3 +1'"""
    assert movement_row(scenario.movement, "tank").mp == 3
    assert [mp(scenario, "tank", t) for t in ("open", "forest", "mountain", "marsh")] == [1, None, None, 3]


def test_A_table_pontoon_units_3_mp_marsh_3(scenario: Scenario) -> None:
    """'Pontoon Units 3 1 p* p* 3 +1'"""
    assert movement_row(scenario.movement, "pontoon").mp == 3
    assert [mp(scenario, "pontoon", t) for t in ("open", "forest", "mountain", "marsh")] == [1, None, None, 3]


def test_A_table_rr_trains_12_must_be_on_track(scenario: Scenario) -> None:
    """'RR Trains 12 must be on RR track'"""
    assert movement_row(scenario.movement, "rr_train").mp == 12
    assert mp(scenario, "rr_train", "open") is None
    assert mp(scenario, "rr_train", "mountain", rail=True) == 1
    assert mp(scenario, "rr_train", "open", road=True) is None


@pytest.mark.parametrize("unit", ["infantry", "cavalry", "artillery", "tank", "pontoon"])
def test_A_crossable_river_adds_1(scenario: Scenario, unit: str) -> None:
    """'Crossable River +1' for every row but armoured cars."""
    assert mp(scenario, unit, "open", river="crossable") == 2


def test_A_crossable_river_example_cavalry_forest(scenario: Scenario) -> None:
    """RULES-NOTES: 'a unit spends the cost of each hex it enters; +1 for a crossable-river hexside'."""
    cost = entry_cost(scenario.movement, "cavalry", "forest", river="crossable")
    assert cost.mp == 3 and cost.parts == ("forest 2", "+1 crossable river")


def test_A1_bridge_cancels_river_cost(scenario: Scenario) -> None:
    """RULES-NOTES: 'A bridge cancels the river cost: no +1 for a crossable river'."""
    assert mp(scenario, "infantry", "forest", river="crossable", bridge=True) == 1


def test_A1_major_river_only_at_bridge_or_pontoon(scenario: Scenario) -> None:
    """'Major river hexsides must be crossed at bridge points on map or with pontoons/ferries.'"""
    cost = entry_cost(scenario.movement, "infantry", "open", river="major")
    assert cost.mp is None and cost.rule == "A.1"
    assert mp(scenario, "infantry", "open", river="major", bridge=True) == 1


def test_A1_pontoon_or_ferry_crossing_takes_full_movement(scenario: Scenario) -> None:
    """'Takes full movement just to emplace pontoons and cross or complete crossing by ferries.'"""
    cost = entry_cost(scenario.movement, "cavalry", "open", river="major", pontoon=True)
    assert cost.whole_move and cost.mp == 4


def test_A1_trains_cross_major_rivers_only_at_bridges(scenario: Scenario) -> None:
    """Trains 'must be on RR track'; track crosses a major river only where there is a bridge."""
    assert mp(scenario, "rr_train", "open", rail=True, river="major") is None
    assert mp(scenario, "rr_train", "open", rail=True, river="major", bridge=True) == 1


def test_II_D3_tachankas_move_as_cavalry(scenario: Scenario) -> None:
    """II.D.3 'Partisan tatchankas follow same movement rules as cavalry for strategic map movement.'"""
    assert movement_row(scenario.movement, "tachanka").id == "cavalry"
    assert mp(scenario, "tachanka", "forest", river="crossable") == 3


def test_A_unknown_unit_type_or_terrain_is_a_usage_error(scenario: Scenario) -> None:
    with pytest.raises(UsageError) as caught:
        entry_cost(scenario.movement, "zeppelin", "open")
    assert caught.value.msg.code == "lookup.unknown_unit_type" and "'zeppelin'" in caught.value.msg.text
    with pytest.raises(UsageError) as caught:
        entry_cost(scenario.movement, "infantry", "swamp")
    assert caught.value.msg.code == "lookup.unknown_terrain"
    assert "'swamp', expected one of open, forest, mountain or marsh" in caught.value.msg.text


def test_A4_armoured_cars_break_down_on_2D6_2_or_3(scenario: Scenario) -> None:
    """'Every turn any armored cars move ... roll 2 D6 per vehicle for mechanical breakdown on rolls of 2 or 3.'"""
    b = breakdown_roll(scenario.movement, "armoured_car", carried=False)
    assert b is not None and b.roll == "2D6" and b.fails_on == [2, 3]
    assert [breaks_down(b, r) for r in range(2, 13)] == [True, True] + [False] * 9
    assert breakdown_chance(b) == Fraction(3, 36)


def test_A5_tanks_break_down_on_D6_1(scenario: Scenario) -> None:
    """'Tanks do the same as #4. above except roll I DO and breakdown on a roll of 1.'"""
    b = breakdown_roll(scenario.movement, "tank", carried=False)
    assert b is not None and b.roll == "D6" and b.fails_on == [1]
    assert breakdown_chance(b) == Fraction(1, 6)


def test_A5_no_breakdown_roll_when_carried(scenario: Scenario) -> None:
    """'Neither of these rolls occur if vehicles are being transported by RR train or ship.'"""
    assert breakdown_roll(scenario.movement, "armoured_car", carried=True) is None
    assert breakdown_roll(scenario.movement, "tank", carried=True) is None


def test_A4_only_vehicles_roll_for_breakdown(scenario: Scenario) -> None:
    assert breakdown_roll(scenario.movement, "cavalry", carried=False) is None
