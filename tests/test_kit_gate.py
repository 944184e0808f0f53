"""Issue 25, item 1: "The gate runs over every page of both kits, A4 and Letter": the introductory
scenario's booklets, player aids, blank forms and set-up chart (the bundled scenario's are gated
beside their own tests; both scenarios' cards, counters and map in theirs)."""

from __future__ import annotations

import pytest

from kitgen.loader import load_scenario_map
from kitgen.mapping.places import place_hexes
from kitgen.render.pages import Part
from tests.layoutgate import assert_passes


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_issue25_the_introductory_kits_printed_pages_pass_the_layout_gate(paper: str) -> None:
    from kitgen.products.booklet import build_booklet
    from kitgen.products.forms import build_forms
    from kitgen.products.playeraids import build_charts
    from kitgen.products.setupchart import build_setup_chart

    scenario, board = load_scenario_map("tsaritsyn-1919")
    hexes = place_hexes(scenario, board)
    parts: list[Part] = [
        *build_booklet(scenario, hexes, paper),
        *build_charts(scenario, paper),
        *build_forms(scenario, paper),
        *build_setup_chart(scenario, hexes, paper),
    ]
    assert len(parts) >= 5
    for part in parts:
        assert_passes(part.pdf, name=f"tsaritsyn-1919 {part.file}")
