"""The printed charts and forms: one player aid per faction and the blank forms.

The numbers each aid must carry are stated here from the seed (campaign-rules.txt, read by
tests/seed_text.py or quoted below), not from data/, so a chart that prints a wrong or missing
value fails. Text is read back with pypdf's layout extraction; fonts with poppler's pdffonts.
"""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pypdf
import pytest

from kitgen.errors import KitgenError
from kitgen.model.scenario import Scenario, name_key
from kitgen.products.forms import FORMS, build_forms
from kitgen.products.playeraids import build_charts
from kitgen.render.formstyle import form_style
from kitgen.render.pages import Part
from tests import pdftext, seed_text
from tests.conftest import SET_AS_TYPED, SPELLED

MM = 72 / 25.4
SIZES = {"a4": (210 * MM, 297 * MM), "letter": (612.0, 792.0)}  # 595.28 x 841.89, 612 x 792
PAPERS = tuple(SIZES)

# C.1: "Each train can carry 12 points ... Each infantry stand = 1 Pt; each cavalry stand = 3 pts;
# each artillery stand = 4 pts, each RR repair stand = 3 pts; each armored car/tank = 3 pts; each
# pontoon unit = 5 pts each; each supply depot = 10 pts."
TRAIN_POINTS = 12
LOAD_POINTS = {
    "Infantry": 1,
    "Cavalry": 3,
    "Artillery": 4,
    "RR repair": 3,
    "Armoured car": 3,  # the seed's "armored car", in the kit's one spelling (issue 25)
    "Tank": 3,
    "Pontoon unit": 5,
    "Supply depot": 10,
}
# D.1 "Ships can move 16 hexes per turn"; D.3 "a ship can carry 16 Points".
SHIP_HEXES, SHIP_POINTS = 16, 16
# E.3-E.5: the VP totals at which each faction rolls on its chart.
THRESHOLDS = {"reds": 30, "whites": 45, "ukrainians": 40}
# E.3: "the Reds get to roll 3 D6 worth of extra VPs every 3rd Strategic turn".
RED_BONUS = "every 3rd turn the Reds also add 3D6 VP"
# E.6 Modifiers: "-1 if they do not hold Gulai Pole", "-2 if Makhno is dead".
MAKHNOVIST_MODIFIERS = ("-1 if they do not hold Gulai Pole", "-2 if Makhno is dead")
# B.8 AMMO ALLOTMENTS: "Rifle Stands: 16 Shots, MG Stands 12 Bursts; Arty Stands 12 Shells".
AMMO = ("infantry 16 shots", "machine-gun 12 bursts", "artillery 12 shells")
# B.3: "no more than 5 hexes long"; II.C.1: "1-4 if adjacent ... 1-3 if further away".
TRACE, LEADERLESS = 5, ("1-4 if one is adjacent", "1-3 if not")
FACTIONS = ("reds", "whites", "ukrainians", "makhnovists")


def flat(text: str) -> str:
    """Whitespace collapsed, the typographic dashes and minus read as '-' and curly quotes as straight."""
    return " ".join(text.replace("\u2212", "-").translate(SET_AS_TYPED).split())


def page_texts(part: Part) -> list[str]:
    return [flat(text) for text in pdftext.page_texts(part.pdf, layout=True)]


@pytest.fixture(scope="module")
def charts(scenario: Scenario) -> dict[str, Part]:
    parts = {paper: build_charts(scenario, paper) for paper in PAPERS}
    assert all(len(p) == 1 for p in parts.values())
    return {paper: p[0] for paper, p in parts.items()}


@pytest.fixture(scope="module")
def forms(scenario: Scenario) -> dict[str, Part]:
    parts = {paper: build_forms(scenario, paper) for paper in PAPERS}
    assert all(len(p) == 1 for p in parts.values())
    return {paper: p[0] for paper, p in parts.items()}


@pytest.fixture(scope="module")
def aids(charts: dict[str, Part]) -> dict[str, dict[str, str]]:
    """paper -> faction id -> the text of its aid, found through the part's bookmarks."""
    out = {}
    for paper, part in charts.items():
        texts = page_texts(part)
        pages = dict(part.bookmarks)
        out[paper] = {
            f: " ".join(texts[pages[f"Player aid: {f.capitalize()}"] :][:2]).translate(SET_AS_TYPED) for f in FACTIONS
        }  # both sides, the typography undone to find the data's words
    return out


