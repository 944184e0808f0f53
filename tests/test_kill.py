"""Kill tests (issue 10): `kitgen kit` and `kitgen state --out` killed part-way leave the earlier
outputs intact, never a mixed set, and no temporary file once the next run is done.

The moments are fractions of a whole run timed first; the exact steps of the write are
covered deterministically in tests/test_outputs.py.
"""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kitgen.outputs import MANIFEST
from tests.conftest import BUNDLED, SAMPLE

KITGEN = [sys.executable, "-m", "kitgen"]


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def timed(args: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(args, check=True, capture_output=True)
    return time.perf_counter() - start


def killed(args: list[str], after: float, how: signal.Signals = signal.SIGKILL) -> None:
    """Start `args`, signal it after `after` seconds, and check that no process of it (the kit's
    worker) lives on."""
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(after)
    process.send_signal(how)
    process.wait(timeout=60)
    deadline = time.monotonic() + 10
    while (left := running(args)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"processes of the killed run live on: {left}"


def running(args: list[str]) -> list[int]:
    """Processes (not zombies) whose command line is `args`."""
    wanted = "\0".join(args).encode()
    found = []
    for proc in Path("/proc").iterdir():
        try:
            mine = proc.name.isdigit() and (proc / "cmdline").read_bytes().rstrip(b"\0") == wanted
            if mine and b"State:\tZ" not in (proc / "status").read_bytes():
                found.append(int(proc.name))
        except OSError:
            continue
    return found


def assert_old_or_new(before: dict[str, bytes], after: dict[str, bytes]) -> None:
    """The earlier kit, or the new one whole: every file of the old one replaced, no mix."""
    if after != before:
        assert set(after) == set(before) and all(after[n] != before[n] for n in before if n != MANIFEST)


def leftovers(parent: Path, keep: set[str]) -> list[str]:
    return sorted(p.name for p in parent.iterdir() if p.name not in keep)


@pytest.fixture(scope="module")
def kits(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, float]:
    """The scenario, and a kit of it as it was (`old`); the scenario then gets a new title."""
    base = tmp_path_factory.mktemp("kill")
    scenario = base / "s"
    shutil.copytree(BUNDLED, scenario)
    old = base / "old"
    seconds = timed([*KITGEN, "kit", "--scenario", str(scenario), "--out", str(old)])
    text = (scenario / "scenario.yaml").read_text()
    (scenario / "scenario.yaml").write_text(text.replace("title: ", "title: Revised ", 1))
    return scenario, old, seconds


@pytest.mark.parametrize("fraction", [0.5, 0.9])
def test_a_killed_kit_leaves_the_earlier_kit_or_the_new_one(
    kits: tuple[Path, Path, float], tmp_path: Path, fraction: float
) -> None:
    scenario, old, seconds = kits
    out = tmp_path / "kit-a4"
    shutil.copytree(old, out)
    before = files(out)
    args = [*KITGEN, "kit", "--scenario", str(scenario), "--out", str(out)]
    killed(args, seconds * fraction)
    assert_old_or_new(before, files(out))
    subprocess.run(args, check=True, capture_output=True)  # the next run
    assert leftovers(tmp_path, {"kit-a4"}) == [], "a temporary file of the killed run was left"


def test_a_terminated_kit_cleans_up_on_its_way_out(kits: tuple[Path, Path, float], tmp_path: Path) -> None:
    """SIGTERM (a laptop shutting down, a CI timeout) ends kitgen like Ctrl-C: no next run needed."""
    scenario, old, seconds = kits
    out = tmp_path / "kit-a4"
    shutil.copytree(old, out)
    before = files(out)
    killed([*KITGEN, "kit", "--scenario", str(scenario), "--out", str(out)], seconds * 0.6, signal.SIGTERM)
    assert_old_or_new(before, files(out))
    assert leftovers(tmp_path, {"kit-a4"}) == []


@pytest.mark.parametrize("fraction", [0.5, 0.9])
def test_a_killed_state_out_leaves_the_earlier_file(tmp_path: Path, fraction: float) -> None:
    out = tmp_path / "state.json"
    out.write_text("the earlier state\n")
    args = [*KITGEN, "state", str(SAMPLE), "--format", "json", "--out", str(out)]
    seconds = timed([*KITGEN, "state", str(SAMPLE), "--format", "json", "--out", str(tmp_path / "timing.json")])
    (tmp_path / "timing.json").unlink()
    killed(args, seconds * fraction)
    text = out.read_text()
    assert text == "the earlier state\n" or text.startswith("{")
    subprocess.run(args, check=True, capture_output=True)
    assert leftovers(tmp_path, {"state.json"}) == []
