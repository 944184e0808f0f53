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


def test_A1_a_stopped_order_ends_where_its_MP_ran_out_with_the_steps_it_took() -> None:
    """A.1: infantry 2 MP; forest 1 then mountain 2 is 3 MP: it stops in the forest (RULES-NOTES,
    ruling of 2026-12-02: "stops in the last hex it can pay for")."""
    campaign = campaign_on(OPEN, [unit("r_inf", "reds", "0201")])
    order = {"unit": "r_inf", "move": ["0201", "0301", "0401"]}
    record = play(
        campaign, log(orders={"reds": [order]}, dice=[{"purpose": "II.C r_inf command roll, turn 1", "value": 1}])
    )
    (verdict,) = record.verdicts
    assert (verdict.result, verdict.stop, verdict.rule, verdict.end) == ("stopped", "mp", "A.1", "0301")
    assert ([s.hex for s in verdict.steps], verdict.spent, verdict.allowance, verdict.left) == (["0301"], 1, 2, 1)


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


def test_II_B3_a_battle_result_per_unit_gives_permanent_returning_and_deserted_stands() -> None:
    """II.B.3: "Winner - 40% of losses in tabletop battle permanent 60% return ... Loser - 55% of
    losses in tabletop battle permanent 45% return ... 50% of routed troops desert or captured".
    The winner lost 2 (40%: 0.8, half up 1 for good, 1 back); the loser lost 3 (55%: 1.65, 2 for
    good, 1 back) and routed 2 (half, rounded up: 1 deserts, 1 back), and retreats."""
    campaign = campaign_on(
        OPEN, [unit("w_rifles", "whites", "0202"), unit("r_rifles", "reds", "0202", stands={"infantry": 6})]
    )
    battle = {
        "hex": "0202",
        "winner": "whites",
        "units": [
            {"unit": "w_rifles", "lost": {"infantry": 2}},
            {"unit": "r_rifles", "lost": {"infantry": 3}, "routed": {"infantry": 2}, "retreat": "0102"},
        ],
    }
    record = play(campaign, log(battles=[battle]))
    won, lost = sorted(record.state.battle_results, key=lambda r: r.side, reverse=True)
    assert (won.unit, won.side, won.permanent, won.returning, won.deserted, won.fate) == (
        "w_rifles",
        "winner",
        1,
        1,
        0,
        "holds",
    )
    assert (lost.unit, lost.side, lost.permanent, lost.returning, lost.deserted) == ("r_rifles", "loser", 2, 2, 1)
    assert (lost.fate, lost.retreat) == ("retreats", "0102")
    (kind,) = lost.stands
    assert (kind.kind, kind.lost, kind.routed, kind.permanent, kind.returning, kind.deserted) == (
        "infantry",
        3,
        2,
        2,
        2,
        1,
    )


def test_II_D1_an_evasion_records_both_totals_and_each_modifier_by_name() -> None:
    """II.D.1: "Roll a DO for each side and add modifiers - if partisans have higher total no battle
    takes place. Modifiers: +2 partisans in forest or mountains, +1 enemy forces have no cavalry
    in hex". In forest against infantry: 2 + 2 + 1 = 5 against 4: they evade."""
    campaign = campaign_on(
        OPEN,
        [unit("m_band", "makhnovists", "0301", flags=["partisan"]), unit("w_rifles", "whites", "0301")],
    )
    dice = [
        {"purpose": "II.D.1 makhnovists evade in 0301, turn 1", "value": 2},
        {"purpose": "II.D.1 enemy of makhnovists in 0301, turn 1", "value": 4},
    ]
    record = play(campaign, log(partisans=[{"hex": "0301", "faction": "makhnovists", "choice": "evade"}], dice=dice))
    (met,) = record.state.partisan_contacts
    named = {m.id: m.value for m in met.modifiers}
    assert (met.choice, met.roll, met.enemy_roll) == ("evade", 2, 4)
    assert named == {"forest_or_mountain": 2, "enemy_without_cavalry": 1}
    assert (met.total, met.outcome) == (5, "evaded") and ("0301", "makhnovists") in record.state.evaded


def test_II_C_the_state_after_a_turn_holds_only_that_turns_results() -> None:
    """A turn's results are cleared before the next is played: turn 2's record lists turn 2's
    orders and rolls, not turn 1's."""
    campaign = campaign_on(OPEN, [unit("r_inf", "reds", "0101")])
    first = log(1, orders={"reds": [{"unit": "r_inf", "move": ["0101", "0201"]}]})
    second = log(2)
    record = play(campaign, first, second)
    assert record.verdicts == () and record.state.commands == ()
    assert all(r.purpose.endswith("turn 2") for r in record.rolls)


RAIL = {"columns": 5, "rows": 1, "rail": [["0101", "0201", "0301", "0401"]]}


def test_C1_a_rail_order_records_its_load_stand_by_stand_against_capacity() -> None:
    """C.1: "Each train can carry 12 points worth of men ... Each infantry stand = 1 Pt". The
    verdict lists each stand kind with its count and weight (the seed gives no machine-gun
    weight: the scenario's table does), and the total against the train's 12."""
    campaign = campaign_on(
        RAIL,
        [
            unit("r_rifles", "reds", "0101", stands={"infantry": 3, "machine_gun": 1}),
            unit("r_elsewhere", "reds", "0501"),
        ],
        trains=[{"id": "r_train", "faction": "reds", "at": "0101"}],
    )
    rail = {"reds": [{"train": "r_train", "carry": ["r_rifles", "r_elsewhere"], "path": ["0101", "0201", "0301"]}]}
    dice = [{"purpose": f"II.C {u} command roll, turn 1", "value": 1} for u in ("r_rifles", "r_elsewhere")]
    record = play(campaign, log(rail=rail, dice=dice))
    (verdict,) = record.verdicts
    assert verdict.load is not None and verdict.load.capacity == 12
    lines = {kind: (stands, each) for kind, stands, each in verdict.load.lines}
    assert lines["infantry"] == (3, 1) and lines["machine_gun"][0] == 1
    assert verdict.load.total == sum(n * each for n, each in lines.values()) and verdict.load.fits
    assert (verdict.kind, verdict.start, verdict.end) == ("rail", "0101", "0301")
    assert verdict.left_behind == ("r_elsewhere",)  # not in 0101 when the train left
