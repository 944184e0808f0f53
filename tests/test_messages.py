"""Every entry of the message catalogue, triggered through kitgen's own code.

As the DATC suite has a case for each rule of Diplomacy, this file has a trigger for each
entry of `kitgen.messages.CATALOGUE`: a small function that builds the smallest broken input
(a tiny YAML file, one edit of the bundled scenario or of a new campaign, a look-up at the
command line) and returns the codes kitgen produced. Each message must then follow the
catalogue's rule: say what was found and what would be right; data problems name their file,
line and column.

The scenario edits share one copy of the bundled scenario per worker, each edit undone when
its trigger ends, so that loads hit the memo of unchanged files; the turn logs play in a copy
of one new campaign.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import re
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import yaml

from kitgen import answers, messages
from kitgen.campaign import load_campaign, new_campaign
from kitgen.engine.replay import replay
from kitgen.errors import KitgenError, Problem, UsageError
from kitgen.limits import CSV_ROWS, FIELD_CHARS, FORM_PAGES
from kitgen.loader import load_scenario, load_scenario_map
from kitgen.messages import CATALOGUE, Msg
from kitgen.render.bookletset import fit_table
from kitgen.render.bookletstyle import booklet_style
from kitgen.rules import battle, partisans
from kitgen.yamlsource import load_yaml
from tests import hostile
from tests.conftest import BUNDLED, SAMPLE, edit, run_cli, trimmed_copy

Trigger = Callable[[Path], set[str]]

RULE = re.compile(r"found|expected|missing|did you mean|note:", re.IGNORECASE)
"""The catalogue's rule: a message says what was found and what would be right."""

SYSTEM = {"io.failed", "memory"}
"""Data entries for a failure of the system, not of a file: said without a line and column."""

REGISTERING = (
    "kitgen.messages",
    "kitgen.inputs",
    "kitgen.yamlsource",
    "kitgen.validation",
    "kitgen.model.base",
    "kitgen.model.geography",
    "kitgen.model.forces",
    "kitgen.model.scenario",
    "kitgen.engine.turnlog",
    "kitgen.checks",
    "kitgen.loader",
    "kitgen.campaign",
    "kitgen.engine.replay",
    "kitgen.engine.turn",
    "kitgen.engine.logcheck",
    "kitgen.engine.phases.events",
    "kitgen.engine.phases.sea",
    "kitgen.engine.phases.battles",
    "kitgen.engine.views",
    "kitgen.answers",
    "kitgen.rules.battle",
    "kitgen.rules.command",
    "kitgen.rules.movement",
    "kitgen.rules.partisans",
    "kitgen.rules.supply",
    "kitgen.rules.transport",
    "kitgen.rules.victory",
    "kitgen.mapping.build",
    "kitgen.mapping.places",
    "kitgen.products.booklet",
    "kitgen.render.bookletset",
    "kitgen.products.counters",
    "kitgen.orders.formread",
    "kitgen.orders.entries",
    "kitgen.record.importer",
    "kitgen.outputs",
    "kitgen.cli",
)
"""The modules whose code produces catalogue entries."""


# --- what a trigger produced -----------------------------------------------------------------


@dataclass(frozen=True)
class Seen:
    """One message kitgen produced, and how it reached the user."""

    code: str
    text: str
    via: str
    """problem (a KitgenError or a file's problems), usage (a UsageError), note (a campaign's
    notes), or cli-problem / cli-message: a `file:line:column:` or `kitgen:` line on stderr."""
    file: str = ""
    line: int = 0
    column: int = 0
    status: int | None = None
    """The exit status of a command-line run."""


SEEN: list[Seen] = []


def _problems(found: list[Problem], via: str = "problem") -> set[str]:
    SEEN.extend(Seen(p.code, p.message, via, p.file, p.line, p.column) for p in found)
    return {p.code for p in found}


def produced(action: Callable[[], Any]) -> set[str]:
    """The codes of what `action` raised, and of the problems and notes of what it returned."""
    try:
        result = action()
    except KitgenError as error:
        return _problems(error.problems)
    except UsageError as error:
        SEEN.append(Seen(error.msg.code, error.msg.text, "usage"))
        return {error.msg.code}
    codes = set()
    if isinstance(getattr(result, "problems", None), list):  # a Located: lesser problems of its file
        codes |= _problems(result.problems)
    if isinstance(getattr(result, "notes", None), list):  # a Campaign
        codes |= _problems(result.notes, "note")
    return codes


_LINE = re.compile(r"(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): (?P<text>.*)")


@contextlib.contextmanager
def _recording() -> Iterator[list[Msg]]:
    """Every catalogue message made meanwhile (a command-line run prints only their words)."""
    made: list[Msg] = []
    real = Msg.__init__

    def record(self: Msg, *args: Any, **kwargs: Any) -> None:
        real(self, *args, **kwargs)
        made.append(self)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Msg, "__init__", record)
        yield made


def _printed(made: list[Msg], stderr: str, status: int) -> set[str]:
    """The codes of the messages a run printed on stderr, each placed as printed."""
    codes = set()
    texts = {m.text: m.code for m in made}
    for printed in stderr.splitlines():
        if printed.startswith("kitgen: ") and printed[8:] in texts:
            code = texts[printed[8:]]
            SEEN.append(Seen(code, printed[8:], "cli-message", status=status))
            codes.add(code)
        elif (match := _LINE.fullmatch(printed)) and match["text"] in texts:
            code = texts[match["text"]]
            where = (match["file"], int(match["line"]), int(match["column"]))
            SEEN.append(Seen(code, match["text"], "cli-problem", *where, status=status))
            codes.add(code)
    return codes


def cli_codes(*args: str) -> set[str]:
    """`kitgen ARGS` in this process: the codes of what it printed on stderr."""
    with _recording() as made:
        result = run_cli(*args)
    return _printed(made, result.stderr, result.returncode)


# --- the inputs: tiny files, the shared scenario copy, a new campaign ---------------------------

_SPACE: dict[str, Path] = {}


@pytest.fixture(scope="module", autouse=True)
def _workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    _SPACE["root"] = tmp_path_factory.mktemp("messages")
    yield
    _SPACE.clear()


def shared_scenario() -> Path:
    """This worker's copy of the bundled scenario (each trigger undoes its edits)."""
    if "scenario" not in _SPACE:
        _SPACE["scenario"] = _SPACE["root"] / "denikin-1919"
        shutil.copytree(BUNDLED, _SPACE["scenario"])
    return _SPACE["scenario"]


Edit = tuple[str, str, str] | tuple[str, Callable[[str], str]]
"""(file, old, new): replace the one `old` in the file; (file, change): rewrite the file's text."""


@contextlib.contextmanager
def broken(*edits: Edit) -> Iterator[Path]:
    """The shared scenario copy with `edits` made, undone afterwards; a file that does not
    exist is made (`old` is then "")."""
    folder = shared_scenario()
    before: dict[Path, bytes | None] = {}
    try:
        for file, *change in edits:
            path = folder / file
            if path not in before:
                before[path] = path.read_bytes() if path.exists() else None
            if len(change) == 1:
                rewrite: Any = change[0]
                path.write_text(rewrite(path.read_text(encoding="utf-8")), encoding="utf-8")
            elif not path.exists():
                path.write_text(change[1], encoding="utf-8")
            else:
                edit(path, change[0], change[1])
        yield folder
    finally:
        for path, data in before.items():
            if data is None:
                path.unlink()
            else:
                path.write_bytes(data)


def _one(file: str, old: str | Callable[[str], str], new: str | None) -> Edit:
    return (file, old) if callable(old) else (file, old, new or "")


def scenario(file: str, old: str | Callable[[str], str], new: str | None = None) -> Trigger:
    """A trigger: load the scenario with one edit made (`old` to `new`, or a rewrite)."""

    def trigger(tmp: Path) -> set[str]:
        with broken(_one(file, old, new)) as folder:
            return produced(lambda: load_scenario(folder))

    return trigger


def scenario_map(file: str, old: str | Callable[[str], str], new: str | None = None) -> Trigger:
    """A trigger: load the scenario with one edit made, and build its map."""

    def trigger(tmp: Path) -> set[str]:
        with broken(_one(file, old, new)) as folder:
            return produced(lambda: load_scenario_map(folder))

    return trigger


def yaml_file(text: str | bytes, name: str = "f.yaml") -> Trigger:
    """A trigger: read one YAML file of `text`."""

    def trigger(tmp: Path) -> set[str]:
        path = tmp / name
        path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
        return produced(lambda: load_yaml(path))

    return trigger


def cli(*args: str) -> Trigger:
    return lambda tmp: cli_codes(*args)


def campaign(tmp: Path, *setup_edits: tuple[str, str]) -> Path:
    """A new campaign of the bundled scenario in tmp/c (a copy of one made once per worker)."""
    if "campaign" not in _SPACE:
        _SPACE["campaign"] = _SPACE["root"] / "campaign"
        new_campaign(_SPACE["campaign"], "denikin-1919", 1919)
    folder = tmp / "c"
    shutil.copytree(_SPACE["campaign"], folder)
    for old, new in setup_edits:
        edit(folder / "setup.yaml", old, new)
    return folder


def turn(text: str, *setup_edits: tuple[str, str]) -> Trigger:
    """A trigger: replay a new campaign whose turn-01.yaml says `text` after `turn: 1`."""

    def trigger(tmp: Path) -> set[str]:
        folder = campaign(tmp, *setup_edits)
        (folder / "turns" / "turn-01.yaml").write_text(f"turn: 1\n{text}", encoding="utf-8")
        return produced(lambda: replay(load_campaign(folder)))

    return trigger


def campaign_with(change: Callable[[Path], object]) -> Trigger:
    """A trigger: load a new campaign after `change(folder)`."""

    def trigger(tmp: Path) -> set[str]:
        folder = campaign(tmp)
        change(folder)
        return produced(lambda: load_campaign(folder))

    return trigger


def board(lines: str = "", hexes: str = "") -> str:
    """map.yaml as a small board given hex by hex: `hexes` (entries of its hexes) and `lines`
    (more of its keys) added; the map points the cards name stand in hex 0303."""
    return f'board:\n  columns: 4\n  rows: 3\n  hexes: {{"0303": {{places: [Perekop, Slavyanskaya, Veshenskaya]}}, {hexes}}}\n{lines}'


# --- triggers that need more than one edit -----------------------------------------------------


def _unreadable(tmp: Path) -> set[str]:
    path = tmp / "f.yaml"
    path.write_text("a: 1\n", encoding="utf-8")
    path.chmod(0)
    with pytest.MonkeyPatch.context() as patch:
        if os.access(path, os.R_OK):  # root reads it anyway: the system refuses in its place
            real = os.open

            def refuse(name: Any, *args: Any, **kwargs: Any) -> int:
                if Path(name) == path:
                    raise PermissionError(13, "Permission denied", str(name))
                return real(name, *args, **kwargs)

            patch.setattr(os, "open", refuse)
        return produced(lambda: load_yaml(path))


def _too_big(tmp: Path) -> set[str]:
    from kitgen.limits import TEXT_BYTES

    path = tmp / "f.yaml"
    with path.open("wb") as f:
        f.truncate(TEXT_BYTES + 1)  # sparse: no time spent writing it
    return produced(lambda: load_yaml(path))


def _link(tmp: Path, target: str) -> Path:
    path = tmp / "f.yaml"
    path.symlink_to(tmp / target)
    return path


def _link_loop(tmp: Path) -> set[str]:
    (tmp / "g.yaml").symlink_to(tmp / "f.yaml")
    return produced(lambda: load_yaml(_link(tmp, "g.yaml")))


def _fifo(tmp: Path) -> set[str]:
    os.mkfifo(tmp / "f.yaml")
    return produced(lambda: load_yaml(tmp / "f.yaml"))


def _folder_as_file(tmp: Path) -> set[str]:
    (tmp / "f.yaml").mkdir()
    return produced(lambda: load_yaml(tmp / "f.yaml"))


def _not_a_scenario(tmp: Path) -> set[str]:
    (tmp / "empty").mkdir()
    return produced(lambda: load_scenario(tmp / "empty"))


def _alias_bomb() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def _out(kind: str) -> Trigger:
    """A trigger: `kitgen scenario show --out` something kitgen will not write."""

    def trigger(tmp: Path) -> set[str]:
        target = tmp / "out.txt"
        if kind == "fifo":
            os.mkfifo(target)
        elif kind == "folder":
            target.mkdir()
        else:  # a file where a folder must be
            target.write_text("mine", encoding="utf-8")
            target = target / "show.txt"
        return cli_codes("scenario", "show", "denikin-1919", "--out", str(target))

    return trigger


def _new_in_a_file(tmp: Path) -> set[str]:
    (tmp / "c").write_text("mine", encoding="utf-8")
    return cli_codes("new", str(tmp / "c"))


def _new_in_a_full_folder(tmp: Path) -> set[str]:
    (tmp / "c").mkdir()
    (tmp / "c" / "notes.txt").write_text("mine", encoding="utf-8")
    return cli_codes("new", str(tmp / "c"))


