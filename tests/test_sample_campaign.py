"""The sample campaign `data/sample-campaign/` (issue 4): six turn logs of `denikin-1919`, May to
July 1919, that between them play every rule the engine judges. Each test finds one rule's
evidence in the state of the turn that shows it; every roll that matters is given in the logs,
so none of this depends on the campaign's seed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kitgen.campaign import Campaign, load_campaign
from kitgen.cli import app
from kitgen.engine.phases.arrivals import arrival_id
from kitgen.engine.replay import replay
from kitgen.engine.report import state_text
from kitgen.engine.state import CampaignState, Roll, UnitState, Verdict
from kitgen.mapping.board import Board
from kitgen.rules.command import obey_target
from kitgen.rules.paths import land_path
from kitgen.scenariofolders import data_dir

SAMPLE = data_dir() / "sample-campaign"
TURNS = 6


@pytest.fixture(scope="module")
def campaign(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Campaign]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("KITGEN_CACHE", str(tmp_path_factory.mktemp("map-cache")))
        yield load_campaign(SAMPLE)


@pytest.fixture(scope="module")
def states(campaign: Campaign) -> dict[int, CampaignState]:
    """The state after each turn, 0 (the set-up) to 6."""
    return {turn: replay(campaign, turn) for turn in range(TURNS + 1)}


def unit(state: CampaignState, unit_id: str) -> UnitState:
    found = state.unit(unit_id)
    assert found is not None, f"{unit_id} is not on the map after turn {state.turn}"
    return found


def verdict(state: CampaignState, unit_id: str, order: str | None = None) -> Verdict:
    """The one verdict of the turn on that unit (or train, or ship), of that order if given."""
    found = [v for v in state.verdicts if v.unit == unit_id and (order is None or v.order == order)]
    assert len(found) == 1, found
    return found[0]


def roll(state: CampaignState, purpose: str) -> Roll:
    found = [r for r in state.rolls if r.purpose == purpose]
    assert len(found) == 1, [r.purpose for r in state.rolls]
    return found[0]


def log_line(turn: int, text: str) -> int:
    """The line of the turn's log where `text` stands (once)."""
    lines = (SAMPLE / "turns" / f"turn-{turn:02d}.yaml").read_text(encoding="utf-8").splitlines()
    found = [n for n, line in enumerate(lines, 1) if text in line]
    assert len(found) == 1, found
    return found[0]


def test_the_sample_is_a_valid_campaign_of_six_turns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KITGEN_CACHE", str(tmp_path))
    result = CliRunner().invoke(app, ["validate", str(SAMPLE)])
    assert result.exit_code == 0, result.output
    assert "campaign of denikin-1919, seed 1919" in result.output and ": ok: 6 turns, " in result.output


def test_every_roll_of_every_turn_is_given_in_the_logs(states: dict[int, CampaignState]) -> None:
    """ "Fix every roll that matters": the sample plays the same whatever the seed."""
    for turn in range(1, TURNS + 1):
        drawn = [r.purpose for r in states[turn].rolls if r.source != "given"]
        assert states[turn].rolls and not drawn, (turn, drawn)


def test_C1_a_train_carries_the_kharkov_communists_and_A2_they_make_no_map_move(
    states: dict[int, CampaignState],
) -> None:
    """C.1: a train carries 12 points along intact track; A.2: carried units make no map move."""
    assert unit(states[0], "r_kharkov_communist").hex == "2909"  # Kharkov
    s = states[1]
    rail = verdict(s, "r_train_kharkov")
    assert (rail.rule, rail.result) == ("C.1", "done")
    assert rail.file.endswith("turns/turn-01.yaml") and rail.line == log_line(1, "train: r_train_kharkov")
    assert rail.explanation.endswith("7 hexes, carrying r_kharkov_communist (4 of 12 points)")
    assert next(t for t in s.trains if t["id"] == "r_train_kharkov")["hex"] == "3313"  # Slavyansk
    carried = unit(s, "r_kharkov_communist")
    assert carried.hex == "3313" and carried.carried and carried.moved
    land = verdict(s, "r_kharkov_communist")
    assert (land.rule, land.result, land.order) == ("A.2", "void", "path 2909-3009")
    assert land.line == log_line(1, "{unit: r_kharkov_communist, move:")
    assert "embarked or detrained this turn, so no map move" in land.explanation
    # the Whites rail the Kuban Plastuns to Novorossiisk on turn 4, for the Sevastopol landing
    plastuns = verdict(states[4], "w_train_ekaterinodar")
    assert (plastuns.rule, plastuns.result) == ("C.1", "done")
    assert "carrying w_kuban_plastuns (4 of 12 points)" in plastuns.explanation
    assert unit(states[4], "w_kuban_plastuns").hex == "3428"


