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


def test_trains_on_one_line_an_empty_train_meets_a_train_but_no_unit() -> None:
    """ "Two enemy trains whose moves would cross on the same track meet": one track, loaded or
    not, so an empty White train and a Red one stop before each other. Red cavalry riding down
    the line against an empty train, and off it, meets no one: no unit is there to fight it."""
    trains = [{"id": "w_train", "faction": "whites", "at": "0101"}, {"id": "r_train", "faction": "reds", "at": "0601"}]
    both = {
        "whites": [{"train": "w_train", "carry": [], "path": ["0101", "0201", "0301", "0401"]}],
        "reds": [{"train": "r_train", "carry": [], "path": ["0601", "0501", "0401", "0301"]}],
    }
    met = turn(LINE, [unit("r_inf", "reds", "0602")], {}, rail=both, trains=trains)
    assert [verdict(met, t).stop for t in ("w_train", "r_train")] == ["met", "met"]
    assert (train_at(met, "w_train"), train_at(met, "r_train")) == ("0301", "0401")
    assert met.met == ()  # no units on either side: no battle
    one = {"whites": both["whites"]}
    rider = turn(
        LINE,
        [unit("r_cav", "reds", "0501", "cavalry")],
        {"r_cav": ["0501", "0401", "0301", "0302"]},
        rail=one,
        trains=trains[:1],
    )
    assert (verdict(rider, "w_train").result, verdict(rider, "r_cav").result) == ("done", "done")


def test_trains_on_one_line_a_train_and_a_unit_arriving_in_one_hex_are_there_in_contact() -> None:
    """ "A unit whose path enters such a hex stops there, in contact" and "Two enemy units ending in
    one hex are in contact": Red cavalry crossing the line through 0301 stops where the White
    train's load detrains; the train, whose run ends there, is not kept out by units that
    stopped there only for it. Both are in 0301."""
    units = [unit("w_inf", "whites", "0101"), unit("r_cav", "reds", "0302", "cavalry")]
    trains = [{"id": "w_train", "faction": "whites", "at": "0101"}]
    rail = {"whites": [{"train": "w_train", "carry": ["w_inf"], "path": ["0101", "0201", "0301"]}]}
    record = turn(LINE, units, {"r_cav": ["0302", "0301", "0401"]}, rail=rail, trains=trains)
    assert (verdict(record, "w_train").result, train_at(record, "w_train")) == ("done", "0301")
    assert (verdict(record, "r_cav").stop, verdict(record, "r_cav").end) == ("contact", "0301")
    (met,) = record.met
    assert (met.hexes, met.units) == (("0301",), ("r_cav", "w_inf"))
    assert record.state.unsettled == ()


def test_A2_a_unit_the_train_carries_makes_no_move_of_its_own_and_is_where_the_train_went() -> None:
    """A.2 (the units a train carries make no other move): the rider's own land order is void,
    and its verdict places it where the train took it."""
    units = [unit("w_inf", "whites", "0101")]
    trains = [{"id": "w_train", "faction": "whites", "at": "0101"}]
    rail = {"whites": [{"train": "w_train", "carry": ["w_inf"], "path": ["0101", "0201", "0301"]}]}
    record = turn(LINE, units, {"w_inf": ["0101", "0102"]}, rail=rail, trains=trains)
    said = verdict(record, "w_inf")
    assert (said.result, said.rule, said.start, said.end) == ("void", "A.2", "0301", "0301")
    assert where(record, "w_inf") == ["0301"]


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


def test_contact_read_exactly_a_retreat_stops_before_a_hex_where_an_enemy_move_ends() -> None:
    """RULES-NOTES, retreating units: "A retreat never enters a hex of enemy units; it may end
    next to one", read with "a hex holds enemy units if ... units whose move ends there". The
    Whites retreat east from the Reds in 0101, toward 0401, where Red cavalry rides in: they stop
    in 0301, next to it."""
    row = {"columns": 5, "rows": 1, "terrain": "open"}
    units = [
        unit("w_rifles", "whites", "0201"),
        unit("r_rifles", "reds", "0101"),
        unit("r_cav", "reds", "0501", "cavalry"),
    ]
    orders = {
        "whites": [{"unit": "w_rifles", "move": ["0201", "0301", "0401"], "retreat": True}],
        "reds": [{"unit": "r_cav", "move": ["0501", "0401"]}],
    }
    record = play(campaign_on(row, units), log(orders=orders, dice=obeys(*(u["id"] for u in units))))
    said = verdict(record, "w_rifles")
    assert (said.result, said.stop, said.end, said.rule) == ("stopped", "enemy", "0301", "II.C.2")
    assert "a retreat never enters their hex" in said.explanation
    assert where(record, "w_rifles", "r_cav") == ["0301", "0401"]
    assert record.met == ()


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
    return play(
        campaign_on(BOARD, units, trains=trains),
        log(orders=land, rail=rail, dice=obeys(*(u["id"] for u in units))),
    )


def _outcome(record: TurnRecord) -> Any:
    """The turn as the order of the orders could change it (not the verdicts' order)."""
    state = record.state
    return (
        sorted((u.id, u.hex, u.moved, u.carried) for u in state.units),
        sorted((str(t["id"]), str(t["hex"])) for t in state.trains),
        state.across,
        state.contacts,
        state.unsettled,
        sorted((v.unit, v.order, v.result, v.stop, v.end, v.explanation) for v in state.verdicts),
        record.met,
    )


