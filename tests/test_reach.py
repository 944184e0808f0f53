"""Rule cases for the reach (kitgen/engine/reach.py): where a unit can get to this turn by land
(A, A.1, RULES-NOTES) and by train (C.1), each on a small board, and the reach's agreement
with the turn engine on the sample campaign."""

from __future__ import annotations

import statistics
import time
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kitgen.campaign import Campaign, load_campaign
from kitgen.engine.reach import faction_reach, land_paths, land_reach, rail_paths, rail_reach, reach
from kitgen.engine.replay import played
from kitgen.engine.setup import initial_state
from kitgen.engine.state import CampaignState, UnitState, Verdict
from kitgen.engine.turn import play_turn
from kitgen.errors import UsageError
from tests.boards import campaign_on, log, unit

ROW = {"columns": 5, "rows": 1, "terrain": "open"}
"""Five hexes west to east, 0101 to 0501: on one row each touches only the next."""


def row(**board: Any) -> dict[str, Any]:
    return {**ROW, **board}


def land(board: dict[str, Any], *units: dict[str, Any], mover: str = "u") -> dict[str, int]:
    campaign = campaign_on(board, list(units))
    return land_reach(campaign, initial_state(campaign), mover)


# --- A: the table, hex by hex ----------------------------------------------------------------

TERRAIN_ROW = row(hexes={"0201": {"terrain": "forest"}, "0401": {"terrain": "mountain"}})
"""open, forest, open, mountain, open."""


def test_A_table_infantry_pays_1_for_forest() -> None:
    """A: 'Infantry 2 1 1 2 2 +1': 2 MP, forest 1, mountain 2."""
    assert land(TERRAIN_ROW, unit("u", "reds", "0101")) == {"0101": 0, "0201": 1, "0301": 2}


def test_A_table_cavalry_pays_2_for_forest() -> None:
    """A: 'Cavalry 4 1 2 4 4 +1': 4 MP, forest 2, mountain 4."""
    assert land(TERRAIN_ROW, unit("u", "reds", "0101", "cavalry")) == {"0101": 0, "0201": 2, "0301": 3}


def test_A_table_artillery_pays_3_for_forest() -> None:
    """A: 'Artillery 3 1 3 p* p* +1': 3 MP, forest 3."""
    assert land(TERRAIN_ROW, unit("u", "reds", "0101", "artillery")) == {"0101": 0, "0201": 3}


def test_A_table_marsh_costs_cavalry_4_and_tanks_3() -> None:
    """A: 'Cavalry 4 1 2 4 4' and 'Tanks 3 1 p* p* 3': marsh 4 and 3, each a whole move."""
    marsh = row(hexes={"0201": {"terrain": "marsh"}})
    assert land(marsh, unit("u", "reds", "0101", "cavalry")) == {"0101": 0, "0201": 4}
    assert land(marsh, unit("u", "reds", "0101", "tank", stands={"tank": 2})) == {"0101": 0, "0201": 3}


def test_II_D3_tachankas_reach_as_cavalry() -> None:
    """II.D.3: 'Partisan tatchankas follow same movement rules as cavalry for strategic map movement.'"""
    tachanka = unit("u", "makhnovists", "0101", "tachanka", stands={"tachanka": 2})
    assert land(TERRAIN_ROW, tachanka) == land(TERRAIN_ROW, unit("u", "reds", "0101", "cavalry"))


# --- p*: prohibited unless along a road or rail line -----------------------------------------

FOREST_ROW = row(hexes={"0201": {"terrain": "forest"}})


def test_A_p_star_forest_bars_armoured_cars_off_the_road() -> None:
    """A: 'Armored Cars 6 1 p* p* p* p*' and 'p* = Prohibited unless road/RR track runs thorough hex.'"""
    assert land(FOREST_ROW, unit("u", "whites", "0101", "armoured_car", stands={"armoured_car": 2})) == {"0101": 0}


@pytest.mark.parametrize("line", ["roads", "rail"])
def test_A_p_star_forest_is_entered_along_a_road_or_rail_line_for_1(line: str) -> None:
    """RULES-NOTES: 'entering a p* hex along a road or rail line costs 1 MP (the Open cost).'"""
    board = {**FOREST_ROW, line: [["0101", "0201", "0301"]]}
    cars = unit("u", "whites", "0101", "armoured_car", stands={"armoured_car": 2})
    assert land(board, cars) == {"0101": 0, "0201": 1, "0301": 2, "0401": 3, "0501": 4}


