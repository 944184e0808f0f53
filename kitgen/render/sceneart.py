"""Drawing a packet map's scene over the clean map, in the map's own points: counters, glimpsed
stacks and stack markers, the marks of trains, ships, depots, pontoons, wrecked track and
abandoned vehicles, town owners, a faction's reach and supply, and the overview's squares and
sector frames. Every piece drawn is recorded in the scene."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from kitgen.render.fonts import SANS_BOLD, text_width
from kitgen.render.mapart import rings_path
from kitgen.render.packetstyle import OverviewPage, SectorPage
from kitgen.render.pages import faction_mark, hex_colour, ink_on
from kitgen.render.scene import Overlay, Scene, Sector, Window
from kitgen.render.unitmarks import draw_dot, draw_piece

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.model.scenario import Scenario
    from kitgen.render.mapart import MapArt


class SceneArt:
    """Draws scenes on one clean map; keeps what it works out once (hexes in a window, areas)."""

    def __init__(self, art: MapArt, scenario: Scenario, sector: SectorPage, overview: OverviewPage) -> None:
        self.art, self.st, self.ov = art, sector, overview
        self.colours = {f.id: f.colour for f in scenario.meta.factions}
        self.by_id = art.map.by_id()
        self._areas: dict[frozenset[str], object] = {}
        self._within: dict[Window, frozenset[str]] = {}
        self._ids = list(art.centres)
        self._xy = np.array([art.centres[h] for h in self._ids]).reshape(-1, 2)

    def within(self, window: Window) -> frozenset[str]:
        """The hexes whose centres lie in the window, found once per window over all hexes at once."""
        if window not in self._within:
            x, y = self._xy[:, 0], self._xy[:, 1]
            mask = (window[0] <= x) & (x <= window[2]) & (window[1] <= y) & (y <= window[3])
            self._within[window] = frozenset(self._ids[i] for i in np.flatnonzero(mask))
        return self._within[window]

    def area(self, hexes: frozenset[str]) -> object:
        """The hexes as one shape in map points: a coverage union, the hexes tiling exactly."""
        import shapely

        if hexes not in self._areas:
            ids = sorted(h for h in hexes if h in self.by_id)
            centres = np.array([self.art.centres[h] for h in ids]).reshape(-1, 2)
            rings = centres[:, None, :] + self.art.hex_pt / np.sqrt(3) * _UNIT_RING[None, :, :]
            # every corner snapped to the grid's lattice (half a side across, half a hex down) from
            # one hex's centre: neighbours then share their corners exactly and the union merges them
            unit = np.array([self.art.hex_pt / np.sqrt(3) / 2, self.art.hex_pt / 2])
            base = np.asarray(next(iter(self.art.centres.values())))
            snapped = np.round((rings - base) / unit) * unit + base
            self._areas[hexes] = shapely.coverage_union_all(shapely.polygons(snapped))
        return self._areas[hexes]

    def colour(self, faction: str) -> str:
        return self.colours.get(faction, "#8C8C8C")

    # geometry shared by a packet's sector pages

    def pieces(self, c: Canvas, scene: Scene, window: Window, s: float) -> None:
        st = self.st
        w, h, gap = st.counter_w / s, st.counter_h / s, st.counter_gap / s
        for hex_id, pieces in scene.pieces.items():
            if hex_id not in self.within(window):
                continue
            cx, cy = self.art.centres[hex_id]
            n = len(pieces)
            top = cy + (n * h + (n - 1) * gap) / 2
            for k, piece in enumerate(pieces):
                y0 = top - (k + 1) * h - k * gap
                colour = self.colour(piece.faction) if piece.faction else "#9A9A9A"
                draw_piece(c, piece, colour, cx - w / 2, y0, w, h, st.id_font / s, st.min_font / s, st.stands_font / s)
                scene.drawn.append(piece)

    def marks(self, c: Canvas, scene: Scene, window: Window, s: float) -> None:
        """Trains, ships, depots, pontoons, wrecked track and abandoned vehicles, low in their hexes."""
        from kitgen.render.symbols import unit_symbol

        hp = self.art.hex_pt
        box = hp * 0.2
        for hex_id, faction, armoured in scene.trains:
            if hex_id in self.within(window):
                cx, cy = self.art.centres[hex_id]
                self._mark_box(c, faction, cx - hp * 0.42, cy - hp * 0.42, box)
                c.setStrokeColorRGB(*ink_on(self.colour(faction)))
                c.setFillColorRGB(*ink_on(self.colour(faction)))
                unit_symbol(
                    c,
                    "armoured_train" if armoured else "rr_train",
                    cx - hp * 0.42,
                    cy - hp * 0.42,
                    box * 1.3,
                    box,
                    line=0.6,
                )
        for hex_id, faction, warship, _ in scene.ships:
            if hex_id in self.within(window):
                cx, cy = self.art.centres[hex_id]
                x0, y0 = cx - box * 0.65, cy + hp * 0.2
                self._mark_box(c, faction, x0, y0, box)
                c.setStrokeColorRGB(*ink_on(self.colour(faction)))
                c.setFillColorRGB(*ink_on(self.colour(faction)))
                unit_symbol(c, "warship" if warship else "transport", x0, y0, box * 1.3, box, line=0.6)
        for hex_id, faction in scene.depots:
            if hex_id in self.within(window):
                cx, cy = self.art.centres[hex_id]
                self._letter(c, faction, "D", cx + hp * 0.2, cy - hp * 0.42, box)
        for hex_id, faction in scene.abandoned:
            if hex_id in self.within(window):
                cx, cy = self.art.centres[hex_id]
                self._letter(c, faction, "AB", cx + hp * 0.2, cy + hp * 0.22, box)
        for a, b, faction in scene.pontoons:
            if a in self.art.centres and b in self.art.centres and a in self.within(window):
                ends = self.art.hexside(a, b)
                c.setStrokeColorRGB(0.1, 0.1, 0.1)
                c.setLineWidth(hp * 0.09)
                c.line(*ends[0], *ends[1])
                c.setStrokeColorRGB(*hex_colour(self.colour(faction)))
                c.setLineWidth(hp * 0.055)
                c.line(*ends[0], *ends[1])
        for hex_id in scene.wrecked:
            if hex_id in self.within(window):
                x, y = self.art.centres[hex_id]
                self.cross(c, float(x), float(y), hp * 0.16, "#000000", hp * 0.05)

    def _mark_box(self, c: Canvas, faction: str, x: float, y: float, size: float) -> None:
        c.setFillColorRGB(*hex_colour(self.colour(faction)))
        c.setStrokeColorRGB(0.1, 0.1, 0.1)
        c.setLineWidth(0.6)
        c.rect(x - size * 0.08, y - size * 0.08, size * 1.46, size * 1.16, stroke=1, fill=1)

    def _letter(self, c: Canvas, faction: str, text: str, x: float, y: float, size: float) -> None:
        self._mark_box(c, faction, x, y, size)
        c.setFillColorRGB(*ink_on(self.colour(faction)))
        c.setFont(SANS_BOLD, size * 0.72)
        c.drawCentredString(x + size * 0.65, y + size * 0.24, text)

    def cross(self, c: Canvas, x: float, y: float, r: float, colour: str, width: float) -> None:
        c.setStrokeColorRGB(1, 1, 1)
        c.setLineWidth(width * 2.2)
        c.line(x - r, y - r, x + r, y + r)
        c.line(x - r, y + r, x + r, y - r)
        c.setStrokeColorRGB(*hex_colour(colour))
        c.setLineWidth(width)
        c.line(x - r, y - r, x + r, y + r)
        c.line(x - r, y + r, x + r, y - r)

    def owners(self, c: Canvas, scene: Scene, window: Window) -> None:
        """Each known town's owner: a small flag of its colour and mark beside the town."""
        hp = self.art.hex_pt
        size = hp * 0.17
        for hex_id, marks in self.art.towns.items():
            if hex_id not in self.within(window):
                continue
            for mark in marks:
                owner = scene.owners.get(mark.name)
                if owner is None:
                    continue
                x, y = mark.x + hp * 0.1, mark.y + hp * 0.02
                c.setFillColorRGB(*hex_colour(self.colour(owner)))
                c.setStrokeColorRGB(0.1, 0.1, 0.1)
                c.setLineWidth(0.5)
                c.rect(x, y, size, size, stroke=1, fill=1)
                c.setFillColorRGB(*ink_on(self.colour(owner)))
                faction_mark(c, owner, x + size / 2, y + size / 2, size * 0.72)

    def reach(self, c: Canvas, scene: Scene, window: Window, s: float) -> None:
        """Where the viewer's units can march: the hexes tinted in its colour by band of the least
        MP spent, the cheapest darkest, under a thin line round them all; a ring in each hex only a
        train reaches. An area, so that it reads as nothing else on the map (a road is a line)."""
        st = self.st
        colour = hex_colour(self.colour(scene.viewer or ""))
        if scene.reach:
            bands: dict[int, set[str]] = {}
            for h, cost in scene.reach.items():
                bands.setdefault(reach_band(cost, st.reach_bands), set()).add(h)
            c.saveState()
            c.setFillColorRGB(*colour)
            for band in sorted(bands):
                c.setFillAlpha(st.reach_alpha[band])
                _fill_rings(c, self.area(frozenset(bands[band])))
            c.restoreState()
            c.setStrokeColorRGB(*colour)
            c.setLineWidth(st.edge * 0.6 / s)
            _stroke_rings(c, self.area(frozenset(scene.reach)))
        inside = self.within(window)
        c.setStrokeColorRGB(*colour)
        c.setLineWidth(st.edge / s)
        for h in sorted(scene.rail & inside):
            cx, cy = self.art.centres[h]
            c.circle(cx, cy, st.rail_ring / s, stroke=1, fill=0)

    def dots(self, c: Canvas, scene: Scene, s: float) -> None:
        ov = self.ov
        size = ov.marker / s
        for hex_id, pieces in scene.pieces.items():
            cx, cy = self.art.centres[hex_id]
            count = sum(len(p.detail) if p.kind == "stack" else 1 for p in pieces)
            lead = pieces[0]
            if lead.kind == "block":
                count = 1
            draw_dot(
                c,
                lead.faction,
                self.colour(lead.faction) if lead.faction else "#9A9A9A",
                cx,
                cy,
                size,
                count,
                ov.marker_font / s,
            )
            scene.drawn.append(lead)
            scene.drawn.extend(pieces[1:])

    def sector_frames(self, c: Canvas, shown: Sequence[Sector], s: float) -> None:
        ov = self.ov
        for sector in shown:
            x0, y0, x1, y1 = sector.window
            c.setStrokeColorRGB(0.1, 0.1, 0.1)
            c.setLineWidth(1.2 / s)
            c.setDash(5 / s, 2.5 / s)
            c.rect(x0, y0, x1 - x0, y1 - y0, stroke=1, fill=0)
            c.setDash()
            size = ov.sector_font / s
            tw = text_width(sector.key, SANS_BOLD, size)
            c.setFillColorRGB(1, 1, 1)
            c.rect(x0 + 3 / s, y1 - size * 1.3 - 3 / s, tw + 4 / s, size * 1.3, stroke=0, fill=1)
            c.setFillColorRGB(0.1, 0.1, 0.1)
            c.setFont(SANS_BOLD, size)
            c.drawString(x0 + 5 / s, y1 - size * 1.05 - 3 / s, sector.key)

    def supply(self, c: Canvas, overlay: Overlay, s: float, *, hatch: bool = False) -> None:
        """The faction's supplied hexes tinted (or, for acetate, hatched: no transparency needed)
        with a firm edge, its usable rail net drawn in its colour over a dark casing, and the
        track it cannot use crossed out."""
        colour = self.colour(overlay.faction)
        st = self.ov
        if overlay.hexes:
            area = self.area(overlay.hexes)
            c.saveState()
            p = rings_path(c, _rings(area))
            c.setFillColorRGB(*hex_colour(colour))
            if hatch:
                c.clipPath(p, stroke=0, fill=0, fillMode=0)
                c.setStrokeColorRGB(*hex_colour(colour))
                c.setLineWidth(st.edge * 0.5 / s)
                x0, y0, x1, y1 = area.bounds  # type: ignore[attr-defined]
                step = self.art.hex_pt * 0.18
                k = x0 - (y1 - y0)
                while k < x1:
                    c.line(k, y0, k + (y1 - y0), y1)
                    k += step
            else:
                # a dark colour tints less, so that the map under it (and a black rail net) still reads
                red, green, blue = hex_colour(colour)
                light = 0.2126 * red + 0.7152 * green + 0.0722 * blue
                c.setFillAlpha(min(st.tint, (1 - st.tint_lightness) / max(0.01, 1 - light)))
                c.drawPath(p, stroke=0, fill=1, fillMode=0)
            c.restoreState()
            for ink, width in (("#1E1E1E", st.edge * 1.9), (colour, st.edge)):
                c.setStrokeColorRGB(*hex_colour(ink))
                c.setLineWidth(width / s)
                _stroke_rings(c, area)
        for ink, width in (("#1E1E1E", st.rail * 1.8), (colour, st.rail)):
            c.setStrokeColorRGB(*hex_colour(ink))
            c.setLineWidth(width / s)
            c.setLineCap(1)
            for link in sorted(overlay.rail, key=sorted):
                a, b = sorted(link)
                c.line(*self.art.centres[a], *self.art.centres[b])
        for hex_id in sorted(overlay.wrecked):
            x, y = self.art.centres[hex_id]
            self.cross(c, float(x), float(y), st.cut / s, "#000000", 1.2 / s)
        for hex_id in sorted(overlay.held):
            x, y = self.art.centres[hex_id]
            c.setStrokeColorRGB(0, 0, 0)
            c.setFillColorRGB(1, 1, 1)
            c.setLineWidth(1.0 / s)
            c.circle(x, y, st.cut * 0.9 / s, stroke=1, fill=1)
            self.cross(c, x, y, st.cut * 0.55 / s, "#000000", 0.9 / s)


