"""What a faction can see (kitgen.engine.intel), case by case on small hand-made boards."""

from __future__ import annotations

from kitgen.engine.intel import believed, faction_view, fought_in
from kitgen.engine.reach import faction_reach
from kitgen.engine.setup import initial_state
from tests.boards import campaign_on, unit

ROW = {"columns": 5, "rows": 1}
"""Five open hexes in a row, 0101 to 0501."""


def test_enemies_graded_in_the_hex_beside_and_nothing_farther() -> None:
    """Kriegsspiel grading: an enemy next to the faction's units is seen as a stack of about its
    size and arms; one two hexes off is not seen at all."""
    campaign = campaign_on(
        ROW, [unit("r_a", "reds", "0101"), unit("w_b", "whites", "0201"), unit("w_c", "whites", "0401")]
    )
    view = faction_view(campaign.board, initial_state(campaign), "reds")
    assert [(s.hex, s.grade, s.units, s.size, s.arms) for s in view.sightings] == [
        ("0201", "sized", (), "medium", ("infantry",))
    ]


def test_enemies_where_the_faction_fought_are_seen_in_full() -> None:
    """An enemy in a hex where the faction fought last turn is shown in full, even when the
    faction's own units fell back from it."""
    campaign = campaign_on(ROW, [unit("r_a", "reds", "0101"), unit("w_b", "whites", "0201")])
    view = faction_view(campaign.board, initial_state(campaign), "reds", fought=frozenset({"0201"}))
    assert [(s.hex, s.grade, s.units) for s in view.sightings] == [("0201", "full", ("w_b",))]


def test_allies_beside_are_seen_in_full_and_are_no_enemy_for_reach() -> None:
    """RULES-NOTES: "every faction is the enemy of every other, unless the scenario or an event
    card makes two of them allies for a time": an ally's unit beside the faction's is shown in
    full, and its hex does not stop the faction's moves as an enemy's would (contact)."""
    units = [unit("r_a", "reds", "0101"), unit("m_b", "makhnovists", "0201")]
    campaign = campaign_on(ROW, units, alliances=[{"factions": ["reds", "makhnovists"], "turns": 3}])
    state = initial_state(campaign)
    view = faction_view(campaign.board, state, "reds")
    assert [(s.hex, s.grade, s.units, s.allied) for s in view.sightings] == [("0201", "full", ("m_b",), True)]
    assert view.enemy_hexes == frozenset()
    (reach,) = faction_reach(campaign, believed(state, view, ()), "reds")
    assert "0301" in reach.land, "the move goes on through the ally's hex"


def test_believed_keeps_what_the_faction_sees_and_the_set_up_track() -> None:
    """The state as the faction knows it: the enemies it cannot see taken away; wrecked track it
    cannot see as the set-up left it, the rest as it is."""
    units = [unit("r_a", "reds", "0101"), unit("w_b", "whites", "0201"), unit("w_c", "whites", "0501")]
    campaign = campaign_on(ROW, units)
    state = initial_state(campaign)
    from dataclasses import replace

    state = replace(state, wrecked_track=("0201", "0401"))
    view = faction_view(campaign.board, state, "reds")
    known = believed(state, view, public_wrecked=("0501",))
    assert sorted(u.id for u in known.units) == ["r_a", "w_b"]
    assert known.wrecked_track == ("0201", "0501")


def test_fought_in_reads_the_turns_battles() -> None:
    """The hexes a faction fought in are those of its units' battle results (II.B)."""
    from dataclasses import replace

    from kitgen.engine.state import BattleResult

    campaign = campaign_on(ROW, [unit("r_a", "reds", "0101")])
    result = BattleResult(0, "0201", "r_a", "reds", "loser", (), 0, 0, 0, "retreats", "0101")
    state = replace(initial_state(campaign), battle_results=(result,))
    assert fought_in(state, "reds") == frozenset({"0201"}) and fought_in(state, "whites") == frozenset()
