"""The printed map: a one-sheet poster and the same sheet tiled over A4 or US Letter pages.

The map and its furniture are drawn once, as a one-page PDF kept on disk, and filled into a
form that the poster places whole, over its key, and every tile places through a window, so a
tile's overlap strip shows exactly what its neighbour prints there.
"""

from __future__ import annotations

import dataclasses
import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.utils import simpleSplit

from kitgen.mapping.hexmap import HexMap
from kitgen.model.scenario import Scenario
from kitgen.render.fonts import SANS, SANS_BOLD, register_fonts, text_width
from kitgen.render.mapart import Canvas, MapArt
from kitgen.render.mapembed import define_maps, form_name
from kitgen.render.mapfurniture import draw_check_bar, draw_map_furniture
from kitgen.render.mapkey import (
    draw_band,
    draw_key_column,
    draw_key_page,
    hex_across,
    key_column_height,
    key_page_height,
)
from kitgen.render.pages import crop_marks, declare_cut, new_canvas
from kitgen.render.recorded import Picture
from kitgen.render.style import MapStyle
from kitgen.render.wording import curled

if TYPE_CHECKING:
    from kitgen.render.mapembed import MapForm
    from kitgen.render.words import Word

MM = 72 / 25.4
PAPER = {"a4": (210 * MM, 297 * MM), "letter": (8.5 * 72, 11 * 72)}
POSTER = {
    "a0": (841 * MM, 1189 * MM),
    "a1": (594 * MM, 841 * MM),
    "2xa1": (841 * MM, 2 * 594 * MM),
    "36x48": (36 * 72.0, 48 * 72.0),
    "2xa2": (594 * MM, 2 * 420 * MM),
    "2x17x22": (22 * 72.0, 2 * 17 * 72.0),
    "a2": (420 * MM, 594 * MM),
    "a3": (297 * MM, 420 * MM),
    "17x22": (17 * 72.0, 22 * 72.0),
    "11x17": (11 * 72.0, 17 * 72.0),
}
"""Trim sizes (short side, long side) of the posters for a print shop; "2xa1" is two A1 sheets
side by side (about A0), cut at the join, and "2xa2", "2x17x22" two of those sheets (the
compact edition's map)."""
POSTER_NAMES = {
    "a0": "A0",
    "a1": "A1",
    "2xa1": "2 x A1",
    "36x48": "36 x 48 in",
    "2xa2": "2 x A2",
    "2x17x22": "2 x 17 x 22 in",
    "a2": "A2",
    "a3": "A3",
    "17x22": "17 x 22 in",
    "11x17": "11 x 17 in",
}
MAP = "Area"
"""The map's art (`MapSheet.art_pdf`) as the posters and the tiles place it (`kitgen.render.mapembed`),
each setting over it the words it shows (`MapSheet.words`)."""
OVERLAY_FORM = "kitgenOverlay"


@dataclass(frozen=True)
class SheetFile:
    path: Path
    pages: int
    purpose: str


