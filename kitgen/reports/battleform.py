"""A battle report form, as data: what it asks of the umpire for one contact, made from the
contact as known before the battle (`kitgen.engine.contacts_ahead`), and the battle a filled
one reports, made from the bubbles marked on it (a PDF's check boxes or a scan's pencil).

Every part of a unit's block is one line of bubbles, named `(row, part)`: the row is the unit's
id (or `CONTACT` for the battle's own lines), the part one of `PARTS`, each bubble's choice a
number, a faction, a ship or a side of the hex. What cannot be read for certain (two winners,
two counts on one line, a beaten unit with no fate) is a problem naming the unit, never a
guess."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from kitgen import messages as msg
from kitgen.campaign import Campaign
from kitgen.engine.contacts_ahead import Contact
from kitgen.engine.turnlog import Battle, BattleUnit
from kitgen.mapping.hexgrid import DIRECTION_NAMES

CONTACT = "contact"
"""The row of the battle's own lines: who won, the ships that fired."""
WINNER, SHIP = "winner", "ship"
LOST, ROUTED, FATE, AMMO, EQUIPMENT, CAPTURED = "lost", "routed", "fate", "ammo", "equipment", "captured"
SURRENDER, BREAKOUT = "surrender", "breakout"
"""A beaten unit's fate besides a side to retreat by (`DIRECTION_NAMES`)."""
EQUIPMENT_DICE = "D6"
Picked = Mapping[tuple[str, str], Sequence[str]]
"""(row, part) -> the choices marked on that line (none, one, or several)."""


@dataclass(frozen=True)
class FormUnit:
    """One unit's block on the form: what it enters the battle with, and what it could report."""

    id: str
    name: str
    faction: str
    stands: dict[str, int]
    exempt: bool
    """Elite/Fanatic (II.B.1): beaten and cornered, it breaks out rather than surrenders."""
    sides: dict[str, str]
    """The side of its hex (N ... NW) -> the hex across it, for a retreat marked by its side."""
    retreats: tuple[str, ...]
    """The hexes it could retreat to if beaten, as the map stands before the battle."""
    ammo: dict[str, int]
    """Stand kind -> a full load, rounds a stand (B.5-B.6), for the kinds that carry ammunition."""
    equipment: dict[str, int]
    """Equipment stands by kind (II.B.3): a winner rolls for each one lost."""

    def part(self, kind: str, what: str) -> str:
        """A line's part for one stand kind: `lost:infantry`, `ammo:artillery`."""
        return f"{what}:{kind}"


@dataclass(frozen=True)
class BattleForm:
    """The report form of one contact."""

    turn: int
    hex: str
    across: tuple[str, ...]
    place: str
    """Where, for people: 'Tsaritsyn (5313)', or 'hex 5213'."""
    factions: tuple[str, ...]
    """The factions in the battle, in the scenario's order (the winner's bubbles)."""
    sides: tuple[tuple[str, ...], ...]
    """The factions fighting together, side by side."""
    units: tuple[FormUnit, ...]
    ships: tuple[tuple[str, str, int], ...]
    """Ships in range that may fire in support (D.3): id, name, batteries."""
    key: str = field(default="")
    """A short hash of the contact (turn, hexes, units and their stands): a form of another
    contact, or of this one changed since it was printed, is not read as this one."""

    def unit(self, unit_id: str) -> FormUnit | None:
        return next((u for u in self.units if u.id == unit_id), None)


def contact_key(turn: int, hexes: Sequence[str], units: Sequence[tuple[str, Mapping[str, int]]]) -> str:
    """The key a contact's form carries: the same contact, the same key, whatever is printed."""
    made = json.dumps([turn, list(hexes), sorted((u, dict(sorted(s.items()))) for u, s in units)])
    return hashlib.sha256(made.encode("utf-8")).hexdigest()[:12]


def battle_form(campaign: Campaign, contact: Contact) -> BattleForm:
    """The report form of `contact`."""
    s = campaign.scenario
    board = campaign.board
    grid = board.grid
    equipment = set(s.battle.equipment_stands)
    exempt_flags = set(s.battle.loser.routed_lost_exempt)
    order = [f.id for f in s.meta.factions]
    units = []
    for side in contact.sides:
        for u in side.units:
            cell = grid.parse_id(u.hex or contact.hex)
            sides: dict[str, str] = {}
            if cell is not None:
                for d in DIRECTION_NAMES:
                    n = grid.toward(cell, d)
                    if n is not None and grid.hex_id(*n) in board.terrain:
                        sides[d] = grid.hex_id(*n)
            units.append(
                FormUnit(
                    u.id,
                    u.name,
                    u.faction,
                    dict(u.stands),
                    bool(set(u.flags) & exempt_flags),
                    sides,
                    u.retreats,
                    dict(u.full_ammo),
                    {k: n for k, n in u.stands.items() if k in equipment},
                )
            )
    factions = tuple(sorted({u.faction for u in units}, key=lambda f: (order.index(f) if f in order else 99, f)))
    ships = tuple((g.ship, g.name, g.rating) for side in contact.sides for g in side.ships)
    hexes = (contact.hex, *contact.across)
    key = contact_key(contact.turn, hexes, [(u.id, u.stands) for u in units])
    named = campaign.hex_names.get(contact.hex)
    place = f"{named} ({contact.hex})" if named else f"hex {contact.hex}"
    return BattleForm(
        contact.turn,
        contact.hex,
        contact.across,
        place,
        factions,
        tuple(side.factions for side in contact.sides),
        tuple(units),
        ships,
        key,
    )


