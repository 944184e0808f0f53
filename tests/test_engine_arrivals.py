"""E.3-E.6 at the end of an award turn: where reinforcements arrive, who may take replacements,
and the Makhnovists matching their Current Strength Chart. Turn 3 is the first award turn (E.2);
the logs give the Reds' 3D6 and chart rolls so that they draw slips."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from kitgen.campaign import load_campaign
from kitgen.engine.phases.arrivals import arrival_hexes
from kitgen.engine.replay import replay
from kitgen.engine.setup import initial_state
from kitgen.engine.state import CampaignState
from kitgen.errors import KitgenError
from tests.conftest import log

AWARD = (
    'dice:\n  - {purpose: "E.3 reds 3D6 bonus VP, turn 3", value: 18}\n'
    '  - {purpose: "II.E.2 reds reinforcement chart, roll 1, turn 3", value: 6}\n'
    '  - {purpose: "E.6 makhnovists strength, turn 3", value: 6}\n'
)


def award_turns(folder: Path, place: str = "") -> CampaignState:
    log(folder, 1)
    log(folder, 2)
    log(folder, 3, place + AWARD)
    return replay(load_campaign(folder))


def test_E3_slips_drawn_wait_to_be_placed(folder: Path) -> None:
    """II.E.1: "the appropriate faction rolls on one of the charts ... to see how many draws they
    get"; II.E.2: a 6 gives the Reds seven draws, a 1 three. Until the log places them, they wait."""
    state = award_turns(folder)
    red_draws = {1: 3, 2: 4, 3: 4, 4: 5, 5: 5, 6: 7}
    charts = [r.value for r in state.rolls if r.purpose.startswith("II.E.2 reds")]
    assert charts[0] == 6 and state.draws["reds"] == sum(red_draws[v] for v in charts)
    assert len(state.slips["reds"]) == state.draws["reds"]
    log(folder, 4)
    assert replay(load_campaign(folder)).slips["reds"] == state.slips["reds"]


def test_E3_red_reinforcements_show_up_on_the_north_edge(folder: Path) -> None:
    """E.3: "Reinforcements show up anywhere on friendly board edges (north or east above
    Tsaritsyn)." A Red unit slip placed in 2901 (row 01, the north edge) arrives; one placed in
    Kharkov (2909) is void and waits."""
    campaign = load_campaign(folder)
    drawn = award_turns(folder).slips["reds"]
    slips = {s.id: s for s in campaign.scenario.cards.piles["reds"]}
    with_units = [s for s in drawn if slips[s].units]
    assert len(with_units) >= 2, drawn  # the seed's draw has unit slips to place
    first, second = with_units[:2]
    state = award_turns(
        folder, f'place:\n  reds:\n    - {{slip: {first}, at: "2901"}}\n    - {{slip: {second}, at: "2909"}}\n'
    )
    done, void = [v for v in state.verdicts if v.rule == "E.3"]
    assert done.result == "done" and void.result == "void" and "is not the north edge" in void.explanation
    arrived = [u for u in state.units if u.hex == "2901" and u.faction == "reds"]
    assert [u.stands for u in arrived] == [dict(sorted(s.stands.items())) for s in slips[first].units]
    assert second in state.slips["reds"]
    assert state.slips["reds"].count(first) == drawn.count(first) - 1


def test_E3_replacements_go_to_units_in_supply(folder: Path) -> None:
    """E.3: "Replacements can be given to any unit on map not out of supply or surrounded by
    enemy held hexes." The drafts go to the Kharkov Communist Regiment, in supply."""
    campaign = load_campaign(folder)
    drawn = award_turns(folder).slips["reds"]
    slips = {s.id: s for s in campaign.scenario.cards.piles["reds"]}
    drafts = next(s for s in drawn if slips[s].replacements and not slips[s].units)
    give = ", ".join(f"{k}: {n}" for k, n in slips[drafts].replacements.items())
    before = replay(load_campaign(folder), 2).unit("r_kharkov_communist")
    state = award_turns(
        folder, f"place:\n  reds:\n    - {{slip: {drafts}, give: {{r_kharkov_communist: {{{give}}}}}}}\n"
    )
    after = state.unit("r_kharkov_communist")
    assert before is not None and after is not None and after.in_supply
    for kind, n in slips[drafts].replacements.items():
        assert after.stands[kind] == before.stands.get(kind, 0) + n


def test_E4_whites_arrive_in_a_supply_source_town_they_hold(folder: Path) -> None:
    """E.4: "the reinforcements must show up in one of their initial supply source cities"
    (Ekaterinodar 3827, Novorossiisk 3428); RULES-NOTES: with all of them lost, they wait."""
    campaign = load_campaign(folder)
    state = initial_state(campaign)
    assert arrival_hexes(campaign, state, "whites")[0] == {"3827", "3428"}
    lost = replace(state, owners={**state.owners, "Ekaterinodar": "reds", "Novorossiisk": "reds"})
    assert arrival_hexes(campaign, lost, "whites")[0] == set()