@dataclass(frozen=True)
class Tiling:
    """How the map area (`sheet_w` x `sheet_h`) is cut into tiles: a grid of equal windows, each
    running `overlap` on past its right and bottom neighbours' edges (the strip that neighbour is
    laid over), so the windows fill the area exactly and no tile is left mostly blank."""

    sheet_w: float
    sheet_h: float
    page_w: float
    page_h: float
    margin: float
    footer: float
    overlap: float
    columns: int
    rows: int
    left_out: frozenset[tuple[int, int]] = frozenset()
    """(col, row) of the tiles not printed: they show only sea or off-map paper."""

    @property
    def printed(self) -> list[tuple[int, int]]:
        """(col, row) of every tile printed, row by row."""
        return [(c, r) for r in range(self.rows) for c in range(self.columns) if (c, r) not in self.left_out]

    @property
    def joined(self) -> bool:
        """Whether there are tiles to join, and so an assembly page before the key."""
        return len(self.printed) > 1

    @property
    def pages(self) -> int:
        """The tiled set's pages: the assembly page (where there are tiles to join), the key, the tiles."""
        return (2 if self.joined else 1) + len(self.printed)

    @classmethod
    def fit(
        cls,
        sheet_w: float,
        sheet_h: float,
        paper: tuple[float, float],
        margin: float,
        overlap: float,
        footer: float = 0.0,
    ) -> Tiling:
        """Portrait or landscape, whichever needs fewer pages (then whichever fills them more)."""
        options = []
        for page_w, page_h in (paper, (paper[1], paper[0])):
            avail_w, avail_h = page_w - 2 * margin, page_h - 2 * margin - footer
            cols = max(1, math.ceil((sheet_w - overlap) / (avail_w - overlap)))
            rows = max(1, math.ceil((sheet_h - overlap) / (avail_h - overlap)))
            t = cls(sheet_w, sheet_h, page_w, page_h, margin, footer, overlap, cols, rows)
            options.append((cols * rows, -t.fill, t))
        return min(options, key=lambda o: o[:2])[2]

    @property
    def step(self) -> tuple[float, float]:
        """From one tile's window to the next, across and down."""
        return (self.sheet_w - self.overlap) / self.columns, (self.sheet_h - self.overlap) / self.rows

    @property
    def window_size(self) -> tuple[float, float]:
        sx, sy = self.step
        return sx + self.overlap, sy + self.overlap

    @property
    def fill(self) -> float:
        """The share of the printable part of a page (inside the margins, above the footer) that
        a window covers: every tile's, as the windows are equal and the area is filled."""
        ww, wh = self.window_size
        return ww * wh / ((self.page_w - 2 * self.margin) * (self.page_h - 2 * self.margin - self.footer))

    @property
    def origin(self) -> tuple[float, float]:
        """Page point of every window's bottom-left corner: centred above the footer."""
        ww, wh = self.window_size
        avail_h = self.page_h - 2 * self.margin - self.footer
        return (self.page_w - ww) / 2, self.margin + self.footer + (avail_h - wh) / 2

    def window(self, col: int, row: int) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) in sheet points of what tile (col, row) prints; both from 0, rows
        from the top."""
        sx, sy = self.step
        ww, wh = self.window_size
        x0, y1 = col * sx, self.sheet_h - row * sy
        return x0, y1 - wh, x0 + ww, y1

    def core_rect(self, col: int, row: int) -> tuple[float, float, float, float]:
        """The part of the sheet tile (col, row) shows once the tiles are joined: its window less
        the strips its right and bottom neighbours are laid over."""
        x0, y0, x1, y1 = self.window(col, row)
        if col < self.columns - 1:
            x1 -= self.overlap
        if row < self.rows - 1:
            y0 += self.overlap
        return x0, y0, x1, y1

    def neighbours(self, col: int, row: int) -> list[tuple[str, str]]:
        """(side, label) of each tile next to (col, row)."""
        near = []
        for dc, dr, side in ((0, -1, "above"), (-1, 0, "left"), (1, 0, "right"), (0, 1, "below")):
            if 0 <= col + dc < self.columns and 0 <= row + dr < self.rows and (col + dc, row + dr) not in self.left_out:
                near.append((side, Tiling.label(col + dc, row + dr)))
        return near

    @staticmethod
    def label(col: int, row: int) -> str:
        """A1, B3...: the row as letters (A-Z, then AA, AB... as on a spreadsheet), the column as a number."""
        letters, n = "", row + 1
        while n:
            n, rest = divmod(n - 1, 26)
            letters = chr(ord("A") + rest) + letters
        return f"{letters}{col + 1}"


def map_tiling(width: float, height: float, style: MapStyle, paper: str) -> Tiling:
    """How a map `width` x `height` points (its frame) is cut into tiles on `paper`: its area
    runs the tiles' bleed past the frame on every side."""
    tiles = style.tiles
    bleed = tiles.bleed_mm * MM
    area = (width + 2 * bleed, height + 2 * bleed)
    return Tiling.fit(*area, PAPER[paper], tiles.margin_mm * MM, tiles.overlap_mm * MM, tiles.footer_mm * MM)


def _canvas(target: io.BytesIO, size: tuple[float, float], scenario: Scenario, what: str) -> Canvas:
    return new_canvas(target, size, scenario, what)


TILE_BLEED = 3 * MM
"""How far a tile's map runs on past its cut (the print shops' bleed), so that a cut a little
outside the line shows map, not paper."""


