"""Movement is simultaneous, for trains too: one case a clause of RULES-NOTES' rulings of
2026-12-05 ("Trains on one line", "Contact, read exactly"), each on a small hand-made board
(tests/boards.py), its turn log built in code; and a property: the order of a log's orders never
changes the turn.

"Contact, read exactly (2026-12-05): movement is simultaneous. For a move, a hex holds enemy
units if enemy units are in it when movement ends: units that did not move (no order, held,
void) and units whose move ends there. A unit whose path enters such a hex stops there, in
contact. A unit whose path passes through a hex its enemies leave that turn, by a hexside the
two moves do not share, goes on, and nobody fights there. Where a stop makes a new end hex,
apply the rule again until nothing changes. Two enemy units ending in one hex are in contact."

"Trains on one line: two enemy trains whose moves would cross on the same track meet as units
do on a hexside (2026-12-02): each stops before the other, in contact." """

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kitgen.engine.state import Verdict
from kitgen.engine.turn import TurnRecord
from kitgen.mapping.board import Board
from tests.boards import campaign_on, log, play, unit

NO_EVENT = {"purpose": "II.A event roll, turn 1", "value": 1}
LINE = {"columns": 6, "rows": 2, "terrain": "open", "rail": [["0101", "0201", "0301", "0401", "0501", "0601"]]}
"""Two rows of open hexes, with track along the top one from 0101 to 0601."""
OPEN = {"columns": 8, "rows": 5, "terrain": "open"}
"""Open ground. In an odd column, 0303's neighbours are 0202, 0203, 0302, 0304, 0402 and 0403."""


def obeys(*units: str) -> list[dict[str, Any]]:
    """Leaderless units obey on 1-3 (RULES-NOTES), and no event card is drawn."""
    return [{"purpose": f"II.C {u} command roll, turn 1", "value": 1} for u in units] + [NO_EVENT]


def turn(
    board: dict[str, Any],
    units: list[dict[str, Any]],
    moves: dict[str, list[str]],
    *,
    rail: dict[str, list[dict[str, Any]]] | None = None,
    trains: list[dict[str, Any]] | None = None,
    alliances: list[dict[str, Any]] | None = None,
) -> TurnRecord:
    """One turn on `board`: each unit of `moves` ordered along its path, every roll obeyed."""
    setup: dict[str, Any] = {"trains": trains or []}
    if alliances:
        setup["alliances"] = alliances
    campaign = campaign_on(board, units, **setup)
    faction = {u["id"]: u["faction"] for u in units}
    orders: dict[str, list[dict[str, Any]]] = {}
    for unit_id, path in moves.items():
        orders.setdefault(faction[unit_id], []).append({"unit": unit_id, "move": path})
    return play(campaign, log(orders=orders, rail=rail or {}, dice=obeys(*faction)))


def verdict(record: TurnRecord, piece: str) -> Verdict:
    return next(v for v in record.verdicts if v.unit == piece)


def where(record: TurnRecord, *units: str) -> list[str]:
    return [record.state.unit(u).hex for u in units]  # type: ignore[union-attr]


def train_at(record: TurnRecord, train: str) -> str:
    return next(str(t["hex"]) for t in record.state.trains if t["id"] == train)


# --- Trains on one line ----------------------------------------------------------------------


def test_trains_on_one_line_two_enemy_trains_each_stop_before_the_other_in_contact() -> None:
    """ "Two enemy trains whose moves would cross on the same track meet as units do on a hexside:
    each stops before the other, in contact." A White train runs east from 0101 and a Red one
    west from 0601, each for the far end: they meet where both first reach one hexside, 0301-0401;
    their loads fight one battle, reported under either hex."""
    units = [unit("w_inf", "whites", "0101"), unit("r_inf", "reds", "0601")]
    trains = [{"id": "w_train", "faction": "whites", "at": "0101"}, {"id": "r_train", "faction": "reds", "at": "0601"}]
    rail = {
        "whites": [{"train": "w_train", "carry": ["w_inf"], "path": ["0101", "0201", "0301", "0401", "0501"]}],
        "reds": [{"train": "r_train", "carry": ["r_inf"], "path": ["0601", "0501", "0401", "0301", "0201"]}],
    }
    record = turn(LINE, units, {}, rail=rail, trains=trains)
    for train, end in (("w_train", "0301"), ("r_train", "0401")):
        said = verdict(record, train)
        assert (said.result, said.stop, said.end) == ("stopped", "met", end)
        assert train_at(record, train) == end
    assert where(record, "w_inf", "r_inf") == ["0301", "0401"]
    assert record.state.across == (("0301", "0401"),)
    (met,) = record.met
    assert (met.hexes, met.units) == (("0301", "0401"), ("r_inf", "w_inf"))