def _breaches(record: TurnRecord, trains: list[dict[str, Any]]) -> list[str]:
    """Where the turn breaks the rulings, but for the moves it says it could not settle: a move
    through a hex where enemies are when movement ends (a land move may end in one; a train or a
    retreat may end only where its enemies stopped for a contact), enemy moves that cross one
    hexside the opposite ways, and a stop for an enemy who is not there."""
    state = record.state
    faction = {u.id: u.faction for u in state.units} | {str(t["id"]): str(t["faction"]) for t in trains}
    moves = {v.unit: v for v in state.verdicts if v.kind in ("land", "rail") and v.result in ("done", "stopped")}
    contact_stopped = {u for u, v in moves.items() if v.stop == "contact"}
    present: dict[str, set[str]] = {}  # hex -> factions there when movement ends
    holding: dict[str, set[str]] = {}  # ... but units that stopped there for a contact
    for u in state.units:
        if u.aboard is None:
            present.setdefault(u.hex, set()).add(u.faction)
            if u.id not in contact_stopped:
                holding.setdefault(u.hex, set()).add(u.faction)
    loaded = {str(t["id"]) for t in state.trains if any(u.carrier == t["id"] for u in state.units)}
    found = []
    crossings: dict[tuple[str, str], list[str]] = {}
    for piece, v in moves.items():
        hexes = [v.start or "", *(s.hex for s in v.steps)]
        for a, b in zip(hexes, hexes[1:], strict=False):
            crossings.setdefault((a, b), []).append(piece)
        if piece in state.unsettled:
            continue
        mine = faction[piece]
        for k, hex_id in enumerate(hexes[1:], 1):
            last = k == len(hexes) - 1
            kept_out = v.kind == "rail" or v.order.startswith("retreat")
            if last and not kept_out:
                continue
            if present.get(hex_id, set()) - {mine} and not (last and not holding.get(hex_id, set()) - {mine}):
                found.append(f"{piece} goes into {hex_id}, where its enemies are: {v.explanation}")
        if v.stop == "contact" and not present.get(v.end or "", set()) - {mine}:
            found.append(f"{piece} stops for nobody: {v.explanation}")
    for (a, b), pieces in crossings.items():
        for p in pieces:
            for q in crossings.get((b, a), []):
                both_trains = moves[p].kind == moves[q].kind == "rail"
                units_both = (p in loaded or moves[p].kind == "land") and (q in loaded or moves[q].kind == "land")
                if faction[p] != faction[q] and (both_trains or units_both) and not {p, q} & set(state.unsettled):
                    found.append(f"{p} and {q} cross {a}-{b} the opposite ways")
    return found


@settings(max_examples=80, deadline=None)
@given(drawn=turns(), data=st.data())
def test_contact_read_exactly_the_order_of_the_orders_never_changes_the_turn(drawn: Any, data: st.DataObject) -> None:
    """ "Movement is simultaneous": shuffling a log's orders, within each faction and across the
    factions, gives the same turn. And the turn keeps the rulings: no move goes through a hex
    where its enemies are when movement ends, no enemy moves cross one hexside the opposite
    ways, and nobody stops for an enemy who is not there; but for the moves the turn says it
    could not settle, which the umpire is told of."""
    units, trains, orders = drawn
    record = _played(units, trains, orders)
    shuffled = data.draw(st.permutations(orders))
    assert _outcome(_played(units, trains, list(shuffled))) == _outcome(record)
    assert _breaches(record, trains) == []
    assert bool(record.state.unsettled) == any("cannot settle" in n for n in record.state.umpire)


def test_contact_read_exactly_trains_following_one_another_are_left_to_the_umpire() -> None:
    """ "Where a stop makes a new end hex, apply the rule again until nothing changes": a Red
    train runs 0101-0301 behind a White one running 0201-0401. The White run passes 0301, where
    the Red one ends, so it stops before it, in 0201; then the Red run passes 0201 and stops in
    0101; then 0301 is empty, and the White run goes on: the rule never settles. The White run,
    which goes round and round, is let go of the Red one's end hex, and the umpire's notes say
    so, for him to rule otherwise."""
    units = [unit("r_inf", "reds", "0101"), unit("w_inf", "whites", "0201")]
    trains = [{"id": "r_train", "faction": "reds", "at": "0101"}, {"id": "w_train", "faction": "whites", "at": "0201"}]
    rail = {
        "reds": [{"train": "r_train", "carry": ["r_inf"], "path": ["0101", "0201", "0301"]}],
        "whites": [{"train": "w_train", "carry": ["w_inf"], "path": ["0201", "0301", "0401"]}],
    }
    record = turn(LINE, units, {}, rail=rail, trains=trains)
    assert [verdict(record, t).result for t in ("r_train", "w_train")] == ["done", "done"]
    assert where(record, "r_inf", "w_inf") == ["0301", "0401"]
    assert record.state.unsettled == ("w_train",)
    (note,) = [n for n in record.umpire if "cannot settle" in n]
    assert "the moves of w_train (" in note
