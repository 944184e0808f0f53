"""The campaign state as JSON for tools and as text for the umpire."""

from __future__ import annotations

import json

from kitgen.campaign import Campaign
from kitgen.engine.state import CampaignState


def state_json(state: CampaignState) -> str:
    return json.dumps(state.to_json(), indent=1, ensure_ascii=False) + "\n"


def state_text(campaign: Campaign, state: CampaignState) -> str:
    s = campaign.scenario
    out = [f"{s.meta.title}: state after turn {state.turn}" + (" (the set-up)" if state.turn == 0 else ""), ""]
    out.append("VP: " + ", ".join(f"{s.faction_name(f)} {v}" for f, v in state.vp.items()))
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
            out.append(f"  {u.hex}  {u.name} [{u.type}: {stands}]{lead}; {supply}{proof}")
    if state.contacts:
        out += ["", "Contacts (battles to fight): " + ", ".join(state.contacts)]
    if state.verdicts:
        out += ["", "Orders"] + [f"  {v.text()}" for v in state.verdicts]
    if state.events:
        names = {c.id: c.title for c in s.cards.events}
        out += ["", "Event cards drawn (II.A): " + ", ".join(names.get(e, e) for e in state.events)]
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
    return "\n".join(out) + "\n"
