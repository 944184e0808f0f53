"""Issue 22, part 4: nothing written where it must not be.

No output goes onto or into a campaign's own files or a scenario folder, however its path is
spelt; `kitgen turn` keeps its packets in a folder of its own; a linked turns/ or packets/ is
refused; no name becomes an order in the YAML kitgen writes, nor a formula in its CSV, nor a
terminal command in its messages; a full disk, a read-only folder and Ctrl-C end in a plain
message (or none), never a traceback.
"""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
import yaml

from kitgen.campaign import load_campaign, new_campaign
from kitgen.engine.replay import replay
from kitgen.engine.template import next_log
from kitgen.errors import Problem, UsageError
from kitgen.orders.rows import CSV_COLUMNS, neutralise_cell, unneutralise_cell
from kitgen.outputs import MANIFEST, ProductFolder, refuse_protected, yaml_comment, yaml_scalar, yaml_string
from kitgen.scenariofolders import data_dir
from tests.conftest import run_cli

PROTECTED = "expected a file or folder outside a campaign's own files"


@pytest.fixture
def camp(tmp_path: Path) -> Path:
    """A copy of the Tsaritsyn sample campaign (three turns played; the club plays on, so that its
    forms and packets have a turn to be printed for)."""
    folder = tmp_path / "C"
    shutil.copytree(data_dir() / "tsaritsyn-sample", folder)
    with (folder / "campaign.yaml").open("a", encoding="utf-8") as club:
        club.write("play_on: true\n")
    return folder


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under `folder`, by its relative path."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# --- 1. no --out onto or into a campaign's own files or a scenario folder --------------------


@pytest.mark.parametrize(
    ("args", "target", "what"),
    [
        (["units", "{C}"], "turns/turn-02.yaml", "the campaign's turn log turn-02.yaml"),
        (["hex", "{C}", "Tsaritsyn"], "campaign.yaml", "the campaign's campaign.yaml"),
        (["orders", "form", "{C}", "--faction", "reds", "--csv"], "setup.yaml", "the campaign's set-up setup.yaml"),
        (["state", "{C}"], "backups/turn-02.yaml.1", "the campaign's backup turn-02.yaml.1"),
        (
            ["scenario", "show", "tsaritsyn-1919"],
            "turns/notes.txt",
            "a file in the campaign's folder of turn logs turns/ (notes.txt)",
        ),
        (["map", "tsaritsyn-1919", "--format", "json"], "turns", "the campaign's folder of turn logs turns/"),
    ],
)
def test_no_out_writes_onto_a_campaigns_own_files(camp: Path, args: list[str], target: str, what: str) -> None:
    """`kitgen units C --out C/turns/turn-06.yaml` overwrote a played log; `orders form --csv
    --out C/setup.yaml` and `hex --out C/campaign.yaml` did the same."""
    (camp / "backups").mkdir()
    (camp / "backups" / "turn-02.yaml.1").write_text("turn: 2\n", encoding="utf-8")
    before = snapshot(camp)
    result = run_cli(*[a.format(C=camp) for a in args], "--out", str(camp / target))
    assert result.returncode == 2, result.stderr
    assert f"kitgen: found {camp / target} to be {what}; {PROTECTED}" in result.stderr
    assert snapshot(camp) == before
    assert sorted(p.name for p in camp.iterdir()) == ["backups", "campaign.yaml", "setup.yaml", "turns"]


