"""A faction's situation report: its words flowed together on as few pages as they take, at
9 pt and more (`kitgen.render.flow`): its forces with their MP, supply, commander and the map
page each stands on; last turn, told by place names; who rolls for command and the odds; where
each stack can get; the stacks of the maps; the enemy last seen; the reinforcements waiting; VP
and time. An empty section is a line, not a page."""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from kitgen.messages import plural
from kitgen.products.packets.text import say
from kitgen.render.flow import Block, Heading, Para, Rows, flow_pages
from kitgen.render.sheet import Cell, Column, Page

if TYPE_CHECKING:
    from kitgen.campaign import Campaign
    from kitgen.engine.memory import Memory
    from kitgen.engine.reach import Reach
    from kitgen.engine.state import UnitState
    from kitgen.products.packets.builder import Packets
    from kitgen.render.scene import Scene, Sector


def place(campaign: Campaign, hex_id: str | None, prep: str = "") -> str:
    """A hex as a player says it: the town in it with the hex in brackets ("Perekop (2229)"),
    near the nearest town within two hexes ("near Perekop (2228)"), else the hex alone. With
    `prep` ("at", "to"), as a sentence says it: "at Perekop (2229)", "near Perekop (2228)",
    "to 2228, near Perekop", "in 2545"."""
    from kitgen.engine.views import nearest_town

    if not hex_id:
        return ""
    near = nearest_town(campaign.board, hex_id)
    if near.town is None or near.distance is None or near.distance > 2:
        return {"at": f"in {hex_id}", "to": f"to {hex_id}"}.get(prep, hex_id)
    town = campaign.scenario.shown_place(near.town)  # as the map prints it
    if near.distance == 0:
        return f"{prep} {town} ({hex_id})".strip()
    return f"to {hex_id}, near {town}" if prep == "to" else f"near {town} ({hex_id})"


def sector_of(p: Packets, shown: Sequence[Sector]) -> dict[str, str]:
    """Each hex of the shown sectors -> the first sector page it is on."""
    found: dict[str, str] = {}
    for sector in shown:
        for h in sorted(p.scene_art.within(sector.core)):
            found.setdefault(h, sector.key)
    return found


def situation_report(
    p: Packets, faction: str, reached: Sequence[Reach], memory: Memory, scene: Scene, shown: Sequence[Sector]
) -> list[Page]:
    """The faction's report, flowed onto as few pages as it takes."""
    from kitgen.render.packetstyle import packet_report_style

    name = p.names.get(faction, faction)
    blocks: list[Block] = []
    blocks += _forces(p, faction, reached, sector_of(p, shown))
    blocks += _last_turn(p, faction)
    blocks += _reach(p, faction, reached)
    blocks += _stacks(p, scene)
    blocks += _last_seen(p, memory)
    blocks += _waiting(p, faction)
    blocks += _vp_and_time(p, faction)
    blocks.append(Para(say("faction_intro", memory=p.s.meta.intel.memory_turns)))
    title = say("faction_title", faction=name, turn=p.b.turn)
    return flow_pages(p.s, p.paper, title, "report", faction, blocks, packet_report_style())


def _forces(p: Packets, faction: str, reached: Sequence[Reach], sectors: dict[str, str]) -> list[Block]:
    """Each unit: where it stands, its MP this turn, stands, supply, commander, the roll that
    obeys if it is ordered (II.C) and the sector page it is on."""
    own = [u for u in p.b.start.units if u.faction == faction]
    mp = {r.unit: r.allowance for r in reached}
    odds = _obeys(p, faction)
    out = sum(1 for u in own if u.in_supply is False)
    rows = []
    for u in own:
        where, stands, supply, command = _unit_cells(p, u, odds)
        moves = str(mp[u.id]) if u.id in mp else "-"
        sector = sectors.get(u.hex, "") if u.aboard is None else ""
        rows.append([u.name, where, moves, stands, supply, u.commander or "", command, sector])
    summary = f"{plural(len(own), 'unit')}, " + (f"{out} out of supply." if out else "all in supply.")
    summary += " " + say("forces_key")
    columns = [
        Column(2.5),
        Column(1.95),
        Column(0.42, "centre"),
        Column(1.75),
        Column(0.62, "centre"),
        Column(1.65),
        Column(1.55),
        Column(0.5, "centre"),
    ]
    header = ["Unit", "Where", "MP", "Stands", "Supply", "Commander", "Obeys on", "Map"]
    rows = rows or [["No units on the map.", "", "", "", "", "", "", ""]]
    return [Rows(columns, header, rows, "Your forces", "B.2, II.C"), Para(summary)]


