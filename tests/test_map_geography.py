"""The bundled scenario's hex map checked against real geography, one claim per test (DATC style).

Each test quotes the sentence of issue 3 or RULES-NOTES it checks. The expected facts come from
the scenario's own latitude/longitude data (towns.yaml, railways.yaml, geo/rivers.geojson) or from
an atlas, never from the map builder's output.
"""

from __future__ import annotations

import functools
import math
from collections import deque
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyproj
import pytest
import shapely
import shapely.geometry

from kitgen.loader import load_scenario_map
from kitgen.mapping.hexgrid import HexGrid
from kitgen.mapping.hexmap import SEA, Hex, HexMap, SupplySourceHex
from kitgen.mapping.projection import MapProjection
from kitgen.model.scenario import Scenario, name_key
from tests.conftest import BUNDLED, edit

GEOD = pyproj.Geod(ellps="WGS84")
CRIMEA = ["Sevastopol", "Simferopol", "Dzhankoy", "Kerch"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Scenario, HexMap]]:
    """The bundled scenario and its map, built once into a private cache."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KITGEN_CACHE", str(tmp_path_factory.mktemp("map-cache")))
        yield load_scenario_map(BUNDLED)


@pytest.fixture(scope="module")
def s(built: tuple[Scenario, HexMap]) -> Scenario:
    return built[0]


@pytest.fixture(scope="module")
def m(built: tuple[Scenario, HexMap]) -> HexMap:
    return built[1]


# --- helpers -------------------------------------------------------------------------------


def town_hex(m: HexMap, name: str) -> Hex:
    found = m.town_hex(name)
    assert found is not None, f"{name} is on no hex"
    return found


KISHINEV = (28.86, 47.01)
"""Kishinev in Bessarabia, across the Dniester from Odessa: not in the data, a fixed position."""


def place(s: Scenario, name: str) -> tuple[float, float]:
    """(lon, lat) of a town or a railway point, from the scenario's data (or Kishinev)."""
    if name == "Kishinev":
        return KISHINEV
    town = s.find_town(name)
    if town is not None:
        return town.lon, town.lat
    point = next(p for p in [*s.railways.points, *s.map.points] if name_key(p.name) == name_key(name))
    return point.lon, point.lat


@functools.cache
def projection(proj: str) -> MapProjection:
    return MapProjection(proj)


def hex_at(m: HexMap, lon: float, lat: float) -> str | None:
    """The id of the hex holding a lon/lat point, found with the grid, or None off the map."""
    grid = m.grid
    xy = projection(m.projection).forward(np.array([[lon, lat]]))
    cell = grid.locate(xy)
    return grid.hex_id(int(cell[0, 0]), int(cell[0, 1])) if grid.inside(cell)[0] else None


def neighbours(grid: HexGrid, hex_id: str, on_map: set[str] | None = None) -> list[str]:
    """Adjacent hexes; with `on_map`, only those the map keeps (the grid's outer cells may lie beyond its frame)."""
    cell = grid.parse_id(hex_id)
    assert cell is not None
    found = [grid.hex_id(*n) for n in grid.neighbours(*cell)]
    return [n for n in found if on_map is None or n in on_map]


def river_hexsides(m: HexMap, river: str, hex_id: str) -> list[tuple[str, str]]:
    return [side.hexes for side in m.hexsides if side.river == river and hex_id in side.hexes]


def reachable_without_crossing(m: HexMap, start: str, river: str) -> set[str]:
    """Land hexes a walker reaches from `start`, never crossing a hexside of `river` nor open
    water between two shores (a sea hexside), breadth first."""
    by_id, grid = m.by_id(), m.grid
    blocked = {frozenset(side.hexes) for side in m.hexsides if side.river == river or (side.sea and not side.bridge)}
    seen, queue = {start}, deque([start])
    while queue:
        here = queue.popleft()
        for there in neighbours(grid, here, set(by_id)):
            if there in seen or by_id[there].terrain == SEA or frozenset((here, there)) in blocked:
                continue
            seen.add(there)
            queue.append(there)
    return seen


def rail_graph(m: HexMap, line: str | None = None) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for link in m.rail:
        if line is None or link.line == line:
            a, b = link.hexes
            graph.setdefault(a, set()).add(b)
            graph.setdefault(b, set()).add(a)
    return graph


