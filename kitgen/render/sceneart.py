"""Drawing a packet map's scene over the clean map, in the map's own points: on a sector, the
counters of units, trains and ships inside their hexes, glimpsed stacks and stacks' top counters
with their badges, the map's names round them, the marks of depots, pontoons, wrecked track and
abandoned vehicles, town owners and a faction's reach; on the overview, the squares and the
tiles' grid; and a faction's supply. Every counter drawn is recorded in the scene."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import TYPE_CHECKING

import numpy as np

from kitgen.render.fonts import SANS_BOLD, text_width
from kitgen.render.labels import Obstacles, Placed
from kitgen.render.mapart import Points, Row, rings_path
from kitgen.render.packetstyle import OverviewPage, SectorPage
from kitgen.render.pages import faction_mark, hex_colour, ink_on, luminance
from kitgen.render.scene import Overlay, Scene, Sector, Window
from kitgen.render.unitmarks import CounterFaces, Piece, draw_badge, draw_dot, draw_frame, draw_piece

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.model.scenario import Scenario
    from kitgen.render.mapart import MapArt


STEP = 1.6
"""Points between the edges of a stack's counters, up and right, on the page."""
CROWDED = 1000.0
"""The cost (`kitgen.render.labels`) past which a name placed again round counters covers a hex
id, a mark or a counter: a town's is drawn all the same, a named place's is left out."""


