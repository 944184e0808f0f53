"""The faction order form filled and read back: `kitgen orders form` writes it pre-filled, the
test fills its fields as a PDF viewer would (pypdf), `kitgen orders import` checks the orders by
the rules and merges them into the turn log, leaving everything else of the log as it was."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from kitgen.campaign import load_campaign
from kitgen.engine.replay import replay
from kitgen.engine.turnlog import MoveOrder, ResupplyOrder, TurnLog
from kitgen.mapping.hexgrid import DIRECTION_NAMES
from kitgen.orders.entries import FactionOrders
from kitgen.orders.rows import PATH_HEXES, TICKS, field_name, order_rows, tick_name
from kitgen.products.orderform import order_form_pdf
from kitgen.record.merge import merge, splice
from kitgen.render.pages import PAPER
from tests.conftest import SAMPLE, run_cli
from tests.forms import fill_with_pypdf

TURN = 7
"""The sample campaign has played six turns: the forms are for the seventh."""


@pytest.fixture
def camp(tmp_path: Path) -> Path:
    """A copy of the sample campaign, turn 7 started by `kitgen next` (an import never starts a turn)."""
    dest = tmp_path / "campaign"
    shutil.copytree(SAMPLE, dest)
    assert run_cli("next", str(dest)).returncode == 0
    return dest


def merged_text(text: str, faction: str, new: FactionOrders, mentioned: set[str] | None = None) -> tuple[str, TurnLog]:
    """The log's text with the faction's orders merged in for the units `mentioned` (default every
    unit the old or the new orders name, as a whole form does), and the log it must read back as."""
    old = TurnLog.model_validate(yaml.safe_load(text))
    named = {o.unit for o in new.orders} | {o.unit for orders in old.orders.values() for o in orders}
    done = merge(old, faction, new, named if mentioned is None else mentioned)
    return splice(text, done), done.log


def _neighbours(camp: Path, unit: str) -> tuple[str, tuple[str, ...]]:
    campaign = load_campaign(camp)
    found = replay(campaign).unit(unit)
    assert found is not None
    return found.hex, campaign.board.neighbours(found.hex)


def _form(camp: Path, faction: str, tmp: Path, *extra: str) -> Path:
    out = tmp / f"{faction}.pdf"
    done = run_cli("orders", "form", str(camp), "--faction", faction, "--turn", str(TURN), "--out", str(out), *extra)
    assert done.returncode == 0, done.stderr
    return out


def _log(camp: Path) -> Path:
    return camp / "turns" / f"turn-{TURN:02d}.yaml"


def _read(path: Path) -> TurnLog:
    return TurnLog.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


# --- the form ---------------------------------------------------------------------------------


def test_form_has_a_row_and_fields_for_each_unit_train_and_ship(camp: Path, tmp_path: Path) -> None:
    from pypdf import PdfReader

    campaign = load_campaign(camp)
    state = replay(campaign)
    rows = order_rows(campaign, state, "whites", TURN)
    units = {u.id for u in state.units if u.faction == "whites"}
    assert {r.id for r in rows if r.kind == "unit"} == units
    assert {r.id for r in rows if r.kind == "ship"} == {str(x["id"]) for x in state.ships if x["faction"] == "whites"}
    assert {r.id for r in rows if r.kind == "train"} == {str(t["id"]) for t in state.trains if t["faction"] == "whites"}
    fields = PdfReader(_form(camp, "whites", tmp_path)).get_fields() or {}
    for row in rows:
        assert field_name(row.id, "path") in fields
        for unit, _ in row.carriable:  # a train's or ship's: a tick box for each unit it may take
            assert tick_name(row.id, "carry", unit) in fields
        assert row.kind == "unit" or {u.id for u in state.units if u.hex == row.hex and u.faction == "whites"} >= {
            unit for unit, _ in row.carriable
        }
        for word in row.specials:
            assert tick_name(row.id, "special", TICKS[word]) in fields
        for side in DIRECTION_NAMES if row.specials else ():  # the hex a special order names: a side's bubble
            assert tick_name(row.id, "toward", side.lower()) in fields
        assert field_name(row.id, "special") not in fields
    assert fields["id-whites-turn"]["/V"] == str(TURN) and fields["id-whites-faction"]["/V"] == "whites"


def test_form_bytes_are_the_same_on_every_run(camp: Path) -> None:
    campaign = load_campaign(camp)
    state = replay(campaign)
    assert order_form_pdf(campaign, state, "reds", TURN, "letter") == order_form_pdf(
        campaign, state, "reds", TURN, "letter"
    )


@pytest.mark.parametrize("paper", sorted(PAPER))
def test_path_field_holds_its_hexes(camp: Path, tmp_path: Path, paper: str) -> None:
    """A row's path fields, as printed, hold a hex of 4 digits a step the row offers (a unit's
    MP's worth, a train's 12, a ship's 16 over two lines) at their type size: a comb of a cell
    per digit, each cell wider than a digit in the form's embedded font."""
    import re

    from pypdf import PdfReader

    from kitgen.render.fonts import SANS, text_width

    campaign = load_campaign(camp)
    offered = {r.id: r.offered for r in order_rows(campaign, replay(campaign), "whites", TURN)}
    held: dict[str, int] = {}
    for page in PdfReader(_form(camp, "whites", tmp_path, "--paper", paper)).pages:
        for annot in page.get("/Annots") or []:
            field = annot.get_object()
            name = str(field.get("/T", ""))
            m = re.fullmatch(r"o-(.+)-path2?", name)
            if not m:
                continue
            size = float(re.search(r"([\d.]+) Tf", str(field["/DA"])).group(1))  # type: ignore[union-attr]
            assert str(field["/DA"]).startswith("/KgSans ")
            x0, _, x1, _ = (float(v) for v in field["/Rect"])
            digits = int(field["/MaxLen"])
            assert digits % 4 == 0 and int(field["/Ff"]) & (1 << 24), name  # a comb of whole hexes
            assert size >= 7 and text_width("0", SANS, size) < (x1 - x0) / digits, (name, size, x1 - x0)
            held[m.group(1)] = held.get(m.group(1), 0) + digits
    # as many hexes as the row offers steps (issue 42): a unit's its MP can enter, a train's 12, a ship's 16
    assert held == {row: 4 * steps for row, steps in offered.items() if steps}
    assert all(steps <= PATH_HEXES["ship"] for steps in offered.values())


