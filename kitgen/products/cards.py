"""The cards: the event deck (II.A), each faction's reinforcement/replacement pile (II.E) and the
commander cards (II.C), poker size, nine to a sheet.

Every card is printed with a bleed (its background runs past the trim). Neighbouring cards stand
two bleeds apart where the gutters fit, so the bleeds meet in the gutter and never overlap, and
butt, sharing their cut, where they do not (the columns on both papers, the rows on US Letter).
Crop marks stand outside the grid only, on every cut line, never nearer the paper's edge than
the layouts' clearance. The decks follow one another card by card, a card of other colours than
the one before starting a new row (and, where the rows butt, a row left empty before it); each sheet of fronts is
followed by its backs, mirrored for printing double-sided with a flip on the long edge: the back
of the card in column c stands in column (columns - 1 - c) of the same row.
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from kitgen.model.forces import Effect, EventCard, Slip, UnitSpec
from kitgen.model.scenario import Commander, Scenario
from kitgen.products.cardkey import commander_label, event_label, slip_label
from kitgen.render.cardart import (
    ALL,
    Back,
    Palette,
    card_foot,
    card_frame,
    charisma_badge,
    draw_back,
    faction_bullet,
    mix,
    plus_bullet,
    spaced,
    title_band,
)
from kitgen.render.cardsheet import (
    SEAM,
    back_slots,
    bleed_box,
    card_slots,
    clip,
    draw_crop_marks,
    shared_rows,
)
from kitgen.render.cardstyle import CardStyle, card_style
from kitgen.render.cardtext import (
    CardOverflow,
    Divider,
    Item,
    Para,
    Run,
    Tokens,
    draw_block,
    fit,
)
from kitgen.render.fonts import SANS, SANS_BOLD, SANS_BOLD_ITALIC, SANS_ITALIC, text_width
from kitgen.render.pages import MM, PAPER, Part, declare_cut, new_canvas
from kitgen.render.wording import signed

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas


UNDER_WAY = "Begun before the campaign opens; its consequences play out now."
"""Printed on an event card dated before the scenario's start (`under_way`)."""
UMPIRE = "Umpire ruling"
"""The lead-in of an effect the umpire rules on, printed bold."""


# --- the effects in words ----------------------------------------------------------------------


def _turns(n: int | None) -> str:
    n = n or 1
    if n == 1:
        return "this turn"
    if n == 2:
        return "this turn and the next"
    return f"this turn and the next {n - 1}"


def _plural(name: str, n: int) -> str:
    return name if n == 1 else name + "s"


def _lower(name: str) -> str:
    """'Machine-gun stand' -> 'machine-gun stand'; acronyms (RR) keep their capitals."""
    return " ".join(w if w.isupper() and len(w) > 1 else w.lower() for w in name.split())


def _stand_name(scenario: Scenario, kind: str) -> str:
    found = next((s.name for s in scenario.transport.stands if s.id == kind), kind.replace("_", " "))
    return _lower(found)


def stand_phrase(scenario: Scenario, kind: str, n: int) -> str:
    """'3 infantry stands', '1 machine-gun stand', '2 armoured cars' (the names of transport.yaml)."""
    return f"{n} {_plural(_stand_name(scenario, kind), n)}"


def stands_short(scenario: Scenario, stands: dict[str, int]) -> str:
    """'3 infantry, 1 machine-gun': the stands of a unit, without the word 'stand'."""
    parts = []
    for kind, n in stands.items():
        name = _stand_name(scenario, kind)
        parts.append(f"{n} {name.removesuffix(' stand')}" if name.endswith(" stand") else f"{n} {_plural(name, n)}")
    return ", ".join(parts)


def unit_text(scenario: Scenario, unit: UnitSpec) -> str:
    """ "Grigoriev's insurgents (3 infantry, 1 machine-gun; partisan)"."""
    flags = f"; {', '.join(unit.flags)}" if unit.flags else ""
    return f"{unit.name} ({stands_short(scenario, unit.stands)}{flags})"


