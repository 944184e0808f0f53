"""Inputs as people make them (issue 22, part 3): order forms saved by spreadsheets and PDF
viewers, turn logs typed by hand, and look-ups asked inside a campaign.

- A spreadsheet saves its .csv with commas, semicolons or tabs, as its locale has it, often with a
  byte-order mark and CRLF line ends, and drops the leading zero of a hex id (`408` for `0408`).
- A PDF viewer may save the form encrypted with an empty password to open it; a field's value may
  be something other than text, two fields may share a name, a name may be misspelt: each is an
  error in words, never a silent blank.
- An umpire types `move: [4913, 4914]` without quotes; a roll the turn does not ask for is a
  warning at its line (RULES-NOTES, ruling of 2026-12-02), not an error that stops the replay.
- `kitgen lookup` reads the scenario of the campaign it is asked about, or runs in.
"""

from __future__ import annotations

import codecs
import csv
import io
import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kitgen.campaign import load_campaign, new_campaign
from kitgen.engine.replay import played, replay
from kitgen.engine.turn import read_log
from kitgen.engine.turnlog import MoveOrder, restore_hex_id
from kitgen.errors import KitgenError
from kitgen.orders.rows import CSV_COLUMNS, field_name
from tests.conftest import ROOT, SAMPLE, run_cli

SHEPETOVKA = "0407"
"""Where the Reds' 1st Ukrainian Soviet Division starts: a hex whose id a spreadsheet shortens."""
UNIT = "r_1st_ukr_div"
OTHER = "r_13th_army_42nd"
"""Another unit of the Reds' form."""
TSARITSYN_SAMPLE = SAMPLE.parent / "tsaritsyn-sample"


