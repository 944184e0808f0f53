"""A turn of the chronicle told as a story: a headline naming the turn's most important event,
then a paragraph for each front (the battles and the towns that changed hands near one
another, named by their chief town), then the rest in a few sentences. Every sentence is made
from the turn's typed results; places are said by name, a hex only in brackets after the town
it lies by ("south of Tsaritsyn (5214)"); a faction's edition tells what it knew, in its own
voice ("we", "the enemy")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from kitgen.messages import ordinal, plural
from kitgen.model.scenario import name_key
from kitgen.products.chronicle.journeys import Journey, elsewhere, journeys, told
from kitgen.products.chronicle.say import and_ as _and
from kitgen.products.chronicle.say import at_place, hexes_apart
from kitgen.products.chronicle.say import capital as _capital
from kitgen.products.chronicle.say import sentence as _sentence
from kitgen.products.chronicle.say import who as _who

if TYPE_CHECKING:
    from kitgen.products.chronicle.edition import Battle, Edition

FRONT_REACH = 3
"""Hexes between two events of one front: a battle and a town taken next to it read together."""

Outcome = Literal["destroyed", "routed", "drove back", "beat"]


@dataclass(frozen=True)
class Fight:
    """A battle as the story weighs it: how many stands stood in it, and how it went."""

    battle: Battle
    stands: int
    outcome: Outcome


@dataclass(frozen=True)
class Change:
    """A town that changed hands, with its hex and VP."""

    town: str
    hex: str
    vp: int
    new: str | None
    old: str | None


@dataclass(frozen=True)
class Headline:
    """The turn's most important event, and its words."""

    kind: Literal["town", "battle", "card", "supply", "quiet"]
    text: str


def headline(e: Edition, turn: int) -> Headline:
    """The turn's most important event the edition knows: a town of the most VP changing hands,
    else the largest battle, else the event card, else a faction's supply failing, else quiet."""
    changes = sorted(_changes(e, turn), key=lambda c: (-c.vp, c.town))
    fights = sorted(_fights(e, turn), key=lambda f: (not e.fought(f.battle), -f.stands, f.battle.number))
    if changes and changes[0].vp > 0:
        return Headline("town", _taken(e, changes[0], headline=True))
    if fights:
        return Headline("battle", _fight_headline(e, fights[0]))
    titles = {c.id: c.title for c in e.s.cards.events}
    cards = [titles.get(x, x) for x in e.h.after(turn).events]
    if cards:
        return Headline("card", f"The event card: {cards[0]}")
    cut = _cut_off(e, turn)
    if cut:
        who, n = cut
        subject = "Our" if e.faction == who else f"The {e.s.faction_name(who)}'"
        return Headline("supply", f"{subject} supply fails: {plural(n, 'unit')} more out of supply")
    if changes:
        return Headline("town", _taken(e, changes[0], headline=True))
    return Headline("quiet", "A quiet turn on every front" if e.faction is None else "A quiet turn for us")


Spot = tuple[str, "Fight | Change"]
APPROACH = 1
"""Hexes from a front's battle or town within which a move's end opens that front's paragraph."""


def fronts(e: Edition, turn: int, names: dict[str, str]) -> list[tuple[str, str]]:
    """(run-in, paragraph) for each front of the turn: the moves that ended there, its battles,
    largest first, and the towns that changed hands there, the front named by its chief town."""
    near = _approaches(e, turn, names)
    told_fronts = []
    for i, group in enumerate(_front_groups(e, turn)):
        ranked = sorted(group, key=lambda x: _rank(x[1]))
        sentences = told(e, near.get(i, []))
        sentences += [_fight_text(e, w, names) for _, w in ranked if isinstance(w, Fight)]
        sentences += [_taken(e, w) + "." for _, w in ranked if isinstance(w, Change)]
        told_fronts.append((f"Around {_front_name(e, group)}.", " ".join(sentences)))
    return told_fronts


