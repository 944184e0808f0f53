"""A campaign folder: campaign.yaml (which scenario, the dice seed, house rules), its own
set-up (setup.yaml, copied from the scenario by `kitgen new` and the umpire's to edit) and the
turn logs under turns/.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Literal

from pydantic import Field

from kitgen import messages as msg
from kitgen.errors import KitgenError, Problem, UsageError, within
from kitgen.inputs import Kind, kind_of, list_folder, not_a_file
from kitgen.mapping.hexmap import HexMap
from kitgen.model.base import Model, Prose
from kitgen.model.forces import SetUp
from kitgen.model.scenario import Scenario
from kitgen.yamlsource import Located, load_yaml

if TYPE_CHECKING:
    from kitgen.mapping.board import Board

CAMPAIGN_FILE = "campaign.yaml"
SETUP_FILE = "setup.yaml"
TURNS = "turns"
TURN_NAME = re.compile(r"turn-([0-9]{2,3})\.yaml")
"""turn-01.yaml ... turn-99.yaml, then turn-100.yaml on."""
MAX_SEED = 10**15

WhoRolls = Literal["table", "kitgen"]
"""Who rolls a campaign's dice (RULES-NOTES, 2026-12-05): the players at the table, every roll
written in the log, or kitgen, from the campaign's own seeded dice, written into the log when drawn."""
WHO_ROLLS: tuple[WhoRolls, ...] = ("table", "kitgen")
WHO_ROLLS_SAID: dict[WhoRolls, str] = {
    "table": "# Who rolls the dice: the table (every roll the turn needs is made at the table and given in the log).",
    "kitgen": "# Who rolls the dice: kitgen, from the seed (it writes each roll into the log when the orders are in).",
}

OWN_TURNS = "the folder of turn logs, the campaign's own (a real folder inside it, not a link)"
_BACKUP = re.compile(r".*(~|\.bak|\.swp|\.swo|\.swx|\.orig|\.rej|\.tmp)|#.*#", re.IGNORECASE)
_LOOKS_LIKE_A_LOG = re.compile(r"(?=.*turn)(?=.*\d).*|\d+\.ya?ml", re.IGNORECASE)


class CampaignMeta(Model):
    """campaign.yaml."""

    scenario: Annotated[str, Field(min_length=1)]
    """A bundled scenario's name, or a scenario folder relative to the campaign folder: any name the
    system allows a folder (a path is data, printed escaped wherever it is shown)."""
    seed: int = Field(ge=0, le=MAX_SEED)
    """Seeds the dice the umpire leaves to kitgen (RULES-NOTES), so a replay rolls the same."""
    dice: WhoRolls | None = None
    """Who rolls, said once (RULES-NOTES, 2026-12-05): `table`, every roll the turn needs made at
    the table and written in the log (a turn missing one is not finished), or `kitgen`, which
    draws them from the seed and writes them into the log when the orders are in. Not given (a
    campaign started before the setting): kitgen draws what the log does not give, with a note."""
    house_rules: list[Prose] = []
    """The club's own rulings, as notes for the record (none changes what kitgen computes yet)."""
    play_on: bool = False
    """A house rule (RULES-NOTES, 2026-12-02): the club plays on after the scenario's last turn
    (or its early end); without it `kitgen turn` and `kitgen next` refuse a turn past the end."""


