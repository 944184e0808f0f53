"""What a player reads for each unit, train and ship: its name as its counter prints it, never
the id the logs use (the ids stay in the umpire's cross-reference and the forms' fields)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from kitgen.engine.state import CampaignState

_ID = re.compile(r"[a-z][a-z0-9_]*")


def piece_names(state: CampaignState) -> dict[str, str]:
    """Every unit, train and ship of the state, by id: a unit's and a ship's name; a train as its
    counter reads ('Armoured Train', 'Train') with the hex it stands in, as no two trains share one
    but by chance."""
    names = {u.id: u.name for u in state.units}
    for t in state.trains:
        kind = "Armoured Train" if t.get("armoured") else "Train"
        names[str(t["id"])] = f"{kind} in {t['hex']}"
    for x in state.ships:
        names[str(x["id"])] = str(x.get("name", x["id"]))
    return names


def purpose_words(purpose: str, names: Mapping[str, str]) -> str:
    """A roll's purpose with each piece's id given as its counter's name: 'II.C 16th Kikvidze
    Rifle Div command roll, turn 1'."""
    return _ID.sub(lambda m: names.get(m.group(0), m.group(0)), purpose)
