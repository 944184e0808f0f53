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


def on_map(scenario: Scenario) -> set[str]:
    """What the scenario's map has that a form may ask about: its terrain ids, 'coastal' where a
    hex touches the sea, and the river classes ('major', 'crossable') of its hexsides; all of
    them if the map cannot be built."""
    from kitgen.mapping.cache import hex_map

    built, _ = hex_map(scenario)
    if built is None:
        return {t.id for t in scenario.movement.terrain} | {"coastal", "major", "crossable"}
    found = {h.terrain for h in built.hexes} | ({"coastal"} if any(h.coastal for h in built.hexes) else set())
    return found | {x.river_class for x in built.hexsides if x.river_class in ("major", "crossable")}
