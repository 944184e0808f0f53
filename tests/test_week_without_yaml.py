"""Three turns of the introductory scenario played with no YAML typed (issue 40): the orders by
order forms filled on screen and pencilled and scanned, the rolls at the keyboard and by the roll
sheet filled on screen and scanned, the battles by report forms filled on screen and scanned. The
logs kitgen writes equal, as data, the reference week typed by hand (the Tsaritsyn sample, every
roll given at the table); `validate` and `state` pass, and the Whites win."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np

from kitgen.campaign import load_campaign
from kitgen.engine.basis import turn_basis
from kitgen.engine.turn import read_log
from kitgen.engine.turnlog import TurnLog
from kitgen.orders.rows import campaign_key, field_name, tick_name
from kitgen.reports.plan import battle_plans, roll_plans
from kitgen.reports.rollsheet import sheet_key
from kitgen.scenariofolders import data_dir
from tests.conftest import run_cli
from tests.forms import fill_with_pymupdf, fill_with_pypdf
from tests.penciled import Pencil, degrade, faults, filled_page, printed, save
from tests.reportfilling import (
    as_data,
    battle_marks,
    battle_ticks,
    forms_now,
    pencilled,
    roll_marks,
    roll_ticks,
    sheet_of,
)

REFERENCE = data_dir() / "tsaritsyn-sample"
"""Three turns typed by hand, every roll made at the table and given (campaign.yaml: dice: table)."""


def reference(turn: int) -> TurnLog:
    return read_log(REFERENCE / "turns" / f"turn-{turn:02d}.yaml")[0]


def paths(log: TurnLog, faction: str) -> dict[str, tuple[list[str], list[str]]]:
    """Each unit, train or ship of the faction the log orders: its hexes, and the units it carries."""
    found = {o.unit: (o.move, []) for o in log.orders.get(faction, [])}
    found |= {o.train: (o.path, o.carry) for o in log.rail.get(faction, [])}
    return found


def on_screen(folder: Path, faction: str, log: TurnLog, tmp: Path, fill: Any) -> Path:
    """The faction's order form, its fields filled as the log orders (a blank form where it
    orders nothing: every unit holds)."""
    form = tmp / f"{faction}-form.pdf"
    assert run_cli("orders", "form", str(folder), "--faction", faction, "--out", str(form)).returncode == 0
    values: dict[str, str] = {}
    for who, (hexes, carry) in paths(log, faction).items():
        values[field_name(who, "path")] = " ".join(hexes[1:])
        values |= {tick_name(who, "carry", unit): "/Yes" for unit in carry}
    return fill(form, values, tmp / f"{faction}-filled.pdf")  # type: ignore[no-any-return]


def pencilled_orders(folder: Path, faction: str, log: TurnLog, tmp: Path, seed: int) -> list[Path]:
    """The faction's order form printed, its steps pencilled as the log orders (each the side its
    unit leaves by), scanned with a scanner's faults: a picture a page."""
    campaign = load_campaign(folder)
    grid = campaign.board.grid
    form = printed(folder, faction)
    rng = np.random.default_rng(seed)
    marks: list[Pencil] = []
    for who, (hexes, carry) in paths(log, faction).items():
        for k, (a, b) in enumerate(zip(hexes, hexes[1:], strict=False), start=1):
            side = next(
                d for d in ("N", "NE", "SE", "S", "SW", "NW") if grid.toward(grid.parse_id(a), d) == grid.parse_id(b)
            )  # type: ignore[arg-type]
            marks.append((who, "step", k, side, "fill"))
        marks += [(who, "carry", 0, unit, "fill") for unit in carry]
    files = []
    for page, plan in enumerate(form.plans):
        mine = [m for m in marks if any(b.row == m[0] for b in plan.bubbles)]
        image = filled_page(form, page, mine, rng, dpi=200)
        files.append(save(degrade(image, faults(rng), rng), tmp / f"{faction}-{page}.png"))
    return files  # type: ignore[return-value]


def orders_in(folder: Path, turn: int, tmp: Path) -> None:
    """Turn 1: the Reds on screen (pypdf), the Whites in pencil. Turn 2: the other way round
    (PyMuPDF). Turn 3: as turn 1."""
    log = reference(turn)
    scanned = "reds" if turn == 2 else "whites"
    for faction in ("reds", "whites"):
        if faction == scanned:
            files = pencilled_orders(folder, faction, log, tmp, seed=turn)
            done = run_cli("orders", "scan", *map(str, files), "--campaign", str(folder))
        else:
            filled = on_screen(folder, faction, log, tmp, fill_with_pymupdf if turn == 2 else fill_with_pypdf)
            done = run_cli("orders", "import", str(filled), "--campaign", str(folder))
        assert done.returncode == 0, done.stderr


