"""The bundled scenario's forces and charts (issue 4, item 2): setup.yaml and cards.yaml.

The seed names these charts but does not give them; the checks here hold the data to the
clauses that bound them."""

from __future__ import annotations

from collections import Counter

from kitgen.loader import load_scenario_map
from kitgen.mapping.places import place_hexes
from kitgen.model.scenario import Scenario, name_key

FACTIONS = ("reds", "whites", "ukrainians", "makhnovists")


def test_every_faction_starts_with_units(scenario: Scenario) -> None:
    """Issue 4: an order of battle for the AFSR, the Red fronts, Petliura's army and Makhno."""
    counts = Counter(u.faction for u in scenario.setup.units)
    assert all(counts[f] > 0 for f in FACTIONS), counts
    assert counts["reds"] > counts["ukrainians"] and counts["whites"] > counts["makhnovists"]


def test_II_D4_makhnovists_start_with_no_artillery(scenario: Scenario) -> None:
    """II.D.4: "the Maliknovists [Makhnovists] may never have more than 3 total artillery
    batteries at any one time. They start with none so will have to capture some to get any."
    Nor does their strength chart hand them any."""
    for unit in scenario.setup.units:
        if unit.faction == "makhnovists":
            assert "artillery" not in unit.stands and unit.type != "artillery", unit.id
    for row in scenario.cards.makhnovist_strength:
        for spec in row.units:
            assert "artillery" not in spec.stands and spec.type != "artillery", row.text


def test_every_town_has_a_first_owner(scenario: Scenario) -> None:
    """RULES-NOTES: "Towns belong to the last faction to occupy them alone ... the scenario sets
    the first owners."""
    assert set(scenario.setup.owners) == {t.name for t in scenario.towns}
    assert scenario.setup.owners["Gulai Pole"] == "makhnovists"


def test_commanders_lead_their_own_faction_once(scenario: Scenario) -> None:
    """II.C: each commander is one man, with units of his own faction."""
    placed = [u.commander for u in scenario.setup.units if u.commander]
    assert len({name_key(c) for c in placed}) == len(placed)
    for unit in scenario.setup.units:
        if unit.commander:
            commander = scenario.find_commander(unit.commander)
            assert commander is not None and commander.faction == unit.faction, unit.id
    names = {scenario.find_commander(c).name for c in placed}  # type: ignore[union-attr]
    # the faction leaders and the army commanders of spring 1919 stand with their troops
    assert {"Trotsky", "Denikin", "Petliura", "Makhno", "Wrangel", "Mai-Maevsky", "Sidorin"} <= names


def test_everything_of_the_set_up_stands_on_the_map(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("KITGEN_CACHE", str(tmp_path))
    s, m = load_scenario_map()
    on_map = place_hexes(s, m)
    for item in [*s.setup.units, *s.setup.trains, *s.setup.ships, *s.setup.depots]:
        assert name_key(item.at) in on_map, item


def test_II_A_event_deck_holds_at_least_36_cards(scenario: Scenario) -> None:
    """Issue 4: "the event deck (at least 36 events of 1919-1920)"; II.A draws one on a 6."""
    assert len(scenario.cards.events) >= 36
    umpire_only = [c for c in scenario.cards.events if all(e.kind == "umpire" for e in c.effects)]
    assert len(umpire_only) * 4 < len(scenario.cards.events)


def test_II_E1_each_faction_has_its_own_pile(scenario: Scenario) -> None:
    """II.E.1: "Each faction has their own chart and their own pile." (The Makhnovists roll on
    their Current Strength Chart instead, E.6.)"""
    assert {"reds", "whites", "ukrainians"} <= set(scenario.cards.piles)
    assert all(scenario.cards.piles[f] for f in ("reds", "whites", "ukrainians"))


def test_II_E_slips_go_back_unless_they_say_otherwise(scenario: Scenario) -> None:
    """II.E: "Each time a slip is drawn from the pile, it is then thrown back into the pile when
    recorded unless specifically stated not to be on the slip itself." Most slips go back; the
    ones that do not say so in their text."""
    slips = [s for pile in scenario.cards.piles.values() for s in pile]
    assert sum(s.returns_to_pile for s in slips) > len(slips) / 2


def test_E6_strength_chart_covers_every_modified_roll(scenario: Scenario) -> None:
    """E.6: "Every 3rd turn simply roll on their Current Strength Chart ... Modifiers: -1 if they
    do not hold Gulai Pole, -2 if Makhno is dead": a D6 so modified runs from 1 - 3 = -2 to 6,
    and every total has exactly one row."""
    covered = Counter(r for row in scenario.cards.makhnovist_strength for r in range(row.low, row.high + 1))
    assert all(covered[r] == 1 for r in range(-2, 7)), covered