@dataclass(frozen=True)
class Campaign:
    folder: Path
    meta: CampaignMeta
    scenario: Scenario
    hex_map: HexMap
    setup: SetUp
    turns: list[Path]
    """The turn logs, in the order of their names."""
    notes: list[Problem] = field(default_factory=list)
    """What kitgen passed over or wants said: editor files in turns/, a scenario outside the folder."""
    scenario_folder: Path | None = None

    @property
    def name(self) -> str:
        """The campaign folder's own name, however it was given (`.`, `..`, a trailing slash)."""
        return os.path.basename(os.path.abspath(self.folder)) or "campaign"

    @cached_property
    def places(self) -> dict[str, str]:
        """name_key of every town and point on the map -> its hex id (worked out once)."""
        return _of_map(self.scenario, self.hex_map)[0]

    @cached_property
    def hex_names(self) -> dict[str, str]:
        """Hex -> the name people call it by: its town, else the first station or place in it."""
        from kitgen.mapping.places import point_hexes

        named = {h: names[0] for h, names in point_hexes(self.scenario, self.hex_map).items()}
        return named | {h: towns[0] for h, towns in self.board.towns.items() if towns}

    @cached_property
    def board(self) -> Board:
        """The board the engine plays on, made once from the map, with the scenario's place names."""
        return _of_map(self.scenario, self.hex_map)[1]


_OF_MAP: dict[int, tuple[HexMap, dict[str, str], Board]] = {}
"""The places and board worked out from a hex map, by the map object (kept alive here, so its id
is not reused): a map read from the cache is one object for the process (`mapping.cache`), and
its key covers every scenario input the places and the board are made from."""


def _of_map(scenario: Scenario, hex_map: HexMap) -> tuple[dict[str, str], Board]:
    from kitgen.mapping.board import Board
    from kitgen.mapping.places import place_hexes

    kept = _OF_MAP.get(id(hex_map))
    if kept is None or kept[0] is not hex_map:
        places = place_hexes(scenario, hex_map)
        kept = (hex_map, places, Board.from_map(hex_map, places))
        if len(_OF_MAP) >= 8:
            _OF_MAP.clear()
        _OF_MAP[id(hex_map)] = kept
    return dict(kept[1]), kept[2]


def is_campaign(folder: Path) -> bool:
    """A folder with a campaign.yaml (whatever it is: a bad one is reported, not mistaken)."""
    return kind_of(folder) is Kind.FOLDER and kind_of(folder / CAMPAIGN_FILE) is not Kind.MISSING


def load_campaign(folder: Path, *, use_cache: bool = True) -> Campaign:
    """Read and check a campaign folder; raise KitgenError listing every problem found."""
    from kitgen.checks import check_setup
    from kitgen.loader import load_scenario, load_scenario_parts, map_problems, scenario_parts
    from kitgen.mapping.cache import hex_map
    from kitgen.mapping.places import off_map
    from kitgen.scenariofolders import bundled_scenarios, find_scenario
    from kitgen.validation import validate

    outside = link_outside(folder, folder / CAMPAIGN_FILE)
    if outside is not None:
        raise KitgenError([outside])
    located = load_yaml(folder / CAMPAIGN_FILE, what="campaign.yaml, the file that makes a folder a campaign")
    meta, problems = validate(located, CampaignMeta)
    problems = located.problems + problems
    if meta is None:
        raise KitgenError(problems)
    source = find_scenario(meta.scenario, base=folder)
    if source is None:
        problems.append(
            located.problem(("scenario",), msg.campaign_scenario_unknown(meta.scenario, bundled_scenarios()))
        )
        raise KitgenError(problems)
    scenario = load_scenario(source)
    parts = scenario_parts(scenario)
    built, issues = hex_map(scenario, use_cache=use_cache)
    if built is None:
        raise KitgenError(map_problems(load_scenario_parts(source)[1], issues))
    setup_doc = _read(folder / SETUP_FILE, problems)
    setup = None
    if setup_doc is not None:
        setup, found = validate(setup_doc, SetUp)
        problems += setup_doc.problems + found
        if setup is not None:
            problems += check_setup(parts, {SETUP_FILE: setup_doc}, setup, SETUP_FILE)
            problems += [
                setup_doc.problem(loc, message) for loc, message in off_map(_of_map(scenario, built)[0], setup)
            ]
    turns, notes = turn_logs(folder / TURNS, problems)
    if not within(source, folder) and meta.scenario not in bundled_scenarios():
        notes.insert(0, located.problem(("scenario",), msg.note_scenario_outside(os.path.abspath(source))))
    if problems or setup is None:
        raise KitgenError(problems)
    return Campaign(folder, meta, scenario, built, setup, turns, notes, source)