def component(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, queue = {start}, deque([start])
    while queue:
        for there in graph.get(queue.popleft(), ()):
            if there not in seen:
                seen.add(there)
                queue.append(there)
    return seen


def course(s: Scenario, m: HexMap, river: str) -> shapely.LineString:
    feature = next(f for f in s.river_courses.features if f.properties.name == river)
    coords = np.array(feature.geometry.model_dump()["coordinates"], dtype=float)
    return shapely.LineString(projection(m.projection).forward(coords))


def corner_keys(h: Hex) -> set[tuple[int, int]]:
    """A hex's six corners on the integer lattice of half a side (x) by half a hex (y), so that
    hexes meeting at a corner give the very same key."""
    cx, cy = 2 + 3 * (h.col - 1), -(1 + 2 * (h.row - 1) + (1 if h.col % 2 == 0 else 0))
    return {(cx + dx, cy + dy) for dx, dy in ((2, 0), (1, 1), (-1, 1), (-2, 0), (-1, -1), (1, -1))}


# --- the map checks ----------------------------------------------------------------


def test_kiev_hex_is_west_of_kharkovs(s: Scenario, m: HexMap) -> None:
    """Issue 3: "the hex of Kiev is west of Kharkov's". Kiev stands at 30.52 E, Kharkov at 36.23 E,
    about 410 km apart east to west: some 16 columns of 26 km (1.5 sides of a 30 km hex)."""
    kiev, kharkov = s.find_town("Kiev"), s.find_town("Kharkov")
    assert kiev is not None and kharkov is not None
    assert kiev.lon < kharkov.lon  # the fact the map must show
    a, b = town_hex(m, "Kiev"), town_hex(m, "Kharkov")
    assert a.col < b.col and a.x_km < b.x_km
    east_west_km = GEOD.inv(kiev.lon, 50.2, kharkov.lon, 50.2)[2] / 1000
    column_km = 1.5 * m.hex_size_km / math.sqrt(3)
    assert abs((b.col - a.col) - east_west_km / column_km) <= 1.5


def test_dnieper_hexsides_separate_kiev_from_poltava(m: HexMap) -> None:
    """Issue 3: "the Dnieper hexsides separate Kiev from Poltava". Kiev is on the right (west) bank,
    Poltava east of the river: walking over land hexes without crossing a Dnieper hexside, one
    cannot get from Kiev to Poltava."""
    reached = reachable_without_crossing(m, town_hex(m, "Kiev").id, "Dnieper")
    assert town_hex(m, "Poltava").id not in reached
    assert len(reached) > 20  # the walk did start: Kiev's bank is not walled in


def test_kiev_is_on_the_dnieper(m: HexMap) -> None:
    """Issue 3: "a page rendered to PNG ... shows Kiev on the Dnieper": a side of Kiev's hex is a
    Dnieper hexside."""
    assert river_hexsides(m, "Dnieper", town_hex(m, "Kiev").id)


@pytest.mark.parametrize(
    ("town", "river"),
    [
        ("Kiev", "Dnieper"),
        ("Cherkassy", "Dnieper"),
        ("Kremenchug", "Dnieper"),
        ("Dneprodzerzhinsk", "Dnieper"),
        ("Ekaterinoslav", "Dnieper"),
        ("Zaporozhe", "Dnieper"),
        ("Nikopol", "Dnieper"),
        ("Kherson", "Dnieper"),
        ("Vinnitsa", "Southern Bug"),
        ("Nikolaev", "Southern Bug"),
        ("Voronezh", "Don"),
        ("Liski", "Don"),
        ("Rostov", "Don"),
        ("Tsaritsyn", "Volga"),
    ],
)
def test_river_town_keeps_its_bank(s: Scenario, m: HexMap, town: str, river: str) -> None:
    """A town on a major river touches it, and is on its real bank: no river hexside of its hex
    parts it from a neighbour that lies wholly on the town's own bank (the neighbour's hex holds
    none of the river's course, and the line from the town's true position to its centre does
    not cross the course). RULES-NOTES: a major-river hexside may be crossed only at a bridge,
    so a town on the wrong bank would be cut off from its own side."""
    h = town_hex(m, town)
    sides = river_hexsides(m, river, h.id)
    assert sides, f"{town}'s hex has no {river} hexside"
    by_id, grid = m.by_id(), m.grid
    here = projection(m.projection).forward(np.array([place(s, town)]))[0]
    water = course(s, m, river)
    for side in sides:
        other = by_id[side[1] if side[0] == h.id else side[0]]
        outline = shapely.Polygon(grid.corners(np.array([[other.x_km, other.y_km]]))[0])
        crossing = shapely.intersection(shapely.LineString([here, (other.x_km, other.y_km)]), water)
        count = 0 if crossing.is_empty else len(shapely.get_coordinates(crossing))
        straddles = shapely.intersects(outline, water)
        assert count % 2 == 1 or straddles, (
            f"{town} and hex {other.id} are on one bank, yet a {river} hexside parts them"
        )


def test_rostov_hex_touches_the_don(m: HexMap) -> None:
    """Issue 3: "Rostov at the Don's mouth": a side of Rostov's hex is a Don hexside."""
    assert river_hexsides(m, "Don", town_hex(m, "Rostov").id)


def test_rostov_is_next_to_the_sea_of_azov(m: HexMap) -> None:
    """Issue 3: "Rostov at the Don's mouth". Rostov lies some 35 km from the head of the Taganrog
    Bay: a hex next to Rostov's is coastal (holds water of the Sea of Azov). Rostov itself is a
    river port: its own hex is land."""
    h = town_hex(m, "Rostov")
    assert h.terrain != SEA
    by_id = m.by_id()
    assert any(by_id[n].coastal and by_id[n].land_share < 1.0 for n in neighbours(m.grid, h.id))


@pytest.mark.parametrize(
    ("river", "one_bank", "other_bank"),
    [
        ("Dnieper", "Nikolaev", "Melitopol"),  # round the mouth, across the Dnieper-Bug liman
        ("Don", "Taganrog", "Ekaterinodar"),
        ("Dniester", "Odessa", "Kishinev"),  # Bendery shares Tiraspol's hex at 30 km, so not Bendery
    ],
)
def test_major_river_runs_to_the_sea(s: Scenario, m: HexMap, river: str, one_bank: str, other_bank: str) -> None:
    """Issue 3: major rivers are "crossed only at bridges or by pontoon/ferry"; RULES-NOTES: supply
    is not traced "across sea or an unbridged major-river hexside". A river that enters by the map's
    edge and flows into the sea inside the map parts its banks all the way: no land walk from a town on one bank to a town on
    the other avoids its hexsides (Taganrog and Ekaterinodar lie either side of the Don's mouth,
    Odessa and Kishinev either side of the Dniester's)."""
    start = town_hex(m, one_bank).id if s.find_town(one_bank) else hex_at(m, *place(s, one_bank))
    goal = town_hex(m, other_bank).id if s.find_town(other_bank) else hex_at(m, *place(s, other_bank))
    assert start is not None and goal is not None
    assert goal not in reachable_without_crossing(m, start, river)


@pytest.mark.parametrize(
    "river",
    [
        "Dnieper",
        "Southern Bug",
        "Don",
        "Dniester",
    ],
)
def test_river_hexsides_reach_a_sea_hex_at_the_mouth(s: Scenario, m: HexMap, river: str) -> None:
    """The chain of a river's hexsides ends, at its mouth, on a corner it shares with a sea hex or
    with a sea hexside (open water between two shores, as in a liman): the river and the sea
    together part the two banks. (The chain's ends are the corners touched
    by an odd number of its hexsides; the mouth end is the one nearest the course's last point.)"""
    by_id = m.by_id()
    degree: dict[tuple[int, int], int] = {}
    for side in m.hexsides:
        if side.river == river:
            shared = corner_keys(by_id[side.hexes[0]]) & corner_keys(by_id[side.hexes[1]])
            assert len(shared) == 2
            for corner in shared:
                degree[corner] = degree.get(corner, 0) + 1
    ends = [c for c, d in degree.items() if d % 2]
    assert ends, f"the {river} has no hexsides with an end"
    grid = m.grid
    mouth = np.array(course(s, m, river).coords[-1])

    def km(corner: tuple[int, int]) -> np.ndarray:
        return np.array([grid.left + corner[0] * grid.side / 2, grid.top + corner[1] * grid.size / 2])

    end = min(ends, key=lambda c: float(np.hypot(*(km(c) - mouth))))
    around = [h for h in m.hexes if end in corner_keys(h)]
    sea_sides = [side for side in m.hexsides if side.sea]
    at_sea_side = any(
        end in corner_keys(by_id[side.hexes[0]]) & corner_keys(by_id[side.hexes[1]]) for side in sea_sides
    )
    assert any(h.terrain == SEA for h in around) or at_sea_side, [(h.id, h.terrain) for h in around]


def test_sevastopol_hex_is_coastal(m: HexMap) -> None:
    """Issue 3: "Sevastopol's hex is coastal"."""
    h = town_hex(m, "Sevastopol")
    assert h.coastal and h.terrain != SEA


def test_sevastopol_is_the_south_west_of_the_crimea(s: Scenario, m: HexMap) -> None:
    """Issue 3: "Sevastopol in the Crimea's south-west". Of the Crimean towns, Sevastopol
    (44.62 N, 33.53 E) is both the southernmost and the westernmost; so is its hex."""
    towns = {name: s.find_town(name) for name in CRIMEA}
    assert all(t is not None for t in towns.values())
    others = [n for n in CRIMEA if n != "Sevastopol"]
    sev = towns["Sevastopol"]
    assert sev is not None
    assert all(sev.lat < t.lat and sev.lon < t.lon for n in others if (t := towns[n]) is not None)
    h = town_hex(m, "Sevastopol")
    for name in others:
        other = town_hex(m, name)
        assert h.x_km < other.x_km and h.y_km < other.y_km, name
        assert h.col <= other.col and h.row >= other.row, name


def test_tsaritsyn_is_on_the_volga(m: HexMap) -> None:
    """Issue 3: "Tsaritsyn on the Volga"."""
    assert river_hexsides(m, "Volga", town_hex(m, "Tsaritsyn").id)


def test_no_volga_bridge(m: HexMap) -> None:
    """railways.yaml: "the Volga had NO bridge in 1919"."""
    assert not [side.hexes for side in m.hexsides if side.river == "Volga" and side.bridge]


def test_donetsk_and_makeevka_are_neighbours_each_under_its_own_name(s: Scenario, m: HexMap) -> None:
    """Issue 3: "A hex may hold more than one town (at 30 km, Donetsk and Makeevka fall in one hex):
    each keeps its own name and VPs." The two are 14 km apart, less than a hex: their hexes are
    the same or adjacent, and each hex lists the town under its own name."""
    km = GEOD.inv(*place(s, "Donetsk"), *place(s, "Makeevka"))[2] / 1000
    assert km < m.hex_size_km
    a, b = town_hex(m, "Donetsk"), town_hex(m, "Makeevka")
    assert a.id == b.id or b.id in neighbours(m.grid, a.id)
    assert "Donetsk" in a.towns and "Makeevka" in b.towns


def test_a_hex_holds_two_towns_each_keeping_its_name(scenario_copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 3: "A hex may hold more than one town ...: each keeps its own name and VPs." Makeevka
    moved to 1 km from Donetsk shares its hex; the hex lists both names, and the VP table still
    gives each its own VPs."""
    monkeypatch.setenv("KITGEN_CACHE", str(scenario_copy.parent / "cache"))
    edit(
        scenario_copy / "towns.yaml",
        "{name: Makeevka, lat: 48.05, lon: 37.97,",
        "{name: Makeevka, lat: 48.00, lon: 37.81,",
    )
    scenario, hex_map = load_scenario_map(scenario_copy)
    h = town_hex(hex_map, "Donetsk")
    assert set(h.towns) == {"Donetsk", "Makeevka"}
    assert hex_map.town_hex("Makeevka") == h
    donetsk, makeevka = scenario.find_town("Donetsk"), scenario.find_town("Makeevka")
    assert donetsk is not None and makeevka is not None
    assert donetsk.vp["reds"] == 4 and makeevka.vp["reds"] == 1  # the seed's VP table


def test_every_town_is_on_one_land_hex(s: Scenario, m: HexMap) -> None:
    """Issue 3: "Every one of the 73 towns of the VP table at its true position": each on exactly
    one hex, a land hex, and the hex that holds its true position."""
    assert len(s.towns) == 73
    listed = [name for h in m.hexes for name in h.towns]
    assert sorted(listed) == sorted(t.name for t in s.towns)
    for town in s.towns:
        h = town_hex(m, town.name)
        assert h.terrain != SEA, town.name
        assert h.id == hex_at(m, town.lon, town.lat), town.name


def test_ports_are_flagged_on_port_town_hexes(s: Scenario, m: HexMap) -> None:
    """Issue 3: "ports marked": a hex is a port exactly when it holds a town towns.yaml marks as one."""
    port_towns = {t.name for t in s.towns if t.port}
    assert {"Odessa", "Sevastopol", "Novorossiisk", "Rostov"} <= port_towns
    for h in m.hexes:
        assert h.port == any(name in port_towns for name in h.towns), h.id


def test_sea_port_hexes_are_coastal(s: Scenario, m: HexMap) -> None:
    """The harbours on the open coast (not the river ports of Rostov, Nikolaev and Kherson) lie on
    coastal hexes."""
    for name in ["Odessa", "Sevastopol", "Kerch", "Mariupol", "Taganrog", "Novorossiisk", "Tuapse", "Sochi"]:
        assert town_hex(m, name).coastal, name


def test_coastal_means_land_next_to_the_sea(m: HexMap) -> None:
    """Issue 3: each hex is "sea / coastal / land": a sea hex is never coastal, and every land hex
    with a sea hex next to it is."""
    by_id, grid = m.by_id(), m.grid
    for h in m.hexes:
        if h.terrain == SEA:
            assert not h.coastal, h.id
        elif any(by_id[n].terrain == SEA for n in neighbours(grid, h.id, set(by_id))):
            assert h.coastal, h.id


def test_every_river_hexside_crossed_by_rail_or_road_is_a_bridge(m: HexMap) -> None:
    """Issue 3: "Bridges where rail crosses a major river"; RULES-NOTES: "a bridge (a rail or road
    crossing on the map)". A river hexside is a bridge exactly when a rail or road link crosses it."""
    crossings = {frozenset(link.hexes) for link in (*m.rail, *m.roads)}
    majors = [side for side in m.hexsides if side.river_class == "major"]
    assert any(frozenset(side.hexes) in crossings for side in majors)
    for side in m.hexsides:
        assert side.bridge == (frozenset(side.hexes) in crossings), side


def test_every_major_river_bridge_is_a_listed_bridge(s: Scenario, m: HexMap) -> None:
    """railways.yaml: "Bridges list only crossings of the Dnieper, Don, Volga, Dniester and Southern
    Bug". Every bridged hexside of a major river is crossed by a line that lists a bridge over that
    river: the map invents no bridge."""
    bridges = {line.name: {name_key(b.river) for b in line.bridges} for line in s.railways.lines}
    roads = {frozenset(link.hexes) for link in m.roads}
    unlisted = []
    for side in m.hexsides:
        if side.river_class != "major" or not side.bridge or frozenset(side.hexes) in roads:
            continue
        lines = [link.line for link in m.rail if frozenset(link.hexes) == frozenset(side.hexes)]
        if not any(name_key(side.river) in bridges[line] for line in lines):
            unlisted.append((side.river, side.hexes, lines))
    assert not unlisted


def test_every_listed_bridge_is_on_the_map(s: Scenario, m: HexMap) -> None:
    """railways.yaml lists each major-river bridge of a line; the line's links cross a hexside of
    that river, and that hexside is a bridge (unless both ends of the bridge fall in one hex, as
    Tiraspol and Bendery do at 30 km: then the crossing is inside that hex)."""
    for line in s.railways.lines:
        for bridge in line.bridges:
            ends = [hex_at(m, *place(s, n)) for n in bridge.between]
            if None in ends or ends[0] == ends[1]:
                continue  # a bridge off the map, or inside one hex
            crossed = [
                side
                for side in m.hexsides
                if side.river == bridge.river
                and any(frozenset(k.hexes) == frozenset(side.hexes) for k in m.rail if k.line == line.name)
            ]
            assert crossed, (line.name, bridge.river)
            assert all(side.bridge for side in crossed)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Kiev", "Proskurov"),
        ("Kiev", "Kharkov"),
        ("Kharkov", "Kursk"),
        ("Kursk", "Voronezh"),
        ("Voronezh", "Rostov"),
        ("Ekaterinoslav", "Sevastopol"),
        ("Odessa", "Zhmerinka"),
        ("Odessa", "Kotovsk"),
        ("Rostov", "Ekaterinodar"),
        ("Ekaterinodar", "Novorossiisk"),
        ("Tsaritsyn", "Tikhoretskaia"),
        ("Tsaritsyn", "Balashov"),
        ("Kharkov", "Valuyki"),
        ("Dzhankoy", "Kerch"),
        ("Rostov", "Pyatigorsk"),
    ],
)
def test_rail_graph_connects(s: Scenario, m: HexMap, a: str, b: str) -> None:
    """Issue 3: the 1919 railway net, e.g. "Kiev-Kazatin-Zhmerinka-Proskurov", "Kiev-Poltava-Kharkov",
    "Kharkov-Belgorod-Kursk", "Kursk-Kastornoye-Voronezh", "Voronezh-Liski-Kantemirovka-Millerovo-Rostov",
    "Ekaterinoslav-...-Simferopol-Sevastopol", "Odessa-Birzula(Kotovsk)-Zhmerinka",
    "Rostov-Tikhoretskaia-Ekaterinodar-Novorossiisk", "Tikhoretskaia-Velikokniazheskaia-Tsaritsyn",
    "Tsaritsyn-Povorino-Balashov": the map's rail links join the two places' hexes."""
    start, goal = hex_at(m, *place(s, a)), hex_at(m, *place(s, b))
    assert start is not None and goal is not None
    assert goal in component(rail_graph(m), start)


