"""Contact, partisans' choice, breakout and retreat (issue 11): one case per clause, each on a
small hand-made board (tests/boards.py), its turn log built in code.

The boards are one row of open hexes, so a hex's only neighbours are the hexes either side:
0101 - 0201 - 0301 - 0401 (- 0501)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from kitgen.engine.findings import findings
from kitgen.engine.turn import TurnRecord
from kitgen.errors import KitgenError
from tests.boards import campaign_on, log, play, unit

ROW = {"columns": 5, "rows": 1, "terrain": "open"}
NO_EVENT = {"purpose": "II.A event roll, turn 1", "value": 1}


def obeys(*units: str, value: int = 1) -> list[dict[str, Any]]:
    """The command rolls of leaderless units (1-3 obeys, RULES-NOTES), and no event card."""
    return [{"purpose": f"II.C {u} command roll, turn 1", "value": value} for u in units] + [NO_EVENT]


def turn(units: list[dict[str, Any]], **tables: Any) -> TurnRecord:
    return play(campaign_on(ROW, units), log(**tables))


# --- Contact (RULES-NOTES, "More rulings") ------------------------------------------------------


def test_A_contact_stops_a_move_in_the_enemy_hex() -> None:
    """RULES-NOTES, Contact: "a unit whose path enters a hex holding enemy units stops there (a
    contact: evade, ambush or battle); the rest of its path is dropped and the order counts as
    carried out as far as it went." Cavalry (4 MP) ordered through a White-held hex stops in it."""
    record = turn(
        [unit("r_cav", "reds", "0101", "cavalry"), unit("w_rifles", "whites", "0201")],
        orders={"reds": [{"unit": "r_cav", "move": ["0101", "0201", "0301", "0401"]}]},
        dice=obeys("r_cav"),
    )
    cav = record.state.unit("r_cav")
    assert cav is not None and cav.hex == "0201" and cav.moved
    (verdict,) = record.verdicts
    assert verdict.result == "stopped" and verdict.rule == "A"
    assert verdict.explanation.endswith(
        "path 0101-0201-0301-0401 costs 1 MP (open 1) to 0201, where enemy units are when movement ends: "
        "stopped there (contact), the rest dropped, A"
    )
    assert "0201" in record.contacts


def test_A_contact_is_judged_where_the_enemy_is_when_movement_ends() -> None:
    """RULES-NOTES, Contact read exactly (2026-12-05): "movement is simultaneous. For a move, a hex
    holds enemy units if enemy units are in it when movement ends". The Whites march out of 0201
    into 0301: the Reds pass 0201 and meet them in 0301, where both moves end."""
    record = turn(
        [unit("r_cav", "reds", "0101", "cavalry"), unit("w_rifles", "whites", "0201")],
        orders={
            "reds": [{"unit": "r_cav", "move": ["0101", "0201", "0301"]}],
            "whites": [{"unit": "w_rifles", "move": ["0201", "0301"]}],
        },
        dice=obeys("r_cav", "w_rifles"),
    )
    assert [(v.unit, v.result) for v in record.verdicts] == [("r_cav", "done"), ("w_rifles", "done")]
    assert [record.state.unit(u).hex for u in ("r_cav", "w_rifles")] == ["0301", "0301"]  # type: ignore[union-attr]
    assert "0301" in record.contacts and "0201" not in record.contacts


def test_A_contact_drops_the_rest_of_the_path_unjudged() -> None:
    """RULES-NOTES, Contact: "the rest of its path is dropped": a path that would go on beyond the
    unit's MP is not void when it meets the enemy first."""
    record = turn(
        [unit("r_rifles", "reds", "0101"), unit("w_rifles", "whites", "0201")],
        orders={"reds": [{"unit": "r_rifles", "move": ["0101", "0201", "0301", "0401", "0501"]}]},
        dice=obeys("r_rifles"),
    )
    (verdict,) = record.verdicts
    assert verdict.result == "stopped" and record.state.unit("r_rifles").hex == "0201"  # type: ignore[union-attr]


# --- Partisans (II.D.1-2) -------------------------------------------------------------------


