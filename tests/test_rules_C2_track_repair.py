"""C.2 track repair, one case a clause, on a hand-made line of track (RULES-NOTES, with the ruling
of 2026-12-02): "Each RR repair or engineer unit repairs up to 2 destroyed hexes a turn, its own
hex and the next along the line, and ends in the last one. A repair unit standing on intact track
repairs the next wrecked hex along the line (and the one after it), moving onto them; its own hex
need not be wrecked." """

from __future__ import annotations

from dataclasses import replace

from kitgen.engine.setup import initial_state
from kitgen.engine.turn import TurnRecord
from tests.boards import campaign_on, log, play, unit

LINE = {"columns": 6, "rows": 1, "rail": [["0101", "0201", "0301", "0401", "0501", "0601"]]}
"""Six open hexes in a row, 0101 to 0601, one railway through them all."""


def repaired(at: str, wrecked: tuple[str, ...], repair: list[str]) -> TurnRecord:
    """A Red railway troop in `at` ordered to repair `repair`, the track wrecked in `wrecked`."""
    campaign = campaign_on(LINE, [unit("r_rr", "reds", at, type="rr_repair", stands={"rr_repair": 2})])
    state = replace(initial_state(campaign), wrecked_track=wrecked)
    dice = [{"purpose": "II.C r_rr command roll, turn 1", "value": 1}]
    return play(campaign, log(track={"reds": [{"unit": "r_rr", "repair": repair}]}, dice=dice), state=state)


def test_C2_from_intact_track_the_unit_repairs_the_next_wrecked_hexes_and_moves_onto_them() -> None:
    """Ruling 2026-12-02: on intact track in 0101, the next wrecked hex (0201) and the one after
    (0301) are repaired; the unit ends in 0301."""
    record = repaired("0101", ("0201", "0301"), ["0201", "0301"])
    (verdict,) = record.verdicts
    assert verdict.result == "done", verdict.explanation
    assert record.state.wrecked_track == ()
    moved = record.state.unit("r_rr")
    assert moved is not None and moved.hex == "0301"


def test_C2_its_own_hex_named_first_need_not_be_wrecked() -> None:
    """ "Its own hex need not be wrecked": the order may start in the unit's intact hex."""
    record = repaired("0101", ("0201",), ["0101", "0201"])
    assert [v.result for v in record.verdicts] == ["done"]
    assert record.state.wrecked_track == ()
    assert record.state.unit("r_rr").hex == "0201"  # type: ignore[union-attr]


def test_C2_on_wrecked_track_it_repairs_its_own_hex_and_the_next() -> None:
    """ "Its own hex and the next along the line, and ends in the last one"."""
    record = repaired("0201", ("0201", "0301", "0401"), ["0201", "0301"])
    assert [v.result for v in record.verdicts] == ["done"]
    assert record.state.wrecked_track == ("0401",)
    assert record.state.unit("r_rr").hex == "0301"  # type: ignore[union-attr]


def test_C2_no_more_than_two_wrecked_hexes_a_turn() -> None:
    """ "Up to 2 destroyed hexes a turn": its own wrecked hex and two more is three."""
    record = repaired("0201", ("0201", "0301", "0401"), ["0301", "0401"])
    (verdict,) = record.verdicts
    assert verdict.result == "void" and "at most 2 a turn" in verdict.explanation
    assert record.state.wrecked_track == ("0201", "0301", "0401")
    assert record.state.unit("r_rr").hex == "0201"  # type: ignore[union-attr]


def test_C2_the_repair_goes_along_the_line_and_skips_no_intact_track() -> None:
    """ "The next wrecked hex along the line": a hex that is not next along the line, or intact
    track between the unit and the wreck, voids the order (the unit may move up first)."""
    skipping = repaired("0101", ("0301",), ["0301"])
    (verdict,) = skipping.verdicts
    assert verdict.result == "void" and "not the next hex along the line from 0101" in verdict.explanation
    intact = repaired("0101", ("0301",), ["0201", "0301"])
    (verdict,) = intact.verdicts
    assert verdict.result == "void" and "not wrecked in 0201" in verdict.explanation
    assert intact.state.wrecked_track == ("0301",)