def _installed_without_layouts(tmp: Path) -> set[str]:
    """kitgen as an installed package whose layouts/ went missing (no checkout round it)."""
    import importlib.resources

    import kitgen.packagedata as shipping

    site = tmp / "site-packages" / "kitgen"
    site.mkdir(parents=True)
    files, where = importlib.resources.files, shipping.__file__
    importlib.resources.files = lambda _: site  # type: ignore[assignment]
    shipping.__file__ = str(site / "packagedata.py")
    try:
        return produced(lambda: shipping.shipped("layouts"))
    finally:
        importlib.resources.files, shipping.__file__ = files, where


def _foreign_files(tmp: Path) -> set[str]:
    # The kit and the map render every page before they open their folder (seconds of work),
    # so the folder they write through is opened here directly, as they open it.
    from kitgen.outputs import ProductFolder

    (tmp / "kit").mkdir()
    (tmp / "kit" / "notes.txt").write_text("ours", encoding="utf-8")

    def write() -> None:
        with ProductFolder(tmp / "kit") as product:
            product.write("a.pdf", b"%PDF")

    return produced(write)


def _out_protected(tmp: Path) -> set[str]:
    folder = campaign(tmp)
    return cli_codes("scenario", "show", "denikin-1919", "--out", str(folder / "setup.yaml"))


def _bad_seed(tmp: Path) -> set[str]:
    # `kitgen new --seed` is bounded by typer (min 0) before new_campaign sees it: the bound of
    # the library call behind the command is triggered directly.
    return produced(lambda: new_campaign(tmp / "c", "denikin-1919", -1))


def _io_failed(tmp: Path) -> set[str]:
    """A real system failure: kitgen run from a working folder deleted under it. A scenario
    that does not validate is read afresh, and the memo of its files asks for the working
    folder, which the system cannot give (run_cli cannot be used: it asks first)."""
    with broken(("battle.yaml", "return_pct: 60", "return_pct: 50")) as folder:
        here = os.getcwd()
        gone = tmp / "gone"
        gone.mkdir()
        out, err = io.StringIO(), io.StringIO()
        argv, sys.argv = sys.argv, ["kitgen", "validate", str(folder)]
        status: Any = 0
        with _recording() as made:
            try:
                os.chdir(gone)
                gone.rmdir()
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    from kitgen.cli import main

                    try:
                        main()
                    except SystemExit as stop:
                        status = stop.code
            finally:
                sys.argv = argv
                os.chdir(here)
    assert "Traceback" not in err.getvalue(), err.getvalue()
    return _printed(made, err.getvalue(), status if isinstance(status, int) else 1)


def _memory(tmp: Path) -> set[str]:
    """No test can exhaust the memory safely: libyaml's composer is made to fail as it would."""
    folder = campaign(tmp)

    def exhausted(*args: object, **kwargs: object) -> object:
        raise MemoryError

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(yaml, "compose", exhausted)
        return cli_codes("validate", str(folder))


def _booklet(file: str, old: str, new: str) -> Trigger:
    """A trigger: the booklet's text of the scenario with one edit made."""

    def trigger(tmp: Path) -> set[str]:
        from kitgen.products.booklet import booklet_text

        with broken((file, old, new)) as folder:
            return produced(lambda: booklet_text(load_scenario(folder)))

    return trigger


def _library(call: Callable[[Any], object]) -> Trigger:
    """A trigger: a library call behind a look-up, on the bundled scenario. Typer's bounds on
    the command's arguments (min=0, min=1, a choice of papers) stop these values before the
    library sees them, so the library's own guard is triggered directly."""
    return lambda tmp: produced(lambda: call(load_scenario(BUNDLED)))


def _counters_on_a3(s: Any) -> object:
    from kitgen.products.counters import build_counters

    return build_counters(s, "a3")


def _compact_map_on_a3(s: Any) -> object:
    """The Denikin map, compact (84 x 54 cm with its key), asked for on one A3 sheet."""
    from kitgen.mapping.cache import hex_map
    from kitgen.products.mapsheets import MapSheet
    from kitgen.render.style import map_style

    board, _ = hex_map(s)
    return MapSheet(board, s, map_style(edition="compact")).poster("a3")


def _turn_mismatch(tmp: Path) -> set[str]:
    folder = campaign(tmp)
    (folder / "turns" / "turn-01.yaml").write_text("turn: 2\n", encoding="utf-8")
    return produced(lambda: replay(load_campaign(folder)))


def _turns(change: Callable[[Path], object]) -> Trigger:
    """A trigger: load a new campaign after `change(turns folder)`."""
    return campaign_with(lambda folder: change(folder / "turns"))


def _write(name: str, text: str = "turn: 1\n") -> Callable[[Path], object]:
    return lambda turns: (turns / name).write_text(text, encoding="utf-8")


def _turns_a_file(folder: Path) -> None:
    (folder / "turns").rmdir()
    (folder / "turns").write_text("mine", encoding="utf-8")


def _campaign_yaml(scenario_value: str) -> Callable[[Path], object]:
    def change(folder: Path) -> None:
        text = (folder / "campaign.yaml").read_text(encoding="utf-8")
        text = text.replace('scenario: "denikin-1919"', f"scenario: {json.dumps(scenario_value)}")
        (folder / "campaign.yaml").write_text(text, encoding="utf-8")

    return change


def _turn_out_of_order(tmp: Path) -> set[str]:
    folder = campaign(tmp)
    (folder / "turns" / "turn-02.yaml").write_text("turn: 2\n", encoding="utf-8")
    return cli_codes("validate", str(folder))


def _not_replayed(tmp: Path) -> set[str]:
    """A log that cannot be played, with a later one behind it: the replay names what it left."""
    folder = campaign(tmp)
    (folder / "turns" / "turn-01.yaml").write_text("turn: 1\norders: {nobody: []}\n", encoding="utf-8")
    (folder / "turns" / "turn-02.yaml").write_text("turn: 2\n", encoding="utf-8")
    return cli_codes("validate", str(folder))


def _no_such_turn(tmp: Path) -> set[str]:
    folder = campaign(tmp)
    return produced(lambda: replay(load_campaign(folder), 5))


MAKHNO = "- {id: makhno_present, value: 2, text: Makhno is present}"


def _renamed_modifier(tmp: Path) -> set[str]:
    """A modifier renamed in partisans.yaml: the one kitgen judges is missing, the new one unused."""
    with broken(("partisans.yaml", MAKHNO, MAKHNO.replace("makhno_present", "makhno_here"))) as folder:
        return cli_codes("validate", str(folder))


# --- the turn logs' set-ups -----------------------------------------------------------------

CRIMEAN = "name: Crimean Army (Trans-Dnieper Div), type: infantry, size: army, stands: {infantry: 4, machine_gun: 1}, at: Simferopol"
KERCH = (CRIMEAN, CRIMEAN.replace("Simferopol", "Kerch"))
"""The Red Crimean Army in Kerch (3026), with two White brigades and White ships."""
VOLOCHISK = (CRIMEAN, CRIMEAN.replace("Simferopol", "Volochisk"))
"""The Red Crimean Army in Volochisk (0110), with the Ukrainians and no ship of theirs."""


def kerch(units: str, ships: str = "") -> str:
    """A battle in Kerch that the Whites win: `units` after w_crimea_azov_1."""
    return (
        'battles:\n  - hex: "3026"\n    winner: whites\n'
        + (f"    ships: [{ships}]\n" if ships else "")
        + "    units:\n      - {unit: w_crimea_azov_1}\n"
        + units
    )


RETREAT = '      - {unit: r_crimean_army, lost: {infantry: 1}, retreat: "2927"}\n'
GUNS = "{id: w_vol_artillery, faction: whites, name: 1st Army Corps Artillery, type: artillery, size: battalion, stands: {artillery: 2}, at: Donetsk}"
GULAI_POLE = (GUNS, GUNS.replace("at: Donetsk", "at: Gulai Pole"))
"""White guns in Gulai Pole (2918), with Makhno's partisan HQ."""
DEPOT_USE = (
    "  - id: depot_use\n    text: >-\n"
    "      To renew its ammunition at a depot (B.5, B.7), a unit stays the whole turn in the\n"
    "      depot's hex on a resupply order; a unit in supply has full loads already.\n"
)
"""A ruling of supply.yaml that the booklet prints."""
FEATURES = '"features":[\n'
PIER = (
    '{"type":"Feature","properties":{"name":"pier"},'
    '"geometry":{"type":"LineString","coordinates":[[30.0,46.0],[30.1,46.0]]}},\n'
)
"""A line among the coastline's polygons."""
NO_EVENT = 'dice:\n  - {purpose: "II.A event roll, turn 1", value: 1}\n'
SEVASTOPOL = (
    ("at: Simferopol, commander: Dybenko", "at: Sevastopol, commander: Dybenko"),
    ("flags: [fanatic], at: Kharkov", "flags: [fanatic], at: Sevastopol"),
    ("machine_gun: 1}, at: Kerch}  # Borovsky", "machine_gun: 1}, at: Simferopol}  # Borovsky"),
    ("at: Kerch, commander: Slashchev", "at: Simferopol, commander: Slashchev"),
    ("at: Ekaterinodar, commander: Denikin", "at: Yalta, commander: Denikin"),
)
"""The Red Crimean Army and the fanatic Kharkov Communists in Sevastopol (2129), White columns
in Simferopol and Yalta, who close its two land exits and storm it (CORNERED)."""
CORNERED = (
    "orders:\n  whites:\n"
    '    - {unit: w_crimea_azov_1, move: ["2328", "2228", "2129"]}\n'
    '    - {unit: w_crimea_azov_2, move: ["2328", "2228"]}\n'
    '    - {unit: w_ghq_reserve, move: ["2329", "2229"]}\n'
    'battles:\n  - hex: "2129"\n    winner: whites\n    units:\n'
    "      - {unit: w_crimea_azov_1}\n"
    "      - {unit: r_crimean_army, surrender: true}\n"
    "      - {unit: r_kharkov_communist, lost: {infantry: 1}}\n"
    "dice:\n"
    '  - {purpose: "II.C Slashchev command roll, turn 1", value: 1}\n'
    '  - {purpose: "II.C Denikin command roll, turn 1", value: 1}\n'
)


def _breakout_owed(tmp: Path) -> set[str]:
    """A fanatic unit beaten where it cannot retreat, and no breakout battle: `state` notes it
    (and validate counts it as a warning)."""
    folder = campaign(tmp, *SEVASTOPOL)
    (folder / "turns" / "turn-01.yaml").write_text(f"turn: 1\n{CORNERED}", encoding="utf-8")
    return cli_codes("state", str(folder))


# --- order forms read back (kitgen orders import) ---------------------------------------------


def orders_import(make: Callable[[Path, Path], Path], log: str | None = None, *extra: str) -> Trigger:
    """A trigger: `kitgen orders import` of the file `make(campaign, tmp)` into turn 1 of a new
    campaign, whose turn-01.yaml says `log` (when given; else as `kitgen next` writes it) before
    the import; `extra` are more options of the import."""

    def trigger(tmp: Path) -> set[str]:
        folder = campaign(tmp)
        if log is not None:
            (folder / "turns" / "turn-01.yaml").write_text(log, encoding="utf-8")
        else:
            assert run_cli("next", str(folder)).returncode == 0
        filled = make(folder, tmp)
        return cli_codes("orders", "import", str(filled), "--campaign", str(folder), "--turn", "1", *extra)

    return trigger


def _file(name: str, content: bytes) -> Callable[[Path, Path], Path]:
    def make(folder: Path, tmp: Path) -> Path:
        (tmp / name).write_bytes(content)
        return tmp / name

    return make


def sheet(*rows: tuple[str, ...]) -> Callable[[Path, Path], Path]:
    """A filled spreadsheet of the form's columns: each row its id, path, carry and special (the
    printed columns left empty, as kitgen never reads them back)."""

    def make(folder: Path, tmp: Path) -> Path:
        import csv

        from kitgen.orders.rows import CSV_COLUMNS

        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(CSV_COLUMNS)
        for row in rows:
            ident, *parts = (*row, "", "", "")[:4]
            writer.writerow([ident, *[""] * (len(CSV_COLUMNS) - 4), *parts])
        (tmp / "whites.csv").write_text(out.getvalue(), encoding="utf-8")
        return tmp / "whites.csv"

    return make


SHARED_SECTIONS = (
    "turn: 1\ntrack: &shared {reds: []}\nresupply: *shared\n"
    'dice:\n  - {purpose: "II.C Denikin command roll, turn 1", value: 10}\n'
)
"""A log whose track and resupply sections are one anchored mapping: the Whites' resupply order
spliced into it reads back under track too (a track order of the unit alone), so the import
refuses to write it. Denikin's failed command roll holds the order (no error: on turn 1 the
unit's loads are full, and a resupply order that is not held is void)."""


_FORMS: dict[tuple[str, str], bytes] = {}
"""The order forms `kitgen orders form` wrote in this worker, by faction and the campaign's files:
a form is a pure function of them (its bytes are deterministic, which other tests check), and
dozens of triggers fill the same one."""