def test_A_p_star_a_road_that_only_passes_by_does_not_open_the_hex() -> None:
    """RULES-NOTES: a p* terrain 'may be entered only along a road or rail line through the hex':
    a road 0201-0301 is no way into 0201 from 0101."""
    board = {**FOREST_ROW, "roads": [["0201", "0301"]]}
    cars = unit("u", "whites", "0101", "armoured_car", stands={"armoured_car": 2})
    assert land(board, cars) == {"0101": 0}


# --- rivers ------------------------------------------------------------------------------------


def side(kind: str, **more: Any) -> dict[str, Any]:
    return {"hexes": ["0101", "0201"], "river": "Donets", "class": kind, **more}


def test_A_crossable_river_adds_1() -> None:
    """A: 'Crossable River +1' (RULES-NOTES: '+1 for a crossable-river hexside')."""
    assert land(row(sides=[side("crossable")]), unit("u", "reds", "0101")) == {"0101": 0, "0201": 2}
    assert land(ROW, unit("u", "reds", "0101")) == {"0101": 0, "0201": 1, "0301": 2}


def test_A1_a_bridge_cancels_the_crossable_river_cost() -> None:
    """RULES-NOTES: 'A bridge cancels the river cost: no +1 for a crossable river'."""
    bridged = row(sides=[side("crossable", bridge=True)])
    assert land(bridged, unit("u", "reds", "0101")) == {"0101": 0, "0201": 1, "0301": 2}


def test_A_armoured_cars_cross_a_crossable_river_only_at_a_bridge() -> None:
    """A: 'Armored Cars ... Crossable River p*'."""
    cars = unit("u", "whites", "0101", "armoured_car", stands={"armoured_car": 2})
    assert land(row(sides=[side("crossable")]), cars) == {"0101": 0}
    assert len(land(row(sides=[side("crossable", bridge=True)]), cars)) == 5


def test_A1_major_river_only_at_a_bridge() -> None:
    """A.1: 'Major river hexsides must be crossed at bridge points on map or with pontoons/ferries.'
    (RULES-NOTES: 'a major river may be crossed there at no extra cost'.)"""
    cavalry = unit("u", "reds", "0101", "cavalry")
    assert land(row(sides=[side("major")]), cavalry) == {"0101": 0}
    assert land(row(sides=[side("major", bridge=True)]), cavalry) == {
        "0101": 0,
        "0201": 1,
        "0301": 2,
        "0401": 3,
        "0501": 4,
    }


def test_A1_a_ferry_crossing_takes_the_whole_move_and_ends_it_across() -> None:
    """A.1: 'Takes full movement just to emplace pontoons and cross or complete crossing by
    ferries.' (RULES-NOTES: 'spends its whole movement and ends in the hex across'.)"""
    board = row(sides=[side("major")], ferries=[{"hexes": ["0101", "0201"], "units": 1}])
    campaign = campaign_on(board, [unit("u", "reds", "0101", "cavalry")])
    found = reach(campaign, initial_state(campaign), "u")
    assert found.land == {"0101": 0, "0201": 4} and found.ferry == {"0201"}
    assert land_paths(campaign, initial_state(campaign), "u")["0201"] == ("0101", "0201")
    assert any("ferry 0101-0201 takes 1 unit a turn" in note for note in found.notes)


def test_A1_a_pontoon_of_the_faction_is_crossed_by_the_whole_move_and_an_enemy_one_not_at_all() -> None:
    """A.1: a pontoon takes the whole move, like a ferry; it is the faction's (or its allies') own."""
    campaign = campaign_on(row(sides=[side("major")]), [unit("u", "reds", "0101", "artillery")])
    bridge = {"unit": "p", "hexes": ["0101", "0201"]}
    ours = replace(initial_state(campaign), pontoons=({"faction": "reds", **bridge},))
    theirs = replace(initial_state(campaign), pontoons=({"faction": "whites", **bridge},))
    assert land_reach(campaign, ours, "u") == {"0101": 0, "0201": 3}
    assert reach(campaign, ours, "u").ferry == {"0201"}
    assert land_reach(campaign, theirs, "u") == {"0101": 0}


def test_A1_a_whole_move_crossing_needs_the_whole_allowance() -> None:
    """A.1 'Takes full movement': a unit whose MP a card has cut below its row's cannot cross by ferry."""
    board = row(sides=[side("major")], ferries=[{"hexes": ["0101", "0201"], "units": 1}])
    campaign = campaign_on(board, [unit("u", "reds", "0101", "cavalry")])
    slowed = replace(initial_state(campaign), modifiers=(("movement", "reds", -1, 1, ""),))
    assert land_reach(campaign, slowed, "u") == {"0101": 0}


# --- how far a move goes -----------------------------------------------------------------------


