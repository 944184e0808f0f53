"""Fuzzing the index of backups (issue 41): an index spoilt every way a hand or a cut-short disk
can spoil it is read without an error, and the next write to it sets it aside byte for byte,
never over it, carrying on every entry still whole. The number of cases is scaled by
$KITGEN_FUZZ_SCALE (tests/fuzzing.py)."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kitgen.notices import Notice
from kitgen.record import backups
from tests.fuzzing import SCALE, judged, text_mutation, tree_mutation

FUZZ = settings(
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
ENTRIES = [
    {"created": "turn-07.yaml", "command": "next", "time": "2026-12-01T19:02:11+00:00"},
    {"name": "turn-07.yaml.1", "command": "orders import", "time": "2026-12-02T20:15:40+00:00"},
    {"name": "turn-07.yaml.2", "command": "roll", "time": "2026-12-03T21:30:02+00:00"},
]
INDEX = (json.dumps({"backups": ENTRIES}, indent=1) + "\n").encode("utf-8")


def a_write_over(campaign: Path, spoilt: bytes) -> None:
    """The next write's entry made over `spoilt`: whatever it held is still on disk after it."""
    folder = campaign / backups.BACKUPS
    for old in folder.iterdir():
        old.unlink()
    (folder / backups.INDEX).write_bytes(spoilt)
    read = backups.read_index(folder / backups.INDEX)
    backups.spoilt_indexes(campaign)
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        backups._enter(campaign, {"name": "turn-07.yaml.3", "command": "undo"}, lambda e: True)
    assert [type(w.message) for w in said] == ([Notice] if read.spoilt is not None else [])
    written = backups.read_index(folder / backups.INDEX)
    assert written.spoilt is None
    assert written.entries[:-1] == read.entries  # every entry still whole carried on, in order
    if read.spoilt is not None:
        assert (folder / "index.spoilt-1.json").read_bytes() == spoilt
    else:
        assert not (folder / "index.spoilt-1.json").exists()


@settings(FUZZ, max_examples=150 * SCALE)
@given(data=st.data())
def test_a_spoilt_index_of_backups_is_set_aside_never_written_over(data: st.DataObject, tmp_path_factory) -> None:  # type: ignore[no-untyped-def]
    campaign = tmp_path_factory.mktemp("camp")
    (campaign / backups.BACKUPS).mkdir()
    how = data.draw(st.sampled_from(["text", "tree"]))
    spoilt = data.draw(text_mutation(INDEX) if how == "text" else tree_mutation({"backups": ENTRIES}))
    outcome = judged(lambda: a_write_over(campaign, spoilt))
    assert outcome.kind == "ok", outcome


def test_an_index_as_kitgen_writes_it_is_read_whole_and_not_set_aside(tmp_path: Path) -> None:
    (tmp_path / backups.BACKUPS).mkdir()
    a_write_over(tmp_path, INDEX)
    assert backups.read_index(tmp_path / backups.BACKUPS / backups.INDEX).entries[:3] == ENTRIES
