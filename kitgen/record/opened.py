"""A turn's log opened for a record command to write (orders, rolls, battle reports), the
campaign's lock held: which turn (by default the one being played; a finished one only as an
amendment), the state before it, the log as on disk; then the rolls the turn now asks for, the
text checked to read back as intended, and the later turns checked to still play."""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from kitgen import messages as msg
from kitgen.campaign import TURNS, Campaign
from kitgen.engine.state import CampaignState
from kitgen.engine.turn import TurnRecord
from kitgen.engine.turnlog import TurnLog
from kitgen.errors import KitgenError, Problem, UsageError
from kitgen.record.logfile import LogRead, read_log_file

if TYPE_CHECKING:
    from kitgen.engine.basis import Playing
    from kitgen.yamlsource import Located


@dataclass(frozen=True)
class OpenTurn:
    campaign: Campaign
    turn: int
    last: int
    """The last log's turn: a turn before it is an amendment, replayed with every later one."""
    before: CampaignState
    """The state after the turn before it."""
    path: Path
    on_disk: LogRead
    log: TurnLog


def log_path(campaign: Campaign, turn: int) -> Path:
    return campaign.folder / TURNS / f"turn-{turn:02d}.yaml"


def parse_log(path: Path, raw: bytes) -> tuple[TurnLog, Located]:
    """A log's bytes, as if read from `path`: the log and where its values stand."""
    from kitgen.engine.turn import checked_log
    from kitgen.yamlsource import parse_yaml

    located = parse_yaml(path, raw, suffix=".yaml")
    return checked_log(located), located


def open_turn(campaign: Campaign, turn: int | None, *, amend: bool, what: str = "orders") -> OpenTurn:
    """The log a record command writes into (`turn_to_write`), read with the state before it; a
    malformed log stops here, with its lines, before its text is touched."""
    from kitgen.engine.replay import replay

    number, playing = _turn(campaign, turn, amend=amend, what=what)
    before = playing.before_last if number == playing.last else replay(campaign, number - 1)
    path = log_path(campaign, number)
    on_disk = read_log_file(path)
    log, _ = parse_log(path, on_disk.raw or b"")
    return OpenTurn(campaign, number, playing.last, before, path, on_disk, log)


def turn_to_write(campaign: Campaign, turn: int | None, *, amend: bool, what: str = "orders") -> tuple[int, int]:
    """The turn a record command writes into (`turn`, by default the turn being played) and the
    last log's turn: refused where there is no log of it (a record command never starts a
    turn), where the scenario is over, and for a turn no longer being played without `amend`."""
    number, playing = _turn(campaign, turn, amend=amend, what=what)
    return number, playing.last


def _turn(campaign: Campaign, turn: int | None, *, amend: bool, what: str) -> tuple[int, Playing]:
    from kitgen.engine.basis import past_the_end, turn_being_played
    from kitgen.engine.replay import replay

    playing = turn_being_played(campaign)
    last = playing.last
    number = playing.turn if turn is None else turn
    if turn is None and playing.turn > last and last:
        ended = past_the_end(campaign, replay(campaign))
        if ended is not None:
            raise KitgenError([ended])
        raise KitgenError.at(campaign.folder / TURNS, 1, 1, msg.record_turn_finished(last, playing.turn))
    if number < 1 or number > last:
        raise KitgenError.at(campaign.folder / TURNS, 1, 1, msg.record_no_log(number, last))
    if number < playing.turn and not amend:
        over = playing.turn > last and past_the_end(campaign, replay(campaign)) is not None
        raise UsageError(msg.record_past_turn(number, playing.turn, what, over, started=playing.turn <= last))
    return number, playing


@dataclass(frozen=True)
class RollWrites:
    """What a write puts into the log's `dice:` beside what it came for."""

    values: dict[str, int | None]
    """Rolls the turn asks for that the log does not hold yet: with the value kitgen drew, where
    it rolls and every faction's orders are in; else with none, for the table to make."""
    drop: frozenset[str] = frozenset()
    """Entries with no value the turn no longer asks for (an order taken back)."""


def roll_writes(campaign: Campaign, record: TurnRecord, log: TurnLog) -> RollWrites:
    """The rolls the turn, played as `record` from `log`, now asks for that the log lacks
    (RULES-NOTES, 2026-12-05), and the empty entries it no longer asks for. Where kitgen rolls,
    nothing is written until every faction's orders are in: it draws them then."""
    from kitgen.engine.unfinished import factions_to_order, handed_in

    start = record.start or record.state
    orders_in = all(handed_in(log, f) for f in factions_to_order(start))
    listed = {g.purpose: g.value for g in log.dice}
    asked = {r.purpose for r in record.rolls}
    drop = frozenset(p for p, v in listed.items() if v is None and p not in asked)
    if campaign.meta.dice == "kitgen":
        drawn = {r.purpose: r.value for r in record.rolls if r.source == "drawn"} if orders_in else {}
        return RollWrites({p: v for p, v in drawn.items() if listed.get(p) != v}, drop)
    missing = [r.purpose for r in record.rolls if r.source == "drawn" and r.purpose not in listed]
    return RollWrites(dict.fromkeys(missing), drop)


def check_written(path: Path, text: str, log: TurnLog, writes: RollWrites, fields: Collection[str]) -> None:
    """The text about to be written reads back as `log` with the rolls `writes` says, or
    nothing is written."""
    try:
        back: TurnLog | None = parse_log(path, text.encode("utf-8"))[0]
    except KitgenError:  # the rewritten text, not the file on disk, is what cannot be read
        back = None
    differ = [k for k in fields if back is None or getattr(back, k) != getattr(log, k)]
    if back is not None:
        want = {g.purpose: g.value for g in log.dice if g.purpose not in writes.drop}
        want |= {p: v if v is not None else want.get(p) for p, v in writes.values.items()}
        if {g.purpose: g.value for g in back.dice} != want:
            differ.append("dice")
    if back is None or differ:
        raise KitgenError.at(path, 1, 1, msg.orders_splice_mismatch(", ".join(differ or fields)))


def later_turns_play(campaign: Campaign, turn: int, amended: TurnLog) -> None:
    """--amend: every turn after `turn` still plays on the amended log's results, or nothing is
    written and the first that does not is named at its line."""
    from kitgen.engine.replay import played, read_logs

    read = read_logs(campaign)
    path = log_path(campaign, turn)
    source = read[path][1]
    read[path] = (amended, source)
    try:
        for _ in played(campaign, read=read):
            pass
    except KitgenError as broken:
        problems = [
            Problem.of(p.file, p.line, p.column, msg.record_amend_breaks(turn, p.message)) for p in broken.problems
        ]
        raise KitgenError(problems) from None
