"""`kitgen map --format json` and the on-disk map cache (kitgen.mapping.cache).

Issue 3: "The result is cached on disk keyed by the inputs' hash, and `kitgen map --format json`
exports it (documented schema: hexes with `id`, centre both as projected km and as `lat`/`lon`,
`terrain`, flags, town; hexsides with river class and bridge; rail links)."
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kitgen.loader import load_scenario
from kitgen.mapping import cache
from kitgen.mapping.build import build_hex_map
from kitgen.mapping.hexmap import HexMap
from kitgen.model.scenario import Scenario
from tests.conftest import BUNDLED, edit

README = Path(__file__).resolve().parent.parent / "docs" / "reference" / "data.md"  # the manual's data reference

TOP_KEYS = {
    "schema_version",
    "scenario",
    "hex_size_km",
    "projection",
    "columns",
    "rows",
    "left_km",
    "top_km",
    "frame_km",
    "hexes",
    "hexsides",
    "rail",
    "roads",
    "rail_exits",
    "supply_sources",
    "conditional_sources",
    "ferries",
    "points",
}
HEX_KEYS = {
    "id": str,
    "col": int,
    "row": int,
    "x_km": float,
    "y_km": float,
    "lat": float,
    "lon": float,
    "terrain": str,
    "land_share": (int, float),
    "coastal": bool,
    "port": bool,
    "rail": bool,
    "road": bool,
    "towns": list,
}
HEXSIDE_KEYS = {
    "hexes": list,
    "direction": str,
    "river": (str, type(None)),
    "river_class": (str, type(None)),
    "bridge": bool,
    "sea": bool,
}
LINK_KEYS = {"hexes": list, "line": str}
SOURCE_KEYS = {"faction", "hex", "kind", "edge", "town", "while_held"}


def run_map(*args: str, cache_dir: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    full_env = {**os.environ, "KITGEN_CACHE": str(cache_dir), **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "kitgen", "map", *args], capture_output=True, check=False, env=full_env
    )


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, Path]:
    """`kitgen map --format json` with a fresh, empty cache: its output and the cache folder."""
    cache_dir = tmp_path_factory.mktemp("export-cache")
    result = run_map("--format", "json", cache_dir=cache_dir)
    assert result.returncode == 0, result.stderr.decode()
    assert b"Traceback" not in result.stderr
    return result.stdout, cache_dir


@pytest.fixture(scope="module")
def data(exported: tuple[bytes, Path]) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(exported[0].decode("utf-8"))
    return loaded


# --- the export ------------------------------------------------------------------------------


def test_export_is_json_with_schema_version_1(data: dict[str, Any]) -> None:
    assert data["schema_version"] == 1
    assert set(data) == TOP_KEYS
    assert data["scenario"] == "denikin-1919"
    assert data["hex_size_km"] == 30  # scenario.yaml: map.hex_size_km
    assert "+proj=lcc" in data["projection"]


def test_hexes_carry_the_documented_keys(data: dict[str, Any]) -> None:
    """README: hexes `[{id, col, row, x_km, y_km, lat, lon, terrain, land_share, coastal, port, rail, road, towns}]`."""
    hexes = data["hexes"]
    # the frame cuts the outer hexes; cells wholly beyond it are left out, so at most the whole grid
    assert data["columns"] * (data["rows"] - 1) < len(hexes) <= data["columns"] * data["rows"]
    for h in hexes:
        assert set(h) == set(HEX_KEYS), h["id"]
        for key, kind in HEX_KEYS.items():
            assert isinstance(h[key], kind), (h["id"], key)
        assert h["id"] == f"{h['col']:02d}{h['row']:02d}"
        assert all(isinstance(t, str) for t in h["towns"])
    terrains = {h["terrain"] for h in hexes}
    assert terrains <= {"open", "forest", "mountain", "marsh", "sea"}  # movement.yaml's terrain, or sea
    assert {"open", "sea"} <= terrains


def test_hexsides_carry_the_documented_keys(data: dict[str, Any]) -> None:
    """README: hexsides `[{hexes: [a, b], direction, river, river_class, bridge, sea}]`; a side
    with no river is open water between two shores (`sea`)."""
    assert data["hexsides"]
    for side in data["hexsides"]:
        assert set(side) == set(HEXSIDE_KEYS)
        for key, kind in HEXSIDE_KEYS.items():
            assert isinstance(side[key], kind), (side, key)
        assert len(side["hexes"]) == 2
        assert side["direction"] in {"N", "NE", "SE", "S", "SW", "NW"}
        assert side["river_class"] in {"major", "crossable"} or (side["river"] is None and side["sea"])
    assert {"major", "crossable"} == {side["river_class"] for side in data["hexsides"]} - {None}
    assert any(side["sea"] for side in data["hexsides"])
    assert any(side["bridge"] for side in data["hexsides"])


def test_rail_and_road_links_carry_the_documented_keys(data: dict[str, Any]) -> None:
    """README: `rail`, `roads`: `[{hexes: [a, b], line}]`."""
    ids = {h["id"] for h in data["hexes"]}
    for key in ("rail", "roads"):
        assert data[key], key
        for link in data[key]:
            assert set(link) == set(LINK_KEYS)
            assert len(link["hexes"]) == 2 and set(link["hexes"]) <= ids
            assert isinstance(link["line"], str) and link["line"]


def test_rail_exits_and_supply_sources_carry_the_documented_keys(data: dict[str, Any]) -> None:
    """README: `rail_exits` `[{hex, edge}]`; `supply_sources` `[{faction, hex, kind, edge, town,
    while_held}]`, `kind` `rail_exit` or `town`; `conditional_sources` `{faction: [...]}`."""
    assert data["rail_exits"]
    for e in data["rail_exits"]:
        assert set(e) == {"hex", "edge"}
        assert e["edge"] in {"north", "south", "east", "west"}
    factions = set()
    for source in data["supply_sources"]:
        assert set(source) == SOURCE_KEYS
        assert source["kind"] in {"rail_exit", "town"}
        assert (source["edge"] is None) == (source["kind"] == "town")
        assert (source["town"] is None) == (source["kind"] == "rail_exit")
        factions.add(source["faction"])
    assert factions == {"reds", "whites", "ukrainians", "makhnovists"}
    assert set(data["conditional_sources"]) == factions
    assert all(isinstance(v, list) for v in data["conditional_sources"].values())


def test_points_stand_in_the_hex_whose_centre_is_nearest_their_projected_place(data: dict[str, Any]) -> None:
    """Data reference: `points`, "each railway point (`railways.yaml`) and map point (`map.yaml`)
    inside the map's frame, as spelt there, and the hex its projection puts it in". Worked out
    here with PROJ directly: a hex grid's hexes are the places nearest their centres."""
    import pyproj

    scenario = load_scenario(BUNDLED)
    given = [(p.name, p.lon, p.lat) for p in [*scenario.railways.points, *scenario.map.points]]
    to_km = pyproj.Transformer.from_crs("+proj=longlat +datum=WGS84 +no_defs", data["projection"], always_xy=True)
    left, bottom, right, top = data["frame_km"]
    centres = [(h["x_km"], h["y_km"], h["id"]) for h in data["hexes"]]
    expected = []
    for name, lon, lat in given:
        x, y = to_km.transform(lon, lat)
        if left <= x <= right and bottom <= y <= top:
            expected.append((name, min(centres, key=lambda c: (c[0] - x) ** 2 + (c[1] - y) ** 2)[2]))
    assert expected, "the bundled map has railway points inside its frame"
    assert len(expected) < len(given), "and points outside it, which are left out"
    assert [(p["name"], p["hex"]) for p in data["points"]] == expected


