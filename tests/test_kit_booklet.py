"""The rules booklet (issue 5): set from the same data the engine reads, so every town,
commander and table value of the seed is in it; the seed's values are read here from the
scanned text itself (tests/seed_text.py), not from data/."""

from __future__ import annotations

import io
import re
import subprocess
from functools import cache
from pathlib import Path

import pytest
from pypdf import PdfReader

from kitgen.errors import KitgenError
from kitgen.loader import load_scenario
from kitgen.mapping.cache import hex_map
from kitgen.mapping.places import place_hexes
from kitgen.model.base import Ruling
from kitgen.products.booklet import (
    TEMPLATE,
    all_rulings,
    booklet_text,
    build_booklet,
    impose_saddle,
    ruling_title,
    tables,
)
from kitgen.render.bookletset import LaidOut, Typeset, heading_level, typeset
from kitgen.render.bookletset import cell as _cell
from kitgen.render.bookletstyle import LAYOUT, booklet_style
from kitgen.render.pages import HALF, PAPER, Part
from tests import pdftext, seed_text
from tests.conftest import BUNDLED, SET_AS_TYPED, SPELLED


@cache
def parts(paper: str) -> tuple[Part, ...]:
    scenario = load_scenario(BUNDLED)
    built, _ = hex_map(scenario)
    assert built is not None
    return tuple(build_booklet(scenario, place_hexes(scenario, built), paper))


@cache
def text(paper: str = "a4") -> str:
    """The single-page booklet's text, whitespace squeezed to single spaces."""
    return re.sub(r"\s+", " ", " ".join(pdftext.page_texts(parts(paper)[0].pdf)))


def running_text(paper: str = "a4") -> str:
    """The booklet's text as it runs from page to page: each page's foot (its section, its
    number and the imprint) left out, so that a paragraph split over two pages reads whole."""
    pages = []
    for page in pdftext.page_texts(parts(paper)[0].pdf):
        lines = page.splitlines()
        pages.append(" ".join(lines[:-3] if lines and lines[-1].startswith("kitgen ") else lines))
    return re.sub(r"\s+", " ", " ".join(pages))


def test_every_town_of_the_seed_is_in_the_booklet_with_its_vp_and_hex() -> None:
    """Issue 5: "every town ... of the seed appears in the booklet's text"; E.2's VP table rows
    read as the seed prints them (Red, White, Ukrn, '-' for none), and the index gives the hex;
    issue 14: the index gives the 1919 name, and no slip of the scanned text reaches the player."""
    scenario = load_scenario(BUNDLED)
    built, _ = hex_map(scenario)
    assert built is not None
    hexes = {t: h.id for h in built.hexes for t in h.towns}
    body = text()
    for seed_name, red, white, ukrn in seed_text.vp_table():
        town = scenario.find_town(seed_name)
        assert town is not None, seed_name
        # issue 25, item 3: "one set of names": the VP table names each town as the map prints it
        # (its 1919 name), the rules' name beside it where they differ
        mapped = town.name if town.shown_name == town.name else f"{town.shown_name} ({town.name})"
        assert f"{mapped} {red} {white} {ukrn}" in body, seed_name
        assert f"{town.name} {hexes[town.name]}" in body, seed_name  # the index of towns
        if town.name_1919 and town.name_1919 != town.name:
            assert f"{town.name} {hexes[town.name]} {town.name_1919}" in body, seed_name
        if seed_name not in (town.name, town.name_1919):
            assert not re.search(rf"\b{re.escape(seed_name)}\b", body), seed_name  # an OCR slip


def test_every_commander_of_the_seed_is_in_the_booklet_with_his_rating() -> None:
    """II.C table: each commander with his dependability and charisma (C)."""
    body = text()
    for faction, seed_name, dependability, charismatic in seed_text.commander_table():
        name = seed_text.COMMANDER_SPELLING.get(seed_name, seed_name)
        row = re.search(rf"{re.escape(name)} {dependability} ([C-])", body)
        assert row is not None, (faction, name)
        assert (row.group(1) == "C") == charismatic, name


