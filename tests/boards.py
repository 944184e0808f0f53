"""Small hand-made boards for rule cases: a campaign of the bundled scenario's rules on a board
given hex by hex, with no geography, and turn logs built in code."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from kitgen.campaign import Campaign, CampaignMeta
from kitgen.engine.setup import initial_state
from kitgen.engine.state import CampaignState
from kitgen.engine.turn import TurnRecord, play_turn
from kitgen.engine.turnlog import TurnLog
from kitgen.loader import load_scenario
from kitgen.mapping.handmade import board_spec, hex_map_of
from kitgen.model.forces import SetUp
from kitgen.model.scenario import Scenario


@cache
def rules() -> Scenario:
    """The bundled scenario: its tables are the rules every case plays by."""
    return load_scenario("denikin-1919")


def campaign_on(board: dict[str, Any], units: list[dict[str, Any]], *, seed: int = 1, **setup: Any) -> Campaign:
    """A campaign on `board` (the format of kitgen/mapping/handmade.py) with `units` set up at
    hex ids; towns start unowned unless `owners` says otherwise."""
    scenario = rules()
    owners = {t.name: "none" for t in scenario.towns} | setup.pop("owners", {})
    return Campaign(
        folder=Path("handmade"),
        meta=CampaignMeta(scenario="denikin-1919", seed=seed),
        scenario=scenario,
        hex_map=hex_map_of(board_spec(board)),
        setup=SetUp.model_validate({"date": "May 1919", "owners": owners, "units": units, **setup}),
        turns=[],
    )


def unit(id: str, faction: str, at: str, type: str = "infantry", **more: Any) -> dict[str, Any]:
    """A set-up unit: 4 stands of its own type unless `stands` says otherwise."""
    return {
        "id": id,
        "name": id.replace("_", " ").title(),
        "type": type,
        "faction": faction,
        "at": at,
        "stands": more.pop("stands", {type: 4}),
        **more,
    }


def log(turn: int = 1, **tables: Any) -> TurnLog:
    """A turn log built in code, as the umpire would write it."""
    return TurnLog.model_validate({"turn": turn, **tables})


def play(campaign: Campaign, *logs: TurnLog, state: CampaignState | None = None) -> TurnRecord:
    """The record of the last of `logs`, played in turn from the set-up (or from `state`)."""
    state = state or initial_state(campaign)
    record = None
    for turn_log in logs:
        record = play_turn(campaign, state, turn_log)
        state = record.state
    assert record is not None
    return record


def dice(**given: int) -> list[dict[str, Any]]:
    """Rolls the log gives, by purpose (keys with spaces are passed as a dict instead)."""
    return [{"purpose": p, "value": v} for p, v in given.items()]
