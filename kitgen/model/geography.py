"""The map's data: extent, projection, river classes, terrain areas, roads, supply sources, geo layers."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, field_validator, model_validator

from kitgen import messages as msg
from kitgen.model.base import Ident, Model, Positive, Text, invalid, name_key
from kitgen.model.board import BoardSpec, Override


def _lon_lat(value: Any) -> Any:
    if (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
        and -180 <= value[0] <= 180
        and -90 <= value[1] <= 90
    ):
        return (float(value[0]), float(value[1]))
    raise invalid(msg.value_lon_lat(repr(value)))


LonLat = Annotated[tuple[float, float], BeforeValidator(_lon_lat)]
Edge = Literal["north", "south", "east", "west"]


class Extent(Model):
    """A box of longitude and latitude; the map is the projected rectangle whose sides pass
    through the midpoints of its edges."""

    west: float = Field(ge=-180, le=180)
    east: float = Field(ge=-180, le=180)
    south: float = Field(ge=-85, le=85)
    north: float = Field(ge=-85, le=85)

    @model_validator(mode="after")
    def _ordered(self) -> Extent:
        if self.west >= self.east or self.south >= self.north:
            raise invalid(msg.value_extent(self.west, self.east, self.south, self.north))
        return self


class Projection(Model):
    standard_parallels: list[Annotated[float, Field(ge=-85, le=85)]] = Field(min_length=2, max_length=2)

    @field_validator("standard_parallels")
    @classmethod
    def _one_hemisphere(cls, value: list[float]) -> list[float]:
        a, b = value
        if a * b <= 0:
            raise invalid(msg.value_parallels(a, b))
        return value


class RiverClasses(Model):
    major: list[Text]
    crossable: list[Text]


class TerrainArea(Model):
    name: Text
    terrain: Ident
    outline: list[LonLat] = Field(min_length=3)


class MapPoint(Model):
    name: Text
    lon: float = Field(ge=-180, le=180)
    lat: float = Field(ge=-90, le=90)


class Bridge(Model):
    """A bridge over a major river on the stretch between two consecutive stations or places."""

    river: Text
    between: list[Text] = Field(min_length=2, max_length=2)


class Road(Model):
    name: Text
    through: list[Text] = Field(min_length=2)
    bridges: list[Bridge] = []
    """Where the road crosses a major river on a bridge (a ferry is not a bridge)."""


class FerryPoint(Model):
    """A.1: a ferry over a major river between two places (towns, points or hex ids) on either
    bank, and the units it takes across per turn ("will vary on location")."""

    river: Text
    between: list[Text] = Field(min_length=2, max_length=2)
    units: Positive


class SupplySource(Model):
    """One kind of supply source: rail exits by an edge, a town, ports with a ship, or captured depots."""

    rail_exits: Edge | None = None
    north_of: Text | None = None
    south_of: Text | None = None
    east_of: Text | None = None
    west_of: Text | None = None
    town: Text | None = None
    while_held: bool = False
    ports: Literal["with_friendly_ship"] | None = None
    depots: Literal["captured"] | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> SupplySource:
        kinds = [k for k in ("rail_exits", "town", "ports", "depots") if getattr(self, k) is not None]
        if len(kinds) != 1:
            found = ", ".join(kinds) or "none"
            raise invalid(msg.value_source_kind(found))
        if self.rail_exits is None and any(self.limits().values()):
            given = ", ".join(k for k, v in self.limits().items() if v)
            raise invalid(msg.value_source_limits(given))
        return self

    def limits(self) -> dict[str, str | None]:
        return {"north_of": self.north_of, "south_of": self.south_of, "east_of": self.east_of, "west_of": self.west_of}


class MapData(Model):
    """The map from geography (extent, projection, rivers, areas, roads, sources, geo layers),
    with `overrides` correcting single hexes of the built map; or, with `board`, hex by hex."""

    extent: Extent | None = None
    projection: Projection | None = None
    rivers: RiverClasses = RiverClasses(major=[], crossable=[])
    default_terrain: Ident = "open"
    terrain_areas: list[TerrainArea] = []
    points: list[MapPoint] = []
    roads: list[Road] = []
    ferries: list[FerryPoint] = []
    supply_sources: dict[str, list[SupplySource]] = {}
    board: BoardSpec | None = None
    """The map hex by hex (kitgen/mapping/handmade.py's format): the map is this alone."""
    overrides: list[Override] = []
    """Corrections to single hexes, hexsides and links, applied after the map is built."""

    @model_validator(mode="after")
    def _board_or_geography(self) -> MapData:
        if self.board is None:
            # an explicit null (`extent:` with nothing after it) is as missing as no key at all
            fields = ("extent", "projection", "rivers", "supply_sources")
            missing = [k for k in fields if k not in self.model_fields_set or getattr(self, k) is None]
            if missing:
                raise invalid(msg.value_map_geography(", ".join(missing)))
        return self

    def river_class(self, name: str) -> str | None:
        """'major' or 'crossable' (names matched as everywhere: case and spacing do not count)."""
        key = name_key(name)
        if any(name_key(n) == key for n in self.rivers.major):
            return "major"
        return "crossable" if any(name_key(n) == key for n in self.rivers.crossable) else None


class LineGeometry(Model):
    type: Literal["LineString"]
    coordinates: list[LonLat] = Field(min_length=2)


class PolygonGeometry(Model):
    type: Literal["Polygon"]
    coordinates: list[Annotated[list[LonLat], Field(min_length=4)]] = Field(min_length=1)


class MultiPolygonGeometry(Model):
    type: Literal["MultiPolygon"]
    coordinates: list[list[Annotated[list[LonLat], Field(min_length=4)]]] = Field(min_length=1)


Geometry = Annotated[LineGeometry | PolygonGeometry | MultiPolygonGeometry, Field(discriminator="type")]


class FeatureProperties(Model):
    name: Text


class Feature(Model):
    type: Literal["Feature"]
    properties: FeatureProperties
    geometry: Geometry


class FeatureCollection(Model):
    """A GeoJSON layer as tools/import_geography.py writes it: named features, [lon, lat] positions."""

    type: Literal["FeatureCollection"]
    kitgen_note: str | None = None
    features: list[Feature]
