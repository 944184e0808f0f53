"""B.2-B.4 as the turn engine judges them from whole-board fields (kitgen/rules/supplyfield.py):
every unit's verdict and path, turn by turn of the sample campaign, is the trace of that unit
alone (kitgen/rules/paths.py), its own hex not counted as enemy-held."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from kitgen.campaign import Campaign, load_campaign
from kitgen.engine.context import enemies
from kitgen.engine.phases.pontoons import friendly_pontoons
from kitgen.engine.phases.supply import judge_supply, supply_sources
from kitgen.engine.replay import replay
from kitgen.mapping.board import Board
from kitgen.rules.paths import rail_tree, supply_trace
from kitgen.scenariofolders import data_dir

SAMPLE = data_dir() / "sample-campaign"


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Campaign]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KITGEN_CACHE", str(tmp_path_factory.mktemp("map-cache")))
        yield load_campaign(SAMPLE)


@pytest.mark.parametrize("turn", range(7))
def test_B3_every_units_supply_is_its_own_trace(campaign: Campaign, turn: int) -> None:
    """B.2: "Units are judged to be in or out of supply at the start of each turn"; RULES-NOTES
    on B.3: "from the unit's hex, at most 5 hexes (the unit's own hex is 0) through hexes free of
    enemy units ... to a hex with rail track that connects over intact, enemy-free track to one
    of the faction's supply sources." The state after each turn of the sample, judged again."""
    board = Board.from_map(campaign.hex_map)
    state = replay(campaign, turn)
    judged = judge_supply(campaign, board, state)
    trace = campaign.scenario.supply.trace_hexes
    wrecked = set(state.wrecked_track)
    assert not any(m[0] == "supply_cut" for m in state.modifiers)  # no card cuts supply in the sample
    for unit in judged.units:
        sources = supply_sources(campaign, board, state, unit.faction)
        own = enemies(state, unit.faction, state.turn) - {unit.hex}
        path = supply_trace(
            board,
            unit.hex,
            sources,
            enemy=own,
            wrecked=wrecked,
            trace_hexes=trace,
            railway=rail_tree(board, sources, own, wrecked),
            crossings=friendly_pontoons(state, unit.faction),
        )
        assert unit.in_supply is (path is not None), unit.id
        assert unit.supply_path == (path or ()), unit.id
