"""The printed map: the poster and the tiled pages written by `kitgen map --out DIR`.

Issue 3: "`kitgen map [--paper a4|letter] [--out DIR]` writes (a) a one-sheet poster at true hex
scale (default 1 inch across the flats, on a sheet sized to fit; an option scales it to A0 or A1)
and (b) the same map tiled over A4 or US Letter pages (`--paper`), with an overlap margin ...,
alignment marks and a tile number on each page, and an assembly page that shows how the tiles fit
together. A tile's printed overlap must match its neighbour's exactly." Pages are inspected with
pypdf and poppler (pdfinfo, pdffonts, pdftotext, pdftoppm).
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pypdf
import pytest

from kitgen.mapping.hexmap import HexMap
from kitgen.products.mapsheets import Tiling
from kitgen.render.style import map_style
from tests.conftest import kitgen_map

pytestmark = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("pdfinfo", "pdffonts", "pdftotext", "pdftoppm")),
    reason="poppler-utils (make system-deps) is needed to inspect the PDFs",
)

MM = 72 / 25.4
A4 = (210 * MM, 297 * MM)  # 595.276 x 841.890 pt
LETTER = (612.0, 792.0)
A0 = (1189 * MM, 841 * MM)  # landscape: 3370.4 x 2383.9 pt
STANDARD_14 = ("Helvetica", "Times", "Courier", "Symbol", "ZapfDingbats")
DPI = 50.0


def page_sizes(pdf: Path) -> list[tuple[float, float]]:
    return [(float(p.mediabox.width), float(p.mediabox.height)) for p in pypdf.PdfReader(pdf).pages]


FIRST_TILE = 3
"""Page of the first tile: after the assembly page and the key page."""


def tiling(poster: Path, paper: tuple[float, float]) -> Tiling:
    """The tiling of the map, recomputed from the true-scale poster's page (the whole sheet): the
    map's frame (the sheet less its margin and key band) and layouts/map.yaml's bleed round it,
    cut with the tiles' margin, overlap and footer."""
    ((sheet_w, sheet_h),) = page_sizes(poster)
    style = map_style()
    margin = style.poster.margin_in * 72
    band = style.poster.band_in * 72 * min(1.0, (sheet_w - 2 * margin) / (40 * 72))
    tiles = style.tiles
    bleed = tiles.bleed_mm * MM
    return Tiling.fit(
        sheet_w - 2 * margin + 2 * bleed,
        sheet_h - 2 * margin - band + 2 * bleed,
        paper,
        tiles.margin_mm * MM,
        tiles.overlap_mm * MM,
        tiles.footer_mm * MM,
    )


def page_text(pdf: Path, page: int) -> str:
    result = subprocess.run(
        ["pdftotext", "-f", str(page), "-l", str(page), str(pdf), "-"], capture_output=True, text=True, check=True
    )
    return result.stdout


# --- files and pages -------------------------------------------------------------------------


def test_map_writes_the_poster_and_the_tiles(a4: Path) -> None:
    assert sorted(p.name for p in a4.iterdir()) == [".kitgen-manifest.json", "map-poster.pdf", "map-tiles-a4.pdf"]
    for pdf in a4.glob("*.pdf"):
        assert pdf.read_bytes().startswith(b"%PDF-")


def test_poster_is_at_true_hex_scale(a4: Path, hex_map: HexMap) -> None:
    """Issue 3: "a one-sheet poster at true hex scale (default 1 inch across the flats, on a sheet
    sized to fit)". The map's frame, W x H km with hexes of S km, prints W / S by H / S inches at 1
    inch across the flats; the sheet adds layouts/map.yaml's white margin round it and the key band
    below."""
    style = map_style()
    assert style.hex_across_in == 1.0
    left, bottom, right, top = hex_map.frame_km
    inches_per_km = style.hex_across_in / hex_map.hex_size_km
    width_in = (right - left) * inches_per_km + 2 * style.poster.margin_in
    height_in = (top - bottom) * inches_per_km + style.poster.band_in + 2 * style.poster.margin_in
    ((w, h),) = page_sizes(a4 / "map-poster.pdf")
    assert w == pytest.approx(72 * width_in, abs=0.5)
    assert h == pytest.approx(72 * height_in, abs=0.5)


