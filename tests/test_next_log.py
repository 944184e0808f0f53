"""`kitgen next`: the next turn's log written to fill in, the rolls ahead of a turn, and the
command roll targets (II.C) that the command phase and the template share."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from kitgen.campaign import load_campaign
from kitgen.engine.ahead import before_orders, rolls_ahead
from kitgen.engine.phases.command import command_groups
from kitgen.engine.replay import replay
from kitgen.engine.setup import initial_state
from kitgen.engine.turn import play_turn
from kitgen.engine.turnlog import TurnLog
from kitgen.scenariofolders import data_dir
from tests.boards import campaign_on, log, play, unit
from tests.conftest import run_cli

SAMPLES = {"sample-campaign": 6, "tsaritsyn-sample": 3}
"""The bundled sample campaigns and how many turn logs each holds."""


def copy_of(name: str, tmp_path: Path, *, keep: int | None = None) -> Path:
    """A copy of a bundled sample campaign (with only its first `keep` logs, if given)."""
    folder = tmp_path / name
    shutil.copytree(data_dir() / name, folder)
    if keep is not None:
        for path in sorted((folder / "turns").glob("turn-*.yaml"))[keep:]:
            path.unlink()
    if name == "tsaritsyn-sample":  # its three turns are played: the club plays on, so next has a turn to write
        with (folder / "campaign.yaml").open("a", encoding="utf-8") as club:
            club.write("play_on: true\n")
    return folder


def next_log(folder: Path) -> Path:
    result = run_cli("next", str(folder))
    assert result.returncode == 0, result.stderr
    (written,) = re.findall(r"^wrote (\S+) \(", result.stdout, flags=re.MULTILINE)
    return Path(written)


def replayed_rolls(folder: Path, turn: int) -> list[str]:
    """The purposes of the rolls the replay of the campaign makes in `turn`."""
    state = replay(load_campaign(folder), turn)
    return [r.purpose for r in state.rolls]


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_next_writes_the_log_after_the_last_and_it_validates(name: str, tmp_path: Path) -> None:
    folder = copy_of(name, tmp_path)
    path = next_log(folder)
    turn = SAMPLES[name] + 1
    assert path == folder / "turns" / f"turn-{turn:02d}.yaml"
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["turn"] == turn
    checked = run_cli("validate", str(folder))
    assert checked.returncode == 0, checked.stderr
    assert f"ok: {turn} turns" in checked.stdout


@pytest.mark.parametrize(("name", "keep"), [("sample-campaign", 6), ("tsaritsyn-sample", 3), ("sample-campaign", 2)])
def test_the_rolls_in_the_template_are_those_its_replay_asks_for(name: str, keep: int, tmp_path: Path) -> None:
    """The `dice:` of the written log, read back from the file, against the rolls that the
    replay of that very file makes: the same purposes, in the same order, none missing."""
    folder = copy_of(name, tmp_path, keep=keep)
    path = next_log(folder)
    written = [d["purpose"] for d in yaml.safe_load(path.read_text(encoding="utf-8"))["dice"] or []]
    assert all(d["value"] is None for d in yaml.safe_load(path.read_text(encoding="utf-8"))["dice"] or [])
    assert written == replayed_rolls(folder, keep + 1)
    assert written  # II.A: an event roll every strategic turn, at least


def test_a_victory_turn_template_holds_the_E3_bonus_roll(tmp_path: Path) -> None:
    """E.3: on every 3rd turn the Reds add a 3D6 bonus to their VP: the template of turn 3 asks for it."""
    folder = copy_of("sample-campaign", tmp_path, keep=2)
    purposes = [d["purpose"] for d in yaml.safe_load(next_log(folder).read_text(encoding="utf-8"))["dice"]]
    assert any(p.startswith("E.3 ") for p in purposes) and any(p.startswith("II.A ") for p in purposes)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_a_second_next_refuses_and_leaves_the_file_as_it_was(name: str, tmp_path: Path) -> None:
    folder = copy_of(name, tmp_path)
    path = next_log(folder)
    before = path.read_bytes()
    again = run_cli("next", str(folder))
    assert again.returncode == 1 and "still as kitgen next wrote it" in again.stderr
    assert path.read_bytes() == before
    assert sorted(p.name for p in path.parent.iterdir()) == [f"turn-{n:02d}.yaml" for n in range(1, SAMPLES[name] + 2)]


def test_next_follows_a_filled_in_log_and_never_writes_over_a_file(tmp_path: Path) -> None:
    """A log whose factions have all handed in (every unit holding, no contact) is a turn played."""
    folder = copy_of("tsaritsyn-sample", tmp_path)
    path = next_log(folder)
    path.write_text(path.read_text(encoding="utf-8") + "handed_in: [reds, whites]\n", encoding="utf-8")
    refused = run_cli("next", str(folder))  # the sample's table rolls (`dice: table`): the event roll is owed
    assert refused.returncode == 1 and "found no D6 roll for 'II.A event roll, turn 4'" in refused.stderr
    rolled = run_cli("roll", str(folder), answers="3\n")  # made at the table, given at the prompt
    assert rolled.returncode == 0, rolled.stderr
    assert next_log(folder).name == "turn-05.yaml"


def test_next_refuses_a_turns_folder_that_is_a_link(tmp_path: Path) -> None:
    folder = copy_of("tsaritsyn-sample", tmp_path)
    elsewhere = tmp_path / "elsewhere"
    (folder / "turns").rename(elsewhere)
    (folder / "turns").symlink_to(elsewhere)
    result = run_cli("next", str(folder))
    assert result.returncode == 1 and f"turns:1:1: found a symbolic link to {elsewhere}" in result.stderr  # at load
    assert sorted(p.name for p in elsewhere.iterdir()) == ["turn-01.yaml", "turn-02.yaml", "turn-03.yaml"]


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_unit_on_the_map_has_a_commented_order_line_at_its_hex(name: str, tmp_path: Path) -> None:
    folder = copy_of(name, tmp_path)
    text = next_log(folder).read_text(encoding="utf-8")
    state = replay(load_campaign(folder))
    for u in state.units:
        assert f'# - {{unit: {u.id}, move: ["{u.hex}", ...]}}' in text, u.id
    for t in state.trains:
        assert f'# - {{train: {t["id"]}, carry: [], path: ["{t["hex"]}", ...]}}' in text
    for x in state.ships:
        assert f'# - {{ship: {x["id"]}, carry: [], path: ["{x["hex"]}", ...]}}' in text


def test_an_uncommented_line_with_a_one_hex_move_validates_and_moves_the_unit(tmp_path: Path) -> None:
    """4521 (Velikokniazheskaia) to 4520, north: open, no river between (the board's sides)."""
    folder = copy_of("sample-campaign", tmp_path)
    path = next_log(folder)
    text = path.read_text(encoding="utf-8")
    line = '    # - {unit: w_kuban_1st_div, move: ["4521", ...]}'
    roll = '  # - {purpose: "II.C Wrangel command roll, turn 7", value: }'
    assert line in text and roll in text
    text = text.replace(line, '    - {unit: w_kuban_1st_div, move: ["4521", "4520"]}').replace(
        roll, '  - {purpose: "II.C Wrangel command roll, turn 7", value: 1}'
    )
    path.write_text(text, encoding="utf-8")
    checked = run_cli("validate", str(folder))
    assert checked.returncode == 0, checked.stderr
    state = replay(load_campaign(folder))
    moved = state.unit("w_kuban_1st_div")
    assert moved is not None and moved.hex == "4520"
    assert [(v.unit, v.result) for v in state.verdicts] == [("w_kuban_1st_div", "done")]
    (wrangel,) = state.commands
    assert (wrangel.commander, wrangel.roll, wrangel.obeyed) == ("Wrangel", 1, True)


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_the_command_rolls_ahead_are_those_of_a_turn_where_every_unit_is_ordered(name: str) -> None:
    """With every unit given an order (resupply, which rolls for command like any order), the
    command phase rolls exactly the if-ordered rolls ahead, with the targets they name."""
    campaign = load_campaign(data_dir() / name)
    state = replay(campaign)
    turn = state.turn + 1
    ahead = [r for r in rolls_ahead(campaign, state, turn) if r.kind == "command"]
    every = {f.id: [{"unit": u.id} for u in state.units if u.faction == f.id] for f in campaign.scenario.meta.factions}
    record = play_turn(campaign, state, TurnLog.model_validate({"turn": turn, "resupply": every}))
    assert sorted((r.purpose, r.target, r.units) for r in ahead) == sorted(
        (f"II.C {c.commander or c.units[0]} command roll, turn {turn}", c.target, c.units)
        for c in record.state.commands
    )


def test_empty_dice_values_are_drawn_as_if_not_given() -> None:
    """A `dice:` entry left with no value is drawn from the seed, as a roll the log does not give."""
    campaign = campaign_on({"columns": 3, "rows": 1}, [unit("r_inf", "reds", "0101")])
    given = play(campaign, log(dice=[{"purpose": "II.A event roll, turn 1", "value": None}]))
    unasked = play(campaign, log())
    assert [(r.purpose, r.value, r.source) for r in given.rolls] == [
        (r.purpose, r.value, r.source) for r in unasked.rolls
    ]
    assert [r.source for r in given.rolls] == ["drawn"]


def test_an_empty_dice_entry_the_turn_never_asks_for_is_a_warning(tmp_path: Path) -> None:
    """As with a roll given a value (RULES-NOTES 2026-12-02): a purpose the turn does not ask for
    is not used, and `validate` warns at its line."""
    folder = copy_of("tsaritsyn-sample", tmp_path)
    path = next_log(folder)
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "dice:\n", 'dice:\n  - {purpose: "II.A event roll, turn 9", value: }\n', 1
        ),
        encoding="utf-8",
    )
    result = run_cli("validate", str(folder))
    assert result.returncode == 0, result.stderr
    assert "warning:" in result.stdout and "II.A event roll, turn 9" in result.stdout


