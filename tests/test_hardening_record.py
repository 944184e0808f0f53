"""Hardening, round 3 (issue 41): the holes an attack found in the campaign record and the output
folders, each reproduced as the issue tells it and named after its item. Each fails on the code
before its fix."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from kitgen.errors import UsageError
from kitgen.outputs import MANIFEST, ProductFolder
from kitgen.scenariofolders import data_dir
from tests.conftest import edit, run_cli

SAMPLE = data_dir() / "sample-campaign"


@pytest.fixture
def camp(tmp_path: Path) -> Path:
    """A copy of the six-turn sample (turn 6 finished), its scenario the bundled one."""
    folder = tmp_path / "camp"
    shutil.copytree(SAMPLE, folder)
    return folder


def write_set(folder: Path, files: dict[str, bytes], *, keep: bool = False) -> None:
    with ProductFolder(folder, keep=keep) as product:
        for name, data in files.items():
            product.write(name, data)


# --- 1: a user's file saved into an output folder while kitgen writes it --------------------


@pytest.mark.parametrize("exchange", [True, False])
def test_issue41_01_a_file_saved_into_the_folder_before_the_swap_is_never_deleted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, exchange: bool
) -> None:
    """ "A file saved into packets/ after kitgen checks the folder, but before it swaps in the new
    set, is deleted with the old folder." Now the swap is undone, the new set refused, and the
    user's file and the earlier set stay where they were (with the atomic exchange, and with the
    two renames a system without it makes)."""
    import kitgen.outputs as outputs

    folder = tmp_path / "packets"
    write_set(folder, {"week-1.pdf": b"one"}, keep=True)
    real = outputs._swap_in

    def saved_meanwhile(staging: Path, target: Path, seen: object = None) -> None:
        (target / "my-notes.txt").write_text("the umpire's notes", encoding="utf-8")
        real(staging, target, seen)  # type: ignore[arg-type]

    monkeypatch.setattr(outputs, "_swap_in", saved_meanwhile)
    if not exchange:
        monkeypatch.setattr(outputs, "_exchange", lambda a, b: False)
    with pytest.raises(UsageError) as refused:
        write_set(folder, {"week-2.pdf": b"two"}, keep=True)
    assert refused.value.msg.code == "out.changed_meanwhile" and "my-notes.txt" in str(refused.value)
    assert (folder / "my-notes.txt").read_text(encoding="utf-8") == "the umpire's notes"
    assert (folder / "week-1.pdf").read_bytes() == b"one" and not (folder / "week-2.pdf").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["packets"]  # no staging left behind


def test_issue41_01_kitgen_turn_keeps_a_file_saved_into_packets_during_the_swap(
    camp: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same race through `kitgen turn`: the week's packets are refused, the file is kept."""
    import kitgen.outputs as outputs

    out = tmp_path / "packets"
    real = outputs._swap_in
    calls = {"n": 0}

    def saved_meanwhile(staging: Path, target: Path, seen: object = None) -> None:
        calls["n"] += 1
        if calls["n"] == 2:  # the second week's set: a player's form saved into the folder meanwhile
            (target / "reds-filled.pdf").write_bytes(b"%PDF-1.4 the reds' orders")
        real(staging, target, seen)  # type: ignore[arg-type]

    monkeypatch.setattr(outputs, "_swap_in", saved_meanwhile)
    assert run_cli("turn", str(camp), "--out", str(out)).returncode == 0
    again = run_cli("turn", str(camp), "--out", str(out))
    assert again.returncode == 2 and "changed while kitgen was writing" in again.stderr
    assert (out / "reds-filled.pdf").read_bytes() == b"%PDF-1.4 the reds' orders"