def test_a4_tiles_are_a4_pages_and_count_one_plus_columns_times_rows(a4: Path) -> None:
    """Issue 3: "the same map tiled over A4 ... pages ... and an assembly page"."""
    t = tiling(a4 / "map-poster.pdf", A4)
    sizes = page_sizes(a4 / "map-tiles-a4.pdf")
    assert len(sizes) == 2 + t.columns * t.rows
    assert t.columns * t.rows > 1
    for w, h in sizes:
        assert sorted((w, h)) == pytest.approx(sorted(A4), abs=0.01)
    assert {(round(w, 2), round(h, 2)) for w, h in sizes} == {(round(t.page_w, 2), round(t.page_h, 2))}


def test_letter_tiles_are_us_letter_pages(letter: Path) -> None:
    """Issue 3: "tiled over A4 or US Letter pages (`--paper`)"."""
    assert sorted(p.name for p in letter.glob("*.pdf")) == ["map-poster.pdf", "map-tiles-letter.pdf"]
    t = tiling(letter / "map-poster.pdf", LETTER)
    sizes = page_sizes(letter / "map-tiles-letter.pdf")
    assert len(sizes) == 2 + t.columns * t.rows
    for w, h in sizes:
        assert sorted((w, h)) == pytest.approx(sorted(LETTER), abs=0.01)


def test_the_poster_does_not_depend_on_the_paper(a4: Path, letter: Path) -> None:
    assert (a4 / "map-poster.pdf").read_bytes() == (letter / "map-poster.pdf").read_bytes()


def test_poster_a0_is_an_a0_landscape_page(tmp_path: Path, cache_dir: Path) -> None:
    """Issue 3: "an option scales it to A0 or A1": `--poster a0` gives one A0 page, landscape since
    the map is wider than tall."""
    kitgen_map(tmp_path, cache_dir, "--poster", "a0")
    assert (tmp_path / "map-poster-a0.pdf").is_file()
    assert (tmp_path / "map-poster.pdf").is_file()  # the true-scale sheet is still written
    (page,) = pypdf.PdfReader(tmp_path / "map-poster-a0.pdf").pages
    assert float(page.trimbox.width) == pytest.approx(A0[0], abs=0.01)
    assert float(page.trimbox.height) == pytest.approx(A0[1], abs=0.01)


def test_assembly_page_comes_first(a4: Path) -> None:
    """Issue 3: "an assembly page that shows how the tiles fit together"."""
    t = tiling(a4 / "map-poster.pdf", A4)
    text = page_text(a4 / "map-tiles-a4.pdf", 1)
    assert "assembling the map" in text
    assert f"{t.columns * t.rows} tiles, {t.columns} across and {t.rows} down" in text
    assert "Tile " not in text


def test_each_tile_page_carries_its_number(a4: Path) -> None:
    """Issue 3: "a tile number on each page": tiles run row by row after the assembly page."""
    t = tiling(a4 / "map-poster.pdf", A4)
    n = t.columns * t.rows
    pdf = a4 / "map-tiles-a4.pdf"
    tiles = [(0, (0, 0)), (1, (1, 0)), (t.columns, (0, 1)), (n - 1, (t.columns - 1, t.rows - 1))]
    for page, (col, row) in [(FIRST_TILE + k, tile) for k, tile in tiles]:
        text = " ".join(page_text(pdf, page).split())
        assert f"Tile {Tiling.label(col, row)} ({row * t.columns + col + 1} of {n})" in text, (page, text[-200:])


