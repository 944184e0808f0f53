from __future__ import annotations

import contextlib
import io
import os
import shutil
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kitgen.campaign import new_campaign
from kitgen.loader import load_scenario
from kitgen.mapping.hexmap import HexMap
from kitgen.model.scenario import Scenario
from kitgen.scenariofolders import data_dir

BUNDLED = data_dir() / "denikin-1919"
SAMPLE = data_dir() / "sample-campaign"
ROOT = Path(__file__).resolve().parent.parent


def pytest_configure(config: pytest.Config) -> None:
    """One map and scenario cache for the run, not the user's: made by the first process, the
    workers of xdist inherit it, so a scenario is checked and its map built once for all of them."""
    if "KITGEN_CACHE" not in os.environ:
        os.environ["KITGEN_CACHE"] = _MADE["cache"] = tempfile.mkdtemp(prefix="kitgen-test-cache-")


_MADE: dict[str, str] = {}


@pytest.fixture(autouse=True)
def no_forks_beside_the_workers(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """In an xdist worker, kitgen run in the test's process does its work there rather than in
    forked workers: every processor runs a test worker already, so a fork only adds its own cost
    (a tenth of the time of the tests that make packets). The forked paths are tested where a
    test asks for them (`@pytest.mark.forks`, `background=True`) and wherever kitgen runs as a
    process of its own; both paths make the same bytes."""
    if os.environ.get("PYTEST_XDIST_WORKER") and request.node.get_closest_marker("forks") is None:
        monkeypatch.setattr("kitgen.forking.can_fork", lambda: False)


def pytest_unconfigure(config: pytest.Config) -> None:
    if "cache" in _MADE and not hasattr(config, "workerinput"):  # the controller, once the workers are done
        shutil.rmtree(_MADE.pop("cache"), ignore_errors=True)


@dataclass(frozen=True)
class Run:
    returncode: int
    stdout: str
    stderr: str


def run_cli(*args: str, cwd: Path | None = None, answers: str = "") -> Run:
    """`kitgen ARGS` in this process, through the same entry point as the command (exit codes,
    messages), for the tests that need no process of their own; `answers` is its standard input,
    as a person would type them at its questions (none: the input ends at once)."""
    from kitgen.cli import main

    out, err = io.StringIO(), io.StringIO()
    code: int | str | None = 0
    before = os.getcwd()
    argv, stdin = sys.argv, sys.stdin
    try:
        sys.argv = ["kitgen", *args]
        sys.stdin = io.StringIO(answers)
        if cwd is not None:
            os.chdir(cwd)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main()
            except SystemExit as stop:
                code = stop.code
    finally:
        sys.argv, sys.stdin = argv, stdin
        os.chdir(before)
    assert "Traceback" not in err.getvalue(), err.getvalue()
    return Run(code if isinstance(code, int) else 1, out.getvalue(), err.getvalue())


SET_AS_TYPED = str.maketrans({"\u2013": "-", "\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
"""Printed typography undone (issue 25: en dashes in ranges, curly quotes), to find the data's
own words in a booklet, a card or an aid."""
SPELLED = {"Armored Cars": "Armoured Cars"}
"""The seed's names as the kit spells them (issue 25: one spelling of every term)."""


@pytest.fixture(scope="session")
def scenario() -> Scenario:
    return load_scenario(BUNDLED)


@pytest.fixture
def scenario_copy(tmp_path: Path) -> Path:
    """A writable copy of the bundled scenario, for breaking on purpose."""
    dest = tmp_path / "denikin-1919"
    shutil.copytree(BUNDLED, dest)
    return dest


def edit(path: Path, old: str, new: str) -> int:
    """Replace one exact text in a file; return the 1-based line where it stood."""
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} must occur exactly once in {path.name}"
    line = text[: text.index(old)].count("\n") + 1
    path.write_text(text.replace(old, new), encoding="utf-8")
    return line


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A new campaign of the bundled scenario (seed 1919). Its scenario and map come from the run's
    own cache (`pytest_configure`), checked and built once: a cache of its own would check the
    scenario's files and build the map again for every test."""
    new_campaign(tmp_path / "c", "denikin-1919", 1919)
    return tmp_path / "c"


def log(folder: Path, turn: int, text: str = "orders: {}\n") -> Path:
    """Write turns/turn-NN.yaml of a campaign folder."""
    path = folder / "turns" / f"turn-{turn:02d}.yaml"
    path.write_text(f"turn: {turn}\n{text}", encoding="utf-8")
    return path


# --- the fuzzer's count of cases tried, summed over xdist workers ---------------------------

_FUZZ_CASES = {"workers": 0}


def pytest_sessionfinish(session: pytest.Session) -> None:
    from tests.fuzzing import CASES

    output = getattr(session.config, "workeroutput", None)
    if output is not None:  # an xdist worker: hand the count to the controller
        output["fuzz_cases"] = CASES["count"]


def pytest_testnodedown(node: object, error: object) -> None:
    _FUZZ_CASES["workers"] += int(getattr(node, "workeroutput", {}).get("fuzz_cases", 0))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    from tests.fuzzing import CASES

    tried = _FUZZ_CASES["workers"] + CASES["count"]
    if tried:
        terminalreporter.write_line(f"fuzzing: {tried:,} cases tried, each ended in success or catalogued errors")
    for report in terminalreporter.getreports("passed") + terminalreporter.getreports("failed"):
        for name, value in getattr(report, "user_properties", ()):
            if name == "figures" and report.when == "call":
                terminalreporter.write_line(f"{report.nodeid.split('::')[-1]}: {value}")


# --- the printed map, built once per session (each xdist worker its own) -------------------


def kitgen_map(out: Path, cache: Path, *args: str) -> None:
    """`kitgen map --out OUT ARGS` in a child process, with its own map cache."""
    import subprocess

    env = {**os.environ, "KITGEN_CACHE": str(cache)}
    result = subprocess.run(
        [sys.executable, "-m", "kitgen", "map", "--out", str(out), *args],
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The map cache the printed-map tests share."""
    return tmp_path_factory.mktemp("map-cache")


@pytest.fixture(scope="session")
def a4(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path) -> Path:
    """The bundled map printed on A4: poster and tiles."""
    out = tmp_path_factory.mktemp("a4")
    kitgen_map(out, cache_dir)
    return out


@pytest.fixture(scope="session")
def letter(tmp_path_factory: pytest.TempPathFactory, cache_dir: Path) -> Path:
    """The bundled map printed on US Letter."""
    out = tmp_path_factory.mktemp("letter")
    kitgen_map(out, cache_dir, "--paper", "letter")
    return out


@pytest.fixture(scope="session")
def hex_map(cache_dir: Path) -> HexMap:
    """The bundled map's hex grid, from the shared cache."""
    from kitgen.loader import load_scenario_map

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KITGEN_CACHE", str(cache_dir))
        return load_scenario_map(BUNDLED)[1]


def trimmed_copy(source: Path, folder: Path, last: int, change: Any = None) -> Path:
    """A copy of the campaign `source` in `folder` with the logs after `last` taken away, and the
    last one's data changed by `change` (a function of the loaded YAML), if given."""
    import yaml

    shutil.copytree(source, folder)
    for path in (folder / "turns").glob("turn-*.yaml"):
        if int(path.stem.split("-")[1]) > last:
            path.unlink()
    if change is not None:
        log = folder / "turns" / f"turn-{last:02d}.yaml"
        data = yaml.safe_load(log.read_text(encoding="utf-8"))
        change(data)
        log.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return folder