def test_readme_documents_every_key_of_the_export(data: dict[str, Any]) -> None:
    """The `kitgen map` help: "json: the hex grid" with its schema in the README."""
    text = README.read_text(encoding="utf-8")
    start = text.index("`kitgen map --format json` prints")
    section = text[start : text.index("\n## ", start)]
    keys = TOP_KEYS | set(HEX_KEYS) | set(HEXSIDE_KEYS) | set(LINK_KEYS) | SOURCE_KEYS | {"hex"}
    assert sorted(k for k in keys if not re.search(rf"\b{k}\b", section)) == []
    assert set(data) <= TOP_KEYS


def test_export_round_trips_through_hexmap(data: dict[str, Any], exported: tuple[bytes, Path]) -> None:
    hex_map = HexMap.from_json(data)
    assert cache.map_json(hex_map).encode("utf-8") == exported[0]


# --- determinism -----------------------------------------------------------------------------


def test_export_is_byte_identical_from_cache_and_afresh(exported: tuple[bytes, Path], tmp_path: Path) -> None:
    """The first run built the map into an empty cache; a second run reads the cache; --no-cache
    builds it again; a run under another hash seed and a run into a fresh cache: all the same bytes."""
    first, cache_dir = exported
    assert list(cache_dir.glob("hexmap-denikin-1919-*.json"))
    again = run_map("--format", "json", cache_dir=cache_dir)
    fresh = run_map("--format", "json", "--no-cache", cache_dir=cache_dir)
    other_seed = run_map("--format", "json", "--no-cache", cache_dir=tmp_path / "c2", env={"PYTHONHASHSEED": "12345"})
    for result in (again, fresh, other_seed):
        assert result.returncode == 0, result.stderr.decode()
        assert result.stdout == first


