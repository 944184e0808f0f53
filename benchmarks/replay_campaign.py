"""A large synthetic campaign for the replay benchmark: the bundled scenario's set-up grown to
N units (copies of its units, each with a new id, in the same places) and T turn logs in which
a fifth of the units march to a neighbouring hex and back, with the command rolls given."""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from kitgen.campaign import SETUP_FILE, TURNS, load_campaign, new_campaign
from kitgen.mapping.board import Board
from kitgen.rules.paths import land_path


def build(folder: Path, units: int = 200, turns: int = 100, seed: int = 1919) -> Path:
    """Write the campaign into `folder` (replaced) and return it."""
    if folder.exists():
        shutil.rmtree(folder)
    new_campaign(folder, "denikin-1919", seed)
    setup_path = folder / SETUP_FILE
    setup = yaml.safe_load(setup_path.read_text(encoding="utf-8"))
    base = setup["units"]
    grown = []
    for k in range(units):
        unit = dict(base[k % len(base)])
        if k >= len(base):
            unit["id"] = f"{unit['id']}_{k // len(base)}"
            unit.pop("commander", None)  # each commander leads one unit
        grown.append(unit)
    setup["units"] = grown
    setup_path.write_text(yaml.safe_dump(setup, sort_keys=False, allow_unicode=True), encoding="utf-8")

    campaign = load_campaign(folder)
    board = Board.from_map(campaign.hex_map)
    from kitgen.engine.setup import initial_state

    state = initial_state(campaign)
    marchers = []
    for unit in state.units[::5]:
        step = next(
            (
                n
                for n in board.neighbours(unit.hex)
                if land_path(board, campaign.scenario.movement, unit.type, [unit.hex, n]).complete
                and land_path(board, campaign.scenario.movement, unit.type, [n, unit.hex]).complete
            ),
            None,
        )
        if step is not None:
            marchers.append((unit.faction, unit.id, unit.hex, step))
    for turn in range(1, turns + 1):
        orders: dict[str, list[dict[str, object]]] = {}
        for faction, unit_id, home, step in marchers:
            path = [home, step] if turn % 2 else [step, home]
            orders.setdefault(faction, []).append({"unit": unit_id, "move": path})
        log = {"turn": turn, "orders": orders}
        (folder / TURNS / f"turn-{turn:02d}.yaml").write_text(yaml.safe_dump(log, sort_keys=False), encoding="utf-8")
    return folder
