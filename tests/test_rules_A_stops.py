"""Paths a unit cannot complete, and enemy moves that meet on a hexside: one case a clause of
the rulings of 2026-12-02 (RULES-NOTES), each on a small hand-made board (tests/boards.py), its
turn log built in code.

"A unit moves along its ordered path hex by hex and stops in the last hex it can pay for and may
enter; the rest of the path is dropped and the order counts as carried out as far as it went
(`stopped`, with the reason: MP spent, `p*` with no road or rail through the hex, a major-river
hexside with no bridge, pontoon or ferry place left). A unit whose first hex is beyond it stays
where it stood. A path whose hexes are not adjacent in turn, or that does not start in the
unit's hex, is malformed: an error at its line. Trains and ships read the same way: a train stops
before a hex with no track, wrecked track or enemy units, or when its 12 hexes are spent; a ship
before a hex it may not enter, or after its 16." """

from __future__ import annotations

from dataclasses import replace
from typing import Any

from kitgen.engine.context import Unplaced
from kitgen.engine.findings import findings
from kitgen.engine.setup import initial_state
from kitgen.engine.state import Verdict
from kitgen.engine.turn import TurnRecord
from kitgen.engine.unfinished import turn_owes
from tests.boards import campaign_on, log, play, unit

ROW = {"columns": 6, "rows": 1, "terrain": "open"}
"""Six open hexes in a row: 0101 - 0201 - 0301 - 0401 - 0501 - 0601."""
NO_EVENT = {"purpose": "II.A event roll, turn 1", "value": 1}


def obeys(*units: str) -> list[dict[str, Any]]:
    """Leaderless units obey on 1-3 (RULES-NOTES), and no event card is drawn."""
    return [{"purpose": f"II.C {u} command roll, turn 1", "value": 1} for u in units] + [NO_EVENT]


def moved(board: dict[str, Any], units: list[dict[str, Any]], *moves: tuple[str, list[str]]) -> TurnRecord:
    """One turn on `board` in which each (unit, path) of `moves` is ordered, every roll obeyed."""
    campaign = campaign_on(board, units)
    by_faction: dict[str, list[dict[str, Any]]] = {}
    faction = {u["id"]: u["faction"] for u in units}
    for unit_id, path in moves:
        by_faction.setdefault(faction[unit_id], []).append({"unit": unit_id, "move": path})
    return play(campaign, log(orders=by_faction, dice=obeys(*(u["id"] for u in units))))


def verdict(record: TurnRecord, unit_id: str) -> Verdict:
    return next(v for v in record.verdicts if v.unit == unit_id)


# --- A unit stops where it can go no farther -------------------------------------------------


def test_A1_a_path_stops_in_the_last_hex_its_MP_pay_for() -> None:
    """A table: "Infantry 2 [MP] Open 1". Ruling: it "stops in the last hex it can pay for ... the
    rest of the path is dropped": ordered four open hexes, it goes two and stops, MP spent."""
    record = moved(ROW, [unit("r_inf", "reds", "0101")], ("r_inf", ["0101", "0201", "0301", "0401", "0501"]))
    said = verdict(record, "r_inf")
    assert (said.result, said.stop, said.start, said.end) == ("stopped", "mp", "0101", "0301")
    assert ([s.hex for s in said.steps], said.spent, said.allowance, said.left) == (["0201", "0301"], 2, 2, 0)
    assert record.state.unit("r_inf").hex == "0301"  # type: ignore[union-attr]
    assert "then stops before 0401" in said.explanation


def test_A_a_p_star_hex_with_no_road_or_rail_stops_the_move_before_it() -> None:
    """A table: artillery "Marsh p*" ("Prohibited unless road/RR track runs thorough hex"). Ruling:
    the move stops before a `p*` hex with no road or rail through it."""
    board = {**ROW, "hexes": {"0301": {"terrain": "marsh"}}}
    record = moved(board, [unit("r_art", "reds", "0101", "artillery")], ("r_art", ["0101", "0201", "0301"]))
    said = verdict(record, "r_art")
    assert (said.result, said.stop, said.end, said.rule) == ("stopped", "terrain", "0201", "A")
    assert [s.hex for s in said.steps] == ["0201"]


