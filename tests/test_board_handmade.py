"""A board given hex by hex, with no geography: the engine plays a turn on it, and it answers
every question the rules ask of a map."""

from __future__ import annotations

from kitgen.mapping.board import Board
from tests.boards import campaign_on, log, play, unit

STRIP = {
    "columns": 4,
    "rows": 3,
    "terrain": "open",
    "hexes": {"0301": {"terrain": "forest"}, "0401": {"terrain": "sea"}, "0202": {"towns": ["Kharkov"]}},
    "sides": [{"hexes": ["0202", "0302"], "river": "Donets", "class": "major"}],
    "rail": [["0101", "0202", "0203"]],
    "ferries": [{"hexes": ["0302", "0402"], "units": 2}],
    "sources": [{"faction": "reds", "hex": "0101", "kind": "rail_exit", "edge": "west"}],
}


def test_a_board_given_hex_by_hex_answers_the_rules_questions() -> None:
    board = Board.from_spec(STRIP)
    assert board.terrain["0301"] == "forest" and board.is_sea("0401") and board.terrain["0102"] == "open"
    assert board.towns == {"0202": ("Kharkov",)}
    assert board.rail_link("0101", "0202") and board.rail_link("0202", "0203") and not board.rail_link("0101", "0102")
    side = board.side("0202", "0302")
    assert side is not None and side.river_class == "major" and not side.bridge
    assert board.ferry("0402", "0302") == 2 and board.ferry("0202", "0302") == 0
    assert board.coastal == {"0301", "0302", "0402"}  # the land hexes beside the sea hex 0401
    assert board.edges("0101") == {"north", "west"} and board.edges("0403") == {"south", "east"}
    assert [(s.faction, s.hex) for s in board.sources] == [("reds", "0101")]
    assert board.places["kharkov"] == "0202" and board.places["0403"] == "0403"  # names and hex ids


def test_a_turn_is_played_on_a_hand_made_board_with_no_geography() -> None:
    campaign = campaign_on(STRIP, [unit("r_rifles", "reds", "0102")])
    record = play(
        campaign,
        log(
            orders={"reds": [{"unit": "r_rifles", "move": ["0102", "0202"]}]},
            dice=[{"purpose": "II.C r_rifles command roll, turn 1", "value": 1}],
        ),
    )
    moved = record.state.unit("r_rifles")
    assert moved is not None and moved.hex == "0202"
    assert [v.result for v in record.verdicts] == ["done"]
    assert record.state.owners["Kharkov"] == "reds"  # entered alone: the town passes (RULES-NOTES)
    assert moved.in_supply is True and moved.supply_path[-1] == "0101"  # judged from the rail exit


LINE = {
    "columns": 9,
    "rows": 1,
    "rail": [["0101", "0201"]],
    "sources": [{"faction": "reds", "hex": "0101", "kind": "rail_exit", "edge": "west"}],
}


def test_B3_supply_out_of_reach_names_the_nearest_railhead_and_its_distance() -> None:
    """B.3: "trace supply 5 hexes to a RR line". A unit 7 hexes from the railhead at 0201 is out:
    too far, and the state says where the nearest railhead is and how far."""
    campaign = campaign_on(LINE, [unit("r_far", "reds", "0901"), unit("r_near", "reds", "0601")])
    record = play(campaign, log())
    far, near = (next(t for t in record.state.supply if t.unit == u) for u in ("r_far", "r_near"))
    assert (far.in_supply, far.why_out, far.nearest_railhead, far.distance) == (False, "too_far", "0201", 7)
    assert near.in_supply and near.overland == ("0601", "0501", "0401", "0301", "0201") and near.overland_hexes == 4
    assert near.rail == ("0201", "0101") and near.source == "0101"


def test_B3_supply_blocked_by_enemy_names_the_hexes_in_the_way() -> None:
    """B.3: the trace runs "through hexes free of enemy units" (RULES-NOTES): a White unit on
    the only way from 0401 to the railhead cuts the Red unit off."""
    campaign = campaign_on(LINE, [unit("r_cut", "reds", "0401"), unit("w_block", "whites", "0301")])
    record = play(campaign, log())
    cut = next(t for t in record.state.supply if t.unit == "r_cut")
    assert (cut.in_supply, cut.why_out, cut.blocked_by, cut.nearest_railhead) == (False, "blocked", ("0301",), "0201")
