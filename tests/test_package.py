"""kitgen as a package (issue 26): its version, -h beside --help, shell completion, `python -m
kitgen`, the sample campaigns copied out, and the wheel: built, installed into a fresh venv
outside the checkout and run from there, with what it prints byte-identical to the checkout's."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from kitgen import __version__
from tests.conftest import run_cli

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ["denikin-1919", "tsaritsyn-1919"]
SAMPLES = ["sample-campaign", "tsaritsyn-sample"]


def kitgen(*args: str, cwd: Path, env: dict[str, str] | None = None, exe: list[str] | None = None) -> str:
    """`kitgen ARGS` as a process of its own; its standard output (a failure shows its error)."""
    run = subprocess.run(
        [*(exe or [sys.executable, "-m", "kitgen"]), *args],
        cwd=cwd,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, f"kitgen {' '.join(args)}: {run.stderr[-3000:]}"
    return run.stdout


# --- the command line's manners ------------------------------------------------------------


def test_version_names_kitgen_and_each_scenarios_data(tmp_path: Path) -> None:
    """`kitgen --version` prints kitgen's version and a digest of each bundled scenario's data,
    which changes when a file of it does."""
    from kitgen.packagedata import data_digest

    run = run_cli("--version")
    assert run.returncode == 0
    first, second = run.stdout.splitlines()
    assert first == f"kitgen {__version__}"
    assert second == "scenario data: " + ", ".join(f"{s} {data_digest(ROOT / 'data' / s)}" for s in SCENARIOS)
    assert run_cli("-V").stdout == run.stdout
    copy = tmp_path / "data"
    shutil.copytree(ROOT / "data" / "tsaritsyn-1919", copy / "tsaritsyn-1919")
    before = data_digest(copy / "tsaritsyn-1919")
    with (copy / "tsaritsyn-1919" / "towns.yaml").open("a") as f:
        f.write("# a club's note\n")
    assert data_digest(copy / "tsaritsyn-1919") != before


def test_scenario_folders_names_are_printed_as_data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A folder under KITGEN_DATA named with terminal escapes is listed with them shown, never sent."""
    odd = tmp_path / "data" / "club\x1b]0;owned\x07\x1b[31m"
    odd.mkdir(parents=True)
    (odd / "scenario.yaml").write_text("id: club\n")
    monkeypatch.setenv("KITGEN_DATA", str(tmp_path / "data"))
    for args in (["scenario", "list"], ["--version"]):
        run = run_cli(*args)
        assert run.returncode == 0 and "club" in run.stdout, args
        assert "\x1b" not in run.stdout and "\x07" not in run.stdout and "\\x1b" in run.stdout, args
    assert "KITGEN_DATA" in run_cli("--version").stdout
    assert run_cli("samples").stdout.split() == SAMPLES  # the samples are kitgen's own, whatever KITGEN_DATA says


def _command_paths() -> list[list[str]]:
    """Every command and group of the app, as the words that name it."""
    import typer

    from kitgen.cli import app

    paths: list[list[str]] = [[]]

    def walk(command: object, path: list[str]) -> None:
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            paths.append([*path, name])
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return paths


def test_h_is_help_on_every_command() -> None:
    paths = _command_paths()
    assert ["lookup", "town"] in paths and ["orders", "import"] in paths and ["kit"] in paths
    for path in paths:
        long, short = run_cli(*path, "--help"), run_cli(*path, "-h")
        assert long.returncode == short.returncode == 0, path
        assert short.stdout == long.stdout and "Usage: kitgen" in long.stdout, path


def test_python_m_kitgen_is_kitgen(tmp_path: Path) -> None:
    """The module runs the same command line, under the same name."""
    assert kitgen("-h", cwd=tmp_path) == run_cli("-h").stdout
    assert kitgen("--version", cwd=tmp_path) == run_cli("--version").stdout