def test_every_font_is_embedded(a4: Path, tmp_path: Path, cache_dir: Path) -> None:
    """Issue 3: "(reportlab, vector, fonts embedded)": pdffonts lists every font as embedded, and
    none of the standard 14 (which a PDF may use without embedding) appears."""
    kitgen_map(tmp_path, cache_dir, "--poster", "a1", "--paper", "letter")
    pdfs = [*a4.glob("*.pdf"), *tmp_path.glob("*.pdf")]
    assert len(pdfs) == 5
    for pdf in pdfs:
        lines = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout.splitlines()
        header, rows = lines[0], lines[2:]
        assert header.split()[:3] == ["name", "type", "encoding"]
        assert rows, f"{pdf.name} uses no font at all"
        emb = header.index("emb")
        for row in rows:
            assert row[emb : emb + 3] == "yes", (pdf.name, row)
            assert not any(base in row.split()[0] for base in STANDARD_14), (pdf.name, row)


def xobjects(resources: pypdf.generic.DictionaryObject) -> list[pypdf.generic.DictionaryObject]:
    """Every XObject reachable from a resource dictionary, forms' own resources included."""
    found = []
    for ref in resources.get("/XObject", {}).values():
        obj = ref.get_object()
        found.append(obj)
        if obj.get("/Subtype") == "/Form" and "/Resources" in obj:
            found.extend(xobjects(obj["/Resources"].get_object()))
    return found


def test_the_pdfs_are_vector(a4: Path) -> None:
    """Issue 3: "(reportlab, vector ...)": no page draws a raster image; the tiles place the sheet
    as one form."""
    for pdf in a4.glob("*.pdf"):
        for number, page in enumerate(pypdf.PdfReader(pdf).pages, 1):
            found = xobjects(page["/Resources"].get_object())
            assert all(x.get("/Subtype") != "/Image" for x in found), pdf.name
            if pdf.name.startswith("map-tiles") and number >= FIRST_TILE:  # the assembly and key pages draw alone
                assert any(x.get("/Subtype") == "/Form" for x in found)


def test_pdf_metadata(a4: Path) -> None:
    for name, what in [("map-poster.pdf", "map poster"), ("map-tiles-a4.pdf", "map tiles")]:
        meta = pypdf.PdfReader(a4 / name).metadata
        assert meta is not None
        assert meta.title is not None and meta.title.startswith("Denikin's War") and what in meta.title
        assert meta.author == "kitgen"


def test_pdfs_are_byte_identical_on_a_rerun(a4: Path, tmp_path: Path, cache_dir: Path) -> None:
    """A second run (afresh, under another hash seed) writes the very same bytes."""
    env = {**os.environ, "KITGEN_CACHE": str(cache_dir), "PYTHONHASHSEED": "7"}
    subprocess.run(
        [sys.executable, "-m", "kitgen", "map", "--out", str(tmp_path), "--no-cache"],
        check=True,
        env=env,
        capture_output=True,
    )
    for name in ("map-poster.pdf", "map-tiles-a4.pdf"):
        assert (tmp_path / name).read_bytes() == (a4 / name).read_bytes(), name