def test_E5_ukrainians_arrive_in_kiev_or_their_westernmost_town(folder: Path) -> None:
    """E.5: "Reinforcements in Kiev if they hold it otherwise in westernmost city they occupy";
    RULES-NOTES: "lowest column, then lowest row". At the start the Reds hold Kiev."""
    campaign = load_campaign(folder)
    state = initial_state(campaign)
    towns = {t: h.id for h in campaign.hex_map.hexes for t in h.towns}
    held = sorted(towns[t] for t, owner in state.owners.items() if owner == "ukrainians" and t in towns)
    assert state.owners["Kiev"] == "reds"
    assert arrival_hexes(campaign, state, "ukrainians")[0] == {held[0]}
    kiev = replace(
        state,
        owners={**state.owners, "Kiev": "ukrainians"},
        units=tuple(u for u in state.units if u.hex != "1307"),  # no enemy left in Kiev
    )
    assert arrival_hexes(campaign, kiev, "ukrainians")[0] == {"1307"}


def test_E6_makhnovists_raise_units_up_to_their_strength_row(folder: Path) -> None:
    """E.6: "roll on their Current Strength Chart for total forces they can employ next 3 turns.
    This may entail disbanding units or adding new ones onto order of battle." A 6 (holding
    Gulai Pole: no modifier) allows 14 infantry stands; with 6, two corps of 4 may be raised,
    not a third of 3."""
    state = award_turns(
        folder,
        "place:\n  makhnovists:\n"
        '    - {slip: strength, at: "2918", units: [Donetsk Insurgent Corps, Azov Insurgent Corps]}\n'
        '    - {slip: strength, at: "2918", units: [Ekaterinoslav Insurgent Corps]}\n',
    )
    done, void = [v for v in state.verdicts if v.faction == "makhnovists"]
    assert done.result == "done" and void.result == "void" and "17 infantry against 14" in void.explanation
    raised = [u for u in state.units if u.name.endswith("Insurgent Corps")]
    assert [(u.id, u.name, u.hex, u.stands, u.flags) for u in raised] == [
        ("strength_t3", "Donetsk Insurgent Corps", "2918", {"infantry": 4, "machine_gun": 1}, ("partisan",)),
        ("strength_t3b", "Azov Insurgent Corps", "2918", {"infantry": 4, "machine_gun": 1}, ("partisan",)),
    ]
    assert "Donetsk Insurgent Corps as strength_t3, Azov Insurgent Corps as strength_t3b in 2918" in done.explanation


def test_E6_makhnovists_disband_units(folder: Path) -> None:
    """E.6: "This may entail disbanding units": the Berdyansk regiment goes home."""
    state = award_turns(folder, "disband:\n  makhnovists: [m_berdyansk_regt]\n")
    assert state.unit("m_berdyansk_regt") is None
    assert any(note.startswith("E.6 makhnovists field") for note in state.umpire)


def test_E3_replacements_are_given_never_taken(folder: Path) -> None:
    """E.3: "Replacements can be given to any unit": a negative count is a malformed order."""
    log(
        folder,
        1,
        "place:\n  reds:\n    - {slip: red_rifle_drafts, give: {r_8th_army: {infantry: 8}, r_16th_div: {infantry: -4}}}\n",
    )
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    assert any("'infantry: -4'" in p.message and "1 or more" in p.message for p in caught.value.problems)


def test_a_given_roll_its_dice_cannot_show_is_reported_at_its_line(folder: Path) -> None:
    """Dice: a D6 shows 1 to 6; a 9 written for the reinforcement chart stops the replay at that
    line, before any use of it."""
    log(folder, 1)
    log(folder, 2)
    log(
        folder,
        3,
        'dice:\n  - {purpose: "E.3 reds 3D6 bonus VP, turn 3", value: 18}\n'
        '  - {purpose: "II.E.2 reds reinforcement chart, roll 1, turn 3", value: 9}\n',
    )
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    (problem,) = caught.value.problems
    assert problem.line == 4 and "found 9, but D6 rolls 1 to 6" in problem.message


def test_E6_makhnos_own_band_is_not_disbanded(folder: Path) -> None:
    """E.6 "-2 if Makhno is dead": disbanding is not his death, so his own band stays (void)."""
    state = award_turns(folder, "disband:\n  makhnovists: [m_makhno_hq]\n")
    assert state.unit("m_makhno_hq") is not None
    (verdict,) = [v for v in state.verdicts if v.order == "disband"]
    assert verdict.result == "void" and "Makhno's own band" in verdict.explanation