def test_trains_on_one_line_a_train_and_an_enemy_unit_meet_on_the_hexside_they_cross() -> None:
    """ "... meet as units do on a hexside": a White train runs 0101-0301 while Red cavalry rides
    0501-0201 down the line. They would cross 0201-0301 the opposite ways: the train stops in
    0201, the cavalry in 0301, in contact across the hexside."""
    units = [unit("w_inf", "whites", "0101"), unit("r_cav", "reds", "0501", "cavalry")]
    trains = [{"id": "w_train", "faction": "whites", "at": "0101"}]
    rail = {"whites": [{"train": "w_train", "carry": ["w_inf"], "path": ["0101", "0201", "0301"]}]}
    record = turn(LINE, units, {"r_cav": ["0501", "0401", "0301", "0201"]}, rail=rail, trains=trains)
    assert (verdict(record, "w_train").stop, train_at(record, "w_train")) == ("met", "0201")
    assert (verdict(record, "r_cav").stop, verdict(record, "r_cav").end) == ("met", "0301")
    assert where(record, "w_inf", "r_cav") == ["0201", "0301"]
    (met,) = record.met
    assert (met.hexes, met.units) == (("0201", "0301"), ("r_cav", "w_inf"))


def test_contact_read_exactly_a_train_stops_before_a_hex_where_an_enemy_move_ends() -> None:
    """ "A hex holds enemy units ... [if] units whose move ends there" (C.1: a train stops before
    enemy units): White infantry steps onto the line at 0401, so the Red train bound for 0501
    stops in 0301, before it."""
    units = [unit("r_inf", "reds", "0101"), unit("w_inf", "whites", "0402")]
    trains = [{"id": "r_train", "faction": "reds", "at": "0101"}]
    rail = {"reds": [{"train": "r_train", "carry": ["r_inf"], "path": ["0101", "0201", "0301", "0401", "0501"]}]}
    record = turn(LINE, units, {"w_inf": ["0402", "0401"]}, rail=rail, trains=trains)
    said = verdict(record, "r_train")
    assert (said.result, said.stop, said.end, said.rule) == ("stopped", "enemy", "0301", "C.1")
    assert "enemy units in 0401 when movement ends" in said.explanation
    assert where(record, "r_inf", "w_inf") == ["0301", "0401"]


def test_contact_read_exactly_a_train_runs_through_a_hex_its_enemy_leaves() -> None:
    """ "A unit whose path passes through a hex its enemies leave that turn ... goes on": the
    White infantry in 0301 marches off the line as the Red train runs through to 0501."""
    units = [unit("r_inf", "reds", "0101"), unit("w_inf", "whites", "0301")]
    trains = [{"id": "r_train", "faction": "reds", "at": "0101"}]
    rail = {"reds": [{"train": "r_train", "carry": ["r_inf"], "path": ["0101", "0201", "0301", "0401", "0501"]}]}
    record = turn(LINE, units, {"w_inf": ["0301", "0302"]}, rail=rail, trains=trains)
    assert (verdict(record, "r_train").result, train_at(record, "r_train")) == ("done", "0501")
    assert where(record, "r_inf", "w_inf") == ["0501", "0302"]
    assert record.met == ()


# --- Contact, read exactly ---------------------------------------------------------------------


