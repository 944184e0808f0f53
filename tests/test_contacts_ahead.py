"""Contacts ahead of a turn's battles (kitgen/engine/contacts_ahead.py): the turn played from its
log up to the contacts phase, the log's battles left out. One case per clause, on small
hand-made boards (tests/boards.py), then the sample campaign's turn 2.

ROW is one row of open hexes: 0101 - 0201 - 0301 - 0401 - 0501; it has no supply source, so
every unit on it is out of supply (B.3)."""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml

from kitgen.campaign import load_campaign
from kitgen.engine.contacts_ahead import Contact, contacts_ahead
from kitgen.engine.replay import played, replay
from kitgen.engine.setup import initial_state
from kitgen.engine.turn import play_turn, read_log
from kitgen.engine.turnlog import TurnLog
from kitgen.mapping.board import Board
from kitgen.rules.supply import full_loads
from tests.boards import campaign_on, log, play, unit

ROW = {"columns": 5, "rows": 1, "terrain": "open"}
SEA: dict[str, Any] = {
    "columns": 4,
    "rows": 3,
    "hexes": {"0401": {"terrain": "sea"}, "0402": {"terrain": "sea"}, "0403": {"terrain": "sea"}},
}
"""Land in columns 1-3, sea in column 4: 0302 is a coastal hex, 0102 is inland."""
SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample-campaign"


def obeys(turn: int, *units: str) -> list[dict[str, Any]]:
    """Leaderless units' command rolls of 1 (1-3 obeys, RULES-NOTES), and no event card."""
    rolls = [{"purpose": f"II.C {u} command roll, turn {turn}", "value": 1} for u in units]
    return rolls + [{"purpose": f"II.A event roll, turn {turn}", "value": 1}]


def ahead(board: dict[str, Any], units: list[dict[str, Any]], turn_log: TurnLog, **setup: Any) -> list[Contact]:
    c = campaign_on(board, units, **setup)
    return contacts_ahead(c, initial_state(c), turn_log)


def test_II_B_two_enemy_units_moving_into_one_hex_make_one_contact() -> None:
    """RULES-NOTES, turn order: "6 contacts found: partisan evade / ambush rolls, battles listed".
    A Red and a White regiment both march into 0201: one battle there, one side each."""
    units = [unit("r_rifles", "reds", "0101"), unit("w_rifles", "whites", "0301")]
    orders = {
        "reds": [{"unit": "r_rifles", "move": ["0101", "0201"]}],
        "whites": [{"unit": "w_rifles", "move": ["0301", "0201"]}],
    }
    (contact,) = ahead(ROW, units, log(orders=orders, dice=obeys(1, "r_rifles", "w_rifles")))
    assert contact.hex == "0201" and contact.terrain == "open"
    assert [(s.factions, [u.id for u in s.units]) for s in contact.sides] == [
        (("reds",), ["r_rifles"]),
        (("whites",), ["w_rifles"]),
    ]
    assert {n.hex for n in contact.neighbours} == {"0101", "0301"}


def test_II_B_with_no_orders_the_contacts_are_where_enemies_already_stand_together() -> None:
    """A log with no orders: the contacts are the hexes enemies share (set up together in 0401),
    in hex-id order, and a hex of one faction is none."""
    units = [
        unit("r_a", "reds", "0401"),
        unit("w_a", "whites", "0401"),
        unit("r_b", "reds", "0201"),
        unit("r_c", "reds", "0201"),
    ]
    contacts = ahead(ROW, units, log(dice=obeys(1)))
    assert [c.hex for c in contacts] == ["0401"]


