"""`kitgen validate` tells the truth (issue 11): on a copy of the sample campaign, each silent
mistake of an umpire's log is a warning at its line, the summary counts them, and `--strict`
exits 1. The positions are read from the replay, so the log fits whatever the sample does."""

from __future__ import annotations

import re
import shutil
from collections.abc import Collection
from pathlib import Path

import pytest
import yaml

from kitgen.campaign import load_campaign
from kitgen.engine.replay import replay
from kitgen.engine.state import CampaignState
from kitgen.mapping.board import Board
from tests.conftest import SAMPLE, run_cli


def walk(board: Board, start: str, hexes: int, avoid: Collection[str] = ()) -> list[str]:
    """A path of neighbours from `start`, over land and round the hexes to `avoid`, `hexes` long."""
    path = [start]
    while len(path) <= hexes:
        path.append(
            next(n for n in board.neighbours(path[-1]) if n not in path and not board.is_sea(n) and n not in avoid)
        )
    return path


def two_away(board: Board, start: str) -> str:
    near = set(board.neighbours(start))
    return next(f for n in sorted(near) for f in board.neighbours(n) if f != start and f not in near)


def mistakes(state: CampaignState, board: Board) -> tuple[dict[str, object], dict[str, str]]:
    """Turn 7's log with one of each silent mistake, and the warning each must raise, by key."""
    at = {u.id: u.hex for u in state.units}
    train = next(t for t in state.trains if t["id"] == "r_train_kharkov")
    rails = [n for n in board.rail_neighbours(train["hex"]) if n not in state.wrecked_track]
    elsewhere = next(u.id for u in state.units if u.faction == "reds" and u.hex != train["hex"])
    slip = state.slips["reds"][0]
    foes = {u.hex for u in state.units if u.faction != "whites"}  # a move into them would stop, not be void
    log = {
        "turn": 7,
        "orders": {
            "whites": [
                {"unit": "w_drozdovsky_1", "move": walk(board, at["w_drozdovsky_1"], 4, foes)},  # too long
                {"unit": "w_kornilov_1", "move": [at["w_kornilov_1"], two_away(board, at["w_kornilov_1"])]},
                {"unit": "w_markov_1", "move": [board.neighbours(at["w_markov_1"])[0], at["w_markov_1"]]},
                {"unit": "w_shkuro_cav", "move": walk(board, at["w_shkuro_cav"], 1)},
                {"unit": "w_shkuro_cav", "move": walk(board, at["w_shkuro_cav"], 1)},  # ordered twice
            ]
        },
        "rail": {"reds": [{"train": "r_train_kharkov", "carry": [elsewhere], "path": [train["hex"], rails[0]]}]},
        "place": {"reds": [{"slip": slip + "x"}]},  # a slip id with a typo
        "dice": [{"purpose": "II.A event roll, turn 7", "value": 6}],  # the top card takes stands
    }
    expect = {
        "too long": "w_drozdovsky_1",
        "skips a hex": "w_kornilov_1",
        "not at the unit": "w_markov_1",
        "twice": "w_shkuro_cav",
        "cargo": elsewhere,
        "slip": slip + "x",
    }
    return log, expect


@pytest.fixture(scope="module")
def mistaken(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], list[str]]:
    folder = tmp_path_factory.mktemp("validate") / "campaign"
    shutil.copytree(SAMPLE, folder)
    campaign = load_campaign(folder)
    state = replay(campaign)
    log, expect = mistakes(state, campaign.board)
    path = folder / "turns" / "turn-07.yaml"
    path.write_text(yaml.safe_dump(log), encoding="utf-8")
    rolled = replay(load_campaign(folder)).rolls  # every command obeys, so only the mistakes fail
    log["dice"] += [{"purpose": r.purpose, "value": 1} for r in rolled if r.purpose.startswith("II.C ")]
    text = yaml.safe_dump(log, sort_keys=False, default_flow_style=None, width=1000)
    path.write_text(text, encoding="utf-8")
    return folder, expect, text.splitlines()


