"""The packets' map pages: the whole map as an overview with its sectors, each sector at a
scale its counters read at, and each faction's supply overlay; all over the one clean map, and
drawn from a `Scene` (`kitgen.products.packets.scene`) alone."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kitgen.render.fonts import SANS, SANS_BOLD, text_width
from kitgen.render.mapembed import place_map, whole_map
from kitgen.render.packetstyle import OverviewPage, SectorPage
from kitgen.render.pages import faction_mark, hex_colour, ink_on
from kitgen.render.scene import Overlay, Scene, Sector
from kitgen.render.sceneart import SceneArt
from kitgen.render.unitmarks import ARM_LETTERS

if TYPE_CHECKING:
    from kitgen.campaign import Campaign
    from kitgen.render.mapart import MapArt
    from kitgen.render.sheet import Sheet

# --- drawing ---------------------------------------------------------------------------------


class MapPages:
    """Draws a packet's map pages onto Sheets, the clean map under each (`place_map`)."""

    def __init__(
        self,
        campaign: Campaign,
        art: MapArt,
        sector: SectorPage,
        overview: OverviewPage,
        scene_art: SceneArt,
    ) -> None:
        self.campaign, self.art, self.st, self.ov = campaign, art, sector, overview
        self.names = {f.id: f.name for f in campaign.scenario.meta.factions}
        self.draw = scene_art

    # the sector page

    def sector_page(
        self, sheet: Sheet, scene: Scene, sector: Sector, tiles: Sequence[Sector], title: str, note: str
    ) -> float:
        """One map tile of the kit at its own scale (a landscape page with the tiles' margins):
        from the tile's top-left corner as far as the page has room, the tile's own window at
        most, with a dashed line where its neighbours' tiles begin; beside it a column with where
        the sector lies, its stacks and the key."""
        faction = self.campaign.scenario.faction(scene.viewer) if scene.viewer else None
        top = sheet.band(title, faction, note)
        st = self.st
        wx0, wy0, wx1, wy1 = sector.window
        # the part of the map the tile is for (its core, inside the map's frame) is shown whole:
        # a tile of the last column or row has no neighbour to show the rest
        cx1, cy0 = min(sector.core[2], self.art.width), max(sector.core[1], 0.0)
        w = max(min(sheet.span - st.side - st.side_gap, wx1 - wx0), cx1 - wx0)
        h = min(top - sheet.bottom, wy1 - wy0)
        y1 = wy1 if wy1 - h <= cy0 else cy0 + h  # from the tile's top, else as high as the core's foot allows
        x, y = sheet.left, top - h
        window = (wx0, y1 - h, wx0 + w, y1)
        wy1 = y1
        place_map(sheet.c, (x, y, w, h), (wx0, wy1 - h), 1.0, "sector")
        c = sheet.c
        c.saveState()
        p = c.beginPath()
        p.rect(x, y, w, h)
        c.clipPath(p, stroke=0, fill=0)
        c.translate(x - wx0, y - window[1])
        plan = self.draw.plan(scene, window, c.getPageNumber(), (x - wx0, y - window[1]))
        scene.windows[plan.page] = (x, y, x + w, y + h)
        self.draw.reach(c, scene, window)
        self.draw.marks(c, scene, plan)
        self.draw.pieces(c, scene, plan)
        self.draw.owners(c, plan)
        self.draw.core_edges(c, sector)
        c.restoreState()
        c.setStrokeColorRGB(0.1, 0.1, 0.1)
        c.setLineWidth(st.frame)
        c.rect(x, y, w, h, stroke=1, fill=0)
        self._side(sheet, scene, sector, tiles, (x + w + st.side_gap, top), window)
        return sheet.bottom

    def _side(
        self,
        sheet: Sheet,
        scene: Scene,
        sector: Sector,
        tiles: Sequence[Sector],
        at: tuple[float, float],
        window: tuple[float, float, float, float],
    ) -> None:
        """The column beside a sector: the tiles in small with this one dark, its hexes and
        neighbours; the stacks it shows; the key."""
        st = self.st
        x, top = at
        width = sheet.right - x
        y = self._locator(sheet, sector, tiles, x, top, width)
        ids = sorted(self.draw.within(sector.core))
        near = sector_neighbours(sector, tiles)
        from kitgen.products.packets.text import say

        text = say("sector_side", tile=sector.key, first=ids[0] if ids else "", last=ids[-1] if ids else "", near=near)
        y = self._lines(sheet, x, y, width, text)
        y -= st.list_row * 0.6
        y = self._stack_list(sheet, scene, window, x, y, width)
        self._legend(sheet, scene, x, width)

    def _locator(
        self, sheet: Sheet, sector: Sector, tiles: Sequence[Sector], x: float, top: float, width: float
    ) -> float:
        """The tile grid in small, each tile's core as it lies on the joined map, this one dark."""
        x0 = min(t.core[0] for t in tiles)
        y0 = min(t.core[1] for t in tiles)
        x1 = max(t.core[2] for t in tiles)
        y1 = max(t.core[3] for t in tiles)
        k = min(width / (x1 - x0), width * 0.8 / (y1 - y0))
        c = sheet.c
        c.setLineWidth(0.5)
        for t in tiles:
            here = t.key == sector.key
            c.setStrokeColorRGB(0.1, 0.1, 0.1)
            if here:
                c.setFillColorRGB(0.15, 0.15, 0.15)
            else:
                c.setFillColorRGB(1, 1, 1)
            bx, by = x + (t.core[0] - x0) * k, top - (y1 - t.core[1]) * k
            bw, bh = (t.core[2] - t.core[0]) * k, (t.core[3] - t.core[1]) * k
            c.rect(bx, by, bw, bh, stroke=1, fill=1)
            size = min(self.st.list_font * 1.3, bh * 0.7, bw * 0.85 / text_width(t.key, SANS_BOLD, 1.0))
            if here and size >= self.st.list_font:  # else the words under it name it
                sheet.text(
                    bx + bw / 2,
                    by + bh / 2 - size * 0.36,
                    t.key,
                    font=SANS_BOLD,
                    size=size,
                    align="centre",
                    colour="#FFFFFF",
                )
        return top - (y1 - y0) * k - self.st.list_row * 1.4

    def _lines(self, sheet: Sheet, x: float, y: float, width: float, text: str, *, font: str = SANS) -> float:
        """`text` wrapped to the column; returns the baseline of the next line."""
        st = self.st
        for line in sheet.wrap(text, font, st.list_font, width):
            sheet.text(x, y, line, font=font, size=st.list_font)
            y -= st.list_row
        return y

    def _stack_list(
        self, sheet: Sheet, scene: Scene, window: tuple[float, float, float, float], x: float, y: float, width: float
    ) -> float:
        """The stacks this sector shows, by key: what each holds, as far as the column has room."""
        st = self.st
        from kitgen.products.packets.text import say

        here = [e for e in scene.stacks if e.hex in self.draw.within(window)]
        if not here:
            return y
        sheet.text(x, y, say("sector_stacks"), font=SANS_BOLD, size=st.list_font)
        y -= st.list_row
        floor = sheet.bottom + self.legend_height(sheet, scene, width) + st.list_row * 2
        chip = st.list_font * 0.9
        for n, e in enumerate(here):
            need = st.list_row * (1 + sum(len(sheet.wrap(t, SANS, st.list_font, width - chip - 2)) for _, t in e.lines))
            if y - need < floor:
                sheet.text(
                    x,
                    y,
                    say("sector_stacks_more", count=len(here) - n),
                    size=st.list_font,
                    colour=sheet.st.colours.muted,
                )
                return y - st.list_row
            sheet.text(x, y, f"Hex {e.hex}", font=SANS_BOLD, size=st.list_font)
            y -= st.list_row
            for faction, text in e.lines:
                sheet.c.setFillColorRGB(*hex_colour(self.draw.colour(faction)))
                sheet.c.setStrokeColorRGB(0.1, 0.1, 0.1)
                sheet.c.setLineWidth(0.3)
                sheet.c.rect(x, y - 0.5, chip, chip, stroke=1, fill=1)
                sheet.c.setFillColorRGB(*ink_on(self.draw.colour(faction)))
                faction_mark(sheet.c, faction, x + chip / 2, y - 0.5 + chip / 2, chip * 0.75)
                y = self._lines(sheet, x + chip + 2, y, width - chip - 2, text)
            y -= st.list_row * 0.3
        return y

    def legend_items(self, scene: Scene) -> list[str]:
        from kitgen.products.packets.text import say

        letters = ", ".join(f"{v} {k}" for k, v in ARM_LETTERS.items())
        items = [say("legend_counter"), say("legend_stack"), say("legend_marks"), say("legend_owner")]
        if scene.viewer is not None:
            items[1:1] = [say("legend_glimpsed", letters=letters)]
            if scene.remembered or any(p.kind == "memory" for here in scene.pieces.values() for p in here):
                items[2:2] = [say("legend_memory")]
            items.append(say("legend_reach", bands=reach_bands_text(self.st.reach_bands)))
        return items

    def legend_height(self, sheet: Sheet, scene: Scene, width: float) -> float:
        lines = sum(len(sheet.wrap(item, SANS, self.st.list_font, width)) for item in self.legend_items(scene))
        return self.st.list_row * (lines + len(self.legend_items(scene)) * 0.3 + 1)

    def _legend(self, sheet: Sheet, scene: Scene, x: float, width: float) -> None:
        """What the pieces mean, at the column's foot."""
        from kitgen.products.packets.text import say

        st = self.st
        y = sheet.bottom + self.legend_height(sheet, scene, width) - st.list_row * 0.2
        sheet.text(x, y, say("sector_key"), font=SANS_BOLD, size=st.list_font)
        y -= st.list_row
        for item in self.legend_items(scene):
            y = self._lines(sheet, x, y, width, item) - st.list_row * 0.3

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
        edge = self.ov.sector_font * 1.6 if shown else 0.0  # the tiles' rows and columns named outside the frame
        side = self.ov.side if sheet.width > sheet.height else 0.0  # landscape: the notes in a column beside the map
        if side and after is not None and _height(sheet, after, side) > y_top - sheet.bottom:
            side = 0.0  # notes too long for the column: under the map
        notes = 0.0 if side else max(self.ov.notes, _height(sheet, after) + 6) if after is not None else self.ov.notes
        room = y_top - edge - sheet.bottom - notes  # the notes under the map
        across = sheet.span - edge - (side + self.ov.side_gap if side else 0.0)
        s = min(across / self.art.width, room / self.art.height)
        w, h = self.art.width * s, self.art.height * s
        x, y = sheet.left + edge + (across - w) / 2, y_top - edge - h
        c = sheet.c
        with whole_map(c, (x, y, w, h), s, "overview"):
            if overlay is not None:
                self.draw.supply(c, overlay, s, hatch=True)  # hatched: a flat tint in a faction's blue is the sea's
            if overlay is None or shown:  # a faction's whole map: its supply under its units and sectors
                self.draw.sector_frames(c, shown, s)
                self.draw.dots(c, scene, s)
        c.setStrokeColorRGB(0.1, 0.1, 0.1)
        c.setLineWidth(self.ov.frame)
        c.rect(x, y, w, h, stroke=1, fill=0)
        if overlay is None or shown:
            self._town_names(sheet, scene, (x, y, s))
        self._tile_names(sheet, shown, (x, y, s), y + h)
        if after is None:
            return y - 6
        if not side:
            return after(sheet, y - 6)
        left = sheet.left
        sheet.left = sheet.right - side
        try:
            end = after(sheet, y_top)
        finally:
            sheet.left = left
        return min(end, y)

    def _town_names(self, sheet: Sheet, scene: Scene, at: tuple[float, float, float]) -> None:
        """The towns' names on the overview, each beside its town and clear of the others and of
        the units' squares: the towns the viewer holds or sees first, then by the VP they are
        worth; a name with no room left is left off (the sectors name every town)."""
        import shapely

        x, y, s = at
        art, board = self.art, self.campaign.board
        size = self.ov.town_font
        half = self.ov.marker / 2 + 0.5
        taken = []
        for hex_id in scene.pieces:
            cx, cy = self.draw.dot_at(hex_id, half / s)
            taken.append(shapely.box(x + cx * s - half, y + cy * s - half, x + cx * s + half, y + cy * s + half))
        frame = shapely.box(x, y, x + art.width * s, y + art.height * s)
        worth = {t.name: max((v or 0 for v in t.vp.values()), default=0) for t in self.campaign.scenario.towns}
        known = set(scene.owners)
        shown = {t.name: t.shown_name for t in self.campaign.scenario.towns}
        towns = sorted(
            ((name, hex_id) for hex_id, names in board.towns.items() if hex_id in art.centres for name in names),
            key=lambda t: (t[0] not in known, -worth.get(t[0], 0), t[0]),
        )
        placed = shapely.STRtree(taken) if taken else None
        boxes: list[object] = []
        for town, hex_id in towns:
            name = shown.get(town, town)  # as the map prints it
            cx, cy = art.centres[hex_id]
            px, py = x + cx * s, y + cy * s
            width = text_width(name, SANS, size)
            near = half + 1.5 if hex_id in scene.pieces else 2.0  # clear of the units' square on the town
            mid = -size * 0.35
            spots = [
                spot
                for gap in (near, near + half * 2, near + half * 5)  # then farther, past a neighbour's units, led
                for spot in (
                    (gap, mid),
                    (-gap - width, mid),
                    (-width / 2, gap),
                    (-width / 2, -gap - size),
                    (gap, gap),
                    (gap, -gap - size),
                    (-gap - width, gap),
                    (-gap - width, -gap - size),
                )
            ]
            for dx, dy in spots:
                box = shapely.box(px + dx - 1, py + dy - 1.2, px + dx + width + 1, py + dy + size * 0.95)
                if not frame.contains(box):
                    continue
                if placed is not None and len(placed.query(box, predicate="intersects")):
                    continue
                if any(box.intersects(b) for b in boxes):
                    continue
                boxes.append(box)
                c = sheet.c
                if abs(dx + width / 2) > width / 2 + near + 1 or abs(dy) > near + size + 1:  # away: a leader to it
                    tx = min(max(px, px + dx), px + dx + width)
                    ty = min(max(py, py + dy), py + dy + size * 0.8)
                    c.setStrokeColorRGB(0.12, 0.12, 0.12)
                    c.setLineWidth(0.4)
                    c.line(px, py, tx, ty)
                c.saveState()
                c.setFillColorRGB(1, 1, 1)
                c.setFillAlpha(0.8)
                c.rect(px + dx - 1, py + dy - 1.2, width + 2, size * 1.15 + 1.2, stroke=0, fill=1)
                c.restoreState()
                sheet.text(px + dx, py + dy, name, size=size, colour="#1E1E1E", literal=True)
                break

    def _tile_names(self, sheet: Sheet, tiles: Sequence[Sector], at: tuple[float, float, float], top: float) -> None:
        """The tiles' names as a grid reference: each column's number over it, each row's
        letters left of it (tile B3 is row B, column 3)."""
        x, y, s = at
        size = self.ov.sector_font
        columns: dict[str, tuple[float, float]] = {}
        rows: dict[str, tuple[float, float]] = {}
        for t in tiles:
            letters = t.key.rstrip("0123456789")
            columns[t.key[len(letters) :]] = (t.core[0], t.core[2])
            rows[letters] = (t.core[1], t.core[3])
        for name, (x0, x1) in columns.items():
            mid = x + max(0.0, (x0 + x1) / 2) * s
            sheet.text(mid, top + size * 0.45, name, font=SANS_BOLD, size=size, align="centre")
        for name, (y0, y1) in rows.items():
            mid = y + (y0 + y1) / 2 * s
            sheet.text(x - size * 0.5, mid - size * 0.36, name, font=SANS_BOLD, size=size, align="right")


