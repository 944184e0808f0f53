"""Issue 12, parts 6-8: a clean base map with its furniture, tiles that fit the paper, a key
at 100%, and posters at standard sizes with crop marks. Pages are read with pypdf (text, boxes,
the drawing operators) and pdftoppm (pixels)."""

from __future__ import annotations

import io
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pypdf
import pytest

from kitgen.mapping.hexmap import SEA, HexMap
from kitgen.products.mapsheets import Tiling
from kitgen.render.counterstyle import counter_style
from kitgen.render.mapfurniture import turn_box_size
from kitgen.render.style import map_style
from tests.conftest import SET_AS_TYPED, kitgen_map
from tests.test_map_print import A4, FIRST_TILE, LETTER, MM, page_sizes, parse_pnm, tiling

pytestmark = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("pdftotext", "pdftoppm")),
    reason="poppler-utils (make system-deps) is needed to inspect the PDFs",
)

A1 = (594 * MM, 841 * MM)


def text_of(pdf: Path, page: int) -> str:
    return str(pypdf.PdfReader(pdf).pages[page - 1].extract_text()).translate(SET_AS_TYPED)


def pages_text(pdf: Path) -> list[str]:
    """Each page's text, by poppler's pdftotext (quick over pages that place the whole map as a
    form, where pypdf would read every label of it)."""
    run = subprocess.run(["pdftotext", "-raw", str(pdf), "-"], capture_output=True, text=True, check=True)
    return run.stdout.translate(SET_AS_TYPED).split("\f")


def operations(pdf: Path, page: int) -> list[tuple[list[float], bytes]]:
    """The page's own drawing operators (forms it places are not opened)."""
    content = pypdf.PdfReader(pdf).pages[page - 1].get_contents()
    assert content is not None
    ops = pypdf.generic.ContentStream(content, None).operations
    return [([float(v) if isinstance(v, (int, float)) else 0.0 for v in args], op) for args, op in ops]


def rects(pdf: Path, page: int) -> list[tuple[float, float, float, float]]:
    return [tuple(args) for args, op in operations(pdf, page) if op == b"re"]  # type: ignore[misc]


# --- 6: a clean base map ---------------------------------------------------------------------


def test_the_map_sheets_show_no_units(a4: Path) -> None:
    """Issue 12.6: "the poster and tiles show no units": no starting positions, and the key
    explains none."""
    import inspect

    from kitgen.products.mapsheets import MapSheet

    assert "positions" not in inspect.signature(MapSheet).parameters
    for pdf, page in [(a4 / "map-poster.pdf", 1), (a4 / "map-tiles-a4.pdf", 2)]:
        text = text_of(pdf, page)
        assert "Starting position" not in text
        assert "holds it at the start" not in text


# --- 7: map furniture ------------------------------------------------------------------------


def test_sea_and_region_names_stand_on_the_right_kind_of_hex(hex_map: HexMap) -> None:
    """Issue 12.7: sea and region names placed at hexes of the board: a sea's name on a sea
    hex, a region's on land."""
    names = {n.text: n for n in map_style().furniture.names["denikin-1919"]}
    assert set(names) == {"Black Sea", "Sea of Azov", "Crimea", "Kuban", "Don Host"}
    terrain = {h.id: h.terrain for h in hex_map.hexes}
    for name in names.values():
        assert name.hex in terrain, name
        assert (terrain[name.hex] == SEA) == (name.kind == "sea"), name


def test_the_poster_prints_the_names_and_a_north_arrow(a4: Path) -> None:
    """The seas' and regions' names; the north arrow's caveat is the key's (issue 25: the note under
    the arrow ran into a hex id)."""
    text = text_of(a4 / "map-poster.pdf", 1).replace(" ", "").replace("\n", "")
    for name in ("BLACKSEA", "SEAOFAZOV", "CRIMEA", "KUBAN", "DONHOST"):
        assert name in text
    assert "northupalongthecentralmeridian" in text


def test_the_key_page_explains_background_art_and_the_ferry(a4: Path) -> None:
    """Issue 12.7: the key "says that the sea tint and coast line are background art (no game
    meaning) while sea hexes and open-water hexsides are the rules' sea", and shows the ferry."""
    text = " ".join(text_of(a4 / "map-tiles-a4.pdf", 2).split())
    assert "Sea tint and coast line on land hexes: background art, no game meaning" in text
    assert "Sea hex (more than half water): the rules' sea" in text
    assert "Open water between two shores: the rules' sea" in text
    assert "Ferry on a major river hexside" in text


