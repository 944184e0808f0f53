"""The command line: help, lazy imports, look-ups and the scenario export."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kitgen.cli import app
from tests import seed_text
from tests.conftest import edit

runner = CliRunner()


def kitgen(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("group", [[], ["orders"], ["lookup"], ["scenario"]])
def test_a_command_list_gives_each_command_its_summary_on_one_line(group: list[str]) -> None:
    """A docstring's line breaks are no breaks in the list: on a wide terminal, each command's
    summary (its docstring's first paragraph) stands whole on its own line."""
    import inspect

    from kitgen import cli

    env = {**os.environ, "COLUMNS": "600", "TERM": "dumb"}
    shown = subprocess.run(
        [sys.executable, "-m", "kitgen", *group, "--help"], capture_output=True, text=True, check=True, env=env
    ).stdout.splitlines()
    typer_app = cli.app
    for word in group:
        typer_app = next(g.typer_instance for g in typer_app.registered_groups if g.name == word and g.typer_instance)
    commands = [c for c in typer_app.registered_commands if c.callback and c.callback.__doc__]
    assert commands
    for info in commands:
        assert info.callback is not None and info.callback.__doc__ is not None
        summary = " ".join(inspect.cleandoc(info.callback.__doc__).split("\n\n")[0].split())
        assert any(summary in line for line in shown), summary


def test_help_lists_every_command_with_one_line() -> None:
    result = subprocess.run([sys.executable, "-m", "kitgen", "--help"], capture_output=True, text=True, check=True)
    for command in ("validate", "scenario", "lookup"):
        assert command in result.stdout
    lookup = kitgen("lookup", "--help")
    for sub in (
        "move",
        "load",
        "town",
        "reinforcements",
        "vp",
        "commander",
        "leaderless",
        "breakdown",
        "losses",
        "evade",
        "ambush",
        "depot",
        "makhnovists",
        "events",
    ):
        assert f" {sub} " in lookup


def test_help_imports_no_heavy_library() -> None:
    """`kitgen --help` must stay instant: reportlab, shapely, pyproj and pydantic load only when used."""
    code = (
        "import sys; from kitgen.cli import app\n"
        "try:\n    app(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = sorted(m for m in ('reportlab', 'shapely', 'pyproj', 'pydantic', 'yaml') if m in sys.modules)\n"
        "print('HEAVY', heavy, file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "HEAVY []" in result.stderr


def test_lookup_move() -> None:
    out = kitgen("lookup", "move", "cavalry", "forest", "--river", "crossable")
    assert (
        out.strip() == "Cavalry (4 MP) into forest across a crossable river: 3 MP (forest 2, +1 crossable river) [A.1]"
    )
    out = kitgen("lookup", "move", "armoured-car", "marsh")
    assert "prohibited" in out and "(p*)" in out and "a move stops before the hex" in out
    out = kitgen("lookup", "move", "infantry", "open", "--river", "major", "--pontoon")
    assert "2 MP (major river by pontoon or ferry: the whole move); it ends the move across [A.1]" in out
    out = kitgen("lookup", "move", "infantry", "mountain", "--river", "crossable")
    assert "more than its 2 MP: a move stops before the hex" in out


def test_lookup_load() -> None:
    out = kitgen("lookup", "load", "infantry=4", "cavalry=2")
    assert out.strip() == "Train load: 4 infantry x 1 = 4; 2 cavalry x 3 = 6; total 10 of 12 points: fits [C.1]"
    out = kitgen("lookup", "load", "depot=1", "artillery=2", "--carrier", "ship")
    assert "total 18 of 16 points: does not fit (2 over) [D.3]" in out


def test_lookup_town_by_seed_spelling_and_old_name() -> None:
    assert kitgen("lookup", "town", "Rostov-na-donu").startswith(
        "Rostov (also Rostov-na-donu, Rostov-on-Don): Reds 4, Whites 3, Ukrainians 0"
    )
    assert "Ukrainians - (no VP)" in kitgen("lookup", "town", "tsaritsyn")
    assert kitgen("lookup", "town", "Elisavetgrad").startswith("Kirovograd")


def test_lookup_commander_and_failures() -> None:
    out = kitgen("lookup", "commander", "Wrangl", "--failures", "1")
    assert out.startswith("Wrangel (seed: Wrangl), Whites rank 2: dependability 8, charismatic")
    assert "obeys on D10 1-9 after 1 failure" in out and "90%" in out
    assert "obeys on D10 1: 10%" in kitgen("lookup", "commander", "denikin")


def test_lookup_leaderless() -> None:
    assert "obeys on D10 1-3: 30%" in kitgen("lookup", "leaderless")
    assert "obeys on D10 1-4: 40%" in kitgen("lookup", "leaderless", "--adjacent")


def test_lookup_reinforcements_and_vp() -> None:
    assert "7 draws from the Reds pile [II.E.2]" in kitgen("lookup", "reinforcements", "reds", "6")
    assert "2 chart rolls (30 VP each), 7 VP carried over" in kitgen("lookup", "vp", "Reds", "67")


def test_lookup_losses_breakdown_partisans_depot() -> None:
    assert "4 lost for good (55%, half up), 3 return next turn; of 3 routed, 2 desert" in kitgen(
        "lookup", "losses", "loser", "7", "--routed", "3"
    )
    assert "lost for the campaign on 2, 3: 8.3%" in kitgen("lookup", "breakdown", "armoured-car")
    assert "no breakdown roll (carried by train or ship)" in kitgen("lookup", "breakdown", "tank", "--carried")
    assert "D6+5" in kitgen("lookup", "evade", "--makhno", "--cover", "--no-enemy-cavalry")
    assert "D6+1, springs on 6 or more (a natural 5+): 33.3%" in kitgen("lookup", "ambush", "--makhno")
    assert "emptied on 1-2: 33.3%" in kitgen("lookup", "depot", "2")
    assert "D6-3" in kitgen("lookup", "makhnovists", "--no-gulai-pole", "--no-makhno-alive")
    assert "draw a card on 6: 16.7%" in kitgen("lookup", "events")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["lookup", "town", "Rostoff"], "kitgen: found no town 'Rostoff' in the VP table"),
        (["lookup", "move", "zeppelin", "open"], "kitgen: found the unknown unit type 'zeppelin', expected one of"),
        (["lookup", "load", "infantry4"], "kitgen: found 'infantry4'; expected KIND=COUNT"),
        (["lookup", "vp", "reds", "--", "-5"], "Invalid value for 'total'"),
        (["lookup", "reinforcements", "makhnovists", "3"], "'makhnovists', which has no reinforcement chart"),
    ],
)
def test_lookup_errors_are_messages_not_tracebacks(args: list[str], message: str) -> None:
    result = subprocess.run([sys.executable, "-m", "kitgen", *args], capture_output=True, text=True, check=False)
    assert result.returncode == 2
    assert message in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("args", "found", "suggested"),
    [
        (["lookup", "town", "Kief"], "no town 'Kief'", "Kiev"),
        (["lookup", "town", "Rostoff"], "no town 'Rostoff'", "Rostov"),
        (["lookup", "commander", "Vatsetiss"], "no commander 'Vatsetiss'", "Vatsetis"),
        (["lookup", "vp", "whits", "40"], "the unknown faction 'whits'", "whites"),
        (["lookup", "move", "armored-car", "open"], "the unknown unit type 'armored_car'", "armoured_car"),
        (["lookup", "move", "cavalry", "forrest"], "the unknown terrain 'forrest'", "forest"),
        (["lookup", "load", "infantry=2", "cavalery=1"], "the unknown stand kind 'cavalery'", "cavalry"),
    ],
)
def test_lookup_of_an_unknown_name_suggests_the_nearest(args: list[str], found: str, suggested: str) -> None:
    """A look-up's argument the rules do not know is bad usage (exit 2), with a did-you-mean."""
    result = subprocess.run([sys.executable, "-m", "kitgen", *args], capture_output=True, text=True, check=False)
    assert result.returncode == 2 and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"kitgen: found {found}")
    assert line.endswith(f"; did you mean '{suggested}'?")