def test_the_movement_table_is_the_seeds() -> None:
    """A: the movement table, row by row as the seed prints it ('p*' prohibited)."""
    body = text()
    printed = {**SPELLED, "RR Trains": "RR Trains"}  # issue 25: one spelling, the kit's
    for unit, (mp, *costs, river) in seed_text.movement_table().items():
        if unit == "RR Trains":
            assert f"RR Trains {mp} must be on railway track" in body
            continue
        river = river if river == "p*" else f"{river}"
        assert f"{printed.get(unit, unit)} {mp} {' '.join(costs)} {river}" in body, unit


def test_the_reinforcement_chart_and_thresholds_are_the_seeds() -> None:
    """II.E.2 chart (D6 faces 1-6) and E.3-E.5 thresholds 30, 45 and 40; E.3's 3D6 bonus."""
    body = text()
    chart = seed_text.reinforcement_chart()
    for face in range(1, 7):
        row = f"{face} {chart['reds'][face - 1]} {chart['whites'][face - 1]} {chart['ukrainians'][face - 1]}"
        assert row in body, face
    assert "Threshold 30 45 40" in body
    assert "the Reds add 3D6 VP" in body


def test_the_other_numbers_of_the_seed_are_in_the_booklet() -> None:
    """The numbers of the seed's prose: B.3 5 hexes, B.8 allotments 16/12/12, C.1 12 points and
    the stand points, D.1 16 hexes, D.3 16 points, II.B.3 40/60 and 55/45/50%, II.C 1-4 / 1-3,
    II.D.4 3 batteries, A.4 2D6 on 2 or 3, A.5 D6 on 1 (the seed's hyphens in ranges are set as
    en dashes, its quotes curly)."""
    body = text().translate(SET_AS_TYPED)
    for phrase in (
        "no more than 5 hexes long",
        "Infantry stand 16 shots",
        "Machine-gun stand 12 bursts",
        "Artillery stand 12 shells HE, shrapnel, smoke",
        "12 points of men, equipment and supplies",
        "Infantry stand 1",
        "Cavalry stand 3",
        "Artillery stand 4",
        "RR repair stand 3",
        "Armoured car 3",  # the seed's "Armored car 3", in the kit's one spelling
        "Tank 3",
        "Pontoon unit 5",
        "Supply depot 10",
        "Ships move up to 16 hexes",
        "a ship carries 16 points",
        "Winner 40% 60%",
        "Loser 55% 45% 50% desert",
        "need 1-4 if a friendly commander is in an adjacent hex, or 1-3",
        "more than 3 artillery batteries",
        "roll 2D6 for each vehicle: it breaks down on 2 or 3",
        "rolling D6 and breaking down on 1",
        "On 6 the top event card is drawn",
        "roll D6, +1 if Makhno is present; on 6 or more it succeeds",
        "lowest column, then lowest row",
    ):
        assert phrase in body, phrase


def test_rulings_of_the_data_files_are_printed() -> None:
    """RULES-NOTES: "Where a note decides something, the kit's printed rules must say the same
    thing": each data file's rulings are in the booklet under their names."""
    scenario = load_scenario(BUNDLED)
    body = text().translate(SET_AS_TYPED)
    rulings = all_rulings(scenario)
    assert len(rulings) >= 14
    for (_, ruling_id), ruling_text in rulings.items():
        assert f"Ruling, {ruling_title(ruling_id)}: {ruling_text[:40]}" in body, ruling_id


def test_a_ruling_left_out_of_the_booklet_stops_it() -> None:
    """One source of truth: a ruling the engine follows but the template does not print is an error."""
    scenario = load_scenario(BUNDLED)
    extra = scenario.supply.model_copy(
        update={"rulings": [*scenario.supply.rulings, Ruling(id="new_ruling", text="Something new.")]}
    )
    with pytest.raises(KitgenError) as caught:
        booklet_text(scenario.model_copy(update={"supply": extra}))
    (problem,) = caught.value.problems
    assert (Path(problem.file).name, problem.code) == ("booklet.md.j2", "booklet.rulings_left_out")
    assert "supply.yaml new_ruling" in problem.message


def test_a_ruling_the_template_prints_but_the_data_lacks_is_named_at_its_line() -> None:
    scenario = load_scenario(BUNDLED)
    kept = [r for r in scenario.supply.rulings if r.id != "depot_use"]
    with pytest.raises(KitgenError) as caught:
        booklet_text(scenario.model_copy(update={"supply": scenario.supply.model_copy(update={"rulings": kept})}))
    (problem,) = caught.value.problems
    lines = TEMPLATE.read_text(encoding="utf-8").splitlines()
    assert problem.code == "booklet.unknown_ruling" and "'depot_use'" in problem.message
    assert lines[problem.line - 1][problem.column - 1 :].startswith('ruling("supply", "depot_use")')