def test_contact_read_exactly_a_unit_passes_through_a_hex_its_enemy_leaves() -> None:
    """ "A unit whose path passes through a hex its enemies leave that turn, by a hexside the two
    moves do not share, goes on, and nobody fights there." Red cavalry rides 0203-0303-0403
    while the White cavalry in 0303 rides 0303-0304-0305."""
    units = [unit("r_cav", "reds", "0203", "cavalry"), unit("w_cav", "whites", "0303", "cavalry")]
    moves = {"r_cav": ["0203", "0303", "0403"], "w_cav": ["0303", "0304", "0305"]}
    record = turn(OPEN, units, moves)
    assert [verdict(record, u).result for u in ("r_cav", "w_cav")] == ["done", "done"]
    assert where(record, "r_cav", "w_cav") == ["0403", "0305"]
    assert record.met == () and record.state.contacts == ()


def test_contact_read_exactly_a_unit_stops_in_a_hex_where_an_enemy_move_ends() -> None:
    """ "A hex holds enemy units if ... units whose move ends there. A unit whose path enters such
    a hex stops there, in contact." The Whites march into 0303 as the Reds ride through it."""
    units = [unit("r_cav", "reds", "0203", "cavalry"), unit("w_inf", "whites", "0304")]
    record = turn(OPEN, units, {"r_cav": ["0203", "0303", "0403", "0503"], "w_inf": ["0304", "0303"]})
    said = verdict(record, "r_cav")
    assert (said.result, said.stop, said.end) == ("stopped", "contact", "0303")
    assert "where enemy units are when movement ends" in said.explanation
    assert verdict(record, "w_inf").result == "done"
    (met,) = record.met
    assert (met.hexes, met.units) == (("0303",), ("r_cav", "w_inf"))


def test_contact_read_exactly_two_enemies_ending_in_one_empty_hex_are_in_contact() -> None:
    """ "Two enemy units ending in one hex are in contact": Reds from the west and Whites from the
    east both end in the empty 0403; neither stops short."""
    units = [unit("r_cav", "reds", "0203", "cavalry"), unit("w_cav", "whites", "0603", "cavalry")]
    record = turn(OPEN, units, {"r_cav": ["0203", "0303", "0403"], "w_cav": ["0603", "0503", "0403"]})
    assert [verdict(record, u).result for u in ("r_cav", "w_cav")] == ["done", "done"]
    (met,) = record.met
    assert (met.hexes, met.units, met.factions) == (("0403",), ("r_cav", "w_cav"), ("reds", "whites"))


def test_contact_read_exactly_a_stop_makes_a_new_end_hex_that_stops_a_third_unit() -> None:
    """ "Where a stop makes a new end hex, apply the rule again until nothing changes." White
    cavalry bound for 0103 meets a Red move on 0203-0303 and stops in 0303; Red cavalry riding
    south through 0303 now finds it there and stops too: one battle of the three."""
    units = [
        unit("w_cav", "whites", "0403", "cavalry"),
        unit("r_inf", "reds", "0203"),
        unit("r_cav", "reds", "0302", "cavalry"),
    ]
    moves = {
        "w_cav": ["0403", "0303", "0203", "0103"],
        "r_inf": ["0203", "0303"],
        "r_cav": ["0302", "0303", "0304", "0305"],
    }
    record = turn(OPEN, units, moves)
    assert (verdict(record, "w_cav").stop, verdict(record, "w_cav").end) == ("met", "0303")
    assert (verdict(record, "r_inf").stop, verdict(record, "r_inf").end) == ("met", "0203")
    assert (verdict(record, "r_cav").stop, verdict(record, "r_cav").end) == ("contact", "0303")
    (met,) = record.met
    assert (met.hexes, met.units) == (("0203", "0303"), ("r_cav", "r_inf", "w_cav"))


def test_contact_read_exactly_a_stop_for_an_enemy_that_stops_short_is_taken_back() -> None:
    """ "... until nothing changes": White cavalry bound for 0402 is stopped on the way, in 0602,
    by Reds who stand there. Red cavalry that would have met it in 0402 finds the hex empty when
    movement ends, and rides on to 0403."""
    units = [
        unit("w_cav", "whites", "0802", "cavalry"),
        unit("r_guard", "reds", "0602"),
        unit("r_cav", "reds", "0401", "cavalry"),
    ]
    moves = {"w_cav": ["0802", "0702", "0602", "0502", "0402"], "r_cav": ["0401", "0402", "0403"]}
    record = turn(OPEN, units, moves)
    assert (verdict(record, "w_cav").stop, verdict(record, "w_cav").end) == ("contact", "0602")
    assert (verdict(record, "r_cav").result, verdict(record, "r_cav").end) == ("done", "0403")
    (met,) = record.met
    assert (met.hexes, met.units) == (("0602",), ("r_guard", "w_cav"))


