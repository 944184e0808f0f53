"""The printed map: a one-sheet poster and the same sheet tiled over A4 or US Letter pages.

The poster sheet (map and key band) is drawn once as a PDF form; the poster places it whole,
and every tile places it through a window, so a tile's overlap strip shows exactly what its
neighbour prints there.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path

from kitgen.mapping.hexmap import HexMap
from kitgen.model.scenario import Scenario
from kitgen.render.fonts import SANS, SANS_BOLD, register_fonts
from kitgen.render.mapart import Canvas, MapArt
from kitgen.render.mapkey import draw_band
from kitgen.render.pages import new_canvas
from kitgen.render.style import MapStyle

MM = 72 / 25.4
PAPER = {"a4": (210 * MM, 297 * MM), "letter": (8.5 * 72, 11 * 72)}
POSTER = {"a0": (841 * MM, 1189 * MM), "a1": (594 * MM, 841 * MM)}
FORM = "kitgenMapSheet"


@dataclass(frozen=True)
class SheetFile:
    path: Path
    pages: int
    purpose: str


@dataclass(frozen=True)
class Tiling:
    """How the sheet is cut into tiles: each tile's core, plus `overlap` of its neighbours round it."""

    sheet_w: float
    sheet_h: float
    page_w: float
    page_h: float
    margin: float
    overlap: float
    columns: int
    rows: int

    @classmethod
    def fit(cls, sheet_w: float, sheet_h: float, paper: tuple[float, float], margin: float, overlap: float) -> Tiling:
        """Portrait or landscape, whichever needs fewer pages (portrait on a tie)."""
        options = []
        for page_w, page_h in (paper, (paper[1], paper[0])):
            core_w, core_h = page_w - 2 * margin - 2 * overlap, page_h - 2 * margin - 2 * overlap
            cols, rows = math.ceil(sheet_w / core_w), math.ceil(sheet_h / core_h)
            options.append((cols * rows, cls(sheet_w, sheet_h, page_w, page_h, margin, overlap, cols, rows)))
        return min(options, key=lambda o: o[0])[1]

    @property
    def core(self) -> tuple[float, float]:
        return self.page_w - 2 * self.margin - 2 * self.overlap, self.page_h - 2 * self.margin - 2 * self.overlap

    def core_rect(self, col: int, row: int) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) in sheet points of tile (col, row), both from 0, rows from the top."""
        cw, ch = self.core
        x0 = col * cw
        y1 = self.sheet_h - row * ch
        return x0, y1 - ch, x0 + cw, y1

    def window(self, col: int, row: int) -> tuple[float, float, float, float]:
        x0, y0, x1, y1 = self.core_rect(col, row)
        o = self.overlap
        return x0 - o, y0 - o, x1 + o, y1 + o

    @staticmethod
    def label(col: int, row: int) -> str:
        """A1, B3...: the row as letters (A-Z, then AA, AB... as on a spreadsheet), the column as a number."""
        letters, n = "", row + 1
        while n:
            n, rest = divmod(n - 1, 26)
            letters = chr(ord("A") + rest) + letters
        return f"{letters}{col + 1}"


def _canvas(target: io.BytesIO, size: tuple[float, float], scenario: Scenario, what: str) -> Canvas:
    return new_canvas(target, size, scenario, what)


class MapSheet:
    """The poster sheet: map above, key band below, with a white margin round both."""

    def __init__(
        self,
        hex_map: HexMap,
        scenario: Scenario,
        style: MapStyle,
        positions: list[tuple[str, str]] | None = None,
    ) -> None:
        """`positions`: (faction, hex) of each unit to mark where it starts, or None."""
        register_fonts()
        self.art = MapArt(hex_map, scenario, style)
        self.positions = positions
        self.art.positions_shown = bool(positions)
        if positions:
            self.art.owners = {t: f for t, f in scenario.setup.owners.items() if f != "none"}
        self.s = scenario
        self.style = style
        self.margin = style.poster.margin_in * 72
        # the key band is laid out for a map some 40 inches wide; a smaller map gets a smaller key
        self.band_scale = min(1.0, self.art.width / (40 * 72))
        self.band = style.poster.band_in * 72 * self.band_scale
        self.width = self.art.width + 2 * self.margin
        self.height = self.art.height + self.band + 2 * self.margin
        self.below = self.margin + self.band
        """What lies under the map on the sheet (margin and key band): the tiles leave it out."""

    def define_form(self, c: Canvas) -> None:
        c.beginForm(FORM, 0, 0, self.width, self.height)
        self.draw(c)
        c.endForm()

    def draw(self, c: Canvas) -> None:
        c.saveState()
        c.translate(self.margin, self.margin + self.band)
        self.art.draw(c)
        if self.positions:
            self.art.starting_positions(c, self.positions)
        c.restoreState()
        c.saveState()
        c.translate(self.margin, self.margin)
        c.scale(self.band_scale, self.band_scale)
        draw_band(c, self.art, self.art.width / self.band_scale, self.band / self.band_scale)
        c.restoreState()

    def poster_scale(self, size: str) -> float:
        if size == "true":
            return 1.0
        short, long = POSTER[size]
        page = (long, short) if self.width >= self.height else (short, long)
        return min(page[0] / self.width, page[1] / self.height)

    def poster(self, size: str = "true") -> bytes:
        """The whole sheet on one page: at true scale, or scaled to fit A0 or A1 landscape."""
        out = io.BytesIO()
        if size == "true":
            page = (self.width, self.height)
            scale = 1.0
        else:
            short, long = POSTER[size]
            page = (long, short) if self.width >= self.height else (short, long)
            scale = min(page[0] / self.width, page[1] / self.height)
        what = "map poster" + ("" if size == "true" else f" ({size.upper()})")
        c = _canvas(out, page, self.s, what)
        c.translate((page[0] - self.width * scale) / 2, (page[1] - self.height * scale) / 2)
        c.scale(scale, scale)
        self.draw(c)
        c.showPage()
        c.save()
        return out.getvalue()

    def tiles(self, paper: str) -> tuple[bytes, Tiling]:
        """An assembly page, the key, then one page per tile; each part in the outline."""
        t = Tiling.fit(  # the map and its margin; the key band gets a page of its own
            self.width,
            self.height - self.below,
            PAPER[paper],
            self.style.tiles.margin_mm * MM,
            self.style.tiles.overlap_mm * MM,
        )
        out = io.BytesIO()
        c = _canvas(out, (t.page_w, t.page_h), self.s, f"map tiles ({paper.upper() if paper == 'a4' else 'US Letter'})")
        self.define_form(c)
        self._outline(c, "Assembly")
        self._assembly(c, t, paper)
        c.showPage()
        self._outline(c, "Key")
        self._key(c, t)
        c.showPage()
        self._outline(c, "Tiles")
        for row in range(t.rows):
            for col in range(t.columns):
                self._tile(c, t, col, row)
                c.showPage()
        c.save()
        return out.getvalue(), t

    def _place(self, c: Canvas, t: Tiling, col: int, row: int) -> None:
        """Translate so that sheet points land where tile (col, row) prints them."""
        wx0, wy0, _, _ = t.window(col, row)
        c.translate(t.margin - wx0, t.margin - wy0)

    def _tile(self, c: Canvas, t: Tiling, col: int, row: int) -> None:
        wx0, wy0, wx1, wy1 = t.window(col, row)
        c.saveState()
        self._place(c, t, col, row)
        path = c.beginPath()
        low = max(wy0, 0.0)  # nothing below the map's foot: the key band has its own page
        path.rect(wx0, low, wx1 - wx0, wy1 - low)
        c.clipPath(path, stroke=0, fill=0)
        c.translate(0, -self.below)  # the tiles cover the map, not the key band under it
        c.doForm(FORM)
        c.translate(0, self.below)
        self._marks(c, t, col, row)
        c.restoreState()
        self._tile_label(c, t, col, row)

    def _marks(self, c: Canvas, t: Tiling, col: int, row: int) -> None:
        """Cut lines along every tile boundary and crosses at every tile corner, in sheet points
        and drawn across the whole sheet (the window clips them), so that neighbours print them
        at the same places with the same dash phase."""
        cw, ch = t.core
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(0.4)
        c.setDash(3, 2)
        for i in range(1, t.columns):
            c.line(i * cw, t.sheet_h - t.rows * ch, i * cw, t.sheet_h)
        for j in range(1, t.rows):
            c.line(0, t.sheet_h - j * ch, t.columns * cw, t.sheet_h - j * ch)
        c.setDash()
        arm = 4 * MM
        for i in range(t.columns + 1):
            for j in range(t.rows + 1):
                cx, cy = i * cw, t.sheet_h - j * ch
                for colour, width in (((1, 1, 1), 1.8), ((0, 0, 0), 0.6)):
                    c.setStrokeColorRGB(*colour)
                    c.setLineWidth(width)
                    c.line(cx - arm, cy, cx + arm, cy)
                    c.line(cx, cy - arm, cx, cy + arm)
                c.circle(cx, cy, arm * 0.45, stroke=1, fill=0)

    @staticmethod
    def _outline(c: Canvas, title: str) -> None:
        c.bookmarkPage(title)
        c.addOutlineEntry(title, title, level=0)

    def _key(self, c: Canvas, t: Tiling) -> None:
        """The key page: title, key and scale bar at the map's own scale (shrunk to fit if need be)."""
        from kitgen.render.mapkey import draw_key_page

        m = t.margin
        w, h = t.page_w - 2 * m, t.page_h - 2 * m
        k = min(1.0, w / (7.2 * 72), h / (9.5 * 72))
        c.saveState()
        c.translate(m, m)
        c.scale(k, k)
        draw_key_page(c, self.art, w / k, h / k)
        c.restoreState()

    def _tile_label(self, c: Canvas, t: Tiling, col: int, row: int) -> None:
        """Tile name and its neighbours, in the page margin."""
        c.setFillColorRGB(0, 0, 0)
        c.setFont(SANS_BOLD, 8)
        y = t.margin * 0.45
        name = Tiling.label(col, row)
        c.drawString(t.margin, y, f"Tile {name}  ({row * t.columns + col + 1} of {t.columns * t.rows})")
        c.setFont(SANS, 7)
        near = []
        for dc, dr, word in ((0, -1, "above"), (-1, 0, "left"), (1, 0, "right"), (0, 1, "below")):
            if 0 <= col + dc < t.columns and 0 <= row + dr < t.rows:
                near.append(f"{Tiling.label(col + dc, row + dr)} {word}")
        c.drawRightString(t.page_w - t.margin, y, f"{self.s.meta.title} map  |  " + ", ".join(near))

    def _assembly(self, c: Canvas, t: Tiling, paper: str) -> None:
        """The whole sheet in small with the tile grid, and how to join the tiles."""
        m = t.margin
        c.setFillColorRGB(0, 0, 0)
        c.setFont(SANS_BOLD, 16)
        c.drawString(m, t.page_h - m - 16, f"{self.s.meta.title}: assembling the map")
        lines = [
            f"{t.columns * t.rows} tiles, {t.columns} across and {t.rows} down, printed on "
            f"{'A4' if paper == 'a4' else 'US Letter'} at 100% (no 'fit to page').",
            f"Each tile repeats a {self.style.tiles.overlap_mm:g} mm strip of its neighbours round its edge, "
            "hex ids included.",
            "Cut each tile along its dashed lines on the left and top, lay it over the tile to its left",
            "and the tile above so that the crosses and the repeated strip line up, and tape from behind.",
        ]
        c.setFont(SANS, 9)
        y = t.page_h - m - 36
        for line in lines:
            c.drawString(m, y, line)
            y -= 12
        avail_w, avail_h = t.page_w - 2 * m, y - m - 20
        scale = min(avail_w / self.width, avail_h / self.height)
        ox = m + (avail_w - self.width * scale) / 2
        oy = m + 10 + (avail_h - self.height * scale) / 2
        c.saveState()
        c.translate(ox, oy)
        c.scale(scale, scale)
        c.doForm(FORM)
        c.restoreState()
        c.setLineWidth(0.8)
        c.setStrokeColorRGB(0.8, 0.1, 0.1)
        for row in range(t.rows):
            for col in range(t.columns):
                x0, y0, x1, y1 = t.core_rect(col, row)
                y0, y1 = y0 + self.below, y1 + self.below  # the tiles start at the map's foot
                c.rect(ox + x0 * scale, oy + y0 * scale, (x1 - x0) * scale, (y1 - y0) * scale, stroke=1, fill=0)
                c.setFillColorRGB(0.8, 0.1, 0.1)
                c.setFont(SANS_BOLD, 9)
                c.drawCentredString(ox + (x0 + x1) / 2 * scale, oy + (y0 + y1) / 2 * scale - 3, Tiling.label(col, row))


