"""The packets' map pages: the whole map as an overview with its sectors, each sector at a
scale its counters read at, and each faction's supply overlay; all over the one clean map, and
drawn from a `Scene` (`packetscene`) alone."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from kitgen.render.fonts import SANS, SANS_BOLD
from kitgen.render.mapembed import MapSlot
from kitgen.render.packetstyle import OverviewPage, SectorPage
from kitgen.render.pages import MM, faction_mark, hex_colour, ink_on
from kitgen.render.scene import Overlay, Scene, Sector
from kitgen.render.sceneart import SceneArt
from kitgen.render.unitmarks import ARM_LETTERS

if TYPE_CHECKING:
    from kitgen.campaign import Campaign
    from kitgen.render.mapart import MapArt
    from kitgen.render.sheet import Sheet

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
        scene_art: SceneArt,
    ) -> None:
        self.campaign, self.art, self.st, self.ov = campaign, art, sector, overview
        self.slots = slots
        self.names = {f.id: f.name for f in campaign.scenario.meta.factions}
        self.draw = scene_art

    def sector_window(self, sheet: Sheet) -> tuple[float, float, float, float]:
        """The map window on a sector page: under the band, above the legend and stack list."""
        st = self.st
        top = sheet.top - sheet.st.band_mm * MM - sheet.st.gap
        bottom = sheet.bottom + st.legend + self.list_height()
        return (sheet.left, bottom, sheet.right - sheet.left, top - bottom)

    def list_height(self) -> float:
        return self.st.list_row * (self.st.stack_rows + 1) + 4

    def sector_size(self, sheet_size: tuple[float, float]) -> tuple[float, float]:
        """The window of every sector in map points, for pages of this size."""
        from kitgen.render.formstyle import form_style
        from kitgen.render.sheet import Sheet

        probe = Sheet(None, form_style(), self.campaign.scenario, sheet_size, "")  # type: ignore[arg-type]  # its geometry only
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
        self.draw.reach(c, scene, window, s)
        self.draw.owners(c, scene, window)
        self.draw.marks(c, scene, window, s)
        self.draw.pieces(c, scene, window, s)
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
        ids = sorted(self.draw.within(sector.window))
        shown = f"{ids[0]}-{ids[-1]}" if ids else ""
        size = self.st.list_font * 0.95
        sheet.text(x + w, y - size * 1.3, f"Sector {sector.key}: hexes {shown}", size=size, align="right")

    def _stack_list(self, sheet: Sheet, scene: Scene, sector: Sector, map_bottom: float) -> None:
        """The stacks on this sheet, by key: what each marker holds."""
        st = self.st
        here = [e for e in scene.stacks if e.hex in self.draw.within(sector.window)]
        top = map_bottom - 12
        w = sheet.text(sheet.left, top, "STACKS ON THIS SHEET", font=SANS_BOLD, size=st.list_font)
        if not here:
            sheet.text(
                sheet.left + w + 6,
                top,
                "none: every hex shows its units",
                size=st.list_font,
                colour=sheet.st.colours.muted,
            )
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
            sheet.c.setFillColorRGB(*hex_colour(self.draw.colour(faction)))
            key_w = st.stack_key
            sheet.c.rect(x + key_w, y - 0.5, size, size, stroke=0, fill=1)
            sheet.c.setFillColorRGB(*ink_on(self.draw.colour(faction)))
            faction_mark(sheet.c, faction, x + key_w + size / 2, y - 0.5 + size / 2, size * 0.75)
            sheet.text(x + key_w + size + 3, y, text, size=st.list_font, fit=col_w - key_w - size - 8)
        if len(lines) > per_col * 2:
            sheet.text(
                sheet.right,
                top,
                "more on the stack list page",
                size=st.list_font,
                align="right",
                colour=sheet.st.colours.muted,
            )

    def _legend(self, sheet: Sheet, scene: Scene, y: float) -> None:
        """What the pieces mean, in one strip."""
        st = self.st
        from kitgen.products.packettext import say

        letters = ", ".join(f"{v} {k}" for k, v in ARM_LETTERS.items())
        items = [say("legend_counter"), say("legend_stack"), say("legend_marks"), say("legend_owner")]
        if scene.viewer is not None:
            items[1:1] = [say("legend_glimpsed", letters=letters)]
            items.append(say("legend_reach", bands=reach_bands_text(st.reach_bands)))
        text = "   \u00b7   ".join(items)
        lines = sheet.wrap(text, SANS, st.list_font * 0.95, sheet.right - sheet.left)
        for k, line in enumerate(lines[:3]):
            sheet.text(sheet.left, y - k * st.list_row, line, size=st.list_font * 0.95, colour=sheet.st.colours.heading)

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
        room = y_top - sheet.bottom - self.ov.notes  # the notes under the map
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
            self.draw.supply(c, overlay, s)
        else:
            self.draw.dots(c, scene, s)
            self.draw.sector_frames(c, shown, s)
        c.restoreState()
        c.setStrokeColorRGB(0.1, 0.1, 0.1)
        c.setLineWidth(self.ov.frame)
        c.rect(x, y, w, h, stroke=1, fill=0)
        y -= 6
        if after is not None:
            y = after(sheet, y)
        return y


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
    from kitgen.products.packettext import say

    name = names.get(overlay.faction, overlay.faction)
    key = "supply_cut" if overlay.cut else "supply_legend" if out is None else "supply_believed"
    y = sheet.para(sheet.left, y, sheet.right - sheet.left, say(key, faction=name), size=sheet.st.fonts.body)
    if out is not None and not overlay.cut:
        text = say("supply_out", units=", ".join(out)) if out else say("supply_none_out")
        y = sheet.para(sheet.left, y - 4, sheet.right - sheet.left, text, size=sheet.st.fonts.body)
    return y