def warnings_of(folder: Path, *extra: str) -> tuple[int, list[str]]:
    run = run_cli("validate", str(folder), *extra)
    return run.returncode, run.stdout.splitlines()


def line_of(lines: list[str], *words: str) -> int:
    """The 1-based line of the log holding all of `words`."""
    return next(i for i, text in enumerate(lines, 1) if all(w in text for w in words))


def test_validate_warns_of_each_silent_mistake_at_its_line(mistaken: tuple[Path, dict[str, str], list[str]]) -> None:
    folder, expect, log = mistaken
    code, out = warnings_of(folder)
    assert code == 0
    turn7 = [w for w in out if "turn-07.yaml:" in w and ": warning: " in w]
    assert turn7 and all(re.search(r"turn-07\.yaml:\d+:\d+: warning: ", w) for w in turn7)  # file:line:column
    for what in ("skips a hex", "not at the unit"):
        unit = expect[what]
        line = line_of(log, unit)
        assert any(f"turn-07.yaml:{line}:" in w and ": warning:" in w and "void" in w for w in turn7), (what, turn7)
    line = line_of(log, expect["too long"])  # it stops, its MP spent (ruling of 2026-12-02): a warning all the same
    assert any(f"turn-07.yaml:{line}:" in w and ": warning:" in w and "then stops before" in w for w in turn7), turn7
    shkuro = [i for i, text in enumerate(log, 1) if expect["twice"] in text]
    assert len(shkuro) == 2 and any(f"turn-07.yaml:{shkuro[1]}:" in w and "a second move order" in w for w in turn7)
    cargo = line_of(log, "r_train_kharkov")
    assert any(f"turn-07.yaml:{cargo}:" in w and f"leaves behind {expect['cargo']}" in w for w in turn7)
    slip = line_of(log, expect["slip"])
    assert any(f"turn-07.yaml:{slip}:" in w and "is waiting to be placed" in w for w in turn7)
    assert any("no `remove:` says from which units" in w for w in turn7)  # the card's stands never written
    summary = out[-1]
    assert summary.startswith(f"{folder}: ok: 7 turns, ") and summary.split(", ")[1].endswith(
        "warnings (campaign of denikin-1919"
    )
    count = int(summary.split(", ")[1].split()[0])
    assert count == len([w for w in out if ": warning: " in w])


def test_validate_strict_exits_1_on_any_warning(mistaken: tuple[Path, dict[str, str], list[str]]) -> None:
    folder, _, _ = mistaken
    assert warnings_of(folder, "--strict")[0] == 1


def test_validate_reports_every_malformed_log_in_one_run(tmp_path: Path) -> None:
    """Schema and syntax problems of every turn file come in one run."""
    folder = tmp_path / "campaign"
    shutil.copytree(SAMPLE, folder)
    (folder / "turns" / "turn-02.yaml").write_text("turn: 2\norders: [\n", encoding="utf-8")
    (folder / "turns" / "turn-05.yaml").write_text("turn: 5\nbogus: 1\n", encoding="utf-8")
    run = run_cli("validate", str(folder))
    assert run.returncode == 1
    assert "turn-02.yaml:" in run.stderr and "turn-05.yaml:2:" in run.stderr


def test_a_replay_that_stops_names_the_logs_it_did_not_check(tmp_path: Path) -> None:
    folder = tmp_path / "campaign"
    shutil.copytree(SAMPLE, folder)
    (folder / "turns" / "turn-04.yaml").write_text("turn: 4\norders: {nobody: []}\n", encoding="utf-8")
    run = run_cli("validate", str(folder))
    assert run.returncode == 1
    note = next(line for line in run.stderr.splitlines() if "not checked" in line)
    assert "turn-05.yaml" in note and "turn-06.yaml" in note and "turn-04.yaml:1:1: note:" in note