# --- importing --------------------------------------------------------------------------------


def _renamed(form: Path, old: str, new: str, value: str, out: Path) -> Path:
    """The form with the field `old` named `new` and set to the name `value` (a tick box's)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject, TextStringObject

    writer = PdfWriter(clone_from=PdfReader(form))
    for page in writer.pages:
        for annot in page.get("/Annots") or []:
            field = annot.get_object()
            if field.get("/T") == old:
                field[NameObject("/T")] = TextStringObject(new)
                field[NameObject("/V")] = NameObject(value)
    writer.write(out)
    return out


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("o-w_crimea_azov_2-special-charge", "/Yes", "named like a kitgen field but is none"),
        ("o-w_crimea_azov_2-special-resupply", "/No", "expected it ticked (/Yes) or not"),
    ],
)
def test_a_tick_box_of_no_special_order_or_no_tick_is_an_error_naming_it(
    camp: Path, tmp_path: Path, name: str, value: str, said: str
) -> None:
    """A check box kitgen never printed (a special order of no such word), or one set to a value
    a tick box never holds, is an error naming the field: never a traceback, never a tick."""
    form = _renamed(
        _form(camp, "whites", tmp_path), "o-w_crimea_azov_2-special-resupply", name, value, tmp_path / "x.pdf"
    )
    done = run_cli("orders", "import", str(form), "--campaign", str(camp), "--turn", str(TURN))
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert name in done.stderr and said in done.stderr, done.stderr


def test_filled_pdf_is_merged_into_the_log_next_started_and_the_campaign_replays(camp: Path, tmp_path: Path) -> None:
    start, around = _neighbours(camp, "w_crimea_azov_2")
    filled = fill_with_pypdf(
        _form(camp, "whites", tmp_path),
        {field_name("w_crimea_azov_2", "path"): around[0]},
        tmp_path / "filled.pdf",
    )
    done = run_cli("orders", "import", str(filled), "--campaign", str(camp), "--turn", str(TURN))
    assert done.returncode == 0, done.stderr
    assert "merged the orders of the whites" in done.stdout and "1 added" in done.stdout
    log = _read(_log(camp))
    assert {f: o for f, o in log.orders.items() if o} == {
        "whites": [MoveOrder(unit="w_crimea_azov_2", move=[start, around[0]])]
    }
    assert not any(log.resupply.values()) and not any(log.rail.values())
    assert run_cli("validate", str(camp)).returncode == 0


def test_illegal_move_is_refused_under_strict_naming_the_unit_and_the_log_is_untouched(
    camp: Path, tmp_path: Path
) -> None:
    """A hex two hexes away is no path (A: each hex entered is next to the one before): with
    `--strict` the form is refused and nothing written (without it, tests/test_record.py)."""
    start, around = _neighbours(camp, "w_crimea_azov_2")
    campaign = load_campaign(camp)
    far = next(n for a in around for n in campaign.board.neighbours(a) if n != start and n not in around)
    text = f"# the umpire's notes\nturn: {TURN}\norders:\n  reds: []   # none yet\n"
    _log(camp).write_text(text, encoding="utf-8")
    filled = fill_with_pypdf(
        _form(camp, "whites", tmp_path), {field_name("w_crimea_azov_2", "path"): f"{start}-{far}"}, tmp_path / "f.pdf"
    )
    done = run_cli("orders", "import", str(filled), "--campaign", str(camp), "--turn", str(TURN), "--strict")
    assert done.returncode == 1
    assert "f.pdf:1:1: unit w_crimea_azov_2, field path: found an order the rules make void" in done.stderr
    assert _log(camp).read_text(encoding="utf-8") == text
    assert not list((camp / "backups").glob("turn-*.yaml.*"))  # no backup: nothing was written


def test_csv_import_good_and_bad(camp: Path, tmp_path: Path) -> None:
    sheet = tmp_path / "whites.csv"
    assert run_cli("orders", "form", str(camp), "--faction", "whites", "--csv", "--out", str(sheet)).returncode == 0
    lines = sheet.read_text(encoding="utf-8").splitlines()
    start, around = _neighbours(camp, "w_crimea_azov_2")
    k = next(i for i, line in enumerate(lines) if line.startswith("w_crimea_azov_2,"))
    bad = list(lines)
    bad[k] = bad[k].removesuffix(",,,") + ",99x9,,"
    sheet.write_text("\n".join(bad) + "\n", encoding="utf-8")
    template = _log(camp).read_bytes()
    done = run_cli("orders", "import", str(sheet), "--campaign", str(camp), "--turn", str(TURN))
    assert done.returncode == 1
    assert f"whites.csv:{k + 1}:1: unit w_crimea_azov_2, field path: found '99x9'" in done.stderr
    assert _log(camp).read_bytes() == template
    good = list(lines)
    good[k] = good[k].removesuffix(",,,") + f",{around[1]},,retreat"
    sheet.write_text("\n".join(good) + "\n", encoding="utf-8")
    done = run_cli("orders", "import", str(sheet), "--campaign", str(camp), "--turn", str(TURN))
    if done.returncode == 0:  # II.C.2: a retreat must take the unit away from an enemy next to it
        assert _read(_log(camp)).orders["whites"] == [
            MoveOrder(unit="w_crimea_azov_2", move=[start, around[1]], retreat=True)
        ]
    else:
        assert "unit w_crimea_azov_2, field path" in done.stderr, done.stderr
    good[k] = good[k].removesuffix(",retreat") + ","
    sheet.write_text("\n".join(good) + "\n", encoding="utf-8")
    done = run_cli("orders", "import", str(sheet), "--campaign", str(camp), "--turn", str(TURN))
    assert done.returncode == 0, done.stderr
    assert _read(_log(camp)).orders["whites"] == [MoveOrder(unit="w_crimea_azov_2", move=[start, around[1]])]


def test_import_keeps_other_factions_orders_and_comments_byte_for_byte(camp: Path, tmp_path: Path) -> None:
    start, around = _neighbours(camp, "w_crimea_azov_2")
    red, red_around = _neighbours(camp, "r_10th_army")
    head = (
        "# Turn 7: the umpire's notes stay.\n"
        f"turn: {TURN}\n"
        "orders:\n"
        f'  reds:   # the Reds, by post\n    - {{unit: r_10th_army, move: ["{red}", "{red_around[0]}"]}}   # keep me\n'
        "  whites:\n"
    )
    tail = "# the Whites are next\nbattles: []   # none\ndice: []\n"
    old_whites = f'    - {{unit: w_crimea_azov_2, move: ["{start}", "{around[2]}"]}}   # written by hand\n'
    _log(camp).write_text(head + old_whites + tail, encoding="utf-8")
    filled = fill_with_pypdf(
        _form(camp, "whites", tmp_path), {field_name("w_crimea_azov_2", "path"): around[0]}, tmp_path / "w.pdf"
    )
    done = run_cli("orders", "import", str(filled), "--campaign", str(camp), "--turn", str(TURN))
    assert done.returncode == 0, done.stderr
    text = _log(camp).read_text(encoding="utf-8")
    # the rolls the turn now asks for are written into the log's `dice: []`, with no value, for
    # the table to make (the sample: `dice: table`); the rest stays as it was, byte for byte
    assert text.startswith(head) and text.endswith("handed_in:\n  - whites\n")
    assert "# the Whites are next\nbattles: []   # none\ndice: [{purpose: " in text
    asked = {g.purpose: g.value for g in _read(_log(camp)).dice}
    assert set(asked.values()) == {None} and f"II.A event roll, turn {TURN}" in asked
    assert f"II.C Slashchev command roll, turn {TURN}" in asked
    assert _read(_log(camp)).orders["whites"] == [MoveOrder(unit="w_crimea_azov_2", move=[start, around[0]])]
    backups = sorted((camp / "backups").glob("turn-*"))
    assert [b.name for b in backups] == ["turn-07.yaml.1"] and backups[0].read_text() == head + old_whites + tail
    other = fill_with_pypdf(
        _form(camp, "whites", tmp_path), {field_name("w_crimea_azov_2", "path"): around[1]}, tmp_path / "w2.pdf"
    )
    again = run_cli("orders", "import", str(other), "--campaign", str(camp), "--turn", str(TURN))
    assert again.returncode == 0 and "turn-07.yaml.2" in again.stdout  # an earlier backup is never overwritten


def test_splice_adds_sections_and_keys_and_reads_back_as_intended() -> None:
    text = "turn: 3\n# a comment\norders: {reds: [{unit: r_a, move: ['1010', '1011']}]}\nrail:\n  reds: []\n"
    new = FactionOrders(orders=[MoveOrder(unit="w_a", move=["2020", "2021"])], resupply=[ResupplyOrder(unit="w_b")])
    out, intended = merged_text(text, "whites", new, {"w_a", "w_b"})
    assert out.startswith("turn: 3\n# a comment\norders: {reds: [{unit: r_a, move: ['1010', '1011']}]")
    assert TurnLog.model_validate(yaml.safe_load(out)) == intended


def test_form_of_another_turn_or_campaign_is_refused(camp: Path, tmp_path: Path) -> None:
    form = _form(camp, "whites", tmp_path)
    done = run_cli("orders", "import", str(form), "--campaign", str(camp), "--turn", "6", "--amend")
    assert done.returncode == 1 and f"found a form for turn {TURN}; expected one for turn 6" in done.stderr
    other = fill_with_pypdf(form, {"id-whites-campaign": "0123456789ab"}, tmp_path / "other.pdf")  # another campaign's
    done = run_cli("orders", "import", str(other), "--campaign", str(camp), "--turn", str(TURN))
    assert done.returncode == 1 and "found a form for campaign 0123456789ab; expected one for campaign" in done.stderr
    assert not any(_read(_log(camp)).orders.values())


def test_form_claiming_another_faction_is_refused(camp: Path, tmp_path: Path) -> None:
    """A Whites form whose identity says Reds: its rows are no Red units."""
    tampered = fill_with_pypdf(_form(camp, "whites", tmp_path), {"id-whites-faction": "reds"}, tmp_path / "t.pdf")
    done = run_cli("orders", "import", str(tampered), "--campaign", str(camp), "--turn", str(TURN))
    assert done.returncode == 1 and "expected a unit, train or ship of the reds" in done.stderr


@pytest.mark.parametrize(
    "content",
    [b"hello, this is no PDF", b"%PDF-1.4\n\x00\x01garbage", b"\x89PNG\r\n\x1a\n"],
    ids=["text", "pdf", "png"],
)
def test_garbage_is_a_clear_error(camp: Path, tmp_path: Path, content: bytes) -> None:
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(content)
    done = run_cli("orders", "import", str(junk), "--campaign", str(camp), "--turn", str(TURN))
    assert done.returncode == 1 and "junk.pdf:1:1:" in done.stderr and "expected" in done.stderr


def test_truncated_form_is_a_clear_error(camp: Path, tmp_path: Path) -> None:
    form = _form(camp, "reds", tmp_path)
    cut = tmp_path / "cut.pdf"
    cut.write_bytes(form.read_bytes()[:3000])
    done = run_cli("orders", "import", str(cut), "--campaign", str(camp), "--turn", str(TURN))
    assert done.returncode == 1 and "cut.pdf:1:1:" in done.stderr


def test_import_into_the_log_kitgen_next_wrote(camp: Path, tmp_path: Path) -> None:
    """The week as the README tells it: `kitgen next` writes the log with every section empty but
    for comments; a spreadsheet's orders and a packet's partisan choice go into it, every comment
    of the template stays, and the campaign validates."""
    template = _log(camp).read_text(encoding="utf-8")
    sheet = tmp_path / "whites.csv"
    assert run_cli("orders", "form", str(camp), "--faction", "whites", "--csv", "--out", str(sheet)).returncode == 0
    lines = sheet.read_text(encoding="utf-8").splitlines()
    start, around = _neighbours(camp, "w_crimea_azov_2")
    k = next(i for i, line in enumerate(lines) if line.startswith("w_crimea_azov_2,"))
    lines[k] = lines[k].removesuffix(",,,") + f",{around[1]},,"
    sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run_cli("orders", "import", str(sheet), "--campaign", str(camp), "--turn", str(TURN))
    assert done.returncode == 0, done.stderr
    merged = _log(camp).read_text(encoding="utf-8")
    assert _read(_log(camp)).orders["whites"] == [MoveOrder(unit="w_crimea_azov_2", move=[start, around[1]])]
    # every comment of the template stays but the two lines the import takes up: the brigade's
    # commented order (its words move onto the order's line) and its commander's roll, now an entry
    taken = [
        line
        for line in template.splitlines()
        if line.lstrip().startswith(("# - {unit: w_crimea_azov_2,", '# - {purpose: "II.C Slashchev command roll'))
    ]
    assert len(taken) == 2
    assert [line for line in template.splitlines() if line.lstrip().startswith("#") and line not in taken] == [
        line for line in merged.splitlines() if line.lstrip().startswith("#")
    ]
    order = next(line for line in merged.splitlines() if line.lstrip().startswith("- {unit: w_crimea_azov_2,"))
    assert order.endswith(taken[0].split("]}", 1)[1])  # "   # Crimean-Azov Composite Brigade, ..."
    roll = next(line for line in merged.splitlines() if "II.C Slashchev command roll" in line)
    assert roll.lstrip().startswith('- {purpose: "II.C Slashchev command roll, turn 7", value: }   # D10')
    assert run_cli("validate", str(camp)).returncode == 0


@pytest.mark.parametrize("empty", ["", " ~", " null"])
def test_splice_fills_sections_left_empty_under_their_comments(empty: str) -> None:
    """A section, a faction key or the partisans written with nothing under them but comments (as
    `kitgen next` writes them), or as an explicit null: the orders go under the key, the comments stay."""
    from kitgen.engine.turnlog import PartisanChoice

    text = (
        f"turn: 7\norders:{empty}\n  # - {{unit: w_a, move: [...]}}\n"
        f"rail:\n  whites:{empty}\n    # - {{train: w_t, ...}}\n"
        f"partisans:{empty}\n  # - {{hex: ..., faction: ..., choice: evade}}\n"
    )
    new = FactionOrders(
        orders=[MoveOrder(unit="w_a", move=["2020", "2021"])],
        partisans=[PartisanChoice(hex="2021", faction="whites", choice="evade")],
    )
    out, intended = merged_text(text, "whites", new)
    assert TurnLog.model_validate(yaml.safe_load(out)) == intended
    comments = [line.strip() for line in text.splitlines() if line.strip().startswith("#")]
    assert comments == [line.strip() for line in out.splitlines() if line.strip().startswith("#")]


def test_splice_keeps_the_umpires_comments_among_a_factions_orders() -> None:
    """Comments written among the faction's own old orders stay: one on an order's line goes with
    the new order of the same unit, comment lines between orders stay where they were; a unit the
    whole form holds (w_b) loses its order, a new one (w_c) comes after the others."""
    text = (
        "turn: 7\norders:\n  whites:\n"
        "    - {unit: w_a, move: ['2020', '2021']}   # by telegraph\n"
        "    # keep Markov in reserve? asked the player\n"
        "    - {unit: w_b, move: ['3030', '3031']}\n"
        "  reds: []\n"
    )
    new = FactionOrders(
        orders=[MoveOrder(unit="w_a", move=["2020", "2120"]), MoveOrder(unit="w_c", move=["4040", "4041"])]
    )
    out, intended = merged_text(text, "whites", new)
    assert "- {unit: w_a, move: ['2020', '2120']}   # by telegraph\n" in out
    assert "    # keep Markov in reserve? asked the player\n" in out
    assert "w_b" not in out and "  reds: []\n" in out
    assert TurnLog.model_validate(yaml.safe_load(out)) == intended


def test_importing_the_same_orders_again_writes_nothing(camp: Path, tmp_path: Path) -> None:
    """A form read in twice: the second time the log holds its orders already; no write, no backup."""
    sheet = tmp_path / "whites.csv"
    assert run_cli("orders", "form", str(camp), "--faction", "whites", "--csv", "--out", str(sheet)).returncode == 0
    lines = sheet.read_text(encoding="utf-8").splitlines()
    _, around = _neighbours(camp, "w_crimea_azov_2")
    k = next(i for i, line in enumerate(lines) if line.startswith("w_crimea_azov_2,"))
    lines[k] = lines[k].removesuffix(",,,") + f",{around[1]},,"
    sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert run_cli("orders", "import", str(sheet), "--campaign", str(camp), "--turn", str(TURN)).returncode == 0
    before = _log(camp).read_bytes()
    backups = sorted((camp / "backups").iterdir())
    again = run_cli("orders", "import", str(sheet), "--campaign", str(camp), "--turn", str(TURN))
    assert again.returncode == 0 and "unchanged" in again.stdout
    assert _log(camp).read_bytes() == before and sorted((camp / "backups").iterdir()) == backups