def test_A1_an_unbridged_major_river_stops_the_move_on_the_near_bank() -> None:
    """A.1: "Major river hexsides must be crossed at bridge points on map or with pontoons/ferries."
    Ruling: the move stops before a major-river hexside with no bridge, pontoon or ferry."""
    board = {**ROW, "sides": [{"hexes": ["0201", "0301"], "river": "Dnieper", "class": "major"}]}
    record = moved(board, [unit("r_cav", "reds", "0101", "cavalry")], ("r_cav", ["0101", "0201", "0301", "0401"]))
    said = verdict(record, "r_cav")
    assert (said.result, said.stop, said.end, said.spent) == ("stopped", "river", "0201", 1)


def test_A_a_unit_whose_first_hex_is_beyond_it_stays_where_it_stood() -> None:
    """Ruling: "A unit whose first hex is beyond it stays where it stood." It has not moved: an
    armoured car that goes nowhere makes no breakdown roll (A.4 is for units that moved)."""
    board = {**ROW, "hexes": {"0201": {"terrain": "marsh"}}}
    car = unit("r_car", "reds", "0101", "armoured_car", stands={"armoured_car": 2})
    record = moved(board, [car], ("r_car", ["0101", "0201", "0301"]))
    said = verdict(record, "r_car")
    assert (said.result, said.stop, said.end, said.steps, said.spent) == ("stopped", "terrain", "0101", (), 0)
    stayed = record.state.unit("r_car")
    assert stayed is not None and stayed.hex == "0101" and not stayed.moved
    assert not [r for r in record.rolls if "breakdown" in r.purpose]


def test_A_a_path_of_hexes_not_adjacent_is_void_at_its_line() -> None:
    """Ruling: "A path whose hexes are not adjacent in turn ... is malformed": void, and the unit
    holds; validate warns of it at the order's place."""
    record = moved(ROW, [unit("r_inf", "reds", "0101")], ("r_inf", ["0101", "0301"]))
    said = verdict(record, "r_inf")
    assert (said.result, said.stop, said.end) == ("void", None, "0101")
    assert "not adjacent" in said.explanation
    assert any(f.code == "order.void" for f in findings(record, "turn-01.yaml"))


def test_A_a_path_not_starting_in_the_units_hex_is_void() -> None:
    """Ruling: a path "that does not start in the unit's hex, is malformed"."""
    record = moved(ROW, [unit("r_inf", "reds", "0101")], ("r_inf", ["0201", "0301"]))
    said = verdict(record, "r_inf")
    assert (said.result, said.end) == ("void", "0101") and "is in 0101, not 0201" in said.explanation


# --- Trains and ships read the same way ---------------------------------------------------------

LINE = {"columns": 6, "rows": 1, "rail": [["0101", "0201", "0301", "0401", "0501"]]}
"""Track from 0101 to 0501; 0601 has none."""


def railed(path: list[str], *, wrecked: tuple[str, ...] = (), more: tuple[dict[str, Any], ...] = ()) -> TurnRecord:
    units = [unit("r_inf", "reds", "0101"), *more]
    campaign = campaign_on(LINE, units, trains=[{"id": "r_train", "faction": "reds", "at": "0101"}])
    state = replace(initial_state(campaign), wrecked_track=wrecked)
    order = {"train": "r_train", "carry": ["r_inf"], "path": path}
    return play(campaign, log(rail={"reds": [order]}, dice=obeys("r_inf", *(u["id"] for u in more))), state=state)