def sector_neighbours(sector: Sector, tiles: Sequence[Sector]) -> str:
    """The tiles that border `sector`'s core, by side: 'above A2, left B1, right B3, below C2'."""
    x0, y0, x1, y1 = sector.core

    def across(t: Sector) -> bool:
        return t.core[0] < x1 and t.core[2] > x0

    def level(t: Sector) -> bool:
        return t.core[1] < y1 and t.core[3] > y0

    near = []
    for t in tiles:
        if t.key == sector.key:
            continue
        if abs(t.core[1] - y1) < 1 and across(t):
            near.append((0, f"above {t.key}"))
        elif abs(t.core[2] - x0) < 1 and level(t):
            near.append((1, f"left {t.key}"))
        elif abs(t.core[0] - x1) < 1 and level(t):
            near.append((2, f"right {t.key}"))
        elif abs(t.core[3] - y0) < 1 and across(t):
            near.append((3, f"below {t.key}"))
    return ", ".join(text for _, text in sorted(near)) or "none"


def reach_bands_text(bands: Sequence[int]) -> str:
    """The reach tint's bands in words: [1, 2, 4] -> '1 MP, 2, 3-4, 5 or more'."""
    words, low = [], 1
    for most in bands:
        words.append(str(most) if most == low else f"{low}-{most}")
        low = most + 1
    words.append(f"{low} or more")
    return f"{words[0]} MP, " + ", ".join(words[1:])


