"""Issue 25, item 1: the layout gate over the printed map: the tiled set (its assembly page, its
key page and every tile) on A4 and US Letter, and the poster at true scale, for both scenarios."""

from __future__ import annotations

import pytest

from kitgen.loader import load_scenario_map
from kitgen.products.mapsheets import MapSheet
from kitgen.render.style import map_style
from tests.layoutgate import assert_passes

SCENARIOS = ["denikin-1919", "tsaritsyn-1919"]


@pytest.fixture(scope="module", params=SCENARIOS)
def sheet(request: pytest.FixtureRequest) -> MapSheet:
    scenario, board = load_scenario_map(request.param)
    return MapSheet(board, scenario, map_style())


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_issue25_every_page_of_the_map_tiles_passes_the_layout_gate(sheet: MapSheet, paper: str) -> None:
    """ "the map's labels collide", "the subtitle runs through the scale bar": the assembly page
    (the map as a picture, no type too small to read), the key page (the scale bar beside the
    title block or, shorter, where a long subtitle leaves it room; the key's words wrapped in
    their column) and every tile pass the gate: hex ids 5 pt, every other word 7 pt (the supply
    edges' FACTION SUPPLY, the check bar's words), nothing over anything."""
    pdf, _ = sheet.tiles(paper)
    assert_passes(pdf, name=f"{sheet.s.meta.id} map tiles ({paper})")


def test_issue25_the_poster_at_true_scale_passes_the_layout_gate(sheet: MapSheet) -> None:
    """The poster at 100%: a map narrower than the key band is laid out for (the Tsaritsyn map)
    has its key under it as a block at full size, never the band shrunk to 2.5 pt."""
    assert_passes(sheet.poster("true"), name=f"{sheet.s.meta.id} map poster")
    if sheet.s.meta.id == "tsaritsyn-1919":
        assert not sheet.wide


@pytest.mark.parametrize("name", SCENARIOS)
def test_issue25_the_maps_turn_track_is_dated(name: str) -> None:
    """Issue 25, item 4: "the turn track has no dates": the map key's turn record says how long a
    turn is and dates each box with its turn's first day (the set-up's start, then a turn's days
    on), and marks the scenario's last turn END where it has one."""
    import datetime
    import io

    import pypdf

    scenario, board = load_scenario_map(name)
    sheet = MapSheet(board, scenario, map_style())
    pdf, _ = sheet.tiles("a4")
    key = " ".join(pypdf.PdfReader(io.BytesIO(pdf)).pages[1].extract_text().split())
    days = scenario.meta.turns.days
    assert f"a turn stands for {days} day" in key
    assert scenario.setup.start is not None
    start = datetime.date.fromisoformat(scenario.setup.start)
    second = start + datetime.timedelta(days=days)
    months = [
        "Jan",
        "Feb",
        "Mar",
        "Apr",
        "May",
        "Jun",
        "Jul",
        "Aug",
        "Sep",
        "Oct",
        "Nov",
        "Dec",
    ]  # in English, whatever the locale
    assert f"{start.day} {months[start.month - 1]} {start.year}" in key
    assert f"{second.day} {months[second.month - 1]}" in key
    if scenario.meta.turns.last is not None:
        assert "END" in key


@pytest.mark.parametrize("size", ["a0", "a1", "2xa1", "36x48"])
def test_issue25_every_print_shop_poster_passes_the_layout_gate(sheet: MapSheet, size: str) -> None:
    """Issue 25, item 1: "the map at every poster size": a poster that must shrink the map draws
    its hexes smaller and keeps its type, key and margins at full size (never hex ids under 5 pt,
    as the A1 poster's 3.4 pt were); a small map on a big sheet is enlarged whole. Every page
    passes the gate, and the poster's trim is the standard size."""
    import io

    import pypdf

    from kitgen.products.mapsheets import POSTER

    pdf = sheet.poster(size)
    assert_passes(pdf, name=f"{sheet.s.meta.id} {size} poster")
    short, long = POSTER[size]
    trim = (long, short) if sheet.width >= sheet.height else (short, long)
    halves = 2 if size == "2xa1" else 1  # A0 cut across its long side into two A1 sheets
    part = (trim[0] / halves, trim[1]) if trim[0] >= trim[1] else (trim[0], trim[1] / halves)
    pages = pypdf.PdfReader(io.BytesIO(pdf)).pages
    assert len(pages) == halves
    for page in pages:
        box = page.trimbox
        assert (float(box.width), float(box.height)) == pytest.approx(part, abs=0.5)
        if halves == 2:  # each half is an A1 sheet, either way up
            assert sorted((float(box.width), float(box.height))) == pytest.approx(sorted(POSTER["a1"]), abs=0.5)
