"""What a card, slip or commander card prints to be told apart ('Event 17', 'Red slip 7',
'Red commander 1'), in place of the id the logs and `kitgen state` use; and the umpire's key
from one to the other, a page of the set-up chart."""

from __future__ import annotations

from kitgen.model.scenario import Commander, Scenario
from kitgen.products.sheetparts import table_pages
from kitgen.render.sheet import Column, Page


def event_label(scenario: Scenario, card_id: str) -> str:
    """'Event 17': the card's place in the deck as the scenario lists it."""
    number = next(n for n, card in enumerate(scenario.cards.events, start=1) if card.id == card_id)
    return f"Event {number}"


def slip_label(scenario: Scenario, faction: str, slip_id: str) -> str:
    """'Red slip 7': the slip's place in its faction's pile."""
    pile = scenario.cards.piles[faction]
    number = next(n for n, slip in enumerate(pile, start=1) if slip.id == slip_id)
    return f"{_adjective(scenario, faction)} slip {number}"


def commander_label(scenario: Scenario, commander: Commander) -> str:
    """'Red commander 1': his rank (II.C.3)."""
    return f"{_adjective(scenario, commander.faction)} commander {scenario.rank(commander)}"


def _adjective(scenario: Scenario, faction: str) -> str:
    found = scenario.faction(faction)
    return found.adjective if found else faction


def key_rows(scenario: Scenario) -> list[list[str]]:
    """Printed reference, what it is, id: every event card and slip (a commander card needs no
    key: the logs name the commander)."""
    rows = [[event_label(scenario, c.id), c.title, c.id] for c in scenario.cards.events]
    for faction, pile in scenario.cards.piles.items():
        for slip in pile:
            what = "; ".join(u.name for u in slip.units) or "replacements"
            rows.append([slip_label(scenario, faction, slip.id), what, slip.id])
    return rows


KEY_COLUMNS = [Column(1.3), Column(4.0), Column(2.4)]
KEY_HEADER = ["Printed on the card", "Card", "Id in logs and state"]
KEY_HEADING = ("Event cards and slips", "II.A, II.E")


def key_pages(scenario: Scenario, paper: str, rows: list[list[str]] | None = None) -> list[Page]:
    """The umpire's key: the reference each card prints beside the id a log or `kitgen state`
    names; `rows`, the key's rows still to print (all of them by default)."""
    every = key_rows(scenario)
    rows = every if rows is None else rows
    if not rows:
        return []
    title = "Card key" if len(rows) == len(every) else "Card key, continued"
    return table_pages(scenario, paper, title, "card-key", None, KEY_HEADING, KEY_COLUMNS, KEY_HEADER, rows, wrap=True)