def test_a_bad_booklet_layout_is_a_file_line_column_error(tmp_path: Path) -> None:
    """layouts/booklet.yaml is read like every other layouts file: bounded, and checked by its model."""
    layout = tmp_path / "booklet.yaml"
    layout.write_text(LAYOUT.read_text(encoding="utf-8").replace("half_scale: 0.95", "half_scale: 1.5"))
    with pytest.raises(KitgenError) as caught:
        booklet_style(layout)
    (problem,) = caught.value.problems
    assert (problem.code, problem.message) == ("value.out_of_range", "half_scale: found 1.5, expected at most 1")
    assert layout.read_text().splitlines()[problem.line - 1].startswith("half_scale: 1.5")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pages_are_exact_and_the_booklet_is_imposed_two_up(paper: str) -> None:
    """Issue 5: A4/Letter pages, and an A5/half-letter saddle-stitched booklet imposed on
    landscape sheets: 4 booklet pages to a sheet, printed both sides."""
    single, imposed = parts(paper)
    w, h = PAPER[paper]
    for page in PdfReader(io.BytesIO(single.pdf)).pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((w, h), abs=0.01)
    sides = PdfReader(io.BytesIO(imposed.pdf)).pages
    assert len(sides) % 2 == 0
    for page in sides:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((h, w), abs=0.01)
    assert HALF[paper][0] * 2 <= h + 0.01 and HALF[paper][1] <= w + 0.01  # two booklet pages fit a side


def test_saddle_stitch_order() -> None:
    """Sheet 1 front: the last page and page 1; back: page 2 and the second-to-last."""
    imposed, sheets = impose_saddle(_half_pages(6), PAPER["a4"])  # 6 pages: padded to 8
    assert sheets == 2
    order = []
    for page in PdfReader(io.BytesIO(imposed)).pages:  # each side's pages, left to right
        order.append([t for _, t in sorted(_placed_text(page))])
    assert order == [["P1"], ["P2"], ["P6", "P3"], ["P4", "P5"]]  # pages 7 and 8 are the blanks


