"""What a turn leaves unfinished (RULES-NOTES 2026-12-02: a turn is finished when every contact it
found has its battle in the log with every unit in the contact): as data, found from the turn
played and its log, for `kitgen status`, `kitgen next` and `kitgen validate`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kitgen import messages as msg
from kitgen.engine.context import LogSource
from kitgen.engine.findings import Finding
from kitgen.engine.turn import TurnRecord
from kitgen.engine.turnlog import BY_FACTION, TurnLog
from kitgen.errors import Problem

Owing = Literal["untouched", "no_report", "left_out", "breakout"]


@dataclass(frozen=True)
class Owed:
    """One thing the turn still owes before the next may start."""

    kind: Owing
    file: str
    line: int
    column: int
    hex: str | None = None
    units: tuple[str, ...] = ()
    """The contact's units (no_report), those the report leaves out (left_out), the unit owing a breakout."""
    rule: str = ""
    across: tuple[str, ...] = ()
    """Hexes across a hexside where enemy moves met: the battle may be reported under any."""

    def message(self, turn: int) -> msg.Msg:
        where = [self.hex or "", *self.across]
        if self.kind == "untouched":
            return msg.record_untouched(turn)
        if self.kind == "no_report":
            return msg.record_no_report(where, list(self.units))
        if self.kind == "left_out":
            return msg.record_left_out(where, list(self.units))
        return msg.note_breakout_owed(self.units[0], self.hex or "")

    def problem(self, turn: int) -> Problem:
        return Problem.of(self.file, self.line, self.column, self.message(turn))


@dataclass(frozen=True)
class TurnOwes:
    """A turn played and what it leaves unfinished."""

    turn: int
    owed: tuple[Owed, ...]

    @property
    def finished(self) -> bool:
        return not self.owed

    def problems(self) -> list[Problem]:
        return [o.problem(self.turn) for o in self.owed]


def untouched(log: TurnLog) -> bool:
    """The log is as `kitgen next` wrote it: no order, report, choice or roll given, and no
    faction's orders handed in (whatever its comments say: every spelling of it alike)."""
    by_faction = any(orders for section in BY_FACTION for orders in getattr(log, section).values())
    lists = log.battles or log.ships_lost or log.partisans or log.handed_in
    return not by_faction and not lists and all(roll.value is None for roll in log.dice)


def turn_owes(record: TurnRecord, log: TurnLog, source: LogSource) -> TurnOwes:
    """What the turn of `log`, played as `record`, still owes: the log untouched, a contact with
    no battle reported in its hex, a report that leaves out units of the contact, a breakout."""
    turn = record.state.turn
    owed: list[Owed] = []
    if untouched(log):
        owed.append(Owed("untouched", source.name, 1, 1, rule="RULES-NOTES turn order"))
    for met in record.met:
        reports = [b for b, battle in enumerate(log.battles) if battle.hex in met.hexes]
        if not reports:
            line, column = source.position(("battles",), key=True) if log.battles else (1, 1)
            owed.append(Owed("no_report", source.name, line or 1, column or 1, met.hex, met.units, "II.B", met.across))
            continue
        listed = {part.unit for b in reports for part in log.battles[b].units}
        missing = tuple(u for u in met.units if u not in listed)
        if missing:
            line, column = source.position(("battles", reports[0]))
            owed.append(Owed("left_out", source.name, line or 1, column or 1, met.hex, missing, "II.B", met.across))
    for b in record.breakouts_owed:
        line, column = source.position(("battles", b.battle, "units", b.part))
        owed.append(Owed("breakout", source.name, line or 1, column or 1, b.hex, (b.unit,), "II.B.1"))
    return TurnOwes(turn, tuple(owed))


def owed_findings(owes: TurnOwes) -> list[Finding]:
    """What the turn owes as `kitgen validate`'s warnings (a breakout owed is warned of already)."""
    return [
        Finding(o.file, o.line, o.column, owes.turn, f"turn.{o.kind}", o.rule, o.message(owes.turn).text)
        for o in owes.owed
        if o.kind != "breakout"
    ]
