"""Battle reports written into the log through the record (the campaign's lock, the log as read,
a backup), from a report form filled on screen or in pencil, or from the prompt: each battle
replaces what the log reported for its contact (or is added), with the rolls the form gives
(equipment, II.B.3), and the turn must play with them, or nothing is written.

A report is checked against the contact the turn finds (its units, none missing or foreign)
before the engine judges it by the rules (a retreat blocked, a surrender with a way out): every
problem of every battle is said at once, by the battle's place."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from kitgen import messages as msg
from kitgen.campaign import Campaign
from kitgen.engine.context import Unplaced
from kitgen.engine.state import CampaignState, Verdict
from kitgen.engine.turn import TurnRecord, play_turn
from kitgen.engine.turnlog import Battle, TurnLog
from kitgen.errors import KitgenError, Problem
from kitgen.record.merge import Fate, Plan, splice_list

BattleChange = Literal["added", "replaced", "unchanged"]


@dataclass(frozen=True)
class BattleWritten:
    hex: str
    winner: str
    change: BattleChange
    verdicts: tuple[Verdict, ...]
    """The engine's verdict on each unit of the battle: its losses and its fate, in words."""


@dataclass(frozen=True)
class BattlesWritten:
    turn: int
    log: Path
    backup: Path | None
    """The previous version kept; None when nothing was written."""
    battles: tuple[BattleWritten, ...]
    rolls: tuple[tuple[str, int | None], ...] = ()
    """Rolls written with the reports: given on the form, drawn by kitgen where it rolls, or
    (None) asked for now and to be made at the table."""


def merged_battles(log: TurnLog, reports: Sequence[Battle], groups: Mapping[str, tuple[str, ...]]) -> Plan:
    """The log's battles with `reports` in: each report replaces the first battle the log has for
    its contact (`groups`: a hex -> the hexes of its contact; a breakout matched by its hex and
    unit), later ones of that contact dropped; a report of a contact the log has none of is added."""
    fates: list[Fate] = ["keep"] * len(log.battles)
    added: list[Battle] = []
    for report in reports:
        hexes = groups.get(report.hex, (report.hex,))
        breaking = {p.unit for p in report.units if p.breakout}
        same = [
            k
            for k, b in enumerate(log.battles)
            if b.hex in hexes and breaking == {p.unit for p in b.units if p.breakout}
        ]
        if not same:
            added.append(report)
            continue
        fates[same[0]] = "keep" if log.battles[same[0]] == report else report
        for k in same[1:]:
            fates[k] = "drop"
    return Plan(fates, added)


def report_battles(
    folder: Path,
    reports: Sequence[Battle],
    rolls: Mapping[str, int] | None = None,
    turn: int | None = None,
    *,
    amend: bool = False,
    source: Path | None = None,
    check_only: bool = False,
) -> BattlesWritten:
    """Write `reports` (and the rolls given with them) into the log of `turn` (default the turn
    being played); a KitgenError names every problem, at `source` (the form) where given."""
    from kitgen.campaign import load_campaign
    from kitgen.record.dicelog import with_given, with_rolls
    from kitgen.record.lock import campaign_lock
    from kitgen.record.logfile import commit
    from kitgen.record.opened import RollWrites, check_written, later_turns_play, open_turn, roll_writes
    from kitgen.record.rolls import check_rolls

    given = dict(rolls or {})
    with campaign_lock(folder):
        campaign = load_campaign(folder)
        at = open_turn(campaign, turn, amend=amend, what="battle reports")
        number, last, before, path, on_disk, log = at.turn, at.last, at.before, at.path, at.on_disk, at.log
        where = source or path
        moved, groups = contacts_of(campaign, before, log)
        problems = [p for r in reports for p in _against_contact(r, groups, moved, where)]
        if problems:
            raise KitgenError(problems)
        plan = merged_battles(log, reports, groups)
        merged = log.model_copy(update={"battles": plan.result(log.battles)})
        if given:
            try:
                check_rolls(campaign, before, merged, given, where)
            except KitgenError as bad:
                raise KitgenError(bad.problems) from None
            merged = with_given(merged, given)
        record = _judged(campaign, before, merged, reports, where)
        if number < last:
            later_turns_play(campaign, number, merged)
        text = splice_list(on_disk.text, "battles", log.battles, plan) if plan.changes else on_disk.text
        asked = roll_writes(campaign, record, merged)
        writes = RollWrites({**given, **asked.values}, asked.drop)
        text, _ = with_rolls(text, writes.values, writes.drop)
        check_written(path, text, merged, writes, ["orders", "battles", "handed_in", "partisans"])
        written = writes.values
        done = tuple(
            BattleWritten(
                r.hex,
                r.winner,
                _change(log.battles, r),
                tuple(v for v in record.verdicts if v.kind == "battle" and v.order == f"battle {r.hex}"),
            )
            for r in reports
        )
        said = tuple(sorted(written.items()))
        if text == on_disk.text or check_only:
            return BattlesWritten(number, path, None, done, said)
        backup = commit(campaign.folder, on_disk, on_disk.encode(text), "report" + (" --amend" if amend else ""))
        return BattlesWritten(number, path, backup, done, said)


def contacts_of(
    campaign: Campaign, before: CampaignState, log: TurnLog
) -> tuple[CampaignState, dict[str, tuple[str, ...]]]:
    """The turn played from `log` up to its contacts, its battles left out, and each contact's
    hexes by hex (a contact across a hexside has two)."""
    from kitgen.engine.phases.postbattle import contact_groups
    from kitgen.engine.turn import play_phases

    moved = play_phases(campaign, before, log.model_copy(update={"battles": []}), through="contacts")[1]
    return moved, {h: g for g in contact_groups(moved) for h in g}


def _change(old: Sequence[Battle], report: Battle) -> BattleChange:
    if report in old:
        return "unchanged"
    return "replaced" if any(b.hex == report.hex for b in old) else "added"


def _against_contact(
    report: Battle, groups: Mapping[str, tuple[str, ...]], moved: CampaignState, where: Path
) -> list[Problem]:
    """A report names the units of its contact, all of them and no others (a breakout: the unit
    breaking out and the units in the hex it breaks into)."""
    hexes = groups.get(report.hex)
    breaking = [p.unit for p in report.units if p.breakout]
    listed = [p.unit for p in report.units]
    if hexes is None and not breaking:
        return [Problem.of(where, 1, 1, msg.report_no_contact(report.hex, sorted(groups)))]
    there = {
        u.id
        for u in moved.units
        if u.hex in (hexes or (report.hex,)) and u.aboard is None and (u.hex, u.faction) not in moved.evaded
    }
    problems = []
    foreign = [u for u in listed if u not in there and u not in breaking]
    missing = sorted(there - set(listed)) if not breaking else []
    if foreign:
        problems.append(Problem.of(where, 1, 1, msg.report_not_in_contact(report.hex, foreign, sorted(there))))
    if missing:
        problems.append(Problem.of(where, 1, 1, msg.report_leaves_out(report.hex, missing)))
    return problems


def _judged(
    campaign: Campaign, before: CampaignState, log: TurnLog, reports: Sequence[Battle], where: Path
) -> TurnRecord:
    """The turn played with the reports in: the rules' problems with a report, at the form."""
    try:
        return play_turn(campaign, before, log, source=Unplaced(f"turn {log.turn} log"))
    except KitgenError as refused:
        places = ", ".join(r.hex for r in reports)
        raise KitgenError(
            [Problem.of(where, 1, 1, msg.report_refused(places, p.message)) for p in refused.problems]
        ) from None
