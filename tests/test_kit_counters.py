"""The counter sheets of the printed kit (kitgen/products/counters.py).

A counter for every unit of the order of battle, of the reinforcement piles, of the event cards
and of the Makhnovist Current Strength Chart, and for every train and ship; 19 mm counters on A4
or US Letter, fronts and out-of-supply backs on alternate pages, each back page mirroring its
front's columns for duplex printing flipped on the long edge.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt
import pypdf
import pytest

from kitgen.errors import UsageError
from kitgen.model.scenario import Scenario, name_key
from kitgen.products.counters import build_counters, counter_sheets, counters_of, stands_text
from kitgen.render.counterart import Counter, abbreviate, fit_text, name_forms
from kitgen.render.countergrid import counter_positions, grid, lay_out
from kitgen.render.counterstyle import counter_style
from kitgen.render.fonts import SANS_BOLD, register_fonts, text_width
from kitgen.render.pages import MM, PAPER, Part
from kitgen.render.symbols import GLYPHS, unit_symbol

if TYPE_CHECKING:
    from kitgen.render.counterart import Sheets
    from kitgen.render.markerart import MarkerSheets
from tests.conftest import SET_AS_TYPED

POPPLER = all(shutil.which(tool) for tool in ("pdffonts", "pdftoppm"))
DPI = 100


@pytest.fixture(scope="module")
def hexes(scenario: Scenario) -> dict[str, str]:
    """Each place's hex on the map, as the kit gives them to the counters' set-up line."""
    from kitgen.mapping.cache import hex_map
    from kitgen.mapping.places import place_hexes

    built, _ = hex_map(scenario)
    assert built is not None
    return dict(place_hexes(scenario, built))


@pytest.fixture(scope="module", params=["a4", "letter"])
def part(request: pytest.FixtureRequest, scenario: Scenario, hexes: dict[str, str]) -> Part:
    (built,) = build_counters(scenario, request.param, hexes)
    return built


@pytest.fixture(scope="module")
def a4(scenario: Scenario, hexes: dict[str, str]) -> Part:
    (built,) = build_counters(scenario, "a4", hexes)
    return built


def reader(part: Part) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(part.pdf))


def pieces_by_page(
    units: Sheets, markers: MarkerSheets, page_h: float
) -> dict[int, list[tuple[float, float, float, float]]]:
    """The boxes of the pieces on each page (from 1), fronts and backs, in PyMuPDF's space (y down)."""
    from kitgen.render.countergrid import piece_boxes

    boxes: dict[int, list[tuple[float, float, float, float]]] = {}
    for sheet in range(units.of):
        for back in (False, True):
            boxes[len(boxes) + 1] = [
                (x0, page_h - y1, x1, page_h - y0)
                for layout in (units.layout, markers.layout)
                for x0, y0, x1, y1 in piece_boxes(layout, sheet, back)
            ]
    return boxes


def squeeze(text: str) -> str:
    """Without white space, and the kit's curly quotes and dashes as the data types them."""
    return re.sub(r"\s+", "", text).translate(SET_AS_TYPED)


def front_text(part: Part) -> str:
    pages = reader(part).pages
    return squeeze("".join(pages[i].extract_text() for i in range(0, len(pages), 2)))


# --- what gets a counter ---------------------------------------------------------------------


def test_a_train_is_named_for_the_place_it_starts_from_and_keeps_its_name() -> None:
    """Issue 42: "Train names still carry a hex ('Train in 3428'; two trains in one hex share a
    name)". A train's counter names the place it starts from as the map prints it and its kind;
    two trains of one kind from one place are numbered; every packet names a train so."""
    from kitgen.engine.piecenames import train_names
    from kitgen.loader import load_scenario
    from kitgen.model.forces import Train

    scenario = load_scenario("denikin-1919")
    names = train_names(scenario)
    assert names["w_at_yuzovka"] == "Iuzovka Armoured Train"  # Donetsk, as the 1919 map names it
    assert names["w_train_rostov"] == "Rostov Train" and names["w_at_rostov"] == "Rostov Armoured Train"
    assert not any(re.search(r"\d{4}", n) for n in names.values())
    twin = Train(id="w_train_rostov_2", faction="whites", at="Rostov")
    doubled = scenario.model_copy(
        update={"setup": scenario.setup.model_copy(update={"trains": [*scenario.setup.trains, twin]})}
    )
    assert train_names(doubled)["w_train_rostov_2"] == "Rostov Train 2"
    # a campaign's own set-up, its trains in another order and one more: the scenario's keep the
    # names their counters print, and the campaign's own is numbered after them
    own = scenario.setup.model_copy(update={"trains": [twin, *reversed(scenario.setup.trains)]})
    mixed = train_names(scenario, own)
    assert {k: v for k, v in mixed.items() if k in names} == names
    assert mixed["w_train_rostov_2"] == "Rostov Train 2"


