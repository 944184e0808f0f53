"""Issue 25, item 2: "Typographic quotes, en dashes for ranges": `wording.typographic`, the one
function the booklet, the cards and the aids set their words with."""

from __future__ import annotations

import pytest

from kitgen.render.wording import typographic


@pytest.mark.parametrize(
    ("typed", "printed"),
    [
        ("obeys on 1-4", "obeys on 1\u20134"),  # a range of figures: an en dash
        ("the campaign of 1919-1920", "the campaign of 1919\u20131920"),
        ("II.C.1-3", "II.C.1\u20133"),
        ("hexes 2111-2113", "hexes 2111\u20132113"),
        ("ruling of 2026-12-02", "ruling of 2026-12-02"),  # a date is no range
        ("a -1 modifier", "a -1 modifier"),  # a minus sign stays
        ("set-up", "set-up"),  # a hyphenated word stays
        ("Denikin's War", "Denikin\u2019s War"),  # an apostrophe
        ("the call of 'All against Kolchak!'", "the call of \u2018All against Kolchak!\u2019"),
        ('"Surrounded": every hex', "\u201cSurrounded\u201d: every hex"),
        ("the partisans' choice", "the partisans\u2019 choice"),
        ("Grigoriev&#x27;s men", "Grigoriev\u2019s men"),  # an escaped quote, curled
        ("A &amp; B", "A &amp; B"),  # other entities untouched
        ("<font name=\"Vera-Bold\">'Run'</font>", '<font name="Vera-Bold">\u2018Run\u2019</font>'),  # markup kept
        ("<b>Denikin</b>'s War", "<b>Denikin</b>\u2019s War"),  # curled by the text before the tag
        ('"<i>Run</i>"', "\u201c<i>Run</i>\u201d"),
    ],
)
def test_issue25_typographic(typed: str, printed: str) -> None:
    assert typographic(typed) == printed
