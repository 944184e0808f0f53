"""Town positions and the 1919 railway net: what any atlas of 1919 would confirm."""

from __future__ import annotations

import math
from collections import deque
from pathlib import Path

import pytest

from kitgen.errors import KitgenError
from kitgen.loader import load_scenario
from kitgen.model.scenario import Scenario, name_key
from tests.conftest import edit


def where(s: Scenario, name: str) -> tuple[float, float]:
    town = s.find_town(name)
    if town is not None:
        return town.lat, town.lon
    point = next(p for p in s.railways.points if name_key(p.name) == name_key(name))
    return point.lat, point.lon


def km(a: tuple[float, float], b: tuple[float, float]) -> float:
    (lat1, lon1), (lat2, lon2) = (tuple(map(math.radians, x)) for x in (a, b))
    h = math.sin((lat2 - lat1) / 2) ** 2 + math.cos(lat1) * math.cos(lat2) * math.sin((lon2 - lon1) / 2) ** 2
    return 2 * 6371 * math.asin(math.sqrt(h))


def rail_graph(s: Scenario) -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for line in s.railways.lines:
        keys = [name_key(st) for st in line.stations]
        for a, b in zip(keys, keys[1:], strict=False):
            graph.setdefault(a, set()).add(b)
            graph.setdefault(b, set()).add(a)
    return graph


def connected(s: Scenario, a: str, b: str) -> bool:
    graph, start, goal = rail_graph(s), name_key(a), name_key(b)
    seen, queue = {start}, deque([start])
    while queue:
        node = queue.popleft()
        if node == goal:
            return True
        for nxt in graph.get(node, ()):
            if nxt not in seen:
                seen.add(nxt)
                queue.append(nxt)
    return False


def test_every_town_lies_in_the_theatre(scenario: Scenario) -> None:
    for town in scenario.towns:
        assert 43 <= town.lat <= 53 and 26 <= town.lon <= 46, town.name


def test_kiev_is_west_of_kharkov_and_north_of_odessa(scenario: Scenario) -> None:
    assert where(scenario, "Kiev")[1] < where(scenario, "Kharkov")[1]
    assert where(scenario, "Kiev")[0] > where(scenario, "Odessa")[0]


def test_sevastopol_is_in_the_south_west_of_the_crimea(scenario: Scenario) -> None:
    sev, simf, kerch = where(scenario, "Sevastopol"), where(scenario, "Simferopol"), where(scenario, "Kerch")
    assert sev[0] < simf[0] and sev[1] < simf[1] < kerch[1]


def test_tsaritsyn_is_the_easternmost_railway_town(scenario: Scenario) -> None:
    on_rail = {k for k in rail_graph(scenario)}
    towns = [t for t in scenario.towns if name_key(t.name) in on_rail]
    assert max(towns, key=lambda t: t.lon).name == "Tsaritsyn"


def test_ports_are_the_sea_harbours(scenario: Scenario) -> None:
    ports = sorted(t.name for t in scenario.towns if t.port)
    assert ports == sorted(
        [
            "Odessa",
            "Nikolaev",
            "Kherson",
            "Sevastopol",
            "Kerch",
            "Mariupol",
            "Taganrog",
            "Rostov",
            "Novorossiisk",
            "Tuapse",
            "Sochi",
        ]
    )


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Kiev", "Proskurov"),
        ("Kazatin", "Shepetovka"),
        ("Kiev", "Korosten"),
        ("Kiev", "Kharkov"),
        ("Kharkov", "Kursk"),
        ("Kursk", "Voronezh"),
        ("Voronezh", "Rostov"),
        ("Kharkov", "Valuyki"),
        ("Kharkov", "Ekaterinoslav"),
        ("Lugansk", "Mariupol"),
        ("Rostov", "Taganrog"),
        ("Ekaterinoslav", "Sevastopol"),
        ("Dzhankoy", "Kerch"),
        ("Odessa", "Zhmerinka"),
        ("Odessa", "Nikolaev"),
        ("Nikolaev", "Kherson"),
        ("Kirovograd", "Kremenchug"),
        ("Rostov", "Novorossiisk"),
        ("Tikhoretskaia", "Tsaritsyn"),
        ("Rostov", "Pyatigorsk"),
        ("Tsaritsyn", "Morozovsk"),
        ("Tsaritsyn", "Balashov"),
        ("Borisoglebsk", "Voronezh"),
        ("Uman", "Kiev"),
        ("Cherkassy", "Kiev"),
        ("Sumy", "Kharkov"),
        ("Chernigov", "Kiev"),
    ],
)
def test_rail_connects(scenario: Scenario, a: str, b: str) -> None:
    """Issue 3 names these links of the 1919 net."""
    assert connected(scenario, a, b)


def test_towns_without_a_railway_in_1919(scenario: Scenario) -> None:
    """Elista had no railway in 1919; the Tuapse-Sochi coast line came in the 1920s."""
    graph = rail_graph(scenario)
    for name in ("Elista", "Sochi"):
        assert name_key(name) not in graph


def test_consecutive_stations_are_close(scenario: Scenario) -> None:
    """Lines follow their real route: no hop between stations longer than 150 km."""
    for line in scenario.railways.lines:
        for a, b in zip(line.stations, line.stations[1:], strict=False):
            assert km(where(scenario, a), where(scenario, b)) < 150, (line.name, a, b)


def test_no_rail_bridge_over_the_volga_in_1919(scenario: Scenario) -> None:
    rivers = {b.river for line in scenario.railways.lines for b in line.bridges}
    assert "Volga" not in rivers
    assert {"Dnieper", "Don"} <= rivers


def test_unknown_station_is_an_error(scenario_copy: Path) -> None:
    line = edit(scenario_copy / "railways.yaml", "stations: [Berdichev, Zhitomir]", "stations: [Berdichev, Zhitomyrr]")
    with pytest.raises(KitgenError) as exc:
        load_scenario(scenario_copy)
    (problem,) = exc.value.problems
    assert (problem.line, problem.code) == (line, "check.unknown_station")
    assert "'Zhitomyrr'" in problem.message and "did you mean 'Zhytomyr' or 'Zhitomir'?" in problem.message


def test_bridge_between_stations_that_are_not_consecutive(scenario_copy: Path) -> None:
    edit(
        scenario_copy / "railways.yaml",
        "{river: Southern Bug, between: [Vinnitsa, Zhmerinka]}",
        "{river: Southern Bug, between: [Kiev, Zhmerinka]}",
    )
    with pytest.raises(KitgenError) as exc:
        load_scenario(scenario_copy)
    (problem,) = exc.value.problems
    assert problem.code == "check.bridge_not_consecutive"
    assert "between Kiev and Zhmerinka, which are not consecutive stations of this line" in problem.message


def test_town_position_out_of_range_is_an_error(scenario_copy: Path) -> None:
    edit(scenario_copy / "towns.yaml", "{name: Fastov, lat: 50.08,", "{name: Fastov, lat: 150.08,")
    with pytest.raises(KitgenError) as exc:
        load_scenario(scenario_copy)
    (problem,) = exc.value.problems
    assert problem.message == "towns[6].lat: found 150.08, expected at most 90 (the rule's range is -90 to 90)"
