"""The umpire's views: `kitgen units` (his units after a turn, with trains, ships and depots) and
`kitgen hex` (one hex: its sides, links, occupants, supply and entry costs), checked against the
engine's own state and rules on the sample campaign, the bundled map and hand-made boards."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from kitgen.campaign import Campaign, load_campaign
from kitgen.engine.replay import replay
from kitgen.engine.state import CampaignState
from kitgen.engine.views import hex_of, hex_view, nearest_town, units_view
from kitgen.engine.viewtext import hex_text
from kitgen.mapping.board import Board
from kitgen.rules.command import obey_target
from tests.boards import campaign_on, log, play, unit
from tests.conftest import SAMPLE, run_cli

KHARKOV = "2909"


@cache
def sample() -> Campaign:
    return load_campaign(SAMPLE)


@cache
def sample_after(turn: int) -> CampaignState:
    return replay(sample(), turn)


def units_json(*args: str) -> list[dict[str, object]]:
    result = run_cli("units", str(SAMPLE), "--format", "json", *args)
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert isinstance(rows, list)
    return rows


# --- kitgen units ------------------------------------------------------------------------------


def test_units_hex_and_supply_match_the_state_json() -> None:
    state = json.loads(run_cli("state", str(SAMPLE), "--format", "json").stdout)
    words = {None: "not judged", True: "in", False: "OUT"}
    expected = [(u["id"], u["hex"], words[u["in_supply"]], u["stands"]) for u in state["units"]]
    rows = [r for r in units_json() if r["kind"] == "unit"]
    assert [(r["id"], r["hex"], r["supply"], r["stands"]) for r in rows] == expected
    assert "OUT" in {r["supply"] for r in rows}  # the sample has a unit out of supply after turn 6
    kinds = [r["kind"] for r in units_json()]
    assert kinds == sorted(kinds, key=["unit", "train", "ship", "depot"].index)  # units, then trains, ships, depots
    assert kinds.count("train") == len(state["trains"]) and kinds.count("ship") == len(state["ships"])


def test_units_faction_filters_by_id_or_name() -> None:
    whites = units_json("--faction", "whites")
    assert whites and {r["faction"] for r in whites} == {"whites"}
    assert {r["kind"] for r in whites} == {"unit", "train", "ship", "depot"}
    assert units_json("--faction", "Whites") == whites
    reds = units_json("--faction", "reds", "--turn", "0")
    assert {r["faction"] for r in reds} == {"reds"} and not [r for r in reds if r["kind"] == "ship"]
    assert all(r["supply"] == "not judged" for r in reds if r["kind"] == "unit")  # the set-up: nothing judged yet


def test_an_unknown_faction_is_a_usage_error_with_a_suggestion() -> None:
    result = run_cli("units", str(SAMPLE), "--faction", "redz")
    assert result.returncode == 2 and result.stdout == ""
    assert "found the unknown faction 'redz'" in result.stderr and "did you mean 'reds'?" in result.stderr


def test_units_name_their_town_or_the_nearest_one() -> None:
    """A unit in a town's hex names the town; elsewhere the nearest town and how many hexes off."""
    campaign = sample()
    rows = {r.id: r for r in units_view(campaign, sample_after(0)).units}
    kiev = rows["r_kiev_garrison"].place
    assert (kiev.hex, kiev.town, kiev.distance, kiev.text()) == ("1307", "Kiev", 0, "Kiev")
    board = Board.from_spec({"columns": 5, "rows": 1, "hexes": {"0101": {"towns": ["Kharkov"]}}})
    assert nearest_town(board, "0301").text() == "2 hexes from Kharkov"
    assert nearest_town(board, "0201").text() == "1 hex from Kharkov"
    assert nearest_town(Board.from_spec({"columns": 2, "rows": 1}), "0101").text() == "no town"


def test_units_show_their_type_mp_and_their_commanders_target() -> None:
    """A: the MP of the unit's type (a tachanka moves as cavalry); II.C.4: the commander's target is
    his rating raised by his failures in a row."""
    campaign, state = sample(), sample_after(6)
    s = campaign.scenario
    rows = units_view(campaign, state).units
    mp = {"infantry": 2, "cavalry": 4, "artillery": 3, "armoured_car": 6, "pontoon": 3, "rr_repair": 2, "tachanka": 4}
    assert {r.type: r.mp for r in rows if r.type in mp} == {t: n for t, n in mp.items() if t in {r.type for r in rows}}
    assert {"infantry", "cavalry", "rr_repair"} <= {r.type for r in rows}
    for row in rows:
        if row.command is not None:
            failures = state.command_failures.get(row.command.name, 0)
            assert row.command.failures == failures
            assert row.command.target == obey_target(s.command, row.command.rating, failures=failures)
    trotsky = next(r for r in units_view(campaign, state).units if r.id == "r_kharkov_communist")
    assert trotsky.command is not None and trotsky.command.name == "Trotsky"
    after_one = {r.id: r for r in units_view(campaign, sample_after(1)).units}
    drozdovsky = after_one["w_drozdovsky_1"].command  # Mai-Maevsky failed his roll on turn 1
    assert drozdovsky is not None and drozdovsky.name == "Mai-Maevsky" and drozdovsky.failures == 1
    assert drozdovsky.target == obey_target(s.command, drozdovsky.rating, failures=1) > drozdovsky.rating