def raid(**tables: Any) -> TurnRecord:
    """White cavalry ride into 0201, where Makhnovist partisans (infantry) stand."""
    units = [
        unit("w_cav", "whites", "0101", "cavalry"),
        unit("m_band", "makhnovists", "0201", flags=["partisan"]),
    ]
    orders = {"whites": [{"unit": "w_cav", "move": ["0101", "0201"]}], **tables.pop("orders", {})}
    return turn(units, orders=orders, **tables)


def test_II_D1_partisans_fight_unless_the_log_says_they_evade() -> None:
    """II.D.1: partisans "do not have to fight if contacted by opposing forces - they can choose to
    try to evade the fight"; RULES-NOTES: "evading is the partisans' choice and is written in the
    log; partisans who do not try to evade fight ... Neither is assumed." No choice: no roll, a battle."""
    record = raid(dice=obeys("w_cav"))
    (met,) = record.state.partisan_contacts
    assert (met.choice, met.outcome, met.roll) == ("fight", "fight", None)
    assert "0201" in record.contacts and not record.state.evaded
    (met,) = record.state.partisan_contacts
    assert (met.hex, met.choice, met.outcome, met.roll) == ("0201", "fight", "fight", None)


def test_II_D1_partisans_who_choose_to_evade_roll_for_it() -> None:
    """II.D.1: "Roll a D6 for each side and add modifiers - if partisans have higher total no battle
    takes place" (+1: the enemy has cavalry, so none here)."""
    rolls = [
        {"purpose": "II.D.1 makhnovists evade in 0201, turn 1", "value": 5},
        {"purpose": "II.D.1 enemy of makhnovists in 0201, turn 1", "value": 3},
    ]
    record = raid(partisans=[{"hex": "0201", "faction": "makhnovists", "choice": "evade"}], dice=obeys("w_cav") + rolls)
    assert ("0201", "makhnovists") in record.state.evaded and "0201" not in record.contacts
    (met,) = record.state.partisan_contacts
    assert (met.choice, met.outcome, met.roll, met.total, met.enemy_roll) == ("evade", "evaded", 5, 5, 3)


def test_II_D1_partisans_who_choose_to_fight_roll_nothing() -> None:
    """II.D.1: "they can choose": a fight written in the log needs no roll."""
    record = raid(partisans=[{"hex": "0201", "faction": "makhnovists", "choice": "fight"}], dice=obeys("w_cav"))
    (met,) = record.state.partisan_contacts
    assert (met.choice, met.outcome, met.roll) == ("fight", "fight", None) and "0201" in record.contacts
    assert [r.purpose for r in record.rolls if r.dice == "D6"] == ["II.A event roll, turn 1"]  # the event roll alone


def test_II_D2_an_ambush_by_partisans_who_had_not_moved_is_rolled() -> None:
    """II.D.2: "If partisans have already been there in the hex (not having moved in that same turn)
    then they can attempt an ambush of enemy. Roll a D6 and if a 6 rolled then ambush is successful."""
    ambush = {"purpose": "II.D.2 makhnovists ambush in 0201, turn 1", "value": 6}
    record = raid(
        partisans=[{"hex": "0201", "faction": "makhnovists", "choice": "ambush"}], dice=[*obeys("w_cav"), ambush]
    )
    (met,) = record.state.partisan_contacts
    assert (met.choice, met.outcome, met.roll, met.total) == ("ambush", "sprung", 6, 6)
    assert "0201" in record.contacts  # the battle follows, the partisans placed around the enemy


def test_II_D2_an_ambush_by_partisans_who_moved_is_void() -> None:
    """II.D.2: only partisans "not having moved in that same turn" may ambush; RULES-NOTES: "An ambush
    is ordered too, only by partisans who did not move that turn". The band marches into the Whites'
    hex and orders an ambush: void, with no roll; they fight."""
    units = [unit("w_rifles", "whites", "0201"), unit("m_band", "makhnovists", "0101", flags=["partisan"])]
    record = turn(
        units,
        orders={"makhnovists": [{"unit": "m_band", "move": ["0101", "0201"]}]},
        partisans=[{"hex": "0201", "faction": "makhnovists", "choice": "ambush"}],
        dice=obeys("m_band"),
    )
    ambush = next(v for v in record.verdicts if v.order == "ambush 0201")
    assert (ambush.result, ambush.rule, ambush.unit) == ("void", "II.D.2", "m_band")
    assert "M Band moved this turn, and only partisans who had not moved may ambush: void" in ambush.explanation
    (met,) = record.state.partisan_contacts
    assert (met.choice, met.outcome, met.roll) == ("fight", "fight", None)
    assert "0201" in record.contacts and not record.state.evaded