def test_the_turn_track_has_a_box_per_turn_that_takes_a_counter(a4: Path) -> None:
    """Issue 12.7: "a turn record track with boxes big enough for a counter (the counter size is
    in layouts/counters.yaml) ... numbered for the scenario's turns"."""
    track = map_style().furniture.turn_track
    box = turn_box_size(counter_style().counter_mm, track.box_over_counter_mm)
    assert box > counter_style().counter_mm * MM
    boxes = [r for r in rects(a4 / "map-tiles-a4.pdf", 2) if r[2] == pytest.approx(box) and r[3] == pytest.approx(box)]
    assert len(boxes) == track.turns
    text = text_of(a4 / "map-tiles-a4.pdf", 2)
    assert "Turn record" in text
    assert all(str(n) in text.split() for n in range(1, track.turns + 1))


# --- 8: tiles that fit -----------------------------------------------------------------------


def test_the_bundled_map_fits_on_25_a4_tiles_and_25_letter_tiles(a4: Path) -> None:
    """Issue 12.8: "the grid could fit on 25 tiles"."""
    for paper in (A4, LETTER):
        t = tiling(a4 / "map-poster.pdf", paper)
        assert (t.columns, t.rows) == (5, 5)
    assert len(page_sizes(a4 / "map-tiles-a4.pdf")) == 2 + 25


@pytest.mark.parametrize("paper", [A4, LETTER], ids=["a4", "letter"])
def test_every_window_fills_most_of_its_page(a4: Path, paper: tuple[float, float]) -> None:
    """No tile is mostly empty: the windows are equal and fill the map area exactly, and each
    covers at least 80% of the page inside its margins and above its footer."""
    t = tiling(a4 / "map-poster.pdf", paper)
    assert t.fill >= 0.8
    ww, wh = t.window_size
    assert ww <= t.page_w - 2 * t.margin + 1e-6 and wh <= t.page_h - 2 * t.margin - t.footer + 1e-6
    last_x0, last_y0, last_x1, _ = t.window(t.columns - 1, t.rows - 1)
    assert last_x1 == pytest.approx(t.sheet_w) and last_y0 == pytest.approx(0.0, abs=1e-6)
    assert t.window(0, 0)[0] == 0 and t.window(0, 0)[3] == pytest.approx(t.sheet_h)


def test_the_last_tile_is_mostly_map_in_pixels(a4: Path) -> None:
    """The bottom-right tile, rendered: most of its printable part is not paper-white (the
    map's light fills read a little darker than the paper)."""
    t = tiling(a4 / "map-poster.pdf", A4)
    page = FIRST_TILE + t.columns * t.rows - 1
    result = subprocess.run(
        ["pdftoppm", "-gray", "-r", "30", "-f", str(page), "-l", str(page), str(a4 / "map-tiles-a4.pdf")],
        capture_output=True,
        check=True,
    )
    image = parse_pnm(result.stdout)
    k = 30 / 72
    m, f = t.margin * k, t.footer * k
    inside = image[int(m) : int(image.shape[0] - m - f), int(m) : int(image.shape[1] - m)]
    assert float((inside < 250).mean()) > 0.6


def test_the_cores_partition_the_map_area(a4: Path) -> None:
    """The assembly page's rectangles (each tile's part once joined) cover the area exactly."""
    t = tiling(a4 / "map-poster.pdf", A4)
    total = 0.0
    for row in range(t.rows):
        for col in range(t.columns):
            x0, y0, x1, y1 = t.core_rect(col, row)
            total += (x1 - x0) * (y1 - y0)
            if col + 1 < t.columns:
                assert t.core_rect(col + 1, row)[0] == pytest.approx(x1)
            if row + 1 < t.rows:
                assert t.core_rect(col, row + 1)[3] == pytest.approx(y0)
    assert total == pytest.approx(t.sheet_w * t.sheet_h)