def test_table_cells_are_plain_text_unless_they_must_wrap() -> None:
    """A cell whose text fits its column on one line is plain text, which the table draws in
    the cell style (the Paragraph's font, size, leading and colour); text that must wrap, or
    that a Paragraph would squeeze (runs of spaces), stays a Paragraph, escaped."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    from kitgen.render.fonts import SANS, register_fonts

    register_fonts()
    style = ParagraphStyle("cell", fontName=SANS, fontSize=8.5, leading=10.2)
    assert _cell("Rostov-on-Don", style, 100) == "Rostov-on-Don"
    wrapped = _cell("railways leaving the east map edge north of Tsaritsyn", style, 100)
    assert isinstance(wrapped, Paragraph) and wrapped.wrap(100, 1000)[1] > 10.2
    assert isinstance(_cell("A  B", style, 100), Paragraph)
    amp = _cell("guns & " + "shells " * 20, style, 100)
    assert isinstance(amp, Paragraph) and "&amp;" in amp.text


def test_a_paragraph_breaks_its_lines_once_for_each_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """platypus wraps a flowable again at every pass and every table split: the lines are
    broken once for each width, and a wrap at a width seen before gives the same lines."""
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.platypus import Paragraph

    breaks: list[object] = []
    broken = Paragraph.breakLines
    monkeypatch.setattr(Paragraph, "breakLines", lambda self, widths: breaks.append(widths) or broken(self, widths))
    p = LaidOut("the quick brown fox jumps over the lazy dog " * 4, ParagraphStyle("body"))
    narrow = p.wrap(100, 500)
    lines = p.blPara.lines
    wide = p.wrap(300, 500)
    assert p.wrap(100, 500) == narrow and p.blPara.lines is lines and p.width == 100
    assert wide[1] < narrow[1] and len(breaks) == 2


def test_imposition_places_each_page_whole_as_a_form() -> None:
    """The imposed sides draw the booklet's pages as form XObjects: each page's content stream
    copied byte for byte (never parsed and rewritten), clipped to the page by its bounding box."""
    small = PdfReader(io.BytesIO(_half_pages(4)))
    imposed = PdfReader(io.BytesIO(impose_saddle(_half_pages(4), PAPER["a4"])[0]))
    raw = {small.pages[i]["/Contents"].get_object()._data: i for i in range(4)}
    placed = []
    for side in imposed.pages:
        for form in side["/Resources"]["/XObject"].values():
            form = form.get_object()
            assert form["/Subtype"] == "/Form"
            assert [float(v) for v in form["/BBox"]] == pytest.approx([0, 0, *HALF["a4"]])
            placed.append(raw[form._data])
    assert placed == [3, 0, 1, 2]


def test_imposition_joins_a_page_of_several_content_streams() -> None:
    """A page whose /Contents is an array of streams (PDF allows it; reportlab writes one)
    becomes one form of their joined data."""
    from pypdf import PdfWriter
    from pypdf.generic import ArrayObject, DecodedStreamObject, NameObject

    writer = PdfWriter(clone_from=io.BytesIO(_half_pages(2)))
    for page in writer.pages:
        first = DecodedStreamObject()
        first.set_data(b"q 0 0 1 rg 10 10 20 20 re f Q")
        page[NameObject("/Contents")] = ArrayObject([writer._add_object(first), page["/Contents"]])
    out = io.BytesIO()
    writer.write(out)
    imposed, _ = impose_saddle(out.getvalue(), PAPER["a4"])
    order = [[t for _, t in sorted(_placed_text(page))] for page in PdfReader(io.BytesIO(imposed)).pages]
    assert order == [["P1"], ["P2"]]
    data = PdfReader(io.BytesIO(imposed)).pages[0]["/Resources"]["/XObject"]["/P1"].get_object().get_data()
    assert data.startswith(b"q 0 0 1 rg 10 10 20 20 re f Q\n") and b"(P1) Tj" in data


def _half_pages(n: int) -> bytes:
    """A PDF of `n` A5 pages, each with its number: P1, P2..."""
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=HALF["a4"], invariant=1)
    for k in range(1, n + 1):
        c.setFont("Helvetica", 40)
        c.drawString(100, 300, f"P{k}")
        c.showPage()
    c.save()
    return out.getvalue()


def test_reruns_are_byte_identical_and_fonts_embedded(tmp_path: Path) -> None:
    """Issue 5: "The same inputs give byte-identical PDFs on a rerun"; no unembedded fonts."""
    scenario = load_scenario(BUNDLED)
    built, _ = hex_map(scenario)
    assert built is not None
    again = build_booklet(scenario, place_hexes(scenario, built), "a4")
    assert [p.pdf for p in again] == [p.pdf for p in parts("a4")]
    reader = PdfReader(io.BytesIO(parts("a4")[0].pdf))
    assert reader.metadata is not None and reader.metadata.title == "Denikin's War: rules"
    assert [o.title for o in reader.outline[:2]] == ["Designer\u2019s notes", "The turn"]  # type: ignore[union-attr]
    pdf = tmp_path / "rules.pdf"
    pdf.write_bytes(parts("a4")[0].pdf)
    try:
        listing = subprocess.run(["pdffonts", str(pdf)], capture_output=True, check=True).stdout
    except FileNotFoundError:
        pytest.skip("pdffonts (poppler-utils) is not installed")
    rows = listing.decode().splitlines()[2:]
    assert rows and all(" yes " in row for row in rows), rows


def _placed_text(page: object) -> list[tuple[float, str]]:
    """(x, text) of each piece of text on a page. The imposed pages are form XObjects, whose
    text pypdf reports in the form's own space: add where the side drew the form."""
    found: list[tuple[float, str]] = []
    form_x = [0.0]

    def before(op: bytes, _args: object, cm: list[float], _tm: object) -> None:
        if op == b"Do":
            form_x[0] = cm[4]

    def visit(t: str, cm: list[float], tm: list[float], _font: object, _size: object) -> None:
        if t.strip():
            found.append((form_x[0] + cm[4] + tm[4], t.strip()))

    page.extract_text(visitor_operand_before=before, visitor_text=visit)  # type: ignore[attr-defined]
    return found


