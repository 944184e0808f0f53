"""What a player reads for each unit, train and ship: its name as its counter prints it, never
the id the logs use (the ids stay in the umpire's cross-reference and the forms' fields)."""

from __future__ import annotations

from kitgen.engine.state import CampaignState


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
