"""The umpire's desk (issue 40): who rolls, said once; a turn finished only when nothing still to be
written can change its contacts or battles; the scenario's result announced only then; rolls and
battles entered at the keyboard (driven through standard input, as a person types), written
through the record; the last write undone in one step; commands run inside the campaign folder.

Each ruling's case quotes RULES-NOTES (rulings of 2026-12-05) and plays on a copy of the Tsaritsyn
sample, three turns whose every roll is given (`dice: table`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from kitgen.campaign import load_campaign
from kitgen.engine.turn import read_log
from kitgen.engine.turnlog import Battle
from kitgen.scenariofolders import data_dir
from tests.conftest import edit, run_cli, trimmed_copy

REFERENCE = data_dir() / "tsaritsyn-sample"
"""The reference: three turns typed by hand, every roll given at the table."""


def sample(tmp: Path, last: int = 3, change: Any = None, dice: str = "table") -> Path:
    """A copy of the Tsaritsyn sample with the logs after `last` taken away, the last one's data
    changed by `change`, and campaign.yaml's `dice:` set."""
    folder = trimmed_copy(REFERENCE, tmp / "club", last, change)
    if dice != "table":
        edit(folder / "campaign.yaml", "dice: table", f"dice: {dice}")
    return folder


def without(*purposes: str) -> Any:
    def change(data: dict[str, Any]) -> None:
        data["dice"] = [d for d in data["dice"] if not d["purpose"].startswith(purposes)]

    return change


def no_battles(data: dict[str, Any]) -> None:
    data.pop("battles")


