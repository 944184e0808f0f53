"""Rule cases for ferries (A.1) and voyages over more than one turn (D.1, A.3), each on a small
hand-made board with its turn logs built in code."""

from __future__ import annotations

from typing import Any

from kitgen.engine.state import Verdict
from kitgen.engine.turn import TurnRecord
from tests.boards import campaign_on, log, play, unit

RIVER: dict[str, Any] = {
    "columns": 3,
    "rows": 3,
    "sides": [
        {"hexes": ["0201", "0202"], "river": "Dnieper", "class": "major"},
        {"hexes": ["0101", "0102"], "river": "Dnieper", "class": "major"},
    ],
    "ferries": [{"hexes": ["0201", "0202"], "units": 2}],
}
"""A major river between rows 1 and 2 of columns 1-2; a ferry of 2 units a turn at 0201-0202."""

SEA: dict[str, Any] = {
    "columns": 4,
    "rows": 3,
    "hexes": {
        "0401": {"terrain": "sea"},
        "0402": {"terrain": "sea"},
        "0403": {"terrain": "sea"},
        "0301": {"towns": ["Kerch"], "port": True},
    },
}
"""Land in columns 1-3, sea in column 4; the port of Kerch in 0301; 0302 and 0303 a coast
without a port."""


def _verdict(record: TurnRecord, unit_id: str) -> Verdict:
    return next(v for v in record.verdicts if v.unit == unit_id)


def test_A1_ferry_takes_the_whole_move_and_ends_across() -> None:
    """A.1: 'Takes full movement just to emplace pontoons and cross or complete crossing by
    ferries.' RULES-NOTES: "A unit crossing a major river by pontoon or ferry spends its whole
    movement and ends in the hex across"; a path beyond it stops there (ruling of 2026-12-02)."""
    c = campaign_on(
        RIVER, [unit("r_a", "reds", "0201", "cavalry", commander="Trotsky"), unit("r_b", "reds", "0201", "cavalry")]
    )
    record = play(
        c,
        log(
            orders={
                "reds": [{"unit": "r_a", "move": ["0201", "0202"]}, {"unit": "r_b", "move": ["0201", "0202", "0302"]}]
            }
        ),
    )
    assert record.state.unit("r_a").hex == "0202"
    assert "by the ferry 0201-0202 (1 of its 2 units this turn)" in _verdict(record, "r_a").explanation
    onward = _verdict(record, "r_b")
    assert (onward.result, onward.stop, onward.end, record.state.unit("r_b").hex) == ("stopped", "mp", "0202", "0202")
    assert "by the ferry 0201-0202 (2 of its 2 units this turn)" in onward.explanation


def test_A1_ferry_full_stops_the_unit_on_the_near_bank_in_log_order() -> None:
    """A.1: 'Number of units ferries can take per turn will vary on location.' (RULES-NOTES:
    'Orders beyond the ferry's number that turn are void, in the log's order: the unit stops on
    the near bank'; ruling of 2026-12-02: `stopped`, the ferry full.)"""
    c = campaign_on(RIVER, [unit(f"r_{k}", "reds", "0201", commander="Trotsky" if k == "a" else None) for k in "abc"])
    record = play(c, log(orders={"reds": [{"unit": f"r_{k}", "move": ["0201", "0202"]} for k in "abc"]}))
    assert [record.state.unit(f"r_{k}").hex for k in "abc"] == ["0202", "0202", "0201"]
    late = _verdict(record, "r_c")
    assert (late.result, late.stop, late.rule, late.end, late.steps) == ("stopped", "ferry_full", "A.1", "0201", ())
    assert "the ferry 0201-0202 takes 2 units a turn, and 2 have crossed by it already" in late.explanation


def test_A1_ferry_capacity_counts_both_ways_and_all_factions() -> None:
    """A.1: a ferry's number of units per turn is for all who cross by it, either way (allies
    here: enemies crossing it the other way would meet on the hexside)."""
    units = [
        unit("r_a", "reds", "0201", commander="Trotsky"),
        unit("u_a", "ukrainians", "0202", commander="Petliura"),
        unit("u_b", "ukrainians", "0202"),
    ]
    orders = {
        "reds": [{"unit": "r_a", "move": ["0201", "0202"]}],
        "ukrainians": [{"unit": "u_a", "move": ["0202", "0201"]}, {"unit": "u_b", "move": ["0202", "0201"]}],
    }
    allies = [{"factions": ["reds", "ukrainians"], "turns": 3}]
    record = play(campaign_on(RIVER, units, alliances=allies), log(orders=orders))
    assert _verdict(record, "u_a").result == "done"
    late = _verdict(record, "u_b")
    assert (late.result, late.stop) == ("stopped", "ferry_full") and "ferry 0201-0202" in late.explanation