def test_C1_a_train_stops_before_wrecked_track_with_its_load() -> None:
    """C.1, C.2. Ruling: "a train stops before a hex with ... wrecked track"; the units it carries
    detrain where it stops (A.2)."""
    record = railed(["0101", "0201", "0301", "0401"], wrecked=("0301",))
    said = verdict(record, "r_train")
    assert (said.result, said.stop, said.end, said.rule) == ("stopped", "wrecked", "0201", "C.2")
    assert [t["hex"] for t in record.state.trains] == ["0201"]
    assert record.state.unit("r_inf").hex == "0201"  # type: ignore[union-attr]


def test_C1_a_train_stops_before_enemy_units() -> None:
    """C.1. Ruling: "a train stops before a hex with ... enemy units"."""
    record = railed(["0101", "0201", "0301", "0401"], more=(unit("w_inf", "whites", "0401"),))
    said = verdict(record, "r_train")
    assert (said.result, said.stop, said.end) == ("stopped", "enemy", "0301")


def test_C1_a_train_stops_where_the_track_ends() -> None:
    """A table: "RR Trains ... must be on RR track". Ruling: it stops before a hex with no track."""
    record = railed(["0101", "0201", "0301", "0401", "0501", "0601"])
    said = verdict(record, "r_train")
    assert (said.result, said.stop, said.end) == ("stopped", "track", "0501")


def test_C1_a_train_that_cannot_leave_stays_and_carries_no_one() -> None:
    """Ruling: one "whose first hex is beyond it stays where it stood"; its riders did not ride,
    so they have not moved."""
    record = railed(["0101", "0201"], wrecked=("0201",))
    said = verdict(record, "r_train")
    assert (said.result, said.end, said.steps) == ("stopped", "0101", ())
    rider = record.state.unit("r_inf")
    assert rider is not None and (rider.hex, rider.carried) == ("0101", False)


SEA = {
    "columns": 20,
    "rows": 1,
    "terrain": "sea",
    "hexes": {"0101": {"terrain": "open", "towns": ["Kerch"], "port": True}},
}
"""A port in 0101, and nineteen sea hexes east of it."""


def test_D1_a_ship_stops_after_its_16_hexes() -> None:
    """D.1: a ship moves 16 hexes. Ruling: "a ship [stops] ... after its 16"."""
    ships = [{"id": "r_ship", "faction": "reds", "name": "Saratov", "at": "0101"}]
    campaign = campaign_on(SEA, [unit("r_inf", "reds", "0101")], ships=ships)
    path = [f"{c:02d}01" for c in range(1, 20)]
    record = play(campaign, log(sea={"reds": [{"ship": "r_ship", "path": path}]}, dice=obeys("r_inf")))
    said = verdict(record, "r_ship")
    assert (said.result, said.stop, said.end, said.spent) == ("stopped", "mp", "1701", 16)
    assert [x["hex"] for x in record.state.ships] == ["1701"]


# --- Enemies that meet on a hexside ----------------------------------------------------------------


def test_A_enemies_that_swap_hexes_meet_on_the_hexside_between() -> None:
    """Ruling: "when two enemy moves would cross the same hexside in opposite directions in one
    turn ..., neither passes the other: each stops in the hex it was in before that hexside
    (`stopped`), and the two are in contact across it." A swap is the shortest such pair."""
    units = [unit("r_inf", "reds", "0201"), unit("w_inf", "whites", "0301")]
    record = moved(ROW, units, ("r_inf", ["0201", "0301"]), ("w_inf", ["0301", "0201"]))
    for unit_id, home in (("r_inf", "0201"), ("w_inf", "0301")):
        said = verdict(record, unit_id)
        assert (said.result, said.stop, said.end, said.steps) == ("stopped", "met", home, ())
        assert record.state.unit(unit_id).hex == home  # type: ignore[union-attr]
    assert record.state.across == (("0201", "0301"),)
    (met,) = record.met
    assert (met.hexes, met.units, met.factions) == (("0201", "0301"), ("r_inf", "w_inf"), ("reds", "whites"))


