"""What a turn leaves unfinished: as data, found from the turn played and its log, for `kitgen
status`, `kitgen next`, `kitgen validate` and the turn being played.

A turn is finished only when nothing still to be written can change its contacts or battles
(RULES-NOTES, 2026-12-02 and 2026-12-05): every faction's orders are in (a faction with no piece
on the map owes none), every roll the turn needs is in the log (where the table rolls; where
kitgen rolls, kitgen has written what it drew), every contact has its battle listing every unit
in it, and no breakout is owed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kitgen import messages as msg
from kitgen.campaign import Campaign, WhoRolls
from kitgen.engine.context import LogSource
from kitgen.engine.findings import Finding
from kitgen.engine.state import CampaignState, Roll
from kitgen.engine.turn import TurnRecord
from kitgen.engine.turnlog import BY_FACTION, TurnLog
from kitgen.errors import KitgenError, Problem

Owing = Literal["untouched", "orders_out", "roll_missing", "roll_unwritten", "no_report", "left_out", "breakout"]


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
    faction: str = ""
    """orders_out: the faction whose orders are not in."""
    purpose: str = ""
    """roll_missing, roll_unwritten: the roll, as the log's `dice:` names it."""
    dice: str = ""
    rolls: tuple[str, ...] = ()
    """no_report, left_out: the rolls not yet in that this contact depends on (it may change with them)."""

    def message(self, turn: int) -> msg.Msg:
        where = [self.hex or "", *self.across]
        if self.kind == "untouched":
            return msg.record_untouched(turn)
        if self.kind == "orders_out":
            return msg.record_orders_out(self.faction, turn)
        if self.kind == "roll_missing":
            return msg.record_roll_missing(self.purpose, self.dice, list(self.units))
        if self.kind == "roll_unwritten":
            return msg.record_roll_unwritten(self.purpose, self.dice)
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

    @property
    def orders_in(self) -> bool:
        """Every faction with a piece on the map has handed in its orders."""
        return not any(o.kind in ("untouched", "orders_out") for o in self.owed)

    def problems(self) -> list[Problem]:
        return [o.problem(self.turn) for o in self.owed]


def untouched(log: TurnLog) -> bool:
    """The log is as `kitgen next` wrote it: no order, report, choice or roll given, and no
    faction's orders handed in (whatever its comments say: every spelling of it alike)."""
    by_faction = any(orders for section in BY_FACTION for orders in getattr(log, section).values())
    lists = log.battles or log.ships_lost or log.partisans or log.handed_in
    return not by_faction and not lists and all(roll.value is None for roll in log.dice)


def handed_in(log: TurnLog, faction: str) -> bool:
    """The faction's orders are in: the log's `handed_in` names it, or it holds orders of it."""
    return faction in log.handed_in or any(getattr(log, section).get(faction) for section in BY_FACTION)


def factions_to_order(start: CampaignState) -> list[str]:
    """The factions with a unit, train or ship on the map at the turn's start, in the state's order."""
    found = [u.faction for u in start.units] + [str(x["faction"]) for x in (*start.trains, *start.ships)]
    return list(dict.fromkeys(found))


def rolls_owed(record: TurnRecord, dice: WhoRolls | None) -> list[Roll]:
    """The rolls the turn asked for that the log does not hold: drawn by kitgen in the replay."""
    return [r for r in record.rolls if r.source == "drawn"] if dice is not None else []


def depends(met_units: tuple[str, ...], hexes: tuple[str, ...], roll: Roll, paths: dict[str, set[str]]) -> bool:
    """A contact may change with a roll not yet in: the event card's (II.A, it may change every
    move), one that decides whether one of its units moves or a unit ordered into its hexes
    (`paths`: each ordered unit's hexes), or whether it is fought at all (II.D)."""
    if roll.rule == "II.A" or roll.hex in hexes or set(roll.units) & set(met_units):
        return True
    return any(paths.get(u, set()) & set(hexes) for u in roll.units)


