"""The validated scenario's cache: the same value as a full load, and nothing read back that
kitgen did not write for this user, for these files and this code."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from kitgen import scenariocache
from kitgen.loader import SCENARIO_FILES, load_scenario, load_scenario_parts
from tests.conftest import BUNDLED, edit


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KITGEN_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("scenario-*.pickle"))


def test_a_cached_scenario_is_the_scenario_a_full_load_gives(cache: Path) -> None:
    first = load_scenario(BUNDLED)
    (entry,) = entries(cache)
    assert oct(entry.stat().st_mode & 0o777) == oct(0o600)
    assert load_scenario(BUNDLED) == first == load_scenario_parts(BUNDLED)[0]


def test_an_edited_file_is_a_new_key(cache: Path, scenario_copy: Path) -> None:
    load_scenario(scenario_copy)
    edit(scenario_copy / "command.yaml", "failure_bonus: 1", "failure_bonus: 2")
    assert load_scenario(scenario_copy).command.failure_bonus == 2
    assert len(entries(cache)) == 2


@pytest.mark.parametrize("spoil", ["garbage", "group_writable", "symlink", "other_value"])
def test_a_spoilt_entry_is_a_miss_not_an_answer(cache: Path, spoil: str, tmp_path: Path) -> None:
    load_scenario(BUNDLED)
    (entry,) = entries(cache)
    key = entry.name.removeprefix("scenario-").removesuffix(".pickle")
    if spoil == "garbage":
        entry.write_bytes(b"not a pickle")
    elif spoil == "group_writable":
        os.chmod(entry, 0o620)
    elif spoil == "symlink":
        shutil.move(entry, tmp_path / "elsewhere.pickle")
        entry.symlink_to(tmp_path / "elsewhere.pickle")
    else:
        import pickle

        entry.write_bytes(pickle.dumps({"not": "a scenario"}))
    assert scenariocache.load(key) is None
    assert load_scenario(BUNDLED).meta.id == "denikin-1919"


def test_an_unreadable_file_makes_no_key(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    shutil.copytree(BUNDLED, folder)
    (folder / "towns.yaml").unlink()
    os.mkfifo(folder / "towns.yaml")
    assert scenariocache.key(folder, list(SCENARIO_FILES)) is None