class MapSheet:
    """The poster sheet: map above, key band below, with a white margin round both. The map
    carries no units: turn packets draw them on this same map."""

    def __init__(self, hex_map: HexMap, scenario: Scenario, style: MapStyle) -> None:
        register_fonts()
        self.art = MapArt(hex_map, scenario, style)
        self.s = scenario
        self.style = style
        poster = style.poster
        self.beside = style.edition == "compact"
        """Whether the key stands in a column beside the map (the compact edition's sheet)."""
        self.margin = style.compact.margin_mm * MM if self.beside else poster.margin_in * 72
        self.wide = not self.beside and self.art.width >= poster.band_min_in * 72
        """Whether the key runs in a band under the map; else it stands under it as a block."""
        if self.beside:
            key_w = style.compact.key_column_mm * MM
            key_h = max(self.art.height, key_column_height(self.art, key_w))
        elif self.wide:
            key_w, key_h = self.art.width, poster.band_in * 72
        else:
            key_w = poster.key_width_in * 72
            key_h = min(poster.key_height_in * 72, key_page_height(self.art, key_w))  # no empty paper
        self.key = (key_w, key_h)
        if self.beside:
            self.band = 0.0
            self.width = self.art.width + key_w + 3 * self.margin
            self.height = max(self.art.height, key_h) + 2 * self.margin
        else:
            self.band = key_h + (0.0 if self.wide else self.margin)
            self.width = max(self.art.width, key_w) + 2 * self.margin
            self.height = self.art.height + self.band + 2 * self.margin
        self.bleed = style.tiles.bleed_mm * MM
        self._printed: dict[str, MapSheet] = {}
        """The sheets of the print-shop posters, by size, once worked out."""
        self.area = (self.art.width + 2 * self.bleed, self.art.height + 2 * self.bleed)
        """The map area the tiles cover: the frame and a strip round it (the supply-edge bands)."""

    def draw_map(self, c: Canvas) -> None:
        """The map and its furniture, the frame's bottom-left corner at the origin."""
        self.art.draw(c)
        draw_map_furniture(c, self.art)

    @property
    def map_origin(self) -> tuple[float, float]:
        """Where on the sheet the map's frame has its bottom-left corner: centred over the key, or
        at the left with the key beside it."""
        if self.beside:
            return self.margin, self.height - self.margin - self.art.height
        return self.margin + (self.width - 2 * self.margin - self.art.width) / 2, self.margin + self.band

    def draw(self, c: Canvas) -> None:
        c.saveState()
        c.translate(*self.map_origin)
        self.draw_map(c)
        c.restoreState()
        self._draw_key(c)

    def _draw_key(self, c: Canvas) -> None:
        c.saveState()
        if self.beside:
            c.translate(2 * self.margin + self.art.width, self.height - self.margin - self.key[1])
            draw_key_column(c, self.art, *self.key)
            c.restoreState()
            return
        c.translate(self.margin, self.margin)
        if self.wide:
            draw_band(c, self.art, *self.key)
        else:
            draw_key_page(c, self.art, *self.key)
        c.restoreState()

    def art_pdf(self) -> bytes:
        """The map and its furniture without their words, alone on one page the size of `area`
        (the frame `bleed` in from its corner): what the poster and every tile lay down, each
        setting the `words` it shows; drawn once and kept on disk."""
        return self._drawn[0]

    @property
    def words(self) -> tuple[Word, ...]:
        """The map's words (`kitgen.render.words`), in the frame's points."""
        return self._drawn[1]

    @cached_property
    def _drawn(self) -> tuple[bytes, tuple[Word, ...]]:
        """`art_pdf` and `words`, from the cache, else both from one drawing of the map, kept."""
        import hashlib

        from kitgen.render.mapcache import kept_map_pdf, kept_value, map_key
        from kitgen.render.words import Word

        digest = hashlib.sha256(map_key(self.s, "all").encode())
        digest.update(f"sheet art {self.style.model_dump_json()} {self.area}".encode())
        made: list[tuple[bytes, tuple[Word, ...]]] = []

        def draw() -> tuple[bytes, tuple[Word, ...]]:
            if not made:
                made.append(self._draw_art_and_words())
            return made[0]

        art = kept_map_pdf(self.s, digest.hexdigest()[:32], lambda: draw()[0])
        words = kept_value(
            "mapwords", self.s, digest, tuple, lambda: draw()[1], lambda kept: all(isinstance(w, Word) for w in kept)
        )
        assert words is not None  # a sheet has its map
        return art, words

    def _draw_art_and_words(self) -> tuple[bytes, tuple[Word, ...]]:
        from kitgen.render.words import record_words

        out = io.BytesIO()
        c = _canvas(out, self.area, self.s, "map")
        c.translate(self.bleed, self.bleed)
        words = record_words(self.draw_map, c)
        c.showPage()
        c.save()
        return out.getvalue(), words

    def _picture(self) -> Picture:
        from kitgen.render.mapcache import map_picture

        picture = map_picture(self.s, self.style, lambda: self.art)
        assert picture is not None  # a sheet has its map
        return picture

    def _with_map(self, pdf: bytes) -> bytes:
        """`pdf` with the map's art filled into the form its pages place (`MAP`)."""
        from kitgen.render.mapembed import fill_maps

        return fill_maps(pdf, self._maps)

    @cached_property
    def _maps(self) -> dict[str, MapForm]:
        """The map's art read once (`read_maps`) for the posters and the tiles alike."""
        from kitgen.render.mapembed import read_maps

        return read_maps({MAP: self.art_pdf()})

    def poster_scale(self, size: str) -> float:
        """The map's scale on a standard poster, against true scale: the whole sheet enlarged to
        fill the trim; or, where it must shrink, its hexes drawn smaller with the type, key and
        margins kept at full size (`_print_sheet`)."""
        if size == "true" or self.beside:
            return 1.0
        sheet = self._print_sheet(size)
        if sheet is self:
            trim = self._trim(size)
            return min(trim[0] / self.width, trim[1] / self.height)
        return sheet.style.hex_across_in / self.style.hex_across_in

    def _trim(self, size: str) -> tuple[float, float]:
        """A standard poster's trim, turned the way the sheet is (landscape for a wide one)."""
        short, long = POSTER[size]
        return (long, short) if self.width >= self.height else (short, long)

    def _print_sheet(self, size: str) -> MapSheet:
        """The sheet for a standard poster: the map drawn with smaller (or larger) hexes, its
        type, lines, key and margins at their true sizes, so that what prints never shrinks
        below what the true-scale map prints (issue 25: the layout gate at every poster size)."""
        if size in self._printed:
            return self._printed[size]
        trim = self._trim(size)
        scale = min(trim[0] / self.width, trim[1] / self.height)
        sheet = self
        if self.beside:  # the compact edition prints at its own size, never scaled
            if scale < 1:
                from kitgen import messages as msg
                from kitgen.errors import UsageError

                raise UsageError(msg.map_too_big_for_poster(POSTER_NAMES[size], self.width / MM, self.height / MM))
            return self
        if scale >= 1:  # a small map on a big sheet: the whole sheet enlarged, its type with it
            return self
        for _ in range(8):  # the key's shape depends on the map's width: settle on one that fits
            sheet = MapSheet(
                self.art.map, self.s, self.style.model_copy(update={"hex_across_in": self.style.hex_across_in * scale})
            )
            fixed_w, fixed_h = sheet.width - sheet.art.width, sheet.height - sheet.art.height
            fit = min((trim[0] - fixed_w) / sheet.art.width, (trim[1] - fixed_h) / sheet.art.height)
            if 0.999 <= fit <= 1.0:
                break
            scale *= fit * 0.9995
        if sheet.width > trim[0] + 0.5 or sheet.height > trim[1] + 0.5:
            raise ValueError(f"the map does not settle onto the {POSTER_NAMES[size]} poster")  # never cropped
        self._printed[size] = sheet
        return sheet

    def poster(self, size: str = "true") -> bytes:
        """The whole sheet on one page at true scale; or, for a print shop, scaled to fit a
        standard trim size (A0, A1, 36 x 48 in, or A0 as two A1 halves) with crop marks."""
        if size != "true":
            return self._print_poster(size)
        out = io.BytesIO()
        c = _canvas(out, (self.width, self.height), self.s, "map poster")
        self._place(c)
        c.showPage()
        define_maps(c, [MAP])
        c.save()
        return self._with_map(out.getvalue())

    def _place(self, c: Canvas) -> None:
        """The sheet as `draw` draws it, its map's art laid down as the form drawn once
        (`art_pdf`) and its words set over it."""
        from kitgen.render.words import draw_words

        c.saveState()
        c.translate(*self.map_origin)
        c.translate(-self.bleed, -self.bleed)
        c.doForm(form_name(MAP))
        c.translate(self.bleed, self.bleed)
        draw_words(c, self.words, (-self.bleed, -self.bleed, self.art.width + self.bleed, self.art.height + self.bleed))
        c.restoreState()
        self._draw_key(c)

    def _print_poster(self, size: str) -> bytes:
        """The trim box is the standard size exactly; the page adds a slug round it with crop
        marks at the trim's corners and a note; the sheet is scaled to fit the trim and centred.
        On 2 x A1 the A0 trim is cut down the middle into two A1 pages, each running a little
        past the join (its bleed) so that no white shows where they butt."""
        trim = self._trim(size)
        sheet = self._print_sheet(size)
        scale = self.poster_scale(size)
        grow = scale if sheet is self and not self.beside else 1.0  # the sheet enlarged whole, or drawn as it is
        slug = self.style.print_poster.slug_mm * MM
        halves = 2 if size.startswith("2x") else 1
        across = trim[0] >= trim[1]  # two sheets side by side, cut down the middle; else one above the other
        part_w, part_h = (trim[0] / halves, trim[1]) if across else (trim[0], trim[1] / halves)
        out = io.BytesIO()
        c = _canvas(out, (part_w + 2 * slug, part_h + 2 * slug), self.s, f"map poster ({POSTER_NAMES[size]})")
        join = self.style.print_poster.join_bleed_mm * MM
        for half in range(halves):
            first, last = half == 0, half == halves - 1
            # the part's lower-left corner in the trim, and how far it runs on past each join
            ox, oy = (half * part_w, 0.0) if across else (0.0, trim[1] - (half + 1) * part_h)
            left = join if across and not first else 0.0
            right = join if across and not last else 0.0
            top = join if not across and not first else 0.0
            bottom = join if not across and not last else 0.0
            c.setTrimBox((slug, slug, slug + part_w, slug + part_h))
            c.setBleedBox((slug - left, slug - bottom, slug + part_w + right, slug + part_h + top))
            c.saveState()
            path = c.beginPath()
            path.rect(slug - left, slug - bottom, part_w + left + right, part_h + bottom + top)
            c.clipPath(path, stroke=0, fill=0)
            c.translate(slug - ox, slug - oy)
            c.translate((trim[0] - sheet.width * grow) / 2, (trim[1] - sheet.height * grow) / 2)
            c.scale(grow, grow)
            sheet._place(c)
            c.restoreState()
            crop_marks(c, slug, slug, part_w, part_h, bleed=max(join, 2 * MM), length=min(slug - join - MM, 6 * MM))
            c.setFillColorRGB(0, 0, 0)
            c.setFont(SANS, 7)
            where = (
                ""
                if halves == 1
                else f" {('left' if first else 'right') if across else ('top' if first else 'bottom')} half"
            )
            c.drawString(
                slug + 10 * MM,
                slug / 2 - 2,
                curled(
                    f"{self.s.meta.title} map, {POSTER_NAMES[size]}{where}, its hexes {self._hex_words(scale)}: "
                    "trim at the crop marks" + ("" if halves == 1 else "; butt the halves at the join")
                ),
            )
            c.showPage()
        define_maps(c, [MAP])
        c.save()
        return sheet._with_map(out.getvalue())

    def compact_poster(self, paper: str) -> str:
        """The smallest of the compact edition's posters for `paper` (`CompactMap.posters`)
        that takes the whole sheet at its size."""
        sizes = self.style.compact.posters[paper]
        for size in sizes:
            trim = self._trim(size)
            if self.width <= trim[0] + 0.5 and self.height <= trim[1] + 0.5:
                return size
        return sizes[-1]  # too big for all: `_print_sheet` says so

    def _hex_words(self, scale: float) -> str:
        if self.beside:
            return f"{hex_across(self.style)} across, for the half-inch counters"
        return f"at {scale:.0%} of true size"

    def tiling(self, paper: str) -> Tiling:
        """How the map is cut into tiles on `paper`, those that show only sea left out."""
        t = map_tiling(self.art.width, self.art.height, self.style, paper)
        sea = set()
        for row in range(t.rows):
            for col in range(t.columns):
                x0, y0, x1, y1 = t.window(col, row)
                b = self.bleed
                if self.art.shows_only_sea((x0 - b, y0 - b, x1 - b, y1 - b)):
                    sea.add((col, row))
        return dataclasses.replace(t, left_out=frozenset(sea))

    def tiles(self, paper: str) -> tuple[bytes, Tiling]:
        """An assembly page (where there are tiles to join), the key, then one page per tile
        printed; each part in the outline."""
        t = self.tiling(paper)
        out = io.BytesIO()
        c = _canvas(out, (t.page_w, t.page_h), self.s, f"map tiles ({paper.upper() if paper == 'a4' else 'US Letter'})")
        if t.joined:
            self._outline(c, "Assembly")
            self._assembly(c, t, paper)
            c.showPage()
        self._outline(c, "Key")
        self._key(c, t)
        c.showPage()
        self._outline(c, "Tiles")
        for col, row in t.printed:
            self._tile(c, t, col, row, form_name(MAP), words=True)
            c.showPage()
        define_maps(c, [MAP])
        c.save()
        return self._with_map(out.getvalue()), t

    def overlay_tiles(
        self,
        paper: str,
        draw: Callable[[Canvas], None],
        title: str,
        touches: Callable[[tuple[float, float, float, float]], bool],
    ) -> tuple[bytes, list[str]]:
        """An overlay for acetate: `draw` (in the map's points) on the tiles' own grid at the
        poster's true scale, with the tiles' crop marks and registration crosses, one page per
        tile it `touches` (a window in sheet points). Returns the PDF and the tiles printed."""
        t = self.tiling(paper)
        out = io.BytesIO()
        c = _canvas(out, (t.page_w, t.page_h), self.s, title)
        c.beginForm(OVERLAY_FORM, 0, 0, *self.area)
        c.translate(self.bleed, self.bleed)
        draw(c)
        c.endForm()
        printed = []
        for col, row in t.printed:
            wx0, wy0, wx1, wy1 = t.window(col, row)
            if not touches((wx0 - self.bleed, wy0 - self.bleed, wx1 - self.bleed, wy1 - self.bleed)):
                continue
            name = Tiling.label(col, row)
            printed.append(name)
            self._outline(c, f"Tile {name}")
            self._tile(c, t, col, row, OVERLAY_FORM)
            left, _ = t.origin
            ww, _ = t.window_size
            c.setFont(SANS, 7)
            c.drawRightString(
                left + ww, t.page_h - t.margin + 2, f"{title}: lay on map tile {name}, crosses on crosses"
            )
            c.showPage()
        c.save()
        return out.getvalue(), printed

    def _tile(self, c: Canvas, t: Tiling, col: int, row: int, form: str, *, words: bool = False) -> None:
        """One tile: the form (the map's art, or an overlay of it) through the tile's window, with
        `words` the map's words that show there, the registration marks, crop marks and footer."""
        from kitgen.render.words import draw_words

        wx0, wy0, wx1, wy1 = t.window(col, row)
        left, bottom = t.origin
        b = TILE_BLEED
        c.saveState()
        c.translate(left - wx0, bottom - wy0)
        path = c.beginPath()
        path.rect(wx0 - b, wy0 - b, wx1 - wx0 + 2 * b, wy1 - wy0 + 2 * b)  # the map runs on past the cut
        c.clipPath(path, stroke=0, fill=0)
        c.doForm(form)
        if words:
            c.saveState()
            c.translate(self.bleed, self.bleed)  # the frame's corner
            shown = (wx0 - b - self.bleed, wy0 - b - self.bleed, wx1 + b - self.bleed, wy1 + b - self.bleed)
            draw_words(c, self.words, shown)
            c.restoreState()
        self._marks(c, t)
        c.restoreState()
        ww, wh = t.window_size
        crop_marks(c, left, bottom, ww, wh, bleed=b + 0.5 * MM, length=min(5 * MM, t.margin - b - 1 * MM))
        declare_cut(
            c, [(left, bottom, left + ww, bottom + wh)], [(left - b, bottom - b, left + ww + b, bottom + wh + b)]
        )
        self._tile_footer(c, t, col, row)

    def _marks(self, c: Canvas, t: Tiling) -> None:
        """Where each tile's neighbour is laid: a dashed line along the edge of each right and
        bottom strip, and a ringed cross where two such lines meet, in sheet points and drawn
        across the whole area (the window clips them), so neighbours print them alike."""
        sx, sy = t.step
        c.setStrokeColorRGB(0, 0, 0)
        c.setLineWidth(0.4)
        c.setDash(3, 2)
        for i in range(1, t.columns):
            c.line(i * sx, 0, i * sx, t.sheet_h)
        for j in range(1, t.rows):
            c.line(0, t.sheet_h - j * sy, t.sheet_w, t.sheet_h - j * sy)
        c.setDash()
        arm = 4 * MM
        for i in range(1, t.columns):
            for j in range(1, t.rows):
                cx, cy = i * sx, t.sheet_h - j * sy
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
        """The key page at 100%: every symbol, line and the scale bar as the tiles print them."""
        m = t.margin
        c.saveState()
        c.translate(m, m)
        draw_key_page(c, self.art, t.page_w - 2 * m, t.page_h - 2 * m)
        c.restoreState()

    def _tile_footer(self, c: Canvas, t: Tiling, col: int, row: int) -> None:
        """Under the window: the tile's name and place, its neighbours, and the check bar."""
        left, bottom = t.origin
        ww, _ = t.window_size
        y = max(t.margin, bottom - TILE_BLEED - 2.5 * MM - 9)  # clear of the map's bleed
        left, ww = left + 2.5 * MM, ww - 5 * MM  # clear of the crop marks at the corners
        c.setFillColorRGB(0, 0, 0)
        c.setFont(SANS_BOLD, 9)
        name = Tiling.label(col, row)
        printed = t.printed
        head = f"Tile {name}  ({printed.index((col, row)) + 1} of {len(printed)})"
        c.drawString(left, y, head)
        c.setFont(SANS, 7)
        near = ", ".join(f"{side} {label}" for side, label in t.neighbours(col, row))
        if near:
            c.drawString(left + text_width(head, SANS_BOLD, 9) + 10, y, f"Next to it: {near}")
        bar = self._check_bar_mm(t)
        draw_check_bar(c, left + ww - bar * MM, y, bar)

    def _check_bar_mm(self, t: Tiling) -> float:
        """The tiles' check bar: the style's length, or 50 mm where a tile's footer has no room
        for it beside the tile's name and neighbours (a narrow map)."""
        bar = self.style.tiles.check_bar_mm
        longest = max(
            text_width(f"Tile {Tiling.label(col, row)}  ({k} of {len(t.printed)})", SANS_BOLD, 9)
            + 10
            + text_width("Next to it: " + ", ".join(f"{s} {n}" for s, n in t.neighbours(col, row)), SANS, 7)
            for k, (col, row) in enumerate(t.printed, 1)
        )
        said = text_width(f"check: this bar measures {bar:g} mm", SANS, 7) + 8
        room = t.window_size[0] - 5 * MM
        return bar if longest + said + bar * MM <= room else 50.0

    def _assembly(self, c: Canvas, t: Tiling, paper: str) -> None:
        """The map area in small, cut into the tiles as they show once joined, and how to join them."""
        m = t.margin
        c.setFillColorRGB(0, 0, 0)
        c.setFont(SANS_BOLD, 16)
        c.drawString(m, t.page_h - m - 16, curled(f"{self.s.meta.title}: assembling the map"))
        left_out = [
            Tiling.label(col, row) for row in range(t.rows) for col in range(t.columns) if (col, row) in t.left_out
        ]
        lines = [
            f"{len(t.printed)} tiles, {'in a grid ' if left_out else ''}{t.columns} across and {t.rows} down, printed on "
            f"{'A4' if paper == 'a4' else 'US Letter'} at 100% (no 'fit to page'): each tile's check bar "
            f"measures {self._check_bar_mm(t):g} mm.",
            f"Each tile prints a {self.style.tiles.overlap_mm:g} mm strip on its right and bottom edges that the "
            "next tile covers; a dashed line shows where that tile's edge goes.",
            "Trim each tile at its crop marks on the left and top, lay it over the tile to its left and the "
            "tile above so that its edges meet the dashed lines and the crosses, and tape from behind.",
        ]
        if left_out:
            named = ", ".join(left_out[:-1]) + (" and " if len(left_out) > 1 else "") + left_out[-1]
            note = (
                f"{'Tiles' if len(left_out) > 1 else 'Tile'} {named} would show only sea, so "
                f"{'they are' if len(left_out) > 1 else 'it is'} not printed (grey below): "
                f"leave {'their places' if len(left_out) > 1 else 'its place'} empty."
            )
            lines.append(note)
        c.setFont(SANS, 9)
        y = t.page_h - m - 36
        for said in (wrapped for line in lines for wrapped in simpleSplit(curled(line), SANS, 9, t.page_w - 2 * m)):
            c.drawString(m, y, said)
            y -= 12
        avail_w, avail_h = t.page_w - 2 * m, y - m
        scale = min(avail_w / t.sheet_w, avail_h / t.sheet_h)
        ox = m + (avail_w - t.sheet_w * scale) / 2
        oy = m + (avail_h - t.sheet_h * scale) / 2
        c.saveState()
        c.translate(ox, oy)
        c.scale(scale, scale)
        c.translate(self.bleed, self.bleed)
        self._picture().draw(c)  # a picture of the map: no words, which would print too small to read
        c.restoreState()
        c.setLineWidth(0.8)
        for row in range(t.rows):
            for col in range(t.columns):
                x0, y0, x1, y1 = t.core_rect(col, row)
                out = (col, row) in t.left_out
                ink = (0.45, 0.45, 0.45) if out else (0.8, 0.1, 0.1)
                c.setStrokeColorRGB(*ink)
                if out:  # not printed: greyed over
                    c.setFillColorRGB(0.85, 0.85, 0.85)
                    c.setFillAlpha(0.7)
                    c.rect(ox + x0 * scale, oy + y0 * scale, (x1 - x0) * scale, (y1 - y0) * scale, stroke=0, fill=1)
                    c.setFillAlpha(1)
                c.rect(ox + x0 * scale, oy + y0 * scale, (x1 - x0) * scale, (y1 - y0) * scale, stroke=1, fill=0)
                cx, cy = ox + (x0 + x1) / 2 * scale, oy + (y0 + y1) / 2 * scale
                label = Tiling.label(col, row) + (" (sea)" if out else "")
                c.setFillColorRGB(1, 1, 1)
                w = text_width(label, SANS_BOLD, 11) + 6
                c.rect(cx - w / 2, cy - 5, w, 14, stroke=0, fill=1)
                c.setFillColorRGB(*ink)
                c.setFont(SANS_BOLD, 11)
                c.drawCentredString(cx, cy - 1, label)


