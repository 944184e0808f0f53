"""A map given hex by hex, with no geography: a rule case's small board, or a club's own map.

```yaml
columns: 4            # hexes west to east
rows: 3               # hexes north to south
hex_km: 30            # across the flats (the scale the printed map would use)
terrain: open         # every hex not listed under `hexes`
hexes:
  "0102": {terrain: forest}
  "0201": {terrain: sea}
  "0202": {towns: [Kharkov], port: true}
sides:                # hexsides: rivers (major or crossable), bridges, open water
  - {hexes: ["0202", "0302"], river: Donets, class: major, bridge: true}
rail:                 # lines as chains of adjacent hexes
  - ["0101", "0202", "0302"]
roads: []
ferries:              # A.1: a major-river hexside and the units it takes per turn
  - {hexes: ["0302", "0402"], units: 2}
sources:              # B.4: fixed supply sources
  - {faction: reds, hex: "0101", kind: rail_exit, edge: west}
  - {faction: whites, hex: "0202", kind: town, town: Kharkov, while_held: true}
conditional_sources: {whites: [ports with_friendly_ship]}
```

A hex is coastal when it is land beside a sea hex, unless `coastal` says otherwise."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from kitgen.mapping.hexgrid import HexGrid
from kitgen.mapping.hexmap import NO_PROJECTION, SEA, Ferry, Hex, HexMap, Hexside, Link, SupplySourceHex
from kitgen.model.base import Count, Ident, Model, Positive, Text

HexId = Text


class HexSpec(Model):
    terrain: Ident | None = None
    towns: list[Text] = []
    port: bool = False
    coastal: bool | None = None


class SideSpec(Model):
    hexes: list[HexId] = Field(min_length=2, max_length=2)
    river: Text | None = None
    class_: Literal["major", "crossable"] | None = Field(default=None, alias="class")
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
    hexes: dict[HexId, HexSpec] = {}
    sides: list[SideSpec] = []
    rail: list[list[HexId]] = []
    roads: list[list[HexId]] = []
    ferries: list[FerrySpec] = []
    sources: list[SourceSpec] = []
    conditional_sources: dict[Ident, list[Text]] = {}


def hex_map_of(spec: BoardSpec, scenario: str = "handmade") -> HexMap:
    """The hex map a spec gives: positions from the grid alone (no latitude or longitude)."""
    grid = HexGrid(spec.hex_km, spec.columns, spec.rows, 0.0, 0.0)
    terrain = {grid.hex_id(c, r): spec.terrain for c, r in grid.cells()}
    for hex_id, given in spec.hexes.items():
        if hex_id in terrain and given.terrain:
            terrain[hex_id] = given.terrain

    def links(lines: list[list[str]], kind: str) -> tuple[Link, ...]:
        pairs = {tuple(sorted(p)) for line in lines for p in zip(line, line[1:], strict=False)}
        return tuple(Link((a, b), kind) for a, b in sorted(pairs))

    rail, roads = links(spec.rail, "rail"), links(spec.roads, "road")
    on_rail = {h for k in rail for h in k.hexes}
    on_road = {h for k in roads for h in k.hexes}

    def coastal(hex_id: str, col: int, row: int) -> bool:
        given = spec.hexes.get(hex_id)
        if given is not None and given.coastal is not None:
            return given.coastal
        near = (grid.hex_id(c, r) for c, r in grid.neighbours(col, row))
        return terrain[hex_id] != SEA and any(terrain.get(n) == SEA for n in near)

    hexes = []
    for col, row in sorted(grid.cells()):
        hex_id = grid.hex_id(col, row)
        x, y = grid.centre(col, row)
        given = spec.hexes.get(hex_id, HexSpec())
        hexes.append(
            Hex(
                id=hex_id,
                col=col,
                row=row,
                x_km=x,
                y_km=y,
                lat=0.0,
                lon=0.0,
                terrain=terrain[hex_id],
                land_share=0.0 if terrain[hex_id] == SEA else 1.0,
                coastal=coastal(hex_id, col, row),
                port=given.port,
                rail=hex_id in on_rail,
                road=hex_id in on_road,
                towns=tuple(given.towns),
            )
        )
    sides = []
    for side in spec.sides:
        a, b = sorted(side.hexes)
        ca, cb = grid.parse_id(a), grid.parse_id(b)
        direction = grid.direction(ca, cb) if ca and cb else None
        crossed = frozenset((a, b)) in {frozenset(k.hexes) for k in (*rail, *roads)}
        sides.append(Hexside((a, b), direction or "?", side.river, side.class_, side.bridge or crossed, side.sea))
    left, bottom, right, top = grid.edges
    return HexMap(
        scenario=scenario,
        hex_size_km=spec.hex_km,
        projection=NO_PROJECTION,
        columns=spec.columns,
        rows=spec.rows,
        left_km=0.0,
        top_km=0.0,
        frame_km=(left, bottom, right, top),
        hexes=tuple(hexes),
        hexsides=tuple(sides),
        rail=rail,
        roads=roads,
        rail_exits=tuple((s.hex, s.edge) for s in spec.sources if s.kind == "rail_exit" and s.edge),
        supply_sources=tuple(
            SupplySourceHex(s.faction, s.hex, s.kind, s.edge, s.town, s.while_held) for s in spec.sources
        ),
        conditional_sources={f: tuple(v) for f, v in sorted(spec.conditional_sources.items())},
        ferries=tuple(Ferry(tuple(sorted(f.hexes)), f.units) for f in spec.ferries),  # type: ignore[arg-type]
    )


def board_spec(data: Any) -> BoardSpec:
    """A spec from plain data (a dict as YAML gives it); pydantic reports what is wrong."""
    return BoardSpec.model_validate(data)
