"""Scenarios declare their end (issue 22; RULES-NOTES, 2026-12-02): "a strategic turn stands for
a fixed span of days, a scenario setting, printed on the turn track; a scenario may have a last
turn and say how it is won, and after that turn the campaign is over unless the club plays on
(a house rule in campaign.yaml)."

The ending is judged by a pure function on hand-made states; the data of both bundled scenarios,
the booklet, the forms, the packets, `kitgen state` and `kitgen turn` say it. What the seed says
of turns is read from its text (tests/seed_text.py), not from data/."""

from __future__ import annotations

import datetime
import io
import json
import re
import shutil
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from pypdf import PdfReader

from kitgen.campaign import Campaign, load_campaign
from kitgen.engine.basis import past_the_end, turn_basis
from kitgen.engine.replay import replay
from kitgen.engine.report import state_json, state_text
from kitgen.engine.state import CampaignState, UnitState
from kitgen.errors import KitgenError
from kitgen.loader import load_scenario
from kitgen.model.rules import WinCondition
from kitgen.model.scenario import Scenario
from kitgen.rules.ending import (
    Ending,
    award_turns,
    condition_text,
    ending,
    ending_text,
    result_text,
    turn_days,
)
from kitgen.scenariofolders import data_dir
from tests import pdftext, seed_text
from tests.conftest import SET_AS_TYPED, edit, run_cli

INTRO = data_dir() / "tsaritsyn-1919"
INTRO_SAMPLE = data_dir() / "tsaritsyn-sample"


@cache
def intro() -> Scenario:
    return load_scenario(INTRO)


@cache
def campaign_scenario() -> Scenario:
    return load_scenario(data_dir() / "denikin-1919")


@cache
def setup_state() -> CampaignState:
    """The introductory scenario's set-up (turn 0): Tsaritsyn Red, units of both sides on the map."""
    return replay(load_campaign(INTRO_SAMPLE), 0)


def after(turn: int, *, tsaritsyn: str = "reds", units: tuple[str, ...] = ("reds", "whites")) -> CampaignState:
    """The set-up as if `turn` had been played: Tsaritsyn held by `tsaritsyn`, only the units of `units` left."""
    start = setup_state()
    kept: tuple[UnitState, ...] = tuple(u for u in start.units if u.faction in units)
    return replace(start, turn=turn, owners={**start.owners, "Tsaritsyn": tsaritsyn}, units=kept)


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def pdf_text(pdf: bytes) -> str:
    return squeeze(" ".join(pdftext.page_texts(pdf))).translate(SET_AS_TYPED)


# --- the pure function: hand-made states ------------------------------------------------------


def test_the_whites_win_holding_tsaritsyn_at_the_end_of_the_last_turn() -> None:
    end = ending(intro(), after(3, tsaritsyn="whites"))
    assert end.over and end.last_turn == 3 and end.days_per_turn == 4
    assert end.winners == ("whites",) and not end.draw and not end.early and end.ended_after == 3
    assert [(m.index, m.faction, m.kind, m.when, m.towns) for m in end.met] == [
        (0, "whites", "hold", "last_turn", ("Tsaritsyn",))
    ]
    assert result_text(intro(), end) == "the Whites win (the Whites hold Tsaritsyn)."


def test_the_reds_win_holding_tsaritsyn_at_the_end_of_the_last_turn() -> None:
    end = ending(intro(), after(3, tsaritsyn="reds"))
    assert end.over and end.winners == ("reds",)
    assert [m.index for m in end.met] == [1]


def test_before_the_last_turn_holding_the_town_decides_nothing() -> None:
    """A condition judged at the last turn is not met before it, whoever holds the town."""
    end = ending(intro(), after(2, tsaritsyn="whites"))
    assert not end.over and end.winners == () and end.met == () and end.ended_after is None
    assert ending_text(intro(), end) == "Turn 2 of 3 played: the scenario ends after turn 3."


