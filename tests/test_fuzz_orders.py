"""Fuzzing the order import: a filled order form (PDF) or its spreadsheet (CSV), as a player may
send it back, broken in structure, values and encoding. Every import ends in success or in
catalogued errors within the time and memory bounds (tests/fuzzing.py judges), and a refused
import writes nothing."""

from __future__ import annotations

import codecs
import csv
import io
import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kitgen.campaign import load_campaign
from kitgen.engine.replay import replay
from kitgen.orders.rows import order_csv
from kitgen.products.orderform import order_form_pdf
from kitgen.record.importer import import_orders
from tests.conftest import SAMPLE
from tests.fuzzing import SCALE, judged, text_mutation

FUZZ = settings(
    deadline=None,
    database=None,
    derandomize=False,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
TURN = 7
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


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = tmp_path_factory.mktemp("orders") / "campaign"
    shutil.copytree(SAMPLE, dest)
    return dest


@pytest.fixture(scope="module")
def blank(folder: Path) -> tuple[str, bytes, dict[str, tuple[str, ...]]]:
    """The Whites' spreadsheet and form for turn 7, and each unit's neighbours to march to."""
    campaign = load_campaign(folder)
    state = replay(campaign)
    near = {u.id: campaign.board.neighbours(u.hex) for u in state.units}
    return order_csv(campaign, state, "whites", TURN), order_form_pdf(campaign, state, "whites", TURN, "a4"), near


def _import(folder: Path, name: str, data: bytes) -> None:
    """Import `data`; a refused one leaves the turn's log as it was (here: none)."""
    path = folder.parent / name
    path.write_bytes(data)
    log = folder / "turns" / f"turn-{TURN:02d}.yaml"
    try:
        judged(lambda: import_orders(folder, path, TURN))
    finally:
        if log.exists():
            log.unlink()
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


@settings(FUZZ, max_examples=25 * SCALE)
@given(data=st.data())
def test_fuzz_order_form_pdf(
    folder: Path, blank: tuple[str, bytes, dict[str, tuple[str, ...]]], data: st.DataObject
) -> None:
    """The order form's PDF broken as bytes (cut short, spliced, bad bytes), imported."""
    _, pdf, _ = blank
    _import(folder, "whites.pdf", data.draw(text_mutation(pdf)))
