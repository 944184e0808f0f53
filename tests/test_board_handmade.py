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
