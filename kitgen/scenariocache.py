"""The validated scenario, kept on disk under a hash of its files and of kitgen's own code.

A look-up at the table should answer at once; reading and checking seventeen files takes
longer than the answer. The entry is only read back from a private cache folder (owned by
the user, writable by nobody else), and any change to a scenario file or to kitgen makes a
new key, so a cached scenario is exactly the one a full load would give.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kitgen.model.scenario import Scenario

_FORMAT = 1
MAX_ENTRY_BYTES = 64 * 1024 * 1024
"""A cached scenario is about 180 kB; anything far larger is not one of ours."""
KEEP = 16
"""Cache entries kept of each kind (scenarios, and maps of each scenario)."""


def cache_dir() -> Path:
    """$KITGEN_CACHE, else $XDG_CACHE_HOME/kitgen, else ~/.cache/kitgen."""
    if env := os.environ.get("KITGEN_CACHE"):
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "kitgen"


def prune(pattern: str, keep: int) -> None:
    """Remove all but the `keep` newest cache entries matching `pattern`: every edit of a
    scenario makes a new key, and the cache must not grow without end."""
    import contextlib

    folder = cache_dir()
    with contextlib.suppress(OSError):
        entries = sorted(folder.glob(pattern), key=lambda p: p.stat().st_mtime_ns, reverse=True)
        for old in entries[keep:]:
            with contextlib.suppress(OSError):
                old.unlink()


@cache
def code_digest() -> str:
    """A hash of kitgen's own source: a new kitgen never reads an older one's cache."""
    digest = hashlib.sha256(f"kitgen-scenario {_FORMAT}\n".encode())
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def key(folder: Path, files: list[str]) -> str | None:
    """The cache key of a scenario folder's files, or None if any cannot be read as one."""
    from kitgen.errors import KitgenError
    from kitgen.inputs import read_file

    digest = hashlib.sha256(code_digest().encode())
    for name in files:
        try:
            data = read_file(folder / name)
        except KitgenError:
            return None  # the full load reports it
        digest.update(f"{name} {len(data)}\n".encode())
        digest.update(data)
    return digest.hexdigest()[:32]


def _entry(scenario_key: str) -> Path:
    return cache_dir() / f"scenario-{scenario_key}.pickle"


def load(scenario_key: str) -> Scenario | None:
    """The cached scenario, if there is one that only this user could have written."""
    from kitgen.model.scenario import Scenario

    found = read_private(_entry(scenario_key))
    return found if isinstance(found, Scenario) else None


def read_private(path: Path) -> object | None:
    """A cache entry unpickled, if it is a regular file of this user's that no one else could
    have written; else (or if it is damaged) None, a miss."""
    data = read_regular(path, MAX_ENTRY_BYTES, private=True)
    if data is None:
        return None
    try:
        found: object = pickle.loads(data)
    except Exception:  # a damaged entry is only a miss: the answer is worked out afresh
        return None
    return found


def read_regular(path: Path, limit: int, *, private: bool = False) -> bytes | None:
    """The bytes of `path` if it is a regular file of its own (not a link) of at most `limit`
    bytes, and with `private` one of this user's that no one else may write; else None."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    try:
        info = os.fstat(fd)
        mine = info.st_uid == os.getuid() and not info.st_mode & 0o022
        if not stat.S_ISREG(info.st_mode) or (private and not mine) or info.st_size > limit:
            return None
        with os.fdopen(os.dup(fd), "rb") as f:
            return f.read(limit + 1)
    except OSError:
        return None
    finally:
        os.close(fd)


def write_private(path: Path, value: object) -> None:
    """Keep a cache entry, readable and writable by this user alone; a cache that cannot be
    written only costs time."""
    import contextlib

    from kitgen.errors import UsageError
    from kitgen.outputs import write_atomic

    with contextlib.suppress(OSError, UsageError, pickle.PicklingError):
        write_atomic(path, pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL), mode=0o600)


def store(scenario_key: str, scenario: Scenario) -> None:
    """Keep the scenario for the next run."""
    write_private(_entry(scenario_key), scenario)
    prune("scenario-*.pickle", KEEP)
