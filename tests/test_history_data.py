"""The history as data (`kitgen history`): its rows against the replayed states, CSV that a
spreadsheet reads back as written (and never runs as a formula), deterministic JSON."""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import yaml
from typer.testing import CliRunner

from kitgen.campaign import load_campaign
from kitgen.cli import app
from kitgen.engine.history import course
from kitgen.products.historydata import history_csv, history_json, history_tables

SAMPLE = Path(__file__).parent.parent / "data" / "sample-campaign"


def test_a_row_per_unit_per_turn_as_the_states_hold_them() -> None:
    """Each turn from the set-up has one row per unit of that turn's state: its hex, its stands
    summed, its supply as judged at the turn's start, the owner of the town in its hex."""
    c = load_campaign(SAMPLE)
    h = course(c)
    tables = history_tables(c, h)
    names = {f.id: f.name for f in c.scenario.meta.factions}
    for turn in range(h.last + 1):
        state = h.after(turn)
        rows = {r.id: r for r in tables.units if r.turn == turn}
        assert set(rows) == {u.id for u in state.units}
        for u in state.units:
            r = rows[u.id]
            assert (r.unit, r.hex, r.stands, r.faction) == (u.name, u.hex, sum(u.stands.values()), names[u.faction])
            assert r.supply == (
                "not judged" if turn == 0 else {True: "in", False: "out", None: "not judged"}[u.in_supply]
            )
            town = c.board.towns.get(u.hex, ("",))[0]
            held = state.owners.get(town, "none") if town else "none"
            assert r.owner == (names[held] if held != "none" else "")
    assert any(r.supply == "out" for r in tables.units), "the sample has units out of supply"


def test_a_row_per_battle_and_per_town_that_changed_hands() -> None:
    """One battle row per battle of each turn's results, with the stands each side lost for good;
    one town row per owner changed from one turn's end to the next."""
    c = load_campaign(SAMPLE)
    h = course(c)
    tables = history_tables(c, h)
    for turn in range(1, h.last + 1):
        state, before = h.after(turn), h.after(turn - 1)
        results = state.battle_results
        rows = [b for b in tables.battles if b.turn == turn]
        assert len(rows) == len({r.battle for r in results})
        assert sum(b.winner_stands_lost + b.loser_stands_lost for b in rows) == sum(
            r.permanent + r.deserted for r in results
        )
        changed = {t for t in state.owners if state.owners[t] != before.owners.get(t, "none")}
        assert {t.town for t in tables.towns if t.turn == turn} == changed
    assert tables.battles and tables.towns


def test_csv_reads_back_as_written_and_never_as_a_formula(tmp_path: Path) -> None:
    """A unit named like a spreadsheet formula is written as text (a leading quote); every other
    cell reads back exactly."""
    copy = tmp_path / "campaign"
    shutil.copytree(SAMPLE, copy, ignore=shutil.ignore_patterns("packets", "chronicle"))
    setup = yaml.safe_load((copy / "setup.yaml").read_text(encoding="utf-8"))
    setup["units"][0]["name"] = '=HYPERLINK("http://x","click")'
    (copy / "setup.yaml").write_text(yaml.safe_dump(setup, sort_keys=False, allow_unicode=True), encoding="utf-8")
    c = load_campaign(copy)
    tables = history_tables(c, course(c))
    rows = list(csv.reader(io.StringIO(history_csv(tables, "units"))))
    header, body = rows[0], rows[1:]
    assert header[:4] == ["turn", "unit", "id", "faction"] and len(body) == len(tables.units)
    first = body[0]
    assert first[1] == "'" + setup["units"][0]["name"], "the formula is kept as text"
    assert not any(cell.startswith(("=", "+", "@")) for row in body for cell in row)
    assert [row[2] for row in body] == [r.id for r in tables.units]


def test_json_holds_the_three_tables_and_is_the_same_every_time() -> None:
    """The JSON document holds every row of the three tables, the same bytes run after run."""
    c = load_campaign(SAMPLE)
    text = history_json(history_tables(c, course(c)))
    assert text == history_json(history_tables(c, course(c)))
    data = json.loads(text)
    assert data["schema_version"] == 1 and data["turns"] == 6
    assert {"units", "battles", "towns"} <= set(data) and data["towns"][0].keys() >= {"from", "to"}


def test_cli_history_to_standard_output_and_to_a_file(tmp_path: Path) -> None:
    """`kitgen history DIR` prints the units' CSV; `--table battles`, `--format json` and `--out`
    do as they say."""
    runner = CliRunner()
    shown = runner.invoke(app, ["history", str(SAMPLE)])
    assert shown.exit_code == 0 and shown.output.startswith("turn,unit,id,faction,type,hex")
    battles = runner.invoke(app, ["history", str(SAMPLE), "--table", "battles"])
    assert battles.output.startswith("turn,battle,hex,town,winners,losers")
    out = tmp_path / "history.json"
    done = runner.invoke(app, ["history", str(SAMPLE), "--format", "json", "--out", str(out)])
    assert done.exit_code == 0, done.output
    c = load_campaign(SAMPLE)
    assert out.read_text(encoding="utf-8") == history_json(history_tables(c, course(c)))
