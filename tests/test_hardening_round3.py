"""Issue 41, hardening round 3: each reproduction of items 4, 6-11 and 16 (the PDFs' fields and QR
codes), as a named regression test.

A hostile form, scan, log or argument ends in a catalogued message at its file:line:column, short
and on its own line, never in a traceback, a hang, a page of library noise or a file replaced
where it must not be.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from tests.conftest import SAMPLE, Run, run_cli

TIMEOUT = 60  # seconds: far beyond any answer; a hang fails instead of stalling the suite
FORGED = "kitgen: all orders imported"
"""A line a player's input would print to look like kitgen's own."""


def kitgen(*args: str, cwd: Path | None = None) -> Run:
    """In process: for inputs that cannot hang even if kitgen regressed."""
    return run_cli(*args, cwd=cwd)


def process(*args: str) -> subprocess.CompletedProcess[str]:
    """A process of its own, with a timeout: for inputs that once hung kitgen or filled its stderr."""
    result = subprocess.run(
        [sys.executable, "-m", "kitgen", *args], capture_output=True, text=True, timeout=TIMEOUT, check=False
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    """A copy of the sample campaign, turn 7 started: a turn whose orders are being written."""
    folder = tmp_path / "sample"
    shutil.copytree(SAMPLE, folder)
    assert kitgen("next", str(folder)).returncode == 0
    return folder


def whites_csv(campaign: Path, tmp: Path) -> list[list[str]]:
    """The Whites' order form as a spreadsheet, its rows as cells."""
    import csv

    out = tmp / "whites.csv"
    assert kitgen("orders", "form", str(campaign), "--faction", "whites", "--csv", "--out", str(out)).returncode == 0
    return list(csv.reader(out.read_text(encoding="utf-8").splitlines()))


def import_text(campaign: Path, tmp: Path, text: str, name: str = "whites.csv") -> Run:
    """`orders import` of a .csv of `text`; the turn's log must be left as it was."""
    log = campaign / "turns" / "turn-07.yaml"
    before = log.read_bytes()
    path = tmp / name
    path.write_bytes(text.encode("utf-8"))
    result = kitgen("orders", "import", str(path), "--campaign", str(campaign))
    if result.returncode != 0:
        assert log.read_bytes() == before
    return result


def csv_text(rows: list[list[str]]) -> str:
    return "".join(",".join(r) + "\n" for r in rows)


def problem_at(stderr: str, file: str) -> tuple[int, int, str]:
    """The line, column and words of the one problem reported on `file`."""
    found = re.search(rf"{re.escape(file)}:(\d+):(\d+): (.*)", stderr)
    assert found is not None, stderr
    return int(found[1]), int(found[2]), found[3]


# --- 4. malformed CSVs are refused, at their line and column -----------------------------------


def test_issue41_04_a_csv_header_with_path_twice_is_refused(sample: Path, tmp_path: Path) -> None:
    """A second `path` column was read from the first: its orders dropped, the units set to hold."""
    rows = whites_csv(sample, tmp_path)
    rows[0].append("path")
    for row in rows[1:]:
        row.append("")
    rows[1][-1] = "2129 2130"
    result = import_text(sample, tmp_path, csv_text(rows))
    assert result.returncode == 1
    line, column, said = problem_at(result.stderr, "whites.csv")
    assert (line, column) == (1, len(",".join(rows[0][:-1])) + 2)
    assert "found the column 'path' 2 times in the header row; expected each column once" in said


@pytest.mark.parametrize("name", ["id", "special", "hex", "Carry "])
def test_issue41_04_any_column_named_twice_is_refused(sample: Path, tmp_path: Path, name: str) -> None:
    rows = whites_csv(sample, tmp_path)
    rows[0].append(name)
    result = import_text(sample, tmp_path, csv_text(rows))
    assert result.returncode == 1 and f"found the column '{name.strip().lower()}' 2 times" in result.stderr


def test_issue41_04_an_unclosed_quote_that_swallows_the_rest_is_refused(sample: Path, tmp_path: Path) -> None:
    """A quote opened before `path` ran to the end of the file: that unit held, the others "kept"."""
    rows = whites_csv(sample, tmp_path)
    rows[2][5] = '"' + rows[2][5]
    result = import_text(sample, tmp_path, csv_text(rows))
    assert result.returncode == 1
    line, column, said = problem_at(result.stderr, "whites.csv")
    assert (line, column) == (3, len(",".join(rows[2][:5])) + 2)
    assert 'found a quote (") opening a cell that runs on to the end of the file' in said


