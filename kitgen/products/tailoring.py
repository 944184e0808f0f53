"""What a scenario uses, so that its kit prints that and nothing else (issue 44): a scenario
with no ships and no ports on its map has no naval rules in its booklet or aids."""

from __future__ import annotations

from kitgen.model.scenario import Scenario


def uses_ships(scenario: Scenario) -> bool:
    """Whether the scenario uses the naval rules (A.3, D): it has ships, or ports on its map."""
    from kitgen.mapping.cache import hex_map

    if scenario.setup.ships:
        return True
    built, _ = hex_map(scenario)
    return built is None or any(h.port for h in built.hexes)
