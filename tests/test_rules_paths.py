"""A.1 land moves and B.3 supply traces over the board, case by case on small hand-made maps.

Each map is a 5 x 5 grid of 30 km hexes (ids 0101-0505), open unless a test says otherwise;
rivers, bridges, rail and roads are laid by hand, so each case shows one clause."""

from __future__ import annotations

import pytest

from kitgen.mapping.board import Board
from kitgen.mapping.hexgrid import HexGrid
from kitgen.mapping.hexmap import SEA, Hexside
from kitgen.model.scenario import Scenario
from kitgen.rules.paths import land_path, supply_trace

GRID = HexGrid(30.0, 5, 5, 0.0, 0.0)


def board(
    terrain: dict[str, str] | None = None,
    *,
    rivers: dict[tuple[str, str], str] | None = None,
    bridges: tuple[tuple[str, str], ...] = (),
    sea_sides: tuple[tuple[str, str], ...] = (),
    rail: tuple[str, ...] = (),
    roads: tuple[str, ...] = (),
) -> Board:
    """A hand-made board: `rail` and `roads` are paths of hex ids, linked in order."""
    hexes = {GRID.hex_id(c, r): "open" for c, r in GRID.cells()}
    hexes.update(terrain or {})
    sides: dict[frozenset[str], Hexside] = {}
    for (a, b), river_class in (rivers or {}).items():
        assert GRID.direction(GRID.parse_id(a), GRID.parse_id(b)) is not None, (a, b)  # type: ignore[arg-type]
        sides[frozenset((a, b))] = Hexside((a, b), "", "River", river_class, (a, b) in bridges)
    for a, b in sea_sides:
        sides[frozenset((a, b))] = Hexside((a, b), "", None, None, False, sea=True)

    def links(path: tuple[str, ...]) -> frozenset[frozenset[str]]:
        return frozenset(frozenset(pair) for pair in zip(path, path[1:], strict=False))

    return Board(GRID, hexes, sides, links(rail), links(roads))


# --- A. Map movement ------------------------------------------------------------------


def test_A_infantry_pays_1_per_open_hex(scenario: Scenario) -> None:
    """A table: "Infantry 2 [MP] Open 1": two open hexes use up an infantry unit's move."""
    verdict = land_path(board(), scenario.movement, "infantry", ["0101", "0102", "0103"])
    assert verdict.complete and verdict.spent == 2 and verdict.mp == 2


def test_A_a_path_beyond_the_units_MP_stops_when_its_MP_are_spent(scenario: Scenario) -> None:
    """A table: infantry have 2 MP. RULES-NOTES (ruling of 2026-12-02): "a unit moves along its
    ordered path hex by hex and stops in the last hex it can pay for and may enter; the rest of
    the path is dropped" (`stopped`, MP spent)."""
    verdict = land_path(board(), scenario.movement, "infantry", ["0101", "0102", "0103", "0104"])
    assert verdict.allowed and not verdict.complete
    assert (verdict.stop, verdict.end, verdict.spent, verdict.blocked_at) == ("mp", "0103", 2, "0104")
    assert [s.hex for s in verdict.steps] == ["0102", "0103"]
    assert verdict.explain() == (
        "costs 2 MP (open 1, open 1) to 0103, then stops before 0104 "
        "(1 MP more, and it has 0 of its 2 left), the rest dropped, A.1"
    )


def test_A_cavalry_pays_2_for_forest(scenario: Scenario) -> None:
    """A table: "Cavalry 4 [MP] ... Forest 2"."""
    b = board({"0102": "forest", "0103": "forest"})
    verdict = land_path(b, scenario.movement, "cavalry", ["0101", "0102", "0103"])
    assert verdict.complete and verdict.spent == 4


def test_A1_crossable_river_adds_1(scenario: Scenario) -> None:
    """A table: "Crossable River +1" (RULES-NOTES: "+1 for a crossable-river hexside")."""
    b = board({"0103": "forest"}, rivers={("0102", "0103"): "crossable"})
    verdict = land_path(b, scenario.movement, "cavalry", ["0101", "0102", "0103"])
    assert verdict.complete and verdict.spent == 1 + 2 + 1
    assert verdict.explain() == "costs 4 MP (open 1, forest 2 +1 crossable river)"