def test_contact_read_exactly_three_factions_each_stop_for_the_others() -> None:
    """RULES-NOTES: every faction is the enemy of every other. Ukrainians stand in 0403; Red
    cavalry riding through it stops there, and the Whites, whose march ends there, are in the
    same contact: one battle of three factions."""
    units = [
        unit("u_inf", "ukrainians", "0403"),
        unit("r_cav", "reds", "0203", "cavalry"),
        unit("w_inf", "whites", "0404"),
    ]
    record = turn(OPEN, units, {"r_cav": ["0203", "0303", "0403", "0503", "0603"], "w_inf": ["0404", "0403"]})
    assert (verdict(record, "r_cav").stop, verdict(record, "r_cav").end) == ("contact", "0403")
    assert verdict(record, "w_inf").result == "done"
    (met,) = record.met
    assert (met.hexes, met.factions) == (("0403",), ("reds", "ukrainians", "whites"))


def test_contact_read_exactly_allies_never_stop_each_other() -> None:
    """Only "enemy units" hold a hex: the Reds ride through 0303, where their Ukrainian allies'
    march ends, and on to 0503; and the allies cross one hexside the opposite ways unchecked."""
    units = [
        unit("r_cav", "reds", "0203", "cavalry"),
        unit("u_inf", "ukrainians", "0304"),
        unit("u_cav", "ukrainians", "0503", "cavalry"),
    ]
    allies = [{"factions": ["reds", "ukrainians"], "turns": 3}]
    moves = {
        "r_cav": ["0203", "0303", "0403", "0503"],
        "u_inf": ["0304", "0303"],
        "u_cav": ["0503", "0403", "0303"],
    }
    record = turn(OPEN, units, moves, alliances=allies)
    assert [verdict(record, u).result for u in moves] == ["done", "done", "done"]
    assert where(record, *moves) == ["0503", "0303", "0303"]
    assert record.met == () and record.state.across == ()


# --- The order of the log decides nothing ------------------------------------------------------

FACTIONS = ("reds", "whites", "ukrainians")
BOARD = {"columns": 5, "rows": 4, "terrain": "open", "rail": [["0101", "0201", "0301", "0401", "0501"]]}


@st.composite
def turns(draw: st.DrawFn) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[tuple[str, dict[str, Any]]]]:
    """Units and trains of three factions on a small board, and a turn's orders for them: land
    moves along random walks (each unit at most one), and trains along the line (each unit
    named to board one at most)."""
    board = Board.from_map(campaign_on(BOARD, [unit("r_0", "reds", "0101")]).hex_map)
    hexes = sorted(board.terrain)
    units, orders = [], []
    for k in range(draw(st.integers(2, 7))):
        faction, at = draw(st.sampled_from(FACTIONS)), draw(st.sampled_from(hexes))
        kind = draw(st.sampled_from(("infantry", "cavalry")))
        units.append(unit(f"{faction[0]}_{k}", faction, at, kind))
        if draw(st.booleans()):
            path = [at]
            for _ in range(draw(st.integers(1, 4))):
                path.append(draw(st.sampled_from(sorted(board.neighbours(path[-1])))))
            orders.append((faction, {"unit": f"{faction[0]}_{k}", "move": path}))
    line = ["0101", "0201", "0301", "0401", "0501"]
    trains, carried = [], set()  # a unit named by two carry orders boards the first: the log's order
    for k, faction in enumerate(draw(st.lists(st.sampled_from(FACTIONS), max_size=2))):
        start = draw(st.sampled_from(line))
        trains.append({"id": f"t_{k}", "faction": faction, "at": start})
        end = draw(st.sampled_from([h for h in line if h != start]))
        i, j = line.index(start), line.index(end)
        path = line[i : j + 1] if i <= j else line[j : i + 1][::-1]
        riders = [u["id"] for u in units if u["at"] == start and u["faction"] == faction and u["id"] not in carried][:1]
        carried |= set(riders)
        orders.append(("rail:" + faction, {"train": f"t_{k}", "carry": riders, "path": path}))
    return units, trains, orders


