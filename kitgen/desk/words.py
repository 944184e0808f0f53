"""Rolls, contacts and what a change of them did, in words for the umpire: pieces by the names
their counters print, places by name with the hex where it helps."""

from __future__ import annotations

from collections.abc import Mapping

from kitgen.engine.piecenames import purpose_words
from kitgen.engine.state import Roll
from kitgen.record.rolls import TurnChange


def roll_words(roll: Roll, names: Mapping[str, str]) -> str:
    """The purpose in words, and the dice: '... turn 1, D10'."""
    return f"{purpose_words(roll.purpose, names)}, {roll.dice}"


def place_words(hex_id: str, names: Mapping[str, str]) -> str:
    """'Tsaritsyn (5313)': the hex's name (`Campaign.hex_names`), or the hex alone."""
    named = names.get(hex_id)
    return f"{named} ({hex_id})" if named else f"hex {hex_id}"


def change_words(change: TurnChange, names: Mapping[str, str], towns: Mapping[str, str]) -> str:
    """One thing a change of rolls changed, in a line."""
    who = ", ".join(names.get(u, u) for u in change.units)
    if change.kind == "contact_new":
        return f"a contact now at {place_words(change.hex, towns)}: {who}"
    if change.kind == "contact_gone":
        return f"no contact now at {place_words(change.hex, towns)} (it was {who})"
    if change.kind == "contact_units":
        return f"the contact at {place_words(change.hex, towns)} is now {who}"
    return f"{who}: its order {change.before}, now {change.after}"