def write_map_sheets(
    hex_map: HexMap, scenario: Scenario, style: MapStyle, out: Path, *, paper: str, poster: str
) -> list[SheetFile]:
    """Write the poster and the tiled set as the folder `out`: the old set or the new, never a mix."""
    from kitgen.outputs import ProductFolder

    sheet = MapSheet(hex_map, scenario, style)
    tiles_pdf, tiling = sheet.tiles(paper)
    files = [SheetFile(out / "map-poster.pdf", 1, "the whole map on one sheet at true scale, for a plotter")]
    pdfs = [sheet.poster("true")]
    if poster != "true":
        from kitgen.render.counterstyle import counter_style

        scale = sheet.poster_scale(poster)
        hex_mm = style.hex_across_in * 25.4 * scale
        small = hex_mm < counter_style().counter_mm
        kept = "the whole sheet enlarged" if scale >= 1 else "type and key at full size"
        purpose = (
            f"the map on {POSTER_NAMES[poster]} for a print shop, with crop marks (hexes {hex_mm:.0f} mm across, "
            f"{scale:.0%} of true size; {kept}" + ("; too small for the counters: for display)" if small else ")")
        )
        files.append(SheetFile(out / f"map-poster-{poster}.pdf", 2 if poster == "2xa1" else 1, purpose))
        pdfs.append(sheet.poster(poster))
    n = len(tiling.printed)
    files.append(
        SheetFile(
            out / f"map-tiles-{paper}.pdf",
            tiling.pages,
            f"an assembly page, the key and {n} tiles to print at home and join"
            if tiling.joined
            else "the key and the map on one page",
        )
    )
    pdfs.append(tiles_pdf)
    with ProductFolder(out) as product:
        for f, pdf in zip(files, pdfs, strict=True):
            product.write(f.path.name, pdf)
    return files