def _who(scenario: Scenario, faction: str | None) -> tuple[str, bool]:
    """The faction as a sentence's subject, and whether the verb is plural."""
    if faction is None or faction == ALL:
        return "Every faction", False
    return scenario.faction_name(faction), True


def _verb(plural: bool, verb: str) -> str:
    return verb if plural else {"lose": "loses", "gain": "gains", "draw": "draws"}.get(verb, verb + "s")


def _adjective(scenario: Scenario, faction: str | None) -> str:
    found = scenario.faction(faction) if faction else None
    return found.adjective if found else "every faction's"


def _unit_types(scenario: Scenario, types: Sequence[str]) -> str:
    land = [t for t in scenario.movement.unit_types if not t.rail_only]
    if not types or {t.id for t in land} <= set(types):
        return "land units"
    names = [_lower(next((t.name for t in land if t.id == k), k.replace("_", " "))) for k in types]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _place(scenario: Scenario, at: str | None) -> str:
    """A place as cards print it: a town by its 1919 name (RULES-NOTES: maps and cards print the
    1919 name), any other place as the data names it."""
    town = scenario.find_town(at) if at else None
    return town.shown_name if town is not None else (at or "")


def effect_text(effect: Effect, scenario: Scenario) -> str:
    """One effect of an event card as an English sentence in rule terms (section in brackets)."""
    e = effect
    f = e.faction
    who, plural = _who(scenario, f)
    if e.kind == "vp":
        amount = e.amount or 0
        return f"{who} {_verb(plural, 'gain' if amount >= 0 else 'lose')} {abs(amount)} VP."
    if e.kind == "draws":
        n = e.draws or 1
        return f"{who} {_verb(plural, 'draw')} {n} extra reinforcement {_plural('slip', n)} (II.E)."
    if e.kind == "command":
        m = e.modifier or 0
        sense = "harder" if m > 0 else "easier"
        return (
            f"{signed(m)} to {_adjective(scenario, f)} command-control rolls {_turns(e.turns)} (II.C): "
            f"orders are {sense} to obey."
        )
    if e.kind == "movement":
        m = e.modifier or 0
        types = _unit_types(scenario, e.unit_types)
        whose = f"the {types} of every faction" if f in (None, ALL) else f"{_adjective(scenario, f)} {types}"
        return f"{signed(m)} MP for {whose} {_turns(e.turns)} (A)."
    if e.kind == "supply_cut":
        if f in (None, ALL):
            return f"Every unit counts as out of supply {_turns(e.turns)} (B)."
        return f"{_adjective(scenario, f)} units count as out of supply {_turns(e.turns)} (B)."
    if e.kind == "track_destroyed":
        return f"The railway at {_place(scenario, e.at)} is wrecked (C.2)."
    if e.kind == "alliance":
        names = [scenario.faction_name(x) for x in e.factions]
        return f"{' and '.join(names)} are allies, not enemies, {_turns(e.turns)}."
    if e.kind == "units":
        verb = "Joins" if len(e.units) == 1 else "Join"
        units = "; ".join(unit_text(scenario, u) for u in e.units)
        return f"{verb} the {who} at {_place(scenario, e.at)}: {units}."
    if e.kind == "remove_stands":
        n = e.count or 1
        stands = stand_phrase(scenario, e.stand or "infantry", n)
        whose = "their" if plural else "its"
        choice = f"from a unit of {whose} choice" if n == 1 else f"from units of {whose} choice"
        return f"{who} {_verb(plural, 'lose')} {stands}, {choice}."
    if e.kind == "town_owner":
        return f"{_place(scenario, e.at)} passes to the {who}."
    return f"{UMPIRE}: {e.text}"


# --- colour ------------------------------------------------------------------------------------


# --- text --------------------------------------------------------------------------------------


# --- drawing helpers ---------------------------------------------------------------------------


