"""The JSON Schema of the campaign state (`kitgen state --format json`), made from its types.

The schema is checked in as schema/state.schema.json; `python -m kitgen.engine.schema` writes
it afresh, and a test keeps the two the same."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import (
    Any,
    Literal,
    NotRequired,  # pydantic reads typing's only from Python 3.12
)

from typing_extensions import TypedDict

from kitgen.engine.state import STATE_SCHEMA_VERSION, WITHIN_A_TURN, CampaignState

SCHEMA_FILE = Path(__file__).resolve().parents[2] / "schema" / "state.schema.json"


class Ship(TypedDict):
    id: str
    faction: str
    name: str
    hex: str
    gunfire: int
    """D: naval gunfire rating (0 for a transport)."""


class Train(TypedDict):
    id: str
    faction: str
    name: str
    """As its counter prints it: the place it starts from and its kind ('Kharkov Train')."""
    hex: str
    armoured: bool


class Depot(TypedDict):
    faction: str
    hex: str
    cut_off: NotRequired[bool]
    """B.7: no supply trace reaches it (judged at the start of each turn)."""
    uses: NotRequired[int]
    """B.7: turns it has been drawn on while cut off."""


class Pontoon(TypedDict):
    faction: str
    unit: str
    hexes: list[str]
    """A.1: the two hexes of the major-river hexside it bridges."""


class Abandoned(TypedDict):
    faction: str
    unit: str
    stands: dict[str, int]
    hex: str


RECORDS = {"ships": Ship, "trains": Train, "depots": Depot, "pontoons": Pontoon, "abandoned": Abandoned}
"""The state keeps these as plain mappings; their schema says which keys each one has."""


class ConditionMet(TypedDict):
    """A win condition of victory.yaml met (kitgen.rules.ending.ConditionMet)."""

    index: int
    """Its place in victory.yaml's `win` list, from 0."""
    faction: str
    """The side that wins by it."""
    kind: Literal["hold", "vp", "eliminate"]
    when: Literal["last_turn", "any_turn"]
    towns: list[str]
    vp: int | None
    at_least: int | None
    enemies: list[str]


class Ending(TypedDict):
    """Whether the campaign is over after the state's turn, and who won (RULES-NOTES, 2026-12-02);
    given when the state is written with its campaign (`kitgen state --format json`)."""

    turn: int
    days_per_turn: int
    """The days a strategic turn stands for (a scenario setting)."""
    last_turn: int | None
    """The scenario's last turn; null: none."""
    over: bool
    winners: list[str]
    """The factions that met a condition: one is the winner; none or several, a draw."""
    met: list[ConditionMet]
    early: bool
    """Over before the last turn, by a condition judged every turn."""
    finished: bool
    """The turn judged is finished (RULES-NOTES, 2026-12-05): only then is an end announced."""
    pending: bool
    """The turn, not finished, is the last (or would end the scenario early): its result waits."""
    draw: bool
    ended_after: int | None
    """The turn after which the scenario ended; null while it goes on."""
    play_on: bool
    """campaign.yaml says the club plays on past the end (a house rule)."""


def _ending_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The ending's schema, its definitions moved to the root so that their references resolve."""
    from pydantic import TypeAdapter

    ending = TypeAdapter(Ending).json_schema(mode="serialization")
    for name, definition in ending.pop("$defs", {}).items():
        schema.setdefault("$defs", {})[name] = {**definition, "additionalProperties": False}
    return {**ending, "additionalProperties": False}


def state_schema() -> dict[str, Any]:
    """The state's schema: its dataclasses as pydantic reads them, less the fields a turn keeps
    to itself, with the schema version as a constant."""
    from pydantic import TypeAdapter

    schema = TypeAdapter(CampaignState).json_schema(mode="serialization")
    props = schema["properties"]
    for name, record in RECORDS.items():
        items = TypeAdapter(record).json_schema(mode="serialization")
        items["additionalProperties"] = False
        props[name] = {**props[name], "items": items}
    for name in WITHIN_A_TURN:
        props.pop(name, None)
    schema["required"] = ["schema_version", *(r for r in schema.get("required", []) if r not in WITHIN_A_TURN)]
    props["ending"] = _ending_schema(schema)
    schema["properties"] = {"schema_version": {"const": STATE_SCHEMA_VERSION, "type": "integer"}, **props}
    schema["additionalProperties"] = False
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://kitgen.invalid/schema/state-v{STATE_SCHEMA_VERSION}.json",
        **schema,
    }


def schema_text() -> str:
    return json.dumps(state_schema(), indent=1, sort_keys=True) + "\n"


if __name__ == "__main__":  # a developer's tool: the checkout's schema written anew from the models
    from kitgen.outputs import write_atomic

    if not (SCHEMA_FILE.parents[1] / "pyproject.toml").is_file():
        raise SystemExit("python -m kitgen.engine.schema rewrites a checkout's schema/; this kitgen is installed")
    write_atomic(SCHEMA_FILE, schema_text().encode("utf-8"))
    print(f"wrote {SCHEMA_FILE}", file=sys.stderr)
