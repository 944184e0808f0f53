"""What a faction remembers (kitgen.engine.memory), case by case on a small hand-made board: each
turn's state set by hand, what the faction saw worked out by `faction_view`, and the memory folded
from them; then the same memory from the sample campaign's logs alone."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from kitgen.engine.intel import faction_view
from kitgen.engine.memory import Memory, memories
from kitgen.engine.setup import initial_state
from kitgen.engine.state import CampaignState
from tests.boards import campaign_on, unit

ROW = {"columns": 8, "rows": 1}
"""Eight open hexes in a row, 0101 to 0801."""
SAMPLE = Path(__file__).parent.parent / "data" / "sample-campaign"


def _at(state: CampaignState, turn: int, **hexes: str) -> CampaignState:
    """The state at the start of `turn` with the units named moved to their hexes."""
    units = tuple(replace(u, hex=hexes.get(u.id, u.hex)) for u in state.units)
    return replace(state, turn=turn - 1, units=units)


def _fold(
    campaign_units: list[dict[str, object]], moves: list[dict[str, str]], horizon: int = 3, **setup: object
) -> tuple[Memory, ...]:
    """The reds' memory at the start of each turn, the units moved as `moves` says turn by turn."""
    campaign = campaign_on(ROW, campaign_units, **setup)
    state = initial_state(campaign)
    seen = []
    for turn, where in enumerate(moves, start=1):
        state = _at(state, turn, **where)
        seen.append((state, faction_view(campaign.board, state, "reds")))
    return memories("reds", seen, horizon)


def test_a_sighting_is_remembered_where_and_as_it_was_seen() -> None:
    """An enemy seen next to the faction's units (a stack of about its size and arms) stays on its
    map as "last seen, turn N" at that hex and grade once the faction no longer sees the hex."""
    units = [unit("r_a", "reds", "0301"), unit("w_b", "whites", "0401", stands={"cavalry": 6})]
    found = _fold(units, [{}, {"r_a": "0101"}])
    assert found[0].sightings == (), "turn 1: it is seen now, nothing older"
    (r,) = found[1].sightings
    assert (r.hex, r.faction, r.turn, r.grade, r.size, r.arms) == ("0401", "whites", 1, "sized", "medium", ("cavalry",))
    assert r.units == (), "a stack seen from the next hex names no unit"


def test_a_sighting_ages_and_then_goes() -> None:
    """A sighting older than the scenario's `intel.memory_turns` is forgotten: with 3, one made at
    the start of turn 1 shows at turns 2, 3 and 4, and is gone at turn 5."""
    units = [unit("r_a", "reds", "0301"), unit("w_b", "whites", "0401")]
    found = _fold(units, [{}, {"r_a": "0101"}, {}, {}, {}], horizon=3)
    assert [[(r.hex, m.age(r.turn)) for r in m.sightings] for m in found] == [
        [],
        [("0401", 1)],
        [("0401", 2)],
        [("0401", 3)],
        [],
    ]


def test_seeing_the_hex_again_replaces_the_sighting() -> None:
    """Seeing the hex again puts what is seen now in its place: the old sighting is gone whether
    the enemy is still there (seen now, not remembered) or has left (nothing there)."""
    units = [unit("r_a", "reds", "0301"), unit("w_b", "whites", "0401")]
    found = _fold(units, [{}, {"r_a": "0101"}, {"r_a": "0301", "w_b": "0701"}])
    assert [r.hex for r in found[1].sightings] == ["0401"]
    assert found[2].sightings == (), "0401 is watched again and empty: the old sighting is dropped"
    stays = _fold(units, [{}, {"r_a": "0101"}, {"r_a": "0301"}])
    assert stays[2].sightings == (), "seen again where it was: shown as seen now, not as memory"


def test_a_sighting_is_replaced_by_a_newer_one_of_the_same_hex() -> None:
    """Two sightings of one hex and faction: the newer one stands, with its own turn and size."""
    units = [
        unit("r_a", "reds", "0301"),
        unit("w_b", "whites", "0401"),
        unit("w_c", "whites", "0801", stands={"infantry": 12}),
    ]
    found = _fold(units, [{}, {"r_a": "0101"}, {"r_a": "0301", "w_b": "0601", "w_c": "0401"}, {"r_a": "0101"}])
    (r,) = found[3].sightings
    assert (r.hex, r.turn, r.size) == ("0401", 3, "large")