def test_A3_slashchev_lands_from_the_sea_at_kirillovka(states: dict[int, CampaignState], campaign: Campaign) -> None:
    """A.3: only infantry land on a coastal hex; D.1: the ship moves through sea hexes from a port."""
    assert unit(states[1], "w_crimea_azov_2").hex == "3026"  # Kerch
    s = states[2]
    landing = verdict(s, "w_tr_rion")
    assert (landing.rule, landing.result) == ("A.3", "done")
    assert landing.explanation.endswith("5 hexes, carrying w_crimea_azov_2 (3 of 16 points); lands them on 2722")
    brigade = unit(s, "w_crimea_azov_2")
    assert brigade.hex == "2722" and brigade.carried and brigade.type == "infantry"
    assert next(x for x in s.ships if x["id"] == "w_tr_rion")["hex"] == "2723"
    hexes = {h.id: h for h in campaign.hex_map.hexes}
    assert hexes["2722"].coastal and not hexes["2722"].port
    assert Board.from_map(campaign.hex_map).is_sea("2723")
    # turn 5: two more landings either side of Sevastopol
    s5 = states[5]
    assert verdict(s5, "w_hms_marlborough").explanation.endswith("(8 of 16 points); lands them on 2228")
    assert verdict(s5, "w_tr_saratov").explanation.endswith("(4 of 16 points); lands them on 2229")
    assert [unit(s5, u).hex for u in ("w_crimea_azov_1", "w_7th_inf_div", "w_kuban_plastuns")] == [
        "2228",
        "2228",
        "2229",
    ]


def test_A4_an_armoured_car_that_moved_breaks_down(states: dict[int, CampaignState], campaign: Campaign) -> None:
    """A.4: 2D6 a vehicle each turn armoured cars move on the map; lost on a 2 or 3."""
    (rule,) = [b for b in campaign.scenario.movement.breakdown if b.unit_type == "armoured_car"]
    assert unit(states[0], "r_armoured_cars").stands == {"armoured_car": 2}
    s = states[1]
    first = roll(s, "A.4 r_armoured_cars vehicle 1 breakdown, turn 1")
    second = roll(s, "A.4 r_armoured_cars vehicle 2 breakdown, turn 1")
    assert (first.dice, first.value, first.source) == ("2D6", 3, "given") and first.value in rule.fails_on
    assert second.value == 8 and second.value not in rule.fails_on
    cars = unit(s, "r_armoured_cars")
    assert cars.hex == "2912" and cars.moved and not cars.carried
    assert cars.stands == {"armoured_car": 1}
    assert verdict(s, "r_armoured_cars").explanation.endswith(
        "path 2909-2910-2911-2912 costs 3 MP (open 1, open 1, open 1)"
    )


def test_C2_slashchev_wrecks_the_track_at_2621_and_the_railway_troops_repair_it(
    states: dict[int, CampaignState],
) -> None:
    """C.2: an infantry unit of 3+ stands wrecks the track of a hex it entered; an RR repair unit
    that did not move repairs up to 2 wrecked hexes; no train runs over wrecked track: it stops
    before it (ruling of 2026-12-02), and runs on the next turn once the track is repaired."""
    assert "2621" not in states[2].wrecked_track
    wreck = verdict(states[3], "w_crimea_azov_2", "wreck 2621")
    assert (wreck.rule, wreck.result) == ("C.2", "done")
    assert wreck.explanation == "Crimean-Azov Composite Brigade (infantry, 3 stands): wrecks the track in 2621"
    assert "2621" in states[3].wrecked_track and "2621" in states[4].wrecked_track
    s5 = states[5]
    blocked = verdict(s5, "r_at_ekaterinoslav")
    assert (blocked.rule, blocked.result, blocked.stop, blocked.end) == ("C.2", "stopped", "wrecked", "2721")
    assert "track wrecked in 2621" in blocked.explanation
    assert verdict(states[6], "r_at_ekaterinoslav").end == "2621"
    repair = verdict(s5, "r_railway_troops", "repair 2621")
    assert (repair.rule, repair.result) == ("C.2", "done")
    troops = unit(s5, "r_railway_troops")
    assert troops.type == "rr_repair" and troops.hex == "2621" and not troops.moved
    assert "2621" not in s5.wrecked_track and "2621" not in states[6].wrecked_track
    through = verdict(states[6], "r_at_ekaterinoslav")
    assert (through.rule, through.result) == ("C.1", "done")
    assert next(t for t in states[6].trains if t["id"] == "r_at_ekaterinoslav")["hex"] == "2621"


