"""Fuzzing kitgen's inputs (issue 10): strategies that break the bundled scenario, the sample
campaign and its turn logs, and the judge of what a run may end in.

A run ends in success or in catalogued errors (every problem with a catalogue code and a
line and column from 1), within a time and a memory bound; anything else fails the case.
The number of cases is set by $KITGEN_FUZZ_SCALE (1 for CI; `make fuzz` runs 20 times more).
"""

from __future__ import annotations

import contextlib
import os
import resource
import shutil
import signal
import socket
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from hypothesis import strategies as st

from kitgen.errors import KitgenError, UsageError
from kitgen.loader import SCENARIO_FILES
from kitgen.messages import CATALOGUE

SCALE = max(1, int(os.environ.get("KITGEN_FUZZ_SCALE", "1")))
SECONDS_PER_CASE = 30
MEMORY_HEADROOM = 3 * 1024**3
"""Address space a case may add to the process's own before it counts as a runaway."""

CASES = {"count": 0}
"""Cases tried in this process (conftest reports the total)."""


class Runaway(Exception):
    """A case that ran past its time bound."""


@dataclass(frozen=True)
class Outcome:
    kind: str  # "ok", "data" or "usage"
    codes: tuple[str, ...] = ()


def judged(action: Callable[[], object]) -> Outcome:
    """Run one case under the time and memory bounds and check how it ended."""
    CASES["count"] += 1
    with _bounded():
        try:
            action()
        except KitgenError as error:
            assert error.problems, "a KitgenError without problems"
            for p in error.problems:
                assert p.code in CATALOGUE, f"uncatalogued message: {p}"
                assert p.line >= 1 and p.column >= 1 and p.message and p.file, p
            return Outcome("data", tuple(sorted({p.code for p in error.problems})))
        except UsageError as error:
            assert error.msg.code in CATALOGUE, f"uncatalogued usage message: {error.msg}"
            return Outcome("usage", (error.msg.code,))
    return Outcome("ok")


@contextlib.contextmanager
def _bounded() -> Iterator[None]:
    def stop(signum: int, frame: object) -> None:
        raise Runaway(f"a case ran past {SECONDS_PER_CASE} s")

    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    with open("/proc/self/statm") as statm:
        used = int(statm.read().split()[0]) * resource.getpagesize()
    limit = used + MEMORY_HEADROOM
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    previous = signal.signal(signal.SIGALRM, stop)
    signal.alarm(SECONDS_PER_CASE)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# --- text mutations: what editors, keyboards and disks do to a file -------------------------

TEXT_SNIPPETS = [
    "\t",
    "\x00",
    "\x07",
    "\ufeff",
    "\r",
    ": ",
    "- ",
    "  ",
    "#",
    "&a ",
    "*a",
    "*nowhere",
    "<<: *a\n",
    "!!python/object:os.system ",
    "!!binary ",
    "!custom ",
    "? ",
    "---\n",
    "{",
    "}",
    "[",
    "]",
    "'",
    '"',
    "|\n",
    "0110",
    "0o17",
    "0x1F",
    "1_000",
    "1:20",
    ".inf",
    "-.inf",
    ".nan",
    "1e999",
    "-1",
    "99999999999999999999999999999",
    "9" * 5000,
    "~",
    "null",
    "yes",
    "no",
    "2019-05-15",
    "[" * 800 + "]" * 800,
    "- " * 700 + "x",
    "é",
    "\U0001f600",
]
"""Bits of text a case may splice in: whitespace and control characters, YAML syntax, numbers
YAML reads in other bases or out of range, deep nesting."""

RAW_BYTES = [b"\xff", b"\xfe\xff", b"\xc3", b"\x80", b"\xed\xa0\x80", b"\x00\x00\x00"]