def test_A1_major_river_only_at_a_bridge(scenario: Scenario) -> None:
    """A.1: "Major river hexsides must be crossed at bridge points on map or with pontoons/ferries."""
    b = board(rivers={("0102", "0103"): "major"})
    verdict = land_path(b, scenario.movement, "infantry", ["0101", "0102", "0103"])
    assert verdict.rule == "A.1" and (verdict.stop, verdict.end, verdict.blocked_at) == ("river", "0102", "0103")
    bridged = board(rivers={("0102", "0103"): "major"}, bridges=(("0102", "0103"),))
    assert land_path(bridged, scenario.movement, "infantry", ["0102", "0103"]).spent == 1


def test_A1_pontoon_crossing_takes_the_whole_move(scenario: Scenario) -> None:
    """A.1: "Takes full movement just to emplace pontoons and cross" (RULES-NOTES: the unit
    spends its whole movement and ends in the hex across)."""
    b = board(rivers={("0102", "0103"): "major"})
    pontoon = {frozenset(("0102", "0103"))}
    across = land_path(b, scenario.movement, "cavalry", ["0102", "0103"], pontoons=pontoon)
    assert across.complete and across.spent == 4
    on_and_on = land_path(b, scenario.movement, "cavalry", ["0101", "0102", "0103"], pontoons=pontoon)
    assert (on_and_on.stop, on_and_on.end, on_and_on.rule) == ("mp", "0102", "A.1")  # it has moved: no crossing
    beyond = land_path(b, scenario.movement, "cavalry", ["0102", "0103", "0104"], pontoons=pontoon)
    assert (beyond.stop, beyond.end, beyond.spent) == ("mp", "0103", 4)  # across, and no farther
    into_the_enemy = land_path(
        b, scenario.movement, "cavalry", ["0102", "0103", "0104"], pontoons=pontoon, enemy={"0103"}
    )
    assert (into_the_enemy.stop, into_the_enemy.end) == ("contact", "0103")  # contact: it ends across, as it must


def test_A_p_star_artillery_enters_marsh_only_along_a_road(scenario: Scenario) -> None:
    """A table: artillery "Marsh p*" - "p* = Prohibited unless road/RR track runs thorough hex"
    (RULES-NOTES: along a road or rail line it costs the Open cost, 1)."""
    plain = board({"0102": "marsh"})
    stopped = land_path(plain, scenario.movement, "artillery", ["0101", "0102"])
    assert (stopped.stop, stopped.end, stopped.steps) == ("terrain", "0101", ())  # its first hex is beyond it
    road = board({"0102": "marsh"}, roads=("0101", "0102"))
    verdict = land_path(road, scenario.movement, "artillery", ["0101", "0102"])
    assert verdict.complete and verdict.spent == 1


def test_A_trains_move_only_on_track(scenario: Scenario) -> None:
    """A table: "RR Trains 12 must be on RR track"."""
    b = board(rail=("0101", "0102", "0103"))
    assert land_path(b, scenario.movement, "rr_train", ["0101", "0102", "0103"]).complete
    off = land_path(b, scenario.movement, "rr_train", ["0102", "0103", "0104"])
    assert (off.stop, off.end) == ("track", "0103")


def test_A_steps_must_join_adjacent_hexes_of_the_map(scenario: Scenario) -> None:
    """A path is hex to adjacent hex; a hex off the map or a jump is void."""
    assert "not adjacent" in (land_path(board(), scenario.movement, "cavalry", ["0101", "0103"]).reason or "")
    assert "not a hex" in (land_path(board(), scenario.movement, "cavalry", ["0105", "0106"]).reason or "")


def test_A3_land_units_do_not_walk_into_the_sea(scenario: Scenario) -> None:
    """A.3: landings are made from ships; a land move never enters a sea hex, nor crosses open
    water between two shores (a sea hexside)."""
    into_the_sea = land_path(board({"0102": SEA}), scenario.movement, "infantry", ["0101", "0102"])
    assert (into_the_sea.stop, into_the_sea.end) == ("sea", "0101")
    strait = board(sea_sides=(("0101", "0102"),))
    assert land_path(strait, scenario.movement, "infantry", ["0101", "0102"]).stop == "sea"


# --- B. Supply -----------------------------------------------------------------------

RAIL = ("0501", "0502", "0503", "0504", "0505")
"""A railway down column 5, from a supply source in 0501."""