SHELLS = {
    "bash": ("complete -o default -F _kitgen_completion kitgen", ".bash_completions/kitgen.sh"),
    "zsh": ("compdef _kitgen_completion kitgen", ".zfunc/_kitgen"),
    "fish": ("complete --command kitgen", ".config/fish/completions/kitgen.fish"),
}


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_completion_is_shown_installed_and_answers(shell: str, tmp_path: Path) -> None:
    """`--show-completion` prints the shell's script, `--install-completion` installs it in the
    user's files, and the script's question is answered with the commands that fit."""
    mark, installed = SHELLS[shell]
    named = {"_TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION": "1", "HOME": str(tmp_path)}  # the shell by name
    assert mark in kitgen("--show-completion", shell, cwd=tmp_path, env=named)
    said = kitgen("--install-completion", shell, cwd=tmp_path, env=named)
    assert f"{shell} completion installed" in said
    assert mark in (tmp_path / installed).read_text()
    asked = {
        "bash": {"COMP_WORDS": "kitgen lookup to", "COMP_CWORD": "2"},
        "zsh": {"_TYPER_COMPLETE_ARGS": "kitgen lookup to"},
        "fish": {"_TYPER_COMPLETE_ARGS": "kitgen lookup to", "_TYPER_COMPLETE_FISH_ACTION": "get-args"},
    }[shell]
    answer = kitgen(cwd=tmp_path, env={"_KITGEN_COMPLETE": f"complete_{shell}", **asked})
    assert "town" in answer and "kit" not in answer.split()


# --- the sample campaigns ------------------------------------------------------------------


def _state(text: str) -> object:
    """A state's JSON with the logs it cites named by file alone (the copies stand elsewhere)."""

    def strip(value: object) -> object:
        if isinstance(value, dict):
            return {k: Path(v).name if k == "file" and isinstance(v, str) else strip(v) for k, v in value.items()}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    return strip(json.loads(text))


def test_samples_lists_and_copies_a_sample_that_replays_as_the_original(tmp_path: Path) -> None:
    assert run_cli("samples").stdout.split() == SAMPLES
    for sample in SAMPLES:
        out = tmp_path / sample
        run = run_cli("samples", str(out), "--sample", sample)
        assert run.returncode == 0, run.stderr
        logs = sorted(p.name for p in (ROOT / "data" / sample / "turns").glob("*.yaml"))
        assert sorted(p.name for p in (out / "turns").iterdir()) == logs
        copied, original = (run_cli("state", str(f), "--format", "json") for f in (out, ROOT / "data" / sample))
        assert copied.returncode == original.returncode == 0
        assert _state(copied.stdout) == _state(original.stdout)
        assert json.loads(copied.stdout)["turn"] == len(logs)


def test_samples_never_writes_over_a_folder_of_the_users(tmp_path: Path) -> None:
    mine = tmp_path / "club"
    mine.mkdir()
    (mine / "notes.txt").write_text("ours")
    run = run_cli("samples", str(mine))
    assert run.returncode == 2 and "not an empty folder" in run.stderr
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    unknown = run_cli("samples", str(tmp_path / "new"), "--sample", "sample-campaing")
    assert unknown.returncode == 2 and "did you mean 'sample-campaign'" in unknown.stderr
    assert not (tmp_path / "new").exists()


# --- the wheel -----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist and wheel `python -m build` makes of the checkout (the wheel built from the
    sdist; its backend from this venv), and in `direct/` the wheel built straight from the tree."""
    out = tmp_path_factory.mktemp("dist")
    for args, where in (([], out), (["--wheel"], out / "direct")):
        run = subprocess.run(
            [sys.executable, "-m", "build", "--no-isolation", *args, "--outdir", str(where), str(ROOT)],
            capture_output=True,
            text=True,
        )
        assert run.returncode == 0, run.stderr[-3000:]
        said = (run.stdout + run.stderr).lower()
        assert "warning" not in said, said
    return out


def _wheel(folder: Path) -> Path:
    (wheel,) = folder.glob("*.whl")
    return wheel


def test_the_wheel_and_sdist_carry_kitgens_version_and_the_sdist_builds_the_same_wheel(dist: Path) -> None:
    """The sdist's wheel (`build` makes the wheel from the sdist) holds what the tree's does."""
    assert {p.name for p in dist.iterdir() if p.is_file()} == {
        f"kitgen-{__version__}.tar.gz",
        f"kitgen-{__version__}-py3-none-any.whl",
    }

    def contents(wheel: Path) -> dict[str, bytes]:
        with zipfile.ZipFile(wheel) as z:
            return {name: z.read(name) for name in z.namelist()}

    from_sdist, from_tree = contents(_wheel(dist)), contents(_wheel(dist / "direct"))
    assert from_sdist == from_tree
    names = set(from_tree)
    for shipped in (
        "kitgen/data/denikin-1919/scenario.yaml",
        "kitgen/data/denikin-1919/geo/coast.geojson",
        "kitgen/data/sample-campaign/turns/turn-01.yaml",
        "kitgen/render/srgb.icc",
        "kitgen/schema/state.schema.json",
        "kitgen/py.typed",
    ):
        assert shipped in names, shipped
    assert {f"kitgen/layouts/{p.name}" for p in (ROOT / "layouts").iterdir()} <= names
    assert not [n for n in names if "__pycache__" in n or n.endswith(".pyc")]
    metadata = from_tree[f"kitgen-{__version__}.dist-info/METADATA"].decode()
    assert f"Version: {__version__}" in metadata and "License-Expression: MIT AND LGPL-3.0-or-later" in metadata
    licences = {n.rsplit("/", 1)[-1] for n in names if "/licenses/" in n}
    assert licences == {"LICENSE", "LGPL-3.0.txt", "GPL-3.0.txt"}


@pytest.fixture(scope="module")
def installed(dist: Path, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The wheel installed into a fresh venv outside the checkout: its `kitgen` command. The
    dependencies are this venv's (a .pth file), so no registry is needed and no kitgen but the
    wheel's is importable there."""
    venv = tmp_path_factory.mktemp("venv") / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "kitgen-test-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet", "--no-deps", str(_wheel(dist))],
        check=True,
    )
    return [str(venv / "bin" / "kitgen")]