def test_each_railway_line_runs_through_its_stations(s: Scenario, m: HexMap) -> None:
    """Every line of railways.yaml is one connected run of rail links of that line through the
    hexes of all its stations on the map."""
    for line in s.railways.lines:
        stations = [h for n in line.stations if (h := hex_at(m, *place(s, n))) is not None]
        assert stations, line.name
        graph = rail_graph(m, line.name)
        if len(set(stations)) == 1:
            continue
        reached = component(graph, stations[0])
        assert set(stations) <= reached, (line.name, set(stations) - reached)


def test_rail_links_join_adjacent_hexes_flagged_rail(m: HexMap) -> None:
    """A rail link runs between adjacent hexes, and a hex has rail exactly when a link ends in it."""
    grid, ends = m.grid, set()
    for link in (*m.rail, *m.roads):
        a, b = (grid.parse_id(x) for x in link.hexes)
        assert a is not None and b is not None
        assert grid.direction(a, b) is not None, link
    for link in m.rail:
        ends.update(link.hexes)
    assert ends == {h.id for h in m.hexes if h.rail}
    assert {x for link in m.roads for x in link.hexes} == {h.id for h in m.hexes if h.road}


@pytest.mark.parametrize("town", ["Sochi", "Elista"])
def test_towns_without_a_railway_have_no_rail(m: HexMap, town: str) -> None:
    """railways.yaml: "Towns with NO railway in 1919 ...: Grigoriopol, Kakhovka, Sochi, Elista".
    Sochi's and Elista's hexes are far from any line, so they carry no rail."""
    assert not town_hex(m, town).rail


