"""The entries of a filled order form made into a faction's orders of the turn log, every entry
that cannot be read reported by its unit and field."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from kitgen import messages as msg
from kitgen.campaign import Campaign
from kitgen.engine.state import CampaignState
from kitgen.engine.turnlog import (
    MoveOrder,
    PartisanChoice,
    PontoonOrder,
    RailOrder,
    ResupplyOrder,
    SeaOrder,
    TrackOrder,
)
from kitgen.errors import Problem
from kitgen.limits import PATH_LENGTH
from kitgen.mapping.hexgrid import DIRECTION_NAMES, HexGrid
from kitgen.orders.formread import FilledForm, OrderEntry
from kitgen.orders.rows import PATH_HEXES, OrderRow, order_rows

_SEPARATORS = re.compile(r"[\s,;\-\u2013\u2014]+")
_HEX = re.compile(r"[0-9]{4,6}")
SPECIALS = {
    "unit": ("retreat", "wreck", "repair HEX [HEX]", "emplace HEX", "pick up", "evade", "ambush", "resupply"),
    "train": (),
    "ship": ("land HEX",),
}


@dataclass
class FactionOrders:
    """One faction's orders for a turn, by section of the turn log."""

    orders: list[MoveOrder] = field(default_factory=list)
    rail: list[RailOrder] = field(default_factory=list)
    sea: list[SeaOrder] = field(default_factory=list)
    track: list[TrackOrder] = field(default_factory=list)
    pontoons: list[PontoonOrder] = field(default_factory=list)
    resupply: list[ResupplyOrder] = field(default_factory=list)
    partisans: list[PartisanChoice] = field(default_factory=list)

    def count(self) -> int:
        return sum(len(getattr(self, name)) for name in SECTIONS) + len(self.partisans)


SECTIONS = ("orders", "rail", "sea", "track", "pontoons", "resupply")
"""The turn log's sections of orders by faction (partisans is one list of all factions)."""


@dataclass(frozen=True)
class Where:
    """The form row and field an order of the log comes from."""

    entry: OrderEntry
    field: str


@dataclass
class Read:
    faction: str
    orders: FactionOrders
    problems: list[Problem]
    where: dict[tuple[str, str], Where]
    """(verdict kind, unit id) -> the row and field the order came from."""
    mentioned: set[str] = field(default_factory=set)
    """The units, trains and ships the form has a row for, blank or not: the orders it speaks for."""


def form_faction(campaign: Campaign, state: CampaignState, form: FilledForm) -> str | None:
    """The faction whose form it is: its identity field (PDF), else the faction of its rows (CSV)."""
    if form.identity.get("faction"):
        return form.identity["faction"]
    owners = {u.id: u.faction for u in state.units}
    owners |= {str(t["id"]): str(t["faction"]) for t in (*state.trains, *state.ships)}
    found = {owners[e.row] for e in form.entries if e.row in owners}
    return found.pop() if len(found) == 1 else None


def read_entries(campaign: Campaign, state: CampaignState, form: FilledForm, faction: str, turn: int) -> Read:
    """The faction's orders from the form's entries, and a problem for each entry not understood."""
    rows = {r.id: r for r in order_rows(campaign, state, faction, turn)}
    board = campaign.board
    done = Read(faction, FactionOrders(), [], {})
    seen: set[str] = set()
    choices: dict[str, tuple[str, OrderEntry]] = {}

    def bad(entry: OrderEntry, part: str, message: msg.Msg) -> None:
        done.problems.append(form.problem(entry, message.within(f"unit {entry.row}, field {part}")))

    for entry in form.entries:
        row = rows.get(entry.row)
        if row is None:
            done.problems.append(form.problem(entry, msg.orders_unknown_row(entry.row, faction, sorted(rows))))
            continue
        if entry.row in seen:
            done.problems.append(form.problem(entry, msg.orders_row_twice(entry.row)))
            continue
        seen.add(entry.row)
        done.mentioned.add(entry.row)
        if entry.empty:
            continue
        path = _hexes(entry, "path", entry.path, board.on_map, bad, len(row.hex))
        carry = _carry(entry, row, state, faction, bad)
        special = " ".join(entry.special.split()).lower()
        if path is None or carry is None:
            continue
        if path and len(path) > PATH_LENGTH:
            bad(entry, "path", msg.orders_path_too_long(len(path), PATH_HEXES[row.kind], PATH_LENGTH))
            continue
        full = path if path[:1] == [row.hex] else [row.hex, *path]
        if entry.toward.strip():
            faced = _facing(entry, full, special, board.grid, bad)
            if faced is None:
                continue
            special = faced
        if row.kind == "unit":
            _unit(done, entry, row, full, special, bad, choices)
        elif row.kind == "train":
            _train(done, entry, row, full, carry, special, bad)
        else:
            _ship(done, entry, row, full, carry, special, board.on_map, bad)
    for hex_id, (choice, _) in sorted(choices.items()):
        done.orders.partisans.append(PartisanChoice(hex=hex_id, faction=faction, choice=choice))  # type: ignore[arg-type]
    return done


