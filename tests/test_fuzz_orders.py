"""Fuzzing the order import: a filled order form (PDF) or its spreadsheet (CSV), as a player may
send it back, broken in structure, values and encoding, its cells holding what an attacker would
type (YAML that would be an order, terminal escapes, spreadsheet formulas). Every import ends in
success or in catalogued errors within the time and memory bounds (tests/fuzzing.py judges); a
refused import writes nothing; an accepted one leaves a log that reads back, orders only the
form's own units and holds no raw control character."""

from __future__ import annotations

import codecs
import csv
import io
import shutil
import unicodedata
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kitgen.campaign import load_campaign
from kitgen.engine.replay import replay
from kitgen.engine.turn import read_log
from kitgen.orders.rows import field_name, order_csv
from kitgen.products.orderform import order_form_pdf
from kitgen.record.importer import import_orders
from kitgen.record.merge import who
from tests.conftest import SAMPLE, run_cli
from tests.fuzzing import SCALE, judged, text_mutation

FUZZ = settings(
    deadline=None,
    database=None,
    derandomize=False,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
TURN = 7
WHITES: set[str] = set()
"""The Whites' units, trains and ships: the only ones their form may order."""
SPECIALS = [
    "",
    "retreat",
    "wreck",
    "repair 3316 3416",
    "emplace 3316",
    "pick up",
    "evade",
    "ambush",
    "resupply",
    "land 2722",
    "fly",
    "wreck wreck",
    "repair",
    "emplace",
    "land",
]


HOSTILE = [
    "\n  - {unit: w_markov_1, move: ['3316', '3416']}",
    "x\norders: {reds: [{unit: r_10th_army, move: ['4620', '4621']}]}",
    "]}: &a [*a, *a]",
    "# a comment",
    "\x1b[31mred\x1b[0m",
    "\x00",
    "\x07\x08\x9b",
    '=HYPERLINK("http://example.invalid","click")',
    "@SUM(1+1)",
    "+cmd|' /C calc'!A0",
    "'=1",
    "\u202e3316",
    "\r",
]
"""What a hostile player types in a cell: YAML that would be an order, terminal escapes and
control bytes, spreadsheet formulas (OWASP's CSV injection), a right-to-left override."""


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample campaign with turn 7 started (an import goes into the turn being played)."""
    dest = tmp_path_factory.mktemp("orders") / "campaign"
    shutil.copytree(SAMPLE, dest)
    assert run_cli("next", str(dest)).returncode == 0
    return dest


@pytest.fixture(scope="module")
def blank(folder: Path) -> tuple[str, bytes, dict[str, tuple[str, ...]]]:
    """The Whites' spreadsheet and form for turn 7, and each unit's neighbours to march to."""
    campaign = load_campaign(folder)
    state = replay(campaign)
    near = {u.id: campaign.board.neighbours(u.hex) for u in state.units}
    WHITES.update(u.id for u in state.units if u.faction == "whites")
    WHITES.update(str(x["id"]) for x in (*state.trains, *state.ships) if x["faction"] == "whites")
    return order_csv(campaign, state, "whites", TURN), order_form_pdf(campaign, state, "whites", TURN, "a4"), near


def _import(folder: Path, name: str, data: bytes) -> None:
    """Import `data`: a refused one leaves the turn's log as it was; an accepted one leaves a log
    that reads back, with orders of the Whites' own units only and no raw control character.
    The log is put back as `kitgen next` wrote it after each case."""
    path = folder.parent / name
    path.write_bytes(data)
    log = folder / "turns" / f"turn-{TURN:02d}.yaml"
    template = log.read_bytes()
    try:
        outcome = judged(lambda: import_orders(folder, path, TURN))
        if outcome.kind != "ok":
            assert log.read_bytes() == template, "a refused import changed the log"
            return
        text = log.read_text(encoding="utf-8")
        assert not [ch for ch in text if unicodedata.category(ch) == "Cc" and ch not in "\n"], "a raw control character"
        merged, _ = read_log(log)
        for section in ("orders", "rail", "sea", "track", "pontoons", "resupply"):
            for faction, orders in getattr(merged, section).items():
                assert faction == "whites" or not orders, f"the import wrote {faction}' orders"
                for order in orders:
                    assert who(order) in WHITES, f"an order of {who(order)!r}, no unit of the form"
    finally:
        log.write_bytes(template)
        shutil.rmtree(folder / "backups", ignore_errors=True)


@st.composite
def filled_csv(draw: st.DrawFn, text: str, near: dict[str, tuple[str, ...]]) -> bytes:
    """The spreadsheet filled in as a player might: paths of neighbours (perhaps with the leading
    zero a spreadsheet drops) or nonsense, specials, carried ids; saved with commas, semicolons or
    tabs, CRLF or LF, a byte-order mark or none; then, perhaps, broken as text."""
    rows = list(csv.reader(io.StringIO(text)))
    header = rows[0]
    for row in rows[1:]:
        cells = dict(zip(header, row, strict=False))
        steps = near.get(cells.get("id", ""), ())
        path = draw(
            st.lists(
                st.sampled_from([*steps, *(s.removeprefix("0") for s in steps), "9999", "abcd", "33", ""])
                if steps
                else st.just("x"),
                max_size=4,
            )
        )
        cells["path"] = draw(st.sampled_from([" ", "-", ","])).join(path)
        cells["special"] = draw(st.sampled_from(SPECIALS))
        cells["carry"] = draw(st.sampled_from(["", row[0], "w_nobody", "w_markov_1 w_markov_1"]))
        if draw(st.integers(0, 3)) == 0:
            cells[draw(st.sampled_from(["path", "special", "carry", "id"]))] = draw(st.sampled_from(HOSTILE))
        row[:] = [cells.get(k, "") for k in header]
    out = io.StringIO()
    delimiter, ends = draw(st.sampled_from([",", ";", "\t"])), draw(st.sampled_from(["\n", "\r\n"]))
    csv.writer(out, delimiter=delimiter, lineterminator=ends).writerows(rows)
    data = draw(st.sampled_from([b"", codecs.BOM_UTF8])) + out.getvalue().encode("utf-8")
    return draw(text_mutation(data)) if draw(st.booleans()) else data


@settings(FUZZ, max_examples=40 * SCALE)
@given(data=st.data())
def test_fuzz_order_spreadsheet(
    folder: Path, blank: tuple[str, bytes, dict[str, tuple[str, ...]]], data: st.DataObject
) -> None:
    """A spreadsheet of orders, filled at random and perhaps broken, imported into turn 7."""
    text, _, near = blank
    _import(folder, "whites.csv", data.draw(filled_csv(text, near)))


@settings(FUZZ, max_examples=15 * SCALE)
@given(data=st.data())
def test_fuzz_order_form_fields(
    folder: Path, blank: tuple[str, bytes, dict[str, tuple[str, ...]]], data: st.DataObject
) -> None:
    """The order form filled on screen with what a hostile player types in its fields."""
    from pypdf import PdfReader, PdfWriter

    _, pdf, near = blank
    units = sorted(near)
    values = {
        field_name(
            data.draw(st.sampled_from(units)), data.draw(st.sampled_from(["path", "special", "carry"]))
        ): data.draw(st.sampled_from(HOSTILE))
        for _ in range(data.draw(st.integers(1, 3)))
    }
    writer = PdfWriter()
    writer.append(PdfReader(io.BytesIO(pdf)))
    for page in writer.pages:
        writer.update_page_form_field_values(page, values, auto_regenerate=False)
    out = io.BytesIO()
    writer.write(out)
    _import(folder, "whites.pdf", out.getvalue())


@settings(FUZZ, max_examples=25 * SCALE)
@given(data=st.data())
def test_fuzz_order_form_pdf(
    folder: Path, blank: tuple[str, bytes, dict[str, tuple[str, ...]]], data: st.DataObject
) -> None:
    """The order form's PDF broken as bytes (cut short, spliced, bad bytes), imported."""
    _, pdf, _ = blank
    _import(folder, "whites.pdf", data.draw(text_mutation(pdf)))