def test_an_army_destroyed_ends_the_scenario_at_once() -> None:
    """`when: any_turn`: no Red unit left on the map after turn 1 ends the scenario then."""
    end = ending(intro(), after(1, units=("whites",)))
    assert end.over and end.early and end.winners == ("whites",) and end.ended_after == 1
    assert [(m.kind, m.enemies) for m in end.met] == [("eliminate", ("reds",))]
    assert ending_text(intro(), end).startswith("The scenario ended after turn 1: the Whites win (no unit of the Reds")


def test_a_draw_when_both_sides_meet_a_condition() -> None:
    end = ending(intro(), after(2, units=()))
    assert end.over and end.early and end.winners == ("reds", "whites") and end.draw
    assert result_text(intro(), end).startswith("a draw: both sides met a condition")


def test_a_draw_when_neither_side_meets_one_by_the_end() -> None:
    """Tsaritsyn held by no one at the end of turn 3, both armies in the field."""
    end = ending(intro(), after(3, tsaritsyn="none"))
    assert end.over and end.winners == () and end.draw and not end.early
    assert result_text(intro(), end) == "a draw: neither side met a condition to win."


def test_an_open_ended_campaign_is_never_over() -> None:
    """denikin-1919 has no last turn and no win condition: after turn 99 it goes on."""
    s = campaign_scenario()
    end = ending(s, replace(setup_state(), turn=99))
    assert end == Ending(turn=99, days_per_turn=10, last_turn=None, over=False)
    assert ending_text(s, end) == "The campaign has no last turn: it goes on as long as the club plays it."


def test_the_set_up_is_never_over() -> None:
    assert not ending(intro(), after(0, units=())).over


def test_a_vp_total_and_a_town_named_by_another_of_its_names() -> None:
    """A `vp` condition meets at its total; a `hold` condition may name a town by an alias."""
    win = [
        WinCondition.model_validate({"faction": "reds", "kind": "vp", "at_least": 20, "when": "any_turn"}),
        WinCondition.model_validate({"faction": "whites", "kind": "hold", "towns": ["Volgograd", "Morozovsk"]}),
    ]
    s = intro().model_copy(update={"victory": intro().victory.model_copy(update={"win": win})})
    assert not ending(s, replace(after(1), vp={"reds": 19, "whites": 0})).over
    end = ending(s, replace(after(1), vp={"reds": 20, "whites": 0}))
    assert end.early and end.winners == ("reds",) and (end.met[0].vp, end.met[0].at_least) == (20, 20)
    held = ending(s, replace(after(3, tsaritsyn="whites"), vp={"reds": 0, "whites": 0}))
    assert held.winners == ("whites",) and held.met[0].towns == ("Tsaritsyn", "Morozovsk")
    assert condition_text(s, win[1]) == "The Whites win if they hold Tsaritsyn and Morozovsk at the end of turn 3."
    assert condition_text(s, win[0]) == "The Reds win at once if, at the end of any turn, their VP total is 20 or more."


# --- the award schedule and the days of a turn --------------------------------------------------


def test_E2_the_award_schedule_stops_at_the_last_turn() -> None:
    """E.2: "Faction occupying city/town at end of each 3rd Strategic turn gets the VPs": turns 3,
    6, 9 ... but none after the scenario's last turn, unless the club plays on."""
    every = int(re.search(r"each (\d)rd Strategic turn", "\n".join(seed_text.lines()))[1])  # type: ignore[index]
    assert intro().victory.award_every_turns == every == 3
    assert award_turns(intro(), 1, 4) == [3]
    assert award_turns(intro(), 1, 4, play_on=True) == [3, 6, 9, 12]
    assert award_turns(intro(), 4, 4) == []
    assert award_turns(campaign_scenario(), 4, 4) == [6, 9, 12, 15]
    assert award_turns(campaign_scenario(), 6, 2) == [6, 9]