def test_A_no_minimum_move() -> None:
    """RULES-NOTES: 'No minimum move: a unit whose next hex costs more than it has left stops.'
    Mountain across a crossable river costs infantry 3 of its 2 MP: it stays."""
    board = row(hexes={"0201": {"terrain": "mountain"}}, sides=[side("crossable")])
    assert land(board, unit("u", "reds", "0101")) == {"0101": 0}


def test_A_contact_stops_the_reach_in_the_enemy_hex() -> None:
    """RULES-NOTES, Contact: 'a unit whose path enters a hex holding enemy units stops there ...
    the rest of its path is dropped'. The hex is reached; nothing beyond it."""
    cavalry = unit("u", "reds", "0101", "cavalry")
    assert land(ROW, cavalry, unit("w", "whites", "0201")) == {"0101": 0, "0201": 1}
    assert land(ROW, cavalry, unit("w", "whites", "0401")) == {"0101": 0, "0201": 1, "0301": 2, "0401": 3}


def test_A_contact_a_unit_in_touch_moves_out_of_its_own_hex() -> None:
    """RULES-NOTES, Contact: the hex a move starts in is no hex it enters."""
    assert land(ROW, unit("u", "reds", "0201"), unit("w", "whites", "0201")) == {
        "0101": 1,
        "0201": 0,
        "0301": 1,
        "0401": 2,
    }


def test_A_contact_only_the_enemy_the_faction_knows_of() -> None:
    """RULES-NOTES, Contact: 'Players write orders without knowing where the enemy is': a reach
    for a faction's own map reckons with the enemy hexes it is given, and only those."""
    campaign = campaign_on(LINE, [unit("u", "reds", "0101", "cavalry"), unit("w", "whites", "0201")])
    state = replace(initial_state(campaign), trains=({"id": "t", "faction": "reds", "hex": "0101"},))
    (blind,) = faction_reach(campaign, state, "reds", enemy=())
    (seen,) = faction_reach(campaign, state, "reds")
    assert sorted(blind.land) == ["0101", "0201", "0301", "0401", "0501"] and len(blind.rail) == 13
    assert seen.land == {"0101": 0, "0201": 1} and seen.rail == {"0101": 0}
    assert any("enemy units in 0201" in note for note in seen.notes)
    assert not any("enemy" in note for note in blind.notes)


def test_II_A_a_card_movement_modifier_changes_the_allowance() -> None:
    """II.A: a lasting movement card changes the MP of the units it names while it lasts."""
    campaign = campaign_on(ROW, [unit("u", "reds", "0101", "cavalry")])
    slowed = replace(initial_state(campaign), modifiers=(("movement", "reds", -2, 1, ""),))
    assert reach(campaign, slowed, "u").allowance == 2 and land_reach(campaign, slowed, "u") == {
        "0101": 0,
        "0201": 1,
        "0301": 2,
    }
    spent = replace(slowed, modifiers=(("movement", "reds", -2, 0, ""),))  # it lasted to turn 0
    assert reach(campaign, spent, "u").allowance == 4


def test_B8_a_vehicle_out_of_supply_after_its_one_move_is_immobilised() -> None:
    """B.8: 'If they start turn OUT OF SUPPLY they only get 1 turn of strategic map movement then
    immobilized.' No source on this board: the armoured cars, having moved once out of supply, stay."""
    campaign = campaign_on(ROW, [unit("u", "whites", "0101", "armoured_car", stands={"armoured_car": 2})])
    state = initial_state(campaign)
    cars = state.unit("u")
    assert cars is not None
    fresh = land_reach(campaign, state, "u")
    used = replace(state, units=(replace(cars, moves_out_of_supply=1),))
    assert len(fresh) == 5 and land_reach(campaign, used, "u") == {"0101": 0}
    assert reach(campaign, used, "u").allowance == 0


def test_B8_an_immobilised_vehicle_back_in_supply_moves_again() -> None:
    """B.8 with B.2: supply is judged at the start of each turn, and a unit in supply has fuel."""
    source = {"faction": "whites", "hex": "0101", "kind": "rail_exit", "edge": "west"}
    board = row(rail=[["0101", "0201"]], sources=[source])
    campaign = campaign_on(board, [unit("u", "whites", "0101", "armoured_car", stands={"armoured_car": 2})])
    state = initial_state(campaign)
    cars = state.unit("u")
    assert cars is not None
    stuck = replace(state, units=(replace(cars, immobilised=True, moves_out_of_supply=1),))
    assert len(land_reach(campaign, stuck, "u")) == 5


