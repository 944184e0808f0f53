"""The answers of the commands that only read a campaign (`validate`, `status`, `state`), kept
under a hash of every file they read, of the command's words and working folder, of kitgen's
own code and of the packages installed: asked again of unchanged files, the command prints its
answer at once, exactly as the run that worked it out printed it.

The umpire asks `kitgen status` and `kitgen validate` over and over while he fills a log; the
campaign's files (a few dozen kilobytes) hash in milliseconds, where loading the scenario and
its map and replaying every turn takes a second. Anything the key cannot vouch for (a file it
cannot read, a scenario it cannot find) makes no key: the command then runs in full.
"""

from __future__ import annotations

import hashlib
import os
import stat
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path

_FORMAT = 1
MAX_FILE_BYTES = 4 * 1024 * 1024
"""A campaign or scenario file larger than this is not hashed: the command runs in full."""
KEEP = 64


@dataclass(frozen=True)
class Answer:
    """What a command printed, and how it ended."""

    out: str
    err: str
    code: int = 0


def answer_key(folder: Path, words: list[str]) -> str | None:
    """The key of a read-only command's answer: `words` as typed, run in this working folder on
    the campaign `folder`; None when a file it would read cannot be vouched for."""
    from kitgen.scenariocache import code_digest

    try:
        here = os.getcwd()
    except OSError:  # the working folder was removed under kitgen
        return None
    digest = hashlib.sha256(f"kitgen-answer {_FORMAT}\n{code_digest()}\n{_installed()}\n".encode())
    digest.update(repr((words, here, os.environ.get("KITGEN_DATA"))).encode())
    campaign = _files(digest, folder, ("campaign.yaml", "setup.yaml"))
    if campaign is None or _folder(digest, folder / "turns") is None:
        return None
    scenario = _scenario(campaign.get("campaign.yaml"), folder)
    if scenario is None or os.path.islink(scenario):
        return None
    digest.update(str(scenario.resolve()).encode())
    if _folder(digest, scenario) is None or _folder(digest, scenario / "geo") is None:
        return None
    from kitgen.packagedata import shipped

    layouts = shipped("layouts")
    if _folder(digest, layouts) is None:
        return None
    return digest.hexdigest()[:32]


def recall(key: str) -> Answer | None:
    from kitgen.scenariocache import read_private

    found = read_private(_entry(key))
    return found if isinstance(found, Answer) else None


def keep(key: str, answer: Answer) -> None:
    from kitgen.scenariocache import prune, write_private

    write_private(_entry(key), answer)
    prune("answer-*.pickle", KEEP)


def _entry(key: str) -> Path:
    from kitgen.scenariocache import cache_dir

    return cache_dir() / f"answer-{key}.pickle"


def _files(digest: hashlib._Hash, folder: Path, names: tuple[str, ...]) -> dict[str, bytes | None] | None:
    """Each named file's bytes into the digest (a missing one marked so); their bytes by name.
    None if one is there but is no regular file of its own (a link, a folder): no key."""
    found: dict[str, bytes | None] = {}
    for name in names:
        path = folder / name
        if not os.path.lexists(path):
            digest.update(f"{name} none\n".encode())
            found[name] = None
            continue
        data = _read(path)
        if data is None:
            return None
        digest.update(f"{name} {len(data)}\n".encode())
        digest.update(data)
        found[name] = data
    return found


def _folder(digest: hashlib._Hash, folder: Path) -> bool | None:
    """A folder's listing into the digest, each regular file with its bytes and anything else by
    its kind; None if it is a link or a file in it is too large or unreadable."""
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        digest.update(f"{folder.name}: none\n".encode())
        return True
    except OSError:
        return None
    if not stat.S_ISDIR(mode):
        return None
    digest.update(f"{folder.name}/\n".encode())
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return None
    for entry in entries:
        try:
            info = entry.stat(follow_symlinks=False)
        except OSError:
            return None
        if stat.S_ISLNK(info.st_mode):
            return None  # the commands follow a link to a file the key does not see: no key
        if stat.S_ISREG(info.st_mode):
            data = _read(Path(entry.path))
            if data is None:
                return None
            digest.update(f"{entry.name} {len(data)}\n".encode())
            digest.update(data)
        else:
            digest.update(f"{entry.name} kind {stat.S_IFMT(info.st_mode)}\n".encode())
    return True


def _read(path: Path) -> bytes | None:
    from kitgen.scenariocache import read_regular

    return read_regular(path, MAX_FILE_BYTES)


def _scenario(campaign_yaml: bytes | None, folder: Path) -> Path | None:
    """The scenario folder campaign.yaml names, read as plainly as a look-up reads it."""
    import yaml

    from kitgen.scenariofolders import find_scenario

    if campaign_yaml is None:
        return None
    try:
        data = yaml.load(campaign_yaml, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    except (yaml.YAMLError, ValueError, RecursionError):
        return None
    named = data.get("scenario") if isinstance(data, dict) else None
    return find_scenario(named, base=folder) if isinstance(named, str) and named else None


@cache
def _installed() -> str:
    """The Python and the packages installed beside kitgen (their dist-info names carry their
    versions): a new shapely or pydantic may answer otherwise."""
    names = [sys.version]
    for entry in sys.path:
        if entry.endswith(("site-packages", "dist-packages")) and os.path.isdir(entry):
            try:
                names += sorted(n for n in os.listdir(entry) if n.endswith(".dist-info"))
            except OSError:
                continue
    return "\n".join(names)