def test_issue41_01_a_packet_filled_and_saved_in_place_is_never_written_over(tmp_path: Path) -> None:
    """The family: a file of kitgen's set that the user changed since (a packet's form filled and
    saved in place) is the user's: writing the set again refuses, where it would replace it."""
    folder = tmp_path / "packets"
    write_set(folder, {"umpire-turn-07-a4.pdf": b"blank", "reds-turn-07-a4.pdf": b"blank"}, keep=True)
    (folder / "umpire-turn-07-a4.pdf").write_bytes(b"filled on screen")
    write_set(folder, {"umpire-turn-08-a4.pdf": b"next week"}, keep=True)  # not written again: kept
    assert (folder / "umpire-turn-07-a4.pdf").read_bytes() == b"filled on screen"
    with pytest.raises(UsageError) as refused:
        write_set(folder, {"umpire-turn-07-a4.pdf": b"again"}, keep=True)
    assert refused.value.msg.code == "out.changed_since"
    assert (folder / "umpire-turn-07-a4.pdf").read_bytes() == b"filled on screen"
    with pytest.raises(UsageError):  # a set that replaces the whole folder (a kit) refuses too
        write_set(folder, {"x.pdf": b"x"})
    listed = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    assert set(listed["sha256"]) == set(listed["files"])


# --- 3: the turn being played is a fact of the record -----------------------------------------


def test_issue41_03_deleting_the_logs_first_line_changes_no_turn(camp: Path, tmp_path: Path) -> None:
    """ "Delete the log's first line ("# kitgen next started this log") in a turn without contacts":
    `status`, `orders form` and `turn` still agree on the turn being played, and a CSV is written
    into no other turn than it."""
    assert run_cli("next", str(camp)).returncode == 0
    log = camp / "turns" / "turn-07.yaml"
    log.write_text(log.read_text(encoding="utf-8").split("\n", 1)[1], encoding="utf-8")
    said = json.loads(run_cli("status", str(camp), "--format", "json").stdout)
    assert said["turn"] == 7 and said["stage"] == "playing"
    form = tmp_path / "whites.csv"
    assert run_cli("orders", "form", str(camp), "--faction", "whites", "--csv", "--out", str(form)).returncode == 0
    assert "turn-07" not in form.name and form.read_text(encoding="utf-8").startswith(("id,", "#"))
    done = run_cli("orders", "import", str(form), "--campaign", str(camp))
    assert done.returncode == 0 and "turn-07.yaml" in done.stdout
    packets = run_cli("turn", str(camp), "--out", str(tmp_path / "p"))
    assert packets.returncode == 0 and "turn-07" in packets.stdout and "turn-08" not in packets.stdout
    edit(camp / "campaign.yaml", "dice: table", "dice: table")  # the campaign as it was: no other change


# --- 2: an editor's save right after the swap --------------------------------------------------


