"""The small words of printed rules text: die faces, lists, signed modifiers."""

from __future__ import annotations

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
