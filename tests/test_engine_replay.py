"""Replaying a campaign's turn logs (issue 4): the parts played so far, clause by clause."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from kitgen.campaign import load_campaign, new_campaign
from kitgen.engine.replay import replay
from kitgen.errors import KitgenError
from tests.conftest import edit, log


def test_A1_a_path_too_long_stops_the_unit_and_says_why(folder: Path) -> None:
    """Issue 4: the verdict is reported "with the order's file:line, the unit and the rule". A.1:
    cavalry have 4 MP; RULES-NOTES (ruling of 2026-12-02): the unit "stops in the last hex it can
    pay for ... the rest of the path is dropped"."""
    start = replay(load_campaign(folder)).unit("r_4th_cav_div")
    assert start is not None and start.hex == "4521"
    log(
        folder,
        1,
        'orders:\n  reds:\n    - {unit: r_4th_cav_div, move: ["4521", "4620", "4720", "4820", "4920", "5020"]}\n'
        'dice:\n  - {purpose: "II.C Budenny command roll, turn 1", value: 1}\n',
    )
    state = replay(load_campaign(folder))
    unit = state.unit("r_4th_cav_div")
    assert unit is not None and unit.hex == "4920" and unit.moved
    (verdict,) = state.verdicts
    assert (verdict.result, verdict.stop, verdict.rule, verdict.line) == ("stopped", "mp", "A.1", 4)
    assert verdict.text().endswith(
        "4th Cavalry Div (cavalry, 4 MP): path 4521-4620-4720-4820-4920-5020 costs 4 MP "
        "(open 1, open 1, open 1, open 1) to 4920, then stops before 5020 (1 MP more, and it has 0 of "
        "its 4 left), the rest dropped, A.1"
    )


def test_A_a_lawful_move_is_made(folder: Path) -> None:
    """A table: infantry 2 MP, open 1: one hex is within the move."""
    log(folder, 1, drozdovsky_order(8))
    unit = replay(load_campaign(folder)).unit("w_drozdovsky_1")
    assert unit is not None and unit.hex == "3417" and unit.moved


def drozdovsky_order(roll: int, turn: int = 1, start: str = "3416", end: str = "3417") -> str:
    return (
        f'orders:\n  whites:\n    - {{unit: w_drozdovsky_1, move: ["{start}", "{end}"]}}\n'
        f'dice:\n  - {{purpose: "II.C Mai-Maevsky command roll, turn {turn}", value: {roll}}}\n'
    )


def test_II_C1_a_commander_over_his_rating_holds_his_units(folder: Path) -> None:
    """II.C.1: "roll a D10 and must get rating or less to have commander do as told"; II.C.2:
    "Failure to make rating means that the unit(s) involved do not move". Mai-Maevsky is rated 8."""
    log(folder, 1, drozdovsky_order(9))
    state = replay(load_campaign(folder))
    unit = state.unit("w_drozdovsky_1")
    assert unit is not None and unit.hex == "3416"
    (verdict,) = state.verdicts
    assert verdict.result == "held" and verdict.rule == "II.C"
    assert "command roll 9 over 8 (Mai-Maevsky)" in verdict.explanation
    assert state.command_failures == {"Mai-Maevsky": 1}


def test_II_C4_after_a_failure_the_next_roll_is_1_easier(folder: Path) -> None:
    """II.C.4: "Next turn after failure, subtract 1 from dependability roll to make it more likely
    they will obey. This will be cumulative." A 9 fails Mai-Maevsky (8) once, then obeys."""
    log(folder, 1, drozdovsky_order(9))
    log(folder, 2, drozdovsky_order(9, turn=2))
    state = replay(load_campaign(folder))
    unit = state.unit("w_drozdovsky_1")
    assert unit is not None and unit.hex == "3417" and state.command_failures == {}


def test_A4_armoured_cars_roll_2D6_per_vehicle_and_break_down_on_2_or_3(folder: Path) -> None:
    """A.4: "Every turn any armored cars move on the strategic map, roll 2 D6 per vehicle for
    mechanical breakdown on rolls of 2 or 3. Vehicle is lost for duration of campaign." The Red
    armoured cars (2 vehicles, with Trotsky's regiment in Kharkov) move one hex."""
    cars = replay(load_campaign(folder)).unit("r_armoured_cars")
    assert cars is not None and cars.stands == {"armoured_car": 2}
    step = "2910"
    log(
        folder,
        1,
        f'orders:\n  reds:\n    - {{unit: r_armoured_cars, move: ["{cars.hex}", "{step}"]}}\n'
        "dice:\n"
        '  - {purpose: "II.C Trotsky command roll, turn 1", value: 1}\n'
        '  - {purpose: "A.4 r_armoured_cars vehicle 1 breakdown, turn 1", value: 3}\n'
        '  - {purpose: "A.4 r_armoured_cars vehicle 2 breakdown, turn 1", value: 7}\n',
    )
    state = replay(load_campaign(folder))
    moved = state.unit("r_armoured_cars")
    assert moved is not None and moved.hex == step, state.verdicts
    assert moved.stands == {"armoured_car": 1}
    assert [r.source for r in state.rolls if r.purpose.startswith("A.4")] == ["given", "given"]
    assert "A.4 Kharkov Armoured Car Detachment: vehicle 1 breaks down on a 3, lost for the campaign" in state.umpire


