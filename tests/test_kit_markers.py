"""The marker sheet (kitgen/products/markers.py): issue 14's "A marker sheet holds everything the
forms and rules ask to mark, with duplex backs where a marker flips"."""

from __future__ import annotations

import io
from collections import Counter as Tally
from typing import Any

import pypdf
import pytest
from hypothesis import given
from hypothesis import strategies as st

from kitgen.model.scenario import Scenario
from kitgen.products.counters import build_counters, counter_sheets, counters_of
from kitgen.products.markers import fill_rows
from kitgen.render.fonts import SANS_BOLD, text_width
from kitgen.render.markerart import MarkerGroup, MarkerSheets


@pytest.fixture(scope="module")
def sheets(scenario: Scenario) -> MarkerSheets:
    return counter_sheets(scenario, "a4")[1]


def group(sheets: MarkerSheets, title: str) -> MarkerGroup:
    return next(g for g in sheets.groups if g.title == title)


def by_faction(g: MarkerGroup) -> Tally[str | None]:
    return Tally(m.faction for m in g.markers)


def test_B7_a_depot_marker_for_every_depot_and_its_back_is_the_depot_cut_off(
    scenario: Scenario, sheets: MarkerSheets
) -> None:
    """B.7: "If a depot is cut off from supply lines, first turn it is utilized for resupply roll a
    D6 and on a 1 emptied": each faction has a marker for each of its depots and more for those it
    captures; turned over, a depot marker is the depot cut off."""
    g = group(sheets, "Supply depots")
    own = Tally(d.faction for d in scenario.setup.depots)
    count = by_faction(g)
    for faction, n in own.items():
        assert count[faction] > n
    for m in g.markers:
        assert m.front.caption == "Depot" and m.back.caption == "Cut off" and m.back.reverse
        assert "D6 1" in m.back.note


def test_C2_wrecked_track_markers_for_the_track_wrecked_at_the_start_and_more(
    scenario: Scenario, sheets: MarkerSheets
) -> None:
    """C.2: "To destroy a hex of track, an infantry or cavalry unit of at least 3 stands must enter
    that hex"; the scenario starts with track wrecked."""
    g = group(sheets, "Wrecked track")
    assert len(scenario.setup.destroyed_track) >= 1
    assert len(g.markers) > len(scenario.setup.destroyed_track)
    assert all(m.faction is None and m.front == m.back for m in g.markers)


def test_A1_a_pontoon_bridge_marker_for_every_pontoon_unit(scenario: Scenario, sheets: MarkerSheets) -> None:
    """A.1: "Major river hexsides must be crossed at bridge points on map or with pontoons":
    one bridge marker for each pontoon unit of the kit, of its faction."""
    pontoons = Tally(c.faction for c in counters_of(scenario) if c.symbol == "pontoon")
    assert pontoons
    assert by_faction(group(sheets, "Pontoon bridges")) == pontoons


def test_B8_an_out_of_fuel_marker_for_every_vehicle_unit_abandoned_on_its_back(
    scenario: Scenario, sheets: MarkerSheets
) -> None:
    """B.8: "Vehicles burn up fuel. If they start turn OUT OF SUPPLY they only get 1 turn of
    strategic map movement then immobilized. It will then be abandoned.": a marker for every unit
    with armoured cars or tanks, abandoned on its back."""
    vehicles = set(scenario.supply.fuel.vehicles)
    assert vehicles == {"armoured_car", "tank"}  # B.8 names vehicles; the seed's are armored cars and tanks
    expected: Tally[str | None] = Tally(u.faction for u in scenario.setup.units if vehicles & set(u.stands))
    for faction, slips in scenario.cards.piles.items():
        expected[faction] += sum(1 for slip in slips for u in slip.units if vehicles & set(u.stands))
    for card in scenario.cards.events:
        for e in card.effects:
            if e.kind == "units" and e.faction:
                expected[e.faction] += sum(1 for u in e.units if vehicles & set(u.stands))
    chart = {(u.name, tuple(u.stands.items())): u for row in scenario.cards.makhnovist_strength for u in row.units}
    expected[scenario.victory.makhnovist_strength.faction] += sum(1 for u in chart.values() if vehicles & set(u.stands))
    g = group(sheets, "Vehicles out of fuel")
    assert by_faction(g) == +expected
    assert all(m.back.caption == "Abandoned" and m.back.reverse for m in g.markers)


