"""Where scenarios are: the bundled ones and a folder named by path. Kept apart from the loader,
which imports every model, so that finding a scenario's files costs nothing."""

from __future__ import annotations

import os
import re
from pathlib import Path

DEFAULT_SCENARIO = "denikin-1919"


def data_dir() -> Path:
    """Where bundled scenarios and sample campaigns live: $KITGEN_DATA, else the `data/` kitgen
    ships (`kitgen.packagedata`)."""
    from kitgen.packagedata import shipped

    env = os.environ.get("KITGEN_DATA")
    return Path(env) if env else shipped("data")


def bundled_scenarios() -> list[str]:
    root = data_dir()
    return sorted(p.parent.name for p in root.glob("*/scenario.yaml")) if root.is_dir() else []


SCENARIO_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,63}")
"""A bundled scenario's name, and any scenario's id: it names folders and files."""


def find_scenario(name_or_path: str, *, base: Path | None = None) -> Path | None:
    """The scenario folder a path or a bundled name stands for, or None.

    A path is taken relative to `base` when one is given (a campaign's folder), else to the
    working directory; a bare name is looked up among the bundled scenarios."""
    from kitgen.inputs import is_file, is_folder

    path = Path(name_or_path)
    if base is not None and not path.is_absolute():
        path = Path(os.path.normpath(base / path))
    if is_folder(path):
        return path
    if path.name == "scenario.yaml" and is_file(path):
        return path.parent
    bundled = data_dir() / name_or_path
    if SCENARIO_NAME.fullmatch(name_or_path) and is_file(bundled / "scenario.yaml"):
        return bundled
    return None