def test_every_setup_unit_train_and_ship_has_one_counter(scenario: Scenario) -> None:
    """One counter for each starting unit, train and ship, its small print the place it starts
    (the hex, where the map is known: see the kit's counters); never a software id (issue 14)."""
    counters = counters_of(scenario)
    got = [(c.faction, c.name, c.note) for c in counters]
    setup = scenario.setup
    expected = [(u.faction, u.name, f"set-up {u.at}") for u in setup.units]
    shown = {name_key(t.name): t.shown_name for t in scenario.towns}
    trains = {
        t.id: f"{shown.get(name_key(t.at), t.at)} {'Armoured Train' if t.armoured else 'Train'}" for t in setup.trains
    }
    expected += [(t.faction, trains[t.id], f"set-up {t.at}") for t in setup.trains]
    expected += [(x.faction, x.name, f"set-up {x.at}") for x in setup.ships]
    for item in set(expected):
        assert got.count(item) == expected.count(item), item
    unit = setup.units[0]
    assert unit.size is not None
    assert counters[0] == Counter(
        unit.faction, unit.type, unit.name, stands_text(unit.stands, counter_style()), f"set-up {unit.at}",
        unit.commander, tuple(unit.flags), size=counter_style().size_marks[unit.size], kinds=frozenset(unit.stands),
    )  # fmt: skip
    by_name = {(c.faction, c.name, c.note): c for c in counters}
    armoured = next(t for t in setup.trains if t.armoured)
    assert by_name[(armoured.faction, trains[armoured.id], f"set-up {armoured.at}")].symbol == "armoured_train"
    transport = next(x for x in setup.ships if x.gunfire == 0)
    warship = next(x for x in setup.ships if x.gunfire > 0)
    assert by_name[(transport.faction, transport.name, f"set-up {transport.at}")].symbol == "transport"
    found = by_name[(warship.faction, warship.name, f"set-up {warship.at}")]
    assert found.symbol == "warship" and found.stands == f"gunfire {warship.gunfire}"
    ids = {u.id for u in setup.units} | {t.id for t in setup.trains} | {x.id for x in setup.ships}
    assert not ids & {c.note.removeprefix("set-up ") for c in counters}


def test_every_slip_and_event_unit_has_a_counter_naming_its_source(scenario: Scenario) -> None:
    """A unit a slip or an event card brings names its source as the card prints it: 'Red slip 7',
    the 7th slip of the Reds' pile; 'Event 17', the 17th card of the deck (issue 14: no software
    id on a counter)."""
    counters = counters_of(scenario)
    adjective = {f.id: f.adjective for f in scenario.meta.factions}
    expected = [
        (faction, u.name, f"{adjective[faction]} slip {n}")
        for faction, slips in scenario.cards.piles.items()
        for n, slip in enumerate(slips, start=1)
        for u in slip.units
    ]
    expected += [
        (e.faction, u.name, f"Event {n}")
        for n, card in enumerate(scenario.cards.events, start=1)
        for e in card.effects
        if e.kind == "units" and e.faction
        for u in e.units
    ]
    assert len(expected) > 30
    got = [(c.faction, c.name, c.note) for c in counters]
    for item in expected:
        assert got.count(item) == 1, item