def test_every_spelling_of_a_turn_log_is_refused(camp: Path, tmp_path: Path) -> None:
    """Links and `..` are resolved first: each spelling of turns/turn-02.yaml is refused alike,
    a link to it too (kitgen would replace the link, but the user meant the log)."""
    (tmp_path / "link.yaml").symlink_to(camp / "turns" / "turn-02.yaml")
    (tmp_path / "camp-link").symlink_to(camp)
    spellings = [
        (str(camp / "turns" / ".." / "turns" / "turn-02.yaml"), tmp_path),
        (str(camp / "setup.yaml" / ".." / "turns" / "turn-02.yaml"), tmp_path),
        ("camp-link/turns/turn-02.yaml", tmp_path),
        ("./C//turns/turn-02.yaml", tmp_path),
        ("link.yaml", tmp_path),
        ("turn-02.yaml", camp / "turns"),
        ("../turns/turn-02.yaml", camp / "turns"),
    ]
    before = snapshot(camp)
    for target, cwd in spellings:
        result = run_cli("state", str(camp), "--out", target, cwd=cwd)
        assert result.returncode == 2, (target, result.stderr)
        assert "to be the campaign's turn log turn-02.yaml" in result.stderr, (target, result.stderr)
    assert snapshot(camp) == before
    assert (tmp_path / "link.yaml").is_symlink()


def test_the_default_name_of_a_form_in_turns_is_refused(camp: Path) -> None:
    """`kitgen orders form` run from inside turns/ would write its default file among the logs."""
    result = run_cli("orders", "form", str(camp.resolve()), "--faction", "reds", "--csv", cwd=camp / "turns")
    assert (
        result.returncode == 2
        and "in the campaign's folder of turn logs turns/ (orders-reds-turn-04.csv)" in result.stderr
    )
    assert sorted(p.name for p in (camp / "turns").iterdir()) == ["turn-01.yaml", "turn-02.yaml", "turn-03.yaml"]


def test_an_out_elsewhere_in_the_campaign_folder_is_written(camp: Path) -> None:
    """The rule is no wider than it says: a file of the user's beside the record is written."""
    result = run_cli("units", str(camp), "--out", str(camp / "notes" / "units.txt"))
    assert result.returncode == 0, result.stderr
    assert "r_37th_div" in (camp / "notes" / "units.txt").read_text(encoding="utf-8")


def test_no_out_writes_into_a_scenario_folder(tmp_path: Path) -> None:
    scenario = tmp_path / "s"
    shutil.copytree(data_dir() / "tsaritsyn-1919", scenario)
    before = snapshot(scenario)
    for target in (scenario / "towns.yaml", scenario / "notes.txt", scenario / "geo" / "x.json"):
        result = run_cli("scenario", "show", str(scenario), "--out", str(target))
        assert result.returncode == 2, result.stderr
        assert f"to be inside the scenario folder {scenario}; {PROTECTED}" in result.stderr
    assert snapshot(scenario) == before and not (scenario / "geo").exists()


@pytest.mark.parametrize("name", ["denikin-1919", "tsaritsyn-1919"])
def test_the_bundled_scenario_folders_are_refused(name: str) -> None:
    """Judged without writing: a regression here must not write into data/."""
    for target in (data_dir() / name / "scenario.yaml", data_dir() / name / "new.txt", data_dir() / name):
        with pytest.raises(UsageError) as refused:
            refuse_protected(target)
        assert refused.value.msg.code == "out.protected" and f"scenario folder {data_dir() / name}" in str(
            refused.value
        )


@pytest.mark.parametrize(
    ("args", "target"),
    [
        (["kit", "--scenario", "tsaritsyn-1919"], "turns"),
        (["map", "tsaritsyn-1919"], "."),
        (["turn", "{C}"], "backups"),
    ],
)
def test_no_product_folder_is_a_campaigns_own(camp: Path, args: list[str], target: str) -> None:
    """The kit, the map and the packets are refused before any page is drawn."""
    before = snapshot(camp)
    started = time.monotonic()
    result = run_cli(*[a.format(C=camp) for a in args], "--out", str(camp / target))
    assert result.returncode == 2 and PROTECTED in result.stderr, result.stderr
    assert time.monotonic() - started < 20
    assert snapshot(camp) == before and not (camp / "backups").exists()


def test_a_product_folder_inside_turns_is_refused_by_the_writer_itself(camp: Path) -> None:
    """The rule lives in the writer: a caller that forgot to check is refused all the same."""
    inside = r"a file in the campaign's folder of turn logs turns/ \(packets\)"
    with pytest.raises(UsageError, match=inside), ProductFolder(camp / "turns" / "packets") as product:
        product.write("a.pdf", b"%PDF")
    assert not (camp / "turns" / "packets").exists()