def status(folder: Path) -> dict[str, Any]:
    done = run_cli("status", str(folder), "--format", "json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def reference_battles(turn: int) -> list[Battle]:
    log, _ = read_log(REFERENCE / "turns" / f"turn-{turn:02d}.yaml")
    return log.battles


def as_set(battles: list[Battle]) -> dict[str, Any]:
    """Battles as data, whatever order they and their units were written in."""
    return {b.hex: (b.winner, sorted(b.ships), sorted(u.model_dump_json() for u in b.units)) for b in battles}


# --- who rolls, said once ----------------------------------------------------------------------


def test_who_rolls_is_said_once_in_campaign_yaml(tmp_path: Path) -> None:
    """Ruling (2026-12-05, who rolls): "a campaign says once, in campaign.yaml, whether its dice are
    rolled at the table ... or by kitgen". `kitgen new` asks, or takes --dice."""
    for dice in ("table", "kitgen"):
        made = run_cli("new", str(tmp_path / dice), "--scenario", "tsaritsyn-1919", "--dice", dice)
        assert made.returncode == 0, made.stderr
        assert load_campaign(tmp_path / dice).meta.dice == dice
    asked = run_cli("new", str(tmp_path / "asked"), "--scenario", "tsaritsyn-1919", answers="maybe\n2\n")
    assert asked.returncode == 0 and "found 'maybe'" in asked.stderr
    assert load_campaign(tmp_path / "asked").meta.dice == "kitgen"
    ended = run_cli("new", str(tmp_path / "none"), "--scenario", "tsaritsyn-1919")
    assert ended.returncode == 2 and "found the input ended" in ended.stderr
    assert not (tmp_path / "none").exists()


def test_table_a_missing_roll_leaves_the_turn_unfinished(tmp_path: Path) -> None:
    """Ruling (2026-12-05, who rolls): at the table "every roll the turn needs is written in the log;
    none is drawn". Turn 3 with Wrangel's command roll taken out is not finished; the contacts it
    decides say they depend on it; given, the turn is finished again."""
    wrangel = "II.C Wrangel command roll, turn 3"
    folder = sample(tmp_path, 3, without(wrangel))
    before = status(folder)
    assert before["stage"] == "playing" and not before["finished"]
    (missing,) = [o for o in before["owed"] if o["kind"] == "roll_missing"]
    assert missing["purpose"] == wrangel and set(missing["units"]) >= {"w_1st_kuban_div", "w_7th_inf_div"}
    tsaritsyn = [
        o for o in before["owed"] if o["kind"] == "left_out" or (o["kind"] == "no_report" and o["hex"] == "5313")
    ]
    assert all(wrangel in o["rolls"] for o in tsaritsyn)
    refused = run_cli("next", str(folder))
    assert refused.returncode == 1 and f"found no D10 roll for '{wrangel}'" in refused.stderr
    given = run_cli("roll", str(folder), "--give", f"{wrangel}=3")
    assert given.returncode == 0, given.stderr
    assert status(folder)["stage"] == "over"  # the last turn, finished: the result stands


def test_kitgen_rolls_writes_its_rolls_when_the_orders_are_in(tmp_path: Path) -> None:
    """Ruling (2026-12-05, who rolls): by kitgen "written into the log when they are drawn, so that
    the log always holds the rolls its turn was played with". With the Reds' orders out, nothing
    is drawn; their (blank) form in, the import writes every roll the turn needs, each as kitgen's
    seeded dice draw it, and the turn plays as before."""
    from kitgen.engine.replay import replay

    folder = sample(tmp_path, 2, lambda d: (d.pop("dice"), d.pop("handed_in")), dice="kitgen")
    drawn = {r.purpose: r.value for r in replay(load_campaign(folder)).rolls if r.source == "drawn"}
    first = status(folder)
    assert [o["kind"] for o in first["owed"]] == ["orders_out"]  # no roll owed: kitgen draws them later
    blank = tmp_path / "reds.csv"
    assert run_cli("orders", "form", str(folder), "--faction", "reds", "--csv", "--out", str(blank)).returncode == 0
    done = run_cli("orders", "import", str(blank), "--campaign", str(folder))
    assert done.returncode == 0, done.stderr
    assert "kitgen rolled the turn's" in done.stdout
    log, _ = read_log(folder / "turns" / "turn-02.yaml")
    assert {g.purpose: g.value for g in log.dice} == drawn  # kitgen's own rolls, as it drew them before
    assert status(folder)["finished"]
    again = run_cli("orders", "import", str(blank), "--campaign", str(folder), "--turn", "2", "--amend")
    assert again.returncode == 0 and "kitgen rolled" not in again.stdout  # nothing new to write


def test_kitgen_rolls_takes_no_roll_from_the_table(tmp_path: Path) -> None:
    """Where kitgen rolls, a roll it has not written yet (a log edited by hand) is owed until
    `kitgen roll` writes it; a roll from the table is refused (an amendment needs --amend)."""
    event = "II.A event roll, turn 3"
    folder = sample(tmp_path, 3, without(event), dice="kitgen")
    (owed,) = status(folder)["owed"]
    assert (owed["kind"], owed["purpose"]) == ("roll_unwritten", event)
    given = run_cli("roll", str(folder), "--give", f"{event}=4")
    assert given.returncode == 2 and "kitgen rolls this campaign's dice" in given.stderr
    drawn = run_cli("roll", str(folder))
    assert drawn.returncode == 0 and f"  {event}: " in drawn.stdout
    assert status(folder)["stage"] == "over"


def test_a_roll_given_after_the_turn_is_finished_needs_amend_and_says_what_it_changes(tmp_path: Path) -> None:
    """Ruling (2026-12-05, who rolls): "A roll in the log is the turn's roll; changing it later is an
    amendment to a played turn." A failed roll for Wrangel would hold his stack out of the storm of
    Tsaritsyn: refused without --amend; with it, written, saying what it changes, the storm's
    report taken out; the turn is unfinished again and the end no longer announced."""
    folder = sample(tmp_path)
    assert status(folder)["stage"] == "over"
    change = ["--turn", "3", "--give", "II.C Wrangel command roll, turn 3=9"]
    plain = run_cli("roll", str(folder), *change)
    assert plain.returncode == 2 and "found rolls for turn 3, which is finished" in plain.stderr
    assert read_log(folder / "turns" / "turn-03.yaml")[0] == read_log(REFERENCE / "turns" / "turn-03.yaml")[0]
    amended = run_cli("roll", str(folder), *change, "--amend")
    assert amended.returncode == 0, amended.stderr
    assert "1st Kuban Cossack Div: its order done, now held" in amended.stdout
    assert "taken out, to report again (kitgen report): Tsaritsyn (5313)" in amended.stdout
    log = read_log(folder / "turns" / "turn-03.yaml")[0]
    assert [b.hex for b in log.battles] == ["5212"]
    after = status(folder)
    assert after["stage"] == "playing" and not after["over"] and " win" not in after["ending"]
    assert any(o["kind"] == "no_report" and o["hex"] == "5313" for o in after["owed"])


# --- a verdict announced only when final -------------------------------------------------------


def test_the_result_waits_for_the_last_turns_battles(tmp_path: Path) -> None:
    """Ruling (2026-12-05): "The scenario's result is announced only after its last turn is finished."
    Turn 3 with its battles unreported names no winner in status, the packet's checklist or state;
    reported, the Whites win."""
    folder = sample(tmp_path, 3, no_battles)
    said = status(folder)
    assert said["stage"] == "playing" and not said["over"]
    assert "waits" in said["ending"] and " win" not in said["ending"]
    text = run_cli("status", str(folder)).stdout
    assert "turn 3 being played" in text and "win" not in text.split("Slips to place")[1]
    state = json.loads(run_cli("state", str(folder), "--format", "json").stdout)["ending"]
    assert state["over"] is False and state["pending"] is True and state["winners"] == []
    from kitgen.record.battles import report_battles

    report_battles(folder, reference_battles(3))
    done = status(folder)
    assert done["stage"] == "over" and "the Whites win" in done["ending"]
    assert "being played" not in run_cli("status", str(folder)).stdout
    assert json.loads(run_cli("state", str(folder), "--format", "json").stdout)["ending"]["winners"] == ["whites"]


def test_status_names_the_turn_as_it_stands(tmp_path: Path) -> None:
    """Turn 1 just started is being played, not "Turn 1 of 3 played"."""
    folder = sample(tmp_path, 0)
    assert status(folder)["stage"] == "unstarted"
    assert run_cli("next", str(folder)).returncode == 0
    said = status(folder)
    assert said["stage"] == "playing" and "Turn 1 of 3 being played" in said["ending"]


# --- rolls and battles at the keyboard ---------------------------------------------------------


def test_rolls_entered_at_the_keyboard_are_checked_as_given(tmp_path: Path) -> None:
    """`kitgen roll` where the table rolls asks for each roll the turn still needs, in the order
    the turn makes them; a wrong answer is asked again; the log gets the rolls of the reference."""
    turn1 = "II.C r_communists command roll, turn 1"
    folder = sample(tmp_path, 1, without("II."))
    asked = [o["purpose"] for o in status(folder)["owed"] if o["kind"] == "roll_missing"]
    assert turn1 in asked
    reference = {g.purpose: g.value for g in read_log(REFERENCE / "turns" / "turn-01.yaml")[0].dice}
    answers = "".join(f"{reference[p]}\n" for p in asked)
    done = run_cli("roll", str(folder), answers="11\n" + answers)  # 11: no face of a D10 or a D6
    assert done.returncode == 0, done.stderr
    assert "found '11'" in done.stderr
    assert {g.purpose: g.value for g in read_log(folder / "turns" / "turn-01.yaml")[0].dice} == reference
    assert status(folder)["finished"]


def test_battles_entered_at_the_keyboard_equal_the_reference(tmp_path: Path) -> None:
    """`kitgen report` asks contact by contact: the storm of Tsaritsyn and of Voroponovo and
    Basargino of turn 3, entered as the reference reports them, give its battles, as data; a
    retreat into a hex the rules bar is no choice it offers."""
    folder = sample(tmp_path, 3, no_battles)
    lines = [
        # Voroponovo (5212): the Whites win; the 38th, the 39th (losing 1 infantry) and Zhloba's
        # brigade fall back north (5211); the 1st Kuban Corps loses 1 cavalry
        "whites",
        "0",  # 38th Rifle Div
        "0",
        "0",
        "0",
        "5211",
        "1",  # 39th Rifle Div
        "0",
        "0",
        "0",
        "5211",
        "0",  # Zhloba's Separate Cavalry Brigade
        "0",
        "5211",
        "1",  # 1st Kuban Cavalry Corps
        "0",
        # Tsaritsyn (5313): the Whites win; the Reds fall back north along the Volga (5312)
        "whites",
        "2",
        "0",
        "0",
        "0",
        "N",  # 37th Rifle Div
        "1",
        "0",
        "N",  # Tsaritsyn Fortress Artillery
        "1",
        "0",
        "N",  # Tsaritsyn Communist Detachment
        "0",
        "0",  # 1st Kuban Cossack Div
        "1",
        "0",  # 3rd Kuban Cossack Div
        "1",
        "0",
        "0",
        "0",  # 7th Infantry Div
        "0",
        "0",  # Tank Detachment
    ]
    done = run_cli("report", str(folder), answers="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr + done.stdout
    assert as_set(read_log(folder / "turns" / "turn-03.yaml")[0].battles) == as_set(reference_battles(3))
    assert status(folder)["stage"] == "over"
    assert run_cli("validate", str(folder)).returncode == 0


def test_battles_wait_for_the_rolls_that_decide_the_contacts(tmp_path: Path) -> None:
    """Ruling (2026-12-05): "every roll that decides a move is in the log" before the contacts are
    final: `kitgen report` refuses to take battles while one is missing, naming it."""
    folder = sample(tmp_path, 3, lambda d: (no_battles(d), without("II.C Wrangel")(d)))
    done = run_cli("report", str(folder))
    assert done.returncode == 2 and "II.C Wrangel command roll, turn 3" in done.stderr


# --- the record: one step back; the folder you are in ------------------------------------------


def test_undo_puts_the_last_write_back_and_again_brings_it_back(tmp_path: Path) -> None:
    """`kitgen undo`: the latest backup, named, put back with restore's guards."""
    folder = sample(tmp_path, 3, without("II.C Wrangel"))
    before = (folder / "turns" / "turn-03.yaml").read_bytes()
    assert run_cli("roll", str(folder), "--give", "II.C Wrangel command roll, turn 3=3").returncode == 0
    after = (folder / "turns" / "turn-03.yaml").read_bytes()
    undone = run_cli("undo", str(folder))
    assert undone.returncode == 0 and "turn-03.yaml.1, the latest backup" in undone.stdout
    assert (folder / "turns" / "turn-03.yaml").read_bytes() == before
    assert run_cli("undo", cwd=folder).returncode == 0
    assert (folder / "turns" / "turn-03.yaml").read_bytes() == after


def test_commands_run_inside_the_campaign_folder(tmp_path: Path) -> None:
    """As git finds its repository: no folder named, the one you are in or the nearest above it.
    The campaign's name is its folder's, however the folder was given."""
    folder = sample(tmp_path, 2)
    inside = run_cli("status", cwd=folder / "turns")
    assert (
        inside.returncode == 0 and "turn 2 finished" in inside.stdout and "`kitgen next` starts turn 3" in inside.stdout
    )
    assert run_cli("validate", cwd=folder).returncode == 0
    assert run_cli("next", ".", cwd=folder).returncode == 0
    head = (folder / "turns" / "turn-03.yaml").read_text(encoding="utf-8").splitlines()[1]
    assert head.startswith("# club: a campaign of The Red Verdun")
    history = json.loads(run_cli("history", "--format", "json", cwd=folder).stdout)
    assert history["campaign"] == "club"
    nowhere = run_cli("status", cwd=tmp_path)
    assert nowhere.returncode == 2 and "found no campaign.yaml" in nowhere.stderr


def test_no_form_for_a_turn_past_the_end(tmp_path: Path) -> None:
    """After the scenario's end, `orders form`, `turn` and `orders import` say the same: it ended."""
    folder = sample(tmp_path)
    said = [
        run_cli("orders", "form", str(folder), "--faction", "reds", "--out", str(tmp_path / "f.pdf")),
        run_cli("turn", str(folder), "--out", str(tmp_path / "p")),
    ]
    assert all(r.returncode == 1 and "the scenario ended after turn 3" in r.stderr for r in said)
    assert not (tmp_path / "f.pdf").exists()
    form = tmp_path / "reds.csv"
    form.write_text("id,path,carry,special\nr_37th_div,,,\n", encoding="utf-8")
    imported = run_cli("orders", "import", str(form), "--campaign", str(folder))
    assert imported.returncode == 1 and "the scenario ended after turn 3" in imported.stderr


@pytest.mark.parametrize("comment", [True, False])
def test_the_turn_being_played_does_not_hang_on_a_comment(tmp_path: Path, comment: bool) -> None:
    """Whether a person deleted the log's first line or not, every command agrees on the turn
    being played (issue 41, 3): the last log's while it is unfinished, else the next."""
    from kitgen.engine.basis import turn_basis

    folder = sample(tmp_path, 2)
    assert run_cli("next", str(folder)).returncode == 0
    log = folder / "turns" / "turn-03.yaml"
    if not comment:
        log.write_text(log.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
    for faction in ("reds", "whites"):  # both hand in their forms blank: every unit holds
        form = tmp_path / f"{faction}.csv"
        assert run_cli("orders", "form", str(folder), "--faction", faction, "--csv", "--out", str(form)).returncode == 0
        assert run_cli("orders", "import", str(form), "--campaign", str(folder)).returncode == 0
    owed = status(folder)
    assert owed["turn"] == 3 and owed["stage"] == "playing"  # the rolls the table makes are owed
    assert turn_basis(load_campaign(folder)).turn == 3
    given = [a for o in owed["owed"] if o["kind"] == "roll_missing" for a in ("--give", f"{o['purpose']}=5")]
    assert run_cli("roll", str(folder), *given).returncode == 0
    assert status(folder)["stage"] == "over"  # turn 3, the last, finished
    form = tmp_path / "again.csv"
    form.write_text("id,path,carry,special\nr_37th_div,,,\n", encoding="utf-8")
    for said in (
        run_cli("orders", "form", str(folder), "--faction", "reds", "--out", str(tmp_path / "f.pdf")),
        run_cli("orders", "import", str(form), "--campaign", str(folder)),
    ):
        assert said.returncode == 1 and "the scenario ended after turn 3" in said.stderr


def test_undo_takes_back_what_next_started(tmp_path: Path) -> None:
    """`kitgen undo` after `kitgen next` takes the new log away (kept as a backup), never the
    turn before it; undone again, the log is back."""
    folder = sample(tmp_path, 2)
    before = {p.name: p.read_bytes() for p in (folder / "turns").iterdir()}
    started = folder / "turns" / "turn-03.yaml"
    assert run_cli("next", str(folder)).returncode == 0
    made = started.read_bytes()
    undone = run_cli("undo", str(folder))
    assert undone.returncode == 0 and "took away turns/turn-03.yaml" in undone.stdout
    assert {p.name: p.read_bytes() for p in (folder / "turns").iterdir()} == before
    assert run_cli("undo", str(folder)).returncode == 0
    assert started.read_bytes() == made


def test_a_battle_reported_again_at_the_keyboard_replaces_its_report(tmp_path: Path) -> None:
    """Every contact reported: `kitgen report --turn 3 --amend` offers one to report again and
    replaces that one report (the other stays as it was)."""
    folder = sample(tmp_path)
    answers = ["5212", "reds", *["0"] * 12, "1"]  # Voroponovo: the Reds win; the Kuban corps retreats
    done = run_cli("report", str(folder), "--turn", "3", "--amend", answers="\n".join(answers) + "\n")
    assert done.returncode == 0, done.stderr + done.stdout
    battles = {b.hex: b for b in read_log(folder / "turns" / "turn-03.yaml")[0].battles}
    assert battles["5212"].winner == "reds" and battles["5313"] == reference_battles(3)[0]
    assert len(read_log(folder / "turns" / "turn-03.yaml")[0].battles) == 2


def test_playing_on_past_the_last_turn_says_so(tmp_path: Path) -> None:
    """After the last turn, a club playing on (play_on) is told it plays past the end, with no
    result waiting: the result was judged after turn 3."""
    folder = sample(tmp_path)
    edit(folder / "campaign.yaml", "dice: table", "dice: table\nplay_on: true")
    assert run_cli("next", str(folder)).returncode == 0
    said = status(folder)
    assert said["turn"] == 4 and "after the scenario's last turn (3): the club plays on" in said["ending"]