def test_A1_no_ferry_no_crossing() -> None:
    """A.1: 'Major river hexsides must be crossed at bridge points on map or with pontoons/ferries.'
    RULES-NOTES (ruling of 2026-12-02): the unit stops before a major-river hexside with no
    bridge, pontoon or ferry; one whose first hex is beyond it stays where it stood."""
    record = play(
        campaign_on(RIVER, [unit("r_a", "reds", "0101", commander="Trotsky")]),
        log(orders={"reds": [{"unit": "r_a", "move": ["0101", "0102"]}]}),
    )
    held = _verdict(record, "r_a")
    assert (held.result, held.stop, held.end, record.state.unit("r_a").hex) == ("stopped", "river", "0101", "0101")


def _voyage(*units: dict[str, Any]) -> Any:
    ships = [{"id": "w_ship", "faction": "reds", "name": "Saratov", "at": "0301"}]
    return campaign_on(SEA, list(units), ships=ships)


def test_D1_units_stay_aboard_at_sea_between_turns() -> None:
    """D.1 (RULES-NOTES): 'they may stay aboard at sea between turns and land or go ashore on a
    later turn'."""
    c = _voyage(unit("w_inf", "reds", "0301", commander="Trotsky"))
    first = play(c, log(sea={"reds": [{"ship": "w_ship", "carry": ["w_inf"], "path": ["0301", "0401", "0402"]}]}))
    aboard = first.state.unit("w_inf")
    assert aboard.aboard == "w_ship" and aboard.hex == "0402"
    assert "they stay aboard at sea in 0402" in _verdict(first, "w_ship").explanation
    assert first.state.to_json()["units"][0]["aboard"] == "w_ship"
    second = play(
        c, log(2, sea={"reds": [{"ship": "w_ship", "path": ["0402", "0403"], "land": "0303"}]}), state=first.state
    )
    ashore = second.state.unit("w_inf")
    assert (ashore.hex, ashore.aboard) == ("0303", None)


def test_D1_units_aboard_go_ashore_at_a_port_on_a_later_turn() -> None:
    """D.1: 'No additional costs to load or unload units'; a ship that stays puts them ashore."""
    c = _voyage(unit("w_art", "reds", "0301", "artillery", commander="Trotsky"))
    first = play(c, log(sea={"reds": [{"ship": "w_ship", "carry": ["w_art"], "path": ["0301", "0401"]}]}))
    second = play(c, log(2, sea={"reds": [{"ship": "w_ship", "path": ["0401", "0301"]}]}), state=first.state)
    assert (second.state.unit("w_art").hex, second.state.unit("w_art").aboard) == ("0301", None)


def test_D1_units_aboard_make_no_land_move() -> None:
    """D.1: 'Once disembarked, unit cannot engage in any land movement that turn'; aboard, none at all."""
    c = _voyage(unit("w_inf", "reds", "0301", commander="Trotsky"))
    first = play(c, log(sea={"reds": [{"ship": "w_ship", "carry": ["w_inf"], "path": ["0301", "0401"]}]}))
    second = play(c, log(2, orders={"reds": [{"unit": "w_inf", "move": ["0401", "0302"]}]}), state=first.state)
    moved = _verdict(second, "w_inf")
    assert moved.result == "void" and moved.rule == "D.1" and second.state.unit("w_inf").aboard == "w_ship"


def test_D1_boarding_only_in_port_at_the_start_of_the_turn() -> None:
    """D.1: 'unit must be in port at beginning of turn to be eligible to board.'"""
    c = _voyage(unit("w_inf", "reds", "0301", commander="Trotsky"), unit("w_far", "reds", "0302"))
    first = play(c, log(sea={"reds": [{"ship": "w_ship", "carry": ["w_inf", "w_far"], "path": ["0301", "0401"]}]}))
    assert (
        "left behind (not in 0301 at the start, moved, or held by command): w_far"
        in _verdict(first, "w_ship").explanation
    )
    assert first.state.unit("w_far").aboard is None


def test_D1_units_aboard_a_lost_ship_are_lost() -> None:
    """D.1 (RULES-NOTES): 'Units aboard a ship that is lost are lost with it.'"""
    c = _voyage(unit("w_inf", "reds", "0301", commander="Trotsky"), unit("w_home", "reds", "0301"))
    first = play(c, log(sea={"reds": [{"ship": "w_ship", "carry": ["w_inf"], "path": ["0301", "0401"]}]}))
    second = play(c, log(2, ships_lost=["w_ship"]), state=first.state)
    assert second.state.unit("w_inf") is None and second.state.unit("w_home") is not None
    assert second.state.ships == ()
    assert "ship Saratov lost in 0401, with w_inf aboard" in _verdict(second, "w_ship").explanation