# --- 2. turn --out keeps a manifest -------------------------------------------------------------


def test_turn_keeps_a_manifest_and_the_earlier_weeks(camp: Path) -> None:
    for turn in ("2", "3"):
        result = run_cli("turn", str(camp), "--turn", turn)
        assert result.returncode == 0, result.stderr
    week = {f"{who}-turn-0{n}-a4.pdf" for who in ("umpire", "reds", "whites") for n in (2, 3)}
    week |= {f"{form}-turn-0{n}-a4.pdf" for form in ("report-forms", "roll-sheet") for n in (2, 3)}  # the umpire's
    packets = camp / "packets"
    assert {p.name for p in packets.iterdir()} == week | {MANIFEST}
    assert set(json.loads((packets / MANIFEST).read_text(encoding="utf-8"))["files"]) == week
    assert run_cli("validate", str(camp)).returncode == 0


def test_a_gathering_folder_keeps_the_earlier_set_and_replaces_what_is_written_again(tmp_path: Path) -> None:
    folder = tmp_path / "packets"
    for files in ({"a.pdf": b"week 1 a", "b.pdf": b"week 1 b"}, {"b.pdf": b"week 2 b", "c.pdf": b"week 2 c"}):
        with ProductFolder(folder, keep=True) as product:
            for name, data in files.items():
                product.write(name, data)
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.name != MANIFEST} == {
        "a.pdf": b"week 1 a",
        "b.pdf": b"week 2 b",
        "c.pdf": b"week 2 c",
    }
    assert json.loads((folder / MANIFEST).read_text(encoding="utf-8"))["files"] == ["a.pdf", "b.pdf", "c.pdf"]
    assert [p.name for p in tmp_path.iterdir()] == ["packets"]


def test_turn_refuses_a_folder_of_the_users_files(camp: Path, tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "letter.odt").write_text("dear umpire", encoding="utf-8")
    result = run_cli("turn", str(camp), "--out", str(mine))
    assert result.returncode == 2
    assert f"kitgen: {mine} holds files kitgen did not write (letter.odt)" in result.stderr
    assert [p.name for p in mine.iterdir()] == ["letter.odt"]
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_turn_into_turns_is_refused_and_the_campaign_still_plays(camp: Path) -> None:
    """`kitgen turn C --out C/turns` filled turns/ with PDFs that broke every later command."""
    before = snapshot(camp)
    result = run_cli("turn", str(camp), "--out", str(camp / "turns"))
    assert result.returncode == 2
    assert "to be the campaign's folder of turn logs turns/" in result.stderr
    assert snapshot(camp) == before
    assert run_cli("validate", str(camp)).returncode == 0


# --- 3. a linked turns/ or packets/ ---------------------------------------------------------------


@pytest.mark.parametrize("command", [["validate"], ["state"], ["units"], ["turn"]])
def test_a_linked_turns_folder_is_a_problem_at_turns(camp: Path, tmp_path: Path, command: list[str]) -> None:
    elsewhere = tmp_path / "elsewhere"
    (camp / "turns").rename(elsewhere)
    (camp / "turns").symlink_to(elsewhere)
    result = run_cli(*command, str(camp))
    assert result.returncode == 1
    assert (
        f"turns:1:1: found a symbolic link to {elsewhere}; expected the folder of turn logs, "
        "the campaign's own (a real folder inside it, not a link)"
    ) in result.stderr
    assert sorted(p.name for p in elsewhere.iterdir()) == ["turn-01.yaml", "turn-02.yaml", "turn-03.yaml"]
    assert not (camp / "packets").exists()