def rest_of_the_turn(e: Edition, turn: int, names: dict[str, str]) -> list[tuple[str, str]]:
    """(run-in, sentence) of what else the turn brought: the moves not told with a front,
    arrivals, units lost, command, and how the sides stand, each as the edition knew it."""
    before, after = e.h.after(turn - 1), e.h.after(turn)
    said: list[tuple[str, str]] = []
    near = {j for js in _approaches(e, turn, names).values() for j in js}
    rest = [j for j in journeys(e, turn, names) if j not in near]
    if rest:
        said.append(("Elsewhere." if near or _front_groups(e, turn) else "On the move.", elsewhere(e, rest)))

    def mine(f: str) -> bool:
        return e.faction is None or f == e.faction

    arrived = [a for a in after.arrivals if mine(a.faction)]
    if arrived:
        came = "joined us" if e.faction else "came up"
        parts = [
            f"{names.get(a.unit, a.unit)}{f' {came}' if not i else ''} {at_place(e, a.hex)}"
            for i, a in enumerate(arrived)
        ]
        said.append(("Arrivals.", _sentence(_and(parts))))
    there = {u.id for u in after.units}
    gone = [u for u in before.units if u.id not in there and mine(u.faction)]
    if gone:
        lost = _and([u.name + ("" if e.faction else f" ({e.s.faction_name(u.faction)})") for u in gone])
        said.append(("Losses.", _sentence(f"{lost} {'was' if len(gone) == 1 else 'were'} lost from the map")))
    rolls = [c for c in after.commands if mine(c.faction)]
    if rolls:
        parts = []
        for f in e.factions():
            own = [c for c in rolls if c.faction == f]
            if own:
                failed = sum(1 for c in own if not c.obeyed)
                whose = "our" if e.faction == f else f"the {e.s.faction_name(f)}'"
                parts.append(
                    f"{failed} of {whose} {plural(len(own), 'order')} went unobeyed"
                    if failed
                    else f"{whose} {plural(len(own), 'order')} {'was' if len(own) == 1 else 'were all'} obeyed"
                )
        said.append(("Command.", _sentence(_capital("; ".join(parts)))))
    standing = balance(e, turn)
    if standing:
        said.append(("The balance.", standing))
    return said


def balance(e: Edition, turn: int) -> str:
    """How the sides stand after the turn, and which way it goes: the towns each holds, what it
    gained or lost and for how many turns running; the VP when they changed, with what was spent
    on reinforcements."""
    now = {x.faction: x for x in e.tallies if x.turn == turn}
    sides = [f for f in e.factions() if f in now]
    parts: list[str] = []
    shown = [f for f in sides if now[f].towns or _towns(e, f, turn - 1) or f == e.faction]  # none, and none lost
    for f in shown:
        towns = plural(now[f].towns, "town")
        if e.faction == f:
            part = f"we hold {towns}"
        elif not parts:
            part = f"the {e.s.faction_name(f)} hold {towns}"
        else:
            part = f"the {e.s.faction_name(f)} {now[f].towns}"
        change = now[f].towns - _towns(e, f, turn - 1)
        if change:
            run = _running(e, f, turn, change)
            part += f" ({abs(change)} {'gained' if change > 0 else 'lost'}"
            part += f", the {_nth(run)} turn running)" if run > 1 else ")"
        parts.append(part)
    said = [_sentence(_capital(_and(parts)))] if parts else []
    before, after = e.h.after(turn - 1), e.h.after(turn)
    scored = [f for f in sides if f in after.vp]
    if any(after.vp[f] != before.vp.get(f, 0) for f in scored):
        scores = []
        for f in scored:
            bought = _bought(e, turn, f)
            spent = bought * e.s.victory.thresholds.get(f, 0)
            note = f" ({spent} spent on {plural(bought, 'reinforcement roll')})" if spent else ""
            if e.faction == f:
                scores.append(f"we now have {after.vp[f]} VP{note}")
            else:
                scores.append(f"{after.vp[f]} for the {e.s.faction_name(f)}{note}")
        lead = "" if e.faction is not None else "VP now stand at "
        said.append(_sentence(_capital(lead + _and(scores))))
    return " ".join(said)


def _towns(e: Edition, faction: str, turn: int) -> int:
    return next((x.towns for x in e.tallies if x.turn == turn and x.faction == faction), 0)


