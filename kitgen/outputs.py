"""Writing outputs safely: regular files only, inside the folder named, whole or not at all.

One file is written to a temporary file beside it and renamed into place. A product of
several files (the kit, a map set) is built whole in a staging folder beside its folder,
then swapped in with one atomic exchange, so a killed run leaves the old set or the new
set, never a mix. Temporary files carry the writer's process id: a later run removes those
of runs that are gone.

What kitgen must never write over is refused here, in one place: a campaign's own files
(campaign.yaml, setup.yaml, turns/, backups/) and every scenario folder, whatever the spelling
of the path (`refuse_protected`, called by `write_out` and `ProductFolder`). A system that
refuses a write (a full disk, a read-only or forbidden folder) raises OSError naming the path:
the command line says so plainly, exit status 1.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import os
import re
import shutil
import stat
import time
from pathlib import Path
from types import TracebackType

from kitgen import messages as msg
from kitgen import stopsignals
from kitgen.errors import UsageError, escape_controls, within

MANIFEST = ".kitgen-manifest.json"
"""In a product folder: the files kitgen wrote there, so that a rerun may replace them."""

_TEMP = re.compile(r"\..+\.kitgen-([0-9]{1,10})-[^.]*\.(tmp|old)")
_STALE_AFTER_S = 24 * 3600.0
_KINDS = {
    stat.S_IFCHR: "a character device",
    stat.S_IFBLK: "a block device",
    stat.S_IFIFO: "a FIFO (named pipe)",
    stat.S_IFSOCK: "a socket",
}


_SYSTEM = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO, errno.EFBIG}
"""Errors of the system, not of the path named: a full disk, a read-only or forbidden folder."""
CAMPAIGN_FILES = {
    "campaign.yaml": "the campaign's campaign.yaml",
    "setup.yaml": "the campaign's set-up setup.yaml",
}
RECORD_FOLDERS = {"turns": ("folder of turn logs", "turn log"), "backups": ("folder of backups", "backup")}
"""A campaign's folders of its record: what each is, and what each of their files is."""
_RECORD_FILE = {"turns": re.compile(r"turn-[0-9]{2,3}\.yaml"), "backups": re.compile(r"turn-[0-9]{2,3}\.yaml\..+")}
SCENARIO_FILE = "scenario.yaml"


def _refused(path: Path | str, exc: OSError) -> Exception:
    """What a write the system refused raises: an OSError naming the path when it is the
    system's doing (a plain message, exit 1), bad usage when the path itself is wrong."""
    if exc.errno in _SYSTEM:
        return OSError(exc.errno, exc.strerror or str(exc), str(path))
    return UsageError(msg.out_cannot_write(str(path), exc.strerror or str(exc)))


def refuse_protected(path: Path) -> None:
    """Refuse `path` if it is, or lies inside, a campaign's own files (campaign.yaml, setup.yaml,
    turns/, backups/ of the campaign found walking up from it) or a scenario folder. Links and
    `..` are resolved first, both for a link itself and for what it points to, so that every
    spelling of a place is refused alike."""
    try:
        spellings = {os.path.normpath(os.path.join(os.path.realpath(path.parent), path.name)), os.path.realpath(path)}
    except (OSError, ValueError):
        return  # a path the system cannot resolve is refused by the write itself
    for real in sorted(spellings):
        what = _protected(Path(real))
        if what is not None:
            shown = str(path) if real == os.path.abspath(path) else f"{path} ({real})"
            raise UsageError(msg.out_protected(shown, what))


def _protected(real: Path) -> str | None:
    """What `real` (a resolved path) is of a campaign or scenario, or None if it is neither's."""
    for folder in (real, *real.parents):
        if os.path.lexists(folder / SCENARIO_FILE):
            return f"the scenario folder {folder}" if folder == real else f"inside the scenario folder {folder}"
        if os.path.lexists(folder / "campaign.yaml"):
            what = _campaign_part(real.relative_to(folder).parts, folder)
            if what is not None:
                return what
    return None