# --- terrain -------------------------------------------------------------------------------


def test_korosten_is_in_the_polesie_forest(m: HexMap) -> None:
    """Issue 3: "forest (Polesie north of Zhitomir-Kiev-Chernigov and the like)". Korosten
    (50.95 N) lies in Polesie, 80 km north of Zhitomir."""
    assert town_hex(m, "Korosten").terrain == "forest"


def test_crimean_south_coast_is_mountain(s: Scenario, m: HexMap) -> None:
    """Issue 3: "mountain (the Crimean range, ...)". Yalta, under the Crimean range on the south
    coast, is in a mountain hex."""
    h = hex_at(m, *place(s, "Yalta"))
    assert h is not None and m.by_id()[h].terrain == "mountain"


def test_sochi_coast_is_mountain(m: HexMap) -> None:
    """Issue 3: "the Caucasus ... along the coast to Sochi"."""
    assert town_hex(m, "Sochi").terrain == "mountain"


@pytest.fixture(scope="module")
def hex_polygons(m: HexMap) -> np.ndarray:
    """Each hex's part on the map: the frame cuts the outer hexes, and a cut hex is judged by what is left."""
    grid = m.grid
    whole = shapely.polygons(grid.corners(np.array([grid.centre(h.col, h.row) for h in m.hexes])))
    return np.asarray(shapely.intersection(whole, shapely.box(*m.frame_km)))