def test_issue41_04_a_quote_that_runs_past_its_line_is_refused(sample: Path, tmp_path: Path) -> None:
    """A quoted cell closed lines later: a line break in a cell, which no order needs."""
    rows = whites_csv(sample, tmp_path)
    text = (
        csv_text(rows).replace(f"{rows[3][0]},", f'{rows[3][0]},"', 1).replace(f"\n{rows[5][0]},", f'"\n{rows[5][0]},')
    )
    result = import_text(sample, tmp_path, text)
    assert result.returncode == 1
    line, column, said = problem_at(result.stderr, "whites.csv")
    assert (line, column) == (4, len(rows[3][0]) + 2)
    assert "runs on over 2 lines; expected each row on one line" in said


def test_issue41_04_a_row_of_more_cells_than_the_header_is_refused(sample: Path, tmp_path: Path) -> None:
    rows = whites_csv(sample, tmp_path)
    rows[4] += ["", "2129"]
    result = import_text(sample, tmp_path, csv_text(rows))
    assert result.returncode == 1
    line, column, said = problem_at(result.stderr, "whites.csv")
    assert (line, column) == (5, len(",".join(rows[4][:-1])) + 2)
    assert f"found {len(rows[4])} cells on this row, more than the header row's {len(rows[0])} columns" in said


def test_issue41_04_empty_cells_past_the_header_are_no_problem(sample: Path, tmp_path: Path) -> None:
    """A spreadsheet may save a trailing empty column: nothing in it is lost."""
    rows = whites_csv(sample, tmp_path)
    rows[4] += ["", ""]
    result = import_text(sample, tmp_path, csv_text(rows))
    assert result.returncode == 0, result.stderr


def test_issue41_04_text_after_a_closing_quote_is_refused(sample: Path, tmp_path: Path) -> None:
    """`"2129" 2130`: the csv module read it as `2129 2130` without a word."""
    rows = whites_csv(sample, tmp_path)
    rows[1][8] = '"2129" 2130'
    result = import_text(sample, tmp_path, csv_text(rows))
    assert result.returncode == 1
    line, column, said = problem_at(result.stderr, "whites.csv")
    assert (line, column) == (2, len(",".join(rows[1][:8])) + 1 + len('"2129"') + 1)
    assert "found text after a cell's closing quote" in said


# --- 6. --out never replaces a link to a device, nor writes in /dev --------------------------------


@pytest.mark.parametrize("target", ["/dev/null", "/dev/stdout", "/proc/self/fd/1", "/dev/fd/2"])
def test_issue41_06_out_through_a_link_to_a_device_never_replaces_the_link(tmp_path: Path, target: str) -> None:
    """`--out /dev/stdout` replaced the link /dev/stdout with a plain file (as root, the system's):
    the same through a link of the user's, which must stay a link, nothing written anywhere."""
    link = tmp_path / "out.json"
    link.symlink_to(target)
    result = kitgen("scenario", "show", "--format", "json", "--out", str(link))
    assert result.returncode == 2, result.stderr
    assert result.stderr.startswith(f"kitgen: {link} is a symbolic link to ")
    assert "expected a regular file or a new name" in result.stderr
    assert link.is_symlink() and os.readlink(link) == target
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