def test_issue41_02_an_editors_save_right_after_the_swap_never_loses_the_import(
    camp: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "The import prints 'merged … 1 added' and exits 0, but the log on disk is the editor's
    version, and no backup holds the new orders." Now the import ends in an error that says so,
    its version is kept as a backup, and `kitgen undo` puts it back."""
    import kitgen.outputs as outputs

    assert run_cli("next", str(camp)).returncode == 0
    log = camp / "turns" / "turn-07.yaml"
    editors = log.read_bytes() + b"# the umpire's note, saved from an editor's buffer\n"
    real = outputs.replace_if_unchanged

    def then_saved(path: Path, data: bytes, expected: bytes) -> None:
        real(path, data, expected)
        path.write_bytes(editors)  # the editor's save, the moment after the swap

    monkeypatch.setattr(outputs, "replace_if_unchanged", then_saved)
    form = tmp_path / "whites.csv"
    form.write_text("id,path,carry,special\nw_crimea_azov_2,,,\n", encoding="utf-8")
    done = run_cli("orders", "import", str(form), "--campaign", str(camp))
    assert done.returncode == 1 and "changed right after kitgen wrote it" in done.stderr
    assert "merged" not in done.stdout
    monkeypatch.setattr(outputs, "replace_if_unchanged", real)
    assert log.read_bytes() == editors
    kept = sorted((camp / "backups").glob("turn-07.yaml.*"))[-1]
    assert b"handed_in" in kept.read_bytes()  # the import: the Whites' (blank) orders handed in
    assert run_cli("undo", str(camp)).returncode == 0
    assert log.read_bytes() == kept.read_bytes()


# --- 5: a two-faction scan writes both factions or neither -------------------------------------


def test_issue41_05_a_two_faction_scan_racing_an_editor_writes_neither(
    camp: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """ "Each faction is written under its own lock. An editor's save during the second write
    leaves the first imported and the second refused, with the message 'nothing was written'."
    Now every faction of a scan goes in one write, under one lock: the editor's save refuses it
    whole, the editor's version stays, and the message is true."""
    import kitgen.outputs as outputs
    from tests.penciled import printed, render, save

    assert run_cli("next", str(camp)).returncode == 0
    log = camp / "turns" / "turn-07.yaml"
    pages = []
    for faction in ("reds", "whites"):  # each form scanned blank: every unit holds
        form = printed(camp, faction)
        pages += [save(render(form.pdf, k, 150), tmp_path / f"{faction}-{k}.png") for k in range(len(form.plans))]
    editors = log.read_bytes() + b"# saved from an editor\n"
    real = outputs.replace_if_unchanged

    def racing(path: Path, data: bytes, expected: bytes) -> None:
        if b"whites" in data.split(b"handed_in", 1)[-1]:  # the write that brings the Whites' orders
            path.write_bytes(editors)
        real(path, data, expected)

    monkeypatch.setattr(outputs, "replace_if_unchanged", racing)
    done = run_cli("orders", "scan", *map(str, pages), "--campaign", str(camp))
    assert done.returncode == 1 and "nothing was written, and the edit is kept" in done.stderr
    assert log.read_bytes() == editors  # neither faction's orders, and the edit
    assert not list((camp / "backups").glob("turn-07.yaml.*"))


# --- 14: a hand-spoilt index of backups --------------------------------------------------------


def test_issue41_14_a_hand_spoilt_index_of_backups_is_set_aside_never_overwritten(camp: Path, tmp_path: Path) -> None:
    """ "A hand-spoilt backups/index.json is silently overwritten by the next write, keeping only
    its own entry; every earlier backup then shows 'by unknown'." Now the next write sets it
    aside whole and says so (file:line:column); its entries still whole carry on, and once it is
    mended by hand all of them count again."""
    from tests.test_record import sheet, step

    assert run_cli("next", str(camp)).returncode == 0
    at, to = step(camp, "w_crimea_azov_2")
    form = sheet(camp, tmp_path, {"w_crimea_azov_2": f"{at} {to}"})
    assert run_cli("orders", "import", str(form), "--campaign", str(camp)).returncode == 0
    index = camp / "backups" / "index.json"
    good = index.read_text(encoding="utf-8")
    assert '"command": "orders import"' in good
    spoilt = "// the umpire: checked\n" + good.replace('"command": "orders import"', '"command": "orders import')
    index.write_text(spoilt, encoding="utf-8")
    form = sheet(camp, tmp_path, {"w_crimea_azov_2": f"{at} {step(camp, 'w_crimea_azov_2', 1)[1]}"}, "again.csv")
    done = run_cli("orders", "import", str(form), "--campaign", str(camp), "--amend")
    assert done.returncode == 0, done.stderr
    assert "backups/index.json:1:1: found the index of backups spoilt" in done.stderr
    aside = camp / "backups" / "index.spoilt-1.json"
    assert aside.read_text(encoding="utf-8") == spoilt  # kept as the umpire left it
    listed = json.loads(run_cli("backups", str(camp), "--format", "json").stdout)["backups"]
    assert [(b["name"], b["command"]) for b in listed] == [
        ("turn-07.yaml.1", "unknown"),
        ("turn-07.yaml.2", "orders import --amend"),
    ]
    said = run_cli("backups", str(camp))
    assert "index.spoilt-1.json" in said.stderr and "set aside as spoilt" in said.stderr
    aside.write_text(good, encoding="utf-8")  # mended by hand
    listed = json.loads(run_cli("backups", str(camp), "--format", "json").stdout)["backups"]
    assert listed[0]["name"] == "turn-07.yaml.1" and listed[0]["command"] == "orders import"
    assert "unknown" not in run_cli("backups", str(camp)).stdout
    assert run_cli("undo", str(camp)).returncode == 0  # the index as it now stands still leads undo
    assert (camp / "turns" / "turn-07.yaml").read_bytes() == (camp / "backups" / "turn-07.yaml.2").read_bytes()


# --- 15: a SIGKILL between the backup and the swap ---------------------------------------------


def test_issue41_15_a_kill_between_the_backup_and_the_swap_leaves_no_unindexed_copy(camp: Path, tmp_path: Path) -> None:
    """ "A SIGKILL after the backup is written, but before the swap, leaves an extra unindexed copy
    ('by unknown')." Now the backup waits under a hidden name until the swap is done: killed
    there, no backup is listed, the next writer clears it, and the import run again leaves one
    backup, entered by its command."""
    import os
    import signal

    import kitgen.outputs as outputs

    assert run_cli("next", str(camp)).returncode == 0
    form = tmp_path / "whites.csv"
    form.write_text("id,path,carry,special\nw_crimea_azov_2,,,\n", encoding="utf-8")
    log = camp / "turns" / "turn-07.yaml"
    old = log.read_bytes()
    pid = os.fork()
    if pid == 0:  # the child: dies as the log's swap begins, the backup written
        try:

            def killed(*args: object, **kwargs: object) -> None:
                os.kill(os.getpid(), signal.SIGKILL)

            outputs.replace_if_unchanged = killed  # type: ignore[assignment]
            from kitgen.record.importer import import_orders

            import_orders(camp, form)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status)
    assert log.read_bytes() == old
    assert "unknown" not in run_cli("backups", str(camp)).stdout
    assert not list((camp / "backups").glob("turn-07.yaml.*"))
    done = run_cli("orders", "import", str(form), "--campaign", str(camp))
    assert done.returncode == 0, done.stderr
    listed = json.loads(run_cli("backups", str(camp), "--format", "json").stdout)["backups"]
    assert [(b["name"], b["command"]) for b in listed] == [("turn-07.yaml.1", "orders import")]
    assert (camp / "backups" / "turn-07.yaml.1").read_bytes() == old
    assert not [p.name for p in (camp / "backups").iterdir() if "kitgen" in p.name]


