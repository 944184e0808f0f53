"""The packets' map pages: the whole map as an overview with its sectors, each sector at a
scale its counters read at, and each faction's supply overlay; all over the one clean map, and
drawn from a `Scene` (`packetscene`) alone."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import numpy as np

from kitgen.products.packetscene import Overlay, Scene, Sector, Window
from kitgen.render.fonts import SANS, SANS_BOLD, text_width
from kitgen.render.mapembed import MapSlot
from kitgen.render.packetstyle import OverviewPage, SectorPage
from kitgen.render.pages import faction_mark, hex_colour, ink_on
from kitgen.render.unitmarks import ARM_LETTERS, draw_dot, draw_piece

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.campaign import Campaign
    from kitgen.products.forms import Sheet
    from kitgen.render.mapart import MapArt

# --- drawing ---------------------------------------------------------------------------------


class MapPages:
    """Draws a packet's map pages onto Sheets, recording where the clean map goes under each."""

    def __init__(
        self,
        campaign: Campaign,
        art: MapArt,
        sector: SectorPage,
        overview: OverviewPage,
        slots: list[MapSlot],
    ) -> None:
        self.campaign, self.art, self.st, self.ov = campaign, art, sector, overview
        self.slots = slots
        self.colours = {f.id: f.colour for f in campaign.scenario.meta.factions}
        self.names = {f.id: f.name for f in campaign.scenario.meta.factions}
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

    def sector_window(self, sheet: Sheet) -> tuple[float, float, float, float]:
        """The map window on a sector page: under the band, above the legend and stack list."""
        st = self.st
        top = sheet.top - sheet.st.band_mm * 2.835 - sheet.st.gap
        bottom = sheet.bottom + st.legend + self.list_height()
        return (sheet.left, bottom, sheet.right - sheet.left, top - bottom)

    def list_height(self) -> float:
        return self.st.list_row * (self.st.stack_rows + 1) + 4

    def sector_size(self, sheet_size: tuple[float, float]) -> tuple[float, float]:
        """The window of every sector in map points, for pages of this size."""
        from kitgen.products.forms import Sheet
        from kitgen.render.formstyle import form_style

        probe = Sheet.__new__(Sheet)
        Sheet.__init__(probe, None, form_style(), self.campaign.scenario, sheet_size, "")  # type: ignore[arg-type]
        _, _, w, h = self.sector_window(probe)
        s = self.scale
        return (w / s, h / s)

    @property
    def scale(self) -> float:
        return self.st.hex_across / self.art.hex_pt

    def page_slot(
        self, sheet: Sheet, window: tuple[float, float, float, float], at: tuple[float, float], s: float
    ) -> None:
        page = sheet.c.getPageNumber() - 1
        self.slots.append(MapSlot(page, window, at, s))

    # the sector page

    def sector_page(self, sheet: Sheet, scene: Scene, sector: Sector, title: str, note: str) -> float:
        faction = self.campaign.scenario.faction(scene.viewer) if scene.viewer else None
        sheet.band(title, faction, note)
        x, y, w, h = self.sector_window(sheet)
        s = self.scale
        wx0, wy0 = sector.window[0], sector.window[1]
        self.page_slot(sheet, (x, y, w, h), (wx0, wy0), s)
        c = sheet.c
        c.saveState()
        p = c.beginPath()
        p.rect(x, y, w, h)
        c.clipPath(p, stroke=0, fill=0)
        c.translate(x - s * wx0, y - s * wy0)
        c.scale(s, s)
        window = sector.window
        self._reach(c, scene, window, s)
        self._owners(c, scene, window)
        self._marks(c, scene, window, s)
        self._pieces(c, scene, window, s)
        c.restoreState()
        c.setStrokeColorRGB(0.1, 0.1, 0.1)
        c.setLineWidth(self.st.frame)
        c.rect(x, y, w, h, stroke=1, fill=0)
        self._edge_ids(sheet, sector, (x, y, w, h))
        self._stack_list(sheet, scene, sector, y)
        self._legend(sheet, scene, sheet.bottom + self.st.legend - 2)
        return sheet.bottom

    def _edge_ids(self, sheet: Sheet, sector: Sector, box: tuple[float, float, float, float]) -> None:
        """The hexes the window shows, under its frame, and which sectors border it."""
        x, y, w, h = box
        ids = sorted(self.within(sector.window))
        shown = f"{ids[0]}-{ids[-1]}" if ids else ""
        sheet.text(x + w, y - 8, f"Sector {sector.key}: hexes {shown}", size=6, align="right")

    def _pieces(self, c: Canvas, scene: Scene, window: Window, s: float) -> None:
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

    def _marks(self, c: Canvas, scene: Scene, window: Window, s: float) -> None:
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
                self._cross(c, float(x), float(y), hp * 0.16, "#000000", hp * 0.05)

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

    def _cross(self, c: Canvas, x: float, y: float, r: float, colour: str, width: float) -> None:
        c.setStrokeColorRGB(1, 1, 1)
        c.setLineWidth(width * 2.2)
        c.line(x - r, y - r, x + r, y + r)
        c.line(x - r, y + r, x + r, y - r)
        c.setStrokeColorRGB(*hex_colour(colour))
        c.setLineWidth(width)
        c.line(x - r, y - r, x + r, y + r)
        c.line(x - r, y + r, x + r, y - r)

    def _owners(self, c: Canvas, scene: Scene, window: Window) -> None:
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

    def _reach(self, c: Canvas, scene: Scene, window: Window, s: float) -> None:
        """The hexes the viewer's units can reach by land: a dashed outline round them all."""
        if not scene.reach:
            return

        area = self.area(scene.reach)
        c.setStrokeColorRGB(*hex_colour(self.colour(scene.viewer or "")))
        c.setLineWidth(self.st.edge / s)
        c.setDash(4 / s, 2 / s)
        for ring in _rings(area):
            p = c.beginPath()
            p.moveTo(*ring[0])
            for pt in ring[1:]:
                p.lineTo(*pt)
            p.close()
            c.drawPath(p, stroke=1, fill=0)
        c.setDash()

    def _stack_list(self, sheet: Sheet, scene: Scene, sector: Sector, map_bottom: float) -> None:
        """The stacks on this sheet, by key: what each marker holds."""
        st = self.st
        here = [e for e in scene.stacks if e.hex in self.within(sector.window)]
        top = map_bottom - 12
        w = sheet.text(sheet.left, top, "STACKS ON THIS SHEET", font=SANS_BOLD, size=st.list_font)
        if not here:
            sheet.text(sheet.left + w + 6, top, "none: every hex shows its units", size=st.list_font, colour="#5A5A5A")
            return
        lines: list[tuple[str, str, str]] = []
        for e in here:
            for k, (faction, text) in enumerate(e.lines):
                lines.append((f"{e.key} ({e.hex})" if k == 0 else "", faction, text))
        per_col = st.stack_rows
        col_w = (sheet.right - sheet.left) / 2
        for i, (key, faction, text) in enumerate(lines[: per_col * 2]):
            col, row = divmod(i, per_col)
            x = sheet.left + col * col_w
            y = top - (row + 1) * st.list_row
            sheet.text(x, y, key, font=SANS_BOLD, size=st.list_font)
            size = st.list_font * 0.9
            sheet.c.setFillColorRGB(*hex_colour(self.colour(faction)))
            key_w = st.stack_key
            sheet.c.rect(x + key_w, y - 0.5, size, size, stroke=0, fill=1)
            sheet.c.setFillColorRGB(*ink_on(self.colour(faction)))
            faction_mark(sheet.c, faction, x + key_w + size / 2, y - 0.5 + size / 2, size * 0.75)
            sheet.text(x + key_w + size + 3, y, text, size=st.list_font, fit=col_w - key_w - size - 8)
        if len(lines) > per_col * 2:
            sheet.text(
                sheet.right, top, "more on the stack list page", size=st.list_font, align="right", colour="#5A5A5A"
            )

    def _legend(self, sheet: Sheet, scene: Scene, y: float) -> None:
        """What the pieces mean, in one strip."""
        st = self.st
        from kitgen.products.packettext import say

        letters = ", ".join(f"{v} {k}" for k, v in ARM_LETTERS.items())
        items = [say("legend_counter"), say("legend_stack"), say("legend_marks"), say("legend_owner")]
        if scene.viewer is not None:
            items[1:1] = [say("legend_glimpsed", letters=letters)]
            items.append(say("legend_reach"))
        text = "   \u00b7   ".join(items)
        lines = sheet.wrap(text, SANS, st.list_font * 0.95, sheet.right - sheet.left)
        for k, line in enumerate(lines[:3]):
            sheet.text(sheet.left, y - k * st.list_row, line, size=st.list_font * 0.95, colour="#3A3A3A")

    # the overview

    def overview_page(
        self,
        sheet: Sheet,
        scene: Scene,
        shown: Sequence[Sector],
        title: str,
        note: str,
        overlay: Overlay | None = None,
        after: Callable[[Sheet, float], float] | None = None,
    ) -> float:
        """The whole map fitted to the page's width, the sectors printed framed and lettered, the
        scene's units as small squares (a number for a stack); with `overlay`, a faction's supply."""
        faction = (
            self.campaign.scenario.faction(overlay.faction if overlay else scene.viewer or "")
            if (overlay or scene.viewer)
            else None
        )
        y_top = sheet.band(title, faction, note)
        room = y_top - sheet.bottom - 70  # the notes under the map
        s = min(sheet.span / self.art.width, room / self.art.height)
        w, h = self.art.width * s, self.art.height * s
        x, y = sheet.left + (sheet.span - w) / 2, y_top - h
        self.page_slot(sheet, (x, y, w, h), (0.0, 0.0), s)
        c = sheet.c
        c.saveState()
        p = c.beginPath()
        p.rect(x, y, w, h)
        c.clipPath(p, stroke=0, fill=0)
        c.translate(x, y)
        c.scale(s, s)
        if overlay is not None:
            self.supply(c, overlay, s)
        else:
            self._dots(c, scene, s)
            self._sector_frames(c, shown, s)
        c.restoreState()
        c.setStrokeColorRGB(0.1, 0.1, 0.1)
        c.setLineWidth(self.ov.frame)
        c.rect(x, y, w, h, stroke=1, fill=0)
        y -= 6
        if after is not None:
            y = after(sheet, y)
        return y

    def _dots(self, c: Canvas, scene: Scene, s: float) -> None:
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

    def _sector_frames(self, c: Canvas, shown: Sequence[Sector], s: float) -> None:
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
            p = c.beginPath()
            for ring, holes in _polygons(area):
                for r in (ring, *holes):
                    p.moveTo(*r[0])
                    for pt in r[1:]:
                        p.lineTo(*pt)
                    p.close()
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
                for ring in _rings(area):
                    p = c.beginPath()
                    p.moveTo(*ring[0])
                    for pt in ring[1:]:
                        p.lineTo(*pt)
                    p.close()
                    c.drawPath(p, stroke=1, fill=0)
        for ink, width in (("#1E1E1E", st.rail * 1.8), (colour, st.rail)):
            c.setStrokeColorRGB(*hex_colour(ink))
            c.setLineWidth(width / s)
            c.setLineCap(1)
            for link in sorted(overlay.rail, key=sorted):
                a, b = sorted(link)
                c.line(*self.art.centres[a], *self.art.centres[b])
        for hex_id in sorted(overlay.wrecked):
            x, y = self.art.centres[hex_id]
            self._cross(c, float(x), float(y), st.cut / s, "#000000", 1.2 / s)
        for hex_id in sorted(overlay.held):
            x, y = self.art.centres[hex_id]
            c.setStrokeColorRGB(0, 0, 0)
            c.setFillColorRGB(1, 1, 1)
            c.setLineWidth(1.0 / s)
            c.circle(x, y, st.cut * 0.9 / s, stroke=1, fill=1)
            self._cross(c, x, y, st.cut * 0.55 / s, "#000000", 0.9 / s)


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


def overlay_legend(
    sheet: Sheet, overlay: Overlay, y: float, names: dict[str, str], *, out: Sequence[str] | None = None
) -> float:
    """What a supply overlay shows, under it; for a faction's own (`out`: its units out of supply
    now), that it shows the supply as far as the faction knows, and which of its units are cut off."""
    from kitgen.products.packettext import say

    name = names.get(overlay.faction, overlay.faction)
    key = "supply_cut" if overlay.cut else "supply_legend" if out is None else "supply_believed"
    y = sheet.para(sheet.left, y, sheet.right - sheet.left, say(key, faction=name), size=sheet.st.fonts.body)
    if out is not None and not overlay.cut:
        text = say("supply_out", units=", ".join(out)) if out else say("supply_none_out")
        y = sheet.para(sheet.left, y - 4, sheet.right - sheet.left, text, size=sheet.st.fonts.body)
    return y
