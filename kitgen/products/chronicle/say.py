"""How the chronicle says things: a place by its name (a hex only in brackets after the town it
lies by), the sides in the edition's voice ("we", "the enemy"), and lists and sentences."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from kitgen.model.scenario import name_key
from kitgen.render.wording import either

if TYPE_CHECKING:
    from kitgen.products.chronicle.edition import Edition

COMPASS = ("east", "north-east", "north", "north-west", "west", "south-west", "south", "south-east")


def place_words(e: Edition, hex_id: str, *, exact: bool = True) -> str:
    """A hex as the story says it: its town ("Kharkov"); else the way to the nearest town with
    the hex in brackets ("south of Tsaritsyn (5214)"), or without them where the hex does not
    matter (`exact` False: where a move set out from); else the hex alone."""
    from kitgen.engine.views import nearest_town

    named = e.hex_names.get(hex_id)
    if named:
        return named
    near = nearest_town(e.c.board, hex_id)
    if near.town is None:
        return hex_id
    town = e.s.shown_place(near.town)
    where = e.c.board.places.get(name_key(near.town))
    way = bearing(e, where, hex_id) if where else ""
    said = f"{way} of {town}" if way else f"near {town}"
    return f"{said} ({hex_id})" if exact else said


def at_place(e: Edition, hex_id: str) -> str:
    """`place_words` after 'at', as a sentence says it: "at Kharkov", "south of Tsaritsyn (5214)"."""
    words = place_words(e, hex_id)
    return f"at {words}" if e.hex_names.get(hex_id) else words


def to_place(e: Edition, hex_id: str) -> str:
    """`place_words` after a move's 'to': "to Kharkov", "to south of ..." reads badly, so "to a
    point south of Tsaritsyn (5214)"."""
    words = place_words(e, hex_id)
    return f"to {words}" if e.hex_names.get(hex_id) or words == hex_id else f"to a point {words}"


def bearing(e: Edition, town_hex: str, hex_id: str) -> str:
    """The way from one hex to another, as a compass point."""
    hexes = e.c.hex_map.by_id()
    a, b = hexes.get(town_hex), hexes.get(hex_id)
    if a is None or b is None:
        return ""
    angle = math.degrees(math.atan2(b.y_km - a.y_km, b.x_km - a.x_km)) % 360
    return COMPASS[int((angle + 22.5) // 45) % 8]


def hexes_apart(e: Edition, a: str, b: str) -> int:
    grid = e.c.board.grid
    ca, cb = grid.parse_id(a), grid.parse_id(b)
    return 10**6 if ca is None or cb is None else grid.distance(ca, cb)


def who(e: Edition, factions: tuple[str, ...], *, object_: bool = False, against: tuple[str, ...] = ()) -> str:
    """Sides as the edition says them: 'we' ('us'); 'the enemy' for the side that faced us
    (`against` holds our faction); else by name, 'the Reds and the Ukrainians' (a faction sees
    whose colours fight where it watches)."""
    if e.faction is not None and e.faction in factions:
        return "us" if object_ else "we"
    if e.faction is not None and e.faction in against:
        return "the enemy"
    return and_([f"the {e.s.faction_name(f)}" for f in factions]) or "no side"


def and_(parts: list[str]) -> str:
    """'a, b and c' of the parts that say something (`either`)."""
    return either([p for p in parts if p], "and")


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def sentence(text: str) -> str:
    return text if not text or text.endswith((".", "!", "?")) else text + "."