def test_B3_the_crimean_army_is_cut_off_by_the_wrecked_line(states: dict[int, CampaignState]) -> None:
    """B.3: a unit is in supply only over a trace to a rail line joined to a source; the wreck at
    2621 (and Slashchev on the line) cut the Crimea off from turn 4."""
    before = unit(states[3], "r_crimean_army")
    assert before.in_supply is True and before.hex == "2328" and "2621" in before.supply_path
    assert before.supply_path[0] == "2328" and before.supply_path[-1] == "2901"  # a Red rail exit
    for turn in (4, 5):
        cut = unit(states[turn], "r_crimean_army")
        assert cut.in_supply is False and cut.supply_path == (), turn
    assert unit(states[4], "r_crimean_army").hex == "2129"  # it fell back on Sevastopol


def test_II_D1_shchus_evades_shkuro_at_volnovakha(states: dict[int, CampaignState]) -> None:
    """II.D.1: partisans met by the enemy may choose to evade, and the log says they do (RULES-NOTES:
    it is their choice, never assumed); each side rolls a D6; on a higher total they evade: no
    battle, and they count as absent (the town passes to the Whites)."""
    s = states[1]
    assert log_line(1, '{hex: "3318", faction: makhnovists, choice: evade}') > 0
    assert roll(s, "II.D.1 makhnovists evade in 3318, turn 1").value == 5
    assert roll(s, "II.D.1 enemy of makhnovists in 3318, turn 1").value == 2
    assert "II.D.1 makhnovists in 3318 evade (5+0 against 2): no battle" in s.umpire
    assert ("3318", "makhnovists") in s.evaded and "3318" not in s.contacts
    assert unit(s, "w_shkuro_cav").hex == "3318" and unit(s, "m_shchus_cav").hex == "3318"
    assert "partisan" in unit(s, "m_shchus_cav").flags
    assert s.owners["Volnovakha"] == "whites" and states[0].owners["Volnovakha"] == "makhnovists"


def test_II_D2_makhno_springs_an_ambush_at_gulai_pole(states: dict[int, CampaignState]) -> None:
    """II.D.2: partisans who had not moved may ambush: a 6, +1 with Makhno; the battle follows."""
    s = states[2]
    ambush = roll(s, "II.D.2 makhnovists ambush in 2918, turn 2")
    assert (ambush.dice, ambush.value, ambush.source) == ("D6", 5, "given")
    assert any(n.startswith("II.D.2 makhnovists in 2918: 5+1: springs the ambush") for n in s.umpire)
    hq = unit(s, "m_makhno_hq")
    assert hq.hex == "2918" and unit(states[1], "m_makhno_hq").hex == "2918" and not hq.moved
    assert hq.commander == "Makhno"
    shkuro = verdict(s, "w_shkuro_cav", "battle 2918")
    assert shkuro.rule == "II.B" and shkuro.explanation.endswith(
        "loser: 2 stands lost for good, 0 stands back next turn; retreats to 3018"
    )
    assert unit(s, "w_shkuro_cav").hex == "3018" and unit(s, "w_shkuro_cav").stands == {"cavalry": 2}


