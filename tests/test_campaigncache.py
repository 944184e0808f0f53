"""The answers of the read-only campaign commands kept under a hash of what they read
(`kitgen.campaigncache`): the same files give the same answer at once; any change to a file the
command reads, to the words of the command or to the folder it runs in gives a new one."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kitgen.campaigncache import Answer, answer_key, keep
from tests.conftest import SAMPLE, run_cli


@pytest.fixture
def camp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("KITGEN_CACHE", str(tmp_path / "cache"))
    dest = tmp_path / "campaign"
    shutil.copytree(SAMPLE, dest)
    return dest


@pytest.mark.parametrize("command", [["validate"], ["status"], ["status", "--format", "json"], ["state"]])
def test_a_kept_answer_is_the_answer_worked_out(camp: Path, command: list[str]) -> None:
    first = run_cli(*command, str(camp))
    assert list((camp.parent / "cache").glob("answer-*.pickle")), "the answer was not kept"
    again = run_cli(*command, str(camp))
    assert (again.returncode, again.stdout, again.stderr) == (first.returncode, first.stdout, first.stderr)


def test_the_kept_answer_is_what_is_printed_while_the_files_are_unchanged(camp: Path) -> None:
    """A kept answer replaced by a marker: the marker is printed (the answer was not worked out
    again); one byte more in a turn log and the answer is worked out afresh."""
    words = ["validate", str(camp)]
    run_cli(*words)
    key = answer_key(camp, words)
    assert key is not None
    keep(key, Answer("the kept answer\n", "", 0))
    assert run_cli(*words).stdout == "the kept answer\n"
    log = camp / "turns" / "turn-06.yaml"
    log.write_text(log.read_text(encoding="utf-8") + "# the umpire's note\n", encoding="utf-8")
    assert answer_key(camp, words) != key
    assert "ok: 6 turns" in run_cli(*words).stdout


@pytest.mark.parametrize(
    "change",
    [
        lambda c: (c / "campaign.yaml").write_text("scenario: denikin-1919\nseed: 7\n", encoding="utf-8"),
        lambda c: (c / "setup.yaml").write_text((c / "setup.yaml").read_text() + "\n# moved\n", encoding="utf-8"),
        lambda c: (c / "turns" / "notes.txt").write_text("an editor's file\n", encoding="utf-8"),
        lambda c: (c / "turns" / "turn-06.yaml").unlink(),
    ],
    ids=["seed", "setup", "a new file in turns", "a log removed"],
)
def test_every_file_the_command_reads_is_in_the_key(camp: Path, change: object) -> None:
    words = ["status", str(camp)]
    before = answer_key(camp, words)
    change(camp)  # type: ignore[operator]
    assert answer_key(camp, words) not in (None, before)


def test_the_words_and_the_working_folder_are_in_the_key(camp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The answer names paths as they were typed, relative to where the command runs."""
    key = answer_key(camp, ["validate", str(camp)])
    assert answer_key(camp, ["validate", "--strict", str(camp)]) != key
    monkeypatch.chdir(camp)
    assert answer_key(camp, ["validate", str(camp)]) != key


def test_no_key_for_what_cannot_be_vouched_for(camp: Path, tmp_path: Path) -> None:
    """A turns folder that is a link, or a campaign.yaml naming no scenario: the command runs in full."""
    words = ["status", str(camp)]
    (camp / "campaign.yaml").write_text("scenario: [not, a, name]\nseed: 1\n", encoding="utf-8")
    assert answer_key(camp, words) is None
    shutil.copy(SAMPLE / "campaign.yaml", camp / "campaign.yaml")
    shutil.move(camp / "turns", tmp_path / "elsewhere")
    (camp / "turns").symlink_to(tmp_path / "elsewhere")
    assert answer_key(camp, words) is None


def test_a_scenario_file_changed_changes_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A campaign of a scenario folder of its own: an edit of the scenario is a new answer."""
    monkeypatch.setenv("KITGEN_CACHE", str(tmp_path / "cache"))
    scenario = tmp_path / "scen"
    shutil.copytree(SAMPLE.parent / "denikin-1919", scenario)
    camp = tmp_path / "c"
    shutil.copytree(SAMPLE, camp)
    (camp / "campaign.yaml").write_text("scenario: ../scen\nseed: 1919\n", encoding="utf-8")
    words = ["status", str(camp)]
    before = answer_key(camp, words)
    towns = scenario / "towns.yaml"
    towns.write_text(towns.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    assert answer_key(camp, words) not in (None, before)


def test_a_linked_log_or_setup_makes_no_key(camp: Path, tmp_path: Path) -> None:
    """The commands follow a link to a file the key would not see: no answer is kept for it."""
    words = ["validate", str(camp)]
    target = tmp_path / "turn-06.yaml"
    shutil.move(camp / "turns" / "turn-06.yaml", target)
    (camp / "turns" / "turn-06.yaml").symlink_to(target)
    assert answer_key(camp, words) is None
    shutil.move(target, camp / "turns" / "turn-06.yaml.real")
    (camp / "turns" / "turn-06.yaml").unlink()
    shutil.move(camp / "turns" / "turn-06.yaml.real", camp / "turns" / "turn-06.yaml")
    shutil.move(camp / "setup.yaml", tmp_path / "setup.yaml")
    (camp / "setup.yaml").symlink_to(tmp_path / "setup.yaml")
    assert answer_key(camp, words) is None


def test_an_answer_worked_out_while_a_file_changed_is_not_kept(camp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A log saved while `validate` works: the answer, of the files as they were read, is
    printed but not kept under the key of either version."""
    import kitgen.cli as cli

    log = camp / "turns" / "turn-06.yaml"
    real = cli._validation

    def saving_meanwhile(path: Path, *, strict: bool) -> Answer:
        found = real(path, strict=strict)
        log.write_text(log.read_text(encoding="utf-8") + "# saved meanwhile\n", encoding="utf-8")
        return found

    monkeypatch.setattr(cli, "_validation", saving_meanwhile)
    assert run_cli("validate", str(camp)).returncode == 0
    assert not list((camp.parent / "cache").glob("answer-*.pickle"))