def test_E2_a_vp_marker_for_every_faction_that_scores_and_one_game_turn_marker(
    scenario: Scenario, sheets: MarkerSheets
) -> None:
    """E.2: towns score VP every 3rd turn: a VP marker for each scoring faction (its back one lap
    of the VP track further) and one game-turn marker."""
    from kitgen.render.formstyle import form_style

    g = group(sheets, "Game turn and victory points")
    lap = form_style().forms.vp_track_max + 1
    scoring = [f.id for f in scenario.meta.factions if f.scores_vp]
    assert [m.faction for m in g.markers] == [None, *scoring]
    assert g.markers[0].front.caption == "Game turn"
    for m in g.markers[1:]:
        assert m.front.glyph == "VP" and m.back.glyph == f"+{lap}"


def test_II_C4_command_markers_shared_as_the_commanders_and_flipping_to_minus_two(
    scenario: Scenario, sheets: MarkerSheets
) -> None:
    """II.C.4 (RULES-NOTES: "After a failure the next roll of that commander is 1 lower, and again
    1 lower after each further failure"): -1 markers turning to -2, every faction with some, a
    faction with more commanders with at least as many."""
    g = group(sheets, "Command failures")
    count = by_faction(g)
    commanders = Tally(c.faction for c in scenario.commanders)
    assert set(count) == {f.id for f in scenario.meta.factions}
    ranked = sorted(commanders, key=lambda f: -commanders[f])
    assert [count[f] for f in ranked] == sorted((count[f] for f in ranked), reverse=True)
    assert all(m.front.glyph == "\u22121" and m.back.glyph == "\u22122" for m in g.markers)


def test_town_control_markers_for_every_town_held_at_the_start_and_more(
    scenario: Scenario, sheets: MarkerSheets
) -> None:
    """RULES-NOTES: "Towns belong to the last faction to occupy them alone ... the scenario sets
    the first owners", and the map is printed clean: each faction has a control marker for every
    town it holds at the start and more for towns it takes, in whole rows."""
    g = group(sheets, "Town control")
    held = Tally(owner for owner in scenario.setup.owners.values() if owner != "none")
    count = by_faction(g)
    assert held["reds"] > 40  # the Red Ukrainian Front holds most of right-bank Ukraine in May 1919
    for f in scenario.meta.factions:
        assert count[f.id] > held[f.id], f.id
    assert len(g.markers) % sheets.layout.grid.columns == 0


def test_the_marker_sheet_prints_fronts_then_mirrored_backs(scenario: Scenario) -> None:
    """Printed double-sided and flipped on the long edge, each marker's back lands behind its
    front: on the back page a depot's 'Cut off' is centred where the front's 'Depot' is, mirrored
    across the page."""
    (part,) = build_counters(scenario, "a4")
    pages = pypdf.PdfReader(io.BytesIO(part.pdf)).pages
    first = next(i for i in range(0, len(pages), 2) if "Depot" in pages[i].extract_text())  # a front
    width = float(pages[first].mediabox.width)

    def centres(page: pypdf.PageObject, word: str) -> list[float]:
        found: list[float] = []

        def visit(text: str, cm: Any, tm: Any, font: Any, fs: Any) -> None:
            if text.strip() == word:
                found.append(round(tm[4] + text_width(word, SANS_BOLD, float(fs)) / 2, 1))

        page.extract_text(visitor_text=visit)
        return sorted(found)

    fronts = centres(pages[first], "Depot")
    backs = centres(pages[first + 1], "Cut off")
    assert fronts and len(fronts) == len(backs)
    assert sorted(round(width - x, 1) for x in fronts) == pytest.approx(backs, abs=0.3)


@given(
    least=st.lists(st.integers(min_value=0, max_value=30), min_size=1, max_size=5),
    weights=st.lists(st.integers(min_value=0, max_value=30), min_size=5, max_size=5),
    columns=st.integers(min_value=1, max_value=14),
    rows=st.integers(min_value=0, max_value=4),
)
def test_fill_rows_keeps_every_minimum_and_fills_whole_rows(
    least: list[int], weights: list[int], columns: int, rows: int
) -> None:
    keys = [f"f{k}" for k in range(len(least))]
    weigh = dict(zip(keys, weights, strict=False))
    got = fill_rows(dict(zip(keys, least, strict=True)), weigh, columns, rows)
    assert list(got) == keys
    assert all(got[k] >= n for k, n in zip(keys, least, strict=True))
    total = sum(got.values())
    assert total % columns == 0 and total >= rows * columns
    assert total - sum(least) < columns or total == rows * columns  # no row more than needed
    extra = {k: got[k] - n for k, n in zip(keys, least, strict=True)}
    if sum(weigh.values()) > 0:  # the extra go by weight: none to a weightless key, shares within one
        share = {k: (total - sum(least)) * weigh[k] / sum(weigh.values()) for k in keys}
        assert all(abs(extra[k] - share[k]) < 1 for k in keys)
    else:
        assert max(extra.values()) - min(extra.values()) <= 1