def test_D1_a_unit_aboard_ship_has_no_land_reach() -> None:
    """D.1 (RULES-NOTES, Ships): units aboard go ashore by a sea order, not by a land move."""
    campaign = campaign_on(ROW, [unit("u", "reds", "0101")])
    state = initial_state(campaign)
    rifles = state.unit("u")
    assert rifles is not None
    aboard = replace(state, units=(replace(rifles, aboard="ship"),))
    found = reach(campaign, aboard, "u")
    assert found.land == {"0101": 0} and found.allowance == 0 and found.rail == {}


# --- C.1: by train ----------------------------------------------------------------------------

LINE = {"columns": 15, "rows": 1, "terrain": "open", "rail": [[f"{c:02d}01" for c in range(1, 16)]]}
"""Fifteen hexes on one railway, 0101 to 1501."""


def by_train(*units: dict[str, Any], faction: str = "reds", **state: Any) -> dict[str, int]:
    campaign = campaign_on(LINE, list(units))
    train = {"id": "t", "faction": faction, "hex": "0101"}
    return rail_reach(campaign, replace(initial_state(campaign), trains=(train,), **state), "u")


def test_C1_a_train_runs_12_hexes_along_the_track() -> None:
    """A: 'RR Trains 12 must be on RR track'; C.1: 'Trains can carry troops and supplies.'"""
    assert by_train(unit("u", "reds", "0101")) == {f"{c:02d}01": c - 1 for c in range(1, 14)}


def test_C2_wrecked_track_stops_the_train() -> None:
    """C.2: 'If the rail line is cut ... then it must be repaired' (B.3); a train enters no wrecked hex."""
    assert by_train(unit("u", "reds", "0101"), wrecked_track=("0401",)) == {"0101": 0, "0201": 1, "0301": 2}


def test_C1_enemy_units_block_the_line() -> None:
    """C.1 (the rail phase): a train runs along track free of enemy units."""
    assert by_train(unit("u", "reds", "0101"), unit("w", "whites", "0301")) == {"0101": 0, "0201": 1}


def test_C1_a_load_over_12_points_does_not_board() -> None:
    """C.1: 'Each train can carry 12 points ... each pontoon unit = 5 pts each': three are 15."""
    assert by_train(unit("u", "reds", "0101", "pontoon", stands={"pontoon": 3})) == {}


def test_C1_only_a_train_of_the_units_own_faction_carries_it() -> None:
    """C.1 with the log's rules: a faction's rail orders move its own trains and units."""
    assert by_train(unit("u", "reds", "0101"), faction="whites") == {}


def test_A2_no_train_in_the_hex_no_rail_reach() -> None:
    """A.2: units embark where the train stands."""
    campaign = campaign_on(LINE, [unit("u", "reds", "0201")])
    train = {"id": "t", "faction": "reds", "hex": "0101"}
    assert rail_reach(campaign, replace(initial_state(campaign), trains=(train,)), "u") == {}


def test_an_unknown_unit_or_faction_is_a_usage_error() -> None:
    campaign = campaign_on(ROW, [unit("u", "reds", "0101")])
    with pytest.raises(UsageError, match="no unit on the map"):
        land_reach(campaign, initial_state(campaign), "nobody")
    with pytest.raises(UsageError):
        faction_reach(campaign, initial_state(campaign), "martians")


# --- agreement with the engine on the sample campaign ----------------------------------------

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample-campaign"


@cache
def sample() -> tuple[Campaign, tuple[CampaignState, ...]]:
    """The sample campaign and its state after each turn (the set-up first)."""
    campaign = load_campaign(SAMPLE)
    return campaign, (initial_state(campaign), *(record.state for _, record in played(campaign)))


def judged(campaign: Campaign, state: CampaignState, unit_id: str, tables: dict[str, Any]) -> Verdict:
    """The verdict on the one order of `tables` for the unit, played as the next turn with no
    event card and, if it needs one, a command roll that obeys."""
    turn = state.turn + 1
    no_event = {"purpose": f"II.A event roll, turn {turn}", "value": 1}
    record = play_turn(campaign, state, log(turn, dice=[no_event], **tables))
    failed = [c for c in record.state.commands if unit_id in c.units and not c.obeyed]
    if failed:
        key = failed[0].commander or unit_id
        obeys = {"purpose": f"II.C {key} command roll, turn {turn}", "value": 1}
        record = play_turn(campaign, state, log(turn, dice=[no_event, obeys], **tables))
    kind = "rail" if "rail" in tables else "land"
    return next(v for v in record.verdicts if v.kind == kind)