Bad = Callable[[OrderEntry, str, msg.Msg], None]
OnMap = Callable[[str], bool]


def _hexes(entry: OrderEntry, part: str, text: str, on_map: OnMap, bad: Bad, width: int = 4) -> list[str] | None:
    """The hex ids of a field, in order; None (and a problem) if one is no hex of the map, or not
    of its `width` digits. Digits run together (typed into the form's boxes, which need no
    spaces) are cut into ids of `width` digits; a leading zero a spreadsheet dropped is put back
    (`408` is `0408`)."""
    tokens = [_restore(run, width) for t in _SEPARATORS.split(text.strip()) if t for run in _cut(t, width)]
    wrong = [t for t in tokens if not (_HEX.fullmatch(t) and len(t) == width)]
    if wrong:
        bad(entry, part, msg.orders_bad_hex(wrong[0]))
        return None
    off = [t for t in tokens if not on_map(t)]
    if off:
        bad(entry, part, msg.orders_off_map(off[0]))
        return None
    return tokens


def _restore(token: str, width: int) -> str:
    """A hex id one digit short of the map's `width`: its leading zero, which a spreadsheet dropped."""
    return "0" + token if token.isascii() and token.isdigit() and len(token) == width - 1 else token


def _cut(token: str, width: int) -> list[str]:
    """A run of digits longer than a hex id, and a whole number of them, as those ids."""
    if token.isascii() and token.isdigit() and len(token) > width and len(token) % width == 0:
        return [token[k : k + width] for k in range(0, len(token), width)]
    return [token]


FACING = ("repair", "emplace", "land")
"""The special orders that name a hex by the side they face (the form's 'toward' bubbles)."""


def _facing(entry: OrderEntry, full: list[str], special: str, grid: HexGrid, bad: Bad) -> str | None:
    """The special order with the hexes its side names: repair the path's last hex and the next
    across the side, emplace across it, land on the hex across it; None (and a problem) if the
    side is given twice, for another order, with hexes typed as well, or off the map."""
    sides = entry.toward.upper().split()
    words = special.split()
    if len(sides) > 1 or sides[0] not in DIRECTION_NAMES:
        bad(entry, "toward", msg.orders_toward_sides(entry.toward))
        return None
    if not words or words[0] not in FACING or len(words) > 1:
        bad(entry, "toward", msg.orders_toward_alone(special or "none"))
        return None
    cell = grid.parse_id(full[-1])
    across = grid.toward(cell, sides[0]) if cell else None
    if across is None:
        bad(entry, "toward", msg.orders_off_map(f"{sides[0]} of {full[-1]}"))
        return None
    hex_id = grid.hex_id(*across)
    return f"repair {full[-1]} {hex_id}" if words[0] == "repair" else f"{words[0]} {hex_id}"


def _carry(entry: OrderEntry, row: OrderRow, state: CampaignState, faction: str, bad: Bad) -> list[str] | None:
    ids = [t for t in re.split(r"[\s,;]+", entry.carry.strip().lower()) if t]
    if not ids:
        return []
    if row.kind == "unit":
        bad(entry, "carry", msg.orders_not_for_row(entry.carry, "unit", "nothing: only trains and ships carry units"))
        return None
    mine = sorted(u.id for u in state.units if u.faction == faction)
    unknown = [t for t in ids if t not in mine]
    if unknown:
        bad(entry, "carry", msg.orders_unknown_carried(unknown[0], faction, mine))
        return None
    if len(set(ids)) != len(ids):
        bad(entry, "carry", msg.orders_carried_twice(next(t for t in ids if ids.count(t) > 1)))
        return None
    return ids


