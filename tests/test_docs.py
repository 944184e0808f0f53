"""The manual (issue 46): its reference pages are the code's own, its site builds with --strict,
and every shell example in it (and in the README) runs as shown.

The examples' conventions (docs/developers/manual.md):
- a `sh` block is run, line by line, each command to exit 0;
- a `console` block is run too: `$ ` lines are commands, the lines after one are what it must
  print (each, stripped, found in its output in order);
- a `shell` block is shown, not run: install steps and checkout work only.
All of a page's run blocks share one fresh folder, in order, with the installed `kitgen` first
on PATH and no checkout in reach."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
RUN = ("sh", "console")
SHOWN_ONLY = ("pipx", "pip", "python3", "git", "make", "cd", "sudo", "apt-get")
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```\s*$", re.M | re.S)


@dataclass(frozen=True)
class Step:
    """One command of a page's examples, and the lines it must print."""

    command: str
    expected: tuple[str, ...] = ()


def pages() -> list[Path]:
    """The manual's pages and the README: every Markdown file a user reads."""
    return sorted(DOCS.rglob("*.md")) + [ROOT / "README.md"]


def blocks(page: Path) -> list[tuple[str, str]]:
    """(language, text) of each fenced block of `page`."""
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(page.read_text(encoding="utf-8"))]


def steps(page: Path) -> list[Step]:
    """The commands a page's run blocks give, in order."""
    found: list[Step] = []
    for language, text in blocks(page):
        if language == "sh":
            found += [
                Step(line.strip()) for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")
            ]
        elif language == "console":
            command, expected = None, []
            for line in text.splitlines():
                if line.startswith("$ "):
                    if command is not None:
                        found.append(Step(command, tuple(expected)))
                    command, expected = line[2:].strip(), []
                elif line.strip():
                    expected.append(line.strip())
            if command is not None:
                found.append(Step(command, tuple(expected)))
    return found


def _id(page: Path) -> str:
    return str(page.relative_to(ROOT))


def test_the_command_reference_and_the_messages_are_the_codes_own(tmp_path: Path) -> None:
    """ "The command reference is generated, and a test fails if it is stale": the reference
    pages committed are what tools/docs_reference.py writes from the code now."""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import docs_reference
    finally:
        sys.path.remove(str(ROOT / "tools"))
    for path in docs_reference.write(tmp_path):
        committed = DOCS / path.relative_to(tmp_path)
        assert committed.is_file(), f"{committed} is missing: run `make docs`"
        assert committed.read_text(encoding="utf-8") == path.read_text(encoding="utf-8"), (
            f"{committed.relative_to(ROOT)} is stale: run `make docs` and commit it"
        )


def test_the_command_reference_names_every_command_and_option() -> None:
    """Each command `kitgen --help` lists, and each of its options, has its place in the page."""
    import typer

    from kitgen.cli import app

    page = (DOCS / "reference" / "commands.md").read_text(encoding="utf-8")
    root = typer.main.get_command(app)
    names = 0
    for name, command in root.commands.items():  # type: ignore[attr-defined]
        subs = command.commands.items() if hasattr(command, "commands") else [("", command)]
        for sub, leaf in subs:
            title = " ".join(filter(None, ["kitgen", name, sub]))
            assert f"## {title}\n" in page, title
            section = page.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
            for p in leaf.params:
                if p.param_type_name == "option" and not p.hidden:
                    assert f"`{p.opts[0]}`" in section, (title, p.opts[0])
            names += 1
    assert names >= 25
    assert "see README" not in page


def test_every_command_and_option_says_what_it_takes() -> None:
    """ "Every --help is complete": each command has its words, and each option and argument
    (but a second argument whose words are said with the first's) says what it takes; none
    sends the user to the README."""
    import typer

    from kitgen.cli import app

    def walk(command: object, path: list[str]) -> list[tuple[list[str], object]]:
        subs = getattr(command, "commands", None)
        return [x for n, s in subs.items() for x in walk(s, [*path, n])] if subs else [(path, command)]

    bare = []
    for path, command in walk(typer.main.get_command(app), ["kitgen"]):
        if not (command.help or "").strip():  # type: ignore[attr-defined]
            bare.append(" ".join(path))
        for p in command.params:  # type: ignore[attr-defined]
            said = getattr(p, "help", None) or ""
            if (not said.strip() and p.metavar != "") or "README" in said:
                bare.append(f"{' '.join(path)} {p.name}")
    assert bare == []


def test_the_manual_builds_with_strict(tmp_path: Path) -> None:
    """ "The site builds with --strict": a broken link, a missing page or a page left out of
    the nav fails it."""
    mkdocs = shutil.which("mkdocs", path=str(Path(sys.executable).parent)) or shutil.which("mkdocs")
    assert mkdocs, "mkdocs is installed with kitgen's test extras"
    done = subprocess.run(
        [mkdocs, "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert (tmp_path / "site" / "index.html").is_file()


def test_the_readme_is_short_and_points_to_the_manual() -> None:
    """ "The README is at most about 150 lines", and it says how to build the manual."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 150
    assert "make docs" in text and "docs/" in text


@pytest.mark.parametrize("page", [p for p in pages() if any(lang == "shell" for lang, _ in blocks(p))], ids=_id)
def test_a_shown_only_example_is_an_install_or_checkout_step(page: Path) -> None:
    """A `shell` block is not run, so it may hold only what a test cannot run here: installing,
    and work in a checkout. Any `kitgen` example belongs in a run block."""
    for language, text in blocks(page):
        if language != "shell":
            continue
        for line in text.splitlines():
            words = line.strip().split()
            if words and not words[0].startswith("#"):
                assert words[0] in SHOWN_ONLY, (page.name, line)


def test_the_manual_has_examples_to_run() -> None:
    """The example test reads the fences it should: were its pattern to miss them (another fence
    style), it would run nothing and pass."""
    assert len([p for p in pages() if steps(p)]) >= 15
    assert sum(len(steps(p)) for p in pages()) >= 80


@pytest.mark.parametrize("page", [p for p in pages() if steps(p)], ids=_id)
def test_every_example_runs_as_shown(page: Path, tmp_path: Path) -> None:
    """ "Every example in the manual is run by a test": a page's commands, in a folder of their
    own with the installed kitgen and no checkout, each exit 0 and print what the page shows."""
    bin_dir = Path(sys.executable).parent
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}  # the run's KITGEN_CACHE kept
    env |= {"PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", "HOME": str(tmp_path / "home"), "COLUMNS": "100"}
    (tmp_path / "home").mkdir()
    work = tmp_path / "work"
    work.mkdir()
    for step in steps(page):
        if "||" in step.command:  # a failure shown, not hidden: the page must say what status it expects
            assert any(line.startswith("exit status ") for line in step.expected), (page.name, step.command)
        done = subprocess.run(
            ["bash", "-o", "pipefail", "-c", step.command],
            cwd=work,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,  # one stream, in the order a terminal shows them
            text=True,
            check=False,
            timeout=300,
        )
        said = done.stdout
        assert done.returncode == 0, f"{page.name}: `{step.command}` exited {done.returncode}:\n{said[-2000:]}"
        at = 0
        flat = " ".join(said.split())
        for line in step.expected:
            want = " ".join(line.split())
            found = flat.find(want, at)
            assert found >= 0, f"{page.name}: `{step.command}` did not print {line!r}:\n{said[-2000:]}"
            at = found + len(want)