def _order_form(folder: Path, tmp: Path, faction: str = "whites") -> Path:
    """The faction's order form for turn 1, as `kitgen orders form` writes it."""
    import hashlib

    out = tmp / f"form-{faction}.pdf"
    files = sorted(p for p in folder.rglob("*.yaml") if "backups" not in p.parts)
    key = (faction, hashlib.sha256(b"".join(p.name.encode() + p.read_bytes() for p in files)).hexdigest())
    if key not in _FORMS:
        done = run_cli("orders", "form", str(folder), "--faction", faction, "--turn", "1", "--out", str(out))
        assert done.returncode == 0, done.stderr
        _FORMS[key] = out.read_bytes()
    out.write_bytes(_FORMS[key])
    return out


def filled(values: dict[str, str]) -> Callable[[Path, Path], Path]:
    """The Whites' order form with `values` typed in its fields, as a PDF viewer saves it."""

    def make(folder: Path, tmp: Path) -> Path:
        from pypdf import PdfReader, PdfWriter

        writer = PdfWriter()
        writer.append(PdfReader(_order_form(folder, tmp)))
        for page in writer.pages:
            writer.update_page_form_field_values(page, values, auto_regenerate=False)
        writer.write(tmp / "filled.pdf")
        return tmp / "filled.pdf"

    return make


def _pages_over_the_cap(folder: Path, tmp: Path) -> Path:
    from pypdf import PdfWriter

    writer = PdfWriter()
    for _ in range(FORM_PAGES + 1):
        writer.add_blank_page(width=595, height=842)
    writer.write(tmp / "long.pdf")
    return tmp / "long.pdf"


def _two_forms(folder: Path, tmp: Path) -> Path:
    """The Whites' and the Reds' forms put together into one PDF."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for faction in ("whites", "reds"):
        writer.append(PdfReader(_order_form(folder, tmp, faction)))
    writer.write(tmp / "both.pdf")
    return tmp / "both.pdf"


def _cut_form(folder: Path, tmp: Path) -> Path:
    """The Whites' form cut short, as a broken download leaves it."""
    (tmp / "cut.pdf").write_bytes(_order_form(folder, tmp).read_bytes()[:3000])
    return tmp / "cut.pdf"


# --- the table -------------------------------------------------------------------------------


def _layout(text: str) -> Trigger:
    """A trigger: a packets layout file saying `text`, loaded as the packets' layouts are."""

    def trigger(tmp: Path) -> set[str]:
        from kitgen.render.packetstyle import PacketStyle
        from kitgen.render.style import load_layout

        path = tmp / "packets.yaml"
        path.write_text(text, encoding="utf-8")
        return produced(lambda: load_layout(PacketStyle, path, named="layouts"))

    return trigger


def _packet_turn(tmp: Path) -> set[str]:
    from kitgen.engine.basis import turn_basis

    folder = campaign(tmp)
    return produced(lambda: turn_basis(load_campaign(folder), 5))