def column_text(part: Part, page: int, x0: float, x1: float) -> str:
    """The text of one page whose lines start between x0 and x1 (fractions of the page width), read
    top to bottom: one column of a two-column section, without the other column's lines between."""
    reader = pypdf.PdfReader(io.BytesIO(part.pdf))
    width = float(reader.pages[page].mediabox.width)
    runs: list[tuple[float, float, str]] = []

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        x = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]
        y = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
        if text.strip() and x0 * width <= x < x1 * width:
            runs.append((-round(y, 1), x, text))

    reader.pages[page].extract_text(visitor_text=visit)
    return flat(" ".join(text for _, _, text in sorted(runs)))


def phrase(words: str) -> str:
    """A regex for the words in order, across line breaks where a table's left column may put a
    short token (a roll, a number) between two of them."""
    return r"\s+(?:\S{1,8}\s+)?".join(re.escape(w) for w in words.split())


# --- the files ---------------------------------------------------------------------


@pytest.mark.parametrize("paper", PAPERS)
def test_files_pages_and_sizes(charts: dict[str, Part], forms: dict[str, Part], paper: str) -> None:
    aid, form = charts[paper], forms[paper]
    assert aid.file == f"player-aids-{paper}.pdf"
    assert form.file == f"forms-{paper}.pdf"
    assert aid.pages == 8 and aid.duplex, "a two-sided card per faction"
    assert form.pages == 8  # the six forms, the paper order form and the scanner check (issue 27)
    for part in (aid, form):
        reader = pypdf.PdfReader(io.BytesIO(part.pdf))
        assert len(reader.pages) == part.pages
        for k, page in enumerate(reader.pages):
            w, h = float(page.mediabox.width), float(page.mediabox.height)
            wide = part is form and k in (2, 3)  # the order form's two sides are landscape
            assert (w, h) == pytest.approx(SIZES[paper][::-1] if wide else SIZES[paper], abs=0.01)


def test_builds_are_byte_identical(scenario: Scenario, charts: dict[str, Part], forms: dict[str, Part]) -> None:
    assert build_charts(scenario, "a4")[0].pdf == charts["a4"].pdf
    assert build_forms(scenario, "letter")[0].pdf == forms["letter"].pdf


@pytest.mark.skipif(shutil.which("pdffonts") is None, reason="poppler-utils is needed for pdffonts")
def test_only_embedded_fonts(charts: dict[str, Part], forms: dict[str, Part], tmp_path: Path) -> None:
    for part in (*charts.values(), *forms.values()):
        path = tmp_path / part.file
        path.write_bytes(part.pdf)
        out = subprocess.run(["pdffonts", str(path)], capture_output=True, text=True, check=True).stdout
        rows = out.splitlines()[2:]
        assert rows, f"{part.file}: no fonts listed"
        for row in rows:
            name, emb = row.split()[0], row.split()[-5]
            assert emb == "yes", f"{part.file}: {name} not embedded"
            assert "BitstreamVera" in name, f"{part.file}: unexpected font {name}"


def test_bookmarks_point_at_their_pages(charts: dict[str, Part], forms: dict[str, Part]) -> None:
    for part in charts.values():
        texts = page_texts(part)
        assert [t for t, _ in part.bookmarks] == [f"Player aid: {f.capitalize()}" for f in FACTIONS]
        for (title, page), faction in zip(part.bookmarks, FACTIONS, strict=True):
            assert texts[page].startswith(f"{faction.capitalize()} Player aid"), title
    for part in forms.values():
        texts = page_texts(part)
        titles = [
            "VP record track",
            "VP ledger",
            "Order form",
            "Command rolls",
            "Battle setup sheet",
            "Umpire's turn record",
            "Paper order form",
            "Scanner check",
        ]
        assert [t for t, _ in part.bookmarks] == titles
        for title, page in part.bookmarks:
            assert texts[page].startswith(title)
    # the PDF's own outline says the same
    for part in (*charts.values(), *forms.values()):
        reader = pypdf.PdfReader(io.BytesIO(part.pdf))
        outline = [(item.title, reader.get_destination_page_number(item)) for item in reader.outline]
        assert outline == list(part.bookmarks)


