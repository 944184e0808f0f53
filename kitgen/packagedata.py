"""The folders kitgen ships beside its code: `data/` (the bundled scenarios and sample
campaigns) and `layouts/` (the printed parts' styles and templates).

In a checkout they stand at the top of the repository; the wheel's build maps them into the
package (pyproject.toml's `force-include`), where `importlib.resources` finds them."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

Shipped = Literal["data", "layouts", "schema"]


def shipped(name: Shipped) -> Path:
    """The folder `name` inside the installed package, else at the top of the checkout; an
    installed kitgen without it is broken, and says so."""
    from importlib.resources import files

    inside = files("kitgen").joinpath(name)
    if inside.is_dir():
        return Path(str(inside))
    root = Path(__file__).resolve().parent.parent
    if (root / "pyproject.toml").is_file() and (root / name).is_dir():
        return root / name
    from kitgen import messages as msg
    from kitgen.errors import UsageError

    raise UsageError(msg.install_incomplete(name, str(Path(str(files("kitgen"))))))


def versions() -> str:
    """kitgen's version, and each bundled scenario's data as a digest of its files (which
    changes whenever one of them does): what a bug report or a club's printing should quote."""
    import os

    from kitgen import __version__
    from kitgen.errors import escape_controls
    from kitgen.scenariofolders import bundled_scenarios, data_dir

    data = ", ".join(f"{name} {data_digest(data_dir() / name)}" for name in bundled_scenarios())
    told = f"kitgen {__version__}\nscenario data: {data or 'none bundled'}"
    if os.environ.get("KITGEN_DATA"):  # a club's own scenarios in place of the shipped ones
        told += f"\n(the scenarios of KITGEN_DATA={data_dir()})"
    return escape_controls(told)


def data_digest(folder: Path) -> str:
    """A short digest of the regular files under `folder`, by their paths and bytes."""
    import hashlib

    from kitgen.inputs import read_file

    digest = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file() and not p.is_symlink()):
        digest.update(path.relative_to(folder).as_posix().encode() + b"\0")
        digest.update(read_file(path))
    return digest.hexdigest()[:12]