def write_map_sheets(
    hex_map: HexMap, scenario: Scenario, style: MapStyle, out: Path, *, paper: str, poster: str
) -> list[SheetFile]:
    """Write the poster and the tiled set as the folder `out`: the old set or the new, never a mix."""
    from kitgen.outputs import ProductFolder

    sheet = MapSheet(hex_map, scenario, style)
    poster_name = "map-poster.pdf" if poster == "true" else f"map-poster-{poster}.pdf"
    poster_pdf = sheet.poster(poster)
    tiles_pdf, tiling = sheet.tiles(paper)
    scale = sheet.poster_scale(poster)
    purpose = "the whole map on one sheet, for a plotter or print shop"
    if scale < 1.0:
        hex_ids = style.fonts.hex_id * scale
        purpose += f" (scaled to {scale:.0%}: hex ids print at {hex_ids:.1f} pt" + (
            ", too small to play on; for display)" if hex_ids < 4.5 else ")"
        )
    files = [
        SheetFile(out / poster_name, 1, purpose),
        SheetFile(
            out / f"map-tiles-{paper}.pdf",
            2 + tiling.columns * tiling.rows,
            f"an assembly page, the key and {tiling.columns * tiling.rows} tiles to print at home and join",
        ),
    ]
    with ProductFolder(out) as product:
        product.write(files[0].path.name, poster_pdf)
        product.write(files[1].path.name, tiles_pdf)
    return files