def _campaign_part(parts: tuple[str, ...], folder: Path) -> str | None:
    if not parts:
        return f"the campaign folder {folder}"
    first = parts[0].casefold()  # a folder that ignores case names turns/ as TURNS/ too
    if first in CAMPAIGN_FILES:
        return CAMPAIGN_FILES[first]
    if first not in RECORD_FOLDERS:
        return None
    folder_is, file_is = RECORD_FOLDERS[first]
    if len(parts) == 1:
        return f"the campaign's {folder_is} {parts[0]}/"
    inside = "/".join(parts[1:])
    if len(parts) == 2 and _RECORD_FILE[first].fullmatch(parts[1]):
        return f"the campaign's {file_is} {inside}"
    return f"a file in the campaign's {folder_is} {parts[0]}/ ({inside})"


def write_out(path: Path, data: bytes) -> None:
    """Write a file the user asked for (`--out FILE`, or a default name): as `write_atomic`,
    never over a campaign's own files nor into a scenario folder."""
    refuse_protected(path)
    write_atomic(path, data)


def yaml_scalar(value: str | int | bool | None) -> str:
    """`value` as one YAML scalar on one line, as the emitter writes it inside a flow collection
    (`w_markov_1`, `'a, b'`, `3`): whatever it holds, it loads back as this one value."""
    import yaml

    text: str = yaml.safe_dump([value], default_flow_style=True, allow_unicode=True, width=float("inf"))
    text = text.removeprefix("[").removesuffix("\n").removesuffix("]")
    return yaml_string(value) if _LINE_BREAK.search(text) else text


def yaml_string(value: object) -> str:
    """`value` as a double-quoted YAML string on one line (`"3416"`), control characters escaped."""
    import yaml

    text: str = yaml.safe_dump(str(value), default_style='"', allow_unicode=True, width=float("inf"))
    return text.removesuffix("\n...\n").removesuffix("\n")


def yaml_comment(value: object) -> str:
    """`value` as text for a YAML comment: control characters and line breaks escaped, so that it
    cannot end the comment."""
    return escape_controls(str(value), newlines=False)


_LINE_BREAK = re.compile("[\n\r\x85\u2028\u2029]")


def _temp_name(name: str, kind: str = "tmp") -> str:
    return f".{name}.kitgen-{os.getpid()}-{os.urandom(4).hex()}.{kind}"


SYSTEM_FOLDERS = ("/dev", "/proc")
"""The system's folders of devices and processes: kitgen writes nothing in them, nor through a
link into them (`/dev/stdout` is a link to whatever the output is: a terminal, a pipe, a file).
/sys needs no rule: the system refuses every new file there, even root's."""
MAX_LINK_HOPS = 40
"""Symbolic links followed from an output's name to what it names (the system's own limit)."""


def _refuse_unless_file(path: Path) -> None:
    """Refuse to replace anything but a regular file, or a symbolic link to one (or to nothing, or
    to a folder), which is replaced itself, never what it points to; and anything in the system's
    folders of devices or reached through them (`SYSTEM_FOLDERS`), whatever it is now."""
    try:
        mode: int | None = os.lstat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise _refused(path, exc) from None
    if mode is not None and stat.S_ISDIR(mode):
        raise UsageError(msg.out_is_folder(str(path)))
    if mode is not None and not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise UsageError(msg.out_not_regular(str(path), _KINDS.get(stat.S_IFMT(mode), "a special file")))
    system = _system_place(path)
    if system is not None:
        raise UsageError(msg.out_not_regular(str(path), system))
    if mode is not None and stat.S_ISLNK(mode):
        try:
            target = os.stat(path).st_mode
        except OSError:
            return  # a link to nothing, or a loop: the link is replaced itself
        if stat.S_IFMT(target) in _KINDS:  # the link would go, and the device stay as the output
            raise UsageError(msg.out_not_regular(str(path), f"a symbolic link to {_KINDS[stat.S_IFMT(target)]}"))


