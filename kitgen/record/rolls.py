"""`kitgen roll`, the roll sheet and the prompt: the turn's rolls written into its log through the
record (the campaign's lock, the log as read, a backup), each one the turn asks for and a face of
its dice, or none is written.

Where the table rolls (campaign.yaml's `dice: table`), the umpire gives the rolls made at the
table. Where kitgen rolls, `draw_rolls` writes what kitgen drew, and a roll is changed only as an
amendment. A roll of a turn no longer being played is an amendment too (`amend`): every later
turn must still play, and what the rolls change (contacts come or go, orders held or carried
out) is said, as data."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal

from kitgen import messages as msg
from kitgen.campaign import Campaign
from kitgen.engine.state import CampaignState, Met, Roll
from kitgen.engine.turn import TurnRecord, play_turn
from kitgen.engine.turnlog import TurnLog
from kitgen.errors import KitgenError, Problem, UsageError
from kitgen.record.dicelog import with_given
from kitgen.record.merge import Plan
from kitgen.rules.dice import Dice

ChangeKind = Literal["contact_new", "contact_gone", "contact_units", "order"]


@dataclass(frozen=True)
class TurnChange:
    """One thing a change of the turn's rolls changed in it."""

    kind: ChangeKind
    hex: str = ""
    """A contact's hex."""
    units: tuple[str, ...] = ()
    """The contact's units now (gone: before), or the unit whose order's result changed."""
    before: str = ""
    """An order's result before (done, held, stopped, void) and after."""
    after: str = ""


@dataclass(frozen=True)
class RollsWritten:
    """What a roll command wrote."""

    turn: int
    log: Path
    backup: Path | None
    """The previous version kept; None when nothing was written."""
    given: tuple[tuple[str, int], ...]
    """The rolls given (or drawn by kitgen) and written, purpose and value."""
    asked: tuple[str, ...] = ()
    """Rolls the turn asks for now that no one has given (written with no value)."""
    changes: tuple[TurnChange, ...] = ()
    dropped: tuple[str, ...] = ()
    """The hexes of battle reports an amendment took out, the rolls changing their contacts: to
    be reported again."""
    names: Mapping[str, str] = field(default_factory=dict)
    """Each piece of the turn by its id: the name its counter prints, for the words."""


@dataclass(frozen=True)
class TurnRolls:
    """The turn being played (or `turn`) as its log stands: what a roll entry works from."""

    campaign: Campaign
    turn: int
    before: CampaignState
    log: TurnLog
    record: TurnRecord

    @property
    def owed(self) -> list[Roll]:
        """The rolls the turn asks for that its log does not give, in the order the turn makes them."""
        return [r for r in self.record.rolls if r.source == "drawn"]


def turn_rolls(folder: Path, turn: int | None = None, *, amend: bool = False) -> TurnRolls:
    """The turn a roll is for, read without the lock (a prompt's questions are asked from it;
    `give_rolls` reads it again under the lock)."""
    from kitgen.campaign import load_campaign
    from kitgen.record.opened import open_turn

    at = open_turn(load_campaign(folder), turn, amend=amend, what="rolls")
    return TurnRolls(at.campaign, at.turn, at.before, at.log, play_turn(at.campaign, at.before, at.log))


def check_rolls(
    campaign: Campaign, before: CampaignState, log: TurnLog, values: Mapping[str, int], where: Path
) -> TurnRecord:
    """The turn played with `values` given: every one a roll the turn then asks for and a face of
    its dice; else every problem at once, each with the rolls the turn does ask for. A roll such
    as a breakdown's is asked for only once the rolls before it are in: the turn is played again
    with each roll it comes to asking for, until it asks for no more of them."""
    problems: list[Problem] = []
    taken: dict[str, int] = {}
    record = play_turn(campaign, before, log)
    while True:
        asked = {r.purpose: r for r in record.rolls}
        fresh = {p: v for p, v in values.items() if p in asked and p not in taken}
        for purpose, value in fresh.items():
            d = Dice.parse(asked[purpose].dice)
            if not d.low <= value <= d.high:
                problems.append(
                    Problem.of(where, 1, 1, msg.roll_out_of_range(purpose, value, asked[purpose].dice, d.low, d.high))
                )
        if problems or not fresh:
            break
        taken |= fresh
        record = play_turn(campaign, before, with_given(log, taken))
    if not problems:
        asked_now = sorted({r.purpose for r in record.rolls})
        problems += [Problem.of(where, 1, 1, msg.roll_not_asked(p, asked_now)) for p in values if p not in taken]
    if problems:
        raise KitgenError(problems)
    return record


