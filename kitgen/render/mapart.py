"""The map drawing: terrain, hex grid, rivers, rail, roads, towns and supply, in points.

Every game feature is drawn from the board the engine plays on: towns at their hex's centre,
rail and roads as lines through the centres of the hexes they link, rivers as chains of
hexsides, bridges and ferries on their hexsides. Real geography is background art only (the
sea tint and the coast line), and `drawn` records each feature as it is painted, so a test can
hold the drawing to the board. Town and place names are placed round their symbols where they
cover least (`kitgen.render.labels`); a hex id under a name is left out.

`MapArt` works out every shape once, in page points at the poster's true scale with the
map frame's bottom-left corner at (0, 0); `draw` paints it on any reportlab canvas, so the
poster, the A0/A1 posters and every tile show exactly the same drawing.
"""

from __future__ import annotations

import itertools
import math
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import shapely
import shapely.geometry
from shapely.geometry.base import BaseGeometry

from kitgen.mapping.board import Board
from kitgen.mapping.hexmap import NO_PROJECTION, SEA, Hex, HexMap
from kitgen.mapping.layers import Layers
from kitgen.mapping.places import place_hexes
from kitgen.mapping.projection import MapProjection
from kitgen.model.scenario import Scenario, name_key
from kitgen.render.fonts import SANS, SANS_BOLD, SANS_ITALIC, register_fonts, text_width
from kitgen.render.halo import halo_runs
from kitgen.render.labels import FORBIDDEN, Box, Obstacles, Placed, Want, place_labels
from kitgen.render.pages import faction_mark
from kitgen.render.recorded import Picture, record
from kitgen.render.style import MapStyle

Canvas = Any  # reportlab.pdfgen.canvas.Canvas, imported lazily
Node = TypeVar("Node", str, tuple[float, float])
Points = npt.NDArray[np.float64]

ASCENT, DESCENT = 0.76, 0.24
"""Of the kit's sans, as fractions of the type size (Vera: 760 and 240 per 1000)."""
CAP = 0.73
"""A capital's height, in type sizes (Bitstream Vera)."""
VP_PATTERNS = ("solid", "tint", "hatched")
"""How each faction's VP cell is drawn, by its place in the scenario's order of factions: in
grey, where two colours can print alike, the pattern still says whose a cell is."""
EVEN_ODD = 0
"""reportlab's FILL_EVEN_ODD (not in its type stubs): a clip of a rectangle and the boxes inside
it is the rectangle less the boxes."""
KNOCKOUT = 0.8
"""Points of a hex id's knockout round its figures: the railways and roads under it stop that
far short of it."""
SMOOTH_STEPS = 8
"""Points per hex of a railway's smooth line."""


def smooth_through(line: Points, towns: Sequence[bool] | None = None) -> Points:
    """A line through hex centres drawn smooth: across each hex from the middle of the side it
    enters by to the middle of the side it leaves by, straight from the first centre and to the
    last. In a hex with a town (`towns`, a flag per centre) it runs through the centre, where the
    town's dot is: two cubic Bezier curves that meet there heading from the one middle to the
    other; elsewhere a quadratic Bezier curve with the centre its control point. It keeps inside
    the same hexes, crosses each hexside at its middle (where a bridge is drawn), and bends
    without a corner."""
    if len(line) < 3:
        return line
    mids = (line[:-1] + line[1:]) / 2
    t = np.linspace(0.0, 1.0, SMOOTH_STEPS + 1)[1:, None]

    def cubic(p0: Points, p1: Points, p2: Points, p3: Points) -> Points:
        return (1 - t) ** 3 * p0 + 3 * (1 - t) ** 2 * t * p1 + 3 * (1 - t) * t**2 * p2 + t**3 * p3

    out = [line[:1], mids[:1]]
    for k in range(1, len(line) - 1):
        a, centre, b = mids[k - 1], line[k], mids[k]
        if towns is not None and towns[k]:
            heading = (b - a) / 4
            out.append(cubic(a, (a + centre) / 2, centre - heading, centre))
            out.append(cubic(centre, centre + heading, (b + centre) / 2, b))
        else:
            out.append((1 - t) ** 2 * a + 2 * (1 - t) * t * centre + t**2 * b)
    out.append(line[-1:])
    return np.vstack(out)


RIVER_BEND = 0.07
"""How far a river bends off the middle of its hexside, as a share of the side's length: enough
to read as a river, never enough to leave the hexside."""


def corner_key(p: Points) -> tuple[float, float]:
    """A corner of the grid as a key: hexes and hexsides that share it give the same one."""
    return (round(float(p[0]), 1), round(float(p[1]), 1))


def rounded(line: Points, rounds: int = 2) -> Points:
    """The line with its corners cut round (Chaikin's corner cutting), its two ends kept."""
    for _ in range(rounds):
        if len(line) < 3:
            return line
        near = 0.75 * line[:-1] + 0.25 * line[1:]
        far = 0.25 * line[:-1] + 0.75 * line[1:]
        cut = np.empty((2 * (len(line) - 1), 2))
        cut[0::2], cut[1::2] = near, far
        line = np.vstack([line[:1], cut[1:-1], line[-1:]])
    return line


def hex_colour(value: str) -> tuple[float, float, float]:
    return int(value[1:3], 16) / 255, int(value[3:5], 16) / 255, int(value[5:7], 16) / 255


def readable_on(fill: str) -> str:
    """Black or white text, whichever reads better on the fill."""
    r, g, b = hex_colour(fill)
    return "#000000" if 0.299 * r + 0.587 * g + 0.114 * b > 0.55 else "#FFFFFF"


@dataclass(frozen=True)
class TownMark:
    name: str
    """As the rules spell it."""
    shown: str
    """As the map prints it first: the 1919 name (the rules' name goes beneath where it differs)."""
    x: float
    y: float
    vp: tuple[tuple[str, int | None], ...]
    port: bool


@dataclass
class Drawn:
    """The game features a drawing painted, as the board names them."""

    rail: set[frozenset[str]] = field(default_factory=set)
    roads: set[frozenset[str]] = field(default_factory=set)
    rivers: set[tuple[frozenset[str], str]] = field(default_factory=set)
    """(hexside, river class)."""
    bridges: set[frozenset[str]] = field(default_factory=set)
    ferries: set[tuple[frozenset[str], int]] = field(default_factory=set)
    sea_sides: set[frozenset[str]] = field(default_factory=set)
    towns: set[tuple[str, str]] = field(default_factory=set)
    """(hex, town)."""
    labels: list[tuple[str, Box]] = field(default_factory=list)
    """(label, its box): a town hex's label is keyed by its towns, a place's by its name."""
    symbols: list[tuple[str, Box]] = field(default_factory=list)
    """(label it belongs to, box) of each town marker, port anchor and place square."""
    hex_ids: list[tuple[str, Box]] = field(default_factory=list)
    """(hex, box) of each hex id printed; one a label covers is left out."""
    leaders: list[tuple[str, tuple[tuple[float, float], tuple[float, float]]]] = field(default_factory=list)


@dataclass(frozen=True)
class Row:
    """One line of a label block: a name, or (with `vp`) a town's row of VP boxes. Sizes in
    points, its halo included; `gap` is the space above it."""

    text: str
    font: str
    size: float
    width: float
    height: float
    gap: float = 0.0
    vp: tuple[tuple[str, int | None], ...] = ()


@dataclass(frozen=True)
class LabelPlaces:
    """Where the map's names go, worked out from its geometry alone: the same for every drawing
    of one map, so kept between runs (`kitgen.render.mapcache.place_labels_once`)."""

    labels: dict[str, Placed]
    rivers: list[tuple[str, Points, shapely.Polygon]]
    covered: set[str]
    obstacles: Obstacles


