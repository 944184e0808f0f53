"""The campaign record (issue 22): a turn's life from orders to battles, imports that never lose
or rewrite, backups and restores. Each case plays the umpire's week through the command line on
a copy of the sample campaign (six turns played; turn 6 finished)."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from kitgen.campaign import load_campaign
from kitgen.engine.replay import replay
from kitgen.engine.turnlog import MoveOrder, TurnLog
from tests.conftest import SAMPLE, run_cli

NEXT = 7
"""The sample campaign has played six turns: `kitgen next` starts the seventh."""


@pytest.fixture
def camp(tmp_path: Path) -> Path:
    dest = tmp_path / "campaign"
    shutil.copytree(SAMPLE, dest)
    return dest


@pytest.fixture
def started(camp: Path) -> Path:
    """The sample campaign with turn 7 started by `kitgen next`."""
    done = run_cli("next", str(camp))
    assert done.returncode == 0, done.stderr
    return camp


def log(camp: Path, turn: int = NEXT) -> Path:
    return camp / "turns" / f"turn-{turn:02d}.yaml"


def read(path: Path) -> TurnLog:
    return TurnLog.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def step(camp: Path, unit: str, k: int = 0) -> tuple[str, str]:
    """A unit's hex after the last turn and its k-th neighbour."""
    campaign = load_campaign(camp)
    found = replay(campaign).unit(unit)
    assert found is not None
    return found.hex, campaign.board.neighbours(found.hex)[k]


def sheet(camp: Path, tmp: Path, rows: dict[str, str], name: str = "orders.csv", faction: str = "whites") -> Path:
    """A spreadsheet of only the rows given (unit -> path), as a player sends a few orders."""
    full = tmp / f"full-{faction}.csv"
    assert run_cli("orders", "form", str(camp), "--faction", faction, "--csv", "--out", str(full)).returncode == 0
    table = list(csv.DictReader(full.read_text(encoding="utf-8").splitlines()))
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(table[0]), lineterminator="\n")
    writer.writeheader()
    for row in table:
        if row["id"] in rows:
            writer.writerow({**row, "path": rows[row["id"]]})
    path = tmp / name
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def hand_typed(camp: Path, lines: str) -> None:
    """`lines` typed by the umpire under the Whites' key of the log's orders."""
    text = log(camp).read_text(encoding="utf-8")
    at = text.index("\n  whites:", text.index("\norders:"))
    at = text.index("\n", at + 1) + 1
    log(camp).write_text(text[:at] + lines + text[at:], encoding="utf-8")


def imported(camp: Path, form: Path, *extra: str) -> subprocess.CompletedProcess[str] | object:
    return run_cli("orders", "import", str(form), "--campaign", str(camp), *extra)


def trimmed(camp: Path, last: int, edit: object = None) -> Path:
    """The campaign with the logs after `last` taken away, and the last one's data changed by
    `edit` (a function of the loaded YAML)."""
    for path in (camp / "turns").iterdir():
        if int(path.stem.split("-")[1]) > last:
            path.unlink()
    if edit is not None:
        data = yaml.safe_load(log(camp, last).read_text(encoding="utf-8"))
        edit(data)  # type: ignore[operator]
        log(camp, last).write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return camp


# --- a turn's life: the turn is finished when every contact has its battle ---------------------


def test_next_refuses_the_untouched_template_by_every_spelling_of_the_folder(started: Path) -> None:
    """RULES-NOTES 2026-12-02: the next turn's log is started only after the turn is finished; a
    log still as `kitgen next` wrote it is no turn played, whether the folder is named `C`, `.`
    or by its absolute path."""
    for args, cwd in (
        (("next", str(started)), None),
        (("next", "."), started),
        (("next", str(started.resolve())), None),
    ):
        done = run_cli(*args, cwd=cwd)
        assert done.returncode == 1, (args, done.stdout)
        assert "turn-07.yaml:1:1: found the log of turn 7 still as kitgen next wrote it" in done.stderr
    assert not log(started, NEXT + 1).exists()


def test_II_B_the_forgotten_battle_stops_next_and_validate_strict(camp: Path) -> None:
    """Turn 2's contacts (3414 and 2918) with their battles taken out of the log: `next` refuses,
    naming each contact and the units it must list; `validate` warns, and `--strict` fails."""
    trimmed(camp, 2, lambda d: d.pop("battles"))
    done = run_cli("next", str(camp))
    assert done.returncode == 1
    assert "found the contact in 3414 with no battle reported there" in done.stderr
    assert "r_13th_army_42nd" in done.stderr and "found the contact in 2918" in done.stderr
    assert not log(camp, 3).exists()
    checked = run_cli("validate", str(camp))
    assert checked.returncode == 0 and "warning: found the contact in 3414" in checked.stdout
    assert run_cli("validate", "--strict", str(camp)).returncode == 1