def test_II_B_the_logs_battles_are_left_out() -> None:
    """The setup sheets are printed before the battles: a log that already reports them gives the
    same contacts as one without them."""
    units = [unit("r_a", "reds", "0201"), unit("w_a", "whites", "0201")]
    c = campaign_on(ROW, units)
    battle = {"hex": "0201", "winner": "whites", "units": [{"unit": "r_a", "retreat": "0101"}, {"unit": "w_a"}]}
    with_battles = contacts_ahead(c, initial_state(c), log(battles=[battle], dice=obeys(1)))
    assert with_battles == contacts_ahead(c, initial_state(c), log(dice=obeys(1)))
    assert [x.hex for x in with_battles] == ["0201"]


def raid(partisans: list[dict[str, Any]], rolls: list[dict[str, Any]]) -> tuple[list[Contact], Any]:
    """White cavalry ride into 0201, where Makhnovist partisans stand: the contacts ahead, and the
    turn as the engine plays it."""
    units = [unit("w_cav", "whites", "0101", "cavalry"), unit("m_band", "makhnovists", "0201", flags=["partisan"])]
    turn_log = log(
        orders={"whites": [{"unit": "w_cav", "move": ["0101", "0201"]}]},
        partisans=partisans,
        dice=obeys(1, "w_cav") + rolls,
    )
    c = campaign_on(ROW, units)
    return contacts_ahead(c, initial_state(c), turn_log), play(c, turn_log)


EVADE = [{"hex": "0201", "faction": "makhnovists", "choice": "evade"}]


def test_II_D1_partisans_who_evade_make_no_contact() -> None:
    """II.D.1: "if partisans have higher total no battle takes place": the log chooses evade, the
    partisans roll 5 against 3, and the engine records them evaded: no battle sheet for 0201."""
    rolls = [
        {"purpose": "II.D.1 makhnovists evade in 0201, turn 1", "value": 5},
        {"purpose": "II.D.1 enemy of makhnovists in 0201, turn 1", "value": 3},
    ]
    contacts, record = raid(EVADE, rolls)
    assert ("0201", "makhnovists") in record.state.evaded
    assert contacts == []


def test_II_D1_partisans_who_fail_to_evade_fight_and_the_contact_says_so() -> None:
    """II.D.1: the partisans evade only on a higher total; at 2 against 4 they are caught, and the
    contact carries the rolls."""
    rolls = [
        {"purpose": "II.D.1 makhnovists evade in 0201, turn 1", "value": 2},
        {"purpose": "II.D.1 enemy of makhnovists in 0201, turn 1", "value": 4},
    ]
    contacts, record = raid(EVADE, rolls)
    (contact,) = contacts
    (met,) = contact.partisans
    assert met == record.state.partisan_contacts[0]
    assert (met.faction, met.outcome, met.roll, met.enemy_roll) == ("makhnovists", "caught", 2, 4)
    assert "m_band" in contact.unit_ids() and "w_cav" in contact.unit_ids()


def test_D3_a_ship_next_to_a_coastal_contact_gives_naval_gunfire() -> None:
    """D.3: "Naval ships can provide artillery support into coastal hexes. Each ship is rated for
    how many artillery batteries it is worth": a White ship at sea beside 0302 supports the Whites
    there; the inland battle in 0102 gets none."""
    board = Board.from_spec(SEA)
    sea_hex = next(h for h in ("0401", "0402", "0403") if board.adjacent(h, "0302"))
    assert "0302" in board.coastal and "0102" not in board.coastal
    units = [
        unit("w_a", "whites", "0302"),
        unit("r_a", "reds", "0302"),
        unit("w_b", "whites", "0102"),
        unit("r_b", "reds", "0102"),
    ]
    ships = [{"id": "w_glory", "faction": "whites", "name": "Glory", "at": sea_hex, "gunfire": 3}]
    inland, coastal = ahead(SEA, units, log(dice=obeys(1)), ships=ships)
    assert (inland.hex, coastal.hex) == ("0102", "0302")
    assert all(side.ships == () for side in inland.sides)
    whites = next(s for s in coastal.sides if s.factions == ("whites",))
    reds = next(s for s in coastal.sides if s.factions == ("reds",))
    assert [(g.ship, g.hex, g.rating) for g in whites.ships] == [("w_glory", sea_hex, 3)]
    assert reds.ships == ()