def test_the_installed_kitgen_runs_from_outside_the_checkout(installed: list[str], tmp_path: Path) -> None:
    """From a folder outside the checkout: the scenarios listed, both kits made byte for byte as
    the checkout makes them, a new campaign played a turn, and a sample replayed to its end."""
    python = [str(Path(installed[0]).with_name("python"))]
    where = kitgen("-c", "import kitgen; print(kitgen.__file__)", cwd=tmp_path, exe=python)
    assert not where.startswith(str(ROOT)), where
    check_installed(installed, tmp_path)


def check_installed(installed: list[str], tmp_path: Path) -> None:
    """What an umpire does with an installed kitgen, from `tmp_path`, checked against the checkout."""
    env = {"KITGEN_CACHE": str(tmp_path / "cache"), "PYTHONDONTWRITEBYTECODE": "1"}

    def run(*args: str) -> str:
        return kitgen(*args, cwd=tmp_path, env=env, exe=installed)

    listed = run("scenario", "list")
    assert [line.split("\t")[0] for line in listed.splitlines()] == SCENARIOS
    assert all(not line.split("\t")[1].startswith(str(ROOT)) for line in listed.splitlines())
    for scenario in SCENARIOS:
        wheel, tree = tmp_path / f"wheel-{scenario}", tmp_path / f"tree-{scenario}"
        run("kit", "--scenario", scenario, "--out", str(wheel))
        kitgen("kit", "--scenario", scenario, "--out", str(tree), cwd=ROOT)
        made = sorted(p.name for p in tree.glob("*.pdf"))
        assert made and made == sorted(p.name for p in wheel.glob("*.pdf"))
        for name in made:
            assert (wheel / name).read_bytes() == (tree / name).read_bytes(), name
    camp = tmp_path / "camp"
    run("new", str(camp), "--scenario", "tsaritsyn-1919", "--dice", "table")
    run("next", str(camp))
    run("validate", str(camp))
    run("turn", str(camp), "--out", str(tmp_path / "packets"))
    assert len(list((tmp_path / "packets").glob("*.pdf"))) >= 2
    assert json.loads(run("state", str(camp), "--format", "json"))["turn"] == 1  # the log `next` wrote
    run("samples", str(tmp_path / "sample"))
    replayed = _state(run("state", str(tmp_path / "sample"), "--format", "json"))
    original = _state(kitgen("state", str(ROOT / "data" / "sample-campaign"), "--format", "json", cwd=ROOT))
    assert replayed == original and isinstance(replayed, dict) and replayed["turn"] == 6


@pytest.mark.slow
def test_pipx_installs_the_wheel_and_it_runs(dist: Path, tmp_path: Path) -> None:
    """`pipx install` of the wheel, its dependencies from the package registry (pipx itself
    installed with pip where it is missing), run the same way."""
    pipx = shutil.which("pipx")
    if pipx is None:
        tools = tmp_path / "tools"
        subprocess.run([sys.executable, "-m", "venv", str(tools)], check=True)
        subprocess.run([str(tools / "bin" / "python"), "-m", "pip", "install", "--quiet", "pipx"], check=True)
        pipx = str(tools / "bin" / "pipx")
    env = {**os.environ, "PIPX_HOME": str(tmp_path / "pipx"), "PIPX_BIN_DIR": str(tmp_path / "bin")}
    env.pop("VIRTUAL_ENV", None)
    subprocess.run([pipx, "install", str(_wheel(dist))], env=env, check=True, capture_output=True)
    check_installed([str(tmp_path / "bin" / "kitgen")], tmp_path)