def _running(e: Edition, faction: str, turn: int, change: int) -> int:
    """For how many turns, up to this one, the faction's towns have moved the way they did now."""
    if not change:
        return 0
    run = 0
    for t in range(turn, 0, -1):
        step = _towns(e, faction, t) - _towns(e, faction, t - 1)
        if step * change <= 0:
            break
        run += 1
    return run


def _nth(n: int) -> str:
    words = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")
    return words[n - 1] if n <= len(words) else ordinal(n)


def _bought(e: Edition, turn: int, faction: str) -> int:
    """II.E.2: the faction's rolls on its reinforcement chart in the turn (each spent its threshold)."""
    return sum(1 for r in e.h.after(turn).rolls if r.rule == "II.E.2" and r.purpose.split()[1:2] == [faction])


def _front_groups(e: Edition, turn: int) -> list[list[Spot]]:
    """The turn's battles and towns taken, gathered into fronts (each within FRONT_REACH hexes of
    another of its own), the most important front first."""
    fights = sorted(_fights(e, turn), key=lambda f: (-f.stands, f.battle.number))
    changes = sorted(_changes(e, turn), key=lambda c: (-c.vp, c.town))
    spots: list[Spot] = [(f.battle.hex, f) for f in fights] + [(c.hex, c) for c in changes]
    groups: list[list[Spot]] = []
    for hex_id, what in spots:
        near = [g for g in groups if any(hexes_apart(e, hex_id, h) <= FRONT_REACH for h, _ in g)]
        merged = [(hex_id, what)] + [x for g in near for x in g]
        groups = [g for g in groups if g not in near] + [merged]
    return sorted(groups, key=lambda g: min(_rank(w) for _, w in g))


def _approaches(e: Edition, turn: int, names: dict[str, str]) -> dict[int, list[Journey]]:
    """The turn's moves that ended within APPROACH hexes of a front's battle or town, by the
    front's place in `_front_groups` (the first such front takes a move)."""
    groups = _front_groups(e, turn)
    near: dict[int, list[Journey]] = {}
    for j in journeys(e, turn, names):
        for i, group in enumerate(groups):
            if any(h and hexes_apart(e, j.end, h) <= APPROACH for h, _ in group):
                near.setdefault(i, []).append(j)
                break
    return near


# --- the events, weighed ---------------------------------------------------------------------


def _fights(e: Edition, turn: int) -> list[Fight]:
    start = e.h.start(turn)
    stands = {u.id: sum(u.stands.values()) for u in start.units}
    found = []
    for b in e.battles(turn):
        engaged = sum(stands.get(r.unit, 0) for r in b.results)
        losers = [r for r in b.results if r.side == "loser"]
        held = sum(stands.get(r.unit, 0) for r in losers)
        lost = sum(r.permanent + r.deserted for r in losers)
        outcome: Outcome
        if losers and all(r.fate in ("surrenders", "perishes") for r in losers):
            outcome = "destroyed"
        elif held and lost * 2 >= held:
            outcome = "routed"
        elif lost:
            outcome = "drove back"
        else:
            outcome = "beat"
        found.append(Fight(b, engaged, outcome))
    return found


def _changes(e: Edition, turn: int) -> list[Change]:
    before, after = e.h.after(turn - 1), e.h.after(turn)
    vp = {t.name: max((v or 0 for v in t.vp.values()), default=0) for t in e.s.towns}
    found = []
    for town in e.towns_changed(turn):
        hex_id = e.c.board.places.get(name_key(town), "")
        old, new = before.owners.get(town), after.owners.get(town)
        found.append(Change(e.s.shown_place(town), hex_id, vp.get(town, 0), _owner(new), _owner(old)))
    return found


def _cut_off(e: Edition, turn: int) -> tuple[str, int] | None:
    """The faction whose units out of supply rose most at the turn's start (three or more)."""
    now = {x.faction: x.out_of_supply for x in e.tallies if x.turn == turn}
    was = {x.faction: x.out_of_supply for x in e.tallies if x.turn == turn - 1}
    rises = sorted(((now[f] - was.get(f, 0), f) for f in now if f in e.factions()), reverse=True)
    return (rises[0][1], rises[0][0]) if rises and rises[0][0] >= 3 else None


def _rank(what: Fight | Change) -> tuple[int, int]:
    return (0, -what.stands) if isinstance(what, Fight) else (1, -what.vp)