def test_the_days_each_turn_stands_for() -> None:
    assert turn_days(intro(), 1) == (datetime.date(1919, 6, 20), datetime.date(1919, 6, 23))
    assert turn_days(intro(), 3) == (datetime.date(1919, 6, 28), datetime.date(1919, 7, 1))  # the storm of 30 June
    assert turn_days(campaign_scenario(), 1) == (datetime.date(1919, 5, 15), datetime.date(1919, 5, 24))


# --- the data -----------------------------------------------------------------------------------


def test_the_seed_gives_no_length_of_a_turn_no_last_turn_and_no_winner() -> None:
    """The seed speaks of turns only as "strategic turn", "every 3rd turn" and "next 3 turns"
    (E.2, E.6): no days, weeks or months, no last turn; it names no winner ("most historians feel
    there was no way the Whites could win"). So the big campaign has no last turn and no win
    condition, and the days of its turn are the designer's, said so in scenario.yaml."""
    seed = "\n".join(seed_text.lines())
    assert not re.search(r"\b(days?|weeks?|months?|last turn|final turn|turns? limit)\b", seed, re.IGNORECASE)
    assert [m.start() for m in re.finditer(r"\bwins?\b", seed)] == [seed.index("could win the civil war") + 6]
    s = campaign_scenario()
    assert s.meta.turns.last is None and s.victory.win == []
    text = (data_dir() / "denikin-1919" / "scenario.yaml").read_text(encoding="utf-8")
    assert "The designer's decision: the rules never say how long a strategic turn is" in text


def test_the_introductory_scenario_is_three_turns_of_four_days_won_at_tsaritsyn() -> None:
    s = intro()
    assert (s.meta.turns.days, s.meta.turns.last) == (4, 3)
    kinds = [(c.faction, c.kind, c.when) for c in s.victory.win]
    assert kinds == [
        ("whites", "hold", "last_turn"),
        ("reds", "hold", "last_turn"),
        ("whites", "eliminate", "any_turn"),
        ("reds", "eliminate", "any_turn"),
    ]
    assert all(s.find_town(t) is not None for c in s.victory.win for t in c.towns)
    text = (INTRO / "victory.yaml").read_text(encoding="utf-8")
    assert text.count("  # ") >= 4  # a comment on where each condition comes from


@pytest.mark.parametrize(
    ("old", "new", "found"),
    [
        (
            "{faction: whites, kind: hold, towns: [Tsaritsyn]",
            "{faction: whites, kind: hold, towns: [Tsaritsin]",
            "Tsaritsin",
        ),
        (
            "{faction: reds, kind: eliminate, enemies: [whites]",
            "{faction: greens, kind: eliminate, enemies: [whites]",
            "greens",
        ),
        (
            "{faction: reds, kind: eliminate, enemies: [whites]",
            "{faction: reds, kind: eliminate, enemies: [reds]",
            "reds",
        ),
    ],
)
def test_a_bad_name_in_a_condition_is_an_error_at_its_line(tmp_path: Path, old: str, new: str, found: str) -> None:
    folder = tmp_path / "tsaritsyn-1919"
    shutil.copytree(INTRO, folder)
    line = edit(folder / "victory.yaml", old, new)
    with pytest.raises(KitgenError) as caught:
        load_scenario(folder)
    [problem] = caught.value.problems
    assert problem.file.endswith("victory.yaml") and problem.line == line and problem.column > 1
    assert f"'{found}'" in problem.message and "expected" in problem.message


def test_a_condition_at_the_last_turn_needs_one(tmp_path: Path) -> None:
    folder = tmp_path / "tsaritsyn-1919"
    shutil.copytree(INTRO, folder)
    edit(folder / "scenario.yaml", "  last: 3\n", "  last: null\n")
    with pytest.raises(KitgenError) as caught:
        load_scenario(folder)
    assert {p.code for p in caught.value.problems} == {"check.win_needs_last_turn"}
    assert len(caught.value.problems) == 2  # the two conditions judged at the last turn


# --- said where it matters ---------------------------------------------------------------------