def ordered_paths(log: TurnLog) -> dict[str, set[str]]:
    """Each unit (train, ship) the log orders to move, and the hexes its order names; a unit a
    train or ship carries, its carrier's."""
    found: dict[str, set[str]] = {}
    for orders in log.orders.values():
        for o in orders:
            found.setdefault(o.unit, set()).update(o.move)
    for section, key in (("rail", "train"), ("sea", "ship")):
        for orders in getattr(log, section).values():
            for o in orders:
                for who in (getattr(o, key), *o.carry):
                    found.setdefault(who, set()).update(o.path)
    return found


def turn_owes(record: TurnRecord, log: TurnLog, source: LogSource, dice: WhoRolls | None = None) -> TurnOwes:
    """What the turn of `log`, played as `record`, still owes: the log untouched, a faction's
    orders not in, a roll not in the log (`dice`: who rolls, campaign.yaml's), a contact with no
    battle reported in its hex, a report that leaves out units of the contact, a breakout."""
    turn = record.state.turn
    owed: list[Owed] = []
    start = record.start or record.state
    if untouched(log):  # nothing in it yet: that says it all
        return TurnOwes(turn, (Owed("untouched", source.name, 1, 1, rule="the strategic turn"),))
    out = [f for f in factions_to_order(start) if not handed_in(log, f)]
    for f in out:
        line, column = source.position(("handed_in",), key=True) if log.handed_in else (1, 1)
        owed.append(
            Owed("orders_out", source.name, line or 1, column or 1, rule="the strategic turn, step 2", faction=f)
        )
    missing_rolls = rolls_owed(record, dice)
    if dice == "kitgen" and out:
        missing_rolls = []  # kitgen draws them when every faction's orders are in
    kind: Owing = "roll_missing" if dice == "table" else "roll_unwritten"
    for r in missing_rolls:
        at = next((k for k, g in enumerate(log.dice) if g.purpose == r.purpose), None)
        line, column = source.position(("dice", at)) if at is not None else (1, 1)
        owed.append(
            Owed(kind, source.name, line or 1, column or 1, units=r.units, rule=r.rule, purpose=r.purpose, dice=r.dice)
        )
    paths = ordered_paths(log) if missing_rolls else {}
    for met in record.met:
        hexes = met.hexes
        waits = tuple(r.purpose for r in missing_rolls if depends(met.units, hexes, r, paths))
        reports = [b for b, battle in enumerate(log.battles) if battle.hex in hexes]
        if not reports:
            line, column = source.position(("battles",), key=True) if log.battles else (1, 1)
            owed.append(
                Owed(
                    "no_report",
                    source.name,
                    line or 1,
                    column or 1,
                    met.hex,
                    met.units,
                    "II.B",
                    met.across,
                    rolls=waits,
                )
            )
            continue
        listed = {part.unit for b in reports for part in log.battles[b].units}
        left = tuple(u for u in met.units if u not in listed)
        if left:
            line, column = source.position(("battles", reports[0]))
            owed.append(
                Owed("left_out", source.name, line or 1, column or 1, met.hex, left, "II.B", met.across, rolls=waits)
            )
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


def judged_replay(
    campaign: Campaign, upto: int | None = None, notes: list[Problem] | None = None
) -> tuple[CampaignState, bool]:
    """The state after turn `upto` (default the last log) and whether every turn up to it is
    finished (one gone past with `kitgen next --force` may still change it): what `kitgen state`
    shows, its end announced only then (RULES-NOTES, 2026-12-05)."""
    from kitgen.engine.replay import played, read_logs
    from kitgen.engine.setup import initial_state

    read = read_logs(campaign)
    state, finished = initial_state(campaign), True
    for path, record in played(campaign, upto, read=read):
        state = record.state
        finished = finished and turn_owes(record, *read[path], campaign.meta.dice).finished
        if notes is not None:
            notes.extend(record.notes)
    if upto is not None and upto > state.turn:
        raise KitgenError.at(campaign.folder / "turns", 1, 1, msg.log_no_such_turn(upto, state.turn))
    return state, finished