def test_II_B_konstantinovka_the_13th_army_loses_stands_and_retreats(states: dict[int, CampaignState]) -> None:
    """II.B.3: the winner loses 40% of its lost stands for good, the loser 55% (half up), half the
    loser's routed stands desert; the rest rejoin next turn. II.B.1: the loser retreats one hex."""
    before = unit(states[1], "r_13th_army_42nd")
    assert before.hex == "3414" and before.stands == {"infantry": 4, "machine_gun": 1}
    s = states[2]
    loser = verdict(s, "r_13th_army_42nd", "battle 3414")
    assert (loser.rule, loser.result) == ("II.B", "done")
    assert loser.explanation == (
        "13th Army (42nd Rifle Div), loser: 2 stands lost for good, 1 stand back next turn; retreats to 3314"
    )
    after = unit(s, "r_13th_army_42nd")
    assert after.hex == "3314" and after.stands == {"infantry": 1, "machine_gun": 1}  # 2 lost, 1 routed
    assert ("r_13th_army_42nd", "infantry", 1) in s.returning and ("w_kornilov_1", "infantry", 1) in s.returning
    winner = unit(s, "w_kornilov_1")
    assert winner.hex == "3414" and winner.stands == {"infantry": 3, "machine_gun": 1}
    # turn 3: the routed stand is back, and the mixed drafts (E.3) add 2 infantry and a machine gun
    assert unit(states[3], "r_13th_army_42nd").stands == {"infantry": 4, "machine_gun": 2}
    assert unit(states[3], "w_kornilov_1").stands == {"infantry": 4, "machine_gun": 1}
    assert "3414" not in s.contacts  # the loser has left the hex


def test_II_B1_the_crimean_army_surrenders_at_sevastopol(states: dict[int, CampaignState], campaign: Campaign) -> None:
    """II.B.1: a loser that cannot retreat (surrounded or pinned by terrain) surrenders unless it
    is Elite or Fanatic. Sevastopol's only land exits, 2228 and 2229, are held by the Whites."""
    board = Board.from_map(campaign.hex_map)
    exits = {
        n
        for n in board.neighbours("2129")
        if land_path(board, campaign.scenario.movement, "infantry", ["2129", n], mp_modifier=99).complete
    }
    assert exits == {"2228", "2229"}
    army = unit(states[5], "r_crimean_army")
    assert army.hex == "2129" and not {"elite", "fanatic"} & set(army.flags)
    s = states[6]
    assert s.unit("r_crimean_army") is None
    surrender = verdict(s, "r_crimean_army", "battle 2129")
    assert surrender.rule == "II.B" and surrender.explanation.endswith(
        "cannot retreat and surrenders, all its stands lost (II.B.1)"
    )
    assert surrender.line == log_line(6, "{unit: r_crimean_army, lost:")
    assert {u.faction for u in states[5].units if u.hex in exits} == {"whites"}
    assert unit(s, "w_7th_inf_div").hex == "2129" and s.owners["Sevastopol"] == "whites"


def test_II_B1_the_fanatic_sailors_break_out_of_sevastopol(states: dict[int, CampaignState]) -> None:
    """II.B.1: "Elite/Fanatic units must then immediately attack enemy in other hex that very same
    turn to break out or perish"; RULES-NOTES: the log reports that battle like any other, and its
    winner ends in the hex it broke into. The sailors, beaten with the Crimean Army, beat the
    Kuban Plastuns in 2229 and end there; the Plastuns fall back on 2228."""
    sailors = unit(states[5], "r_black_sea_sailors")
    assert sailors.hex == "2129" and "fanatic" in sailors.flags
    s = states[6]
    cornered = verdict(s, "r_black_sea_sailors", "battle 2129")
    assert cornered.explanation.endswith("cannot retreat: Elite/Fanatic, it must attack at once to break out or perish")
    broke = verdict(s, "r_black_sea_sailors", "battle 2229")
    assert broke.explanation.endswith("breaks out into 2229 (II.B.1)")
    assert broke.line == log_line(6, "{unit: r_black_sea_sailors, breakout: true}")
    assert unit(s, "r_black_sea_sailors").hex == "2229" and unit(s, "w_kuban_plastuns").hex == "2228"
    assert not any("no breakout battle" in n for n in s.umpire)


def test_II_C2_shkuro_goes_on_retreating_whatever_his_roll(states: dict[int, CampaignState]) -> None:
    """II.C.2: "Failure to make rating means that the unit(s) involved do not move ... Exception:
    Units can always continue to retreat that is what they are doing currently." Beaten at Gulai
    Pole on turn 2, Shkuro's Wolves retreat on east on turn 3 though Shkuro rolls 9 against his 8."""
    assert unit(states[2], "w_shkuro_cav").hex == "3018"
    s = states[3]
    assert roll(s, "II.C Shkuro command roll, turn 3").value == 9
    retreat = verdict(s, "w_shkuro_cav", "retreat 3018-3118-3218")
    assert retreat.result == "done" and "retreating, it is not held by its command roll" in retreat.explanation
    assert unit(s, "w_shkuro_cav").hex == "3218"