# --- II.C: the command roll targets, on small boards (the DATC's way: one case a clause) ------

ROW = {"columns": 5, "rows": 1}
"""Five open hexes in a row, 0101 to 0501: 0201 is next to 0101 and 0301, 0301 is two from 0101."""


def groups_of(campaign_units: list[dict[str, object]], ordered: list[str], **state_changes: object) -> dict[str, int]:
    """The target of each command roll turn 1 would make for the `ordered` units, by who rolls."""
    campaign = campaign_on(ROW, campaign_units)
    state = replace(before_orders(campaign, initial_state(campaign), 1), **state_changes)  # type: ignore[arg-type]
    faction = {str(u["id"]): str(u["faction"]) for u in campaign_units}
    return {
        g.key: g.target for g in command_groups(campaign, campaign.board, state, [(faction[u], u) for u in ordered])
    }


def test_II_C1_highest_ranking_commander_rolls_for_every_ordered_unit_of_his_hex() -> None:
    """'The highest ranking commander in the hex rolls for all the units in his hex' (C.3): Trotsky
    outranks Budenny, so one roll on Trotsky's 10 for the three units."""
    units = [
        unit("r_a", "reds", "0201", commander="Budenny"),
        unit("r_b", "reds", "0201", commander="Trotsky"),
        unit("r_c", "reds", "0201"),
    ]
    assert groups_of(units, ["r_a", "r_b", "r_c"]) == {"Trotsky": 10}


