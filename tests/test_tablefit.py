"""Table columns sized from their content (kitgen.render.tablefit): whatever the cells, the
columns fill the width given and never part a word, or the table is refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kitgen.render.fonts import SANS, register_fonts, text_width
from kitgen.render.tablefit import ROOM, Span, fit

WORDS = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789-.'", min_size=1, max_size=14)
CELLS = st.lists(WORDS, min_size=0, max_size=6).map(" ".join)


@settings(max_examples=150, deadline=None)
@given(
    st.integers(min_value=1, max_value=6).flatmap(
        lambda n: st.lists(st.lists(CELLS, min_size=n, max_size=n), min_size=1, max_size=8)
    ),
    st.floats(min_value=40, max_value=500),
)
def test_columns_fill_the_width_and_hold_every_word_or_the_table_is_refused(
    rows: list[list[str]], width: float
) -> None:
    register_fonts()
    size, pad = 7.5, 3.0
    widths = fit(rows, [SANS] * len(rows), size, pad, width)
    longest = [
        max((text_width(w, SANS, size) + ROOM for r in rows for w in r[c].split()), default=0.0)
        for c in range(len(rows[0]))
    ]  # each word with the room a line breaker's rounding needs
    if widths is None:
        assert sum(x + 2 * pad for x in longest) > width  # refused only when the words cannot fit
        return
    assert abs(sum(widths) - width) < 0.01
    for c, w in enumerate(widths):
        assert longest[c] + 2 * pad <= w + 0.01


def test_a_table_whose_lines_fit_gives_each_column_room_as_its_longest_line() -> None:
    register_fonts()
    rows = [["Town", "VP"], ["Ekaterinoslav", "3"]]
    widths = fit(rows, [SANS, SANS], 8, 2, 200)
    assert widths is not None
    lines = [text_width("Ekaterinoslav", SANS, 8) + ROOM + 4, text_width("VP", SANS, 8) + ROOM + 4]
    assert widths[0] / widths[1] == pytest.approx(lines[0] / lines[1])


def test_a_spanning_note_counts_in_no_single_column_but_must_fit_its_span() -> None:
    """'moves as Cavalry' runs across the terrain columns: it does not widen the first of them;
    a word too long for all the columns it spans refuses the table."""
    register_fonts()
    rows = [["Unit", "MP", "Open", "Marsh"], ["Tachankas", "moves as Cavalry", "", ""]]
    spans = [Span(1, 1, 3)]
    widths = fit(rows, [SANS, SANS], 8, 2, 150, spans)
    assert widths is not None and widths[1] < text_width("moves as Cavalry", SANS, 8)
    assert fit([["A", "B"], ["x", "Supercalifragilistic" * 3]], [SANS, SANS], 8, 2, 150, [Span(1, 1, 1)]) is None
