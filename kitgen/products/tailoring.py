"""What a scenario uses, so that its kit prints that and nothing else (issue 44): a scenario
with no ships and no ports on its map has no naval rules in its booklet or aids."""

from __future__ import annotations

from kitgen.model.scenario import Scenario


def uses_ships(scenario: Scenario) -> bool:
    """Whether the scenario uses the naval rules (A.3, D): it has ships, or ports on its map."""
    return bool(scenario.setup.ships) or "port" in on_map(scenario)


def on_map(scenario: Scenario) -> set[str]:
    """What the scenario's map has (`HexMap.features`); everything a map may have if it cannot
    be built."""
    from kitgen.mapping.cache import hex_map

    built, _ = hex_map(scenario)
    if built is None:
        return {t.id for t in scenario.movement.terrain} | {"coastal", "major", "crossable", "port"}
    return built.features()
