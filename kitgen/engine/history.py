"""A campaign's course from one replay of its logs: each turn's start (what its packets showed),
the state it left, and what each faction saw and remembered along the way."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kitgen.engine.intel import FactionView, faction_view, fought_in
from kitgen.engine.memory import Memory, memories
from kitgen.engine.state import CampaignState

if TYPE_CHECKING:
    from kitgen.campaign import Campaign
    from kitgen.mapping.board import Board


@dataclass(frozen=True)
class TurnPlayed:
    turn: int
    start: CampaignState
    """At the turn's start (phase 1 played: returning stands back, supply judged)."""
    after: CampaignState
    """What the turn left."""


@dataclass(frozen=True)
class History:
    setup: CampaignState
    turns: tuple[TurnPlayed, ...]
    next_start: CampaignState
    """The start of the turn after the last one played: what its packets show."""

    @property
    def last(self) -> int:
        return len(self.turns)

    def after(self, turn: int) -> CampaignState:
        """The state after `turn` (0: the set-up)."""
        return self.setup if turn == 0 else self.turns[turn - 1].after

    def start(self, turn: int) -> CampaignState:
        """The state at the start of `turn`, from 1 to the turn after the last played."""
        return self.next_start if turn == self.last + 1 else self.turns[turn - 1].start

    def views(self, board: Board, faction: str) -> tuple[FactionView, ...]:
        """What the faction saw at the start of each turn, from 1 to the turn after the last
        played: as its packet of that turn showed it (with the hexes it fought in the turn before)."""
        return tuple(
            faction_view(board, self.start(t), faction, fought=fought_in(self.after(t - 1), faction))
            for t in range(1, self.last + 2)
        )

    def memories(self, board: Board, faction: str, horizon: int) -> tuple[Memory, ...]:
        """What the faction remembered at the start of each turn, from 1 to the one after the last
        played, beside what it saw then (`views`): sightings up to `horizon` turns old."""
        views = self.views(board, faction)
        starts = [self.start(t) for t in range(1, self.last + 2)]
        return memories(faction, list(zip(starts, views, strict=True)), horizon)


def course(campaign: Campaign, upto: int | None = None) -> History:
    """The campaign's history to turn `upto` (default: the last log), from one replay."""
    from kitgen.engine.replay import played
    from kitgen.engine.setup import initial_state
    from kitgen.engine.turn import opening

    setup = initial_state(campaign)
    turns = []
    for _, record in played(campaign, upto):
        assert record.start is not None  # play_turn always keeps it
        turns.append(TurnPlayed(record.state.turn, record.start, record.state))
    last = turns[-1].after if turns else setup
    return History(setup, tuple(turns), opening(campaign, last))


def finished(campaign: Campaign) -> History:
    """The history of the turns played to the end: not the turn being played (a log as `kitgen
    next` wrote it, or one with battles still to report), which is no turn played yet."""
    from kitgen.engine.basis import turn_basis

    return course(campaign, turn_basis(campaign).turn - 1)