@pytest.mark.parametrize("name", ["/dev/stdout", "/dev/stderr", "/proc/self/fd/1"])
def test_issue41_06_out_in_the_systems_folder_of_devices_is_refused(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Refused before anything is written: only the words of the refusal are printed. (Should
    kitgen regress, no rename into /dev or /proc is let through here: this machine's /dev/stdout
    stays.)"""
    real = os.replace

    def guarded(source: object, target: object, *args: object, **kwargs: object) -> None:
        if str(target).startswith(("/dev/", "/proc/")):
            raise PermissionError(1, "refused by the test", str(target))
        real(source, target, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", guarded)
    before = os.lstat(name)
    result = kitgen("scenario", "show", "--out", name)
    assert result.returncode == 2, result.stderr
    assert f"kitgen: {name} is in the system's folder /{name.split('/')[1]}; expected a regular file" in result.stderr
    after = os.lstat(name)
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)


def test_issue41_06_out_in_a_folder_linked_to_dev_is_refused(tmp_path: Path) -> None:
    (tmp_path / "devices").symlink_to("/dev")
    name = f"kitgen-test-{os.getpid()}"
    try:
        result = kitgen("scenario", "show", "--out", str(tmp_path / "devices" / name))
        assert result.returncode == 2 and "is in the system's folder /dev" in result.stderr
        assert not os.path.lexists(f"/dev/{name}")
    finally:
        if os.path.lexists(f"/dev/{name}"):
            os.unlink(f"/dev/{name}")


def test_issue41_06_a_link_to_a_regular_file_is_still_replaced_itself(tmp_path: Path) -> None:
    """The rule kept: a link of the user's to a file is replaced by the output, never written through."""
    mine = tmp_path / "mine.txt"
    mine.write_text("mine\n")
    link = tmp_path / "out.txt"
    link.symlink_to(mine)
    assert kitgen("scenario", "show", "--out", str(link)).returncode == 0
    assert not link.is_symlink() and mine.read_text() == "mine\n"


# --- 7. a file outside the campaign is never read into a message -------------------------------------

SECRET = "".join(f"secret-{n}:x:{n}:{n}:line {n} of a file outside the campaign:/home/{n}:/bin/sh\n" for n in range(60))


@pytest.mark.parametrize("which", ["turns/turn-07.yaml", "setup.yaml", "campaign.yaml"])
def test_issue41_07_a_campaign_file_linked_outside_the_campaign_is_refused_unread(
    sample: Path, tmp_path: Path, which: str
) -> None:
    """A turn log linked to /etc/passwd printed the whole of it in one error line."""
    outside = tmp_path / "passwd"
    outside.write_text(SECRET)
    (sample / which).unlink()
    (sample / which).symlink_to(outside)
    result = kitgen("validate", str(sample))
    assert result.returncode == 1
    line, column, said = problem_at(result.stderr, which)
    assert (line, column) == (1, 1)
    assert said.startswith(f"found a symbolic link to {outside}, outside the campaign folder; expected the campaign's")
    assert "secret-" not in result.stderr


def test_issue41_07_a_link_within_the_campaign_is_read(sample: Path) -> None:
    log = sample / "turns" / "turn-07.yaml"
    (sample / "kept.yaml").write_bytes(log.read_bytes())
    log.unlink()
    log.symlink_to(sample / "kept.yaml")
    assert kitgen("validate", str(sample)).returncode == 0


def test_issue41_07_no_message_quotes_more_than_a_short_excerpt_of_a_file(sample: Path) -> None:
    """The file's contents reached the message as one value (YAML reads it as one plain scalar)."""
    (sample / "turns" / "turn-07.yaml").write_text(SECRET.replace(":", " "))
    result = kitgen("validate", str(sample))
    assert result.returncode == 1
    assert "secret-0" in result.stderr and "secret-2 " not in result.stderr  # the start, no more
    assert max(len(line) for line in result.stderr.splitlines()) < 400


def test_issue41_07_a_long_value_in_any_message_is_cut(sample: Path) -> None:
    """The catalogue bounds every value it quotes: here an unknown key of 5,000 characters."""
    key = "k" * 5000
    log = sample / "turns" / "turn-07.yaml"
    log.write_text(log.read_text() + f"\n{key}: 1\n")
    result = kitgen("validate", str(sample))
    assert result.returncode == 1 and re.search(r"\(5,0\d\d characters\)", result.stderr)
    assert max(len(line) for line in result.stderr.splitlines()) < 1000


# --- 8. names from data reach the terminal escaped ------------------------------------------------

HOSTILE_NAME = "Kharkov\x1b]0;owned\x07 Regiment\x9b2J"


def _hostile_name(campaign: Path) -> None:
    setup = campaign / "setup.yaml"
    text = setup.read_text(encoding="utf-8")
    named = "name: " + json.dumps(HOSTILE_NAME) + ","
    assert text.count("name: Kharkov Communist Regiment,") == 1
    setup.write_text(text.replace("name: Kharkov Communist Regiment,", named), encoding="utf-8")


@pytest.mark.parametrize(
    "command", [["units"], ["state"], ["units", "--format", "json"], ["state", "--format", "json"]]
)
def test_issue41_08_a_unit_name_that_would_drive_the_terminal_is_refused_escaped(
    sample: Path, command: list[str]
) -> None:
    """A name written with YAML escapes (`\\e]0;...\\a`) set the terminal's title from `units`.
    A name is printed on a counter and on one line of output: a control character in it is refused
    where it is written (file:line:column), the message showing it escaped, never raw."""
    _hostile_name(sample)
    result = kitgen(*command, str(sample))
    assert result.returncode == 1
    assert not any(c in result.stdout + result.stderr for c in "\x1b\x07\x9b")
    assert "setup.yaml:" in result.stderr and "name: found the control character U+001B" in result.stderr


def test_issue41_08_a_scenario_title_that_would_drive_the_terminal_is_refused_escaped(tmp_path: Path) -> None:
    """The scenario's own title, shown by every command that shows the scenario."""
    from tests.conftest import BUNDLED

    folder = tmp_path / "scenario"
    shutil.copytree(BUNDLED, folder)
    meta = folder / "scenario.yaml"
    meta.write_text(meta.read_text(encoding="utf-8").replace("title: \"Denikin's", "title: \"\\e]0;owned\\a's", 1))
    for args in (["scenario", "show", str(folder)], ["lookup", "events", "--scenario", str(folder)]):
        result = kitgen(*args)
        assert result.returncode == 1, args
        assert "\x1b" not in result.stdout + result.stderr and "\x07" not in result.stdout + result.stderr, args
        assert "title: found the control character U+001B" in result.stderr, args


# --- 9. a line break from input never starts a line of its own ----------------------------------------


def _no_forged_line(result: Run) -> None:
    for line in (result.stdout + result.stderr).splitlines():
        assert not line.startswith(FORGED), result.stdout + result.stderr
    assert "\x85" not in result.stdout + result.stderr and "\u2028" not in result.stdout + result.stderr


@pytest.mark.parametrize("brk", ["\n", "\r\n", "\u2028", "\x85", "\x0b"])
def test_issue41_09_a_line_break_in_an_argument_is_escaped(sample: Path, brk: str) -> None:
    result = kitgen("units", str(sample), "--faction", f"whites{brk}{FORGED}")
    assert result.returncode == 2
    _no_forged_line(result)


def test_issue41_09_a_line_break_in_an_out_path_is_escaped(sample: Path, tmp_path: Path) -> None:
    out = tmp_path / f"units\n{FORGED}.txt"
    result = kitgen("units", str(sample), "--out", str(out))
    assert result.returncode == 0 and out.is_file()
    _no_forged_line(result)
    assert "units\\x0akitgen" in result.stderr


def test_issue41_09_a_line_break_in_a_campaign_folder_name_is_escaped(tmp_path: Path) -> None:
    folder = tmp_path / f"c\n{FORGED}"
    shutil.copytree(SAMPLE, folder)
    log = folder / "turns" / "turn-06.yaml"
    log.write_text(log.read_text() + "\nbogus: 1\n")
    result = kitgen("validate", str(folder))
    assert result.returncode == 1
    _no_forged_line(result)


@pytest.mark.parametrize("command", ["units", "state"])
def test_issue41_09_a_line_break_in_a_unit_name_is_refused_never_printed(sample: Path, command: str) -> None:
    """A name is one line (a counter's, a table's): a line break in it is refused where it is
    written, and the message shows it escaped; no line of the output is one the name made."""
    setup = sample / "setup.yaml"
    named = "name: " + json.dumps(f"Kharkov\n{FORGED}\u2028Regiment") + ","
    setup.write_text(setup.read_text(encoding="utf-8").replace("name: Kharkov Communist Regiment,", named, 1))
    result = kitgen(command, str(sample))
    assert result.returncode == 1
    _no_forged_line(result)
    assert "name: found the control character U+000A at character 8" in result.stderr


def test_issue41_09_a_line_break_in_a_csv_cell_is_refused_unprinted(sample: Path, tmp_path: Path) -> None:
    rows = whites_csv(sample, tmp_path)
    rows[1][0] = f'"{rows[1][0]}\n{FORGED}"'
    result = import_text(sample, tmp_path, csv_text(rows))
    assert result.returncode == 1
    _no_forged_line(result)


@pytest.mark.parametrize("brk", ["\u2028", "\u2029", "\x85", "\x0c"])
def test_issue41_09_a_line_separator_in_a_csv_cell_is_escaped(sample: Path, tmp_path: Path, brk: str) -> None:
    rows = whites_csv(sample, tmp_path)
    rows[1][0] = f"{rows[1][0]}{brk}{FORGED}"
    result = import_text(sample, tmp_path, csv_text(rows))
    assert result.returncode == 1
    _no_forged_line(result)


@pytest.mark.parametrize("field", ["faction", "turn", "campaign"])
def test_issue41_09_a_line_break_in_a_pdf_identity_field_is_escaped(sample: Path, tmp_path: Path, field: str) -> None:
    from tests.forms import fill_with_pypdf

    form = tmp_path / "form.pdf"
    assert kitgen("orders", "form", str(sample), "--faction", "whites", "--out", str(form)).returncode == 0
    filled = fill_with_pypdf(form, {f"id-whites-{field}": f"x\n{FORGED}\u2028y"}, tmp_path / "filled.pdf")
    result = kitgen("orders", "import", str(filled), "--campaign", str(sample))
    assert result.returncode == 1, result.stderr
    _no_forged_line(result)


# --- 10. a crafted QR code or digits that are no ASCII digits ------------------------------------------

CRAFTED = ["KG①/BLANK/A", "KG①/CHECK/A", "KG3/ABCDEF01/0123456789/²/0/1/1/A", "KG³/ABCDEF01/0123456789/1/0/1/1/A"]


@pytest.mark.parametrize(
    "text", CRAFTED + ["KG3B/ABCDEF01/0123456789/²²²²/3/1/1/A", "KG٣R/ABCDEF01/0123456789/3/1/1/A"]
)
def test_issue41_10_a_crafted_qr_code_is_no_kitgen_code(text: str) -> None:
    """`str.isdigit` took `①` and `²`; `int` does not, and the scan ended in a ValueError."""
    from kitgen.orders.sheetplan import FixedPage, FormPage
    from kitgen.reports.plan import ReportPage

    assert FormPage.parse(text) is None
    assert FixedPage.parse(text, "BLANK") is None and FixedPage.parse(text, "CHECK") is None
    assert ReportPage.parse(text) is None


@pytest.mark.parametrize("text", CRAFTED[1:])
def test_issue41_10_orders_check_of_a_crafted_qr_code_is_a_message(tmp_path: Path, text: str) -> None:
    page = _qr_page(tmp_path, text)
    result = process("orders", "check", str(page))
    assert result.returncode == 1
    assert "expected the kit's scanner check page" in result.stderr


@pytest.mark.parametrize("text", CRAFTED)
def test_issue41_10_orders_scan_of_a_crafted_qr_code_is_a_message(sample: Path, tmp_path: Path, text: str) -> None:
    page = _qr_page(tmp_path, text)
    result = process("orders", "scan", str(page), "--campaign", str(sample))
    assert result.returncode == 1
    assert "expected the QR code of a kitgen order form" in result.stderr


def _qr_page(tmp_path: Path, text: str) -> Path:
    """A white page with nothing on it but a QR code saying `text`."""
    import cv2
    import numpy as np

    code = cv2.QRCodeEncoder.create().encode(text)
    big = cv2.resize(code, (code.shape[1] * 8, code.shape[0] * 8), interpolation=cv2.INTER_NEAREST)
    page = np.full((1600, 1200), 255, np.uint8)
    page[100 : 100 + big.shape[0], 100 : 100 + big.shape[1]] = big
    cv2.imwrite(str(tmp_path / "page.png"), page)
    return tmp_path / "page.png"


@pytest.mark.parametrize("accept", ["roll:²=3", "roll:" + "9" * 5000 + "=3", "²:winner=reds"])
def test_issue41_10_accept_with_digits_that_are_no_digits_says_what_is_wrong(accept: str) -> None:
    from kitgen.reports.scans import is_own, parse_accept

    with pytest.raises(ValueError) as refused:
        parse_accept(accept)
    assert "int()" not in str(refused.value) and "digits" not in str(refused.value)
    assert not is_own("²:winner=reds")


def test_issue41_10_other_digits_from_input_are_ascii_digits_only() -> None:
    from kitgen.mapping.hexgrid import HexGrid
    from kitgen.orders.rows import changed_turns

    assert changed_turns("1:aa ²:bb 3:cc", "1:aa 3:cc") == []
    grid = HexGrid(10.0, 40, 30, 0.0, 0.0)
    assert grid.parse_id("²²²²") is None and grid.parse_id("٣٤١٦") is None and grid.parse_id("3416") == (34, 16)


def test_issue41_10_a_give_of_other_digits_is_bad_usage(sample: Path) -> None:
    result = kitgen("roll", str(sample), "--give", "anything=²")
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_issue41_10_a_temporary_file_of_a_huge_process_id_is_passed_over(tmp_path: Path) -> None:
    """A leftover's name gives the process that made it: 200 digits are no process id."""
    (tmp_path / f".show.txt.kitgen-{'9' * 200}-ab.tmp").write_text("x")
    result = kitgen("scenario", "show", "--out", str(tmp_path / "show.txt"))
    assert result.returncode == 0 and (tmp_path / "show.txt").is_file()


def test_issue41_10_a_hex_of_other_digits_is_no_hex(sample: Path, tmp_path: Path) -> None:
    rows = whites_csv(sample, tmp_path)
    rows[1][8] = "٢١٢٩ ٢١٣٠"
    result = import_text(sample, tmp_path, csv_text(rows))
    assert result.returncode == 1 and "found '٢١٢٩'" in result.stderr


# --- 11 and 16. PDF fields: long names, deep trees, many fields, library noise -------------------------


def raw_pdf(objects: list[bytes]) -> bytes:
    """A PDF of `objects` (1: the catalog, 2: the pages, 3: a page; the rest the form's)."""
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def form_pdf(fields: bytes, *more: bytes) -> bytes:
    return raw_pdf(
        [
            b"<< /Type /Catalog /Pages 2 0 R /AcroForm << /Fields " + fields + b" >> >>",
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] >>",
            *more,
        ]
    )


