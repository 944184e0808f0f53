"""II.B.3 equipment losses and II.D.4's Makhnovist artillery cap, as the turn engine plays them.
The battles are set at Gulai Pole (2918), where the scenario's Makhnovist HQ stands, with the
White corps artillery moved there in the set-up."""

from __future__ import annotations

from pathlib import Path

import pytest

from kitgen.campaign import load_campaign
from kitgen.engine.replay import replay
from kitgen.errors import KitgenError
from tests.conftest import edit, log

GULAI_POLE = "2918"
GUNS = "{id: w_vol_artillery, faction: whites, name: 1st Army Corps Artillery, type: artillery, size: battalion, stands: {artillery: 2}, at: Donetsk}"


def guns_at_gulai_pole(folder: Path, stands: int = 2) -> None:
    edit(
        folder / "setup.yaml",
        GUNS,
        GUNS.replace("at: Donetsk", "at: Gulai Pole").replace("artillery: 2", f"artillery: {stands}"),
    )


def battle(winner: str, guns: str, makhno: str = "", dice: str = "") -> str:
    return (
        f'battles:\n  - hex: "{GULAI_POLE}"\n    winner: {winner}\n    units:\n'
        f"      - {{unit: w_vol_artillery, {guns}}}\n"
        f"      - {{unit: m_makhno_hq{makhno}}}\n"
        f'partisans:\n  - {{hex: "{GULAI_POLE}", faction: makhnovists, choice: fight}}\n'  # II.D.1: they may stand
        + (f"dice:\n{dice}" if dice else "")
    )


def test_II_B3_the_winner_rolls_for_each_gun_lost_even_repaired(folder: Path) -> None:
    """II.B.3 Winner: "Equipment losses: Roll D6 - EVEN - Repaired, recovered; ODD - Lost for
    campaign". The White guns win and lose both stands: a 2 brings one back, a 5 loses the other."""
    guns_at_gulai_pole(folder)
    log(
        folder,
        1,
        battle(
            "whites",
            "lost: {artillery: 2}",
            ', lost: {cavalry: 1}, retreat: "2917"',
            '  - {purpose: "II.B.3 w_vol_artillery artillery 1 equipment, turn 1", value: 2}\n'
            '  - {purpose: "II.B.3 w_vol_artillery artillery 2 equipment, turn 1", value: 5}\n',
        ),
    )
    log(folder, 2)
    campaign = load_campaign(folder)
    after = replay(campaign, 1)
    off_table = after.unit("w_vol_artillery")
    assert off_table is not None and off_table.stands == {}  # both stands away until next turn
    assert ("w_vol_artillery", "artillery", 1) in after.returning
    rejoined = replay(campaign, 2).unit("w_vol_artillery")
    assert rejoined is not None and rejoined.stands == {"artillery": 1}


def test_II_B3_the_losers_equipment_is_lost_and_routed_guns_captured(folder: Path) -> None:
    """II.B.3 Loser: "Equipment Losses: Lost for campaign except for routed equipment captured."
    The White guns lose: the stand lost is gone for good (no 55/45 split, no roll); the routed
    stand is taken by Makhno's HQ."""
    guns_at_gulai_pole(folder)
    log(
        folder,
        1,
        battle(
            "makhnovists", 'lost: {artillery: 1}, routed: {artillery: 1}, retreat: "2917"', ", captured: {artillery: 1}"
        ),
    )
    state = replay(load_campaign(folder))
    assert state.unit("w_vol_artillery") is None
    assert not any(unit == "w_vol_artillery" for unit, _, _ in state.returning)
    assert not any(r.purpose.startswith("II.B.3") for r in state.rolls)
    hq = state.unit("m_makhno_hq")
    assert hq is not None and hq.stands.get("artillery") == 1


def test_II_B3_only_routed_equipment_can_be_captured(folder: Path) -> None:
    """II.B.3: what the winner takes is the loser's routed equipment, and no more."""
    guns_at_gulai_pole(folder)
    log(folder, 1, battle("makhnovists", 'lost: {artillery: 2}, retreat: "2917"', ", captured: {artillery: 1}"))
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    (problem,) = caught.value.problems
    assert problem.code == "log.battle_captured"
    assert "captured: found 'artillery: 1'" in problem.message and "(0 artillery)" in problem.message


def test_II_D4_the_makhnovists_never_have_more_than_3_batteries(folder: Path) -> None:
    """II.D.4: "the Makhnovists may never have more than 3 total artillery batteries at any one
    time"; RULES-NOTES: "Makhnovist guns captured beyond the cap of 3 (II.D.4) are destroyed."
    Makhno's men rout a White battery of 5 guns and take all five: two are destroyed."""
    guns_at_gulai_pole(folder, stands=5)
    log(folder, 1, battle("makhnovists", 'routed: {artillery: 5}, retreat: "2917"', ", captured: {artillery: 5}"))
    state = replay(load_campaign(folder))
    hq = state.unit("m_makhno_hq")
    assert hq is not None and hq.stands.get("artillery") == 3
    assert any(note.startswith("II.D.4") and "2 destroyed" in note for note in state.umpire)


def test_II_B1_a_battle_report_needs_a_loser_in_the_hex(folder: Path) -> None:
    """II.B.1: "Loser of tabletop battle retreats one hex from enemy": a report with the winner
    alone in the hex is malformed; a zero for a stand kind the unit lacks is no loss at all."""
    log(
        folder,
        1,
        'battles:\n  - hex: "4521"\n    winner: reds\n    units:\n      - {unit: r_10th_army, lost: {cavalry: 0}}\n',
    )
    with pytest.raises(KitgenError) as caught:
        replay(load_campaign(folder))
    (problem,) = caught.value.problems
    assert "no unit of the losing side in 4521" in problem.message and problem.line == 3