def _system_place(path: Path) -> str | None:
    """What `path` is of the system's folders of devices (`SYSTEM_FOLDERS`), or None: a name in
    one (once the folder it is in is resolved), or a link whose chain of links passes through one."""
    try:
        place = os.path.join(os.path.realpath(path.parent), path.name)
    except (OSError, ValueError):
        return None  # a path the system cannot resolve is refused by the write itself
    for hop in range(MAX_LINK_HOPS + 1):
        folder = next((f for f in SYSTEM_FOLDERS if within(place, f)), None)
        if folder is not None:
            shown = f"in the system's folder {folder}"
            return shown if hop == 0 else f"a symbolic link to {place}, {shown}"
        try:
            target = os.readlink(place)
        except (OSError, ValueError):
            return None  # no link: the name itself is all there is
        place = os.path.normpath(os.path.join(os.path.realpath(os.path.dirname(place)), target))
    return None


def ensure_folder(folder: Path) -> None:
    """Make `folder` (and its parents) unless it is one; anything else in the way is refused."""
    try:
        mode = os.stat(folder).st_mode
    except FileNotFoundError:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise UsageError(msg.out_folder_not_folder(str(folder), "not a folder")) from None
        except OSError as exc:
            raise _refused(folder, exc) from None
        return
    except OSError as exc:
        raise _refused(folder, exc) from None
    if not stat.S_ISDIR(mode):
        kind = "a regular file" if stat.S_ISREG(mode) else _KINDS.get(stat.S_IFMT(mode), "a special file")
        raise UsageError(msg.out_folder_not_folder(str(folder), kind))