def rolls_in(folder: Path, turn: int, tmp: Path) -> None:
    """Turn 1 at the keyboard; turn 2 the roll sheet filled on screen; turn 3 the roll sheet
    pencilled and scanned. Every roll the reference gives, as the table made it."""
    given = {g.purpose: g.value for g in reference(turn).dice if g.value is not None}
    if turn == 1:
        asked = [o["purpose"] for o in status(folder)["owed"] if o["kind"] == "roll_missing"]
        done = run_cli("roll", str(folder), answers="".join(f"{given[p]}\n" for p in asked))
        assert done.returncode == 0, done.stderr
        return
    rolls = sheet_of(folder)
    sheet = folder / "packets" / f"roll-sheet-turn-{turn:02d}-a4.pdf"
    if turn == 2:
        filled = fill_with_pypdf(sheet, roll_ticks(rolls, given), tmp / "rolls-filled.pdf")
        done = run_cli("orders", "import", str(filled), "--campaign", str(folder))
    else:
        campaign = load_campaign(folder)
        plans = roll_plans(rolls, campaign.scenario, "a4", campaign_key(campaign), sheet_key(rolls), turn)
        rng = np.random.default_rng(turn)
        pdf = sheet.read_bytes()
        marks = roll_marks(rolls, given)
        files = [
            save(degrade(pencilled(pdf, k, plan, marks, rng), faults(rng), rng), tmp / f"rolls-{k}.png")
            for k, plan in enumerate(plans)
        ]
        done = run_cli("orders", "scan", *map(str, files), "--campaign", str(folder))
    assert done.returncode == 0, done.stderr


def battles_in(folder: Path, turn: int, tmp: Path) -> None:
    """Turn 2's battle by its report form filled on screen; turn 3's two by theirs, scanned."""
    battles = reference(turn).battles
    campaign, _, forms = forms_now(folder)
    sheet = folder / "packets" / f"report-forms-turn-{turn:02d}-a4.pdf"
    if turn == 2:
        filled = fill_with_pymupdf(sheet, battle_ticks(forms, battles), tmp / "reports-filled.pdf")
        done = run_cli("orders", "import", str(filled), "--campaign", str(folder))
    else:
        marks = battle_marks(forms, battles)
        plans = [p for f in forms for p in battle_plans(f, campaign.scenario, "a4", campaign_key(campaign))]
        rng = np.random.default_rng(turn)
        pdf = sheet.read_bytes()
        files = [
            save(degrade(pencilled(pdf, k, plan, marks[plan.code.key], rng), faults(rng), rng), tmp / f"form-{k}.png")
            for k, plan in enumerate(plans)
        ]
        done = run_cli("orders", "scan", *map(str, files), "--campaign", str(folder))
    assert done.returncode == 0, done.stderr


def status(folder: Path) -> dict[str, Any]:
    return json.loads(run_cli("status", str(folder), "--format", "json").stdout)  # type: ignore[no-any-return]


def as_logged(log: TurnLog) -> dict[str, Any]:
    """What a log says, as data, whatever order it was written in."""

    def orders(section: dict[str, list[Any]]) -> dict[str, list[str]]:
        return {f: sorted(o.model_dump_json() for o in os) for f, os in section.items() if os}

    return {
        "orders": orders(log.orders),
        "rail": orders(log.rail),
        "sea": orders(log.sea),
        "battles": as_data(log.battles),
        "dice": {g.purpose: g.value for g in log.dice},
        "handed_in": sorted(log.handed_in),
    }


def test_three_turns_of_the_introductory_scenario_with_no_yaml_typed(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    assert run_cli("samples", str(folder), "--sample", "tsaritsyn-sample").returncode == 0
    shutil.rmtree(folder / "turns")
    (folder / "turns").mkdir()  # the reference's campaign.yaml and set-up, no turn played
    for turn in (1, 2, 3):
        work = tmp_path / f"turn-{turn}"
        work.mkdir()
        assert run_cli("next", str(folder)).returncode == 0
        assert run_cli("turn", str(folder)).returncode == 0  # the packets, the roll sheet among them
        orders_in(folder, turn, work)
        assert status(folder)["stage"] == "playing"  # the rolls the table makes are owed
        rolls_in(folder, turn, work)
        if reference(turn).battles:
            assert run_cli("turn", str(folder)).returncode == 0  # again: the report forms of the contacts
            assert turn_basis(load_campaign(folder)).turn == turn
            battles_in(folder, turn, work)
        said = status(folder)
        assert said["finished"], said["owed"]
        done = as_logged(read_log(folder / "turns" / f"turn-{turn:02d}.yaml")[0])
        want = as_logged(reference(turn))
        # the reference names the Reds' blank forms by `handed_in`; kitgen writes every faction it read
        assert done["handed_in"] == ["reds", "whites"] and set(want["handed_in"]) <= {"reds", "whites"}
        assert {k: v for k, v in done.items() if k != "handed_in"} == {
            k: v for k, v in want.items() if k != "handed_in"
        }
    assert status(folder)["stage"] == "over"
    assert run_cli("validate", str(folder)).returncode == 0
    ending = json.loads(run_cli("state", str(folder), "--format", "json").stdout)["ending"]
    assert ending["over"] and ending["winners"] == ["whites"]