def test_the_assembly_page_draws_each_tile_as_it_shows(a4: Path) -> None:
    """The assembly page's red rectangles are the tiles' cores at one scale, in the same order."""
    t = tiling(a4 / "map-poster.pdf", A4)
    ops = operations(a4 / "map-tiles-a4.pdf", 1)
    drawn = [args for args, op in ops if op == b"re"]
    cores = [t.core_rect(c, r) for r in range(t.rows) for c in range(t.columns)]
    # the white label plates are 14 pt tall; the map's own picture (its ground, its towns'
    # squares) is drawn in its own units, at another scale
    tile_rects = [d for d in drawn if d[3] > 20 and d[2] < max(A4) and d[1] < max(A4)]
    assert len(tile_rects) == len(cores)
    scale = tile_rects[0][2] / (cores[0][2] - cores[0][0])
    for d, (x0, y0, x1, y1) in zip(tile_rects, cores, strict=True):
        assert d[2] == pytest.approx((x1 - x0) * scale)
        assert d[3] == pytest.approx((y1 - y0) * scale)
        assert d[0] - tile_rects[0][0] == pytest.approx(x0 * scale)
    text = text_of(a4 / "map-tiles-a4.pdf", 1)
    assert all(Tiling.label(c, r) in text for r in range(t.rows) for c in range(t.columns))


def test_each_tile_names_itself_and_its_neighbours(a4: Path) -> None:
    """Issue 12.8: "every tile carries ... its position (A1, A2 ...) and its neighbours' positions"."""
    t = tiling(a4 / "map-poster.pdf", A4)
    pages = pages_text(a4 / "map-tiles-a4.pdf")
    n = t.columns * t.rows
    for row in range(t.rows):
        for col in range(t.columns):
            text = " ".join(pages[FIRST_TILE - 1 + row * t.columns + col].split())
            assert f"Tile {Tiling.label(col, row)} ({row * t.columns + col + 1} of {n})" in text
            near = ", ".join(f"{side} {label}" for side, label in t.neighbours(col, row))
            assert f"Next to it: {near}" in text
    assert t.neighbours(0, 0) == [("right", "A2"), ("below", "B1")]
    assert t.neighbours(1, 1) == [("above", "A2"), ("left", "B1"), ("right", "B3"), ("below", "C2")]


def test_each_tile_carries_a_100_mm_check_bar(a4: Path) -> None:
    """Issue 12.8: "every tile carries a 100 mm check bar": a bar drawn on the page, unscaled,
    exactly 100 mm (283.46 pt) long."""
    assert map_style().tiles.check_bar_mm == 100
    t = tiling(a4 / "map-poster.pdf", A4)
    for page in (FIRST_TILE, FIRST_TILE + t.columns * t.rows - 1):
        bars = [r for r in rects(a4 / "map-tiles-a4.pdf", page) if r[2] == pytest.approx(100 * MM, abs=1e-3)]
        assert len(bars) == 1, page
        assert "this bar measures 100 mm" in text_of(a4 / "map-tiles-a4.pdf", page)


def test_the_key_page_is_at_100_percent_and_its_scale_bar_measures_true(a4: Path, hex_map: HexMap) -> None:
    """Issue 12.8: "the key page is at 100% scale (its scale bar must measure true: today
    '150 km' measures 103 mm)": no operator on the page scales, and the bar's five segments add
    up to 150 km at the map's points per km (1 inch a hex of 30 km: 360 pt, 127 mm)."""
    pdf = a4 / "map-tiles-a4.pdf"
    for args, op in operations(pdf, 2):
        if op == b"cm":
            assert args[0] == pytest.approx(1.0) and args[3] == pytest.approx(1.0), args
    style = map_style()
    per_km = style.hex_across_in * 72 / hex_map.hex_size_km
    km = 5 * hex_map.hex_size_km
    segments = [r for r in rects(pdf, 2) if r[3] == pytest.approx(6.0) and r[2] == pytest.approx(km / 5 * per_km)]
    assert len(segments) == 5
    xs = sorted(r[0] for r in segments)
    assert xs[-1] + segments[0][2] - xs[0] == pytest.approx(km * per_km)
    assert km * per_km == pytest.approx(127 * MM, abs=0.1)
    assert "150" in text_of(pdf, 2)