def give_rolls(
    folder: Path,
    values: Mapping[str, int] | None,
    turn: int | None = None,
    *,
    amend: bool = False,
    source: Path | None = None,
    check_only: bool = False,
) -> RollsWritten:
    """Write `values` (purpose -> roll) into the log of `turn` (default the turn being played);
    `values` None: where kitgen rolls, every roll the turn asks for that its log does not hold,
    as kitgen draws it. `source` names the file the rolls were read from, for its messages. As
    an amendment (`amend`), the reports of battles whose contacts the rolls change are taken out,
    to be reported again; without it, such rolls are refused, naming those contacts."""
    from kitgen.campaign import load_campaign
    from kitgen.engine.piecenames import piece_names
    from kitgen.record.dicelog import with_rolls
    from kitgen.record.lock import campaign_lock
    from kitgen.record.logfile import commit
    from kitgen.record.merge import splice_list
    from kitgen.record.opened import RollWrites, check_written, later_turns_play, open_turn, roll_writes

    with campaign_lock(folder):
        campaign = load_campaign(folder)
        at = open_turn(campaign, turn, amend=amend, what="rolls")
        was = play_turn(campaign, at.before, at.log)
        where = source or at.path
        if values is None:
            if campaign.meta.dice == "table":
                raise UsageError(msg.roll_table_rolls())
            values = {r.purpose: r.value for r in was.rolls if r.source == "drawn"}
        elif campaign.meta.dice == "kitgen" and values and not amend:
            raise UsageError(msg.roll_kitgen_rolls(sorted(values)[0]))
        log, dropped = at.log, Plan(["keep"] * len(at.log.battles))
        try:
            record = check_rolls(campaign, at.before, log, values, where)
        except KitgenError as refused:
            unfit = _unfit(campaign, at.before, log, values, where, refused)
            if not unfit:
                raise
            if not amend:
                raise KitgenError([Problem.of(where, 1, 1, msg.roll_changes_battles(unfit))]) from None
            dropped = Plan(["drop" if b.hex in unfit else "keep" for b in log.battles])
            log = log.model_copy(update={"battles": dropped.result(log.battles)})
            record = check_rolls(campaign, at.before, log, values, where)
        given = with_given(log, dict(values))
        if at.turn < at.last:
            later_turns_play(campaign, at.turn, given)
        still = roll_writes(campaign, record, given)
        writes = RollWrites({**dict(values), **still.values}, still.drop)
        text = at.on_disk.text
        if dropped.changes:
            text = splice_list(text, "battles", at.log.battles, dropped)
        text, _ = with_rolls(text, writes.values, writes.drop)
        check_written(at.path, text, given, writes, ["orders", "battles", "handed_in"])
        result = RollsWritten(
            at.turn,
            at.path,
            None,
            tuple(sorted(values.items())),
            tuple(p for p, v in still.values.items() if v is None),
            turn_changes(was, record),
            tuple(b.hex for b, fate in zip(at.log.battles, dropped.fates, strict=True) if fate == "drop"),
            piece_names(record.start or at.before),
        )
        if text == at.on_disk.text or check_only:
            return result
        backup = commit(campaign.folder, at.on_disk, at.on_disk.encode(text), "roll" + (" --amend" if amend else ""))
        return replace(result, backup=backup)


def _unfit(
    campaign: Campaign,
    before: CampaignState,
    log: TurnLog,
    values: Mapping[str, int],
    where: Path,
    refused: KitgenError,
) -> list[str]:
    """The hexes of the reported battles a change of rolls no longer fits: those of the contacts
    it changes, across a hexside both hexes (none when the refusal is of the rolls themselves)."""
    if not log.battles or any(p.code.startswith("roll.") for p in refused.problems):
        return []
    bare = log.model_copy(update={"battles": []})
    try:
        was = play_turn(campaign, before, bare)
        changes = turn_changes(was, check_rolls(campaign, before, bare, values, where))
    except KitgenError:
        return []
    groups = {h: m.hexes for m in was.met for h in m.hexes}
    near = {h for c in changes if c.kind.startswith("contact_") for h in groups.get(c.hex, (c.hex,))}
    return sorted({b.hex for b in log.battles if b.hex in near})


def turn_changes(was: TurnRecord, now: TurnRecord) -> tuple[TurnChange, ...]:
    """What differs between two plays of one turn: contacts come, gone or with other units, and
    orders with another result (held by a failed roll, carried out, stopped)."""
    found: list[TurnChange] = []
    before: dict[str, Met] = {m.hex: m for m in was.met}
    after: dict[str, Met] = {m.hex: m for m in now.met}
    for hex_id, m in after.items():
        old = before.get(hex_id)
        if old is None:
            found.append(TurnChange("contact_new", hex_id, m.units))
        elif old.units != m.units:
            found.append(TurnChange("contact_units", hex_id, m.units))
    found += [TurnChange("contact_gone", h, m.units) for h, m in before.items() if h not in after]
    results = {(v.kind, v.unit): v.result for v in was.verdicts}
    for v in now.verdicts:
        old_result = results.get((v.kind, v.unit))
        if old_result is not None and old_result != v.result:
            found.append(TurnChange("order", units=(v.unit,), before=old_result, after=v.result))
    return tuple(found)