def test_a_players_reading_says_nothing_of_how_the_kit_was_made() -> None:
    """Issue 14: "A player's reading: no word of how the kit was made": no seed, scan, OCR,
    RULES-NOTES, software or data file in the booklet (its edition line in the footer apart)."""
    body = text()
    for word in (r"\bseed", r"\bscann", r"\bOCR\b", r"RULES-NOTES", r"\bsoftware\b", r"\bdata files?\b"):
        assert not re.search(word, body, re.IGNORECASE), word


@cache
def typeset_at(size_name: str) -> Typeset:
    """The booklet set on A4, A5, Letter or half-letter pages, as build_booklet sets it."""
    scenario = load_scenario(BUNDLED)
    built, _ = hex_map(scenario)
    assert built is not None
    style = booklet_style()
    paper, half = {
        "a4": ("a4", False),
        "a5": ("a4", True),
        "letter": ("letter", False),
        "half-letter": ("letter", True),
    }[size_name]
    size = (HALF if half else PAPER)[paper]
    blocks, built_tables = booklet_text(scenario), tables(scenario, place_hexes(scenario, built))
    if half:
        return typeset(scenario, blocks, built_tables, size, style, scale=style.half_scale, columns=style.half_columns)
    return typeset(scenario, blocks, built_tables, size, style)


SIZES = ["a4", "a5", "letter", "half-letter"]


@pytest.mark.parametrize("size", SIZES)
def test_no_word_is_broken_inside_a_table_cell(size: str) -> None:
    """Issue 14: "Table words break mid-word in the small booklets ... no word broken inside a
    table cell": every word of every cell is narrower than its column (or the columns it spans)
    less the cell's padding, at the size the table is set, so no line break falls inside it."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from kitgen.render.fonts import SANS, SANS_BOLD, register_fonts

    register_fonts()
    set_tables = dict(typeset_at(size).tables)
    assert {"movement", "vp", "commanders", "setup", "towns", "losses"} <= set(set_tables)
    for name, t in set_tables.items():
        for r, row in enumerate(t.rows):
            filled = [c for c, v in enumerate(row) if v]
            for c in filled:
                later = [x for x in filled if x > c]
                spans_to = (later[0] if later else len(row)) if not any(row[c + 1 :]) else c + 1
                room = sum(t.widths[c:spans_to]) - 2 * t.pad
                font = SANS_BOLD if r == 0 or (filled == [0] and len(row) > 2) else SANS  # headings are bold
                for word in row[c].split():
                    assert stringWidth(word, font, t.size) <= room + 0.01, (size, name, word, room)


@pytest.mark.parametrize("size", SIZES)
def test_no_page_of_the_booklet_is_under_40_percent_full_but_a_parts_last(size: str) -> None:
    """Issue 14: "Pages are wasted: A4 pp.10, 14 and 17 are 60-95% blank ... no page of the
    booklet under 40% full except a part's last"; the cover is drawn, not set."""
    t = typeset_at(size)
    assert len(t.fill) == len(PdfReader(io.BytesIO(t.pdf)).pages)
    thin = [p for p, f in enumerate(t.fill, start=1) if f < 0.4 and p not in t.part_ends]
    assert not thin, (size, [(p, round(t.fill[p - 1], 2)) for p in thin])
    assert t.part_ends <= {1, len(t.fill), *[p for _, p in t.outline]}  # a part's last page is before a part begins


def _runs(pdf: bytes) -> list[tuple[int, float, float, str, str, float]]:
    """(page, x, y, text, font, size) of each piece of text in the PDF."""
    found: list[tuple[int, float, float, str, str, float]] = []
    for n, page in enumerate(PdfReader(io.BytesIO(pdf)).pages, start=1):

        def visit(t: str, cm: list[float], tm: list[float], font: object, size: float, n: int = n) -> None:
            if t.strip():
                name = str(font.get("/BaseFont", "")) if isinstance(font, dict) else ""  # type: ignore[union-attr]
                found.append((n, cm[4] + tm[4] * cm[0], cm[5] + tm[5] * cm[3], t.strip(), name, size * tm[0] * cm[0]))

        page.extract_text(visitor_text=visit)  # type: ignore[arg-type]
    return found


