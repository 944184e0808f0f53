"""Bad map input through the command line: `kitgen validate` and `kitgen map`.

Issue 3, "Bad input": "A town outside the map, a rail station that is not a known town or point,
a river in no class, an unknown terrain name, a hex size of zero or too large to make a map: each
a clear `file:line` error from `kitgen validate`, never a traceback, and no half-written PDF left
in `output/`."
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from kitgen.errors import KitgenError
from kitgen.loader import load_scenario, load_scenario_map
from tests.conftest import BUNDLED, edit

ROOT = BUNDLED.parent.parent


def kitgen(*args: str, cwd: Path = ROOT, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "KITGEN_CACHE": str(cache)}
    return subprocess.run(
        [sys.executable, "-m", "kitgen", *args], capture_output=True, text=True, check=False, cwd=cwd, env=env
    )


@dataclass(frozen=True)
class Case:
    """One broken input: the edit, and where and what the error must say."""

    file: str
    old: str
    new: str
    key_line: int
    """The reported line, counted from the line `edit` returns (the start of `old`)."""
    value: str
    """The text the column points at, on the reported line."""
    message: str
    code: str
    """The catalogue entry of the message."""


CASES = {
    "town-outside-the-map": Case(
        "towns.yaml",
        "{name: Kiev, aliases: [Kyiv], lat: 50.45,",
        "{name: Kiev, aliases: [Kyiv], lat: 53.45,",
        0,
        "53.45",
        "towns[7].lat: found Kiev at lat 53.45, lon 30.52, which lies outside the map's frame",
        "map.town_outside",
    ),
    "unknown-station": Case(
        "railways.yaml",
        "stations: [Berdichev, Zhitomir]",
        "stations: [Berdichev, Zhitomirr]",
        0,
        "Zhitomirr",
        "found the unknown station 'Zhitomirr', expected a town of towns.yaml or a point of this file; "
        "did you mean 'Zhitomir'",
        "check.unknown_station",
    ),
    "unknown-terrain": Case(
        "map.yaml",
        "  - name: Bryansk forest\n    terrain: forest",
        "  - name: Bryansk forest\n    terrain: jungle",
        1,
        "jungle",
        "found the unknown terrain 'jungle', expected one of open, forest, mountain or marsh",
        "check.unknown_terrain",
    ),
    "hex-size-zero": Case(
        "scenario.yaml",
        "hex_size_km: 30",
        "hex_size_km: 0",
        0,
        "0",
        "found 0, expected more than 0",
        "value.out_of_range",
    ),
    "hex-size-negative": Case(
        "scenario.yaml",
        "hex_size_km: 30",
        "hex_size_km: -30",
        0,
        "-30",
        "found -30, expected more than 0",
        "value.out_of_range",
    ),
    "hex-size-too-large": Case(
        "scenario.yaml",
        "hex_size_km: 30",
        "hex_size_km: 900",
        0,
        "900",
        "found 900 km: the map (",
        "map.hex_too_large",
    ),
    "parallels-either-side-of-the-equator": Case(
        "map.yaml",
        "projection: {standard_parallels: [45.0, 50.5]}",
        "projection: {standard_parallels: [-45.0, 45.0]}",
        0,
        "[-45.0",
        "found -45.0 and 45.0; expected two parallels on one side of the equator",
        "value.parallels",
    ),
    "supply-rule-that-selects-no-hex": Case(
        "map.yaml",
        "    - {rail_exits: north}\n",
        "    - {rail_exits: south}\n",
        0,
        "{rail_exits",
        "found no railway that leaves the map by the south edge; expected a rule that selects at least one rail exit",
        "map.no_rail_exit",
    ),
    "road-over-a-major-river-without-a-bridge": Case(
        "map.yaml",
        "  - {name: Perekop road, through: [Kakhovka, Perekop, Simferopol]}",
        "  - {name: Perekop road, through: [Kherson, Kakhovka, Perekop, Simferopol]}",
        0,
        "Kakhovka",
        "found Perekop road crossing the Dnieper (a major river) between Kherson and Kakhovka, where no bridge is "
        "listed",
        "map.unbridged_crossing",
    ),
    "coastline-that-does-not-cover-the-map": Case(
        "map.yaml",
        "extent: {west: 26.3, east: 44.8, south: 43.3, north: 52.2}",
        "extent: {west: 26.3, east: 48.0, south: 43.3, north: 52.2}",
        -9999,
        "",
        "expected a coastline layer for the whole map: run `make geodata`",
        "map.coast_short",
    ),
    "hex-size-too-small": Case(
        "scenario.yaml",
        "hex_size_km: 30",
        "hex_size_km: 1",
        0,
        "1",
        "found 1 km: the map would have more than 100000 hexes",
        "map.hex_too_small",
    ),
}


def expected_prefix(folder: Path, case: Case, line: int) -> str:
    if case.key_line == -9999:  # reported in the coastline layer, at its features
        text = (folder / "geo" / "coast.geojson").read_text(encoding="utf-8").splitlines()
        line = next(i for i, t in enumerate(text, 1) if t.startswith('"features":'))
        column = len('"features":') + 1
        return f"{folder / 'geo' / 'coast.geojson'}:{line}:{column}: "
    text = (folder / case.file).read_text(encoding="utf-8").splitlines()[line - 1]
    column = text.rindex(case.value) + 1
    return f"{folder / case.file}:{line}:{column}: "


@pytest.mark.parametrize("command", ["validate", "map"])
@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_is_one_file_line_column_error(scenario_copy: Path, tmp_path: Path, name: str, command: str) -> None:
    case = CASES[name]
    line = edit(scenario_copy / case.file, case.old, case.new) + case.key_line
    out = tmp_path / "out"
    args = ["validate", str(scenario_copy)] if command == "validate" else ["map", str(scenario_copy), "--out", str(out)]
    result = kitgen(*args, cache=tmp_path / "cache")
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert lines[-1] == "1 problem found"
    assert lines[0].startswith(expected_prefix(scenario_copy, case, line)), lines[0]
    assert case.message in lines[0]
    assert result.stdout == ""
    assert not out.exists() or not list(out.iterdir())


@pytest.mark.parametrize("name", list(CASES))
def test_bad_input_names_its_catalogue_entry(scenario_copy: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    case = CASES[name]
    monkeypatch.setenv("KITGEN_CACHE", str(scenario_copy.parent / "cache"))
    edit(scenario_copy / case.file, case.old, case.new)
    with pytest.raises(KitgenError) as caught:
        load_scenario_map(scenario_copy)
    assert [p.code for p in caught.value.problems] == [case.code]


def test_river_in_no_class(scenario_copy: Path, tmp_path: Path) -> None:
    """A river of geo/rivers.geojson that map.yaml puts in no class is reported at the river's
    name in the GeoJSON file."""
    edit(scenario_copy / "map.yaml", "Bityug, Ilovlya]", "Bityug]")
    text = (scenario_copy / "geo" / "rivers.geojson").read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(text, 1) if '"name":"Ilovlya"' in t)
    column = text[line - 1].index('"Ilovlya"') + 1
    for args in (["validate", str(scenario_copy)], ["map", str(scenario_copy), "--out", str(tmp_path / "out")]):
        result = kitgen(*args, cache=tmp_path / "cache")
        assert result.returncode == 1, result.stderr
        assert "Traceback" not in result.stderr
        assert result.stderr.startswith(
            f"{scenario_copy / 'geo' / 'rivers.geojson'}:{line}:{column}: features[28].properties.name: found the "
            "river 'Ilovlya' in no class; expected it under rivers: major or crossable in map.yaml"
        ), result.stderr
        assert result.stderr.strip().endswith("1 problem found")
    assert not (tmp_path / "out").exists()


def test_hex_size_messages_say_what_would_do(scenario_copy: Path, tmp_path: Path) -> None:
    """A hex size out of range says which range works; both ends are accepted by the map check."""
    edit(scenario_copy / "scenario.yaml", "hex_size_km: 30", "hex_size_km: 900")
    result = kitgen("validate", str(scenario_copy), cache=tmp_path / "cache")
    largest = re.search(r"expected at most (\d+) km", result.stderr)
    assert largest, result.stderr
    edit(scenario_copy / "scenario.yaml", "hex_size_km: 900", "hex_size_km: 1")
    result = kitgen("validate", str(scenario_copy), cache=tmp_path / "cache")
    smallest = re.search(r"expected at least ([\d.]+) km", result.stderr)
    assert smallest, result.stderr
    assert 1 < float(smallest.group(1)) < 30 < int(largest.group(1)) < 900


@pytest.mark.parametrize(
    "size",
    [
        20,
        40,
        55,
        45,
        50,
        80,
    ],
)
def test_the_bundled_scenario_builds_at_other_hex_sizes(
    scenario_copy: Path, monkeypatch: pytest.MonkeyPatch, size: int
) -> None:
    """RULES-NOTES: "Default scale 30 km across the flats; the scale is a scenario setting." Any size
    the size check accepts (it allows up to some 247 km here) gives a map holding every town, all of
    which lie inside map.yaml's extent; a size that cannot is reported at scenario.yaml, not as
    towns "outside the map"."""
    monkeypatch.setenv("KITGEN_CACHE", str(scenario_copy.parent / "cache"))
    edit(scenario_copy / "scenario.yaml", "hex_size_km: 30", f"hex_size_km: {size}")
    scenario, hex_map = load_scenario_map(scenario_copy)
    assert hex_map.hex_size_km == size
    assert sorted(n for h in hex_map.hexes for n in h.towns) == sorted(t.name for t in scenario.towns)


def test_outside_the_map_message_does_not_contradict_itself(scenario_copy: Path, tmp_path: Path) -> None:
    """A town at lat 43.35 (map.yaml's extent runs from lat 43.3): either it is on the map, or the
    error's 'expected ...' range excludes the position it reports."""
    edit(scenario_copy / "towns.yaml", "lat: 43.60, lon: 39.73", "lat: 43.35, lon: 35.6")
    result = kitgen("validate", str(scenario_copy), cache=tmp_path / "cache")
    assert "Traceback" not in result.stderr
    if result.returncode != 0:
        found = re.search(r"lat ([\d.]+) to ([\d.]+), lon ([\d.]+) to ([\d.]+)", result.stderr)
        assert found, result.stderr
        south, north, west, east = map(float, found.groups())
        assert not (south <= 43.35 <= north and west <= 35.6 <= east), result.stderr


# --- no half-written output ------------------------------------------------------------------


def test_failed_map_run_leaves_earlier_pdfs_untouched_and_no_temp_file(scenario_copy: Path, tmp_path: Path) -> None:
    """Issue 3: "no half-written PDF left": a good run writes the poster and the tiles; a run on the
    same scenario, broken, exits 1, and the folder holds exactly the earlier files, byte for byte."""
    out = tmp_path / "out"
    good = kitgen("map", str(scenario_copy), "--out", str(out), cache=tmp_path / "cache")
    assert good.returncode == 0, good.stderr
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.iterdir()}
    assert set(before) == {"map-poster.pdf", "map-tiles-a4.pdf", ".kitgen-manifest.json"}
    edit(
        scenario_copy / "towns.yaml",
        "{name: Kiev, aliases: [Kyiv], lat: 50.45,",
        "{name: Kiev, aliases: [Kyiv], lat: 53.45,",
    )
    bad = kitgen("map", str(scenario_copy), "--out", str(out), cache=tmp_path / "cache")
    assert bad.returncode == 1 and "Traceback" not in bad.stderr
    after = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in out.iterdir()}
    assert after == before


