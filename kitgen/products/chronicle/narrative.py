"""A turn of the chronicle in sentences, each with its run-in, made from the turn's typed results
(battle results, arrivals, owners, command rolls, VP), never from the umpire's wording: for the
umpire, everything; for a faction, what its packets told it and what it saw."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kitgen.engine.piecenames import piece_names
from kitgen.messages import plural
from kitgen.products.chronicle.edition import moved_by
from kitgen.products.packets.lastturn import FATES, battle_lines

if TYPE_CHECKING:
    from collections.abc import Callable

    from kitgen.engine.state import BattleResult, CampaignState, UnitState
    from kitgen.products.chronicle.edition import Battle, Edition
    from kitgen.render.chronicleart import By


def turn_story(e: Edition, turn: int) -> list[tuple[str, str]]:
    """The turn's story: when, the event card, the moves, the battles, towns taken, arrivals,
    units lost, command control and VP."""
    s, h = e.s, e.h
    before, start, after = h.after(turn - 1), h.start(turn), h.after(turn)
    names = piece_names(before) | piece_names(after)
    factions = {f.id: f.name for f in s.meta.factions}
    titles = {c.id: c.title for c in s.cards.events}
    cards = [titles.get(x, x) for x in after.events]
    said = [("Event card", _sentence("; ".join(cards)) if cards else "none drawn.")]
    said += _moves(e, before, after, names, factions)
    for b in e.battles(turn):
        said.append((f"Battle {b.number}", _battle(e, b, start, names, factions)))
    said += _towns(e, turn, factions)

    def mine(f: str) -> bool:
        return e.faction is None or f == e.faction

    arrived = [a for a in after.arrivals if mine(a.faction)]
    if arrived:
        said.append(
            (
                "Arrived",
                "; ".join(
                    f"{names.get(a.unit, a.unit)} ({factions.get(a.faction, a.faction)}) at {_place(e, a.hex)}"
                    for a in arrived
                )
                + ".",
            )
        )
    gone = _lost(before, after, mine)
    if gone:
        fates = {r.unit: r.fate for r in after.battle_results}
        text = "; ".join(
            f"{u.name} ({factions.get(u.faction, u.faction)}), {FATES.get(fates.get(u.id, ''), 'gone from the map')}"
            for u in gone
        )
        said.append(("Units lost", text + "."))
    rolls = [c for c in after.commands if mine(c.faction)]
    if rolls:
        counts = []
        for f in e.factions():
            own = [c for c in rolls if c.faction == f]
            if own:
                failed = sum(1 for c in own if not c.obeyed)
                counts.append(f"{factions[f]} {plural(len(own), 'roll')}, {failed} failed")
        said.append(("Command", "; ".join(counts) + "."))
    vp = [
        f"{factions[f]} {after.vp.get(f, 0)}" + _change(after.vp.get(f, 0) - before.vp.get(f, 0))
        for f in e.factions()
        if f in after.vp
    ]
    if vp:
        said.append(("VP", ", ".join(vp) + "."))
    return said


MOVED: dict[By, str] = {"land": "marched", "rail": "ran", "sea": "sailed"}
"""What a move did, by how it went, as the story says it."""


def _moves(
    e: Edition, before: CampaignState, after: CampaignState, names: dict[str, str], factions: dict[str, str]
) -> list[tuple[str, str]]:
    """The moves carried out, a row per faction in the log's order: every faction's for the
    umpire, its own for a faction (the enemy's it saw are on the map, nameless). A train has
    no name but its hex, which the move already gives."""
    trains = {str(t["id"]): "an armoured train" if t.get("armoured") else "a train" for t in before.trains}
    told: dict[str, list[str]] = {}
    for v in after.verdicts:
        how = moved_by(v)
        if how is None or v.start is None or v.end is None or (e.faction is not None and v.faction != e.faction):
            continue
        short = ", where it stopped" if v.result == "stopped" else ""
        told.setdefault(v.faction, []).append(
            f"{trains.get(v.unit) or names.get(v.unit, v.unit)} {MOVED[how]} from {_place(e, v.start)} to {_place(e, v.end)}{short}"
        )
    return [
        ("Moves", f"{factions.get(f, f)}: " + "; ".join(moves) + ".") for f in e.factions() if (moves := told.get(f))
    ]


def _sentence(text: str) -> str:
    """`text` ended with a full stop, unless it ends with its own ('All Against Kolchak!')."""
    return text if text.endswith((".", "!", "?")) else text + "."


def _change(delta: int) -> str:
    return f" ({delta:+d})" if delta else ""


def _place(e: Edition, hex_id: str) -> str:
    name = e.hex_names.get(hex_id)
    return f"{name} ({hex_id})" if name else hex_id


def _battle(e: Edition, b: Battle, start: CampaignState, names: dict[str, str], factions: dict[str, str]) -> str:
    """A battle: for the umpire, the sides with their forces and what each unit lost and did; for
    a faction, as its packet told it if it fought, else only where and who won."""
    if e.faction is not None:
        if e.fought(b):
            subject = f"the {factions.get(e.faction, e.faction)}"
            (line,) = battle_lines(
                factions, {h: (n,) for h, n in e.hex_names.items()}, e.faction, b.results, names, subject=subject
            )
            return line[0].upper() + line[1:]
        won = ", ".join(factions.get(f, f) for f in b.winners) or "no side"
        return f"Seen at {_place(e, b.hex)}: the {won} held the field."
    stands = {u.id: sum(u.stands.values()) for u in start.units}
    sides = []
    for side, who in (("winner", b.winners), ("loser", b.losers)):
        parts = [r for r in b.results if r.side == side]
        forces = "; ".join(f"{names.get(r.unit, r.unit)}, {plural(stands.get(r.unit, 0), 'stand')}" for r in parts)
        sides.append(f"the {' and '.join(factions.get(f, f) for f in who)} ({forces})" if parts else "")
    won, lost = sides
    if won and lost:
        head = f"At {_place(e, b.hex)}, {won} beat {lost}."
    else:  # a side alone in the report (a breakout against a unit not listed): say who fought, and how it went
        head = f"At {_place(e, b.hex)}, {won or lost} fought and {'won' if won else 'lost'}."
    return head + " " + " ".join(_cost(r, names) for r in b.results)


def _cost(r: BattleResult, names: dict[str, str]) -> str:
    name = names.get(r.unit, r.unit)
    if r.fate in ("surrenders", "perishes"):
        return f"{name}: all its stands lost, {FATES[r.fate]}."
    fate = FATES.get(r.fate, r.fate) + (f" to {r.retreat}" if r.retreat else "")
    return f"{name}: {plural(r.permanent + r.deserted, 'stand')} lost for good, {r.returning} back next turn; {fate}."


def _towns(e: Edition, turn: int, factions: dict[str, str]) -> list[tuple[str, str]]:
    """Towns that changed hands: all for the umpire; for a faction those it gained or lost, and
    those it saw change hands (it knew the owner at the turn's start and at its end)."""
    before, after = e.h.after(turn - 1), e.h.after(turn)
    changed = e.towns_changed(turn)
    was = None if e.faction is None else e.views[turn - 1].towns_known
    now = None if e.faction is None else e.view_after(turn).towns_known
    if not changed:
        return [("Towns", "none changed hands.")]

    def owner(f: str | None) -> str:
        return "nobody" if f in (None, "none") else f"the {factions.get(f or '', f)}"

    said = []
    for t in changed:
        old, new = before.owners.get(t), after.owners[t]
        to = owner(new) if now is None or t in now or new == e.faction else "an enemy unseen"
        frm = f" from {owner(old)}" if was is None or t in was or old == e.faction else ""
        said.append(f"{t} to {to}{frm}")
    text = "; ".join(said)
    return [("Towns", text[0].upper() + text[1:] + ".")]


def _lost(before: CampaignState, after: CampaignState, mine: Callable[[str], bool]) -> list[UnitState]:
    """The units of the factions `mine` picks that the turn took off the map."""
    there = {u.id for u in after.units}
    return [u for u in before.units if u.id not in there and mine(u.faction)]