# --- the player aids ---------------------------------------------------------------


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("faction", FACTIONS)
def test_A_movement_table_on_every_aid(aids: dict[str, dict[str, str]], paper: str, faction: str) -> None:
    """A: 'Unit Type MP Open Forest Mountain Marsh Crossable River', row by row as the seed prints it."""
    text = aids[paper][faction]
    table = seed_text.movement_table()
    for seed_unit, values in table.items():
        unit = SPELLED.get(seed_unit, seed_unit)
        if values[1].startswith("must be on RR track"):
            assert re.search(rf"{unit} {values[0]} on rail track only", text), unit
        else:
            assert f"{unit} {' '.join(values)}" in text, unit
    assert "Cavalry 4 " in text  # cavalry: 4 MP
    assert "p* prohibited unless a road or rail line runs through the hex" in text
    assert "Tachankas as Cavalry" in text  # II.D.3


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("faction", FACTIONS)
def test_C_D_train_and_ship_points_on_every_aid(aids: dict[str, dict[str, str]], paper: str, faction: str) -> None:
    text = aids[paper][faction]
    assert f"Train: carries {TRAIN_POINTS} points" in text
    assert f"Ship: {SHIP_HEXES} hexes a turn, carries {SHIP_POINTS} points" in text
    for load, points in LOAD_POINTS.items():
        assert re.search(rf"(?<![\w-]){load} {points}\b", text), load


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("faction", FACTIONS)
def test_B_supply_and_II_C_command_on_every_aid(charts: dict[str, Part], paper: str, faction: str) -> None:
    page = 2 * FACTIONS.index(faction)  # side 1: supply; side 2: command control
    left = column_text(charts[paper], page, 0, 0.33)  # the left column
    assert f"at most {TRACE} hexes free of enemy units" in left
    for load in AMMO:
        assert load in left
    left = column_text(charts[paper], page + 1, 0, 0.33)
    assert "D10 for each commander" in left
    for rule in LEADERLESS:
        assert rule in left


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("faction", FACTIONS)
def test_II_C_every_commander_on_his_factions_aid(aids: dict[str, dict[str, str]], paper: str, faction: str) -> None:
    """The seed's commander table, with RULES-NOTES' spellings: rank, name, dependability, C."""
    text = aids[paper][faction]
    rows = [r for r in seed_text.commander_table() if r[0] == faction]
    assert rows
    for rank, (_, seed_name, dependability, charismatic) in enumerate(rows, start=1):
        name = seed_text.COMMANDER_SPELLING.get(seed_name, seed_name)
        mark = r" C\b" if charismatic else r"(?! C\b(?! =))"  # not the note 'C = charismatic' after it
        assert re.search(rf"\b{rank} {re.escape(name)} {dependability}{mark}", text), name


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("faction", ["reds", "whites", "ukrainians"])
def test_II_E_reinforcement_chart_and_threshold(aids: dict[str, dict[str, str]], paper: str, faction: str) -> None:
    """II.E.2 'Roll a D6': the draws for faces 1-6, and E.3-E.5's threshold."""
    text = aids[paper][faction]
    draws = seed_text.reinforcement_chart()[faction]
    assert "D6 roll 1 2 3 4 5 6" in text
    assert re.search(r"your pile " + " ".join(str(d) for d in draws) + r"\b", text)
    threshold = THRESHOLDS[faction]
    assert f"{threshold} VP" in text
    assert f"reaches {threshold}: subtract {threshold}" in text
    assert (RED_BONUS in text) == (faction == "reds")
    assert "Current strength chart".upper() not in text


@pytest.mark.parametrize("paper", PAPERS)
def test_E6_makhnovist_strength_chart(
    scenario: Scenario, charts: dict[str, Part], aids: dict[str, dict[str, str]], paper: str
) -> None:
    """E.6: the Makhnovists print their Current Strength Chart and partisan rules, no reinforcement chart."""
    text = aids[paper]["makhnovists"]
    assert "CURRENT STRENGTH CHART" in text
    assert "REINFORCEMENT CHART" not in text
    for modifier in MAKHNOVIST_MODIFIERS:
        assert modifier in text
    rolls = ["-2 to -1", "0 to 1", "2", "3", "4", "5", "6"]  # the rows the scenario's chart writes
    assert [r.low for r in scenario.cards.makhnovist_strength][:2] == [-2, 0]
    chart = text.split("CURRENT STRENGTH CHART")[1]
    rows = scenario.cards.makhnovist_strength
    starts = []
    for row in rows:
        found = re.search(phrase(row.text), chart)
        assert found, row.text
        starts.append(found.start())
        for unit in row.units:
            assert re.search(phrase(unit.name), chart[found.start() :]), unit.name
    assert starts == sorted(starts)
    for k, roll in enumerate(rolls):
        # a row's roll stands just before its text, or beside one of its later lines
        region = chart[max(0, starts[k] - 12) : starts[k + 1] if k + 1 < len(starts) else len(chart)]
        assert re.search(rf"(?<![\w-]){re.escape(roll)} ", region), roll
    # II.D, in the right-hand column: evade and ambush, and the gun cap of II.D.4
    right = column_text(charts[paper], 2 * FACTIONS.index("makhnovists") + 1, 0.55, 1)  # side 2
    assert "+2 if Makhno is present, +2 if partisans in forest or mountains, +1 if enemy forces" in right
    assert "6+ succeeds (+1 if Makhno is present)" in right
    assert "never have more than 3 artillery batteries" in right


