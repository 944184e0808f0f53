"""Models of the seed's rule tables, one per data file; each names the seed section it holds."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from kitgen import messages as msg
from kitgen.model.base import Dice, Ident, Model, Modifier, MoveCost, Percent, Positive, Prose, Ruling, Text, invalid

# --- A. Map movement (movement.yaml) -------------------------------------------------


class Terrain(Model):
    id: Ident
    name: Text


class UnitType(Model):
    """A row of the A table, or a type that moves as another (`moves_as`)."""

    id: Ident
    name: Text
    mp: Positive | None = None
    cost: dict[str, MoveCost] | None = None
    crossable_river: MoveCost | None = None
    rail_only: bool = False
    moves_as: Ident | None = None
    source: Prose


class Breakdown(Model):
    """A.4-A.5: the roll made for a vehicle each turn it moves, and the results that lose it."""

    unit_type: Ident
    roll: Dice
    fails_on: list[Positive] = Field(min_length=1)
    source: Prose


class MovementRules(Model):
    terrain: list[Terrain] = Field(min_length=1)
    unit_types: list[UnitType] = Field(min_length=1)
    road_cost: Positive
    breakdown: list[Breakdown]
    breakdown_exempt_when_carried: bool
    rulings: list[Ruling] = []


# --- B. Supply (supply.yaml) ---------------------------------------------------------


class Ammo(Model):
    stand: Ident
    rounds: Positive
    unit: Text
    natures: list[Text] = []


class DepotCutoff(Model):
    """B.7: a cut-off depot empties on a roll at or under the number of turns it has been used."""

    roll: Dice
    empties_on_first_use: Positive
    added_each_further_use: Positive


class Fuel(Model):
    """B.8: vehicles that start a turn out of supply."""

    moves_out_of_supply: Positive
    vehicles: list[Ident] = Field(min_length=1)
    """The stand kinds that burn fuel."""
    abandon_roll: Dice
    intact_on: Literal["even", "odd"]
    tabletop_moves_roll: Dice


class SupplyRules(Model):
    trace_hexes: Positive
    rail_unlimited: bool
    resupply_turns: Positive
    ammo: list[Ammo] = Field(min_length=1)
    depot_cutoff: DepotCutoff
    fuel: Fuel
    rulings: list[Ruling] = []


# --- C. Trains and D. ships (transport.yaml) -----------------------------------------


class StandKind(Model):
    """A kind of stand or item and its load points on a train or ship (C.1)."""

    id: Ident
    name: Text
    points: Positive
    source: Prose


class Ship(Model):
    move_hexes: Positive
    capacity: Positive


class Train(Model):
    capacity: Positive
    unit_type: Ident


class Track(Model):
    """C.2: who repairs and wrecks track, and how much."""

    repair_unit_types: list[Ident] = Field(min_length=1)
    repair_hexes_per_turn: Positive
    wreck_unit_types: list[Ident] = Field(min_length=1)
    wreck_min_stands: Positive


class TransportRules(Model):
    train: Train
    ship: Ship
    landing_stands: list[Ident] = Field(min_length=1)
    """A.3: the stand kinds that may land on a coast (the rest go ashore at a port)."""
    stands: list[StandKind] = Field(min_length=1)
    track: Track
    rulings: list[Ruling] = []


# --- E and II.E. Victory points and reinforcements (victory.yaml) --------------------


class ReinforcementChart(Model):
    """II.E.2: draws from the faction's pile for each face of the die."""

    roll: Dice
    draws: dict[str, list[Positive]]


NO_FACTION = "none"
"""The faction of a chart no faction of the scenario takes (E.6's strength roll, II.D.4's gun
cap in a scenario without the Makhnovists): never rolled, never applied."""


class MakhnovistStrength(Model):
    """E.6: the Current Strength Chart roll every award turn, with its modifiers."""

    faction: Ident
    roll: Dice
    modifiers: list[Modifier]


class Edge(Model):
    edge: Literal["north", "east", "south", "west"]
    north_of: Text | None = None
    """Only the part of the edge north of this town's hex."""


