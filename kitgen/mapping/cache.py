"""The built hex map, cached on disk under a hash of everything it is built from."""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path
from typing import TYPE_CHECKING

from kitgen.errors import KitgenError, UsageError
from kitgen.inputs import is_file, read_file
from kitgen.mapping.hexmap import SCHEMA_VERSION, HexMap
from kitgen.model.scenario import Scenario
from kitgen.scenariocache import KEEP, cache_dir, prune

if TYPE_CHECKING:
    from kitgen.mapping.build import MapIssue

_BUILDER_FILES = (
    "mapping/build.py",
    "mapping/handmade.py",
    "mapping/overrides.py",
    "mapping/hexgrid.py",
    "mapping/hexmap.py",
    "mapping/layers.py",
    "mapping/places.py",
    "mapping/projection.py",
    "model/board.py",
    "model/geography.py",
    "model/scenario.py",
)
"""The modules whose code decides the built map: a change to any of them is a new cache key."""

CACHE_LIMIT = 1 << 30
"""A cached grid of 16x the bundled hexes is about 40 MB."""

_INPUTS = {"meta", "movement", "towns", "railways", "map", "coast", "river_courses"}


def input_key(scenario: Scenario) -> str:
    """A hash of the data the map is built from and of the code that builds it."""
    from importlib.metadata import version

    import shapely

    # pyproj's version from its package's record: importing it costs a packet 0.1 s or more
    versions = f"shapely {shapely.__version__} geos {shapely.geos_version_string} pyproj {version('pyproj')}"
    digest = hashlib.sha256(f"kitgen-map {SCHEMA_VERSION} {versions}\n".encode())
    package = Path(__file__).resolve().parent.parent
    for name in _BUILDER_FILES:
        digest.update((package / name).read_bytes())
    digest.update(scenario.model_dump_json(include=_INPUTS).encode())
    return digest.hexdigest()[:32]


def hex_map(scenario: Scenario, *, use_cache: bool = True) -> tuple[HexMap | None, list[MapIssue]]:
    """The scenario's hex map from the cache, else built and cached (when the cache can be
    written). `use_cache=False` builds afresh and refreshes the cache entry."""
    path = cache_dir() / f"hexmap-{scenario.meta.id}-{input_key(scenario)}.json"
    if use_cache and is_file(path):
        try:
            return _read(path), []
        except (KitgenError, ValueError, KeyError, TypeError, AttributeError, RecursionError, OSError):
            pass  # a damaged cache entry is rebuilt
    from kitgen.mapping.build import build_hex_map  # here: only a miss builds, and the builder's modules are many

    built, issues = build_hex_map(scenario)
    if built is not None:
        from kitgen.outputs import write_atomic

        with contextlib.suppress(OSError, UsageError):  # a read-only cache only costs time
            write_atomic(path, map_json(built).encode("utf-8"))
        prune(f"hexmap-{scenario.meta.id}-*.json", KEEP)
    return built, issues


_READ: dict[Path, tuple[tuple[int, int], HexMap]] = {}
"""Cache entries this process has read, by path, with the file's modification time and size:
one process that loads campaigns again and again (a test run, a long session) reads each once."""


def _read(path: Path) -> HexMap:
    """The hex map kept at `path`: the one read before while the file is unchanged, else read."""
    found = path.stat()
    stamp = (found.st_mtime_ns, found.st_size)
    kept = _READ.get(path)
    if kept is not None and kept[0] == stamp:
        return kept[1]
    read = HexMap.from_json(json.loads(read_file(path, limit=CACHE_LIMIT)))
    if len(_READ) >= KEEP:
        _READ.clear()
    _READ[path] = (stamp, read)
    return read


def map_json(hex_map: HexMap) -> str:
    return json.dumps(hex_map.to_json(), indent=1, sort_keys=False, ensure_ascii=False) + "\n"