def test_II_B_a_report_that_leaves_out_a_unit_in_the_contact(camp: Path) -> None:
    """A battle report must list every unit in the contact (RULES-NOTES 2026-12-02): w_markov_1
    stood in 3414 and is left out."""

    def drop_markov(data: dict[str, list[dict[str, object]]]) -> None:
        data["battles"][0]["units"] = [u for u in data["battles"][0]["units"] if u["unit"] != "w_markov_1"]

    trimmed(camp, 2, drop_markov)
    done = run_cli("next", str(camp))
    assert done.returncode == 1
    assert "found the battle in 3414 leaving out w_markov_1" in done.stderr
    status = json.loads(run_cli("status", str(camp), "--format", "json").stdout)
    assert [(o["kind"], o["hex"], o["units"]) for o in status["owed"]] == [("left_out", "3414", ["w_markov_1"])]
    assert status["finished"] is False


def test_II_B_a_turn_owing_a_unit_left_out_is_still_the_one_being_played(camp: Path) -> None:
    """The packets, as `kitgen status` and `next`, hold the turn whose battles are reported but
    which still owes (w_markov_1 left out of the report in 3414): the umpire's checklist names
    what is owed, and the week is not moved on to the next turn."""
    from kitgen.engine.basis import turn_basis

    def drop_markov(data: dict[str, list[dict[str, object]]]) -> None:
        data["battles"][0]["units"] = [u for u in data["battles"][0]["units"] if u["unit"] != "w_markov_1"]

    trimmed(camp, 2, drop_markov)
    assert turn_basis(load_campaign(camp)).turn == 2
    shutil.copyfile(SAMPLE / "turns" / "turn-02.yaml", log(camp, 2))  # the report whole: turn 3 is next
    assert turn_basis(load_campaign(camp)).turn == 3


def test_next_force_goes_on_and_the_new_log_says_what_it_skipped(camp: Path) -> None:
    trimmed(camp, 2, lambda d: d.pop("battles"))
    done = run_cli("next", "--force", str(camp))
    assert done.returncode == 0, done.stderr
    head = log(camp, 3).read_text(encoding="utf-8").splitlines()[:5]
    assert head[1] == "# kitgen next --force: turn 2 was left unfinished:"
    assert any("found the contact in 3414 with no battle reported there" in line for line in head)
    assert read(log(camp, 3)).turn == 3


def test_status_shows_orders_in_rolls_battles_and_what_next_would_refuse(started: Path, tmp_path: Path) -> None:
    """RULES-NOTES 2026-12-05: "A turn is finished only when nothing still to be written can change
    its contacts or battles: every roll that decides a move is in the log, and every contact has
    its battle." One faction's orders in leaves the others' owed, and the rolls the table makes
    (the sample's campaign.yaml: `dice: table`); all of them in, the turn is finished."""
    before = json.loads(run_cli("status", str(started), "--format", "json").stdout)
    assert before["turn"] == NEXT and before["finished"] is False and before["stage"] == "playing"
    assert [o["kind"] for o in before["owed"]] == ["untouched"]
    assert not any(f["handed_in"] for f in before["factions"])
    start, to = step(started, "w_crimea_azov_2")
    assert imported(started, sheet(started, tmp_path, {"w_crimea_azov_2": to})).returncode == 0
    after = json.loads(run_cli("status", str(started), "--format", "json").stdout)
    whites = next(f for f in after["factions"] if f["faction"] == "whites")
    assert whites["handed_in"] and whites["ordered"] == 1 and whites["units"] > 1
    owed = {(o["kind"], o["faction"] or o["purpose"]) for o in after["owed"]}
    out = {f for kind, f in owed if kind == "orders_out"}
    assert out == {"reds", "ukrainians", "makhnovists"} and after["finished"] is False
    missing = {p for kind, p in owed if kind == "roll_missing"}
    assert f"II.C Slashchev command roll, turn {NEXT}" in missing  # the brigade's commander rolls
    text = run_cli("status", str(started)).stdout
    assert f"turn {NEXT} being played" in text and "Whites: in, 1 of" in text and "Reds: NOT IN, 0 of" in text
    for faction in sorted(out):  # each hands in its form blank: its units hold
        blank = tmp_path / f"{faction}.csv"
        assert (
            run_cli("orders", "form", str(started), "--faction", faction, "--csv", "--out", str(blank)).returncode == 0
        )
        assert imported(started, blank).returncode == 0
    asked = [o["purpose"] for o in json.loads(run_cli("status", str(started), "--format", "json").stdout)["owed"]]
    given = [arg for purpose in asked for arg in ("--give", f"{purpose}=1")]
    rolled = run_cli("roll", str(started), *given)
    assert rolled.returncode == 0, rolled.stderr
    done = json.loads(run_cli("status", str(started), "--format", "json").stdout)
    assert done["owed"] == [] and done["finished"] is True and done["stage"] == "finished"
    assert f"turn {NEXT} finished" in run_cli("status", str(started)).stdout