def test_strength_chart_units_once_each_by_name_and_stands(scenario: Scenario) -> None:
    chart = {(u.name, tuple(u.stands.items())) for row in scenario.cards.makhnovist_strength for u in row.units}
    got = [(c.name, c.stands) for c in counters_of(scenario) if c.note.startswith("strength chart ")]
    style = counter_style()
    assert sorted(got) == sorted((name, stands_text(dict(stands), style)) for name, stands in chart)
    assert all(c.faction == "makhnovists" for c in counters_of(scenario) if c.note.startswith("strength chart "))
    mounted = next(c for c in counters_of(scenario) if c.name == "Mounted band")
    assert mounted.note == "strength chart -2 to 1"  # rows -2..-1 and 0..1 run together


def test_counters_grouped_by_faction_in_scenario_order(scenario: Scenario) -> None:
    order = [f.id for f in scenario.meta.factions]
    factions = [c.faction for c in counters_of(scenario)]
    assert factions == sorted(factions, key=order.index)


def test_every_counter_is_printed_with_its_name_and_small_print(
    scenario: Scenario, part: Part, hexes: dict[str, str]
) -> None:
    text = front_text(part)
    style = counter_style()
    for c in counters_of(scenario, style, hexes):
        assert squeeze(c.note) in text, c.note
        assert any(squeeze(form) in text for form in name_forms(c.name, style)), c.name
        assert squeeze(c.stands) in text
        if c.commander:
            assert squeeze(c.commander) in text
    for ship in scenario.setup.ships:
        assert any(squeeze(form) in text for form in name_forms(ship.name, style))


def test_every_faction_heads_its_counters(scenario: Scenario, a4: Part) -> None:
    text = front_text(a4)
    for f in scenario.meta.factions:
        n = sum(1 for c in counters_of(scenario) if c.faction == f.id)
        assert squeeze(f"{f.name}, {n} counters") in text


# --- the PDF ---------------------------------------------------------------------------------


