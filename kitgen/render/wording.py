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
_RANGE = re.compile(r"(?<=\d)-(?=\d)")
_OPENS_AFTER = " \t\n([{\u2013\u2014/"


def typographic(text: str) -> str:
    """Printed text as a typesetter sets it: curly quotes and apostrophes, and an en dash between
    the two ends of a range of figures (1-6, 1919-1920, 2111-2113); markup (`<b>`, `<font
    name="...">`) is left as it is."""
    return "".join(
        part if part.startswith("<") else _curl(_RANGE.sub("\u2013", _unquote(part))) for part in _TAG.split(text)
    )


def _unquote(text: str) -> str:
    """Markup's escaped quotes as quotes, to be curled (a curly quote needs no escape)."""
    for entity, quote in (
        ("&#x27;", "'"),
        ("&#39;", "'"),
        ("&apos;", "'"),
        ("&quot;", '"'),
        ("&#x22;", '"'),
        ("&#34;", '"'),
    ):
        text = text.replace(entity, quote)
    return text


def _curl(text: str) -> str:
    out = []
    for k, ch in enumerate(text):
        before = text[k - 1] if k else " "
        opening = before in _OPENS_AFTER
        if ch == '"':
            out.append("\u201c" if opening else "\u201d")
        elif ch == "'":
            out.append("\u2018" if opening and k + 1 < len(text) and not text[k + 1].isspace() else "\u2019")
        else:
            out.append(ch)
    return "".join(out)