def clean_stale(folder: Path) -> None:
    """Remove the temporary files and folders that killed runs of kitgen left in `folder`."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        match = _TEMP.fullmatch(entry.name)
        if match is None or not _stale(int(match.group(1)), entry):
            continue
        target = folder / entry.name.split(".kitgen-")[0][1:]
        if match.group(2) == "old" and not os.path.lexists(target):
            with contextlib.suppress(OSError):  # a swap cut short: put the earlier set back
                os.rename(entry.path, target)
            continue
        with contextlib.suppress(OSError):
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path)
            else:
                os.unlink(entry.path)


def _stale(pid: int, entry: os.DirEntry[str]) -> bool:
    if pid != os.getpid() and not _alive(pid):
        return True
    try:
        return time.time() - entry.stat(follow_symlinks=False).st_mtime > _STALE_AFTER_S
    except OSError:
        return False


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def write_atomic(path: Path, data: bytes, *, mode: int = 0o666) -> None:
    """Write `data` to `path` so that a failed or killed run leaves any earlier file untouched."""
    _refuse_unless_file(path)
    ensure_folder(path.parent)
    clean_stale(path.parent)
    tmp = path.parent / _temp_name(path.name)
    with stopsignals.held():
        try:
            _write_new(tmp, data, mode)
            os.replace(tmp, path)
            _sync_folder(path.parent)
        except OSError as exc:
            raise _refused(path, exc) from None
        finally:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()


class ChangedMeanwhile(Exception):
    """The file on disk was not as expected when the new one was to take its place: nothing was
    replaced. `kept` holds what would have been lost, if anything (a save that came at the very
    moment of the swap)."""

    def __init__(self, kept: Path | None = None) -> None:
        super().__init__(str(kept or ""))
        self.kept = kept


def replace_if_unchanged(path: Path, data: bytes, expected: bytes) -> None:
    """Write `data` over `path` only if `path` still holds `expected`, checked in the same step
    as the swap where the system allows it: the new file is written beside it, the two are
    exchanged atomically (Linux renameat2), and what was swapped out is compared; if it is not
    `expected` (an editor saved meanwhile) they are swapped back and ChangedMeanwhile is raised.
    Elsewhere it is compared just before an ordinary rename."""
    _refuse_unless_file(path)
    clean_stale(path.parent)
    tmp = path.parent / _temp_name(path.name)
    with stopsignals.held():
        try:
            _write_new(tmp, data)
            if read_exactly(path) != expected:
                raise ChangedMeanwhile
            if not _exchange(tmp, path):
                os.replace(tmp, path)
                _sync_folder(path.parent)
                return
            if read_exactly(tmp) != expected:  # a save came between the check and the swap
                _exchange(tmp, path)
                back = read_exactly(tmp)
                if back != data:  # and another in between the two swaps: keep it, never lose it
                    kept = path.parent / _temp_name(path.name, "kept")
                    os.rename(tmp, kept)
                    raise ChangedMeanwhile(kept)
                raise ChangedMeanwhile
            _sync_folder(path.parent)
        except OSError as exc:
            raise _refused(path, exc) from None
        finally:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()


def remove_if_unchanged(path: Path, expected: bytes) -> None:
    """Remove `path` only if it still holds `expected`: moved aside in one step and compared there,
    so that an editor's save can neither be removed nor hidden; if it is not `expected`, it is put
    back (or kept beside, should a save have made a new file meanwhile) and ChangedMeanwhile is
    raised. Killed while aside, the next run puts it back (`clean_stale`)."""
    _refuse_unless_file(path)
    aside = path.parent / _temp_name(path.name, "old")
    with stopsignals.held():
        try:
            os.rename(path, aside)
        except FileNotFoundError:
            raise ChangedMeanwhile from None
        except OSError as exc:
            raise _refused(path, exc) from None
        if read_exactly(aside) == expected:
            os.unlink(aside)
            _sync_folder(path.parent)
            return
        if not os.path.lexists(path):
            os.rename(aside, path)
            raise ChangedMeanwhile
        kept = path.parent / _temp_name(path.name, "kept")
        os.rename(aside, kept)
        raise ChangedMeanwhile(kept)


def read_exactly(path: Path) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def _write_new(path: Path, data: bytes, mode: int = 0o666) -> None:
    """A new regular file with ordinary permissions (the umask's), flushed to the disk."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), mode)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def _sync_folder(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class ProductFolder:
    """A folder of files written as one set: staged beside it, then swapped in whole.

    The folder must be new, empty, or one kitgen wrote before (its manifest lists every file
    in it); kitgen never replaces a folder holding files of the user's, nor a symbolic link."""

    def __init__(self, folder: Path, *, manifest: bool = True, keep: bool = False) -> None:
        self.folder = folder
        self.manifest = manifest
        """False for a folder that becomes the user's own (a new campaign)."""
        self.keep = keep
        """True for a folder that gathers sets (the weeks' packets): the files of the earlier set
        stay, but those written again."""
        self.staging: Path | None = None
        self.names: list[str] = []
        self.folders: list[str] = []
        self.digests: dict[str, str] = {}
        """The earlier set's files with the digests kitgen wrote them with."""
        self.written: set[str] = set()
        """The files written in this run (the others of a gathering set carried over)."""
        self.seen: dict[str, tuple[int, int, int]] = {}
        """What the folder held when the set was begun, each entry's inode, size and time: what
        changes in it before the swap (a file of the user's saved there) stops the swap."""

    def __enter__(self) -> ProductFolder:
        refuse_protected(self.folder)
        ensure_folder(self.folder.parent)
        clean_stale(self.folder.parent)
        _refuse_foreign(self.folder)
        self.seen = _entries(self.folder)
        self.digests = _manifest_digests(self.folder) if self.manifest else {}
        if not self.keep:  # the whole earlier set goes: none of it may be a file the user changed
            self._refuse_changed(sorted(self.digests))
        staging = self.folder.parent / _temp_name(self.folder.name)
        try:
            staging.mkdir()
            self.staging = staging
            if self.keep and self.manifest:
                self.names = _keep_earlier(self.folder, staging)
        except BaseException as exc:  # Ctrl-C too: __exit__ is not called when __enter__ fails
            with contextlib.suppress(OSError):
                shutil.rmtree(staging)
            self.staging = None
            if isinstance(exc, OSError):
                raise _refused(self.folder, exc) from None
            raise
        return self

    def _refuse_changed(self, names: list[str]) -> None:
        """Refuse to replace a file of the earlier set that the user changed since kitgen wrote
        it (a form filled and saved in place): it is the user's now."""
        changed = [n for n in names if self.digests.get(n) and _safe_digest(self.folder / n) != self.digests[n]]
        if changed:
            raise UsageError(msg.out_changed_since(str(self.folder), changed))

    def write(self, name: str, data: bytes) -> Path:
        """Stage one file of the set (a plain file name, no folders)."""
        if self.staging is None or not _plain_name(name):
            raise ValueError(f"not a file name of a product: {name!r}")
        if self.keep:
            self._refuse_changed([name])
        try:
            if name in self.names:  # a file of the earlier set, written again
                (self.staging / name).unlink()
            _write_new(self.staging / name, data)
        except OSError as exc:
            raise _refused(self.folder / name, exc) from None
        if name not in self.names:
            self.names.append(name)
        self.written.add(name)
        return self.folder / name

    def write_inside(self, folder: str, name: str, data: bytes) -> Path:
        """Stage one file of the set in a folder of it staged before (`folder_inside`): only in a
        set with no manifest (a new campaign), whose manifest would list files, not folders."""
        if self.manifest or self.staging is None or folder not in self.folders or not _plain_name(name):
            raise ValueError(f"not a file of a product's folder: {folder!r}/{name!r}")
        try:
            _write_new(self.staging / folder / name, data)
        except OSError as exc:
            raise _refused(self.folder / folder / name, exc) from None
        return self.folder / folder / name

    def folder_inside(self, name: str) -> Path:
        """Stage an empty folder of the set."""
        if self.staging is None or not _plain_name(name):
            raise ValueError(f"not a folder name of a product: {name!r}")
        (self.staging / name).mkdir()
        self.folders.append(name)
        return self.folder / name

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        staging, self.staging = self.staging, None
        if staging is None:
            return
        with stopsignals.held():
            try:
                if kind is None:
                    if self.manifest:
                        carried = {n: d for n, d in self.digests.items() if n not in self.written}
                        _write_new(staging / MANIFEST, _listing(staging, self.names, carried))
                    _sync_folder(staging)
                    _swap_in(staging, self.folder, self.seen)
            except OSError as error:
                raise _refused(self.folder, error) from None
            finally:
                with contextlib.suppress(OSError):
                    shutil.rmtree(staging)


def check_product_folder(folder: Path) -> None:
    """Refuse at once what `ProductFolder` would refuse at the end (a campaign's own files, a
    scenario folder, a link, a folder of the user's files), before the work of making the set."""
    refuse_protected(folder)
    _refuse_foreign(folder)


def _plain_name(name: str) -> bool:
    return bool(name) and name not in (".", "..") and "/" not in name and "\0" not in name and name != MANIFEST


def _refuse_foreign(folder: Path) -> None:
    system = _system_place(folder)
    if system is not None:
        raise UsageError(msg.out_folder_not_folder(str(folder), system))
    try:
        mode = os.lstat(folder).st_mode
    except FileNotFoundError:
        return
    if not stat.S_ISDIR(mode):
        kind = "a regular file" if stat.S_ISREG(mode) else _KINDS.get(stat.S_IFMT(mode), "a symbolic link")
        raise UsageError(msg.out_folder_not_folder(str(folder), kind))
    present = sorted(p.name for p in folder.iterdir())
    if not present:
        return
    listed = _manifest_digests(folder)
    foreign = [n for n in present if n != MANIFEST and n not in listed]
    if foreign or MANIFEST not in present:
        raise UsageError(msg.out_foreign_files(str(folder), foreign or present))


def _keep_earlier(folder: Path, staging: Path) -> list[str]:
    """Link (or copy) into `staging` the regular files of `folder` its manifest lists."""
    kept = []
    for name in sorted(n for n in _manifest(folder) if _plain_name(n)):
        source = folder / name
        try:
            if not stat.S_ISREG(os.lstat(source).st_mode):
                continue
        except FileNotFoundError:
            continue
        try:
            os.link(source, staging / name)
        except OSError:  # a file system without hard links: a copy
            _write_new(staging / name, source.read_bytes())
        kept.append(name)
    return kept


def _manifest(folder: Path) -> set[str]:
    return set(_manifest_digests(folder))


def _manifest_digests(folder: Path) -> dict[str, str]:
    """The files a folder's manifest lists, each with the digest kitgen wrote it with ('' where
    the manifest, an older kitgen's, gives none)."""
    from kitgen.errors import KitgenError
    from kitgen.inputs import read_file

    try:
        data = json.loads(read_file(folder / MANIFEST, limit=1 << 20))
        listed = data.get("files", [])
        digests = data.get("sha256", {})
    except (KitgenError, ValueError, AttributeError):
        return {}
    digests = digests if isinstance(digests, dict) else {}
    return {n: str(digests.get(n, "")) for n in listed if isinstance(n, str)}


def _listing(staging: Path, names: list[str], carried: dict[str, str]) -> bytes:
    """The manifest of a set: its files, each with its digest, so that a file the user changes
    afterwards is told from kitgen's own; a file carried over from the earlier set keeps the
    digest kitgen wrote it with (`carried`: '' where that manifest gave none)."""
    digests = {n: carried[n] if n in carried else _digest(staging / n) for n in sorted(names)}
    return (json.dumps({"files": sorted(names), "sha256": digests}, indent=1) + "\n").encode("utf-8")


def _digest(path: Path) -> str:
    import hashlib

    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def _safe_digest(path: Path) -> str:
    """The file's digest, or '' where it is not a regular file that can be read."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return ""
        return _digest(path)
    except OSError:
        return ""


def _entries(folder: Path) -> dict[str, tuple[int, int, int]]:
    """Each entry of `folder` (none if it is not a folder yet): its inode, size and time."""
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return {}
    found = {}
    for e in entries:
        with contextlib.suppress(OSError):
            s = e.stat(follow_symlinks=False)
            found[e.name] = (s.st_ino, s.st_size, s.st_mtime_ns)
    return found


def _changed(seen: dict[str, tuple[int, int, int]], now: dict[str, tuple[int, int, int]]) -> list[str]:
    """The entries added or changed since `seen` was taken."""
    return sorted(n for n, v in now.items() if seen.get(n) != v)


def _swap_in(staging: Path, folder: Path, seen: dict[str, tuple[int, int, int]] | None = None) -> None:
    """Put `staging` in the place of `folder` in one step where the system allows it. The folder
    replaced is looked at once out of the way: a file saved into it after the set was begun
    (`seen`: what it held then) puts it back, and the swap is refused, so that no file of the
    user's goes with it."""
    if not os.path.lexists(folder):
        os.rename(staging, folder)
        _sync_folder(folder.parent)
        return
    old = staging
    if not _exchange(staging, folder):
        old = folder.parent / _temp_name(folder.name, "old")
        os.rename(folder, old)  # a kill between these two renames is undone by clean_stale
        os.rename(staging, folder)
    changed = _changed(seen or {}, _entries(old)) if seen is not None else []
    if changed:  # undone: the user's folder back in its place, the new set discarded
        if old == staging:
            _exchange(staging, folder)
        else:
            os.rename(folder, staging)
            os.rename(old, folder)
        raise UsageError(msg.out_changed_meanwhile(str(folder), changed))
    if old != staging:
        shutil.rmtree(old, ignore_errors=True)
    _sync_folder(folder.parent)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Linux renameat2(RENAME_EXCHANGE): swap two folders atomically; False if unsupported."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    if ctypes.get_errno() in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()), str(b))
