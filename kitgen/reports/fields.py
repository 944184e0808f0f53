"""The names of the report forms' fields, shared by the forms that print them and the import that
reads them back: a check box over every bubble, named by the form's kind and key, the line's row
and part and the bubble's choice (`kgb-0bfd299f14d0-r_37th_div-lost:infantry-2`,
`kgr-d8e526f54183-roll5-roll-4`); and hidden, read-only identity fields naming the form
(`kgid-b0bfd299f14d0-turn_number`). No name ends as an order form's does (`-turn`, `-path`), so
that the order form's reader never takes one for its own misspelt."""

from __future__ import annotations

import re

from kitgen.reports.plan import Kind

PREFIX: dict[Kind, str] = {"B": "kgb", "R": "kgr"}
IDENTITY = ("kind", "campaign_key", "turn_number", "hex", "contact_key", "sheet_key")
"""What a form's hidden fields say of it: a battle report's its hex and contact key, the roll
sheet's its sheet key."""
KIND_WORDS: dict[Kind, str] = {"B": "battle report", "R": "roll sheet"}

TICK = re.compile(r"kg([br])-([0-9a-f]{12})-([a-z][a-z0-9_]*)-([a-z][a-z0-9_:]*)-([A-Za-z0-9_]+)")
IDENTITY_FIELD = re.compile(r"kgid-([br])([0-9a-f]{12})-(" + "|".join(IDENTITY) + ")")
KITGEN_LIKE = re.compile(r"\s*kg\s*(b|r|id)\s*[-_.\s].*", re.IGNORECASE | re.DOTALL)
"""A name of the forms' shape, by its prefix: one that does not match exactly is misspelt."""


def tick_name(kind: Kind, key: str, row: str, part: str, choice: str) -> str:
    """The check box over one bubble of a line."""
    return f"{PREFIX[kind]}-{key}-{row}-{part}-{choice}"


def identity_name(kind: Kind, key: str, what: str) -> str:
    return f"kgid-{kind.lower()}{key}-{what}"


def identity(kind: Kind, key: str, campaign: str, turn: int, hex_id: str = "") -> dict[str, str]:
    """A form's hidden fields, by what each says."""
    said = {"kind": KIND_WORDS[kind], "campaign_key": campaign, "turn_number": str(turn)}
    if kind == "B":
        return {**said, "hex": hex_id, "contact_key": key}
    return {**said, "sheet_key": key}