@dataclass(frozen=True)
class Plan:
    """A sector's counters laid out before they are drawn, and the names they would cover."""

    window: Window
    laid: dict[str, list[tuple[Piece, Window]]]
    moved: dict[str, Placed]
    marks: list[tuple[str, str, Window]]
    """(faction, letters, box) of each depot, abandoned vehicles and wrecked track (`mark_spots`)."""
    flags: list[tuple[str, Window, bool]]
    """(owner, box, remembered) of each town's owner's flag (`flag_spots`)."""
    page: int = 0
    """The page it is drawn on (from 1) ..."""
    offset: tuple[float, float] = (0.0, 0.0)
    """... where a map point (x, y) lands at (x, y) + offset: a sector is printed at the map's scale."""

    def to_page(self, box: Window) -> Window:
        ox, oy = self.offset
        return (box[0] + ox, box[1] + oy, box[2] + ox, box[3] + oy)


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

    def layout(self, scene: Scene, window: Window) -> dict[str, list[tuple[Piece, Window]]]:
        """Where each hex's pieces go, inside the hex and under its id: one alone; two as one
        counter over the other, the one under showing its name above the top one (both whole in
        size, no name cut short); inside what the map's frame and the page's window leave of the
        hex, smaller if need be. A hex's pieces are listed in the order they are drawn."""
        st = self.st
        w, h, reach = self.art.width, self.art.height, self.art.hex_pt
        bounds = (max(window[0], 0.0), max(window[1], 0.0), min(window[2], w), min(window[3], h))
        # a window that reaches the frame takes the hexes whose centres lie past it, in the bleed
        grown = (
            window[0] - reach if window[0] <= 0.01 else window[0],
            window[1] - reach if window[1] <= 0.01 else window[1],
            window[2] + reach if window[2] >= w - 0.01 else window[2],
            window[3] + reach if window[3] >= h - 0.01 else window[3],
        )
        found: dict[str, list[tuple[Piece, Window]]] = {}
        for hex_id, pieces in scene.pieces.items():
            if hex_id not in self.within(grown):
                continue
            cx, cy = (float(v) for v in self.art.centres[hex_id])
            stack = pieces[0].kind == "stack"
            two = len(pieces) == 2
            size = st.pair if two else st.counter
            peek = st.peek if two else 0.0
            if two:  # the second under the first, its name band above it
                try:
                    (top,) = self.squares(cx, cy, 1, size, bounds, peek=peek, edge=False)
                except ValueError:  # a sliver of the hex at the window's edge: side by side, small
                    found[hex_id] = list(zip(pieces, self.squares(cx, cy, 2, size * SIDE_BY_SIDE, bounds), strict=True))
                    continue
                band = peek * (top[2] - top[0]) / size
                under = (top[0], top[1] + band, top[2], top[3] + band)
                found[hex_id] = [(pieces[1], under), (pieces[0], top)]
            else:
                found[hex_id] = [(pieces[0], self.squares(cx, cy, 1, size, bounds, stack=stack)[0])]
        return found

    def squares(
        self,
        cx: float,
        cy: float,
        n: int,
        size: float,
        bounds: Window,
        *,
        stack: bool = False,
        peek: float = 0.0,
        edge: bool = True,
    ) -> list[Window]:
        """`n` squares side by side, `size` across at most (smaller where they must be), as near
        the hex's centre (less the drop) as they lie inside the hex and clear of its id, and inside
        `bounds` (the map's frame, the page's window) where what they leave of the hex holds them;
        a stack's top counter with room for the edges of the counters under it, and `peek` (of
        a counter `size` across, as much less as the counter shrinks) above it for the name band of
        a counter under it; not `edge`, only inside `bounds` (else a ValueError)."""
        a = self.art.hex_pt / 2  # the apothem: a flat-topped hex
        gap = 1.5
        up = 2 * STEP if stack else 0.0
        top = min(cy + a, self.art.height) - self.art.style.fonts.hex_id - 2.5  # under the id
        bx0, by0, bx1, by1 = bounds
        tries = [(max(cy - a, by0) + 0.5, bx0 + 0.5, bx1 - 0.5, min(top, by1 - 0.5), 0.56)]
        if edge:  # a sliver of a hex at an edge: inside the hex only
            tries.append((cy - a, cx - 2 * a, cx + 2 * a, top, 0.3))
        for low, left, right, high, least in tries:
            for k in range(round((1 - least) / 0.04) + 1):
                side = size * (1 - 0.04 * k)
                width = n * side + (n - 1) * gap
                band = peek * side / size
                level = max(min(cy - self.st.counter_drop - (side + band) / 2, high - side - up - band), low)
                across = max(min(cx - width / 2, right - width - up), left)
                for dy in (0.0, 2, -2, 4, -4, 6, -6, 9, -9, 12, -12):
                    for dx in (0.0, 3, -3, 6, -6, 10, -10):
                        x0, y0 = across + dx, level + dy
                        box = (x0, y0, x0 + width + up, y0 + side + up + band)
                        if box[3] > high or box[1] < low or box[0] < left or box[2] > right:
                            continue
                        if all(3**0.5 * abs(x - cx) + abs(y - cy) <= 2 * a for x in box[::2] for y in box[1::2]):
                            return [
                                (x0 + i * (side + gap), y0, x0 + i * (side + gap) + side, y0 + side) for i in range(n)
                            ]
        raise ValueError(f"no room for {n} counters of {size:.0f} pt in a hex of {2 * a:.0f} pt")

    def slots(self, hex_id: str) -> list[Window]:
        """Beside the counters in a hex, for its marks: by the id left (a town's owner) and right,
        then low right and left."""
        u = self.art.hex_pt / 72.0
        cx, cy = (float(v) for v in self.art.centres[hex_id])
        return [
            (cx - 20 * u, cy + 24.5 * u, cx - 11 * u, cy + 33.5 * u),
            (cx + 11 * u, cy + 24.5 * u, cx + 20 * u, cy + 33.5 * u),
            (cx + 12.5 * u, cy - 34 * u, cx + 20.5 * u, cy - 26 * u),
            (cx - 20.5 * u, cy - 34 * u, cx - 12.5 * u, cy - 26 * u),
        ]

    @staticmethod
    def marks_of(scene: Scene) -> dict[str, list[tuple[str, str]]]:
        """Each hex's marks, (faction, letters) in order: depots (D), abandoned vehicles (AB),
        wrecked track (X, no faction)."""
        found: dict[str, list[tuple[str, str]]] = {}
        for hex_id, faction in scene.depots:
            found.setdefault(hex_id, []).append((faction, "D"))
        for hex_id, faction in scene.abandoned:
            found.setdefault(hex_id, []).append((faction, "AB"))
        for hex_id in scene.wrecked:
            found.setdefault(hex_id, []).append(("", "X"))
        return found

    def plan(self, scene: Scene, window: Window, page: int = 0, offset: tuple[float, float] = (0.0, 0.0)) -> Plan:
        """Where the window's counters go, and the map's names they, the marks and the owners'
        flags would cover; on `page`, the map laid at `offset`."""
        laid = self.layout(scene, window)
        marks, flags = self.mark_spots(scene, window, laid), self.flag_spots(scene, window)
        boxes = [_with_edges(box, p) for spots in laid.values() for p, box in spots]
        boxes += [box for _, _, box in marks] + [box for _, box, _ in flags]
        return Plan(window, laid, self._covered_labels(boxes, window), marks, flags, page, offset)

    def pieces(self, c: Canvas, scene: Scene, plan: Plan) -> None:
        """Each hex's pieces as counters inside it (`layout`): a stack's top counter over the
        edges of the rest, its badge over its foot; then the map's names (its clean map under a
        sector has none), each where the map places it, or, where a counter would cover it,
        placed again round the counters. Every square drawn is recorded with its hex."""
        st = self.st
        faces = CounterFaces(st.name_font, st.name_min, st.figure_font, st.words_font, st.badge_font)
        for hex_id, spots in plan.laid.items():
            for n, (piece, (x, y, x1, _)) in enumerate(spots):
                size = x1 - x
                # under the other (not side by side, at a window's edge): only its band above it is drawn
                hidden = len(spots) == 2 and n == 0 and spots[0][1][1] > spots[1][1][1] + 0.01
                if hidden:
                    c.saveState()
                    clip = c.beginPath()
                    clip.rect(x - 1, spots[1][1][3], size + 2, y + size - spots[1][1][3] + 1)
                    c.clipPath(clip, stroke=0, fill=0)
                colour = self.colour(piece.faction) if piece.faction else "#9A9A9A"
                if piece.kind == "stack":
                    under = piece.top or piece
                    colour = self.colour(under.faction)
                    for k in (2, 1):  # the edges of the counters under the top one
                        ex, ey = x + k * STEP, y + k * STEP
                        draw_frame(c, ex, ey, size, size, colour, max(0.35, size * 0.012))
                        scene.placed.append((hex_id, (ex, ey, ex + size, ey + size)))
                draw_piece(c, piece, colour, x, y, size, faces)
                if hidden:
                    c.restoreState()
                scene.placed.append((hex_id, (x, y, x + size, y + size)))
                scene.on_pages.append((plan.page, plan.to_page((x, y, x + size, y + size))))
                scene.drawn.append(piece)
                if piece.kind == "stack":  # over the top counter's strength: the stack's, not its
                    badge = f"\u00d7{len(piece.detail)}"  # "x6": six pieces, listed by the hex
                    draw_badge(c, badge, x + size / 2, y + 1.5 + faces.badge * 1.35, faces.badge)
        taken = [box for _, box in scene.placed]
        taken += [box for _, _, box in plan.marks] + [box for _, box, _ in plan.flags]
        self._rivers(c, plan, taken)
        self._names(c, plan, taken)

    def _rivers(self, c: Canvas, plan: Plan, counters: list[Window]) -> None:
        """The rivers' names in the window (its clean map under a sector has none), but one a
        counter or mark would cover: a river is named again every few hexsides."""
        import shapely

        from kitgen.render.mapart import draw_label_along

        art = self.art
        boxes = shapely.box(*np.array(counters).T) if counters else np.array([])
        tree = shapely.STRtree(boxes) if counters else None
        for name, piece, shape in art.river_name_spots:
            if not _meets(shape.bounds, plan.window):
                continue
            if tree is not None and len(tree.query(shape, predicate="intersects")):
                continue
            draw_label_along(c, name, piece, art.style.fonts.river, art.style.colours.river)

    def _covered_labels(self, boxes: list[Window], window: Window) -> dict[str, Placed]:
        """The map's labels in the window that one of `boxes` would cover, by key."""
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
        ids = self.hex_ids_in(window)
        others += [shape.bounds for _, _, shape in art.river_name_spots if _meets(shape.bounds, window)]
        obstacles = Obstacles(list(self.obstacles.areas), list(self.obstacles.lines))
        obstacles.add_boxes(ids, 2000.0)  # a hex id the sector prints: dearer to cover than anything but a counter
        u = art.hex_pt / 72.0
        placed = place_labels(
            wants,
            obstacles,
            frame=window,
            symbols=taken + others,
            gap=1.2 * u,
            step=9.0 * u,  # further out than the map's own: round the counters, not a town's dot
            pad=0.8 * u,
            leader_cost=50.0,
        )
        towns = set(art.town_keys().values())
        for spot in placed:  # no leader: it would cross the counter over the town's marker
            if spot.cost >= CROWDED and spot.key not in towns:
                continue  # a named place with no clear spot round the counters is left out, as maps thin names
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
    def hex_id_boxes(self) -> np.ndarray:
        """The box of every hex id the map prints (those a name covers are left out), once."""
        hidden = self.art.covered_hex_ids
        boxes = [box for h, _, _, box in self.art.hex_id_spots() if h not in hidden]
        return np.array(boxes, dtype=float).reshape(-1, 4)

    def hex_ids_in(self, window: Window) -> list[Window]:
        """The boxes of the printed hex ids that meet the window."""
        b = self.hex_id_boxes
        mask = (b[:, 0] < window[2]) & (b[:, 2] > window[0]) & (b[:, 1] < window[3]) & (b[:, 3] > window[1])
        return [tuple(row) for row in b[mask].tolist()]

    @cached_property
    def obstacles(self) -> Obstacles:
        return self.art.label_obstacles

    def mark_spots(
        self, scene: Scene, window: Window, laid: dict[str, list[tuple[Piece, Window]]]
    ) -> list[tuple[str, str, Window]]:
        """(faction, letters, box) of each depot, abandoned vehicles and wrecked track in the window:
        low in its hex, or, beside counters, in the hex's free corners (three at most, one of each kind)."""
        hp = self.art.hex_pt
        box = hp * 0.2
        found = []
        for hex_id, marks in sorted(self.marks_of(scene).items()):
            if hex_id not in self.within(window):
                continue
            cx, cy = (float(v) for v in self.art.centres[hex_id])
            if hex_id in laid:
                spots = self.slots(hex_id)[1:]
            else:
                spots = [
                    (cx + hp * 0.2, cy - hp * 0.42, cx + hp * 0.2 + box, cy - hp * 0.42 + box),
                    (cx + hp * 0.2, cy + hp * 0.22, cx + hp * 0.2 + box, cy + hp * 0.22 + box),
                    (cx - hp * 0.4, cy - hp * 0.42, cx - hp * 0.4 + box, cy - hp * 0.42 + box),
                ]
            found += [(faction, text, spot) for (faction, text), spot in zip(marks, spots, strict=False)]
        return found

    def marks(self, c: Canvas, scene: Scene, plan: Plan) -> None:
        """Depots, abandoned vehicles and wrecked track (`mark_spots`); pontoons on their hexsides.
        (Trains and ships are counters.)"""
        hp = self.art.hex_pt
        for faction, text, (x, y, x1, _) in plan.marks:
            size = x1 - x
            if text == "X":
                self.cross(c, x + size / 2, y + size / 2, size * 0.4, "#000000", hp * 0.04)
                continue
            self._letter(c, faction, text, x, y, size)
            scene.on_pages.append((plan.page, plan.to_page((x, y, x1, y + size))))  # a marker, as the kit's
        for a, b, faction in scene.pontoons:
            if a in self.art.centres and b in self.art.centres and a in self.within(plan.window):
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

    def flag_spots(self, scene: Scene, window: Window) -> list[tuple[str, Window, bool]]:
        """(owner, box, remembered) of each known town's flag in the window, and of each town's
        owner as last seen: beside the town's marker, on the side its name is not; in a hex with
        counters, in the slot by its id (shared by its towns)."""
        hp = self.art.hex_pt
        u = hp / 72.0
        keys = self.art.town_keys()
        found = []
        for hex_id, marks in sorted(self.art.towns.items()):
            if hex_id not in self.within(window):
                continue
            owners = [
                (scene.owners[m.name], False) if m.name in scene.owners else (scene.remembered[m.name][0], True)
                for m in marks
                if m.name in scene.owners or m.name in scene.remembered
            ]
            cx, cy = (float(v) for v in self.art.centres[hex_id])
            radius, _ = self.art.town_symbol(hex_id)
            spot = self.art.label_spots.get(keys[hex_id])
            size = hp * 0.15
            for k, (owner, old) in enumerate(owners):
                if hex_id in scene.pieces:
                    x0, y0, x1, y1 = self.slots(hex_id)[0]
                    size = min(x1 - x0, y1 - y0) / len(owners)
                    x, y = x0 + k * size, y0
                elif spot is not None and spot.side.endswith("left"):
                    x, y = cx + radius + u + k * (size + u), cy - size / 2
                else:
                    x, y = cx - radius - u - size - k * (size + u), cy - size / 2
                found.append((owner, (x, y, x + size, y + size), old))
        return found

    def owners(self, c: Canvas, plan: Plan) -> None:
        """Each known town's owner: a small flag of its colour and mark (`flag_spots`); a town's
        owner as last seen, a hollow flag framed in the colour, its mark in it."""
        for owner, (x, y, x1, _), old in plan.flags:
            size = x1 - x
            colour = self.colour(owner)
            if old:
                c.setFillColorRGB(1, 1, 1)
                c.setStrokeColorRGB(*hex_colour(colour if luminance(colour) < 0.6 else "#7A7000"))
                c.setLineWidth(size * 0.14)
                c.rect(x, y, size, size, stroke=1, fill=1)
                c.setFillColorRGB(0.25, 0.25, 0.25)
            else:
                c.setFillColorRGB(*hex_colour(colour))
                c.setStrokeColorRGB(0.1, 0.1, 0.1)
                c.setLineWidth(0.5)
                c.rect(x, y, size, size, stroke=1, fill=1)
                c.setFillColorRGB(*ink_on(colour))
            faction_mark(c, owner, x + size / 2, y + size / 2, size * 0.72)

    def reach(self, c: Canvas, scene: Scene, window: Window) -> None:
        """Where the viewer's units can march: the hexes tinted in the reach colour by band of the least
        MP spent, the cheapest darkest, under a thin line round them all; a ring in each hex only a
        train reaches. An area, so that it reads as nothing else on the map (a road is a line)."""
        st = self.st
        colour = hex_colour(st.reach_colour)
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
            c.setLineWidth(st.edge * 0.6)
            _stroke_rings(c, self.area(frozenset(scene.reach)))
        inside = self.within(window)
        c.setStrokeColorRGB(*colour)
        c.setLineWidth(st.edge)
        for h in sorted(scene.rail & inside):
            cx, cy = self.art.centres[h]
            c.circle(cx, cy, st.rail_ring, stroke=1, fill=0)

    def dots(self, c: Canvas, scene: Scene, s: float) -> None:
        """Each hex's pieces as a small square, kept whole inside the map's frame: one at its
        edge moves in by as much as it would be cut."""
        ov = self.ov
        size = ov.marker / s
        half = size / 2 + 0.5 / s
        for hex_id, pieces in scene.pieces.items():
            cx, cy = self.dot_at(hex_id, half)
            count = sum(len(p.detail) if p.kind == "stack" else 1 for p in pieces)
            lead = pieces[0]
            if lead.kind in ("block", "memory"):
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
                age=lead.age if lead.kind == "memory" else None,
            )
            scene.drawn.append(lead)
            scene.drawn.extend(pieces[1:])

    def rail_net(self, links: frozenset[frozenset[str]]) -> list[Points]:
        """A faction's usable track as the map draws its railways: smooth lines through the same
        hexes, not a zigzag of straight links from hex centre to hex centre."""
        from kitgen.render.mapart import smooth_through

        return [smooth_through(line) for line in self.art.link_lines(links)]

    def dot_at(self, hex_id: str, half: float) -> tuple[float, float]:
        """Where a hex's overview square of half-side `half` stands: its centre, moved inside the map."""
        cx, cy = self.art.centres[hex_id]
        return (
            min(max(cx, half), self.art.width - half),
            min(max(cy, half), self.art.height - half),
        )

    def core_edges(self, c: Canvas, sector: Sector) -> None:
        """Where the tiles to the right of and below this one are laid: dashed, as the tiles print it."""
        x0, y0, x1, y1 = sector.core
        wx0, wy0, wx1, wy1 = sector.window
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(0.6)
        c.setDash(3, 2)
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
                small = s < 1  # the overview's scale: fine lines `hatch` apart on paper, or they fill it
                c.setLineWidth(st.edge * (0.22 if small else 0.5) / s)
                x0, y0, x1, y1 = area.bounds  # type: ignore[attr-defined]
                step = st.hatch / s if small else self.art.hex_pt * 0.18
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
            edges = (("#1E1E1E", st.edge * 1.9), (colour, st.edge)) if s >= 1 else ((colour, st.edge * 0.5),)
            for ink, width in edges:
                c.setStrokeColorRGB(*hex_colour(ink))
                c.setLineWidth(width / s)
                _stroke_rings(c, area)
        casing = (
            (("#1E1E1E", st.rail * 1.8),) if s >= 1 else ()
        )  # on the small scale, a line alone: a cased one is a wall
        for ink, width in (*casing, (colour, st.rail if s >= 1 else st.rail * 0.6)):
            c.setStrokeColorRGB(*hex_colour(ink))
            c.setLineWidth(width / s)
            c.setLineCap(1)
            c.setLineJoin(1)
            self.art.lines(c, self.rail_net(overlay.rail))
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


SIDE_BY_SIDE = 0.76
"""Two units at a window's edge, where one over the other has no room: side by side, this much
of the size each has one over the other."""


def _with_edges(box: Window, piece: Piece) -> Window:
    """A counter's box, with the edges of a stack's under-counters above and right of it."""
    up = 2 * STEP if piece.kind == "stack" else 0.0
    return (box[0], box[1], box[2] + up, box[3] + up)


def _meets(box: Window, window: Window) -> bool:
    return box[0] < window[2] and box[2] > window[0] and box[1] < window[3] and box[3] > window[1]


def reach_band(cost: int, bands: Sequence[int]) -> int:
    """The band of a hex reached for `cost` MP: the first whose most is at least it, else the last."""
    return next((k for k, most in enumerate(bands) if cost <= most), len(bands))


def _stroke_rings(c: Canvas, area: object) -> None:
    """The edge of an area: each of its rings, outer and inner, in the current stroke."""
    for ring in _rings(area):
        c.drawPath(rings_path(c, [ring]), stroke=1, fill=0)