# --- posters at standard sizes ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "pages", "trim"),
    [("a1", 1, (841 * MM, 594 * MM)), ("2xa1", 2, A1), ("36x48", 1, (48 * 72.0, 36 * 72.0))],
)
def test_posters_at_standard_sizes_have_their_trim_box_and_crop_marks(
    tmp_path: Path, cache_dir: Path, size: str, pages: int, trim: tuple[float, float]
) -> None:
    """Issue 12.8: "posters at standard sizes (A0, 2 x A1, 36 x 48 in) with crop marks, the
    true-scale sheet still available": the trim box is the standard size to a hundredth of a
    point, the page adds a slug round it for the crop marks, and map-poster.pdf is written too."""
    kitgen_map(tmp_path, cache_dir, "--poster", size)
    assert (tmp_path / "map-poster.pdf").is_file()
    reader = pypdf.PdfReader(tmp_path / f"map-poster-{size}.pdf")
    assert len(reader.pages) == pages
    slug = map_style().print_poster.slug_mm * MM
    for page in reader.pages:
        box = page.trimbox
        assert (float(box.width), float(box.height)) == pytest.approx(trim, abs=0.01)
        assert float(box.left) == pytest.approx(slug) and float(box.bottom) == pytest.approx(slug)
        assert float(page.mediabox.width) == pytest.approx(trim[0] + 2 * slug)
        assert "trim at the crop marks" in page.extract_text()
    # crop marks: hairlines in the slug, on the trim's lines (the bottom-left corner, rendered)
    k = 150 / 72
    side = int(slug * k) + 10  # the slug and a little of the trim
    height = float(reader.pages[0].mediabox.height)
    crop = ["-x", "0", "-y", str(int(height * k) - side), "-W", str(side), "-H", str(side)]
    image = subprocess.run(
        ["pdftoppm", "-gray", "-r", "150", "-f", "1", "-l", "1", *crop, str(tmp_path / f"map-poster-{size}.pdf")],
        capture_output=True,
        check=True,
    ).stdout
    corner = np.asarray(parse_pnm(image))
    assert corner.min() < 160
    # the marks lie on the trim's lines: a dark column at the trim's left edge, clear of the trim
    assert corner[side - int(slug * k) :, int(slug * k) - 2 : int(slug * k) + 2].min() < 160


@pytest.mark.parametrize("name", ["denikin-1919", "tsaritsyn-1919"])
def test_issue44_a_tile_carries_only_the_words_it_shows_each_once(name: str) -> None:
    """ "Every tile also carries the whole map's text, invisible, clipped under the margins";
    "a tile's text is only what is visible on it", "each label is extracted once": a tile page
    holds no more words than PyMuPDF reads on it (which leaves out what a clip hides, as pypdf and
    a search do not), and every word it reads lies, at least in part, in the map the tile shows (its window
    and bleed) or in its footer under it; a town's name is read once on a tile that shows it,
    never twice (its halo carries no text), and on no tile far from it."""
    import pymupdf

    from kitgen.loader import load_scenario_map
    from kitgen.products.mapsheets import TILE_BLEED, MapSheet

    scenario, board = load_scenario_map(name)
    sheet = MapSheet(board, scenario, map_style())
    pdf, t = sheet.tiles("a4")
    left, bottom = t.origin
    ww, wh = t.window_size
    b = TILE_BLEED
    first = 2 if len(t.printed) > 1 else 1  # after the assembly and key pages
    towns = {m.name for marks in sheet.art.towns.values() for m in marks}
    everything = pypdf.PdfReader(io.BytesIO(pdf)).pages  # pypdf reads what a clip hides, as a search does
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        assert len(doc) == first + len(t.printed)
        for k, ((col, row), page) in enumerate(zip(t.printed, list(doc)[first:], strict=True)):
            hidden = len(everything[first + k].extract_text().split()) - len(page.get_text("words"))
            assert hidden <= 10, (Tiling.label(col, row), hidden)  # the map's words out of sight: none
            top = page.rect.height - (bottom + wh + b)  # PyMuPDF's y runs down
            shown = pymupdf.Rect(left - b, top, left + ww + b, page.rect.height - bottom + b)
            footer = pymupdf.Rect(left, page.rect.height - bottom + b, left + ww, page.rect.height)
            words = page.get_text("words")
            assert words
            for x0, y0, x1, y1, word, *_ in words:
                box = pymupdf.Rect(x0, y0, x1, y1)
                assert box.intersects(shown) or box.intersects(footer), (Tiling.label(col, row), word, box)
            read = [w[4] for w in words]
            for town in towns:
                if " " not in town:
                    assert read.count(town) <= 1 + sum(1 for n in towns if n != town and town in n.split()), (
                        town,
                        read.count(town),
                    )
        on_tiles = sum(page.get_text().count("Kharkov") for page in list(doc)[first:]) if name == "denikin-1919" else 1
        assert 1 <= on_tiles <= 4  # its own tile, and those whose strips overlap it