# --- Breakout (II.B.1) ------------------------------------------------------------------------

CORNER = [
    unit("w_storm", "whites", "0101"),  # attacks into 0201
    unit("w_guard", "whites", "0101"),  # stays: 0101 stays closed
    unit("r_guards", "reds", "0201", flags=["elite"]),
    unit("w_pickets", "whites", "0301"),
]
"""The Red Guards (Elite) in 0201, Whites either side: beaten there, they cannot retreat."""
STORM = {"whites": [{"unit": "w_storm", "move": ["0101", "0201"]}]}
LOST = {
    "hex": "0201",
    "winner": "whites",
    "units": [{"unit": "w_storm", "lost": {"infantry": 1}}, {"unit": "r_guards", "lost": {"infantry": 1}}],
}


def breakout(winner: str, pickets: dict[str, Any] | None = None) -> dict[str, Any]:
    """The Guards' breakout from 0201 into 0301, against the White pickets."""
    return {
        "hex": "0301",
        "winner": winner,
        "units": [{"unit": "r_guards", "breakout": True}, {"unit": "w_pickets", **(pickets or {})}],
    }


def test_II_B1_elite_unit_that_cannot_retreat_breaks_out_and_ends_in_the_hex() -> None:
    """II.B.1: "Elite/Fanatic units must then immediately attack enemy in other hex that very same
    turn to break out or perish"; RULES-NOTES: "the log reports that battle like any other, and its
    loser perishes or its winner ends in the hex it broke into". The pickets lose and fall back."""
    record = turn(
        CORNER,
        orders=STORM,
        battles=[LOST, breakout("reds", {"retreat": "0401"})],
        dice=obeys("w_storm"),
    )
    guards, pickets = record.state.unit("r_guards"), record.state.unit("w_pickets")
    assert guards is not None and guards.hex == "0301"
    assert pickets is not None and pickets.hex == "0401"
    texts = [v.explanation for v in record.verdicts if v.unit == "r_guards"]
    assert texts[0].endswith("cannot retreat: Elite/Fanatic, it must attack at once to break out or perish")
    assert texts[1].endswith("; breaks out into 0301 (II.B.1)")
    assert not record.notes and not any("no breakout battle" in n for n in record.umpire)


def test_II_B1_a_breakout_lost_destroys_the_unit() -> None:
    """II.B.1: "... to break out or perish": the Guards lose their breakout and are gone, stands
    that would have returned next turn with them."""
    record = turn(CORNER, orders=STORM, battles=[LOST, breakout("whites")], dice=obeys("w_storm"))
    assert record.state.unit("r_guards") is None
    assert not any(u == "r_guards" for u, _, _ in record.state.returning)
    verdict = [v for v in record.verdicts if v.unit == "r_guards"][-1]
    assert verdict.explanation == "R Guards, loser of its breakout into 0301: perishes, all its stands lost (II.B.1)"
    assert record.state.unit("w_pickets").hex == "0301"  # type: ignore[union-attr]


def test_II_B1_a_breakout_owed_and_not_reported_is_noted_for_the_umpire() -> None:
    """II.B.1: the breakout is owed "that very same turn": a log that reports none leaves it
    unfinished, and says so (validate prints the note at the battle's line)."""
    record = turn(CORNER, orders=STORM, battles=[LOST], dice=obeys("w_storm"))
    assert record.state.unit("r_guards").hex == "0201"  # type: ignore[union-attr]
    (note,) = record.notes
    assert note.code == "note.breakout_owed" and "r_guards lost in 0201 and cannot retreat" in note.message
    (owed,) = record.breakouts_owed
    assert (owed.unit, owed.hex, owed.battle) == ("r_guards", "0201", 0)
    (fate,) = [r for r in record.state.battle_results if r.unit == "r_guards"]
    assert fate.fate == "must_break_out"
    warned = [f for f in findings(record, "turn log") if f.code == "task.breakout_owed"]
    assert len(warned) == 1 and warned[0].rule == "II.B.1"  # validate's warning