@pytest.fixture(scope="module")
def land(s: Scenario, m: HexMap) -> shapely.Geometry:
    """The coastline layer's land, projected: geo/coast.geojson read on its own."""
    proj = projection(m.projection)
    parts = [shapely.make_valid(shapely.geometry.shape(f.geometry.model_dump())) for f in s.coast.features]
    return shapely.transform(shapely.union_all(parts), lambda xy: proj.forward(np.asarray(xy, dtype=float)))


@pytest.mark.parametrize(
    "area",
    [
        "Polesie",
        "Bryansk forest",
        "Donets forest (Izium)",
        "Pripyat marshes",
        "Velykyi Luh (Dnieper plavni above Nikopol)",
        "Dnieper delta",
        "Sivash",
        "Kuban plavni (delta)",
        "Crimean mountains",
        "Caucasus",
    ],
)
def test_hexes_mostly_inside_a_terrain_area_take_its_terrain(
    s: Scenario, m: HexMap, hex_polygons: np.ndarray, land: shapely.Geometry, area: str
) -> None:
    """map.yaml: "A hex takes the terrain that covers most of it. Where areas overlap, a later one
    lies on top of an earlier one. Forest and mountain count only on land; a marsh counts over
    water too." Recomputed here from map.yaml and geo/coast.geojson: every hex more than 55% covered
    (its part on the map) by the visible part of an area has the area's terrain, and each area
    decides at least one hex."""
    proj = projection(m.projection)
    outlines = [
        (a.name, a.terrain, shapely.make_valid(shapely.Polygon(proj.forward(np.array([*a.outline, a.outline[0]])))))
        for a in s.map.terrain_areas
    ]
    index = next(i for i, (name, _, _) in enumerate(outlines) if name == area)
    _, terrain, visible = outlines[index]
    above = [outline for _, _, outline in outlines[index + 1 :]]
    if above:
        visible = shapely.difference(visible, shapely.union_all(above))
    if terrain != "marsh":
        visible = shapely.intersection(visible, land)
    share = shapely.area(shapely.intersection(hex_polygons, visible)) / shapely.area(hex_polygons)
    decided = [m.hexes[i] for i in np.nonzero(share > 0.55)[0]]
    assert decided, f"{area} covers no hex"
    assert [h.id for h in decided if h.terrain != terrain] == []