TRIGGERS: dict[str, Trigger] = {
    # reading files (kitgen.inputs)
    "file.missing": lambda tmp: produced(lambda: load_yaml(tmp / "nothing.yaml")),
    "value.length": _layout("layouts:\n  map: {frame: 3 furlongs}\n"),
    "layout.extends_unknown": _layout("layouts:\n  map: {extends: page}\n"),
    "value.reach_bands": lambda tmp: _layout(
        (Path(__file__).resolve().parent.parent / "layouts" / "packets.yaml")
        .read_text(encoding="utf-8")
        .replace("reach_alpha: [0.42, 0.3, 0.19, 0.1]", "reach_alpha: [0.4, 0.2]")
    )(tmp),
    "layout.extends_loop": _layout("layouts:\n  map: {extends: sector}\n  sector: {extends: map}\n"),
    "packet.no_such_turn": _packet_turn,
    "file.dangling_link": lambda tmp: produced(lambda: load_yaml(_link(tmp, "nowhere.yaml"))),
    "file.link_loop": _link_loop,
    "file.not_regular": _fifo,
    "file.is_folder": _folder_as_file,
    "file.too_big": _too_big,
    "file.unreadable": _unreadable,
    "folder.not_folder": campaign_with(_turns_a_file),
    # YAML text (kitgen.yamlsource)
    "yaml.not_utf8": yaml_file(b"a: \xff\n"),
    "yaml.control_character": yaml_file("a: \x07\n"),
    "yaml.nul": yaml_file("a: \x00\n"),
    "yaml.tab": yaml_file("a:\n\tb: 1\n"),
    "yaml.missing_colon": yaml_file("turn: 1\norders\n  reds: []\n"),
    "yaml.bad_indent": yaml_file("a:\n  b: 1\n c: 2\n"),
    "yaml.unclosed": yaml_file("a: [1, 2\nb: 3\n"),
    "yaml.too_deep": yaml_file("a: " + "[" * 70 + "]" * 70 + "\n"),
    "yaml.syntax": yaml_file("a: 1\n---\nb: 2\n"),
    "yaml.empty": yaml_file("# only a comment\n"),
    "yaml.tag": yaml_file("a: !!python/object/apply:os.system ['true']\n"),
    "yaml.merge_key": yaml_file("base: &b {x: 1}\nc:\n  <<: *b\n"),
    "yaml.complex_key": yaml_file("? [a, b]\n: 1\n"),
    "yaml.recursive_alias": yaml_file("a: &x [1, *x]\n"),
    "yaml.alias_bomb": yaml_file(_alias_bomb()),
    "yaml.duplicate_key": yaml_file("a: 1\na: 2\n"),
    "yaml.bad_scalar": yaml_file("a: 2019-13-45\n"),
    "yaml.number_reading": yaml_file("a: 0110\n"),
    "yaml.huge_number": yaml_file("a: 12345678901234567890\n"),
    "yaml.not_finite": yaml_file("a: .inf\n"),
    # outputs (kitgen.outputs)
    "out.not_regular": _out("fifo"),
    "out.is_folder": _out("folder"),
    "out.cannot_write": _out("file"),
    "out.folder_not_folder": _new_in_a_file,
    "out.foreign_files": _foreign_files,
    "out.protected": _out_protected,
    # values of the data files (kitgen.validation and the models)
    "value.unknown_key": scenario("command.yaml", "failure_bonus: 1", "failure_bonus: 1\nfailure_bonsu: 2"),
    "value.missing_key": scenario("supply.yaml", "trace_hexes: 5\n", ""),
    "value.wrong_type": scenario("events.yaml", "discard_after_use: true", "discard_after_use: yes please"),
    "value.out_of_range": scenario("battle.yaml", "permanent_pct: 40", "permanent_pct: 140"),
    "value.too_few": scenario("map.yaml", "standard_parallels: [45.0, 50.5]", "standard_parallels: [45.0]"),
    "value.too_many": scenario("map.yaml", "[45.0, 50.5]", "[45.0, 50.5, 52.0]"),
    "value.empty_text": scenario("scenario.yaml", 'title: "Denikin\'s War"', 'title: ""'),
    "value.literal": scenario("supply.yaml", "intact_on: even", "intact_on: evens"),
    "value.invalid": scenario("geo/rivers.geojson", lambda text: text.replace('"LineString"', '"Point"', 1)),
    "value.ident": scenario("setup.yaml", "{id: r_armoured_cars,", "{id: R-Armoured-Cars,"),
    "value.control": scenario(
        "setup.yaml", "name: Kharkov Armoured Car Detachment,", 'name: "Kharkov\\e]0;x\\a Cars",'
    ),
    "value.path_name": scenario("scenario.yaml", "id: denikin-1919", "id: Denikin 1919"),
    "value.dice": scenario("command.yaml", "roll: D10", "roll: d7"),
    "value.move_cost": scenario("movement.yaml", "forest: 3, mountain: p*,", "forest: 3, mountain: P,"),
    "value.vp": scenario(
        "towns.yaml",
        'lon: 36.19, vp: {reds: 2, whites: 1, ukrainians: "-"}}',
        "lon: 36.19, vp: {reds: 2, whites: 1, ukrainians: none}}",
    ),
    "value.colour": scenario("scenario.yaml", 'colour: "#D55E00"', "colour: red"),
    "value.hex_id": turn("orders:\n  whites:\n    - {unit: w_drozdovsky_1, move: [3416, 3417.5]}\n"),
    "value.lon_lat": scenario("map.yaml", "outline: [[32.8, 51.85], [33.4, 51.7],", "outline: [[32.8], [33.4, 51.7],"),
    "value.extent": scenario("map.yaml", "extent: {west: 26.3, east: 44.8,", "extent: {west: 44.8, east: 26.3,"),
    "value.parallels": scenario("map.yaml", "[45.0, 50.5]", "[-45.0, 45.0]"),
    "value.source_kind": scenario("map.yaml", "- {rail_exits: north}", "- {rail_exits: north, town: Kiev}"),
    "value.source_limits": scenario(
        "map.yaml", "- {town: Kiev, while_held: true}", "- {town: Kiev, north_of: Kharkov}"
    ),
    "value.effect_fields": scenario(
        "cards.yaml", "- {kind: vp, faction: ukrainians, amount: -3}", "- {kind: vp, faction: ukrainians}"
    ),
    # scenarios and campaigns (kitgen.loader, kitgen.campaign)
    "scenario.not_a_scenario": _not_a_scenario,
    "scenario.unknown": cli("scenario", "show", "denikn-1919"),
    "scenario.unknown_file": scenario("extra.yaml", "", "a: 1\n"),
    "campaign.scenario_unknown": campaign_with(_campaign_yaml("denikin-1918")),
    "campaign.misnamed_log": _turns(_write("turn-1.yaml")),
    "campaign.link_outside": _turns(lambda turns: (turns / "turn-01.yaml").symlink_to(BUNDLED / "setup.yaml")),
    "note.scenario_outside": campaign_with(_campaign_yaml(str(BUNDLED))),
    "note.no_turns_folder": campaign_with(lambda folder: (folder / "turns").rmdir()),
    "note.editor_file": _turns(_write("turn-01.yaml~")),
    "note.not_a_log": _turns(_write("README.txt", "our notes\n")),
    "new.not_empty": _new_in_a_full_folder,
    "samples.unknown": lambda tmp: cli_codes("samples", str(tmp / "copy"), "--sample", "sample-campaing"),
    "install.incomplete": _installed_without_layouts,
    "new.bad_seed": _bad_seed,
    "setup.off_map": scenario_map(
        "setup.yaml", "stands: {armoured_car: 2}, at: Kharkov}", "stands: {armoured_car: 2}, at: Tarnopol}"
    ),
    # cross-checks between the files of a scenario (kitgen.checks)
    "check.duplicate_faction": scenario(
        "scenario.yaml", "{id: makhnovists, name: Makhnovists", "{id: reds, name: Makhnovists"
    ),
    "check.duplicate_town": scenario("towns.yaml", "{name: Grigoriopol,", "{name: KIEV,"),
    "check.duplicate_commander": scenario("commanders.yaml", "name: Budenny,", "name: Trotsky,"),
    "check.duplicate_point": scenario("map.yaml", "{name: Alushta, lon: 34.41", "{name: Yalta, lon: 34.41"),
    "check.duplicate_river": scenario("geo/rivers.geojson", '{"name":"Desna"}', '{"name":"Dnieper"}'),
    "check.duplicate_id": scenario("setup.yaml", "{id: r_armoured_cars,", "{id: r_kharkov_communist,"),
    "check.duplicate_card": scenario("cards.yaml", "- id: sentovo", "- id: grigoriev_revolt"),
    "check.duplicate_slip": scenario("cards.yaml", "- id: red_rifle_drafts", "- id: red_rifle_regiment"),
    "check.duplicate_terrain": scenario("movement.yaml", "{id: marsh, name: Marsh}", "{id: open, name: Marsh}"),
    "check.duplicate_unit_type": scenario("movement.yaml", "- id: engineer\n", "- id: rr_repair\n"),
    "check.duplicate_stand_kind": scenario(
        "transport.yaml", "{id: tachanka, name: Tachanka", "{id: cavalry, name: Tachanka"
    ),
    "check.duplicate_ruling": scenario("movement.yaml", "- id: stop_at_enemy", "- id: foot_service_units"),
    "check.unknown_faction": scenario(
        "commanders.yaml", "name: Shchors, faction: reds", "name: Shchors, faction: greens"
    ),
    "check.unknown_scoring_faction": scenario("victory.yaml", "ukrainians: 40}", "ukrainians: 40, makhnovists: 10}"),
    "check.unknown_town": scenario(
        "map.yaml", "{town: Gulai Pole, while_held: true}", "{town: Gulai Polye, while_held: true}"
    ),
    "check.unknown_commander": scenario(
        "setup.yaml", "at: Kharkov, commander: Trotsky}", "at: Kharkov, commander: Vatsetiss}"
    ),
    "check.unknown_stand_kind": scenario(
        "setup.yaml", "stands: {armoured_car: 2}, at: Kharkov}", "stands: {armoured_cars: 2}, at: Kharkov}"
    ),
    "check.unknown_unit_type": scenario(
        "setup.yaml",
        "type: armoured_car, size: company, stands: {armoured_car: 2}",
        "type: armoured_cars, size: company, stands: {armoured_car: 2}",
    ),
    "check.unknown_rail_unit_type": scenario("transport.yaml", "unit_type: rr_train", "unit_type: infantry"),
    "check.unknown_moves_as": scenario("movement.yaml", "moves_as: cavalry", "moves_as: cavalri"),
    "check.unknown_terrain": scenario("map.yaml", "default_terrain: open", "default_terrain: jungle"),
    "check.unknown_ruling": scenario(
        "transport.yaml", "source: ruling:engineers_as_rr_repair}", "source: ruling:engineers_as_rr_repairs}"
    ),
    "value.history_date": scenario("setup.yaml", 'start: "1919-05-15"', 'start: "15 May 1919"'),
    "check.unknown_source_unit": scenario("setup.yaml", "  r_kharkov_communist: ", "  r_kharkov_communists: "),
    "check.post_unplaced": scenario("setup.yaml", "  Trotsky: {post:", "  Trotzky: {post:"),
    "check.post_not_held": scenario(
        "setup.yaml",
        '  Khudyakov: {post: "the 3rd Ukrainian Soviet Army", since: "1919-04"',
        '  Khudyakov: {post: "the 3rd Ukrainian Soviet Army", since: "1919-06"',
    ),
    "check.unknown_station": scenario(
        "railways.yaml", "stations: [Berdichev, Zhitomir]", "stations: [Berdichev, Zhitomirr]"
    ),
    "check.unknown_place": scenario("map.yaml", "through: [Sevastopol, Yalta,", "through: [Sevastopol, Yaltaa,"),
    "check.unknown_river": scenario("cards.yaml", "battles: {coastal: true}", "battles: {along: Volgaa}"),
    "check.missing_factions": scenario(
        "towns.yaml", "lon: 27.06, vp: {reds: 1, whites: 1, ukrainians: 1}}", "lon: 27.06, vp: {reds: 1, whites: 1}}"
    ),
    "check.missing_towns": scenario("setup.yaml", "  Shepetovka: reds\n", ""),
    "check.missing_terrains": scenario(
        "movement.yaml", "cost: {open: 1, forest: 2, mountain: 4, marsh: 4}", "cost: {open: 1, forest: 2, mountain: 4}"
    ),
    "check.roll_off_die": scenario("events.yaml", "draw_on: [6]", "draw_on: [7]"),
    "check.losses_not_100": scenario("battle.yaml", "return_pct: 60", "return_pct: 50"),
    "check.point_is_town": scenario("railways.yaml", "  - name: Olevsk\n", "  - name: Korosten\n"),
    "check.map_point_taken": scenario("map.yaml", "{name: Perekop, lon: 33.69", "{name: Kherson, lon: 33.69"),
    "check.bridge_not_consecutive": scenario(
        "railways.yaml", "between: [Vinnitsa, Zhmerinka]", "between: [Kiev, Zhmerinka]"
    ),
    "check.no_supply_sources": scenario(
        "map.yaml",
        "  makhnovists:\n    - {town: Gulai Pole, while_held: true}\n    - {depots: captured}\n",
        "  makhnovists: []\n",
    ),
    "check.river_two_classes": scenario("map.yaml", "crossable: [Donets,", "crossable: [Don, Donets,"),
    "check.river_no_course": scenario("map.yaml", "crossable: [Donets,", "crossable: [Kalka, Donets,"),
    "check.river_no_class": scenario("map.yaml", ", Bityug, Ilovlya]", ", Bityug]"),
    "check.commander_wrong_faction": scenario(
        "setup.yaml", "at: Kharkov, commander: Trotsky}", "at: Kharkov, commander: Wrangel}"
    ),
    "check.commander_twice": scenario(
        "setup.yaml", "at: Kiev, commander: Antonov-Ovsenko}", "at: Kiev, commander: Trotsky}"
    ),
    "check.alliance_of_one": scenario(
        "setup.yaml", "{factions: [reds, makhnovists], turns: 1}", "{factions: [reds, reds], turns: 1}"
    ),
    "check.empty_slip": scenario(
        "cards.yaml",
        "      replacements: {cavalry: 2}\n    - id: red_cavalry_regiment",
        "    - id: red_cavalry_regiment",
    ),
    "check.strength_gap": scenario("cards.yaml", "  - low: 0\n    high: 1\n", "  - low: 1\n    high: 1\n"),
    "check.strength_overlap": scenario("cards.yaml", "  - low: 0\n    high: 1\n", "  - low: -1\n    high: 1\n"),
    "check.low_above_high": scenario("cards.yaml", "  - low: 0\n    high: 1\n", "  - low: 1\n    high: 0\n"),
    "check.geometry_type": scenario("geo/coast.geojson", lambda text: text.replace(FEATURES, FEATURES + PIER, 1)),
    "check.chart_faces": scenario("victory.yaml", "reds: [3, 4, 4, 5, 5, 7]", "reds: [3, 4, 4, 5, 5]"),
    "check.moves_as_extra": scenario("movement.yaml", "    moves_as: cavalry\n", "    moves_as: cavalry\n    mp: 4\n"),
    "check.needs_mp": scenario("movement.yaml", "    mp: 12\n", ""),
    "check.rail_only_extra": scenario(
        "movement.yaml", "    rail_only: true\n", "    rail_only: true\n    crossable_river: 1\n"
    ),
    "check.needs_cost": scenario("movement.yaml", "    cost: {open: 1, forest: 1, mountain: 2, marsh: 2}\n", ""),
    "check.needs_crossable_river": scenario(
        "movement.yaml", "    crossable_river: 1\n    source: A\n  - id: cavalry", "    source: A\n  - id: cavalry"
    ),
    "check.bad_source": scenario("movement.yaml", "    source: A\n  - id: cavalry", "    source: Z.9\n  - id: cavalry"),
    # the map builder (kitgen.mapping.build)
    # valid parallels (one side of the equator), too near it for PROJ: |lat_1 + lat_2| must exceed its tolerance
    "map.projection": scenario_map("map.yaml", "[45.0, 50.5]", "[1.0e-10, 1.0e-10]"),
    "map.no_land": scenario_map("geo/coast.geojson", lambda text: '{"type": "FeatureCollection", "features": []}\n'),
    "map.coast_short": scenario_map("map.yaml", "east: 44.8,", "east: 48.0,"),
    "map.hex_too_large": scenario_map("scenario.yaml", "hex_size_km: 30", "hex_size_km: 900"),
    "map.hex_too_small": scenario_map("scenario.yaml", "hex_size_km: 30", "hex_size_km: 1"),
    "map.town_outside": scenario_map(
        "towns.yaml", "{name: Kiev, aliases: [Kyiv], lat: 50.45,", "{name: Kiev, aliases: [Kyiv], lat: 53.45,"
    ),
    "map.unbridged_crossing": scenario_map(
        "map.yaml", "through: [Kakhovka, Perekop, Simferopol]", "through: [Kherson, Kakhovka, Perekop, Simferopol]"
    ),
    "map.ferry_side": scenario_map("map.yaml", "between: [Kherson, Aleshki]", "between: [Kharkov, Aleshki]"),
    "map.no_rail_exit": scenario_map("map.yaml", "    - {rail_exits: north}\n", "    - {rail_exits: south}\n"),
    "map.hex_unknown": scenario_map("map.yaml", lambda _: board(hexes='"0909": {terrain: sea}')),
    "map.not_adjacent": scenario_map("map.yaml", lambda _: board('  sides: [{hexes: ["0101", "0301"], sea: true}]\n')),
    "map.rail_at_sea": scenario_map(
        "map.yaml", lambda _: board('  rail: [["0301", "0401"]]\n', '"0401": {terrain: sea}')
    ),
    "map.town_twice": scenario_map(
        "map.yaml", lambda _: board(hexes='"0101": {towns: [Kharkov]}, "0202": {towns: [Kharkov]}')
    ),
    "map.ferry_not_major": scenario_map(
        "map.yaml", lambda _: board('  ferries: [{hexes: ["0101", "0102"], units: 1}]\n')
    ),
    "map.override_no_link": scenario_map(
        "map.yaml",
        "default_terrain: open\n",
        'default_terrain: open\noverrides: [{rail: ["0101", "0102"], remove: true}]\n',
    ),
    "value.override": scenario(
        "map.yaml", "default_terrain: open\n", 'default_terrain: open\noverrides: [{hex: "2728", river: Don}]\n'
    ),
    "value.map_geography": scenario("map.yaml", "extent: {west: 26.3, east: 44.8, south: 43.3, north: 52.2}\n", ""),
    "arg.bad_window": cli("map", "--format", "yaml", "--window", "20-35"),
    # look-ups (kitgen.answers, kitgen.rules)
    "lookup.unknown_faction": cli("lookup", "vp", "greens", "10"),
    "lookup.unknown_town": cli("lookup", "town", "Kief"),
    "lookup.unknown_commander": cli("lookup", "commander", "Trotski"),
    "lookup.unknown_unit_type": cli("lookup", "move", "infantri", "open"),
    "lookup.unknown_terrain": cli("lookup", "move", "infantry", "jungle"),
    "lookup.unknown_stand_kind": cli("lookup", "load", "infantri=4"),
    # the command builds its conditions from flags; a scenario without the modifier a flag names lets one through
    # the scenario check (check.missing_modifiers) stops any condition kitgen judges from being
    # unknown to the data, so only a caller of the rule itself can ask for one
    "lookup.unknown_modifier": _library(
        lambda s: partisans.total_modifier(s.partisans.evade.modifiers, ["makhno_here"])
    ),
    "check.unjudged_modifier": _renamed_modifier,
    "check.missing_modifiers": _renamed_modifier,
    "lookup.no_threshold": cli("lookup", "vp", "makhnovists", "10"),
    "lookup.no_chart": cli("lookup", "reinforcements", "makhnovists", "3"),
    "lookup.roll_off_chart": cli("lookup", "reinforcements", "reds", "7"),
    "lookup.negative_vp": _library(lambda s: answers.threshold(s, "reds", -1)),
    "lookup.negative_failures": _library(lambda s: answers.commander(s, "Trotsky", -1)),
    "lookup.negative_stands": _library(lambda s: answers.losses(s, "loser", -1)),
    "lookup.depot_use": _library(lambda s: answers.depot(s, 0)),
    # no caller of the rule leaves out the winner's roll (the engine always rolls one)
    "lookup.no_equipment_roll": _library(lambda s: battle.equipment_recovered(s.battle, "winner")),
    # the printed kit
    "layout.unknown_paper": _library(_counters_on_a3),
    "layout.map_too_big": _library(_compact_map_on_a3),
    "booklet.unknown_ruling": _booklet("supply.yaml", DEPOT_USE, ""),
    "booklet.table_too_wide": _library(  # a column of 20 pt cannot hold "Ekaterinoslav" at any size
        lambda s: fit_table("vp", [["Town", "Red"], ["Ekaterinoslav", "3"]], 20.0, booklet_style(), 1.0)
    ),
    "booklet.rulings_left_out": _booklet(
        "supply.yaml", "  - id: depot_use\n", "  - id: new_ruling\n    text: Something new.\n  - id: depot_use\n"
    ),
    # the command line (kitgen.cli)
    "arg.not_folder": lambda tmp: cli_codes("validate", str(tmp / "nothing")),
    "arg.bad_load_item": cli("lookup", "load", "infantry4"),
    # the umpire's views (kitgen.engine.views)
    "view.unknown_faction": cli("units", str(SAMPLE), "--faction", "redz"),
    "view.unknown_hex": cli("hex", str(SAMPLE), "Kharkof"),
    "io.failed": _io_failed,
    "memory": _memory,
    # turn logs (kitgen.engine.replay)
    "log.turn_out_of_order": _turn_out_of_order,
    "note.not_replayed": _not_replayed,
    "log.no_such_turn": _no_such_turn,
    "log.turn_mismatch": _turn_mismatch,
    "log.dice_twice": turn(
        'dice:\n  - {purpose: "II.A event roll, turn 1", value: 1}\n  - {purpose: "II.A event roll, turn 1", value: 2}\n'
    ),
    "log.dice_out_of_range": turn('dice:\n  - {purpose: "II.A event roll, turn 1", value: 7}\n'),
    "log.unknown_faction": turn("orders:\n  greens: []\n"),
    "log.unknown_unit": turn('orders:\n  whites:\n    - {unit: w_nobody, move: ["3416", "3417"]}\n'),
    "log.foreign_unit": turn('orders:\n  reds:\n    - {unit: w_drozdovsky_1, move: ["3416", "3417"]}\n'),
    "log.unknown_train": turn('rail:\n  reds:\n    - {train: r_nothing, path: ["3416", "3417"]}\n'),
    "log.foreign_train": turn('rail:\n  reds:\n    - {train: w_at_rostov, path: ["3416", "3417"]}\n'),
    "log.unknown_ship": turn('sea:\n  whites:\n    - {ship: w_nothing, path: ["3719", "3819"]}\n'),
    "log.unknown_lost_ship": turn("ships_lost: [w_nothing]\n"),
    "log.off_map": turn('orders:\n  whites:\n    - {unit: w_drozdovsky_1, move: ["3416", "9999"]}\n'),
    "log.listed_twice": turn(kerch(RETREAT + RETREAT), KERCH),
    "log.bad_stands": turn(kerch('      - {unit: r_crimean_army, lost: {infantri: 1}, retreat: "2927"}\n'), KERCH),
    "log.disband_faction": turn("disband:\n  reds: [r_kiev_garrison]\n"),
    "log.partisans_bad": turn('partisans:\n  - {hex: "9999", faction: makhnovists, choice: fight}\n'),
    "log.remove_unit": turn("remove:\n  reds:\n    - {unit: w_drozdovsky_1, stands: {infantry: 1}}\n" + NO_EVENT),
    "log.remove_too_many": turn(
        "remove:\n  reds:\n    - {unit: r_13th_army_42nd, stands: {infantry: 99}}\n" + NO_EVENT
    ),
    "log.remove_owed": turn("remove:\n  reds:\n    - {unit: r_13th_army_42nd, stands: {infantry: 1}}\n" + NO_EVENT),
    "log.battle_no_loser": turn(
        'battles:\n  - hex: "4521"\n    winner: reds\n    units:\n      - {unit: r_10th_army}\n'
    ),
    "log.battle_no_winner": turn(
        'battles:\n  - hex: "3416"\n    winner: reds\n    units:\n      - {unit: w_drozdovsky_1}\n'
    ),
    "log.battle_unknown_unit": turn(kerch(RETREAT.replace("r_crimean_army", "r_crimean_armi")), KERCH),
    "log.battle_unit_elsewhere": turn(kerch("      - {unit: w_drozdovsky_1}\n" + RETREAT), KERCH),
    "log.battle_evaded": turn(
        'battles:\n  - hex: "2918"\n    winner: whites\n    units:\n      - {unit: w_vol_artillery}\n      - {unit: m_makhno_hq}\n'
        'partisans:\n  - {hex: "2918", faction: makhnovists, choice: evade}\n'
        'dice:\n  - {purpose: "II.D.1 makhnovists evade in 2918, turn 1", value: 6}\n'
        '  - {purpose: "II.D.1 enemy of makhnovists in 2918, turn 1", value: 1}\n',
        GULAI_POLE,
    ),
    "log.battle_too_many_lost": turn(kerch(RETREAT.replace("infantry: 1", "infantry: 9")), KERCH),
    "log.battle_ammo": turn(kerch(RETREAT.replace("lost: {infantry: 1}", "ammo_left: {infantry: 99}")), KERCH),
    "log.battle_loser_fate": turn(kerch("      - {unit: r_crimean_army, lost: {infantry: 1}}\n"), KERCH),
    "log.breakout_bad": turn(kerch("      - {unit: r_crimean_army, breakout: true}\n"), KERCH),
    "note.breakout_owed": _breakout_owed,
    "log.battle_retreat_blocked": turn(kerch(RETREAT.replace('"2927"', '"3416"')), KERCH),
    "log.battle_retreat_off_map": turn(kerch(RETREAT.replace('"2927"', '"9927"')), KERCH),
    "log.battle_surrender_not_cornered": turn(kerch("      - {unit: r_crimean_army, surrender: true}\n"), KERCH),
    "log.battle_captured": turn(kerch(RETREAT + "      - {unit: w_crimea_azov_2, captured: {artillery: 1}}\n"), KERCH),
    "log.battle_unknown_ship": turn(kerch(RETREAT, "w_hms_marlboro"), KERCH),
    "log.ship_not_in_battle": turn(
        'battles:\n  - hex: "0110"\n    winner: ukrainians\n    ships: [w_dd_zharkiy]\n    units:\n'
        "      - {unit: u_directorate_guard}\n" + RETREAT.replace('"2927"', '"0111"'),
        VOLOCHISK,
    ),
    "log.ship_fired": turn(kerch(RETREAT, "w_hms_marlborough, w_hms_marlborough"), KERCH),
    "log.ship_out_of_range": turn(kerch(RETREAT, "w_cruiser_kornilov"), KERCH),
    # order forms read back (kitgen.orders)
    "orders.not_a_form": orders_import(_file("junk.pdf", b"hello, this is no PDF")),
    "orders.unreadable_pdf": orders_import(_cut_form),
    "orders.too_many_pages": orders_import(_pages_over_the_cap),
    "orders.too_many_rows": orders_import(sheet(*[("w_drozdovsky_1",)] * (CSV_ROWS + 1))),
    "orders.several_forms": orders_import(_two_forms),
    "orders.csv_header": orders_import(_file("whites.csv", b"unit,hex\nw_drozdovsky_1,3416\n")),
    "orders.wrong_form": orders_import(filled({"id-whites-campaign": "0123456789ab"})),
    "orders.no_faction": orders_import(sheet()),
    "orders.unknown_row": orders_import(sheet(("w_drozdovsky_1", "3417"), ("w_drozdovski_1", "3417"))),
    "orders.row_twice": orders_import(sheet(("w_drozdovsky_1", "3417"), ("w_drozdovsky_1", "3317"))),
    "orders.bad_hex": orders_import(sheet(("w_drozdovsky_1", "3416 34x7"))),
    "orders.off_map": orders_import(sheet(("w_drozdovsky_1", "3416 9999"))),
    "orders.path_too_long": orders_import(sheet(("w_drozdovsky_1", " ".join(["3416", "3417"] * 33)))),
    "orders.not_for_row": orders_import(sheet(("w_drozdovsky_1", "3417", "w_vol_artillery"))),
    "orders.unknown_carried": orders_import(sheet(("w_at_yuzovka", "3416 3417", "w_drozdovski_1"))),
    "orders.carried_twice": orders_import(sheet(("w_at_yuzovka", "3416 3417", "w_drozdovsky_1, w_drozdovsky_1"))),
    "orders.bad_special": orders_import(sheet(("w_drozdovsky_1", "", "", "charge"))),
    "orders.partisans_differ": orders_import(
        sheet(("w_crimea_azov_1", "", "", "evade"), ("w_crimea_azov_2", "", "", "ambush"))
    ),
    "orders.void": orders_import(filled({"o-w_drozdovsky_1-path": "3416 3418"}), None, "--strict"),
    "orders.log_refused": orders_import(
        sheet(("w_drozdovsky_1", "3417")), 'turn: 1\norders:\n  reds:\n    - {unit: r_nobody, move: ["3416", "3417"]}\n'
    ),
    "orders.splice_mismatch": orders_import(sheet(("w_ghq_reserve", "", "", "resupply")), SHARED_SECTIONS),
}