def test_B6_out_of_supply_units_enter_with_the_ammo_left_from_their_last_battle() -> None:
    """B.6: "When OUT OF SUPPLY, units enter battle with current load of ammo left from last
    action ... No edge of board resupply permitted." The Whites win in 0201 on turn 1 with 5 rounds
    a rifle stand left, and march on into the Reds' hex 0101 on turn 2."""
    units = [unit("w_a", "whites", "0201"), unit("r_a", "reds", "0201"), unit("r_b", "reds", "0101")]
    c = campaign_on(ROW, units)
    battle = {
        "hex": "0201",
        "winner": "whites",
        "units": [{"unit": "w_a", "ammo_left": {"infantry": 5}}, {"unit": "r_a", "retreat": "0301"}],
    }
    first = play(c, log(battles=[battle], dice=obeys(1)))
    second = log(2, orders={"whites": [{"unit": "w_a", "move": ["0201", "0101"]}]}, dice=obeys(2, "w_a"))
    (contact,) = contacts_ahead(c, first.state, second)
    whites = next(s for s in contact.sides if s.factions == ("whites",))
    (w_a,) = whites.units
    assert w_a.in_supply is False and w_a.ammo == {"infantry": 5}
    assert w_a.full_ammo == full_loads(c.scenario.supply, {"infantry": 4}) != w_a.ammo
    assert (w_a.edge_resupply, w_a.resupply_rule, whites.edge_resupply) == (False, "B.6", "none")


def test_II_B1_a_cornered_elite_unit_must_break_out_if_beaten() -> None:
    """II.B.1: "If cannot due to being surrounded ... Elite/Fanatic units must then immediately
    attack enemy in other hex that very same turn to break out or perish." In 0101, at the row's
    end, the Elite Whites' only way out, 0201, is held by the Reds; the Reds there can fall back to
    it; a plain White unit would surrender."""
    units = [
        unit("w_elite", "whites", "0101", flags=["elite"]),
        unit("w_plain", "whites", "0101"),
        unit("r_a", "reds", "0101"),
        unit("r_b", "reds", "0201"),
    ]
    (contact, *_) = ahead(ROW, units, log(dice=obeys(1)))
    fates = {u.id: (u.if_beaten, u.retreats, u.breakout_into) for s in contact.sides for u in s.units}
    assert fates["w_elite"] == ("must_break_out", (), ("0201",))
    assert fates["w_plain"] == ("surrenders", (), ())
    assert fates["r_a"] == ("retreats", ("0201",), ())


def test_sample_turn_2_contacts_are_the_hexes_its_battles_were_fought_in(tmp_path: Path) -> None:
    """The sample campaign's turn 2 with its battles removed from the log: the contacts ahead are
    exactly the hexes the umpire reported battles in, each holding the units that fought there."""
    folder = tmp_path / "sample"
    shutil.copytree(SAMPLE, folder)
    path = folder / "turns" / "turn-02.yaml"
    reported, _ = read_log(path)
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    del data["battles"]
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    c = load_campaign(folder)
    stripped, source = read_log(path)
    assert not stripped.battles
    state = replay(c, 1)
    contacts = contacts_ahead(c, state, stripped, source)
    assert [x.hex for x in contacts] == sorted({b.hex for b in reported.battles})
    for battle in reported.battles:
        contact = next(x for x in contacts if x.hex == battle.hex)
        assert {p.unit for p in battle.units} <= set(contact.unit_ids())
    # the contacts are taken where the whole turn would find them: before its battles are played
    record = play_turn(c, state, reported)
    assert {r.hex for r in record.state.battle_results} == {x.hex for x in contacts}


# --- II.A.2: event cards in force over the battles they name -------------------------------------

