"""A campaign folder: campaign.yaml (which scenario, the dice seed, house rules), its own
set-up (setup.yaml, copied from the scenario by `kitgen new` and the umpire's to edit) and the
turn logs under turns/.
"""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from pydantic import Field

from kitgen.errors import KitgenError, Problem, UsageError, display_path
from kitgen.mapping.hexmap import HexMap
from kitgen.model.base import Model, Text
from kitgen.model.forces import SetUp
from kitgen.model.scenario import Scenario
from kitgen.yamlsource import Located, load_yaml

CAMPAIGN_FILE = "campaign.yaml"
SETUP_FILE = "setup.yaml"
TURNS = "turns"
TURN_NAME = re.compile(r"turn-(\d{2,3})\.yaml")
"""turn-01.yaml ... turn-99.yaml, then turn-100.yaml on."""


class CampaignMeta(Model):
    """campaign.yaml."""

    scenario: Text
    """A bundled scenario's name, or a scenario folder relative to the campaign folder."""
    seed: int = Field(ge=0)
    """Seeds the dice the umpire leaves to kitgen (RULES-NOTES), so a replay rolls the same."""
    house_rules: list[Text] = []
    """The club's own rulings, as notes for the record (none changes what kitgen computes yet)."""


@dataclass(frozen=True)
class Campaign:
    folder: Path
    meta: CampaignMeta
    scenario: Scenario
    hex_map: HexMap
    setup: SetUp
    turns: list[Path]

    @cached_property
    def places(self) -> dict[str, str]:
        """name_key of every town and point on the map -> its hex id (worked out once)."""
        from kitgen.mapping.places import place_hexes

        return place_hexes(self.scenario, self.hex_map)


def is_campaign(folder: Path) -> bool:
    return (folder / CAMPAIGN_FILE).is_file()


def load_campaign(folder: Path, *, use_cache: bool = True) -> Campaign:
    """Read and check a campaign folder; raise KitgenError listing every problem found."""
    from kitgen.checks import check_setup
    from kitgen.loader import load_scenario_parts
    from kitgen.mapping.cache import hex_map
    from kitgen.mapping.places import off_map
    from kitgen.validation import validate

    located = load_yaml(folder / CAMPAIGN_FILE)
    meta, problems = validate(located, CampaignMeta)
    problems = located.problems + problems
    if meta is None:
        raise KitgenError(problems)
    relative = folder / meta.scenario
    scenario, docs, parts = load_scenario_parts(relative if relative.is_dir() else meta.scenario)
    built, issues = hex_map(scenario, use_cache=use_cache)
    if built is None:
        raise KitgenError([docs[i.file].problem(i.loc, i.message) for i in issues])
    setup_doc = _read(folder / SETUP_FILE, problems)
    setup = None
    if setup_doc is not None:
        setup, found = validate(setup_doc, SetUp)
        problems += setup_doc.problems + found
        if setup is not None:
            problems += check_setup(parts, {SETUP_FILE: setup_doc}, setup, SETUP_FILE)
            problems += [setup_doc.problem(loc, message) for loc, message in off_map(scenario, built, setup)]
    turns = sorted((folder / TURNS).glob("*")) if (folder / TURNS).is_dir() else []
    for path in turns:
        if not TURN_NAME.fullmatch(path.name):
            problems.append(
                Problem(
                    display_path(path),
                    1,
                    1,
                    "unknown file in turns/; expected turn-NN.yaml (turn-01.yaml, ..., turn-100.yaml)",
                )
            )
    if problems or setup is None:
        raise KitgenError(problems)
    return Campaign(folder, meta, scenario, built, setup, turns)


def _read(path: Path, problems: list[Problem]) -> Located | None:
    if not path.is_file():
        problems.append(Problem(display_path(path), 1, 1, f"missing: a campaign folder needs {path.name}"))
        return None
    try:
        return load_yaml(path)
    except KitgenError as exc:
        problems.extend(exc.problems)
        return None


def new_campaign(folder: Path, scenario_name: str, seed: int) -> list[Path]:
    """Start a campaign of a scenario in an empty (or new) folder, ready for turn 1."""
    from kitgen.loader import resolve_scenario
    from kitgen.outputs import write_atomic

    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        raise UsageError(f"{folder} is not an empty folder; a new campaign needs one")
    source = resolve_scenario(scenario_name)
    campaign_text = (
        "# A campaign of kitgen: which scenario it plays, the seed of the dice the umpire leaves\n"
        "# to kitgen, and the club's house rules (notes for the record).\n"
        f"scenario: {scenario_name}\n"
        f"seed: {seed}\n"
        "house_rules: []\n"
    )
    write_atomic(folder / CAMPAIGN_FILE, campaign_text.encode("utf-8"))
    shutil.copyfile(source / SETUP_FILE, folder / SETUP_FILE)
    (folder / TURNS).mkdir(exist_ok=True)
    return [folder / CAMPAIGN_FILE, folder / SETUP_FILE, folder / TURNS]
