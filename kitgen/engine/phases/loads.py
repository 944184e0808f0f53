"""Boarding a train or ship (A.2) and weighing its load (C.1, D.3)."""

from __future__ import annotations

from kitgen.engine.state import UnitState, stand_totals
from kitgen.model.scenario import Scenario
from kitgen.rules.transport import Carrier, Load, load_points


def boarding(carry: list[str], start: str, units: dict[str, UnitState], halted: dict[str, str]) -> list[str]:
    """A.2: the units of a carry order that embark: in the start hex, not moved, not held by command, not aboard a ship already."""
    return [
        u
        for u in carry
        if u in units and u not in halted and units[u].hex == start and not units[u].moved and units[u].aboard is None
    ]


def weigh(s: Scenario, aboard: list[str], units: dict[str, UnitState], carrier: Carrier) -> Load:
    """C.1, D.3: the points the embarked units weigh, against the carrier's capacity."""
    return load_points(s.transport, stand_totals(units[u].stands for u in aboard), carrier)
