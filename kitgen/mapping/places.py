"""Named places (towns, railway points, map points) and the hexes they stand in."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from kitgen import messages as msg
from kitgen.mapping.hexmap import HexMap, PlacedPoint
from kitgen.messages import Msg
from kitgen.model.forces import SetUp
from kitgen.model.scenario import Scenario, name_key

if TYPE_CHECKING:
    from kitgen.mapping.hexgrid import HexGrid
    from kitgen.mapping.projection import MapProjection


def place_hexes(scenario: Scenario, hex_map: HexMap) -> dict[str, str]:
    """name_key of every place on the map -> the id of its hex; places off the map are left out.

    A town is found by any of its names and stands in the hex the map gives it; a hex id is a
    place too (a hand-made map may have no other); a railway or map point stands where the map's
    projection put it when the map was built (`projected_points`)."""
    found: dict[str, str] = {name_key(h.id): h.id for h in hex_map.hexes}
    for h in hex_map.hexes:
        for town_name in h.towns:
            town = scenario.find_town(town_name)
            for n in town.names() if town else [town_name]:
                found[name_key(n)] = h.id
    for hex_id, given in scenario.map.board.hexes.items() if scenario.map.board else ():
        for name in given.places:
            found.setdefault(name_key(name), hex_id)
    named = set(found)
    ids = {h.id for h in hex_map.hexes}
    for point in hex_map.points:
        if name_key(point.name) not in named and point.hex in ids:
            found[name_key(point.name)] = point.hex
    return found


def projected_points(scenario: Scenario, proj: MapProjection, grid: HexGrid) -> tuple[PlacedPoint, ...]:
    """The railway and map points inside the frame of a map built from geography, in the order
    of their files, each in the hex `proj` puts it in."""
    points = [(p.name, p.lon, p.lat) for p in scenario.railways.points]
    points += [(p.name, p.lon, p.lat) for p in scenario.map.points]
    cells, on_map = grid.place(proj.forward(np.array([[lon, lat] for _, lon, lat in points])))
    return tuple(
        PlacedPoint(name, grid.hex_id(int(cell[0]), int(cell[1])))
        for (name, _, _), cell, inside in zip(points, cells, on_map, strict=True)
        if inside
    )


def off_map(on_map: dict[str, str], setup: SetUp) -> list[tuple[tuple[str | int, ...], Msg]]:
    """(where, message) for everything of a set-up that does not stand on the map, whose places
    are `on_map` (`place_hexes`)."""
    found: list[tuple[tuple[str | int, ...], Msg]] = []
    for table in ("units", "trains", "ships", "depots"):
        for i, item in enumerate(getattr(setup, table)):
            if name_key(item.at) not in on_map:
                found.append(((table, i, "at"), msg.setup_off_map(item.at).within(f"{table}[{i}].at")))
    for i, name in enumerate(setup.destroyed_track):
        if name_key(name) not in on_map:
            found.append((("destroyed_track", i), msg.setup_off_map(name).within(f"destroyed_track[{i}]")))
    return found


def point_hexes(scenario: Scenario, hex_map: HexMap) -> dict[str, list[str]]:
    """Hex id -> the railway and map points in it (as spelt in their files), towns left out:
    the `places` of the board written hex by hex."""
    where = place_hexes(scenario, hex_map)
    towns = {name_key(n) for t in scenario.towns for n in t.names()}
    found: dict[str, list[str]] = {}
    for name in [p.name for p in scenario.railways.points] + [p.name for p in scenario.map.points]:
        key = name_key(name)
        if key not in towns and key in where and name not in found.get(where[key], []):
            found.setdefault(where[key], []).append(name)
    for hex_id, given in scenario.map.board.hexes.items() if scenario.map.board else ():
        for name in given.places:
            if name not in found.get(hex_id, []):
                found.setdefault(hex_id, []).append(name)
    return found
