"""Fuzzing (issue 10): the bundled scenario, the sample campaign, each turn log and the look-ups,
broken in structure, values, encoding and file kind; every run ends in success or in
catalogued errors within a time and memory bound (tests/fuzzing.py judges).

CI runs a short profile (over 1,000 cases); `make fuzz` runs 20 times as many and prints the
count. Each case restores what it broke, so the cases share one scratch copy.
"""

from __future__ import annotations

import functools
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kitgen.campaign import Campaign, load_campaign
from kitgen.engine.replay import replay
from kitgen.engine.state import CampaignState
from kitgen.engine.turn import play_turn, read_log
from kitgen.loader import load_scenario_map
from kitgen.mapping.board import Board
from tests import fuzzing
from tests.conftest import BUNDLED, SAMPLE, run_cli
from tests.fuzzing import SCALE, judged, replace_with, text_mutation, tree_mutation

FUZZ = settings(
    deadline=None,
    database=None,
    derandomize=False,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
CAMPAIGN_FILES = ["campaign.yaml", "setup.yaml"]
LOGS = sorted(p.name for p in (SAMPLE / "turns").glob("turn-*.yaml"))


@pytest.fixture(scope="module")
def scenario(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("fuzz") / "scenario"
    shutil.copytree(BUNDLED, folder)
    return folder


@dataclass(frozen=True)
class Sample:
    folder: Path
    campaign: Campaign
    board: Board
    states: list[CampaignState]
    """The state after each turn (index 0: the set-up)."""


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Sample:
    """A copy of the sample campaign, loaded, and its state after each turn."""
    folder = tmp_path_factory.mktemp("fuzz") / "campaign"
    shutil.copytree(SAMPLE, folder)
    loaded = load_campaign(folder)
    board = Board.from_map(loaded.hex_map)
    states = [replay(loaded, 0)]
    for path in loaded.turns:
        states.append(played(loaded, states[-1], path))
    return Sample(folder, loaded, board, states)


def played(campaign: Campaign, state: CampaignState, path: Path) -> CampaignState:
    """The state after the turn of the log at `path`."""
    log, source = read_log(path)
    return play_turn(campaign, state, log, source=source).state


@st.composite
def mutation_of(draw: st.DrawFn, path: Path) -> bytes:
    """The file's bytes broken as text, or its data broken as a tree."""
    original = path.read_bytes()
    if draw(st.booleans()):
        return draw(text_mutation(original))
    return draw(tree_mutation(parsed(original)))


@functools.lru_cache(maxsize=16)
def parsed(original: bytes) -> Any:
    """The data of a file's bytes, parsed once for all its cases (tree_mutation copies it)."""
    return yaml.load(original, Loader=yaml.CSafeLoader)


def broken(path: Path, data: bytes) -> Any:
    """Write `data` at `path` for the case; the returned callable puts the original back."""
    original = path.read_bytes()
    path.write_bytes(data)
    return lambda: path.write_bytes(original)


@settings(FUZZ, max_examples=300 * SCALE)
@given(data=st.data())
def test_fuzz_scenario_files(scenario: Path, data: st.DataObject) -> None:
    """Any one file of the scenario broken: `load_scenario_map` (what validate, map and kit do)."""
    name = data.draw(st.sampled_from(fuzzing.SCENARIO_TARGETS))
    path = scenario / name
    restore = broken(path, data.draw(mutation_of(path)))
    try:
        judged(lambda: load_scenario_map(scenario))
    finally:
        restore()


@settings(FUZZ, max_examples=200 * SCALE)
@given(data=st.data())
def test_fuzz_campaign_files(campaign: Sample, data: st.DataObject) -> None:
    """campaign.yaml or setup.yaml broken: the campaign loaded and replayed."""
    folder = campaign.folder
    path = folder / data.draw(st.sampled_from(CAMPAIGN_FILES))
    restore = broken(path, data.draw(mutation_of(path)))
    try:
        judged(lambda: replay(load_campaign(folder)))
    finally:
        restore()


@settings(FUZZ, max_examples=350 * SCALE)
@given(data=st.data())
def test_fuzz_turn_logs(campaign: Sample, data: st.DataObject) -> None:
    """One turn log broken: that turn and the ones after it played from the state before it."""
    number = data.draw(st.integers(1, len(LOGS)))
    path = campaign.folder / "turns" / LOGS[number - 1]
    restore = broken(path, data.draw(mutation_of(path)))

    def play() -> None:
        state = campaign.states[number - 1]
        for later in campaign.campaign.turns[number - 1 :]:
            state = played(campaign.campaign, state, later)

    try:
        judged(play)
    finally:
        restore()


INPUTS = [f"scenario/{n}" for n in fuzzing.SCENARIO_TARGETS] + [f"campaign/{n}" for n in CAMPAIGN_FILES]
INPUTS += [f"campaign/turns/{n}" for n in LOGS] + ["campaign/turns"]


@settings(FUZZ, max_examples=100 * SCALE)
@given(target=st.sampled_from(INPUTS), kind=st.sampled_from(fuzzing.FILE_KINDS))
def test_fuzz_file_kinds(scenario: Path, campaign: Sample, target: str, kind: str) -> None:
    """A FIFO, a device, a symlink loop, a folder, a socket, an empty or a 50 MB file where an
    input should be (or a file where the turns folder should be)."""
    folder = campaign.folder
    where, _, name = target.partition("/")
    path = (scenario if where == "scenario" else folder) / name
    keep = path.parent.parent / f"keep-{path.name}"
    if path.is_dir():
        shutil.copytree(path, keep)
    else:
        shutil.copy(path, keep)
    close = replace_with(path, kind)
    try:
        if target.startswith("scenario/"):
            judged(lambda: load_scenario_map(scenario))
        else:
            judged(lambda: replay(load_campaign(folder)))
    finally:
        close()
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
        keep.rename(path)


TOKENS = st.sampled_from(
    [
        "Kiev",
        "kiev",
        "Elisavetgrad",
        "Kief",
        "reds",
        "whites",
        "ukrainians",
        "makhnovists",
        "greens",
        "infantry",
        "cavalry",
        "tank",
        "forest",
        "open",
        "marsh",
        "Wrangel",
        "Wrangl",
        "Nobody",
        "winner",
        "loser",
        "infantry=4",
        "infantry=³",
        "infantry=-1",
        "=4",
        "0",
        "1",
        "6",
        "-1",
        "99999999999999999999",
        "1" * 4400,
        "٣",
        "",
        " ",
        "--river",
        "major",
        "--bridge",
        "--failures",
        "--routed",
        "--elite",
        "--carrier",
        "ship",
        "--scenario",
        "/dev/null",
        "/nonexistent",
        "--adjacent",
        "--makhno",
        "--cover",
        "--help",
    ]
)
LOOKUPS = ["move", "load", "town", "vp", "reinforcements", "commander", "leaderless", "breakdown", "losses"]
LOOKUPS += ["evade", "ambush", "depot", "makhnovists", "events"]


@settings(FUZZ, max_examples=200 * SCALE)
@given(command=st.sampled_from(LOOKUPS), args=st.lists(TOKENS | st.text(max_size=10), max_size=5))
def test_fuzz_lookup_arguments(command: str, args: list[str]) -> None:
    """Any arguments to any look-up: an answer (0), or a usage message (2), never a traceback."""
    fuzzing.CASES["count"] += 1
    result = run_cli("lookup", command, *args)
    assert result.returncode in (0, 1, 2), result
    if result.returncode:
        assert result.stderr.strip(), "an error without a message"
