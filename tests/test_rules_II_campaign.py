"""Rule cases for part II: random events, post-battle, command control and partisans."""

from __future__ import annotations

from fractions import Fraction

import pytest

from kitgen.errors import UsageError
from kitgen.model.scenario import Scenario
from kitgen.rules import battle, command, events, partisans


def test_II_A1_event_card_on_a_6(scenario: Scenario) -> None:
    """'every strategic turn a single D6 is rolled after all movement is plotted... If a 6 comes up - then draw a single events card.'"""
    assert scenario.events.roll == "D6"
    assert [events.draws_event(scenario.events, r) for r in range(1, 7)] == [False] * 5 + [True]
    assert events.event_chance(scenario.events) == Fraction(1, 6)


def test_II_A2_cards_discarded_unless_stated(scenario: Scenario) -> None:
    """'The card is then discarded from the deck unless it specifically is stated not to do so.'"""
    assert scenario.events.discard_after_use is True


def test_II_B1_loser_retreats_one_hex(scenario: Scenario) -> None:
    """'Loser of tabletop battle retreats one hex from enemy.'"""
    assert scenario.battle.retreat_hexes == 1


def test_II_B3_winner_40_percent_permanent_60_return(scenario: Scenario) -> None:
    """'Winner - 40% of losses in tabletop battle permanent 60% return to unit strengths next turn'"""
    assert (scenario.battle.winner.permanent_pct, scenario.battle.winner.return_pct) == (40, 60)
    r = battle.losses(scenario.battle, "winner", 5)
    assert (r.permanent, r.returning) == (2, 3)


def test_II_B3_loser_55_percent_permanent_45_return(scenario: Scenario) -> None:
    """'Loser - 55% of losses in tabletop battle permanent 45% return to unit strengths next turn'"""
    assert (scenario.battle.loser.permanent_pct, scenario.battle.loser.return_pct) == (55, 45)
    r = battle.losses(scenario.battle, "loser", 10)
    assert (r.permanent, r.returning) == (6, 4)  # 5.5 rounds half up


def test_II_B3_permanent_losses_round_half_up(scenario: Scenario) -> None:
    """RULES-NOTES: 'permanent losses are rounded half up, stand by stand'."""
    assert battle.losses(scenario.battle, "winner", 4).permanent == 2  # 1.6
    assert battle.losses(scenario.battle, "winner", 1).permanent == 0  # 0.4
    assert battle.losses(scenario.battle, "loser", 1).permanent == 1  # 0.55


def test_II_B3_loser_routed_half_desert_rounded_up(scenario: Scenario) -> None:
    """'50% of routed troops desert or captured unless Elite/Fanatic'; RULES-NOTES: 'half (rounded up)'."""
    r = battle.losses(scenario.battle, "loser", 0, routed=3)
    assert (r.routed_lost, r.routed_returning) == (2, 1)


def test_II_B3_elite_routed_do_not_desert(scenario: Scenario) -> None:
    """'...unless Elite/Fanatic'"""
    assert scenario.battle.loser.routed_lost_exempt == ["elite", "fanatic"]
    r = battle.losses(scenario.battle, "loser", 0, routed=3, exempt=True)
    assert (r.routed_lost, r.routed_returning) == (0, 3)


def test_II_B3_winner_routed_all_return(scenario: Scenario) -> None:
    """RULES-NOTES: 'the winner's routed stands all return next turn'."""
    r = battle.losses(scenario.battle, "winner", 0, routed=4)
    assert (r.routed_lost, r.routed_returning) == (0, 4)


def test_II_B3_winner_equipment_even_recovered(scenario: Scenario) -> None:
    """'Equipment losses: Roll D6 - EVEN - Repaired, recovered; ODD - Lost for campaign'"""
    assert [battle.equipment_recovered(scenario.battle, "winner", r) for r in range(1, 7)] == [False, True] * 3


def test_II_B3_loser_equipment_lost(scenario: Scenario) -> None:
    """'Equipment Losses: Lost for campaign except for routed equipment captured.'"""
    assert scenario.battle.loser.equipment == "lost"
    assert battle.equipment_recovered(scenario.battle, "loser") is False