# --- imports go into the turn being played -----------------------------------------------------


def test_an_import_before_next_creates_no_log(camp: Path, tmp_path: Path) -> None:
    """Turn 6 is played; no log of turn 7 yet: an import never starts a turn."""
    _, to = step(camp, "w_crimea_azov_2")
    done = imported(camp, sheet(camp, tmp_path, {"w_crimea_azov_2": to}), "--turn", str(NEXT))
    assert done.returncode == 1 and "found no log of turn 7 (the turn being played is 6)" in done.stderr
    assert not log(camp).exists()


def test_an_import_into_a_later_turn_is_refused(started: Path, tmp_path: Path) -> None:
    _, to = step(started, "w_crimea_azov_2")
    done = imported(started, sheet(started, tmp_path, {"w_crimea_azov_2": to}), "--turn", str(NEXT + 1))
    assert done.returncode == 1 and "found no log of turn 8" in done.stderr
    assert not log(started, NEXT + 1).exists()


def test_an_import_into_a_past_turn_needs_amend_and_replays_the_later_turns(camp: Path, tmp_path: Path) -> None:
    """Turn 6 of the sample, played before turn 7 started: a form for it is refused without
    `--amend`; with it, the later turn is replayed first."""
    before = log(camp, 6).read_bytes()
    assert run_cli("next", str(camp)).returncode == 0
    done = imported(camp, sheet(camp, tmp_path, {"w_crimea_azov_2": ""}), "--turn", "6")
    assert done.returncode == 2 and "found orders for turn 6, which is finished" in done.stderr
    assert log(camp, 6).read_bytes() == before


def test_amend_that_breaks_a_later_turn_writes_nothing(camp: Path, tmp_path: Path) -> None:
    """Turn 1's order of a unit that turn 2's battle needs where it went: amended to hold, turn 2
    no longer plays, and the import names where."""
    trimmed(camp, 2)
    first = read(log(camp, 1))
    moved = {o.unit for orders in first.orders.values() for o in orders}
    fought = {p.unit for b in read(log(camp, 2)).battles for p in b.units}
    unit = sorted(moved & fought)[0]
    faction = next(f for f, orders in first.orders.items() if any(o.unit == unit for o in orders))
    before = log(camp, 1).read_bytes()
    blank = _turn_sheet(camp, tmp_path, faction, unit, turn=1)
    done = imported(camp, blank, "--turn", "1", "--amend")
    assert done.returncode == 1, done.stdout
    assert "found that turn 1 no longer plays with the amended orders" in done.stderr
    assert "turn-02.yaml" in done.stderr
    assert log(camp, 1).read_bytes() == before and not (camp / "backups").exists()


def test_amend_of_a_past_turn_lands_when_the_later_turns_still_play(started: Path, tmp_path: Path) -> None:
    """Turn 6 amended while turn 7 is started: a unit that held gets an order, turn 7 replays,
    and the log of turn 6 changes only on the lines of that order."""
    state = replay(load_campaign(started), 5)
    six = read(log(started, 6))
    ordered = {o.unit for orders in six.orders.values() for o in orders}
    unit = next(u for u in state.units if u.faction == "whites" and u.id not in ordered and u.aboard is None)
    to = load_campaign(started).board.neighbours(unit.hex)[0]
    form = tmp_path / "six.csv"
    header = "id,hex,type,stands,mp,supply,commander,target,path,carry,special\n"
    form.write_text(header + f"{unit.id},,,,,,,,{to},,\n", encoding="utf-8")
    before = log(started, 6).read_text(encoding="utf-8").splitlines()
    done = imported(started, form, "--turn", "6", "--amend")
    assert done.returncode == 0, done.stderr
    after = log(started, 6).read_text(encoding="utf-8").splitlines()
    others = [line for line in after if line not in before and unit.id not in line]
    assert "handed_in: [ukrainians, makhnovists, whites]" in others
    rolls = [line for line in others if not line.startswith("handed_in:")]
    # the command roll the new order asks for, written for the table to make (the sample: `dice: table`)
    assert len(rolls) == 1 and " command roll, turn 6" in rolls[0] and rolls[0].strip().endswith("value: }")
    assert run_cli("validate", str(started)).returncode == 0