@st.composite
def text_mutation(draw: st.DrawFn, original: bytes) -> bytes:
    """`original` with a few edits: splices, deletions, duplicated or swapped lines, bad bytes."""
    data = bytearray(original)
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.integers(0, len(data)))
        match draw(st.sampled_from(["splice", "delete", "line", "bytes", "swap", "truncate", "replace"])):
            case "splice":
                data[where:where] = draw(st.sampled_from(TEXT_SNIPPETS)).encode("utf-8")
            case "delete":
                data[where : where + draw(st.integers(1, 40))] = b""
            case "line":
                lines = bytes(data).split(b"\n")
                i = draw(st.integers(0, len(lines) - 1))
                lines.insert(i, lines[i])
                data = bytearray(b"\n".join(lines))
            case "bytes":
                data[where:where] = draw(st.sampled_from(RAW_BYTES))
            case "swap":
                lines = bytes(data).split(b"\n")
                i, j = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
                lines[i], lines[j] = lines[j], lines[i]
                data = bytearray(b"\n".join(lines))
            case "truncate":  # a disk that filled up: the file cut short, past its first half
                del data[(len(data) + where) // 2 :]
            case "replace":
                text = bytes(data).decode("utf-8", "replace")
                words = [w for w in set(text.replace(",", " ").replace("]", " ").split()) if len(w) > 2]
                if words:
                    word = draw(st.sampled_from(sorted(words)))
                    new = draw(st.sampled_from([word[::-1], word + "x", word.upper(), word[:-1], "0", "-1", "''"]))
                    data = bytearray(text.replace(word, new, 1).encode("utf-8"))
    return bytes(data)


# --- structure mutations: the data as read, changed, and written back as YAML -------------------

LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.sampled_from([0, -1, 1, 9999, 10000, 2**63, -(2**63)]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=12),
    st.sampled_from(["", "0110", "9999", "reds", "whites", "Kiev", "infantry", "w_nobody", "D6", "p*", "-"]),
)
VALUES = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=6,
)


def tree_paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The key path of every node of plain data, the root's `()` first."""
    found = [here]
    if isinstance(value, dict):
        for k, v in value.items():
            found += tree_paths(v, here + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += tree_paths(v, here + (i,))
    return found


@st.composite
def tree_mutation(draw: st.DrawFn, data: Any) -> bytes:
    """The file's data with a node replaced, removed, added, duplicated or nested deeply."""
    import copy

    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3))):
        paths = tree_paths(data)
        path = draw(st.sampled_from(paths))
        parent: Any = data
        for step in path[:-1]:
            parent = parent[step]
        action = draw(st.sampled_from(["replace", "remove", "add", "duplicate", "nest", "retype"]))
        if not path:
            data = draw(VALUES) if action == "replace" else data
            continue
        last = path[-1]
        node = parent[last]
        match action:
            case "replace":
                parent[last] = draw(VALUES)
            case "remove":
                del parent[last]
            case "add" if isinstance(node, dict):
                node[draw(st.sampled_from(["extra", "id", "name", "units", "turn", draw(st.text(max_size=6))]))] = draw(
                    VALUES
                )
            case "add" if isinstance(node, list):
                node.append(draw(VALUES))
            case "duplicate" if isinstance(parent, list):
                parent.insert(int(last), copy.deepcopy(node))
            case "nest":
                deep: Any = node
                for _ in range(draw(st.sampled_from([2, 10, 70, 300]))):
                    deep = [deep]
                parent[last] = deep
            case "retype":
                parent[last] = {"a": node} if not isinstance(node, dict) else [node]
            case _:
                parent[last] = draw(LEAVES)
    try:
        return yaml.dump(data, Dumper=yaml.CSafeDumper, allow_unicode=True, sort_keys=False).encode("utf-8")
    except (yaml.YAMLError, RecursionError, ValueError):
        return b"[" * 1000


# --- file-kind mutations: what is at the path instead of a file ---------------------------------

FILE_KINDS = ["fifo", "loop", "dev_zero", "dev_urandom", "dev_null", "folder", "dangling", "socket", "empty", "big"]


def replace_with(path: Path, kind: str) -> Callable[[], None]:
    """Put a `kind` at `path` (a file of the case); returns how to undo a socket's listener."""
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    elif path.exists() or path.is_symlink():
        path.unlink()
    closing: Callable[[], None] = lambda: None  # noqa: E731
    match kind:
        case "fifo":
            os.mkfifo(path)
        case "loop":
            path.symlink_to(path.name)
        case "dev_zero" | "dev_urandom" | "dev_null":
            path.symlink_to("/dev/" + kind.removeprefix("dev_"))
        case "folder":
            path.mkdir()
            (path / "turn-01.yaml").write_text("turn: 1\n")
        case "dangling":
            path.symlink_to(path.name + ".nowhere")
        case "socket":
            server = socket.socket(socket.AF_UNIX)
            server.bind(str(path))
            closing = server.close
        case "empty":
            path.write_bytes(b"")
        case "big":
            with path.open("wb") as f:  # 50 MB: past the limit of 20 MB
                f.truncate(50 * 1024 * 1024)
    return closing


SCENARIO_TARGETS = list(SCENARIO_FILES)