def test_II_C1_obey_on_D10_at_or_under_rating(scenario: Scenario) -> None:
    """'Simply roll a D10 and must get rating or less to have commander do as told.'"""
    assert scenario.command.roll == "D10"
    assert command.obeys(scenario.command, 7, 7) and not command.obeys(scenario.command, 8, 7)
    assert command.obey_chance(scenario.command, 7) == Fraction(7, 10)


def test_II_C1_no_commander_adjacent_1_to_4(scenario: Scenario) -> None:
    """'If no commander present in hex, units must roll D10 and get 1-4 if adjacent to a commander in another hex'"""
    assert command.obey_target(scenario.command, None, adjacent=True) == 4


def test_II_C1_no_commander_further_away_1_to_3(scenario: Scenario) -> None:
    """'...or 1-3 if further away.'"""
    assert command.obey_target(scenario.command, None, adjacent=False) == 3


def test_II_C4_failure_bonus_is_cumulative(scenario: Scenario) -> None:
    """'Next turn after failure, subtract 1 from dependability roll to make it more likely they will obey. This will be cumulative.'"""
    assert [command.obey_target(scenario.command, 5, failures=n) for n in range(4)] == [5, 6, 7, 8]


def test_II_C1_leaderless_units_still_follow_rule_4(scenario: Scenario) -> None:
    """'These still follow Rule 4.'"""
    assert command.obey_target(scenario.command, None, failures=2, adjacent=False) == 5


def test_II_C_denikin_keeps_the_seed_rating_of_1(scenario: Scenario) -> None:
    """RULES-NOTES: 'Denikin's rating is printed as 1: keep 1 (the seed's value)'."""
    denikin = scenario.find_commander("Denikin")
    assert denikin is not None and denikin.dependability == 1
    assert command.obey_chance(scenario.command, 1) == Fraction(1, 10)


def test_II_C_odds_never_pass_certainty(scenario: Scenario) -> None:
    assert command.obey_chance(scenario.command, 10, failures=3) == 1


def test_II_D1_evade_modifiers(scenario: Scenario) -> None:
    """'+2 Makhno is present; +2 partisans in forest or mountains; +1 enemy forces have no cavalry in hex'"""
    mods = {m.id: m.value for m in scenario.partisans.evade.modifiers}
    assert mods == {"makhno_present": 2, "forest_or_mountain": 2, "enemy_without_cavalry": 1}
    assert partisans.total_modifier(scenario.partisans.evade.modifiers, mods) == 5


def test_II_D1_partisans_evade_only_on_higher_total(scenario: Scenario) -> None:
    """'Roll a D6 for each side and add modifiers - if partisans have higher total no battle takes place.'"""
    assert partisans.evades(4, 3, 0)
    assert not partisans.evades(3, 3, 0)
    assert partisans.evades(3, 4, 2)
    assert partisans.evade_chance(scenario.partisans, 0) == Fraction(15, 36)


def test_II_D2_ambush_on_a_6(scenario: Scenario) -> None:
    """'Roll a D6 and if a 6 rolled then ambush is successful.'"""
    assert [partisans.ambush_succeeds(scenario.partisans, r, 0) for r in range(1, 7)] == [False] * 5 + [True]


def test_II_D2_ambush_plus_1_with_makhno(scenario: Scenario) -> None:
    """'+1 if Makhno present.' RULES-NOTES: 'succeeds on 6 (5-6 with Makhno present)'."""
    mod = partisans.total_modifier(scenario.partisans.ambush.modifiers, ["makhno_present"])
    assert mod == 1
    assert partisans.ambush_chance(scenario.partisans, mod) == Fraction(2, 6)


def test_II_D4_makhnovists_never_more_than_3_batteries(scenario: Scenario) -> None:
    """'the Makhnovists may never have more than 3 total artillery batteries at any one time.'"""
    assert scenario.partisans.artillery_cap == 3
    assert partisans.guns_kept(scenario.partisans, held=2, captured=2) == (1, 1)
    assert partisans.guns_kept(scenario.partisans, held=0, captured=2) == (2, 0)


def test_II_D_unknown_modifier(scenario: Scenario) -> None:
    with pytest.raises(UsageError) as caught:
        partisans.total_modifier(scenario.partisans.evade.modifiers, ["fog"])
    assert caught.value.msg.code == "lookup.unknown_modifier" and "'fog'" in caught.value.msg.text
