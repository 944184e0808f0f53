"""`kitgen orders import`: a filled order form read, checked and merged into the log of the turn
being played, holding the campaign's lock from the first read to the write.

Entries that cannot be read (an unknown unit, a path that is not hex ids) refuse the form, each
reported by its unit and field. The orders are merged unit by unit (`merge.py`) and the merged
log is played: an order the rules make void is imported as written and reported as a warning
with its rule (the unit holds or stops as the rules say), unless `strict`. A form printed from
another state is refused unless `stale_ok`. Only the turn being played takes an import; a
played turn takes one with `amend`, when every later turn still plays. The log is written only
if no one changed it on disk meanwhile, its previous version kept in backups/."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kitgen import messages as msg
from kitgen.campaign import Campaign, load_campaign
from kitgen.engine.state import CampaignState
from kitgen.engine.turn import TurnRecord, play_turn
from kitgen.engine.turnlog import TurnLog
from kitgen.errors import KitgenError, Problem
from kitgen.orders.entries import SECTIONS, Read, form_faction, read_entries
from kitgen.orders.formread import FilledForm, read_filled
from kitgen.orders.rows import campaign_key, changed_turns, logs_key, state_key
from kitgen.record.dicelog import with_given, with_rolls
from kitgen.record.lock import campaign_lock
from kitgen.record.logfile import commit
from kitgen.record.merge import UnitChange, line_comment, merge, splice
from kitgen.record.opened import check_written, later_turns_play, open_turn, roll_writes
from kitgen.record.templates import take_up_orders


@dataclass(frozen=True)
class Imported:
    """What an import did."""

    faction: str
    turn: int
    log: Path
    backup: Path | None
    """The previous version kept, or None when nothing was written."""
    changes: tuple[UnitChange, ...] = ()
    warnings: tuple[Problem, ...] = ()
    """Orders the rules make void, imported as written."""
    changed: bool = True
    """False when the log held these orders already: nothing written."""
    stale: str | None = field(default=None)
    """The form was printed from another state, imported with `stale_ok`: what differs."""
    rolls: tuple[tuple[str, int | None], ...] = ()
    """The rolls the import wrote into `dice:` (purpose, value; None: to be made at the table)."""


def import_orders(
    folder: Path,
    filled: Path | FilledForm,
    turn: int | None = None,
    *,
    amend: bool = False,
    stale_ok: bool = False,
    strict: bool = False,
    check_only: bool = False,
) -> Imported:
    """Read `filled` (a file, or a form read already: a scan's pages) and merge its orders into
    the log of `turn` (default: the turn being played); a KitgenError lists every problem, and
    then nothing is written. With `check_only`, every check is made and nothing is written,
    whatever the outcome."""
    form = read_filled(filled) if isinstance(filled, Path) else filled
    return import_forms(folder, [form], turn, amend=amend, stale_ok=stale_ok, strict=strict, check_only=check_only)[0]


def import_forms(
    folder: Path,
    forms: Sequence[FilledForm],
    turn: int | None = None,
    *,
    amend: bool = False,
    stale_ok: bool = False,
    strict: bool = False,
    check_only: bool = False,
) -> list[Imported]:
    """Every form's orders merged into the log of `turn` (default: the turn being played), one
    faction after another, and written once, under one lock: all of them or none (a scan of
    several factions' forms). A KitgenError lists every problem of every form."""
    from kitgen.engine.ahead import before_orders

    with campaign_lock(folder):
        campaign = load_campaign(folder)
        opened = open_turn(campaign, turn, amend=amend)
        number, state = opened.turn, opened.before
        path, on_disk = opened.path, opened.on_disk
        text, log = on_disk.text, opened.log
        taken: Counter[str] = Counter()
        problems: list[Problem] = []
        done: list[tuple[str, tuple[UnitChange, ...], list[Problem], str | None]] = []
        record = None
        now = state_key(before_orders(campaign, state, number))
        for form in forms:
            faction = form_faction(campaign, state, form)
            if faction is None:
                found = "no faction's units" if not form.entries else "several factions' units"
                problems.append(form.problem(None, msg.orders_no_faction(found)))
                continue
            wrong = _identity_problems(campaign, form, faction, number)
            stale = _stale(form, now, logs_key(campaign, number))
            if stale is not None and not stale_ok:
                wrong.append(form.problem(None, stale))
            read = read_entries(campaign, state, form, faction, number)
            if wrong or read.problems:
                problems += wrong + read.problems
                continue
            at = {u.id: u.hex for u in state.units if u.faction == faction}
            merged = merge(log, faction, read.orders, read.mentioned, at)
            warnings, record = _play(campaign, state, merged.log, form, read, strict=strict)
            text = splice(text, merged)
            text, gone = take_up_orders(text, merged.log)
            taken += gone
            log = merged.log
            done.append((faction, tuple(merged.changes), warnings, stale.text if stale is not None else None))
        if problems:
            raise KitgenError(problems)
        assert record is not None  # a form at least, each merged
        if number < opened.last:
            later_turns_play(campaign, number, log)
        rolls = roll_writes(campaign, record, log)
        text, uncommented = with_rolls(text, rolls.values, rolls.drop)
        taken += uncommented
        check_written(path, text, log, rolls, [*SECTIONS, "partisans", "handed_in"])
        if _comments(on_disk.text) - _comments(text) - taken:  # a comment the splice lost: nothing is written
            raise KitgenError.at(path, 1, 1, msg.orders_splice_mismatch("the comments"))
        backup = None
        changed = text != on_disk.text
        if changed and not check_only:
            command = "orders " + ("scan" if len(forms) > 1 else "import") + (" --amend" if amend else "")
            backup = commit(campaign.folder, on_disk, on_disk.encode(text), command)
        written = tuple(rolls.values.items()) if backup is not None else ()
        return [
            Imported(
                faction,
                number,
                path,
                backup,
                changes,
                tuple(warnings),
                changed=changed and not check_only,
                stale=said,
                rolls=written if k == len(done) - 1 else (),
            )
            for k, (faction, changes, warnings, said) in enumerate(done)
        ]


def _comments(text: str) -> Counter[str]:
    return Counter(c.lstrip("#").strip() for c in map(line_comment, text.splitlines()) if c)


def _identity_problems(campaign: Campaign, form: FilledForm, faction: str, turn: int) -> list[Problem]:
    """A PDF, a scan or a spreadsheet with its identity row says whose form it is: another
    faction's, turn's or campaign's is refused."""
    if not _identified(form):
        return []
    ids = form.identity
    problems: list[Problem] = []
    wanted = {"turn": str(turn), "campaign": campaign_key(campaign)}
    factions = [f.id for f in campaign.scenario.meta.factions]
    if faction not in factions:
        problems.append(form.problem(None, msg.orders_wrong_form("the faction", faction, " or ".join(factions))))
    for what, expected in wanted.items():
        if ids.get(what) != expected:
            problems.append(form.problem(None, msg.orders_wrong_form(what, ids.get(what) or "none", expected)))
    return problems


def _identified(form: FilledForm) -> bool:
    """The form says whose it is: a PDF and a scan always; a spreadsheet if its identity row is kept
    (a player's own spreadsheet of a few rows has none, and is read by its rows)."""
    return form.kind in ("pdf", "scan") or bool(form.identity)


def _stale(form: FilledForm, now: str, logs: str) -> msg.Msg | None:
    """A PDF printed from another state than the turn's orders are now written against, and what
    changed since: the logs of the turns named, or, their logs the same, kitgen's own play."""
    printed = form.identity.get("state")
    if not _identified(form) or printed == now:
        return None
    turns = changed_turns(form.identity.get("logs", ""), logs) if "logs" in form.identity else []
    if turns:
        which = f"log of turn {turns[0]}" if len(turns) == 1 else f"logs of turns {', '.join(map(str, turns))}"
        changed = f"the {which} changed since it was printed"
    elif "logs" in form.identity:
        changed = "its logs are the same: kitgen itself plays them otherwise now (another version)"
    else:
        changed = "a log or kitgen changed since it was printed"
    return msg.record_stale_form(printed or "none", now, changed)


def _play(
    campaign: Campaign, state: CampaignState, log: TurnLog, form: FilledForm, read: Read, *, strict: bool
) -> tuple[list[Problem], TurnRecord]:
    """The merged log played (its record, the rolls not given drawn): every void order of the
    faction from this form, at its row and field; refused if `strict`, else warnings (the rules
    hold the unit or stop it)."""
    from kitgen.engine.context import Unplaced
    from kitgen.rules.dice import Dice

    try:
        record = played = play_turn(campaign, state, log, source=Unplaced(f"turn {log.turn} log"))
        # command rolls not yet made at the table are taken as obeyed, so that a failed roll
        # drawn now does not hide an order the rules make void
        obeyed = {
            r.purpose: Dice.parse(r.dice).low
            for r in record.rolls
            if r.source == "drawn" and r.purpose.startswith("II.C ") and " command roll, " in r.purpose
        }
        if obeyed:
            judged = with_given(log, obeyed)
            record = play_turn(campaign, state, judged, source=Unplaced(f"turn {log.turn} log"))
    except KitgenError as refused:
        raise KitgenError([form.problem(None, msg.orders_log_refused(p.message)) for p in refused.problems]) from None
    found = []
    for verdict in record.verdicts:
        if verdict.faction != read.faction or verdict.result != "void":
            continue
        where = read.where.get((verdict.kind, verdict.unit))
        if where is None:  # an order not from this form: the umpire's own, reported by validate
            continue
        message = (
            msg.orders_void(verdict.explanation, verdict.rule)
            if strict
            else msg.record_void_imported(verdict.explanation, verdict.rule)
        )
        found.append(form.problem(where.entry, message.within(f"unit {verdict.unit}, field {where.field}")))
    if strict and found:
        raise KitgenError(found)
    return found, played
