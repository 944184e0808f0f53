"""The history holds up (issue 15): the event deck against the scenario's start, the sources
named in the data, and the 1919 names of towns.

A card dated before the start may stay in the deck only as an event whose consequences are still
playing out, and then it says so on the card. Every set-up unit and every card names its source.
"""

from __future__ import annotations

import io

import pypdf
import pytest

from kitgen.loader import load_scenario
from kitgen.model.scenario import Scenario

BUNDLED = ("denikin-1919", "tsaritsyn-1919")


def day(date: str) -> tuple[int, int, int]:
    """'1919-05-07' -> (1919, 5, 7); a month alone counts from its first day, so an event of
    the start's own month must be dated to the day to stand after the start."""
    parts = [int(p) for p in date.split("-")]
    return (parts[0], parts[1], parts[2] if len(parts) == 3 else 1)


@pytest.mark.parametrize("name", BUNDLED)
def test_no_card_describes_an_event_before_the_start_unless_it_is_under_way(name: str) -> None:
    """Issue 15: "A test checks that no card describes an event before the scenario's start date
    unless the card says it is a consequence still playing out"."""
    s = load_scenario(name)
    assert s.setup.start, "the set-up names the day it starts"
    start = day(s.setup.start)
    for card in s.cards.events:
        assert card.date, f"{card.id}: no date"
        if day(card.date) < start:
            assert card.under_way, f"{card.id} ({card.date}) is before the start ({s.setup.start})"


def test_an_under_way_card_says_so_on_the_card(scenario: Scenario) -> None:
    """The printed card of an event begun before the start says its consequences play out now."""
    from kitgen.products.cards import UNDER_WAY, build_cards

    (part,) = build_cards(scenario, "a4")
    text = " ".join(" ".join(p.extract_text().split()) for p in pypdf.PdfReader(io.BytesIO(part.pdf)).pages)
    under_way = [c for c in scenario.cards.events if c.under_way]
    assert text.count(UNDER_WAY) == len(under_way)


@pytest.mark.parametrize("name", BUNDLED)
def test_every_setup_unit_and_every_card_names_its_source(name: str) -> None:
    """Issue 15: "Every set-up unit and every card names its source in the data"."""
    s = load_scenario(name)
    assert [u.id for u in s.setup.units if not s.setup.unit_sources.get(u.id)] == []
    assert [c.id for c in s.cards.events if not c.sources] == []
    assert [slip.id for slips in s.cards.piles.values() for slip in slips if not slip.sources] == []


def test_the_1919_names_of_towns_renamed_later() -> None:
    """Issue 15: "1919 names missing from the towns' aliases: Shakhty was Aleksandrovsk-Grushevsky
    until 1920; Morozovsk was the stanitsa and station Morozovskaya; Makeevka's works town was
    Dmitrievsk". The map and cards print the 1919 name (RULES-NOTES), and look-ups take it."""
    s = load_scenario("denikin-1919")
    towns = {t.name: t for t in s.towns}
    assert towns["Shakhty"].name_1919 == "Aleksandrovsk-Grushevsky"
    assert towns["Morozovsk"].name_1919 == "Morozovskaya"
    assert "Dmitrievsk" in towns["Makeevka"].aliases
    for alias, town in (
        ("Aleksandrovsk-Grushevsky", "Shakhty"),
        ("Morozovskaya", "Morozovsk"),
        ("Dmitrievsk", "Makeevka"),
    ):
        found = s.find_town(alias)
        assert found is not None and found.name == town, alias