# --- the fronts --------------------------------------------------------------------------------


def event_front(c: Canvas, x: float, y: float, card: EventCard, scenario: Scenario, style: CardStyle) -> None:
    pal = Palette.of(style.colours.events, style)
    band, text, foot = card_frame(c, x, y, style, pal)
    title_band(c, band, pal, style, "Event", card.title, None)
    fonts = style.fonts
    items: list[Para | Divider] = [
        Para(((card.history, SANS_ITALIC),), fonts.history, pal.muted, centre=True, leading=1.25),
    ]
    if card.under_way:  # begun before the campaign opens: the card says so (issue 15)
        items.append(Para(((UNDER_WAY, SANS_BOLD_ITALIC),), fonts.history, pal.muted, centre=True, space_before=0.3))
    items.append(Divider(fonts.body, pal.accent, height=1.5))
    for k, effect in enumerate(card.effects):
        sentence = effect_text(effect, scenario)
        if effect.kind == "umpire":
            runs: tuple[Run, ...] = ((UMPIRE + ":", SANS_BOLD), (sentence.removeprefix(UMPIRE + ":"), SANS))
        else:
            runs = ((sentence, SANS),)
        who = effect.faction if effect.kind not in ("alliance", "umpire", "track_destroyed") else None
        bullet = faction_bullet(scenario, who, pal.ink, pal.accent)
        items.append(Para(runs, fonts.body, pal.ink, bullet=bullet, space_before=0.35 if k else 0.0))
    laid = fit(items, text.w, text.h, fonts.body_min, f"event card '{card.id}'")
    draw_block(c, laid, text.x, text.top - (text.h - laid.height) * 0.4, text.w)
    note = "Return to the deck and reshuffle" if card.returns_to_deck else "Discard after use"
    card_foot(c, foot, pal, style, note, event_label(scenario, card.id), strong=card.returns_to_deck)


def slip_kind(slip: Slip) -> str:
    if slip.units and slip.replacements:
        return "Reinforcements + drafts"
    return "Reinforcements" if slip.units else "Replacements"


def _stand_tokens(scenario: Scenario, stands: dict[str, int], size: float, pal: Palette, indent: float) -> Tokens:
    labels = stands_short(scenario, stands).split(", ")
    return Tokens(
        tuple(zip(stands, labels, strict=True)), size, mix(pal.colour, pal.paper, 0.55), pal.ink, pal.ink, indent
    )


def slip_front(c: Canvas, x: float, y: float, faction: str, slip: Slip, scenario: Scenario, style: CardStyle) -> None:
    found = scenario.faction(faction)
    pal = Palette.of(_colour(scenario, faction, style), style)
    band, text, foot = card_frame(c, x, y, style, pal)
    adjective = found.adjective if found else faction
    title_band(c, band, pal, style, f"{adjective} pile  II.E", slip_kind(slip), faction)
    fonts = style.fonts
    items: list[Item] = [Para(((slip.text, SANS),), fonts.body, pal.ink)]
    bullet = faction_bullet(scenario, faction, pal.ink, pal.accent)
    if slip.units:
        items.append(Divider(fonts.body, pal.accent, height=1.6))
        for k, unit in enumerate(slip.units):
            runs: tuple[Run, ...] = ((unit.name, SANS_BOLD),)
            if unit.flags:
                runs += ((f"({', '.join(unit.flags)})", SANS_ITALIC),)
            items.append(Para(runs, fonts.body, pal.ink, bullet=bullet, space_before=0.5 if k else 0.0))
            items.append(_stand_tokens(scenario, unit.stands, fonts.body * 0.9, pal, 1.6 / 0.9))
    if slip.replacements:
        items.append(Divider(fonts.body, pal.accent, height=1.6))
        items.append(Para((("Replacement stands", SANS_BOLD),), fonts.body, pal.ink, bullet=plus_bullet(pal)))
        items.append(_stand_tokens(scenario, slip.replacements, fonts.body * 0.9, pal, 1.6 / 0.9))
    laid = fit(items, text.w, text.h, fonts.body_min, f"slip '{slip.id}'")
    draw_block(c, laid, text.x, text.top - (text.h - laid.height) * 0.4, text.w)
    note = "Back into the pile" if slip.returns_to_pile else "Set aside: does not return"
    card_foot(c, foot, pal, style, note, slip_label(scenario, faction, slip.id), strong=not slip.returns_to_pile)


