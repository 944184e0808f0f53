"""Building the hex map from the scenario's geography: terrain, towns, rail, roads, rivers, supply.

Every geometric step is a vectorised shapely call over all hexes, with an STRtree to pick the
hexes a layer can touch; no Python loop over pairs of geometries.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt
import shapely
import shapely.geometry
from shapely.geometry.base import BaseGeometry

from kitgen import messages as msg
from kitgen.mapping.hexgrid import SQRT3, HexGrid
from kitgen.mapping.hexmap import SEA, Ferry, Hex, HexMap, Hexside, Link, SupplySourceHex
from kitgen.mapping.layers import Layers, feature_geometry
from kitgen.mapping.places import place_hexes, projected_points
from kitgen.mapping.projection import MapProjection
from kitgen.model.board import BoardSpec
from kitgen.model.geography import Bridge
from kitgen.model.scenario import Scenario, name_key

MIN_HEXES_ACROSS = 4
MAX_HEXES = 100_000
COASTAL_LAND_SHARE = 0.99
"""A land hex with less land than this, or next to a sea hex, is coastal."""
SEA_SIDE_WATER = 0.25
"""Two land hexes are parted by sea when this share of the line between their centres is water."""
LINE_LAND_SHARE = 0.25
"""A hex a railway or road runs through is land if at least this share of it is, else sea: a
line along the shore that cuts a corner of open water does not make the water land (or mountain)."""


@dataclass(frozen=True)
class MapIssue:
    """A problem the map shows up in the data: which file, where in it, and what."""

    file: str
    loc: tuple[str | int, ...]
    message: msg.Msg


@dataclass(frozen=True)
class _Route:
    """One railway or road as the hexes it runs through."""

    cells: list[tuple[int, int, int]]
    """(col, row, stretch): stretch i runs from the line's i-th named place to the next."""
    exits: list[tuple[tuple[int, int], str]]
    points: dict[tuple[int, int], tuple[float, float]]
    """Where the line first runs in each of its hexes (km): which bank of a river it keeps."""


def build_hex_map(scenario: Scenario) -> tuple[HexMap | None, list[MapIssue]]:
    """The hex map of a validated scenario, or None and the reasons it cannot be built: map.yaml's
    board given hex by hex, else the map built from geography with map.yaml's overrides applied."""
    if scenario.map.board is not None:
        return _from_board(scenario, scenario.map.board)
    built, issues = _from_geography(scenario)
    if built is None or not scenario.map.overrides:
        return built, issues
    from kitgen.mapping.overrides import apply_overrides

    corrected, found = apply_overrides(built, scenario.map.overrides, coastal_share=COASTAL_LAND_SHARE)
    if found:
        return None, [MapIssue("map.yaml", loc, message) for loc, message in found]
    return corrected, []


def _from_board(scenario: Scenario, spec: BoardSpec) -> tuple[HexMap | None, list[MapIssue]]:
    from kitgen.mapping.handmade import hex_map_of, spec_issues

    towns = {name_key(n): t.name for t in scenario.towns for n in t.names()}
    terrains = [t.id for t in scenario.movement.terrain]
    found = spec_issues(spec, towns=towns, terrains=terrains)
    if found:
        return None, [MapIssue("map.yaml", ("board", *loc), message) for loc, message in found]
    return hex_map_of(spec, scenario.meta.id), []


def _from_geography(scenario: Scenario) -> tuple[HexMap | None, list[MapIssue]]:
    import pyproj  # here, not at import: a map from the cache is never projected

    proj = MapProjection.for_map(scenario.map)
    try:
        box = proj.box(scenario.map)
    except pyproj.exceptions.ProjError as exc:
        parallels = scenario.map.projection.standard_parallels if scenario.map.projection else []
        return None, [MapIssue("map.yaml", ("projection",), msg.map_projection(parallels, str(exc)))]
    issues = _check_size(scenario.meta.map.hex_size_km, box)
    if issues:
        return None, issues
    grid = HexGrid.covering(scenario.meta.map.hex_size_km, *box)
    issues = _check_coverage(scenario, proj, grid)
    if issues:
        return None, issues
    return _Builder(scenario, proj, grid).build()


