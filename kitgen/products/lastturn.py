"""A faction's last turn, for its player: what each of his orders came to, the battles he fought
and what they cost, his command rolls, the event card drawn, and the towns and VP he gained or
lost. Every sentence is made from the state's typed results (verdicts, battle results, command
rolls), never from the umpire's wording; only what the faction knows is said."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kitgen.engine.state import Arrival, BattleResult, CampaignState, CommandRoll, Verdict
from kitgen.messages import plural
from kitgen.render.sheet import Column, Sheet
from kitgen.rules.paths import STOP_WORDS

if TYPE_CHECKING:
    from kitgen.products.packetpages import Packets
    from kitgen.render.sheet import Page

KINDS = {
    "land": "move",
    "rail": "by train",
    "sea": "by sea",
    "pontoon": "pontoon",
    "resupply": "resupply",
    "track": "track",
    "battle": "battle",
    "place": "placed",
    "disband": "disband",
}
RESULTS = {"done": "done", "stopped": "stopped", "void": "void", "held": "held"}
FATES = {
    "holds": "held its ground",
    "retreats": "retreated",
    "surrenders": "surrendered",
    "breaks_out": "broke out",
    "perishes": "perished",
    "must_break_out": "could not retreat and must break out",
}


def last_turn_pages(p: Packets, faction: str, before: CampaignState | None, after: CampaignState) -> list[Page]:
    """The faction's page (or pages) of last turn: `after` is the state the turn left, `before`
    the one it was played from (None before turn 2: nothing to tell)."""
    if before is None or after.turn < 1:
        return []
    names = _names(before, after)
    for a in after.arrivals:  # a place order names its slip: the unit it raised, by name
        names.setdefault(a.slip, names.get(a.unit, a.unit))
    commands = [c for c in after.commands if c.faction == faction]
    mine = [v for v in after.verdicts if v.faction == faction and v.kind != "battle"]
    rows = order_rows(mine, commands, names, after.arrivals)

    said = story(p, faction, before, after, names)

    def summary(sheet: Sheet, y: float) -> float:
        for lead, text in said:
            y = sheet.para(sheet.left, y, sheet.span, text, lead=lead) - 3
        return y - sheet.st.gap

    columns = [Column(3.0), Column(1.0), Column(0.9), Column(1.2), Column(4.0)]
    header = ["Unit, train or ship", "Order", "Result", "From - to", "Why"]
    return p.table_pages(
        f"{p.names.get(faction, faction)}: turn {after.turn}, what happened",
        "last-turn",
        faction,
        (f"Your orders of turn {after.turn}", "A-D, II.C"),
        columns,
        header,
        rows or [["No orders were given.", "", "", "", ""]],
        before=summary,
        reserve=_height(p, said),
        wrap=True,
    )


def _height(p: Packets, said: Sequence[tuple[str, str]]) -> float:
    """The points the story takes above the table, measured as `Sheet.para` sets it."""
    from kitgen.render.fonts import SANS, SANS_BOLD, text_width
    from kitgen.render.packetstyle import packet_form_style
    from kitgen.render.pages import PAPER

    style = packet_form_style()
    probe = Sheet(None, style, p.s, PAPER[p.paper], "")  # type: ignore[arg-type]  # its geometry only
    size, leading = style.fonts.body, style.charts.leading
    total = 0.0
    for lead, text in said:
        indent = text_width(lead + " ", SANS_BOLD, size)
        first = probe.wrap(text, SANS, size, probe.span - indent)[0]
        rest = text[len(first) :].strip()
        lines = 1 + (len(probe.wrap(rest, SANS, size, probe.span)) if rest else 0)
        total += 1.45 * size + (lines - 1) * leading + 3
    return total + style.gap


def order_rows(
    verdicts: Sequence[Verdict],
    commands: Sequence[CommandRoll],
    names: dict[str, str],
    arrivals: Sequence[Arrival] = (),
) -> list[list[Any]]:
    """One row an order: the piece by name, what was ordered, what came of it, where it went,
    and why, from the verdict's typed fields."""
    held = {u: c for c in commands if not c.obeyed for u in c.units}
    rows: list[list[Any]] = []
    for v in verdicts:
        where = f"{v.start} - {v.end}" if v.start and v.end and v.start != v.end else (v.end or v.start or "")
        if v.kind == "place":
            where = next((a.hex for a in arrivals if a.slip == v.unit), where)
        if v.result == "stopped" and v.stop is not None:
            why = f"stopped short: {STOP_WORDS[v.stop]}"
        elif v.result == "held":
            roll = held.get(v.unit)
            who = roll.commander or "no commander" if roll else "its commander"
            why = (
                f"command roll {roll.roll} over {roll.target} ({who}), II.C"
                if roll
                else "held by command control, II.C"
            )
        elif v.result == "void":
            why = f"against the rules ({v.rule}): the order was not carried out"
        else:
            why = f"{v.spent} of {v.allowance} MP" if v.kind == "land" and v.spent is not None else ""
        rows.append([names.get(v.unit, v.unit), KINDS.get(v.kind, v.kind), RESULTS[v.result], where, why])
    return rows


