"""Every number of the seed's tables, read from the scanned text, against the data files."""

from __future__ import annotations

import pytest

from kitgen.model.scenario import Scenario
from kitgen.rules.movement import unit_type
from tests import seed_text
from tests.conftest import SPELLED

UNIT_ROWS = {
    "Infantry": "infantry",
    "Cavalry": "cavalry",
    "Artillery": "artillery",
    "Armored Cars": "armoured_car",
    "Tanks": "tank",
    "Pontoon Units": "pontoon",
    "RR Trains": "rr_train",
}


def test_vendored_seed_is_the_shared_seed() -> None:
    """tests/seed holds the seed as given; where shared/ stands beside the checkout, they agree."""
    if not seed_text.SHARED_SEED.is_file():
        pytest.skip("no shared/ folder beside this checkout")
    assert seed_text.SEED.read_bytes() == seed_text.SHARED_SEED.read_bytes()


def test_A_table_every_cell(scenario: Scenario) -> None:
    """A. Map Movement: 'Unit Type MP Open Forest Mountain Marsh Crossable River' - every cell."""
    table = seed_text.movement_table()
    assert set(table) == set(UNIT_ROWS)
    terrain = ["open", "forest", "mountain", "marsh"]
    assert [t.id for t in scenario.movement.terrain] == terrain
    for row_name, cells in table.items():
        unit = unit_type(scenario.movement, UNIT_ROWS[row_name])
        assert unit.name == SPELLED.get(row_name, row_name)  # the seed's name, in the kit's one spelling
        assert unit.mp == int(cells[0]), row_name
        if row_name == "RR Trains":
            assert all(c == "must be on RR track" for c in cells[1:])
            assert unit.rail_only
            continue
        for t, cell in zip(terrain, cells[1:5], strict=True):
            expected = cell if cell == "p*" else int(cell)
            assert unit.cost is not None and unit.cost[t] == expected, (row_name, t)
        river = cells[5]
        assert unit.crossable_river == (river if river == "p*" else int(river.lstrip("+"))), row_name


def test_E_vp_table_has_73_towns_in_seed_order(scenario: Scenario) -> None:
    """CITY/TOWN VP'S: the seed lists 73 towns (37 in the left column, 36 in the right)."""
    rows = seed_text.vp_table()
    assert len(rows) == 73
    assert len(scenario.towns) == 73
    for (seed_name, *_), town in zip(rows, scenario.towns, strict=True):
        display = seed_text.TOWN_SPELLING.get(seed_name, seed_name)
        assert seed_name in town.names(), seed_name
        if seed_name in seed_text.TOWN_SPELLING:
            assert town.name == display and town.seed_name == seed_name


@pytest.mark.parametrize("row", range(73))
def test_E_vp_table_row(scenario: Scenario, row: int) -> None:
    """CITY/TOWN VP'S: each town's Red, White and Ukrn values; '-' (no VP) is not 0."""
    seed_name, red, white, ukrn = seed_text.vp_table()[row]
    town = scenario.towns[row]
    expected = {"reds": red, "whites": white, "ukrainians": ukrn}
    for faction, cell in expected.items():
        assert town.vp[faction] == (None if cell == "-" else int(cell)), (seed_name, faction)


def test_E_vp_table_keeps_dash_and_zero_apart(scenario: Scenario) -> None:
    """Rostov-na-donu and Stavropol are worth 0 to the Ukrainians; Kursk is '-' (no VP)."""
    assert scenario.find_town("Rostov-na-donu").vp["ukrainians"] == 0  # type: ignore[union-attr]
    assert scenario.find_town("Stavropol").vp["ukrainians"] == 0  # type: ignore[union-attr]
    assert scenario.find_town("Kursk").vp["ukrainians"] is None  # type: ignore[union-attr]


def test_II_C_commander_table_counts(scenario: Scenario) -> None:
    """The Commanders: 26 Reds, 22 Whites, 7 Ukrainians, 4 Makhnovists."""
    seed = seed_text.commander_table()
    counts = {f: sum(1 for c in seed if c[0] == f) for f in ("reds", "whites", "ukrainians", "makhnovists")}
    assert counts == {"reds": 26, "whites": 22, "ukrainians": 7, "makhnovists": 4}
    data = {f: sum(1 for c in scenario.commanders if c.faction == f) for f in counts}
    assert data == counts


@pytest.mark.parametrize("row", range(59))
def test_II_C_commander_row(scenario: Scenario, row: int) -> None:
    """'Number=Dependability C = Charismatic': each commander's faction, rating and mark."""
    faction, seed_name, dependability, charismatic = seed_text.commander_table()[row]
    commander = scenario.find_commander(seed_name)
    assert commander is not None, seed_name
    assert commander.name == seed_text.COMMANDER_SPELLING.get(seed_name, seed_name)
    assert (commander.faction, commander.dependability, commander.charismatic) == (faction, dependability, charismatic)


def test_II_C_rank_follows_the_seed_order(scenario: Scenario) -> None:
    """RULES-NOTES: rank by default is the order of the seed's table (Trotsky, Denikin, Petliura, Makhno first)."""
    seed = seed_text.commander_table()
    for faction in ("reds", "whites", "ukrainians", "makhnovists"):
        names = [seed_text.COMMANDER_SPELLING.get(n, n) for f, n, _, _ in seed if f == faction]
        by_rank = sorted((c for c in scenario.commanders if c.faction == faction), key=scenario.rank)
        assert [c.name for c in by_rank] == names
    assert [
        scenario.find_commander(n) and scenario.rank(scenario.find_commander(n))
        for n in ("Trotsky", "Denikin", "Petliura", "Makhno")
    ] == [1, 1, 1, 1]  # type: ignore[arg-type]


def test_II_E2_reinforcement_chart_every_cell(scenario: Scenario) -> None:
    """II.E.2 'Roll a D6': draws for REDS, WHITES and UKRAINIANS on each face."""
    seed = seed_text.reinforcement_chart()
    assert seed == {"reds": [3, 4, 4, 5, 5, 7], "whites": [1, 2, 2, 3, 3, 4], "ukrainians": [1, 1, 2, 2, 2, 3]}
    assert scenario.victory.reinforcement_chart.roll == "D6"
    assert scenario.victory.reinforcement_chart.draws == seed