def test_units_carried_this_turn_name_their_train_or_ship() -> None:
    """Turn 1: the Kharkov Communist Regiment goes by train; turn 5: two White units by HMS Marlborough."""
    one = {r.id: r for r in units_view(sample(), sample_after(1)).units}
    assert (one["r_kharkov_communist"].carrier, one["r_kharkov_communist"].carrier_kind) == ("r_train_kharkov", "train")
    assert [r.id for r in one.values() if r.carrier] == ["r_kharkov_communist"]
    five = {r.id: r for r in units_view(sample(), sample_after(5)).units}
    assert five["w_7th_inf_div"].carrier == "w_hms_marlborough" and five["w_7th_inf_div"].carrier_kind == "ship"
    assert five["r_kharkov_communist"].carrier is None  # last carried on turn 1


def test_units_text_lists_every_section() -> None:
    result = run_cli("units", str(SAMPLE), "--turn", "1", "--faction", "reds")
    assert result.returncode == 0, result.stderr
    text = result.stdout
    assert text.startswith("Denikin's War: units after turn 1\n")
    assert "\nReds (" in text and "\nWhites (" not in text and "\nTrains (6)\n" in text and "\nDepots (" in text
    line = next(x for x in text.splitlines() if x.strip().startswith("r_kharkov_communist"))
    assert "train r_train_kharkov" in line and "Trotsky (obeys 1-" in line and " in " in line


# --- kitgen hex --------------------------------------------------------------------------------


def test_hex_of_kharkov_lists_its_rail_neighbours() -> None:
    campaign = sample()
    board = campaign.board
    assert hex_of(campaign, "Kharkov") == hex_of(campaign, KHARKOV) == KHARKOV
    view = hex_view(campaign, sample_after(6), KHARKOV)
    assert view.rail == board.rail_neighbours(KHARKOV) and len(view.rail) >= 3
    assert [s.neighbour for s in view.sides] == list(board.neighbours(KHARKOV))
    assert {s.neighbour for s in view.sides if s.rail} == set(view.rail)
    assert [(t.name, t.owner) for t in view.towns] == [("Kharkov", "reds")]
    result = run_cli("hex", str(SAMPLE), KHARKOV)
    assert result.returncode == 0, result.stderr
    assert f"Rail to: {', '.join(view.rail)}\n" in result.stdout
    assert "Towns: Kharkov (Reds)" in result.stdout and "Reds: depot" in result.stdout


def test_hex_lists_its_occupants_by_faction() -> None:
    state = sample_after(6)
    here = state.units[0].hex
    view = hex_view(sample(), state, here)
    found = {o.faction: o.units for o in view.occupants}
    for f in {u.faction for u in state.units if u.hex == here}:
        assert found[f] == tuple(u.id for u in state.units if u.hex == here and u.faction == f)
    data = json.loads(run_cli("hex", str(SAMPLE), here, "--format", "json").stdout)
    assert data["hex"] == here and [o["units"] for o in data["occupants"]] == [list(o.units) for o in view.occupants]


def test_a_sea_hex_has_no_entry_costs_nor_supply() -> None:
    """A: land units go by sea only on a ship (D), so a sea hex has no table of land moves."""
    view = hex_view(sample(), sample_after(0), "3720")
    assert view.terrain == "sea" and view.entries == () and view.supply == ()
    assert "A sea hex: no land move enters it" in hex_text(sample().scenario, view)


def test_a_bad_hex_is_a_usage_error_naming_what_is_right() -> None:
    result = run_cli("hex", str(SAMPLE), "9999")
    assert result.returncode == 2 and result.stdout == ""
    assert "found '9999', which is neither a hex of the map nor a town" in result.stderr
    assert "expected a hex id from 0101 to " in result.stderr
    assert "did you mean 'Kharkov'?" in run_cli("hex", str(SAMPLE), "Kharkof").stderr