def _next_twice(tmp: Path) -> set[str]:
    """`kitgen next` run again before its log is filled in: the turn is unfinished."""
    folder = campaign(tmp)
    run_cli("next", str(folder))
    return cli_codes("next", str(folder))


def _next_over_a_file(tmp: Path) -> set[str]:
    """A file where the next log goes that the campaign does not count as a log (a race with an
    editor): `kitgen next` never writes over it."""
    import kitgen.engine.template as template

    folder = campaign(tmp)
    (folder / "turns" / "notes.txt").write_text("the umpire's notes\n", encoding="utf-8")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(template, "log_name", lambda turn: "notes.txt")
        return cli_codes("next", str(folder))


def _sample(
    tmp: Path, last: int = 6, change: Callable[[dict[str, Any]], None] | None = None, source: Path = SAMPLE
) -> Path:
    """A copy of the sample campaign (or `source`) with the logs after `last` taken away, the last changed."""
    return trimmed_copy(source, tmp / source.name, last, change)


def _no_markov(data: dict[str, Any]) -> None:
    data["battles"][0]["units"] = [u for u in data["battles"][0]["units"] if u["unit"] != "w_markov_1"]


def _backups_a_link(tmp: Path) -> set[str]:
    folder = campaign(tmp)
    run_cli("next", str(folder))
    shutil.move(folder / "backups", tmp / "elsewhere")  # `kitgen next` noted its log there
    (folder / "backups").symlink_to(tmp / "elsewhere")
    form = sheet(("w_drozdovsky_1", ""))(folder, tmp)
    return cli_codes("orders", "import", str(form), "--campaign", str(folder))