def overlay_legend(
    sheet: Sheet, overlay: Overlay, y: float, names: dict[str, str], *, out: Sequence[str] | None = None
) -> float:
    """What a supply overlay shows, under it; for a faction's own (`out`: its units out of supply
    now), that it shows the supply as far as the faction knows, and which of its units are cut off."""
    from kitgen.products.packets.text import say

    name = names.get(overlay.faction, overlay.faction)
    key = "supply_cut" if overlay.cut else "supply_legend" if out is None else "supply_believed"
    y = sheet.para(sheet.left, y, sheet.right - sheet.left, say(key, faction=name), size=sheet.st.fonts.body)
    if out is not None and not overlay.cut:
        text = say("supply_out", units=", ".join(out)) if out else say("supply_none_out")
        y = sheet.para(sheet.left, y - 4, sheet.right - sheet.left, text, size=sheet.st.fonts.body)
    return y


def _height(sheet: Sheet, draw: Callable[[Sheet, float], float], width: float | None = None) -> float:
    """The points `draw` takes down a page like `sheet`'s (in a column `width` wide at its right,
    if given), measured by drawing it on a scratch one."""
    import io

    from reportlab.pdfgen.canvas import Canvas

    from kitgen.render.sheet import Sheet

    size = (sheet.width, sheet.height)
    scratch = Sheet(Canvas(io.BytesIO(), pagesize=size), sheet.st, sheet.s, size, "")
    if width is not None:
        scratch.left = scratch.right - width
    return scratch.top - draw(scratch, scratch.top)