def test_packets_are_never_written_through_a_linked_packets_folder(camp: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (camp / "packets").symlink_to(elsewhere)
    result = run_cli("turn", str(camp))
    assert result.returncode == 2 and f"kitgen: {camp / 'packets'} is a symbolic link" in result.stderr
    assert list(elsewhere.iterdir()) == [] and (camp / "packets").is_symlink()


# --- 4. every value kitgen writes into YAML goes through the emitter ----------------------------

HOSTILE = [
    "c\norders:\n  reds:\n    - {unit: r_37th_div, move: ['5313', '5312']}\n#",
    "x: y",
    "a, b]",
    "it's #1",
    '"quoted"',
    "back\\slash",
    "\x1b[2J\x00\x07",
    "next\x85line\u2028sep\u2029par\rcr",
    "- dash",
    "yes",
    "null",
    "3416",
    "",
    "é ü ж",
]


@pytest.mark.parametrize("value", [*HOSTILE, 7, -1, True, None])
def test_a_yaml_value_loads_back_as_itself_on_one_line(value: str | int | bool | None) -> None:
    for written in (yaml_scalar(value), yaml_string(value)):
        assert not any(c in written for c in "\n\r\x85\u2028\u2029"), written
    assert yaml.safe_load(f"a: [{yaml_scalar(value)}, x]\nb: {yaml_scalar(value)}\n") == {"a": [value, "x"], "b": value}
    assert yaml.safe_load(f"a: {{k: {yaml_string(value)}}}\n") == {"a": {"k": str(value)}}
    assert yaml.safe_load(f"a: 1  # {yaml_comment(value)}\nb: 2\n") == {"a": 1, "b": 2}


def test_a_campaign_folder_name_cannot_write_an_order(tmp_path: Path) -> None:
    """A campaign folder named with a newline and YAML made `next` write a live order."""
    folder = tmp_path / HOSTILE[0]
    new_campaign(folder, "tsaritsyn-1919", 1919)
    campaign = load_campaign(folder)
    text = next_log(campaign, replay(campaign)).text
    log = yaml.safe_load(text)
    assert log["turn"] == 1 and log["orders"] == {"reds": None, "whites": None}
    assert "# c\\x0aorders:\\x0a  reds:\\x0a    - {unit: r_37th_div" in text.splitlines()[1]
    (folder / "turns" / "turn-01.yaml").write_text(text, encoding="utf-8")
    played = replay(load_campaign(folder))
    assert played.turn == 1
    assert next(u for u in played.units if u.id == "r_37th_div").hex == "5313"  # the order in the name: no move


def test_new_writes_a_scenario_path_as_one_yaml_value(tmp_path: Path) -> None:
    name = "s\nseed: 7\nhouse_rules: [x]\n#"
    shutil.copytree(data_dir() / "tsaritsyn-1919", tmp_path / name)
    made = run_cli("new", "camp", "--scenario", name, "--dice", "table", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    written = yaml.safe_load((tmp_path / "camp" / "campaign.yaml").read_text(encoding="utf-8"))
    assert written == {"scenario": os.path.join("..", name), "seed": 1919, "dice": "table", "house_rules": []}
    assert run_cli("validate", "camp", cwd=tmp_path).returncode == 0


# --- 5. every message escapes control characters -------------------------------------------------


def test_a_message_shows_control_characters_escaped(camp: Path) -> None:
    """An ESC, a NUL, a C1 CSI and a carriage return from a file never reach the terminal: a place
    holding them is refused where it is written, the message naming the first by its code point."""
    setup = camp / "setup.yaml"
    text = setup.read_text(encoding="utf-8")
    hostile = 'at: "Tsar\\e[2J\\0\\x9b\\ritsyn", commander: Klyuev}'
    setup.write_text(text.replace("at: Tsaritsyn, commander: Klyuev}", hostile, 1), encoding="utf-8")
    result = run_cli("validate", str(camp))
    assert result.returncode == 1
    for raw in ("\x1b", "\x00", "\x9b", "\r"):
        assert raw not in result.stderr
    assert "units[0].at: found the control character U+001B at character 5" in result.stderr


def test_a_usage_error_shows_control_characters_escaped() -> None:
    result = run_cli("lookup", "commander", "\x1b]0;owned\x07W\x9b", "--scenario", "tsaritsyn-1919")
    assert result.returncode == 2
    assert result.stderr.startswith("kitgen: found no commander '\\x1b]0;owned\\x07W\\x9b' in the scenario")
    assert not any(raw in result.stderr for raw in ("\x1b", "\x07", "\x9b"))


def test_problems_and_usage_errors_escape_all_but_the_line_breaks_between_lines() -> None:
    from kitgen import messages as msg

    problem = Problem("turn\x1b.yaml", 1, 2, "found 'a\x00b'\nsecond line\x9b\u2028", "x")
    assert str(problem) == "turn\\x1b.yaml:1:2: found 'a\\x00b'\nsecond line\\x9b\\u2028"
    refused = UsageError(msg.arg_bad_load_item("\x1b]0;owned\x07=1"))
    assert "\\x1b]0;owned\\x07=1" in str(refused) and "\x1b" not in str(refused)


# --- 6. every CSV kitgen writes neutralises formulas ------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        ('=HYPERLINK("http://evil","V")', '\'=HYPERLINK("http://evil","V")'),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-2+3", "'-2+3"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("'=1", "''=1"),
        ("-1", "-1"),
        ("+2.5", "+2.5"),
        ("3416", "3416"),
        ("'quoted", "'quoted"),
        ("", ""),
    ],
)
def test_a_formula_cell_is_neutralised_and_read_back_as_it_was(cell: str, written: str) -> None:
    assert neutralise_cell(cell) == written
    assert unneutralise_cell(written) == cell