def _check_coverage(scenario: Scenario, proj: MapProjection, grid: HexGrid) -> list[MapIssue]:
    """The coastline layer must cover the map's frame, or land beyond it would read as sea."""
    left, bottom, right, top = grid.edges
    t = np.linspace(0.0, 1.0, 33)
    ring = np.vstack(
        [
            np.column_stack([left + (right - left) * t, np.full_like(t, bottom)]),
            np.column_stack([left + (right - left) * t, np.full_like(t, top)]),
            np.column_stack([np.full_like(t, left), bottom + (top - bottom) * t]),
            np.column_stack([np.full_like(t, right), bottom + (top - bottom) * t]),
        ]
    )
    lonlat = proj.inverse(ring)
    points = [p for f in scenario.coast.features for p in shapely.get_coordinates(feature_geometry(f))]
    if not points:
        return [MapIssue("geo/coast.geojson", ("features",), msg.map_no_land())]
    have = np.array(points)
    west, south = have.min(axis=0)
    east, north = have.max(axis=0)
    need_w, need_s = lonlat.min(axis=0)
    need_e, need_n = lonlat.max(axis=0)
    if need_w < west or need_e > east or need_s < south or need_n > north:
        return [
            MapIssue(
                "geo/coast.geojson",
                ("features",),
                msg.map_coast_short((west, east, south, north), (need_w, need_e, need_s, need_n)),
            )
        ]
    return []


def _check_size(size: float, box: tuple[float, float, float, float]) -> list[MapIssue]:
    width, height = box[2] - box[0], box[3] - box[1]
    largest = min(width / (1.5 * MIN_HEXES_ACROSS / SQRT3), height / MIN_HEXES_ACROSS)
    smallest = float(np.sqrt(width * height / (MAX_HEXES * SQRT3 / 2)))
    where = ("map", "hex_size_km")
    if size > largest:
        too_large = msg.map_hex_too_large(size, width, height, MIN_HEXES_ACROSS, largest)
        return [MapIssue("scenario.yaml", where, too_large)]
    if width * height / (size * size * SQRT3 / 2) > MAX_HEXES:
        return [MapIssue("scenario.yaml", where, msg.map_hex_too_small(size, MAX_HEXES, smallest))]
    return []


