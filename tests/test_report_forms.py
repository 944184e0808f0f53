"""The umpire's battle report forms and roll sheet (kitgen/reports/, kitgen/products/reportforms.py):
their QR codes and geometry, the layout gate, the umpire's packet that carries them, and the forms
filled on screen (pypdf and PyMuPDF, as two viewers save them) read back by `kitgen orders import`
into the log: the sample's turn 3 battles and rolls, as the log had them."""

from __future__ import annotations

import time
from dataclasses import replace
from pathlib import Path

import pytest
from pypdf import PdfReader

from kitgen.engine.turn import read_log
from kitgen.orders.rows import campaign_key
from kitgen.orders.sheetplan import FormPage
from kitgen.products.reportforms import report_forms_pdf, roll_sheet_pdf
from kitgen.reports.plan import ReportPage, battle_blocks, battle_plans, roll_plans
from kitgen.reports.rollsheet import sheet_key
from tests.conftest import run_cli
from tests.forms import fill_with_pymupdf, fill_with_pypdf
from tests.layoutgate import breaches
from tests.reportfilling import Turn3, as_data, battle_ticks, forms_now, roll_ticks, sheet_of, turn_3


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Turn3:
    """The sample's turn 3, its battles and rolls out of the log: the forms' reference."""
    return turn_3(tmp_path_factory.mktemp("turn3") / "ts", rolls=False)


