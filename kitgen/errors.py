"""Problems and the two kinds of user error: bad data (exit 1) and bad usage (exit 2).

Their words come from the catalogue, `kitgen.messages`; this module holds only the types.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from kitgen.messages import Msg


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the input, at a 1-based line and column of a file."""

    file: str
    line: int
    column: int
    message: str
    code: str = field(compare=False)
    """The catalogue entry the message comes from."""

    def __str__(self) -> str:
        # the file's name is one line whatever it holds: a line break in it would start a line of its own
        where = escape_controls(self.file, newlines=False)
        return where + escape_controls(f":{self.line}:{self.column}: {self.message}")

    @classmethod
    def of(cls, file: Path | str, line: int, column: int, msg: Msg) -> Problem:
        return cls(display_path(file), line, column, msg.text, msg.code)


class KitgenError(Exception):
    """Input that kitgen cannot use; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem]) -> None:
        if isinstance(problems, str):
            problems = _rewrapped(KitgenError, problems).problems
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    def __reduce__(self) -> tuple[type[KitgenError], tuple[list[Problem]]]:
        # rebuilt from its problems, not its text, when a worker process hands it back
        return (type(self), (self.problems,))

    @classmethod
    def at(cls, file: Path | str, line: int, column: int, msg: Msg) -> KitgenError:
        return cls([Problem.of(file, line, column, msg)])


class UsageError(Exception):
    """A command-line argument that names nothing kitgen knows (not tied to a file)."""

    def __init__(self, msg: Msg) -> None:
        if isinstance(msg, str):
            msg = _rewrapped(UsageError, msg).msg
        self.msg: Msg = msg
        super().__init__(msg.text)

    def __reduce__(self) -> tuple[type[UsageError], tuple[Msg]]:
        return (type(self), (self.msg,))

    def __str__(self) -> str:
        return escape_controls(self.msg.text)


E = TypeVar("E", KitgenError, UsageError)


def _rewrapped(kind: type[E], text: str) -> E:
    """The error being handled, which a library re-raises as `kind(its words)` (reportlab's
    platypus annotates an exception raised while it builds a document so, its words round the
    error's own): the words cannot give back its problems, the error it handles can."""
    import sys

    current = sys.exc_info()[1]
    if not isinstance(current, kind) or str(current) not in text:
        raise TypeError(f"{kind.__name__} takes its problems, not a text")
    return current


_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_CONTROLS_BUT_NEWLINE = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def escape_controls(text: str, *, newlines: bool = True) -> str:
    """`text` with each control character (C0, DEL, C1, and the Unicode line and paragraph
    separators) shown as `\\x1b`, `\\x00`, `\\u2028`: a name or a form cell quoted in a message
    cannot drive the terminal. Newlines, the breaks between a message's lines, are kept unless
    `newlines` is False (one line of a file: a YAML comment)."""
    return (_CONTROLS_BUT_NEWLINE if newlines else _CONTROLS).sub(_shown, text)


def _shown(found: re.Match[str]) -> str:
    code = ord(found.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_output(text: str, *, newlines: bool = True) -> str:
    """A command's output as printed: each control character but the line break (C0, DEL, C1, the
    Unicode separators) shown as JSON writes it (`\\u001b`), so that a name from a file cannot
    drive the terminal and JSON printed reads back as the same values. Line breaks are kept (they
    are the output's own) unless `newlines` is False: one line, whose values may hold one."""
    return (_CONTROLS_BUT_NEWLINE if newlines else _CONTROLS).sub(_json_escape, text)


def joined_lines(lines: list[str]) -> str:
    """The lines of a text output, each ended by a line break: a line break or separator that a
    value (a name from a file) brought into a line is escaped, so that it cannot start a line."""
    return "".join(escape_output(line, newlines=False) + "\n" for line in lines)


def _json_escape(found: re.Match[str]) -> str:
    return f"\\u{ord(found.group()):04x}"


def display_path(path: Path | str) -> str:
    """The path as the user should see it: relative to the working directory when inside it, on
    one line (a control character or line break in a name shown escaped, `escape_controls`)."""
    try:
        cwd = os.getcwd()
    except OSError:  # the working folder was removed under kitgen: name the path as given
        return escape_controls(str(path), newlines=False)
    return escape_controls(_display(str(path), cwd), newlines=False)


@lru_cache(maxsize=4096)
def _display(path: str, cwd: str) -> str:
    try:
        return os.path.relpath(os.path.abspath(path), cwd) if within(path, cwd) else path
    except ValueError:
        return path


def within(path: Path | str, folder: Path | str) -> bool:
    """Whether `path` is `folder` or lies under it, judged on the names alone: a symlink loop
    or a dangling link must not stop an error message from naming its file."""
    absolute, top = os.path.abspath(path), os.path.abspath(folder)
    return absolute == top or absolute.startswith(top.rstrip(os.sep) + os.sep)