def obey_text(rating: int) -> str:
    """II.C.1: a D10 at or under the rating obeys."""
    if rating >= 10:
        return "Roll D10: obeys on 1-10 (100%)"
    if rating == 1:
        return "Roll D10: obeys on a 1 only (10%)"
    return f"Roll D10: obeys on 1-{rating} ({rating * 10}%)"


def commander_front(c: Canvas, x: float, y: float, commander: Commander, scenario: Scenario, style: CardStyle) -> None:
    found = scenario.faction(commander.faction)
    pal = Palette.of(_colour(scenario, commander.faction, style), style)
    band, text, foot = card_frame(c, x, y, style, pal)
    fonts = style.fonts
    adjective = found.adjective if found else commander.faction
    title_band(
        c, band, pal, style, f"{adjective} commander", commander.name, commander.faction,
        title_size=fonts.name, title_min=fonts.name_min,
    )  # fmt: skip
    rating = commander.dependability
    cx = text.x + text.w / 2
    r = fonts.rating * 0.62
    disc_h = 2 * r + fonts.label * 1.9
    track_h = 4.4 * MM
    notes = ["After a failure, each next roll is 1 lower until he obeys (II.C.4)."]
    if commander.added:  # not in the seed's table: the rating is the designer's
        notes.append("Added by this scenario; rank and rating are the designer's.")
    words: list[Item] = [Para(((obey_text(rating), SANS_BOLD),), fonts.body, pal.ink, centre=True)]
    words += [Para(((note, SANS),), fonts.history, pal.muted, centre=True, space_before=0.2) for note in notes]
    laid = fit(words, text.w, text.h / 3, fonts.body_min, f"commander '{commander.name}'")
    charisma_h = 9.5 * MM
    gap = (text.h - disc_h - track_h - laid.height - charisma_h) / 4
    if gap < 0:
        raise CardOverflow(f"commander '{commander.name}': the card is too small for its parts")
    c.saveState()
    # the rating, big, in a double ring
    top = text.top - gap * 0.6
    cy = top - r
    c.setFillColorRGB(*pal.colour)
    c.setStrokeColorRGB(*pal.accent)
    c.setLineWidth(1.2)
    c.circle(cx, cy, r, stroke=1, fill=1)
    c.setStrokeColorRGB(*pal.paper)
    c.setLineWidth(0.7)
    c.circle(cx, cy, r - 1.8, stroke=1, fill=0)
    c.setFillColorRGB(*pal.on_colour)
    number = str(rating)
    size = min(fonts.rating, fonts.rating * 1.3 * r / max(1.0, text_width(number, SANS_BOLD, fonts.rating)))
    c.setFont(SANS_BOLD, size)
    c.drawCentredString(cx, cy - size * 0.36, number)
    c.setFillColorRGB(*pal.accent)
    spaced(c, "DEPENDABILITY", SANS_BOLD, fonts.label, cx, cy - r - fonts.label * 1.7, 0.9)
    # the D10 track: the rolls that obey are filled
    top -= disc_h + gap
    cell = text.w / 10
    for k in range(1, 11):
        bx = text.x + (k - 1) * cell
        obeys = k <= rating
        c.setLineWidth(0.4)
        c.setStrokeColorRGB(*pal.accent)
        c.setFillColorRGB(*(pal.colour if obeys else pal.paper))
        c.rect(bx + 0.3, top - track_h, cell - 0.6, track_h, stroke=1, fill=1)
        c.setFillColorRGB(*(pal.on_colour if obeys else pal.muted))
        c.setFont(SANS_BOLD if obeys else SANS, fonts.track)
        c.drawCentredString(bx + cell / 2, top - track_h / 2 - fonts.track * 0.36, str(k))
    c.restoreState()
    top -= track_h + gap
    draw_block(c, laid, text.x, top, text.w)
    top -= laid.height + gap
    charisma_badge(c, cx, top, charisma_h, commander.charismatic, pal, style)
    same = sum(1 for other in scenario.commanders if other.faction == commander.faction)
    note = f"Rank {scenario.rank(commander)} of {same} (II.C.3)"
    card_foot(c, foot, pal, style, note, commander_label(scenario, commander), strong=False)


