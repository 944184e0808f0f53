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
from kitgen.products.booklet import TEMPLATE, all_rulings, booklet_text, build_booklet, impose_saddle, ruling_title
from kitgen.render.bookletstyle import LAYOUT, booklet_style
from kitgen.render.pages import HALF, PAPER, Part
from tests import seed_text
from tests.conftest import BUNDLED


@cache
def parts(paper: str) -> tuple[Part, ...]:
    scenario = load_scenario(BUNDLED)
    built, _ = hex_map(scenario)
    assert built is not None
    return tuple(build_booklet(scenario, place_hexes(scenario, built), paper))


@cache
def text(paper: str = "a4") -> str:
    """The single-page booklet's text, whitespace squeezed to single spaces."""
    reader = PdfReader(io.BytesIO(parts(paper)[0].pdf))
    return re.sub(r"\s+", " ", " ".join(page.extract_text() for page in reader.pages))


def test_every_town_of_the_seed_is_in_the_booklet_with_its_vp_and_hex() -> None:
    """Issue 5: "every town ... of the seed appears in the booklet's text"; E.2's VP table rows
    read as the seed prints them (Red, White, Ukrn, '-' for none), and the index gives the hex."""
    scenario = load_scenario(BUNDLED)
    built, _ = hex_map(scenario)
    assert built is not None
    hexes = {t: h.id for h in built.hexes for t in h.towns}
    body = text()
    for seed_name, red, white, ukrn in seed_text.vp_table():
        town = scenario.find_town(seed_name)
        assert town is not None, seed_name
        assert f"{town.name} {red} {white} {ukrn}" in body, seed_name
        assert f"{town.name} {hexes[town.name]}" in body, seed_name  # the index of towns
        if town.name != seed_name:
            assert seed_name in body  # the scanned spelling, in the index


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
    printed = {"Armored Cars": "Armored Cars", "RR Trains": "RR Trains"}
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
    II.D.4 3 batteries, A.4 2D6 on 2 or 3, A.5 D6 on 1."""
    body = text()
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
        "Armored car 3",
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
    body = text()
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
    layout.write_text(LAYOUT.read_text(encoding="utf-8").replace("half_scale: 0.82", "half_scale: 1.5"))
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
    from reportlab.pdfgen import canvas

    out = io.BytesIO()
    c = canvas.Canvas(out, pagesize=HALF["a4"], invariant=1)
    for n in range(1, 7):  # 6 pages: padded to 8
        c.setFont("Helvetica", 40)
        c.drawString(100, 300, f"P{n}")
        c.showPage()
    c.save()
    imposed, sheets = impose_saddle(out.getvalue(), PAPER["a4"])
    assert sheets == 2
    order = []
    for page in PdfReader(io.BytesIO(imposed)).pages:  # each side's pages, left to right
        order.append([t for _, t in sorted(_placed_text(page))])
    assert order == [["P1"], ["P2"], ["P6", "P3"], ["P4", "P5"]]  # pages 7 and 8 are the blanks


def test_reruns_are_byte_identical_and_fonts_embedded(tmp_path: Path) -> None:
    """Issue 5: "The same inputs give byte-identical PDFs on a rerun"; no unembedded fonts."""
    scenario = load_scenario(BUNDLED)
    built, _ = hex_map(scenario)
    assert built is not None
    again = build_booklet(scenario, place_hexes(scenario, built), "a4")
    assert [p.pdf for p in again] == [p.pdf for p in parts("a4")]
    reader = PdfReader(io.BytesIO(parts("a4")[0].pdf))
    assert reader.metadata is not None and reader.metadata.title == "Denikin's War: rules"
    assert [o.title for o in reader.outline[:2]] == ["Designer's notes", "The turn"]  # type: ignore[union-attr]
    pdf = tmp_path / "rules.pdf"
    pdf.write_bytes(parts("a4")[0].pdf)
    try:
        listing = subprocess.run(["pdffonts", str(pdf)], capture_output=True, check=True).stdout
    except FileNotFoundError:
        pytest.skip("pdffonts (poppler-utils) is not installed")
    rows = listing.decode().splitlines()[2:]
    assert rows and all(" yes " in row for row in rows), rows


def _placed_text(page: object) -> list[tuple[float, str]]:
    """(x, text) of each piece of text on a page."""
    found: list[tuple[float, str]] = []

    def visit(t: str, cm: list[float], tm: list[float], _font: object, _size: object) -> None:
        if t.strip():
            found.append((cm[4] + tm[4], t.strip()))

    page.extract_text(visitor_text=visit)  # type: ignore[attr-defined]
    return found