def test_A_enemy_paths_that_cross_a_hexside_head_on_stop_on_either_side() -> None:
    """Ruling: each move goes "as far as it goes by the rules above", and stops "in the hex it
    was in before that hexside": cavalry from 0101 and from 0601 meet on 0301-0401."""
    units = [unit("r_cav", "reds", "0101", "cavalry"), unit("w_cav", "whites", "0601", "cavalry")]
    record = moved(
        ROW, units, ("r_cav", ["0101", "0201", "0301", "0401", "0501"]), ("w_cav", ["0601", "0501", "0401", "0301"])
    )
    assert (verdict(record, "r_cav").end, verdict(record, "w_cav").end) == ("0301", "0401")
    assert (verdict(record, "r_cav").spent, verdict(record, "w_cav").spent) == (2, 2)
    assert record.state.across == (("0301", "0401"),)


def test_A_enemy_paths_through_one_empty_hex_do_not_meet() -> None:
    """Ruling: "Enemy paths that merely pass through the same empty hex do not meet." On a 3 x 3
    board the Reds ride 0201-0202-0203 and the Whites 0102-0202-0302, crossing in 0202."""
    units = [unit("r_cav", "reds", "0201", "cavalry"), unit("w_cav", "whites", "0102", "cavalry")]
    record = moved(
        {"columns": 3, "rows": 3, "terrain": "open"},
        units,
        ("r_cav", ["0201", "0202", "0203"]),
        ("w_cav", ["0102", "0202", "0302"]),
    )
    assert [verdict(record, u).result for u in ("r_cav", "w_cav")] == ["done", "done"]
    assert [record.state.unit(u).hex for u in ("r_cav", "w_cav")] == ["0203", "0302"]  # type: ignore[union-attr]
    assert record.state.across == () and record.met == ()


def test_A_a_hexside_contact_is_one_battle_under_either_hex_and_its_loser_retreats_from_its_own() -> None:
    """Ruling: "The battle is reported in the log under the hex of either side, with the units
    of both; its loser retreats one hex from the enemy as usual, and the winner stays where it
    stopped." A turn's report under the White hex settles the contact: `next` is owed nothing."""
    units = [unit("r_inf", "reds", "0201"), unit("w_inf", "whites", "0301")]
    campaign = campaign_on(ROW, units)
    orders = {
        "reds": [{"unit": "r_inf", "move": ["0201", "0301"]}],
        "whites": [{"unit": "w_inf", "move": ["0301", "0201"]}],
    }
    battle = {
        "hex": "0301",
        "winner": "whites",
        "units": [{"unit": "r_inf", "lost": {"infantry": 1}, "retreat": "0101"}, {"unit": "w_inf"}],
    }
    turn = log(orders=orders, battles=[battle], dice=obeys("r_inf", "w_inf"))
    record = play(campaign, turn)
    assert record.state.unit("r_inf").hex == "0101"  # type: ignore[union-attr]
    assert record.state.unit("w_inf").hex == "0301"  # type: ignore[union-attr]
    assert [r.side for r in record.state.battle_results] == ["loser", "winner"]
    assert record.state.contacts == ()
    assert turn_owes(record, turn, Unplaced("turn 1 log")).finished


def test_A_a_hexside_contact_unreported_is_owed_under_either_hex() -> None:
    """Ruling (a turn is finished when every contact has its battle): the hexside contact with no
    battle is owed, and its message names both hexes."""
    units = [unit("r_inf", "reds", "0201"), unit("w_inf", "whites", "0301")]
    campaign = campaign_on(ROW, units)
    orders = {
        "reds": [{"unit": "r_inf", "move": ["0201", "0301"]}],
        "whites": [{"unit": "w_inf", "move": ["0301", "0201"]}],
    }
    turn = log(orders=orders, dice=obeys("r_inf", "w_inf"))
    record = play(campaign, turn)
    (owed,) = turn_owes(record, turn, Unplaced("turn 1 log")).owed
    assert (owed.kind, owed.hex, owed.across, owed.units) == ("no_report", "0201", ("0301",), ("r_inf", "w_inf"))
    assert "'0201' or '0301'" in owed.message(1).text
    assert record.state.contacts == ("0201", "0301")


