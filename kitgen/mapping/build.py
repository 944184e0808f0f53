"""Building the hex map from the scenario's geography: terrain, towns, rail, roads, rivers, supply.

Every geometric step is a vectorised shapely call over all hexes, with an STRtree to pick the
hexes a layer can touch; no Python loop over pairs of geometries.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import shapely
import shapely.geometry
from shapely.geometry.base import BaseGeometry

from kitgen.mapping.hexgrid import SQRT3, HexGrid
from kitgen.mapping.hexmap import SEA, Hex, HexMap, Hexside, Link, SupplySourceHex
from kitgen.mapping.layers import Layers
from kitgen.mapping.projection import MapProjection
from kitgen.model.scenario import Scenario, name_key

MIN_HEXES_ACROSS = 4
MAX_HEXES = 100_000
COASTAL_LAND_SHARE = 0.99
"""A land hex with less land than this, or next to a sea hex, is coastal."""


@dataclass(frozen=True)
class MapIssue:
    """A problem the map shows up in the data: which file, where in it, and what."""

    file: str
    loc: tuple[str | int, ...]
    message: str


@dataclass(frozen=True)
class _Route:
    """One railway or road as the hexes it runs through."""

    cells: list[tuple[int, int, int]]
    """(col, row, stretch): stretch i runs from the line's i-th named place to the next."""
    exits: list[tuple[tuple[int, int], str]]


def build_hex_map(scenario: Scenario) -> tuple[HexMap | None, list[MapIssue]]:
    """The hex map of a validated scenario, or None and the reasons it cannot be built."""
    proj = MapProjection.for_map(scenario.map)
    box = proj.box(scenario.map)
    issues = _check_size(scenario.meta.map.hex_size_km, box)
    if issues:
        return None, issues
    grid = HexGrid.covering(scenario.meta.map.hex_size_km, *box)
    return _Builder(scenario, proj, grid).build()


def _check_size(size: float, box: tuple[float, float, float, float]) -> list[MapIssue]:
    width, height = box[2] - box[0], box[3] - box[1]
    largest = min(width / (1.5 * MIN_HEXES_ACROSS / SQRT3), height / MIN_HEXES_ACROSS)
    smallest = float(np.sqrt(width * height / (MAX_HEXES * SQRT3 / 2)))
    where = ("map", "hex_size_km")
    if size > largest:
        msg = (
            f"found {size:g} km: the map ({width:.0f} x {height:.0f} km) would be under {MIN_HEXES_ACROSS} hexes across"
        )
        return [MapIssue("scenario.yaml", where, f"{msg}; expected at most {largest:.0f} km")]
    if width * height / (size * size * SQRT3 / 2) > MAX_HEXES:
        msg = f"found {size:g} km: the map would have more than {MAX_HEXES} hexes"
        return [MapIssue("scenario.yaml", where, f"{msg}; expected at least {smallest:.1f} km")]
    return []