def test_partisans_on_the_aids_of_factions_with_partisan_units(aids: dict[str, dict[str, str]]) -> None:
    """II.D.1: 'Some of the Reds and all the Makhnovists' fight as partisans."""
    text = aids["a4"]
    assert "PARTISANS" in text["reds"] and "Your partisans:" in text["reds"]
    assert "PARTISANS" in text["makhnovists"]
    assert "PARTISANS" not in text["whites"]


# --- the forms ---------------------------------------------------------------------


@pytest.mark.parametrize("paper", PAPERS)
def test_vp_record_track(forms: dict[str, Part], paper: str) -> None:
    text = page_texts(forms[paper])[0]
    last = form_style().forms.vp_track_max
    for n in range(last + 1):
        assert re.search(rf"(?<![\w-]){n}(?!\d)", text), n
    assert f"past {last} flip the marker to its +{last + 1} side" in text
    assert "Thresholds: Reds 30, Whites 45, Ukrainians 40." in text
    # the turn record: every 3rd turn (E.2) is marked 'VP'
    track = text.split("TURN RECORD")[1].split("Shaded turns")[0]
    turns = form_style().forms.turns
    assert len(re.findall(r"\bVP\b", track)) == turns // 3
    ledger = page_texts(forms[paper])[1]
    assert ledger.startswith("VP ledger")
    every = re.findall(r"(?<!\d)\d+(?!\d)", ledger.split("Rolls")[-1].split("Denikin's War")[0])
    last = form_style().forms.ledger_turns
    assert [int(n) for n in every] == list(range(3, last + 1, 3))  # a row each award turn, and no other


@pytest.mark.parametrize("paper", PAPERS)
def test_E_the_vp_and_turn_tracks_hold_the_marker_sheets_markers(forms: dict[str, Part], paper: str) -> None:
    """Issue 14: "VP track boxes are 7.6 x 7 mm, too small for a counter ... A VP track of
    counter-sized boxes": the track's boxes, read from the page, are squares at least a millimetre
    wider than the marker sheet's markers, one for every VP from 0, and the turn track's boxes
    hold a marker too."""
    from kitgen.render.counterstyle import counter_style

    marker = counter_style().markers.size_mm * MM
    page = pypdf.PdfReader(io.BytesIO(forms[paper].pdf)).pages[0]
    data = page.get_contents().get_data().decode("latin-1")  # type: ignore[union-attr]
    rects = [
        tuple(float(v) for v in m.groups()) for m in re.finditer(r"(-?[\d.]+) (-?[\d.]+) ([\d.]+) ([\d.]+) re", data)
    ]
    squares = [r for r in rects if abs(r[2] - r[3]) < 0.01 and r[2] >= marker + 1 * MM]
    assert len(squares) >= form_style().forms.vp_track_max + 1
    turn_boxes = [r for r in rects if r[2] >= marker + 1 * MM and r[3] >= marker + 1 * MM and r not in squares]
    assert len(turn_boxes) >= form_style().forms.turns


@pytest.mark.parametrize("paper", PAPERS)
def test_order_form(forms: dict[str, Part], paper: str) -> None:
    text = page_texts(forms[paper])[2]
    for column in ("Unit", "From hex", "Path: the hexes entered, in order", "Track", "Notes"):
        assert column in text
    for row in range(1, form_style().forms.order_rows + 1):
        assert re.search(rf"(?<!\d){row} T S L X R", text), row
    back = page_texts(forms[paper])[3]
    assert "COMMAND ROLLS" in back and "D10 roll" in back and "NOTES TO THE UMPIRE" in back