@pytest.mark.parametrize("town", ["Poltava", "Kharkov", "Ekaterinoslav", "Tsaritsyn", "Stavropol"])
def test_the_steppe_is_open(m: HexMap, town: str) -> None:
    """Issue 3: "the rest open steppe"."""
    assert town_hex(m, town).terrain == "open"


def test_most_hexes_are_land_and_the_seas_are_there(m: HexMap) -> None:
    """The map holds the Black Sea and the Sea of Azov: the hex south of Odessa and the middle of
    the Sea of Azov (46.0 N, 36.5 E) are sea, Kharkov's steppe is land."""
    south_of_odessa = hex_at(m, 30.9, 45.6)
    azov = hex_at(m, 36.5, 46.0)
    by_id = m.by_id()
    assert south_of_odessa is not None and by_id[south_of_odessa].terrain == SEA
    assert azov is not None and by_id[azov].terrain == SEA
    sea = sum(h.terrain == SEA for h in m.hexes)
    assert 0.05 * len(m.hexes) < sea < 0.4 * len(m.hexes)


# --- supply sources ------------------------------------------------------------------------


def sources(m: HexMap, faction: str, kind: str) -> list[SupplySourceHex]:
    return [x for x in m.supply_sources if x.faction == faction and x.kind == kind]