def test_a_malformed_log_stops_the_replay_at_its_line(folder: Path) -> None:
    """Issue 4: "A malformed log (unknown unit, bad hex id, missing field, wrong type) is an error
    that stops the replay with file:line:column and what would be right; nothing is half-applied"."""
    log(folder, 1, 'orders:\n  whites:\n    - {unit: w_nobody, move: ["3416", "9999"]}\n')
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    text = [str(p) for p in caught.value.problems]
    assert any(":4:14: orders.whites[0].unit: found 'w_nobody', which is no unit on the map" in t for t in text), text
    assert any("move[1]: found '9999', which is not a hex of the map" in t for t in text), text
    # an unquoted hex id of plain digits is that hex (issue 22); a number of another kind is none
    log(folder, 1, "orders:\n  whites:\n    - {unit: w_drozdovsky_1, move: [3416, 3417.5]}\n")
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    assert "found 3417.5, expected a hex id in quotes, like '0304'" in str(caught.value.problems[0])


def test_B2_supply_is_judged_at_the_start_of_each_turn(folder: Path) -> None:
    """B.2: "All units will be judged as to if they are in or out of supply at the beginning of
    each strategic turn"; the state gives the hexes that prove it (issue 4)."""
    assert all(u.in_supply is None for u in replay(load_campaign(folder)).units)
    log(folder, 1)
    state = replay(load_campaign(folder))
    assert all(u.in_supply is not None for u in state.units)
    kharkov = state.unit("r_kharkov_communist")
    assert kharkov is not None and kharkov.in_supply and kharkov.supply_path[0] == kharkov.hex


def test_E2_VP_are_added_at_the_end_of_every_3rd_turn(folder: Path) -> None:
    """E.2: "Faction occupying city/town at end of each 3rd Strategic turn gets the VPs added to
    their total"; E.3: the Reds "roll 3 D6 worth of extra VPs every 3rd Strategic turn"."""
    for turn in (1, 2):
        log(folder, turn)
    assert replay(load_campaign(folder)).vp == {"reds": 0, "whites": 0, "ukrainians": 0}
    log(folder, 3, 'orders: {}\ndice:\n  - {purpose: "E.3 reds 3D6 bonus VP, turn 3", value: 11}\n')
    state = replay(load_campaign(folder))
    bonus = [r for r in state.rolls if r.purpose.startswith("E.3")]
    assert [(r.value, r.source) for r in bonus] == [(11, "given")]
    campaign = load_campaign(folder)
    held = sum(t.vp["whites"] or 0 for t in campaign.scenario.towns if campaign.setup.owners[t.name] == "whites")
    assert state.vp["whites"] == held % 45 and held < 90  # E.4: a chart roll per 45


def test_E3_chart_rolls_while_the_total_is_at_or_above_30(folder: Path) -> None:
    """E.3: "Every time the Red VP total reaches 30 - pts. the Reds roll on their ... Chart then
    subtract 30" (RULES-NOTES: again while still at or above it); rolls not given are drawn from
    the campaign's seed and say so."""
    for turn in (1, 2, 3):
        log(folder, turn)
    state = replay(load_campaign(folder))
    charts = [r for r in state.rolls if r.purpose.startswith("II.E.2 reds")]
    assert charts and all(r.source == "drawn" and 1 <= r.value <= 6 for r in charts)
    assert 0 <= state.vp["reds"] < 30
    assert state.draws["reds"] >= 3 * len(charts)  # II.E.2: the Red chart gives 3 to 7 draws a roll


