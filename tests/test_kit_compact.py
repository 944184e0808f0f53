"""Issue 44, item 4: the compact edition. The same board drawn with 16 mm hexes (the SPI and GDW
standard) and half-inch counters, so that the Denikin map fits two A2 or two 17 x 22 in sheets
with its key beside it; and item 6: counters bleed where they are cut, in both editions."""

from __future__ import annotations

import io
from functools import cache

import pytest

from kitgen.mapping.hexmap import HexMap
from kitgen.model.scenario import Scenario
from kitgen.render.pages import MM
from tests.layoutgate import assert_passes

A2 = (420 * MM, 594 * MM)
SHEET_17X22 = (17 * 72.0, 22 * 72.0)
HALF_INCH = 12.7 * MM


@cache
def board(name: str) -> tuple[Scenario, HexMap]:
    from kitgen.loader import load_scenario_map

    return load_scenario_map(name)


def boxes(pdf: bytes, which: str) -> list[tuple[float, float, float, float]]:
    import pypdf

    return [tuple(float(v) for v in getattr(p, which)) for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]  # type: ignore[misc]


@pytest.mark.parametrize(("paper", "sheet"), [("a4", A2), ("letter", SHEET_17X22)])
def test_the_compact_denikin_map_prints_on_two_sheets_of_its_papers_poster_size(
    paper: str, sheet: tuple[float, float]
) -> None:
    """ "`kitgen kit --compact` prints the Denikin map on at most two A2 (or 17 x 22 in) sheets":
    its poster has at most two pages, each trimmed to the sheet (either way up), its hexes 16 mm
    across the flats, and its key (the legend and the turn track) on the sheet beside the map."""
    from kitgen.products.kit import map_parts
    from kitgen.products.mapsheets import MapSheet
    from kitgen.render.style import map_style

    scenario, hex_map = board("denikin-1919")
    poster, _tiles = map_parts(scenario, hex_map, paper, "compact")
    trims = boxes(poster.pdf, "trimbox")
    assert len(trims) == poster.pages <= 2
    for x0, y0, x1, y1 in trims:
        size = sorted((x1 - x0, y1 - y0))
        assert size[0] <= sheet[0] + 0.5 and size[1] <= sheet[1] + 0.5, (size, sheet)
    art = MapSheet(hex_map, scenario, map_style(edition="compact")).art
    assert art.hex_pt == pytest.approx(16 * MM)
    import pypdf

    words = " ".join(p.extract_text() for p in pypdf.PdfReader(io.BytesIO(poster.pdf)).pages)
    assert "Turn record" in words and "Key" in words and "16 mm across the flats" in words
    assert "its hexes 16 mm across" in words  # the print shop's note: drawn at that size, not scaled


def test_a_small_map_takes_the_smallest_poster_that_holds_it() -> None:
    """The Tsaritsyn map, compact, is no two-sheet poster: the smallest of A3, A2 and 2 x A2 that
    holds its sheet."""
    from kitgen.products.kit import map_parts

    scenario, hex_map = board("tsaritsyn-1919")
    poster, tiles = map_parts(scenario, hex_map, "a4", "compact")
    assert poster.file == "map-poster-a3.pdf" and poster.pages == 1
    assert tiles.pages == 2 and [s for s, _ in tiles.bookmarks] == ["Key", "Tiles"]  # one tile: nothing to join