class _Builder:
    def __init__(self, scenario: Scenario, proj: MapProjection, grid: HexGrid) -> None:
        self.s = scenario
        self.proj = proj
        self.grid = grid
        self.issues: list[MapIssue] = []
        self.centres = grid.centres()
        self.polygons: npt.NDArray[np.object_] = np.asarray(shapely.polygons(grid.corners(self.centres)))
        self.hex_area = 3 * SQRT3 / 2 * grid.side**2
        # a hex the frame cuts is judged by the part of it on the map
        self.on_map_parts: npt.NDArray[np.object_] = np.asarray(
            shapely.intersection(self.polygons, shapely.box(*grid.edges))
        )
        self.on_map_area = shapely.area(self.on_map_parts)
        self.tree = shapely.STRtree(self.on_map_parts)
        self.cells = list(grid.cells())
        self.layers = Layers(scenario, proj)

    def build(self) -> tuple[HexMap | None, list[MapIssue]]:
        land_share = np.minimum(self._shares(self.layers.wet_land), 1.0)
        land_terrain = self._land_terrain(land_share)
        terrain = [SEA if land_share[i] < 0.5 else land_terrain[i] for i in range(len(self.cells))]
        towns = self._towns()
        rail = [self._route(xy) for xy in self.layers.rail_lines]
        roads = [self._route(xy) for xy in self.layers.road_lines]
        if self.issues:
            return None, self.issues
        for index in towns:  # a hex with a town is land
            terrain[index] = land_terrain[index]
        for route in rail + roads:  # so is a hex a railway or road runs through, unless mostly water
            for col, row, _ in route.cells:
                index = self.grid.index(col, row)
                if land_share[index] >= LINE_LAND_SHARE:
                    terrain[index] = land_terrain[index]
        for index in self._stops(towns):  # and a station or place a line stops at: open coast, if mostly water
            if terrain[index] == SEA:
                terrain[index] = self.s.map.default_terrain
        rail = [self._ashore(route, terrain) for route in rail]
        roads = [self._ashore(route, terrain) for route in roads]
        self._check_crossings()
        if self.issues:
            return None, self.issues
        rivers = self._rivers(terrain, towns, rail + roads)
        rail_links = self._links(rail, [ln.name for ln in self.s.railways.lines])
        road_links = self._links(roads, [r.name for r in self.s.map.roads])
        if self.issues:
            return None, self.issues
        built = self._assemble(terrain, land_share, towns, rail, roads, rivers, rail_links, road_links)
        built = replace(built, ferries=self._ferries(built))
        return (None, self.issues) if self.issues else (built, [])

    def _ferries(self, built: HexMap) -> tuple[Ferry, ...]:
        """A.1: each ferry of map.yaml on a hexside of its major river beside the first place's hex,
        the one towards the second place (at any hex size), with no bridge there."""
        places = place_hexes(self.s, built)
        by_id = built.by_id()
        sides = {frozenset(s.hexes): s for s in built.hexsides}
        ferries = []
        for i, ferry in enumerate(self.s.map.ferries):
            a, b = ferry.between
            here = places.get(name_key(a))
            if here is None:
                found = f"{a} is not on the map"
            else:
                x, y = self.proj.forward(np.array([self.layers.places[name_key(b)]]))[0]
                across = [
                    side
                    for n in self.grid.neighbours(by_id[here].col, by_id[here].row)
                    if (side := sides.get(frozenset((here, self.grid.hex_id(*n))))) is not None
                    and side.river_class == "major"
                    and name_key(side.river or "") == name_key(ferry.river)
                ]
                free = [s for s in across if not s.bridge]

                if free:
                    far = [
                        by_id[next(h for h in side.hexes if h != here)] for side in free
                    ]  # the hex across each free side
                    k = min(range(len(free)), key=lambda j: (far[j].x_km - x) ** 2 + (far[j].y_km - y) ** 2)
                    ferries.append(Ferry(free[k].hexes, ferry.units))
                    continue
                found = (
                    f"a bridge crosses the {ferry.river} beside {here} already"
                    if across
                    else (f"no hexside of the {ferry.river} borders {here}")
                )
            self.issues.append(
                MapIssue("map.yaml", ("ferries", i, "between"), msg.map_ferry_side(ferry.river, a, b, found))
            )
        return tuple(sorted(ferries, key=lambda f: f.hexes))

    # --- terrain -------------------------------------------------------------------------

    def _shares(self, geometry: BaseGeometry) -> npt.NDArray[np.float64]:
        share = np.zeros(len(self.polygons))
        shapely.prepare(geometry)
        hits = self.tree.query(geometry, predicate="intersects")
        if len(hits):
            parts = self.on_map_parts[hits]
            share[hits] = shapely.area(shapely.intersection(parts, geometry)) / np.maximum(
                self.on_map_area[hits], 1e-12
            )
        return share

    def _land_terrain(self, land_share: npt.NDArray[np.float64]) -> list[str]:
        """Each hex's terrain as land: the terrain covering most of it, the default for what no
        area covers; a tie goes to the terrain listed first in movement.yaml."""
        layers = self.layers.terrain()
        default = self.s.map.default_terrain
        names = [default] + [t.id for t in self.s.movement.terrain if t.id != default and t.id in layers]
        shares = np.array([self._shares(layers[t]) for t in names[1:]]).reshape(len(names) - 1, -1)
        rest = land_share - shares.sum(axis=0)
        best = np.argmax(np.vstack([rest, shares]), axis=0)
        return [names[int(k)] for k in best]

    # --- towns, routes -------------------------------------------------------------------

    def _towns(self) -> dict[int, list[str]]:
        xy = self.proj.forward(np.array([[t.lon, t.lat] for t in self.s.towns]))
        cells, inside = self.grid.place(xy)
        towns: dict[int, list[str]] = {}
        for i, town in enumerate(self.s.towns):
            if not inside[i]:
                self.issues.append(
                    MapIssue(
                        "towns.yaml",
                        ("towns", i, "lat"),
                        msg.map_town_outside(town.name, town.lat, town.lon, self._frame_corners()),
                    )
                )
                continue
            towns.setdefault(self.grid.index(int(cells[i, 0]), int(cells[i, 1])), []).append(town.name)
        return towns

    def _frame_corners(self) -> tuple[float, float, float, float]:
        """The frame's north-west and south-east corners in lon/lat, for messages: (north, west, south, east)."""
        left, bottom, right, top = self.grid.edges
        corners = self.proj.inverse(np.array([[left, top], [right, bottom]]))
        (west, north), (east, south) = corners
        return float(north), float(west), float(south), float(east)

    def _route(self, xy: npt.NDArray[np.float64]) -> _Route:
        """The hexes a line through these points (km) runs through, and where it leaves the map."""
        cells: list[tuple[int, int, int]] = []
        exits: list[tuple[tuple[int, int], str]] = []
        points: dict[tuple[int, int], tuple[float, float]] = {}
        previous: tuple[int, int] | None = None
        for stretch in range(len(xy) - 1):
            if np.array_equal(xy[stretch], xy[stretch + 1]):
                continue  # a station named twice in a row, or two at one place: no stretch to follow
            line = shapely.segmentize(shapely.LineString(xy[stretch : stretch + 2]), self.grid.side / 4)
            samples = shapely.get_coordinates(line)
            located, inside = self.grid.place(samples)
            for k in range(len(samples)):
                cell = (int(located[k, 0]), int(located[k, 1])) if inside[k] else None
                if cell == previous:
                    continue
                if cell is None and previous is not None:
                    exits.append((previous, self._edge(samples[k])))
                elif cell is not None and previous is None and (cells or k > 0):
                    exits.append((cell, self._edge(samples[k - 1] if k else xy[stretch])))
                if cell is not None:
                    points.setdefault(cell, (float(samples[k, 0]), float(samples[k, 1])))
                    if previous is not None and self.grid.direction(previous, cell) is None:
                        step = self._between(previous, cell)
                        if step is not None:
                            cells.append((*step, stretch))
                    cells.append((*cell, stretch))
                previous = cell
        return _Route(cells, exits, points)

    def _stops(self, towns: dict[int, list[str]]) -> set[int]:
        """The hexes of the places the railways and roads are drawn through, but towns."""
        xy = np.vstack([*self.layers.rail_lines, *self.layers.road_lines]).reshape(-1, 2)
        cells, inside = self.grid.place(xy)
        return {self.grid.index(int(c), int(r)) for (c, r), ok in zip(cells, inside, strict=True) if ok} - set(towns)

    def _ashore(self, route: _Route, terrain: list[str]) -> _Route:
        """The route without the sea hexes it cuts across: where leaving one out parts two land
        hexes that are not neighbours, the land hex beside both nearest their midpoint joins them."""
        cells: list[tuple[int, int, int]] = []
        for col, row, stretch in route.cells:
            if terrain[self.grid.index(col, row)] == SEA:
                continue
            if cells and (last := cells[-1][:2]) != (col, row) and self.grid.direction(last, (col, row)) is None:
                step = self._between(last, (col, row), land=terrain)
                if step is not None:
                    cells.append((*step, stretch))
            cells.append((col, row, stretch))
        land = {(c, r) for c, r, _ in cells}
        return _Route(
            cells,
            [(cell, edge) for cell, edge in route.exits if cell in land],
            {cell: xy for cell, xy in route.points.items() if cell in land},
        )

    def _between(self, a: tuple[int, int], b: tuple[int, int], land: list[str] | None = None) -> tuple[int, int] | None:
        """The hex next to both a and b nearest their midpoint (the line passed a shared corner);
        given the terrain, only a land hex."""
        common = set(self.grid.neighbours(*a)) & set(self.grid.neighbours(*b))
        if land is not None:
            common = {c for c in common if land[self.grid.index(*c)] != SEA}
        mid = (np.array(self.grid.centre(*a)) + np.array(self.grid.centre(*b))) / 2
        return min(common, key=lambda c: (float(np.hypot(*(np.array(self.grid.centre(*c)) - mid))), c), default=None)

    def _edge(self, point: npt.NDArray[np.float64]) -> str:
        left, bottom, right, top = self.grid.edges
        x, y = float(point[0]), float(point[1])
        distances = {"west": x - left, "east": right - x, "north": top - y, "south": y - bottom}
        return min(distances, key=lambda e: distances[e])

    # --- rivers and crossings ------------------------------------------------------------

    def _pairs(self, terrain: list[str]) -> npt.NDArray[np.int64]:
        """Every pair of adjacent land hexes once, as index pairs (a < b)."""
        pairs = [
            (a, b)
            for a in range(len(self.cells))
            if terrain[a] != SEA
            for b in (self.grid.index(*n) for n in self.grid.neighbours(*self.cells[a]))
            if a < b and terrain[b] != SEA
        ]
        return np.array(pairs, dtype=np.int64).reshape(-1, 2)

    def _anchors(self, towns: dict[int, list[str]], routes: list[_Route]) -> npt.NDArray[np.float64]:
        """The point that decides which bank of a river each hex is on: its town, else where a
        railway or road first runs in it, else its centre (nudged off the exact centre, so that a
        course drawn straight through a row of centres cannot leave a hex on both banks)."""
        anchors = self.centres + np.array([0.0173, 0.0291])
        for route in routes:
            for cell, point in route.points.items():
                index = self.grid.index(*cell)
                if index not in towns:
                    anchors[index] = point
        by_name = {t.name: t for t in self.s.towns}
        for index, names in towns.items():
            town = by_name[names[0]]
            anchors[index] = self.proj.forward(np.array([[town.lon, town.lat]]))[0]
        return np.asarray(anchors, dtype=float)

    def _rivers(
        self, terrain: list[str], towns: dict[int, list[str]], routes: list[_Route]
    ) -> dict[tuple[int, int], tuple[str, str]]:
        """River hexsides: two adjacent land hexes are parted by a river when the line between
        their anchors crosses its course an odd number of times, that is, when they lie on
        opposite banks (a meander that leaves both on one bank does not count). A river that
        ends at the sea is carried on a hex further, so it meets the coast."""
        pairs = self._pairs(terrain)
        anchors = self._anchors(towns, routes)
        segments: npt.NDArray[np.object_] = np.asarray(
            shapely.linestrings(np.stack([anchors[pairs[:, 0]], anchors[pairs[:, 1]]], axis=1))
        )
        tree = shapely.STRtree(segments)
        water = shapely.difference(shapely.box(*self.grid.edges).buffer(self.grid.size), self.layers.wet_land)
        found: dict[tuple[int, int], tuple[str, str]] = {}
        ends = _SideEnds(self.grid, self.centres, pairs)
        for name, river_class, course in self.layers.rivers:
            course = self._to_sea(course, water)
            hits = tree.query(course, predicate="intersects")
            if not len(hits):
                continue
            counts = self._crossings(segments[hits], course)
            crossed = [int(k) for k in hits[counts % 2 == 1]]
            for k in crossed + ends.joins(crossed, course):
                key = (int(pairs[k, 0]), int(pairs[k, 1]))
                if key not in found or (river_class == "major" and found[key][1] != "major"):
                    found[key] = (name, river_class)
        return found

    @staticmethod
    def _crossings(segments: npt.NDArray[np.object_], course: BaseGeometry) -> npt.NDArray[np.int64]:
        """How many times each segment crosses the course; a touch at either end of a segment
        does not count (a town standing on the river is not across it from its neighbours)."""
        crossings = shapely.intersection(segments, course)
        counts = np.where(shapely.is_empty(crossings), 0, shapely.get_num_geometries(crossings))
        ends = shapely.union(shapely.get_point(segments, 0), shapely.get_point(segments, -1))
        touches = shapely.intersection(crossings, shapely.buffer(ends, 1e-6))
        return np.asarray(counts - np.where(shapely.is_empty(touches), 0, shapely.get_num_geometries(touches)))

    def _to_sea(self, course: BaseGeometry, water: BaseGeometry) -> BaseGeometry:
        """The course, its mouth carried straight on for up to a hex when it ends near open water."""
        coords = shapely.get_coordinates(course)
        if len(coords) < 2 or shapely.distance(shapely.Point(coords[-1]), water) > self.grid.size:
            return course
        step = coords[-1] - coords[-2]
        step = step / (np.linalg.norm(step) or 1.0) * self.grid.size
        return shapely.LineString([*coords, coords[-1] + step])

    def _links(self, routes: list[_Route], names: list[str]) -> list[tuple[int, int, str]]:
        """(hex a, hex b, line) for each step of each route."""
        links = set()
        for i, route in enumerate(routes):
            for (c1, r1, _), (c2, r2, _) in zip(route.cells, route.cells[1:], strict=False):
                if self.grid.direction((c1, r1), (c2, r2)) is not None:
                    a, b = sorted((self.grid.index(c1, r1), self.grid.index(c2, r2)))
                    links.add((a, b, names[i]))
        return sorted(links)

    def _check_crossings(self) -> None:
        """A railway or road that crosses a major river's course must do it at a listed bridge."""
        routes = [("railways.yaml", "lines", i, ln.stations) for i, ln in enumerate(self.s.railways.lines)]
        routes += [("map.yaml", "roads", i, rd.through) for i, rd in enumerate(self.s.map.roads)]
        stretches: list[shapely.LineString] = []
        where = []
        for file, table, i, names in routes:
            xy = self.layers.route(names)
            for k in range(len(names) - 1):
                stretches.append(shapely.LineString(xy[k : k + 2]))
                where.append((file, table, i, names, k))
        tree = shapely.STRtree(np.array(stretches, dtype=object))
        for river, river_class, course in self.layers.rivers:
            if river_class != "major":
                continue
            for hit in sorted(tree.query(course, predicate="intersects")):
                file, table, i, names, k = where[hit]
                route = self.s.railways.lines[i] if table == "lines" else self.s.map.roads[i]
                if self._bridge_listed(route.bridges, river, names[k], names[k + 1]):
                    continue
                what = self.s.railways.lines[i].name if table == "lines" else self.s.map.roads[i].name
                field = "stations" if table == "lines" else "through"
                self.issues.append(
                    MapIssue(
                        file, (table, i, field, k + 1), msg.map_unbridged_crossing(what, river, names[k], names[k + 1])
                    )
                )

    @staticmethod
    def _bridge_listed(bridges: list[Bridge], river: str, a: str, b: str) -> bool:
        ends = {name_key(a), name_key(b)}
        return any(
            name_key(br.river) == name_key(river) and {name_key(n) for n in br.between} == ends for br in bridges
        )

    # --- the result ----------------------------------------------------------------------

    def _assemble(
        self,
        terrain: list[str],
        land_share: npt.NDArray[np.float64],
        towns: dict[int, list[str]],
        rail: list[_Route],
        roads: list[_Route],
        rivers: dict[tuple[int, int], tuple[str, str]],
        rail_links: list[tuple[int, int, str]],
        road_links: list[tuple[int, int, str]],
    ) -> HexMap:
        grid, cells = self.grid, self.cells
        ids = [grid.hex_id(c, r) for c, r in cells]
        lonlat = self.proj.inverse(self.centres)
        on_rail = {grid.index(c, r) for route in rail for c, r, _ in route.cells}
        on_road = {grid.index(c, r) for route in roads for c, r, _ in route.cells}
        ports = {t.name for t in self.s.towns if t.port}
        sea = {i for i, t in enumerate(terrain) if t == SEA}
        on_map = self.on_map_area > 1e-6 * self.hex_area
        hexes = []
        for i, (col, row) in enumerate(cells):
            if not on_map[i]:
                continue
            near_sea = any(grid.index(*n) in sea for n in grid.neighbours(col, row))
            names = tuple(towns.get(i, []))
            hexes.append(
                Hex(
                    id=ids[i],
                    col=col,
                    row=row,
                    x_km=round(float(self.centres[i, 0]), 3),
                    y_km=round(float(self.centres[i, 1]), 3),
                    lat=round(float(lonlat[i, 1]), 5),
                    lon=round(float(lonlat[i, 0]), 5),
                    terrain=terrain[i],
                    land_share=round(float(land_share[i]), 3),
                    coastal=bool(i not in sea and (near_sea or land_share[i] < COASTAL_LAND_SHARE)),
                    port=any(n in ports for n in names),
                    rail=i in on_rail,
                    road=i in on_road,
                    towns=names,
                )
            )
        bridged = {(a, b) for a, b, _ in rail_links + road_links}
        sea_sides = self._sea_sides(terrain, bridged)
        hexsides = []
        for a, b in sorted(set(rivers) | sea_sides):
            if not (on_map[a] and on_map[b]):
                continue
            first, second = sorted([(ids[a], a), (ids[b], b)])
            direction = grid.direction(cells[first[1]], cells[second[1]]) or ""
            river, river_class = rivers.get((a, b), (None, None))
            hexsides.append(
                Hexside((first[0], second[0]), direction, river, river_class, (a, b) in bridged, (a, b) in sea_sides)
            )
        exits = sorted({(grid.hex_id(*cell), edge) for route in rail for cell, edge in route.exits})
        return HexMap(
            scenario=self.s.meta.id,
            hex_size_km=grid.size,
            projection=self.proj.proj,
            columns=grid.columns,
            rows=grid.rows,
            left_km=grid.left,
            top_km=grid.top,
            frame_km=grid.edges,
            hexes=tuple(hexes),
            hexsides=tuple(hexsides),
            rail=_sorted_links(rail_links, ids),
            roads=_sorted_links(road_links, ids),
            rail_exits=tuple(exits),
            supply_sources=self._supply(exits, hexes),
            conditional_sources={
                f: tuple(
                    f"ports {s.ports}" if s.ports else f"depots {s.depots}" for s in sources if s.ports or s.depots
                )
                for f, sources in sorted(self.s.map.supply_sources.items())
            },
            points=projected_points(self.s, self.proj, grid),
        )

    def _sea_sides(self, terrain: list[str], bridged: set[tuple[int, int]]) -> set[tuple[int, int]]:
        """Pairs of adjacent land hexes with open water between them (not where a line crosses)."""
        pairs = np.array([p for p in self._pairs(terrain).tolist() if tuple(p) not in bridged], dtype=np.int64)
        pairs = pairs.reshape(-1, 2)
        if not len(pairs):
            return set()
        segments = shapely.linestrings(np.stack([self.centres[pairs[:, 0]], self.centres[pairs[:, 1]]], axis=1))
        water = shapely.difference(shapely.box(*self.grid.edges), self.layers.wet_land)
        shapely.prepare(water)
        wet = shapely.length(shapely.intersection(segments, water)) / self.grid.size
        return {(int(a), int(b)) for a, b in pairs[wet >= SEA_SIDE_WATER]}

    def _supply(self, exits: Iterable[tuple[str, str]], hexes: list[Hex]) -> tuple[SupplySourceHex, ...]:
        by_id = {h.id: h for h in hexes}
        found: list[SupplySourceHex] = []
        for faction, sources in sorted(self.s.map.supply_sources.items()):
            for i, source in enumerate(sources):
                before = len(found)
                town = self.s.find_town(source.town) if source.town else None
                if town is not None:
                    hx = next((h for h in hexes if town.name in h.towns), None)
                    if hx:
                        found.append(
                            SupplySourceHex(faction, hx.id, "town", town=town.name, while_held=source.while_held)
                        )
                elif source.rail_exits:
                    for hex_id, edge in exits:
                        if edge == source.rail_exits and self._within(by_id[hex_id], source.limits()):
                            found.append(SupplySourceHex(faction, hex_id, "rail_exit", edge=edge))
                    if len(found) == before:
                        self.issues.append(
                            MapIssue(
                                "map.yaml",
                                ("supply_sources", faction, i),
                                msg.map_no_rail_exit(source.rail_exits, source.limits()),
                            )
                        )
        return tuple(sorted(found, key=lambda s: (s.faction, s.hex, s.kind)))

    def _within(self, hx: Hex, limits: dict[str, str | None]) -> bool:
        for limit, town_name in limits.items():
            town = self.s.find_town(town_name) if town_name else None
            if town is None:
                continue
            x, y = self.proj.forward(np.array([[town.lon, town.lat]]))[0]
            ok = {"north_of": hx.y_km > y, "south_of": hx.y_km < y, "east_of": hx.x_km > x, "west_of": hx.x_km < x}
            if not ok[limit]:
                return False
        return True