def test_B3_supply_trace_reaches_a_rail_line_linked_to_a_source() -> None:
    """B.3: "units must be able to trace a clear line of non-enemy occupied hexes no more than 5
    hexes long from a rail line which itself links back to a supply source of that particular side"."""
    path = supply_trace(board(rail=RAIL), "0105", {"0501"}, trace_hexes=5)
    assert path is not None and path[0] == "0105" and path[-1] == "0501"
    assert any(h in RAIL for h in path[1:])


def test_B3_supply_trace_blocked_by_enemy() -> None:
    """B.3: "a clear line of non-enemy occupied hexes": enemies across every way cut the trace."""
    wall = {"0201", "0202", "0203", "0204", "0205"}
    assert supply_trace(board(rail=RAIL), "0103", {"0501"}, enemy=wall, trace_hexes=5) is None


def test_B3_no_more_than_5_hexes_from_the_rail_line() -> None:
    """B.3: "no more than 5 hexes long" (RULES-NOTES: the unit's own hex is 0). Four hexes from
    the track is in supply with a trace of 5, not with a trace of 3."""
    b = board(rail=RAIL)
    assert supply_trace(b, "0103", {"0501"}, trace_hexes=5) is not None
    assert supply_trace(b, "0103", {"0501"}, trace_hexes=3) is None


def test_B3_rail_cut_by_enemy_must_be_repaired() -> None:
    """B.3: "If the rail line is cut by enemy units then it must be repaired in order to resume
    functioning as a supply line": an enemy on the track between railhead and source cuts it."""
    b = board(rail=RAIL)
    assert supply_trace(b, "0405", {"0501"}, enemy={"0502"}, trace_hexes=1) is None
    assert supply_trace(b, "0405", {"0501"}, wrecked={"0503"}, trace_hexes=1) is None
    assert supply_trace(b, "0405", {"0501"}, trace_hexes=1) is not None


def test_B4_rail_lines_can_be_unlimited_in_length() -> None:
    """B.4: "While non-RR hexes cannot extend past 5 hexes, rail lines can be unlimited in length."""
    path = supply_trace(board(rail=RAIL), "0505", {"0501"}, trace_hexes=0)
    assert path == ("0505", "0504", "0503", "0502", "0501")


@pytest.mark.parametrize("bridged", [False, True])
def test_B3_trace_not_across_an_unbridged_major_river(bridged: bool) -> None:
    """RULES-NOTES: the trace runs "not across sea or an unbridged major-river hexside"."""
    # a major river all along the boundary between columns 4 and 5, the railway beyond it
    east_bank = {"0401": ("0501", "0502"), "0402": ("0502", "0503"), "0403": ("0503", "0504"), "0404": ("0504", "0505")}
    river = {(west, east): "major" for west, easts in east_bank.items() for east in easts}
    river[("0405", "0505")] = "major"
    b = board(rivers=river, rail=RAIL, bridges=(("0403", "0503"),) if bridged else ())
    assert (supply_trace(b, "0203", {"0501"}, trace_hexes=5) is not None) is bridged


def test_A_a_move_ends_where_it_meets_the_enemy(scenario: Scenario) -> None:
    """Ruling stop_at_enemy; RULES-NOTES, Contact: "a unit whose path enters a hex holding enemy
    units stops there ...; the rest of its path is dropped and the order counts as carried out as
    far as it went." Cavalry (4 MP) may enter the enemy's hex, not pass it."""
    into = land_path(board(), scenario.movement, "cavalry", ["0101", "0102"], enemy={"0102"})
    through = land_path(board(), scenario.movement, "cavalry", ["0101", "0102", "0103"], enemy={"0102"})
    assert into.complete and into.end == "0102"
    assert (through.stop, through.end, through.blocked_at) == ("contact", "0102", "0103")
    assert through.explain() == (
        "costs 1 MP (open 1) to 0102, where enemy units are when movement ends: stopped there (contact), "
        "the rest dropped, A"
    )
    beyond = land_path(board(), scenario.movement, "infantry", ["0101", "0102", "0103", "0104"], enemy={"0102"})
    assert (beyond.stop, beyond.end) == ("contact", "0102")  # the rest, beyond its 2 MP, is dropped unjudged
    blocked = land_path(board(), scenario.movement, "cavalry", ["0101", "0303", "0102"], enemy={"0102"})
    assert blocked.malformed and blocked.end == "0101"  # a malformed path is void whatever comes after
