"""`kitgen report` at the terminal: the turn's battles entered contact by contact, as the table
fought them: who won, each unit's stands lost and routed by arm, where a beaten unit goes, the
equipment rolls (where the table rolls) and what the winners captured; then the breakouts the
battles leave owed (II.B.1). Each answer is a choice or a count in range; each battle is checked
by the rules as soon as it is entered, and asked again if they refuse it. All of them are
written at once, through the record, as a report form's would be."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from pathlib import Path

from kitgen import messages as msg
from kitgen.desk.words import place_words
from kitgen.engine.contacts_ahead import Contact, ContactUnit, contacts_ahead
from kitgen.engine.piecenames import piece_names
from kitgen.engine.state import BreakoutOwed, CampaignState
from kitgen.engine.turnlog import Battle, BattleUnit
from kitgen.errors import KitgenError, UsageError
from kitgen.prompts import TRIES, Asker, Option
from kitgen.record.battles import BattlesWritten, contacts_of, report_battles
from kitgen.record.rolls import TurnRolls, turn_rolls
from kitgen.reports.battleform import BattleForm, FormUnit, battle_form, equipment_purpose

YES_NO = [Option("no", "no"), Option("yes", "yes")]


def enter_battles(folder: Path, asker: Asker, turn: int | None = None, *, amend: bool = False) -> BattlesWritten | None:
    """Ask for every battle of the turn not yet reported (or, all reported, any to report again),
    then its breakouts, and write them; None when there is nothing to report."""
    at = turn_rolls(folder, turn, amend=amend)
    moved, groups = contacts_of(at.campaign, at.before, at.log)
    _ready(at, moved)
    campaign = at.campaign
    names = piece_names(at.record.start or at.before)
    contacts = contacts_ahead(campaign, at.before, at.log)
    reported = {b.hex for b in at.log.battles}
    todo = [c for c in contacts if not reported & {c.hex, *c.across}]
    owed_already = _breakouts([], {}, at, groups)
    if not todo and not owed_already and contacts:
        options = [Option(c.hex, place_words(c.hex, campaign.hex_names)) for c in contacts]
        again = asker.choose(
            "Every contact's battle is reported. Report one again?", [*options, Option("none", "none")]
        )
        todo = [c for c in contacts if c.hex == again]
    if not todo and not owed_already:
        asker.say("The turn has no battle to report." if not contacts else "Nothing reported.")
        return None
    battles: list[Battle] = []
    rolls: dict[str, int] = {}
    for contact in todo:
        battle, given = _checked(
            folder, asker, at, battles, rolls, amend, partial(_ask_battle, at, contact, asker, names)
        )
        battles.append(battle)
        rolls |= given
    for owed in _breakouts(battles, rolls, at, groups):
        asker.say(
            f"{names.get(owed.unit, owed.unit)} was beaten where it could not retreat: it must break out (II.B.1)."
        )
        battle, given = _checked(
            folder, asker, at, battles, rolls, amend, partial(_ask_breakout, at, owed, asker, names)
        )
        battles.append(battle)
        rolls |= given
    return report_battles(folder, battles, rolls, at.turn, amend=amend)


def _ready(at: TurnRolls, moved: CampaignState) -> None:
    """The battles are entered once the contacts are final: every faction's orders in, and every
    roll made up to the contacts (a command roll, the event card's, a partisan's) that decides them
    (RULES-NOTES, 2026-12-05); a roll made after the battles (a VP award's) does not hold them up."""
    from kitgen.engine.context import Unplaced
    from kitgen.engine.unfinished import turn_owes

    owes = turn_owes(at.record, at.log, Unplaced(f"turn {at.turn} log"), at.campaign.meta.dice)
    early = {r.purpose for r in moved.rolls}
    factions = sorted({o.faction for o in owes.owed if o.kind == "orders_out"})
    if any(o.kind == "untouched" for o in owes.owed):
        factions = ["every faction"]
    rolls = [o.purpose for o in owes.owed if o.kind in ("roll_missing", "roll_unwritten") and o.purpose in early]
    if factions or rolls:
        raise UsageError(msg.report_not_yet(at.turn, factions, rolls))


def _checked(
    folder: Path,
    asker: Asker,
    at: TurnRolls,
    battles: Sequence[Battle],
    rolls: Mapping[str, int],
    amend: bool,
    ask: Callable[[], tuple[Battle, dict[str, int]]],
) -> tuple[Battle, dict[str, int]]:
    """A battle asked for (`ask`), then checked with those entered before it by the rules, without
    writing: refused, its problems are said and it is asked again."""
    for _ in range(TRIES):
        battle, given = ask()
        try:
            report_battles(folder, [*battles, battle], {**rolls, **given}, at.turn, check_only=True, amend=amend)
        except KitgenError as refused:
            for p in refused.problems:
                asker.say(f"  {p.message}")
            asker.say("  Enter this battle again.")
            continue
        return battle, given
    raise UsageError(msg.prompt_gave_up("the battle", TRIES))


def _ask_battle(
    at: TurnRolls, contact: Contact, asker: Asker, names: Mapping[str, str]
) -> tuple[Battle, dict[str, int]]:
    campaign = at.campaign
    s = campaign.scenario
    form = battle_form(campaign, contact)
    sides = " against ".join(" and ".join(s.faction_name(f) for f in side) for side in form.sides)
    asker.say("")
    asker.say(f"Battle at {form.place}, turn {form.turn}: {sides}")
    winner = asker.choose("Who won?", [Option(f, s.faction_name(f)) for f in form.factions])
    winners = next(side for side in form.sides if winner in side)
    ships = [
        ship
        for ship, name, guns in form.ships
        if asker.choose(f"Did {name} fire in support ({guns} batteries, D.3)?", YES_NO, default="no") == "yes"
    ]
    units = {u.id: u for side in contact.sides for u in side.units}
    parts: dict[str, BattleUnit] = {}
    rolls: dict[str, int] = {}
    for u in form.units:
        won = u.faction in winners
        asker.say(
            f"{u.name} ({s.faction_name(u.faction)}; {_stands(u.stands, _kind_names(at))}): {'won' if won else 'beaten'}"
        )
        part, given = _ask_unit(at, u, units[u.id], won, asker)
        parts[u.id] = part
        rolls |= given
    _ask_captures(form, winners, parts, asker)
    battle = Battle(hex=form.hex, winner=winner, units=[parts[u.id] for u in form.units], ships=ships)
    return battle, rolls


def _ask_unit(
    at: TurnRolls, u: FormUnit, seen: ContactUnit, won: bool, asker: Asker
) -> tuple[BattleUnit, dict[str, int]]:
    kinds = _kind_names(at)
    lost: dict[str, int] = {}
    routed: dict[str, int] = {}
    for kind, have in u.stands.items():
        lost[kind] = asker.count(f"  {kinds.get(kind, kind)} stands lost", 0, have, default=0)
        if have - lost[kind]:
            routed[kind] = asker.count(f"  {kinds.get(kind, kind)} stands routed", 0, have - lost[kind], default=0)
    rolls: dict[str, int] = {}
    if won and at.campaign.meta.dice == "table":  # II.B.3: the winner rolls for each equipment stand lost
        for kind in u.equipment:
            for k in range(1, lost.get(kind, 0) + 1):
                rolls[equipment_purpose(u.id, kind, k, at.turn)] = asker.count(
                    f"  D6 for {kinds.get(kind, kind)} stand {k} lost (II.B.3: even, repaired)", 1, 6
                )
    ammo: dict[str, int] = {}
    if seen.in_supply is False:  # B.6: out of supply, it carries on with what it has left
        for kind, full in u.ammo.items():
            left = asker.count(
                f"  rounds a {kinds.get(kind, kind)} stand has left (B.6)", 0, full, default=seen.ammo.get(kind, full)
            )
            if left != seen.ammo.get(kind, full):
                ammo[kind] = left
    retreat, surrender = None, False
    if not won:
        towns = at.campaign.hex_names
        across = {h: d for d, h in u.sides.items()}
        options = [
            Option(h, f"retreats to {place_words(h, towns)}, {across.get(h, '')} side", (across.get(h, ""),))
            for h in seen.retreats
        ]
        if not options:
            options = [
                Option("breakout", "cannot retreat: breaks out (II.B.1)")
                if u.exempt
                else Option("surrender", "cannot retreat: surrenders (II.B.1)")
            ]
        fate = asker.choose("  Where does it go?", options) if len(options) > 1 else options[0].key
        if len(options) == 1:
            asker.say(f"  It {options[0].label}.")
        if fate == "surrender":
            surrender = True
        elif fate != "breakout":
            retreat = fate
    part = BattleUnit(
        unit=u.id,
        lost={k: n for k, n in lost.items() if n},
        routed={k: n for k, n in routed.items() if n},
        retreat=retreat,
        surrender=surrender,
        ammo_left=ammo,
    )
    return part, rolls


def _ask_captures(form: BattleForm, winners: Sequence[str], parts: dict[str, BattleUnit], asker: Asker) -> None:
    """II.B.3: the losers' routed equipment the winner's units take, unit by unit."""
    from kitgen.reports.battleform import capturable

    spoils: dict[str, int] = {}
    for u in form.units:
        if u.faction not in winners:
            for kind in u.equipment:
                spoils[kind] = spoils.get(kind, 0) + parts[u.id].routed.get(kind, 0)
    for u in form.units:
        if u.faction not in winners:
            continue
        taken: dict[str, int] = {}
        for kind in capturable(form, u):
            if spoils.get(kind, 0):
                taken[kind] = asker.count(f"{u.name}: {kind} stands captured (II.B.3)", 0, spoils[kind], default=0)
                spoils[kind] -= taken[kind]
        if any(taken.values()):
            parts[u.id] = parts[u.id].model_copy(update={"captured": {k: n for k, n in taken.items() if n}})


def _breakouts(
    battles: Sequence[Battle], rolls: Mapping[str, int], at: TurnRolls, groups: Mapping[str, tuple[str, ...]]
) -> list[BreakoutOwed]:
    """The breakouts the log's battles with those entered (each in its contact's place) leave
    owed, in the order they were beaten."""
    from kitgen.engine.turn import play_turn
    from kitgen.record.battles import merged_battles
    from kitgen.record.dicelog import with_given

    merged = at.log.model_copy(update={"battles": merged_battles(at.log, battles, groups).result(at.log.battles)})
    record = play_turn(at.campaign, at.before, with_given(merged, dict(rolls)))
    return list(record.breakouts_owed)


def _ask_breakout(
    at: TurnRolls, owed: BreakoutOwed, asker: Asker, names: Mapping[str, str]
) -> tuple[Battle, dict[str, int]]:
    """II.B.1: the hex it attacks (an adjacent one holding enemies), who won, and the losses."""
    from kitgen.engine.turn import play_phases

    campaign = at.campaign
    s = campaign.scenario
    moved = play_phases(campaign, at.before, at.log.model_copy(update={"battles": []}), through="contacts")[1]
    unit = moved.unit(owed.unit)
    assert unit is not None
    into = [
        h
        for h in campaign.board.neighbours(owed.hex)
        if any(
            u.hex == h and u.aboard is None and not moved.allied(u.faction, unit.faction, moved.turn)
            for u in moved.units
        )
    ]
    if not into:
        raise UsageError(msg.report_no_breakout(names.get(unit.id, unit.id), owed.hex))
    towns = campaign.hex_names
    target = asker.choose("  Into which hex does it break out?", [Option(h, place_words(h, towns)) for h in into])
    defenders = [u for u in moved.units if u.hex == target and u.aboard is None]
    factions = list(dict.fromkeys([unit.faction, *(u.faction for u in defenders)]))
    winner = asker.choose("  Who won the breakout?", [Option(f, s.faction_name(f)) for f in factions])
    won = moved.allied(unit.faction, winner, moved.turn)
    parts = [BattleUnit(unit=unit.id, breakout=True, lost=_losses(unit.id, unit.stands, names, asker))]
    for d in defenders:
        lost = _losses(d.id, d.stands, names, asker)
        retreat = None
        if won and not moved.allied(d.faction, unit.faction, moved.turn):
            ways = [h for h in campaign.board.neighbours(target) if h != owed.hex]
            retreat = asker.choose(
                f"  Where does {names.get(d.id, d.id)} retreat?", [Option(h, place_words(h, towns)) for h in ways]
            )
        parts.append(BattleUnit(unit=d.id, lost=lost, retreat=retreat))
    return Battle(hex=target, winner=winner, units=parts), {}


def _losses(unit: str, stands: Mapping[str, int], names: Mapping[str, str], asker: Asker) -> dict[str, int]:
    lost = {
        kind: asker.count(f"  {names.get(unit, unit)}: {kind.replace('_', ' ')} stands lost", 0, n, default=0)
        for kind, n in stands.items()
    }
    return {k: n for k, n in lost.items() if n}


def _stands(stands: Mapping[str, int], kinds: Mapping[str, str]) -> str:
    return ", ".join(f"{n} {kinds.get(kind, kind)}" for kind, n in stands.items())


def _kind_names(at: TurnRolls) -> dict[str, str]:
    """Stand kind -> its name as the rules print it, short ('infantry', 'machine-gun')."""
    from kitgen.render.formstyle import short_stand_name

    return {k.id: short_stand_name(k.name) for k in at.campaign.scenario.transport.stands}