def turn_logs(turns: Path, problems: list[Problem]) -> tuple[list[Path], list[Problem]]:
    """The turn logs of a turns/ folder, and a note for each editor or other file passed over.

    Hidden files, backups and files that are no turn log are passed over with a note; a file
    that looks like a turn log but is misnamed (`turn-1.yaml`, `turn-02.yml`) is a problem."""
    found = kind_of(turns)
    if found is Kind.MISSING:
        return [], [Problem.of(turns, 1, 1, msg.note_no_turns_folder())]
    if found is not Kind.FOLDER:
        problems.append(Problem.of(turns, 1, 1, msg.folder_not_folder(found.value, "the folder of turn logs")))
        return [], []
    if os.path.islink(turns):  # the record would be read, and written, outside the campaign
        link = f"a symbolic link to {os.path.realpath(turns)}"
        problems.append(Problem.of(turns, 1, 1, msg.folder_not_folder(link, OWN_TURNS)))
        return [], []
    logs: list[Path] = []
    notes: list[Problem] = []
    for path in list_folder(turns):
        name = path.name
        if TURN_NAME.fullmatch(name):
            unusable = not_a_file(path, "a turn log") or link_outside(turns.parent, path)
            if unusable is not None:
                problems.append(unusable)
            else:
                logs.append(path)
        elif name.startswith(".") or _BACKUP.fullmatch(name):
            notes.append(Problem.of(path, 1, 1, msg.note_editor_file()))
        elif _LOOKS_LIKE_A_LOG.fullmatch(name) and kind_of(path) is not Kind.FOLDER:
            problems.append(Problem.of(path, 1, 1, msg.campaign_misnamed_log(name, _right_name(name))))
        else:
            notes.append(Problem.of(path, 1, 1, msg.note_not_a_log()))
    return logs, notes


def _right_name(name: str) -> str:
    digits = re.findall(r"[0-9]{1,6}", name)
    return f"turn-{int(digits[0]):02d}.yaml" if digits else "turn-01.yaml"


def link_outside(folder: Path, path: Path) -> Problem | None:
    """The problem with a file of the campaign that is a symbolic link leading out of its folder
    (None if it is no link, or one within the folder): the record would be read, and written, in
    a file that is not the campaign's, and its contents shown in messages. A link to a device, to
    nothing or to itself is left to the reading, which names what it is."""
    if not os.path.islink(path) or kind_of(path) is not Kind.FILE:
        return None
    try:
        target, top = os.path.realpath(path), os.path.realpath(folder)
    except (OSError, ValueError):
        return None  # a loop: reading it says so
    if within(target, top):
        return None
    return Problem.of(path, 1, 1, msg.campaign_link_outside(target))


def _read(path: Path, problems: list[Problem]) -> Located | None:
    outside = link_outside(path.parent, path)
    if outside is not None:
        problems.append(outside)
        return None
    try:
        return load_yaml(path, what=f"{path.name}, the campaign's set-up")
    except KitgenError as exc:
        problems.extend(exc.problems)
        return None