def test_kitgen_state_says_the_last_turn_is_played_and_who_won() -> None:
    run = run_cli("state", str(INTRO_SAMPLE))
    assert run.returncode == 0, run.stderr
    assert (
        "Turns: 4 days each. The last turn, 3, has been played: the Whites win (the Whites hold Tsaritsyn)."
        in run.stdout
    )
    campaign = load_campaign(INTRO_SAMPLE)
    data = json.loads(state_json(replay(campaign), campaign))["ending"]
    assert (data["over"], data["winners"], data["draw"], data["ended_after"]) == (True, ["whites"], False, 3)
    assert data["met"][0]["towns"] == ["Tsaritsyn"] and data["last_turn"] == 3 and data["days_per_turn"] == 4
    before = state_text(campaign, replay(campaign, 2))
    assert "Turn 2 of 3 played: the scenario ends after turn 3." in before


@pytest.mark.parametrize(
    ("first", "last", "said"),
    [
        ((1919, 7, 4), (1919, 7, 4), "4 July 1919"),
        ((1919, 7, 4), (1919, 7, 13), "4\u201313 July 1919"),
        ((1919, 5, 25), (1919, 6, 3), "25 May\u20133 June 1919"),
        ((1919, 12, 28), (1920, 1, 6), "28 December 1919\u20136 January 1920"),
    ],
)
def test_a_turns_days_are_printed_as_a_typesetter_sets_a_range(
    first: tuple[int, int, int], last: tuple[int, int, int], said: str
) -> None:
    """A turn's first and last day joined by an en dash, whether the range is of days, months or years."""
    from kitgen.rules.ending import days_text

    assert days_text(datetime.date(*first), datetime.date(*last)) == said


@cache
def packet_texts(folder: Path, turn: int) -> dict[str, str]:
    from kitgen.products.packets import packets_of
    from kitgen.products.packets.builder import Packets

    campaign = load_campaign(folder)
    return {f.who: pdf_text(f.pdf) for f in packets_of(Packets(turn_basis(campaign, turn), "a4"))}


def test_the_packets_list_the_award_turns_to_the_end_and_say_how_it_is_won() -> None:
    texts = packet_texts(INTRO_SAMPLE, 2)
    for who in ("umpire", "reds", "whites"):
        text = texts[who]
        assert "VP are awarded for towns held at the end of every 3rd turn (turn 3)." in text, who
        assert "turn 6" not in text, who
        assert "Turn 2 stands for 4 days (24-27 June 1919). This is turn 2 of 3" in text, who
        for c in intro().victory.win:
            assert squeeze(condition_text(intro(), c)) in text, who
    last = packet_texts(INTRO_SAMPLE, 3)["umpire"]
    assert "This is the last turn: the scenario ends after turn 3" in last
    assert "This is an award turn" in last


def test_the_packets_past_the_end_say_who_won_when_the_club_plays_on(tmp_path: Path) -> None:
    folder = tmp_path / "ts"
    shutil.copytree(INTRO_SAMPLE, folder)
    with (folder / "campaign.yaml").open("a", encoding="utf-8") as f:
        f.write("play_on: true\n")
    text = packet_texts(folder, 4)["umpire"]
    assert "The last turn, 3, has been played: the Whites win (the Whites hold Tsaritsyn)." in text
    assert "The club plays on" in text
    assert "(turn 6, turn 9, turn 12, turn 15)" in text  # playing on, the awards go on