@pytest.mark.parametrize(
    ("battles", "why"),
    [
        ([breakout("reds", {"retreat": "0401"})], "it lost no battle this turn where it could not retreat"),
        ([LOST, {**breakout("reds"), "hex": "0401"}], "breaks out of 0201 into 0401, which is not an adjacent"),
    ],
)
def test_II_B1_a_breakout_is_fought_after_the_loss_into_an_enemy_hex(battles: list[Any], why: str) -> None:
    """II.B.1: a breakout "attack[s] enemy in other hex" after the battle lost: reported before that
    battle, or into a hex the unit is not next to, it is a malformed log."""
    with pytest.raises(KitgenError) as caught:
        turn(CORNER, orders=STORM, battles=battles, dice=obeys("w_storm"))
    (problem,) = caught.value.problems
    assert problem.code == "log.breakout_bad" and why in problem.message


# --- Retreating units (II.C.2) ----------------------------------------------------------------

RETREAT = {"whites": [{"unit": "w_rifles", "move": ["0201", "0301"], "retreat": True}]}
RED_NEXT_DOOR = unit("r_rifles", "reds", "0101")
"""The enemy the Whites retreat from: next to them, on the west."""


def test_II_C2_a_retreating_unit_retreats_whatever_its_command_roll() -> None:
    """II.C.2: "Failure to make rating means that the unit(s) involved do not move or execute orders
    that turn. Exception: Units can always continue to retreat that is what they are doing
    currently." A leaderless unit next to the enemy rolls 9 (it obeys on 1-3) and retreats away
    from it all the same."""
    record = turn([unit("w_rifles", "whites", "0201"), RED_NEXT_DOOR], orders=RETREAT, dice=obeys("w_rifles", value=9))
    rifles = record.state.unit("w_rifles")
    assert rifles is not None and rifles.hex == "0301"
    (verdict,) = record.verdicts
    assert verdict.result == "done" and verdict.order == "retreat 0201-0301"
    assert verdict.explanation.endswith(
        "retreat 0201-0301 costs 1 MP (open 1); retreating, it is not held by its command roll (9 over 3), II.C.2"
    )


def test_II_C2_the_same_move_not_a_retreat_is_held() -> None:
    """II.C.2: "Failure to make rating means that the unit(s) involved do not move"."""
    orders = {"whites": [{"unit": "w_rifles", "move": ["0201", "0301"]}]}
    record = turn([unit("w_rifles", "whites", "0201")], orders=orders, dice=obeys("w_rifles", value=9))
    assert record.state.unit("w_rifles").hex == "0201"  # type: ignore[union-attr]
    assert [v.result for v in record.verdicts] == ["held"]


def test_II_C2_a_retreat_order_that_does_not_move_away_from_the_enemy_is_held() -> None:
    """II.C.2's exception is for units that "continue to retreat": a `retreat` toward the enemy,
    or with no enemy near, is a move like any other, and a failed command roll holds it."""
    toward = {"whites": [{"unit": "w_rifles", "move": ["0301", "0201"], "retreat": True}]}
    record = turn([unit("w_rifles", "whites", "0301"), RED_NEXT_DOOR], orders=toward, dice=obeys("w_rifles", value=9))
    (verdict,) = record.verdicts
    assert verdict.result == "held" and "not a retreat" in verdict.explanation
    alone = turn([unit("w_rifles", "whites", "0201")], orders=RETREAT, dice=obeys("w_rifles", value=9))
    assert [v.result for v in alone.verdicts] == ["held"]


def test_II_C2_a_retreat_goes_by_the_movement_rules() -> None:
    """RULES-NOTES: retreating units "go on retreating whatever their command roll, by the movement
    rules": infantry (2 MP) retreat two of three open hexes and stop, their MP spent (ruling of
    2026-12-02)."""
    orders = {"whites": [{"unit": "w_rifles", "move": ["0201", "0301", "0401", "0501"], "retreat": True}]}
    record = turn([unit("w_rifles", "whites", "0201"), RED_NEXT_DOOR], orders=orders, dice=obeys("w_rifles", value=9))
    (verdict,) = record.verdicts
    assert (verdict.result, verdict.stop, verdict.rule, verdict.end) == ("stopped", "mp", "A.1", "0401")
    assert record.state.unit("w_rifles").hex == "0401"  # type: ignore[union-attr]


