"""Phase 5 (A-D): trains, ships and pontoons first, then land moves, breakdown rolls, fuel used
out of supply, and resupply from depots, each judged against the board."""

from __future__ import annotations

from kitgen.engine.context import Turn
from kitgen.engine.phases.land import breakdowns, move
from kitgen.engine.phases.logistics import resupply, used_fuel
from kitgen.engine.phases.pontoons import pontoon_work
from kitgen.engine.phases.rail import rail_moves
from kitgen.engine.phases.sea import sea_moves
from kitgen.engine.state import CampaignState


def run(turn: Turn, state: CampaignState) -> CampaignState:
    """Carriers move before land moves, so units they carry make none (A.2), and a pontoon laid
    this turn may be crossed this turn (A.1)."""
    c, board, log, source, held = turn.campaign, turn.board, turn.log, turn.source, state.held
    state = rail_moves(c, board, state, log, source, held)
    state = sea_moves(c, board, state, log, source, held)
    state = pontoon_work(c, board, state, log, source, held)
    state = move(c, board, state, log, source, held)
    state = breakdowns(c, state, log)
    state = used_fuel(c, state, set(state.started_out))
    return resupply(c, state, log, source, held)