def test_scenario_show_json_has_every_town_and_commander_with_seed_numbers() -> None:
    data = json.loads(kitgen("scenario", "show", "denikin-1919", "--format", "json"))
    assert data["schema_version"] == 1
    assert len(data["towns"]) == 73 and len(data["commanders"]) == 59
    for (seed_name, red, white, ukrn), town in zip(seed_text.vp_table(), data["towns"], strict=True):
        assert seed_name in [town["name"], town["seed_name"], *town["aliases"]]
        assert [town["vp"]["reds"], town["vp"]["whites"], town["vp"]["ukrainians"]] == [
            None if c == "-" else int(c) for c in (red, white, ukrn)
        ]
    by_name = {c["seed_name"] or c["name"]: c for c in data["commanders"]}
    for faction, seed_name, dependability, charismatic in seed_text.commander_table():
        c = by_name[seed_name]
        assert (c["faction"], c["dependability"], c["charismatic"]) == (faction, dependability, charismatic)
    assert by_name["Trotsky"]["rank"] == 1


def test_scenario_show_text_prints_the_tables() -> None:
    out = kitgen("scenario", "show")
    assert "Cavalry" in out and "Rostov" in out and "Epifan Kovtyukh" in out
    assert "Thresholds: Reds 30, Whites 45, Ukrainians 40" in out