def test_A_a_hexside_is_met_whole_by_every_unit_crossing_it() -> None:
    """Ruling: "neither passes the other": a stack meeting one enemy on a hexside stops whole, the
    second unit of the stack as much as the first."""
    units = [unit("r_inf", "reds", "0201"), unit("w_one", "whites", "0301"), unit("w_two", "whites", "0301")]
    record = moved(ROW, units, ("r_inf", ["0201", "0301"]), ("w_one", ["0301", "0201"]), ("w_two", ["0301", "0201"]))
    assert [verdict(record, u).stop for u in ("r_inf", "w_one", "w_two")] == ["met", "met", "met"]
    assert [record.state.unit(u).hex for u in ("r_inf", "w_one", "w_two")] == ["0201", "0301", "0301"]  # type: ignore[union-attr]
    (met,) = record.met
    assert met.units == ("r_inf", "w_one", "w_two")


def test_A_long_paths_meet_where_both_first_reach_the_same_hexside() -> None:
    """Ruling: each move goes "as far as it goes", and two that would cross paths head on stop on
    either side of the hexside both reach first: 0201-0301 here, not 0101-0201, which the Whites
    would reach only by passing the Reds."""
    units = [unit("r_cav", "reds", "0101", "cavalry"), unit("w_cav", "whites", "0401", "cavalry")]
    record = moved(ROW, units, ("r_cav", ["0101", "0201", "0301"]), ("w_cav", ["0401", "0301", "0201", "0101"]))
    assert (verdict(record, "r_cav").end, verdict(record, "w_cav").end) == ("0201", "0301")
    assert record.state.across == (("0201", "0301"),)


def test_A_a_move_stopped_early_meets_no_one_beyond() -> None:
    """Ruling: a move stops before the first hexside it meets an enemy on, and goes no farther:
    the Reds, met at once by a White move on 0301-0401, never reach the hexside where another
    White unit would cross their path."""
    board = {"columns": 6, "rows": 4, "terrain": "open"}
    units = [
        unit("r_cav", "reds", "0301", "cavalry"),
        unit("w_far", "whites", "0404", "cavalry"),
        unit("w_near", "whites", "0601", "cavalry"),
    ]
    record = moved(
        board,
        units,
        ("r_cav", ["0301", "0401", "0501", "0601"]),
        ("w_far", ["0404", "0403", "0402", "0401", "0301"]),
        ("w_near", ["0601", "0501"]),
    )
    assert (verdict(record, "r_cav").stop, verdict(record, "r_cav").end) == ("met", "0301")
    assert (verdict(record, "w_far").stop, verdict(record, "w_far").end) == ("met", "0401")
    assert (verdict(record, "w_near").result, verdict(record, "w_near").end) == ("done", "0501")
    assert record.state.across == (("0301", "0401"),)


def test_A_allies_crossing_one_hexside_do_not_meet() -> None:
    """RULES-NOTES: "every faction is the enemy of every other, unless the scenario or an event
    card makes two of them allies": only enemy moves meet."""
    units = [unit("r_inf", "reds", "0201"), unit("u_inf", "ukrainians", "0301")]
    allies = [{"factions": ["reds", "ukrainians"], "turns": 3}]
    campaign = campaign_on(ROW, units, alliances=allies)
    orders = {
        "reds": [{"unit": "r_inf", "move": ["0201", "0301"]}],
        "ukrainians": [{"unit": "u_inf", "move": ["0301", "0201"]}],
    }
    record = play(campaign, log(orders=orders, dice=obeys("r_inf", "u_inf")))
    assert [verdict(record, u).result for u in ("r_inf", "u_inf")] == ["done", "done"]
    assert record.state.across == ()