def test_order_form_csv_neutralises_a_commander_named_as_a_formula(tmp_path: Path) -> None:
    """A commander named `=HYPERLINK(...)` went unescaped into `orders form --csv`."""
    scenario = tmp_path / "s"
    shutil.copytree(data_dir() / "tsaritsyn-1919", scenario)
    formula = '=HYPERLINK("http://evil","V")'
    for name, old in (
        ("commanders.yaml", "{name: Klyuev,"),
        ("setup.yaml", "commander: Klyuev}"),
        ("setup.yaml", "\n  Klyuev: {post:"),
    ):
        path = scenario / name
        new = old.replace("Klyuev", f"'{formula}'")
        path.write_text(path.read_text(encoding="utf-8").replace(old, new), encoding="utf-8")
    assert run_cli("new", str(tmp_path / "c"), "--scenario", str(scenario), "--dice", "table").returncode == 0
    out = tmp_path / "reds.csv"
    result = run_cli("orders", "form", str(tmp_path / "c"), "--faction", "reds", "--csv", "--out", str(out))
    assert result.returncode == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert list(rows[0]) == list(CSV_COLUMNS)
    led = [r for r in rows if r["id"] == "r_37th_div"][0]
    assert led["commander"] == "'" + formula and unneutralise_cell(led["commander"]) == formula
    assert all(not cell.startswith(("=", "+", "@", "\t", "\r")) for r in rows for cell in r.values())


# --- 7. a full disk, a read-only folder, Ctrl-C --------------------------------------------------


@pytest.mark.parametrize(("step", "code"), [("write", errno.ENOSPC), ("replace", errno.EROFS), ("mkdir", errno.EACCES)])
def test_a_write_the_system_refuses_is_a_plain_message_and_exit_1(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str, code: int
) -> None:
    out = tmp_path / "new" / "show.txt"
    if step != "mkdir":
        out.parent.mkdir()
        out.write_text("earlier", encoding="utf-8")
    real = getattr(os, step)

    def refused(*args: object, **kwargs: object) -> object:
        if any(str(a).startswith(str(tmp_path)) for a in args) or step == "write":
            raise OSError(code, os.strerror(code))
        return real(*args, **kwargs)

    monkeypatch.setattr(os, step, refused)
    result = run_cli("scenario", "show", "tsaritsyn-1919", "--out", str(out))
    monkeypatch.undo()
    assert result.returncode == 1
    where = out.parent if step == "mkdir" else out
    assert result.stderr == (
        f"kitgen: {where}: the system refused ({os.strerror(code)}); expected a file or folder kitgen may use\n"
    )
    if step != "mkdir":
        assert sorted(p.name for p in out.parent.iterdir()) == ["show.txt"]
        assert out.read_text(encoding="utf-8") == "earlier"