def _sorted_links(links: list[tuple[int, int, str]], ids: list[str]) -> tuple[Link, ...]:
    found = {(min(ids[a], ids[b]), max(ids[a], ids[b]), line) for a, b, line in links}
    return tuple(Link((a, b), line) for a, b, line in sorted(found))


class _SideEnds:
    """The hexsides between land hexes as a graph of their corners, to join the pieces of one
    river. A river's hexsides are those its course parts an odd number of times; where the
    anchors that decide each hex's bank (`_anchors`) stand off the centres, two neighbouring
    pairs may disagree, and the river's line breaks for a hexside or two, its pieces starting
    and ending where the river does neither."""

    GAP = 3
    """The most hexsides a join may take: a longer gap is no break (a river that leaves the map
    and comes back)."""

    def __init__(self, grid: HexGrid, centres: npt.NDArray[np.float64], pairs: npt.NDArray[np.int64]) -> None:
        corners = grid.corners(centres)[:, :6]
        keys = [[(round(float(x), 3), round(float(y), 3)) for x, y in hexagon] for hexagon in corners]
        self.size = grid.size
        self.ends: list[tuple[tuple[float, float], tuple[float, float]]] = []
        self.at: dict[tuple[float, float], list[int]] = {}
        for k, (a, b) in enumerate(pairs):
            shared = sorted(set(keys[int(a)]) & set(keys[int(b)]))
            first, second = shared[0], shared[-1]
            self.ends.append((first, second))
            self.at.setdefault(first, []).append(k)
            self.at.setdefault(second, []).append(k)

    def joins(self, sides: list[int], course: BaseGeometry) -> list[int]:
        """Hexsides (pair indexes) that join the pieces of a river's `sides` into one, each join
        the cheapest path of at most GAP hexsides between two pieces, keeping near the course."""
        pieces = self._pieces(sides)
        added: list[int] = []
        while len(pieces) > 1:
            best: tuple[float, list[int], int, int] | None = None
            for i, piece in enumerate(pieces):
                cost, path, j = self._nearest(piece, pieces, i, course)
                if path and (best is None or cost < best[0]):
                    best = (cost, path, i, j)
            if best is None:
                break
            _, path, i, j = best
            added += path
            merged = pieces[i] | pieces[j] | {c for k in path for c in self.ends[k]}
            pieces = [p for n, p in enumerate(pieces) if n not in (i, j)] + [merged]
        return added

    def _pieces(self, sides: list[int]) -> list[set[tuple[float, float]]]:
        """The corners of each connected piece of `sides`."""
        pieces: list[set[tuple[float, float]]] = []
        for k in sides:
            a, b = self.ends[k]
            touching = [p for p in pieces if a in p or b in p]
            merged = {a, b}.union(*touching)
            pieces = [p for p in pieces if p not in touching] + [merged]
        return pieces

    def _nearest(
        self, piece: set[tuple[float, float]], pieces: list[set[tuple[float, float]]], i: int, course: BaseGeometry
    ) -> tuple[float, list[int], int]:
        """The cheapest path from `piece` to another piece (cost, its hexsides, that piece's
        index): each hexside costs one, and more the further it lies from the course."""
        owner = {c: n for n, p in enumerate(pieces) if n != i for c in p}
        queue: list[tuple[float, int, tuple[float, float], list[int]]] = [(0.0, 0, c, []) for c in sorted(piece)]
        heapq.heapify(queue)
        seen: set[tuple[float, float]] = set()
        while queue:
            cost, steps, corner, path = heapq.heappop(queue)
            if corner in owner:
                return cost, path, owner[corner]
            if corner in seen or steps >= self.GAP:
                continue
            seen.add(corner)
            for k in self.at.get(corner, []):
                a, b = self.ends[k]
                other = b if a == corner else a
                if other in seen or other in piece:
                    continue
                mid = shapely.Point((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
                heapq.heappush(
                    queue, (cost + 1.0 + 4.0 * mid.distance(course) / self.size, steps + 1, other, [*path, k])
                )
        return 0.0, [], -1