def import_pdf(campaign: Path, tmp: Path, data: bytes) -> tuple[subprocess.CompletedProcess[str], float]:
    path = tmp / "filled.pdf"
    path.write_bytes(data)
    start = time.monotonic()
    result = process("orders", "import", str(path), "--campaign", str(campaign))
    return result, time.monotonic() - start


@pytest.mark.parametrize("name", [b"x" + b" " * 30_000 + b"y", b"o-" + b"x" * 30_000, b"id " + b"-" * 30_000 + b"path"])
def test_issue41_11_a_long_field_name_is_refused_at_once(sample: Path, tmp_path: Path, name: bytes) -> None:
    """`x` + 30,000 spaces + `y` ran past 120 s: the field-name pattern backtracked."""
    result, took = import_pdf(sample, tmp_path, form_pdf(b"[4 0 R]", b"<< /T (" + name + b") /V (x) >>"))
    assert result.returncode == 1 and took < 10
    assert f"filled.pdf:1:1: found a field named '{name[:20].decode()}" in result.stderr
    assert f", {len(name):,} characters long; expected a field name of at most 300 characters" in result.stderr
    assert max(len(line) for line in result.stderr.splitlines()) < 400


def test_issue41_11_the_misspelt_field_test_is_linear() -> None:
    """The judge of a name of kitgen's shape, on names past any bound, in a blink."""
    from kitgen.orders.formread import _kitgen_like

    start = time.monotonic()
    for name in ("x" + " " * 200_000 + "y", "a-" * 100_000 + "q", " " * 200_000, "x" + "\t" * 200_000 + "pathx"):
        assert not _kitgen_like(name)
    assert _kitgen_like("x" + " " * 200_000 + "path ") and _kitgen_like("o " + "x" * 200_000)
    assert time.monotonic() - start < 1