def test_II_C2_a_unit_that_loses_a_battle_retreats_though_its_command_roll_failed() -> None:
    """II.C.2's exception, after a lost battle (RULES-NOTES: "retreating after a lost battle"): the
    Whites' roll fails and they stay; beaten in their hex, they retreat all the same (II.B.1)."""
    units = [unit("r_cav", "reds", "0101", "cavalry"), unit("w_rifles", "whites", "0201")]
    battle = {
        "hex": "0201",
        "winner": "reds",
        "units": [{"unit": "r_cav"}, {"unit": "w_rifles", "lost": {"infantry": 1}, "retreat": "0301"}],
    }
    record = turn(
        units,
        orders={
            "reds": [{"unit": "r_cav", "move": ["0101", "0201"]}],
            "whites": [{"unit": "w_rifles", "move": ["0201", "0101"]}],
        },
        battles=[battle],
        dice=[
            {"purpose": "II.C r_cav command roll, turn 1", "value": 1},
            {"purpose": "II.C w_rifles command roll, turn 1", "value": 9},
            NO_EVENT,
        ],
    )
    assert [v.result for v in record.verdicts[:2]] == ["done", "held"]
    assert record.state.unit("w_rifles").hex == "0301"  # type: ignore[union-attr]


def test_II_C2_a_loser_of_last_turns_battle_goes_on_retreating_wherever_the_enemy_is() -> None:
    """RULES-NOTES, ruling of 2026-12-02: "a unit that lost a battle in the turn before may go on
    retreating in this one, wherever the enemy is; any other unit's retreat order must take it
    away from enemy units in or next to its hex." The Whites lose in 0201 and fall back to 0301.
    Next turn their roll fails (9 over 3) and their retreat goes on to a hex still next to the
    Red cavalry: no farther from it, yet a retreat, for they lost last turn. The state records who
    lost; the same order of a unit that did not lose is held."""
    board = {"columns": 5, "rows": 2, "terrain": "open"}
    campaign = campaign_on(board, [unit("r_cav", "reds", "0101", "cavalry"), unit("w_rifles", "whites", "0201")])
    beside = sorted(set(campaign.board.neighbours("0301")) & set(campaign.board.neighbours("0201")))[0]
    battle = {
        "hex": "0201",
        "winner": "reds",
        "units": [{"unit": "r_cav"}, {"unit": "w_rifles", "lost": {"infantry": 1}, "retreat": "0301"}],
    }
    first = log(
        1,
        orders={"reds": [{"unit": "r_cav", "move": ["0101", "0201"]}]},
        battles=[battle],
        dice=[{"purpose": "II.C r_cav command roll, turn 1", "value": 1}, NO_EVENT],
    )
    after_battle = play(campaign, first)
    assert after_battle.state.lost_battle == ("w_rifles",)
    second = log(
        2,
        orders={"whites": [{"unit": "w_rifles", "move": ["0301", beside], "retreat": True}]},
        dice=[
            {"purpose": "II.C w_rifles command roll, turn 2", "value": 9},
            {"purpose": "II.A event roll, turn 2", "value": 1},
        ],
    )
    record = play(campaign, second, state=after_battle.state)
    (verdict,) = record.verdicts
    assert verdict.result == "done" and "not held by its command roll (9 over 3), II.C.2" in verdict.explanation
    assert record.state.unit("w_rifles").hex == beside  # type: ignore[union-attr]
    assert record.state.lost_battle == ()  # no battle this turn: next turn, a retreat must go away from the enemy
    unbeaten = replace(after_battle.state, lost_battle=())
    (verdict,) = play(campaign, second, state=unbeaten).verdicts
    assert verdict.result == "held" and "not a retreat" in verdict.explanation


def test_II_C2_a_retreat_order_into_the_enemy_is_no_retreat() -> None:
    """II.C.2 spares units that "continue to retreat": a path marked retreat that walks into an
    enemy hex is a move like any other, and a failed command roll holds it."""
    into = {"whites": [{"unit": "w_rifles", "move": ["0201", "0301", "0401"], "retreat": True}]}
    units = [unit("w_rifles", "whites", "0201"), RED_NEXT_DOOR, unit("r_far", "reds", "0401")]
    record = turn(units, orders=into, dice=obeys("w_rifles", value=9))
    (verdict,) = record.verdicts
    assert verdict.result == "held" and record.state.unit("w_rifles").hex == "0201"  # type: ignore[union-attr]