class Placement(Model):
    """E.3-E.5: where a faction's reinforcements arrive (replacements go to units on the map
    that are in supply and not surrounded, for every faction)."""

    edges: list[Edge] = []
    """Anywhere on these friendly board edges (E.3)."""
    supply_towns: bool = False
    """In one of the faction's supply-source towns that it holds (E.4)."""
    town: Text | None = None
    """In this town if the faction holds it (E.5) ..."""
    else_westernmost: bool = False
    """... otherwise in the westernmost town it holds: lowest column, then lowest row."""


WinKind = Literal["hold", "vp", "eliminate"]
WIN_FIELDS: dict[str, set[str]] = {"hold": {"towns"}, "vp": {"at_least"}, "eliminate": {"enemies"}}
"""The fields each kind of win condition needs besides faction, kind and when (the rest must be left out)."""


class WinCondition(Model):
    """How a side wins the scenario (RULES-NOTES, 2026-12-02), judged on the state after a turn.

    - hold: `faction` holds every one of `towns`.
    - vp: `faction`'s VP total (as the VP track shows it, E.3-E.5) is `at_least` or more.
    - eliminate: no unit of any of `enemies` is left on the map.
    `when`: `last_turn`, judged at the end of the scenario's last turn; `any_turn`, judged at the
    end of every turn, and met it ends the scenario at once.
    """

    faction: Ident
    """The side that wins by it."""
    kind: WinKind
    towns: list[Text] = []
    at_least: Positive | None = None
    enemies: list[Ident] = []
    when: Literal["last_turn", "any_turn"] = "last_turn"

    @model_validator(mode="after")
    def _fields_of_kind(self) -> WinCondition:
        needed = WIN_FIELDS[self.kind]
        given = {k for k in self.model_fields_set if k not in ("faction", "kind", "when")}
        if (
            given != needed
            or (self.kind == "hold" and not self.towns)
            or (self.kind == "eliminate" and not self.enemies)
        ):
            raise invalid(
                msg.value_win_fields(self.kind, ", ".join(sorted(needed)), ", ".join(sorted(given)) or "none")
            )
        return self


class VictoryRules(Model):
    award_every_turns: Positive
    thresholds: dict[str, Positive]
    bonus: dict[str, Dice]
    reinforcement_chart: ReinforcementChart
    makhnovist_strength: MakhnovistStrength
    placement: dict[str, Placement]
    win: list[WinCondition]
    """How the scenario is won (none: the rules name no winner, E's VP only buy reinforcements)."""
    rulings: list[Ruling] = []


# --- II.A Random events (events.yaml) ------------------------------------------------


class EventRules(Model):
    roll: Dice
    draw_on: list[Positive] = Field(min_length=1)
    discard_after_use: bool
    rulings: list[Ruling] = []


# --- II.B Post-battle (battle.yaml) --------------------------------------------------


class EquipmentRoll(Model):
    roll: Dice
    recovered_on: Literal["even", "odd"]


class WinnerLosses(Model):
    permanent_pct: Percent
    return_pct: Percent
    equipment: EquipmentRoll


class LoserLosses(Model):
    permanent_pct: Percent
    return_pct: Percent
    routed_lost_pct: Percent
    routed_lost_exempt: list[Ident]
    equipment: Literal["lost"]


class BattleRules(Model):
    retreat_hexes: Positive
    equipment_stands: list[Ident] = Field(min_length=1)
    """The stand kinds that are equipment for II.B.3's equipment losses."""
    winner: WinnerLosses
    loser: LoserLosses
    rounding: Literal["half_up"]
    rulings: list[Ruling] = []


# --- II.C Command control (command.yaml) ---------------------------------------------


class Leaderless(Model):
    """II.C.1: units without a commander in the hex obey on this or less."""

    adjacent: Positive
    alone: Positive


class CommandRules(Model):
    roll: Dice
    leaderless: Leaderless
    failure_bonus: Positive
    rulings: list[Ruling] = []


# --- II.D Partisans (partisans.yaml) -------------------------------------------------


class Evade(Model):
    roll: Dice
    modifiers: list[Modifier]


class Ambush(Model):
    """II.D.2: the ambush succeeds on a modified roll at or above `succeeds_at`."""

    roll: Dice
    succeeds_at: Positive
    modifiers: list[Modifier]


class PartisanRules(Model):
    evade: Evade
    ambush: Ambush
    artillery_cap: Positive
    artillery_cap_faction: Ident
    rulings: list[Ruling] = []
