"""Issue 10: each reproducer of the hardening review, as a named regression test.

Hostile or broken inputs end in a catalogued message with file:line:column (exit 1 for bad
data, 2 for bad usage), never a traceback, a hang or an unbounded read; outputs go only where
they were asked for, as regular files.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from kitgen.errors import KitgenError
from kitgen.yamlsource import load_yaml
from tests.conftest import BUNDLED, SAMPLE, Run, run_cli

TIMEOUT = 60  # seconds: far beyond any answer; a hang fails instead of stalling the suite


def kitgen(*args: str, cwd: Path | None = None) -> Run:
    """In process: for inputs that cannot hang even if kitgen regressed."""
    return run_cli(*args, cwd=cwd)


def process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """A process of its own, with a timeout: for inputs that once hung kitgen."""
    result = subprocess.run(
        [sys.executable, "-m", "kitgen", *args], capture_output=True, text=True, timeout=TIMEOUT, cwd=cwd, check=False
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


@pytest.fixture
def sample(tmp_path: Path) -> Path:
    """A copy of the sample campaign reading the bundled scenario."""
    folder = tmp_path / "sample"
    shutil.copytree(SAMPLE, folder)
    return folder


def last_log(campaign: Path) -> Path:
    return sorted((campaign / "turns").glob("turn-*.yaml"))[-1]


# --- hangs and unbounded reads -------------------------------------------------------------


def test_a_fifo_in_place_of_a_turn_log_is_refused_at_once(sample: Path) -> None:
    log = last_log(sample)
    log.unlink()
    os.mkfifo(log)
    result = process("validate", str(sample))
    assert result.returncode == 1
    assert f"{log.name}:1:1: found a FIFO (named pipe); expected a regular file" in result.stderr


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_a_turn_log_linked_to_a_device_is_refused_unread(sample: Path, device: str) -> None:
    log = last_log(sample)
    log.unlink()
    log.symlink_to(device)
    result = process("state", str(sample))
    assert result.returncode == 1
    assert f"{log.name}:1:1: found a device; expected a regular file" in result.stderr


def test_a_file_that_grows_past_the_limit_is_cut_off_while_reading(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The size is capped while reading, not only from stat: a file larger than the limit is
    refused after reading at most the limit (and one chunk), whatever stat said before."""
    from kitgen import inputs

    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: 1\n" * 1000)
    monkeypatch.setattr(inputs, "TEXT_BYTES", 100)
    with pytest.raises(KitgenError) as caught:
        load_yaml(big)
    assert [p.code for p in caught.value.problems] == ["file.too_big"]


# --- tracebacks ----------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [70, 500, 5000, 100_000])
def test_deep_nesting_is_a_clear_message(sample: Path, depth: int) -> None:
    """`dice: [[[[...]]]]` nested past the limit: the message says so, at its line."""
    log = last_log(sample)
    log.write_text(log.read_text() + "\nnotes: " + "[" * depth + "]" * depth + "\n")
    result = kitgen("validate", str(sample))
    assert result.returncode == 1
    assert "nested more than 64 deep" in result.stderr


def test_deep_block_nesting_is_a_clear_message(sample: Path) -> None:
    log = last_log(sample)
    log.write_text(log.read_text() + "\nnotes:\n" + "".join(" " * i + "- \n" for i in range(0, 1400, 2)))
    result = kitgen("validate", str(sample))
    assert result.returncode == 1
    assert "nested more than 64 deep" in result.stderr


def test_a_symlink_loop_is_named_not_a_crash(sample: Path) -> None:
    log = last_log(sample)
    log.unlink()
    log.symlink_to(log.name)
    result = kitgen("validate", str(sample))
    assert result.returncode == 1
    assert f"{log.name}:1:1: found a loop of symbolic links" in result.stderr


def test_a_symlink_loop_as_the_scenario_folder_is_named(tmp_path: Path) -> None:
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    result = kitgen("validate", str(loop))
    assert result.returncode == 2 and "found a loop of symbolic links" in result.stderr


