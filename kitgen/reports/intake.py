"""Filled report forms and roll sheets, from a PDF filled on screen or from pencilled scans, read
against the turn and handed to the record: the roll sheet's rolls to `give_rolls`, every battle
of the forms in one call to `report_battles`, with the equipment rolls they give.

A form of another campaign or turn is refused, as the order form's are; a battle report form
whose contact is not one of the turn's contacts now (its orders or rolls changed since it was
printed) is refused by its place; a roll sheet printed for other rolls is refused. Every problem
of every form is said at once, at its file and page, naming the unit and the line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from kitgen import messages as msg
from kitgen.campaign import Campaign
from kitgen.engine.turnlog import Battle
from kitgen.errors import KitgenError, Problem
from kitgen.orders.sheetplan import CAMPAIGN_CHARS
from kitgen.record.battles import BattlesWritten
from kitgen.record.rolls import RollsWritten
from kitgen.reports.battleform import BattleForm, FormProblem
from kitgen.reports.fields import KIND_WORDS
from kitgen.reports.pdfread import FilledReports
from kitgen.reports.plan import Kind

Where = tuple[Path, int]
"""A file and its page."""


@dataclass(frozen=True)
class ReadForm:
    """One form as read, from a PDF's fields or a scan's pages: which it says it is, and the
    choices marked on each of its lines, with where each line stands."""

    kind: Kind
    key: str
    """Its contact's or sheet's key: whole (a PDF's fields), or its first characters (a QR code)."""
    campaign: str
    turn: int
    hex: str
    picked: Mapping[tuple[str, str], Sequence[str]]
    at: Mapping[tuple[str, str], Where]
    first: Where


@dataclass(frozen=True)
class ReportsDone:
    """What an import of report forms and roll sheets wrote."""

    turn: int
    battles: BattlesWritten | None
    rolls: RollsWritten | None
    forms: int
    sheets: int


@dataclass(frozen=True)
class Judged:
    """The forms read against the turn: the battles they report (by the forms' order), the rolls
    they give, and the contacts' forms the battles were read by."""

    turn: int
    battles: tuple[tuple[BattleForm, Battle], ...] = ()
    equipment: dict[str, int] = field(default_factory=dict)
    given: dict[str, int] = field(default_factory=dict)
    sheets: int = 0
    contacts_move: bool = False
    """The roll sheet's rolls change the turn's contacts: they are written before the battles."""


def place_of(campaign: Campaign, hex_id: str) -> str:
    """'Tsaritsyn (5313)', or 'hex 5213': as a battle form names its place."""
    named = campaign.hex_names.get(hex_id)
    return f"{named} ({hex_id})" if named else f"hex {hex_id}"


def from_pdf(filled: FilledReports) -> list[ReadForm]:
    """The forms of a PDF filled on screen, as `judge` reads them."""
    found = []
    for f in filled.forms:
        ids = f.identity
        turn = ids.get("turn_number", "")
        found.append(
            ReadForm(
                f.kind,
                f.key,
                ids.get("campaign_key", ""),
                int(turn) if turn.isascii() and turn.isdigit() and len(turn) <= 4 else -1,
                ids.get("hex", ""),
                {k: tuple(v) for k, v in f.picked.items()},
                {k: (filled.file, page) for k, page in f.pages.items()},
                (filled.file, f.page),
            )
        )
    return found


def judge(campaign: Campaign, forms: Sequence[ReadForm], turn: int) -> Judged:
    """The forms read against turn `turn` as it stands: each refused that is of another campaign
    or turn, or whose contact or rolls changed since it was printed; the rest read by the lines
    made again from the turn (`battle_from`, `rolls_from`). A KitgenError names every problem."""
    from kitgen.engine.basis import turn_basis
    from kitgen.engine.contacts_ahead import contacts_ahead
    from kitgen.engine.turnlog import TurnLog
    from kitgen.orders.rows import campaign_key
    from kitgen.record.dicelog import with_given
    from kitgen.reports.battleform import battle_form, battle_from
    from kitgen.reports.rollsheet import rolls_from, sheet_key, sheet_rolls

    problems: list[Problem] = []
    key = campaign_key(campaign)
    fitting = []
    for f in forms:
        what = KIND_WORDS[f.kind] + (f" of the battle at {place_of(campaign, f.hex)}" if f.kind == "B" else "")
        if len(f.campaign) < CAMPAIGN_CHARS or not key.startswith(f.campaign):
            problems.append(_at(f.first, msg.report_wrong_form(what, "campaign", f.campaign or "none", key)))
        elif f.turn != turn:
            problems.append(_at(f.first, msg.report_wrong_form(what, "turn", str(f.turn), str(turn))))
        else:
            fitting.append(f)
    basis = turn_basis(campaign, turn)
    log = basis.log or TurnLog(turn=turn)
    given: dict[str, int] = {}
    sheets = [f for f in fitting if f.kind == "R"]
    if sheets:
        rolls = sheet_rolls(campaign, basis.after, turn)
        now = sheet_key(rolls)
        for f in sheets:
            if not now.startswith(f.key):
                problems.append(_at(f.first, msg.report_sheet_changed(f.key, now)))
                continue
            said, wrong = rolls_from(rolls, f.picked)
            given |= said
            problems += [_line(f, p, "the roll sheet") for p in wrong]
    contacts = contacts_ahead(campaign, basis.after, with_given(log, given), basis.source)
    contact_forms = [battle_form(campaign, c) for c in contacts]
    moved = False
    if given and any(f.kind == "B" for f in fitting):
        before = {battle_form(campaign, c).key for c in contacts_ahead(campaign, basis.after, log, basis.source)}
        moved = before != {c.key for c in contact_forms}
    names = {f.id: f.name for f in campaign.scenario.meta.factions}
    battles: list[tuple[BattleForm, Battle]] = []
    equipment: dict[str, int] = {}
    for f in fitting:
        if f.kind != "B":
            continue
        form = next((c for c in contact_forms if c.key.startswith(f.key)), None)
        if form is None:
            problems.append(_at(f.first, msg.report_contact_changed(place_of(campaign, f.hex), turn)))
            continue
        reported = battle_from(form, f.picked, names)
        problems += [_line(f, p, f"the battle at {form.place}") for p in reported.problems]
        if reported.battle is not None:
            battles.append((form, reported.battle))
            equipment |= reported.rolls
    if problems:
        raise KitgenError(problems)
    return Judged(turn, tuple(battles), equipment, given, len(sheets), moved)


def _at(where: Where, message: msg.Msg) -> Problem:
    return Problem.of(where[0], where[1], 1, message)


def _line(form: ReadForm, problem: FormProblem, which: str) -> Problem:
    """A line's problem at the page it stands on, under the form's name (where it does not name it)."""
    message = problem.message if which.split(" at ")[-1] in problem.message.text else problem.message.within(which)
    return _at(form.at.get((problem.row, problem.part), form.first), message)


def record(folder: Path, judged: Judged, source: Path, *, amend: bool = False, check_only: bool = False) -> ReportsDone:
    """What the forms say written through the record: the rolls and the battles in one write
    where the rolls leave the contacts as they are; else the rolls first, then the battles."""
    from kitgen.record.battles import report_battles
    from kitgen.record.rolls import give_rolls

    battles = [b for _, b in judged.battles]
    turn = judged.turn
    if not battles:
        if not judged.given:
            return ReportsDone(turn, None, None, 0, judged.sheets)
        rolls = give_rolls(folder, judged.given, turn, amend=amend, source=source, check_only=check_only)
        return ReportsDone(turn, None, rolls, 0, judged.sheets)
    if judged.given and judged.contacts_move:
        rolls = give_rolls(folder, judged.given, turn, amend=amend, source=source, check_only=check_only)
        try:
            done = report_battles(
                folder, battles, judged.equipment, turn, amend=amend, source=source, check_only=check_only
            )
        except KitgenError as refused:
            note = Problem.of(source, 1, 1, msg.report_rolls_first(len(judged.given)))
            raise KitgenError([*refused.problems, note]) from None
        return ReportsDone(turn, done, rolls, len(battles), judged.sheets)
    done = report_battles(
        folder, battles, {**judged.given, **judged.equipment}, turn, amend=amend, source=source, check_only=check_only
    )
    return ReportsDone(turn, done, None, len(battles), judged.sheets)


def import_reports(folder: Path, filled: FilledReports, turn: int | None = None, *, amend: bool = False) -> ReportsDone:
    """`kitgen orders import` of a PDF of report forms and roll sheets (or the umpire's packet)."""
    from kitgen.campaign import load_campaign
    from kitgen.record.opened import turn_to_write

    if filled.orders:
        raise KitgenError.at(filled.file, 1, 1, msg.report_with_orders(list(filled.orders)))
    campaign = load_campaign(folder)
    number, _ = turn_to_write(campaign, turn, amend=amend)
    judged = judge(campaign, from_pdf(filled), number)
    return record(folder, judged, filled.file, amend=amend)


def done_words(campaign: Campaign, done: ReportsDone) -> list[str]:
    """The lines `kitgen orders import` prints for report forms and roll sheets."""
    from kitgen.engine.piecenames import piece_names, purpose_words
    from kitgen.engine.replay import replay
    from kitgen.errors import display_path

    names = {**{f.id: f.name for f in campaign.scenario.meta.factions}, **piece_names(replay(campaign, done.turn - 1))}
    lines: list[str] = []
    if done.rolls is not None:
        r = done.rolls
        where = display_path(r.log)
        kept = f"previous kept as {display_path(r.backup)}" if r.backup else "unchanged"
        lines.append(f"the roll sheet: {len(r.given)} rolls into {where} ({kept})")
        lines += [f"  {purpose_words(purpose, names)}: {value}" for purpose, value in r.given]
    if done.battles is not None:
        b = done.battles
        where = display_path(b.log)
        kept = f"previous kept as {display_path(b.backup)}" if b.backup else "unchanged"
        lines.append(f"{len(b.battles)} battle reports into {where} ({kept})")
        for w in b.battles:
            lines.append(
                f"  {place_of(campaign, w.hex)}: won by the {campaign.scenario.faction_name(w.winner)} ({w.change})"
            )
            lines += [f"    {v.explanation}" for v in w.verdicts]
        given = [(p, v) for p, v in b.rolls if v is not None]
        if given:
            lines.append(
                f"  with {len(given)} rolls: " + "; ".join(f"{purpose_words(p, names)}: {v}" for p, v in given)
            )
    if not lines:
        lines.append("nothing marked on the forms: nothing written")
    return lines


def import_report_pdf(folder: Path, path: Path, turn: int | None = None, *, amend: bool = False) -> list[str] | None:
    """`kitgen orders import FILE` of report forms: the lines it prints, or None when `path` holds
    no report form or roll sheet (an order form, or a spreadsheet), for the order form's import."""
    from kitgen.campaign import load_campaign
    from kitgen.reports.pdfread import read_reports

    if path.suffix.lower() == ".csv":
        return None
    filled = read_reports(path)
    if filled is None:
        return None
    done = import_reports(folder, filled, turn, amend=amend)
    return done_words(load_campaign(folder), done)