# --- the words ---------------------------------------------------------------------------------


def _fight_headline(e: Edition, f: Fight) -> str:
    b = f.battle
    where = at_place(e, b.hex)
    if e.faction is not None and e.faction in b.losers:
        return f"Defeat {where}"
    if e.faction is not None and e.faction in b.winners:
        return f"Victory {where}"
    if e.faction is not None:  # seen, not fought: who held the field, and no more
        return _capital(f"fighting {where}: {_who(e, b.winners)} held the field")
    verb = {"destroyed": "destroy", "routed": "rout", "drove back": "drive back", "beat": "force back"}[f.outcome]
    return _capital(f"{_who(e, b.winners, against=b.losers)} {verb} {_who(e, b.losers, against=b.winners)} {where}")


def _fight_text(e: Edition, f: Fight, names: dict[str, str]) -> str:
    """A battle in a sentence or two that vary with how it went; the units by their counters'
    names where the edition knew them, and what it cost each side."""
    b = f.battle
    where = at_place(e, b.hex)
    winners = _who(e, b.winners, against=b.losers)
    losers = _who(e, b.losers, object_=True, against=b.winners)
    mark = f" (battle {b.number} on the map)"
    if not b.losers or not b.winners:
        side = b.winners or b.losers
        return _sentence(_capital(f"{where} {_who(e, side)} fought and {'won' if b.winners else 'lost'}{mark}"))
    if e.faction is not None and not e.fought(b):
        return _sentence(f"We saw fighting {where}, and {_who(e, b.winners)} held the field{mark}")
    told = {
        "destroyed": f"{where} {winners} destroyed {losers}",
        "routed": f"{where} {winners} routed {losers}",
        "drove back": f"{where} {winners} drove {losers} back",
        "beat": f"{where} {winners} forced {losers} back, though {'we' if losers == 'us' else 'they'} lost no stand for good",
    }[f.outcome]
    units = _unit_names(b, names)
    cost = []
    for part, side in (("winner", b.winners), ("loser", b.losers)):
        lost = sum(r.permanent + r.deserted for r in b.results if r.side == part)
        if lost:
            other = b.losers if side == b.winners else b.winners
            cost.append(f"{_who(e, side, against=other)} lost {plural(lost, 'stand')} for good")
    sentence = _sentence(_capital(told) + f" (battle {b.number} on the map" + (f": {units})" if units else ")"))
    return sentence + (" " + _sentence(_capital("; ".join(cost))) if cost else "")


def _unit_names(b: Battle, names: dict[str, str]) -> str:
    """The winners' units against the losers', by their counters' names."""
    sides = [_and([names.get(r.unit, "") for r in b.results if r.side == side]) for side in ("winner", "loser")]
    return " against ".join(side for side in sides if side)


def _taken(e: Edition, c: Change, *, headline: bool = False) -> str:
    """A town changing hands: 'the Whites took Kharkov from the Reds'; a faction's edition, 'we
    took ...' or 'Kharkov fell to the enemy'; as a headline, in the present."""
    town = c.town
    if e.faction is not None:
        if c.new == e.faction:
            return f"We take {town}" if headline else f"We took {town}"
        if c.old == e.faction:
            return f"{town} falls to the enemy" if headline else f"{town} fell to the enemy"
        return f"{town} changes hands" if headline else f"{town} changed hands"
    new = f"the {e.s.faction_name(c.new)}" if c.new else "nobody"
    old = f" from the {e.s.faction_name(c.old)}" if c.old else ""
    return _capital(f"{new} {'take' if headline else 'took'} {town}{old}")


def _front_name(e: Edition, group: list[tuple[str, Fight | Change]]) -> str:
    """The front's chief town: the most valuable named in it, else the place of its first event."""
    towns = [w for _, w in group if isinstance(w, Change)]
    if towns:
        return max(towns, key=lambda c: (c.vp, c.town)).town
    hex_id = group[0][0]
    if e.hex_names.get(hex_id):
        return e.hex_names[hex_id]
    from kitgen.engine.views import nearest_town

    near = nearest_town(e.c.board, hex_id)
    return e.s.shown_place(near.town) if near.town else hex_id


