"""The campaign state as JSON for tools and as text for the umpire."""

from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any

from kitgen.campaign import Campaign
from kitgen.engine.state import CampaignState
from kitgen.errors import joined_lines
from kitgen.messages import plural
from kitgen.rules.ending import ending, ending_text


def state_json(state: CampaignState, campaign: Campaign | None = None, *, finished: bool = True) -> str:
    """The state as JSON; with its campaign, also `ending`: whether the campaign is over and who
    won, said only of a turn `finished` (RULES-NOTES, 2026-12-05)."""
    data = state.to_json()
    if campaign is not None:
        data["ending"] = ending_json(campaign, state, finished=finished)
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


def ending_json(campaign: Campaign, state: CampaignState, *, finished: bool = True) -> dict[str, Any]:
    """The ending after the state's turn (RULES-NOTES, 2026-12-02) as plain values."""
    end = ending(campaign.scenario, state, finished=finished)
    return {**asdict(end), "draw": end.draw, "ended_after": end.ended_after, "play_on": campaign.meta.play_on}


def ending_line(campaign: Campaign, state: CampaignState, *, finished: bool = True) -> str:
    """'Turns: 4 days each. The last turn, 3, has been played: the Whites win (...).'"""
    s = campaign.scenario
    end = ending(s, state, finished=finished)
    days = plural(end.days_per_turn, "day")
    return f"Turns: {days} each. {ending_text(s, end, play_on=campaign.meta.play_on and end.over)}"


def state_text(campaign: Campaign, state: CampaignState, *, finished: bool = True) -> str:
    s = campaign.scenario
    out = [f"{s.meta.title}: state after turn {state.turn}" + (" (the set-up)" if state.turn == 0 else ""), ""]
    out.append("VP: " + ", ".join(f"{s.faction_name(f)} {v}" for f, v in state.vp.items()))
    out.append(ending_line(campaign, state, finished=finished))
    for faction in s.meta.factions:
        units = [u for u in state.units if u.faction == faction.id]
        out += ["", f"{faction.name} ({len(units)} units)"]
        for u in units:
            stands = ", ".join(f"{n} {k}" for k, n in u.stands.items())
            supply = {None: "supply not judged yet", True: "in supply", False: "OUT OF SUPPLY"}[u.in_supply]
            proof = f" via {'-'.join(u.supply_path)}" if u.supply_path else ""
            if u.supply_path and u.supply_path[0] != u.hex:
                proof += f" (judged in {u.supply_path[0]} at the start of the turn)"
            lead = f", {u.commander}" if u.commander else ""
            ammo = _ammo(state, u.id)
            fuel = "; IMMOBILISED (out of fuel, B.8)" if u.immobilised else ""
            ship = next((x["name"] for x in state.ships if x["id"] == u.aboard), u.aboard)
            aboard = f"; aboard {ship} (D.1)" if u.aboard else ""
            out.append(f"  {u.hex}  {u.id}: {u.name} [{u.type}: {stands}]{lead}; {supply}{proof}{ammo}{fuel}{aboard}")
    if state.trains:
        out += ["", f"Trains ({len(state.trains)})"]
        out += [
            f"  {t['hex']}  {t['id']}: {s.faction_name(t['faction'])}" + (", armoured" if t.get("armoured") else "")
            for t in state.trains
        ]
    if state.ships:
        out += ["", f"Ships ({len(state.ships)})"]
        out += [f"  {x['hex']}  {x['id']}: {x['name']}, {s.faction_name(x['faction'])}" for x in state.ships]
    if state.depots:
        out += ["", "Depots: " + ", ".join(_depot(d) for d in state.depots)]
    if state.pontoons:
        out += [
            "",
            "Pontoons (A.1): " + ", ".join(f"{p['unit']} across {'-'.join(p['hexes'])}" for p in state.pontoons),
        ]
    if state.abandoned:
        out += ["", "Abandoned vehicles (B.8): " + ", ".join(f"{a['unit']} in {a['hex']}" for a in state.abandoned)]
    if state.wrecked_track:
        out += ["", "Track wrecked (C.2): " + ", ".join(state.wrecked_track)]
    if state.slips:
        out += [
            "",
            "Slips to place (E.3-E.5): " + "; ".join(f"{f}: {', '.join(ids)}" for f, ids in state.slips.items()),
        ]
    if state.contacts:
        from kitgen.engine.phases.postbattle import contact_groups

        groups = [g[0] if len(g) == 1 else f"{' and '.join(g)} (across a hexside)" for g in contact_groups(state)]
        out += ["", "Contacts (battles to fight): " + ", ".join(groups)]
    if state.verdicts:
        out += ["", "Orders"] + [f"  {v.text()}" for v in state.verdicts]
    if state.events:
        names = {c.id: c.title for c in s.cards.events}
        out += ["", "Event cards drawn (II.A): " + ", ".join(names.get(e, e) for e in state.events)]
    if state.in_force:
        titles = {c.id: c.title for c in s.cards.events}
        lasting = ", ".join(f"{titles.get(c.card, c.card)} to turn {c.last}" for c in state.in_force)
        out += ["", f"Event cards in force over battles (II.A.2): {lasting}"]
    if state.umpire:
        out += ["", "For the umpire"] + [f"  {note}" for note in state.umpire]
    if state.makhnovist_strength:
        out += ["", f"Makhnovist strength (E.6): {state.makhnovist_strength}"]
    if state.draws:
        out += [
            "",
            "Reinforcement draws (II.E): " + ", ".join(f"{s.faction_name(f)} {n}" for f, n in state.draws.items()),
        ]
    if state.rolls:
        out += ["", "Rolls"] + [f"  {r.purpose}: {r.dice} = {r.value} ({r.source})" for r in state.rolls]
    return joined_lines(out)


def _ammo(state: CampaignState, unit_id: str) -> str:
    """B.5-B.6: full loads say nothing; a unit out of supply shows what it has left."""
    unit = state.unit(unit_id)
    if unit is None or unit.in_supply or not unit.ammo:
        return ""
    return "; ammo " + ", ".join(f"{k} {n}" for k, n in unit.ammo.items()) + " per stand"


def _depot(d: dict[str, object]) -> str:
    cut = f" (cut off, used {d.get('uses', 0)})" if d.get("cut_off") else ""
    return f"{d['faction']} {d['hex']}{cut}"