@pytest.mark.parametrize(
    ("name", "like"),
    [
        ("o-w_x-pth", True),
        ("id-whites-faction", True),
        ("O_w_x_path", True),
        ("whatever.path", True),
        ("a path", True),
        ("mypath", False),
        ("Text1", False),
        ("topmostSubform[0].Page1[0].Turn", True),
        ("return", False),
    ],
)
def test_issue41_11_a_name_of_kitgen_shape_is_judged_as_before(name: str, like: bool) -> None:
    from kitgen.orders.formread import _kitgen_like

    assert _kitgen_like(name) is like


def test_issue41_16_more_fields_than_any_form_has_is_said_so(sample: Path, tmp_path: Path) -> None:
    """210,000 fields were reported as "damaged or cut short"."""
    n = 210_000
    kids = b" ".join(b"%d 0 R" % (5 + i) for i in range(n))
    data = form_pdf(b"4 0 R", b"[" + kids + b"]", *(b"<< /T (f%d) /V (x) >>" % i for i in range(n)))
    result, _ = import_pdf(sample, tmp_path, data)
    assert result.returncode == 1
    assert "damaged" not in result.stderr
    assert (
        "found a file that cannot be read as a PDF: it holds more fields or entries than any form has" in result.stderr
    )


def test_issue41_16_a_field_nested_deep_is_refused_soon_and_short(sample: Path, tmp_path: Path) -> None:
    """150,000 levels: a 300 KB error line after 73 s and 400 MB."""
    n = 150_000
    levels = (b"<< /T (o) /Kids [%d 0 R] >>" % (6 + i) for i in range(n))
    result, took = import_pdf(sample, tmp_path, form_pdf(b"[5 0 R]", b"null", *levels, b"<< /T (path) /V (x) >>"))
    assert result.returncode == 1 and took < 20
    assert "its fields nest more than 32 deep, deeper than any form's" in result.stderr
    assert max(len(line) for line in result.stderr.splitlines()) < 400