@pytest.mark.parametrize("paper", PAPERS)
def test_the_order_forms_path_holds_a_path_of_twelve_hexes(forms: dict[str, Part], paper: str) -> None:
    """Issue 14: "The order form's path column (58 mm) cannot hold a 12-hex rail path": the path
    column, measured on the page from its heading to the next column's, has a box for each of
    twelve hexes at least 11 mm wide, room for a four-figure hex id written by hand."""
    found: dict[str, float] = {}

    def visit(text: str, cm: Any, tm: Any, font: Any, size: Any) -> None:
        for key in ("Path:", "Train / ship"):
            if text.startswith(key) and key not in found:
                found[key] = tm[4] * cm[0] + tm[5] * cm[2] + cm[4]

    page = pypdf.PdfReader(io.BytesIO(forms[paper].pdf)).pages[2]
    page.extract_text(visitor_text=visit)
    width = found["Train / ship"] - found["Path:"]
    assert form_style().forms.path_hexes == 12
    assert "up to 12" in page_texts(forms[paper])[2]
    assert width >= 12 * 11 * MM, f"{width / MM:.0f} mm"
    data = page.get_contents().get_data().decode("latin-1")  # type: ignore[union-attr]
    lines = re.findall(r"(-?[\d.]+) (-?[\d.]+) m (-?[\d.]+) (-?[\d.]+) l", data)
    inside = {
        round(float(x0), 1)
        for x0, y0, x1, y1 in lines
        if x0 == x1 and found["Path:"] < float(x0) < found["Train / ship"] - 3 and float(y0) != float(y1)
    }
    assert len(inside) == 12, sorted(inside)  # eleven rules and the column's right edge: twelve boxes
    steps = sorted(inside)
    assert min(b - a for a, b in zip(steps, steps[1:], strict=False)) >= 11 * MM


@pytest.mark.parametrize("paper", PAPERS)
def test_battle_setup_sheet(forms: dict[str, Part], paper: str) -> None:
    text = page_texts(forms[paper])[4]
    for word in ("SIDE A", "SIDE B", "Commander", "Charismatic", "NAVAL GUNFIRE", "Winner", "Retreats"):
        assert word.lower() in text.lower()
    assert "shots /16" in text and "bursts /12" in text and "shells /12" in text  # B.8
    assert "winner 40% of stands lost for good, 60% back next turn; loser 55% for good, 45% back" in text  # II.B.3


@pytest.mark.parametrize("paper", PAPERS)
def test_umpires_turn_record(forms: dict[str, Part], paper: str) -> None:
    text = page_texts(forms[paper])[5]
    steps = [
        "Supply judged",
        "Orders written",
        "Command rolls",
        "Random event",
        "Movement",
        "Contacts",
        "Tabletop battles",
        "Post-battle",
        "Track",
        "Every 3rd turn",
    ]
    positions = [text.index(f"{k} {step}") for k, step in enumerate(steps, start=1)]
    assert positions == sorted(positions)
    assert "Armoured Cars (2D6, lost on 2 or 3)" in text and "Tanks (D6, lost on 1)" in text  # A.4, A.5
    assert "card on 6" in text  # II.A.1


def test_a_bad_layout_is_reported_with_its_line(tmp_path: Path) -> None:
    path = tmp_path / "forms.yaml"
    text = (Path(__file__).parents[1] / "layouts" / "forms.yaml").read_text(encoding="utf-8")
    path.write_text(text.replace("order_rows: 18", "order_rows: many"), encoding="utf-8")
    with pytest.raises(KitgenError) as caught:
        form_style(path)
    line = next(k for k, ln in enumerate(text.splitlines(), start=1) if "order_rows:" in ln)
    assert f"forms.yaml:{line}:" in str(caught.value)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_terrain_chart_shows_each_terrain_as_the_map_draws_it(charts: dict[str, Part], paper: str) -> None:
    """Issue 14: "Terrain swatches drawn with the map's own symbols": each aid's terrain chart
    fills a hex in every terrain's map colour (the one map.yaml gives the map)."""
    import re

    from kitgen.render.pages import hex_colour
    from kitgen.render.style import map_style

    fill = re.compile(rb"([0-9.]+) ([0-9.]+) ([0-9.]+) rg")
    terrain = map_style().colours.terrain
    assert terrain
    pages = pypdf.PdfReader(io.BytesIO(charts[paper].pdf)).pages
    for _, front in charts[paper].bookmarks:  # the terrain chart is on side 1 of each aid
        data = pages[front].get_contents().get_data()  # type: ignore[union-attr]
        used = {tuple(round(float(v), 3) for v in m.groups()) for m in fill.finditer(data)}
        for name, colour in terrain.items():
            assert tuple(round(v, 3) for v in hex_colour(colour)) in used, (paper, name)


