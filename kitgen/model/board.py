"""A map given hex by hex (map.yaml's `board:`), and single corrections to a built map
(map.yaml's `overrides:`): the data models; kitgen/mapping/handmade.py makes the hex map."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from kitgen import messages as msg
from kitgen.model.base import Count, Ident, Model, Positive, Text, invalid

HexId = Text
RiverClass = Literal["major", "crossable"]


class HexSpec(Model):
    terrain: Ident | None = None
    towns: list[Text] = []
    places: list[Text] = []
    """Other named places in the hex (railway and map points): where set-ups and cards put things."""
    port: bool = False
    coastal: bool | None = None


class SideSpec(Model):
    hexes: list[HexId] = Field(min_length=2, max_length=2)
    river: Text | None = None
    class_: RiverClass | None = Field(default=None, alias="class")
    bridge: bool = False
    sea: bool = False


class FerrySpec(Model):
    hexes: list[HexId] = Field(min_length=2, max_length=2)
    units: Count


class SourceSpec(Model):
    faction: Ident
    hex: HexId
    kind: Literal["rail_exit", "town"]
    edge: Literal["north", "south", "east", "west"] | None = None
    town: Text | None = None
    while_held: bool = False


class BoardSpec(Model):
    columns: Positive
    rows: Positive
    hex_km: float = Field(default=30.0, gt=0, le=1000)
    terrain: Ident = "open"
    off_map: list[HexId] = []
    """Cells of the grid that are no hex of the map (the frame cuts them away, or a window leaves them out)."""
    hexes: dict[HexId, HexSpec] = {}
    sides: list[SideSpec] = []
    rail: list[list[HexId]] = []
    roads: list[list[HexId]] = []
    ferries: list[FerrySpec] = []
    sources: list[SourceSpec] = []
    conditional_sources: dict[Ident, list[Text]] = {}


_KINDS = {
    "hex": {"terrain", "port", "coastal"},
    "hexside": {"river", "class_", "bridge", "sea", "remove"},
    "rail": {"remove"},
    "road": {"remove"},
}


class Override(Model):
    """One correction to a map built from geography, applied after the build: a hex's terrain,
    port or coast; a hexside's river, bridge or open water (or none: `remove`); a rail or road
    link between two adjacent hexes added, or taken away with `remove: true`."""

    hex: HexId | None = None
    terrain: Ident | None = None
    port: bool | None = None
    coastal: bool | None = None
    hexside: list[HexId] | None = Field(default=None, min_length=2, max_length=2)
    river: Text | None = None
    class_: RiverClass | None = Field(default=None, alias="class")
    bridge: bool | None = None
    sea: bool | None = None
    rail: list[HexId] | None = Field(default=None, min_length=2, max_length=2)
    road: list[HexId] | None = Field(default=None, min_length=2, max_length=2)
    remove: bool = False

    @model_validator(mode="after")
    def _one_kind(self) -> Override:
        kinds = [k for k in _KINDS if getattr(self, k) is not None]
        given = {k for k in self.model_fields_set if k not in _KINDS}
        if len(kinds) != 1 or not given <= _KINDS[kinds[0]]:
            found = ", ".join(sorted(kinds + [("class" if k == "class_" else k) for k in given])) or "nothing"
            raise invalid(msg.value_override(found))
        return self

    @property
    def kind(self) -> str:
        return next(k for k in _KINDS if getattr(self, k) is not None)