def test_II_C1_no_commander_in_the_hex_but_one_adjacent_obeys_on_1_to_4() -> None:
    """'If no commander present in hex, units must roll D10 and get 1-4 if adjacent to a commander
    in another hex': each such unit rolls alone."""
    units = [
        unit("r_lead", "reds", "0101", commander="Budenny"),
        unit("r_x", "reds", "0201"),
        unit("r_y", "reds", "0201"),
    ]
    assert groups_of(units, ["r_x", "r_y"]) == {"r_x": 4, "r_y": 4}


def test_II_C1_no_commander_in_the_hex_nor_adjacent_obeys_on_1_to_3() -> None:
    """'...or 1-3 if further away': two hexes from Budenny; an enemy commander next to it does not count."""
    units = [
        unit("r_lead", "reds", "0101", commander="Budenny"),
        unit("w_lead", "whites", "0401", commander="Wrangel"),
        unit("r_x", "reds", "0301"),
    ]
    assert groups_of(units, ["r_x"]) == {"r_x": 3}


def test_II_C4_each_failure_in_a_row_makes_the_next_roll_easier() -> None:
    """'Next turn after failure, subtract 1 from dependability roll to make it more likely they will
    obey. This will be cumulative': two failures of Budenny's raise his 7 to 9, and a leaderless
    unit's two failures its 3 to 5 ('These still follow Rule 4')."""
    units = [unit("r_lead", "reds", "0101", commander="Budenny"), unit("r_x", "reds", "0401")]
    failures = {"Budenny": 2, "r_x": 2}
    assert groups_of(units, ["r_lead", "r_x"], command_failures=failures) == {"Budenny": 9, "r_x": 5}


