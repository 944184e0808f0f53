"""map.yaml's `overrides:` applied to a built hex map: single hexes, hexsides and links corrected."""

from __future__ import annotations

from dataclasses import replace

from kitgen import messages as msg
from kitgen.mapping.hexmap import SEA, HexMap, Hexside, Link
from kitgen.model.board import Override

Loc = tuple[str | int, ...]


def apply_overrides(
    hex_map: HexMap, overrides: list[Override], *, coastal_share: float = 0.99
) -> tuple[HexMap, list[tuple[Loc, msg.Msg]]]:
    """The map with each override applied in order, and (where in `overrides`, what) for those
    naming no hex of the map, two hexes that are not neighbours, or a link the map lacks.

    A hex made sea or land has its coast and its neighbours' judged again (unless an override
    says); a link added or removed sets the hex's rail or road mark and the bridge of a river
    side it crosses."""
    if not overrides:
        return hex_map, []
    grid = hex_map.grid
    hexes = hex_map.by_id()
    sides = {frozenset(s.hexes): s for s in hex_map.hexsides}
    links = {"rail": list(hex_map.rail), "road": list(hex_map.roads)}
    found: list[tuple[Loc, msg.Msg]] = []
    coast_given: set[str] = set()
    retyped: set[str] = set()
    bridges_given: set[frozenset[str]] = set()

    def pair(ids: list[str], loc: Loc, what: str) -> tuple[str, str] | None:
        a, b = sorted(ids)
        for h in (a, b):
            if h not in hexes:
                found.append((loc, msg.map_hex_unknown(h, hex_map.columns, hex_map.rows)))
                return None
        if grid.direction((hexes[a].col, hexes[a].row), (hexes[b].col, hexes[b].row)) is None:
            found.append((loc, msg.map_not_adjacent(what, a, b)))
            return None
        return a, b

    for i, o in enumerate(overrides):
        if o.hex is not None:
            h = hexes.get(o.hex)
            if h is None:
                found.append((("overrides", i, "hex"), msg.map_hex_unknown(o.hex, hex_map.columns, hex_map.rows)))
                continue
            if o.terrain is not None and o.terrain != h.terrain:
                retyped.add(h.id)
                h = replace(h, terrain=o.terrain)
            if o.port is not None:
                h = replace(h, port=o.port)
            if o.coastal is not None:
                coast_given.add(h.id)
                h = replace(h, coastal=o.coastal)
            hexes[h.id] = h
        elif o.hexside is not None:
            found_pair = pair(o.hexside, ("overrides", i, "hexside"), "hexside")
            if found_pair is None:
                continue
            key = frozenset(found_pair)
            if o.remove:
                sides.pop(key, None)
                continue
            a, b = found_pair
            old = sides.get(key)
            direction = grid.direction((hexes[a].col, hexes[a].row), (hexes[b].col, hexes[b].row)) or ""
            base = old or Hexside((a, b), direction, None, None, False)
            if o.bridge is not None:
                bridges_given.add(key)
            sides[key] = replace(
                base,
                river=o.river if o.river is not None else base.river,
                river_class=o.class_ if o.class_ is not None else base.river_class,
                bridge=o.bridge if o.bridge is not None else base.bridge,
                sea=o.sea if o.sea is not None else base.sea,
            )
        else:
            kind = o.kind
            ids = o.rail if o.rail is not None else o.road
            found_pair = pair(ids or [], ("overrides", i, kind), f"{kind} link")
            if found_pair is None:
                continue
            there = [k for k in links[kind] if tuple(sorted(k.hexes)) == found_pair]
            if o.remove and not there:
                found.append((("overrides", i, kind), msg.map_override_no_link(kind, *found_pair)))
            elif o.remove:
                links[kind] = [k for k in links[kind] if k not in there]
            elif not there:
                links[kind].append(Link(found_pair, "override"))
    on = {kind: {h for k in ks for h in k.hexes} for kind, ks in links.items()}
    crossed = {frozenset(k.hexes) for ks in links.values() for k in ks}
    sides = {key: s if key in bridges_given else replace(s, bridge=key in crossed) for key, s in sides.items()}
    near_retyped = retyped | {
        grid.hex_id(c, r) for h in retyped for c, r in grid.neighbours(hexes[h].col, hexes[h].row)
    }
    for hex_id, h in hexes.items():
        h = replace(h, rail=hex_id in on["rail"], road=hex_id in on["road"])
        if hex_id in near_retyped and hex_id not in coast_given:
            near = (hexes.get(grid.hex_id(c, r)) for c, r in grid.neighbours(h.col, h.row))
            sea_near = any(n is not None and n.terrain == SEA for n in near)
            h = replace(h, coastal=h.terrain != SEA and (sea_near or h.land_share < coastal_share))
        hexes[hex_id] = h
    return (
        replace(
            hex_map,
            hexes=tuple(hexes[h.id] for h in hex_map.hexes),
            hexsides=tuple(s for _, s in sorted(sides.items(), key=lambda kv: sorted(kv[0]))),
            rail=tuple(sorted(links["rail"], key=lambda k: (k.hexes, k.line))),
            roads=tuple(sorted(links["road"], key=lambda k: (k.hexes, k.line))),
        ),
        found,
    )