def test_export_to_a_file(exported: tuple[bytes, Path], tmp_path: Path) -> None:
    out = tmp_path / "deep" / "map.json"
    result = run_map("--format", "json", "--out", str(out), cache_dir=exported[1])
    assert result.returncode == 0, result.stderr.decode()
    assert result.stdout == b""
    assert out.read_bytes() == exported[0]
    assert not [p for p in out.parent.iterdir() if p.name != "map.json"]  # no temporary file left


# --- the cache -------------------------------------------------------------------------------


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("KITGEN_CACHE", str(folder))
    return folder


@pytest.fixture(scope="module")
def good_json(scenario: Scenario) -> str:
    """The bundled map as the cache stores it, built once for this module."""
    built, issues = build_hex_map(scenario)
    assert built is not None and issues == []
    return cache.map_json(built)


def entry(scenario: Scenario) -> Path:
    return cache.cache_dir() / f"hexmap-{scenario.meta.id}-{cache.input_key(scenario)}.json"


def refuse_to_build(scenario: Scenario) -> None:
    raise AssertionError("the map was built, not read from the cache")


def test_cache_dir_honours_kitgen_cache_then_xdg_then_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """cache_dir: "$KITGEN_CACHE, else $XDG_CACHE_HOME/kitgen, else ~/.cache/kitgen"."""
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KITGEN_CACHE", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert cache.cache_dir() == tmp_path / "home" / ".cache" / "kitgen"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.cache_dir() == tmp_path / "xdg" / "kitgen"
    monkeypatch.setenv("KITGEN_CACHE", str(tmp_path / "mine"))
    assert cache.cache_dir() == tmp_path / "mine"