class MapArt:
    """Everything the map shows, in points; (0, 0) is the frame's bottom-left corner."""

    def __init__(self, hex_map: HexMap, scenario: Scenario, style: MapStyle) -> None:
        register_fonts()
        self.map = hex_map
        self.s = scenario
        self.style = style
        self.grid = hex_map.grid
        left, bottom, right, top = hex_map.frame_km
        self.origin = (left, bottom)
        self.k = style.hex_across_in * 72.0 / hex_map.hex_size_km
        """Points per km."""
        self.width = (right - left) * self.k
        self.height = (top - bottom) * self.k
        self.hex_pt = hex_map.hex_size_km * self.k
        self.centres = {h.id: self.pt(np.array([[h.x_km, h.y_km]]))[0] for h in hex_map.hexes}
        self.board = Board.from_map(hex_map)
        self.drawn = Drawn()
        """What the last `draw` painted."""
        self.positions_shown = False
        """Whether the sheet marks starting positions (and its key explains them)."""
        self.owners: dict[str, str] = {}
        """Town -> its first owner, when the sheet shows the set-up: the marker takes its colour."""
        self._geography()

    # --- coordinates ---------------------------------------------------------------------

    def pt(self, xy: Points) -> Points:
        return np.asarray((xy - np.array(self.origin)) * self.k, dtype=float)

    def corners(self, hx: Hex) -> Points:
        centre = np.array([[hx.x_km, hx.y_km]])
        return self.pt(self.grid.corners(centre)[0])

    def to_pt(self, geometry: BaseGeometry) -> BaseGeometry:
        """Map km to page points, clipped to the frame."""
        frame = shapely.box(0, 0, self.width, self.height)
        return shapely.intersection(shapely.transform(geometry, lambda xy: self.pt(np.asarray(xy, dtype=float))), frame)

    def _geography(self) -> None:
        self.towns = self._towns()

    @cached_property
    def _sea_and_coast(self) -> tuple[BaseGeometry, BaseGeometry]:
        """The background art: the true sea and coast, where the map has geography (a map given
        hex by hex has none: its sea hexes are its sea). Projected only when drawn: a packet
        that lays an already drawn map under its pages needs only the hexes' places."""
        if self.map.projection == NO_PROJECTION:
            return shapely.Polygon(), shapely.LineString()
        layers = Layers(self.s, MapProjection(self.map.projection))
        frame = shapely.box(0, 0, self.width, self.height)
        return shapely.difference(frame, self.to_pt(layers.wet_land)), self.to_pt(shapely.boundary(layers.land))

    @cached_property
    def _sea_parts(self) -> list[tuple[tuple[float, float, float], BaseGeometry]]:
        """(colour, area) of the sea: in the sea's colour outside the hexes tinted for their
        terrain, and inside each terrain's hexes a wash of it over their tint (opaque: a print
        shop's RIP flattens no transparency)."""
        sea = hex_colour(self.style.colours.sea)
        parts: list[tuple[tuple[float, float, float], BaseGeometry]] = []
        rest = self.sea
        for terrain, colour in sorted(self.style.colours.terrain.items()):
            hexes = [shapely.Polygon(self.corners(h)) for h in self.map.hexes if h.terrain == terrain]
            if not hexes or rest.is_empty:
                continue
            area = shapely.union_all(hexes)
            tint = hex_colour(colour)
            wash = tuple(t + (s - t) * SEA_WASH for t, s in zip(tint, sea, strict=True))
            parts.append((wash, shapely.intersection(rest, area)))  # type: ignore[arg-type]
            rest = shapely.difference(rest, area)
        return [(sea, rest), *parts]

    @property
    def sea(self) -> BaseGeometry:
        return self._sea_and_coast[0]

    @property
    def coastline(self) -> BaseGeometry:
        return self._sea_and_coast[1]

    def _towns(self) -> dict[str, list[TownMark]]:
        scoring = [f.id for f in self.s.meta.factions if f.scores_vp]
        marks: dict[str, list[TownMark]] = {}
        for town in self.s.towns:
            hx = self.map.town_hex(town.name)
            if hx is None:
                continue
            x, y = self.centres[hx.id]  # the board's town is its hex: the symbol sits at the centre
            vp = tuple((f, town.vp.get(f)) for f in scoring)
            mark = TownMark(town.name, town.shown_name, float(x), float(y), vp, town.port)
            marks.setdefault(hx.id, []).append(mark)
        return marks

    # --- drawing -------------------------------------------------------------------------

    def draw(self, c: Canvas, *, names: bool = True, words: bool = True) -> None:
        """Paint the whole map with the frame's bottom-left corner at the current origin; without
        `names`, the towns', places' and rivers' names are left to whoever draws over it (a
        packet's sector, round its counters); without `words`, no text at all (a packet's overview)."""
        c.saveState()
        self._ground(c)
        self._symbols(c)
        self._grid(c)
        self._sea_hexsides(c)
        self._river_hexsides(c)
        c.saveState()
        if words:  # the lines and bridges stop short of the hex ids printed over them
            self._knock_out_hex_ids(c)
        self._roads(c)
        self._rail(c)
        self._bridges(c)
        c.restoreState()
        self._ferries(c, words=words)
        if words:
            self._hex_ids(c)
        self._supply(c)
        if names and words:
            self._river_names(c)
        self._places(c, names=names and words)
        self._town_marks(c, names=names and words)
        c.restoreState()
        self._edges(c, words=words)
        c.setStrokeColorRGB(*hex_colour(self.style.colours.frame))
        c.setLineWidth(self.style.widths.frame)
        c.rect(0, 0, self.width, self.height, stroke=1, fill=0)

    def _ground(self, c: Canvas) -> None:
        """Clipped to the frame: the land, each terrain's hexes and the sea; a fresh record."""
        p = c.beginPath()
        p.rect(0, 0, self.width, self.height)
        c.clipPath(p, stroke=0, fill=0)
        self.fill(c, self.style.colours.land)
        c.rect(0, 0, self.width, self.height, stroke=0, fill=1)
        self._terrain(c)
        self._sea(c)
        self.drawn = Drawn()

    def draw_art(self, c: Canvas) -> None:
        """The map as a picture, for a cover: terrain, sea, rivers and the railways as plain
        lines, the towns as their markers; no grid, ids, labels or symbols (cheap to draw, and
        drawn once: every later picture lays down the same operators)."""
        self.picture.draw(c)

    @cached_property
    def picture(self) -> Picture:
        """What `draw_art` draws (kept between runs: `kitgen.render.mapcache.map_picture`)."""
        return record(self._paint_art, self.width, self.height)

    def _paint_art(self, c: Canvas) -> None:
        c.saveState()
        self._ground(c)
        self._river_hexsides(c)
        self.stroke(c, self.style.colours.rail, self.style.widths.rail)
        c.setLineJoin(1)
        self.lines(c, self.rail_lines)
        for hex_id in self.towns:
            x, y = self.centres[hex_id]
            self.town_marker(c, float(x), float(y), self.best_vp(hex_id))
        c.restoreState()

    def fill(self, c: Canvas, colour: str) -> None:
        c.setFillColorRGB(*hex_colour(colour))

    def stroke(self, c: Canvas, colour: str, width: float) -> None:
        c.setStrokeColorRGB(*hex_colour(colour))
        c.setLineWidth(width)

    def _terrain(self, c: Canvas) -> None:
        for terrain, colour in sorted(self.style.colours.terrain.items()):
            hexes = [h for h in self.map.hexes if h.terrain == terrain]
            if hexes:
                self.fill(c, colour)
                c.drawPath(rings_path(c, (self.corners(h) for h in hexes)), stroke=0, fill=1)
        sea_hexes = [h for h in self.map.hexes if h.terrain == SEA]
        self.fill(c, self.style.colours.sea)
        c.drawPath(rings_path(c, (self.corners(h) for h in sea_hexes)), stroke=0, fill=1)

    def _sea(self, c: Canvas) -> None:
        """The true sea and coast; over a hex tinted for its terrain (the Sivash's marsh), the sea
        is a wash, so that the hex keeps its tint under it."""
        for colour, part in self._sea_parts:
            rings = [np.asarray(r.coords) for poly in _polygons(part) for r in [poly.exterior, *poly.interiors]]
            if rings:
                c.setFillColorRGB(*colour)
                c.drawPath(rings_path(c, rings), stroke=0, fill=1, fillMode=1)
        self.stroke(c, self.style.colours.coast, self.style.widths.coast)
        c.setLineJoin(1)
        self.lines(c, _lines(self.coastline))

    def lines(self, c: Canvas, lines: Iterable[Points]) -> None:
        path = c.beginPath()
        for line in lines:
            path.moveTo(*line[0])
            for x, y in line[1:]:
                path.lineTo(x, y)
        c.drawPath(path, stroke=1, fill=0)

    def _symbols(self, c: Canvas) -> None:
        """Small marks that tell terrain apart without colour: trees, reed tufts, peaks."""
        spots = [(-0.24, -0.2), (0.22, -0.22), (-0.02, -0.34), (0.3, 0.08), (-0.3, 0.1)]
        for h in self.map.hexes:
            if h.terrain in self.style.colours.symbols:
                cx, cy = self.centres[h.id]
                for dx, dy in spots:
                    self.terrain_symbol(c, h.terrain, cx + dx * self.hex_pt, cy + dy * self.hex_pt)

    def terrain_symbol(self, c: Canvas, terrain: str, x: float, y: float) -> None:
        """One tree, reed tuft or peak centred on (x, y)."""
        draw_terrain_symbol(c, self.style, terrain, x, y, self.hex_pt)

    def _grid(self, c: Canvas) -> None:
        """The hex grid, but along the rivers: a river is its hexsides' line (`_river_hexsides`),
        and a grid line beside its bends would read as a second bank."""
        self.stroke(c, self.style.colours.grid, self.style.widths.grid)
        c.setLineJoin(1)
        c.setLineCap(1)
        self.lines(c, self.grid_lines)

    @cached_property
    def grid_lines(self) -> list[Points]:
        """The hexsides of the grid that are no river, each once."""
        rivers = {
            tuple(sorted(corner_key(p) for p in self.hexside(*sorted(pair))))
            for pair, x in self.board.sides.items()
            if x.river_class in ("major", "crossable")
        }
        centres = np.array([[h.x_km, h.y_km] for h in self.map.hexes])
        rings = self.pt(self.grid.corners(centres).reshape(-1, 2)).reshape(len(centres), 7, 2)
        ends = np.stack([rings[:, :-1], rings[:, 1:]], axis=2).reshape(-1, 2, 2)  # every hex's six sides
        keyed = np.round(ends, 1)
        flip = (keyed[:, 0, 0] > keyed[:, 1, 0]) | (
            (keyed[:, 0, 0] == keyed[:, 1, 0]) & (keyed[:, 0, 1] > keyed[:, 1, 1])
        )
        keyed[flip] = keyed[flip][:, ::-1]
        ends[flip] = ends[flip][:, ::-1]
        _, first = np.unique(keyed.reshape(-1, 4), axis=0, return_index=True)
        first.sort()  # in the hexes' order, so that the drawing is the same every time
        return [
            ends[k]
            for k in first
            if ((float(keyed[k, 0, 0]), float(keyed[k, 0, 1])), (float(keyed[k, 1, 0]), float(keyed[k, 1, 1])))
            not in rivers
        ]

    def hexside(self, a: str, b: str) -> Points:
        """The two ends of the side shared by hexes a and b."""
        ca, cb = self.centres[a], self.centres[b]
        mid = (ca + cb) / 2
        normal = np.array([-(cb - ca)[1], (cb - ca)[0]])
        normal = normal / np.linalg.norm(normal) * self.hex_pt / math.sqrt(3) / 2
        return np.array([mid - normal, mid + normal])

    def sea_side_mark(self, c: Canvas, ends: Points) -> None:
        """Open water between two shores: a wide band of sea with a dashed coast line along it."""
        c.setLineCap(1)
        self.stroke(c, self.style.colours.sea, self.style.widths.major_river * 1.4)
        self.lines(c, [ends])
        self.stroke(c, self.style.colours.coast, self.style.widths.coast)
        c.setDash(2.5, 2)
        self.lines(c, [ends])
        c.setDash()

    def _sea_hexsides(self, c: Canvas) -> None:
        for pair, side in sorted(self.board.sides.items(), key=lambda kv: sorted(kv[0])):
            if side.sea and not side.bridge:
                self.sea_side_mark(c, self.hexside(*side.hexes))
                self.drawn.sea_sides.add(pair)

    def _river_hexsides(self, c: Canvas) -> None:
        """Rivers as the rules see them, drawn as rivers: each run of river hexsides one line
        along them, meandering a little within each hexside, the major rivers twice as heavy."""
        c.setLineCap(1)
        c.setLineJoin(1)
        for river_class, width in (
            ("crossable", self.style.widths.crossable_river),
            ("major", self.style.widths.major_river),
        ):
            sides = sorted(tuple(sorted(pair)) for pair, x in self.board.sides.items() if x.river_class == river_class)
            self.stroke(c, self.style.colours.river, width)
            self.lines(c, self.river_lines[river_class])
            self.drawn.rivers |= {(frozenset(pair), river_class) for pair in sides}

    @cached_property
    def river_lines(self) -> dict[str, list[Points]]:
        """Each class's river hexsides ('major', 'crossable') joined into runs (a run ends where
        the river branches, changes class or stops), each drawn as a river: a slight bend in
        every hexside, to one side or the other as the hexside's ids fall, and its corners
        rounded; the runs' ends stay at the hexsides' corners, so that runs join."""
        return {river_class: self._river_runs(river_class) for river_class in ("major", "crossable")}

    def _river_runs(self, river_class: str) -> list[Points]:
        corner: dict[tuple[float, float], Points] = {}
        bends: dict[frozenset[tuple[float, float]], Points] = {}
        links = []
        for pair, x in sorted(self.board.sides.items(), key=lambda item: sorted(item[0])):
            if x.river_class != river_class:
                continue
            a, b = sorted(pair)
            ends = self.hexside(a, b)
            keys = [corner_key(p) for p in ends]
            for key, point in zip(keys, ends, strict=True):
                corner.setdefault(key, point)
            link = frozenset(keys)
            links.append(link)
            side = ends[1] - ends[0]
            normal = np.array([-side[1], side[0]])
            if abs(float(side[1])) < 1e-6 * float(np.linalg.norm(side)):  # a side with a hex id under it:
                sign = 1.0 if normal[1] > 0 else -1.0  # the bend goes up, clear of the id
            else:
                sign = 1.0 if zlib.crc32(f"{a}{b}".encode()) % 2 else -1.0
            bends[link] = (ends[0] + ends[1]) / 2 + normal * RIVER_BEND * sign
        lines = []
        for chain in link_chains(links):
            points = [corner[chain[0]]]
            for here, there in zip(chain, chain[1:], strict=False):
                points += [bends[frozenset((here, there))], corner[there]]
            lines.append(rounded(np.array(points)))
        return lines

    def link_lines(self, links: Iterable[frozenset[str]]) -> list[Points]:
        """Links between adjacent hexes joined into lines through the hexes' centres: a line runs
        on through a hex it enters and leaves, and ends where it branches or stops."""
        return [np.array([self.centres[h] for h in chain]) for chain in link_chains(links) if len(chain) > 1]

    def _roads(self, c: Canvas) -> None:
        self.stroke(c, self.style.colours.road, self.style.widths.road)
        c.setLineJoin(1)
        c.setDash(4, 2.5)
        self.lines(c, self.link_lines(self.board.roads))
        c.setDash()
        self.drawn.roads |= set(self.board.roads)

    @cached_property
    def rail_lines(self) -> list[Points]:
        """The railways as drawn: smooth lines through the same hexes as the board's links."""
        stops = set(self.towns) | set(self.place_hex.values())  # the dots and squares at hex centres
        return [
            smooth_through(np.array([self.centres[h] for h in chain]), [h in stops for h in chain])
            for chain in link_chains(self.board.rail)
            if len(chain) > 1
        ]

    def _rail(self, c: Canvas) -> None:
        rails = self.rail_lines
        self.drawn.rail |= set(self.board.rail)
        self.stroke(c, self.style.colours.rail, self.style.widths.rail)
        c.setLineCap(0)
        c.setLineJoin(1)
        self.lines(c, rails)
        ties = []
        half = 2.2 * self.hex_pt / 72.0
        spacing = 7.0 * self.hex_pt / 72.0
        for line in rails:
            geometry = shapely.LineString(line)
            count = int(geometry.length // spacing)
            for i in range(1, count):
                a = shapely.line_interpolate_point(geometry, i * spacing - 0.5)
                b = shapely.line_interpolate_point(geometry, i * spacing + 0.5)
                (x0, y0), (x1, y1) = a.coords[0], b.coords[0]
                length = math.hypot(x1 - x0, y1 - y0) or 1.0
                ux, uy = (x1 - x0) / length, (y1 - y0) / length
                x, y = (x0 + x1) / 2, (y0 + y1) / 2
                ties.append(np.array([[x - uy * half, y + ux * half], [x + uy * half, y - ux * half]]))
        self.stroke(c, self.style.colours.rail, self.style.widths.rail_tie)
        self.lines(c, ties)

    def _bridges(self, c: Canvas) -> None:
        """A bridge: two short bars either side of the line, where it crosses its hexside (the
        line runs centre to centre, so through the side's middle)."""
        u = self.hex_pt / 72.0
        self.stroke(c, self.style.colours.rail, 0.9 * u)
        c.setLineCap(0)
        for pair, side in sorted(self.board.sides.items(), key=lambda kv: sorted(kv[0])):
            if not side.bridge or not (side.river_class or side.sea):
                continue
            ends = self.hexside(*side.hexes)
            where = ends.mean(axis=0)
            along = (ends[1] - ends[0]) / np.linalg.norm(ends[1] - ends[0])
            across = np.array([-along[1], along[0]])
            for sign in (-1, 1):
                p0 = where + along * sign * 3.2 * u - across * 4.5 * u
                p1 = where + along * sign * 3.2 * u + across * 4.5 * u
                c.line(*p0, *p1)
            self.drawn.bridges.add(pair)

    def _ferries(self, c: Canvas, *, words: bool = True) -> None:
        """A.1: a ferry on its hexside: a disc across the river with the units it takes a turn."""
        for pair, units in sorted(self.board.ferries.items(), key=lambda kv: sorted(kv[0])):
            ends = self.hexside(*sorted(pair))
            x, y = ends.mean(axis=0)
            self.ferry_mark(c, float(x), float(y), units, words=words)
            self.drawn.ferries.add((pair, units))

    def ferry_mark(self, c: Canvas, x: float, y: float, units: int, *, words: bool = True) -> None:
        u = self.hex_pt / 72.0
        size = self.style.fonts.ferry * max(u, 1.0)  # smaller hexes (a print-shop poster), the same type
        r = max(4.8 * u, size * 0.68)
        c.saveState()
        self.fill(c, self.style.colours.halo)
        self.stroke(c, self.style.colours.river, 1.0 * u)
        c.circle(x, y, r, stroke=1, fill=1)
        self.fill(c, self.style.colours.river)
        if words:
            c.setFont(SANS_BOLD, size)
            c.drawCentredString(x, y - 0.36 * size, str(units))
        c.restoreState()

    def hex_id_spots(self) -> list[tuple[str, float, float, Box]]:
        """(hex, x, baseline, box) of each hex id: at the top of the hex, or of the part of it
        the frame leaves."""
        return list(self._hex_id_spots)

    @cached_property
    def _hex_id_spots(self) -> tuple[tuple[str, float, float, Box], ...]:
        size = self.style.fonts.hex_id
        half = text_width("0000", SANS, size) / 2 + 1.0
        spots = []
        for h in self.map.hexes:
            x, y = self.centres[h.id]
            top = min(y + self.hex_pt / 2, self.height)
            x = min(max(x, half), self.width - half)
            base = top - size - 1.2
            w = text_width(h.id, SANS, size) / 2 + KNOCKOUT
            box = (float(x - w), float(base - KNOCKOUT), float(x + w), float(base + ASCENT * size + KNOCKOUT))
            spots.append((h.id, float(x), float(base), box))
        return tuple(spots)

    def _knock_out_hex_ids(self, c: Canvas) -> None:
        """Clip what is drawn next to the frame less the boxes of the hex ids that will be
        printed: a railway, road or bridge's bar running through an id stops short of its
        figures, and nothing else (the coast, a river) is covered."""
        path = c.beginPath()
        path.rect(0, 0, self.width, self.height)
        hidden = self.covered_hex_ids
        for hex_id, _, _, (x0, y0, x1, y1) in self.hex_id_spots():
            if hex_id not in hidden:
                path.rect(x0, y0, x1 - x0, y1 - y0)
        c.clipPath(path, stroke=0, fill=0, fillMode=EVEN_ODD)

    def _hex_ids(self, c: Canvas) -> None:
        size = self.style.fonts.hex_id
        hidden = self.covered_hex_ids
        self.fill(c, self.style.colours.hex_id)
        c.setFont(SANS, size)
        for hex_id, x, base, box in self.hex_id_spots():
            if hex_id not in hidden:
                c.drawCentredString(x, base, hex_id)
                self.drawn.hex_ids.append((hex_id, box))

    def unit_square(self, c: Canvas, faction: str, x0: float, y0: float, size: float) -> None:
        """A unit where it starts: a square in its faction's colour with the faction's mark."""
        from kitgen.render.pages import faction_chip

        colour = next((f.colour for f in self.s.meta.factions if f.id == faction), "#808080")
        faction_chip(c, faction, colour, x0, y0, size, line=0.5)

    def starting_positions(self, c: Canvas, units: list[tuple[str, str]]) -> None:
        """A small square per unit, in its faction's colour with the faction's mark, low in the
        hex where it starts (four at most; '+n' for the rest)."""
        by_hex: dict[str, list[str]] = {}
        for faction, hex_id in units:
            if hex_id in self.centres:
                by_hex.setdefault(hex_id, []).append(faction)
        size, gap = self.hex_pt * 0.17, self.hex_pt * 0.03
        c.saveState()
        c.setLineWidth(0.5)
        for hex_id, factions in sorted(by_hex.items()):
            x, y = self.centres[hex_id]
            shown = sorted(factions)[:4]
            left = x - (len(shown) * size + (len(shown) - 1) * gap) / 2
            bottom = y - self.hex_pt * 0.43
            for i, faction in enumerate(shown):
                self.unit_square(c, faction, left + i * (size + gap), bottom, size)
            if len(factions) > len(shown):
                more = f"+{len(factions) - len(shown)}"
                cx = left + len(shown) * (size + gap) + size * 0.5
                self.halo_text(c, more, cx, bottom + size * 0.2, SANS_BOLD, size * 0.75, self.style.colours.town)
        c.restoreState()

    def _supply(self, c: Canvas) -> None:
        """Supply-source towns: a dashed ring in the faction's colour round the town."""
        marks = {m.name: m for ms in self.towns.values() for m in ms}
        for source in self.map.supply_sources:
            faction = self.s.faction(source.faction)
            mark = marks.get(source.town or "")
            if source.kind == "town" and faction is not None and mark is not None:
                self.supply_ring(c, mark.x, mark.y, faction.colour)

    def supply_ring(self, c: Canvas, x: float, y: float, colour: str, radius: float | None = None) -> None:
        u = self.hex_pt / 72.0
        r = 0.3 * self.hex_pt if radius is None else radius
        c.setDash(3 * u, 1.6 * u)
        # a dark edge under the colour, so a light one (Ukrainian yellow) still shows in grayscale
        for ink, width in (("#1E1E1E", 3.2 * u), (colour, 2.0 * u)):
            self.stroke(c, ink, width)
            c.circle(x, y, r, stroke=1, fill=0)
        c.setDash()

    def _town_marks(self, c: Canvas, *, names: bool = True) -> None:
        """Each town hex's symbol at the hex's centre, sized by its best VP, and its label where
        it was placed; where towns share a hex, one symbol and their names stacked in one block,
        each with its VP."""
        keys = self.town_keys()
        for hex_id in sorted(self.towns):
            marks = self.towns[hex_id]
            owner = next((self.owners[m.name] for m in marks if m.name in self.owners), None)
            x, y = self.centres[hex_id]
            self.town_marker(c, x, y, self.best_vp(hex_id), owner)
            radius, anchor = self.town_symbol(hex_id)
            self.drawn.symbols.append((keys[hex_id], (x - radius, y - radius, x + radius, y + radius)))
            if anchor is not None:
                self.anchor(c, x + radius + 5.5 * self.hex_pt / 72.0, y + 1.5 * self.hex_pt / 72.0)
                self.drawn.symbols.append((keys[hex_id], anchor))
            if names:
                self._block(c, keys[hex_id], self.town_rows(hex_id))
            for mark in marks:
                self.drawn.towns.add((hex_id, mark.name))

    def town_keys(self) -> dict[str, str]:
        """Town hex -> its label's key: its towns' names as the rules spell them."""
        return {h: " + ".join(m.name for m in marks) for h, marks in self.towns.items()}

    def best_vp(self, hex_id: str) -> int:
        return max((v or 0) for m in self.towns[hex_id] for _, v in m.vp)

    def town_symbol(self, hex_id: str) -> tuple[float, Box | None]:
        """The marker's half-size (its edge line included) and the port anchor's box, if any."""
        u = self.hex_pt / 72.0
        x, y = (float(v) for v in self.centres[hex_id])
        radius = (2.4 + 0.55 * min(self.best_vp(hex_id), 6)) * u
        if not any(m.port for m in self.towns[hex_id]):
            return radius + 0.4 * u, None
        ax, ay = x + radius + 5.5 * u, y + 1.5 * u
        return radius + 0.4 * u, (ax - 3.7 * u, ay - 6.1 * u, ax + 3.7 * u, ay + 5.1 * u)

    def text_row(self, text: str, font: str, size: float, gap: float = 0.0) -> Row:
        pad = 0.14 * size  # the halo
        return Row(text, font, size, text_width(text, font, size) + 2 * pad, size + 2 * pad, gap)

    def town_rows(self, hex_id: str) -> list[Row]:
        """A town hex's label, top to bottom: for each town its 1919 name, the rules' name in
        small type where it differs, and its VP boxes; then any named place in the hex."""
        u = self.hex_pt / 72.0
        size, box = self.style.fonts.town, self.style.fonts.vp + 2.4 * u
        rows = []
        for k, mark in enumerate(self.towns[hex_id]):
            font = SANS_BOLD if max((v or 0) for _, v in mark.vp) >= 3 else SANS
            rows.append(self.text_row(mark.shown, font, size, gap=1.6 * u if k else 0.0))
            if name_key(mark.shown) != name_key(mark.name):
                rows.append(self.text_row(mark.name, SANS, self.style.fonts.rules_name, gap=-0.6 * u))
            rows.append(
                Row("", SANS_BOLD, self.style.fonts.vp, len(mark.vp) * box + 0.4 * u, box + 0.4 * u, -1.0 * u, mark.vp)
            )
        for name in self.places_in_town_hexes().get(hex_id, []):
            rows.append(self.text_row(name, SANS_ITALIC, self.style.fonts.place, gap=0.8 * u))
        return rows

    def place_rows(self, name: str) -> list[Row]:
        return [self.text_row(name, SANS_ITALIC, self.style.fonts.place)]

    @cached_property
    def label_spots(self) -> dict[str, Placed]:
        """Where each label goes, worked out once (geometry only, so every tile agrees): town
        hexes first, the most valuable first, then the named places."""
        u = self.hex_pt / 72.0
        keys = self.town_keys()
        hexes = self.map.by_id()
        wants, symbols = [], []
        for hex_id in sorted(self.towns, key=lambda h: (-self.best_vp(h), -len(self.towns[h]), h)):
            x, y = (float(v) for v in self.centres[hex_id])
            radius, anchor = self.town_symbol(hex_id)
            around = (x - radius, y - radius, x + radius, y + radius)
            symbols.append(around)
            if anchor is not None:
                symbols.append(anchor)
                around = (
                    min(around[0], anchor[0]),
                    min(around[1], anchor[1]),
                    max(around[2], anchor[2]),
                    max(around[3], anchor[3]),
                )
            rows = self.town_rows(hex_id)
            home = shapely.Polygon(self.corners(hexes[hex_id]))
            width, height = max(r.width for r in rows), sum(r.height + r.gap for r in rows)
            wants.append(Want(keys[hex_id], width, height, x, y, around, radius, home))
        for name, x, y in self.place_labels():
            half = 1.9 * u
            around = (x - half, y - half, x + half, y + half)
            symbols.append(around)
            rows = self.place_rows(name)
            wants.append(
                Want(name, max(r.width for r in rows), sum(r.height + r.gap for r in rows), x, y, around, half)
            )
        placed = place_labels(
            wants,
            self.label_obstacles,
            frame=(0.0, 0.0, self.width, self.height),
            symbols=symbols,
            gap=1.2 * u,
            step=5.0 * u,
            pad=0.8 * u,
            leader_cost=50.0,
        )
        return {p.key: p for p in placed}

    def label_places(self) -> LabelPlaces:
        return LabelPlaces(self.label_spots, self.river_name_spots, self.covered_hex_ids, self.label_obstacles)

    def recall(self, places: LabelPlaces) -> None:
        """Take the label places of an earlier run of this same map instead of working them out."""
        # a cached_property is kept in the instance's __dict__: filling it is what computing it does
        self.__dict__.update(
            label_spots=places.labels,
            river_name_spots=places.rivers,
            covered_hex_ids=places.covered,
            label_obstacles=places.obstacles,
        )

    @cached_property
    def label_obstacles(self) -> Obstacles:
        """What a name should not cover, and what covering it costs: a hex id (left out, then)
        by its area; rail, rivers, open water, roads and the coast by the length crossed."""
        u = self.hex_pt / 72.0
        found = Obstacles()
        found.add_boxes([box for _, _, _, box in self.hex_id_spots()], 2.0)
        found.add_lines(self.rail_lines, 40.0)  # a name on the line reads badly, and hides a station
        found.add_lines(self.link_lines(self.board.roads), 2.0)
        for river_class, price in (("major", 6.0), ("crossable", 4.0)):
            sides = sorted(sorted(pair) for pair, x in self.board.sides.items() if x.river_class == river_class)
            found.add_lines([self.hexside(a, b) for a, b in sides], price)
        sea = sorted(sorted(pair) for pair, x in self.board.sides.items() if x.sea and not x.bridge)
        found.add_lines([self.hexside(a, b) for a, b in sea], 3.0)
        found.add_lines(_lines(self.coastline), 1.5)
        marks = []
        for pair, side in self.board.sides.items():
            if side.bridge and (side.river_class or side.sea) or pair in self.board.ferries:
                x, y = self.hexside(*sorted(pair)).mean(axis=0)
                marks.append((x - 5 * u, y - 5 * u, x + 5 * u, y + 5 * u))
        found.add_boxes(sorted(marks), 10.0)
        found.add_shapes([shape for _, _, shape in self.river_name_spots], FORBIDDEN)  # text on text: never
        return found

    @cached_property
    def covered_hex_ids(self) -> set[str]:
        """The hex ids a label, a river's name or the map's furniture covers: left out, so nothing
        is printed over them."""
        spots = self.hex_id_spots()
        labels = [shapely.box(*p.box) for p in self.label_spots.values()]
        labels += [shape for _, _, shape in self.river_name_spots]
        labels += [shapely.box(*box) for box in self.furniture_boxes()]
        if not labels or not spots:
            return set()
        ids = shapely.box(*np.array([box for _, _, _, box in spots]).T)
        boxes = np.array(labels, dtype=object)
        i, j = shapely.STRtree(boxes).query(ids, predicate="intersects")
        shared = shapely.area(shapely.intersection(ids[i], boxes[j])) > 1e-6
        return {spots[k][0] for k in i[shared].tolist()}

    def furniture_boxes(self) -> list[Box]:
        """What the map's furniture covers: the seas' and regions' names and the compass
        (set where the layout puts them, at their own sizes even where the hexes are small)."""
        from kitgen.render.mapfurniture import compass_reach, north_arrow_at, placed_names

        furniture = self.style.furniture
        boxes: list[Box] = []
        for name in placed_names(self):  # capitals: from the baseline up (J and Q dip a little)
            look = furniture.sea_name if name.kind == "sea" else furniture.region_name
            below = 0.1 * look.size if set(name.text) & set("JQ") else 0.0
            boxes.append((name.x - name.width / 2, name.y - below, name.x + name.width / 2, name.y + CAP * look.size))
        arrow = north_arrow_at(self)
        if arrow is not None:
            x, y, length = arrow
            reach = compass_reach(length)
            boxes.append((x - reach, y - reach, x + reach, y + reach))
        return boxes

    def _block(self, c: Canvas, key: str, rows: list[Row], spot: Placed | None = None) -> None:
        """A label's rows in the box placed for it (or at `spot`): centred above or below the
        symbol, ranged towards it beside it; and its leader line, if it stands off."""
        spot = spot or self.label_spots[key]
        x0, _, x1, top = spot.box
        for row in rows:
            top -= row.gap
            if spot.side.endswith("right"):
                cx = x0 + row.width / 2
            elif spot.side.endswith("left"):
                cx = x1 - row.width / 2
            else:
                cx = (x0 + x1) / 2
            if row.vp:
                self.vp_boxes(c, cx, top - row.height + 0.2 * self.hex_pt / 72.0, list(row.vp))
            else:
                base = top - 0.14 * row.size - ASCENT * row.size
                self.halo_text(c, row.text, cx, base, row.font, row.size, self.style.colours.town)
            top -= row.height
        if spot.leader is not None:
            self.stroke(c, self.style.colours.town, 0.5 * self.hex_pt / 72.0)
            c.setLineCap(1)
            c.line(*spot.leader[0], *spot.leader[1])
            self.drawn.leaders.append((key, spot.leader))
        self.drawn.labels.append((key, spot.box))

    @cached_property
    def place_hex(self) -> dict[str, str]:
        """name_key of every named place -> its hex, worked out once."""
        return place_hexes(self.s, self.map)

    def named_places(self) -> list[tuple[str, float, float]]:
        """(name, x, y) of the stations and places the set-up or a card names that are not towns
        of the VP table: units start there, or events happen there."""
        return list(self._named_places)

    @cached_property
    def _named_places(self) -> tuple[tuple[str, float, float], ...]:
        s = self.s
        named = {u.at for u in s.setup.units} | {t.at for t in s.setup.trains} | {x.at for x in s.setup.ships}
        named |= {d.at for d in s.setup.depots} | set(s.setup.destroyed_track)
        named |= {e.at for card in s.cards.events for e in card.effects if e.at}
        spelt = {name_key(p.name): p.name for p in s.railways.points}
        spelt |= {name_key(p.name): p.name for p in s.map.points}
        if s.map.board is not None:  # a map given hex by hex names its places in its hexes
            spelt |= {name_key(n): n for given in s.map.board.hexes.values() for n in given.places}
        hexes = self.place_hex
        found = []
        for name in sorted(named):
            shown = spelt.get(name_key(name))
            hex_id = hexes.get(name_key(name))
            if shown is None or hex_id not in self.centres or s.find_town(name) is not None:
                continue  # (a part of the map, as a battle sheet draws, holds only some hexes)
            x, y = self.centres[hex_id]  # where the rules put it: its hex
            found.append((shown, float(x), float(y)))
        return tuple(found)

    def place_marker(self, c: Canvas, x: float, y: float) -> None:
        u = self.hex_pt / 72.0
        c.saveState()
        self.fill(c, self.style.colours.halo)
        self.stroke(c, self.style.colours.town, 0.6 * u)
        c.rect(x - 1.6 * u, y - 1.6 * u, 3.2 * u, 3.2 * u, stroke=1, fill=1)
        c.restoreState()

    def place_labels(self) -> list[tuple[str, float, float]]:
        """The named places with a square of their own: those not in a town's hex (one that is
        is named in the town's label, under its towns)."""
        town_hexes = {(float(x), float(y)) for h in self.towns for x, y in [self.centres[h]]}
        return [(name, x, y) for name, x, y in self.named_places() if (x, y) not in town_hexes]

    def places_in_town_hexes(self) -> dict[str, list[str]]:
        at = {(float(self.centres[h][0]), float(self.centres[h][1])): h for h in self.towns}
        found: dict[str, list[str]] = {}
        for name, x, y in self.named_places():
            if (x, y) in at:
                found.setdefault(at[x, y], []).append(name)
        return found

    def _places(self, c: Canvas, *, names: bool = True) -> None:
        """Named places that are not towns: a small square and the name in italics."""
        u = self.hex_pt / 72.0
        for name, x, y in self.place_labels():
            self.place_marker(c, x, y)
            half = 1.6 * u + 0.3 * u
            self.drawn.symbols.append((name, (x - half, y - half, x + half, y + half)))
            if names:
                self._block(c, name, self.place_rows(name))

    def label_rows(self) -> dict[str, list[Row]]:
        """Every label's rows by its key (`label_spots`): a town hex's and a named place's."""
        rows = {key: self.town_rows(h) for h, key in self.town_keys().items()}
        rows.update((name, self.place_rows(name)) for name, _, _ in self.place_labels())
        return rows

    def draw_label(self, c: Canvas, key: str, rows: list[Row], spot: Placed) -> None:
        """One label at `spot`: for a packet, which draws the names over its counters."""
        self._block(c, key, rows, spot)

    def town_marker(self, c: Canvas, cx: float, cy: float, best_vp: int, owner: str | None = None) -> float:
        """A dot for a town, a square for a city (3 VP or more), sized by value; returns its radius.
        With an `owner` it is filled in the owner's colour, ringed dark (the set-up map)."""
        u = self.hex_pt / 72.0
        radius = (2.4 + 0.55 * min(best_vp, 6)) * u
        colour = next((f.colour for f in self.s.meta.factions if f.id == owner), None)
        self.fill(c, colour or self.style.colours.town)
        if colour:
            self.stroke(c, self.style.colours.town, 0.8 * u)
        else:
            self.stroke(c, self.style.colours.halo, 0.8 * u)
        if best_vp >= 3:
            c.rect(cx - radius, cy - radius, 2 * radius, 2 * radius, stroke=1, fill=1)
        else:
            c.circle(cx, cy, radius, stroke=1, fill=1)
        return radius

    def vp_boxes(self, c: Canvas, cx: float, y: float, boxes: list[tuple[str, int | None]]) -> None:
        """VP in a row of boxes, one per scoring faction in a fixed order and in its colour,
        centred on cx, bottom at y; a faction that scores nothing there gets a white box with a
        dash, so a box's place always says whose it is."""
        u = self.hex_pt / 72.0
        box = self.style.fonts.vp + 2.4 * u
        x = cx - len(boxes) * box / 2
        c.setFont(SANS_BOLD, self.style.fonts.vp)
        order = [f.id for f in self.s.meta.factions]
        for faction_id, value in boxes:
            faction = self.s.faction(faction_id)
            text = "\u2013" if value is None else str(value)
            if faction is None or value is None:
                self.fill(c, "#FFFFFF")
                self.stroke(c, "#1E1E1E", 0.35 * u)
                c.rect(x, y, box, box, stroke=1, fill=1)
                self.fill(c, "#000000")
                c.drawCentredString(x + box / 2, y + (box - self.style.fonts.vp * 0.72) / 2, text)
            else:
                pattern = VP_PATTERNS[order.index(faction_id) % len(VP_PATTERNS)]
                ink = self.vp_cell(c, x, y, box, faction.colour, pattern)
                # the faction's mark too, small in the corner, with the cell's pattern: in grey,
                # a colour alone would not say whose the box is
                self.fill(c, ink)
                faction_mark(c, faction_id, x + box * 0.26, y + box * 0.72, box * 0.32)
                figure = (x + box * 0.6, y + (box - self.style.fonts.vp * 0.72) / 2 - box * 0.06)
                size = self.style.fonts.vp
                if pattern == "hatched":  # the figure clear of the hatching round it
                    self.halo_text(c, text, *figure, SANS_BOLD, size, ink, halo=1.4 * u, halo_colour=faction.colour)
                else:
                    self.fill(c, ink)
                    c.setFont(SANS_BOLD, size)
                    c.drawCentredString(*figure, text)
            x += box

    def vp_cell(self, c: Canvas, x: float, y: float, box: float, colour: str, pattern: str) -> str:
        """A faction's VP cell in its colour and its pattern (`VP_PATTERNS`); returns the ink its
        figure reads in."""
        u = self.hex_pt / 72.0
        if pattern == "tint":  # a pale tint of the colour inside a border of it, the figure dark
            r, g, b = (v + (1 - v) * 0.78 for v in hex_colour(colour))
            c.setFillColorRGB(r, g, b)
            self.stroke(c, colour, 1.0 * u)
            c.rect(x + 0.5 * u, y + 0.5 * u, box - 1.0 * u, box - 1.0 * u, stroke=1, fill=1)
            self.stroke(c, "#1E1E1E", 0.35 * u)
            c.rect(x, y, box, box, stroke=1, fill=0)
            return "#000000"
        self.fill(c, colour)
        self.stroke(c, "#1E1E1E", 0.35 * u)
        c.rect(x, y, box, box, stroke=1, fill=1)
        if pattern == "hatched":  # fine diagonals of the figure's ink across the colour
            c.saveState()
            clip = c.beginPath()
            clip.rect(x, y, box, box)
            c.clipPath(clip, stroke=0, fill=0)
            self.stroke(c, readable_on(colour), 0.45 * u)
            step = box / 4
            for k in range(-4, 5):
                c.line(x + k * step, y, x + k * step + box, y + box)
            c.restoreState()
        return readable_on(colour)

    def halo_text(
        self,
        c: Canvas,
        text: str,
        cx: float,
        y: float,
        font: str,
        size: float,
        colour: str,
        *,
        halo: float = 0.0,
        halo_colour: str | None = None,
    ) -> None:
        """Text centred on cx with a halo (in the paper's colour unless given), so it reads over
        lines and fills."""
        width = text_width(text, font, size)
        c.saveState()
        self.stroke(c, halo_colour or self.style.colours.halo, halo or size * 0.28)
        c.setLineJoin(1)
        self.fill(c, colour)
        t = c.beginText()
        t.setFont(font, size)
        halo_runs(t, text, cx - width / 2, y)  # one text object, so the render mode is set back to fill
        c.drawText(t)
        c.restoreState()

    def anchor(self, c: Canvas, x: float, y: float) -> None:
        u = self.hex_pt / 72.0
        self.stroke(c, self.style.colours.coast, 0.9 * u)
        c.setLineCap(1)
        c.circle(x, y + 3.6 * u, 1.0 * u, stroke=1, fill=0)
        c.line(x, y + 2.6 * u, x, y - 3.2 * u)
        c.line(x - 2.0 * u, y + 1.2 * u, x + 2.0 * u, y + 1.2 * u)
        c.arc(x - 3.2 * u, y - 3.2 * u - 2.4 * u, x + 3.2 * u, y - 3.2 * u + 2.4 * u, 180, 180)

    def shows_only_sea(self, box: Box) -> bool:
        """Whether the part `box` (x0, y0, x1, y1, in points from the frame's lower left) of the
        map shows nothing a player uses: no land hex, no sea hex where ships sail (a scenario with
        ships or ports), no land or coast of the background art, no town's or place's label and no
        supply edge; only open sea of no use to the game, or off-map paper."""
        reach = self.hex_pt / math.sqrt(3)  # a corner's distance from its centre: any hex it may touch
        x0, y0, x1, y1 = box
        sailed = bool(self.s.setup.ships) or "port" in self.map.features()
        for hx in self.map.hexes:
            x, y = self.centres[hx.id]
            if (sailed or hx.terrain != "sea") and x0 - reach <= x <= x1 + reach and y0 - reach <= y <= y1 + reach:
                return False
        window = shapely.box(*box)
        if any(window.intersects(shapely.box(*spot.box)) for spot in self.label_spots.values()):
            return False
        frame = shapely.box(0, 0, self.width, self.height)
        if self.map.projection != NO_PROJECTION:
            land = shapely.difference(shapely.intersection(frame, window), self.sea)
            if land.area > 1.0:  # a point's square: a sliver of coast
                return False
        u = self.hex_pt / 72.0
        for _, _, ends in self.edge_marks():
            if window.intersects(shapely.LineString(ends).buffer(max(10 * u, 12.0))):
                return False
        return True

    def edge_marks(self) -> list[tuple[str, str, Points]]:
        """(faction, edge, [start, end]) along the frame for each faction's supply edge."""
        marks = []
        for source in self.map.supply_sources:
            if source.kind != "rail_exit" or source.edge is None:
                continue
            x, y = self.centres[source.hex]
            half = self.hex_pt * 0.6
            if source.edge in ("north", "south"):
                yy = self.height if source.edge == "north" else 0.0
                marks.append((source.faction, source.edge, np.array([[x - half, yy], [x + half, yy]])))
            else:
                xx = 0.0 if source.edge == "west" else self.width
                marks.append((source.faction, source.edge, np.array([[xx, y - half], [xx, y + half]])))
        return marks

    def _edges(self, c: Canvas, *, words: bool = True) -> None:
        """Supply edges: a band in the faction's colour outside the frame where rail leaves the
        map, saying whose supply it is (`words`)."""
        u = self.hex_pt / 72.0
        size = self.style.fonts.supply_edge * max(u, 1.0)  # smaller hexes, the same type
        band = max(10 * u, size * 1.43)  # inside the tiles' 4 mm bleed, and room for its words
        for faction_id, edge, (p0, p1) in self.edge_marks():
            faction = self.s.faction(faction_id)
            if faction is None:
                continue
            outward = {"north": (0, 1), "south": (0, -1), "west": (-1, 0), "east": (1, 0)}[edge]
            q0 = p0 + np.array(outward) * band
            q1 = p1 + np.array(outward) * band
            self.fill(c, faction.colour)
            self.stroke(c, "#1E1E1E", 0.5 * u)
            c.drawPath(rings_path(c, [np.array([p0, p1, q1, q0])]), stroke=1, fill=1)
            if not words:
                continue
            self.fill(c, readable_on(faction.colour))
            c.setFont(SANS_BOLD, size)
            mid = (p0 + p1 + q0 + q1) / 4
            c.saveState()
            c.translate(*mid)
            if edge in ("west", "east"):
                c.rotate(90)
            room = float(np.linalg.norm(p1 - p0)) - 2 * u
            said = next(
                (
                    w
                    for w in (f"{faction.adjective.upper()} SUPPLY", "SUPPLY")
                    if text_width(w, SANS_BOLD, size) <= room
                ),
                "",
            )
            c.drawCentredString(0, -0.36 * size, said)
            c.restoreState()

    def _river_names(self, c: Canvas) -> None:
        for name, piece, _ in self.river_name_spots:
            draw_label_along(c, name, piece, self.style.fonts.river, self.style.colours.river)

    @cached_property
    def river_name_spots(self) -> list[tuple[str, Points, shapely.Polygon]]:
        """(river, the name's centre line, its outline) of each river name: once on every stretch
        of 4 sides or more, and again every 12 sides along a long one (`_river_name_pieces`)."""
        size = self.style.fonts.river
        return [(name, piece, label_along_shape(name, piece, size)) for name, piece in self._river_name_pieces()]

    def _river_name_pieces(self) -> list[tuple[str, Points]]:
        """(river, centre line) of each river name, set beside one hexside of its stretch (the one
        nearest the stretch's middle that has room), parallel to it inside one of its two hexes:
        clear of the river's own line, of every other hexside, of the hex ids, of the railways,
        roads, bridges and ferries, and of the seas' and regions' names."""
        size = self.style.fonts.river
        height = (ASCENT + DESCENT) * size
        gap = self.style.widths.major_river / 2 + 1.2
        grid = shapely.STRtree([shapely.LinearRing(self.corners(h)[:-1]) for h in self.map.hexes])
        rivers = shapely.STRtree(
            [
                shapely.LineString(self.hexside(*sorted(pair)))
                for pair, side in self.board.sides.items()
                if side.river_class
            ]
        )
        taken = [box for *_, box in self.hex_id_spots()] + self.furniture_boxes()
        ids = shapely.STRtree(shapely.box(*np.array(taken).T))
        frame = shapely.box(0, 0, self.width, self.height)
        u = self.hex_pt / 72.0
        lines = [shapely.LineString(line).buffer(2.6 * u) for line in self.rail_lines]  # the ties' reach
        lines += [shapely.LineString(line).buffer(1.0 * u) for line in self.link_lines(self.board.roads)]
        for pair, side in self.board.sides.items():  # a bridge's bars, a ferry's disc
            if (side.bridge and (side.river_class or side.sea)) or pair in self.board.ferries:
                lines.append(shapely.Point(*self.hexside(*sorted(pair)).mean(axis=0)).buffer(5.2 * u))
        marks = shapely.STRtree(lines)

        def clear(shape: shapely.Polygon) -> bool:
            return (
                frame.contains(shape)
                and not len(grid.query(shape.buffer(0.3), predicate="intersects"))
                and not len(rivers.query(shape.buffer(gap - 0.3), predicate="intersects"))
                and not len(ids.query(shape, predicate="intersects"))
                and not len(marks.query(shape, predicate="intersects"))
            )

        def beside(name: str, line: Points) -> Points | None:
            half = text_width(name, SANS_ITALIC, size) / 2
            middle = (len(line) - 2) / 2
            for k in sorted(range(len(line) - 1), key=lambda k: (abs(k - middle), k)):
                p, q = line[k], line[k + 1]
                along = (q - p) / np.linalg.norm(q - p)
                normal = np.array([-along[1], along[0]])
                # a little further into the hex, where it widens, if a long name needs it
                for extra, side in itertools.product((0.0, 1.5, 3.0, 4.5, 6.0), (1.0, -1.0)):
                    centre = (p + q) / 2 + side * normal * (gap + extra + height / 2)
                    piece = np.array([centre - along * half, centre, centre + along * half])
                    if clear(label_along_shape(name, piece, size)):
                        return piece
            return None

        found = []
        by_river: dict[str, list[frozenset[str]]] = {}
        for pair, side in self.board.sides.items():
            if side.river and side.river_class:
                by_river.setdefault(side.river, []).append(pair)
        for name in sorted(by_river):
            ends = {pair: self.hexside(*sorted(pair)) for pair in by_river[name]}
            corners = [frozenset((float(x), float(y)) for x, y in np.round(pts, 1)) for pts in ends.values()]
            for chain in link_chains(corners):
                line = np.array(chain, dtype=float)
                sides = len(line) - 1
                if sides < 4:
                    continue
                for start in range(0, max(sides - 3, 1), 12):
                    piece = beside(name, line[start : min(start + 5, len(line))])
                    if piece is not None:
                        found.append((name, piece))
        return found


def rings_path(c: Canvas, rings: Iterable[Points | Sequence[tuple[float, ...]]]) -> Any:
    """One path of closed rings (points in order): a polygon, its holes, or many hexes."""
    path = c.beginPath()
    for ring in rings:
        path.moveTo(*ring[0])
        for x, y in ring[1:]:
            path.lineTo(x, y)
        path.close()
    return path


def link_chains(links: Iterable[frozenset[Node]]) -> list[list[Node]]:
    """Links between nodes joined into chains: each chain runs through nodes with two links and
    ends where one branches or stops; a loop starts at its least node. In a fixed order."""
    around: dict[Node, list[Node]] = {}
    for link in links:
        if len(link) == 2:
            a, b = sorted(link)
            around.setdefault(a, []).append(b)
            around.setdefault(b, []).append(a)
    for near in around.values():
        near.sort()
    used: set[frozenset[Node]] = set()
    chains = []

    def walk(start: Node, step: Node) -> list[Node]:
        chain = [start, step]
        used.add(frozenset((start, step)))
        while len(around[chain[-1]]) == 2:
            nxt = next((n for n in around[chain[-1]] if frozenset((chain[-1], n)) not in used), None)
            if nxt is None:
                break
            used.add(frozenset((chain[-1], nxt)))
            chain.append(nxt)
        return chain

    nodes = sorted(around)
    starts = [n for n in nodes if len(around[n]) != 2] + nodes  # then the loops, which have no end
    for start in starts:
        for step in around[start]:
            if frozenset((start, step)) not in used:
                chains.append(walk(start, step))
    return chains


SEA_WASH = 0.45
"""How far the sea's colour washes over a hex tinted for its terrain."""


def _polygons(geometry: BaseGeometry) -> list[shapely.Polygon]:
    return [g for g in shapely.get_parts(geometry) if isinstance(g, shapely.Polygon) and not g.is_empty]


def _lines(geometry: BaseGeometry) -> list[Points]:
    parts = []
    for g in shapely.get_parts(geometry):
        if isinstance(g, shapely.LineString) and not g.is_empty:
            parts.append(np.asarray(g.coords))
        elif isinstance(g, shapely.Polygon):
            parts.extend(np.asarray(r.coords) for r in [g.exterior, *g.interiors])
    return parts


def _along(line: Points) -> tuple[Points, float]:
    """Where a name set along a line sits (the line's middle point) and its angle, upright."""
    mid = len(line) // 2
    (x0, y0), (x1, y1) = line[max(mid - 1, 0)], line[min(mid + 1, len(line) - 1)]
    angle = math.degrees(math.atan2(y1 - y0, x1 - x0))
    if angle > 90 or angle < -90:
        angle += 180
    return line[mid], angle


def label_along_shape(text: str, line: Points, size: float) -> shapely.Polygon:
    """The outline of the name `draw_label_along` sets along the line."""
    if len(line) < 2:
        return shapely.Polygon()
    (cx, cy), angle = _along(line)
    half = text_width(text, SANS_ITALIC, size) / 2
    rise = (ASCENT + DESCENT) * size / 2
    corners = np.array([[-half, -rise], [half, -rise], [half, rise], [-half, rise]])
    a = math.radians(angle)
    turn = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    return shapely.Polygon(corners @ turn + np.array([cx, cy]))


def draw_label_along(c: Canvas, text: str, line: Points, size: float, colour: str) -> None:
    """A name set along the middle of a line, upright, its glyphs centred on the line."""
    if len(line) < 2:
        return
    register_fonts()
    where, angle = _along(line)
    c.saveState()
    c.translate(*where)
    c.rotate(angle)
    c.setFillColorRGB(*hex_colour(colour))
    c.setFont(SANS_ITALIC, size)
    c.drawCentredString(0, -(ASCENT - DESCENT) * size / 2, text)
    c.restoreState()


def draw_terrain_symbol(c: Canvas, style: MapStyle, terrain: str, x: float, y: float, hex_pt: float) -> None:
    """One tree, reed tuft or peak centred on (x, y), sized for a hex `hex_pt` across: the map's
    own symbol, for the map and for the charts' swatches."""
    colour = style.colours.symbols.get(terrain)
    if colour is None:
        return
    u = hex_pt / 72.0
    c.setLineCap(1)
    c.setStrokeColorRGB(*hex_colour(colour))
    c.setLineWidth(0.6 * u)
    c.setFillColorRGB(*hex_colour(colour))
    if terrain == "forest":
        c.circle(x, y + 2.2 * u, 2.6 * u, stroke=0, fill=1)
        c.line(x, y - 2.2 * u, x, y + 1 * u)
    elif terrain == "marsh":
        c.line(x - 3.6 * u, y - 1.6 * u, x + 3.6 * u, y - 1.6 * u)
        for ddx, top in ((-2.0, 1.6), (0, 3.0), (2.0, 1.6)):
            c.line(x + ddx * u, y - 1.4 * u, x + ddx * 1.3 * u, y + top * u)
    else:
        path = c.beginPath()
        path.moveTo(x - 5 * u, y - 2.4 * u)
        path.lineTo(x - 1 * u, y + 3.4 * u)
        path.lineTo(x + 1.2 * u, y + 0.4 * u)
        path.lineTo(x + 2.6 * u, y + 2.2 * u)
        path.lineTo(x + 5 * u, y - 2.4 * u)
        c.drawPath(path, stroke=1, fill=0)


def terrain_swatch(c: Canvas, style: MapStyle, terrain: str, cx: float, cy: float, across: float) -> None:
    """A flat-topped hex `across` points over the flats, in the terrain's colour on the map with
    its symbol: what a chart's terrain row looks like on the map."""
    side = across / math.sqrt(3)
    fill = style.colours.terrain.get(terrain, style.colours.land)
    p = c.beginPath()
    for k in range(6):
        a = math.radians(60 * k)
        (p.moveTo if k == 0 else p.lineTo)(cx + side * math.cos(a), cy + side * math.sin(a))
    p.close()
    c.saveState()
    c.setFillColorRGB(*hex_colour(fill))
    c.setStrokeColorRGB(*hex_colour(style.colours.grid))
    c.setLineWidth(0.5)
    c.drawPath(p, stroke=1, fill=1)
    draw_terrain_symbol(c, style, terrain, cx, cy - across * 0.04, across * 2.6)
    c.restoreState()