def _unit(
    done: Read,
    entry: OrderEntry,
    row: OrderRow,
    full: list[str],
    special: str,
    bad: Bad,
    choices: dict[str, tuple[str, OrderEntry]],
) -> None:
    orders = done.orders
    words = special.split()
    verb = " ".join(words[:2]) if words[:2] == ["pick", "up"] else (words[0] if words else "")
    args = words[2:] if verb == "pick up" else words[1:]
    moving = len(full) > 1
    if verb in ("", "retreat"):
        if args:
            bad(entry, "special", msg.orders_bad_special(special, SPECIALS["unit"]))
            return
        if verb == "retreat" and not moving:
            bad(entry, "special", msg.orders_not_for_row(special, "unit", "a path to retreat along"))
            return
    elif verb in ("wreck", "pick up", "evade", "ambush", "resupply") and args:
        bad(entry, "special", msg.orders_bad_special(special, SPECIALS["unit"]))
        return
    if moving:
        orders.orders.append(MoveOrder(unit=row.id, move=full, retreat=verb == "retreat"))
        done.where[("land", row.id)] = Where(entry, "path")
    if verb in ("", "retreat"):
        return
    if verb == "wreck":
        orders.track.append(TrackOrder(unit=row.id, wreck=full[-1]))
        done.where[("track", row.id)] = Where(entry, "special")
    elif verb in ("repair", "emplace"):
        hexes = _hexes(entry, "special", " ".join(args), lambda h: True, bad, len(row.hex))
        if hexes is None:
            return
        if verb == "repair" and 1 <= len(hexes) <= 2:
            orders.track.append(TrackOrder(unit=row.id, repair=hexes))
            done.where[("track", row.id)] = Where(entry, "special")
        elif verb == "emplace" and len(hexes) == 1:
            orders.pontoons.append(PontoonOrder(unit=row.id, emplace=[row.hex, hexes[0]]))
            done.where[("pontoon", row.id)] = Where(entry, "special")
        else:
            bad(entry, "special", msg.orders_bad_special(special, SPECIALS["unit"]))
    elif verb == "pick up":
        orders.pontoons.append(PontoonOrder(unit=row.id, pick_up=True))
        done.where[("pontoon", row.id)] = Where(entry, "special")
    elif verb in ("evade", "ambush"):
        end = full[-1]
        earlier = choices.get(end)
        if earlier is not None and earlier[0] != verb:
            bad(entry, "special", msg.orders_partisans_differ(verb, end, earlier[0], earlier[1].row))
            return
        choices[end] = (verb, entry)
    elif verb == "resupply":
        orders.resupply.append(ResupplyOrder(unit=row.id))
        done.where[("resupply", row.id)] = Where(entry, "special")
    else:
        bad(entry, "special", msg.orders_bad_special(special, SPECIALS["unit"]))


def _train(
    done: Read, entry: OrderEntry, row: OrderRow, full: list[str], carry: list[str], special: str, bad: Bad
) -> None:
    if special:
        bad(entry, "special", msg.orders_not_for_row(special, "train", "nothing: a train's order is its path"))
        return
    if len(full) < 2:
        bad(entry, "path", msg.orders_not_for_row(entry.carry, "train", "a path along the track for what it carries"))
        return
    done.orders.rail.append(RailOrder(train=row.id, carry=carry, path=full))
    done.where[("rail", row.id)] = Where(entry, "path")


def _ship(
    done: Read,
    entry: OrderEntry,
    row: OrderRow,
    full: list[str],
    carry: list[str],
    special: str,
    on_map: OnMap,
    bad: Bad,
) -> None:
    words = special.split()
    land = None
    if words:
        hexes = _hexes(entry, "special", " ".join(words[1:]), on_map, bad, len(row.hex)) if words[0] == "land" else []
        if hexes is None:
            return
        if words[0] != "land" or len(hexes) != 1:
            bad(entry, "special", msg.orders_bad_special(special, SPECIALS["ship"]))
            return
        land = hexes[0]
    done.orders.sea.append(SeaOrder(ship=row.id, carry=carry, path=full, land=land))
    done.where[("sea", row.id)] = Where(entry, "path" if land is None else "special")