def test_A1_a_ferry_full_goes_nowhere_and_meets_no_one() -> None:
    """A.1 (RULES-NOTES: orders beyond the ferry's number stop on the near bank) comes first: "each
    as far as it goes by the rules above". The second crossing of a 1-unit ferry stays put, and
    the first crosses into the enemy's hex: a contact in the hex, not on the hexside."""
    board = {
        "columns": 3,
        "rows": 3,
        "sides": [{"hexes": ["0201", "0202"], "river": "Dnieper", "class": "major"}],
        "ferries": [{"hexes": ["0201", "0202"], "units": 1}],
    }
    units = [unit("w_inf", "whites", "0202"), unit("r_inf", "reds", "0201")]
    record = moved(board, units, ("w_inf", ["0202", "0201"]), ("r_inf", ["0201", "0202"]))
    assert (verdict(record, "w_inf").result, verdict(record, "w_inf").end) == ("done", "0201")
    assert (verdict(record, "r_inf").stop, verdict(record, "r_inf").end) == ("ferry_full", "0201")
    assert record.state.across == () and [m.hexes for m in record.met] == [("0201",)]


def test_II_C2_a_retreat_that_stops_short_beside_the_enemy_is_held() -> None:
    """II.C.2 (ruling of 2026-12-02): a retreat order "must take it away from enemy units in or
    next to its hex". One that would stop short (the mountain takes an infantry unit's 2 MP), still
    next to the enemy, is no retreat: a failed command roll holds it."""
    board = {"columns": 4, "rows": 4, "terrain": "open", "hexes": {"0303": {"terrain": "mountain"}}}
    units = [unit("r_inf", "reds", "0202"), unit("w_inf", "whites", "0302")]
    dice = [
        {"purpose": "II.C w_inf command roll, turn 1", "value": 9},
        {"purpose": "II.C r_inf command roll, turn 1", "value": 1},
        NO_EVENT,
    ]
    retreat = {"unit": "w_inf", "move": ["0302", "0303", "0403"], "retreat": True}
    record = play(campaign_on(board, units), log(orders={"whites": [retreat]}, dice=dice))
    said = verdict(record, "w_inf")
    assert (said.result, said.end) == ("held", "0302") and "not a retreat" in said.explanation


def test_II_D1_partisans_met_across_a_hexside_may_evade() -> None:
    """II.D.1 with the ruling: a hexside contact is a contact ("evade, ambush or battle"); the
    partisans' choice, written under their own hex, is rolled for."""
    units = [unit("m_band", "makhnovists", "0201", "cavalry", flags=["partisan"]), unit("w_inf", "whites", "0301")]
    campaign = campaign_on(ROW, units)
    orders = {
        "makhnovists": [{"unit": "m_band", "move": ["0201", "0301"]}],
        "whites": [{"unit": "w_inf", "move": ["0301", "0201"]}],
    }
    rolls = [
        {"purpose": "II.D.1 makhnovists evade in 0201, turn 1", "value": 6},
        {"purpose": "II.D.1 enemy of makhnovists in 0201, turn 1", "value": 1},
    ]
    turn = log(
        orders=orders,
        partisans=[{"hex": "0201", "faction": "makhnovists", "choice": "evade"}],
        dice=obeys("m_band", "w_inf") + rolls,
    )
    record = play(campaign, turn)
    (contact,) = record.state.partisan_contacts
    assert (contact.hex, contact.choice, contact.outcome) == ("0201", "evade", "evaded")
    assert record.met == ()  # evaded: no battle owed


def test_D3_naval_gunfire_reaches_a_hexside_battle_under_either_hex() -> None:
    """D.3 with the ruling ("reported in the log under the hex of either side"): a ship beside
    the White hex supports the battle whichever hex the log names."""
    board = {"columns": 4, "rows": 1, "terrain": "open", "hexes": {"0401": {"terrain": "sea"}}}
    units = [unit("r_inf", "reds", "0201"), unit("w_inf", "whites", "0301")]
    ships = [{"id": "w_ship", "faction": "whites", "name": "Marlborough", "at": "0401"}]
    campaign = campaign_on(board, units, ships=ships)
    orders = {
        "reds": [{"unit": "r_inf", "move": ["0201", "0301"]}],
        "whites": [{"unit": "w_inf", "move": ["0301", "0201"]}],
    }
    for under in ("0201", "0301"):
        battle = {
            "hex": under,
            "winner": "whites",
            "ships": ["w_ship"],
            "units": [{"unit": "r_inf", "lost": {"infantry": 1}, "retreat": "0101"}, {"unit": "w_inf"}],
        }
        record = play(campaign, log(orders=orders, battles=[battle], dice=obeys("r_inf", "w_inf")))
        assert [(f.ship, f.hex) for f in record.state.naval_fire] == [("w_ship", under)]