def test_failed_map_run_writes_nothing_under_output(scenario_copy: Path, tmp_path: Path) -> None:
    """Without --out the PDFs go to output/<scenario>/; a broken scenario creates nothing there,
    and `--format json --out FILE` creates no file."""
    edit(scenario_copy / "railways.yaml", "stations: [Berdichev, Zhitomir]", "stations: [Berdichev, Zhitomirr]")
    work = tmp_path / "work"
    work.mkdir()
    result = kitgen("map", str(scenario_copy), cwd=work, cache=tmp_path / "cache")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert list(work.iterdir()) == []
    result = kitgen(
        "map", str(scenario_copy), "--format", "json", "--out", str(work / "map.json"), cache=tmp_path / "c"
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert list(work.iterdir()) == []


def test_a_road_may_cross_a_major_river_on_a_listed_bridge(scenario_copy: Path, tmp_path: Path) -> None:
    """Roads list their bridges as railways do: with one over the Dnieper at Kherson, the road that
    crosses it there validates, and the hexside it crosses is a bridge."""
    edit(
        scenario_copy / "map.yaml",
        "  - {name: Perekop road, through: [Kakhovka, Perekop, Simferopol]}",
        "  - {name: Perekop road, through: [Kherson, Kakhovka, Perekop, Simferopol],\n"
        "     bridges: [{river: Dnieper, between: [Kherson, Kakhovka]}]}",
    )
    result = kitgen("validate", str(scenario_copy), cache=tmp_path / "cache")
    assert result.returncode == 0, result.stderr


def test_river_classes_match_names_as_everywhere(scenario_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Names are matched without regard to case or spacing (scenario.name_key); a major river
    written 'dnieper' in map.yaml is still the Dnieper, and still major."""
    monkeypatch.setenv("KITGEN_CACHE", str(scenario_copy.parent / "cache"))
    edit(scenario_copy / "map.yaml", "major: [Dnieper, Don,", "major: [dnieper, Don,")
    _, hex_map = load_scenario_map(scenario_copy)
    classes = {side.river_class for side in hex_map.hexsides if side.river == "Dnieper"}
    assert classes == {"major"}


def test_every_faction_needs_a_supply_source(scenario_copy: Path, tmp_path: Path) -> None:
    """B.3 traces supply to a faction's sources: a faction with none is reported at supply_sources."""
    line = edit(
        scenario_copy / "map.yaml",
        "  makhnovists:\n    - {town: Gulai Pole, while_held: true}\n    - {depots: captured}\n",
        "  makhnovists: []\n",
    )
    result = kitgen("validate", str(scenario_copy), cache=tmp_path / "cache")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "no supply sources for makhnovists; expected at least one for each faction (B.3)" in result.stderr
    assert f"map.yaml:{line}:" in result.stderr


def test_output_that_is_a_folder_is_named_in_the_error(tmp_path: Path) -> None:
    """`--out` naming a folder where a file is expected: the message names that folder, not a temporary file."""
    folder = tmp_path / "taken"
    folder.mkdir()
    result = kitgen("map", "--format", "json", "--out", str(folder), cache=tmp_path / "cache")
    assert result.returncode == 2
    assert result.stderr.strip() == f"kitgen: {folder} is a folder; expected a file name"


def test_a_station_named_twice_in_a_row_builds_the_same_railway(scenario_copy: Path) -> None:
    """A line that names a station twice running (found by the fuzzer: `[Kiev, Kiev, Fastov ...]`)
    has no stretch between the two: the map builds, with the railway it had."""
    from kitgen.mapping.build import build_hex_map

    before, _ = build_hex_map(load_scenario(scenario_copy))
    edit(
        scenario_copy / "railways.yaml", "stations: [Kiev, Fastov, Kazatin,", "stations: [Kiev, Kiev, Fastov, Kazatin,"
    )
    after, _ = build_hex_map(load_scenario(scenario_copy))
    assert after.rail == before.rail


def test_a_coast_ring_that_crosses_itself_once_projected_still_builds(scenario_copy: Path) -> None:
    """A coastline vertex moved far off the map (its longitude 0, as the fuzzer found) leaves a
    ring valid in degrees that crosses itself once projected: the map still builds (its
    geometry made valid again), never a GEOS TopologyException."""
    path = scenario_copy / "geo" / "coast.geojson"
    text = path.read_text()
    anchor = "[38.571,44.349],["
    start = text.index(anchor) + len(anchor)
    path.write_text(text[:start] + "0" + text[text.index(",", start) :])
    scenario, hex_map = load_scenario_map(scenario_copy, use_cache=False)
    assert hex_map.hexes and scenario.meta.id


@pytest.mark.parametrize("key", ["extent", "projection"])
def test_a_geography_key_left_empty_is_named_like_a_missing_one(scenario_copy: Path, key: str) -> None:
    """`extent:` or `projection:` with nothing after it (YAML's null) is reported as missing from
    a map with no board, not left to fail when the map is projected (a fuzzing find)."""
    text = (scenario_copy / "map.yaml").read_text(encoding="utf-8").splitlines(keepends=True)
    line = next(t for t in text if t.startswith(f"{key}:"))
    edit(scenario_copy / "map.yaml", line, f"{key}:\n")
    with pytest.raises(KitgenError) as caught:
        load_scenario_map(scenario_copy)
    assert [p.code for p in caught.value.problems] == ["value.map_geography"]
    assert f"found no board and no {key};" in caught.value.problems[0].message