def test_E_vp_awards_on_turns_3_and_6_with_the_red_bonus_and_chart_rolls(
    states: dict[int, CampaignState], campaign: Campaign
) -> None:
    """E.2: VP every 3rd turn; E.3: the Reds add 3D6; II.E.2: a chart roll for each threshold
    reached (Reds 30, Whites 45), subtracted each time; E.6: the Makhnovist strength roll."""
    victory = campaign.scenario.victory
    awards = {3: (16, {"reds": [2, 1]}), 6: (15, {"reds": [5, 2, 1], "whites": [3]})}
    for turn in range(1, TURNS + 1):
        bonus = [r for r in states[turn].rolls if r.purpose.startswith("E.3 reds 3D6 bonus VP")]
        if turn not in awards:
            assert not bonus and states[turn].vp == states[turn - 1].vp
            continue
        s = states[turn]
        red_bonus, charts = awards[turn]
        assert [(r.dice, r.value, r.source) for r in bonus] == [("3D6", red_bonus, "given")]
        for faction, values in charts.items():
            rolled = [r for r in s.rolls if r.purpose.startswith(f"II.E.2 {faction} reinforcement chart")]
            assert [r.purpose for r in rolled] == [
                f"II.E.2 {faction} reinforcement chart, roll {k}, turn {turn}" for k in range(1, len(values) + 1)
            ]
            assert [r.value for r in rolled] == values
        draws = {f: sum(victory.reinforcement_chart.draws[f][v - 1] for v in values) for f, values in charts.items()}
        assert s.draws == draws
        assert roll(s, f"E.6 makhnovists strength, turn {turn}").source == "given"
    assert states[3].draws == {"reds": 7}  # chart rolls 2 and 1: 4 + 3 draws
    assert states[3].vp == {"reds": 21, "whites": 23, "ukrainians": 1}  # Reds: 65 in towns + 16, less 2 x 30
    assert states[6].vp == {"reds": 10, "whites": 2, "ukrainians": 2}


def test_II_C_mai_maevsky_fails_and_his_next_roll_is_one_easier(
    states: dict[int, CampaignState], campaign: Campaign
) -> None:
    """II.C.1: obey on a D10 at or under the rating (Mai-Maevsky 8); II.C.2: on a failure the units
    do not move; II.C.4: each failure in a row makes the next roll 1 easier."""
    commander = campaign.scenario.find_commander("Mai-Maevsky")
    assert commander is not None and commander.dependability == 8
    s1 = states[1]
    assert roll(s1, "II.C Mai-Maevsky command roll, turn 1").value == 9
    held = verdict(s1, "w_drozdovsky_1")
    assert (held.rule, held.result) == ("II.C", "held")
    assert "command roll 9 over 8 (Mai-Maevsky): the unit does not move, II.C.2" in held.explanation
    assert unit(s1, "w_drozdovsky_1").hex == "3416" and s1.command_failures.get("Mai-Maevsky") == 1
    s2 = states[2]
    eased = roll(s2, "II.C Mai-Maevsky command roll, turn 2")
    assert eased.value == 9 > commander.dependability
    assert obey_target(campaign.scenario.command, commander.dependability, failures=1, adjacent=False) == 9
    moved = verdict(s2, "w_drozdovsky_1")
    assert (moved.result, moved.order) == ("done", "path 3416-3316")
    assert unit(s2, "w_drozdovsky_1").hex == "3316" and "Mai-Maevsky" not in s2.command_failures


def test_II_A_an_event_roll_of_6_draws_the_top_card(states: dict[int, CampaignState], campaign: Campaign) -> None:
    """II.A.1: a D6 each turn; on a 6 the top card of the deck is drawn and applied."""
    top = states[0].deck[0]
    assert top == "all_against_kolchak"
    card = next(c for c in campaign.scenario.cards.events if c.id == top)
    s = states[1]
    assert (roll(s, "II.A event roll, turn 1").value, s.events) == (6, (top,))
    assert top not in s.deck and not card.returns_to_deck
    # II.A.2 "acted upon immediately": the Reds' choice of stands, in the log's `remove`
    assert unit(s, "r_8th_army").stands == {"infantry": 2, "machine_gun": 1}
    assert unit(s, "r_13th_army_art").stands == {"artillery": 1}
    assert not [n for n in s.umpire if n.startswith(f"{top}: ")]
    for turn in range(2, TURNS + 1):
        assert states[turn].events == () and roll(states[turn], f"II.A event roll, turn {turn}").value != 6