# --- CSV forms gain identity ---------------------------------------------------------------------


def csv_form(camp: Path, tmp_path: Path, faction: str = "whites", name: str = "form.csv") -> Path:
    form = tmp_path / name
    done = run_cli("orders", "form", str(camp), "--faction", faction, "--csv", "--out", str(form))
    assert done.returncode == 0, done.stderr
    return form


def test_issue41_csv_a_spreadsheet_says_which_form_it_is_in_its_last_row(camp: Path, tmp_path: Path) -> None:
    """ "CSV forms gain identity. An optional identity row ... written by `orders form --csv`": the
    campaign, turn and state, in one cell a spreadsheet keeps as text."""
    import csv

    assert run_cli("next", str(camp)).returncode == 0
    rows = list(csv.reader(csv_form(camp, tmp_path).read_text(encoding="utf-8").splitlines()))
    assert rows[0][0] == "id" and rows[-1][0].startswith("#form ")  # in the one column every copy keeps
    words = dict(w.split("=", 1) for w in rows[-1][0].split()[1:])
    assert words["faction"] == "whites" and words["turn"] == "7"
    assert {"campaign", "state", "logs"} <= words.keys()
    assert all(len(r) == len(rows[0]) for r in rows)  # as wide as the header: no cell past it


def test_issue41_csv_a_stale_spreadsheet_is_refused_as_a_stale_pdf_is(camp: Path, tmp_path: Path) -> None:
    """ "CSV forms carry no campaign or turn identity, so a stale CSV cannot be refused." Now a
    spreadsheet made before a log changed is refused, as its PDF would be, at its identity row."""
    assert run_cli("next", str(camp)).returncode == 0
    form = csv_form(camp, tmp_path)
    text = form.read_text(encoding="utf-8")
    last = len(text.splitlines())
    printed = re.search(r"state=([0-9a-f]+) .*6:([0-9a-f]+)", text)
    assert printed is not None  # as printed before turn 6's log changed: another state, another digest
    form.write_text(text.replace(printed.group(1), "0" * 12).replace(f"6:{printed.group(2)}", "6:" + "0" * 8))
    done = run_cli("orders", "import", str(form), "--campaign", str(camp))
    assert done.returncode == 1
    assert f"form.csv:{last}:1:" in done.stderr and "the log of turn 6 changed since it was printed" in done.stderr
    assert run_cli("orders", "import", str(form), "--campaign", str(camp), "--stale-ok").returncode == 0