def story(
    p: Packets, faction: str, before: CampaignState, after: CampaignState, names: dict[str, str]
) -> list[tuple[str, str]]:
    """The turn in sentences, each with its run-in: the event card, the battles fought, the
    command rolls, towns gained and lost, and VP."""
    said: list[tuple[str, str]] = []
    titles = {c.id: c.title for c in p.s.cards.events}
    cards = [titles.get(e, e) for e in after.events]
    said.append(("Event card:", "; ".join(cards) + "." if cards else "none drawn."))
    said += [("Battle:", text) for text in battle_lines(p, faction, after.battle_results, names)]
    rolls = [c for c in after.commands if c.faction == faction]
    if rolls:
        failed = [c for c in rolls if not c.obeyed]
        text = f"{plural(len(rolls), 'roll')}, {len(rolls) - len(failed)} obeyed"
        if failed:
            text += "; failed: " + "; ".join(
                f"{c.commander or 'no commander'} in {c.hex} ({c.roll} over {c.target})" for c in failed
            )
        said.append(("Command rolls:", text + "."))
    gained = sorted(t for t, f in after.owners.items() if f == faction and before.owners.get(t) != faction)
    lost = sorted(t for t, f in before.owners.items() if f == faction and after.owners.get(t) != faction)
    towns = []
    if gained:
        towns.append("gained " + ", ".join(gained))
    if lost:
        towns.append("lost " + ", ".join(lost))
    said.append(("Towns:", ("; ".join(towns) if towns else "none gained or lost") + "."))
    if faction in after.vp:  # VP totals drop as chart rolls spend them (E): the total now, not a change
        said.append(("VP:", f"{after.vp[faction]} now."))
    return said


def battle_lines(p: Packets, faction: str, results: Sequence[BattleResult], names: dict[str, str]) -> list[str]:
    """A sentence a battle the faction fought: where, won or lost against whom, and what each of
    its units lost and did; the enemy's units by name, as the faction met them."""
    by_battle: dict[int, list[BattleResult]] = {}
    for r in results:
        by_battle.setdefault(r.battle, []).append(r)
    lines = []
    for parts in by_battle.values():
        own = [r for r in parts if r.faction == faction]
        if not own:
            continue
        foes = [r for r in parts if r.faction != faction]
        outcome = "won" if own[0].side == "winner" else "lost"
        against = ", ".join(sorted({p.names.get(r.faction, r.faction) for r in foes})) or "the enemy"
        units = []
        for r in own:
            fate = FATES.get(r.fate, r.fate) + (f" to {r.retreat}" if r.retreat else "")
            cost = f"{plural(r.permanent, 'stand')} lost for good, {r.returning} back next turn"
            units.append(f"{names.get(r.unit, r.unit)}: {cost}; {fate}")
        enemy = "; ".join(f"{names.get(r.unit, r.unit)} {FATES.get(r.fate, r.fate)}" for r in foes)
        towns = p.c.board.towns.get(own[0].hex, ())
        place = f"{towns[0]} ({own[0].hex})" if towns else own[0].hex
        line = f"at {place}, {outcome} against the {against}. " + ". ".join(units) + "."
        lines.append(line + (f" The enemy: {enemy}." if enemy else ""))
    return lines


def _names(before: CampaignState, after: CampaignState) -> dict[str, str]:
    """Names of every piece of either state: a unit lost last turn is named as it was."""
    from kitgen.engine.piecenames import piece_names

    return piece_names(before) | piece_names(after)