def test_A1_an_order_across_the_dnieper_without_a_bridge_stops_where_it_stood(
    states: dict[int, CampaignState],
) -> None:
    """A.1: a major river is crossed only at a bridge (or pontoon); the unit's first hex is beyond
    it, so it stays where it stood (RULES-NOTES, ruling of 2026-12-02)."""
    s = states[1]
    void = verdict(s, "r_kharkov_district")
    assert (void.rule, void.result, void.stop, void.order) == ("A.1", "stopped", "river", "path 2614-2714")
    assert unit(s, "r_kharkov_district").hex == "2614"
    assert void.file.endswith("turns/turn-01.yaml") and void.line == log_line(1, "{unit: r_kharkov_district, move:")
    assert "a major river is crossed only at a bridge" in void.explanation
    assert void.text() == f"{void.file}:{void.line}: {void.explanation}"
    assert unit(s, "r_kharkov_district").hex == "2614" and not unit(s, "r_kharkov_district").moved


def test_two_replays_give_the_same_state(states: dict[int, CampaignState], campaign: Campaign) -> None:
    again = replay(load_campaign(SAMPLE))
    assert again.turn == TURNS
    assert again.to_json() == states[TURNS].to_json()


def test_A1_a_pontoon_over_the_volga_carries_the_tsaritsyn_guns(states: dict[int, CampaignState]) -> None:
    """A.1: "Takes full movement just to emplace pontoons and cross": turn 2 the company bridges
    the Volga (5313-5412) and the guns cross on it, their whole move; turn 4 it is taken up."""
    s = states[2]
    assert verdict(s, "r_volga_pontoons").explanation.endswith("emplaces a pontoon across the river, 5313-5412")
    crossing = verdict(s, "r_tsaritsyn_art")
    assert crossing.result == "done" and "major river by pontoon or ferry: the whole move" in crossing.explanation
    assert unit(s, "r_tsaritsyn_art").hex == "5412"
    assert [p["hexes"] for p in states[3].pontoons] == [["5313", "5412"]]
    assert states[4].pontoons == () and verdict(states[4], "r_volga_pontoons").explanation.endswith(
        "picks up its pontoon"
    )


def test_E3_reinforcements_placed_at_the_end_of_the_award_turn(states: dict[int, CampaignState]) -> None:
    """E.3: Red reinforcements "show up anywhere on friendly board edges" (2901 is on the north
    edge); replacements go to units in supply. The slips not placed wait (RULES-NOTES)."""
    s = states[3]
    arrived = [u for u in s.units if u.hex == "2901" and u.faction == "reds"]
    assert [(u.name, u.stands) for u in arrived] == [
        ("1st Cavalry Army: 11th Cavalry Division", {"cavalry": 4, "tachanka": 1})
    ]
    assert unit(s, "r_4th_cav_div").stands["cavalry"] == unit(states[2], "r_4th_cav_div").stands["cavalry"] + 2
    assert s.slips["reds"] == (
        "red_reserve_army_draft",
        "red_railway_troops",
        "red_reserve_army_draft",
        "red_estonian_rifles",
    )
    don = [u for u in states[6].units if u.hex == "3827" and u.name == "Don Cossack regiment"]
    assert len(don) == 1 and states[6].slips["whites"] == ("white_british_battery",)  # E.4: in Ekaterinodar


def test_B7_the_crimean_army_draws_on_its_cut_off_depot(states: dict[int, CampaignState]) -> None:
    """B.7: "If a depot is cut off from supply lines, first turn it is utilized for resupply roll a
    D6 and on a 1 emptied." Sevastopol's Red depot is cut off with the line at 2621; a 4 keeps it."""
    s = states[5]
    army = unit(s, "r_crimean_army")
    assert army.hex == "2129" and army.in_supply is False
    used = verdict(s, "r_crimean_army", "resupply")
    assert (used.result, used.rule) == ("done", "B.7")
    assert roll(s, "B.7 depot in 2129 cut off, use 1, turn 5").value == 4
    assert [d["uses"] for d in s.depots if d["hex"] == "2129"] == [1]