def test_a_full_disk_under_the_packets_leaves_the_earlier_set(camp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert run_cli("turn", str(camp), "--turn", "2").returncode == 0
    before = snapshot(camp)
    real = os.write

    def full(fd: int, data: object) -> int:
        if ".packets.kitgen-" in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(fd, data)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "write", full)
    result = run_cli("turn", str(camp), "--turn", "3")
    monkeypatch.undo()
    assert result.returncode == 1 and "the system refused (No space left on device)" in result.stderr
    assert snapshot(camp) == before
    assert [p.name for p in camp.iterdir() if p.name.startswith(".")] == []


def test_a_read_only_folder_is_a_plain_message_and_exit_1(tmp_path: Path) -> None:
    """A folder the system will not let kitgen write in: as root, sysfs (chmod binds no root);
    otherwise a folder made read-only."""
    if os.geteuid() == 0:
        folder = Path("/sys")
        if not folder.is_dir() or os.access(folder, os.W_OK) and _can_create(folder):
            pytest.skip("no folder here refuses root")
    else:
        folder = tmp_path / "ro"
        folder.mkdir()
        folder.chmod(0o555)
    result = subprocess.run(
        [sys.executable, "-m", "kitgen", "scenario", "show", "tsaritsyn-1919", "--out", str(folder / "show.txt")],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"kitgen: {folder / 'show.txt'}: the system refused (")
    assert not (folder / "show.txt").exists()


def _can_create(folder: Path) -> bool:
    try:
        (folder / ".kitgen-probe").touch()
    except OSError:
        return False
    (folder / ".kitgen-probe").unlink()
    return True


