"""A turn log, turns/turn-NN.yaml: the orders as written and the dice the umpire rolled.

```yaml
turn: 1
orders:
  whites:
    - {unit: w_kornilov_1, move: ["3316", "3317"]}    # a land move: the hexes in order, from the unit's own
    - {unit: w_markov_1, move: ["3415", "3515"], retreat: true}   # II.C.2: a retreat, whatever the command roll
rail:
  whites:
    - {train: w_train_1, carry: [w_markov_1], path: ["3416", "3516"]}   # C.1: a train and what it carries
sea:
  whites:
    - {ship: w_tr_saratov, carry: [w_markov_1], path: ["2826", "2825"]}  # D.1: ends at sea, so they stay aboard
    - {ship: w_hms_marlborough, path: ["2228"], land: "2229"}            # a ship that stays puts its units ashore
ships_lost: [w_tr_saratov]   # D.1: ships sunk or taken this turn, as the umpire reports; units aboard are lost too
battles:
  - hex: "2129"                                       # II.B: a tabletop battle, as the umpire reports it
    winner: whites
    units:
      - {unit: w_7th_inf_div, lost: {infantry: 1}}
      - {unit: r_sailors, lost: {infantry: 1}}        # Elite/Fanatic, cornered: it owes a breakout (II.B.1)
  - hex: "2229"                                       # II.B.1: the breakout, fought after the battle it lost
    winner: reds
    units:
      - {unit: r_sailors, breakout: true}              # from its hex into this adjacent one: it ends here
      - {unit: w_kuban_plastuns, retreat: "2329"}      # (had it lost, it would perish)
partisans:
  - {hex: "3318", faction: makhnovists, choice: evade}   # II.D.1: partisans evade only if the log says so
dice:
  - {purpose: "E.3 reds 3D6 bonus VP, turn 3", value: 11}   # a roll made at the table; any roll not given is drawn
  - {purpose: "II.A event roll, turn 3", value: }           # left empty: drawn, as if not given
```

Units aboard a ship (D.1) board only in port at the start of a turn (`carry`); the ship's units
go ashore at the port it reaches, `land` on a coastal hex beside the sea hex where it stops
(infantry only, A.3), or stay aboard when it stops at sea, to go ashore on a later turn by the
ship's next sea order (a path of one hex, the ship's own, puts them ashore without moving).

A table left empty (`orders:` with nothing under it, or `whites:` with only comments under it,
as `kitgen next` writes them) is an empty table.

Hex ids go in quotes; one typed without them as plain decimal digits (`move: [4913, 4914]`) is
that hex all the same, `408` being 0408. YAML reads `0407` as the octal number 263: that reading
is an error at its line (kitgen.yamlsource), never the hex 0263."""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, model_validator

from kitgen import messages as msg
from kitgen.model.base import Ident, Model, Signed, Text, invalid


def restore_hex_id(digits: str) -> str:
    """A hex id whose leading zero a spreadsheet or YAML dropped, put back: ids are CCRR, as many
    digits for the row as for the column, so three or five digits lost one leading zero (`408` is
    0408, `31617` is 031617). Anything else is returned as it is, for the caller to judge."""
    return "0" + digits if digits.isascii() and digits.isdigit() and len(digits) in (3, 5) else digits


def _hex_id(value: Any) -> Any:
    text = value
    if type(value) is int and value > 0:  # typed unquoted: `move: [4913, 408]`
        # an octal reading (0407 as 263) is let through here, but yamlsource has made it an error
        # of the file already, so the log is refused: never the hex 0263
        text = restore_hex_id(str(value))
    if isinstance(text, str) and re.fullmatch(r"[0-9]{4,6}", text):  # ASCII digits: `٣٤١٦` is no hex id
        return text
    raise invalid(msg.value_hex_id(repr(value)))


HexId = Annotated[str, BeforeValidator(_hex_id)]


class MoveOrder(Model):
    unit: Ident
    move: list[HexId] = Field(min_length=2)
    """The hexes of the move in order, starting with the unit's own; a move that enters a hex of
    enemy units stops there (contact), the rest of the path dropped."""
    retreat: bool = False
    """II.C.2: a retreat ("Units can always continue to retreat"): judged by the movement rules
    like any move, but a failed command roll does not hold it."""


class RailOrder(Model):
    """C.1: a train's move along the track, with the units it carries (A.2: they embark where the
    train starts and detrain where it stops, and make no map move that turn)."""

    train: Ident
    carry: list[Ident] = []
    path: list[HexId] = Field(min_length=2)


class SeaOrder(Model):
    """D.1-D.3, A.3: a ship's move through sea hexes, with the units it takes aboard in port
    (`carry`) and those aboard already; they go ashore at the port it reaches, (infantry only,
    A.3) `land` on a coastal hex beside the sea hex where it stops, or stay aboard at sea. A
    path of the ship's own hex alone: it stays where it is."""

    ship: Ident
    carry: list[Ident] = []
    path: list[HexId] = Field(min_length=1)
    land: HexId | None = None
    ashore: list[Ident] | None = None
    """D.1, A.3: the units aboard that land on `land` or go ashore at the port reached; the rest
    stay aboard. Not given: every unit aboard lands or goes ashore (or stays aboard at sea)."""


