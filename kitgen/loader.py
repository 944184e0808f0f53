"""Finding and loading a scenario folder: every file read, validated and cross-checked."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from kitgen.errors import KitgenError, Problem, UsageError, display_path
from kitgen.model import rules
from kitgen.model.forces import Cards, SetUp
from kitgen.model.geography import FeatureCollection, MapData
from kitgen.model.scenario import CommanderTable, RailNet, Scenario, ScenarioMeta, TownTable
from kitgen.validation import validate
from kitgen.yamlsource import Located, load_yaml

if TYPE_CHECKING:
    from kitgen.mapping.hexmap import HexMap

SCENARIO_FILES: dict[str, tuple[str, type[BaseModel]]] = {
    "scenario.yaml": ("meta", ScenarioMeta),
    "movement.yaml": ("movement", rules.MovementRules),
    "supply.yaml": ("supply", rules.SupplyRules),
    "transport.yaml": ("transport", rules.TransportRules),
    "victory.yaml": ("victory", rules.VictoryRules),
    "events.yaml": ("events", rules.EventRules),
    "battle.yaml": ("battle", rules.BattleRules),
    "command.yaml": ("command", rules.CommandRules),
    "partisans.yaml": ("partisans", rules.PartisanRules),
    "towns.yaml": ("towns", TownTable),
    "commanders.yaml": ("commanders", CommanderTable),
    "railways.yaml": ("railways", RailNet),
    "map.yaml": ("map", MapData),
    "setup.yaml": ("setup", SetUp),
    "cards.yaml": ("cards", Cards),
    "geo/coast.geojson": ("coast", FeatureCollection),
    "geo/rivers.geojson": ("river_courses", FeatureCollection),
}
"""Each file of a scenario folder, the Scenario field it fills and the model that checks it."""

DEFAULT_SCENARIO = "denikin-1919"


def data_dir() -> Path:
    """Where bundled scenarios live: $KITGEN_DATA, else the `data/` folder of the checkout."""
    env = os.environ.get("KITGEN_DATA")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "data"


def bundled_scenarios() -> list[str]:
    root = data_dir()
    return sorted(p.parent.name for p in root.glob("*/scenario.yaml")) if root.is_dir() else []


def resolve_scenario(name_or_path: str) -> Path:
    """A scenario folder from a path, or from the name of a bundled scenario."""
    path = Path(name_or_path)
    if path.is_dir():
        return path
    if path.is_file() and path.name == "scenario.yaml":
        return path.parent
    bundled = data_dir() / name_or_path
    if "/" not in name_or_path and (bundled / "scenario.yaml").is_file():
        return bundled
    known = ", ".join(bundled_scenarios()) or "none found"
    raise UsageError(f"no scenario '{name_or_path}': give a scenario folder or a bundled scenario name ({known})")


def load_scenario(name_or_path: str | Path = DEFAULT_SCENARIO) -> Scenario:
    """Load and check a whole scenario; raise KitgenError listing every problem found."""
    return load_scenario_parts(name_or_path)[0]


def load_scenario_map(
    name_or_path: str | Path = DEFAULT_SCENARIO, *, use_cache: bool = True
) -> tuple[Scenario, HexMap]:
    """The scenario and its hex map; what the map shows wrong in the data is a KitgenError too."""
    from kitgen.mapping.cache import hex_map

    scenario, docs, _ = load_scenario_parts(name_or_path)
    built, issues = hex_map(scenario, use_cache=use_cache)
    if built is None:
        raise KitgenError([docs[i.file].problem(i.loc, i.message) for i in issues])
    from kitgen.mapping.places import off_map

    stray = off_map(scenario, built, scenario.setup)
    if stray:
        raise KitgenError([docs["setup.yaml"].problem(loc, message) for loc, message in stray])
    return scenario, built


def load_scenario_parts(name_or_path: str | Path) -> tuple[Scenario, dict[str, Located], dict[str, BaseModel]]:
    """The scenario, with each file as read (for positions) and as validated (for cross-checks)."""
    folder = resolve_scenario(str(name_or_path))
    docs, parts, problems = read_scenario_files(folder)
    from kitgen.checks import check_scenario

    problems += check_scenario(parts, docs)
    if problems:
        raise KitgenError(problems)
    scenario = Scenario.model_validate(
        {field: _unwrap_table(field, parts[name]) for name, (field, _) in SCENARIO_FILES.items()}
    )
    return scenario, docs, parts


def read_scenario_files(
    folder: Path,
) -> tuple[dict[str, Located], dict[str, BaseModel], list[Problem]]:
    """Read and validate each file of the folder; collect every problem instead of stopping."""
    docs: dict[str, Located] = {}
    parts: dict[str, BaseModel] = {}
    problems: list[Problem] = []
    for name, (_, model) in SCENARIO_FILES.items():
        path = folder / name
        if path.exists() and not path.is_file():
            problems.append(Problem(display_path(path), 1, 1, f"{name} is a folder; expected a YAML file"))
            continue
        if not path.is_file():
            problems.append(Problem(display_path(path), 1, 1, f"missing: a scenario folder needs {name}"))
            continue
        try:
            located = load_yaml(path)
        except KitgenError as exc:
            problems.extend(exc.problems)
            continue
        docs[name] = located
        problems.extend(located.problems)
        value, found = validate(located, model)
        problems.extend(found)
        if value is not None:
            parts[name] = value
    known = set(SCENARIO_FILES)
    for extra in sorted(folder.glob("*.yaml")):
        if extra.name not in known:
            expected = ", ".join(SCENARIO_FILES)
            problems.append(Problem(display_path(extra), 1, 1, f"unknown scenario file; expected one of: {expected}"))
    return docs, parts, problems


def _unwrap_table(field: str, part: BaseModel) -> object:
    """towns.yaml and commanders.yaml hold their list under one key of the same name."""
    return getattr(part, field) if isinstance(part, (TownTable, CommanderTable)) else part