def test_page_sizes_exact(part: Part) -> None:
    w, h = PAPER["a4" if part.file == "counters-a4.pdf" else "letter"]
    pages = reader(part).pages
    assert part.pages == len(pages)
    for page in pages:
        assert float(page.mediabox.width) == pytest.approx(w, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(h, abs=0.01)


def test_file_names(scenario: Scenario) -> None:
    assert [p.file for p in build_counters(scenario, "letter")] == ["counters-letter.pdf"]
    with pytest.raises(UsageError) as caught:
        build_counters(scenario, "a3")
    assert caught.value.msg.code == "layout.unknown_paper"
    assert caught.value.msg.text.startswith("found the unknown paper 'a3', expected one of a4 or letter")


def test_fronts_and_backs_alternate(scenario: Scenario, hexes: dict[str, str], a4: Part) -> None:
    """Units' sheets, the markers following on the last one's room and then on sheets of their
    own (no sheet of card left mostly empty), each a front and its back."""
    units, markers = counter_sheets(scenario, "a4", hexes)
    n = max(units.layout.sheets, markers.layout.sheets)
    pages = reader(a4).pages
    assert len(pages) == 2 * n
    assert markers.layout.on(units.layout.sheets - 1)  # the markers start on the units' last sheet
    for i, page in enumerate(pages):
        sheet, back = divmod(i, 2)
        text = page.extract_text()
        side = "backs" if back else "fronts"
        if units.layout.on(sheet):
            assert f"counters, sheet {sheet + 1} of {n}, {side}" in text
            if back:
                assert "backs (out of supply)" in text
                assert text.count("OUT OF SUPPLY") >= 10
            else:
                assert "OUT OF SUPPLY" not in text
        else:
            assert f"markers, sheet {sheet + 1} of {n}, {side}" in text
    titles = [title for title, _ in a4.bookmarks]
    assert titles[0].startswith("Counters, sheet 1") and titles[-1].endswith("markers")
    assert [page for _, page in a4.bookmarks] == list(range(0, len(pages), 2))


def test_two_builds_identical(scenario: Scenario, a4: Part, hexes: dict[str, str]) -> None:
    (again,) = build_counters(scenario, "a4", hexes)
    assert again.pdf == a4.pdf


def page_resources(page: pypdf.PageObject) -> dict[str, Any]:
    return cast(dict[str, Any], page["/Resources"])


def test_only_embedded_fonts(part: Part, tmp_path: Path) -> None:
    for page in reader(part).pages:
        fonts = page_resources(page)["/Font"]
        assert fonts
        for font in fonts.values():
            descriptor = font.get_object()["/FontDescriptor"].get_object()
            assert "/FontFile2" in descriptor  # the TrueType program itself, embedded
            assert "Vera" in font.get_object()["/BaseFont"]
    if shutil.which("pdffonts"):
        path = tmp_path / part.file
        path.write_bytes(part.pdf)
        rows = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
        listed = rows.splitlines()[2:]
        assert listed
        for row in listed:
            assert row.split()[-5] == "yes", row  # the emb column


def test_vector_only(a4: Part) -> None:
    for page in reader(a4).pages:
        assert not page_resources(page).get("/XObject")


# --- layout ----------------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_counters_19mm_inside_10mm_margins_without_overlap(paper: str) -> None:
    style = counter_style()
    g = grid(style, paper)
    w, h = PAPER[paper]
    assert g.size == pytest.approx(19 * MM)
    layout = lay_out(style, paper, [46, 52, 23, 28, 300])
    seen: dict[int, list[tuple[float, float]]] = {}
    for s in layout.slots:
        assert s.x >= 10 * MM - 1e-6 and s.x + g.size <= w - 10 * MM + 1e-6
        assert s.y >= 10 * MM - 1e-6 and s.y + g.size <= h - 10 * MM + 1e-6
        for ox, oy in seen.get(s.sheet, []):
            assert abs(ox - s.x) >= g.size - 1e-6 or abs(oy - s.y) >= g.size - 1e-6
        seen.setdefault(s.sheet, []).append((s.x, s.y))
    for heading in layout.headings:
        assert heading.y + style.heading_mm * MM <= g.top + 1e-6


def test_back_x_mirrors_front_x() -> None:
    style = counter_style()
    for paper in ("a4", "letter"):
        g = grid(style, paper)
        positions = counter_positions(style, paper, 37)
        assert len(positions) == 37
        columns = sorted({round(x, 3) for x, _ in positions})
        for x, _ in positions:
            back = g.back_x(x)
            assert back == pytest.approx(g.page_w - x - g.size)
            assert round(back, 3) in columns  # the back lands on a column of the same grid


def test_a_faction_stays_on_one_sheet_when_it_fits_and_runs_on_when_not() -> None:
    style = counter_style()
    g = grid(style, "a4")
    per_sheet = len({s.y for s in lay_out(style, "a4", [10_000]).slots if s.sheet == 0}) * g.columns
    layout = lay_out(style, "a4", [per_sheet - 2 * g.columns, 3 * g.columns, per_sheet + 1])
    sheets = {group: {s.sheet for s in layout.slots if s.group == group} for group in range(3)}
    assert sheets[0] == {0} and sheets[1] == {1}  # the second group moves whole to a new sheet
    assert len(sheets[2]) == 2  # too long for one sheet: runs on, its heading again
    assert [h.continued for h in layout.headings if h.group == 2] == [False, True]


def test_spares_fill_the_last_row() -> None:
    style = counter_style()
    g = grid(style, "a4")
    layout = lay_out(style, "a4", [g.columns + 3])
    assert len(layout.slots) == (2 * g.columns if style.spares else g.columns + 3)


def gray_pages(part: Part, tmp_path: Path, first: int, last: int) -> list[npt.NDArray[np.uint8]]:
    pdf = tmp_path / "c.pdf"
    pdf.write_bytes(part.pdf)
    subprocess.run(
        ["pdftoppm", "-r", str(DPI), "-gray", "-f", str(first), "-l", str(last), str(pdf), str(tmp_path / "p")],
        check=True,
    )
    images = []
    for path in sorted(tmp_path.glob("p-*.pgm")):
        data = path.read_bytes()
        magic, w, h, maxval, rest = data.split(maxsplit=4)
        assert magic == b"P5" and maxval == b"255"
        images.append(np.frombuffer(rest[: int(w) * int(h)], dtype=np.uint8).reshape(int(h), int(w)))
    return images


def xor_within_a_pixel(a: npt.NDArray[np.bool_], b: npt.NDArray[np.bool_]) -> int:
    """Pixels that differ between two masks, at the best of the shifts by up to a pixel."""
    return min(
        int((np.roll(a, (dy, dx), axis=(0, 1))[1:-1, 1:-1] ^ b[1:-1, 1:-1]).sum())
        for dy in (-1, 0, 1)
        for dx in (-1, 0, 1)
    )


@pytest.mark.skipif(not POPPLER, reason="poppler's pdftoppm renders the pages")
def test_back_page_mirrors_front_page(a4: Part, tmp_path: Path) -> None:
    """Printed double-sided and flipped on the long edge, the back of the top-left counter
    lands behind it: the names and symbols of the first row on the back page are the front's,
    column for column mirrored (compared as ink masks of each counter's upper part)."""
    style = counter_style()
    g = grid(style, "a4")
    front, back = gray_pages(a4, tmp_path, 1, 2)
    scale = DPI / 72
    top_y = lay_out(style, "a4", [1]).slots[0].y + g.size  # under the title line and one heading
    symbol_bottom = style.lines.symbol_centre - style.symbol.height / 2
    r0 = round((g.page_h - top_y) * scale) + 2
    r1 = round((g.page_h - top_y + g.size - symbol_bottom) * scale) - 1
    cols = int(g.size * scale) - 4

    def mask(image: npt.NDArray[np.uint8], x: float) -> npt.NDArray[np.bool_]:
        c0 = round(x * scale) + 2
        cell = image[r0:r1, c0 : c0 + cols].astype(int)
        away = abs(cell - int(np.median(cell)))  # from the counter's fill, whatever its shade
        return np.asarray(away > 0.5 * away.max())

    fronts = [mask(front, g.x(k)) for k in range(g.columns)]
    backs = [mask(back, g.x(k)) for k in range(g.columns)]
    assert all(m.sum() > 100 for m in fronts + backs)  # every cell of the row has a name and symbol
    n = g.columns
    mirrored = sum(xor_within_a_pixel(fronts[k], backs[n - 1 - k]) for k in range(n))
    straight = sum(xor_within_a_pixel(fronts[k], backs[k]) for k in range(n))
    assert mirrored < 0.5 * straight


# --- texts and symbols -----------------------------------------------------------------------


def test_names_shrink_or_shorten_to_fit_the_counter(scenario: Scenario) -> None:
    style = counter_style()
    f = style.fonts
    width = style.counter_mm * MM - 2 * style.padding
    for c in counters_of(scenario):
        size, lines = fit_text(
            name_forms(c.name, style), SANS_BOLD, f.name_max, f.name_min, width, 14.0, f.name_leading,
            f.name_lines,
        )  # fmt: skip
        assert f.name_min <= size <= f.name_max
        assert all(text_width(line, SANS_BOLD, size) <= width + 1e-6 for line in lines)
        assert "\u2026" not in "".join(lines), c.name  # no bundled name needs cutting
    size, lines = fit_text(["Kharkov Armoured Car Detachment"], SANS_BOLD, 5.8, 4.0, width, 14.0, 1.1, 3)
    assert len(lines) > 1
    assert abbreviate("Kharkov Armoured Car Detachment", style) == "Kharkov Armd Car Det"
    assert abbreviate("Mobilised rifle regiment", style) == "Mob rifle regt"
    _, cut = fit_text(["Supercalifragilistic " * 8], SANS_BOLD, 5.8, 4.0, width, 14.0, 1.1, 3)
    assert cut[-1].endswith("\u2026") and len(cut) <= 3


def test_stands_by_kind() -> None:
    assert stands_text({"infantry": 3, "machine_gun": 1}, counter_style()) == "3 inf 1 MG"
    assert stands_text({"cavalry": 2, "mystery_kind": 1}, counter_style()) == "2 cav 1 mystery kind"


def symbol_stream(type_id: str) -> bytes:
    from reportlab.pdfgen import canvas

    register_fonts()
    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=(60, 40), invariant=1, pageCompression=0)
    unit_symbol(c, type_id, 5, 5, 42, 27)
    c.showPage()
    c.save()
    return pypdf.PdfReader(io.BytesIO(out.getvalue())).pages[0].get_contents().get_data()  # type: ignore[union-attr]


