"""The battle setup sheets (kitgen/products/packets/battlesheets.py): one sheet per contact ahead of a
turn's battles, with its units, its hex and the post-battle losses of the scenario's II.B.3."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
from pathlib import Path

import pypdf
import pytest

from kitgen.campaign import Campaign, load_campaign
from kitgen.engine.contacts_ahead import Contact, contacts_ahead
from kitgen.engine.replay import replay
from kitgen.engine.setup import initial_state
from kitgen.engine.turn import read_log
from kitgen.products.packets.battlesheets import battle_layout, battle_sheet_pages, battle_sheets_pdf
from kitgen.rules.battle import losses
from tests.boards import campaign_on, log, unit

SAMPLE = Path(__file__).resolve().parent.parent / "data" / "sample-campaign"


@pytest.fixture(scope="module")
def turn_2(tmp_path_factory: pytest.TempPathFactory) -> tuple[Campaign, list[Contact]]:
    """The sample campaign's contacts ahead of turn 2's battles."""
    folder = tmp_path_factory.mktemp("battles") / "sample"
    shutil.copytree(SAMPLE, folder)
    c = load_campaign(folder)
    turn_log, source = read_log(folder / "turns" / "turn-02.yaml")
    return c, contacts_ahead(c, replay(c, 1), turn_log, source)


def _text(pdf: bytes) -> list[str]:
    """Each page's text, as pdftotext lays it out."""
    out = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True).stdout
    return out.decode("utf-8").split("\f")[:-1]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_one_sheet_per_contact_in_the_outline(turn_2: tuple[Campaign, list[Contact]], paper: str) -> None:
    c, contacts = turn_2
    assert len(contacts) == 2
    reader = pypdf.PdfReader(io.BytesIO(battle_sheets_pdf(c, contacts, 2, paper)))
    assert len(reader.pages) == len(contacts)
    titles = [item.title for item in reader.outline if isinstance(item, pypdf.generic.Destination)]
    for title, contact in zip(titles, contacts, strict=True):
        assert contact.hex in title and "turn 2" in title


def test_each_sheet_names_its_hex_and_every_unit(turn_2: tuple[Campaign, list[Contact]]) -> None:
    c, contacts = turn_2
    pages = _text(battle_sheets_pdf(c, contacts, 2, "a4"))
    for page, contact in zip(pages, contacts, strict=True):
        assert contact.hex in page
        for unit_id in contact.unit_ids():
            assert page.count(unit_id) >= 1  # in the forces (the report is the battle report form's)
        others = {u for x in contacts if x is not contact for u in x.unit_ids()}
        assert not any(u in page for u in others)


def test_II_B3_the_losses_printed_are_the_scenarios(turn_2: tuple[Campaign, list[Contact]]) -> None:
    """II.B.3: "Winner - 40% of losses in tabletop battle permanent 60% return ... Loser - 55% ...
    45% ... 50% of routed troops desert or captured": each line of the table, as printed, is what
    the scenario's battle rules make of 1, 2, 3 ... stands."""
    c, contacts = turn_2
    b = c.scenario.battle
    page = _text(battle_sheets_pdf(c, contacts[:1], 2, "a4"))[0]
    header = next(line for line in page.splitlines() if "Stands lost (or routed) on the table" in line)
    upto = int(header.split()[-1])
    assert upto >= battle_layout().losses.least

    def printed(label: str) -> list[int]:
        line = next(x for x in page.splitlines() if label in x)
        return [int(n) for n in line.split(")")[-1].split()] if ")" in line else [int(n) for n in line.split()[-upto:]]

    stands = range(1, upto + 1)
    assert printed(f"Winner: lost for good ({b.winner.permanent_pct}%)") == [
        losses(b, "winner", n).permanent for n in stands
    ]
    assert printed(f"Winner: back next turn ({b.winner.return_pct}%)") == [
        losses(b, "winner", n).returning for n in stands
    ]
    assert printed(f"Loser: lost for good ({b.loser.permanent_pct}%)") == [
        losses(b, "loser", n).permanent for n in stands
    ]
    assert printed(f"Loser: back next turn ({b.loser.return_pct}%)") == [
        losses(b, "loser", n).returning for n in stands
    ]
    routed = [losses(b, "loser", 0, n).routed_lost for n in stands]
    assert printed(f"desert or captured ({b.loser.routed_lost_pct}%)") == routed


def test_a_sheets_map_names_the_places_of_the_battles_hexes_only(turn_2: tuple[Campaign, list[Contact]]) -> None:
    """A sheet's map shows the battle's hex and its neighbours with their towns, and the ring
    around them unnamed: no town or railway point of that ring is a place of the sheet's map."""
    from kitgen.mapping.places import place_hexes
    from kitgen.model.scenario import name_key
    from kitgen.products.packets.battlesheets import _sub_map

    c, contacts = turn_2
    for contact in contacts:
        art, inner = _sub_map(c, contact)
        shown = {h.id for h in art.map.hexes}
        ring = shown - set(inner)
        assert any(hex_id in ring for hex_id in c.places.values()), "the full map names places in the ring"
        ids = {name_key(hex_id) for hex_id in shown}
        named = {hex_id for name, hex_id in place_hexes(c.scenario, art.map).items() if name not in ids}
        assert named and named <= set(inner), (contact.hex, sorted(named - set(inner)))


def test_the_battle_is_reported_on_its_report_form_not_on_the_sheet(turn_2: tuple[Campaign, list[Contact]]) -> None:
    """The battle is reported on its battle report form, which follows the sheet in the umpire's
    packet (tests/test_report_forms.py): the sheet keeps its map, forces, notes and losses table,
    and no longer has a write-in report to copy into the log."""
    c, contacts = turn_2
    page = _text(battle_sheets_pdf(c, contacts[:1], 2, "a4"))[0]
    assert "FORCES" in page and "POST-BATTLE LOSSES" in page and "Ground:" in page
    assert "BATTLE REPORT" not in page and "Copy each row under battles:" not in page


def test_a_contact_with_many_units_continues_on_a_second_page() -> None:
    """Twelve units a side in one hex do not fit one sheet: the contact's sheet runs on, each page
    in the outline, every unit printed."""
    units = [unit(f"r_{k}", "reds", "0101") for k in range(12)] + [unit(f"w_{k}", "whites", "0101") for k in range(12)]
    c = campaign_on({"columns": 3, "rows": 3}, units)
    (contact,) = contacts_ahead(c, initial_state(c), log(dice=[{"purpose": "II.A event roll, turn 1", "value": 1}]))
    pages = battle_sheet_pages(c, [contact], 1)
    assert len(pages) >= 2 and pages[1][0].endswith("(continued)")
    pdf = battle_sheets_pdf(c, [contact], 1, "letter")
    text = "\n".join(_text(pdf))
    assert len(pypdf.PdfReader(io.BytesIO(pdf)).pages) == len(pages)
    for unit_id in contact.unit_ids():
        assert re.search(rf"\b{unit_id}\b", text)


def test_the_sheets_are_byte_identical_from_the_same_contacts(turn_2: tuple[Campaign, list[Contact]]) -> None:
    c, contacts = turn_2
    assert battle_sheets_pdf(c, contacts, 2, "a4") == battle_sheets_pdf(c, contacts, 2, "a4")
