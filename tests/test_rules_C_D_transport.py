"""Rule cases for sections C (RR trains) and D (ships)."""

from __future__ import annotations

import pytest

from kitgen.errors import UsageError
from kitgen.model.scenario import Scenario
from kitgen.rules.movement import movement_row
from kitgen.rules.transport import load_points


def test_C1_train_carries_12_points(scenario: Scenario) -> None:
    """'Each train can carry 12 points worth of men, equipment, supplies, etc.'"""
    assert scenario.transport.train.capacity == 12


def test_C1_train_moves_12_hexes(scenario: Scenario) -> None:
    """A table: 'RR Trains 12 must be on RR track'; the train's move is that row."""
    assert movement_row(scenario.movement, scenario.transport.train.unit_type).mp == 12


@pytest.mark.parametrize(
    ("kind", "points"),
    [
        ("infantry", 1),
        ("cavalry", 3),
        ("artillery", 4),
        ("rr_repair", 3),
        ("armoured_car", 3),
        ("tank", 3),
        ("pontoon", 5),
        ("depot", 10),
    ],
)
def test_C1_stand_points(scenario: Scenario, kind: str, points: int) -> None:
    """'Each infantry stand = 1Pt; each cavalry stand = 3 pts; each artillery stand = 4 pts, each RR repair
    stand = 3 pts; each armored car/tank = 3 pts; each pontoon unit = 5 pts each; each supply depot = 10 pts.'"""
    load = load_points(scenario.transport, {kind: 1}, "train")
    assert load.total == points


def test_C1_load_that_fits_exactly(scenario: Scenario) -> None:
    """12 points fit: 3 cavalry stands (9) and 3 infantry stands (3)."""
    load = load_points(scenario.transport, {"cavalry": 3, "infantry": 3}, "train")
    assert load.total == 12 and load.fits


def test_C1_load_one_over_does_not_fit(scenario: Scenario) -> None:
    """A depot (10) and an artillery stand (4) make 14: more than a train's 12."""
    load = load_points(scenario.transport, {"depot": 1, "artillery": 1}, "train")
    assert load.total == 14 and not load.fits


def test_C1_unknown_stand_kind(scenario: Scenario) -> None:
    with pytest.raises(UsageError) as caught:
        load_points(scenario.transport, {"camel": 1}, "train")
    assert caught.value.msg.code == "lookup.unknown_stand_kind" and "'camel'" in caught.value.msg.text


def test_C2_repair_units_fix_2_hexes_a_turn(scenario: Scenario) -> None:
    """'RR repair units and engineer units are the only units which can repair destroyed tracks.
    These can fix 2 hexes of track per turn.'"""
    assert scenario.transport.track.repair_unit_types == ["rr_repair", "engineer"]
    assert scenario.transport.track.repair_hexes_per_turn == 2


def test_C2_wrecking_needs_infantry_or_cavalry_of_3_stands(scenario: Scenario) -> None:
    """'To destroy a hex of track, an infantry or cavalry unit of at least 3 stands must enter that hex.'"""
    assert scenario.transport.track.wreck_unit_types == ["infantry", "cavalry"]
    assert scenario.transport.track.wreck_min_stands == 3


def test_D1_ships_move_16_hexes(scenario: Scenario) -> None:
    """'Ships can move 16 hexes per turn.'"""
    assert scenario.transport.ship.move_hexes == 16


def test_D3_ship_carries_16_points(scenario: Scenario) -> None:
    """'Using the RR capacity scale in Section C - a ship can carry 16 Points.'"""
    assert scenario.transport.ship.capacity == 16
    assert load_points(scenario.transport, {"depot": 1, "artillery": 1, "infantry": 2}, "ship").fits
    assert not load_points(scenario.transport, {"depot": 1, "artillery": 1, "infantry": 3}, "ship").fits