def near_the_enemy(campaign: Campaign, state: CampaignState) -> list[UnitState]:
    """Units within 3 hexes of an enemy unit: where contact shapes the reach."""
    grid = campaign.board.grid
    at = {u.id: grid.parse_id(u.hex) for u in state.units}
    return [
        u
        for u in state.units
        if any(
            (a := at[u.id]) is not None and (b := at[v.id]) is not None and grid.distance(a, b) <= 3
            for v in state.units
            if not state.allied(u.faction, v.faction, state.turn + 1)
        )
    ]


AGREEMENT = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@AGREEMENT
@given(st.data())
def test_land_reach_agrees_with_the_land_phase(data: st.DataObject) -> None:
    """A move along the reach's cheapest path to one of its hexes is judged done there for the
    MP the reach says; a move one hex beyond the reach is not done in that hex."""
    campaign, states = sample()
    state = data.draw(st.sampled_from(states))
    near = near_the_enemy(campaign, state)
    mover = data.draw(st.sampled_from(near if near and data.draw(st.booleans()) else state.units))
    found, paths = land_reach(campaign, state, mover.id), land_paths(campaign, state, mover.id)
    order = {"unit": mover.id}
    targets = sorted(h for h in found if h != mover.hex)
    if targets:
        target = data.draw(st.sampled_from(targets))
        verdict = judged(
            campaign, state, mover.id, {"orders": {mover.faction: [{**order, "move": list(paths[target])}]}}
        )
        assert (verdict.result, verdict.end, verdict.spent) == ("done", target, found[target]), verdict.explanation
    board = campaign.board
    beyond = sorted({(n, h) for h in found for n in board.neighbours(h) if n not in found and not board.is_sea(n)})
    if beyond:
        outside, via = data.draw(st.sampled_from(beyond))
        move = [*paths[via], outside]
        verdict = judged(campaign, state, mover.id, {"orders": {mover.faction: [{**order, "move": move}]}})
        assert not (verdict.result == "done" and verdict.end == outside), verdict.explanation


def carried() -> list[tuple[int, str, str]]:
    """(state, unit, train) of every unit of the sample campaign at a station with a train of its own."""
    campaign, states = sample()
    return [
        (k, u.id, t["id"])
        for k, state in enumerate(states)
        for u in state.units
        for t in state.trains
        if t["hex"] == u.hex and t["faction"] == u.faction and len(rail_reach(campaign, state, u.id)) > 1
    ]


@AGREEMENT
@given(st.data())
def test_rail_reach_agrees_with_the_rail_phase(data: st.DataObject) -> None:
    """A rail order along the reach's run to one of its hexes is judged done there, the unit
    carried, for the hexes the reach says; a run one hex of track beyond it stops short of that
    hex (RULES-NOTES, ruling of 2026-12-02)."""
    campaign, states = sample()
    k, unit_id, train = data.draw(st.sampled_from(carried()))
    state = states[k]
    rider = state.unit(unit_id)
    assert rider is not None
    found, paths = rail_reach(campaign, state, unit_id), rail_paths(campaign, state, unit_id)
    order = {"train": train, "carry": [unit_id]}
    target = data.draw(st.sampled_from(sorted(h for h in found if h != rider.hex)))
    verdict = judged(campaign, state, unit_id, {"rail": {rider.faction: [{**order, "path": list(paths[target])}]}})
    assert (verdict.result, verdict.end, verdict.spent) == ("done", target, found[target]), verdict.explanation
    assert unit_id not in verdict.left_behind
    board = campaign.board
    beyond = sorted({(n, h) for h in found for n in board.rail_neighbours(h) if n not in found})
    if beyond:
        outside, via = data.draw(st.sampled_from(beyond))
        path = [*paths[via], outside]
        verdict = judged(campaign, state, unit_id, {"rail": {rider.faction: [{**order, "path": path}]}})
        assert verdict.result in ("stopped", "void") and verdict.end != outside, verdict.explanation


def test_faction_reach_is_each_units_reach_and_quick() -> None:
    """The biggest faction's reach after the sample's last turn: unit by unit as `reach` finds
    it, in well under 50 ms (the median of several runs, board tables built once)."""
    campaign, states = sample()
    state = states[-1]
    counts = {f: sum(u.faction == f for u in state.units) for f in {u.faction for u in state.units}}
    biggest = max(sorted(counts), key=lambda f: counts[f])
    found = faction_reach(campaign, state, biggest)
    assert found == [reach(campaign, state, u.id) for u in state.units if u.faction == biggest]
    times = []
    for _ in range(7):
        start = time.perf_counter()
        faction_reach(campaign, state, biggest)
        times.append(time.perf_counter() - start)
    assert statistics.median(times) < 0.05