@pytest.fixture(scope="module")
def started(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new campaign of the bundled scenario, turn 1 started by `kitgen next`."""
    folder = tmp_path_factory.mktemp("started") / "campaign"
    new_campaign(folder, "denikin-1919", 1919)
    done = run_cli("next", str(folder))
    assert done.returncode == 0, done.stderr
    return folder


@pytest.fixture
def camp(started: Path, tmp_path: Path) -> Path:
    """A copy of the started campaign, for one test to import into."""
    dest = tmp_path / "campaign"
    shutil.copytree(started, dest)
    return dest


def _import(filled: Path, camp: Path) -> Any:
    return run_cli("orders", "import", str(filled), "--campaign", str(camp), "--turn", "1")


def _moves(camp: Path) -> list[MoveOrder]:
    log, _ = read_log(camp / "turns" / "turn-01.yaml")
    return log.orders.get("reds", [])


# --- spreadsheets --------------------------------------------------------------------------------


def _sheet(rows: list[list[str]], delimiter: str = ",", line_end: str = "\n") -> str:
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator=line_end)
    writer.writerow(CSV_COLUMNS)
    for ident, path in rows:
        writer.writerow([ident, *[""] * (len(CSV_COLUMNS) - 4), path, "", ""])
    return out.getvalue()


@pytest.mark.parametrize("delimiter", [",", ";", "\t"], ids=["comma", "semicolon", "tab"])
def test_csv_of_each_delimiter_is_read(camp: Path, tmp_path: Path, delimiter: str) -> None:
    """Commas, semicolons (a spreadsheet in a locale whose decimal mark is a comma) and tabs: the
    same order comes out of each."""
    sheet = tmp_path / "reds.csv"
    sheet.write_text(_sheet([[UNIT, f"{SHEPETOVKA} 0408"]], delimiter), encoding="utf-8")
    done = _import(sheet, camp)
    assert done.returncode == 0, done.stderr
    assert _moves(camp) == [MoveOrder(unit=UNIT, move=[SHEPETOVKA, "0408"])]


@pytest.mark.parametrize(
    ("bom", "codec"),
    [(codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le")],
    ids=["utf-8", "utf-16"],
)
def test_csv_with_a_byte_order_mark_and_crlf_line_ends_is_read(
    camp: Path, tmp_path: Path, bom: bytes, codec: str
) -> None:
    """Excel's "CSV UTF-8" starts with a byte-order mark and ends its lines with CRLF; its
    "Unicode text" is UTF-16 with a mark, delimited by tabs."""
    sheet = tmp_path / "reds.csv"
    sheet.write_bytes(bom + _sheet([[UNIT, "0408"]], "\t" if codec != "utf-8" else ";", "\r\n").encode(codec))
    done = _import(sheet, camp)
    assert done.returncode == 0, done.stderr
    assert _moves(camp) == [MoveOrder(unit=UNIT, move=[SHEPETOVKA, "0408"])]


def test_csv_with_excels_sep_line_is_read(camp: Path, tmp_path: Path) -> None:
    """A first line `sep=;` is Excel's own note of the delimiter: it says which, and is no header."""
    sheet = tmp_path / "reds.csv"
    sheet.write_text("sep=;\n" + _sheet([[UNIT, "0408"]], ";"), encoding="utf-8")
    done = _import(sheet, camp)
    assert done.returncode == 0, done.stderr
    assert _moves(camp) == [MoveOrder(unit=UNIT, move=[SHEPETOVKA, "0408"])]


def test_csv_whose_delimiter_cannot_be_told_is_an_error_at_its_line_and_column(camp: Path, tmp_path: Path) -> None:
    """A header row that splits into the form's columns at commas and at semicolons alike: the rows
    could be read either way, so neither is guessed. The column is where the second delimiter starts."""
    sheet = tmp_path / "reds.csv"
    header = "id;path;carry;special;x,id,path,carry,special"
    sheet.write_text(f"{header}\n{UNIT};0408;;;\n", encoding="utf-8")
    done = _import(sheet, camp)
    assert done.returncode == 1
    assert (
        f"reds.csv:1:{header.index(',') + 1}: found a header row that splits into the form's columns at "
        "commas and at semicolons alike" in done.stderr
    )
    assert "turn-01.yaml" not in done.stdout


@pytest.mark.parametrize(("typed", "padded"), [("408", "0408"), ("31617", "031617"), ("0408", "0408"), ("4", "4")])
def test_a_hex_id_missing_its_leading_zero_is_restored_where_unambiguous(typed: str, padded: str) -> None:
    """Hex ids are CCRR: as many digits for the row as for the column, so three or five digits lost
    one leading zero. Anything else is left for the reader to judge."""
    assert restore_hex_id(typed) == padded


def test_csv_path_whose_leading_zeros_a_spreadsheet_dropped_is_padded(camp: Path, tmp_path: Path) -> None:
    """A spreadsheet reads 0407 0408 as the numbers 407 408: the import puts the zeros back."""
    sheet = tmp_path / "reds.csv"
    sheet.write_text(_sheet([[UNIT, "407 408"]]), encoding="utf-8")
    done = _import(sheet, camp)
    assert done.returncode == 0, done.stderr
    assert _moves(camp) == [MoveOrder(unit=UNIT, move=[SHEPETOVKA, "0408"])]


def test_a_padded_hex_id_off_the_map_is_still_an_error(camp: Path, tmp_path: Path) -> None:
    """`999` becomes 0999, which is no hex of the map (it has 34 rows): refused as any hex off the map."""
    sheet = tmp_path / "reds.csv"
    sheet.write_text(_sheet([[UNIT, "999"]]), encoding="utf-8")
    done = _import(sheet, camp)
    assert done.returncode == 1
    assert f"unit {UNIT}, field path: found the hex 0999, which is not on the map" in done.stderr


def test_csv_that_cannot_be_split_is_reported_in_words(camp: Path, tmp_path: Path) -> None:
    """A cell longer than the csv module reads (pasted by mistake): said as such at its line,
    never in the csv module's own words."""
    sheet = tmp_path / "reds.csv"
    sheet.write_text(_sheet([[UNIT, "0408"]]) + f"r_10th_army,{'x' * 200_000},,\n", encoding="utf-8")
    done = _import(sheet, camp)
    assert done.returncode == 1
    assert f"reds.csv:3:1: found a .csv with a cell longer than {csv.field_size_limit():,} characters" in done.stderr
    assert "Error" not in done.stderr and "field limit" not in done.stderr


# --- PDF forms -----------------------------------------------------------------------------------


def _form(camp: Path, tmp: Path) -> Path:
    out = tmp / "form-reds.pdf"
    done = run_cli("orders", "form", str(camp), "--faction", "reds", "--out", str(out))
    assert done.returncode == 0, done.stderr
    return out


def _saved(
    camp: Path,
    tmp: Path,
    values: dict[str, str],
    change: Callable[[dict[Any, Any]], None] | None = None,
    **encrypt: str,
) -> Path:
    """The Reds' form filled with `values` as a viewer saves it; `change` is applied to each field
    annotation (a viewer's oddities), `encrypt` given to pypdf's encrypt."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    writer.append(PdfReader(_form(camp, tmp)))
    for page in writer.pages:
        writer.update_page_form_field_values(page, values, auto_regenerate=False)
        for annot in page.get("/Annots") or []:
            if change is not None:
                change(annot.get_object())
    if encrypt:
        writer.encrypt(**encrypt)  # type: ignore[arg-type]
    out = tmp / "filled.pdf"
    writer.write(out)
    return out


@pytest.mark.parametrize("algorithm", ["RC4-128", "AES-128", "AES-256"])
def test_form_encrypted_with_an_empty_password_to_open_is_read(camp: Path, tmp_path: Path, algorithm: str) -> None:
    """Acrobat saves a form it restricts encrypted, with an empty password to open it and an owner
    password to change it (AES nowadays, RC4 before): it opens with the empty one, and its orders
    are read. pypdf reads AES with the cryptography package, a dependency of kitgen for this."""
    filled = _saved(
        camp,
        tmp_path,
        {field_name(UNIT, "path"): "0408"},
        user_password="",
        owner_password="umpire",
        algorithm=algorithm,
    )
    done = _import(filled, camp)
    assert done.returncode == 0, done.stderr
    assert _moves(camp) == [MoveOrder(unit=UNIT, move=[SHEPETOVKA, "0408"])]


@pytest.mark.parametrize("algorithm", ["RC4-128", "AES-256"])
def test_form_locked_with_a_password_is_a_clear_error(camp: Path, tmp_path: Path, algorithm: str) -> None:
    filled = _saved(camp, tmp_path, {}, user_password="secret", owner_password="umpire", algorithm=algorithm)
    done = _import(filled, camp)
    assert done.returncode == 1
    assert "filled.pdf:1:1: found a PDF locked with a password to open it" in done.stderr
    assert "Error" not in done.stderr


def _value_of(name: str, value: Any) -> Callable[[dict[Any, Any]], None]:
    def change(field: dict[Any, Any]) -> None:
        from pypdf.generic import NameObject

        if field.get("/T") == name:
            field[NameObject("/V")] = value

    return change


def _values() -> list[tuple[str, Any, str]]:
    from pypdf.generic import ArrayObject, NameObject, NumberObject, TextStringObject

    return [
        ("number", NumberObject(408), "found the number 408"),
        ("list", ArrayObject([TextStringObject("0407"), TextStringObject("0408")]), "found a list of 2 values"),
        ("name", NameObject("/Yes"), "found the name /Yes"),
    ]


@pytest.mark.parametrize("case", range(3), ids=["number", "list", "name"])
def test_field_value_that_is_not_text_is_an_error_naming_the_field(camp: Path, tmp_path: Path, case: int) -> None:
    """A path field holding a number, a list or a name (what a checkbox holds) is not read as blank."""
    _, value, said = _values()[case]
    name = field_name(UNIT, "path")
    filled = _saved(camp, tmp_path, {}, _value_of(name, value))
    done = _import(filled, camp)
    assert done.returncode == 1
    assert f"filled.pdf:1:1: field {name}: {said}; expected the text typed into the field" in done.stderr


def _renamed(old: str, new: str) -> Callable[[dict[Any, Any]], None]:
    def change(field: dict[Any, Any]) -> None:
        from pypdf.generic import NameObject, TextStringObject

        if field.get("/T") == old:
            field[NameObject("/T")] = TextStringObject(new)

    return change


def test_two_fields_of_one_name_is_an_error_naming_the_name(camp: Path, tmp_path: Path) -> None:
    """Another row's path field renamed to the unit's path field's name: which of the two holds
    the unit's path cannot be known, so neither wins."""
    path = field_name(UNIT, "path")
    filled = _saved(camp, tmp_path, {path: "0408"}, _renamed(field_name(OTHER, "path"), path))
    done = _import(filled, camp)
    assert done.returncode == 1
    assert f"filled.pdf:1:1: found 2 fields named {path}; expected one field of each name" in done.stderr


@pytest.mark.parametrize(
    ("misspelt", "meant"),
    [
        (f"o-{UNIT}-pth", field_name(UNIT, "path")),
        (f"O-{UNIT.upper()}-PATH", field_name(UNIT, "path")),
        (f"{UNIT}-path", field_name(UNIT, "path")),
        ("id-reds-trun", "id-reds-turn"),
    ],
    ids=["part", "case", "prefix", "identity"],
)
def test_misspelt_kitgen_field_is_an_error_with_did_you_mean(
    camp: Path, tmp_path: Path, misspelt: str, meant: str
) -> None:
    """A field named like kitgen's (`o-<row>-<part>`, `id-<faction>-<what>`) that is none: its
    orders would otherwise be dropped without a word."""
    original = "id-reds-turn" if misspelt.startswith("id-") else field_name(UNIT, "path")
    filled = _saved(camp, tmp_path, {}, _renamed(original, misspelt))
    done = _import(filled, camp)
    assert done.returncode == 1
    assert f"found the field '{misspelt}', which is named like a kitgen field but is none" in done.stderr
    assert f"did you mean '{meant}'" in done.stderr


def test_another_tools_field_is_passed_over(camp: Path, tmp_path: Path) -> None:
    """A field no kitgen form has, named unlike kitgen's (a viewer's comment box): not judged."""
    filled = _saved(
        camp,
        tmp_path,
        {field_name(UNIT, "path"): "0408"},
        _renamed(field_name("r_10th_army", "special"), "Comments"),
    )
    done = _import(filled, camp)
    assert done.returncode == 0, done.stderr
    assert _moves(camp) == [MoveOrder(unit=UNIT, move=[SHEPETOVKA, "0408"])]


def test_damaged_pdf_is_said_in_words_not_an_exception_name(camp: Path, tmp_path: Path) -> None:
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(_form(camp, tmp_path).read_bytes()[:3000])
    done = _import(cut, camp)
    assert done.returncode == 1
    assert "cut.pdf:1:1: found a file that cannot be read as a PDF: it is damaged or cut short" in done.stderr
    assert "Error" not in done.stderr


# --- turn logs typed by hand ---------------------------------------------------------------------


def _log(tmp: Path, text: str) -> Path:
    (tmp / "turns").mkdir(exist_ok=True)
    path = tmp / "turns" / "turn-01.yaml"
    path.write_text(f"turn: 1\n{text}", encoding="utf-8")
    return path


def test_unquoted_hex_ids_are_read_as_hex_ids(tmp_path: Path) -> None:
    """`move: [4913, 4914]`: YAML reads plain decimal numbers; in a hex id's place they are the hex
    ids of those digits, in every section that takes hex ids."""
    path = _log(
        tmp_path,
        "orders:\n  whites:\n    - {unit: w_a, move: [4913, 4914]}\n"
        "rail:\n  whites:\n    - {train: w_t, path: [3416, 3417]}\n"
        "battles:\n  - hex: 3417\n    winner: whites\n    units: [{unit: w_a}, {unit: r_b, retreat: 3418}]\n",
    )
    log, _ = read_log(path)
    assert log.orders["whites"][0].move == ["4913", "4914"]
    assert log.rail["whites"][0].path == ["3416", "3417"]
    assert log.battles[0].hex == "3417" and log.battles[0].units[1].retreat == "3418"


def test_unquoted_three_digit_hex_id_gets_its_leading_zero(tmp_path: Path) -> None:
    """`408` in a hex id's place is 0408: a hex id has as many row digits as column digits."""
    log, _ = read_log(_log(tmp_path, "orders:\n  reds:\n    - {unit: r_a, move: [408, 409]}\n"))
    assert log.orders["reds"][0].move == ["0408", "0409"]


def test_unquoted_leading_zero_hex_id_reads_right_or_says_to_quote_it(tmp_path: Path) -> None:
    """YAML 1.1 reads 0408 as text (8 is no octal digit) and 0407 as the octal number 263: the
    first is the hex 0408, the second an error at its line and column that says to quote it,
    never the hex 0263."""
    log, _ = read_log(_log(tmp_path, "orders:\n  reds:\n    - {unit: r_a, move: [0408, 0508]}\n"))
    assert log.orders["reds"][0].move == ["0408", "0508"]
    typed = "    - {unit: r_a, move: [0408, 0407]}\n"
    with pytest.raises(KitgenError) as caught:
        read_log(_log(tmp_path, "orders:\n  reds:\n" + typed))
    (problem,) = caught.value.problems
    assert (problem.line, problem.column) == (4, typed.index("0407") + 1)
    assert "found 0407 unquoted, which YAML reads as the octal number 263" in problem.message
    assert "hex ids always go in quotes" in problem.message


def test_only_hex_id_fields_take_numbers(tmp_path: Path) -> None:
    """A number is a hex id only where a hex id goes: a unit id, a faction or a roll's purpose
    given as a number stays an error, and so does a number of too few digits for a hex."""
    path = _log(
        tmp_path,
        "orders:\n  reds:\n    - {unit: 4913, move: [12, 4914]}\n"
        "battles:\n  - {hex: 3417, winner: 3416, units: [{unit: r_a}]}\n"
        "dice:\n  - {purpose: 4913, value: 3}\n",
    )
    with pytest.raises(KitgenError) as caught:
        read_log(path)
    said = {(p.line, p.message.split(":")[0]) for p in caught.value.problems}
    assert said == {
        (4, "orders.reds[0].unit"),
        (4, "orders.reds[0].move[0]"),
        (6, "battles[0].winner"),
        (8, "dice[0].purpose"),
    }
    assert any("found 12, expected a hex id" in p.message for p in caught.value.problems)


def test_a_log_with_unquoted_hex_ids_plays_as_the_quoted_one(camp: Path) -> None:
    """The same move written both ways, Shchors obeying: the replay ends with the same state, the
    division in 0408."""
    obeys = 'dice:\n  - {purpose: "II.C Shchors command roll, turn 1", value: 1}\n'
    log = camp / "turns" / "turn-01.yaml"
    log.write_text(f'turn: 1\norders:\n  reds:\n    - {{unit: {UNIT}, move: ["0407", "0408"]}}\n{obeys}')
    quoted = replay(load_campaign(camp))
    log.write_text(f"turn: 1\norders:\n  reds:\n    - {{unit: {UNIT}, move: [407, 408]}}\n{obeys}")
    unquoted = replay(load_campaign(camp))
    assert unquoted == quoted
    moved = unquoted.unit(UNIT)
    assert moved is not None and moved.hex == "0408"


# --- a roll the turn does not ask for ------------------------------------------------------------


UNUSED = '  - {purpose: "II.A event roll, turn 9", value: 1}\n'


def test_a_roll_the_turn_does_not_ask_for_is_recorded_unused(camp: Path) -> None:
    """RULES-NOTES, ruling of 2026-12-02: "A roll given in the log that the turn does not ask for
    is not used: a warning at its line, never an error that stops the replay." The turn's record
    holds it, with its place in `dice:` and its line."""
    (camp / "turns" / "turn-01.yaml").write_text(
        'turn: 1\ndice:\n  - {purpose: "II.A event roll, turn 1", value: 2}\n' + UNUSED
    )
    ((_, record),) = list(played(load_campaign(camp)))
    (unused,) = record.unused_rolls
    assert (unused.index, unused.purpose) == (1, "II.A event roll, turn 9")
    assert (unused.note.line, unused.note.column) == (4, 15)
    event = next(r for r in record.rolls if r.purpose == "II.A event roll, turn 1")
    assert (event.value, event.source) == (2, "given")


def test_validate_warns_of_a_roll_the_turn_does_not_ask_for_at_its_line(camp: Path) -> None:
    """`kitgen validate` shows it at file:line:column with the rolls the turn does ask for, and the
    closest of them; exit 0, or 1 with --strict."""
    (camp / "turns" / "turn-01.yaml").write_text("turn: 1\ndice:\n" + UNUSED)
    done = run_cli("validate", str(camp))
    assert done.returncode == 0, done.stderr
    (line,) = [x for x in done.stdout.splitlines() if "does not ask for" in x]
    assert (
        line.endswith(" (dice)")
        and "turn-01.yaml:3:15: warning: dice[0].purpose: found 'II.A event roll, turn 9'" in line
    )
    assert "did you mean 'II.A event roll, turn 1'?" in line
    assert run_cli("validate", "--strict", str(camp)).returncode == 1


def test_a_roll_its_dice_cannot_show_stays_an_error(camp: Path) -> None:
    """A D6 roll of 7 is a typing error, not a roll: the replay stops at its line."""
    (camp / "turns" / "turn-01.yaml").write_text('turn: 1\ndice:\n  - {purpose: "II.A event roll, turn 1", value: 7}\n')
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(camp))
    assert any("dice[0].value: found 7, but D6 rolls 1 to 6" in str(p) for p in caught.value.problems)


