"""Where the campaign stands (`kitgen status`): the turn being played, whose orders are in, the
rolls still to make, the battles to report, breakouts owed, slips to place, and what
`kitgen next` would refuse: as values, then as text or JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from typing import Literal

from kitgen.campaign import Campaign, WhoRolls
from kitgen.engine.context import LogSource
from kitgen.engine.state import CampaignState
from kitgen.engine.turn import TurnRecord
from kitgen.engine.turnlog import BY_FACTION, TurnLog
from kitgen.engine.unfinished import Owed, TurnOwes, handed_in, turn_owes
from kitgen.errors import display_path
from kitgen.record.merge import who as ordered

Stage = Literal["unstarted", "playing", "finished", "over"]
"""Where the campaign stands: no turn started; the last log's turn being played (it still owes
something that can change its contacts or battles); that turn finished (`kitgen next` may start
the next); or the scenario over after it (its last turn, or an early end, finished)."""


@dataclass(frozen=True)
class FactionOrders:
    faction: str
    name: str
    handed_in: bool
    """Its orders are in: the log's `handed_in` names it, or it holds orders of the faction."""
    ordered: int
    """Its units (trains, ships) with an order in the log."""
    units: int
    """Its units, trains and ships at the start of the turn."""


@dataclass(frozen=True)
class Status:
    """The turn being played and where it stands; turn 0 and no log: none started yet."""

    turn: int
    log: str | None
    factions: tuple[FactionOrders, ...]
    rolls: tuple[str, ...]
    """The purposes of the rolls the turn asks for that the log does not give yet."""
    owed: tuple[Owed, ...]
    slips: dict[str, tuple[str, ...]]
    """Slips each faction has drawn and not placed (E.3-E.5)."""
    ending: str = ""
    """Where the scenario's end stands: turns left, the result waiting, or over and who won."""
    over: bool = False
    """The scenario is over and the club does not play on: `kitgen next` refuses."""
    dice: WhoRolls | None = None
    """Who rolls: campaign.yaml's `dice:` (None: it does not say; kitgen draws what the log lacks)."""
    written: int = 0
    """The rolls the log gives (made at the table, or written in by kitgen)."""
    forced: tuple[int, ...] = ()
    """Earlier turns gone past unfinished (`kitgen next --force`): what they owe may still
    change the campaign, so no end is announced while any is left so."""

    @property
    def finished(self) -> bool:
        return self.log is not None and not self.owed

    @property
    def stage(self) -> Stage:
        if self.log is None:
            return "unstarted"
        if not self.finished:
            return "playing"
        return "over" if self.over else "finished"


def campaign_status(campaign: Campaign) -> Status:
    """The status of the last log's turn, from one replay of the campaign."""
    from kitgen.engine.replay import played, read_logs
    from kitgen.engine.setup import initial_state

    read = read_logs(campaign)
    before = initial_state(campaign)
    last = None
    forced: list[int] = []
    for path, record in played(campaign, read=read):
        if last is not None:
            before = last[1].state
            if not turn_owes(last[1], *read[last[0]], campaign.meta.dice).finished:
                forced.append(last[1].state.turn)
        last = (path, record)
    if last is None:
        return Status(0, None, (), (), (), {}, *_end(campaign, initial_state(campaign), True), dice=campaign.meta.dice)
    path, record = last
    log, source = read[path]
    return _status(campaign, before, record, log, source, display_path(path), tuple(forced))


def turn_status(campaign: Campaign, before: CampaignState, log: TurnLog, source: LogSource) -> Status:
    """The status of one turn's log played on the state before it (a packet's basis)."""
    from kitgen.engine.turn import play_turn

    record = play_turn(campaign, before, log, source=source)
    return _status(campaign, before, record, log, source, source.name)


def _status(
    campaign: Campaign,
    before: CampaignState,
    record: TurnRecord,
    log: TurnLog,
    source: LogSource,
    shown: str,
    forced: tuple[int, ...] = (),
) -> Status:
    owes: TurnOwes = turn_owes(record, log, source, campaign.meta.dice)
    drawn = tuple(r.purpose for r in record.state.rolls if r.source == "drawn")
    given = sum(1 for r in record.state.rolls if r.source == "given")
    slips = {f: ids for f, ids in sorted(record.state.slips.items()) if ids}
    factions = _factions(campaign, before, log)
    end = _end(campaign, record.state, owes.finished and not forced)
    return Status(
        record.state.turn,
        shown,
        factions,
        drawn,
        owes.owed,
        slips,
        *end,
        dice=campaign.meta.dice,
        written=given,
        forced=forced,
    )


def _end(campaign: Campaign, state: CampaignState, finished: bool) -> tuple[str, bool]:
    """The end's words after `state`'s turn, and whether the scenario is over (only once that
    turn is finished: RULES-NOTES, 2026-12-05)."""
    from kitgen.engine.basis import past_the_end
    from kitgen.rules.ending import ending, ending_text

    end = ending(campaign.scenario, state, finished=finished)
    said = ending_text(campaign.scenario, end, play_on=campaign.meta.play_on)
    return said, finished and past_the_end(campaign, state) is not None


def _factions(campaign: Campaign, before: CampaignState, log: TurnLog) -> tuple[FactionOrders, ...]:
    found = []
    for faction in campaign.scenario.meta.factions:
        f = faction.id
        who: set[str] = set()
        for section in BY_FACTION:
            who.update(ordered(order) for order in getattr(log, section).get(f, []))
        pieces = [u.id for u in before.units if u.faction == f]
        pieces += [str(x["id"]) for x in (*before.trains, *before.ships) if x["faction"] == f]
        found.append(FactionOrders(f, faction.name, handed_in(log, f), len(who & set(pieces)), len(pieces)))
    return tuple(found)


