"""The history as data (`kitgen history`): one row per unit per turn, per battle and per town that
changed hands, from one replay of the logs, for clubs to chart in a spreadsheet (CSV) or a tool
to read (JSON). Names are as the counters print them; ids stand beside them for tools."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import asdict, dataclass, fields
from typing import TYPE_CHECKING, Any, Literal

from kitgen.engine.piecenames import piece_names

if TYPE_CHECKING:
    from kitgen.campaign import Campaign
    from kitgen.engine.history import History
    from kitgen.engine.state import CampaignState

Table = Literal["units", "battles", "towns"]
SCHEMA_VERSION = 1


@dataclass(frozen=True)
class UnitTurn:
    """A unit after a turn (turn 0: the set-up)."""

    turn: int
    unit: str
    id: str
    faction: str
    type: str
    hex: str
    town: str
    """The town in its hex, if any."""
    stands: int
    stands_by_kind: str
    supply: str
    """As judged at the turn's start (B.2): in, out, or not judged (the set-up)."""
    carrier: str
    """The train or ship that carried it in the turn."""
    aboard: str
    """The ship it is aboard at the turn's end."""
    owner: str
    """Who holds the town in its hex."""


@dataclass(frozen=True)
class BattleRow:
    turn: int
    battle: int
    """Its number in the turn, from 1, in the log's order."""
    hex: str
    town: str
    winners: str
    losers: str
    winner_units: str
    loser_units: str
    winner_stands_lost: int
    """Stands lost for good (II.B.3), the routed who deserted among them."""
    loser_stands_lost: int
    stands_back_next_turn: int
    fates: str


@dataclass(frozen=True)
class TownChange:
    turn: int
    town: str
    hex: str
    from_: str
    to: str


@dataclass(frozen=True)
class HistoryTables:
    campaign: str
    scenario: str
    turns: int
    units: tuple[UnitTurn, ...]
    battles: tuple[BattleRow, ...]
    towns: tuple[TownChange, ...]


SUPPLY = {True: "in", False: "out", None: "not judged"}


def history_tables(campaign: Campaign, history: History) -> HistoryTables:
    """The three tables of the campaign's history to its last turn played."""
    s, board = campaign.scenario, campaign.board
    factions = {f.id: f.name for f in s.meta.factions}
    where = {t: h for h, names in board.towns.items() for t in names}

    def town(hex_id: str) -> str:
        return board.towns.get(hex_id, ("",))[0]

    def owner(state: CampaignState, hex_id: str) -> str:
        held = state.owners.get(town(hex_id), "none")
        return factions.get(held, "") if held != "none" else ""

    units, battles, towns = [], [], []
    for turn in range(history.last + 1):
        state = history.after(turn)
        names = piece_names(state)
        for u in state.units:
            units.append(
                UnitTurn(
                    turn=turn,
                    unit=u.name,
                    id=u.id,
                    faction=factions.get(u.faction, u.faction),
                    type=u.type,
                    hex=u.hex,
                    town=town(u.hex),
                    stands=sum(u.stands.values()),
                    stands_by_kind=", ".join(f"{k.replace('_', ' ')} {n}" for k, n in sorted(u.stands.items()) if n),
                    supply=SUPPLY[u.in_supply] if turn else SUPPLY[None],
                    carrier=names.get(u.carrier, u.carrier) if u.carried and u.carrier else "",
                    aboard=names.get(u.aboard, u.aboard) if u.aboard else "",
                    owner=owner(state, u.hex),
                )
            )
        if not turn:
            continue
        before = history.after(turn - 1)
        known = piece_names(before) | names
        by: dict[int, list[Any]] = {}
        for r in state.battle_results:
            by.setdefault(r.battle, []).append(r)
        for number, (_, parts) in enumerate(sorted(by.items()), start=1):
            won = [r for r in parts if r.side == "winner"]
            lost = [r for r in parts if r.side != "winner"]
            battles.append(
                BattleRow(
                    turn=turn,
                    battle=number,
                    hex=parts[0].hex,
                    town=town(parts[0].hex),
                    winners="; ".join(dict.fromkeys(factions.get(r.faction, r.faction) for r in won)),
                    losers="; ".join(dict.fromkeys(factions.get(r.faction, r.faction) for r in lost)),
                    winner_units="; ".join(known.get(r.unit, r.unit) for r in won),
                    loser_units="; ".join(known.get(r.unit, r.unit) for r in lost),
                    winner_stands_lost=sum(r.permanent + r.deserted for r in won),
                    loser_stands_lost=sum(r.permanent + r.deserted for r in lost),
                    stands_back_next_turn=sum(r.returning for r in parts),
                    fates="; ".join(f"{known.get(r.unit, r.unit)} {r.fate.replace('_', ' ')}" for r in parts),
                )
            )
        for t in sorted(state.owners):
            old, new = before.owners.get(t, "none"), state.owners[t]
            if old != new:
                towns.append(
                    TownChange(turn, t, where.get(t, ""), factions.get(old, "nobody"), factions.get(new, "nobody"))
                )
    return HistoryTables(campaign.name, s.meta.id, history.last, tuple(units), tuple(battles), tuple(towns))


def _rows(tables: HistoryTables, table: Table) -> list[dict[str, Any]]:
    rows = [asdict(r) for r in getattr(tables, table)]
    return [{k.rstrip("_"): v for k, v in row.items()} for row in rows]


COLUMNS: dict[Table, list[str]] = {
    "units": [f.name for f in fields(UnitTurn)],
    "battles": [f.name for f in fields(BattleRow)],
    "towns": [f.name.rstrip("_") for f in fields(TownChange)],
}


def history_csv(tables: HistoryTables, table: Table) -> str:
    """One table as CSV with its header; a cell a spreadsheet would run as a formula is kept text."""
    from kitgen.orders.rows import neutralise_cell

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS[table])
    for row in _rows(tables, table):
        writer.writerow([neutralise_cell(str(row[k])) for k in COLUMNS[table]])
    return out.getvalue()


def history_json(tables: HistoryTables) -> str:
    """The three tables as one JSON document, its keys in a fixed order."""
    data = {
        "schema_version": SCHEMA_VERSION,
        "campaign": tables.campaign,
        "scenario": tables.scenario,
        "turns": tables.turns,
        "units": _rows(tables, "units"),
        "battles": _rows(tables, "battles"),
        "towns": _rows(tables, "towns"),
    }
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
