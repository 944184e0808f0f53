"""The state of a campaign between turns, as plain immutable values, and its JSON form."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from kitgen.model.forces import UnitSpec
from kitgen.model.rules import SupplyRules
from kitgen.rules.supply import full_loads

STATE_SCHEMA_VERSION = 1
_WITHIN_A_TURN = ("held", "started_out")
"""Fields phases hand on to later phases of the same turn: not part of the state between turns."""


def stand_totals(groups: Iterable[Mapping[str, int]]) -> dict[str, int]:
    """Stands by kind, summed over several units (or specs, or order lines)."""
    total: dict[str, int] = {}
    for stands in groups:
        for kind, n in stands.items():
            total[kind] = total.get(kind, 0) + n
    return total


@dataclass(frozen=True)
class UnitState:
    id: str
    name: str
    faction: str
    type: str
    stands: dict[str, int]
    hex: str
    commander: str | None = None
    flags: tuple[str, ...] = ()
    in_supply: bool | None = None
    """B.2: judged at the start of each turn; None before the first judgement."""
    supply_path: tuple[str, ...] = ()
    """The hexes that prove it (B.3), from the unit to a source; empty when out of supply."""
    moved: bool = False
    carried: bool = False
    """Moved by train (or ship) this turn: no map move (A.2), no breakdown roll (A.4-A.5)."""
    carrier: str | None = None
    """The train or ship that carried it this turn, when `carried`."""
    ammo: dict[str, int] = field(default_factory=dict)
    """B.5-B.6: rounds per stand, by stand kind: full while in supply, as left after a battle
    while out of it."""
    moves_out_of_supply: int = 0
    """B.8: turns a vehicle unit has moved since it last started a turn in supply."""
    immobilised: bool = False
    """B.8: out of fuel; it makes no map move."""

    @classmethod
    def raised(
        cls,
        spec: UnitSpec,
        rules: SupplyRules,
        *,
        id: str,
        faction: str,
        hex: str,
        commander: str | None = None,
        moved: bool = False,
    ) -> UnitState:
        """A unit as a set-up, card, slip or chart row gives it, with full loads (B.5)."""
        return cls(
            id=id,
            name=spec.name,
            faction=faction,
            type=spec.type,
            stands=dict(sorted(spec.stands.items())),
            hex=hex,
            commander=commander,
            flags=tuple(spec.flags),
            moved=moved,
            ammo=full_loads(rules, spec.stands),
        )


@dataclass(frozen=True)
class Verdict:
    """An order judged: where it stands in the log, what it was, and why it stands or fails."""

    file: str
    line: int
    faction: str
    unit: str
    order: str
    result: str
    """'done', 'void' (it breaks a rule: the unit holds) or 'held' (command control failed, II.C)."""
    explanation: str
    rule: str

    def text(self) -> str:
        """As the issue writes it: `turns/turn-04.yaml:17: 2nd Kornilov Regt (cavalry, 4 MP): path
        0303-0304-0404 costs 5 MP (forest 2 +1 crossable river, forest 2): void, A.1`."""
        return f"{self.file}:{self.line}: {self.explanation}"


@dataclass(frozen=True)
class Roll:
    purpose: str
    dice: str
    value: int
    source: str
    """'given' (the umpire rolled it and wrote it in the log) or 'drawn' (the campaign's seeded dice)."""


@dataclass(frozen=True)
class CampaignState:
    turn: int
    """The last turn played (0: the set-up)."""
    units: tuple[UnitState, ...]
    owners: dict[str, str]
    """Town -> owner ('none' if nobody has held it)."""
    vp: dict[str, int]
    wrecked_track: tuple[str, ...]
    alliances: tuple[tuple[str, str, int], ...]
    """(faction, faction, last turn of the alliance)."""
    ships: tuple[dict[str, Any], ...] = ()
    trains: tuple[dict[str, Any], ...] = ()
    depots: tuple[dict[str, Any], ...] = ()
    rolls: tuple[Roll, ...] = ()
    verdicts: tuple[Verdict, ...] = ()
    contacts: tuple[str, ...] = field(default=())
    """Hexes where units of enemy factions stand together after movement: battles to fight."""
    command_failures: dict[str, int] = field(default_factory=dict)
    """II.C.4: failures in a row of each commander (or leaderless unit), which ease his next roll."""
    evaded: frozenset[tuple[str, str]] = frozenset()
    """II.D.1: (hex, faction) of partisans who evaded this turn: not there for battle, VP or supply."""
    returning: tuple[tuple[str, str, int], ...] = ()
    """II.B.3: (unit, stand kind, count) that rejoin their unit at the start of next turn."""
    piles: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """II.E: each faction's slips still in its pile."""
    slips: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Slips each faction has drawn and not yet placed (E.3-E.5): placed by the log's `place`
    orders at the end of the turn they are drawn, or of a later one."""
    makhnovist_strength: str | None = None
    """E.6: the forces the Makhnovists may field for the next three turns, from their last roll."""
    deck: tuple[str, ...] = ()
    """II.A: the event cards still to draw, top first (shuffled from the campaign's seed)."""
    events: tuple[str, ...] = ()
    """The event cards drawn this turn."""
    modifiers: tuple[tuple[str, str, int, int, str], ...] = ()
    """Lasting card effects: (kind, faction or 'all', modifier, last turn, unit types joined by
    commas or '' for all); kind is command, movement or supply_cut."""
    umpire: tuple[str, ...] = ()
    """What the umpire must rule or do by hand this turn (card effects kitgen does not apply)."""
    pontoons: tuple[dict[str, Any], ...] = ()
    """A.1: pontoon bridges in place: faction, unit, the two hexes of the hexside."""
    abandoned: tuple[dict[str, Any], ...] = ()
    """B.8: vehicles left intact by crews out of fuel: the first enemy into the hex takes them."""
    draws: dict[str, int] = field(default_factory=dict)
    """II.E: slips each faction draws from its pile this turn (drawing them is the umpire's, for now)."""
    held: dict[str, str] = field(default_factory=dict)
    """II.C, within a turn: the units command control holds back this turn, with why."""
    started_out: frozenset[str] = frozenset()
    """B.8, within a turn: the units judged out of supply at its start (before any card cut it)."""

    def unit(self, unit_id: str) -> UnitState | None:
        return next((u for u in self.units if u.id == unit_id), None)

    def allied(self, a: str, b: str, turn: int) -> bool:
        return a == b or any({x, y} == {a, b} and turn <= last for x, y, last in self.alliances)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for working in _WITHIN_A_TURN:
            del data[working]
        data["evaded"] = sorted(list(x) for x in self.evaded)
        return {"schema_version": STATE_SCHEMA_VERSION, **data}
