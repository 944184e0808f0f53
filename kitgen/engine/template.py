"""The next turn's log, written for the umpire to fill in (`kitgen next`): every unit, train and
ship on a commented order line, and every roll the turn asks for, with its purpose exact. The
words are layouts/next-turn.yaml.j2's; this module gives it the values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kitgen.campaign import Campaign
from kitgen.engine.ahead import RollAhead, before_orders, rolls_ahead
from kitgen.engine.basis import STARTED
from kitgen.engine.state import CampaignState, UnitState
from kitgen.packagedata import shipped
from kitgen.rules.movement import movement_row

TEMPLATE = shipped("layouts") / "next-turn.yaml.j2"


@dataclass(frozen=True)
class UnitLine:
    """One unit's commented order line: where it stands and what an order of it would meet."""

    id: str
    hex: str
    name: str
    stands: str
    mp: int | None
    supply: bool | None
    aboard: str | None
    immobilised: bool
    command: RollAhead | None
    """The command roll an order of this unit makes (II.C)."""


@dataclass(frozen=True)
class NextLog:
    """The next turn's log as written, and what it asks of the umpire."""

    turn: int
    text: str
    rolls: int
    """Rolls the turn makes whatever is ordered (the `dice:` entries left empty)."""
    units: int
    """Units on the map to order."""


def log_name(turn: int) -> str:
    return f"turn-{turn:02d}.yaml"


def next_log(campaign: Campaign, state: CampaignState) -> NextLog:
    """The log of the turn after `state`, as `kitgen next` writes it."""
    from kitgen.templates import environment

    turn = state.turn + 1
    ahead = rolls_ahead(campaign, state, turn)
    start = before_orders(campaign, state, turn)  # supply judged as the turn's orders find it
    s = campaign.scenario
    by_unit = {u: r for r in ahead if r.kind == "command" for u in r.units}
    ships = {x["id"]: x for x in start.ships}
    factions = [f.id for f in s.meta.factions]
    unit_lines = {
        f: [_unit_line(campaign, u, by_unit.get(u.id)) for u in start.units if u.faction == f] for f in factions
    }
    aboard: dict[str, list[str]] = {}
    for u in start.units:
        if u.aboard is not None:
            aboard.setdefault(u.aboard, []).append(u.id)
    partisans = sorted(
        {
            (u.hex, u.faction)
            for u in start.units
            if "partisan" in u.flags
            and u.aboard is None
            and all("partisan" in o.flags for o in start.units if o.faction == u.faction and o.hex == u.hex)
        }
    )
    from kitgen.outputs import yaml_comment, yaml_scalar, yaml_string

    env = environment(
        TEMPLATE.parent,
        autoescape=False,  # YAML, not HTML: every value goes through the YAML emitter (`y`, `q`)
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=yaml_comment,  # all else is comment text: no name can end its line and start an order
    )
    env.filters["y"] = yaml_scalar
    env.filters["q"] = yaml_string
    values: dict[str, Any] = {
        "campaign": campaign.name,
        "dice": campaign.meta.dice,
        "started": STARTED,
        "scenario": s.meta.title,
        "scenario_id": s.meta.id,
        "turn": turn,
        "date": campaign.setup.date,
        "factions": [(f.id, f.name) for f in s.meta.factions],
        "units": unit_lines,
        "trains": {f: [t for t in start.trains if t["faction"] == f] for f in factions},
        "ships": {f: [x for x in start.ships if x["faction"] == f] for f in factions},
        "aboard": aboard,
        "ship_names": {k: x["name"] for k, x in ships.items()},
        "partisans": partisans,
        "slips": {f: list(ids) for f, ids in start.slips.items() if ids},
        "always": [r for r in ahead if r.needed == "always"],
        "if_ordered": [r for r in ahead if r.needed == "if_ordered"],
        "towns": campaign.board.towns,
    }
    text = env.get_template(TEMPLATE.name).render(**values)
    return NextLog(turn, text, len(values["always"]), sum(len(v) for v in unit_lines.values()))


def _unit_line(campaign: Campaign, u: UnitState, command: RollAhead | None) -> UnitLine:
    stands = ", ".join(f"{n} {kind}" for kind, n in sorted(u.stands.items()))
    return UnitLine(
        id=u.id,
        hex=u.hex,
        name=u.name,
        stands=stands,
        mp=movement_row(campaign.scenario.movement, u.type).mp,
        supply=u.in_supply,
        aboard=u.aboard,
        immobilised=u.immobilised,
        command=command,
    )
