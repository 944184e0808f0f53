"""The state's JSON Schema (issue 11): made from the state's types, checked in, and the sample's
state after every turn valid against it; the numbers the text state shows are fields of the JSON."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from kitgen.campaign import load_campaign
from kitgen.engine.replay import replay
from kitgen.engine.report import state_json, state_text
from kitgen.engine.schema import SCHEMA_FILE, schema_text
from kitgen.engine.state import STATE_SCHEMA_VERSION
from tests.conftest import SAMPLE


def checked_in() -> dict[str, Any]:
    return json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def test_the_checked_in_schema_is_the_one_the_types_make() -> None:
    """`python -m kitgen.engine.schema` rewrites it when the state's types change."""
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text()


def test_the_schema_is_a_valid_draft_2020_12_schema_with_its_version() -> None:
    schema = checked_in()
    Draft202012Validator.check_schema(schema)
    assert schema["properties"]["schema_version"] == {"const": STATE_SCHEMA_VERSION, "type": "integer"}
    assert "held" not in schema["properties"] and "started_out" not in schema["properties"]


@pytest.mark.parametrize("turn", range(7))
def test_the_samples_state_json_is_valid_against_the_schema(turn: int) -> None:
    campaign = load_campaign(SAMPLE)
    data = json.loads(state_json(replay(campaign, turn), campaign))
    assert data["ending"]["days_per_turn"] == campaign.scenario.meta.turns.days
    errors = sorted(Draft202012Validator(checked_in()).iter_errors(data), key=str)
    assert errors == []


def test_a_state_with_a_wrong_field_is_invalid() -> None:
    """The schema can fail: a result that is not one of the four, an unknown top-level key."""
    data = json.loads(state_json(replay(load_campaign(SAMPLE), 1)))
    validator = Draft202012Validator(checked_in())
    assert validator.is_valid(data)
    assert not validator.is_valid({**data, "extra": 1})
    assert not validator.is_valid({**data, "schema_version": STATE_SCHEMA_VERSION + 1})
    assert not validator.is_valid({**data, "turn": "one"})
    train = {k: v for k, v in data["trains"][0].items() if k != "hex"}
    assert not validator.is_valid({**data, "trains": [train, *data["trains"][1:]]})  # a train must say where
    verdict = {**data["verdicts"][0], "result": "maybe"}
    assert not validator.is_valid({**data, "verdicts": [verdict]})  # a result is one of the four


def scalars(value: Any) -> set[str]:
    """Every number and every short string (ids, hexes) of a JSON value, as text."""
    if isinstance(value, dict):
        return set().union(*(scalars(v) | scalars(k) for k, v in value.items())) if value else set()
    if isinstance(value, list):
        return set().union(*(scalars(v) for v in value)) if value else set()
    if isinstance(value, bool) or value is None:
        return set()
    return {str(value)} if isinstance(value, int) or len(str(value)) <= 40 else set()


@pytest.mark.parametrize("turn", [0, 3, 6])
def test_every_number_the_text_state_shows_is_a_field_of_the_json(turn: int) -> None:
    """Outside the sentences (orders and the umpire's notes), each number of the text is a
    number, or an id or hex, of the JSON."""
    campaign = load_campaign(SAMPLE)
    state = replay(campaign, turn)
    data = json.loads(state_json(state, campaign))
    known = scalars(data)
    prose = ("Orders", "For the umpire", "Makhnovist strength", "Event cards")
    section, missing = "", []
    for line in state_text(campaign, state).splitlines()[1:]:
        if line and not line.startswith(" "):
            section = line
        if line.startswith(" ") and section.startswith(prose) or line.startswith(prose):
            continue
        counted = re.sub(r"\((\d+ units|\d+)\)$", "", line)  # a heading's count is the length of a list
        for number in re.findall(r"(?<![\w.])\d+(?![\w.])", counted):
            if number not in known and str(int(number)) not in known:
                missing.append((number, line))
    assert missing == []