def test_every_unit_type_has_its_own_symbol(scenario: Scenario) -> None:
    types = [t.id for t in scenario.movement.unit_types]
    assert set(types) <= set(GLYPHS)
    period = ["armoured_train", "tachanka", "cavalry_army", "warship", "transport"]
    streams = {t: symbol_stream(t) for t in [*types, *period]}
    assert len(set(streams.values())) == len(streams)  # each draws something different
    unknown = symbol_stream("zeppelin")
    assert unknown not in streams.values()
    assert b"Tj" in unknown  # the '?' on a plain box
    assert all(b"Tj" not in s for s in streams.values())
    frame = symbol_stream("infantry")
    assert b" re" in frame  # the rectangle round the glyph


def test_cut_lines_on_fronts_only(a4: Part) -> None:
    """Issue 14: "No cut lines on backs": a back shifted a millimetre in duplex would show them;
    the sheet is cut along the fronts' lines."""
    from kitgen.render.counterstyle import counter_style
    from kitgen.render.pages import hex_colour

    stroke = re.compile(rb"([0-9.]+) ([0-9.]+) ([0-9.]+) RG")
    want = tuple(round(v, 3) for v in hex_colour(counter_style().cut_line.colour))
    for i, page in enumerate(reader(a4).pages):
        data = page.get_contents().get_data()  # type: ignore[union-attr]
        colours = {tuple(round(float(x), 3) for x in m.groups()) for m in stroke.finditer(data)}
        assert (want in colours) == (i % 2 == 0), i


