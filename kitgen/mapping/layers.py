"""The scenario's geography projected to map kilometres: land, terrain areas, rivers, railways, roads.

The grid builder and the map drawing both read these, so the printed map shows exactly the
shapes the hexes were classified from.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
import shapely.geometry
from shapely.geometry.base import BaseGeometry

from kitgen.mapping.projection import MapProjection
from kitgen.model.geography import Feature
from kitgen.model.scenario import Scenario, name_key

Points = npt.NDArray[np.float64]
WET_TERRAIN = "marsh"
"""The terrain whose areas count over water as well as on land (lagoons, deltas)."""


def union(geometries: list[BaseGeometry]) -> BaseGeometry:
    result: Any = shapely.union_all(np.array(geometries, dtype=object))
    return result  # type: ignore[no-any-return]


def feature_geometry(feature: Feature) -> BaseGeometry:
    geometry = shapely.geometry.shape(feature.geometry.model_dump())
    return geometry if feature.geometry.type == "LineString" else shapely.make_valid(geometry)


class Layers:
    def __init__(self, scenario: Scenario, proj: MapProjection) -> None:
        self.s = scenario
        self.proj = proj

    def project(self, geometry: BaseGeometry) -> BaseGeometry:
        """The geometry in the map's points, made valid again: a ring valid in degrees may cross
        itself once projected (a vertex far off the map), and GEOS refuses to work on it."""
        projected = shapely.transform(geometry, lambda xy: self.proj.forward(np.asarray(xy, dtype=float)))
        if isinstance(projected, shapely.LineString | shapely.MultiLineString) or projected.is_valid:
            return projected
        return shapely.make_valid(projected)

    @cached_property
    def places(self) -> dict[str, tuple[float, float]]:
        """(lon, lat) of every town (by any of its names), railway point and map point."""
        found: dict[str, tuple[float, float]] = {}
        for t in self.s.towns:
            for n in t.names():
                found[name_key(n)] = (t.lon, t.lat)
        points = [(p.name, p.lon, p.lat) for p in self.s.railways.points]
        points += [(p.name, p.lon, p.lat) for p in self.s.map.points]
        for name, lon, lat in points:
            found.setdefault(name_key(name), (lon, lat))
        return found

    def route(self, names: list[str]) -> Points:
        """A railway or road through named places, in km."""
        return self.proj.forward(np.array([self.places[name_key(n)] for n in names]))

    @cached_property
    def rail_lines(self) -> list[Points]:
        return [self.route(line.stations) for line in self.s.railways.lines]

    @cached_property
    def road_lines(self) -> list[Points]:
        return [self.route(road.through) for road in self.s.map.roads]

    @cached_property
    def land(self) -> BaseGeometry:
        """Land as the coastline layer gives it."""
        return self.project(union([feature_geometry(f) for f in self.s.coast.features]))

    @cached_property
    def areas(self) -> list[tuple[str, BaseGeometry]]:
        """Each terrain area's outline, in file order."""
        return [
            (a.terrain, shapely.make_valid(self.project(shapely.Polygon([*a.outline, a.outline[0]]))))
            for a in self.s.map.terrain_areas
        ]

    @cached_property
    def wet_land(self) -> BaseGeometry:
        """Land plus the areas of wet terrain, which count as land even where the coastline has water."""
        return union([self.land, *[area for terrain, area in self.areas if terrain == WET_TERRAIN]])

    def terrain(self) -> dict[str, BaseGeometry]:
        """Each terrain's visible area: later areas lie over earlier ones; dry terrain only on land."""
        layers: dict[str, list[BaseGeometry]] = {}
        for i, (terrain, area) in enumerate(self.areas):
            visible = shapely.difference(area, union([a for _, a in self.areas[i + 1 :]]))
            if terrain != WET_TERRAIN:
                visible = shapely.intersection(visible, self.land)
            layers.setdefault(terrain, []).append(visible)
        return {t: union(parts) for t, parts in layers.items()}

    @cached_property
    def rivers(self) -> list[tuple[str, str, BaseGeometry]]:
        """(name, class, course in km) of every river; a river in no class counts as crossable."""
        return [
            (
                f.properties.name,
                self.s.map.river_class(f.properties.name) or "crossable",
                self.project(feature_geometry(f)),
            )
            for f in self.s.river_courses.features
        ]