# --- the backs ---------------------------------------------------------------------------------


# --- the decks and the sheet -------------------------------------------------------------------


@dataclass(frozen=True)
class Deck:
    title: str
    """For the bookmarks: 'Event deck', 'Red reinforcement pile', 'Commanders'."""
    back: Back
    fronts: tuple[Callable[[Canvas, float, float], None], ...]
    colours: tuple[str, ...]
    """The colour each front bleeds in (a commander's his faction's)."""


def decks(scenario: Scenario, style: CardStyle) -> list[Deck]:
    """The event deck, each faction's pile (in the scenario's faction order), the commanders."""
    events = Deck(
        "Event deck",
        Back(style.colours.events, "Events", "Random event  II.A", (None,)),
        tuple(partial(event_front, card=card, scenario=scenario, style=style) for card in scenario.cards.events),
        (style.colours.events,) * len(scenario.cards.events),
    )
    order = [f.id for f in scenario.meta.factions]
    piles = sorted(scenario.cards.piles, key=lambda f: order.index(f) if f in order else len(order))
    out = [events]
    for faction in piles:
        found = scenario.faction(faction)
        adjective = found.adjective if found else faction
        out.append(
            Deck(
                f"{adjective} reinforcement pile",
                Back(_colour(scenario, faction, style), adjective, "Reinforcement pile  II.E", (faction,)),
                tuple(
                    partial(slip_front, faction=faction, slip=slip, scenario=scenario, style=style)
                    for slip in scenario.cards.piles[faction]
                ),
                (_colour(scenario, faction, style),) * len(scenario.cards.piles[faction]),
            )
        )
    commanders = sorted(scenario.commanders, key=lambda m: order.index(m.faction) if m.faction in order else len(order))
    marks = tuple(f for f in order if any(m.faction == f for m in commanders))
    out.append(
        Deck(
            "Commanders",
            Back(style.colours.commanders_back, "Commanders", "Command control  II.C", marks),
            tuple(partial(commander_front, commander=m, scenario=scenario, style=style) for m in commanders),
            tuple(_colour(scenario, m.faction, style) for m in commanders),
        )
    )
    return out


def _colour(scenario: Scenario, faction: str, style: CardStyle) -> str:
    """A faction's card colour; the events' for a name that is no faction."""
    found = scenario.faction(faction)
    return found.colour if found else style.colours.events


@dataclass(frozen=True)
class Place:
    """Where a card is printed: its sheet and its slot there (row by row from the top left)."""

    sheet: int
    slot: int


def card_places(looks: Sequence[tuple[str, str]], columns: int, rows: int, *, rows_butt: bool) -> list[Place]:
    """Each card's place, in order, from its looks (front colour, back colour): the next free
    slot, except that a card that looks unlike the card before starts a new row, and where the
    rows butt leaves a row empty between them, so that no two cards of different colours share a
    cut and a mis-cut never shows a neighbour's colour (issue 25, item 7)."""
    places: list[Place] = []
    sheet, slot = 0, 0
    for k, look in enumerate(looks):
        if k and look != looks[k - 1]:
            if slot % columns:
                slot += columns - slot % columns  # to the next row
            if rows_butt and slot:
                slot += columns  # and one more, left empty
        if slot >= columns * rows:
            sheet, slot = sheet + 1, 0
        places.append(Place(sheet, slot))
        slot += 1
    return places


