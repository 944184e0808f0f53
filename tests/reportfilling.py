"""The umpire's report forms and roll sheet filled as a battle was fought: the Tsaritsyn sample's
turn 3 with its battles (and, if asked, its rolls) taken out of the log and kept as the
reference; the check boxes a viewer ticks for them; the pencil marks a scan shows."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import yaml

from kitgen.campaign import Campaign, load_campaign
from kitgen.engine.basis import TurnBasis, turn_basis
from kitgen.engine.contacts_ahead import contacts_ahead
from kitgen.engine.turnlog import Battle, TurnLog
from kitgen.reports.battleform import CONTACT, BattleForm, battle_form
from kitgen.reports.fields import tick_name
from kitgen.reports.plan import ReportPlan
from kitgen.reports.rollsheet import SheetRoll, sheet_key, sheet_rolls
from tests.conftest import run_cli

Mark = tuple[str, str, str]
"""(row, part, choice) of a bubble marked."""


@dataclass(frozen=True)
class Turn3:
    folder: Path
    battles: list[Battle]
    """The battles taken out of the log: what the forms are filled with."""
    rolls: dict[str, int]
    """The log's rolls (taken out too, with `rolls=False`)."""


def turn_3(dest: Path, *, rolls: bool = True) -> Turn3:
    """The Tsaritsyn sample copied as `kitgen samples` copies it, its turn 3's `battles:` taken out
    of the log (and its `dice:`, unless `rolls`): its two contacts, 5212 and 5313, to report."""
    done = run_cli("samples", str(dest), "--sample", "tsaritsyn-sample")
    assert done.returncode == 0, done.stderr
    path = dest / "turns" / "turn-03.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    log = TurnLog.model_validate(data)
    data.pop("battles")
    if not rolls:
        data.pop("dice")
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return Turn3(dest, list(log.battles), {g.purpose: g.value for g in log.dice if g.value is not None})


def as_data(battles: Iterable[Battle]) -> list[dict[str, object]]:
    """Battles as data, in hex order, each unit's part in unit order: what a log says of them."""
    found = []
    for b in sorted(battles, key=lambda b: b.hex):
        units = sorted((u.model_dump(mode="json") for u in b.units), key=lambda u: str(u["unit"]))
        found.append({**b.model_dump(mode="json"), "units": units})
    return found


def forms_now(folder: Path) -> tuple[Campaign, TurnBasis, list[BattleForm]]:
    """The campaign, the turn being played and its contacts' forms, as they stand now."""
    campaign = load_campaign(folder)
    basis = turn_basis(campaign)
    contacts = contacts_ahead(campaign, basis.after, basis.log or TurnLog(turn=basis.turn), basis.source)
    return campaign, basis, [battle_form(campaign, c) for c in contacts]


def marks_of(form: BattleForm, battle: Battle) -> set[Mark]:
    """The bubbles the umpire marks on `form` to report `battle`: who won, the ships, each unit's
    losses, its retreat's side or its surrender, what it captured and its ammunition left."""
    marks: set[Mark] = {(CONTACT, "winner", battle.winner)}
    marks |= {(CONTACT, "ship", s) for s in battle.ships}
    for part in battle.units:
        u = form.unit(part.unit)
        assert u is not None, part.unit
        marks |= {(u.id, f"lost:{k}", str(n)) for k, n in part.lost.items()}
        marks |= {(u.id, f"routed:{k}", str(n)) for k, n in part.routed.items()}
        marks |= {(u.id, f"captured:{k}", str(n)) for k, n in part.captured.items()}
        marks |= {(u.id, f"ammo:{k}", str(n)) for k, n in part.ammo_left.items()}
        if part.retreat:
            marks.add((u.id, "fate", next(d for d, h in u.sides.items() if h == part.retreat)))
        if part.surrender:
            marks.add((u.id, "fate", "surrender"))
    return marks


def battle_marks(forms: Sequence[BattleForm], battles: Sequence[Battle]) -> dict[str, set[Mark]]:
    """Each form's marks (by its key) for the battles fought at its hex."""
    by_hex = {b.hex: b for b in battles}
    return {f.key: marks_of(f, by_hex[f.hex]) for f in forms if f.hex in by_hex}


def battle_ticks(forms: Sequence[BattleForm], battles: Sequence[Battle]) -> dict[str, str]:
    """The check boxes a viewer ticks (`/Yes`) to report `battles` on the forms."""
    marks = battle_marks(forms, battles)
    return {tick_name("B", key, *mark): "/Yes" for key, found in marks.items() for mark in found}


def roll_marks(rolls: Sequence[SheetRoll], values: dict[str, int]) -> set[Mark]:
    return {(r.row, "roll", str(values[r.purpose])) for r in rolls if r.purpose in values}


def roll_ticks(rolls: Sequence[SheetRoll], values: dict[str, int]) -> dict[str, str]:
    """The roll sheet's check boxes ticked for `values` (purpose -> roll)."""
    key = sheet_key(rolls)
    return {tick_name("R", key, *mark): "/Yes" for mark in roll_marks(rolls, values)}


def sheet_of(folder: Path) -> list[SheetRoll]:
    campaign = load_campaign(folder)
    basis = turn_basis(campaign)
    return sheet_rolls(campaign, basis.after, basis.turn)


def pencilled(
    pdf: bytes,
    page: int,
    plan: ReportPlan,
    marks: set[Mark],
    rng: np.random.Generator,
    *,
    dpi: float = 200,
    kind: dict[Mark, str] | None = None,
) -> np.ndarray:  # type: ignore[type-arg]
    """Page `page` (from 0) of the PDF printed at `dpi`, its bubbles marked in pencil: filled, or
    as `kind` says of a mark ('half', 'stray'...: `tests.penciled.pencil`)."""
    from tests.penciled import at, pencil, render

    image = render(pdf, page, dpi)
    r = plan.page.layout.bubble / 2 * dpi / 72
    for b in plan.page.bubbles:
        mark = (b.row, b.part, b.choice)
        if mark in marks:
            pencil(image, at(plan.page, b, dpi), r, (kind or {}).get(mark, "fill"), rng)  # type: ignore[arg-type]
    return image