@pytest.mark.parametrize("size", ["a4", "a5"])
def test_the_running_heads_and_folios_are_mirrored(size: str) -> None:
    """Issue 14: "Running heads are not mirrored": a left-hand (even) page has its folio at the
    outer left foot and the title at its head; a right-hand page its folio at the outer right."""
    t = typeset_at(size)
    width = float(PdfReader(io.BytesIO(t.pdf)).pages[0].mediabox.width)
    runs = _runs(t.pdf)
    pages = len(t.fill)
    for p in range(3, pages + 1):
        folio = [x for page, x, y, text, _, _ in runs if page == p and text == str(p) and y < 40]
        assert folio, (size, p)
        assert (folio[0] < width / 2) == (p % 2 == 0), (size, p, folio)


def test_the_contents_take_one_page_and_list_every_part() -> None:
    """Issue 14: "The contents take two pages for a 19-page book ... a one-page contents"."""
    t = typeset_at("a5")
    reader = PdfReader(io.BytesIO(t.pdf))
    contents = reader.pages[1].extract_text()
    assert contents.startswith(("Contents", "Denikin")) and "Contents" in contents
    for title, _ in t.outline:
        assert re.sub(r"\s+", " ", title) in re.sub(r"\s+", " ", contents), title
    assert all("Contents" not in page.extract_text() for page in reader.pages[2:])


def test_heading_levels_rulings_and_notes_are_set_apart() -> None:
    """Issue 14: "Heading levels II.A and II.A.1 share one style ... The designer's notes and the
    rulings are both set in italic": a part, a rule and a clause each have their own font or
    size; a ruling is upright, marked; the designer's notes italic on a tint."""
    assert [heading_level(x) for x in ("A.1 Major rivers", "II.A Random events", "Dice", "II.A.1 The event roll")] == [
        1,
        1,
        1,
        2,
    ]
    t = typeset_at("a4")
    runs = _runs(t.pdf)

    def look(text: str) -> tuple[str, float]:
        found = [(font, round(size, 2)) for *_, s, font, size in runs if s.startswith(text)]
        assert found, text
        return found[0]

    part, rule, clause = look("II. Campaign rules"), look("II.A Random events"), look("II.A.1 The event roll")
    assert len({part, rule, clause}) == 3
    ruling = look("Ruling, Pontoons:")
    assert "Oblique" not in ruling[0] and "Bold" in ruling[0]
    notes = look("This set of rules has been developed")
    assert "Oblique" in notes[0]
    tint = booklet_style().colours.notes
    rgb = " ".join(f"{int(tint[i : i + 2], 16) / 255:.6f}".rstrip("0") for i in (1, 3, 5))
    page = next(p for p, *_, s, _f, _z in runs if s.startswith("This set of rules"))
    data = PdfReader(io.BytesIO(t.pdf)).pages[page - 1].get_contents().get_data().decode("latin-1")  # type: ignore[union-attr]
    assert f"{rgb} rg" in data.replace(" .", " 0.").replace("\n.", "\n0."), rgb


def test_the_small_booklet_scales_every_element_numerals_included() -> None:
    """Issue 14: "A5 list numerals print larger than the 7.8 pt body": the numbers of a list
    are set at the body size of the booklet they are in."""
    style = booklet_style()
    for size, k in (("a4", 1.0), ("a5", style.half_scale)):
        runs = _runs(typeset_at(size).pdf)
        numerals = [z for _, _, _, s, _, z in runs if re.fullmatch(r"\d\.", s)]
        assert numerals and all(z == pytest.approx(style.fonts.body * k, abs=0.01) for z in numerals), (size, numerals)


def test_A1_the_worked_example_of_a_stop_is_the_engines_and_the_seeds_numbers() -> None:
    """A table ("Cavalry 4 [MP] Open 1 Forest 2 ... Crossable River +1", read from the seed) and
    the ruling of 2026-12-02 (a unit "stops in the last hex it can pay for"): the booklet's
    example is the engine's verdict on that path, in the seed's numbers."""
    mp, open_, forest, *_, river = seed_text.movement_table()["Cavalry"]
    spent = int(open_) + int(forest) + int(river.lstrip("+"))
    body = running_text()
    example = (
        f"It pays {open_} MP for the open hex (open {open_}) and {int(forest) + int(river.lstrip('+'))} MP for the "
        f"forest hex across the river (forest {forest} {river} crossable river): {spent} MP, {int(mp) - spent} left. "
        f"For the second forest hex it would need {forest} MP more, and it has {int(mp) - spent} of its {mp} left: "
        "it stops in the forest hex across the river, and the rest of its path is dropped."
    )
    assert " ".join(example.split()) in body


