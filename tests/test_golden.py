"""The sample campaign's state text after each turn, against a stored copy: a refactor of the
engine changes none of it. A change meant to alter the text updates the copy in its own commit
(`python -m tests.test_golden` writes it afresh)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from kitgen.campaign import load_campaign
from kitgen.engine.replay import replay
from kitgen.engine.report import state_text
from tests.conftest import SAMPLE

STORED = Path(__file__).parent / "golden"
TURNS = range(7)


def stored(turn: int) -> Path:
    return STORED / f"sample-state-turn-{turn:02d}.txt"


@pytest.mark.parametrize("turn", TURNS)
def test_sample_state_text_is_as_stored(turn: int) -> None:
    campaign = load_campaign(SAMPLE)
    assert state_text(campaign, replay(campaign, turn)) == stored(turn).read_text(encoding="utf-8")


if __name__ == "__main__":
    campaign = load_campaign(SAMPLE)
    for turn in TURNS:
        stored(turn).write_text(state_text(campaign, replay(campaign, turn)), encoding="utf-8")
        print(f"wrote {stored(turn)}", file=sys.stderr)