def _owner(f: str | None) -> str | None:
    return None if f in (None, "none") else f


def the_war(e: Edition, *, over: bool = False) -> str:
    """The campaign so far (`over`: to its end) in a few sentences, as the edition knew it: who
    has the better of it so far (the side that won the most battles and gained the most towns, if
    one did both; at the end the result is the scenario's to say), the battles and who won them,
    the towns each side holds against the start, and the stands lost for good."""
    last = e.h.last
    if not last:
        return ""
    battles = [b for t in range(1, last + 1) for b in e.battles(t)]
    gained = {f: _towns(e, f, last) - _towns(e, f, 0) for f in e.factions()}
    lost = {f: sum(sum(x.lost.values()) for x in e.tallies if x.faction == f and x.turn > 0) for f in e.factions()}
    turns = f"in {_count(last)} turn{'s' if last != 1 else ''}"
    if e.faction is None:
        return " ".join(_sentence(_capital(x)) for x in _the_war_whole(e, battles, gained, lost, turns, over))
    f = e.faction
    ours = [b for b in battles if f in b.winners or f in b.losers]
    won = sum(1 for b in ours if f in b.winners)
    said = []
    if over:
        pass  # the result is the scenario's to say
    elif won * 2 > len(ours) and gained[f] >= 0:
        said.append("so far the war goes our way")
    elif won * 2 < len(ours) and gained[f] <= 0:
        said.append("so far the war goes against us")
    else:
        said.append("so far the war hangs in the balance")
    said.append(f"{turns} we fought {_count(len(ours))} battle{'s' if len(ours) != 1 else ''} and won {_count(won)}")
    said.append(f"we hold {plural(_towns(e, f, last), 'town')} {_against_start(gained[f])}")
    if lost[f]:
        said.append(f"we lost {plural(lost[f], 'stand')} for good in battle")
    return " ".join(_sentence(_capital(x)) for x in said)


def _the_war_whole(
    e: Edition, battles: list[Battle], gained: dict[str, int], lost: dict[str, int], turns: str, over: bool
) -> list[str]:
    """`the_war` for the umpire: every side."""
    name = e.s.faction_name
    wins = {f: sum(1 for b in battles if f in b.winners) for f in e.factions()}
    best, top = max(wins.values(), default=0), max(gained.values(), default=0)
    leader = [f for f in wins if best and wins[f] == best and top > 0 and gained[f] == top]
    said = []
    if not over:  # the end's result is the scenario's to say, not this reckoning's
        said.append(
            f"so far the {name(leader[0])} have the better of it: they won the most battles and gained the most towns"
            if len(leader) == 1
            else "so far neither side has the upper hand"
        )
    ranked = sorted((f for f in wins if wins[f]), key=lambda f: -wins[f])
    won = _and([f"the {name(f)} {'won ' if not i else ''}{_count(wins[f])}" for i, f in enumerate(ranked)])
    fought = "one battle was fought" if len(battles) == 1 else f"{_count(len(battles))} battles were fought"
    said.append(f"{turns} {fought}" + (f": {won}" if won else ""))
    held = [
        f"the {name(f)} "
        + (f"hold {plural(_towns(e, f, e.h.last), 'town')}" if not i else str(_towns(e, f, e.h.last)))
        + f" {_against_start(gained[f], short=bool(i))}"
        for i, f in enumerate(e.factions())
    ]
    said.append(_and(held))
    losers = [f for f, n in lost.items() if n]
    if losers:
        said.append(
            _and(
                [
                    f"the {name(f)} lost {plural(lost[f], 'stand')} for good in battle"
                    if not i
                    else f"the {name(f)} {lost[f]}"
                    for i, f in enumerate(losers)
                ]
            )
        )
    return said


NUMBERS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def _count(n: int) -> str:
    """A small number in words, as prose sets it ("six turns"); a larger in figures."""
    return NUMBERS[n] if 0 <= n < len(NUMBERS) else str(n)


def _against_start(change: int, *, short: bool = False) -> str:
    """A count's change since the start: "(two more than at the start)", or "(two more)"."""
    if not change:
        return "(as at the start)"
    return f"({_count(abs(change))} {'more' if change > 0 else 'fewer'}{'' if short else ' than at the start'})"