def _turn_sheet(camp: Path, tmp: Path, faction: str, unit: str, *, turn: int) -> Path:
    """A one-row spreadsheet for `unit` with a blank path (the unit holds), for a past turn."""
    path = tmp / f"{unit}.csv"
    header = "id,hex,type,stands,mp,supply,commander,target,path,carry,special\n"
    path.write_text(header + f"{unit},,,,,,,,,,\n", encoding="utf-8")
    return path


def test_a_stale_form_is_refused_unless_stale_ok(started: Path, tmp_path: Path) -> None:
    """A form printed, then a battle of the turn before corrected: the state the form shows is
    gone. It is refused, naming the states, and imported with `--stale-ok`."""
    form = tmp_path / "whites.pdf"
    assert run_cli("orders", "form", str(started), "--faction", "whites", "--out", str(form)).returncode == 0
    six = log(started, 6)
    text = six.read_text(encoding="utf-8")
    six.write_text(text.replace("lost: {infantry: 1}", "lost: {infantry: 2}", 1), encoding="utf-8")
    assert text != six.read_text(encoding="utf-8")
    done = imported(started, form)
    assert done.returncode == 1 and "found a form printed from state" in done.stderr
    assert "the log of turn 6 changed since it was printed" in done.stderr
    assert imported(started, form, "--stale-ok").returncode == 0


# --- merged unit by unit, and said so -------------------------------------------------------------


def test_a_one_row_sheet_keeps_the_hand_typed_order_of_another_unit(started: Path, tmp_path: Path) -> None:
    a_start, a_to = step(started, "w_crimea_azov_2")
    b_start, b_to = step(started, "w_markov_1")
    hand_typed(started, f"    - {{unit: w_markov_1, move: ['{b_start}', '{b_to}']}}   # typed by the umpire\n")
    done = imported(started, sheet(started, tmp_path, {"w_crimea_azov_2": a_to}))
    assert done.returncode == 0, done.stderr
    assert "1 added, 1 kept" in done.stdout and "kept (not on the form: their orders stay): w_markov_1" in done.stdout
    orders = read(log(started)).orders["whites"]
    assert MoveOrder(unit="w_markov_1", move=[b_start, b_to]) in orders
    assert MoveOrder(unit="w_crimea_azov_2", move=[a_start, a_to]) in orders
    assert (
        f"- {{unit: w_markov_1, move: ['{b_start}', '{b_to}']}}   # typed by the umpire\n" in log(started).read_text()
    )


def test_replaced_orders_show_old_and_new_and_a_blank_row_holds(started: Path, tmp_path: Path) -> None:
    start, first = step(started, "w_crimea_azov_2", 0)
    _, second = step(started, "w_crimea_azov_2", 1)
    assert imported(started, sheet(started, tmp_path, {"w_crimea_azov_2": first})).returncode == 0
    done = imported(started, sheet(started, tmp_path, {"w_crimea_azov_2": second}, "again.csv"))
    assert done.returncode == 0
    assert "1 replaced" in done.stdout and f"'{first}'" in done.stdout and f"'{second}'" in done.stdout
    blank = imported(started, sheet(started, tmp_path, {"w_crimea_azov_2": ""}, "blank.csv"))
    assert blank.returncode == 0 and "1 holds" in blank.stdout and "now holds" in blank.stdout
    assert read(log(started)).orders.get("whites", []) == []


