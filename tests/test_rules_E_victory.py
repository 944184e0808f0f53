"""Rule cases for section E (victory points) and II.E (the reinforcement process)."""

from __future__ import annotations

import pytest

from kitgen.errors import UsageError
from kitgen.model.scenario import Scenario
from kitgen.rules.victory import chart_rolls, is_award_turn, makhnovist_modifier, reinforcement_draws, town_vp


def test_E2_vp_awarded_every_3rd_strategic_turn(scenario: Scenario) -> None:
    """'Faction occupying city/town at end of each 3rd Strategic turn gets the VPs added to their total.'"""
    assert [t for t in range(1, 13) if is_award_turn(scenario.victory, t)] == [3, 6, 9, 12]


def test_E3_reds_roll_every_30_vp(scenario: Scenario) -> None:
    """'Every time the Red VP total reaches 30 - pts. the Reds roll on their Replacement/Reinforcement Chart then subtract 30.'"""
    assert scenario.victory.thresholds["reds"] == 30
    assert chart_rolls(scenario.victory, "reds", 29).rolls == 0
    r = chart_rolls(scenario.victory, "reds", 30)
    assert (r.rolls, r.remainder) == (1, 0)


def test_E3_repeated_rolls_while_still_at_threshold(scenario: Scenario) -> None:
    """RULES-NOTES: 'subtract and roll again while still at or above it'."""
    r = chart_rolls(scenario.victory, "reds", 67)
    assert (r.rolls, r.remainder) == (2, 7)


def test_E3_reds_bonus_3D6_every_3rd_turn(scenario: Scenario) -> None:
    """'In addition to any map VPs the Reds get to roll 3 DG worth of extra VPs every 3rd Strategic turn.'"""
    assert scenario.victory.bonus == {"reds": "3D6"}


def test_E4_whites_roll_every_45(scenario: Scenario) -> None:
    """'Whites get to roll on their chart every time their total reaches 45 pts. then subtract 45.'"""
    assert scenario.victory.thresholds["whites"] == 45
    r = chart_rolls(scenario.victory, "whites", 91)
    assert (r.rolls, r.remainder) == (2, 1)


def test_E5_ukrainians_roll_every_40(scenario: Scenario) -> None:
    """'Each time they reach 40 pts. they roll on their chart and subtract 40.'"""
    assert scenario.victory.thresholds["ukrainians"] == 40
    r = chart_rolls(scenario.victory, "ukrainians", 39)
    assert (r.rolls, r.remainder) == (0, 39)


def test_E5_ukrainians_score_only_in_ukraine_proper(scenario: Scenario) -> None:
    """'Ukrainians only get VPs from cities/towns in Ukraine proper.' RULES-NOTES: '-' = no VP."""
    kiev, tsaritsyn = scenario.find_town("Kiev"), scenario.find_town("Tsaritsyn")
    assert kiev is not None and tsaritsyn is not None
    assert town_vp(kiev, "ukrainians") == 7
    assert town_vp(tsaritsyn, "ukrainians") is None
    assert town_vp(tsaritsyn, "reds") == 4


def test_E6_makhnovists_have_no_threshold(scenario: Scenario) -> None:
    """'Makhnovists are completely different - ... Every 3rd turn simply roll on their Current Strength Chart'."""
    assert "makhnovists" not in scenario.victory.thresholds
    assert scenario.faction("makhnovists").scores_vp is False  # type: ignore[union-attr]
    with pytest.raises(UsageError) as caught:
        chart_rolls(scenario.victory, "makhnovists", 50)
    assert caught.value.msg.code == "lookup.no_threshold" and "'makhnovists'" in caught.value.msg.text


def test_E6_makhnovist_modifiers(scenario: Scenario) -> None:
    """'Modifiers: -1 if they do not hold Gulai Pole; -2 if Makhno is dead'."""
    v = scenario.victory
    assert makhnovist_modifier(v, holds_gulai_pole=True, makhno_alive=True) == 0
    assert makhnovist_modifier(v, holds_gulai_pole=False, makhno_alive=True) == -1
    assert makhnovist_modifier(v, holds_gulai_pole=True, makhno_alive=False) == -2
    assert makhnovist_modifier(v, holds_gulai_pole=False, makhno_alive=False) == -3


@pytest.mark.parametrize(
    ("faction", "draws"),
    [("reds", [3, 4, 4, 5, 5, 7]), ("whites", [1, 2, 2, 3, 3, 4]), ("ukrainians", [1, 1, 2, 2, 2, 3])],
)
def test_II_E2_chart_draws(scenario: Scenario, faction: str, draws: list[int]) -> None:
    """'Roll a D6: REDS 1 - Three draws ... 6 - Seven draws; WHITES One ... Four; UKRAINIANS One ... Three'."""
    assert [reinforcement_draws(scenario.victory, faction, roll) for roll in range(1, 7)] == draws


def test_II_E2_roll_outside_the_die_is_an_error(scenario: Scenario) -> None:
    with pytest.raises(UsageError) as caught:
        reinforcement_draws(scenario.victory, "reds", 7)
    assert caught.value.msg.code == "lookup.roll_off_chart"
    assert caught.value.msg.text == "found a roll of 7; expected a D6 roll of 1 to 6"