# --- a hand-made board: entry costs and supply --------------------------------------------------

AROUND = {
    "columns": 3,
    "rows": 3,
    "hexes": {"0202": {"terrain": "forest"}, "0103": {"terrain": "sea"}},
    "sides": [
        {"hexes": ["0102", "0202"], "river": "Donets", "class": "crossable"},
        {"hexes": ["0201", "0202"], "river": "Don", "class": "major"},
        {"hexes": ["0302", "0202"], "river": "Don", "class": "major", "bridge": True},
        {"hexes": ["0303", "0202"], "river": "Don", "class": "major"},
    ],
    "ferries": [{"hexes": ["0303", "0202"], "units": 2}],
    "rail": [["0203", "0202", "0302", "0301"]],
    "sources": [{"faction": "reds", "hex": "0301", "kind": "rail_exit", "edge": "north"}],
}
"""A forest hex 0202 with a crossable river on its NW side, the Don unbridged on N, bridged on
NE (where the railway crosses) and ferried on SE, open ground to the S and the sea to the SW."""


def test_A1_entry_costs_across_each_kind_of_hexside() -> None:
    """A.1: forest costs infantry 1, cavalry 2, artillery 3; +1 across a crossable river; a major
    river only at a bridge (+0) or by pontoon or ferry (the whole move)."""
    campaign = campaign_on(AROUND, [unit("r_rifles", "reds", "0203")])
    view = hex_view(campaign, play(campaign, log()).state, "0202")
    sides = {s.neighbour: s for s in view.sides}
    assert (sides["0102"].direction, sides["0102"].river_class, sides["0102"].bridge) == ("NW", "crossable", False)
    assert sides["0302"].bridge and sides["0303"].ferry == 2 and sides["0203"].rail and not sides["0201"].rail
    costs = {(e.neighbour, x.unit_type): x for e in view.entries for x in e.entries}

    def mp(start: str, kind: str) -> tuple[int | None, bool]:
        return costs[(start, kind)].mp, costs[(start, kind)].allowed

    assert [mp("0203", k) for k in ("infantry", "cavalry", "artillery")] == [(1, True), (2, True), (3, True)]
    assert [mp("0102", k) for k in ("infantry", "cavalry", "artillery")] == [(2, True), (3, True), (4, False)]
    assert mp("0302", "cavalry") == (2, True)  # the bridge: no river cost
    assert mp("0201", "infantry") == (None, False) and "bridge or with a pontoon" in str(
        costs[("0201", "infantry")].reason
    )
    ferried = costs[("0303", "cavalry")]
    assert ferried.allowed and ferried.whole_move and ferried.mp == 4
    assert mp("0103", "infantry") == (None, False)  # from the sea: by ship
    assert mp("0203", "rr_train") == (1, True) and mp("0102", "rr_train") == (None, False)
    table = hex_text(campaign.scenario, view)
    rows = {" ".join(x.split()[:2]): x.split()[2:] for x in table.splitlines() if x.startswith("  ") and x.split()}
    assert rows["NW 0102"][:3] == ["2", "3", "4>"] and rows["SE 0303"][:3] == ["all", "all", "all"]
    assert rows["N 0201"][:3] == ["-", "-", "-"]
    assert "Donets (crossable)" in table and "ferry (2 units a turn)" in table


def test_B3_hex_supply_agrees_with_the_engines_judgement() -> None:
    """B.3: a unit of a faction standing in the hex would be judged as the engine judges units there:
    the Reds in supply by the rail exit, the Whites (no source) out."""
    campaign = campaign_on(AROUND, [unit("r_rifles", "reds", "0302"), unit("w_rifles", "whites", "0101")])
    state = play(campaign, log()).state  # supply judged at the start of turn 1
    for u in state.units:
        here = {s.faction: s for s in hex_view(campaign, state, u.hex).supply}[u.faction]
        assert here.in_supply is u.in_supply and here.path == u.supply_path
    view = {s.faction: s for s in hex_view(campaign, state, "0202").supply}
    assert view["reds"].in_supply and view["reds"].path[-1] == "0301" and not view["whites"].in_supply


def test_units_and_hex_write_to_out_as_they_print(tmp_path: Path) -> None:
    for args in (("units", str(SAMPLE), "--turn", "2"), ("hex", str(SAMPLE), KHARKOV, "--format", "json")):
        printed = run_cli(*args).stdout
        assert run_cli(*args, "--out", str(tmp_path / "view.txt")).returncode == 0
        assert (tmp_path / "view.txt").read_text(encoding="utf-8") == printed
