"""The small words of printed rules text: die faces, lists, signed modifiers."""

from __future__ import annotations

import re
from collections.abc import Sequence

DASH = "\u2013"
MINUS = "\u2212"


def upto(n: int) -> str:
    """The faces 1 to n of a die: '1' or '1-4'."""
    return "1" if n == 1 else f"1{DASH}{n}"


def either(items: Sequence[str], word: str = "or") -> str:
    """'a, b or c'."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def signed(value: int) -> str:
    """'+1', '\u22122': a modifier with its sign."""
    return f"+{value}" if value >= 0 else f"{MINUS}{-value}"


_TAG = re.compile(r"(<[^>]*>)")
_RANGE = re.compile(r"(?<![\d-])(\d+)-(\d+)(?![-\d])")
"""Two figures joined by one hyphen, and no third: 1-4 and 1919-1920, not a date (2026-12-02)."""
_OPENS_AFTER = " \t\n([{\u2013\u2014/"
_ENTITIES = (("&#x27;", "'"), ("&#39;", "'"), ("&apos;", "'"), ("&quot;", '"'), ("&#x22;", '"'), ("&#34;", '"'))


def typographic(text: str) -> str:
    """Printed text as a typesetter sets it: curly quotes and apostrophes, and an en dash between
    the two ends of a range of figures (1-6, 1919-1920, 2111-2113; a date keeps its hyphens);
    markup (`<b>`, `<font name="...">`) is left as it is, and a quote after it is curled by the
    text before it (`<b>Denikin</b>'s`)."""
    out, before = [], " "
    for part in _TAG.split(text):
        if part.startswith("<"):
            out.append(part)
            continue
        for entity, quote in _ENTITIES:  # escaped quotes as quotes: a curly one needs no escape
            part = part.replace(entity, quote)
        done = _curl(_RANGE.sub(_EN_DASH, part), before)
        out.append(done)
        before = done[-1] if done else before
    return "".join(out)


_EN_DASH = "\\1\u2013\\2"
_STRAIGHT = re.compile("[\"'-]")


def curled(text: str) -> str:
    """Plain text (no markup) as `typographic` sets it; the same string when there is nothing to set."""
    return _curl(_RANGE.sub(_EN_DASH, text), " ") if _STRAIGHT.search(text) else text


def _curl(text: str, start: str) -> str:
    """Straight quotes curled by what stands before them (`start` before the first character)."""
    out = []
    for k, ch in enumerate(text):
        before = text[k - 1] if k else start
        opening = before in _OPENS_AFTER
        if ch == '"':
            out.append("\u201c" if opening else "\u201d")
        elif ch == "'":
            out.append("\u2018" if opening and k + 1 < len(text) and not text[k + 1].isspace() else "\u2019")
        else:
            out.append(ch)
    return "".join(out)