RIVERSIDE: dict[str, Any] = {
    "columns": 9,
    "rows": 1,
    "terrain": "open",
    "hexes": {"0101": {"towns": ["Tsaritsyn"]}},
    "sides": [{"hexes": ["0801", "0901"], "river": "Volga", "class": "major"}],
}
"""Nine open hexes in a row, Tsaritsyn in 0101 and the Volga between 0801 and 0901."""


def _scope(**given: Any) -> Any:
    from kitgen.model.forces import BattleScope

    return BattleScope.model_validate(given)


def test_II_A2_a_cards_battle_scope_names_its_battles() -> None:
    """II.A.2, the card No. 47 Squadron, RAF: "in every tabletop battle within 5 hexes of
    Tsaritsyn"; The Volga Flotilla: "in Tsaritsyn or a hex next to the Volga"; a card naming no
    place reaches every battle."""
    from kitgen.rules.events import in_scope

    board = campaign_on(RIVERSIDE, [unit("r_inf", "reds", "0101")]).board
    raf = _scope(near="Tsaritsyn", within=5)
    assert [in_scope(board, raf, [h]) for h in ("0101", "0601", "0701")] == [True, True, False]
    flotilla = _scope(near="Tsaritsyn", along="Volga")
    assert [in_scope(board, flotilla, [h]) for h in ("0101", "0201", "0801", "0901")] == [True, False, True, True]
    assert in_scope(board, _scope(), ["0501"])
    assert in_scope(board, raf, ["0701", "0601"])  # a battle across a hexside: either hex will do


def test_II_A2_a_card_drawn_stays_in_force_for_its_turns_and_reaches_the_contacts_it_names() -> None:
    """II.A.2, No. 47 Squadron, RAF: "For this turn and the next, in every tabletop battle within
    5 hexes of Tsaritsyn ...". In the Tsaritsyn sample it is drawn in turn 2: in force for turns
    2 and 3, on the contacts near Tsaritsyn, and gone by turn 4."""
    campaign = load_campaign(Path(__file__).resolve().parent.parent / "data" / "tsaritsyn-sample")
    states = [record.state for _, record in played(campaign)]
    assert "raf_47_squadron" in states[1].events
    assert [(c.card, c.last) for c in states[1].in_force] == [("raf_47_squadron", 3)]
    log3, source = read_log(campaign.folder / "turns" / "turn-03.yaml")
    found = contacts_ahead(campaign, states[1], log3, source)
    near = [c for c in found if c.hex in ("5212", "5313")]
    assert near and all([n.card for n in c.cards] == ["raf_47_squadron"] for c in near)
    card = next(c for c in campaign.scenario.cards.events if c.id == "raf_47_squadron")
    assert all(c.cards[0].text == card.effects[0].text for c in near)
    later = replace(states[1], turn=4)  # the card's last turn was 3 (turn 5 may draw another)
    ahead = contacts_ahead(campaign, later, log3.model_copy(update={"turn": 5}), None)
    assert ahead and all("raf_47_squadron" not in [n.card for n in c.cards] for c in ahead)


def test_II_A2_the_battle_sheet_prints_the_card_in_force() -> None:
    """The battle set-up sheet of a contact near Tsaritsyn, in turn 3 of the Tsaritsyn sample,
    prints the card's effect as a note beside the map."""
    from kitgen.products.packets.battlesheets import _notes

    campaign = load_campaign(Path(__file__).resolve().parent.parent / "data" / "tsaritsyn-sample")
    states = [record.state for _, record in played(campaign)]
    log3, source = read_log(campaign.folder / "turns" / "turn-03.yaml")
    contact = next(c for c in contacts_ahead(campaign, states[1], log3, source) if c.cards)
    notes = dict(_notes(campaign.scenario, contact))
    assert notes["Event card:"].startswith("No. 47 Squadron, RAF: For this turn and the next")