def test_scenario_show_is_deterministic_across_hash_seeds() -> None:
    """Same inputs, same bytes: no output may depend on set or dict iteration order."""
    outputs = [
        subprocess.run(
            [sys.executable, "-m", "kitgen", "scenario", "show", "--format", fmt],
            capture_output=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for fmt in ("json", "text")
        for seed in ("1", "2")
    ]
    assert outputs[0] == outputs[1] and outputs[2] == outputs[3]


def test_unwritable_out_is_a_message_not_a_traceback(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "kitgen", "scenario", "show", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 2  # the command line names a folder where a file is expected: bad usage
    assert result.stderr == f"kitgen: {tmp_path} is a folder; expected a file name\n"


def test_out_file_is_replaced_whole_and_kept_on_failure(tmp_path: Path, scenario_copy: Path) -> None:
    """A failed run leaves earlier outputs untouched and no temporary file behind."""
    out = tmp_path / "out" / "scenario.json"
    subprocess.run(
        [sys.executable, "-m", "kitgen", "scenario", "show", str(scenario_copy), "-f", "json", "--out", str(out)],
        check=True,
        capture_output=True,
    )
    before = out.read_bytes()
    assert json.loads(before)["meta"]["id"] == "denikin-1919"
    edit(scenario_copy / "command.yaml", "roll: D10", "roll: D7")
    result = subprocess.run(
        [sys.executable, "-m", "kitgen", "scenario", "show", str(scenario_copy), "-f", "json", "--out", str(out)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 1
    assert out.read_bytes() == before
    assert sorted(p.name for p in out.parent.iterdir()) == ["scenario.json"]


@pytest.mark.parametrize(
    "args",
    [
        ["lookup", "town", "Kiev"],
        ["lookup", "commander", "Wrangl", "--failures", "1"],
        ["scenario", "list"],
        ["validate", "data/denikin-1919"],
        ["lookup", "load", "infantry=4", "--carrier", "ship"],
    ],
)
def test_the_entry_point_builds_only_the_command_named_and_answers_the_same(args: list[str]) -> None:
    """`kitgen X` builds only command X (typer builds every command it holds, on every run):
    the answer is the same as the whole app's."""
    from kitgen.cli import _app_for
    from tests.conftest import ROOT, run_cli

    whole = runner.invoke(app, args)
    trimmed = _app_for(args)
    assert trimmed is not app and len(trimmed.registered_commands) + len(trimmed.registered_groups) == 1
    assert run_cli(*args, cwd=ROOT).stdout == whole.output


@pytest.mark.parametrize(("args", "listed"), [(["--help"], "validate"), (["lookup", "--help"], "reinforcements")])
def test_help_and_misspelt_commands_get_the_whole_app(args: list[str], listed: str) -> None:
    from tests.conftest import run_cli

    assert listed in run_cli(*args).stdout
    misspelt = run_cli("lookup", "twn", "Kiev")
    assert misspelt.returncode == 2 and "Did you mean 'town'?" in misspelt.stderr


def test_validate_takes_a_bundled_scenarios_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An installed kitgen has no data/ folder to point at: `kitgen validate tsaritsyn-1919`
    checks the bundled scenario of that name; a name that is none is refused, naming them."""
    monkeypatch.chdir(tmp_path)
    done = runner.invoke(app, ["validate", "tsaritsyn-1919"])
    assert done.exit_code == 0, done.output
    assert "tsaritsyn-1919: ok (" in done.output
    wrong = subprocess.run(
        [sys.executable, "-m", "kitgen", "validate", "tsaritsyn-19"], cwd=tmp_path, capture_output=True, text=True
    )
    assert wrong.returncode == 2 and "did you mean 'tsaritsyn-1919'?" in wrong.stderr
