"""Results as data (issue 11): each verdict and outcome is a typed value with its numbers, on
small hand-made boards, from logs built in code."""

from __future__ import annotations

from tests.boards import campaign_on, log, play, unit

OPEN = {"columns": 5, "rows": 2, "hexes": {"0301": {"terrain": "forest"}, "0401": {"terrain": "mountain"}}}


def test_A_a_land_order_records_each_step_its_cost_and_the_mp_left() -> None:
    """A table: cavalry 4 MP, open 1, forest 2. A move 0101-0201-0301 spends 3 and leaves 1."""
    campaign = campaign_on(OPEN, [unit("r_cav", "reds", "0101", "cavalry")])
    order = {"unit": "r_cav", "move": ["0101", "0201", "0301"]}
    record = play(
        campaign, log(orders={"reds": [order]}, dice=[{"purpose": "II.C r_cav command roll, turn 1", "value": 1}])
    )
    (verdict,) = record.verdicts
    assert (verdict.kind, verdict.result, verdict.start, verdict.end) == ("land", "done", "0101", "0301")
    assert [(s.hex, s.mp) for s in verdict.steps] == [("0201", 1), ("0301", 2)]
    assert (verdict.spent, verdict.allowance, verdict.left) == (3, 4, 1)


def test_A1_a_void_order_ends_where_the_unit_stood_with_the_steps_it_would_take() -> None:
    """A.1: infantry 2 MP; forest 1 then mountain 2 is 3 MP: void, and the unit stays in 0201."""
    campaign = campaign_on(OPEN, [unit("r_inf", "reds", "0201")])
    order = {"unit": "r_inf", "move": ["0201", "0301", "0401"]}
    record = play(
        campaign, log(orders={"reds": [order]}, dice=[{"purpose": "II.C r_inf command roll, turn 1", "value": 1}])
    )
    (verdict,) = record.verdicts
    assert (verdict.result, verdict.rule, verdict.end, verdict.spent, verdict.allowance) == (
        "void",
        "A.1",
        "0201",
        3,
        2,
    )


def test_II_C_a_command_roll_is_recorded_with_its_target_and_the_units_held() -> None:
    """II.C.1-2: Trotsky (rating 10 in the seed's table) obeys at or under 10; a unit with no
    commander and none adjacent obeys on 1-3, and a 4 holds it."""
    campaign = campaign_on(
        OPEN,
        [unit("r_led", "reds", "0101", commander="Trotsky"), unit("r_alone", "reds", "0502")],
    )
    orders = {"reds": [{"unit": "r_led", "move": ["0101", "0201"]}, {"unit": "r_alone", "move": ["0502", "0402"]}]}
    dice = [
        {"purpose": "II.C Trotsky command roll, turn 1", "value": 10},
        {"purpose": "II.C r_alone command roll, turn 1", "value": 4},
    ]
    record = play(campaign, log(orders=orders, dice=dice))
    led, alone = sorted(record.state.commands, key=lambda c: c.hex)
    assert (led.commander, led.rating, led.target, led.roll, led.obeyed, led.units) == (
        "Trotsky",
        10,
        10,
        10,
        True,
        ("r_led",),
    )
    assert (alone.commander, alone.adjacent, alone.target, alone.roll, alone.obeyed) == (None, False, 3, 4, False)
    assert [v.result for v in record.verdicts] == ["done", "held"]
