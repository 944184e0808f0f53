"""The turn engine never crashes: whatever orders a log gives, replaying it either yields a state
or stops with file:line:column problems (KitgenError), and the same log gives the same state.
Hypothesis writes two turns of random but well-formed orders for the bundled scenario's units."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kitgen.campaign import load_campaign, new_campaign
from kitgen.engine.replay import replay
from kitgen.engine.setup import initial_state
from kitgen.errors import KitgenError
from kitgen.mapping.board import Board


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[tuple[str, str, str]], Board]:
    """A campaign folder, its units as (faction, id, hex), and the board."""
    folder = tmp_path_factory.mktemp("fuzz") / "c"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KITGEN_CACHE", str(tmp_path_factory.mktemp("cache")))
        new_campaign(folder, "denikin-1919", 7)
        campaign = load_campaign(folder)
    units = [(u.faction, u.id, u.hex) for u in initial_state(campaign).units]
    return folder, units, Board.from_map(campaign.hex_map)


@st.composite
def turn_orders(draw: st.DrawFn, units: list[tuple[str, str, str]], board: Board) -> dict[str, object]:
    """One turn's log: land moves along random walks, resupply, pontoon and track orders, and
    a battle or two between whatever units the walk brings together (or not)."""
    orders: dict[str, list[dict[str, object]]] = {}
    picked = draw(st.lists(st.sampled_from(units), max_size=8, unique=True))
    for faction, unit_id, start in picked:
        path = [start]
        for _ in range(draw(st.integers(1, 4))):
            path.append(draw(st.sampled_from(list(board.neighbours(path[-1])) or [path[-1]])))
        orders.setdefault(faction, []).append({"unit": unit_id, "move": path})
    log: dict[str, object] = {"orders": orders}
    others = draw(st.lists(st.sampled_from(units), max_size=3, unique=True))
    log["resupply"] = {f: [{"unit": u}] for f, u, _ in others[:1]}
    log["track"] = {f: [{"unit": u, "wreck": h}] for f, u, h in others[1:2]}
    log["pontoons"] = {f: [{"unit": u, "pick_up": True}] for f, u, _ in others[2:3]}
    if draw(st.booleans()) and len(picked) >= 2:
        (fa, a, ha), (fb, b, _) = picked[:2]
        log["battles"] = [
            {
                "hex": ha,
                "winner": fa,
                "units": [{"unit": a, "lost": {"infantry": 1}}, {"unit": b, "surrender": True}],
            }
        ]
    log["dice"] = [{"purpose": "II.A event roll, turn 1", "value": draw(st.integers(1, 6))}]
    return log


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_replay_never_crashes_and_is_repeatable(
    world: tuple[Path, list[tuple[str, str, str]], Board], data: st.DataObject, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, units, board = world
    monkeypatch.setenv("KITGEN_CACHE", str(folder.parent.parent / "cache"))
    log = data.draw(turn_orders(units, board))
    for old in (folder / "turns").glob("*.yaml"):
        old.unlink()
    (folder / "turns" / "turn-01.yaml").write_text(yaml.safe_dump({"turn": 1, **log}), encoding="utf-8")
    (folder / "turns" / "turn-02.yaml").write_text("turn: 2\n", encoding="utf-8")
    try:
        first = replay(load_campaign(folder))
    except KitgenError as error:  # a malformed or impossible report: said with its place
        assert error.problems and all(p.line >= 1 and p.column >= 1 for p in error.problems)
        return
    assert first.turn == 2
    assert replay(load_campaign(folder)).to_json() == first.to_json()
