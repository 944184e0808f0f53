"""Phase 5 (A-D): trains, ships and pontoons first, then land moves, every train run and land
move settled together (the simultaneous step), then breakdown rolls, fuel used out of supply,
and resupply from depots, each judged against the board."""

from __future__ import annotations

from dataclasses import replace

from kitgen.engine.context import Turn
from kitgen.engine.phases.land import breakdowns, finish_land, plan_land
from kitgen.engine.phases.logistics import resupply, used_fuel
from kitgen.engine.phases.pontoons import pontoon_work
from kitgen.engine.phases.postbattle import present
from kitgen.engine.phases.rail import finish_rail, plan_rail
from kitgen.engine.phases.sea import sea_moves
from kitgen.engine.phases.simultaneous import Mover, settle
from kitgen.engine.state import CampaignState


def run(turn: Turn, state: CampaignState) -> CampaignState:
    """Trains take their loads aboard and ships sail before land moves are judged, so units
    they carry make none (A.2), and a pontoon laid this turn may be crossed this turn (A.1).
    Movement is simultaneous (RULES-NOTES, 2026-12-05): where enemies stop trains and land
    moves is settled for all of them at once, against where every unit is when movement ends."""
    c, board, log, source, held = turn.campaign, turn.board, turn.log, turn.source, state.held
    began = state
    trains, state = plan_rail(c, board, state, log, source, held)
    before = len(state.verdicts)
    state = sea_moves(c, board, state, log, source, held)
    state = pontoon_work(c, board, state, log, source, held)
    lands = plan_land(c, board, state, log, source, held, began)
    movers = [*trains.movers, *lands.movers]
    settled = settle(movers, standing(state, movers), lambda a, b: state.allied(a, b, state.turn))
    state, by_rail = finish_rail(state, trains, source)
    state, by_land = finish_land(state, lands, source)
    verdicts = (*state.verdicts[:before], *by_rail, *state.verdicts[before:], *by_land)
    across = tuple(sorted(set(state.across) | settled.met))
    notes = (*state.umpire, *([unsettled_note(settled.unsettled)] if settled.unsettled else []))
    state = replace(state, verdicts=verdicts, across=across, unsettled=settled.unsettled, umpire=notes)
    state = breakdowns(c, state, log)
    state = used_fuel(c, state, set(state.started_out))
    return resupply(c, state, log, source, held)


def unsettled_note(pieces: tuple[str, ...]) -> str:
    """The umpire's note of moves the ruling could not settle."""
    return (
        f"A, Contact read exactly: the ruling cannot settle the moves of {', '.join(pieces)} (a stop for an "
        "enemy's end hex undoes another's, round and round): no end hex of another move stops them; units "
        "that do not move and moves met on a hexside still do. The umpire may rule otherwise"
    )


def standing(state: CampaignState, movers: list[Mover]) -> dict[str, set[str]]:
    """The factions whose units do not move, by hex: no order, held, refused, put ashore from a
    ship; not units aboard a ship, nor partisans who evaded (D.1, II.D.1)."""
    return present(state, {u for m in movers for u in m.riders})