def test_rail_exits_lie_on_their_edge(m: HexMap) -> None:
    """A rail exit is a hex on the map's edge where a railway leaves it by that edge."""
    by_id = m.by_id()
    on_edge = {
        "north": lambda h: h.row == 1,
        "south": lambda h: h.row == m.rows,
        "west": lambda h: h.col == 1,
        "east": lambda h: h.col == m.columns,
    }
    assert m.rail_exits
    for hex_id, edge in m.rail_exits:
        h = by_id[hex_id]
        assert on_edge[edge](h), (hex_id, edge)
        assert h.rail


def test_reds_supply_from_rail_exits_north(m: HexMap) -> None:
    """RULES-NOTES: "Reds: rail exits on the north map edge": every railway leaving by the north
    edge (to Orel, Elets, Gryazi, Rtishchevo, Gomel) is a Red source, and nothing else on that edge."""
    north = {x.hex for x in sources(m, "reds", "rail_exit") if x.edge == "north"}
    assert len(north) >= 3
    assert north == {h for h, e in m.rail_exits if e == "north"}


def test_reds_supply_from_rail_exits_east_north_of_tsaritsyn(s: Scenario, m: HexMap) -> None:
    """RULES-NOTES: Reds supply from rail exits on "the east edge north of Tsaritsyn" (the
    Balashov-Kamyshin line); none south of Tsaritsyn, and the Reds have no other kind of rail source."""
    tsaritsyn = s.find_town("Tsaritsyn")
    assert tsaritsyn is not None
    by_id = m.by_id()
    east = [x for x in sources(m, "reds", "rail_exit") if x.edge == "east"]
    assert east
    for x in east:
        assert by_id[x.hex].col == m.columns
        assert by_id[x.hex].lat > tsaritsyn.lat
    assert {x.edge for x in sources(m, "reds", "rail_exit")} <= {"north", "east"}
    expected = {h for h, e in m.rail_exits if e == "east" and by_id[h].y_km > town_hex(m, "Tsaritsyn").y_km}
    assert {x.hex for x in east} == expected


def test_ukrainians_supply_from_rail_exits_west_and_kiev(m: HexMap) -> None:
    """RULES-NOTES: "Ukrainians: rail exits on the west map edge, and Kiev while held"."""
    west = sources(m, "ukrainians", "rail_exit")
    assert west
    assert {x.edge for x in west} == {"west"}
    assert {x.hex for x in west} == {h for h, e in m.rail_exits if e == "west"}
    towns = sources(m, "ukrainians", "town")
    assert [(x.hex, x.town, x.while_held) for x in towns] == [(town_hex(m, "Kiev").id, "Kiev", True)]


def test_whites_supply_from_ekaterinodar_and_novorossiisk(m: HexMap) -> None:
    """RULES-NOTES: "Whites: Ekaterinodar, Novorossiisk, and the Black Sea ports they hold with a
    ship present"."""
    towns = {(x.hex, x.town) for x in sources(m, "whites", "town")}
    assert towns == {(town_hex(m, "Ekaterinodar").id, "Ekaterinodar"), (town_hex(m, "Novorossiisk").id, "Novorossiisk")}
    assert not sources(m, "whites", "rail_exit")
    assert any("ports" in c for c in m.conditional_sources["whites"])


def test_makhnovists_supply_from_gulai_pole(m: HexMap) -> None:
    """RULES-NOTES: "Makhnovists: Gulai Pole while held, and depots they capture"."""
    mine = [x for x in m.supply_sources if x.faction == "makhnovists"]
    assert [(x.hex, x.kind, x.town, x.while_held) for x in mine] == [
        (town_hex(m, "Gulai Pole").id, "town", "Gulai Pole", True)
    ]
    assert any("depots" in c for c in m.conditional_sources["makhnovists"])


