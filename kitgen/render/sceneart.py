"""Drawing a packet map's scene over the clean map, in the map's own points: counters, glimpsed
stacks and stack markers, the marks of trains, ships, depots, pontoons, wrecked track and
abandoned vehicles, town owners, a faction's reach and supply, and the overview's squares and
sector frames. Every piece drawn is recorded in the scene."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from kitgen.render.fonts import SANS_BOLD, text_width
from kitgen.render.labels import Obstacles, Placed
from kitgen.render.mapart import Row, rings_path
from kitgen.render.packetstyle import OverviewPage, SectorPage
from kitgen.render.pages import faction_mark, hex_colour, ink_on
from kitgen.render.scene import Overlay, Scene, Sector, Window
from kitgen.render.unitmarks import CounterFaces, Piece, draw_badge, draw_dot, draw_piece

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.model.scenario import Scenario
    from kitgen.render.mapart import MapArt


STEP = 1.6
"""Points between the edges of a stack's counters, up and right, on the page."""


@dataclass(frozen=True)
class Plan:
    """A sector's counters laid out before they are drawn, and the names they would cover."""

    window: Window
    scale: float
    laid: dict[str, list[tuple[Piece, Window]]]
    moved: dict[str, Placed]
    page: int = 0
    """The page it is drawn on (from 1) ..."""
    offset: tuple[float, float] = (0.0, 0.0)
    """... where a map point (x, y) lands at (x * scale, y * scale) + offset."""


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

    def layout(self, scene: Scene, window: Window, s: float) -> dict[str, list[tuple[Piece, Window]]]:
        """Where each hex's pieces go, inside the hex and under its id: one alone, two side by
        side; in a hex the map's frame cuts, inside what the frame leaves of it, smaller if need be."""
        st = self.st
        found: dict[str, list[tuple[Piece, Window]]] = {}
        for hex_id, pieces in scene.pieces.items():
            if hex_id not in self.within(window):
                continue
            cx, cy = (float(v) for v in self.art.centres[hex_id])
            n = 2 if len(pieces) == 2 else 1
            stack = pieces[0].kind == "stack"
            squares = self._squares(cx, cy, n, (st.pair if n == 2 else st.counter) / s, s, stack=stack)
            found[hex_id] = list(zip(pieces, squares, strict=True))
        return found

    def _squares(self, cx: float, cy: float, n: int, size: float, s: float, *, stack: bool = False) -> list[Window]:
        """`n` squares side by side, `size` across at most (smaller where they must be), as near
        the hex's centre (less the drop) as they lie inside the hex and clear of its id, and inside
        the map's frame where what it leaves of the hex holds them; a stack's top counter with
        room for the edges above it and the badge below."""
        a = self.art.hex_pt / 2  # the apothem: a flat-topped hex
        gap = 1.5 / s
        up = 2 * STEP / s if stack else 0.0
        down = (self.st.badge_font * 1.35 + 1.0) / s if stack else 0.0
        top = min(cy + a, self.art.height) - self.art.style.fonts.hex_id - 2.5  # under the id
        for bottom, left, right, least in (
            (max(cy - a, 0.0) + 0.5, 0.5, self.art.width - 0.5, 0.56),  # inside the frame
            (cy - a, cx - 2 * a, cx + 2 * a, 0.3),  # a sliver of a hex at the frame: inside the hex only
        ):
            for k in range(round((1 - least) / 0.04) + 1):
                side = size * (1 - 0.04 * k)
                width = n * side + (n - 1) * gap
                level = max(min(cy - self.st.counter_drop / s - side / 2, top - side - up), bottom + down)
                across = max(min(cx - width / 2, right - width - up), left)
                for dy in (0.0, 2, -2, 4, -4, 6, -6, 9, -9, 12, -12):
                    for dx in (0.0, 3, -3, 6, -6, 10, -10):
                        x0, y0 = across + dx, level + dy
                        box = (x0, y0 - down, x0 + width + up, y0 + side + up)
                        if box[3] > top or box[1] < bottom or box[0] < left or box[2] > right:
                            continue
                        if all(3**0.5 * abs(x - cx) + abs(y - cy) <= 2 * a for x in box[::2] for y in box[1::2]):
                            return [
                                (x0 + i * (side + gap), y0, x0 + i * (side + gap) + side, y0 + side) for i in range(n)
                            ]
        raise ValueError(f"no room for {n} counters of {size:.0f} pt in a hex of {2 * a:.0f} pt")

    def slots(self, hex_id: str) -> list[Window]:
        """Beside the counters in a hex, for its marks: by the id left and right, then low left and
        right (clear of a stack's badge)."""
        u = self.art.hex_pt / 72.0
        cx, cy = (float(v) for v in self.art.centres[hex_id])
        return [
            (cx - 20 * u, cy + 24.5 * u, cx - 11 * u, cy + 33.5 * u),
            (cx + 11 * u, cy + 24.5 * u, cx + 20 * u, cy + 33.5 * u),
            (cx + 12.5 * u, cy - 34 * u, cx + 20.5 * u, cy - 26 * u),
            (cx - 20.5 * u, cy - 34 * u, cx - 12.5 * u, cy - 26 * u),
        ]

    def plan(
        self, scene: Scene, window: Window, s: float, page: int = 0, offset: tuple[float, float] = (0.0, 0.0)
    ) -> Plan:
        """Where the window's counters go, and the map's names they would cover; on `page`, the
        map laid at `offset`."""
        laid = self.layout(scene, window, s)
        step = STEP / s
        boxes = [box for spots in laid.values() for _, box in spots]
        boxes += [
            (b[0], b[1], b[2] + 2 * step, b[3] + 2 * step)
            for spots in laid.values()
            for p, b in spots
            if p.kind == "stack"
        ]
        return Plan(window, s, laid, self._covered_labels(boxes, window), page, offset)

    def pieces(self, c: Canvas, scene: Scene, plan: Plan) -> None:
        """Each hex's pieces as counters inside it (`layout`): a stack's top counter over the
        edges of the rest, its badge beneath; then the map's names (its clean map under a sector
        has none), each where the map places it, or, where a counter would cover it, placed again
        round the counters. Every square and badge drawn is recorded with its hex."""
        st, s = self.st, plan.scale
        faces = CounterFaces(
            st.name_font / s, st.name_min / s, st.figure_font / s, st.words_font / s, st.badge_font / s
        )
        step = STEP / s
        for hex_id, spots in plan.laid.items():
            for piece, (x, y, x1, _) in spots:
                size = x1 - x
                colour = self.colour(piece.faction) if piece.faction else "#9A9A9A"
                if piece.kind == "stack":
                    under = piece.top or piece
                    colour = self.colour(under.faction)
                    for k in (2, 1):  # the edges of the counters under the top one
                        ex, ey = x + k * step, y + k * step
                        self._edge(c, colour, ex, ey, size)
                        scene.placed.append((hex_id, (ex, ey, ex + size, ey + size)))
                draw_piece(c, piece, colour, x, y, size, faces)
                scene.placed.append((hex_id, (x, y, x + size, y + size)))
                ox, oy = plan.offset
                scene.on_pages.append((plan.page, (x * s + ox, y * s + oy, (x + size) * s + ox, (y + size) * s + oy)))
                scene.drawn.append(piece)
                if piece.kind == "stack":
                    badge = f"{piece.label} \u00b7 {len(piece.detail)}"
                    scene.placed.append((hex_id, draw_badge(c, badge, x + size / 2, y - 1.0 / s, faces.badge)))
        taken = [box for _, box in scene.placed]
        marked: dict[str, int] = {}
        for hex_id, *_ in (*scene.depots, *scene.abandoned, *((h,) for h in scene.wrecked)):
            marked[hex_id] = marked.get(hex_id, 0) + 1
        for hex_id in plan.laid:
            slots = self.slots(hex_id)
            owned = any(m.name in scene.owners for m in self.art.towns.get(hex_id, ()))
            taken += slots[: 1 + marked.get(hex_id, 0)] if owned or marked.get(hex_id) else []
        self._names(c, plan, taken)

    def _covered_labels(self, boxes: list[Window], window: Window) -> dict[str, Placed]:
        """The map's town labels in the window that a counter would cover, by key."""
        import shapely

        spots = [p for p in self.art.label_spots.values() if _meets(p.box, window)]
        if not boxes or not spots:
            return {}
        counters = shapely.box(*np.array(boxes).T)
        labels = shapely.box(*np.array([p.box for p in spots]).T)
        i, _ = shapely.STRtree(counters).query(labels, predicate="intersects")
        return {spots[k].key: spots[k] for k in sorted(set(i.tolist()))}

    def _names(self, c: Canvas, plan: Plan, taken: list[Window]) -> None:
        """The map's names in the window: where the map places them, and those a counter would
        cover placed again with the map's own placer, the counters and marks forbidden to them."""
        from kitgen.render.labels import Want, place_labels

        art = self.art
        rows = self.rows
        window = plan.window
        for key, spot in sorted(art.label_spots.items()):
            if key not in plan.moved and _meets(spot.box, window):
                art.draw_label(c, key, rows[key], spot)
        if not plan.moved:
            return
        wants = []
        for key, old in plan.moved.items():
            x0, y0, x1, y1 = old.box
            x, y, around = self.symbol_of(key)
            # a name goes round the counters over its symbol, as it would round the symbol
            over = [b for b in taken if b[0] <= x <= b[2] and b[1] <= y <= b[3]] + [around]
            around = (
                min(b[0] for b in over),
                min(b[1] for b in over),
                max(b[2] for b in over),
                max(b[3] for b in over),
            )
            wants.append(Want(key, x1 - x0, y1 - y0, x, y, around, self.radius_of(key)))
        others = [p.box for k, p in art.label_spots.items() if k not in plan.moved and _meets(p.box, window)]
        hidden = art.covered_hex_ids
        ids = [box for h, _, _, box in art.hex_id_spots() if h not in hidden and _meets(box, window)]
        others += [shape.bounds for _, _, shape in art.river_name_spots if _meets(shape.bounds, window)]
        obstacles = Obstacles(list(self.obstacles.areas), list(self.obstacles.lines))
        obstacles.add_boxes(ids, 100.0)  # a hex id the sector prints: dear to cover, not forbidden
        u = art.hex_pt / 72.0
        placed = place_labels(
            wants,
            obstacles,
            frame=window,
            symbols=taken + others,
            gap=1.2 * u,
            step=5.0 * u,
            pad=0.8 * u,
            leader_cost=50.0,
        )
        for spot in placed:  # no leader: it would cross the counter over the town's marker
            art.draw_label(c, spot.key, rows[spot.key], replace(spot, leader=None))

    @cached_property
    def rows(self) -> dict[str, list[Row]]:
        return self.art.label_rows()

    @cached_property
    def symbols(self) -> dict[str, tuple[float, float, Window, float]]:
        """Each label's symbol by key: its centre, the box round it and its radius."""
        art = self.art
        found = {}
        for hex_id, key in art.town_keys().items():
            x, y = (float(v) for v in art.centres[hex_id])
            radius, _ = art.town_symbol(hex_id)
            found[key] = (x, y, (x - radius, y - radius, x + radius, y + radius), radius)
        half = 1.9 * art.hex_pt / 72.0
        for name, x, y in art.place_labels():
            found[name] = (x, y, (x - half, y - half, x + half, y + half), half)
        return found

    def symbol_of(self, key: str) -> tuple[float, float, Window]:
        x, y, box, _ = self.symbols[key]
        return x, y, box

    def radius_of(self, key: str) -> float:
        return self.symbols[key][3]

    @cached_property
    def obstacles(self) -> Obstacles:
        return self.art.label_obstacles()

    @staticmethod
    def _edge(c: Canvas, colour: str, x: float, y: float, size: float) -> None:
        c.setFillColorRGB(*hex_colour(colour))
        c.setStrokeColorRGB(0.1, 0.1, 0.1)
        c.setLineWidth(max(0.35, size * 0.012))
        c.roundRect(x, y, size, size, size * 0.08, stroke=1, fill=1)

    def marks(self, c: Canvas, scene: Scene, plan: Plan) -> None:
        """Depots, abandoned vehicles and wrecked track low in their hexes, or, beside counters,
        in the hex's free corners; pontoons on their hexsides. (Trains and ships are counters.)"""
        hp = self.art.hex_pt
        box = hp * 0.2
        window = plan.window
        found: dict[str, list[tuple[str, str]]] = {}
        for hex_id, faction in scene.depots:
            found.setdefault(hex_id, []).append((faction, "D"))
        for hex_id, faction in scene.abandoned:
            found.setdefault(hex_id, []).append((faction, "AB"))
        for hex_id in scene.wrecked:
            found.setdefault(hex_id, []).append(("", "X"))
        for hex_id, marks in sorted(found.items()):
            if hex_id not in self.within(window):
                continue
            cx, cy = (float(v) for v in self.art.centres[hex_id])
            if hex_id in plan.laid:
                spots = [(x0, y0, x1 - x0) for x0, y0, x1, _ in self.slots(hex_id)[1:]]
            else:
                spots = [
                    (cx + hp * 0.2, cy - hp * 0.42, box),
                    (cx + hp * 0.2, cy + hp * 0.22, box),
                    (cx - hp * 0.4, cy - hp * 0.42, box),
                ]
            for (faction, text), (x, y, size) in zip(marks, spots, strict=False):
                if text == "X":
                    self.cross(c, x + size / 2, y + size / 2, size * 0.4, "#000000", hp * 0.04)
                    continue
                self._letter(c, faction, text, x, y, size)
                s, (ox, oy) = plan.scale, plan.offset  # a marker, as the kit's marker sheets print it
                scene.on_pages.append((plan.page, (x * s + ox, y * s + oy, (x + size) * s + ox, (y + size) * s + oy)))
        for a, b, faction in scene.pontoons:
            if a in self.art.centres and b in self.art.centres and a in self.within(window):
                ends = self.art.hexside(a, b)
                c.setStrokeColorRGB(0.1, 0.1, 0.1)
                c.setLineWidth(hp * 0.09)
                c.line(*ends[0], *ends[1])
                c.setStrokeColorRGB(*hex_colour(self.colour(faction)))
                c.setLineWidth(hp * 0.055)
                c.line(*ends[0], *ends[1])

    def _letter(self, c: Canvas, faction: str, text: str, x: float, y: float, size: float) -> None:
        """A marker's letters on a box of its faction's colour, `size` square."""
        c.setFillColorRGB(*hex_colour(self.colour(faction)))
        c.setStrokeColorRGB(0.1, 0.1, 0.1)
        c.setLineWidth(0.6)
        c.rect(x, y, size, size, stroke=1, fill=1)
        c.setFillColorRGB(*ink_on(self.colour(faction)))
        font = min(size * 0.62, (size - 1.5) / max(text_width(text, SANS_BOLD, 1.0), 0.01))
        c.setFont(SANS_BOLD, font)
        c.drawCentredString(x + size / 2, y + size / 2 - font * 0.36, text)

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
        """Each known town's owner: a small flag of its colour and mark beside the town's marker,
        on the side its name is not; in a hex with counters, at the hex's top left, beside its id."""
        hp = self.art.hex_pt
        u = hp / 72.0
        size = hp * 0.15
        keys = self.art.town_keys()
        for hex_id, marks in self.art.towns.items():
            if hex_id not in self.within(window):
                continue
            owners = [scene.owners[m.name] for m in marks if m.name in scene.owners]
            cx, cy = (float(v) for v in self.art.centres[hex_id])
            radius, _ = self.art.town_symbol(hex_id)
            spot = self.art.label_spots.get(keys[hex_id])
            for k, owner in enumerate(owners):
                if hex_id in scene.pieces:
                    x0, y0, x1, _ = self.slots(hex_id)[0]
                    size = x1 - x0
                    x, y = x0 - k * (size + u), y0
                elif spot is not None and spot.side.endswith("left"):
                    x, y = cx + radius + u + k * (size + u), cy - size / 2
                else:
                    x, y = cx - radius - u - size - k * (size + u), cy - size / 2
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

    def core_edges(self, c: Canvas, sector: Sector, s: float) -> None:
        """Where the tiles to the right of and below this one are laid: dashed, as the tiles print it."""
        x0, y0, x1, y1 = sector.core
        wx0, wy0, wx1, wy1 = sector.window
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(0.6 / s)
        c.setDash(3 / s, 2 / s)
        if x1 < wx1 - 0.5:
            c.line(x1, wy0, x1, wy1)
        if y0 > wy0 + 0.5:
            c.line(wx0, y0, wx1, y0)
        c.setDash()

    def sector_frames(self, c: Canvas, shown: Sequence[Sector], s: float) -> None:
        """The tiles' grid over the overview: each tile's core framed, dashed."""
        for sector in shown:
            x0, y0, x1, y1 = sector.core
            c.setStrokeColorRGB(0.1, 0.1, 0.1)
            c.setLineWidth(1.2 / s)
            c.setDash(5 / s, 2.5 / s)
            c.rect(x0, y0, x1 - x0, y1 - y0, stroke=1, fill=0)
            c.setDash()

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


def _meets(box: Window, window: Window) -> bool:
    return box[0] < window[2] and box[2] > window[0] and box[1] < window[3] and box[3] > window[1]


def reach_band(cost: int, bands: Sequence[int]) -> int:
    """The band of a hex reached for `cost` MP: the first whose most is at least it, else the last."""
    return next((k for k, most in enumerate(bands) if cost <= most), len(bands))


def _stroke_rings(c: Canvas, area: object) -> None:
    """The edge of an area: each of its rings, outer and inner, in the current stroke."""
    for ring in _rings(area):
        c.drawPath(rings_path(c, [ring]), stroke=1, fill=0)
