"""The campaign folder (issue 4, item 1): `kitgen new` starts one; `kitgen validate` checks it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import edit


def kitgen(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KITGEN_CACHE": str(cache)}
    return subprocess.run([sys.executable, "-m", "kitgen", *args], capture_output=True, text=True, check=False, env=env)


@pytest.fixture
def campaign(tmp_path: Path) -> Path:
    folder = tmp_path / "club-campaign"
    result = kitgen("new", str(folder), "--seed", "42", "--dice", "table", cache=tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    return folder


def test_new_starts_a_campaign_ready_for_turn_1(campaign: Path, tmp_path: Path) -> None:
    """Issue 4: "`kitgen new DIR` starts a campaign of the bundled scenario, ready for turn 1"."""
    assert (campaign / "campaign.yaml").read_text().count("seed: 42") == 1
    assert (campaign / "setup.yaml").is_file()
    assert (campaign / "turns").is_dir() and not list((campaign / "turns").iterdir())
    result = kitgen("validate", str(campaign), cache=tmp_path / "cache")
    assert result.returncode == 0, result.stderr
    assert "campaign of denikin-1919, seed 42" in result.stdout


def test_new_refuses_a_folder_in_use(campaign: Path, tmp_path: Path) -> None:
    """Nothing is lost: `kitgen new` never writes into a folder that holds anything."""
    before = (campaign / "setup.yaml").read_bytes()
    result = kitgen("new", str(campaign), cache=tmp_path / "cache")
    assert result.returncode == 2
    assert result.stderr.startswith("kitgen: ") and "not an empty folder" in result.stderr
    assert (campaign / "setup.yaml").read_bytes() == before


def test_bad_seed_is_a_file_line_column_error(campaign: Path, tmp_path: Path) -> None:
    line = edit(campaign / "campaign.yaml", "seed: 42", "seed: forty-two")
    result = kitgen("validate", str(campaign), cache=tmp_path / "cache")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert f"campaign.yaml:{line}:7: seed: found 'forty-two', expected a whole number" in result.stderr


def test_setup_names_a_commander_of_another_faction(campaign: Path, tmp_path: Path) -> None:
    """II.C: a commander leads his own faction's units."""
    text = (campaign / "setup.yaml").read_text(encoding="utf-8")
    line_no, line = next(
        (i, t) for i, t in enumerate(text.splitlines(), 1) if "faction: reds" in t and "commander:" in t
    )
    commander = line.split("commander:")[1].split(",")[0].split("}")[0].strip()
    edit(campaign / "setup.yaml", f"commander: {commander}", "commander: Wrangel")
    result = kitgen("validate", str(campaign), cache=tmp_path / "cache")
    assert result.returncode == 1
    assert f"setup.yaml:{line_no}:" in result.stderr
    assert "found 'Wrangel', who commands for the whites; expected a commander of the reds" in result.stderr


def test_a_unit_off_the_map_is_reported(campaign: Path, tmp_path: Path) -> None:
    """Kovel is a railway point beyond the map's west edge: nothing of the set-up may stand there."""
    text = (campaign / "setup.yaml").read_text(encoding="utf-8")
    line_no, line = next(
        (i, t) for i, t in enumerate(text.splitlines(), 1) if " at: " in t and "faction: ukrainians" in t
    )
    place = line.split(" at: ")[1].split(",")[0].split("}")[0].strip()
    edit(campaign / "setup.yaml", line, line.replace(f"at: {place}", "at: Kovel"))
    result = kitgen("validate", str(campaign), cache=tmp_path / "cache")
    assert result.returncode == 1
    assert f"setup.yaml:{line_no}:" in result.stderr and "found 'Kovel', which lies off the map" in result.stderr


def test_unknown_file_in_turns(campaign: Path, tmp_path: Path) -> None:
    """Turn logs are turns/turn-NN.yaml: a file that looks like one but is misnamed is an error."""
    (campaign / "turns" / "turn1.yaml").write_text("{}\n")
    result = kitgen("validate", str(campaign), cache=tmp_path / "cache")
    assert result.returncode == 1
    assert "turn1.yaml:1:1: found turn1.yaml, which looks like a turn log but is misnamed; expected turn-01.yaml" in (
        result.stderr
    )
