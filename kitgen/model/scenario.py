"""The scenario: its factions, towns, commanders and every rule table, as one validated value."""

from __future__ import annotations

from functools import cached_property
from typing import Annotated

from pydantic import Field

from kitgen import messages as msg
from kitgen.errors import UsageError
from kitgen.model.base import VP, Colour, Ident, Model, PathName, Positive, Prose, Text
from kitgen.model.base import name_key as name_key  # where every module has found it
from kitgen.model.forces import Cards, SetUp
from kitgen.model.geography import Bridge, FeatureCollection, MapData
from kitgen.model.rules import (
    BattleRules,
    CommandRules,
    EventRules,
    MovementRules,
    PartisanRules,
    SupplyRules,
    TransportRules,
    VictoryRules,
)


class Faction(Model):
    id: Ident
    name: Text
    adjective: Text
    colour: Colour
    scores_vp: bool


class MapSettings(Model):
    hex_size_km: float = Field(default=30.0, gt=0)


class TurnSettings(Model):
    """Time (RULES-NOTES, 2026-12-02): the days a strategic turn stands for, printed on the turn
    track, and the scenario's last turn, after which the campaign is over unless the club plays on."""

    days: int = Field(ge=1, le=366)
    last: Positive | None
    """None: no last turn, the campaign goes on as long as the club plays it."""


class IntelSettings(Model):
    """What a faction remembers of the enemy (the designer's decision: the rules are silent): a
    sighting stays on its map, marked with the turn it was made, for this many turns after it;
    0 forgets everything not seen now."""

    memory_turns: int = Field(default=3, ge=0, le=99)


class ScenarioMeta(Model):
    id: PathName
    title: Text
    subtitle: Text
    source: Prose
    map: MapSettings
    turns: TurnSettings
    intel: IntelSettings = IntelSettings()
    factions: list[Faction] = Field(min_length=2)


Latitude = Annotated[float, Field(ge=-90, le=90)]
Longitude = Annotated[float, Field(ge=-180, le=180)]


class Town(Model):
    """A row of the seed's VP table at its true position. `vp[f]` is None where the seed prints '-'."""

    name: Text
    seed_name: Text | None = None
    name_1919: Text | None = None
    """The town's name in 1919, where the rules use a later one: the map prints both."""
    aliases: list[Text] = []
    lat: Latitude
    lon: Longitude
    port: bool = False
    vp: dict[str, VP]

    def names(self) -> list[str]:
        spelt = [self.seed_name, self.name_1919]
        return [self.name] + [n for n in spelt if n] + list(self.aliases)

    @property
    def shown_name(self) -> str:
        """The name the map prints first: the 1919 one."""
        return self.name_1919 or self.name


class TownTable(Model):
    towns: list[Town] = Field(min_length=1)


class Commander(Model):
    """A row of the seed's commander table (II.C)."""

    name: Text
    seed_name: Text | None = None
    faction: Ident
    dependability: int = Field(ge=1, le=10)
    charismatic: bool = False
    added: Text | None = None
    """Not in the seed's table: who he was, why the scenario adds him ('the 10th Army's commander
    in June 1919'). His rating is the designer's estimate; the booklet, his card and the look-ups
    say so."""

    def names(self) -> list[str]:
        return [self.name] + ([self.seed_name] if self.seed_name else [])


class Place(Model):
    """A named point that is not a town of the VP table: a junction or station."""

    name: Text
    lat: Latitude
    lon: Longitude


class RailLine(Model):
    name: Text
    opened: int | None = Field(default=None, ge=1830, le=1919)
    stations: list[Text] = Field(min_length=2)
    bridges: list[Bridge] = []


class RailNet(Model):
    """The 1919 railway net as lines through named towns and points."""

    points: list[Place]
    lines: list[RailLine] = Field(min_length=1)


class CommanderTable(Model):
    commanders: list[Commander] = Field(min_length=1)


class Scenario(Model):
    """Everything the engine and the printed kit read about one scenario."""

    meta: ScenarioMeta
    movement: MovementRules
    supply: SupplyRules
    transport: TransportRules
    victory: VictoryRules
    events: EventRules
    battle: BattleRules
    command: CommandRules
    partisans: PartisanRules
    towns: list[Town]
    commanders: list[Commander]
    railways: RailNet
    map: MapData
    setup: SetUp
    cards: Cards
    coast: FeatureCollection = FeatureCollection(type="FeatureCollection", features=[])
    """Empty for a map given hex by hex (map.yaml's board)."""
    river_courses: FeatureCollection = FeatureCollection(type="FeatureCollection", features=[])

    def faction(self, faction_id: str) -> Faction | None:
        return next((f for f in self.meta.factions if f.id == faction_id), None)

    def faction_name(self, faction_id: str) -> str:
        """Display name of a faction of this (validated) scenario."""
        faction = self.faction(faction_id)
        if faction is None:
            raise UsageError(msg.lookup_unknown_faction(faction_id, [f.id for f in self.meta.factions]))
        return faction.name

    @cached_property
    def _towns_by_key(self) -> dict[str, Town]:
        return {name_key(n): t for t in reversed(self.towns) for n in t.names()}

    @cached_property
    def _commanders_by_key(self) -> dict[str, Commander]:
        return {name_key(n): c for c in reversed(self.commanders) for n in c.names()}

    def find_town(self, name: str) -> Town | None:
        """The town of any of its names (the first in towns.yaml if two share one)."""
        return self._towns_by_key.get(name_key(name))

    def shown_place(self, place: str) -> str:
        """A place as the map prints it: a town by its 1919 name, anything else as written."""
        town = self.find_town(place)
        return town.shown_name if town is not None else place

    def find_commander(self, name: str) -> Commander | None:
        return self._commanders_by_key.get(name_key(name))

    def rank(self, commander: Commander) -> int:
        """II.C.3 rank within his faction: 1 is highest, by the order of the seed's table."""
        same = [c for c in self.commanders if c.faction == commander.faction]
        return same.index(commander) + 1