def test_A3_landing_without_a_port_is_infantry_only() -> None:
    """A.3: 'Amphibious landings on coastal hexes can only be done by infantry. Rest of units
    must disembark at a port city.'"""
    c = _voyage(unit("w_cav", "reds", "0301", "cavalry", commander="Trotsky"))
    first = play(c, log(sea={"reds": [{"ship": "w_ship", "carry": ["w_cav"], "path": ["0301", "0401", "0402"]}]}))
    assert first.state.unit("w_cav").aboard == "w_ship"
    second = play(c, log(2, sea={"reds": [{"ship": "w_ship", "path": ["0402"], "land": "0303"}]}), state=first.state)
    landing = _verdict(second, "w_cav")
    assert landing.result == "void" and landing.rule == "A.3" and "only infantry land" in landing.explanation
    assert _verdict(second, "w_ship").result == "done"  # the ship's order stands; the cavalry stays aboard
    assert second.state.unit("w_cav").aboard == "w_ship"


def test_D1_A3_a_ship_lands_part_of_its_load_and_keeps_the_rest_aboard() -> None:
    """D.1 and A.3 (issue 23): a sea order names the units that land (`ashore`); the rest stay
    aboard; each gets its own verdict, so a unit that may not land on a coast (A.3: infantry only)
    stays aboard without voiding the others."""
    c = _voyage(
        unit("r_inf", "reds", "0301", commander="Trotsky", stands={"infantry": 3}),
        unit("r_inf2", "reds", "0301", stands={"infantry": 3}),
        unit("r_cav", "reds", "0301", "cavalry", stands={"cavalry": 2}),
    )  # 3 + 3 + 6 points: within a ship's 16 (D.3)
    carry = {"ship": "w_ship", "carry": ["r_inf", "r_inf2", "r_cav"], "path": ["0301", "0401", "0402"]}
    first = play(c, log(sea={"reds": [carry]}, dice=[{"purpose": "II.C Trotsky command roll, turn 1", "value": 1}]))
    assert {first.state.unit(u).aboard for u in ("r_inf", "r_inf2", "r_cav")} == {"w_ship"}  # type: ignore[union-attr]
    order = {"ship": "w_ship", "path": ["0402"], "land": "0303", "ashore": ["r_inf", "r_cav"]}
    second = play(
        c,
        log(2, sea={"reds": [order]}, dice=[{"purpose": "II.C Trotsky command roll, turn 2", "value": 1}]),
        state=first.state,
    )
    assert _verdict(second, "w_ship").result == "done"
    assert (_verdict(second, "r_inf").result, _verdict(second, "r_cav").result) == ("done", "void")
    assert _verdict(second, "r_cav").rule == "A.3"
    landed, kept, cavalry = (second.state.unit(u) for u in ("r_inf", "r_inf2", "r_cav"))
    assert landed is not None and (landed.hex, landed.aboard) == ("0303", None)
    assert kept is not None and kept.aboard == "w_ship"
    assert cavalry is not None and cavalry.aboard == "w_ship"


def test_A1_a_ferry_crossing_that_meets_the_enemy_counts_against_the_ferry() -> None:
    """A.1 with the Contact ruling: a move that crosses by ferry into the enemy stops there, and
    it has still crossed by the ferry: a third crossing of a 2-unit ferry stops on the near bank."""
    units = [unit(f"r_{k}", "reds", "0201", commander="Trotsky" if k == "a" else None) for k in "abc"]
    c = campaign_on(RIVER, [*units, unit("w_guard", "whites", "0202")])
    orders = {"reds": [{"unit": f"r_{k}", "move": ["0201", "0202", "0302"]} for k in "abc"]}
    record = play(c, log(orders=orders))
    assert [_verdict(record, f"r_{k}").stop for k in "abc"] == ["contact", "contact", "ferry_full"]
    assert [record.state.unit(f"r_{k}").hex for k in "abc"] == ["0202", "0202", "0201"]


def test_D3_a_ship_order_void_for_its_load_carries_the_load() -> None:
    """D.3: "Each ship can carry 16 points" (the scenario's table). Overloaded, the order is void,
    and its verdict carries the load stand by stand against the capacity, as a train's does (C.1)."""
    c = _voyage(
        unit("r_inf", "reds", "0301", commander="Trotsky"),
        unit("r_inf2", "reds", "0301"),
        unit("r_cav", "reds", "0301", "cavalry"),
    )
    carry = {"ship": "w_ship", "carry": ["r_inf", "r_inf2", "r_cav"], "path": ["0301", "0401"]}
    record = play(c, log(sea={"reds": [carry]}, dice=[{"purpose": "II.C Trotsky command roll, turn 1", "value": 1}]))
    verdict = _verdict(record, "w_ship")
    assert verdict.result == "void" and verdict.load is not None
    assert not verdict.load.fits and verdict.load.total > verdict.load.capacity == 16
    lines = {kind: stands for kind, stands, _ in verdict.load.lines}
    assert lines == {"infantry": 8, "cavalry": 4}
    assert f"load of {verdict.load.total} points is over a ship's 16" in verdict.explanation