class _Builder:
    def __init__(self, scenario: Scenario, proj: MapProjection, grid: HexGrid) -> None:
        self.s = scenario
        self.proj = proj
        self.grid = grid
        self.issues: list[MapIssue] = []
        self.centres = grid.centres()
        self.polygons: npt.NDArray[np.object_] = np.asarray(shapely.polygons(grid.corners(self.centres)))
        self.tree = shapely.STRtree(self.polygons)
        self.hex_area = 3 * SQRT3 / 2 * grid.side**2
        self.cells = list(grid.cells())
        self.layers = Layers(scenario, proj)

    def build(self) -> tuple[HexMap | None, list[MapIssue]]:
        terrain, land_share = self._terrain()
        towns = self._towns()
        rail = [self._route(xy) for xy in self.layers.rail_lines]
        roads = [self._route(xy) for xy in self.layers.road_lines]
        if self.issues:
            return None, self.issues
        for index in towns:  # a hex with a town is land
            if terrain[index] == SEA:
                terrain[index] = self._land_terrain(index)
        for route in rail + roads:
            for col, row, _ in route.cells:
                index = self.grid.index(col, row)
                if terrain[index] == SEA:
                    terrain[index] = self._land_terrain(index)
        self._check_crossings()
        if self.issues:
            return None, self.issues
        rivers = self._rivers(terrain, towns)
        rail_links = self._links(rail, [ln.name for ln in self.s.railways.lines])
        road_links = self._links(roads, [r.name for r in self.s.map.roads])
        if self.issues:
            return None, self.issues
        return self._assemble(terrain, land_share, towns, rail, roads, rivers, rail_links, road_links), []

    # --- terrain -------------------------------------------------------------------------

    def _shares(self, geometry: BaseGeometry) -> npt.NDArray[np.float64]:
        share = np.zeros(len(self.polygons))
        shapely.prepare(geometry)
        hits = self.tree.query(geometry, predicate="intersects")
        if len(hits):
            share[hits] = shapely.area(shapely.intersection(self.polygons[hits], geometry)) / self.hex_area
        return share

    def _terrain(self) -> tuple[list[str], npt.NDArray[np.float64]]:
        layers = self.layers.terrain()
        land_share = np.minimum(self._shares(self.layers.wet_land), 1.0)
        order = [t.id for t in self.s.movement.terrain if t.id != self.s.map.default_terrain]
        shares = {t: self._shares(layers[t]) for t in order if t in layers}
        self._terrain_shares = shares
        self._land_share = land_share
        return [SEA if land_share[i] < 0.5 else self._land_terrain(i) for i in range(len(self.cells))], land_share

    def _land_terrain(self, index: int) -> str:
        best, best_share = (
            self.s.map.default_terrain,
            self._land_share[index] - sum(s[index] for s in self._terrain_shares.values()),
        )
        for terrain, share in self._terrain_shares.items():
            if share[index] > best_share:
                best, best_share = terrain, share[index]
        return best

    # --- towns, routes -------------------------------------------------------------------

    def _towns(self) -> dict[int, list[str]]:
        xy = self.proj.forward(np.array([[t.lon, t.lat] for t in self.s.towns]))
        cells = self.grid.locate(xy)
        inside = self.grid.inside(cells)
        towns: dict[int, list[str]] = {}
        for i, town in enumerate(self.s.towns):
            if not inside[i]:
                e = self.s.map.extent
                self.issues.append(
                    MapIssue(
                        "towns.yaml",
                        ("towns", i, "lat"),
                        f"{town.name} at lat {town.lat:g}, lon {town.lon:g} lies outside the map; expected a "
                        f"position within map.yaml's extent (lat {e.south:g} to {e.north:g}, lon {e.west:g} to {e.east:g})",
                    )
                )
                continue
            towns.setdefault(self.grid.index(int(cells[i, 0]), int(cells[i, 1])), []).append(town.name)
        return towns

    def _route(self, xy: npt.NDArray[np.float64]) -> _Route:
        """The hexes a line through these points (km) runs through, and where it leaves the map."""
        cells: list[tuple[int, int, int]] = []
        exits: list[tuple[tuple[int, int], str]] = []
        previous: tuple[int, int] | None = None
        for stretch in range(len(xy) - 1):
            line = shapely.segmentize(shapely.LineString(xy[stretch : stretch + 2]), self.grid.side / 4)
            samples = shapely.get_coordinates(line)
            located = self.grid.locate(samples)
            inside = self.grid.inside(located)
            for k in range(len(samples)):
                cell = (int(located[k, 0]), int(located[k, 1])) if inside[k] else None
                if cell == previous:
                    continue
                if cell is None and previous is not None:
                    exits.append((previous, self._edge(samples[k])))
                elif cell is not None and previous is None and (cells or k > 0):
                    exits.append((cell, self._edge(samples[k - 1] if k else xy[stretch])))
                if cell is not None:
                    if previous is not None and self.grid.direction(previous, cell) is None:
                        step = self._between(previous, cell)
                        if step is not None:
                            cells.append((*step, stretch))
                    cells.append((*cell, stretch))
                previous = cell
        return _Route(cells, exits)

    def _between(self, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int] | None:
        """A hex next to both a and b (the line passed through their shared corner)."""
        common = sorted(set(self.grid.neighbours(*a)) & set(self.grid.neighbours(*b)))
        return common[0] if common else None

    def _edge(self, point: npt.NDArray[np.float64]) -> str:
        left, bottom, right, top = self.grid.bounds
        x, y = float(point[0]), float(point[1])
        distances = {"west": x - left, "east": right - x, "north": top - y, "south": y - bottom}
        return min(distances, key=lambda e: distances[e])

    # --- rivers and crossings ------------------------------------------------------------

    def _corner_graph(self) -> None:
        """Hex corners as nodes and hexsides as edges, each edge knowing the hexes either side."""
        rings = self.grid.corners(self.centres)[:, :6, :]
        keys = np.round(rings.reshape(-1, 2) * 1e4).astype(np.int64)
        unique, inverse = np.unique(keys, axis=0, return_inverse=True)
        self.corner_xy = unique.astype(float) / 1e4
        corner = inverse.reshape(-1, 6)
        self.edge_hexes: dict[tuple[int, int], list[int]] = {}
        self.corner_links: dict[int, list[int]] = {}
        self.perimeter: list[list[tuple[int, int]]] = []
        for index in range(len(corner)):
            self.perimeter.append([])
            for k in range(6):
                a, b = int(corner[index, k]), int(corner[index, (k + 1) % 6])
                edge = (min(a, b), max(a, b))
                self.perimeter[index].append(edge)
                if edge not in self.edge_hexes:
                    self.edge_hexes[edge] = []
                    self.corner_links.setdefault(a, []).append(b)
                    self.corner_links.setdefault(b, []).append(a)
                self.edge_hexes[edge].append(index)
        self.corner_tree = shapely.STRtree(np.asarray(shapely.points(self.corner_xy)))

    def _snap(self, course: BaseGeometry) -> list[tuple[int, int]]:
        """The hexsides a river follows: each part of its course snapped to the nearest hex
        corners and joined along hexsides, then the shortest way along those hexsides from the
        part's first corner to its last, so a snap that loops round a hex drops out."""
        chosen: set[tuple[int, int]] = set()
        for part in shapely.get_parts(course):
            samples = shapely.get_coordinates(shapely.segmentize(part, self.grid.side / 3))
            if len(samples) < 2:
                continue
            nearest = self.corner_tree.query_nearest(shapely.points(samples), all_matches=False)[1]
            corners = [int(n) for n in nearest]
            walked: dict[int, list[int]] = {}
            for a, b in zip(corners, corners[1:], strict=False):
                if a != b:
                    path = self._corner_path(a, b, self.corner_links)
                    for x, y in zip(path, path[1:], strict=False):
                        walked.setdefault(x, []).append(y)
                        walked.setdefault(y, []).append(x)
            path = self._corner_path(corners[0], corners[-1], walked)
            chosen.update((min(x, y), max(x, y)) for x, y in zip(path, path[1:], strict=False))
        return sorted(chosen)

    @staticmethod
    def _corner_path(start: int, goal: int, links: dict[int, list[int]]) -> list[int]:
        """Fewest hexsides from one corner to another over `links` (breadth first)."""
        back = {start: start}
        frontier = [start]
        while frontier and goal not in back:
            nxt = []
            for node in frontier:
                for other in sorted(links.get(node, [])):
                    if other not in back:
                        back[other] = node
                        nxt.append(other)
            frontier = nxt
        if goal not in back:
            return [start]
        path = [goal]
        while path[-1] != start:
            path.append(back[path[-1]])
        return path[::-1]

    def _rivers(self, terrain: list[str], towns: dict[int, list[str]]) -> dict[tuple[int, int], tuple[str, str]]:
        """River hexsides: each course snapped to the hex corners and followed along hexsides,
        then moved round any town hex the snap put on the wrong bank."""
        self._corner_graph()
        frame = shapely.box(*self.grid.bounds)
        found: dict[tuple[int, int], tuple[str, str]] = {}
        by_name = {t.name: t for t in self.s.towns}
        town_xy = {
            index: self.proj.forward(np.array([[by_name[names[0]].lon, by_name[names[0]].lat]]))[0]
            for index, names in towns.items()
        }
        for name, river_class, full_course in self.layers.rivers:
            course = shapely.intersection(full_course, frame)
            if course.is_empty:
                continue
            for edge in self._town_banks(set(self._snap(course)), course, town_xy):
                hexes = self.edge_hexes.get(edge, [])
                if len(hexes) != 2 or SEA in (terrain[hexes[0]], terrain[hexes[1]]):
                    continue
                key = (min(hexes), max(hexes))
                if key not in found or (river_class == "major" and found[key][1] != "major"):
                    found[key] = (name, river_class)
        return found

    def _town_banks(
        self, chain: set[tuple[int, int]], course: BaseGeometry, town_xy: dict[int, npt.NDArray[np.float64]]
    ) -> list[tuple[int, int]]:
        """Keep each town on its own bank: round a town hex the river runs exactly along the
        sides whose neighbour lies across it as seen from the town (the line from the town to
        the neighbour's centre crosses the course an odd number of times)."""
        for index in sorted(town_xy):
            sides = self.perimeter[index]
            if not chain.intersection(sides) and not shapely.intersects(self.polygons[index], course):
                continue
            for edge in sides:
                others = [h for h in self.edge_hexes[edge] if h != index]
                if not others:
                    continue
                line = shapely.LineString([town_xy[index], self.centres[others[0]]])
                across = shapely.intersection(line, course)
                if (0 if across.is_empty else len(shapely.get_parts(across))) % 2:
                    chain.add(edge)
                else:
                    chain.discard(edge)
        return sorted(chain)

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
                if table == "lines" and self._bridge_listed(i, river, names[k], names[k + 1]):
                    continue
                what = self.s.railways.lines[i].name if table == "lines" else self.s.map.roads[i].name
                field = "stations" if table == "lines" else "through"
                self.issues.append(
                    MapIssue(
                        file,
                        (table, i, field, k + 1),
                        f"{what} crosses the {river} (a major river) between {names[k]} and {names[k + 1]}, "
                        "where no bridge is listed; expected a bridge entry for that stretch, or a waypoint "
                        "that keeps the line on its bank",
                    )
                )

    def _bridge_listed(self, line: int, river: str, a: str, b: str) -> bool:
        ends = {name_key(a), name_key(b)}
        return any(
            name_key(br.river) == name_key(river) and {name_key(n) for n in br.between} == ends
            for br in self.s.railways.lines[line].bridges
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
        hexes = []
        for i, (col, row) in enumerate(cells):
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
        hexsides = []
        for (a, b), (river, river_class) in sorted(rivers.items()):
            first, second = sorted([(ids[a], a), (ids[b], b)])
            direction = grid.direction(cells[first[1]], cells[second[1]]) or ""
            hexsides.append(Hexside((first[0], second[0]), direction, river, river_class, (a, b) in bridged))
        exits = sorted({(grid.hex_id(*cell), edge) for route in rail for cell, edge in route.exits})
        return HexMap(
            scenario=self.s.meta.id,
            hex_size_km=grid.size,
            projection=self.proj.proj,
            columns=grid.columns,
            rows=grid.rows,
            left_km=grid.left,
            top_km=grid.top,
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
        )

    def _supply(self, exits: Iterable[tuple[str, str]], hexes: list[Hex]) -> tuple[SupplySourceHex, ...]:
        by_id = {h.id: h for h in hexes}
        found = []
        for faction, sources in sorted(self.s.map.supply_sources.items()):
            for source in sources:
                if source.town:
                    town = self.s.find_town(source.town)
                    hx = next((h for h in hexes if town is not None and town.name in h.towns), None)
                    if hx:
                        found.append(
                            SupplySourceHex(
                                faction,
                                hx.id,
                                "town",
                                town=hx.towns[0] if town is None else town.name,
                                while_held=source.while_held,
                            )
                        )
                    continue
                for hex_id, edge in exits:
                    if edge == source.rail_exits and self._within(by_id[hex_id], source.limits()):
                        found.append(SupplySourceHex(faction, hex_id, "rail_exit", edge=edge))
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