@pytest.mark.parametrize("name", ["denikin-1919", "tsaritsyn-1919"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_compact_counters_are_half_an_inch_and_pass_the_gate_at_4_5_pt(name: str, paper: str) -> None:
    """ "Every piece passes the layout gate at its size: counters at 4.5 pt or more": every
    counter and marker is 12.7 mm square, and every page of the sheets passes the gate with each
    piece's text at 4.5 pt at least and inside its edges."""
    from kitgen.mapping.places import place_hexes
    from kitgen.products.counters import build_counters, counter_sheets
    from kitgen.render.pages import PAPER
    from tests.test_kit_counters import pieces_by_page

    scenario, hex_map = board(name)
    hexes = place_hexes(scenario, hex_map)
    (built,) = build_counters(scenario, paper, hexes, "compact")
    units, markers = counter_sheets(scenario, paper, hexes, "compact")
    assert units.layout.grid.size == markers.layout.grid.size == pytest.approx(HALF_INCH)
    pieces = pieces_by_page(units, markers, PAPER[paper][1])
    assert len(pieces) == len(boxes(built.pdf, "trimbox")) and all(pieces.values())
    assert_passes(built.pdf, counters=pieces, name=built.file, counter_least=4.5)


@pytest.mark.parametrize("name", ["denikin-1919", "tsaritsyn-1919"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_compact_map_passes_the_layout_gate(name: str, paper: str) -> None:
    """The compact map keeps its type at full size with smaller hexes: its poster and tiles pass
    the gate (hex ids 5 pt, every other word 7 pt, nothing over anything)."""
    from kitgen.products.kit import map_parts

    scenario, hex_map = board(name)
    for part in map_parts(scenario, hex_map, paper, "compact"):
        assert_passes(part.pdf, name=part.file)


@pytest.mark.parametrize("edition", ["full", "compact"])
def test_issue44_counters_and_markers_bleed_3_mm_past_their_cut_with_their_art_in_it(edition: str) -> None:
    """ "Counters and tiles have a BleedBox at least 3 mm past the TrimBox, with art in it": on
    every page of the counter sheets the BleedBox runs 3 mm past the TrimBox on every side; and
    2.5 mm out from every side of every piece, fronts and backs, the page shows either the piece
    next to it or, where no piece is (a block's edge, where it is cut), this piece's own ground
    as it is just inside its edge, never white paper where the piece is coloured."""
    import numpy as np
    import pymupdf

    from kitgen.mapping.places import place_hexes
    from kitgen.products.counters import build_counters, counter_sheets
    from kitgen.render.countergrid import piece_boxes

    scenario, hex_map = board("denikin-1919")
    hexes = place_hexes(scenario, hex_map)
    (built,) = build_counters(scenario, "a4", hexes, edition)
    units, markers = counter_sheets(scenario, "a4", hexes, edition)
    trims, bleeds = boxes(built.pdf, "trimbox"), boxes(built.pdf, "bleedbox")
    for trim, bleed in zip(trims, bleeds, strict=True):
        gaps = (trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
        assert all(d >= 3 * MM - 0.01 for d in gaps)
    zoom = 4.0  # a pixel a quarter of a point: the cut line and the padding apart
    out, near = 2.5 * MM, 0.7  # well into the bleed; just inside the cut, clear of the cut line and the text
    edges = shared = 0
    with pymupdf.open(stream=built.pdf, filetype="pdf") as doc:
        for sheet in range(units.of):
            for back in (False, True):
                page = 2 * sheet + back
                pix = doc[page].get_pixmap(matrix=pymupdf.Matrix(zoom, zoom))
                image = np.frombuffer(pix.samples, np.uint8).reshape(pix.height, pix.width, pix.n)
                page_h = float(doc[page].rect.height)
                pieces = [b for layout in (units.layout, markers.layout) for b in piece_boxes(layout, sheet, back)]

                def at(x: float, y: float) -> np.ndarray:
                    return image[int((page_h - y) * zoom), int(x * zoom), :3].astype(int)  # noqa: B023

                for x0, y0, x1, y1 in pieces:
                    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
                    for (px, py), (qx, qy) in (
                        ((x0 - out, my), (x0 + near, my)),
                        ((x1 + out, my), (x1 - near, my)),
                        ((mx, y0 - out), (mx, y0 + near)),
                        ((mx, y1 + out), (mx, y1 - near)),
                    ):
                        if any(b[0] < px < b[2] and b[1] < py < b[3] for b in pieces):
                            shared += 1  # a neighbour's art, which is its own
                            continue
                        edges += 1
                        assert abs(at(px, py) - at(qx, qy)).max() <= 8, (page + 1, (x0, y0), at(px, py), at(qx, qy))
    assert edges > 50 and shared > 50


def test_a_tile_that_would_show_only_sea_is_left_out_and_the_assembly_page_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """ "Tiles that show only sea or off-map paper are left out, and the assembly guide says so":
    a tile whose window shows only sea is not printed; the assembly page names it and greys its
    place, and the tiles printed count one less."""
    import pypdf

    from kitgen.products.mapsheets import MapSheet, Tiling
    from kitgen.render.mapart import MapArt
    from kitgen.render.style import map_style

    scenario, hex_map = board("denikin-1919")
    sheet = MapSheet(hex_map, scenario, map_style())
    whole = sheet.tiling("a4")
    assert not whole.left_out  # every Denikin tile shows some land
    corner = whole.window(0, whole.rows - 1)
    b = sheet.bleed
    monkeypatch.setattr(
        MapArt, "shows_only_sea", lambda self, box: box == (corner[0] - b, corner[1] - b, corner[2] - b, corner[3] - b)
    )
    pdf, t = sheet.tiles("a4")
    name = Tiling.label(0, whole.rows - 1)
    assert t.left_out == {(0, whole.rows - 1)}
    pages = pypdf.PdfReader(io.BytesIO(pdf)).pages
    assert len(pages) == 2 + whole.columns * whole.rows - 1
    assembly = " ".join(pages[0].extract_text().split())
    assert f"Tile {name} would show only sea" in assembly and f"{name} (sea)" in assembly
    last = " ".join(pages[-1].extract_text().split())
    assert f"({len(t.printed)} of {len(t.printed)})" in last


def test_only_sea_is_sea_no_ship_sails(monkeypatch: pytest.MonkeyPatch) -> None:
    """`MapArt.shows_only_sea`: off-map paper shows nothing; open sea shows nothing a player uses
    only where no ship sails (the Denikin map has ships and ports: its sea is board); a box that
    takes in a land hex is never only sea."""
    from kitgen.mapping.hexmap import HexMap
    from kitgen.products.mapsheets import MapSheet
    from kitgen.render.style import map_style

    scenario, hex_map = board("denikin-1919")
    art = MapSheet(hex_map, scenario, map_style()).art
    sea = [h for h in hex_map.hexes if h.terrain == "sea"]
    land = [h for h in hex_map.hexes if h.terrain != "sea"]
    r = art.hex_pt

    def around(hex_id: str, k: float) -> tuple[float, float, float, float]:
        x, y = art.centres[hex_id]
        return (x - k * r, y - k * r, x + k * r, y + k * r)

    assert art.shows_only_sea((-300.0, -300.0, -100.0, -100.0))  # off the map
    assert not any(art.shows_only_sea(around(h.id, 0.1)) for h in sea)  # ships sail it
    monkeypatch.setattr(
        art, "s", scenario.model_copy(update={"setup": scenario.setup.model_copy(update={"ships": []})})
    )
    monkeypatch.setattr(HexMap, "features", lambda self: set())  # no ports either
    assert any(art.shows_only_sea(around(h.id, 0.1)) for h in sea)
    assert not any(art.shows_only_sea(around(h.id, 0.1)) for h in land[:200])