@dataclass(frozen=True)
class FormProblem:
    """A line of a filled form that cannot be read for certain, or breaks the rules of the form."""

    row: str
    part: str
    message: msg.Msg


@dataclass(frozen=True)
class Reported:
    """What a filled report form says: the battle, and the rolls written on it (equipment, II.B.3)."""

    battle: Battle | None
    rolls: dict[str, int]
    problems: tuple[FormProblem, ...]


def equipment_purpose(unit: str, kind: str, k: int, turn: int) -> str:
    """The purpose the battles phase gives a winner's roll for its k-th lost equipment stand."""
    return f"II.B.3 {unit} {kind} {k} equipment, turn {turn}"


def battle_from(form: BattleForm, picked: Picked, names: Mapping[str, str]) -> Reported:
    """The battle the marks `picked` report, with its equipment rolls; or the problems that keep
    it from being read (all of them). `names` gives each faction's name for the messages."""
    problems: list[FormProblem] = []

    def one(row: str, part: str, who: str, what: str) -> str | None:
        chosen = list(dict.fromkeys(picked.get((row, part), ())))
        if len(chosen) > 1:
            problems.append(FormProblem(row, part, msg.report_several(who, what, chosen)))
            return None
        return chosen[0] if chosen else None

    winner = one(CONTACT, WINNER, "the battle", "winner")
    if winner is None and not any(p.part == WINNER for p in problems):
        problems.append(
            FormProblem(CONTACT, WINNER, msg.report_no_winner(form.place, [names.get(f, f) for f in form.factions]))
        )
    winners = next((side for side in form.sides if winner in side), ())
    ships = [s for s, _, _ in form.ships if s in picked.get((CONTACT, SHIP), ())]
    parts: list[BattleUnit] = []
    rolls: dict[str, int] = {}
    for u in form.units:
        won = u.faction in winners
        lost: dict[str, int] = {}
        routed: dict[str, int] = {}
        for kind, have in u.stands.items():
            for what, into in ((LOST, lost), (ROUTED, routed)):
                said = one(u.id, u.part(kind, what), u.name, f"{what} {kind}")
                if said is not None and int(said):
                    into[kind] = int(said)
            if lost.get(kind, 0) + routed.get(kind, 0) > have:
                problems.append(
                    FormProblem(
                        u.id,
                        u.part(kind, LOST),
                        msg.report_too_many(u.name, kind, lost.get(kind, 0), routed.get(kind, 0), have),
                    )
                )
        ammo: dict[str, int] = {}
        for kind in u.ammo:
            said = one(u.id, u.part(kind, AMMO), u.name, f"ammunition left for {kind}")
            if said is not None:
                ammo[kind] = int(said)
        captured: dict[str, int] = {}
        for kind in capturable(form, u):
            said = one(u.id, u.part(kind, CAPTURED), u.name, f"{kind} captured")
            if said is None or not int(said):
                continue
            if winner is not None and not won:
                problems.append(FormProblem(u.id, u.part(kind, CAPTURED), msg.report_loser_captures(u.name, kind)))
                continue
            captured[kind] = int(said)
        for kind in u.equipment:
            for k in range(1, u.stands.get(kind, 0) + 1):
                said = one(u.id, u.part(f"{kind}:{k}", EQUIPMENT), u.name, f"the equipment roll of {kind} {k}")
                if said is None:
                    continue
                if not won or k > lost.get(kind, 0):
                    problems.append(
                        FormProblem(u.id, u.part(f"{kind}:{k}", EQUIPMENT), msg.report_roll_unasked(u.name, kind, k))
                    )
                    continue
                rolls[equipment_purpose(u.id, kind, k, form.turn)] = int(said)
        fate = one(u.id, FATE, u.name, "fate")
        retreat: str | None = None
        surrender = False
        if winner is not None and won and fate is not None:
            problems.append(FormProblem(u.id, FATE, msg.report_winner_fate(u.name, fate)))
        elif winner is not None and not won:
            if fate is None:
                problems.append(FormProblem(u.id, FATE, msg.report_no_fate(u.name, u.exempt)))
            elif fate in DIRECTION_NAMES:
                retreat = u.sides.get(fate)
                if retreat is None:
                    problems.append(FormProblem(u.id, FATE, msg.report_side_off_map(u.name, fate)))
            elif fate == SURRENDER:
                surrender = True
            elif fate == BREAKOUT and not u.exempt:
                problems.append(FormProblem(u.id, FATE, msg.report_breakout_not_exempt(u.name)))
        parts.append(
            BattleUnit(
                unit=u.id,
                lost=lost,
                routed=routed,
                retreat=retreat,
                surrender=surrender,
                captured=captured,
                ammo_left=ammo,
            )
        )
    if problems or winner is None:
        return Reported(None, rolls, tuple(problems))
    return Reported(Battle(hex=form.hex, winner=winner, units=parts, ships=ships), rolls, ())


def _capturable(form: BattleForm, unit: FormUnit, winners: Sequence[str]) -> dict[str, int]:
    """II.B.3: the equipment kinds a winning unit may take from the losers' routed stands, and how
    many the losers have at most; none for a loser's unit."""
    if unit.faction not in winners:
        return {}
    found: dict[str, int] = {}
    for other in form.units:
        if other.faction in winners:
            continue
        for kind, n in other.equipment.items():
            found[kind] = found.get(kind, 0) + n
    return found


def capturable(form: BattleForm, unit: FormUnit) -> dict[str, int]:
    """The equipment kinds a unit could capture if its side wins (the form prints the line for
    every unit of a side that could win), with the most it could take."""
    side = next((s for s in form.sides if unit.faction in s), ())
    return _capturable(form, unit, side)
