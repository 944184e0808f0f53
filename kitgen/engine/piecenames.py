"""What a player reads for each unit, train and ship: its name as its counter prints it, never
the id the logs use (the ids stay in the umpire's cross-reference and the forms' fields)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from kitgen.engine.state import CampaignState

if TYPE_CHECKING:
    from kitgen.model.forces import SetUp
    from kitgen.model.scenario import Scenario

_ID = re.compile(r"[a-z][a-z0-9_]*")


def train_kind(armoured: bool) -> str:
    return "Armoured Train" if armoured else "Train"


def train_names(scenario: Scenario, setup: SetUp | None = None) -> dict[str, str]:
    """Each train of the set-up (the scenario's, or a campaign's own) by id, as its counter names
    it: the place it starts from as the map prints it, and its kind ('Lugansk Armoured Train',
    'Kharkov Train'); a number after a name two trains would share ('Rostov Train 2'). A train
    keeps its name wherever it runs."""
    own = scenario.setup.trains
    ids = {t.id for t in own}
    names: dict[str, str] = {}
    taken: dict[str, int] = {}
    # the scenario's trains first, as its counters print them; then a campaign's own, numbered after
    for t in [*own, *(t for t in (setup.trains if setup else []) if t.id not in ids)]:
        name = f"{scenario.shown_place(t.at)} {train_kind(t.armoured)}"
        taken[name] = taken.get(name, 0) + 1
        names[t.id] = name if taken[name] == 1 else f"{name} {taken[name]}"
    return names


def piece_names(state: CampaignState) -> dict[str, str]:
    """Every unit, train and ship of the state, by id: its name as its counter prints it."""
    names = {u.id: u.name for u in state.units}
    for t in state.trains:
        names[str(t["id"])] = str(t["name"])
    for x in state.ships:
        names[str(x["id"])] = str(x.get("name", x["id"]))
    return names


def purpose_words(purpose: str, names: Mapping[str, str]) -> str:
    """A roll's purpose with each piece's id given as its counter's name: 'II.C 16th Kikvidze
    Rifle Div command roll, turn 1'."""
    return _ID.sub(lambda m: names.get(m.group(0), m.group(0)), purpose)
