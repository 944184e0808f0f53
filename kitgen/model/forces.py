"""The forces of a scenario: the starting set-up (setup.yaml) and the charts the seed names but
does not give (cards.yaml): the event deck, each faction's reinforcement pile, and the
Makhnovist Current Strength Chart.

Places are named (a town of towns.yaml, a railway point, a map point), never given as hex ids,
so the set-up holds at any hex size.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from kitgen import messages as msg
from kitgen.model.base import Count, HistoryDate, Ident, Model, Positive, Prose, Signed, Text, invalid

Flag = Literal["elite", "fanatic", "partisan"]
"""II.B.3 Elite/Fanatic units lose no routed stands; II.D partisans may evade and ambush."""

UnitSize = Literal["company", "battalion", "regiment", "brigade", "division", "corps", "army"]
"""The formation a unit stands for, whatever its stands: the counter's size mark (I to XXXX).
A battery or detachment counts as a company, an artillery group as a battalion."""


class UnitSpec(Model):
    """A unit as a chart or slip gives it: type, stands by kind, flags."""

    name: Text
    type: Ident
    """A unit type of movement.yaml."""
    size: UnitSize | None = None
    stands: dict[str, Positive] = Field(min_length=1)
    """Stand kind of transport.yaml -> how many."""
    flags: list[Flag] = []


class Unit(UnitSpec):
    """A unit of the starting order of battle."""

    id: Ident
    faction: Ident
    at: Text
    """A town, railway point or map point: the unit starts in its hex."""
    commander: Text | None = None
    """A commander of commanders.yaml, of the unit's faction, with the unit."""


class Train(Model):
    id: Ident
    faction: Ident
    at: Text
    armoured: bool = False


class Ship(Model):
    id: Ident
    faction: Ident
    name: Text
    at: Text
    """A port town."""
    gunfire: int = Field(default=0, ge=0, le=99)
    """D: naval gunfire rating (0 for a transport)."""


class Depot(Model):
    faction: Ident
    at: Text


class Alliance(Model):
    """Two factions that are not enemies (RULES-NOTES: "unless the scenario or an event card
    makes two of them allies for a time")."""

    factions: list[Ident] = Field(min_length=2, max_length=2)
    turns: Positive
    """For how many strategic turns from the start."""


PostDate = Literal["since", "until"]
"""A date of a post: when he took it, when he left it."""


class Post(Model):
    """The post a commander placed in the set-up held on the start day, and where that is found."""

    post: Text
    """What he commanded: 'the 10th Army', 'the 2nd Kuban Cavalry Corps'."""
    since: HistoryDate
    until: HistoryDate | None = None
    """The last day or month he held it, if before the scenario's end; none while he still did."""
    source: Prose
    uncertain: list[PostDate] = Field(default=[], max_length=2)
    """The dates the sources found do not settle: the designer's estimate. Every other date is
    named in `source` (issue 47)."""


class SetUp(Model):
    """setup.yaml: who holds what, and where everything stands, at the start of turn 1."""

    date: Text
    start: HistoryDate | None = None
    """The day the scenario starts, New Style: no event card is dated before it unless it is under way."""
    departures: list[Text] = []
    """Where the scenario departs from history, and why: the booklet's designer's notes print it."""
    unit_sources: dict[str, Prose] = {}
    """Unit id -> where its name, side and place come from (SOURCES.md lists the works)."""
    posts: dict[str, Post] = {}
    """Commander placed with a unit -> the post he held on the start day (issue 29: nobody
    commands who was not in post then)."""
    owners: dict[str, Ident | Literal["none"]]
    """Every town of towns.yaml -> its first owner (RULES-NOTES: the scenario sets them)."""
    units: list[Unit] = Field(min_length=1)
    trains: list[Train] = []
    ships: list[Ship] = []
    depots: list[Depot] = []
    destroyed_track: list[Text] = []
    """Places whose hex starts with its railway wrecked."""
    alliances: list[Alliance] = []


# --- cards.yaml ------------------------------------------------------------------------

EffectKind = Literal[
    "vp",
    "draws",
    "command",
    "movement",
    "supply_cut",
    "track_destroyed",
    "alliance",
    "units",
    "remove_stands",
    "town_owner",
    "umpire",
]