def status_text(campaign: Campaign, status: Status, named: str = "") -> str:
    """The status in words; `named` is the campaign folder as the commands to suggest name it
    ('' inside it)."""
    from kitgen.messages import plural

    s = campaign.scenario
    folder = f" {named}" if named else ""
    if status.log is None:
        return (
            f"{s.meta.title}: no turn started yet; `kitgen next{folder}` writes the log of turn 1\n"
            f"{_dice_line(status)}\n{status.ending}\n"
        )
    stage = status.stage
    if stage == "playing":
        head = f"turn {status.turn} being played ({status.log})"
    elif stage == "finished":
        head = f"turn {status.turn} finished ({status.log}): `kitgen next{folder}` starts turn {status.turn + 1}"
    else:
        head = f"the scenario is over after turn {status.turn} ({status.log})"
    out = [f"{s.meta.title}: {head}", "", "Orders:"]
    for f in status.factions:
        if not f.units:
            out.append(f"  {f.name}: no unit on the map")
            continue
        said = "in" if f.handed_in else "NOT IN"
        out.append(f"  {f.name}: {said}, {f.ordered} of {plural(f.units, 'unit')} ordered")
    out += ["", _dice_line(status)]
    owed_rolls = [o for o in status.owed if o.kind in ("roll_missing", "roll_unwritten")]
    if status.dice is None and status.rolls:
        out += [f"  not given, so drawn: {purpose}" for purpose in status.rolls]
    for o in owed_rolls:
        decides = f" (decides {', '.join(o.units)})" if o.units else ""
        out.append(f"  {o.dice} for {o.purpose}{decides}")
    reports = [o for o in status.owed if o.kind in ("no_report", "left_out")]
    out += ["", "Battles to report:"]
    for o in reports:
        out.append(f"  {o.file}:{o.line}:{o.column}: {o.message(status.turn).text}")
        if o.rolls:
            out.append(f"    may change with the rolls not yet in: {'; '.join(o.rolls)}")
    if not reports:
        out.append("  none" if status.finished or not _open(status) else "  none found so far")
    if _open(status):
        out.append(
            "  (orders or rolls are still to come: until they are in, the contacts may change, and others appear)"
        )
    breakouts = [o for o in status.owed if o.kind == "breakout"]
    out += ["", "Breakouts owed (II.B.1):"]
    out += [f"  {o.units[0]} in {o.hex}" for o in breakouts] or ["  none"]
    out += ["", "Slips to place (E.3-E.5):"]
    out += [f"  {s.faction_name(f)}: {', '.join(ids)}" for f, ids in status.slips.items()] or ["  none"]
    if status.forced:
        turns = ", ".join(map(str, status.forced))
        out += [
            "",
            f"Turns gone past unfinished (kitgen next --force): {turns}; what they owe may still change the campaign.",
        ]
    out += ["", status.ending, ""]
    if stage == "over":
        out.append(
            "The scenario is over: `kitgen next` refuses unless campaign.yaml says the club plays on (`play_on: true`)."
        )
    elif stage == "finished":
        out.append(f"Turn {status.turn} is finished: nothing still to write can change its contacts or battles.")
    else:
        out.append(
            f"Turn {status.turn} is not finished; `kitgen next` would refuse ({plural(len(status.owed), 'reason')}):"
        )
        out += [f"  {o.file}:{o.line}:{o.column}: {o.message(status.turn).text}" for o in status.owed]
    return "\n".join(out) + "\n"


def _open(status: Status) -> bool:
    """Orders or rolls still to come, which may change the turn's contacts."""
    return any(o.kind in ("untouched", "orders_out", "roll_missing", "roll_unwritten") for o in status.owed)


def _dice_line(status: Status) -> str:
    """Who rolls, and where the turn's rolls stand."""
    from kitgen.messages import plural

    owed = [o for o in status.owed if o.kind in ("roll_missing", "roll_unwritten")]
    waiting = any(o.kind in ("untouched", "orders_out") for o in status.owed)
    if status.dice == "table" and waiting and not owed:
        return (
            f"Rolls: the table rolls; {plural(len(status.rolls), 'roll')} to make so far, more as the orders "
            "come in (each order's command roll)."
        )
    if status.dice == "table":
        if owed:
            return f"Rolls: the table rolls; {plural(len(owed), 'roll')} still to make and give (the roll sheet, or `kitgen roll`):"
        return f"Rolls: the table rolls; every roll the turn needs so far is in ({status.written} given)."
    if status.dice == "kitgen":
        if any(o.kind in ("untouched", "orders_out") for o in status.owed):
            return "Rolls: kitgen rolls; it draws the turn's rolls into the log when every faction's orders are in."
        if owed:
            return f"Rolls: kitgen rolls; {plural(len(owed), 'roll')} not yet written into the log (`kitgen roll` writes them):"
        written = "roll is" if status.written == 1 else f"{status.written} rolls are"
        return f"Rolls: kitgen rolls; the turn's {written} written in the log."
    said = (
        "Rolls: campaign.yaml does not say who rolls (`dice: table` or `dice: kitgen`), so kitgen draws every "
        "roll the log does not give"
    )
    return said + (f" ({len(status.rolls)} so far):" if status.rolls else ".")


def status_json(status: Status) -> str:
    data = asdict(status)
    data["finished"] = status.finished
    data["stage"] = status.stage
    data["owed"] = [{**asdict(o), "message": o.message(status.turn).text} for o in status.owed]
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
