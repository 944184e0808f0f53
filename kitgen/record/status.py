"""Where the campaign stands (`kitgen status`): the turn being played, whose orders are in, the
rolls still to make, the battles to report, breakouts owed, slips to place, and what
`kitgen next` would refuse: as values, then as text or JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path

from kitgen.campaign import Campaign
from kitgen.engine.context import LogSource
from kitgen.engine.state import CampaignState
from kitgen.engine.turn import TurnRecord
from kitgen.engine.turnlog import BY_FACTION, TurnLog
from kitgen.errors import display_path
from kitgen.record.merge import who as ordered
from kitgen.record.unfinished import Owed, TurnOwes, turn_owes


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
    """The purposes of the rolls the log does not give yet (kitgen draws them if it never does)."""
    owed: tuple[Owed, ...]
    slips: dict[str, tuple[str, ...]]
    """Slips each faction has drawn and not placed (E.3-E.5)."""
    ending: str = ""
    """Where the scenario's end stands: turns left, or over and who won."""
    over: bool = False
    """The scenario is over and the club does not play on: `kitgen next` refuses."""

    @property
    def finished(self) -> bool:
        return self.log is not None and not self.owed


def campaign_status(campaign: Campaign) -> Status:
    """The status of the last log's turn, from one replay of the campaign."""
    from kitgen.engine.replay import played, read_logs
    from kitgen.engine.setup import initial_state

    read = read_logs(campaign)
    before = initial_state(campaign)
    last = None
    for path, record in played(campaign, read=read):
        if last is not None:
            before = last[1].state
        last = (path, record)
    if last is None:
        return Status(0, None, (), (), (), {}, *_end(campaign, initial_state(campaign)))
    path, record = last
    log, source = read[path]
    return _status(campaign, before, record, log, source, display_path(path))


def turn_status(campaign: Campaign, before: CampaignState, log: TurnLog, source: LogSource) -> Status:
    """The status of one turn's log played on the state before it (a packet's basis)."""
    from kitgen.engine.turn import play_turn

    record = play_turn(campaign, before, log, source=source)
    return _status(campaign, before, record, log, source, source.name)


def _status(
    campaign: Campaign, before: CampaignState, record: TurnRecord, log: TurnLog, source: LogSource, shown: str
) -> Status:
    owes: TurnOwes = turn_owes(record, log, source)
    drawn = tuple(r.purpose for r in record.state.rolls if r.source == "drawn")
    slips = {f: ids for f, ids in sorted(record.state.slips.items()) if ids}
    factions = _factions(campaign, before, log)
    return Status(record.state.turn, shown, factions, drawn, owes.owed, slips, *_end(campaign, record.state))


def _end(campaign: Campaign, state: CampaignState) -> tuple[str, bool]:
    from kitgen.engine.basis import past_the_end
    from kitgen.rules.ending import ending, ending_text

    end = ending(campaign.scenario, state)
    said = ending_text(campaign.scenario, end, play_on=campaign.meta.play_on)
    return said, past_the_end(campaign, state) is not None


def _factions(campaign: Campaign, before: CampaignState, log: TurnLog) -> tuple[FactionOrders, ...]:
    found = []
    for faction in campaign.scenario.meta.factions:
        f = faction.id
        who: set[str] = set()
        for section in BY_FACTION:
            who.update(ordered(order) for order in getattr(log, section).get(f, []))
        pieces = [u.id for u in before.units if u.faction == f]
        pieces += [str(x["id"]) for x in (*before.trains, *before.ships) if x["faction"] == f]
        handed = f in log.handed_in or bool(who)
        found.append(FactionOrders(f, faction.name, handed, len(who & set(pieces)), len(pieces)))
    return tuple(found)


def status_text(campaign: Campaign, status: Status, folder: Path) -> str:
    from kitgen.messages import plural

    s = campaign.scenario
    if status.log is None:
        return (
            f"{s.meta.title}: no turn started yet; `kitgen next {folder}` writes the log of turn 1\n{status.ending}\n"
        )
    out = [f"{s.meta.title}: turn {status.turn} being played ({status.log})", "", "Orders:"]
    for f in status.factions:
        said = "in" if f.handed_in else "not in"
        out.append(f"  {f.name}: {said}, {f.ordered} of {plural(f.units, 'unit')} ordered")
    out += ["", f"Rolls not given in the log ({len(status.rolls)}; kitgen draws them if they never are):"]
    out += [f"  {purpose}" for purpose in status.rolls] or ["  none"]
    reports = [o for o in status.owed if o.kind in ("no_report", "left_out")]
    out += ["", "Battles to report:"]
    out += [f"  {o.file}:{o.line}:{o.column}: {o.message(status.turn).text}" for o in reports] or ["  none"]
    breakouts = [o for o in status.owed if o.kind == "breakout"]
    out += ["", "Breakouts owed (II.B.1):"]
    out += [f"  {o.units[0]} in {o.hex}" for o in breakouts] or ["  none"]
    out += ["", "Slips to place (E.3-E.5):"]
    out += [f"  {s.faction_name(f)}: {', '.join(ids)}" for f, ids in status.slips.items()] or ["  none"]
    out += ["", status.ending, ""]
    if status.over:
        out.append(
            "The scenario is over: `kitgen next` refuses unless campaign.yaml says the club plays on (`play_on: true`)."
        )
    elif status.finished:
        out.append(f"Turn {status.turn} is finished: `kitgen next` may start turn {status.turn + 1}.")
        silent = [f.name for f in status.factions if not f.handed_in]
        if silent:
            out.append(f"No orders in from: {', '.join(silent)} (their units would hold).")
    else:
        out.append(f"`kitgen next` would refuse ({plural(len(status.owed), 'reason')}):")
        out += [f"  {o.file}:{o.line}:{o.column}: {o.message(status.turn).text}" for o in status.owed]
    return "\n".join(out) + "\n"


def status_json(status: Status) -> str:
    data = asdict(status)
    data["finished"] = status.finished
    data["owed"] = [{**asdict(o), "message": o.message(status.turn).text} for o in status.owed]
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"