SEED_HEADINGS = ["MP", "Open", "Forest", "Mountain", "Marsh", "Crossable River"]


@pytest.mark.parametrize("size", SIZES)
def test_issue25_the_movement_table_reads_back_whole_in_its_columns(size: str) -> None:
    """Issue 25: "The movement table is corrupted in the booklets ... 'MP' wraps to 'M/P' and
    'Marsh' to 'Mars/h'": read back from the page as drawn (PyMuPDF's words), the table's
    heading row holds each of the seed's headings whole (or its printed short form), in order,
    on one line; and each unit's row holds the seed's values whole, each under its heading."""
    import pymupdf

    t = typeset_at(size)
    fitted = dict(t.tables)["movement"]
    short = {v: k for k, v in booklet_style().abbreviations.items()}
    with pymupdf.open(stream=t.pdf, filetype="pdf") as doc:
        page = next(p for p in doc if "Unit type" in p.get_text() and "Infantry" in p.get_text())
        words = page.get_text("words")  # (x0, y0, x1, y1, word, block, line, n)
    head = next(w for w in words if w[4] == "Unit")
    top = head[1]
    first_row = min(w[1] for w in words if w[4] == "Infantry" and w[1] > top)
    lefts = _column_lefts(fitted.widths, head[0] - fitted.pad)
    heading: dict[int, list[tuple[float, float, str]]] = {}
    for x0, y0, x1, _, word, *_ in words:
        if top - 1.0 <= y0 < first_row - 1.0 and x0 > head[0] + 1.0:
            column = max(c for c, left in enumerate(lefts) if x0 >= left - 0.5)
            assert x1 <= lefts[column] + fitted.widths[column] + 0.5, (size, word)  # whole, in its column
            heading.setdefault(column, []).append((y0, x0, word))
    printed = [" ".join(w for *_, w in sorted(heading[c])) for c in sorted(heading)]
    assert printed[0] == "type" and printed[1:] == fitted.rows[0][1:], (size, printed)
    for seen, want in zip(fitted.rows[0][1:], SEED_HEADINGS, strict=True):
        assert short.get(seen, seen).lower() == want.lower(), (size, seen, want)
    for seed_unit, values in seed_text.movement_table().items():
        unit = SPELLED.get(seed_unit, seed_unit)
        name = unit.split()[0]
        row = [w for w in words if w[4] == name and w[1] > top]
        assert row, (size, unit)
        line = sorted((w for w in words if abs(w[1] - row[0][1]) < 1.0), key=lambda w: w[0])
        cells = [w for w in line if w[0] >= lefts[1] - 0.5]
        if unit == "RR Trains":
            assert cells[0][4] == values[0] and cells[0][0] < lefts[2], (size, cells)
            continue
        assert [w[4] for w in cells] == values, (size, unit, [w[4] for w in cells])
        for w, left, right in zip(cells, lefts[1:], lefts[2:] + [lefts[-1] + fitted.widths[-1]], strict=True):
            assert left - 0.5 <= w[0] and w[2] <= right + 0.5, (size, unit, w[4], left, right)


def _column_lefts(widths: list[float], x0: float) -> list[float]:
    lefts, x = [], x0
    for width in widths:
        lefts.append(x)
        x += width
    return lefts


@pytest.mark.parametrize("size", SIZES)
def test_issue25_every_booklet_page_passes_the_gate_at_the_print_minimums(size: str) -> None:
    """Issue 25: "The A5 and half-letter booklets keep the minimums (one column on A5 if two will
    not go)": text 8 pt and tables 7 pt as set (the booklet's styles at its scale, every table's
    fitted size), and every page passes the layout gate (no type under 7 pt, nothing over
    anything, nothing off the page, no word broken, every font embedded, qpdf clean)."""
    from tests.layoutgate import assert_passes

    style = booklet_style()
    k = style.half_scale if size in ("a5", "half-letter") else 1.0
    f = style.fonts
    assert min(f.body, f.running, f.clause, f.rule) * k >= 8.0 - 1e-9, (size, k)
    t = typeset_at(size)
    assert min(fitted.size for _, fitted in t.tables) >= 7.0 - 1e-9
    assert_passes(t.pdf, name=f"the {size} booklet")