def test_tiles_carry_alignment_marks_where_the_next_tiles_meet(a4: Path) -> None:
    """Issue 3: "alignment marks ... on each page": a ringed cross where the edges of the tiles
    to the right and below will lie, a strip's width (the overlap) in from the window's
    bottom-right corner. The ring's line, off the cross's arms, is dark at four points."""
    t = tiling(a4 / "map-poster.pdf", A4)
    pdf = a4 / "map-tiles-a4.pdf"
    page = FIRST_TILE + (t.rows // 2) * t.columns + t.columns // 2  # an inner tile
    k = 150 / 72
    left, bottom = t.origin
    ww, _ = t.window_size
    radius = 0.45 * 4 * MM * k  # the ring: 0.45 of the cross's 4 mm arm
    cx, cy = left + ww - t.overlap, bottom + t.overlap
    px, py = cx * k, (t.page_h - cy) * k
    x0, y0 = int(px) - 30, int(py) - 30
    crop = ["-x", str(x0), "-y", str(y0), "-W", "60", "-H", "60"]
    result = subprocess.run(
        ["pdftoppm", "-gray", "-r", "150", "-f", str(page), "-l", str(page), *crop, str(pdf)],
        capture_output=True,
        check=True,
    )
    image = parse_pnm(result.stdout)
    for angle in (45, 135, 225, 315):
        dx, dy = math.cos(math.radians(angle)), -math.sin(math.radians(angle))
        qx, qy = round(px - x0 + radius * dx), round(py - y0 + radius * dy)
        assert image[qy - 1 : qy + 2, qx - 1 : qx + 2].min() < 100, (cx, cy, angle)


# --- the overlap -----------------------------------------------------------------------------


def parse_pnm(data: bytes) -> np.ndarray:
    """A binary PGM (P5) from pdftoppm -gray, as a (height, width) uint8 array."""
    tokens: list[bytes] = []
    pos = 0
    while len(tokens) < 4:
        while data[pos : pos + 1].isspace():
            pos += 1
        if data[pos : pos + 1] == b"#":
            pos = data.index(b"\n", pos) + 1
            continue
        end = pos
        while not data[end : end + 1].isspace():
            end += 1
        tokens.append(data[pos:end])
        pos = end
    assert tokens[0] == b"P5" and tokens[3] == b"255"
    width, height = int(tokens[1]), int(tokens[2])
    pixels = np.frombuffer(data, dtype=np.uint8, count=width * height, offset=pos + 1)
    return pixels.reshape(height, width)


def resolution(t: Tiling) -> tuple[float, float]:
    """About DPI, chosen so that the step from one tile to the next is a whole number of pixels
    across and down: then neighbouring tiles put the sheet on the very same pixel grid, and their
    renderings of the shared strip can be compared pixel for pixel."""
    cw, ch = t.step
    return 72 * round(DPI * cw / 72) / cw, 72 * round(DPI * ch / 72) / ch


def render(pdf: Path, page: int, rx: float, ry: float) -> np.ndarray:
    result = subprocess.run(
        ["pdftoppm", "-gray", "-f", str(page), "-l", str(page), "-rx", repr(rx), "-ry", repr(ry), str(pdf)],
        capture_output=True,
        check=True,
    )
    return parse_pnm(result.stdout)


def shared_strip(pdf: Path, t: Tiling, a: tuple[int, int], b: tuple[int, int]) -> tuple[np.ndarray, np.ndarray]:
    """The part of the sheet both tiles print (their windows' overlap), cut from each tile's page."""
    rx, ry = resolution(t)
    wa, wb = t.window(*a), t.window(*b)
    x0, y0, x1, y1 = max(wa[0], wb[0]), max(wa[1], wb[1]), min(wa[2], wb[2]), min(wa[3], wb[3])
    assert x1 > x0 and y1 > y0

    def crop(tile: tuple[int, int]) -> np.ndarray:
        wx0, wy0, _, _ = t.window(*tile)
        ox, oy = t.origin
        image = render(pdf, FIRST_TILE + tile[1] * t.columns + tile[0], rx, ry)
        # sheet point (x, y) is at page point (x - wx0 + ox, y - wy0 + oy); pixel rows run down
        left = (x0 - wx0 + ox) * rx / 72
        right = (x1 - wx0 + ox) * rx / 72
        top = (t.page_h - (y1 - wy0 + oy)) * ry / 72
        bottom = (t.page_h - (y0 - wy0 + oy)) * ry / 72
        # two pixels in from the window's clip edges
        return image[math.ceil(top) + 2 : math.floor(bottom) - 2, math.ceil(left) + 2 : math.floor(right) - 2]

    first, second = crop(a), crop(b)
    assert first.shape == second.shape and min(first.shape) > 10
    return first.astype(int), second.astype(int)


def neighbours(t: Tiling, across: bool) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    if across:
        return [((0, 0), (1, 0)), ((t.columns - 2, t.rows // 2), (t.columns - 1, t.rows // 2))]
    return [((0, 0), (0, 1)), ((t.columns // 2, t.rows - 2), (t.columns // 2, t.rows - 1))]


@pytest.mark.parametrize("across", [True, False], ids=["left-right", "top-bottom"])
def test_tile_overlap_matches_its_neighbour(a4: Path, across: bool) -> None:
    """Issue 3: "A tile's printed overlap must match its neighbour's exactly." Rendered at 50 dpi,
    the strip of sheet two neighbouring tiles both print looks the same on both pages (mean
    difference under 2 grey levels of 255), and is not blank."""
    t = tiling(a4 / "map-poster.pdf", A4)
    for a, b in neighbours(t, across):
        first, second = shared_strip(a4 / "map-tiles-a4.pdf", t, a, b)
        assert first.min() < 100 and first.std() > 10, "the shared strip is blank"
        assert float(np.abs(first - second).mean()) < 2.0, (a, b)


@pytest.mark.parametrize("across", [True, False], ids=["left-right", "top-bottom"])
def test_tile_overlap_matches_its_neighbour_pixel_for_pixel(a4: Path, across: bool) -> None:
    """The same strip, with the sheet on one pixel grid in both renderings: no pixel differs by
    more than anti-aliasing noise (48 grey levels), cut lines and alignment marks included."""
    t = tiling(a4 / "map-poster.pdf", A4)
    for a, b in neighbours(t, across):
        first, second = shared_strip(a4 / "map-tiles-a4.pdf", t, a, b)
        assert int(np.abs(first - second).max()) <= 48, (a, b)


def test_tile_names_run_on_past_z_like_spreadsheet_columns() -> None:
    """Tiles are named by row letter and column number (A1, B3); a map cut into more than 26 rows
    of tiles (a fine grid on small paper) goes on AA, AB... rather than past Z into punctuation."""
    from kitgen.products.mapsheets import Tiling

    assert [Tiling.label(2, r) for r in (0, 1, 25, 26, 27, 51, 52)] == ["A3", "B3", "Z3", "AA3", "AB3", "AZ3", "BA3"]


def test_issue44_a_tile_bleeds_3_mm_past_its_cut_with_the_map_in_it(a4: Path) -> None:
    """Issue 44: "Bleed wherever a piece is cut: ... map tiles declare a BleedBox past their
    TrimBox with the art running into it", at least 3 mm: on a tile in the middle of the map, the
    strip between the trim and the bleed on every side is map (the land's tint), not paper."""
    t = tiling(a4 / "map-poster.pdf", A4)
    reader = pypdf.PdfReader(a4 / "map-tiles-a4.pdf")
    middle = FIRST_TILE + (t.rows // 2) * t.columns + t.columns // 2
    for number in range(FIRST_TILE, FIRST_TILE + t.columns * t.rows):
        page = reader.pages[number - 1]
        trim, bleed = [float(v) for v in page.trimbox], [float(v) for v in page.bleedbox]
        assert trim[0] - bleed[0] >= 3 * MM - 0.01 and trim[1] - bleed[1] >= 3 * MM - 0.01
        assert bleed[2] - trim[2] >= 3 * MM - 0.01 and bleed[3] - trim[3] >= 3 * MM - 0.01
    page = reader.pages[middle - 1]
    trim = [float(v) for v in page.trimbox]
    k = 150 / 72
    image = render(a4 / "map-tiles-a4.pdf", middle, 150, 150)
    height = image.shape[0]
    inset = 1.5 * MM  # the middle of the 3 mm strip
    for x, y in (
        (trim[0] - inset, (trim[1] + trim[3]) / 2),
        (trim[2] + inset, (trim[1] + trim[3]) / 2),
        ((trim[0] + trim[2]) / 2, trim[1] - inset),
        ((trim[0] + trim[2]) / 2, trim[3] + inset),
    ):
        px, py = int(x * k), int(height - y * k)
        strip = image[py - 2 : py + 3, px - 2 : px + 3]
        assert strip.max() < 252, f"paper, not map, {inset / MM:g} mm outside the cut at ({x:.0f}, {y:.0f})"