# --- unit size and strength (issue 14) ---------------------------------------------------------

NATO = {
    "company": "I",
    "battalion": "II",
    "regiment": "III",
    "brigade": "X",
    "division": "XX",
    "corps": "XXX",
    "army": "XXXX",
}
"""APP-6's unit-size marks, written here and not read from the layouts file."""


def test_every_unit_of_the_bundled_scenarios_has_a_formation_size() -> None:
    """Issue 14: "Unit-size marks from the set-up data": every unit the kit prints a counter for,
    in both bundled scenarios, says what formation it stands for."""
    from typing import get_args

    from kitgen.loader import load_scenario
    from kitgen.model.forces import UnitSize

    assert set(get_args(UnitSize)) == set(NATO)
    for name in ("denikin-1919", "tsaritsyn-1919"):
        s = load_scenario(name)
        units = [*s.setup.units]
        units += [u for slips in s.cards.piles.values() for slip in slips for u in slip.units]
        units += [u for card in s.cards.events for e in card.effects if e.kind == "units" for u in e.units]
        units += [u for row in s.cards.makhnovist_strength for u in row.units]
        assert units
        assert [u.name for u in units if u.size is None] == [], name


def test_counters_carry_the_nato_size_mark_of_their_formation(scenario: Scenario, a4: Part) -> None:
    """A division's counter is marked XX, a regiment's III, over the unit-type box; trains and
    ships, which are no formation, carry none."""
    counters = counters_of(scenario)
    by_name = {u.name: u for u in scenario.setup.units}
    for c in counters:
        if c.note.startswith("set-up") and c.name in by_name:
            size = by_name[c.name].size
            assert size and c.size == NATO[size], c.name
        if c.symbol in ("rr_train", "armoured_train", "warship", "transport"):
            assert c.size == ""
    sheets, _ = counter_sheets(scenario, "a4")
    first = [sheets.counter(s) for s in sheets.layout.slots if s.sheet == 0]
    marks = sorted(text for text, _, _, _ in _runs(a4, 0) if text in NATO.values())
    assert marks == sorted(c.size for c in first if c.size) and len(marks) > 20


def _runs(part: Part, page: int) -> list[tuple[str, float, float, float]]:
    """(text, size, x, y) of every text run drawn on a page."""
    out: list[tuple[str, float, float, float]] = []

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        if text.strip():
            x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
            y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
            out.append((text.strip(), float(size) * abs(tm[0] or 1), x, y))

    reader(part).pages[page].extract_text(visitor_text=visit)
    return out


