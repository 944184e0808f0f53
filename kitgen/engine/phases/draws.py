"""II.E: the reinforcement slips owed this turn, drawn from each faction's pile."""

from __future__ import annotations

import random
from dataclasses import replace

from kitgen.campaign import Campaign
from kitgen.engine.rolls import seed_for
from kitgen.engine.state import CampaignState


def draw_slips(campaign: Campaign, state: CampaignState) -> CampaignState:
    """II.E: the draws owed are drawn from the faction's pile (shuffled from the seed for each
    draw); a slip goes back into the pile unless it says otherwise. Placing what arrives is the
    umpire's: the log's `place` orders put them on the map (E.3-E.5)."""
    cards = {slip.id: slip for pile in campaign.scenario.cards.piles.values() for slip in pile}
    piles = dict(state.piles)
    drawn: dict[str, tuple[str, ...]] = dict(state.slips)  # with any still waiting to be placed
    notes = list(state.umpire)
    for faction, count in sorted({**state.draws}.items()):
        pile = list(piles.get(faction, ()))
        for k in range(1, count + 1):
            if not pile:
                break
            rng = random.Random(seed_for(campaign, f"II.E {faction} draw {k}, turn {state.turn}"))
            slip = cards[pile[rng.randrange(len(pile))]]
            drawn[faction] = (*drawn.get(faction, ()), slip.id)
            if not slip.returns_to_pile:
                pile.remove(slip.id)
            notes.append(f"{faction} draw {k}: {slip.text}")
        piles[faction] = tuple(pile)
    return replace(state, piles=piles, slips=drawn, umpire=tuple(notes))