def test_issue41_csv_last_turns_spreadsheet_is_refused_for_this_turn(camp: Path, tmp_path: Path) -> None:
    """A spreadsheet of turn 7 sent again in turn 8 is another turn's form: refused, not merged
    into the turn being played."""
    assert run_cli("next", str(camp)).returncode == 0
    form = csv_form(camp, tmp_path)
    text = form.read_text(encoding="utf-8")
    form.write_text(text.replace("turn=7", "turn=6"), encoding="utf-8")
    done = run_cli("orders", "import", str(form), "--campaign", str(camp))
    assert done.returncode == 1 and "found a form for turn 6; expected one for turn 7" in done.stderr
    form.write_text(text.replace("faction=whites", "faction=reds"), encoding="utf-8")
    done = run_cli("orders", "import", str(form), "--campaign", str(camp))
    assert done.returncode == 1 and "expected a unit, train or ship of the reds" in done.stderr


@pytest.mark.parametrize(
    "save", ["semicolons", "crlf", "quoted", "columns_moved", "columns_deleted", "row_deleted", "rows_sorted"]
)
def test_issue41_csv_a_spreadsheets_own_save_keeps_the_identity(camp: Path, tmp_path: Path, save: str) -> None:
    """Spreadsheets keep the row when the player saves: whatever the delimiter, line ends, quoting,
    order of columns or rows, the form is still known as the turn's; a row deleted leaves a form
    read by its rows, as a player's own spreadsheet is."""
    import csv
    import io

    assert run_cli("next", str(camp)).returncode == 0
    rows = list(csv.reader(csv_form(camp, tmp_path).read_text(encoding="utf-8").splitlines()))
    if save == "columns_moved":
        rows = [[r[1], r[0], *r[2:]] for r in rows]
    elif save == "columns_deleted":  # hex, type and stands, which kitgen prints and does not read
        rows = [[r[0], *r[4:]] for r in rows]
    elif save == "row_deleted":
        rows = rows[:-1]
    elif save == "rows_sorted":
        rows = [rows[0], *sorted(rows[1:], key=lambda r: r[0], reverse=True)]
    out = io.StringIO()
    delimiter = ";" if save == "semicolons" else ","
    quoting = csv.QUOTE_ALL if save == "quoted" else csv.QUOTE_MINIMAL
    csv.writer(out, delimiter=delimiter, quoting=quoting, lineterminator="\r\n" if save == "crlf" else "\n").writerows(
        rows
    )
    form = tmp_path / "saved.csv"
    form.write_text(out.getvalue(), encoding="utf-8", newline="")
    done = run_cli("orders", "import", str(form), "--campaign", str(camp))
    assert done.returncode == 0, done.stderr
    assert "merged the orders of the whites into" in done.stdout and "turn-07.yaml" in done.stdout


