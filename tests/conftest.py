from __future__ import annotations

import shutil
from pathlib import Path

import pytest

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