def test_block_style_and_multi_line_orders_keep_their_comments_and_crlf_stays(started: Path, tmp_path: Path) -> None:
    b_start, b_to = step(started, "w_markov_1")
    _, a_to = step(started, "w_crimea_azov_2")
    hand = (
        "    - unit: w_markov_1   # the umpire's own\n"
        f"      move:\n        - '{b_start}'\n        - '{b_to}'   # the river road\n"
    )
    hand_typed(started, hand)
    log(started).write_bytes(log(started).read_text(encoding="utf-8").replace("\n", "\r\n").encode("utf-8"))
    before = log(started).read_bytes()
    assert imported(started, sheet(started, tmp_path, {"w_crimea_azov_2": a_to})).returncode == 0
    after = log(started).read_bytes()
    assert after.count(b"\n") == after.count(b"\r\n")  # no mixed line ends
    assert hand.replace("\n", "\r\n").encode("utf-8") in after
    new_lines = set(after.split(b"\r\n")) - set(before.split(b"\r\n"))
    assert all(
        b"w_crimea_azov_2" in line
        or b"handed_in" in line
        or line.strip() == b"- whites"
        or (b" command roll, turn 7" in line and b"value: }" in line)  # the roll the order asks for, to make
        for line in new_lines
    )


# --- void orders are lawful: imported as written, with a warning ----------------------------------


def test_a_void_order_is_imported_with_a_warning_and_strict_refuses(started: Path, tmp_path: Path) -> None:
    """A hex two hexes away is no path step: the order is void by the rules (the unit holds) and
    imported as written, with its rule; `--strict` refuses the form instead."""
    campaign = load_campaign(started)
    start, to = step(started, "w_crimea_azov_2")
    far = next(n for n in campaign.board.neighbours(to) if n != start and n not in campaign.board.neighbours(start))
    form = sheet(started, tmp_path, {"w_crimea_azov_2": f"{start} {far}"})
    strict = imported(started, form, "--strict")
    assert strict.returncode == 1 and "found an order the rules make void" in strict.stderr
    assert read(log(started)).orders.get("whites", []) == []
    done = imported(started, form)
    assert done.returncode == 0, done.stderr
    assert "warning: found an order the rules make void, imported as written" in done.stderr
    assert read(log(started)).orders["whites"] == [MoveOrder(unit="w_crimea_azov_2", move=[start, far])]


# --- writes that never lose ----------------------------------------------------------------------


def test_eight_imports_of_different_factions_at_once_all_land(started: Path, tmp_path: Path) -> None:
    """Eight `kitgen orders import` processes at the same moment, two units of each of the four
    factions: the campaign's lock makes them take turns, and every order lands."""
    state = replay(load_campaign(started))
    campaign = load_campaign(started)
    chosen: list[tuple[str, str, str, str]] = []
    for faction in ("reds", "whites", "ukrainians", "makhnovists"):
        units = [u for u in state.units if u.faction == faction and u.aboard is None and not u.immobilised]
        for u in units[:2]:
            chosen.append((faction, u.id, u.hex, campaign.board.neighbours(u.hex)[0]))
    assert len(chosen) == 8
    forms = [sheet(started, tmp_path, {unit: to}, f"{unit}.csv", faction) for faction, unit, _, to in chosen]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "kitgen", "orders", "import", str(f), "--campaign", str(started)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=env,
        )
        for f in forms
    ]
    for run in runs:
        out, err = run.communicate(timeout=300)
        assert run.returncode == 0, err.decode()
    final = read(log(started))
    for faction, unit, start, to in chosen:
        assert MoveOrder(unit=unit, move=[start, to]) in final.orders.get(faction, []), unit
    assert sorted(final.handed_in) == ["makhnovists", "reds", "ukrainians", "whites"]
    assert len(list((started / "backups").glob("turn-07.yaml.*"))) == 8