def test_kitgen_turn_past_the_end_refuses_and_plays_on_with_play_on(tmp_path: Path) -> None:
    folder = tmp_path / "ts"
    shutil.copytree(INTRO_SAMPLE, folder)
    refused = run_cli("turn", str(folder), "--out", str(tmp_path / "out"))
    assert refused.returncode == 1 and not (tmp_path / "out").exists()
    assert re.search(
        r"campaign\.yaml:\d+:1: found turn 4 asked for, but the scenario ended after turn 3", refused.stderr
    )
    assert "the Whites win" in refused.stderr and "play_on: true" in refused.stderr
    again = run_cli("turn", str(folder), "--turn", "3", "--out", str(tmp_path / "three"))  # a turn played: reprinted
    assert again.returncode == 0, again.stderr
    line = edit(folder / "campaign.yaml", "house_rules: []\n", "house_rules: []\nplay_on: false\n") + 1
    refused = run_cli("turn", str(folder), "--out", str(tmp_path / "out"))
    assert f"campaign.yaml:{line}:1: found turn 4" in refused.stderr  # at the house rule's key
    edit(folder / "campaign.yaml", "play_on: false", "play_on: true")
    played = run_cli("turn", str(folder), "--out", str(tmp_path / "out"))
    assert played.returncode == 0, played.stderr
    assert (tmp_path / "out" / "umpire-turn-04-a4.pdf").exists()


def test_past_the_end_for_next() -> None:
    """The check `kitgen next` makes: None before the end, a problem at campaign.yaml after it,
    also after an early end; never for an open-ended campaign."""
    campaign = load_campaign(INTRO_SAMPLE)
    assert past_the_end(campaign, after(2)) is None
    problem = past_the_end(campaign, after(3, tsaritsyn="whites"))
    assert problem is not None and problem.code == "campaign.past_the_end"
    assert problem.file.endswith("campaign.yaml") and problem.line >= 1 and problem.column >= 1
    early = past_the_end(campaign, after(1, units=("reds",)))
    assert early is not None and "ended after turn 1: the Reds win" in early.message
    playing_on = Campaign(**{**campaign.__dict__, "meta": campaign.meta.model_copy(update={"play_on": True})})
    assert past_the_end(playing_on, after(3, tsaritsyn="whites")) is None
    big = load_campaign(data_dir() / "sample-campaign")
    assert past_the_end(big, replace(replay(big, 0), turn=500)) is None


# --- printed ------------------------------------------------------------------------------------


@cache
def booklet(name: str) -> str:
    from kitgen.mapping.cache import hex_map
    from kitgen.mapping.places import place_hexes
    from kitgen.products.booklet import build_booklet

    s = load_scenario(data_dir() / name)
    built, _ = hex_map(s)
    assert built is not None
    return pdf_text(build_booklet(s, place_hexes(s, built), "a4")[0].pdf)


def test_the_booklet_states_the_turn_the_last_turn_and_how_it_is_won() -> None:
    text = booklet("tsaritsyn-1919")
    assert "Each strategic turn stands for 4 days; turn 1 begins on 20 June 1919." in text
    assert "The scenario ends after turn 3: then the campaign is over, unless the club agrees to play on" in text
    for c in intro().victory.win:
        assert squeeze(condition_text(intro(), c)) in text
    big = booklet("denikin-1919")
    assert "Each strategic turn stands for 10 days; turn 1 begins on 15 May 1919." in big
    assert "The campaign has no last turn: it goes on as long as the club plays it." in big
    assert "The rules set no victory conditions" in big


@pytest.mark.parametrize(("name", "days", "last"), [("tsaritsyn-1919", 4, 3), ("denikin-1919", 10, None)])
def test_the_turn_track_prints_the_days_and_marks_the_last_turn(name: str, days: int, last: int | None) -> None:
    from kitgen.products.forms import build_forms

    part = build_forms(load_scenario(data_dir() / name), "a4")[0]
    pages = [squeeze(p.extract_text()) for p in PdfReader(io.BytesIO(part.pdf)).pages]
    track = pages[0].split("TURN RECORD")[1]
    assert f"A turn stands for {days} days; turn 1 begins on" in track
    assert ("END" in track) == (last is not None)
    if last is not None:
        assert f"the scenario ends after turn {last}" in track
        ledger = pages[1].split("Rolls")[-1]
        assert re.findall(r"(?<![\d.])\d+(?![\d.])", ledger.split("The Red Verdun")[0]) == ["3"]  # awards to the end
