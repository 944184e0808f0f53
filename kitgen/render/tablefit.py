"""Table columns sized from their content, as a browser sets an automatic table: each column as
wide as its longest line where the table fits, otherwise as wide as its longest word plus a
share of the room left, so that no word is ever broken inside a cell."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kitgen.render.fonts import text_width


@dataclass(frozen=True)
class Span:
    """A cell that runs across columns first..last of its row (a group title, a note)."""

    row: int
    first: int
    last: int


@dataclass(frozen=True)
class Measure:
    """A column's longest word and longest line, padding included."""

    word: float
    line: float


def measure(
    rows: Sequence[Sequence[str]],
    fonts: Sequence[str],
    size: float,
    pad: float,
    spans: Sequence[Span] = (),
) -> list[Measure]:
    """Each column's measure: `fonts` gives each row's font; a spanning cell counts in no
    single column (fit() checks it against its span)."""
    across = {(s.row, c) for s in spans for c in range(s.first, s.last + 1)}
    columns = len(rows[0])
    word = [2 * pad] * columns
    line = [2 * pad] * columns
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            if (r, c) in across or not text:
                continue
            word[c] = max(word[c], _longest_word(text, fonts[r], size) + 2 * pad)
            line[c] = max(line[c], text_width(text, fonts[r], size) + 2 * pad)
    return [Measure(w, max(w, x)) for w, x in zip(word, line, strict=True)]


def fit(
    rows: Sequence[Sequence[str]],
    fonts: Sequence[str],
    size: float,
    pad: float,
    width: float,
    spans: Sequence[Span] = (),
) -> list[float] | None:
    """Column widths filling `width`, or None where even the longest words do not fit."""
    cols = measure(rows, fonts, size, pad, spans)
    words = sum(c.word for c in cols)
    lines = sum(c.line for c in cols)
    if words > width + 0.01:
        return None
    if lines <= width:  # every cell on one line: the room left shared as the lines are long
        widths = [c.line * width / lines for c in cols]
    else:  # the words fit: what is left goes to the columns that would wrap, as they would
        slack = lines - words
        widths = [c.word + (width - words) * (c.line - c.word) / slack for c in cols]
    for s in spans:
        room = sum(widths[s.first : s.last + 1]) - 2 * pad
        text = rows[s.row][s.first]
        if _longest_word(text, fonts[s.row], size) > room + 0.01:
            return None
    return widths


ROOM = 0.5
"""Points given each word beyond its measured width: a cell exactly as wide as its word would
have the line breaker, rounding, break the word ('M' over 'P')."""


def _longest_word(text: str, font: str, size: float) -> float:
    return max((text_width(w, font, size) + ROOM for w in text.split()), default=0.0)