def test_an_editor_save_during_an_import_is_kept_and_the_import_refused(
    started: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The umpire's editor saves the log after the import read it: the import sees it before the
    rename, writes nothing, and the edit stays."""
    import kitgen.record.importer as importer

    _, to = step(started, "w_crimea_azov_2")
    form = sheet(started, tmp_path, {"w_crimea_azov_2": to})
    edited = log(started).read_text(encoding="utf-8") + "# the umpire's edit\n"
    real = importer.splice

    def saved_meanwhile(*args: object) -> str:
        log(started).write_text(edited, encoding="utf-8")
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(importer, "splice", saved_meanwhile)
    refused_and_kept(started, form, edited)


def refused_and_kept(camp: Path, form: Path, edited: str) -> None:
    """The import sees the editor's save: refused, the edit on disk, no backup left."""
    import kitgen.record.importer as importer
    from kitgen.errors import KitgenError

    with pytest.raises(KitgenError) as refused:
        importer.import_orders(camp, form)
    assert "found the log changed on disk while kitgen was working on it" in str(refused.value)
    assert log(camp).read_text(encoding="utf-8") == edited
    assert not list((camp / "backups").glob("turn-07.yaml.*"))


KILL_POINTS = [("_write_new", 1), ("_write_new", 2), ("_write_new", 3), ("replace", 1), ("replace", 2)]
KILL_POINTS += [("_exchange", 1), ("rename", 1)]
"""An import writes three files, each a new file: the backups' index (its entry first), the backup
under a pending name, and the log; the index and the backup renamed into place, the log exchanged
with the one it replaces (checked unchanged in the same step), and only then the backup given its
name."""


@pytest.mark.parametrize(("point", "nth"), KILL_POINTS)
def test_kill_9_at_each_step_of_an_import_loses_nothing(started: Path, tmp_path: Path, point: str, nth: int) -> None:
    """An import killed (SIGKILL) at the n-th file written, renamed into place or entered in the
    backups' index: the log is the old one or the new one, whole; every backup is a whole earlier
    version; and the import run again lands and leaves no temporary file."""
    _, to = step(started, "w_crimea_azov_2")
    form = sheet(started, tmp_path, {"w_crimea_azov_2": to})
    old = log(started).read_bytes()
    pid = os.fork()
    if pid == 0:  # the child: dies at the chosen step
        try:
            _die_at(point, nth)
            from kitgen.record.importer import import_orders

            import_orders(started, form)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    now = log(started).read_bytes()
    assert now == old or read(log(started)).orders["whites"][0].unit == "w_crimea_azov_2"
    for backup in (started / "backups").glob("turn-07.yaml.*"):
        assert backup.read_bytes() == old
    assert "unknown" not in run_cli("backups", str(started)).stdout
    done = imported(started, form)
    assert done.returncode == 0, done.stderr
    listed = json.loads(run_cli("backups", str(started), "--format", "json").stdout)["backups"]
    assert [b["command"] for b in listed] == ["orders import"]
    assert (started / "backups" / listed[0]["name"]).read_bytes() == old
    assert read(log(started)).orders["whites"] == [MoveOrder(unit="w_crimea_azov_2", move=[log_start(started), to])]
    leftovers = [p.name for folder in (started / "turns", started / "backups") for p in folder.iterdir()]
    assert not [n for n in leftovers if ".kitgen-" in n]
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def log_start(camp: Path) -> str:
    found = replay(load_campaign(camp), NEXT - 1).unit("w_crimea_azov_2")
    assert found is not None
    return found.hex


def _die_at(point: str, nth: int) -> None:
    """Make the process kill itself at the n-th call of one step of the write."""
    import kitgen.outputs as outputs

    calls = {"n": 0}

    def dying(real: object) -> object:
        def call(*args: object, **kwargs: object) -> object:
            calls["n"] += 1
            if calls["n"] == nth:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*args, **kwargs)  # type: ignore[operator]

        return call

    if point == "_write_new":
        outputs._write_new = dying(outputs._write_new)  # type: ignore[assignment]
    elif point == "_exchange":
        outputs._exchange = dying(outputs._exchange)  # type: ignore[assignment]
    elif point == "replace":
        outputs.os.replace = dying(os.replace)  # type: ignore[assignment]
    else:
        os.rename = dying(os.rename)  # type: ignore[assignment]


# --- backups you can use ---------------------------------------------------------------------------


def test_backups_list_and_restore_puts_one_back_and_backs_up_what_it_replaces(started: Path, tmp_path: Path) -> None:
    template = log(started).read_bytes()
    _, to = step(started, "w_crimea_azov_2")
    assert imported(started, sheet(started, tmp_path, {"w_crimea_azov_2": to})).returncode == 0
    merged = log(started).read_bytes()
    listed = json.loads(run_cli("backups", str(started), "--format", "json").stdout)["backups"]
    assert [(b["name"], b["turn"], b["command"]) for b in listed] == [("turn-07.yaml.1", 7, "orders import")]
    text = run_cli("backups", str(started)).stdout
    assert "turn-07.yaml.1  turn 7  replaced" in text and "by orders import" in text
    done = run_cli("restore", str(started), "turn-07.yaml.1")
    assert done.returncode == 0, done.stderr
    assert log(started).read_bytes() == template
    assert (started / "backups" / "turn-07.yaml.2").read_bytes() == merged
    listed = json.loads(run_cli("backups", str(started), "--format", "json").stdout)["backups"]
    assert listed[1]["command"] == "restore turn-07.yaml.1"
    wrong = run_cli("restore", str(started), "turn-07.yaml.9")
    assert wrong.returncode == 2 and "found no backup 'turn-07.yaml.9'" in wrong.stderr


