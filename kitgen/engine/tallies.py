"""The war in figures: each faction's VP, units, stands, losses, towns, supply and command failures
after each turn, counted from the replayed states (`kitgen.engine.history`), for the chronicle's
charts and the history's tables."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from kitgen.engine.history import History


@dataclass(frozen=True)
class Tally:
    """One faction after one turn (turn 0: the set-up)."""

    turn: int
    faction: str
    vp: int
    units: int
    stands: int
    """Its units' stands, summed (on the map and aboard ship)."""
    lost: dict[str, int] = field(default_factory=dict)
    """II.B.3: stands lost for good in the turn's battles, by kind (the routed who deserted among them)."""
    towns: int = 0
    """Towns it holds."""
    out_of_supply: int = 0
    """B.2: its units judged out of supply at the turn's start."""
    command_failures: int = 0
    """II.C: its command rolls that failed in the turn."""


def tallies(history: History, factions: Sequence[str]) -> tuple[Tally, ...]:
    """Each faction's tally after each turn from the set-up on, turn by turn, in `factions`' order."""
    found = []
    for turn in range(history.last + 1):
        state = history.after(turn)
        for faction in factions:
            units = [u for u in state.units if u.faction == faction]
            lost: dict[str, int] = {}
            for r in state.battle_results if turn else ():
                if r.faction == faction:
                    for s in r.stands:
                        if s.permanent + s.deserted:
                            lost[s.kind] = lost.get(s.kind, 0) + s.permanent + s.deserted
            found.append(
                Tally(
                    turn=turn,
                    faction=faction,
                    vp=state.vp.get(faction, 0),
                    units=len(units),
                    stands=sum(n for u in units for n in u.stands.values()),
                    lost=dict(sorted(lost.items())),
                    towns=sum(1 for owner in state.owners.values() if owner == faction),
                    out_of_supply=sum(1 for t in state.supply if t.faction == faction and not t.in_supply)
                    if turn
                    else 0,
                    command_failures=sum(1 for c in state.commands if c.faction == faction and not c.obeyed)
                    if turn
                    else 0,
                )
            )
    return tuple(found)