def _unit_cells(p: Packets, u: UnitState, odds: dict[str, tuple[str, str]]) -> tuple[str, str, Any, str]:
    """A unit's cells as the forces and the roster print them: where it is (its place, or the
    ship it is aboard), its stands, its supply, and the roll that obeys if it is ordered with who
    makes it where he is not its own commander."""
    where = place(p.c, u.hex) if u.aboard is None else f"aboard the {p.pieces.get(u.aboard, u.aboard)}"
    stands = ", ".join(f"{n} {k.replace('_', ' ')}" for k, n in u.stands.items() if n)
    roll, who = odds.get(u.id, ("always", ""))
    supply = "in" if u.in_supply is not False else Cell("OUT", bold=True)
    return where, stands, supply, roll + (f", {who}" if who and who != u.commander else "")


def _obeys(p: Packets, faction: str) -> dict[str, tuple[str, str]]:
    """Each unit that rolls for command if ordered (II.C) -> the highest roll that obeys with
    its odds ("6 (60%)"), and who rolls."""
    from kitgen.rules.dice import Dice

    sides = Dice.parse(p.s.command.roll).high
    found: dict[str, tuple[str, str]] = {}
    for r in p.rolls():
        if r.kind != "command" or r.faction != faction or r.target is None:
            continue
        odds = max(0, min(r.target, sides)) / sides
        who = (r.who or "") if r.rating is not None else "no commander"
        for u in r.units:
            found[u] = (f"{r.target} ({odds:.0%})", who)
    return found


def _last_turn(p: Packets, faction: str) -> list[Block]:
    """What happened last turn, as the faction knows it, by place names; then its orders' fate."""
    from kitgen.products.packets.lastturn import named_story, order_rows_named

    before, after = p.b.before, p.b.after
    if before is None or after.turn < 1:
        return []
    blocks: list[Block] = [Heading(f"Turn {after.turn}: what happened", "II")]
    blocks += [Para(text, lead) for lead, text in named_story(p.c, faction, before, after)]
    rows = order_rows_named(p, faction, before, after)
    if rows:
        columns = [Column(3.3), Column(0.8), Column(0.75), Column(2.6), Column(2.8)]
        blocks.append(
            Rows(
                columns,
                ["Unit, train or ship", "Order", "Result", "Where", "Why"],
                rows,
                f"Your orders of turn {after.turn}",
                "A-D, II.C",
            )
        )
    else:
        blocks.append(Para(f"No orders were given in turn {after.turn}."))
    return blocks


def _reach(p: Packets, faction: str, reached: Sequence[Reach]) -> list[Block]:
    """Where each stack can get this turn: the towns and the hexes by MP band."""
    bands = p.layouts.sector.reach_bands
    shown = p.s.shown_place  # as the map prints them
    towns = {h: tuple(shown(t) for t in names) for h, names in p.c.board.towns.items()}
    groups: dict[tuple[str, tuple[tuple[str, int], ...], tuple[str, ...]], list[Reach]] = {}
    for r in reached:
        groups.setdefault((r.hex, tuple(sorted(r.land.items())), tuple(sorted(r.rail))), []).append(r)
    rows: list[list[Any]] = []
    for (hex_id, land, rail), members in sorted(groups.items()):
        parts = []
        for low, high in _band_ranges(bands, max((c for _, c in land), default=0)):
            inside = [h for h, c in land if low <= c <= high and h != hex_id]
            if not inside:
                continue
            named = sorted({t for h in inside for t in towns.get(h, ())})
            others = len([h for h in inside if not towns.get(h)])
            mp = f"{low} MP" if low == high else f"{low}-{high} MP"
            what = ", ".join(named)
            if others:
                what += (" and " if what else "") + plural(others, "hex", "hexes") + (" more" if named else "")
            parts.append(f"{mp}: {what}")
        trained = sorted({t for h in rail if h != hex_id for t in towns.get(h, ())})
        units = ", ".join(p.pieces.get(m.unit, m.unit) for m in members)
        notes = sorted({n for m in members for n in m.notes})
        text = "; ".join(parts) or "nowhere"
        if notes:
            text += " (" + "; ".join(notes) + ")"
        rows.append([units, place(p.c, hex_id), text, ", ".join(trained) or "-"])
    if not rows:
        return []
    columns = [Column(2.4), Column(1.6), Column(4.6), Column(1.6)]
    header = ["Units", "From", "By land, by MP spent", "By train"]
    return [Rows(columns, header, rows, "Where your stacks can get this turn", "A, C.1")]