_UNIT_RING = np.column_stack([np.cos(np.radians(np.arange(0, 420, 60))), np.sin(np.radians(np.arange(0, 420, 60)))])
"""A flat-topped hex's closed ring of corners, counter-clockwise from east, for a unit side."""


Ring = list[tuple[float, ...]]


def _polygons(area: object) -> list[tuple[Ring, list[Ring]]]:
    import shapely

    geoms = getattr(area, "geoms", [area])
    found: list[tuple[Ring, list[Ring]]] = []
    for g in geoms:
        if isinstance(g, shapely.Polygon) and not g.is_empty:
            found.append((list(g.exterior.coords), [list(i.coords) for i in g.interiors]))
    return found


def _rings(area: object) -> list[Ring]:
    return [r for outer, holes in _polygons(area) for r in (outer, *holes)]


def _fill_rings(c: Canvas, area: object) -> None:
    """An area filled in the current fill: its rings as one path, holes left open (fill mode 0,
    even-odd)."""
    c.drawPath(rings_path(c, _rings(area)), stroke=0, fill=1, fillMode=0)


def reach_band(cost: int, bands: Sequence[int]) -> int:
    """The band of a hex reached for `cost` MP: the first whose most is at least it, else the last."""
    return next((k for k, most in enumerate(bands) if cost <= most), len(bands))


def _stroke_rings(c: Canvas, area: object) -> None:
    """The edge of an area: each of its rings, outer and inner, in the current stroke."""
    for ring in _rings(area):
        c.drawPath(rings_path(c, [ring]), stroke=1, fill=0)