def test_a_table_line_too_long_for_its_cell_even_shrunk_wraps_its_row(scenario: Scenario) -> None:
    """A table that shrinks its lines to fit: a line still wider than its cell at the smallest
    size wraps and its row grows, as the page-break measure (`row_heights`) expects, instead of
    running over the next column; other rows keep the table's row height."""
    from reportlab.pdfgen.canvas import Canvas

    from kitgen.render.sheet import Column, Sheet

    st = form_style()
    buf = io.BytesIO()
    sheet = Sheet(Canvas(buf, pagesize=SIZES["a4"]), st, scenario, SIZES["a4"], "")
    columns = [Column(1.0), Column(1.0)]
    long = "if it moves on the map: its vehicle 1 breaks down on 2, 3, and its stands are lost"
    rows = [["short", "short"], ["short", long]]
    heights = sheet.row_heights(200, columns, rows, wrap=False)
    assert heights[0] == st.charts.row
    assert heights[1] > st.charts.row
    bottom = sheet.table(0, 500, 200, columns, [], rows)
    assert 500 - bottom == pytest.approx(sum(heights))
    sheet.c.showPage()
    sheet.c.save()
    text = pypdf.PdfReader(io.BytesIO(buf.getvalue())).pages[0].extract_text()
    assert "breaks down" in text and long not in text.replace("\n", "  ")  # on more than one line


@pytest.mark.parametrize("paper", PAPERS)
def test_sequence_of_play_on_the_front_of_every_aid(charts: dict[str, Part], paper: str) -> None:
    """Issue 14: "A sequence of play (the ten steps of RULES-NOTES with their rule numbers) on
    every player aid": RULES-NOTES' turn order, step by step, numbered, with the rule each plays,
    on side 1 of each faction's two-sided card (side 2 on the next page, for duplex)."""
    notes_order = [  # RULES-NOTES: "Turn order of a strategic turn: 1 supply status judged (B.2); ..."
        ("Supply judged", "B.2"),
        ("Orders written", ""),
        ("Command rolls", "II.C"),
        ("Random event", "II.A"),
        ("Movement", ""),
        ("Contacts", "II.D"),
        ("Tabletop battles", ""),
        ("Post-battle", "II.B"),
        ("Track", "C.2"),
        ("Every 3rd turn", "E"),
    ]
    part = charts[paper]
    texts = page_texts(part)
    for title, page in part.bookmarks:
        assert page % 2 == 0, title  # a front is a right-hand page when printed two-sided
        front = texts[page]
        assert "SEQUENCE OF PLAY" in front and "side 2" in texts[page + 1], title
        for half, steps in ((0, notes_order[:5]), (1, notes_order[5:])):  # read down each column
            column = column_text(part, page, half * 0.5, half * 0.5 + 0.5)
            column = column[: column.index("TERRAIN") if "TERRAIN" in column else None]
            where = [column.find(step) for step, _ in steps]
            assert -1 not in where and where == sorted(where), (title, half, where)
            for k, (n, (step, rule)) in enumerate(enumerate(steps, start=1 + 5 * half)):
                row = column[where[k] : where[k + 1] if k + 1 < len(where) else None]  # its number by its title
                assert re.search(rf"\b{n}\b", row), (title, n, step)
                if rule:
                    found = re.search(rf"{re.escape(step)}.{{0,90}}?\b{re.escape(rule)}\b", column)
                    assert found, (title, step, rule)


@pytest.mark.parametrize("paper", PAPERS)
def test_II_C_the_umpires_record_has_a_command_box_for_each_commander(
    scenario: Scenario, forms: dict[str, Part], paper: str
) -> None:
    """II.C.1: "each side must roll for their commanders to see if they do as told"; issue 14:
    "The turn record has 12 command boxes per faction for 26 Red commanders ... One command box
    per commander": each faction's line of command-roll boxes is numbered 1 to its number of
    commanders (II.C.3's ranks), no more and no fewer."""
    text = page_texts(forms[paper])[5]
    block = text[text.index("by every faction") : text.index("Random event")]  # from step 2's label to step 4
    counts = sorted({sum(1 for c in scenario.commanders if c.faction == f) for f in FACTIONS}, reverse=True)
    assert counts[0] >= 26  # the seed's Red commanders table
    numbers = [int(n) for n in re.findall(r"\b\d+\b", block)]
    runs: list[int] = []
    for n in numbers:
        if n == 1:
            runs.append(1)
        elif runs and n == runs[-1] + 1:
            runs[-1] = n
    assert sorted(runs, reverse=True) == counts