def _band_ranges(bands: Sequence[int], most: int) -> list[tuple[int, int]]:
    """The reach tint's bands as (least, most) MP, from 1 (a unit's own hex costs nothing):
    [1, 2, 4] gives 1, 2, 3-4 and 5 to `most`."""
    out, low = [], 1
    for high in bands:
        out.append((low, high))
        low = high + 1
    if most >= low:
        out.append((low, most))
    return out


def _stacks(p: Packets, scene: Scene) -> list[Block]:
    """The stacks on the maps (three pieces or more in a hex), each under its hex's number."""
    if not scene.stacks:
        return []
    from kitgen.products.packets.builder import stack_rows

    rows = stack_rows(scene, p.names, partial(place, p.c))
    columns = [Column(1.8), Column(1.2), Column(6.2)]
    return [
        Rows(columns, ["Stack, by its hex", "Faction", "Pieces, top counter first"], rows, "Stacks on the maps", "")
    ]


def _last_seen(p: Packets, memory: Memory) -> list[Block]:
    """The enemy as last seen where the faction sees him no more, and towns' owners as last seen."""
    if not memory.sightings and not memory.towns:
        return []
    rows: list[list[Any]] = []
    for r in memory.sightings:
        what = (
            f"a {r.size} stack: {', '.join(r.arms) or 'arms not seen'}"
            if r.grade == "sized"
            else "; ".join(f"{u.name} ({u.type.replace('_', ' ')}, {u.stands} stands)" for u in r.units)
        )
        rows.append(
            [
                place(p.c, r.hex),
                Cell(p.names.get(r.faction, r.faction), mark=r.faction),
                what,
                _ago(memory, r.turn),
            ]
        )
    for t in memory.towns:
        owner = p.names.get(t.owner, "nobody") if t.owner != "none" else "nobody"
        mark = Cell(owner, mark=t.owner) if t.owner != "none" else Cell("")
        rows.append(
            [
                p.s.shown_place(t.town),
                mark,
                f"held by the {owner}" if t.owner != "none" else "held by nobody",
                _ago(memory, t.turn),
            ]
        )
    columns = [Column(1.9), Column(1.3), Column(4.6), Column(1.5)]
    return [
        Para(say("memory_intro", memory=p.s.meta.intel.memory_turns)),
        Rows(columns, ["Where", "Faction", "What was seen", "When"], rows, "The enemy last seen", "fog of war"),
    ]


def _ago(memory: Memory, turn: int) -> str:
    return f"turn {turn} ({memory.age(turn)} ago)"


def _waiting(p: Packets, faction: str) -> list[Block]:
    """The reinforcements waiting to be placed (II.E), a row a slip (drawn twice: once, "x2") with
    what it brings; a line when there are none."""
    from kitgen.products.cardkey import slip_label
    from kitgen.products.playeraids import placement_text

    s = p.s
    waiting = p.b.start.slips.get(faction, ())
    slips = {sl.id: sl for pile in s.cards.piles.values() for sl in pile}
    own = {x.id for x in s.cards.piles.get(faction, [])}
    counts: dict[str, int] = {}
    for sid in waiting:
        if sid in slips:
            counts[sid] = counts.get(sid, 0) + 1
    rows = []
    for sid, n in counts.items():  # the first sentence: what it brings (the slip itself says the rest)
        brings = slips[sid].text.split(". ")[0].rstrip(".") + "."
        if not slips[sid].returns_to_pile:
            brings += " Set aside once placed."
        label = slip_label(s, faction, sid) if sid in own else sid
        rows.append([label + (f" (\u00d7{n})" if n > 1 else ""), brings])
    if not rows:
        return [Para("None waiting to be placed.", "Reinforcements:")]
    f = s.faction(faction)
    placement = s.victory.placement.get(faction)
    where = f"They arrive {placement_text(s, f, placement)}" if placement and f else ""
    blocks: list[Block] = [
        Rows([Column(1.3), Column(6)], ["Slip", "What it brings"], rows, "Reinforcements waiting", "II.E")
    ]
    return blocks + ([Para(where)] if where else [])


