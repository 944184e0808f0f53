from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kitgen.campaign import new_campaign
from kitgen.loader import data_dir, load_scenario
from kitgen.model.scenario import Scenario

BUNDLED = data_dir() / "denikin-1919"


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
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A new campaign of the bundled scenario (seed 1919), its map cached in tmp_path."""
    monkeypatch.setenv("KITGEN_CACHE", str(tmp_path / "cache"))
    new_campaign(tmp_path / "c", "denikin-1919", 1919)
    return tmp_path / "c"


def log(folder: Path, turn: int, text: str = "orders: {}\n") -> Path:
    """Write turns/turn-NN.yaml of a campaign folder."""
    path = folder / "turns" / f"turn-{turn:02d}.yaml"
    path.write_text(f"turn: {turn}\n{text}", encoding="utf-8")
    return path