def test_strength_is_the_largest_figure_on_a_counter(a4: Part) -> None:
    """Issue 14: "The factors are the smallest thing on the counter ... strength as the largest
    figure": inside the counter grid of the first front, the largest type of all is the stands'
    figures ('3 inf 1 MG'), larger than any name, mark or note."""
    style = counter_style()
    g = grid(style, "a4")
    top = g.top - style.heading_mm * MM  # under the first heading: the counters
    headings = (style.fonts.heading, style.fonts.heading * 0.85)
    inside = [
        (t, size)
        for t, size, x, y in _runs(a4, 0)
        if y < top and all(abs(size - h) > 0.01 for h in headings)  # not a faction's heading row
    ]
    figures = [size for t, size in inside if t.isdigit()]
    others = [size for t, size in inside if not any(ch.isdigit() for ch in t)]
    assert len(figures) > 40 and others
    assert min(figures) > max(others)


def test_every_back_reads_at_AAA_contrast(scenario: Scenario, a4: Part) -> None:
    """Issue 14: "The Makhnovist back is black on 50% grey ... Readable contrast on every back":
    each faction's back, as its back pages print it (a fill that is the faction's colour moved
    towards white), reads at 7:1 or better (WCAG AAA) in black or white, worked out here from
    WCAG's formula. The Makhnovists' black back is #999999 or lighter (7.4:1)."""

    def luminance(rgb: tuple[float, ...]) -> float:
        lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    def best_contrast(rgb: tuple[float, ...]) -> float:
        lum = luminance(rgb)
        return max((1.05) / (lum + 0.05), (lum + 0.05) / 0.05)

    fills = re.compile(rb"([0-9.]+) ([0-9.]+) ([0-9.]+) rg")
    pages = reader(a4).pages
    used: set[tuple[float, ...]] = set()
    for i in range(1, len(pages), 2):  # every back (a marker's ground is never a tint)
        data = pages[i].get_contents().get_data()  # type: ignore[union-attr]
        used |= {tuple(float(v) for v in m.groups()) for m in fills.finditer(data)}
    for f in scenario.meta.factions:
        base = tuple(int(f.colour[k : k + 2], 16) / 255 for k in (1, 3, 5))
        tints = []  # fills on the backs that are this colour moved by one share t towards white
        k = min(range(3), key=lambda i: base[i])  # the channel that moves most towards white
        for rgb in used:
            share = (rgb[k] - base[k]) / (1 - base[k])
            moved = [b + (1 - b) * share for b in base]
            if 0.5 <= share < 1 and all(abs(v - m) <= 2 / 255 for v, m in zip(rgb, moved, strict=True)):
                tints.append(rgb)
        assert tints, f.id
        for rgb in tints:
            assert best_contrast(rgb) >= 7, (f.id, rgb)
    black = [rgb for rgb in used if len({round(v, 3) for v in rgb}) == 1 and 0.5 <= rgb[0] < 1]
    assert black and min(v[0] for v in black) >= 0x99 / 255 - 0.005  # the Makhnovists' grey


@pytest.mark.parametrize("name", ["denikin-1919", "tsaritsyn-1919"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_issue25_the_counter_and_marker_sheets_pass_the_layout_gate(name: str, paper: str) -> None:
    """Issue 25, item 1: "counter text 5 pt": every page of the counter sheets, the units' and
    the markers', fronts and backs, passes the layout gate with each piece's own box: its name,
    size mark, strength, commander and set-up line at 5 pt at least and inside its edges, the
    sheets' titles and keys at 7 pt."""
    from kitgen.loader import load_scenario
    from kitgen.mapping.cache import hex_map
    from kitgen.mapping.places import place_hexes
    from tests.layoutgate import assert_passes

    scenario = load_scenario(name)
    board, _ = hex_map(scenario)
    assert board is not None
    hexes = place_hexes(scenario, board)
    (built,) = build_counters(scenario, paper, hexes)
    units, markers = counter_sheets(scenario, paper, hexes)
    boxes = pieces_by_page(units, markers, PAPER[paper][1])
    assert len(boxes) == built.pages and all(boxes.values())
    assert_passes(built.pdf, counters=boxes, name=built.file)