def test_issue25_the_booklet_names_a_town_as_the_map_prints_it() -> None:
    """Issue 25, item 3: "The booklet's VP table prints the rules' Soviet names (Kirovograd,
    Donetsk ...). The map, cards and packets print the 1919 names": wherever the booklet's text
    names a town whose 1919 name differs, the 1919 name is printed with it (as "Elisavetgrad
    (Kirovograd)" in the VP table, or the 1919 name alone with its hex in the set-up); only the
    index of towns and a unit's own name keep the rules' name by itself."""
    scenario = load_scenario(BUNDLED)
    body = text()
    units = [u.name for u in scenario.setup.units] + [
        u.name for r in scenario.cards.makhnovist_strength for u in r.units
    ]
    start = body.index("Index of towns Every town")  # the index's own part, not its running heads
    index, rest = body[start:], body[:start]
    for unit in units:
        rest = rest.replace(unit, "")
    renamed = [t for t in scenario.towns if t.shown_name != t.name]
    assert renamed
    for town in renamed:
        assert f"{town.shown_name} ({town.name})" in rest, town.name  # the VP table
        alone = re.sub(rf"{re.escape(town.shown_name)} \({re.escape(town.name)}\)", "", rest)
        assert not re.search(rf"\b{re.escape(town.name)}\b", alone), town.name
        assert town.name in index and town.shown_name in index, town.name


@pytest.mark.parametrize("size", ["a4", "a5"])
def test_issue25_the_booklet_is_set_with_curly_quotes_and_en_dashes(size: str) -> None:
    """Issue 25, item 2: "Typographic quotes, en dashes for ranges": no straight quote and no
    hyphen between two figures anywhere in the booklet (1-4 is 1\u20134, 1919-1920 is 1919\u20131920),
    and its apostrophes are curly (Denikin\u2019s)."""
    which = 0 if size == "a4" else 1  # the A4 rules, or the A5 booklet imposed on A4
    reader = PdfReader(io.BytesIO(parts("a4")[which].pdf))
    body = re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))
    assert "'" not in body and '"' not in body
    assert not re.search(r"\d-\d", re.sub(r"\d{4}-\d\d-\d\d", "", body))  # a date is no range
    assert "1919\u20131920" in body and "Designer\u2019s notes" in body


def test_contact_read_exactly_the_booklet_says_it_in_the_rulings_words() -> None:
    """Issue 43: "the booklet's contact paragraph ... say[s] it in the same words as RULES-NOTES"
    (rulings of 2026-12-05, "Contact, read exactly" and "Trains on one line")."""
    body = running_text()
    for words in (
        "Movement is simultaneous: for a move, a hex holds enemy units if enemy units are in it when movement ends",
        "A unit whose path passes through a hex its enemies leave that turn, by a hexside the two moves do not "
        "share, goes on, and nobody fights there.",
        "Where a stop makes a new end hex, apply the rule again until nothing changes.",
        "Two enemy units ending in one hex are in contact.",
        "two enemy trains whose moves would cross on the same track meet as units do on a hexside",
    ):
        assert words in body, words


def test_the_cover_shows_its_own_scenarios_map_though_an_id_is_reused() -> None:
    """The cover's map is kept for the passes of one booklet by the scenario's id. Once a
    scenario is gone its id may be another's (a test run once printed a booklet whose cover
    differed from the same booklet's rerun): what another scenario left under that id is
    never drawn."""
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.render import bookletset

    scenario = load_scenario(BUNDLED)
    other = load_scenario("tsaritsyn-1919")

    class Stale:
        def draw(self, c: object) -> None:
            raise AssertionError("another scenario's map drawn on this cover")

    bookletset._cover_art[id(scenario)] = (other, Stale())  # type: ignore[assignment]  # as a gone scenario leaves it
    bookletset._cover_map(Canvas(io.BytesIO()), scenario, 0, 0, 200, 150)
    kept, art = bookletset._cover_art[id(scenario)]
    assert kept is scenario and art is not None and not isinstance(art, Stale)
