"""Finding and loading a scenario folder: every file read, validated and cross-checked."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from kitgen import messages as msg
from kitgen.errors import KitgenError, Problem, UsageError
from kitgen.inputs import Kind, kind_of, not_a_file, read_file
from kitgen.model.files import GEO_FILES as GEO_FILES
from kitgen.model.files import SCENARIO_FILES as SCENARIO_FILES
from kitgen.model.scenario import CommanderTable, Scenario, TownTable
from kitgen.scenariofolders import DEFAULT_SCENARIO, bundled_scenarios, find_scenario

if TYPE_CHECKING:
    from kitgen.mapping.build import MapIssue
    from kitgen.mapping.hexmap import HexMap
    from kitgen.yamlsource import Located


def resolve_scenario(name_or_path: str) -> Path:
    """A scenario folder from a path, or from the name of a bundled scenario."""
    found = find_scenario(name_or_path)
    if found is None:
        raise UsageError(msg.scenario_unknown(name_or_path, bundled_scenarios()))
    return found


def load_scenario(name_or_path: str | Path = DEFAULT_SCENARIO) -> Scenario:
    """Load and check a whole scenario; raise KitgenError listing every problem found.

    A scenario checked before, whose files and kitgen's code are unchanged since, is read from
    the cache (`kitgen.scenariocache`): the same value, without the checking."""
    from kitgen import scenariocache

    folder = resolve_scenario(str(name_or_path))
    key = scenariocache.key(folder, list(SCENARIO_FILES)) if not _unknown_files(folder) else None
    if key is not None and (cached := scenariocache.load(key)) is not None:
        return cached
    scenario = load_scenario_parts(folder)[0]
    if key is not None:
        scenariocache.store(key, scenario)
    return scenario


def _unknown_files(folder: Path) -> bool:
    return any(p.name not in SCENARIO_FILES for p in folder.glob("*.yaml"))


def load_scenario_map(
    name_or_path: str | Path = DEFAULT_SCENARIO, *, use_cache: bool = True
) -> tuple[Scenario, HexMap]:
    """The scenario and its hex map; what the map shows wrong in the data is a KitgenError too."""
    from kitgen.mapping.cache import hex_map
    from kitgen.mapping.places import off_map, place_hexes

    scenario = load_scenario(name_or_path)
    built, issues = hex_map(scenario, use_cache=use_cache)
    stray = off_map(place_hexes(scenario, built), scenario.setup) if built is not None else []
    if built is None or stray:
        _, docs, _ = load_scenario_parts(name_or_path)  # the files as read, to place the problems
        if built is None:
            raise KitgenError(map_problems(docs, issues))
        raise KitgenError([docs["setup.yaml"].problem(loc, message) for loc, message in stray])
    return scenario, built


def scenario_parts(scenario: Scenario) -> dict[str, BaseModel]:
    """Each file of a loaded scenario as its validated model (what cross-checks read)."""
    parts: dict[str, BaseModel] = {}
    for name, (field, model) in SCENARIO_FILES.items():
        value = getattr(scenario, field)
        parts[name] = model.model_construct(**{field: value}) if model in (TownTable, CommanderTable) else value
    return parts


def map_problems(docs: dict[str, Located], issues: list[MapIssue]) -> list[Problem]:
    """What the map builder found wrong, placed in the files it came from."""
    from kitgen.validation import dotted

    return [docs[i.file].problem(i.loc, i.message.within(dotted(i.loc))) for i in issues]


def load_scenario_parts(name_or_path: str | Path) -> tuple[Scenario, dict[str, Located], dict[str, BaseModel]]:
    """The scenario, with each file as read (for positions) and as validated (for cross-checks)."""
    folder = resolve_scenario(str(name_or_path))
    docs, parts, problems = read_scenario_files(folder)
    from kitgen.checks import check_scenario

    problems += check_scenario(parts, docs)
    if problems:
        raise KitgenError(problems)
    scenario = Scenario.model_validate(
        {field: _unwrap_table(field, parts[name]) for name, (field, _) in SCENARIO_FILES.items() if name in parts}
    )
    return scenario, docs, parts


def read_scenario_files(
    folder: Path,
) -> tuple[dict[str, Located], dict[str, BaseModel], list[Problem]]:
    """Read and validate each file of the folder; collect every problem instead of stopping."""
    docs: dict[str, Located] = {}
    parts: dict[str, BaseModel] = {}
    problems: list[Problem] = []
    if kind_of(folder / "scenario.yaml") is Kind.MISSING:
        return docs, parts, [Problem.of(folder / "scenario.yaml", 1, 1, msg.scenario_not_a_scenario())]
    for name in SCENARIO_FILES:
        path = folder / name
        if name in GEO_FILES and getattr(parts.get("map.yaml"), "board", None) is not None and not path.exists():
            continue  # a map given hex by hex needs no geography
        unusable = not_a_file(path, f"{name}, which every scenario folder holds")
        if unusable is not None:
            problems.append(unusable)
            continue
        try:
            located, value, found = _read_part(path, name, read_file(path))
        except KitgenError as exc:
            problems.extend(exc.problems)
            continue
        docs[name] = located
        problems += located.problems + found
        if value is not None:
            parts[name] = value
    known = set(SCENARIO_FILES)
    for extra in sorted(folder.glob("*.yaml")):
        if extra.name not in known:
            problems.append(Problem.of(extra, 1, 1, msg.scenario_unknown_file(extra.name, list(SCENARIO_FILES))))
    return docs, parts, problems


_READ: dict[tuple[str, str, bytes], tuple[Located, BaseModel | None, list[Problem]]] = {}


def _read_part(path: Path, name: str, raw: bytes) -> tuple[Located, BaseModel | None, list[Problem]]:
    """One file parsed and validated, remembered by its bytes: a process that loads a scenario
    again (a test, the fuzzer, a product after validate) redoes only the files that changed."""
    from kitgen.validation import validate
    from kitgen.yamlsource import parse_yaml

    key = (str(path), os.getcwd(), raw)
    if key not in _READ:
        if len(_READ) > 256:
            _READ.clear()
        located = parse_yaml(path, raw, suffix=path.suffix)
        value, found = validate(located, SCENARIO_FILES[name][1])
        _READ[key] = (located, value, found)
    return _READ[key]


def _unwrap_table(field: str, part: BaseModel) -> object:
    """towns.yaml and commanders.yaml hold their list under one key of the same name."""
    return getattr(part, field) if isinstance(part, (TownTable, CommanderTable)) else part