def test_an_interrupt_escaping_the_command_line_prints_no_traceback() -> None:
    """Ctrl-C while Python is still importing the command line (before main() can catch it)."""
    result = subprocess.run(
        [sys.executable, "-c", "import kitgen.cli\nraise KeyboardInterrupt"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.stderr == "" and result.returncode == -signal.SIGINT


RUNNER = """
import sys
import kitgen.cli
sys.stdout.write("ready\\n")
sys.stdout.flush()
sys.argv = ["kitgen", *sys.argv[1:]]
kitgen.cli.main()
"""


@pytest.mark.parametrize("delay", [0.0, 0.01, 0.03, 0.06, 0.1, 0.2, 0.4, 0.8])
def test_ctrl_c_at_any_moment_prints_no_traceback_and_leaves_no_temporary_file(camp: Path, delay: float) -> None:
    out = camp / "notes" / "state.txt"
    child = subprocess.Popen(
        [sys.executable, "-c", RUNNER, "state", str(camp), "--out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as a shell starts it
    )
    assert child.stdout is not None and child.stdout.readline() == "ready\n"
    time.sleep(delay)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert child.returncode in (0, 130, -signal.SIGINT), (child.returncode, err)  # done, stopped, or at exit
    left = [p.name for p in out.parent.iterdir()] if out.parent.exists() else []
    assert left in ([], ["state.txt"]), left


def _state_with_load_campaign(body: str, camp: Path) -> subprocess.CompletedProcess[str]:
    """`kitgen state` of `camp` in a child started as a shell starts it, its load_campaign
    replaced by the one `body` defines (and whatever it needs beside it)."""
    code = (
        "import signal, sys\nimport kitgen.cli\n"
        + textwrap.dedent(body)
        + "import kitgen.campaign\nkitgen.campaign.load_campaign = load_campaign\n"
        + 'sys.argv = ["kitgen", *sys.argv[1:]]\nkitgen.cli.main()\n'
    )
    return subprocess.run(
        [sys.executable, "-c", code, "state", str(camp)],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as a shell starts it
    )


def test_ctrl_c_wrapped_by_python_while_a_class_is_made_still_ends_quietly(camp: Path) -> None:
    """Ctrl-C that lands while Python makes a class (as the suite once caught, loading the map
    during `kitgen state`) reaches kitgen wrapped in "RuntimeError: Error calling __set_name__";
    it still ends as Ctrl-C does, with status 130 and no traceback."""
    result = _state_with_load_campaign(
        """
        class Stops:
            def __set_name__(self, owner, name):
                raise KeyboardInterrupt
        def load_campaign(folder):
            class Layers:  # Ctrl-C while a class is made: Python 3.11 wraps it in a RuntimeError
                places = Stops()
        """,
        camp,
    )
    assert (result.returncode, result.stderr) == (130, "")


def test_ctrl_c_a_library_reports_as_its_own_error_still_ends_quietly(camp: Path) -> None:
    """Ctrl-C that lands while pydantic-core builds a schema (as CI once caught, in `kitgen
    state`) comes back as a SchemaError that only names KeyboardInterrupt in its text; kitgen
    remembers the Ctrl-C itself, so it still ends with status 130 and no traceback."""
    result = _state_with_load_campaign(
        """
        def load_campaign(folder):
            caught = ""
            try:  # Ctrl-C while a library works, which reports it as its own error, the cause lost
                signal.raise_signal(signal.SIGINT)
            except BaseException as exc:
                caught = type(exc).__name__
            raise RuntimeError(f"Error building serializer: {caught}")  # no cause, no context: as pydantic-core's
        """,
        camp,
    )
    assert (result.returncode, result.stderr) == (130, "")


def test_ctrl_c_that_kitgen_itself_reported_as_a_problem_still_ends_as_ctrl_c(camp: Path) -> None:
    """Ctrl-C swallowed where kitgen turns any error into a problem of its input (reading a form)
    ends kitgen as Ctrl-C does, 130 and silent, not as bad input with status 1."""
    result = _state_with_load_campaign(
        """
        from kitgen.errors import KitgenError, Problem
        def load_campaign(folder):
            try:  # Ctrl-C met by kitgen's own catch-all (a form it could not read), reported as a problem
                signal.raise_signal(signal.SIGINT)
            except BaseException:
                pass
            raise KitgenError([Problem("orders.pdf", 1, 1, "the page could not be read", "scan")])
        """,
        camp,
    )
    assert (result.returncode, result.stderr) == (130, "")


def test_a_ctrl_c_python_ignored_does_not_hide_a_later_error() -> None:
    """A Ctrl-C ignored in a callback Python cannot raise from is no stop: an error after it is
    shown as that error (not taken for the Ctrl-C and ended silently)."""
    code = (
        "import kitgen.cli, signal, weakref\n"
        "class Thing: pass\n"
        "def interrupt(ref): signal.raise_signal(signal.SIGINT)\n"
        "a = Thing()\n"
        "keep = weakref.ref(a, interrupt)\n"
        "del a\n"
        "raise ValueError('shown')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert "KeyboardInterrupt" not in result.stderr
    assert "ValueError: shown" in result.stderr and result.returncode == 1


def test_an_interrupt_in_a_callback_python_cannot_raise_from_prints_no_traceback() -> None:
    """Ctrl-C that lands in a callback Python cannot raise from (an import's module lock, as the
    suite once caught at the very start of `kitgen state`) is ignored there: no "Exception ignored
    in ..." traceback; any other such error is still shown."""
    code = (
        "import kitgen.cli, weakref\n"
        "class Thing: pass\n"
        "def interrupt(ref): raise KeyboardInterrupt\n"
        "def other(ref): raise ValueError('shown')\n"
        "a, b = Thing(), Thing()\n"
        "keep = [weakref.ref(a, interrupt), weakref.ref(b, other)]\n"
        "del a\n"
        "del b\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=60)
    assert "KeyboardInterrupt" not in result.stderr
    assert "ValueError: shown" in result.stderr and result.returncode == 0