@pytest.mark.parametrize("stands", ["100000000000000000000000000000", "10" * 2200, "10000"])
def test_a_huge_stand_count_in_a_battle_is_bad_data(sample: Path, stands: str) -> None:
    """10**29 stands and a 4,400-digit number: caught when read, at their line."""
    log = last_log(sample)
    text = log.read_text()
    assert "lost: {" in text
    log.write_text(text.replace("lost: {", f"lost: {{cavalry: {stands}, ", 1))
    result = kitgen("validate", str(sample))
    assert result.returncode == 1
    line = next(i for i, t in enumerate(log.read_text().splitlines(), 1) if stands[:20] in t)
    assert f"{log.name}:{line}:" in result.stderr
    assert ("expected at most 9999" in result.stderr) or ("expected at most 1,000,000,000,000,000" in result.stderr)


@pytest.mark.parametrize(
    "args",
    [
        ["lookup", "losses", "loser", "100000000000000000000000000000"],
        ["lookup", "losses", "winner", "1" * 4301],
        ["lookup", "load", "infantry=³"],
        ["lookup", "load", "infantry=" + "9" * 4301],
        ["lookup", "vp", "reds", "-1"],
        ["lookup", "depot", "0"],
    ],
)
def test_lookup_arguments_out_of_range_are_usage_errors(args: list[str]) -> None:
    result = kitgen(*args)
    assert result.returncode == 2 and result.stderr.strip(), result.stderr


# --- writes where they must not go -----------------------------------------------------------


def test_out_refuses_to_replace_a_fifo(sample: Path, tmp_path: Path) -> None:
    target = tmp_path / "fifo"
    os.mkfifo(target)
    result = process("state", str(sample), "--out", str(target))
    assert result.returncode == 2
    assert "is a FIFO (named pipe); expected a regular file or a new name" in result.stderr
    assert target.is_fifo()


def test_out_refuses_to_replace_a_socket(sample: Path, tmp_path: Path) -> None:
    target = tmp_path / "sock"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(target))
    try:
        result = kitgen("state", str(sample), "--out", str(target))
        assert result.returncode == 2 and "is a socket" in result.stderr
        assert target.is_socket()
    finally:
        server.close()


def test_out_refuses_to_replace_a_device() -> None:
    """`kitgen state --out /dev/null`, run as root, once replaced /dev/null with a plain file."""
    before = os.stat("/dev/null")
    result = kitgen("scenario", "show", "--out", "/dev/null")
    assert result.returncode == 2 and "is a character device" in result.stderr
    after = os.stat("/dev/null")
    assert (after.st_ino, after.st_rdev, after.st_mode) == (before.st_ino, before.st_rdev, before.st_mode)


def test_a_scenario_id_is_never_a_path(tmp_path: Path) -> None:
    """`id: "/tmp/elsewhere"` made `kitgen map` write PDFs there and `validate` write a map
    cache file outside the cache folder: an id must be a plain name."""
    scenario = tmp_path / "s"
    shutil.copytree(BUNDLED, scenario)
    elsewhere = tmp_path / "elsewhere"
    text = (scenario / "scenario.yaml").read_text()
    (scenario / "scenario.yaml").write_text(text.replace("id: denikin-1919", f'id: "{elsewhere}"', 1))
    for args in (["validate", str(scenario)], ["map", str(scenario)]):
        result = kitgen(*args, cwd=tmp_path)
        assert result.returncode == 1
        assert "scenario.yaml:" in result.stderr and "expected a name for files and folders" in result.stderr
    assert not elsewhere.exists() and not (tmp_path / "output").exists()


def test_new_with_a_folder_that_is_no_scenario_writes_nothing(tmp_path: Path) -> None:
    result = kitgen("new", str(tmp_path / "x"), "--scenario", "/etc")
    assert result.returncode == 1 and "not a scenario folder" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["my scen #1", "a: b", "it's [1]"])