# --- look-ups in a campaign ----------------------------------------------------------------------


TSARITSYN_ALONE = "Tsaritsyn (also Volgograd, Stalingrad): Reds 4, Whites 2 [E.1]"
"""The intro scenario has two factions; the campaign scenario's line names the Ukrainians too."""


def test_lookup_with_campaign_reads_the_campaigns_scenario() -> None:
    done = run_cli("lookup", "town", "Tsaritsyn", "--campaign", str(TSARITSYN_SAMPLE))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == TSARITSYN_ALONE
    kiev = run_cli("lookup", "town", "Kiev", "--campaign", str(TSARITSYN_SAMPLE))
    assert kiev.returncode == 2 and "found no town 'Kiev'" in kiev.stderr


def test_lookup_in_a_campaign_folder_reads_its_scenario() -> None:
    """Run inside a campaign folder with neither option: the campaign's scenario; --scenario still
    names another."""
    done = run_cli("lookup", "town", "Tsaritsyn", cwd=TSARITSYN_SAMPLE)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == TSARITSYN_ALONE
    other = run_cli("lookup", "town", "Tsaritsyn", "--scenario", "denikin-1919", cwd=TSARITSYN_SAMPLE)
    assert other.returncode == 0 and "Ukrainians" in other.stdout


def test_lookup_outside_a_campaign_reads_the_bundled_default(tmp_path: Path) -> None:
    done = run_cli("lookup", "town", "Tsaritsyn", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert "Ukrainians" in done.stdout


def test_lookup_with_scenario_and_campaign_is_a_usage_error() -> None:
    done = run_cli("lookup", "commander", "Wrangel", "--scenario", "denikin-1919", "--campaign", str(TSARITSYN_SAMPLE))
    assert done.returncode == 2
    assert (
        "kitgen: found --scenario denikin-1919 and --campaign" in done.stderr and "expected one of them" in done.stderr
    )


def test_lookup_reads_a_scenario_folder_relative_to_the_campaign(tmp_path: Path) -> None:
    """campaign.yaml names a scenario folder relative to the campaign folder, not to where kitgen runs."""
    shutil.copytree(SAMPLE.parent / "tsaritsyn-1919", tmp_path / "scenarios" / "mine")
    folder = tmp_path / "club" / "game"
    folder.mkdir(parents=True)
    (folder / "campaign.yaml").write_text('scenario: "../../scenarios/mine"\nseed: 1\n', encoding="utf-8")
    done = run_cli("lookup", "town", "Tsaritsyn", "--campaign", str(folder), cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == TSARITSYN_ALONE


def test_lookup_of_a_campaign_naming_no_scenario_says_so_at_its_line(tmp_path: Path) -> None:
    (tmp_path / "campaign.yaml").write_text('seed: 1\nscenario: "nowhere"\n', encoding="utf-8")
    done = run_cli("lookup", "town", "Kiev", "--campaign", str(tmp_path))
    assert done.returncode == 1
    assert "campaign.yaml:2:11: scenario: found 'nowhere', which is neither a bundled scenario" in done.stderr


def test_a_campaign_loaded_with_its_map_kept_imports_no_projection() -> None:
    """Loading a campaign reads where its railway and map points stand from the kept map: PROJ
    (pyproj, a twentieth of a second to import and set up) is loaded only to build a map, and
    every point inside the map is still a place a log may name."""
    code = (
        "import json, sys\nfrom pathlib import Path\nfrom kitgen.campaign import load_campaign\n"
        "from kitgen.model.scenario import name_key\n"
        "campaign = load_campaign(Path(sys.argv[1]))\n"
        "points = [p.name for p in campaign.hex_map.points]\n"
        "print(json.dumps({'points': len(points), 'unplaced': [p for p in points if name_key(p) not in campaign.places],"
        " 'pyproj': 'pyproj' in sys.modules}))\n"
    )
    for _ in range(2):  # the first run may build the map into the run's cache
        result = subprocess.run([sys.executable, "-c", code, str(SAMPLE)], capture_output=True, text=True, check=True)
    found = json.loads(result.stdout.splitlines()[-1])
    assert found["pyproj"] is False, result.stderr
    assert found["points"] > 0 and found["unplaced"] == []


def test_lookup_in_a_campaign_imports_no_validation_when_the_scenario_is_cached() -> None:
    """A look-up stays quick: with the scenario in the cache (the first run puts it there) it reads
    campaign.yaml alone, and imports no model validation, campaign loader or map. (The sample
    campaign's: the intro scenario, which has no geography files, is not cached.)"""
    code = (
        "import sys\nfrom kitgen.cli import main\n"
        "sys.argv = ['kitgen', 'lookup', 'town', 'Kiev', '--campaign', sys.argv[1]]\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = ('kitgen.validation', 'kitgen.campaign', 'kitgen.mapping.hexmap', 'shapely')\n"
        "print('HEAVY', sorted(m for m in heavy if m in sys.modules), file=sys.stderr)\n"
    )
    for _ in range(2):
        run = [sys.executable, "-c", code, str(SAMPLE)]
        result = subprocess.run(run, capture_output=True, text=True, check=True)
        assert result.stdout.startswith("Kiev (also Kyiv): Reds 3, Whites 2, Ukrainians 7")
    assert "HEAVY []" in result.stderr, result.stderr