def test_first_call_builds_and_writes_the_cache_second_reads_it(
    scenario: Scenario, cache_home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built, issues = cache.hex_map(scenario)
    assert built is not None and issues == []
    path = entry(scenario)
    assert path.parent == cache_home and path.is_file()
    assert path.read_text(encoding="utf-8") == cache.map_json(built)
    monkeypatch.setattr("kitgen.mapping.build.build_hex_map", refuse_to_build)
    again, issues = cache.hex_map(scenario)
    assert again == built and issues == []


def seed(scenario: Scenario, text: str) -> Path:
    path = entry(scenario)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8", "surrogateescape"))
    return path


def test_no_cache_builds_afresh(
    scenario: Scenario, cache_home: Path, good_json: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`--no-cache`: "Build the grid afresh, ignoring the disk cache"."""
    seed(scenario, good_json)
    monkeypatch.setattr("kitgen.mapping.build.build_hex_map", refuse_to_build)
    assert cache.hex_map(scenario)[0] == HexMap.from_json(json.loads(good_json))
    with pytest.raises(AssertionError, match="was built"):
        cache.hex_map(scenario, use_cache=False)


def test_no_cache_refreshes_a_damaged_entry(scenario: Scenario, cache_home: Path, good_json: str) -> None:
    """hex_map: "`use_cache=False` builds afresh and refreshes the cache entry"."""
    path = seed(scenario, "{")
    cache.hex_map(scenario, use_cache=False)
    assert path.read_text(encoding="utf-8") == good_json


def _truncated(text: str) -> str:
    return text[: len(text) // 2]


def _wrong_version(text: str) -> str:
    return text.replace('"schema_version": 1', '"schema_version": 99', 1)


def _hex_missing_a_key(text: str) -> str:
    data = json.loads(text)
    del data["hexes"][0]["terrain"]
    return json.dumps(data)


def _sources_not_a_dict(text: str) -> str:
    data = json.loads(text)
    data["conditional_sources"] = []
    return json.dumps(data)


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda text: "", id="empty"),
        pytest.param(_truncated, id="truncated"),
        pytest.param(lambda text: "\udcff\udcfe garbage", id="not-utf8"),
        pytest.param(_wrong_version, id="other-schema-version"),
        pytest.param(_hex_missing_a_key, id="hex-missing-a-key"),
        pytest.param(lambda text: "[]", id="a-list"),
        pytest.param(lambda text: "null", id="null"),
        pytest.param(_sources_not_a_dict, id="conditional-sources-a-list"),
    ],
)
def test_a_damaged_cache_entry_is_rebuilt(scenario: Scenario, cache_home: Path, good_json: str, damage: Any) -> None:
    """cache.py: "a damaged cache entry is rebuilt" (and written again whole)."""
    path = seed(scenario, damage(good_json))
    again, issues = cache.hex_map(scenario)
    assert again == HexMap.from_json(json.loads(good_json)) and issues == []
    assert path.read_text(encoding="utf-8") == good_json


def test_an_unwritable_cache_only_costs_time(
    scenario: Scenario, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """cache.py: "a read-only cache only costs time": a cache folder that cannot be made (it would sit
    under a plain file) still gives the map."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("KITGEN_CACHE", str(blocker / "cache"))
    built, issues = cache.hex_map(scenario)
    assert built is not None and issues == []
    assert blocker.read_text(encoding="utf-8") == "not a folder"


EDITS = [
    ("scenario.yaml", "hex_size_km: 30", "hex_size_km: 31"),
    ("towns.yaml", "{name: Kiev, aliases: [Kyiv], lat: 50.45,", "{name: Kiev, aliases: [Kyiv], lat: 50.46,"),
    ("railways.yaml", "stations: [Berdichev, Zhitomir]", "stations: [Zhitomir, Berdichev]"),
    ("map.yaml", "projection: {standard_parallels: [45.0, 50.5]}", "projection: {standard_parallels: [45.0, 50.0]}"),
    ("map.yaml", "  - {name: Yalta, lon: 34.16, lat: 44.50}", "  - {name: Yalta, lon: 34.17, lat: 44.50}"),
    ("geo/rivers.geojson", "[30.369,52.439]", "[30.369,52.44]"),
    ("geo/coast.geojson", "[40.857,43.072]", "[40.857,43.073]"),
]


@pytest.mark.parametrize(("file", "old", "new"), EDITS, ids=[f"{e[0]}-{i}" for i, e in enumerate(EDITS)])
def test_editing_an_input_changes_the_cache_key(
    scenario: Scenario, scenario_copy: Path, file: str, old: str, new: str
) -> None:
    """Issue 3: "cached on disk keyed by the inputs' hash": any edit to what the map is built from
    is a new key, so a stale map is never read back."""
    assert cache.input_key(load_scenario(scenario_copy)) == cache.input_key(scenario)
    edit(scenario_copy / file, old, new)
    assert cache.input_key(load_scenario(scenario_copy)) != cache.input_key(scenario)


def test_cache_key_is_stable(scenario: Scenario) -> None:
    """The same inputs give the same key, in another process too (no hash seed in it)."""
    here = cache.input_key(scenario)
    code = f"from kitgen.loader import load_scenario; from kitgen.mapping.cache import input_key; print(input_key(load_scenario({str(BUNDLED)!r})))"
    for seed in ("1", "2"):
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        )
        assert out.stdout.strip() == here