@pytest.mark.parametrize(
    ("spoil", "said"),
    [
        (lambda t: t.replace("campaign=", "campaign=x"), "found a form for campaign x"),
        (lambda t: t.replace("faction=", "side="), "found the form's identity row holding side="),
        (lambda t: t.replace("state=", "state "), "found the form's identity row holding"),
        (lambda t: t + t.splitlines()[-1] + "\n", "found a second identity row"),
    ],
)
def test_issue41_csv_an_identity_row_spoilt_is_refused_at_its_line(
    camp: Path, tmp_path: Path, spoil: object, said: str
) -> None:
    assert run_cli("next", str(camp)).returncode == 0
    form = csv_form(camp, tmp_path)
    form.write_text(spoil(form.read_text(encoding="utf-8")), encoding="utf-8")  # type: ignore[operator]
    done = run_cli("orders", "import", str(form), "--campaign", str(camp))
    assert done.returncode == 1 and said in done.stderr
    assert not list((camp / "backups").glob("turn-07.yaml.*"))


def test_issue41_csv_a_players_note_row_is_no_units(camp: Path, tmp_path: Path) -> None:
    """A row whose first cell starts with # is a note, never a unit's row."""
    assert run_cli("next", str(camp)).returncode == 0
    form = csv_form(camp, tmp_path)
    form.write_text(form.read_text(encoding="utf-8") + "# hold the line at Rostov,,,,,,,,,,\n", encoding="utf-8")
    done = run_cli("orders", "import", str(form), "--campaign", str(camp))
    assert done.returncode == 0, done.stderr


# --- 17: one size limit per kind of input --------------------------------------------------------