# --- the export's geometry -----------------------------------------------------------------


def test_every_hexside_joins_adjacent_land_hexes_in_the_stated_direction(m: HexMap) -> None:
    """Export: hexsides `[{hexes: [a, b], direction, ...}]`, `direction` the side of hex `a`."""
    grid, by_id = m.grid, m.by_id()
    assert m.hexsides
    for side in m.hexsides:
        a, b = side.hexes
        assert a < b
        ca, cb = grid.parse_id(a), grid.parse_id(b)
        assert ca is not None and cb is not None
        assert grid.direction(ca, cb) == side.direction
        assert SEA not in (by_id[a].terrain, by_id[b].terrain)
        assert side.river_class in ("major", "crossable") or (side.river is None and side.sea), side


def test_hexes_are_the_grid_cells_the_frame_cuts(m: HexMap) -> None:
    """The map is its frame filled with hexes, the outer ones cut by it (half hexes at the edges):
    the hexes are exactly the grid's cells that overlap the frame, and the frame is covered."""
    grid = m.grid
    frame = shapely.box(*m.frame_km)
    cells = [(c, r) for c in range(1, m.columns + 1) for r in range(1, m.rows + 1)]
    polygons = shapely.polygons(grid.corners(np.array([grid.centre(c, r) for c, r in cells])))
    overlap = shapely.area(shapely.intersection(polygons, frame))
    expected = {grid.hex_id(c, r) for (c, r), area in zip(cells, overlap, strict=True) if area > 1e-3}
    ids = [h.id for h in m.hexes]
    assert len(ids) == len(set(ids))
    assert set(ids) == expected
    covered = shapely.union_all(shapely.set_precision(polygons, 1e-6))
    assert shapely.area(shapely.difference(frame, covered)) < 1e-6 * shapely.area(frame)
    for h in m.hexes:
        assert h.id == m.grid.hex_id(h.col, h.row)
        assert 0.0 <= h.land_share <= 1.0


def test_hex_lat_lon_is_its_centre(m: HexMap) -> None:
    """Export: "`x_km`/`y_km` the projected centre, `lat`/`lon` the same point in WGS84": projected
    back with pyproj, lat/lon land within 1 m of the grid's centre of the hex."""
    grid = m.grid
    exact = np.array([grid.centre(h.col, h.row) for h in m.hexes])
    exported = np.array([[h.x_km, h.y_km] for h in m.hexes])
    lonlat = np.array([[h.lon, h.lat] for h in m.hexes])
    forward = pyproj.Transformer.from_crs("EPSG:4326", m.projection, always_xy=True)
    x, y = forward.transform(lonlat[:, 0], lonlat[:, 1])
    assert float(np.max(np.hypot(x - exact[:, 0], y - exact[:, 1]))) < 0.001
    assert float(np.max(np.abs(exported - exact))) <= 0.0005 + 1e-9


def test_projection_keeps_true_scale(s: Scenario, m: HexMap) -> None:
    """Issue 3: "a conformal conic fitted to the theatre": distances on the map are true to within
    half a percent across the whole theatre (Proskurov to Tsaritsyn, Kursk to Sevastopol)."""
    assert "+proj=lcc" in m.projection
    proj = projection(m.projection)
    for a, b in [("Proskurov", "Tsaritsyn"), ("Kursk", "Sevastopol"), ("Sochi", "Balashov"), ("Kiev", "Kharkov")]:
        (lon1, lat1), (lon2, lat2) = place(s, a), place(s, b)
        true_km = GEOD.inv(lon1, lat1, lon2, lat2)[2] / 1000
        xy = proj.forward(np.array([[lon1, lat1], [lon2, lat2]]))
        assert float(np.hypot(*(xy[0] - xy[1]))) == pytest.approx(true_km, rel=0.005), (a, b)


def test_no_town_is_moated_by_its_own_river(m: HexMap) -> None:
    """A town standing on a river is not an island: no town hex has one river on every side it
    shares with another land hex (a course drawn through the town itself crosses nothing)."""
    by_id = m.by_id()
    for h in m.hexes:
        if not h.towns:
            continue
        land = [n for n in neighbours(m.grid, h.id, set(by_id)) if by_id[n].terrain != SEA]
        for river in {side.river for side in m.hexsides if h.id in side.hexes and side.river}:
            parted = {
                side.hexes[0] if side.hexes[1] == h.id else side.hexes[1]
                for side in m.hexsides
                if side.river == river and h.id in side.hexes
            }
            assert len(land) < 2 or not parted >= set(land), (h.towns, river)
