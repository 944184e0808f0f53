"""The files of a scenario folder and the model that checks each: read by the loader, and by the
cross-checks without the loader (which would be a cycle)."""

from __future__ import annotations

from pydantic import BaseModel

from kitgen.model import rules
from kitgen.model.forces import Cards, SetUp
from kitgen.model.geography import FeatureCollection, MapData
from kitgen.model.scenario import CommanderTable, RailNet, ScenarioMeta, TownTable

SCENARIO_FILES: dict[str, tuple[str, type[BaseModel]]] = {
    "scenario.yaml": ("meta", ScenarioMeta),
    "movement.yaml": ("movement", rules.MovementRules),
    "supply.yaml": ("supply", rules.SupplyRules),
    "transport.yaml": ("transport", rules.TransportRules),
    "victory.yaml": ("victory", rules.VictoryRules),
    "events.yaml": ("events", rules.EventRules),
    "battle.yaml": ("battle", rules.BattleRules),
    "command.yaml": ("command", rules.CommandRules),
    "partisans.yaml": ("partisans", rules.PartisanRules),
    "towns.yaml": ("towns", TownTable),
    "commanders.yaml": ("commanders", CommanderTable),
    "railways.yaml": ("railways", RailNet),
    "map.yaml": ("map", MapData),
    "setup.yaml": ("setup", SetUp),
    "cards.yaml": ("cards", Cards),
    "geo/coast.geojson": ("coast", FeatureCollection),
    "geo/rivers.geojson": ("river_courses", FeatureCollection),
}
"""Each file of a scenario folder, the Scenario field it fills and the model that checks it."""

GEO_FILES = ("geo/coast.geojson", "geo/rivers.geojson")
"""The geography layers: not needed when map.yaml gives the board hex by hex."""