def _vp_and_time(p: Packets, faction: str) -> list[Block]:
    """VP and time in sentences (E.2; RULES-NOTES, 2026-12-02): the faction's VP and the towns
    that score them, when VP are next awarded, the days this turn stands for and whether it is
    the last, and how the scenario is won."""
    from kitgen.messages import ordinal
    from kitgen.rules.ending import award_turns, condition_text, days_text, ending, ending_text, turn_days

    s, b = p.s, p.b
    blocks: list[Block] = [Heading("VP and time", "E.2")]
    f = s.faction(faction)
    if f is not None and f.scores_vp:
        state = b.start
        held = sorted(
            (t for t in s.towns if state.owners.get(t.name) == faction and t.vp.get(faction)),
            key=lambda t: (-(t.vp.get(faction) or 0), t.name),
        )
        towns = ", ".join(f"{t.shown_name} {t.vp.get(faction)}" for t in held) or "none"
        blocks.append(Para(f"{state.vp.get(faction, 0)} now. Towns held that score: {towns}.", "VP:"))
        upcoming = award_turns(s, b.turn, 4, play_on=p.c.meta.play_on)
        text = say("award", every=ordinal(s.victory.award_every_turns), turns=", ".join(f"turn {t}" for t in upcoming))
        if upcoming and upcoming[0] == b.turn:
            text += " This is an award turn: VP are scored at its end."
        blocks.append(Para(text + " Other factions' totals are the umpire's to know."))
    else:
        blocks.append(Para(f"the {p.names.get(faction, faction)} score none.", "VP:"))
    days = turn_days(s, b.turn)
    words = [
        say("turn_days", turn=b.turn, days=plural(s.meta.turns.days, "day"), dates=days_text(*days) if days else "")
    ]
    last, end = s.meta.turns.last, ending(s, b.after)
    if end.over:
        words.append(ending_text(s, end, play_on=p.c.meta.play_on))
    elif last is None:
        words.append(say("no_last_turn"))
    else:
        words.append(say("last_turn", last=last) if b.turn == last else say("turn_of", turn=b.turn, last=last))
    blocks.append(Para(" ".join(words), "Time:"))
    conditions = [condition_text(s, c) for c in s.victory.win]
    blocks.append(Para(" ".join(conditions) if conditions else say("no_win"), "How it is won:"))
    return blocks


def roster(p: Packets) -> list[Page]:
    """The umpire's roster: every unit, train and ship by faction, with its id (the logs' name
    for it), where it stands, its stands by arm, supply, commander and this turn's command odds."""
    from kitgen.render.packetstyle import packet_report_style

    start = p.b.start
    blocks: list[Block] = []
    for f in p.s.meta.factions:
        units = [u for u in start.units if u.faction == f.id]
        trains = [t for t in start.trains if t["faction"] == f.id]
        ships = [x for x in start.ships if x["faction"] == f.id]
        if not (units or trains or ships):
            continue
        odds = _obeys(p, f.id)
        rows: list[list[Any]] = []
        for u in units:
            where, stands, supply, command = _unit_cells(p, u, odds)
            rows.append([u.name, u.id, where, stands, supply, u.commander or "", command])
        for t in trains:
            rows.append([p.pieces.get(str(t["id"]), str(t["id"])), str(t["id"]), place(p.c, t["hex"]), "", "", "", ""])
        for x in ships:
            rows.append([p.pieces.get(str(x["id"]), str(x["id"])), str(x["id"]), place(p.c, x["hex"]), "", "", "", ""])
        out = sum(1 for u in units if u.in_supply is False)
        heading = f"{f.name}: {plural(len(units), 'unit')}, {out} out of supply"
        if trains or ships:
            heading += f", {plural(len(trains), 'train')}, {plural(len(ships), 'ship')}"
        columns = [
            Column(2.3),
            Column(2.3),
            Column(1.8),
            Column(1.65),
            Column(0.6, "centre"),
            Column(1.6),
            Column(1.45),
        ]
        header = ["Name", "Id (in the logs)", "Where", "Stands", "Supply", "Commander", "Obeys on"]
        blocks.append(Rows(columns, header, rows, heading, "B.2, II.C"))
    title = f"Roster, turn {p.b.turn}"
    return flow_pages(p.s, p.paper, title, "roster", None, blocks, packet_report_style())