def test_II_C_a_cards_command_modifier_comes_off_the_target() -> None:
    """A card's command modifier is added to the D10 (forces.py: +1 makes orders harder to obey):
    +1 on the Reds for this turn takes Budenny's 7 to 6, and leaves the Whites' Wrangel at 8."""
    units = [unit("r_lead", "reds", "0101", commander="Budenny"), unit("w_lead", "whites", "0501", commander="Wrangel")]
    card = (("command", "reds", 1, 1, ""),)
    assert groups_of(units, ["r_lead", "w_lead"], modifiers=card) == {"Budenny": 6, "Wrangel": 8}


def test_II_C_the_command_phase_rolls_against_the_shared_target() -> None:
    """The phase judges each roll against the same target: a roll at the target obeys, one over it is held."""
    units = [unit("r_x", "reds", "0201"), unit("r_lead", "reds", "0101", commander="Budenny")]
    campaign = campaign_on(ROW, units)
    order = {"unit": "r_x", "move": ["0201", "0301"]}
    purpose = "II.C r_x command roll, turn 1"
    at = play(campaign, log(orders={"reds": [order]}, dice=[{"purpose": purpose, "value": 4}]))
    over = play(campaign, log(orders={"reds": [order]}, dice=[{"purpose": purpose, "value": 5}]))
    assert [(c.target, c.obeyed) for c in at.state.commands] == [(4, True)]
    assert [(c.target, c.obeyed) for c in over.state.commands] == [(4, False)]
    assert [v.result for v in over.verdicts] == ["held"]


def test_the_same_campaign_gives_the_same_bytes(tmp_path: Path) -> None:
    first = next_log(copy_of("sample-campaign", tmp_path / "a")).read_bytes()
    assert next_log(copy_of("sample-campaign", tmp_path / "b")).read_bytes() == first


def test_a_new_campaign_gets_turn_1_and_its_turns_folder(tmp_path: Path) -> None:
    """`kitgen new` asks who rolls, and campaign.yaml says it once (RULES-NOTES, 2026-12-05)."""
    folder = tmp_path / "club"
    made = run_cli("new", str(folder), answers="table\n")
    assert made.returncode == 0, made.stderr
    assert "Who rolls this campaign's dice?" in made.stdout
    assert yaml.safe_load((folder / "campaign.yaml").read_text(encoding="utf-8"))["dice"] == "table"
    (folder / "turns").rmdir()
    path = next_log(folder)
    assert path == folder / "turns" / "turn-01.yaml" and yaml.safe_load(path.read_text(encoding="utf-8"))["turn"] == 1
    assert run_cli("validate", str(folder)).returncode == 0


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_A4_breakdown_rolls_ahead_are_those_a_moving_vehicle_makes(name: str) -> None:
    """A.4-A.5: a vehicle that moves rolls for breakdown; the rolls ahead name each such roll with
    the purpose the land phase gives it, for every unit with vehicles that moves one hex."""
    from kitgen.engine.reach import land_paths

    campaign = load_campaign(data_dir() / name)
    state = replay(campaign)
    turn = state.turn + 1
    ahead = rolls_ahead(campaign, state, turn)
    breakdown = {r.purpose for r in ahead if r.kind == "breakdown"}
    command = {u: r.purpose for r in ahead if r.kind == "command" for u in r.units}
    movers = [u for u in state.units if any(r.who == u.id for r in ahead if r.kind == "breakdown")]
    assert movers, "both samples field armoured cars or tanks"
    moved = 0
    for mover in movers:
        paths = {h: p for h, p in land_paths(campaign, state, mover.id).items() if len(p) == 2}
        if not paths:
            continue
        path = paths[min(paths)]
        orders = {mover.faction: [{"unit": mover.id, "move": list(path)}]}
        dice = [{"purpose": command[mover.id], "value": 1}]  # it obeys
        record = play_turn(campaign, state, TurnLog.model_validate({"turn": turn, "orders": orders, "dice": dice}))
        made = {r.purpose for r in record.state.rolls if r.rule.startswith("A.") and mover.id in r.purpose}
        assert made and made == {p for p in breakdown if f" {mover.id} " in p}, mover.id
        moved += 1
    assert moved, "no vehicle could move a hex"