def test_a_unit_seen_in_full_elsewhere_is_remembered_only_where_seen_last() -> None:
    """A unit seen in full (where the faction stands, or fought) and then seen in full in another
    hex is no longer remembered at the first: the faction knows it has moved."""
    units = [unit("r_a", "reds", "0301"), unit("r_b", "reds", "0801"), unit("w_b", "whites", "0301")]
    stayed = _fold(units, [{}, {"r_a": "0101"}, {"w_b": "0501"}])
    assert [(r.hex, r.grade, tuple(u.id for u in r.units)) for r in stayed[1].sightings] == [("0301", "full", ("w_b",))]
    assert [r.hex for r in stayed[2].sightings] == ["0301"], "not seen since: still remembered where it was"
    moved = _fold(units, [{}, {"r_a": "0101"}, {"w_b": "0801"}])
    assert moved[2].sightings == (), "w_b stands with r_b in 0801 now: 0301 is forgotten"


def test_towns_are_remembered_with_the_owner_they_were_seen_with() -> None:
    """A town the faction saw held by another is remembered with that owner until it sees the town
    again or the sighting grows too old; towns it holds it always knows, and does not remember.
    (What it sees of towns is `faction_view`'s `towns_known`, set here by hand.)"""
    campaign = campaign_on(ROW, [unit("r_a", "reds", "0301")], owners={"Kiev": "whites"})
    state = initial_state(campaign)
    view = faction_view(campaign.board, state, "reds")
    saw, unseen = replace(view, towns_known=frozenset({"Kiev"})), replace(view, towns_known=frozenset())
    turns = [(state, saw)] + [(_at(state, t), unseen) for t in range(2, 6)]
    assert [[(t.town, t.owner, t.turn) for t in m.towns] for m in memories("reds", turns, 3)] == [
        [],
        [("Kiev", "whites", 1)],
        [("Kiev", "whites", 1)],
        [("Kiev", "whites", 1)],
        [],
    ]
    again = memories("reds", [(state, saw), (_at(state, 2), unseen), (_at(state, 3), saw)], 3)
    assert again[2].towns == (), "seen again: known now, not remembered"
    own = replace(state, owners={**state.owners, "Kiev": "reds"})
    assert memories("reds", [(own, saw), (_at(own, 2), unseen)], 3)[1].towns == ()


def test_no_memory_with_a_horizon_of_0_and_none_of_allies() -> None:
    """`memory_turns: 0` forgets everything not seen now; an ally's units are never remembered."""
    units = [unit("r_a", "reds", "0301"), unit("w_b", "whites", "0401")]
    assert all(not m.sightings for m in _fold(units, [{}, {"r_a": "0101"}], horizon=0))
    allied = [unit("r_a", "reds", "0301"), unit("m_b", "makhnovists", "0401")]
    found = _fold(allied, [{}, {"r_a": "0101"}], alliances=[{"factions": ["reds", "makhnovists"], "turns": 3}])
    assert found[1].sightings == ()


def test_memory_is_derived_from_the_logs_alone(tmp_path: Path) -> None:
    """Memory is never kept by hand: the state written to JSON holds none, and a campaign folder
    made of the sample's campaign.yaml, set-up and turn logs alone gives back the same memories,
    and the same ones its packets show."""
    from kitgen.campaign import load_campaign
    from kitgen.engine.basis import turn_basis
    from kitgen.engine.history import course

    copy = tmp_path / "campaign"
    copy.mkdir()
    for name in ("campaign.yaml", "setup.yaml"):
        shutil.copy(SAMPLE / name, copy / name)
    shutil.copytree(SAMPLE / "turns", copy / "turns")
    a, b = load_campaign(SAMPLE), load_campaign(copy)
    ha, hb = course(a), course(b)
    assert "memory" not in str(ha.after(ha.last).to_json())
    remembered = 0
    for f in a.scenario.meta.factions:
        ma = ha.memories(a.board, f.id, a.scenario.meta.intel.memory_turns)
        assert ma == hb.memories(b.board, f.id, b.scenario.meta.intel.memory_turns)
        remembered += sum(len(m.sightings) for m in ma)
        basis = turn_basis(a, 4)
        assert basis.history is not None
        assert basis.history.memories(a.board, f.id, 3)[-1] == ma[3], (
            "the packets of turn 4 remember as the chronicle does"
        )
    assert remembered, "the sample remembers something: else this test checks nothing"
