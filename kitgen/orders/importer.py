"""`kitgen orders import`: a filled order form read, checked and merged into its turn log.

Every entry that cannot be read is reported by its unit and field; then the merged log is played
by the engine on the state after the turn before, and every order of the faction that the rules
make void is reported the same way, with its rule. `held` (a failed command roll) and `stopped`
(contact) are no errors. If anything is wrong nothing is written; else the log is written
atomically and its previous version kept in the campaign's backups/ folder (turn-07.yaml.1, .2,
...: a new number each time, never overwriting an earlier backup)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kitgen import messages as msg
from kitgen.campaign import TURNS, Campaign, load_campaign
from kitgen.engine.state import CampaignState
from kitgen.engine.turn import play_turn
from kitgen.engine.turnlog import TurnLog
from kitgen.errors import KitgenError, Problem
from kitgen.inputs import Kind, kind_of, read_file
from kitgen.orders.entries import SECTIONS, Read, form_faction, read_entries
from kitgen.orders.formread import FilledForm, read_filled
from kitgen.orders.merge import new_log_text, replaced, splice
from kitgen.orders.rows import campaign_key

BACKUPS = "backups"
"""The folder of the campaign that keeps each log's earlier versions: beside turns/, not in it,
so that no command reading the logs has to pass over them."""
MAX_LOG_BYTES = 2 * 1024 * 1024


@dataclass(frozen=True)
class Imported:
    """What an import did."""

    faction: str
    turn: int
    orders: int
    log: Path
    backup: Path | None
    """The previous version kept, or None when the log is new or unchanged."""
    changed: bool = True
    """False when the form's orders were the log's already: nothing written."""


def log_path(campaign: Campaign, turn: int) -> Path:
    return campaign.folder / TURNS / f"turn-{turn:02d}.yaml"


def import_orders(folder: Path, filled: Path, turn: int) -> Imported:
    """Read `filled`, check it against the campaign after turn - 1 and merge it into the log of
    `turn`; a KitgenError lists every problem, and then nothing is written."""
    from kitgen.engine.replay import replay

    campaign = load_campaign(folder)
    form = read_filled(filled)
    state = replay(campaign, turn - 1)
    faction = form_faction(campaign, state, form)
    if faction is None:
        found = "no faction's units" if not form.entries else "several factions' units"
        raise KitgenError([form.problem(None, msg.orders_no_faction(found))])
    _check_identity(campaign, form, faction, turn)
    read = read_entries(campaign, state, form, faction, turn)
    if read.problems:
        raise KitgenError(read.problems)
    path = log_path(campaign, turn)
    exists = kind_of(path) is not Kind.MISSING
    raw = read_file(path, what="the turn log", limit=MAX_LOG_BYTES) if exists else new_log_text(turn).encode("utf-8")
    old = _parse(path, raw)  # a malformed log stops here, with its lines, before its text is touched
    old_text = raw.decode("utf-8")
    intended = replaced(old, faction, read.orders)
    _play(campaign, state, intended, form, read)
    text = splice(old_text, faction, read.orders)
    try:
        merged: TurnLog | None = _parse(path, text.encode("utf-8"))
    except KitgenError:  # the rewritten text, not the file on disk, is what cannot be read
        merged = None
    if merged != intended:
        differ = [k for k in SECTIONS if merged is None or getattr(merged, k) != getattr(intended, k)]
        raise KitgenError.at(path, 1, 1, msg.orders_splice_mismatch(", ".join(differ or SECTIONS)))
    if exists and text == old_text:
        return Imported(faction, turn, read.orders.count(), path, None, changed=False)
    backup = _keep(path, old_text) if exists else None
    from kitgen.outputs import write_atomic

    write_atomic(path, text.encode("utf-8"))
    return Imported(faction, turn, read.orders.count(), path, backup)


def _check_identity(campaign: Campaign, form: FilledForm, faction: str, turn: int) -> None:
    """A PDF says whose form it is: another faction's, turn's or campaign's is refused."""
    if form.kind != "pdf":
        return
    ids = form.identity
    problems: list[Problem] = []
    wanted = {"turn": str(turn), "campaign": campaign_key(campaign)}
    factions = [f.id for f in campaign.scenario.meta.factions]
    if faction not in factions:
        problems.append(form.problem(None, msg.orders_wrong_form("the faction", faction, " or ".join(factions))))
    for what, expected in wanted.items():
        if ids.get(what) != expected:
            problems.append(form.problem(None, msg.orders_wrong_form(what, ids.get(what) or "none", expected)))
    if problems:
        raise KitgenError(problems)


def _parse(path: Path, raw: bytes) -> TurnLog:
    """A log's text read and checked against its schema (a malformed log stops with its lines)."""
    from kitgen.validation import validate
    from kitgen.yamlsource import parse_yaml

    located = parse_yaml(path, raw, suffix=".yaml")
    log, problems = validate(located, TurnLog)
    problems = located.problems + problems
    if log is None or problems:
        raise KitgenError(problems)
    return log


def _play(campaign: Campaign, state: CampaignState, log: TurnLog, form: FilledForm, read: Read) -> None:
    """The merged log played: every void order of the faction is a problem at its row and field."""
    from kitgen.engine.context import Unplaced
    from kitgen.engine.turnlog import GivenRoll
    from kitgen.rules.dice import Dice

    try:
        record = play_turn(campaign, state, log, source=Unplaced(f"turn {log.turn} log"))
        # command rolls not yet made at the table are taken as obeyed, so that a failed roll
        # drawn now does not hide an order the rules make void
        obeyed = [
            GivenRoll(purpose=r.purpose, value=Dice.parse(r.dice).low)
            for r in record.rolls
            if r.source == "drawn" and r.purpose.startswith("II.C ") and " command roll, " in r.purpose
        ]
        if obeyed:
            judged = log.model_copy(update={"dice": [*log.dice, *obeyed]})
            record = play_turn(campaign, state, judged, source=Unplaced(f"turn {log.turn} log"))
    except KitgenError as refused:
        raise KitgenError([form.problem(None, msg.orders_log_refused(p.message)) for p in refused.problems]) from None
    problems = []
    for verdict in record.verdicts:
        if verdict.faction != read.faction or verdict.result != "void":
            continue
        where = read.where.get((verdict.kind, verdict.unit))
        if where is None:  # an order of the faction's not from this form: none are left in the log
            continue
        message = msg.orders_void(verdict.explanation, verdict.rule)
        problems.append(form.problem(where.entry, message.within(f"unit {verdict.unit}, field {where.field}")))
    if problems:
        raise KitgenError(problems)


def _keep(path: Path, text: str) -> Path:
    """The log's previous text kept as backups/<name>.<n>, n the first number not taken."""
    from kitgen.outputs import write_atomic

    folder = path.parent.parent / BACKUPS
    n = 1
    while kind_of(folder / f"{path.name}.{n}") is not Kind.MISSING:
        n += 1
    backup = folder / f"{path.name}.{n}"
    write_atomic(backup, text.encode("utf-8"))
    return backup