@pytest.mark.parametrize("paper", PAPERS)
@pytest.mark.parametrize("faction", FACTIONS)
def test_II_B3_losses_on_every_aid(charts: dict[str, Part], paper: str, faction: str) -> None:
    """II.B.3: "Winner - 40% of losses in tabletop battle permanent 60% return to unit strengths
    next turn ... Loser - 55% of losses in tabletop battle permanent 45% return to unit strengths
    next turn 50% of routed troops desert or captured unless Elite/Fanatic": the figures, read
    from the seed's text, stand in the losses table on side 2 of every aid."""
    seed = {}
    for line in seed_text.lines():
        found = re.match(r"(Winner|Loser) - (\d+)% of losses in tabletop battle permanent (\d+)% return", line)
        if found:
            seed[found[1]] = (found[2], found[3])
    routed = next(re.search(r"(\d+)% of routed troops desert", x) for x in seed_text.lines() if "routed troops" in x)
    assert routed is not None and set(seed) == {"Winner", "Loser"}
    back = page_texts(charts[paper])[2 * FACTIONS.index(faction) + 1]
    table = back[back.index("AFTER A BATTLE") :]
    for side, (lost, back_next) in seed.items():
        assert re.search(rf"{side} {lost}% {back_next}%", table), (side, lost, back_next)
    page = pypdf.PdfReader(io.BytesIO(charts[paper].pdf)).pages[2 * FACTIONS.index(faction) + 1]
    drawn = flat(page.extract_text())  # in the order drawn: a wrapped cell's lines one after another
    assert f"{routed[1]}% desert or are captured unless Elite/Fanatic" in drawn


def _squares(pdf: bytes, page: int) -> list[tuple[float, float, float]]:
    """(x0, top, side) in points, y down, of every stroked, unfilled square drawn on the page
    (1-based) between 1.5 mm and 25 mm a side: the forms' tick and roll boxes."""
    import pymupdf

    found = []
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        for d in doc[page - 1].get_drawings():
            r = d["rect"]
            blank = d.get("fill") in (None, (1.0, 1.0, 1.0))  # a box is filled with the paper's white
            if (
                blank
                and d.get("color") is not None
                and abs(r.width - r.height) < 0.2
                and 1.5 * MM <= r.width <= 25 * MM
            ):
                found.append((r.x0, r.y0, r.width))
    return found


@pytest.mark.parametrize("paper", PAPERS)
def test_issue25_tick_boxes_take_a_pencil_and_roll_boxes_take_two_digits(
    scenario: Scenario, forms: dict[str, Part], paper: str
) -> None:
    """Issue 25, item 9: "Tick boxes are 2.4 mm; the command-roll boxes on the umpire's record are
    4 mm and will not take '10'": every box drawn on the blank forms is at least 4 mm a side, and
    the umpire's record has a box of at least 6 mm for each commander's roll."""
    pdf = forms[paper].pdf
    pages = len(pypdf.PdfReader(io.BytesIO(pdf)).pages)
    for page in range(1, pages + 1):
        small = [round(side / MM, 2) for *_, side in _squares(pdf, page) if side < 4 * MM - 0.05]
        assert not small, (paper, page, small[:5])
    import pymupdf

    record = FORMS.index("Umpire's turn record") + 1
    with pymupdf.open(stream=pdf, filetype="pdf") as doc:
        umpire = doc[record - 1]

        def top(label: str) -> float:
            (found, *_) = umpire.search_for(label)
            return float(found.y0)

        bands = [top(x) for x in ("Command rolls", "Random event", "Movement", "Contacts", "Post-battle", "Track")]
    roll = [(y, side) for _, y, side in _squares(pdf, record) if side >= 6 * MM - 0.05]

    def between(upper: float, lower: float) -> int:
        return sum(1 for y, _ in roll if upper - 6 <= y < lower - 6)

    assert between(bands[0], bands[1]) == len(scenario.commanders), paper  # a box a commander (II.C.1)
    kinds = len(scenario.movement.breakdown)
    assert between(bands[2], bands[3]) == kinds * form_style().forms.roll_boxes, paper  # every one asked for
    assert between(bands[4], bands[5]) == 5, paper  # the equipment rolls of II.B


