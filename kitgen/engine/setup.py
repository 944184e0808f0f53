"""Turn 0: the scenario's set-up made into the campaign's first state."""

from __future__ import annotations

import random

from kitgen.campaign import Campaign
from kitgen.engine.piecenames import train_names
from kitgen.engine.rolls import seed_for
from kitgen.engine.state import CampaignState, UnitState
from kitgen.model.scenario import name_key


def initial_state(campaign: Campaign) -> CampaignState:
    """Turn 0: the set-up on the map."""
    hexes = campaign.board.places
    setup = campaign.setup
    supply = campaign.scenario.supply
    units = tuple(
        UnitState.raised(u, supply, id=u.id, faction=u.faction, hex=hexes[name_key(u.at)], commander=u.commander)
        for u in setup.units
    )
    named = train_names(campaign.scenario, setup)
    cards = [c.id for c in campaign.scenario.cards.events]
    random.Random(seed_for(campaign, "II.A event deck")).shuffle(cards)
    return CampaignState(
        turn=0,
        deck=tuple(cards),
        piles={f: tuple(slip.id for slip in pile) for f, pile in sorted(campaign.scenario.cards.piles.items())},
        units=units,
        owners=dict(sorted(setup.owners.items())),
        vp={f.id: 0 for f in campaign.scenario.meta.factions if f.scores_vp},
        wrecked_track=tuple(sorted(hexes[name_key(n)] for n in setup.destroyed_track)),
        alliances=tuple((a.factions[0], a.factions[1], a.turns) for a in setup.alliances),
        ships=tuple(
            {"id": s.id, "faction": s.faction, "name": s.name, "hex": hexes[name_key(s.at)], "gunfire": s.gunfire}
            for s in setup.ships
        ),
        trains=tuple(
            {
                "id": t.id,
                "faction": t.faction,
                "hex": hexes[name_key(t.at)],
                "armoured": t.armoured,
                "name": named[t.id],
            }
            for t in setup.trains
        ),
        depots=tuple({"faction": d.faction, "hex": hexes[name_key(d.at)]} for d in setup.depots),
    )