def _played(units: list[dict[str, Any]], trains: list[dict[str, Any]], orders: list[tuple[str, dict[str, Any]]]) -> Any:
    land: dict[str, list[dict[str, Any]]] = {}
    rail: dict[str, list[dict[str, Any]]] = {}
    for key, order in orders:
        table, faction = (rail, key[5:]) if key.startswith("rail:") else (land, key)
        table.setdefault(faction, []).append(order)
    record = play(
        campaign_on(BOARD, units, trains=trains),
        log(orders=land, rail=rail, dice=obeys(*(u["id"] for u in units))),
    )
    state = record.state
    return (
        sorted((u.id, u.hex, u.moved, u.carried) for u in state.units),
        sorted((str(t["id"]), str(t["hex"])) for t in state.trains),
        state.across,
        state.contacts,
        sorted((v.unit, v.order, v.result, v.stop, v.end, v.explanation) for v in state.verdicts),
        record.met,
    )


@settings(max_examples=60, deadline=None)
@given(drawn=turns(), data=st.data())
def test_contact_read_exactly_the_order_of_the_orders_never_changes_the_turn(drawn: Any, data: st.DataObject) -> None:
    """ "Movement is simultaneous": shuffling a log's orders, within each faction and across the
    factions, gives the same turn. And nobody stops for an enemy who is not there when movement
    ends (a land move's contact is in its end hex; a train's enemy in the hex before which it
    stopped)."""
    units, trains, orders = drawn
    first = _played(units, trains, orders)
    shuffled = data.draw(st.permutations(orders))
    assert _played(units, trains, list(shuffled)) == first
    positions, train_hexes = dict((u, h) for u, h, _, _ in first[0]), dict(first[1])
    faction = {u["id"]: u["faction"] for u in units}
    held: dict[str, set[str]] = {}
    for u, h in positions.items():
        held.setdefault(h, set()).add(faction[u])
    for piece, _, _, stop, end, text in first[4]:
        mine = faction.get(piece) or next(t["faction"] for t in trains if t["id"] == piece)
        if stop == "contact":
            assert held.get(end, set()) - {mine}, text
        if stop == "enemy":
            blocked = text.split("enemy units in ")[1][:4]
            assert held.get(blocked, set()) - {mine}, text
    assert all(t in train_hexes for t in (str(t["id"]) for t in trains))


def test_contact_read_exactly_trains_following_one_another_are_left_to_the_umpire() -> None:
    """ "Where a stop makes a new end hex, apply the rule again until nothing changes": a Red
    train runs 0101-0301 behind a White one running 0201-0401. The White run passes 0301, where
    the Red one ends, so it stops before it, in 0201; then the Red run passes 0201 and stops in
    0101; then 0301 is empty, and the White run goes on: the rule never settles. Each goes as far
    as it would, and the umpire's notes say so, for him to rule otherwise."""
    units = [unit("r_inf", "reds", "0101"), unit("w_inf", "whites", "0201")]
    trains = [{"id": "r_train", "faction": "reds", "at": "0101"}, {"id": "w_train", "faction": "whites", "at": "0201"}]
    rail = {
        "reds": [{"train": "r_train", "carry": ["r_inf"], "path": ["0101", "0201", "0301"]}],
        "whites": [{"train": "w_train", "carry": ["w_inf"], "path": ["0201", "0301", "0401"]}],
    }
    record = turn(LINE, units, {}, rail=rail, trains=trains)
    assert [verdict(record, t).result for t in ("r_train", "w_train")] == ["done", "done"]
    assert where(record, "r_inf", "w_inf") == ["0301", "0401"]
    (note,) = [n for n in record.umpire if "cannot all be settled" in n]
    assert "r_train, w_train" in note