def test_issue41_16_pypdf_prints_nothing_of_its_own(sample: Path, tmp_path: Path) -> None:
    """A PDF of nested dictionaries made pypdf print a line for each: only kitgen's words now."""
    n = 20_000
    data = form_pdf(b"[4 0 R]", b"<< /T (a) /V (x) /X " + b"<< /A " * n + b">>" * n + b" >>")
    result, _ = import_pdf(sample, tmp_path, data)
    assert result.returncode == 1
    lines = result.stderr.splitlines()
    assert (
        len(lines) == 2
        and lines[0].startswith(f"{tmp_path / 'filled.pdf'}:1:1: found ")
        and lines[1] == "1 problem found"
    )


def test_issue41_16_an_unknown_qr_code_names_the_forms_current_version(sample: Path, tmp_path: Path) -> None:
    """The message said `KG2/...` while the forms were of version 3."""
    from kitgen.orders.sheetplan import FORM_VERSION

    page = _qr_page(tmp_path, "https://example.com/menu")
    result = process("orders", "scan", str(page), "--campaign", str(sample))
    assert result.returncode == 1
    assert f"expected the QR code of a kitgen order form (KG{FORM_VERSION}/...)" in result.stderr


def test_issue41_16_the_order_forms_fields_still_read(sample: Path, tmp_path: Path) -> None:
    """The bounds pass a real form: its fields read and imported as before."""
    from tests.forms import fill_with_pypdf

    form = tmp_path / "form.pdf"
    assert kitgen("orders", "form", str(sample), "--faction", "whites", "--out", str(form)).returncode == 0
    filled = fill_with_pypdf(form, {"o-w_7th_inf_div-path": "2129 2130"}, tmp_path / "filled.pdf")
    result = kitgen("orders", "import", str(filled), "--campaign", str(sample))
    assert result.returncode == 0, result.stderr
    log = yaml.safe_load((sample / "turns" / "turn-07.yaml").read_text(encoding="utf-8"))
    assert any(o.get("unit") == "w_7th_inf_div" for o in log["orders"]["whites"])


def test_issue41_08_prose_keeps_its_tabs_and_line_breaks_and_a_block_name_its_text(sample: Path) -> None:
    """Only one-line text refuses control characters: a house rule written as a block, with a tab
    or a line separator pasted from a word processor, still reads; a name written as a YAML block
    (`name: >`) loses only YAML's closing line break."""
    meta = sample / "campaign.yaml"
    rule = 'house_rules:\n  - "Rule 1:\\tno rail east of the Don.\\u2028Agreed."\n'
    meta.write_text(meta.read_text(encoding="utf-8").replace("house_rules: []\n", rule), encoding="utf-8")
    setup = sample / "setup.yaml"
    text = setup.read_text(encoding="utf-8")
    assert "name: Kharkov Communist Regiment," in text
    setup.write_text(text.replace("name: Kharkov Communist Regiment,", 'name: "Kharkov Communist Regiment\\n",'))
    done = kitgen("units", str(sample), "--format", "json")
    assert done.returncode == 0, done.stderr
    assert "Kharkov Communist Regiment" in done.stdout and "Kharkov Communist Regiment\\n" not in done.stdout
    assert run_cli("validate", str(sample)).returncode == 0
