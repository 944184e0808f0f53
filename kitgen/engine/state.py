"""The state of a campaign between turns, as plain immutable values, and its JSON form."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import MISSING, asdict, dataclass, field, fields, replace
from typing import Any, Literal

from kitgen.model.forces import UnitSpec
from kitgen.model.rules import SupplyRules
from kitgen.rules.paths import Stop
from kitgen.rules.supply import full_loads
from kitgen.rules.transport import Load

STATE_SCHEMA_VERSION = 1
Result = Literal["done", "void", "held", "stopped"]
"""What became of an order: carried out; void (it breaks a rule, the unit holds); held
(command control failed, II.C); stopped (carried out as far as it could go: `Verdict.stop`
says why)."""
TURN_RESULTS = (
    "rolls",
    "verdicts",
    "contacts",
    "across",
    "unsettled",
    "draws",
    "events",
    "umpire",
    "commands",
    "partisan_contacts",
    "battle_results",
    "naval_fire",
    "strength_roll",
    "depot_rolls",
    "arrivals",
    "tasks",
    "held",
)
"""What one turn finds: cleared before the next is played."""
WITHIN_A_TURN = ("held", "started_out", "breakouts_owed")
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
    aboard: str | None = None
    """D.1: the ship the unit is aboard (its hex is the ship's), or None on land; a unit aboard
    makes no land move and fights no battle on land, and is lost with its ship."""

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
class StepCost:
    """One hex of a move: what entering it cost (None: a whole-move crossing), and why."""

    hex: str
    mp: int | None
    parts: tuple[str, ...] = ()
    """The sum in words: 'forest 2', '+1 crossable river'."""


@dataclass(frozen=True)
class Verdict:
    """An order judged: where it stands in the log, what it was, and why it stands or fails."""

    file: str
    line: int
    faction: str
    unit: str
    order: str
    result: Result
    """'done', 'stopped' (carried out as far as it could go, the rest dropped: `stop` says why),
    'void' (it breaks a rule: the unit holds) or 'held' (command control failed, II.C)."""
    explanation: str
    rule: str
    kind: str = ""
    """What was ordered: land, rail, sea, pontoon, resupply, track, battle, place or disband."""
    start: str | None = None
    end: str | None = None
    """Where the unit (train, ship) ends the order: its own hex if the order is void or held."""
    steps: tuple[StepCost, ...] = ()
    """Each hex entered, in order, with what entering it cost (as far as the order went)."""
    spent: int | None = None
    """MP spent (land) or hexes moved (rail by its MP, sea by hexes)."""
    allowance: int | None = None
    left: int | None = None
    left_behind: tuple[str, ...] = ()
    """Units a rail or sea order named that did not embark (not there, moved, or held)."""
    load: Load | None = None
    """C.1, D.3: points per stand kind and the total against the carrier's capacity."""
    column: int = 0
    """Where the order stands in its log, with `line` (0 for a log built in code)."""
    stop: Stop | None = None
    """Why a `stopped` order went no farther (RULES-NOTES, ruling of 2026-12-02)."""

    def text(self) -> str:
        """As the issue writes it: `turns/turn-04.yaml:17: 2nd Kornilov Regt (cavalry, 4 MP): path
        0303-0304-0404 costs 5 MP (forest 2 +1 crossable river, forest 2): void, A.1`."""
        return f"{self.file}:{self.line}: {self.explanation}"


@dataclass(frozen=True)
class Task:
    """Unfinished business a turn leaves the umpire: what the log did not settle and kitgen
    cannot, as data (the umpire's note says it in words)."""

    code: str
    """'card_effect' (an effect kitgen does not apply), 'stands_owed' (a card's stands not yet
    written under `remove:`) or 'strength_gap' (the Makhnovists off their strength row)."""
    rule: str
    faction: str | None = None
    card: str | None = None
    detail: str = ""
    count: int = 0
    """stands_owed: how many stands the card takes, of kind `stand`."""
    stand: str | None = None


@dataclass(frozen=True)
class SupplyTrace:
    """B.2-B.4: one unit's supply as judged at the start of the turn, and why when it is out."""

    unit: str
    faction: str
    hex: str
    in_supply: bool
    overland: tuple[str, ...] = ()
    """From the unit's hex to the railhead (or a source reached overland)."""
    overland_hexes: int = 0
    """B.3: the hexes traced overland (the unit's own hex is 0)."""
    rail: tuple[str, ...] = ()
    """From the railhead along intact, enemy-free track to the source."""
    source: str | None = None
    why_out: str | None = None
    """'card' (an event cut it), 'blocked' (enemy units stand in the way), 'too_far' (the
    nearest railhead is beyond the trace) or 'no_route' (no trace over land at all, or none
    within reach for a reason other than these)."""
    nearest_railhead: str | None = None
    """Out of supply: the railhead (or source) the shortest trace would reach, enemies aside."""
    distance: int | None = None
    """Overland hexes to it."""
    blocked_by: tuple[str, ...] = ()
    """Enemy-held hexes on that trace or its track."""


@dataclass(frozen=True)
class StandLoss:
    """II.B.3: one stand kind of one unit after a battle: what the log reports and what it comes to."""

    kind: str
    lost: int
    routed: int
    permanent: int
    """Lost for good (the share of stands lost, half up; equipment not recovered)."""
    returning: int
    """Back next turn (the rest of the stands lost, the routed stands that return, equipment repaired)."""
    deserted: int = 0
    """The loser's routed stands that desert or are captured (half, rounded up, unless Elite/Fanatic)."""
    equipment_rolls: tuple[int, ...] = ()
    """II.B.3: the winner's roll for each gun or vehicle lost (even: repaired)."""


@dataclass(frozen=True)
class BattleResult:
    """II.B: one unit's part in one battle, as data."""

    battle: int
    """The battle's place in the log's `battles`."""
    hex: str
    unit: str
    faction: str
    side: str
    """'winner' or 'loser'."""
    stands: tuple[StandLoss, ...]
    permanent: int
    returning: int
    deserted: int
    fate: str
    """'holds' (a winner), 'retreats', 'surrenders', 'breaks_out', 'perishes' or
    'must_break_out' (II.B.1: an Elite/Fanatic loser that could not retreat)."""
    retreat: str | None = None
    captured: dict[str, int] = field(default_factory=dict)
    """II.B.3: the loser's routed equipment this winning unit takes, by stand kind."""


@dataclass(frozen=True)
class Arrival:
    """E.3-E.6: a unit raised from a slip (or the Makhnovist strength row), where and by which rule."""

    faction: str
    slip: str
    unit: str
    """The id the new unit takes."""
    hex: str
    rule: str


@dataclass(frozen=True)
class CardInForce:
    """II.A.2: an event card's effect on the tabletop battles it names, in force to turn `last`."""

    card: str
    effect: int
    """Its place in the card's `effects`."""
    last: int


@dataclass(frozen=True)
class NamedModifier:
    """A modifier that applied to a roll: its id in the scenario's table, and its value."""

    id: str
    value: int


@dataclass(frozen=True)
class PartisanContact:
    """II.D.1-2: partisans met by the enemy: what the log chose for them, and how it went."""

    faction: str
    hex: str
    choice: str
    """'evade', 'ambush' or 'fight' (the log chose none, or an ambush after moving: they fight)."""
    outcome: str
    """'evaded', 'caught' (failed to evade), 'sprung' (the ambush), 'failed' (to ambush) or 'fight'."""
    roll: int | None = None
    modifiers: tuple[NamedModifier, ...] = ()
    total: int | None = None
    """The partisans' roll plus their modifiers."""
    enemy_roll: int | None = None
    """II.D.1: the enemy's roll (it has no modifiers); the partisans evade on a strictly higher total."""


@dataclass(frozen=True)
class CommandRoll:
    """II.C: one command control roll: who rolled for which units, the target and the roll."""

    faction: str
    hex: str
    commander: str | None
    """The highest-ranking commander in the hex, or None: each leaderless unit rolls alone."""
    rating: int | None
    adjacent: bool
    """Leaderless: a friendly commander is adjacent (obeys on 1-4 rather than 1-3)."""
    failures_before: int
    """II.C.4: failures in a row before this roll, each making the target 1 easier."""
    target: int
    """Obeys on a roll at or under this, card modifiers included."""
    roll: int
    obeyed: bool
    units: tuple[str, ...]
    """The ordered units the roll is for: held this turn if it fails."""


@dataclass(frozen=True)
class NavalFire:
    """D.3: a ship firing in support of a battle, worth its rating in batteries."""

    ship: str
    faction: str
    hex: str
    """The battle's hex."""
    from_hex: str
    """Where the ship fired from: at sea next to the battle's coastal hex, or in its port."""
    batteries: int


@dataclass(frozen=True)
class DepotRoll:
    """B.7: a cut-off depot's roll the turn it is used: found empty on `target` or under."""

    hex: str
    faction: str
    use: int
    """The turns it has been used cut off, this one included."""
    roll: int
    target: int
    empty: bool


@dataclass(frozen=True)
class StrengthRoll:
    """E.6: the Makhnovists' strength roll, its modifiers and the chart's row it gives."""

    faction: str
    roll: int
    modifiers: tuple[NamedModifier, ...]
    total: int
    row: str
    """The Current Strength Chart's row for the total (the forces they may field for three turns)."""


@dataclass(frozen=True)
class Met:
    """A contact found in phase 6 (after partisans evade): the hex and every unit of any faction
    standing there, which the battle reported there must list (RULES-NOTES 2026-12-02)."""

    hex: str
    units: tuple[str, ...]
    factions: tuple[str, ...]
    across: tuple[str, ...] = ()
    """Hexes across a hexside where enemy moves met (ruling of 2026-12-02): one battle with
    `hex`, reported under any of them, its units in all of them."""

    @property
    def hexes(self) -> tuple[str, ...]:
        return (self.hex, *self.across)


@dataclass(frozen=True)
class BreakoutOwed:
    """II.B.1, unfinished business: an Elite/Fanatic unit beaten in `hex` where it could not
    retreat, whose breakout battle the log does not report (battle and part: where it lost)."""

    unit: str
    hex: str
    battle: int
    part: int


@dataclass(frozen=True)
class Roll:
    purpose: str
    """What the roll is for, as the log's `dice:` names it: its rule, then what it decides."""
    dice: str
    value: int
    source: str
    """'given' (the umpire rolled it and wrote it in the log) or 'drawn' (the campaign's seeded dice)."""
    rule: str = ""
    """The rule the roll is made under (II.C, B.7, E.3 ...): the start of its purpose."""
    units: tuple[str, ...] = ()
    """The units whose move or fate it decides (a command roll's group, a vehicle's unit)."""
    hex: str | None = None
    """The hex of the contact it decides (II.D: partisans evade or ambush)."""


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
    """Hexes where units of enemy factions stand together after movement, and both hexes of an
    `across` contact still facing each other: battles to fight."""
    across: tuple[tuple[str, str], ...] = ()
    """Hexsides where enemy moves met this turn (ruling of 2026-12-02), as their two hexes in
    order: each move stopped before it, the two in contact across it."""
    unsettled: tuple[str, ...] = ()
    """Units and trains whose moves this turn the ruling "Contact, read exactly" could not settle
    (a stop for an enemy's end hex undoing another's, round and round): no end hex of another
    move stopped them, for the umpire to rule on."""
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
    in_force: tuple[CardInForce, ...] = ()
    """Event cards' effects on tabletop battles still in force (II.A.2), shown on the contacts and
    battle sheets they apply to."""
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
    tasks: tuple[Task, ...] = ()
    """What this turn leaves the umpire to do (validate warns of each)."""
    supply: tuple[SupplyTrace, ...] = ()
    """B.2: each unit's supply as judged at the start of this turn."""
    battle_results: tuple[BattleResult, ...] = ()
    """II.B: this turn's battles, unit by unit."""
    depot_rolls: tuple[DepotRoll, ...] = ()
    """B.7: this turn's rolls of cut-off depots, each with the target that empties it."""
    strength_roll: StrengthRoll | None = None
    """E.6: this turn's Makhnovist strength roll, on every 3rd turn."""
    naval_fire: tuple[NavalFire, ...] = ()
    """D.3: this turn's ships firing in support of battles."""
    lost_battle: tuple[str, ...] = ()
    """II.C.2 (ruling 2026-12-02): the units that lost a battle in the last turn played: in the
    next they may go on retreating wherever the enemy is, whatever their command roll. Set by
    every turn's battles phase (after that turn's movement has read it)."""
    arrivals: tuple[Arrival, ...] = ()
    """E.3-E.6: units placed this turn."""
    partisan_contacts: tuple[PartisanContact, ...] = ()
    """II.D: this turn's partisans met by the enemy."""
    commands: tuple[CommandRoll, ...] = ()
    """II.C: this turn's command control rolls."""
    held: dict[str, str] = field(default_factory=dict)
    """II.C, within a turn: the units command control holds back this turn, with why."""
    started_out: frozenset[str] = frozenset()
    """B.8, within a turn: the units judged out of supply at its start (before any card cut it)."""
    breakouts_owed: tuple[BreakoutOwed, ...] = ()
    """II.B.1, within a turn: breakouts the log owes and does not report (for validate's notes)."""

    def fresh_turn(self) -> CampaignState:
        """The state with last turn's results cleared, for the next turn to fill."""
        cleared: dict[str, Any] = {
            f.name: f.default_factory() if f.default_factory is not MISSING else f.default
            for f in fields(self)
            if f.name in TURN_RESULTS
        }
        return replace(self, **cleared)

    def unit(self, unit_id: str) -> UnitState | None:
        return next((u for u in self.units if u.id == unit_id), None)

    def allied(self, a: str, b: str, turn: int) -> bool:
        return a == b or any({x, y} == {a, b} and turn <= last for x, y, last in self.alliances)

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        for working in WITHIN_A_TURN:
            del data[working]
        data["evaded"] = sorted(list(x) for x in self.evaded)
        return {"schema_version": STATE_SCHEMA_VERSION, **data}