def test_issue41_17_a_log_too_large_for_the_writers_is_too_large_for_validate(camp: Path) -> None:
    """ "`validate` says 'ok' for a 3 MB log that import and the other writers refuse (2 MB
    limit)." Every command reads a turn log to one limit, `limits.LOG_BYTES`."""
    from kitgen.limits import LOG_BYTES

    log = camp / "turns" / "turn-06.yaml"
    text = log.read_text(encoding="utf-8")
    padding = "# " + "a long comment " * 60 + "\n"
    log.write_text(text + padding * (LOG_BYTES // len(padding) + 1), encoding="utf-8")
    assert log.stat().st_size > LOG_BYTES
    said = {}
    for args in (["validate", str(camp)], ["status", str(camp)], ["next", str(camp)], ["state", str(camp)]):
        done = run_cli(*args)
        said[args[0]] = done.returncode
        assert f"turn-06.yaml:1:1: found a file of more than {LOG_BYTES:,} bytes" in done.stderr, (args, done.stderr)
    assert set(said.values()) == {1}
    log.write_text(text, encoding="utf-8")
    assert run_cli("validate", str(camp)).returncode == 0


# --- a swap cut short: signals, races and kills around the backup ------------------------------


def _import_form(camp: Path, tmp_path: Path) -> Path:
    from tests.test_record import sheet, step

    assert run_cli("next", str(camp)).returncode == 0
    at, to = step(camp, "w_crimea_azov_2")
    return sheet(camp, tmp_path, {"w_crimea_azov_2": f"{at} {to}"})


def test_a_signal_after_the_swap_keeps_the_backup_of_what_it_replaced(
    camp: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ctrl-C held back until the swap ends is raised in its last step: the log is the new one,
    so the backup, the only copy of the old, stays, entered by its command."""
    import kitgen.outputs as outputs
    from kitgen.record.importer import import_orders

    form = _import_form(camp, tmp_path)
    log = camp / "turns" / "turn-07.yaml"
    old = log.read_bytes()
    real = outputs.replace_if_unchanged

    def interrupted(path: Path, data: bytes, expected: bytes) -> None:
        real(path, data, expected)
        raise KeyboardInterrupt

    monkeypatch.setattr(outputs, "replace_if_unchanged", interrupted)
    with pytest.raises(KeyboardInterrupt):
        import_orders(camp, form)
    assert log.read_bytes() != old
    assert (camp / "backups" / "turn-07.yaml.1").read_bytes() == old
    listed = json.loads(run_cli("backups", str(camp), "--format", "json").stdout)["backups"]
    assert [(b["name"], b["command"]) for b in listed] == [("turn-07.yaml.1", "orders import")]


def test_undo_never_takes_away_a_log_saved_by_an_editor_meanwhile(camp: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`undo` of the log `next` made: an editor's save just before it is taken away stops the
    undo, and the editor's version stays."""
    import kitgen.outputs as outputs

    assert run_cli("next", str(camp)).returncode == 0
    log = camp / "turns" / "turn-07.yaml"
    edited = log.read_bytes() + b"# the umpire's note\n"
    real = outputs.remove_if_unchanged

    def saved_first(path: Path, expected: bytes) -> None:
        path.write_bytes(edited)
        real(path, expected)

    monkeypatch.setattr(outputs, "remove_if_unchanged", saved_first)
    done = run_cli("undo", str(camp))
    assert done.returncode == 1 and "changed on disk" in done.stderr
    assert log.read_bytes() == edited
    assert not list((camp / "backups").glob("turn-07.yaml.*"))


def _killed_after_the_swap(camp: Path, form: Path) -> None:
    """An import killed (SIGKILL) once the log is swapped, before its backup takes its name."""
    import os
    import signal

    pid = os.fork()
    if pid == 0:
        try:

            def killed(*args: object, **kwargs: object) -> None:
                os.kill(os.getpid(), signal.SIGKILL)

            os.rename = killed  # type: ignore[assignment]
            from kitgen.record.importer import import_orders

            import_orders(camp, form)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status)


def test_undo_after_a_killed_import_undoes_that_import(camp: Path, tmp_path: Path) -> None:
    """The backup a killed import left pending is settled under the lock before `undo` chooses:
    the import is undone, not the `next` before it."""
    form = _import_form(camp, tmp_path)
    log = camp / "turns" / "turn-07.yaml"
    old = log.read_bytes()
    _killed_after_the_swap(camp, form)
    assert log.read_bytes() != old
    done = run_cli("undo", str(camp))
    assert done.returncode == 0, done.stderr
    assert "undid the orders import" in done.stdout and log.read_bytes() == old


def test_a_log_changed_by_hand_after_a_killed_write_says_so_in_the_backups(camp: Path, tmp_path: Path) -> None:
    from kitgen.record.lock import campaign_lock

    form = _import_form(camp, tmp_path)
    log = camp / "turns" / "turn-07.yaml"
    _killed_after_the_swap(camp, form)
    log.write_bytes(log.read_bytes() + b"# the umpire's note\n")
    with campaign_lock(camp):  # as every writer takes it: what the killed one left is settled
        pass
    listed = json.loads(run_cli("backups", str(camp), "--format", "json").stdout)["backups"]
    assert [b["command"] for b in listed] == ["orders import (cut short; the log changed by hand since)"]


def test_undo_follows_the_newest_backup_when_the_index_was_put_back_by_hand(camp: Path, tmp_path: Path) -> None:
    """An editor holding backups/index.json writes its old copy back after an import: the
    import's backup, newer than any entry, is still the one `undo` puts back."""
    form = _import_form(camp, tmp_path)
    log = camp / "turns" / "turn-07.yaml"
    old = log.read_bytes()
    index = camp / "backups" / "index.json"
    held = index.read_bytes()
    assert run_cli("orders", "import", str(form), "--campaign", str(camp)).returncode == 0
    index.write_bytes(held)
    done = run_cli("undo", str(camp))
    assert done.returncode == 0, done.stderr
    assert "put back turn-07.yaml.1" in done.stdout and log.read_bytes() == old