def _edited_meanwhile(tmp: Path) -> set[str]:
    """The log saved by an editor while the import works: refused before the rename."""
    import kitgen.record.importer as importer

    folder = campaign(tmp)
    run_cli("next", str(folder))
    form = sheet(("w_drozdovsky_1", ""))(folder, tmp)
    log = folder / "turns" / "turn-01.yaml"
    real = importer.splice

    def saved(*args: Any) -> str:
        log.write_text(log.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
        return real(*args)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(importer, "splice", saved)
        return produced(lambda: importer.import_orders(folder, form))


def _past_turn(tmp: Path) -> set[str]:
    folder = _sample(tmp)
    run_cli("next", str(folder))
    form = sheet(("w_drozdovsky_1", ""))(folder, tmp)
    return cli_codes("orders", "import", str(form), "--campaign", str(folder), "--turn", "6")


def _amend_breaks(tmp: Path) -> set[str]:
    """Turn 1's order of a unit that fought in turn 2 amended to hold: turn 2 no longer plays."""
    folder = _sample(tmp, 2)
    first = yaml.safe_load((folder / "turns" / "turn-01.yaml").read_text(encoding="utf-8"))
    fought = {
        p["unit"]
        for b in yaml.safe_load((folder / "turns" / "turn-02.yaml").read_text())["battles"]
        for p in b["units"]
    }
    unit = sorted({o["unit"] for orders in first["orders"].values() for o in orders} & fought)[0]
    form = sheet((unit, ""))(folder, tmp)
    return cli_codes("orders", "import", str(form), "--campaign", str(folder), "--turn", "1", "--amend")


def _restore_breaks(tmp: Path) -> set[str]:
    folder = _sample(tmp, 2)
    (folder / "backups").mkdir()
    broken = (
        (folder / "turns" / "turn-02.yaml").read_text(encoding="utf-8").replace("winner: whites", "winner: nobody", 1)
    )
    (folder / "backups" / "turn-02.yaml.1").write_text(broken, encoding="utf-8")
    return cli_codes("restore", str(folder), "turn-02.yaml.1")


def _restore_gap(tmp: Path) -> set[str]:
    folder = _sample(tmp, 2)
    (folder / "backups").mkdir()
    shutil.copy(folder / "turns" / "turn-02.yaml", folder / "backups" / "turn-04.yaml.1")
    return cli_codes("restore", str(folder), "turn-04.yaml.1")


TRIGGERS |= {
    "record.restore_breaks": _restore_breaks,
    "record.restore_gap": _restore_gap,
}


TRIGGERS |= {
    # the campaign record (kitgen.record): a turn's life, locks, backups
    "next.log_exists": _next_over_a_file,
    "record.untouched": _next_twice,
    "record.next_refused": _next_twice,
    "record.no_report": lambda tmp: cli_codes("next", str(_sample(tmp, 2, lambda d: d.pop("battles")))),
    "record.left_out": lambda tmp: cli_codes("next", str(_sample(tmp, 2, _no_markov))),
    "record.folder_not_own": _backups_a_link,
    "record.no_backup": lambda tmp: cli_codes("restore", str(campaign(tmp)), "turn-01.yaml.1"),
    "record.changed_on_disk": _edited_meanwhile,
    "record.no_log": lambda tmp: cli_codes(
        "orders", "import", str(sheet(("w_drozdovsky_1", ""))(campaign(tmp), tmp)), "--campaign", str(tmp / "c")
    ),
    "record.past_turn": _past_turn,
    "record.amend_breaks": _amend_breaks,
    "record.stale_form": orders_import(filled({"id-whites-state": "0123456789ab"})),
    "record.void_imported": orders_import(filled({"o-w_drozdovsky_1-path": "3416 3418"})),
}


def _past_the_end(tmp: Path) -> set[str]:
    """`kitgen turn` after the last turn of the three-turn scenario, the club not playing on."""
    folder = tmp / "ts"
    shutil.copytree(SAMPLE.parent / "tsaritsyn-sample", folder)
    return cli_codes("turn", str(folder), "--out", str(tmp / "out"))


TRIGGERS |= {
    # time and the end (kitgen.rules.ending): scenarios declare their end
    "value.win_fields": scenario("victory.yaml", "win: []", "win: [{faction: whites, kind: hold}]"),
    "check.win_needs_last_turn": scenario(
        "victory.yaml", "win: []", "win: [{faction: whites, kind: hold, towns: [Kiev]}]"
    ),
    "check.win_against_itself": scenario(
        "victory.yaml", "win: []", "win: [{faction: whites, kind: eliminate, enemies: [whites], when: any_turn}]"
    ),
    "campaign.past_the_end": _past_the_end,
}


def _roll_unused(tmp: Path) -> set[str]:
    """A roll given for a purpose the turn does not ask for: unused, a warning at its line."""
    from kitgen.engine.replay import played

    folder = campaign(tmp)
    text = 'turn: 1\ndice:\n  - {purpose: "II.A event roll, turn 9", value: 1}\n'
    (folder / "turns" / "turn-01.yaml").write_text(text, encoding="utf-8")
    return _problems([u.note for _, record in played(load_campaign(folder)) for u in record.unused_rolls], "note")


def saved(change: Callable[[Any], None] = lambda field: None, **encrypt: str) -> Callable[[Path, Path], Path]:
    """The Whites' order form as a viewer saves it: `change` applied to each field, `encrypt`
    given to pypdf."""

    def make(folder: Path, tmp: Path) -> Path:
        from pypdf import PdfReader, PdfWriter

        writer = PdfWriter()
        writer.append(PdfReader(_order_form(folder, tmp)))
        for page in writer.pages:
            for annot in page.get("/Annots") or []:
                change(annot.get_object())
        if encrypt:
            writer.encrypt(**encrypt)  # type: ignore[arg-type]
        writer.write(tmp / "saved.pdf")
        return tmp / "saved.pdf"

    return make


def _field(name: str, key: str, value: Callable[[], Any]) -> Callable[[Any], None]:
    """Sets `key` of the field `name` to `value()` (a pypdf object)."""

    def change(field: Any) -> None:
        from pypdf.generic import NameObject

        if field.get("/T") == name:
            field[NameObject(key)] = value()

    return change


def _text(text: str) -> Callable[[], Any]:
    from pypdf.generic import TextStringObject

    return lambda: TextStringObject(text)


def _number() -> Any:
    from pypdf.generic import NumberObject

    return NumberObject(3417)


def _no() -> Any:
    from pypdf.generic import NameObject

    return NameObject("/No")


TRIGGERS |= {
    # inputs as people make them (kitgen.orders.formread, kitgen.engine.logcheck, kitgen.cli)
    "note.roll_unused": _roll_unused,
    "orders.pdf_password": orders_import(saved(user_password="secret", owner_password="u", algorithm="RC4-128")),
    "orders.field_not_text": orders_import(saved(_field("o-w_drozdovsky_1-path", "/V", _number))),
    "orders.field_value_too_long": orders_import(filled({"o-w_drozdovsky_1-path": "3416 " * (FIELD_CHARS // 5 + 1)})),
    "orders.field_twice": orders_import(saved(_field("o-w_at_yuzovka-path", "/T", _text("o-w_drozdovsky_1-path")))),
    "orders.misspelt_field": orders_import(saved(_field("o-w_drozdovsky_1-path", "/T", _text("o-w_drozdovsky_1-pth")))),
    "orders.field_name_too_long": orders_import(saved(_field("o-w_drozdovsky_1-path", "/T", _text("o-" + "x" * 400)))),
    "orders.tick_value": orders_import(saved(_field("o-w_drozdovsky_1-special-resupply", "/V", _no))),
    "orders.csv_delimiter": orders_import(_file("whites.csv", b"id;path;carry;special;x,id,path,carry,special\n")),
    "orders.csv_column_twice": orders_import(
        _file("whites.csv", b"id,path,carry,special,path\nw_drozdovsky_1,,,,3417\n")
    ),
    "orders.csv_extra_cells": orders_import(_file("whites.csv", b"id,path,carry,special\nw_drozdovsky_1,3417,,,x\n")),
    "orders.csv_open_quote": orders_import(
        _file("whites.csv", b'id,path,carry,special\nw_drozdovsky_1,"3417,,\nx,,,\n')
    ),
    "orders.csv_after_quote": orders_import(_file("whites.csv", b'id,path,carry,special\nw_drozdovsky_1,"3417" x,,\n')),
    "orders.csv_identity": orders_import(
        _file("whites.csv", b"id,path,carry,special\nw_drozdovsky_1,,,\n#form faction=whites turn=seven,,,\n")
    ),
    "orders.csv_identity_twice": orders_import(
        _file(
            "whites.csv",
            b"id,path,carry,special\n#form faction=whites turn=7 campaign=0 state=0,,,\n"
            b"#form faction=whites turn=7 campaign=0 state=0,,,\n",
        )
    ),
    "lookup.scenario_and_campaign": cli(
        "lookup", "town", "Kiev", "--scenario", "denikin-1919", "--campaign", str(SAMPLE)
    ),
}


# --- the umpire's desk: who rolls, rolls, battle reports, the prompt (issue 40) ------------------


def _tsaritsyn(tmp: Path, last: int = 3, change: Callable[[dict[str, Any]], None] | None = None) -> Path:
    """A copy of the Tsaritsyn sample (`dice: table`) with the logs after `last` taken away and
    the last changed."""
    return _sample(tmp, last, change, SAMPLE.parent / "tsaritsyn-sample")


def _no_battles(data: dict[str, Any]) -> None:
    data.pop("battles")


def _one_roll_out(data: dict[str, Any]) -> None:
    data["dice"] = [d for d in data["dice"] if not d["purpose"].startswith("II.A ")]


def _kitgen_rolls(tmp: Path) -> Path:
    """The Tsaritsyn sample with `dice: kitgen`, its last log's event roll taken out."""
    folder = _tsaritsyn(tmp, 3, _one_roll_out)
    edit(folder / "campaign.yaml", "dice: table", "dice: kitgen")
    return folder


def _new_answered(answers: str) -> Trigger:
    """`kitgen new` with no --dice, answering its question as `answers` say."""

    def trigger(tmp: Path) -> set[str]:
        with _recording() as made:
            result = run_cli("new", str(tmp / "c"), answers=answers)
        return _printed(made, result.stderr, result.returncode)

    return trigger


def _form_problems(picked: dict[tuple[str, str], list[str]], hex_id: str = "5212", off: str = "") -> Trigger:
    """A report form of a battle of the Tsaritsyn sample's turn 3 (at Voroponovo, 5212, or
    Tsaritsyn, 5313), its bubbles marked as `picked` says: the problems of reading it. `off`: a
    side its units' hexes have no hex across (the map's edge)."""

    def trigger(tmp: Path) -> set[str]:
        from dataclasses import replace

        from kitgen.engine.contacts_ahead import contacts_ahead
        from kitgen.engine.turn import read_log
        from kitgen.reports.battleform import battle_form, battle_from

        folder = _tsaritsyn(tmp, 3, _no_battles)
        c = load_campaign(folder)
        log, source = read_log(folder / "turns" / "turn-03.yaml")
        contact = next(x for x in contacts_ahead(c, replay(c, 2), log, source) if x.hex == hex_id)
        form = battle_form(c, contact)
        if off:
            units = tuple(replace(u, sides={d: h for d, h in u.sides.items() if d != off}) for u in form.units)
            form = replace(form, units=units)
        names = {f.id: f.name for f in c.scenario.meta.factions}
        reported = battle_from(form, picked, names)
        return _problems([Problem.of(tmp / "report.pdf", 1, 1, p.message) for p in reported.problems])

    return trigger


def _report_at(battle: dict[str, Any]) -> Trigger:
    """`report_battles` of one battle into the Tsaritsyn sample's turn 3 (its battles taken out)."""

    def trigger(tmp: Path) -> set[str]:
        from kitgen.engine.turnlog import Battle
        from kitgen.record.battles import report_battles

        folder = _tsaritsyn(tmp, 3, _no_battles)
        return produced(lambda: report_battles(folder, [Battle.model_validate(battle)], source=tmp / "report.pdf"))

    return trigger


def _undo_nothing(tmp: Path) -> set[str]:
    folder = _tsaritsyn(tmp)
    return cli_codes("undo", str(folder))


def _no_campaign_here(tmp: Path) -> set[str]:
    with _recording() as made:
        result = run_cli("status", cwd=tmp)
    return _printed(made, result.stderr, result.returncode)


def _import_into_a_finished_turn(tmp: Path) -> set[str]:
    folder = _tsaritsyn(tmp, 2)
    edit(folder / "campaign.yaml", "scenario:", "play_on: true\nscenario:")
    form = tmp / "whites.csv"
    assert run_cli("orders", "form", str(folder), "--faction", "whites", "--csv", "--out", str(form)).returncode == 0
    return cli_codes("orders", "import", str(form), "--campaign", str(folder))


def _undo_gone(tmp: Path) -> set[str]:
    """The log `kitgen next` made, taken away by hand before `kitgen undo` takes it away."""
    folder = _tsaritsyn(tmp)
    edit(folder / "campaign.yaml", "dice: table", "dice: table\nplay_on: true")
    assert run_cli("next", str(folder)).returncode == 0
    from kitgen.record.restore import take_back

    return produced(lambda: take_back(folder, "turn-09.yaml"))


BEATEN = {
    ("contact", "winner"): ["whites"],
    **{(u, "fate"): ["N"] for u in ("r_38th_div", "r_39th_div", "r_zhloba_cav")},
}
VOROPONOVO = [
    {"unit": "w_1st_kuban_corps"},
    {"unit": "r_38th_div", "retreat": "5211"},
    {"unit": "r_zhloba_cav", "retreat": "5211"},
]
"""The battle at Voroponovo (5212) of the Tsaritsyn sample's turn 3 but for the 39th Division."""
RETREAT_INTO_THE_STORM = {"unit": "r_39th_div", "retreat": "5313"}
"""A retreat the rules refuse: into Tsaritsyn, where the Whites storm the city the same turn."""
TSARITSYN = {
    ("contact", "winner"): ["whites"],
    **{(u, "fate"): ["N"] for u in ("r_37th_div", "r_tsaritsyn_art", "r_communists")},
}
TRIGGERS |= {
    "arg.no_campaign_here": _no_campaign_here,
    "note.who_rolls_unsaid": lambda tmp: cli_codes("validate", str(campaign(tmp))),
    "prompt.ended": _new_answered(""),
    "prompt.wrong": _new_answered("dice\n"),
    "prompt.gave_up": _new_answered("x\n" * 5),
    "record.orders_out": lambda tmp: cli_codes("next", str(_tsaritsyn(tmp, 3, lambda d: d.pop("handed_in")))),
    "record.roll_missing": lambda tmp: cli_codes("next", str(_tsaritsyn(tmp, 3, _one_roll_out))),
    "record.roll_unwritten": lambda tmp: cli_codes("next", str(_kitgen_rolls(tmp))),
    "record.turn_finished": _import_into_a_finished_turn,
    "record.nothing_to_undo": _undo_nothing,
    "record.undo_gone": _undo_gone,
    "roll.changes_battles": lambda tmp: cli_codes(
        "roll",
        str(_tsaritsyn(tmp, 3, lambda d: d.update(dice=[x for x in d["dice"] if "Wrangel" not in x["purpose"]]))),
        "--give",
        "II.C Wrangel command roll, turn 3=9",
    ),
    "roll.not_asked": lambda tmp: cli_codes(
        "roll", str(_tsaritsyn(tmp, 3, _one_roll_out)), "--give", "II.A event roll, turn 9=3"
    ),
    "roll.out_of_range": lambda tmp: cli_codes(
        "roll", str(_tsaritsyn(tmp, 3, _one_roll_out)), "--give", "II.A event roll, turn 3=7"
    ),
    "roll.bad_give": lambda tmp: cli_codes("roll", str(_tsaritsyn(tmp)), "--give", "II.A event roll, turn 3"),
    "roll.table_rolls": lambda tmp: produced(
        lambda: __import__("kitgen.record.rolls", fromlist=["give_rolls"]).give_rolls(
            _tsaritsyn(tmp, 3, _one_roll_out), None
        )
    ),
    "roll.kitgen_rolls": lambda tmp: cli_codes("roll", str(_kitgen_rolls(tmp)), "--give", "II.A event roll, turn 3=3"),
    "report.several": _form_problems({**BEATEN, ("r_39th_div", "lost:infantry"): ["1", "2"]}),
    "report.no_winner": _form_problems({("r_39th_div", "fate"): ["N"]}),
    "report.too_many": _form_problems(
        {**BEATEN, ("r_39th_div", "lost:infantry"): ["2"], ("r_39th_div", "routed:infantry"): ["2"]}
    ),
    "report.roll_unasked": _form_problems(
        {
            **TSARITSYN,
            ("r_tsaritsyn_art", "lost:artillery"): ["1"],
            ("r_tsaritsyn_art", "equipment:artillery:1"): ["4"],
        },
        "5313",
    ),
    "report.winner_fate": _form_problems({**BEATEN, ("w_1st_kuban_corps", "fate"): ["S"]}),
    "report.no_fate": _form_problems({("contact", "winner"): ["whites"]}),
    "report.side_off_map": _form_problems(BEATEN, off="N"),
    "report.breakout_not_exempt": _form_problems({**BEATEN, ("r_39th_div", "fate"): ["breakout"]}),
    "report.loser_captures": _form_problems({**TSARITSYN, ("r_37th_div", "captured:tank"): ["1"]}, "5313"),
    "report.no_contact": _report_at({"hex": "5513", "winner": "whites", "units": [{"unit": "w_1st_kuban_corps"}]}),
    "report.not_in_contact": _report_at(
        {"hex": "5212", "winner": "whites", "units": [{"unit": "w_1st_kuban_corps"}, {"unit": "w_tank_det"}]}
    ),
    "report.leaves_out": _report_at({"hex": "5212", "winner": "whites", "units": [{"unit": "w_1st_kuban_corps"}]}),
    "report.refused": _report_at({"hex": "5212", "winner": "whites", "units": [*VOROPONOVO, RETREAT_INTO_THE_STORM]}),
    "report.not_yet": lambda tmp: cli_codes("report", str(_tsaritsyn(tmp, 3, _one_roll_out))),
    "report.no_breakout": lambda tmp: produced(lambda: _no_way_out(tmp)),
}


def _no_way_out(tmp: Path) -> None:
    """A breakout asked of a unit with no enemy next to it (II.B.1)."""
    from kitgen.desk.battleentry import _ask_breakout
    from kitgen.engine.state import BreakoutOwed
    from kitgen.prompts import Asker
    from kitgen.record.rolls import turn_rolls

    folder = _tsaritsyn(tmp, 3, _no_battles)
    at = turn_rolls(folder)
    _ask_breakout(at, BreakoutOwed("r_16th_div", "4908", 0, 0), Asker(io.StringIO("")), {})


# --- hardening, round 3 (issue 41): output folders and the record --------------------------------


def _product_set(folder: Path, files: dict[str, bytes], *, keep: bool = True) -> None:
    from kitgen.outputs import ProductFolder

    with ProductFolder(folder, keep=keep) as product:
        for name, data in files.items():
            product.write(name, data)


def _saved_into_the_folder_meanwhile(tmp: Path) -> set[str]:
    """A file saved into a gathering folder while kitgen writes its next set."""
    import kitgen.outputs as outputs

    folder = tmp / "packets"
    _product_set(folder, {"a.pdf": b"a"})
    real = outputs._swap_in

    def saved(staging: Path, target: Path, seen: Any = None) -> None:
        (target / "notes.txt").write_text("mine", encoding="utf-8")
        real(staging, target, seen)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(outputs, "_swap_in", saved)
        return produced(lambda: _product_set(folder, {"b.pdf": b"b"}))


def _changed_since_written(tmp: Path) -> set[str]:
    """A file of kitgen's set, filled and saved in place, that the set would write again."""
    folder = tmp / "packets"
    _product_set(folder, {"a.pdf": b"a"})
    (folder / "a.pdf").write_bytes(b"filled")
    return produced(lambda: _product_set(folder, {"a.pdf": b"again"}))


def _saved_over_the_import(tmp: Path) -> set[str]:
    """An editor's save the moment after an import's swap."""
    import kitgen.outputs as outputs

    folder = campaign(tmp)
    assert run_cli("next", str(folder)).returncode == 0
    form = sheet(("w_drozdovsky_1", ""))(folder, tmp)
    real = outputs.replace_if_unchanged

    def then_saved(path: Path, data: bytes, expected: bytes) -> None:
        real(path, data, expected)
        path.write_bytes(expected)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(outputs, "replace_if_unchanged", then_saved)
        return cli_codes("orders", "import", str(form), "--campaign", str(folder))


def _index_spoilt_by_hand(tmp: Path, aside: bool = False, mended_not: bool = False) -> set[str]:
    """An import made, the index of backups then spoilt by hand; `aside`: one more write sets it
    aside; `mended_not`: the listing then names the one set aside, still spoilt."""
    folder = campaign(tmp)
    assert run_cli("next", str(folder)).returncode == 0
    index = folder / "backups" / "index.json"
    index.write_text("{ spoilt by hand", encoding="utf-8")
    if not aside:
        return cli_codes("backups", str(folder))
    form = sheet(("w_drozdovsky_1", ""))(folder, tmp)
    said = cli_codes("orders", "import", str(form), "--campaign", str(folder))
    return cli_codes("backups", str(folder)) if mended_not else said


def _log_past_its_size(tmp: Path) -> set[str]:
    """An import that would make the log larger than every command reads a log to."""
    import kitgen.record.logfile as logfile

    folder = campaign(tmp)
    assert run_cli("next", str(folder)).returncode == 0
    form = sheet(("w_drozdovsky_1", ""))(folder, tmp)
    size = max((folder / "turns").glob("turn-*.yaml")).stat().st_size
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(logfile, "LOG_BYTES", size)
        return cli_codes("orders", "import", str(form), "--campaign", str(folder))


TRIGGERS |= {
    "record.log_too_large": _log_past_its_size,
    "record.index_spoilt": _index_spoilt_by_hand,
    "record.index_set_aside": lambda tmp: _index_spoilt_by_hand(tmp, aside=True),
    "record.index_aside": lambda tmp: _index_spoilt_by_hand(tmp, aside=True, mended_not=True),
    "out.changed_meanwhile": _saved_into_the_folder_meanwhile,
    "out.changed_since": _changed_since_written,
    "record.saved_over": _saved_over_the_import,
}


# --- the tests -------------------------------------------------------------------------------


_ENTRY = re.compile(r'^@(?:\w+\.)?(?:data|usage|note)\("([^"]+)"\)$', re.MULTILINE)


def _declared(path: Path) -> set[str]:
    """The codes a module's source declares with @data, @usage or @note."""
    return set(_ENTRY.findall(path.read_text(encoding="utf-8")))


def test_every_catalogue_entry_has_a_trigger() -> None:
    """Importing the modules that produce messages fills the catalogue with the entries
    messages.py declares, and no other (no module declares its own); each entry has a trigger
    here, and each trigger an entry."""
    for name in REGISTERING:
        importlib.import_module(name)
    package = Path(messages.__file__).parent
    elsewhere = {str(p.relative_to(package)): _declared(p) for p in package.rglob("*.py") if p.name != "messages.py"}
    assert {file: codes for file, codes in elsewhere.items() if codes} == {}
    assert len(CATALOGUE) > 150 and set(CATALOGUE) == _declared(package / "messages.py")
    assert all(entry.code == code and entry.kind in _VIA for code, entry in CATALOGUE.items())
    assert sorted(set(CATALOGUE) - set(TRIGGERS)) == [], "entries with no trigger"
    assert sorted(set(TRIGGERS) - set(CATALOGUE)) == [], "triggers of no entry"


_VIA = {"data": {"problem", "cli-problem"}, "usage": {"usage", "cli-message"}, "note": {"note", "cli-problem"}}
"""How each kind of entry reaches the user: data in a file's problems, usage as a UsageError
(`kitgen: ...`, exit status 2), notes among a campaign's notes."""


# --- paper order forms read back from scans (kitgen.scan) ---------------------------------------


def orders_scan(make: Callable[[Path, Path], list[Path]], *extra: str) -> Trigger:
    """A trigger: `kitgen orders scan` of the files `make(campaign, tmp)` into turn 1 of a new
    campaign (its log as `kitgen next` writes it); `extra` are more options of the scan."""

    def trigger(tmp: Path) -> set[str]:
        folder = campaign(tmp)
        assert run_cli("next", str(folder)).returncode == 0
        files = make(folder, tmp)
        return cli_codes("orders", "scan", *map(str, files), "--campaign", str(folder), *extra)

    return trigger


Marks = Callable[[Any], list[Any]]
"""The pencil marks on a page, from its plan (`tests.penciled.Pencil`)."""


def _scan(
    marks: Marks = lambda plan: [],
    *,
    change: Callable[[Any, Any], Any] | None = None,
    written: Callable[[Any], dict[tuple[str, int], str]] | None = None,
    twice: bool = False,
    page: int = 0,
) -> Callable[[Path, Path], list[Path]]:
    """A scan of a page (the first by default) of the Whites' form for turn 1, at 200 dpi, with
    pencil `marks`, hexes `written`, and then `change(image, plan)` made to the picture."""

    def make(folder: Path, tmp: Path) -> list[Path]:
        import numpy as np

        from tests.penciled import filled_page, printed, save

        form = printed(folder, "whites")
        k = page % len(form.plans)
        plan = form.plans[k]
        image = filled_page(form, k, marks(plan), np.random.default_rng(7), written=written(plan) if written else None)
        if change is not None:
            image = change(image, plan)
        save(image, tmp / "scan.png")
        return [tmp / "scan.png"] * (2 if twice else 1)

    return make


def _first(plan: Any) -> str:
    return str(plan.rows[0].row.id)


def _blank(image: Any, plan: Any) -> Any:
    return np.full_like(image, 250)


def _qr_saying(text: Callable[[Any], str]) -> Callable[[Any, Any], Any]:
    """The page with its QR code painted over by another saying `text(its code)`."""

    def change(image: Any, plan: Any) -> Any:
        import cv2

        dpi = 200 / 72
        x0, top, side = plan.qr[0] * dpi, (plan.size[1] - plan.qr[1] - plan.layout.qr) * dpi, plan.layout.qr * dpi
        code = cv2.QRCodeEncoder.create().encode(text(plan))
        drawn = cv2.resize(code, (round(side), round(side)), interpolation=cv2.INTER_NEAREST)
        image[round(top) : round(top) + drawn.shape[0], round(x0) : round(x0) + drawn.shape[1]] = drawn
        return image

    return change


def _kitgen_code(**changed: Any) -> Callable[[Any], str]:
    """The code of the Whites' first page of turn 1 with `changed` fields."""

    def text(plan: Any) -> str:
        from dataclasses import replace

        from kitgen.campaign import load_campaign
        from kitgen.engine.basis import turn_basis
        from kitgen.orders.rows import campaign_key, state_key
        from kitgen.orders.sheetplan import FormPage

        folder = _SPACE["root"] / "campaign"
        campaign = load_campaign(folder)
        start = turn_basis(campaign, 1).start
        page = FormPage(campaign_key(campaign), state_key(start), 1, 1, 1, 99, "a4")
        return replace(page, **changed).code()

    return text


def _no_markers(image: Any, plan: Any) -> Any:
    """Two corner markers covered (a scan cut short of the page's corners)."""
    dpi = 200 / 72
    for _, x, y in plan.markers[:2]:
        top = (plan.size[1] - y - plan.layout.marker) * dpi
        image[
            max(0, round(top) - 10) : round(top + plan.layout.marker * dpi) + 10,
            max(0, round(x * dpi) - 10) : round((x + plan.layout.marker) * dpi) + 10,
        ] = 255
    return image


def _moved_marker(image: Any, plan: Any) -> Any:
    """One corner marker 5 mm out of its place (the corner of the page bent back)."""
    dpi = 200 / 72
    _, x, y = plan.markers[2]
    top, left, side = (
        round((plan.size[1] - y - plan.layout.marker) * dpi),
        round(x * dpi),
        round(plan.layout.marker * dpi),
    )
    patch = image[top : top + side, left : left + side].copy()
    image[top - 3 : top + side + 3, left - 3 : left + side + 3] = 255
    shift = round(5 / 25.4 * 200)
    image[top - shift : top - shift + side, left - shift : left - shift + side] = patch
    return image


def _rows_blurred(image: Any, plan: Any) -> Any:
    """The rows out of focus, the top of the page (its QR code) sharp: a phone held at a slant."""
    import cv2

    top = round((plan.size[1] - plan.rows_top) * 200 / 72)
    bottom = round((plan.size[1] - plan.layout.margin) * 200 / 72)  # the bottom markers stay sharp
    image[top:bottom] = cv2.GaussianBlur(image[top:bottom], (0, 0), 9)
    return image


def _off_the_map(plan: Any) -> list[Any]:
    """Steps of a row of the page all one way, until they leave the map (within the steps the
    row offers)."""
    from kitgen.campaign import load_campaign
    from kitgen.mapping.hexgrid import DIRECTION_NAMES

    grid = load_campaign(_SPACE["root"] / "campaign").board.grid
    for row in (rp.row for rp in plan.rows):
        for side in DIRECTION_NAMES:
            cell, steps = grid.parse_id(row.hex), 0
            while cell is not None and steps < row.offered:
                cell, steps = grid.toward(cell, side), steps + 1
            if cell is None:
                return [(row.id, "step", k, side, "fill") for k in range(1, steps + 1)]
    raise AssertionError("no way off the map within its steps from any row's hex of the page")


def _pdf_toward(*sides: str, special: str = "") -> Callable[[Path, Path], Path]:
    """The Whites' form saved with the first unit's side bubbles ticked, and its special order."""
    yes = lambda: __import__("pypdf").generic.NameObject("/Yes")  # noqa: E731
    changes = [_field(f"o-w_drozdovsky_1-toward-{side}", "/V", yes) for side in sides]
    if special:
        changes.append(_field(f"o-w_drozdovsky_1-special-{special}", "/V", yes))
    return saved(lambda field: [change(field) for change in changes] and None)


TRIGGERS |= {
    "scan.not_a_picture": orders_scan(lambda folder, tmp: [_file("junk.png", b"no picture")(folder, tmp)]),
    "scan.no_code": orders_scan(_scan(change=_blank)),
    "scan.other_code": orders_scan(_scan(change=_qr_saying(lambda plan: "https://example.com/menu"))),
    "scan.wrong_form": orders_scan(_scan(change=_qr_saying(_kitgen_code(turn=9)))),
    "scan.stale": orders_scan(_scan(change=_qr_saying(_kitgen_code(state="0123456789ab")))),
    "scan.markers": orders_scan(_scan(change=_no_markers)),
    "scan.not_flat": orders_scan(_scan(change=_moved_marker)),
    "scan.faint": orders_scan(_scan(change=_rows_blurred)),
    "scan.doubt_marks": orders_scan(_scan(lambda plan: [(_first(plan), "step", 1, "N", "circled")])),
    "scan.doubt_gap": orders_scan(_scan(lambda plan: [(_first(plan), "step", 2, "N", "fill")])),
    "scan.doubt_hexes": orders_scan(_scan(written=lambda plan: {(_first(plan), 1): "3416"})),
    "scan.doubt_count": orders_scan(
        _scan(
            lambda plan: [(_first(plan), "step", 1, "N", "fill")],
            written=lambda plan: {(_first(plan), 1): "3416", (_first(plan), 2): "3415"},
        )
    ),
    "scan.doubt_toward": orders_scan(_scan(lambda plan: [(_first(plan), "toward", 0, "NE", "fill")])),
    "scan.step_off_map": orders_scan(_scan(_off_the_map, page=-1), "--partial"),  # its trains' 12 steps
    "scan.page_twice": orders_scan(_scan(twice=True)),
    "scan.bad_accept": orders_scan(_scan(), "--accept", "nonsense"),
    "scan.accept_unknown": orders_scan(_scan(), "--partial", "--accept", "w_nobody:1=N"),
    "scan.answers_line": lambda tmp: _answers_file(tmp, b"# answers\n--accept w_x:1=NE\nw_x:special\n"),
    "scan.answers_not_utf8": lambda tmp: _answers_file(tmp, b"w_x:1=NE\nw_x:2=\xff\n"),
    "orders.toward_sides": orders_import(_pdf_toward("n", "ne", special="emplace")),
    "orders.toward_alone": orders_import(_pdf_toward("n")),
}


def _answers_file(tmp: Path, content: bytes) -> set[str]:
    """`kitgen orders scan --answers FILE` with the file saying `content`: read before any scan."""
    folder = campaign(tmp)
    (tmp / "answers.txt").write_bytes(content)
    return cli_codes(
        "orders", "scan", str(tmp / "none.png"), "--campaign", str(folder), "--answers", str(tmp / "answers.txt")
    )


def _check_scan(filled: bool) -> Trigger:
    """A trigger: `kitgen orders check` of the kit's scanner check page, filled or left blank."""

    def trigger(tmp: Path) -> set[str]:
        from tests.penciled import check_page, save

        return cli_codes("orders", "check", str(save(check_page(filled=filled), tmp / "check.png")))

    return trigger


def _check_an_order_form(tmp: Path) -> set[str]:
    """A trigger: `kitgen orders check` of a page of an order form, not the check page."""
    folder = campaign(tmp)
    assert run_cli("next", str(folder)).returncode == 0
    (scan,) = _scan()(folder, tmp)
    return cli_codes("orders", "check", str(scan))


TRIGGERS |= {
    "scan.check_missed": _check_scan(filled=False),
    "scan.not_check": _check_an_order_form,
}


def _side_by_side(image: Any, plan: Any) -> Any:
    """The page twice in one picture, side by side: two pages photographed together."""
    return np.hstack([image, image])


def _carry_page(folder: Path, tmp: Path) -> list[Path]:
    """The page of the Whites' form with a train that may take units aboard, one of them half ticked."""
    from tests.penciled import filled_page, printed, save

    form = printed(folder, "whites")
    for page, plan in enumerate(form.plans):
        carry = [b for b in plan.bubbles if b.part == "carry"]
        if carry:
            marks = [(carry[0].row, "carry", 0, carry[0].choice, "erased")]
            image = filled_page(form, page, marks, np.random.default_rng(3))
            return [save(image, tmp / "carry.png")]  # type: ignore[list-item]
    raise AssertionError("no train or ship of the Whites' may take a unit aboard")


def _blank_form(folder: Path, tmp: Path) -> list[Path]:
    """The kit's paper order form, printed and scanned blank."""
    from kitgen.loader import load_scenario
    from kitgen.products.forms import FORMS, build_forms
    from tests.penciled import render, save

    pdf = build_forms(load_scenario("denikin-1919"), "a4")[0].pdf
    return [save(render(pdf, FORMS.index("Paper order form"), 200), tmp / "blank.png")]  # type: ignore[list-item]


TRIGGERS |= {
    "scan.blank_form": orders_scan(_blank_form),
    "scan.crowded": orders_scan(_scan(change=_side_by_side)),
    "scan.pages_missing": orders_scan(_scan()),
    "scan.doubt_carry": orders_scan(_carry_page, "--partial"),
}


def _hostile(name: str, make: Callable[[], bytes]) -> Callable[[Path, Path], list[Path]]:
    """A file of scans built by hand (`tests.hostile`): its header claims what kitgen refuses."""
    return lambda folder, tmp: [_file(name, make())(folder, tmp)]


TRIGGERS |= {
    "scan.too_many_pages": orders_scan(_hostile("pages.tif", lambda: hostile.tiff([(8, 8)] * 201))),
    "scan.page_too_large": orders_scan(_hostile("bomb.png", lambda: hostile.png_header(9000, 9000))),
    "scan.page_decoding": orders_scan(_hostile("bomb.jpg", lambda: hostile.jpeg_header(7000, 7000, progressive=True))),
    "scan.too_many_pixels": orders_scan(_hostile("pages.tif", lambda: hostile.tiff([(7700, 7700)] * 40))),
    "scan.page_size": orders_scan(_hostile("huge.pdf", lambda: hostile.pages_pdf(1, (14400, 14400)))),
}


# --- the battle report forms and the roll sheet (kitgen/reports/) ---------------------------------


def _report_forms(tmp: Path, paper: str = "a4") -> tuple[Path, Path]:
    """The Tsaritsyn sample's turn 3, its battles and rolls out of the log, and its report forms."""
    from kitgen.products.reportforms import report_forms_pdf
    from tests.reportfilling import forms_now, turn_3

    folder = turn_3(tmp / "ts", rolls=False).folder
    campaign, basis, forms = forms_now(folder)
    pdf = tmp / "forms.pdf"
    pdf.write_bytes(report_forms_pdf(campaign, forms, basis.turn, paper))
    return folder, pdf


def _renamed(rename: Callable[[str], str | None]) -> Trigger:
    """`orders import` of the report forms, their fields renamed as `rename` says (None: kept)."""

    def trigger(tmp: Path) -> set[str]:
        from pypdf import PdfReader, PdfWriter
        from pypdf.generic import NameObject, TextStringObject

        folder, pdf = _report_forms(tmp)
        writer = PdfWriter(clone_from=PdfReader(pdf))
        for page in writer.pages:
            for ref in page.get("/Annots") or []:
                widget = ref.get_object()
                name = rename(str(widget.get("/T", "")))
                if name is not None:
                    widget[NameObject("/T")] = TextStringObject(name)
        with (tmp / "renamed.pdf").open("wb") as out:
            writer.write(out)
        return cli_codes("orders", "import", str(tmp / "renamed.pdf"), "--campaign", str(folder))

    return trigger


def _with_an_order_form(tmp: Path) -> set[str]:
    """The report forms and a faction's order form in one PDF."""
    from pypdf import PdfReader, PdfWriter

    folder, pdf = _report_forms(tmp)
    order = tmp / "reds.pdf"
    assert run_cli("orders", "form", str(folder), "--faction", "reds", "--out", str(order)).returncode == 0
    writer = PdfWriter()
    writer.append(PdfReader(pdf))
    writer.append(PdfReader(order))
    with (tmp / "both.pdf").open("wb") as out:
        writer.write(out)
    return cli_codes("orders", "import", str(tmp / "both.pdf"), "--campaign", str(folder))


def _report_filled(values: Callable[[str], dict[str, str]], after: Callable[[Path], None] | None = None) -> Trigger:
    """`orders import` of the report forms filled with `values(contact key of 5212)` (pypdf), the
    campaign changed by `after` first."""

    def trigger(tmp: Path) -> set[str]:
        from tests.forms import fill_with_pypdf
        from tests.reportfilling import forms_now

        folder, pdf = _report_forms(tmp)
        key = next(f.key for f in forms_now(folder)[2] if f.hex == "5212")
        filled = fill_with_pypdf(pdf, values(key), tmp / "filled.pdf")
        if after is not None:
            after(folder)
        return cli_codes("orders", "import", str(filled), "--campaign", str(folder))

    return trigger


def _order_taken_back(folder: Path) -> None:
    """The 1st Kuban Cavalry Corps' order taken back: no contact at Voroponovo (5212) now."""
    log = folder / "turns" / "turn-03.yaml"
    data = yaml.safe_load(log.read_text(encoding="utf-8"))
    data["orders"]["whites"] = [o for o in data["orders"]["whites"] if o["unit"] != "w_1st_kuban_corps"]
    log.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")


def _sheet_of_other_rolls(tmp: Path) -> set[str]:
    from kitgen.orders.rows import campaign_key
    from kitgen.reports.intake import ReadForm, judge
    from tests.reportfilling import turn_3

    folder = turn_3(tmp / "ts", rolls=False).folder
    c = load_campaign(folder)
    sheet = ReadForm("R", "0123456789ab", campaign_key(c), 3, "", {}, {}, (tmp / "rolls.pdf", 1))
    return produced(lambda: judge(c, [sheet], 3))


def _report_scan(pages: Callable[[Path, Path], list[Path]]) -> Trigger:
    """`orders scan` of report form pages, as `pages(campaign, tmp)` makes them."""

    def trigger(tmp: Path) -> set[str]:
        folder = tmp / "made"
        folder.mkdir()
        return cli_codes("orders", "scan", *map(str, pages(folder, tmp)), "--campaign", str(tmp / "made" / "ts"))

    return trigger


def _letter_page(twice: bool) -> Callable[[Path, Path], list[Path]]:
    """Page 1 of Tsaritsyn's form on US Letter (it takes two), blank: once, or twice."""

    def pages(made: Path, tmp: Path) -> list[Path]:
        from tests.penciled import render, save

        _, pdf = _report_forms(made, "letter")
        scan = save(
            render(pdf.read_bytes(), 1, 200), tmp / "page.png"
        )  # the letter file: Voroponovo's, then Tsaritsyn's
        return [scan, scan] if twice else [scan]  # type: ignore[list-item]

    return pages


def _rolls_first(tmp: Path) -> set[str]:
    """A roll sheet's rolls that change the contacts, written first; the battle the rules refuse."""
    from kitgen.engine.turnlog import Battle
    from kitgen.reports.intake import Judged, record
    from tests.reportfilling import forms_now, turn_3

    made = turn_3(tmp / "ts", rolls=False)
    _, _, forms = forms_now(made.folder)
    form = next(f for f in forms if f.hex == "5212")
    bad = Battle.model_validate({"hex": "5212", "winner": "whites", "units": [*VOROPONOVO, RETREAT_INTO_THE_STORM]})
    judged = Judged(3, ((form, bad),), {}, dict(made.rolls), 1, True)
    return produced(lambda: record(made.folder, judged, tmp / "umpire.pdf"))


TRIGGERS |= {
    "report.misspelt_field": _renamed(
        lambda name: name.replace("kgb-", "kgb_", 1) if name.startswith("kgb-") else None
    ),
    "report.no_identity": _renamed(lambda name: "other" + name if name.startswith("kgid-") else None),
    "report.with_orders": _with_an_order_form,
    "report.wrong_form": _report_filled(lambda key: {f"kgid-b{key}-turn_number": "2"}),
    "report.contact_changed": _report_filled(lambda key: {}, _order_taken_back),
    "report.sheet_changed": _sheet_of_other_rolls,
    "report.pages_missing": _report_scan(_letter_page(twice=False)),
    "report.page_twice": _report_scan(_letter_page(twice=True)),
    "report.rolls_first": _rolls_first,
}


# every trigger is declared above: the parametrisation reads them all


@pytest.mark.parametrize("code", sorted(TRIGGERS))
def test_each_entry_is_triggered(code: str, tmp_path: Path) -> None:
    SEEN.clear()
    found = TRIGGERS[code](tmp_path)
    assert code in found, f"{code} not produced; produced {sorted(found)}: {SEEN}"
    assert any(s.code == code for s in SEEN)
    for seen in SEEN:  # every message the trigger produced, not only the one it is for
        kind = CATALOGUE[seen.code].kind
        assert seen.text.strip() and RULE.search(seen.text), (
            f"{seen.code} says neither what was found nor what is right: {seen.text!r}"
        )
        if seen.code in SYSTEM:
            assert seen.via == "cli-message" and seen.status == 1, seen
            continue
        assert seen.via in _VIA[kind], seen
        if kind in ("data", "note"):
            assert seen.file and seen.line >= 1 and seen.column >= 1, seen
        if seen.status is not None:
            assert seen.status == {"data": 1, "usage": 2, "note": seen.status}[kind], seen