def test_the_same_logs_give_the_same_state(folder: Path, tmp_path: Path) -> None:
    """Issue 4: "Replaying the sample campaign gives the same state every time, on any machine"."""
    for turn in (1, 2, 3):
        log(folder, turn)
    env = {**os.environ, "KITGEN_CACHE": str(tmp_path / "cache")}
    runs = [
        subprocess.run(
            [sys.executable, "-m", "kitgen", "state", str(folder), "--format", "json"],
            capture_output=True,
            check=True,
            env={**env, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2")
    ]
    assert runs[0] == runs[1] and b'"turn": 3' in runs[0]


def test_a_turn_log_out_of_order_is_refused(folder: Path) -> None:
    """Logs run turn-01, turn-02, ... with no gap."""
    log(folder, 2)
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    (problem,) = caught.value.problems
    assert problem.code == "log.turn_out_of_order" and "expected turn-01.yaml" in problem.message


def event_log(roll: int) -> str:
    return f'orders: {{}}\ndice:\n  - {{purpose: "II.A event roll, turn 1", value: {roll}}}\n'


@pytest.mark.parametrize("roll", [1, 5])
def test_II_A1_no_card_unless_a_6(folder: Path, roll: int) -> None:
    """II.A.1: a D6 every strategic turn; "on a 6 draw one event card" (events.yaml: draw_on [6])."""
    log(folder, 1, event_log(roll))
    state = replay(load_campaign(folder))
    assert state.events == () and len(state.deck) == len(load_campaign(folder).scenario.cards.events)


def test_II_A1_a_6_draws_the_top_card_and_spends_it(folder: Path) -> None:
    """II.A.1 on a 6; RULES-NOTES: "Event cards (II.A.2) are discarded after use unless the card
    says it goes back into the deck"."""
    campaign = load_campaign(folder)
    top = replay(campaign).deck[0]
    card = next(c for c in campaign.scenario.cards.events if c.id == top)
    log(folder, 1, event_log(6))
    state = replay(load_campaign(folder))
    assert state.events == (top,)
    assert (top in state.deck) == card.returns_to_deck
    assert len(state.deck) == len(campaign.scenario.cards.events) - (0 if card.returns_to_deck else 1)


def test_the_deck_is_shuffled_from_the_campaign_seed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Deterministic: the same seed, the same deck; another seed, another order."""
    monkeypatch.setenv("KITGEN_CACHE", str(tmp_path / "cache"))
    decks = []
    for name, seed in (("a", 1), ("b", 1), ("c", 2)):
        new_campaign(tmp_path / name, "denikin-1919", seed)
        decks.append(replay(load_campaign(tmp_path / name)).deck)
    assert decks[0] == decks[1] != decks[2] and sorted(decks[0]) == sorted(decks[2])


def test_II_A2_card_effects_in_rule_terms(folder: Path) -> None:
    """Card effects the engine applies (cards.yaml): VP, extra draws, an alliance, wrecked track,
    a town changing hands, new units, lasting movement and command modifiers, a supply cut; what
    it cannot apply goes to the umpire."""
    from kitgen.engine.context import modifier as _modifier
    from kitgen.engine.phases.events import apply_effect
    from kitgen.model.forces import Effect

    campaign = load_campaign(folder)
    state = replay(campaign)
    kharkov = next(h.id for h in campaign.hex_map.hexes if "Kharkov" in h.towns)

    def after(**effect: object) -> object:
        return apply_effect(campaign, state, "test_card", Effect.model_validate(effect))

    assert after(kind="vp", faction="whites", amount=3).vp["whites"] == 3  # type: ignore[attr-defined]
    assert after(kind="draws", faction="reds", draws=2).draws == {"reds": 2}  # type: ignore[attr-defined]
    allied = after(kind="alliance", factions=["whites", "ukrainians"], turns=2)
    assert allied.allied("whites", "ukrainians", 1) and not allied.allied("whites", "ukrainians", 3)  # type: ignore[attr-defined]
    assert kharkov in after(kind="track_destroyed", at="Kharkov").wrecked_track  # type: ignore[attr-defined]
    assert after(kind="town_owner", at="Kharkov", faction="whites").owners["Kharkov"] == "whites"  # type: ignore[attr-defined]
    joined = after(
        kind="units",
        faction="whites",
        at="Kharkov",
        units=[{"name": "Volunteers", "type": "infantry", "stands": {"infantry": 3}}],
    )
    assert joined.unit("test_card_1").hex == kharkov  # type: ignore[attr-defined]
    slowed = after(kind="movement", faction="reds", modifier=-1, turns=1)
    assert _modifier(slowed, "movement", "reds") == -1 and _modifier(slowed, "movement", "whites") == 0  # type: ignore[arg-type]
    cut = after(kind="supply_cut", faction="makhnovists", turns=1)
    assert all(u.in_supply is False for u in cut.units if u.faction == "makhnovists")  # type: ignore[attr-defined]
    assert after(kind="umpire", text="Remove Grigoriev from play.").umpire == (
        "test_card: Remove Grigoriev from play.",
    )  # type: ignore[attr-defined]


def rail_path(folder: Path, start: str, hexes: int) -> list[str]:
    """A path along the track from `start`, `hexes` long, found on the campaign's map."""
    from kitgen.mapping.board import Board

    board = Board.from_map(load_campaign(folder).hex_map)
    path = [start]
    while len(path) <= hexes:
        nxt = sorted(n for n in board.neighbours(path[-1]) if board.rail_link(path[-1], n) and n not in path)
        path.append(nxt[0])
    return path


def rail_log(train: str, carry: list[str], path: list[str], extra: str = "") -> str:
    hexes = ", ".join(f'"{h}"' for h in path)
    return f"rail:\n  whites:\n    - {{train: {train}, carry: [{', '.join(carry)}], path: [{hexes}]}}\n{extra}"


TANKS_OBEY = 'dice:\n  - {purpose: "II.C w_tank_det command roll, turn 1", value: 1}\n'
"""The tank detachment has no commander with it: its own command roll, made good."""


def tanks_at_novorossiisk(folder: Path) -> None:
    """The case's set-up: the tank detachment alone at Novorossiisk, where the tanks were landed
    (the scenario starts them at Taganrog, with Bredov's division)."""
    edit(folder / "setup.yaml", "stands: {tank: 2}, at: Taganrog}", "stands: {tank: 2}, at: Novorossiisk}")


def test_C1_a_train_carries_units_along_the_track(folder: Path) -> None:
    """C.1: trains move along the track (RR Trains 12 MP, "must be on RR track") and carry 12
    points (a tank 3 points each). The tank detachment (2 tanks, 6 points) rides three hexes;
    A.5: "Neither of these rolls occur if vehicles are being transported by RR train"."""
    tanks_at_novorossiisk(folder)
    path = rail_path(folder, "3428", 3)
    log(
        folder,
        1,
        rail_log(
            "w_train_novorossiisk",
            ["w_tank_det"],
            path,
            TANKS_OBEY,
        ),
    )
    state = replay(load_campaign(folder))
    tanks = state.unit("w_tank_det")
    assert tanks is not None and tanks.hex == path[-1] and tanks.carried
    assert [t["hex"] for t in state.trains if t["id"] == "w_train_novorossiisk"] == [path[-1]]
    (verdict,) = state.verdicts
    assert verdict.result == "done" and "carrying w_tank_det (6 of 12 points)" in verdict.explanation
    assert not [r for r in state.rolls if r.purpose.startswith("A.5")]


def test_A2_units_that_embark_make_no_map_move(folder: Path) -> None:
    """A.2: "Any units that embark or detrain from RR cannot conduct any map movement same turn"."""
    tanks_at_novorossiisk(folder)
    path = rail_path(folder, "3428", 2)
    land = f'orders:\n  whites:\n    - {{unit: w_tank_det, move: ["{path[-1]}", "{path[-2]}"]}}\n'
    log(
        folder,
        1,
        land
        + rail_log(
            "w_train_novorossiisk",
            ["w_tank_det"],
            path,
            TANKS_OBEY,
        ),
    )
    state = replay(load_campaign(folder))
    tanks = state.unit("w_tank_det")
    assert tanks is not None and tanks.hex == path[-1]
    land_verdict = next(v for v in state.verdicts if v.order.startswith("path"))
    assert land_verdict.result == "void" and land_verdict.rule == "A.2"


def test_C1_a_load_over_12_points_is_void(folder: Path) -> None:
    """C.1: "each train carries 12 points"; the three Sich units, gathered in Proskurov for the
    case, weigh more."""
    for unit in ("u_sich_1st_div", "u_sich_artillery"):
        text = (folder / "setup.yaml").read_text(encoding="utf-8")
        line = next(ln for ln in text.splitlines() if ln.startswith(f"  - {{id: {unit},"))
        edit(folder / "setup.yaml", line, line.replace("at: Zdolbunov", "at: Proskurov"))
    text = (folder / "setup.yaml").read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if ln.startswith("  - {id: u_sich_2nd_div,"))
    edit(folder / "setup.yaml", line, line.replace("at: Volochisk", "at: Proskurov"))
    path = rail_path(folder, "0310", 1)
    carry = ["u_sich_1st_div", "u_sich_2nd_div", "u_sich_artillery"]
    dice = 'dice:\n  - {purpose: "II.C Konovalets command roll, turn 1", value: 1}\n'  # he leads the stack
    log(folder, 1, rail_log("u_at_proskurov", carry, path, dice).replace("whites", "ukrainians"))
    state = replay(load_campaign(folder))
    (verdict,) = state.verdicts
    assert verdict.result == "void" and verdict.rule == "C.1" and "over the train's 12" in verdict.explanation


def test_C2_a_train_does_not_pass_wrecked_track(folder: Path) -> None:
    """C.2 / B.3: wrecked track "must be repaired in order to resume functioning"; a train cannot
    run over it. Taganrog's track starts wrecked here: the train stops before it (RULES-NOTES,
    ruling of 2026-12-02)."""
    edit(folder / "setup.yaml", "destroyed_track:\n", "destroyed_track:\n  - Taganrog\n")
    log(folder, 1, rail_log("w_at_rostov", [], ["3919", "3819", "3719"]))
    state = replay(load_campaign(folder))
    (verdict,) = state.verdicts
    assert (verdict.result, verdict.stop, verdict.rule, verdict.end) == ("stopped", "wrecked", "C.2", "3819")
    assert "3719" in verdict.explanation


def mai_maevsky(value: int, turn: int = 1) -> str:
    return f'dice:\n  - {{purpose: "II.C Mai-Maevsky command roll, turn {turn}", value: {value}}}\n'


def test_C2_a_unit_of_3_stands_wrecks_the_track_it_entered(folder: Path) -> None:
    """C.2 (RULES-NOTES): "a single infantry or cavalry unit of 3+ stands wrecks the track of a hex
    it enters on an order to do so, if no enemy is there". The Drozdovsky regiment (5 stands)
    steps onto the line north of Donetsk and wrecks it."""
    orders = 'orders:\n  whites:\n    - {unit: w_drozdovsky_1, move: ["3416", "3415"]}\n'
    track = 'track:\n  whites:\n    - {unit: w_drozdovsky_1, wreck: "3415"}\n'
    log(folder, 1, orders + track + mai_maevsky(1))
    state = replay(load_campaign(folder))
    assert "3415" in state.wrecked_track
    assert next(v for v in state.verdicts if v.order.startswith("wreck")).result == "done"


def test_C2_artillery_does_not_wreck_track(folder: Path) -> None:
    """C.2: only infantry or cavalry units wreck track; the artillery with the regiment cannot."""
    orders = 'orders:\n  whites:\n    - {unit: w_vol_artillery, move: ["3416", "3415"]}\n'
    track = 'track:\n  whites:\n    - {unit: w_vol_artillery, wreck: "3415"}\n'
    log(folder, 1, orders + track + mai_maevsky(1))
    state = replay(load_campaign(folder))
    assert "3415" not in state.wrecked_track
    verdict = next(v for v in state.verdicts if v.order.startswith("wreck"))
    assert verdict.result == "void" and "only infantry or cavalry units of 3 or more stands" in verdict.explanation


def test_C2_railway_troops_repair_wrecked_track(folder: Path) -> None:
    """C.2 (RULES-NOTES): "Each RR repair or engineer unit repairs up to 2 destroyed hexes a turn,
    its own hex and the next along the line". Znamenka's track starts wrecked; a Red railway
    troop there repairs it."""
    railway = "type: rr_repair, size: battalion, stands: {rr_repair: 2}, at: Kupiansk}"
    edit(folder / "setup.yaml", railway, railway.replace("Kupiansk", "Znamenka"))
    campaign = load_campaign(folder)
    znamenka = replay(campaign).unit("r_railway_troops").hex  # type: ignore[union-attr]
    assert znamenka in replay(campaign).wrecked_track
    track = f'track:\n  reds:\n    - {{unit: r_railway_troops, repair: ["{znamenka}"]}}\n'
    log(
        folder,
        1,
        "orders: {}\n" + track + 'dice:\n  - {purpose: "II.C r_railway_troops command roll, turn 1", value: 1}\n',
    )
    state = replay(load_campaign(folder))
    assert znamenka not in state.wrecked_track
    assert next(v for v in state.verdicts if v.order.startswith("repair")).result == "done"


def test_II_B3_losses_rounded_and_returned_and_II_B1_the_loser_retreats(folder: Path) -> None:
    """II.B.3: "Winner - 40% of losses in tabletop battle permanent 60% return to unit strengths
    next turn ... Loser - 55% of losses ... permanent 45% return ... 50% of routed troops desert or
    captured unless Elite/Fanatic" (RULES-NOTES: unit by unit, permanent losses half up, routed
    losses rounded up). II.B.1: "Loser of tabletop battle retreats one hex from enemy".
    The Red 42nd Rifle Division marches into Donetsk and is beaten by the Drozdovsky regiment:
    Drozdovsky loses 2 infantry (40% of 2 = 0.8, so 1 for good, 1 back next turn); the Reds lose
    2 (55% = 1.1: 1 for good, 1 back) and rout 1 (half, rounded up: 1 deserts)."""
    orders = 'orders:\n  reds:\n    - {unit: r_13th_army_42nd, move: ["3414", "3415", "3416"]}\n'
    dice = 'dice:\n  - {purpose: "II.C Kozhevnikov command roll, turn 1", value: 1}\n'
    battle = (
        "battles:\n"
        '  - hex: "3416"\n'
        "    winner: whites\n"
        "    units:\n"
        "      - {unit: w_drozdovsky_1, lost: {infantry: 2}}\n"
        '      - {unit: r_13th_army_42nd, lost: {infantry: 2}, routed: {infantry: 1}, retreat: "3415"}\n'
    )
    log(folder, 1, orders + battle + dice)
    start = replay(load_campaign(folder), 0)
    red0, white0 = start.unit("r_13th_army_42nd"), start.unit("w_drozdovsky_1")
    assert red0 is not None and white0 is not None and red0.hex == "3414"
    after = replay(load_campaign(folder))
    red, white = after.unit("r_13th_army_42nd"), after.unit("w_drozdovsky_1")
    assert red is not None and white is not None
    assert red.hex == "3415" and white.hex == "3416"
    assert white.stands["infantry"] == white0.stands["infantry"] - 2
    assert red.stands["infantry"] == red0.stands["infantry"] - 3
    assert sorted(after.returning) == [("r_13th_army_42nd", "infantry", 1), ("w_drozdovsky_1", "infantry", 1)]
    log(folder, 2)
    later = replay(load_campaign(folder))
    assert later.unit("w_drozdovsky_1").stands["infantry"] == white0.stands["infantry"] - 1  # type: ignore[union-attr]
    assert later.unit("r_13th_army_42nd").stands["infantry"] == red0.stands["infantry"] - 2  # type: ignore[union-attr]


def test_II_B1_a_loser_with_no_retreat_given_is_a_malformed_report(folder: Path) -> None:
    """II.B.1: the loser retreats, or surrenders if it cannot; the report must say which."""
    orders = 'orders:\n  reds:\n    - {unit: r_13th_army_42nd, move: ["3414", "3415", "3416"]}\n'
    dice = 'dice:\n  - {purpose: "II.C Kozhevnikov command roll, turn 1", value: 1}\n'
    battle = (
        'battles:\n  - hex: "3416"\n    winner: whites\n    units:\n'
        "      - {unit: w_drozdovsky_1, lost: {infantry: 1}}\n      - {unit: r_13th_army_42nd, lost: {infantry: 1}}\n"
    )
    log(folder, 1, orders + battle + dice)
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    assert "expected `retreat: <hex>` or `surrender: true` (II.B.1)" in str(caught.value.problems[0])


def three_turns(folder: Path, last: str = "orders: {}\n") -> None:
    log(folder, 1)
    log(folder, 2)
    log(folder, 3, last)


def test_II_E_draws_are_drawn_from_the_pile_and_go_back_unless_the_slip_says(folder: Path) -> None:
    """II.E: "Each time a slip is drawn from the pile, it is then thrown back into the pile when
    recorded unless specifically stated not to be on the slip itself." The Reds' turn-3 award
    owes them draws; each is a slip of their pile, and only one-off slips leave it."""
    three_turns(folder)
    campaign = load_campaign(folder)
    state = replay(campaign)
    drawn = state.slips["reds"]
    assert len(drawn) == state.draws["reds"] > 0
    pile = {s.id: s for s in campaign.scenario.cards.piles["reds"]}
    assert set(drawn) <= set(pile)
    gone = {s for s in drawn if not pile[s].returns_to_pile}
    assert set(state.piles["reds"]) == set(pile) - gone


@pytest.mark.parametrize(("roll", "gulai_pole"), [(6, True), (1, False)])
def test_E6_makhnovist_strength_roll(folder: Path, roll: int, gulai_pole: bool) -> None:
    """E.6: "Every 3rd turn simply roll on their Current Strength Chart for total forces they can
    employ next 3 turns. Modifiers: -1 if they do not hold Gulai Pole" (a 1 without it reads -0
    on the chart's row for 0, a 6 with it the row for 6)."""
    if not gulai_pole:
        edit(folder / "setup.yaml", "Gulai Pole: makhnovists", "Gulai Pole: reds")
        edit(folder / "setup.yaml", "at: Gulai Pole, commander: Makhno", "at: Volnovakha, commander: Makhno")
    three_turns(folder, f'orders: {{}}\ndice:\n  - {{purpose: "E.6 makhnovists strength, turn 3", value: {roll}}}\n')
    campaign = load_campaign(folder)
    state = replay(campaign)
    total = roll - (0 if gulai_pole else 1)
    row = next(r for r in campaign.scenario.cards.makhnovist_strength if r.low <= total <= r.high)
    assert state.makhnovist_strength == row.text
    rolled = state.strength_roll  # the roll as data: its modifiers by their ids in the scenario's table
    assert rolled is not None and (rolled.faction, rolled.roll, rolled.total, rolled.row) == (
        "makhnovists",
        roll,
        total,
        row.text,
    )
    assert [(m.id, m.value) for m in rolled.modifiers] == ([] if gulai_pole else [("gulai_pole_lost", -1)])
    assert any(n.startswith(f"E.6 makhnovists: {roll}{-0 if gulai_pole else -1:+d} = {total}") for n in state.umpire)


def shortest(folder: Path, start: str, goal: str, *, by_sea: bool) -> list[str]:
    """The fewest hexes from `start` to `goal` over land, or through sea hexes (ports at the ends)."""
    from collections import deque

    from kitgen.mapping.board import Board

    board = Board.from_map(load_campaign(folder).hex_map)
    back: dict[str, str | None] = {start: None}
    queue = deque([start])
    while queue:
        here = queue.popleft()
        for there in board.neighbours(here):
            if there not in back and (board.is_sea(there) == by_sea or there == goal):
                back[there] = here
                if there != goal:
                    queue.append(there)
    path = [goal]
    while back[path[-1]] is not None:
        path.append(back[path[-1]])  # type: ignore[arg-type]
    return path[::-1]


def shchus_raid(folder: Path, extra: str) -> tuple[list[str], str]:
    """Shchus's Makhnovist cavalry (partisans) rides into the Drozdovsky regiment's hex."""
    start = replay(load_campaign(folder)).unit("m_shchus_cav").hex  # type: ignore[union-attr]
    path = shortest(folder, start, "3416", by_sea=False)
    hexes = ", ".join(f'"{h}"' for h in path)
    orders = f"orders:\n  makhnovists:\n    - {{unit: m_shchus_cav, move: [{hexes}]}}\n"
    dice = 'dice:\n  - {purpose: "II.C Shchus command roll, turn 1", value: 1}\n' + extra
    return path, orders + dice


@pytest.mark.parametrize(("mine", "theirs", "evaded"), [(6, 1, True), (1, 6, False)])
def test_II_D1_partisans_may_evade_a_fight(folder: Path, mine: int, theirs: int, evaded: bool) -> None:
    """II.D.1: partisans "do not have to fight if contacted by opposing forces ... Roll a D6 for
    each side and add modifiers - if partisans have higher total no battle takes place. For
    purposes of VPs and supply the nonpartisan unit is assumed to be there only". RULES-NOTES:
    evading is the partisans' choice and is written in the log."""
    choice = 'partisans:\n  - {hex: "3416", faction: makhnovists, choice: evade}\n'
    rolls = (
        f'  - {{purpose: "II.D.1 makhnovists evade in 3416, turn 1", value: {mine}}}\n'
        f'  - {{purpose: "II.D.1 enemy of makhnovists in 3416, turn 1", value: {theirs}}}\n'
    )
    path, text = shchus_raid(folder, rolls)
    log(folder, 1, choice + text)
    state = replay(load_campaign(folder))
    unit = state.unit("m_shchus_cav")
    assert unit is not None and unit.hex == "3416", (path, state.verdicts)
    assert ("3416" in state.contacts) is not evaded
    assert any(
        n.startswith(f"II.D.1 makhnovists in 3416 {'evade' if evaded else 'fail to evade'}") for n in state.umpire
    )


def test_D1_a_transport_carries_tanks_from_port_to_port(folder: Path) -> None:
    """D.1: ships move 16 hexes; D.3: they carry 16 points (tanks 3 each); A.3: "Rest of units
    must disembark at a port city". The transport Saratov takes the tank detachment from
    Novorossiisk to Kerch."""
    tanks_at_novorossiisk(folder)
    campaign = load_campaign(folder)
    ports = {t: next(h.id for h in campaign.hex_map.hexes if t in h.towns) for t in ("Novorossiisk", "Kerch")}
    path = shortest(folder, ports["Novorossiisk"], ports["Kerch"], by_sea=True)
    assert len(path) - 1 <= 16
    hexes = ", ".join(f'"{h}"' for h in path)
    sea = f"sea:\n  whites:\n    - {{ship: w_tr_saratov, carry: [w_tank_det], path: [{hexes}]}}\n"
    log(folder, 1, sea + TANKS_OBEY)
    state = replay(load_campaign(folder))
    tanks = state.unit("w_tank_det")
    assert tanks is not None and tanks.hex == ports["Kerch"] and tanks.carried
    (verdict,) = state.verdicts
    assert verdict.result == "done" and "(6 of 16 points)" in verdict.explanation
    assert [x["hex"] for x in state.ships if x["id"] == "w_tr_saratov"] == [ports["Kerch"]]


def test_A3_only_infantry_land_on_a_coast(folder: Path) -> None:
    """A.3: "Amphibious landings on coastal hexes can only be done by infantry. Rest of units must
    disembark at a port city." Tanks put ashore on an open coast: their landing is void, and
    they stay aboard (the ship's order stands)."""
    tanks_at_novorossiisk(folder)
    campaign = load_campaign(folder)
    from kitgen.mapping.board import Board

    board = Board.from_map(campaign.hex_map)
    start = next(h.id for h in campaign.hex_map.hexes if "Novorossiisk" in h.towns)
    at_sea = next(n for n in board.neighbours(start) if board.is_sea(n))
    coast = next(h.id for h in campaign.hex_map.hexes if h.coastal and board.adjacent(h.id, at_sea) and h.id != start)
    sea = f'sea:\n  whites:\n    - {{ship: w_tr_saratov, carry: [w_tank_det], path: ["{start}", "{at_sea}"], land: "{coast}"}}\n'
    log(folder, 1, sea + TANKS_OBEY)
    state = replay(load_campaign(folder))
    ship, tanks = state.verdicts
    assert tanks.unit == "w_tank_det" and tanks.result == "void" and tanks.rule == "A.3"
    assert "only infantry land" in tanks.explanation and ship.result == "done"
    assert state.unit("w_tank_det").aboard == "w_tr_saratov"  # type: ignore[union-attr]


def test_a_given_roll_the_turn_does_not_ask_for_is_unused_not_an_error(folder: Path) -> None:
    """RULES-NOTES, ruling of 2026-12-02: "A roll given in the log that the turn does not ask for is
    not used: a warning at its line, never an error that stops the replay." The turn plays; its
    record holds the roll, with the purposes the turn asked for."""
    from kitgen.engine.replay import played

    log(folder, 1, 'orders: {}\ndice:\n  - {purpose: "II.C Mai Maevsky command roll, turn 1", value: 3}\n')
    ((_, record),) = list(played(load_campaign(folder)))
    (unused,) = record.unused_rolls
    assert unused.purpose == "II.C Mai Maevsky command roll, turn 1" and unused.note.line == 4
    assert "which this turn does not ask for: the roll is not used" in unused.note.message
    assert all(r.purpose != unused.purpose for r in record.rolls)


def test_a_given_roll_its_dice_cannot_show_is_an_error(folder: Path) -> None:
    """An impossible face would otherwise be silently replaced by a drawn roll."""
    log(folder, 1, 'orders: {}\ndice:\n  - {purpose: "II.A event roll, turn 1", value: 7}\n')
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    assert any("dice[0].value: found 7, but D6 rolls 1 to 6" in str(p) for p in caught.value.problems)


def test_track_work_by_an_unknown_unit_is_a_log_error(folder: Path) -> None:
    log(folder, 1, 'orders: {}\ntrack:\n  reds:\n    - {unit: r_nobody, wreck: "3415"}\n')
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    assert ":5:14: track.reds[0].unit: found 'r_nobody', which is no unit on the map" in str(caught.value.problems[0])


def sevastopol_cornered(folder: Path) -> str:
    """The Red Crimean Army and the (fanatic) Kharkov Communists in Sevastopol (2129), whose only
    land exits are 2228 and 2229; White columns close both exits and storm the town on turn 1."""
    setup = folder / "setup.yaml"
    moves = (
        ("r_crimean_army", "Simferopol", "Sevastopol"),
        ("r_kharkov_communist", "Kharkov", "Sevastopol"),
        ("w_crimea_azov_1", "Kerch", "Simferopol"),
        ("w_crimea_azov_2", "Kerch", "Simferopol"),
        ("w_ghq_reserve", "Ekaterinodar", "Yalta"),
    )
    for unit, town, there in moves:
        line = next(x for x in setup.read_text(encoding="utf-8").splitlines() if f"id: {unit}," in x)
        edit(setup, line, line.replace(f"at: {town}", f"at: {there}"))
    return (
        "orders:\n  whites:\n"
        '    - {unit: w_crimea_azov_1, move: ["2328", "2228", "2129"]}\n'
        '    - {unit: w_crimea_azov_2, move: ["2328", "2228"]}\n'
        '    - {unit: w_ghq_reserve, move: ["2329", "2229"]}\n'
        "dice:\n"
        '  - {purpose: "II.C Slashchev command roll, turn 1", value: 1}\n'
        '  - {purpose: "II.C Denikin command roll, turn 1", value: 1}\n'
    )


def test_II_B1_cornered_losers_surrender_and_the_fanatics_break_out_or_perish(folder: Path) -> None:
    """II.B.1: "If cannot due to being surrounded or pinned by terrain, all non-Elite/Fanatic units
    the surrender. Elite/Fanatic units must then immediately attack enemy in other hex that very
    same turn to break out or perish". Both exits of Sevastopol are White-held."""
    orders = sevastopol_cornered(folder)
    battle = (
        'battles:\n  - hex: "2129"\n    winner: whites\n    units:\n'
        "      - {unit: w_crimea_azov_1, lost: {infantry: 1}}\n"
        "      - {unit: r_crimean_army, lost: {infantry: 1}, surrender: true}\n"
        "      - {unit: r_kharkov_communist, lost: {infantry: 1}, surrender: true}\n"
    )
    log(folder, 1, orders + battle)
    state = replay(load_campaign(folder))
    assert state.unit("r_crimean_army") is None  # surrendered: gone, returning stands and all
    assert not any(unit == "r_crimean_army" for unit, _, _ in state.returning)
    assert state.unit("r_kharkov_communist") is not None  # Fanatic: breaks out or perishes at the table
    assert any("must attack at once to break out" in n for n in state.umpire)


def test_II_B1_a_loser_with_a_way_out_retreats_and_does_not_surrender(folder: Path) -> None:
    """II.B.1: "Loser of tabletop battle retreats one hex from enemy. If cannot ... surrender":
    with 2229 left open, a surrender is a malformed report."""
    orders = sevastopol_cornered(folder).replace('    - {unit: w_ghq_reserve, move: ["2329", "2229"]}\n', "")
    orders = orders.replace('  - {purpose: "II.C Denikin command roll, turn 1", value: 1}\n', "")
    battle = (
        'battles:\n  - hex: "2129"\n    winner: whites\n    units:\n'
        "      - {unit: w_crimea_azov_1}\n"
        "      - {unit: r_crimean_army, surrender: true}\n"
        '      - {unit: r_kharkov_communist, retreat: "2229"}\n'
    )
    log(folder, 1, orders + battle)
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    (problem,) = caught.value.problems
    assert problem.code == "log.battle_surrender_not_cornered" and problem.line == 13
    assert "r_crimean_army surrendering, but it can retreat to 2229" in problem.message


KOLCHAK = 'dice:\n  - {purpose: "II.A event roll, turn 1", value: 6}\n'


def test_II_A2_a_cards_stand_losses_come_off_the_units_the_log_names(folder: Path) -> None:
    """II.A.2: "The card must be acted upon immediately." The seed-1919 deck's top card, "All
    Against Kolchak!", takes 2 Red infantry stands and 1 artillery stand; the Red player
    chooses the 42nd Division and the 13th Army guns."""
    campaign = load_campaign(folder)
    from kitgen.engine.setup import initial_state

    assert initial_state(campaign).deck[0] == "all_against_kolchak"
    log(
        folder,
        1,
        "remove:\n  reds:\n"
        "    - {unit: r_13th_army_42nd, stands: {infantry: 2}}\n"
        "    - {unit: r_13th_army_art, stands: {artillery: 1}}\n" + KOLCHAK,
    )
    state = replay(load_campaign(folder))
    assert state.events == ("all_against_kolchak",)
    rifles, guns = state.unit("r_13th_army_42nd"), state.unit("r_13th_army_art")
    assert rifles is not None and rifles.stands == {"infantry": 2, "machine_gun": 1}
    assert guns is not None and guns.stands == {"artillery": 1}
    assert not any("remove_stands" in note for note in state.umpire)


def test_II_A2_the_log_must_remove_what_the_card_takes(folder: Path) -> None:
    """II.A.2: the card takes 2 infantry stands; removing 1 is a malformed log."""
    log(
        folder,
        1,
        "remove:\n  reds:\n    - {unit: r_13th_army_42nd, stands: {infantry: 1}}\n"
        "    - {unit: r_13th_army_art, stands: {artillery: 1}}\n" + KOLCHAK,
    )
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    (problem,) = caught.value.problems
    assert problem.code == "log.remove_owed" and "found 1 infantry stands removed; expected 2" in problem.message


def test_the_manuals_turn_log_example_replays(folder: Path) -> None:
    """The manual's turn log (its data reference) is a log kitgen plays: every section parses and
    is judged."""
    readme = (Path(__file__).parent.parent / "docs" / "reference" / "data.md").read_text(encoding="utf-8")
    block = readme.split("# turns/turn-01.yaml\n", 1)[1].split("```", 1)[0]
    (folder / "turns" / "turn-01.yaml").write_text(block, encoding="utf-8")
    state = replay(load_campaign(folder))
    moved = state.unit("r_13th_army_42nd")
    assert moved is not None and moved.hex == "3415"  # beaten in Donetsk, it retreats (II.B.1)
    assert {v.rule for v in state.verdicts} >= {"A.1", "C.1", "II.B", "E.3", "E.6"}


def test_II_B1_an_elite_loser_with_a_way_out_must_retreat(folder: Path) -> None:
    """II.B.1: "Loser of tabletop battle retreats one hex from enemy"; only if it cannot must an
    Elite/Fanatic unit break out or perish. With 2229 open, the fanatic Kharkov Communists retreat."""
    orders = sevastopol_cornered(folder).replace('    - {unit: w_ghq_reserve, move: ["2329", "2229"]}\n', "")
    orders = orders.replace('  - {purpose: "II.C Denikin command roll, turn 1", value: 1}\n', "")
    battle = (
        'battles:\n  - hex: "2129"\n    winner: whites\n    units:\n'
        "      - {unit: w_crimea_azov_1}\n"
        '      - {unit: r_crimean_army, retreat: "2229"}\n'
        "      - {unit: r_kharkov_communist, surrender: true}\n"
    )
    log(folder, 1, orders + battle)
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    (problem,) = caught.value.problems
    assert problem.code == "log.battle_surrender_not_cornered" and "can retreat to 2229" in problem.message