@pytest.fixture(scope="module")
def printed(made: Turn3, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The turn's report forms and roll sheet as `kitgen turn` writes them beside the packets, A4."""
    out = tmp_path_factory.mktemp("packets")
    done = run_cli("turn", str(made.folder), "--out", str(out))
    assert done.returncode == 0, done.stderr
    return {
        "forms": out / "report-forms-turn-03-a4.pdf",
        "rolls": out / "roll-sheet-turn-03-a4.pdf",
        "umpire": out / "umpire-turn-03-a4.pdf",
    }


def _copy(made: Turn3, tmp: Path) -> Path:
    import shutil

    folder = tmp / "ts"
    shutil.copytree(made.folder, folder)
    return folder


# --- codes and geometry ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["B", "R"])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_report_pages_code_reads_back_and_no_order_forms_reader_takes_it(kind: str, paper: str) -> None:
    page = ReportPage(kind, "4b779f6d30cc", "0bfd299f14d0", 3, 2, 3, paper, "5313" if kind == "B" else "")  # type: ignore[arg-type]
    text = page.code()
    back = ReportPage.parse(text)
    assert back == replace(page, campaign="4b779f6d", key="0bfd299f14")
    assert FormPage.parse(text) is None
    order = FormPage("4b779f6d30cc", "0123456789ab", 3, 0, 1, 1, paper)
    assert ReportPage.parse(order.code()) is None
    assert len(text) <= 38  # QR version 2 in alphanumeric mode at level M: 25 modules, as the order form's


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_report_page_passes_the_layout_gate(made: Turn3, paper: str) -> None:
    """The battle report forms of both contacts (the 7 units at Tsaritsyn, the 4 at Voroponovo) and
    the roll sheet: no type under 7 pt, no text over text, none off its page, fonts embedded."""
    campaign, basis, forms = forms_now(made.folder)
    assert sorted(f.hex for f in forms) == ["5212", "5313"]
    for pdf in (report_forms_pdf(campaign, forms, 3, paper), roll_sheet_pdf(campaign, sheet_of(made.folder), 3, paper)):
        found = breaches(pdf)
        assert not found, "; ".join(map(str, found[:10]))


def test_a_seven_unit_battle_fits_one_a4_page(made: Turn3) -> None:
    campaign, _, forms = forms_now(made.folder)
    tsaritsyn = next(f for f in forms if f.hex == "5313")
    assert len(tsaritsyn.units) == 7
    assert len(battle_blocks(tsaritsyn, campaign.scenario, "a4")) == 1
    assert len(battle_blocks(tsaritsyn, campaign.scenario, "letter")) <= 2


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_bubbles_stand_clear_of_each_other_and_of_every_word_a_scan_looks_at(made: Turn3, paper: str) -> None:
    """A pencil's overrun, or a word printed where the scan looks round a bubble for a ring drawn
    round it (its left half, out to 2.8 mm from its middle), would put a clean bubble in doubt:
    every two bubbles stand a bubble and 1 mm apart, inside the frame, and no word comes that near."""
    from kitgen.render.fonts import SANS, SANS_BOLD, text_width

    campaign, _, forms = forms_now(made.folder)
    key = campaign_key(campaign)
    rolls = sheet_of(made.folder)
    plans = [p for f in forms for p in battle_plans(f, campaign.scenario, paper, key)]
    plans += roll_plans(rolls, campaign.scenario, paper, key, sheet_key(rolls), 3)
    for plan in plans:
        lay = plan.page.layout
        r = lay.bubble / 2
        xy = [(b.x, b.y) for b in plan.page.bubbles]
        for k, (x, y) in enumerate(xy):
            assert plan.page.left <= x - r and x + r <= plan.page.right
            for x2, y2 in xy[k + 1 :]:
                assert ((x - x2) ** 2 + (y - y2) ** 2) ** 0.5 >= lay.bubble + 72 / 25.4
        for w in plan.words:
            if w.kind == "chip":
                continue
            size = 8 if w.kind == "name" else 7
            width = text_width(w.text, SANS_BOLD if w.kind in ("name", "lead") else SANS, size)
            x0 = {"left": w.x, "centre": w.x - width / 2, "right": w.x - width}[w.align]
            box = (x0, w.y - 0.5, x0 + width, w.y + size * 0.72)
            for x, y in xy:
                left = min(box[2], x - 0.5)  # the scan looks round a bubble's left half only
                if left <= box[0]:
                    continue
                dx = max(box[0] - x, 0.0, x - left)
                dy = max(box[1] - y, 0.0, y - box[3])
                assert (dx * dx + dy * dy) ** 0.5 > r + 2.3, (w.text, plan.code.kind, x, y)


def test_the_forms_are_byte_identical_when_made_again(made: Turn3) -> None:
    campaign, _, forms = forms_now(made.folder)
    assert report_forms_pdf(campaign, forms, 3, "a4") == report_forms_pdf(campaign, forms, 3, "a4")
    rolls = sheet_of(made.folder)
    assert roll_sheet_pdf(campaign, rolls, 3, "letter") == roll_sheet_pdf(campaign, rolls, 3, "letter")


# --- where they are printed ----------------------------------------------------------------------


def test_the_umpires_packet_carries_the_roll_sheet_and_a_report_form_after_each_battle_sheet(
    printed: dict[str, Path],
) -> None:
    """The roll sheet in place of the list of rolls; each contact's battle set-up sheet, then its
    report form; their fields kept, to fill on screen."""
    reader = PdfReader(printed["umpire"])
    titles = [item.title for item in reader.outline if not isinstance(item, list)]
    assert not any(t.startswith("Rolls to make") for t in titles)
    assert "Roll sheet, turn 3" in titles
    battles = [t for t in titles if t.startswith(("Battle at ", "Battle in hex ", "Battle report: "))]
    assert [t.startswith("Battle report: ") for t in battles] == [False, True, False, True]
    assert battles[1].startswith("Battle report: Voroponovo (5212)")
    fields = reader.get_fields() or {}
    assert any(name.startswith("kgb-") for name in fields) and any(name.startswith("kgr-") for name in fields)
    assert not any(name.startswith("o-") for name in fields)  # no order form in the umpire's packet
    assert len(PdfReader(printed["forms"]).pages) == 2 and len(PdfReader(printed["rolls"]).pages) == 1


def test_no_contact_no_report_forms(made: Turn3, tmp_path: Path) -> None:
    """Before the orders make contacts there is no battle to report: no report form is printed."""
    from kitgen.campaign import load_campaign
    from kitgen.engine.basis import turn_basis
    from kitgen.products.packets import umpires_forms
    from kitgen.products.packets.builder import Packets

    campaign = load_campaign(made.folder)
    basis = replace(turn_basis(campaign), log=None, source=None)
    files = umpires_forms(Packets(basis, "a4"))
    assert [f.name for f in files] == ["roll-sheet-turn-03-a4.pdf"]


# --- filled on screen, read back ----------------------------------------------------------------


@pytest.mark.parametrize("viewer", ["pypdf", "pymupdf"])
def test_report_forms_filled_on_screen_give_the_battles_fought(
    made: Turn3, printed: dict[str, Path], tmp_path: Path, viewer: str, record_property: pytest.RecordProperty
) -> None:
    """The forms filled as the sample's turn 3 was fought (each viewer's way of saving them),
    imported: the log's battles are the ones taken out, as data."""
    folder = _copy(made, tmp_path)
    _, _, forms = forms_now(folder)
    fill = fill_with_pypdf if viewer == "pypdf" else fill_with_pymupdf
    filled = fill(printed["forms"], battle_ticks(forms, made.battles), tmp_path / "filled.pdf")
    began = time.perf_counter()
    done = run_cli("orders", "import", str(filled), "--campaign", str(folder))
    took = time.perf_counter() - began
    assert done.returncode == 0, done.stderr
    assert "2 battle reports into" in done.stdout and "Tsaritsyn (5313): won by the Whites (added)" in done.stdout
    log, _ = read_log(folder / "turns" / "turn-03.yaml")
    assert as_data(log.battles) == as_data(made.battles)
    record_property("figures", f"orders import of 2 filled report forms ({viewer}): {took:.2f} s")
    assert took < 5  # about 0.5 s here; the bound only catches a fall off a cliff
    written = (folder / "turns" / "turn-03.yaml").read_bytes()
    again = run_cli("orders", "import", str(filled), "--campaign", str(folder))  # its rolls still owed
    assert again.returncode == 0 and "(unchanged)" in again.stdout and "(added)" not in again.stdout
    assert (folder / "turns" / "turn-03.yaml").read_bytes() == written


def test_the_roll_sheet_filled_on_screen_gives_the_rolls(made: Turn3, printed: dict[str, Path], tmp_path: Path) -> None:
    folder = _copy(made, tmp_path)
    rolls = sheet_of(folder)
    filled = fill_with_pypdf(printed["rolls"], roll_ticks(rolls, made.rolls), tmp_path / "rolls.pdf")
    done = run_cli("orders", "import", str(filled), "--campaign", str(folder))
    assert done.returncode == 0, done.stderr
    log, _ = read_log(folder / "turns" / "turn-03.yaml")
    assert {g.purpose: g.value for g in log.dice} == made.rolls
    assert "the roll sheet: 7 rolls into" in done.stdout


def test_the_umpires_packet_filled_on_screen_gives_the_rolls_and_the_battles(
    made: Turn3, printed: dict[str, Path], tmp_path: Path
) -> None:
    """The packet itself, its roll sheet and both report forms filled, imported at once."""
    folder = _copy(made, tmp_path)
    _, _, forms = forms_now(folder)
    values = {**battle_ticks(forms, made.battles), **roll_ticks(sheet_of(folder), made.rolls)}
    filled = fill_with_pymupdf(printed["umpire"], values, tmp_path / "umpire.pdf")
    done = run_cli("orders", "import", str(filled), "--campaign", str(folder))
    assert done.returncode == 0, done.stderr
    log, _ = read_log(folder / "turns" / "turn-03.yaml")
    assert as_data(log.battles) == as_data(made.battles)
    assert {g.purpose: g.value for g in log.dice} == made.rolls


def test_every_problem_of_a_filled_form_is_named_by_page_and_unit(
    made: Turn3, printed: dict[str, Path], tmp_path: Path
) -> None:
    """Two counts ticked on a line, and no winner on the other form: both said at once, each at its
    page, by the unit's name and the line; nothing written."""
    folder = _copy(made, tmp_path)
    _, _, forms = forms_now(folder)
    values = battle_ticks(forms, made.battles)
    tsaritsyn = next(f for f in forms if f.hex == "5313")
    voroponovo = next(f for f in forms if f.hex == "5212")
    values[f"kgb-{tsaritsyn.key}-r_37th_div-lost:infantry-3"] = "/Yes"
    del values[f"kgb-{voroponovo.key}-contact-winner-whites"]
    filled = fill_with_pypdf(printed["forms"], values, tmp_path / "filled.pdf")
    before = (folder / "turns" / "turn-03.yaml").read_bytes()
    done = run_cli("orders", "import", str(filled), "--campaign", str(folder))
    assert done.returncode == 1
    assert "filled.pdf:2:1: the battle at Tsaritsyn (5313): found 37th Rifle Div's lost infantry marked" in done.stderr
    assert "filled.pdf:1:1: found no winner marked for the battle at Voroponovo (5212)" in done.stderr
    assert (folder / "turns" / "turn-03.yaml").read_bytes() == before


def test_a_form_of_another_campaign_is_refused(made: Turn3, printed: dict[str, Path], tmp_path: Path) -> None:
    folder = _copy(made, tmp_path)
    _, _, forms = forms_now(folder)
    values = {**battle_ticks(forms, made.battles), f"kgid-b{forms[0].key}-campaign_key": "0123456789ab"}
    filled = fill_with_pypdf(printed["forms"], values, tmp_path / "other.pdf")
    done = run_cli("orders", "import", str(filled), "--campaign", str(folder))
    assert done.returncode == 1
    assert "found the battle report of the battle at Voroponovo (5212) for campaign 0123456789ab" in done.stderr


def test_a_form_printed_before_its_contact_changed_is_refused_by_its_place(
    made: Turn3, printed: dict[str, Path], tmp_path: Path
) -> None:
    """The 3rd Kuban Cossacks' order taken back after the forms were printed: the contact at
    Tsaritsyn is another one now, and its form is refused; Voroponovo's is still good."""
    folder = _copy(made, tmp_path)
    _, _, forms = forms_now(folder)
    filled = fill_with_pypdf(printed["forms"], battle_ticks(forms, made.battles), tmp_path / "filled.pdf")
    log = folder / "turns" / "turn-03.yaml"
    text = log.read_text(encoding="utf-8")
    start = text.index("- unit: w_3rd_kuban_div")
    end = text.index("- unit:", start + 5)
    log.write_text(text[:start] + text[end:], encoding="utf-8")
    done = run_cli("orders", "import", str(filled), "--campaign", str(folder))
    assert done.returncode == 1
    assert "found the report form of the battle at Tsaritsyn (5313), printed for a contact" in done.stderr
    assert "the contact changed since it was printed" in done.stderr and "Voroponovo" not in done.stderr
