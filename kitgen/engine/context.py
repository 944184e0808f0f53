"""What every phase of a turn is given: the campaign, its board, the turn's log and where the
log's orders stand in their file, and the look-ups several phases share."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from kitgen import messages as msg
from kitgen.campaign import Campaign
from kitgen.engine.state import CampaignState
from kitgen.engine.turnlog import TurnLog
from kitgen.errors import KitgenError, Problem
from kitgen.mapping.board import Board
from kitgen.validation import dotted
from kitgen.yamlsource import Loc


class LogSource(Protocol):
    """Where the values of a turn log stand: a YAML file read, or nowhere (a log built in code)."""

    @property
    def name(self) -> str: ...

    def position(self, loc: Loc, *, key: bool = False) -> tuple[int, int]: ...

    def problem(self, loc: Loc, message: msg.Msg, *, key: bool = False) -> Problem: ...


@dataclass(frozen=True)
class Unplaced:
    """The source of a turn log built in code: its values have no lines (line and column 0)."""

    name: str = "turn log"
    path: Path = Path("turn log")

    def position(self, loc: Loc, *, key: bool = False) -> tuple[int, int]:
        return (0, 0)

    def problem(self, loc: Loc, message: msg.Msg, *, key: bool = False) -> Problem:
        return Problem(self.name, 0, 0, message.text, message.code)


@dataclass(frozen=True)
class Turn:
    """One turn being played: phases read what they need from here and never from a file."""

    campaign: Campaign
    board: Board
    log: TurnLog
    source: LogSource

    def fail(self, loc: Loc, message: msg.Msg, *, key: bool = False) -> KitgenError:
        """The error of a log value that cannot be played, at its line, its key path named."""
        return KitgenError([self.source.problem(loc, message.within(dotted(loc)), key=key)])


def enemies(state: CampaignState, faction: str, turn: int) -> set[str]:
    """Hexes holding units of the faction's enemies; partisans who evaded there count as absent
    (II.D.1: "for purposes of VPs and supply the nonpartisan unit is assumed to be there only"),
    and so do units aboard ships (D.1)."""
    hostile = {f for f in {u.faction for u in state.units} if not state.allied(f, faction, turn)}
    return {
        u.hex
        for u in state.units
        if u.faction in hostile and (u.hex, u.faction) not in state.evaded and u.aboard is None
    }


def active(state: CampaignState, kind: str, faction: str, unit_type: str | None = None) -> list[int]:
    """Modifiers of lasting card effects that apply now (to that unit type, if the card names types)."""
    return [
        m
        for k, f, m, last, types in state.modifiers
        if k == kind and f in (faction, "all") and state.turn <= last and (not types or unit_type in types.split(","))
    ]


def modifier(state: CampaignState, kind: str, faction: str, unit_type: str | None = None) -> int:
    return sum(active(state, kind, faction, unit_type))