class TrackOrder(Model):
    """C.2: wreck the track of the hex a unit entered this turn, or repair up to two wrecked hexes
    (the repairing unit's own and the next along the line, ending in the last)."""

    unit: Ident
    wreck: HexId | None = None
    repair: list[HexId] = []


class BattleUnit(Model):
    """One unit's part in a tabletop battle: stands lost and routed by kind; the loser's retreat."""

    unit: Ident
    lost: dict[str, Signed] = {}
    routed: dict[str, Signed] = {}
    retreat: HexId | None = None
    surrender: bool = False
    captured: dict[str, Signed] = {}
    """II.B.3: the loser's routed equipment this (winning) unit takes, stands by kind."""
    ammo_left: dict[str, Signed] = {}
    """B.6: rounds per stand left at the end of the battle, by stand kind (the rest are full)."""
    breakout: bool = False
    """II.B.1: this Elite/Fanatic unit, beaten earlier this turn where it could not retreat,
    attacks from its hex into the battle's (adjacent) hex to break out: if its side wins it ends
    there, if it loses it perishes; it gives no `retreat` or `surrender`."""


class Battle(Model):
    """II.B: the result of a tabletop battle fought in `hex`, as the umpire reports it. A breakout
    (II.B.1) is a battle like any other, reported after the one its unit lost, that unit marked
    `breakout: true`."""

    hex: HexId
    winner: Ident
    units: list[BattleUnit] = Field(min_length=1)
    ships: list[Ident] = []
    """D.3: ships off the coast that fired in support, each worth its rating in batteries."""


class ResupplyOrder(Model):
    """B.5, B.7: a unit that stays put in a friendly depot's hex for the turn renews its ammunition."""

    unit: Ident


class PontoonOrder(Model):
    """A.1: a pontoon unit spends its turn emplacing a bridge across the major-river hexside from
    its hex to the next (`emplace: [own hex, across]`) or taking its bridge up (`pick_up: true`)."""

    unit: Ident
    emplace: list[HexId] = Field(default=[], max_length=2)
    pick_up: bool = False


class PlaceOrder(Model):
    """E.3-E.5: a slip drawn from the pile put on the map: its units `at` a hex, its replacement
    stands given to units (`give: {unit: {stand kind: count}}`)."""

    slip: Ident
    at: HexId | None = None
    give: dict[Ident, dict[str, Signed]] = {}
    units: list[Text] = []
    """For `slip: strength` (E.6): the names of the Current Strength Chart row's units to raise."""


class PartisanChoice(Model):
    """II.D: what a faction's partisans do where the enemy meets them, as their player chooses:
    try to evade (II.D.1), try an ambush (II.D.2: only partisans who did not move this turn; an
    ambush by partisans who moved is void), or fight. Nothing is assumed: partisans the log gives
    no choice for fight, with no roll."""

    hex: HexId
    faction: Ident
    choice: Literal["evade", "ambush", "fight"]


class RemoveOrder(Model):
    """II.A.2: the stands an event card takes from a faction, from the units its player chooses."""

    unit: Ident
    stands: dict[str, Signed]


class GivenRoll(Model):
    purpose: Text
    value: Signed | None = None
    """The roll made at the table; left empty (None), the roll is drawn as if not given."""


class TurnLog(Model):
    turn: int = Field(ge=1, le=999)
    orders: dict[str, list[MoveOrder]] = {}
    rail: dict[str, list[RailOrder]] = {}
    sea: dict[str, list[SeaOrder]] = {}
    track: dict[str, list[TrackOrder]] = {}
    pontoons: dict[str, list[PontoonOrder]] = {}
    resupply: dict[str, list[ResupplyOrder]] = {}
    place: dict[str, list[PlaceOrder]] = {}
    remove: dict[str, list[RemoveOrder]] = {}
    disband: dict[str, list[Ident]] = {}
    """E.6: units the Makhnovists disband to match their Current Strength Chart row."""
    battles: list[Battle] = []
    ships_lost: list[Ident] = []
    """D.1: ships sunk, wrecked or taken this turn, as the umpire reports (a naval action, a card):
    each leaves the map with every unit aboard it."""
    partisans: list[PartisanChoice] = []
    dice: list[GivenRoll] = []
    handed_in: list[Ident] = []
    """The factions whose orders are in (`kitgen orders import` adds each): a faction all of whose
    units hold has handed in all the same. The engine reads nothing from it."""

    @model_validator(mode="before")
    @classmethod
    def _empty_tables(cls, data: Any) -> Any:
        """A table written with nothing under it (`orders:`, or a faction's `whites:` with only
        comments below) is empty, so that a template's commented lines can be uncommented in place."""
        if not isinstance(data, dict):
            return data
        out = {}
        for key, value in data.items():
            if value is None and key != "turn":
                continue  # the field's default: an empty table or list
            if isinstance(value, dict) and key in BY_FACTION:
                value = {f: [] if v is None else v for f, v in value.items()}
            out[key] = value
        return out


BY_FACTION = ("orders", "rail", "sea", "track", "pontoons", "resupply", "place", "remove", "disband")
