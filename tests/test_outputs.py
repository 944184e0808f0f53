"""The output layer (issue 10): regular files only, inside the folder named, whole or not at all.

A run is killed at every step of writing a product (in a forked child that dies with
`os._exit` at that step, so the moment is exact); the folder then holds the old set or the
new set, never a mix, and the next run leaves no temporary file behind.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from kitgen.errors import UsageError
from kitgen.outputs import MANIFEST, ProductFolder, clean_stale, write_atomic

OLD = {"a.pdf": b"old a", "b.pdf": b"old b"}
NEW = {"a.pdf": b"new a", "b.pdf": b"new b", "c.pdf": b"new c"}


def write_set(folder: Path, files: dict[str, bytes]) -> None:
    with ProductFolder(folder) as product:
        for name, data in files.items():
            product.write(name, data)


def contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.name != MANIFEST}


def killed_at(step: str, count: int, action: Callable[[], None], monkeypatch: pytest.MonkeyPatch) -> None:
    """Run `action` in a child that dies (as if SIGKILLed) at the `count`-th call of `os.<step>`."""
    pid = os.fork()
    if pid == 0:  # the child
        real = getattr(os, step)
        calls = [0]

        def dying(*args: object, **kwargs: object) -> object:
            calls[0] += 1
            if calls[0] == count:
                os._exit(9)
            return real(*args, **kwargs)

        monkeypatch.setattr(os, step, dying)
        try:
            action()
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


STEPS = [("write", 1), ("write", 2), ("write", 3), ("write", 4), ("fsync", 4), ("rename", 1), ("rename", 2)]


@pytest.mark.parametrize(("step", "count"), STEPS)
def test_a_killed_product_run_leaves_the_old_set_or_the_new(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str, count: int
) -> None:
    folder = tmp_path / "kit-a4"
    write_set(folder, OLD)
    killed_at(step, count, lambda: write_set(folder, NEW), monkeypatch)
    assert contents(folder) in (OLD, NEW)
    write_set(folder, NEW)  # the next run
    assert contents(folder) == NEW
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit-a4"], "a temporary file was left"


@pytest.mark.parametrize(("step", "count"), [("rename", 1), ("rename", 2)])
def test_a_swap_cut_short_without_an_atomic_exchange_is_undone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str, count: int
) -> None:
    """Where the system has no renameat2, the swap takes two renames; a kill between them is
    put right by the next run, which finds the earlier set and puts it back first."""
    import kitgen.outputs

    folder = tmp_path / "kit-a4"
    write_set(folder, OLD)
    monkeypatch.setattr(kitgen.outputs, "_exchange", lambda a, b: False)
    killed_at(step, count, lambda: write_set(folder, NEW), monkeypatch)
    clean_stale(tmp_path)
    assert contents(folder) in (OLD, NEW)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["kit-a4"]


@pytest.mark.parametrize(("step", "count"), [("write", 1), ("fsync", 1), ("replace", 1)])
def test_a_killed_single_write_leaves_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str, count: int
) -> None:
    target = tmp_path / "state.json"
    target.write_bytes(b"old")
    killed_at(step, count, lambda: write_atomic(target, b"new" * 1000), monkeypatch)
    assert target.read_bytes() in (b"old", b"new" * 1000)
    write_atomic(target, b"next")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["state.json"]


def test_a_product_folder_is_listed_in_its_manifest(tmp_path: Path) -> None:
    import hashlib

    write_set(tmp_path / "out", NEW)
    digests = {n: hashlib.sha256(d).hexdigest() for n, d in sorted(NEW.items())}
    assert json.loads((tmp_path / "out" / MANIFEST).read_text()) == {"files": sorted(NEW), "sha256": digests}


def test_a_folder_holding_the_users_files_is_never_replaced(tmp_path: Path) -> None:
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "notes.txt").write_text("keep")
    with pytest.raises(UsageError) as caught:
        write_set(folder, NEW)
    assert caught.value.msg.code == "out.foreign_files" and "notes.txt" in caught.value.msg.text
    assert contents(folder) == {"notes.txt": b"keep"}


def test_a_file_added_to_a_kit_folder_is_never_lost(tmp_path: Path) -> None:
    folder = tmp_path / "kit"
    write_set(folder, OLD)
    (folder / "club-notes.txt").write_text("ours")
    with pytest.raises(UsageError):
        write_set(folder, NEW)
    assert (folder / "club-notes.txt").read_text() == "ours" and contents(folder)["a.pdf"] == OLD["a.pdf"]


@pytest.mark.parametrize("make", ["fifo", "folder", "file"])
def test_a_product_folder_must_be_a_folder(tmp_path: Path, make: str) -> None:
    target = tmp_path / "out"
    if make == "fifo":
        os.mkfifo(target)
    elif make == "folder":
        (tmp_path / "parent").write_text("a file")
        target = tmp_path / "parent" / "out"
    else:
        target.write_text("x")
    with pytest.raises(UsageError) as caught:
        write_set(target, NEW)
    assert caught.value.msg.code in ("out.folder_not_folder", "out.cannot_write")


def test_stale_files_of_a_live_run_are_left_alone(tmp_path: Path) -> None:
    """Another kitgen still writing beside us keeps its temporary files."""
    mine = tmp_path / f".x.pdf.kitgen-{os.getppid()}-abcd.tmp"
    mine.write_bytes(b"in progress")
    gone = tmp_path / ".x.pdf.kitgen-999999999-abcd.tmp"
    gone.write_bytes(b"left by a killed run")
    clean_stale(tmp_path)
    assert mine.exists() and not gone.exists()


def test_the_cache_keeps_only_its_newest_entries(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every edit of a scenario makes a new cache key: the old entries go, the newest stay."""
    from kitgen import scenariocache

    monkeypatch.setenv("KITGEN_CACHE", str(tmp_path))
    for n in range(scenariocache.KEEP + 5):
        entry = tmp_path / f"hexmap-s-{n:04d}.json"
        entry.write_text("{}")
        os.utime(entry, ns=(n * 10**9, n * 10**9))
    (tmp_path / "hexmap-other-0000.json").write_text("{}")
    scenariocache.prune("hexmap-s-*.json", scenariocache.KEEP)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == ["hexmap-other-0000.json"] + [f"hexmap-s-{n:04d}.json" for n in range(5, scenariocache.KEEP + 5)]


@pytest.mark.parametrize("product", [False, True])
def test_a_sigterm_during_the_commit_waits_until_the_files_are_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, product: bool
) -> None:
    """A signal that lands while a write commits (renames, then removes its temporary files)
    is held back until that is done: kitgen then ends, leaving the new files and nothing else."""
    import signal

    target = tmp_path / ("kit" if product else "state.json")
    pid = os.fork()
    if pid == 0:  # the child: SIGTERM ends it as kitgen's own handler does
        signal.signal(signal.SIGTERM, lambda *_: os._exit(15))
        real = os.replace if not product else os.rename

        def signalled(*args: object) -> object:
            os.kill(os.getpid(), signal.SIGTERM)
            return real(*args)  # type: ignore[arg-type]

        monkeypatch.setattr(os, "replace", signalled)
        monkeypatch.setattr("kitgen.outputs._exchange", lambda a, b: False)
        monkeypatch.setattr(os, "rename", signalled)
        try:
            if product:
                write_set(target, NEW)
            else:
                write_atomic(target, b"new")
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 15, "the signal was lost"
    assert (contents(target) == NEW) if product else (target.read_bytes() == b"new")
    assert sorted(p.name for p in tmp_path.iterdir()) == [target.name]
