"""A map given hex by hex, with no geography: a rule case's small board, or a club's own map.

```yaml
columns: 4            # hexes west to east
rows: 3               # hexes north to south
hex_km: 30            # across the flats (the scale the printed map would use)
terrain: open         # every hex not listed under `hexes`
off_map: ["0403"]     # cells of the grid that are no hex of the map (cut away by the frame)
hexes:
  "0102": {terrain: forest, places: [Perekop]}   # places: railway and map points in the hex
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

A hex is coastal when it is land beside a sea hex, unless `coastal` says otherwise. A scenario's
map.yaml gives its map this way under `board:`; `kitgen map --format yaml` writes a built map so."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

import yaml

from kitgen import messages as msg
from kitgen.mapping.hexgrid import HexGrid
from kitgen.mapping.hexmap import NO_PROJECTION, SEA, Ferry, Hex, HexMap, Hexside, Link, SupplySourceHex
from kitgen.model.board import BoardSpec, FerrySpec, HexSpec, SideSpec, SourceSpec
from kitgen.model.scenario import name_key

__all__ = ["BoardSpec", "FerrySpec", "HexSpec", "SideSpec", "SourceSpec", "board_spec", "hex_map_of"]

Loc = tuple[str | int, ...]


def _on_map(spec: BoardSpec, grid: HexGrid) -> set[str]:
    off = set(spec.off_map)
    return {grid.hex_id(c, r) for c, r in grid.cells()} - off


def hex_map_of(spec: BoardSpec, scenario: str = "handmade") -> HexMap:
    """The hex map a spec gives: positions from the grid alone (no latitude or longitude)."""
    grid = HexGrid(spec.hex_km, spec.columns, spec.rows, 0.0, 0.0)
    on_map = _on_map(spec, grid)
    terrain = {grid.hex_id(c, r): spec.terrain for c, r in grid.cells() if grid.hex_id(c, r) in on_map}
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
        if hex_id not in on_map:
            continue
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
    if spec.off_map:  # a window of a bigger grid: the frame is the box of the hexes on the map
        centres = [grid.centre(h.col, h.row) for h in hexes]
        left, right = min(x for x, _ in centres) - grid.side, max(x for x, _ in centres) + grid.side
        bottom, top = min(y for _, y in centres) - grid.size / 2, max(y for _, y in centres) + grid.size / 2
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


def spec_issues(
    spec: BoardSpec, *, towns: dict[str, str] | None = None, terrains: Iterable[str] = ()
) -> list[tuple[Loc, msg.Msg]]:
    """What is wrong with a board given hex by hex, each with where in the spec: hex ids off the
    grid, sides and links between hexes that are not neighbours, rail into the sea, a town in
    two hexes or not in towns.yaml (`towns`: name_key of each name -> the town), a ferry off a
    major-river side."""
    grid = HexGrid(spec.hex_km, spec.columns, spec.rows, 0.0, 0.0)
    on_map = _on_map(spec, grid)
    known_terrain = [*terrains, SEA] if terrains else []
    found: list[tuple[Loc, msg.Msg]] = []

    def on_grid(hex_id: str, loc: Loc) -> bool:
        if hex_id in on_map:
            return True
        found.append((loc, msg.map_hex_unknown(hex_id, spec.columns, spec.rows)))
        return False

    def adjacent(a: str, b: str, loc: Loc, what: str) -> bool:
        if not (on_grid(a, loc) and on_grid(b, loc)):
            return False
        ca, cb = grid.parse_id(a), grid.parse_id(b)
        if ca is not None and cb is not None and grid.direction(ca, cb) is not None:
            return True
        found.append((loc, msg.map_not_adjacent(what, a, b)))
        return False

    for i, hex_id in enumerate(spec.off_map):
        if grid.parse_id(hex_id) is None:
            found.append((("off_map", i), msg.map_hex_unknown(hex_id, spec.columns, spec.rows)))
    if known_terrain and spec.terrain not in known_terrain:
        found.append((("terrain",), msg.check_unknown_terrain(spec.terrain, known_terrain)))
    seen: dict[str, str] = {}
    for hex_id, given in spec.hexes.items():
        on_grid(hex_id, ("hexes", hex_id))
        if known_terrain and given.terrain is not None and given.terrain not in known_terrain:
            found.append((("hexes", hex_id, "terrain"), msg.check_unknown_terrain(given.terrain, known_terrain)))
        for k, name in enumerate(given.towns):
            town = towns.get(name_key(name)) if towns is not None else name
            where: Loc = ("hexes", hex_id, "towns", k)
            if town is None:
                known = sorted(set((towns or {}).values()))
                found.append((where, msg.check_unknown_town(name, known)))
            elif town in seen:
                found.append((where, msg.map_town_twice(town, seen[town], hex_id)))
            else:
                seen[town] = hex_id
    terrain = {h.id: h.terrain for h in hex_map_of(spec).hexes}
    majors = set()
    for i, side in enumerate(spec.sides):
        a, b = side.hexes
        if adjacent(a, b, ("sides", i, "hexes"), "hexside") and side.class_ == "major":
            majors.add(frozenset((a, b)))
    for table in ("rail", "roads"):
        for i, line in enumerate(getattr(spec, table)):
            if len(line) == 1:
                on_grid(line[0], (table, i, 0))
            for j, (a, b) in enumerate(zip(line, line[1:], strict=False)):
                if not adjacent(a, b, (table, i, j + 1), "rail link" if table == "rail" else "road link"):
                    continue
                at_sea = [(k, h) for k, h in ((j, a), (j + 1, b)) if terrain.get(h) == SEA]
                if table == "rail" and at_sea:
                    found.append(((table, i, at_sea[0][0]), msg.map_rail_at_sea(a, b, at_sea[0][1])))
    for i, ferry in enumerate(spec.ferries):
        a, b = ferry.hexes
        if adjacent(a, b, ("ferries", i, "hexes"), "ferry") and frozenset((a, b)) not in majors:
            found.append((("ferries", i, "hexes"), msg.map_ferry_not_major(a, b)))
    for i, source in enumerate(spec.sources):
        on_grid(source.hex, ("sources", i, "hex"))
    return found


# --- the board as hex-by-hex data (`kitgen map --format yaml`) ------------------------------


def parse_window(text: str, grid: HexGrid) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """'2010-3525' -> ((20, 10), (35, 25)): the north-west and south-east hexes of a window."""
    ends = text.split("-")
    cells = [grid.parse_id(e.strip()) for e in ends] if len(ends) == 2 else []
    if len(cells) != 2 or cells[0] is None or cells[1] is None:
        return None
    (c1, r1), (c2, r2) = cells[0], cells[1]
    return (min(c1, c2), min(r1, r2)), (max(c1, c2), max(r1, r2))


def spec_of(
    hex_map: HexMap,
    window: tuple[tuple[int, int], tuple[int, int]] | None = None,
    places: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """The map, or a rectangle of it (columns and rows from the window's first to its last,
    inclusive), as a board given hex by hex: what `hex_map_of` reads back into the same board.

    A window keeps the map's hex ids: its grid runs from 0101 to the window's last hex, and
    the cells before the window's first column or row are `off_map`. `places` gives each hex's
    named places other than towns (kitgen.mapping.places.point_hexes)."""
    (c1, r1), (c2, r2) = window or ((1, 1), (hex_map.columns, hex_map.rows))
    columns, rows = c2, r2
    grid = HexGrid(hex_map.hex_size_km, columns, rows, 0.0, 0.0)
    hexes = [h for h in hex_map.hexes if c1 <= h.col <= c2 and r1 <= h.row <= r2]
    ids = {h.id for h in hexes}
    terrain = {h.id: h.terrain for h in hexes}
    counts = Counter(h.terrain for h in hexes if h.terrain != SEA) or Counter(t for t in terrain.values())
    default = min(counts, key=lambda t: (-counts[t], t)) if counts else "open"

    def coastal_rule(h: Hex) -> bool:
        near = (grid.hex_id(c, r) for c, r in grid.neighbours(h.col, h.row))
        return h.terrain != SEA and any(terrain.get(n) == SEA for n in near)

    given: dict[str, dict[str, Any]] = {}
    for h in sorted(hexes, key=lambda h: h.id):
        entry: dict[str, Any] = {}
        if h.terrain != default:
            entry["terrain"] = h.terrain
        if h.towns:
            entry["towns"] = list(h.towns)
        if places and places.get(h.id):
            entry["places"] = list(places[h.id])
        if h.port:
            entry["port"] = True
        if h.coastal != coastal_rule(h):
            entry["coastal"] = h.coastal
        if entry:
            given[h.id] = entry

    def inside(pair: Iterable[str]) -> bool:
        return all(x in ids for x in pair)

    links = {
        kind: sorted({tuple(sorted(k.hexes)) for k in found if inside(k.hexes)})
        for kind, found in (("rail", hex_map.rail), ("roads", hex_map.roads))
    }
    crossed = {frozenset(p) for kind in links.values() for p in kind}
    sides = []
    for s in sorted(hex_map.hexsides, key=lambda s: s.hexes):
        if not inside(s.hexes):
            continue
        side: dict[str, Any] = {"hexes": list(s.hexes)}
        if s.river is not None:
            side["river"] = s.river
        if s.river_class is not None:
            side["class"] = s.river_class
        if s.bridge and frozenset(s.hexes) not in crossed:
            side["bridge"] = True
        if s.sea:
            side["sea"] = True
        sides.append(side)
    off_map = sorted({grid.hex_id(c, r) for c, r in grid.cells()} - ids)
    out: dict[str, Any] = {"columns": columns, "rows": rows, "hex_km": hex_map.hex_size_km, "terrain": default}
    if off_map:
        out["off_map"] = off_map
    out["hexes"] = given
    out["sides"] = sides
    out["rail"] = _chains(links["rail"])
    out["roads"] = _chains(links["roads"])
    out["ferries"] = [{"hexes": list(f.hexes), "units": f.units} for f in hex_map.ferries if inside(f.hexes)]
    out["sources"] = [
        {
            k: v
            for k, v in (
                ("faction", s.faction),
                ("hex", s.hex),
                ("kind", s.kind),
                ("edge", s.edge),
                ("town", s.town),
                ("while_held", s.while_held or None),
            )
            if v is not None
        }
        for s in hex_map.supply_sources
        if s.hex in ids
    ]
    out["conditional_sources"] = {f: list(v) for f, v in hex_map.conditional_sources.items()}
    return out


def _chains(pairs: list[tuple[str, ...]]) -> list[list[str]]:
    """Links joined into as few chains as a walk from each line end finds, in a fixed order."""
    around: dict[str, list[str]] = {}
    for a, b in pairs:
        around.setdefault(a, []).append(b)
        around.setdefault(b, []).append(a)
    for near in around.values():
        near.sort()
    used: set[frozenset[str]] = set()
    chains = []
    starts = sorted(h for h, near in around.items() if len(near) != 2) + sorted(around)
    for start in starts:
        while True:
            chain = [start]
            while nxt := next((n for n in around[chain[-1]] if frozenset((chain[-1], n)) not in used), None):
                used.add(frozenset((chain[-1], nxt)))
                chain.append(nxt)
            if len(chain) == 1:
                break
            chains.append(chain)
    return chains


class _Flow(dict[str, Any]):
    """A mapping written on one line."""


class _Line(list[Any]):
    """A list written on one line (wrapped at the width)."""


class _Dumper(yaml.SafeDumper):
    """Hex ids and other digit strings always quoted (a YAML 1.2 reader takes 0834 for a number);
    each hex, side, source and chain on one line."""


def _quoted(dumper: yaml.SafeDumper, value: str) -> yaml.Node:
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style='"' if value.isdigit() else None)


def _flow_map(dumper: yaml.SafeDumper, value: _Flow) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", value.items(), flow_style=True)


def _flow_list(dumper: yaml.SafeDumper, value: _Line) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=True)


_Dumper.add_representer(str, _quoted)
_Dumper.add_representer(_Line, _flow_list)
_Dumper.add_representer(_Flow, _flow_map)


def board_yaml(
    hex_map: HexMap,
    window: tuple[tuple[int, int], tuple[int, int]] | None = None,
    places: dict[str, list[str]] | None = None,
) -> str:
    """The board as map.yaml's `board:` section: the same map given hex by hex, one line a hex."""
    spec = spec_of(hex_map, window, places)
    spec["hexes"] = {h: _Flow(v) for h, v in spec["hexes"].items()}
    for table in ("sides", "ferries", "sources"):
        spec[table] = [_Flow(v) for v in spec[table]]
    for table in ("rail", "roads"):
        spec[table] = [_Line(chain) for chain in spec[table]]
    if "off_map" in spec:
        spec["off_map"] = _Line(spec["off_map"])
    head = (
        f"# The {hex_map.scenario} board hex by hex (kitgen/mapping/handmade.py has the format): a map.yaml of\n"
        "# this alone is the whole map, with no geography. Hex ids are the full map's, in a window too.\n"
    )
    body = yaml.dump(
        {"board": spec}, Dumper=_Dumper, sort_keys=False, default_flow_style=None, width=110, allow_unicode=True
    )
    return head + body