def _back_form(deck: int) -> str:
    return f"kitgenCardBack{deck}"


def build_cards(scenario: Scenario, paper: str, style: CardStyle | None = None) -> list[Part]:
    """The cards as one part: the decks one after another, filling the sheets' slots in turn (a
    card of other colours than the one before starts on the next row, a row left empty between
    where the rows butt: `card_places`), each sheet of fronts followed by its backs, every card's back
    its own deck's."""
    s = style or card_style()
    size = PAPER[paper]
    buf = io.BytesIO()
    c = new_canvas(buf, size, scenario, "cards")
    fronts, backs = card_slots(paper, s), back_slots(paper, s)
    g = s.card
    w, h, bleed = g.width_mm * MM, g.height_mm * MM, g.bleed_mm * MM
    every = decks(scenario, s)
    for number, deck in enumerate(every):
        c.beginForm(
            _back_form(number), -math.ceil(bleed), -math.ceil(bleed), math.ceil(w + bleed), math.ceil(h + bleed)
        )
        draw_back(c, deck.back, scenario, s)
        c.endForm()
    cards = [(number, front) for number, deck in enumerate(every) for front in deck.fronts]
    looks = [(colour, deck.back.colour) for deck in every for colour in deck.colours]
    assert len(looks) == len(cards), "a deck's colours run beside its fronts"
    places = card_places(looks, g.columns, g.rows, rows_butt=shared_rows(paper, s))
    firsts: dict[int, int] = {}
    for k, (number, _) in enumerate(cards):
        firsts.setdefault(number, k)
    bookmarks: list[tuple[str, int]] = []
    page = 0
    for sheet in range(places[-1].sheet + 1 if places else 0):
        on = [(k, p.slot) for k, p in enumerate(places) if p.sheet == sheet]
        for number, first in firsts.items():
            if places[first].sheet == sheet:
                title = every[number].title
                bookmarks.append((title, page))
                c.bookmarkPage(f"deck{number}")
                c.addOutlineEntry(title, f"deck{number}", level=0)
        used = [fronts[slot] for _, slot in on]
        for k, slot in on:
            x, y = fronts[slot]
            c.saveState()
            clip(c, bleed_box(paper, slot, s, seam=SEAM))
            cards[k][1](c, x, y)
            c.restoreState()
        draw_crop_marks(c, used, s, paper)
        declare_cut(c, [(x, y, x + w, y + h) for x, y in used], [bleed_box(paper, slot, s) for _, slot in on])
        c.showPage()
        back_trims, back_bleeds = [], []
        for k, slot in on:
            x, y = backs[slot]
            x0, y0, x1, y1 = bleed_box(paper, slot, s)
            mirror = size[0] - x1  # the back's box: mirrored across the page, like its card
            c.saveState()
            g0, h0, g1, h1 = bleed_box(paper, slot, s, seam=SEAM)
            clip(c, (size[0] - g1, h0, size[0] - g0, h1))
            c.translate(x, y)
            c.doForm(_back_form(cards[k][0]))
            c.restoreState()
            back_trims.append((x, y, x + w, y + h))
            back_bleeds.append((mirror, y0, mirror + x1 - x0, y1))
        declare_cut(c, back_trims, back_bleeds)
        c.showPage()
        page += 2
    c.save()
    return [
        Part(
            file=f"cards-{paper}.pdf",
            title="Cards",
            purpose=(
                "the event deck, the reinforcement piles and the commander cards, poker size, nine to a sheet: "
                "print double-sided, flipping on the long edge, and cut at the crop marks"
            ),
            pdf=buf.getvalue(),
            pages=page,
            bookmarks=tuple(bookmarks),
            duplex=True,
        )
    ]