@pytest.mark.parametrize("folder", ["backups", "turns"])
def test_a_symlinked_turns_or_backups_folder_is_refused_by_the_import(
    started: Path, tmp_path: Path, folder: str
) -> None:
    _, to = step(started, "w_crimea_azov_2")
    form = sheet(started, tmp_path, {"w_crimea_azov_2": to})
    elsewhere = tmp_path / "elsewhere"
    if folder == "turns":
        shutil.move(started / "turns", elsewhere)
    else:
        shutil.move(started / "backups", elsewhere)  # `kitgen next` noted its new log there
    (started / folder).symlink_to(elsewhere, target_is_directory=True)
    done = imported(started, form)
    assert done.returncode != 0
    assert "symbolic link" in done.stderr
    assert not list(elsewhere.glob("*.yaml.*"))


# --- review cases: the swap, failed writes, partisans, comments, line ends, restore's guards ----


@pytest.mark.parametrize("moment", ["while the new log is written", "in the very swap"])
def test_an_editor_save_at_the_moment_of_the_swap_is_kept(
    started: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    """The save lands after the import read the log: while the new text is written beside it, or
    between the last look and the atomic exchange. The swap sees it, puts it back, and refuses."""
    import kitgen.outputs as outputs

    _, to = step(started, "w_crimea_azov_2")
    form = sheet(started, tmp_path, {"w_crimea_azov_2": to})
    edited = log(started).read_text(encoding="utf-8") + "# saved at the last moment\n"
    write, exchange = outputs._write_new, outputs._exchange
    saved = {"done": False}

    def save() -> None:
        if not saved["done"]:
            saved["done"] = True
            log(started).write_text(edited, encoding="utf-8")

    def writing(path: Path, data: bytes, mode: int = 0o666) -> None:
        write(path, data, mode)
        if path.name.startswith(".turn-07.yaml.kitgen-") and moment.startswith("while"):
            save()

    def swapping(a: Path, b: Path) -> bool:
        if b.name == "turn-07.yaml" and moment.startswith("in"):
            save()
        return exchange(a, b)

    monkeypatch.setattr(outputs, "_write_new", writing)
    monkeypatch.setattr(outputs, "_exchange", swapping)
    refused_and_kept(started, form, edited)


def test_a_full_disk_under_the_import_is_a_plain_message_and_leaves_no_backup(
    started: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno

    import kitgen.outputs as outputs

    _, to = step(started, "w_crimea_azov_2")
    form = sheet(started, tmp_path, {"w_crimea_azov_2": to})
    before = log(started).read_bytes()

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(outputs, "_exchange", full)
    done = imported(started, form)
    assert done.returncode == 1 and "No space left on device" in done.stderr
    assert log(started).read_bytes() == before
    assert not list((started / "backups").glob("turn-07.yaml.*"))


def test_II_D_a_blank_row_drops_the_units_partisan_choice_and_says_so(started: Path, tmp_path: Path) -> None:
    """II.D.1: evading is the partisans' choice, written in the log. A player who blanks the row
    of a unit whose choice stood in its hex takes the choice back with the order."""
    unit = "w_crimea_azov_2"
    start, to = step(started, unit)
    text = log(started).read_text(encoding="utf-8")
    choice = f"  - {{hex: '{start}', faction: whites, choice: evade}}   # the umpire's note\n"
    log(started).write_text(text.replace("partisans:\n", "partisans:\n" + choice, 1), encoding="utf-8")
    assert read(log(started)).partisans
    done = imported(started, sheet(started, tmp_path, {unit: ""}))
    assert done.returncode == 0, done.stderr
    assert f"partisans in {start}" in done.stdout
    assert read(log(started)).partisans == []
    assert "# the umpire's note" in log(started).read_text(encoding="utf-8")


def test_a_replaced_block_order_keeps_every_comment_of_its_lines(started: Path, tmp_path: Path) -> None:
    b_start, b_to = step(started, "w_markov_1", 0)
    _, b_other = step(started, "w_markov_1", 1)
    hand_typed(
        started,
        "    - unit: w_markov_1   # the umpire's own\n"
        f"      move:\n        - '{b_start}'\n        - '{b_to}'   # the river road\n",
    )
    done = imported(started, sheet(started, tmp_path, {"w_markov_1": b_other}))
    assert done.returncode == 0, done.stderr
    text = log(started).read_text(encoding="utf-8")
    assert "# the umpire's own" in text and "# the river road" in text
    assert read(log(started)).orders["whites"] == [MoveOrder(unit="w_markov_1", move=[b_start, b_other])]


def test_a_flow_list_keeps_the_bytes_of_its_other_entries(started: Path, tmp_path: Path) -> None:
    """Orders written as one flow list: the entry of the unit on the form is rewritten in place,
    the other entry keeps its quotes and spacing."""
    a_start, a_to = step(started, "w_crimea_azov_2")
    b_start, b_to = step(started, "w_markov_1")
    other = f'{{unit: w_markov_1, move: [ "{b_start}" , "{b_to}" ]}}'
    text = log(started).read_text(encoding="utf-8")
    at = text.index("\n  whites:", text.index("\norders:")) + 1
    end = text.index("\n", at)
    lines = f"  whites: [{{unit: w_crimea_azov_2, move: ['{a_start}', '{a_start}']}}, {other}]"
    log(started).write_text(text[:at] + lines + text[end:], encoding="utf-8")
    done = imported(started, sheet(started, tmp_path, {"w_crimea_azov_2": a_to}))
    assert done.returncode == 0, done.stderr
    after = log(started).read_text(encoding="utf-8")
    assert other in after
    assert MoveOrder(unit="w_crimea_azov_2", move=[a_start, a_to]) in read(log(started)).orders["whites"]


def test_mixed_line_ends_keep_their_own_endings(started: Path, tmp_path: Path) -> None:
    """A log saved by two editors, some lines CRLF, some LF: every line the import leaves alone
    keeps its own ending, byte for byte."""
    lines = log(started).read_bytes().split(b"\n")
    mixed = b"\n".join(line + b"\r" if k % 3 == 0 and line else line for k, line in enumerate(lines))
    log(started).write_bytes(mixed)
    _, to = step(started, "w_crimea_azov_2")
    assert imported(started, sheet(started, tmp_path, {"w_crimea_azov_2": to})).returncode == 0
    after = log(started).read_bytes().split(b"\n")
    before = mixed.split(b"\n")
    # gone: only the commented lines `kitgen next` wrote for the brigade's order and its
    # commander's roll, taken up by the order and the roll's entry
    gone = [line for line in before if line not in after]
    assert len(gone) == 2, gone
    assert gone[0].lstrip().startswith(b"# - {unit: w_crimea_azov_2,")
    assert gone[1].lstrip().startswith(b'# - {purpose: "II.C Slashchev command roll, turn 7"')


def test_restore_refuses_a_backup_the_campaign_does_not_play_with(camp: Path, tmp_path: Path) -> None:
    """Turn 2's log put back from a backup whose battle report is broken: refused, naming the
    line; `--force` puts it back all the same."""
    trimmed(camp, 2)
    assert run_cli("next", str(camp)).returncode == 0
    (camp / "backups").mkdir(exist_ok=True)
    broken = log(camp, 2).read_text(encoding="utf-8").replace("winner: whites", "winner: nobody", 1)
    assert "winner: nobody" in broken
    (camp / "backups" / "turn-02.yaml.1").write_text(broken, encoding="utf-8")
    before = log(camp, 2).read_bytes()
    done = run_cli("restore", str(camp), "turn-02.yaml.1")
    assert done.returncode == 1 and "found that the campaign no longer plays with the backup put back" in done.stderr
    assert log(camp, 2).read_bytes() == before
    assert run_cli("restore", "--force", str(camp), "turn-02.yaml.1").returncode == 0
    assert log(camp, 2).read_text(encoding="utf-8") == broken


def test_restore_of_a_removed_log_leaves_no_gap(camp: Path) -> None:
    trimmed(camp, 3)
    (camp / "backups").mkdir()
    shutil.copy(log(camp, 3), camp / "backups" / "turn-03.yaml.1")
    shutil.copy(log(camp, 2), camp / "backups" / "turn-02.yaml.1")
    log(camp, 3).unlink()
    log(camp, 2).unlink()
    gap = run_cli("restore", str(camp), "turn-03.yaml.1")
    assert gap.returncode == 1 and "found a backup of turn 3, and the last log is of turn 1" in gap.stderr
    assert run_cli("restore", str(camp), "turn-02.yaml.1").returncode == 0
    assert run_cli("restore", str(camp), "turn-03.yaml.1").returncode == 0
    assert run_cli("validate", str(camp)).returncode == 0
