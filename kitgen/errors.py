"""The error catalogue: every user-facing problem carries its file, line and column."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with the input, at a 1-based line and column of a file."""

    file: str
    line: int
    column: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: {self.message}"


class KitgenError(Exception):
    """Input that kitgen cannot use; carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    @classmethod
    def at(cls, file: Path | str, line: int, column: int, message: str) -> KitgenError:
        return cls([Problem(display_path(file), line, column, message)])


class UsageError(Exception):
    """A command-line argument that names nothing kitgen knows (not tied to a file)."""


def display_path(path: Path | str) -> str:
    """The path as the user should see it: relative to the working directory when inside it."""
    return _display(str(path), os.getcwd())


@lru_cache(maxsize=4096)
def _display(path: str, cwd: str) -> str:
    p = Path(path)
    try:
        return str(p.resolve().relative_to(Path(cwd).resolve()))
    except ValueError:
        return str(p)