def test_II_B1_a_breakout_is_not_into_the_battle_just_lost() -> None:
    """II.B.1: Elite/Fanatic units that lose and cannot retreat "attack the enemy in another
    adjacent hex": not the hex across the hexside of the battle they lost."""
    from kitgen.errors import KitgenError

    board = {"columns": 4, "rows": 1, "terrain": "open"}
    units = [
        unit("w_guard", "whites", "0101"),
        unit("r_guards", "reds", "0201", flags=["elite"]),
        unit("w_inf", "whites", "0301"),
    ]
    campaign = campaign_on(board, units)
    orders = {
        "reds": [{"unit": "r_guards", "move": ["0201", "0301"]}],
        "whites": [{"unit": "w_inf", "move": ["0301", "0201"]}],
    }
    lost = {
        "hex": "0201",
        "winner": "whites",
        "units": [{"unit": "w_inf"}, {"unit": "r_guards", "lost": {"infantry": 1}}],
    }
    back = {
        "hex": "0301",
        "winner": "reds",
        "units": [{"unit": "r_guards", "breakout": True}, {"unit": "w_inf", "retreat": "0401"}],
    }
    try:
        play(campaign, log(orders=orders, battles=[lost, back], dice=obeys("r_guards", "w_inf", "w_guard")))
    except KitgenError as error:
        assert "a hex of the battle it lost" in error.problems[0].message
    else:
        raise AssertionError("a breakout into the hex of the battle just lost was allowed")


def test_D1_a_ship_that_cannot_leave_port_takes_no_one_aboard() -> None:
    """Ruling: a ship "whose first hex is beyond it stays where it stood"; the units it was to
    take stay ashore, free to move by land."""
    board = {"columns": 4, "rows": 3, "hexes": {"0401": {"terrain": "sea"}, "0301": {"towns": ["Kerch"], "port": True}}}
    ships = [{"id": "r_ship", "faction": "reds", "name": "Saratov", "at": "0301"}]
    campaign = campaign_on(board, [unit("r_inf", "reds", "0301")], ships=ships)
    sea = {"reds": [{"ship": "r_ship", "carry": ["r_inf"], "path": ["0301", "0201", "0101"]}]}
    record = play(campaign, log(sea=sea, dice=obeys("r_inf")))
    said = verdict(record, "r_ship")
    assert (said.result, said.stop, said.end) == ("stopped", "land", "0301")
    rider = record.state.unit("r_inf")
    assert rider is not None and (rider.aboard, rider.carried, rider.moved) == (None, False, False)


def test_C1_a_train_stops_when_its_12_hexes_are_spent() -> None:
    """A table: "RR Trains 12". Ruling: a train stops "when its 12 hexes are spent" (C.1)."""
    line = [f"{c:02d}01" for c in range(1, 16)]
    campaign = campaign_on(
        {"columns": 15, "rows": 1, "rail": [line]},
        [unit("r_inf", "reds", "0101")],
        trains=[{"id": "r_train", "faction": "reds", "at": "0101"}],
    )
    record = play(campaign, log(rail={"reds": [{"train": "r_train", "path": line}]}, dice=obeys("r_inf")))
    said = verdict(record, "r_train")
    assert (said.result, said.stop, said.rule, said.end, said.spent) == ("stopped", "mp", "C.1", "1301", 12)
    assert "its 12 hexes spent" in said.explanation