_EFFECT_FIELDS: dict[str, set[str]] = {
    "vp": {"faction", "amount"},
    "draws": {"faction", "draws"},
    "command": {"faction", "modifier", "turns"},
    "movement": {"faction", "modifier", "turns"},
    "supply_cut": {"faction", "turns"},
    "track_destroyed": {"at"},
    "alliance": {"factions", "turns"},
    "units": {"faction", "at", "units"},
    "remove_stands": {"faction", "stand", "count"},
    "town_owner": {"at", "faction"},
    "umpire": {"text"},
}
"""The fields each kind of effect needs (the rest must be left out)."""


class BattleScope(Model):
    """The tabletop battles a card's umpire effect changes while it is in force: those in a hex
    within `within` hexes of the place `near`, next to the river `along`, or `coastal`; any
    battle if none is given."""

    near: Text | None = None
    within: Count = 0
    along: Text | None = None
    """A river's name: a battle in a hex with a hexside of it."""
    coastal: bool = False


class Effect(Model):
    """One effect of an event card, in rule terms the engine applies; `umpire` where it cannot.

    - vp: the faction gains `amount` VP (negative: loses).
    - draws: the faction draws `draws` extra slips from its pile now (II.E).
    - command: `modifier` added to the faction's D10 command-control rolls (II.C) for `turns`
      turns: +1 makes orders harder to obey, -1 easier (as II.C.4's "subtract 1").
    - movement: `modifier` added to the MP of the faction's land units (optionally only
      `unit_types`) for `turns` turns.
    - supply_cut: the faction's units count as out of supply (B) for `turns` turns.
    - track_destroyed: the railway in the hex of `at` is wrecked (C.2).
    - alliance: the `factions` are not enemies for `turns` turns (RULES-NOTES: enemies).
    - units: `units` join the faction's order of battle in the hex of `at`.
    - remove_stands: the faction loses `count` stands of kind `stand` (its choice of units).
    - town_owner: the town `at` passes to `faction`.
    - umpire: the umpire rules as `text` says; with `battles`, for `turns` turns (1 if not
      given), at the tabletop battles it names: the packets show it on those contacts and their
      battle set-up sheets.
    `faction` may be `all` (every faction) where that makes sense. `turns` count the turn the
    card is drawn as the first.
    """

    kind: EffectKind
    faction: Ident | None = None
    factions: list[Ident] = []
    amount: Signed | None = None
    draws: Positive | None = None
    modifier: Signed | None = None
    turns: Positive | None = None
    unit_types: list[Ident] = []
    at: Text | None = None
    units: list[UnitSpec] = []
    stand: Ident | None = None
    count: Positive | None = None
    text: Prose | None = None
    battles: BattleScope | None = None

    @model_validator(mode="after")
    def _fields_of_kind(self) -> Effect:
        needed = _EFFECT_FIELDS[self.kind]
        given = {k for k in self.model_fields_set if k != "kind"}
        optional = (
            {"unit_types"} if self.kind == "movement" else {"battles", "turns"} if self.kind == "umpire" else set()
        )
        missing, extra = needed - given, given - needed - optional
        if missing or extra:
            raise invalid(
                msg.value_effect_fields(self.kind, ", ".join(sorted(needed)), ", ".join(sorted(given)) or "none")
            )
        return self


class EventCard(Model):
    id: Ident
    title: Text
    history: Prose
    """A line of history: what happened in 1919-1920."""
    effects: list[Effect] = Field(min_length=1)
    returns_to_deck: bool = False
    """RULES-NOTES: a card is discarded after use unless it says it goes back into the deck."""
    date: HistoryDate | None = None
    """When the event began (New Style)."""
    sources: list[Prose] = []
    """The works its history line is checked against (SOURCES.md lists them)."""
    under_way: bool = False
    """An event begun before the scenario's start whose consequences are still playing out:
    the card says so, and may be dated before the start."""


class Slip(Model):
    """A slip of a reinforcement/replacement pile (II.E)."""

    id: Ident
    text: Prose
    units: list[UnitSpec] = []
    replacements: dict[str, Positive] = {}
    """Stands by kind, given to units on the map (E.3: not out of supply or surrounded)."""
    returns_to_pile: bool = True
    """II.E: a slip goes back into the pile unless it says otherwise."""
    sources: list[Prose] = []


class StrengthRow(Model):
    """A row of the Makhnovist Current Strength Chart: a modified roll and the forces it gives."""

    low: Signed
    high: Signed
    text: Prose
    units: list[UnitSpec] = Field(min_length=1)


class Cards(Model):
    """cards.yaml: the event deck, the reinforcement piles, the Makhnovist Current Strength Chart."""

    events: list[EventCard] = Field(min_length=1)
    piles: dict[str, list[Slip]]
    makhnovist_strength: list[StrengthRow] = Field(min_length=1)
