"""A misspelling in a battle report, a roll or an order's special word: named as what it is, at its
file:line:column, with the closest right name. A battle report's names are checked all at once
when the battles begin, so a misspelt unit is never taken for a side missing from the fight."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from kitgen.campaign import load_campaign
from kitgen.engine.replay import played, replay
from kitgen.errors import KitgenError, Problem
from kitgen.scenariofolders import data_dir
from tests.conftest import edit, run_cli


def sample(tmp_path: Path, name: str = "tsaritsyn-sample") -> Path:
    """A copy of a bundled sample campaign."""
    folder = tmp_path / name
    shutil.copytree(data_dir() / name, folder)
    return folder


def misspell(log: Path, line_text: str, old: str, new: str) -> tuple[int, int]:
    """`old` made `new` in the one line of the log holding `line_text`; the line and column of `new`."""
    text = log.read_text(encoding="utf-8")
    assert text.count(line_text) == 1, line_text
    line = edit(log, line_text, line_text.replace(old, new, 1))
    return line, line_text.index(old) + 1


def problems(folder: Path) -> list[Problem]:
    """What replaying the campaign stops with."""
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    return caught.value.problems


def placed(found: list[Problem]) -> list[tuple[str, int, int]]:
    return [(p.code, p.line, p.column) for p in found]


@pytest.fixture
def ts(tmp_path: Path) -> Path:
    return sample(tmp_path)


def turn3(folder: Path) -> Path:
    return folder / "turns" / "turn-03.yaml"


LOSER = '      - {unit: r_39th_div, lost: {infantry: 1}, retreat: "5211"}'
"""The Reds' division beaten at Basargino (5212), the one of the losers that lost a stand."""
WINNER = "      - {unit: w_1st_kuban_corps, lost: {cavalry: 1}}"
"""Pokrovsky's corps, the battle's only winner."""


def test_a_misspelt_loser_is_an_unknown_unit_of_the_contact(ts: Path) -> None:
    """Not "found no unit of the losing side in 5212": the id, the contact's units, the closest."""
    at = misspell(turn3(ts), LOSER, "r_39th_div", "r_39th_dv")
    (found,) = problems(ts)
    assert placed([found]) == [("log.battle_unknown_unit", *at)]
    assert "found 'r_39th_dv', which is no unit on the map" in found.message
    assert "expected a unit of the contact in 5212: r_38th_div, r_39th_div, r_zhloba_cav or w_1st_kuban_corps" in (
        found.message
    )
    assert found.message.endswith("did you mean 'r_39th_div'?")


def test_a_misspelt_winner_unit_is_not_a_side_missing(ts: Path) -> None:
    """Not "found no whites unit in the fight": the misspelt id itself."""
    at = misspell(turn3(ts), WINNER, "w_1st_kuban_corps", "w_1st_kuban_crops")
    (found,) = problems(ts)
    assert placed([found]) == [("log.battle_unknown_unit", *at)]
    assert found.message.endswith("did you mean 'w_1st_kuban_corps'?")


def test_units_of_the_contact_not_listed_are_suggested_first(ts: Path) -> None:
    """Of the Kuban divisions in Tsaritsyn, the one the report leaves out is the one meant."""
    misspell(turn3(ts), "      - {unit: w_1st_kuban_div}", "w_1st_kuban_div", "w_1st_kubn_div")
    (found,) = problems(ts)
    assert found.code == "log.battle_unknown_unit"
    assert found.message.endswith("did you mean 'w_1st_kuban_div'?")


def test_two_misspelt_units_are_two_problems_of_one_run(ts: Path) -> None:
    first = misspell(turn3(ts), "      - {unit: w_1st_kuban_div}", "w_1st_kuban_div", "w_1st_kubn_div")
    second = misspell(turn3(ts), LOSER, "r_39th_div", "r_39th_dv")
    assert placed(problems(ts)) == [("log.battle_unknown_unit", *first), ("log.battle_unknown_unit", *second)]
    done = run_cli("validate", str(ts))
    assert done.returncode == 1
    assert f"turn-03.yaml:{first[0]}:{first[1]}: battles[0].units[2].unit: found 'w_1st_kubn_div'" in done.stderr
    assert f"turn-03.yaml:{second[0]}:{second[1]}: battles[1].units[3].unit: found 'r_39th_dv'" in done.stderr
    assert "no unit of the losing side" not in done.stderr
    assert done.stderr.strip().endswith("2 problems found")