def test_new_quotes_the_scenario_it_writes(tmp_path: Path, name: str) -> None:
    """`new` wrote the scenario path unquoted, so `my scen #1` or `a: b` made a campaign.yaml
    that does not load."""
    shutil.copytree(BUNDLED, tmp_path / name)
    made = kitgen("new", "camp", "--scenario", name, "--dice", "kitgen", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    checked = kitgen("validate", "camp", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert "outside the campaign folder" in checked.stdout


# --- silent or misplaced errors --------------------------------------------------------------


@pytest.mark.parametrize("kind", ["file", "dangling"])
def test_turns_that_is_no_folder_is_an_error(sample: Path, kind: str) -> None:
    shutil.rmtree(sample / "turns")
    if kind == "file":
        (sample / "turns").write_text("turn: 1\n")
    else:
        (sample / "turns").symlink_to("nowhere")
    result = kitgen("validate", str(sample))
    assert result.returncode == 1
    found = "a regular file" if kind == "file" else "a symbolic link to nothing"
    assert f"turns:1:1: found {found}; expected the folder of turn logs" in result.stderr


def test_a_control_character_is_reported_at_its_line(sample: Path) -> None:
    log = last_log(sample)
    lines = log.read_text().splitlines(keepends=True)
    lines[5] = lines[5].rstrip("\n") + " \x07\n"
    log.write_text("".join(lines))
    with pytest.raises(KitgenError) as caught:
        load_yaml(log)
    (problem,) = caught.value.problems
    assert (problem.line, problem.code) == (6, "yaml.control_character") and "U+0007" in problem.message


def test_a_bad_scenario_in_campaign_yaml_is_bad_data_at_its_line(sample: Path) -> None:
    (sample / "campaign.yaml").write_text("seed: 1\nscenario: denikin-1991\n")
    result = kitgen("validate", str(sample))
    assert result.returncode == 1
    assert "campaign.yaml:2:11: scenario: found 'denikin-1991'" in result.stderr
    assert "did you mean 'denikin-1919'?" in result.stderr


def test_a_read_that_fails_is_not_reported_as_a_write(sample: Path) -> None:
    (sample / "setup.yaml").unlink()
    (sample / "setup.yaml").mkdir()
    result = kitgen("state", str(sample))
    assert result.returncode == 1
    assert "setup.yaml:1:1: found a folder; expected a regular file" in result.stderr
    assert "write" not in result.stderr


def test_a_fifo_as_setup_yaml_is_not_reported_as_missing(sample: Path) -> None:
    (sample / "setup.yaml").unlink()
    os.mkfifo(sample / "setup.yaml")
    result = process("validate", str(sample))
    assert result.returncode == 1
    assert "setup.yaml:1:1: found a FIFO (named pipe); expected a regular file" in result.stderr


def test_a_missing_colon_is_reported_on_its_own_line(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("turn: 1\norders\n  reds: []\ndice: []\n")
    with pytest.raises(KitgenError) as caught:
        load_yaml(path)
    (problem,) = caught.value.problems
    assert (problem.line, problem.column, problem.code) == (2, 1, "yaml.missing_colon")
    assert "'orders'" in problem.message and "not valid YAML" not in problem.message


def test_a_missing_colon_before_a_nested_key_is_placed_on_its_line(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("orders:\n  reds:\n    - unit r_1\n      move: ['0101']\n")
    with pytest.raises(KitgenError) as caught:
        load_yaml(path)
    (problem,) = caught.value.problems
    assert (problem.line, problem.code) == (3, "yaml.missing_colon")


@pytest.mark.parametrize("text", ["turn: 1\norders:\n\treds: []\n", "a:\n  b:\n  \t- 1\n", "a:\n\t- 1\n"])
def test_a_tab_indent_says_tab(tmp_path: Path, text: str) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(KitgenError) as caught:
        load_yaml(path)
    (problem,) = caught.value.problems
    assert problem.code == "yaml.tab" and "tab" in problem.message
    assert text.split("\n")[problem.line - 1][problem.column - 1] == "\t"


def test_an_unquoted_hex_id_shows_its_octal_reading(sample: Path) -> None:
    """An unquoted `0110` was shown as 72 (YAML octal) with no hint."""
    log = last_log(sample)
    text = log.read_text()
    first = next(t for t in text.splitlines() if 'move: ["' in t)
    hex_id = first.split('move: ["')[1][:4]
    log.write_text(text.replace(first, first.replace(f'"{hex_id}"', "0110", 1), 1))
    result = kitgen("validate", str(sample))
    assert result.returncode == 1
    assert "found 0110 unquoted, which YAML reads as the octal number 72" in result.stderr
    assert "hex ids always go in quotes" in result.stderr
    assert result.stderr.count("\n") == 2  # one problem, then the count: the hex check does not repeat it


@pytest.mark.parametrize(
    "name", ["turn-06.yaml~", ".turn-06.yaml.swp", "notes.txt", "turn-06.yaml.bak", "#turn-06.yaml#"]
)
def test_editor_files_in_turns_are_skipped_with_a_note(sample: Path, name: str) -> None:
    shutil.copy(last_log(sample), sample / "turns" / name)
    for command in ("validate", "state"):
        result = kitgen(command, str(sample))
        assert result.returncode == 0, result.stderr
        assert f"{name}:1:1: note: skipped" in result.stderr


@pytest.mark.parametrize(("name", "right"), [("turn-1.yaml", "turn-01.yaml"), ("turn-07.yml", "turn-07.yaml")])
def test_a_misnamed_turn_log_stays_an_error(sample: Path, name: str, right: str) -> None:
    (sample / "turns" / name).write_text("turn: 7\n")
    result = kitgen("validate", str(sample))
    assert result.returncode == 1
    assert f"{name}:1:1: found {name}, which looks like a turn log but is misnamed; expected {right}" in result.stderr


# --- outputs that never collide --------------------------------------------------------------


def test_default_output_folders_never_collide(tmp_path: Path) -> None:
    """`kitgen map` wrote into the kit's folder under the kit's names, replacing its maps: now
    the map has output/NAME/map/, and each paper's kit its own output/NAME/kit-PAPER/."""
    result = kitgen("map", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    made = tmp_path / "output" / "denikin-1919"
    assert sorted(p.name for p in made.iterdir()) == ["map"]
    assert sorted(p.name for p in (made / "map").glob("*.pdf")) == ["map-poster.pdf", "map-tiles-a4.pdf"]
    assert "output/SCENARIO/kit-PAPER/" in " ".join(kitgen("kit", "--help").stdout.split())


def test_a_bad_layout_met_while_platypus_builds_a_document_keeps_its_problems() -> None:
    """reportlab's platypus re-raises an exception raised while it builds a document as the same
    type made from its text (`annotateException`): a bad layouts file met there (a map key's
    style read by a booklet page) still reaches the user as its file:line:column, not as one
    'problem' per letter of the message."""
    import io

    from reportlab.lib.pagesizes import A4
    from reportlab.platypus import SimpleDocTemplate
    from reportlab.platypus.doctemplate import ActionFlowable

    from kitgen.errors import KitgenError, Problem, UsageError
    from kitgen.messages import Msg

    class Document(SimpleDocTemplate):  # type: ignore[misc]
        error: Exception

        def handle_boom(self) -> None:  # an action run by an ActionFlowable, as page templates are
            raise self.error

    def build(error: Exception) -> None:
        doc = Document(io.BytesIO(), pagesize=A4)
        doc.error = error
        doc.build([ActionFlowable(("boom",))])

    problem = Problem("layouts/map.yaml", 9, 11, "poster.key_in: found a list, expected a number", "value.wrong_type")
    with pytest.raises(KitgenError) as raised:
        build(KitgenError([problem]))
    assert raised.value.problems == [problem]
    usage = Msg("usage.demo", "usage", "no scenario 'x'")
    with pytest.raises(UsageError) as wrong:
        build(UsageError(usage))
    assert wrong.value.msg == usage