def new_campaign(folder: Path, scenario_name: str, seed: int, dice: WhoRolls | None = None) -> list[Path]:
    """Start a campaign of a scenario in an empty (or new) folder, ready for turn 1; `dice` says
    who rolls (campaign.yaml's `dice:`; None leaves it unsaid, as campaigns before the setting).

    Every check comes first (the folder, the scenario, loaded whole); then the folder is made
    in a staging folder beside it and renamed into place, so nothing is left half-made."""
    from kitgen.inputs import read_file
    from kitgen.outputs import ProductFolder, yaml_scalar, yaml_string
    from kitgen.scenariofolders import bundled_scenarios

    source = new_campaign_source(folder, scenario_name, seed)
    setup = read_file(source / SETUP_FILE, what="the scenario's setup.yaml")
    if scenario_name in bundled_scenarios() or Path(scenario_name).is_absolute():
        named = scenario_name
    else:
        named = _relative(source, folder)
    campaign_text = (
        "# A campaign of kitgen: which scenario it plays, the seed of the dice the umpire leaves\n"
        "# to kitgen, and the club's house rules (notes for the record).\n"
        f"scenario: {yaml_string(named)}\n"
        f"seed: {yaml_scalar(seed)}\n"
        + (f"{WHO_ROLLS_SAID[dice]}\ndice: {dice}\n" if dice is not None else "")
        + "house_rules: []\n"
    )
    with ProductFolder(folder, manifest=False) as made:
        made.write(CAMPAIGN_FILE, campaign_text.encode("utf-8"))
        made.write(SETUP_FILE, setup)
        made.folder_inside(TURNS)
    return [folder / CAMPAIGN_FILE, folder / SETUP_FILE, folder / TURNS]


def new_campaign_source(folder: Path, scenario_name: str, seed: int) -> Path:
    """What `new_campaign` checks before it asks or writes anything: the folder new or empty, the
    seed in range, the scenario found and loaded whole; its folder."""
    from kitgen.loader import load_scenario, resolve_scenario

    found = kind_of(folder)
    if found is Kind.FOLDER and list_folder(folder):
        raise UsageError(msg.new_not_empty(str(folder)))
    if found not in (Kind.FOLDER, Kind.MISSING):
        raise UsageError(msg.out_folder_not_folder(str(folder), found.value))
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(msg.new_bad_seed(seed, MAX_SEED))
    source = resolve_scenario(scenario_name)
    load_scenario(source)  # a scenario that does not load makes no campaign
    return source


def sample_campaigns() -> list[str]:
    """The sample campaigns kitgen ships, by name (each a campaign folder of its `data/`; not
    of $KITGEN_DATA, a club's own scenarios)."""
    from kitgen.packagedata import shipped

    return sorted(p.parent.name for p in shipped("data").glob(f"*/{CAMPAIGN_FILE}"))


def copy_sample(name: str, folder: Path) -> list[Path]:
    """The sample campaign `name` copied into a new (or empty) folder: campaign.yaml, its set-up
    and its played turns, to replay or play on; written whole or not at all."""
    from kitgen.inputs import read_file
    from kitgen.outputs import ProductFolder
    from kitgen.packagedata import shipped

    known = sample_campaigns()
    if name not in known:
        raise UsageError(msg.samples_unknown(name, known))
    found = kind_of(folder)
    if found is Kind.FOLDER and list_folder(folder):
        raise UsageError(msg.new_not_empty(str(folder)))
    if found not in (Kind.FOLDER, Kind.MISSING):
        raise UsageError(msg.out_folder_not_folder(str(folder), found.value))
    source = shipped("data") / name
    turns = sorted(p for p in list_folder(source / TURNS) if p.suffix == ".yaml") if (source / TURNS).is_dir() else []
    written = [folder / CAMPAIGN_FILE, folder / SETUP_FILE, folder / TURNS]
    with ProductFolder(folder, manifest=False) as made:
        made.write(CAMPAIGN_FILE, read_file(source / CAMPAIGN_FILE))
        made.write(SETUP_FILE, read_file(source / SETUP_FILE))
        made.folder_inside(TURNS)
        written += [made.write_inside(TURNS, log.name, read_file(log)) for log in turns]
    return written


def _relative(source: Path, folder: Path) -> str:
    """The scenario folder as campaign.yaml gives it: relative to the campaign folder."""
    try:
        return os.path.relpath(os.path.abspath(source), os.path.abspath(folder))
    except ValueError:  # another drive
        return os.path.abspath(source)
