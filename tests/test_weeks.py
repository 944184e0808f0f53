"""The umpire's weeks played end to end through the command line, on both bundled scenarios, as a
club plays them (issue 22): `new`, then every week `next`, `turn` (the packets), each faction's
order form filled on screen (pypdf for some factions, PyMuPDF for the others, as two viewers
would), `orders import`, `status`, the battles reported in the log for every contact it names,
`validate` and `state`; three weeks, or to the scenario's end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from kitgen.campaign import load_campaign
from kitgen.engine.replay import replay
from kitgen.engine.turn import play_turn, read_log
from kitgen.engine.turnlog import Battle, BattleUnit
from kitgen.orders.rows import field_name
from tests.conftest import run_cli
from tests.forms import fill_with_pymupdf, fill_with_pypdf

WEEKS = {"denikin-1919": 3, "tsaritsyn-1919": 3}


def orders_of(camp: Path, faction: str, count: int = 3) -> dict[str, str]:
    """Paths for the faction's units nearest the enemy: each one hex on, towards him (the rules
    may make some void: they are imported as written, with a warning)."""
    campaign = load_campaign(camp)
    state = replay(campaign)
    grid = campaign.hex_map.grid

    def apart(a: str, b: str) -> int:
        return grid.distance(grid.parse_id(a), grid.parse_id(b))  # type: ignore[arg-type]

    foes = [u.hex for u in state.units if u.faction != faction and u.aboard is None]
    units = [u for u in state.units if u.faction == faction and u.aboard is None and not u.immobilised]
    units.sort(key=lambda u: (min(apart(u.hex, f) for f in foes), u.id))
    values = {}
    for u in units[:count]:
        towards = min(campaign.board.neighbours(u.hex), key=lambda n: (min(apart(n, f) for f in foes), n))
        values[field_name(u.id, "path")] = towards
    return values


def report_battles(camp: Path, turn: int) -> int:
    """The umpire's reports of the turn's contacts, as `kitgen status` lists them: the faction
    first named wins, each loser retreats to the first hex the rules allow (or surrenders)."""
    status = json.loads(run_cli("status", str(camp), "--format", "json").stdout)
    owed = [o for o in status["owed"] if o["kind"] == "no_report"]
    if not owed:
        return 0
    campaign = load_campaign(camp)
    before = replay(campaign, turn - 1)
    path = camp / "turns" / f"turn-{turn:02d}.yaml"
    log, _ = read_log(path)
    after_moves = play_turn(campaign, before, log).state
    battles = []
    for o in owed:
        units = [after_moves.unit(u) for u in o["units"]]
        winner = units[0].faction  # type: ignore[union-attr]
        parts = []
        for u in units:
            assert u is not None
            if u.faction == winner:
                parts.append(BattleUnit(unit=u.id))
                continue
            parts.append(_loser(campaign, before, log, battles, o["hex"], winner, parts, u.id))
        battles.append(Battle(hex=o["hex"], winner=winner, units=parts))
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["battles"] = [b.model_dump(mode="json", exclude_defaults=True) for b in battles]
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return len(battles)


def _loser(campaign, before, log, battles, hex_id, winner, parts, unit):  # type: ignore[no-untyped-def]
    """The loser's part: a retreat the engine accepts, tried hex by hex, else surrender."""
    from kitgen.errors import KitgenError

    tries = [BattleUnit(unit=unit, retreat=n) for n in campaign.board.neighbours(hex_id)]
    tries.append(BattleUnit(unit=unit, surrender=True))
    for part in tries:
        trial = Battle(hex=hex_id, winner=winner, units=[*parts, part])
        try:
            play_turn(campaign, before, log.model_copy(update={"battles": [*battles, trial]}))
        except KitgenError:
            continue
        return part
    raise AssertionError(f"no retreat or surrender the rules accept for {unit} in {hex_id}")


@pytest.mark.parametrize("scenario", sorted(WEEKS))
def test_the_weeks_of_a_campaign_through_the_command_line(scenario: str, tmp_path: Path) -> None:
    camp = tmp_path / "club"
    assert run_cli("new", str(camp), "--scenario", scenario, "--dice", "kitgen").returncode == 0
    factions = [f.id for f in load_campaign(camp).scenario.meta.factions]
    fought = 0
    for week in range(1, WEEKS[scenario] + 1):
        started = run_cli("next", str(camp))
        assert started.returncode == 0, started.stderr
        refused = run_cli("next", str(camp))
        assert (
            refused.returncode == 1 and f"found the log of turn {week} still as kitgen next wrote it" in refused.stderr
        )
        packets = run_cli("turn", str(camp), "--out", str(tmp_path / f"packets-{week}"))
        assert packets.returncode == 0, packets.stderr
        for k, faction in enumerate(factions):
            form = tmp_path / f"{faction}-{week}.pdf"
            made = run_cli("orders", "form", str(camp), "--faction", faction, "--out", str(form))
            assert made.returncode == 0, made.stderr
            filled = tmp_path / f"{faction}-{week}-filled.pdf"
            (fill_with_pypdf if k % 2 == 0 else fill_with_pymupdf)(form, orders_of(camp, faction), filled)
            done = run_cli("orders", "import", str(filled), "--campaign", str(camp))
            assert done.returncode == 0, done.stderr
            assert f"merged the orders of the {faction}" in done.stdout
        status = json.loads(run_cli("status", str(camp), "--format", "json").stdout)
        assert all(f["handed_in"] for f in status["factions"])
        fought += report_battles(camp, week)
        after = json.loads(run_cli("status", str(camp), "--format", "json").stdout)
        assert after["finished"], after["owed"]
        checked = run_cli("validate", str(camp))
        assert checked.returncode == 0, checked.stderr
        assert f"ok: {week} turn" in checked.stdout
        state = run_cli("state", str(camp), "--format", "json")
        assert state.returncode == 0 and json.loads(state.stdout)["turn"] == week
    assert fought, "the orders towards the enemy brought no battle to report"
    if scenario == "tsaritsyn-1919":  # its last turn is 3: the campaign is over unless the club plays on
        over = run_cli("next", str(camp))
        assert over.returncode == 1 and "the scenario ended after turn 3" in over.stderr
        status = run_cli("status", str(camp))
        assert "The scenario is over" in status.stdout
        with (camp / "campaign.yaml").open("a", encoding="utf-8") as club:
            club.write("play_on: true\n")
        assert run_cli("next", str(camp)).returncode == 0