def test_a_misspelt_winner_faction_and_every_other_misspelling_at_once(ts: Path) -> None:
    """A winner that is no faction, a stand kind lost and one of rounds left that are none, a
    retreat off the map: each its own problem, all in one run."""
    log = turn3(ts)
    winner = edit(log, '  - hex: "5212"\n    winner: whites', '  - hex: "5212"\n    winner: whits') + 1
    infantry = misspell(log, WINNER, "cavalry", "cavalri")
    retreat = misspell(log, LOSER, "5211", "5221")
    guns = '      - {unit: r_tsaritsyn_art, lost: {artillery: 1}, retreat: "5312"}'
    ammo = misspell(log, guns, "lost: {artillery: 1}", "lost: {artillery: 1}, ammo_left: {artilery: 2}")
    ammo = (ammo[0], ammo[1] + len("lost: {artillery: 1}, ammo_left: {"))
    found = problems(ts)
    assert placed(found) == [
        ("log.bad_stands", *ammo),
        ("log.unknown_faction", winner, 13),
        ("log.bad_stands", *infantry),
        ("log.battle_retreat_off_map", retreat[0], retreat[1] - 1),  # the value's opening quote
    ]
    ammo_left, faction, lost, off_map = (p.message for p in found)
    assert ammo_left.startswith("battles[0].units[5].ammo_left.artilery: found the stand kind 'artilery'")
    assert ammo_left.endswith("did you mean 'artillery'?")
    assert faction == "battles[1].winner: found 'whits', expected one of reds or whites; did you mean 'whites'?"
    assert lost.endswith("did you mean 'cavalry'?")
    assert "found the retreat '5221', which is not a hex of the map; expected a hex next to 5212" in off_map
    assert "did you mean" in off_map and "'5211'" in off_map.split("did you mean")[1]


def test_a_misspelt_ship_is_named_with_the_ships_of_the_battle(tmp_path: Path) -> None:
    """D.3: the battleship off Sevastopol in the sample campaign's turn 6, misspelt."""
    folder = sample(tmp_path, "sample-campaign")
    log = folder / "turns" / "turn-06.yaml"
    line = edit(log, "ships: [w_hms_marlborough]", "ships: [w_hms_marlboro]")
    (found,) = problems(folder)
    assert placed([found]) == [("log.battle_unknown_ship", line, 13)]
    assert "found 'w_hms_marlboro', which is no ship on the map" in found.message
    assert found.message.endswith("did you mean 'w_hms_marlborough'?")


def test_a_misspelt_roll_suggests_the_roll_the_log_does_not_give(ts: Path) -> None:
    """The tank's second breakdown roll misspelt: it is drawn, and the note suggests it, not the
    first one, which the log gives."""
    text = '  - {purpose: "A.5 w_tank_det vehicle 2 breakdown, turn 3", value: 4}'
    line, column = misspell(turn3(ts), text, '"A.5 w_tank_det', '"A.5 w_tank_dt')
    (unused,) = [u for _, record in played(load_campaign(ts)) for u in record.unused_rolls]
    assert (unused.note.code, unused.note.line, unused.note.column) == ("note.roll_unused", line, column)
    assert unused.note.message.endswith("did you mean 'A.5 w_tank_det vehicle 2 breakdown, turn 3'?")


def test_a_misspelt_special_word_of_an_imported_sheet(ts: Path, tmp_path: Path) -> None:
    """`kitgen orders import` of a spreadsheet whose special column says `retreet`."""
    (turn3(ts)).unlink()
    assert run_cli("next", str(ts)).returncode == 0
    sheet = tmp_path / "whites.csv"
    done = run_cli("orders", "form", str(ts), "--faction", "whites", "--turn", "3", "--csv", "--out", str(sheet))
    assert done.returncode == 0, done.stderr
    lines = sheet.read_text(encoding="utf-8").splitlines()
    k = next(i for i, row in enumerate(lines) if row.startswith("w_1st_kuban_corps,"))
    lines[k] = lines[k].removesuffix(",,,") + ",,,retreet"
    sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run_cli("orders", "import", str(sheet), "--campaign", str(ts), "--turn", "3")
    assert done.returncode == 1
    (said,) = [x for x in done.stderr.splitlines() if "special order 'retreet'" in x]
    assert f"whites.csv:{k + 1}:" in said and said.endswith("did you mean 'retreat'?")