def test_D3_and_II_B2_the_battleship_fires_and_the_depot_is_taken(states: dict[int, CampaignState]) -> None:
    """D.3: ships fire "into coastal hexes", each worth its rating in batteries (HMS Marlborough
    4, at sea in 2128 off Sevastopol); II.B.2: "depots captured automatically if enemy units
    enter hexes they are in"."""
    s = states[6]
    assert "D.3 HMS Marlborough (Royal Navy) fires in support in 2129: 4 batteries" in s.umpire
    assert [d["faction"] for d in s.depots if d["hex"] == "2129"] == ["whites"]


def test_D1_the_tanks_stay_aboard_at_sea_between_turns_and_go_ashore_at_kerch(
    states: dict[int, CampaignState],
) -> None:
    """D.1 (RULES-NOTES): "they may stay aboard at sea between turns and land or go ashore on a
    later turn". Turn 4: the Zharkiy takes the tanks from Novorossiisk to the sea hex 3329;
    turn 5: into Kerch, where they go ashore."""
    at_sea = unit(states[4], "w_tank_det")
    assert (at_sea.hex, at_sea.aboard) == ("3329", "w_dd_zharkiy")
    ashore = unit(states[5], "w_tank_det")
    assert (ashore.hex, ashore.aboard) == ("3026", None)
    sailed = verdict(states[5], "w_dd_zharkiy")
    assert (sailed.result, sailed.kind, sailed.start, sailed.end, sailed.spent) == ("done", "sea", "3329", "3026", 4)


def test_A1_the_railway_battalion_crosses_the_don_by_the_aksai_ferry(states: dict[int, CampaignState]) -> None:
    """A.1: "Major river hexsides must be crossed at bridge points on map or with
    pontoons/ferries. Takes full movement"; the Aksai ferry takes 2 units a turn."""
    assert unit(states[4], "w_railway_bn").hex == "4018"
    crossed = verdict(states[5], "w_railway_bn")
    assert (crossed.result, crossed.end) == ("done", "4019")
    assert "by the ferry 4018-4019 (1 of its 2 units this turn)" in crossed.explanation


def test_II_E_placed_units_are_named_from_their_slip_and_turn(states: dict[int, CampaignState]) -> None:
    """A unit placed from a slip takes its id from the slip and the turn, the verdict naming it."""
    assert arrival_id("red_first_cavalry", 3, set()) == "red_first_cavalry_t3"
    assert arrival_id("red_first_cavalry", 3, {"red_first_cavalry_t3"}) == "red_first_cavalry_t3b"
    assert arrival_id("red_first_cavalry", 3, {"red_first_cavalry_t3", "red_first_cavalry_t3b"}) == (
        "red_first_cavalry_t3c"
    )
    state = states[3]
    placed = state.unit("red_first_cavalry_11th_t3")
    assert placed is not None and placed.hex == "2901"
    (verdict,) = [v for v in state.verdicts if v.order == "place" and v.unit == "red_first_cavalry_11th"]
    assert "as red_first_cavalry_11th_t3 in 2901" in verdict.explanation


def test_the_state_text_shows_unit_ids_trains_and_ships(campaign: Campaign, states: dict[int, CampaignState]) -> None:
    """Each unit with its id (for the next log to name), then the trains and the ships."""
    state = states[1]
    text = state_text(campaign, state)
    for u in state.units:
        assert f"  {u.hex}  {u.id}: {u.name} [" in text
    assert f"\nTrains ({len(state.trains)})\n" in text and f"\nShips ({len(state.ships)})\n" in text
    assert "  3313  r_train_kharkov: Reds\n" in text and "r_at_lugansk: Reds, armoured" in text
    for ship in state.ships:
        assert f"  {ship['hex']}  {ship['id']}: {ship['name']}, Whites\n" in text


def test_A2_a_carried_unit_names_its_carrier_for_the_turn(states: dict[int, CampaignState]) -> None:
    """A.2: a unit moved by train or ship this turn; the state says which, until the next judgement."""
    assert unit(states[1], "r_kharkov_communist").carrier == "r_train_kharkov"
    assert unit(states[5], "w_7th_inf_div").carrier == "w_hms_marlborough"
    assert unit(states[2], "r_kharkov_communist").carrier is None
    assert all(u.carrier is None for u in states[0].units)