@pytest.mark.parametrize("paper", PAPERS)
def test_issue25_the_aids_forms_and_setup_chart_pass_the_layout_gate(
    scenario: Scenario, charts: dict[str, Part], forms: dict[str, Part], paper: str
) -> None:
    """Issue 25, item 1: "Player aids are 7.1 pt ...": every page of the player aids, the blank
    forms and the set-up chart passes the layout gate (no type under 7 pt, nothing over
    anything, nothing off the page, no word broken, fonts embedded, qpdf clean), and the aids'
    and forms' running text is set at 8 pt at least."""
    from kitgen.mapping.cache import hex_map
    from kitgen.mapping.places import place_hexes
    from kitgen.products.setupchart import build_setup_chart
    from tests.layoutgate import assert_passes

    assert form_style().fonts.body >= 8.0
    built, _ = hex_map(scenario)
    assert built is not None
    (chart,) = build_setup_chart(scenario, place_hexes(scenario, built), paper)
    for part in (charts[paper], forms[paper], chart):
        assert_passes(part.pdf, name=part.file)


def test_issue25_the_setup_chart_names_a_town_as_the_map_prints_it(scenario: Scenario) -> None:
    """Issue 25, item 3: "one set of names": the set-up chart places units and lists the towns
    held by the 1919 names the map prints (Iuzovka, not the rules' Donetsk)."""
    from kitgen.mapping.cache import hex_map
    from kitgen.mapping.places import place_hexes
    from kitgen.products.setupchart import build_setup_chart

    built, _ = hex_map(scenario)
    assert built is not None
    (chart,) = build_setup_chart(scenario, place_hexes(scenario, built), "a4")
    body = " ".join(page_texts(chart))
    for unit in [u.name for u in scenario.setup.units]:
        body = body.replace(unit, "")  # a unit's own name may hold a town's (Donetsk Insurgent Corps)
    renamed = [t for t in scenario.towns if t.shown_name != t.name]
    placed = {name_key(t.name) for t in renamed} & {name_key(x.at) for x in scenario.setup.units}
    assert placed, "no unit of the set-up starts in a renamed town"
    for town in renamed:
        assert not re.search(rf"\b{re.escape(town.name)}\b", body), town.name
        factions = {f.id for f in scenario.meta.factions}
        held = {name_key(t) for t, owner in scenario.setup.owners.items() if owner in factions}  # not 'none'
        if name_key(town.name) in placed | held:
            assert town.shown_name in body, town.name


def _every_unit_name(scenario: Scenario) -> list[str]:
    """Every name a unit of the kit goes by: the set-up's, the piles', the events', the chart's."""
    names = [u.name for u in scenario.setup.units]
    names += [u.name for slips in scenario.cards.piles.values() for slip in slips for u in slip.units]
    names += [u.name for row in scenario.cards.makhnovist_strength for u in row.units]
    for card in scenario.cards.events:
        names += [u.name for effect in card.effects for u in (effect.units or ())]
    return sorted(set(names), key=len, reverse=True)


@pytest.mark.parametrize("paper", PAPERS)
def test_issue25_the_aids_and_cards_name_towns_as_the_map_prints_them(
    scenario: Scenario, charts: dict[str, Part], paper: str
) -> None:
    """Issue 25, item 3: "Every printed table and text names towns as the map does": on the
    player aids and the cards no town goes by the rules' name alone (Donetsk, Kirovograd) where
    the map prints its 1919 name; a unit's own name may hold one (Donetsk Insurgent Corps)."""
    from kitgen.products.cards import build_cards

    (cards,) = build_cards(scenario, paper)
    for part in (charts[paper], cards):
        body = " ".join(page_texts(part))
        for unit in _every_unit_name(scenario):
            body = body.replace(unit, "")
        for town in (t for t in scenario.towns if t.shown_name != t.name):
            for found in re.finditer(rf"\b{re.escape(town.name)}\b", body):
                beside = body[max(0, found.start() - len(town.shown_name) - 3) : found.start()]
                assert town.shown_name in beside, (part.file, town.name, body[found.start() - 40 : found.end() + 20])
