"""Issue 49: what the scanner asks of the umpire, and what it does with his answers. A row the
paper leaves in doubt takes an answer for any of its parts, and is imported whole as answered
or not at all: no step is dropped. Every settlement a message suggests is taken, in its words.
The row is read here from its bubbles' calls (`read_row`), as a page's measures give them."""

from __future__ import annotations

import re
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kitgen.mapping.hexgrid import DIRECTION_NAMES
from kitgen.orders.rows import OrderRow
from kitgen.orders.sheetplan import Bubble
from kitgen.scan.bubbles import Call, Measure
from kitgen.scan.readback import FACING, SPECIAL_WORDS, RowRead, Settle, parse_accept, read_row
from tests.conftest import Run, run_cli

UNIT = "m_test_regt"
SPECIALS = ("resupply", "emplace", "retreat")
"""The special orders of the test row: one that faces a side (emplace), two that do not."""


CARGO = ("m_a", "m_b")
"""The units the test row may take aboard (its carry bubbles)."""


@dataclass(frozen=True)
class Truth:
    """What the row's writer meant."""

    steps: tuple[str, ...]
    special: str | None
    toward: str | None
    carry: tuple[str, ...] = ()


def _row(steps: int) -> OrderRow:
    return OrderRow(UNIT, "unit", "0505", "infantry", "3 inf", 2, "in", "none", 7, specials=SPECIALS, steps=steps)


def _calls(truth: Truth, offered: int) -> dict[tuple[str, int, str], Call]:
    """Each bubble's call as clean marks of `truth` give them."""
    calls: dict[tuple[str, int, str], Call] = {}
    for n in range(1, offered + 1):
        for d in DIRECTION_NAMES:
            calls[("step", n, d)] = "marked" if n <= len(truth.steps) and truth.steps[n - 1] == d else "empty"
    for s in SPECIALS:
        calls[("special", 0, s)] = "marked" if truth.special == s else "empty"
    for d in DIRECTION_NAMES:
        calls[("toward", 0, d)] = "marked" if truth.toward == d else "empty"
    for unit in CARGO:
        calls[("carry", 0, unit)] = "marked" if unit in truth.carry else "empty"
    return calls


def _read(calls: dict[tuple[str, int, str], Call], offered: int, written: int, settle: Settle) -> RowRead:
    measures = [
        Measure(Bubble(UNIT, part, step, choice, 0.0, 0.0), 0.0, 0.0, 1.0, call)
        for (part, step, choice), call in calls.items()
    ]
    return read_row(_row(offered), measures, written, settle)


SUGGESTED = re.compile(r"--accept (\S+?)=([^\s,()]+)")


def _answer(read: RowRead, truth: Truth) -> list[str]:
    """Each doubt's settlement, taken from its message's own words: of the `--accept KEY=VALUE`
    it suggests, the one the truth fits, its placeholder filled with what the paper means."""
    answers = []
    for doubt in read.doubts:
        text = doubt.message().text
        suggested = SUGGESTED.findall(text)
        assert suggested, text
        for key, value in suggested:
            what = key.split(":", 1)[1]
            meant: str | None
            if what.isdigit():
                n = int(what)
                meant = truth.steps[n - 1] if n <= len(truth.steps) else "none"
            elif what == "STEP":
                continue  # the step-by-step answers come through the steps' own doubts
            elif what == "special":
                meant = SPECIAL_WORDS[truth.special] if truth.special else "none"
            elif what == "toward":
                meant = truth.toward or "none"
            elif what == "carry":
                meant = ",".join(truth.carry) or "none"
            elif what == "path":
                meant = value
            else:
                raise AssertionError(f"a suggestion of no part of the row: {key}")
            if value in ("none", "read") and value != meant:
                continue  # a settlement that does not fit the truth
            answers.append(f"{key}={meant}")
            break
        else:
            raise AssertionError(f"no suggestion of {text!r} fits {truth}")
    return answers


Slip = tuple[str, int, str, Call]
"""A bubble's call changed from what a clean mark gives: (part, step, choice, call)."""


@st.composite
def papers(draw: st.DrawFn) -> tuple[Truth, int, list[Slip], int]:
    """A row meant (`Truth`), the steps it offers, and the slips of the pencil or the scan that
    leave it in doubt: a bubble unclear, or a second one marked in a part, or a step's mark
    missed before a marked one."""
    offered = draw(st.integers(1, 6))
    steps = tuple(draw(st.lists(st.sampled_from(DIRECTION_NAMES), max_size=offered)))
    special = draw(st.sampled_from((None, *SPECIALS)))
    toward = draw(st.sampled_from(DIRECTION_NAMES)) if special in ("emplace",) and draw(st.booleans()) else None
    carry = tuple(u for u in CARGO if draw(st.booleans()))
    truth = Truth(steps, special, toward, carry)
    parts = [("step", n) for n in range(1, offered + 1)] + [("special", 0), ("toward", 0), ("carry", 0)]
    slips: list[Slip] = []
    for _ in range(draw(st.integers(1, 3))):
        part, step = draw(st.sampled_from(parts))
        choices = SPECIALS if part == "special" else CARGO if part == "carry" else DIRECTION_NAMES
        choice = draw(st.sampled_from(choices))
        slips.append((part, step, choice, draw(st.sampled_from(["doubt", "marked"]))))
    if len(steps) >= 2 and draw(st.booleans()):  # a step's own mark missed (a ring read as empty) before a marked one
        n = draw(st.integers(1, len(steps) - 1))
        slips.append(("step", n, steps[n - 1], "empty"))
    if special != "emplace" and draw(st.booleans()):  # a side marked for an order that faces none
        slips.append(("toward", 0, draw(st.sampled_from(DIRECTION_NAMES)), "marked"))
    # the hexes written under the steps: none, one a step, or one too many (a count to settle)
    written = draw(st.sampled_from((0, len(steps), len(steps) + 1)))
    return truth, offered, slips, written


def _paper(truth: Truth, offered: int, slips: list[Slip]) -> dict[tuple[str, int, str], Call] | None:
    """The calls of the paper with its slips, or None where the slips make a clean reading of
    something else (a second mark where there was none to see: a misread no scanner can tell)."""
    calls = _calls(truth, offered)
    for part, step, choice, call in slips:
        calls[(part, step, choice)] = call
    for part, step in {(p, n) for p, n, _ in calls}:
        group = {c: v for (p, n, c), v in calls.items() if (p, n) == (part, step)}
        meant = {c for (p, n, c), v in _calls(truth, offered).items() if (p, n) == (part, step) and v == "marked"}
        marked = {c for c, v in group.items() if v == "marked"}
        later = [n for (p, n, c), v in calls.items() if p == "step" and n > step and v == "marked"]
        if part == "step" and not marked and meant and later:
            continue  # a mark missed before a marked step: a gap, which the scan sees
        if part == "toward" and marked and truth.special != "emplace":
            continue  # a side for an order that faces none: the scan sees it
        if part == "carry":
            if "doubt" not in group.values() and marked != meant:
                return None  # each unit's bubble is its own: a slip of one is a clean misread
            continue
        if "doubt" not in group.values() and marked != meant and len(marked) <= 1:
            return None
    return calls


@settings(max_examples=300, deadline=None)
@given(papers())
def test_answering_every_doubt_with_the_truth_imports_exactly_the_truth(
    paper: tuple[Truth, int, list[Slip], int],
) -> None:
    """ "For any row in doubt, answering every doubt with the truth imports exactly the truth":
    each doubt settled by the answer its own message suggests, until none is left; before the
    answers, a row in doubt is never imported, and a row read clear is the truth."""
    truth, offered, slips, written = paper
    calls = _paper(truth, offered, slips)
    if calls is None:
        return
    meant = (truth.steps, truth.special, truth.toward, truth.carry)
    read = _read(calls, offered, written, Settle())
    if not read.doubts:
        assert (read.steps, read.special, read.toward, read.carry) == meant
        return
    given_: list[str] = []
    for _ in range(8):
        given_ += _answer(read, truth)
        settle = Settle(dict(parse_accept(a) for a in given_))
        read = _read(calls, offered, written, settle)
        if not read.doubts:
            break
    assert read.doubts == (), [d.message().text for d in read.doubts]
    assert (read.steps, read.special, read.toward, read.carry) == meant, given_
    assert {f"{UNIT}:{k[1]}" for k in settle.answers} == set(read.answered), "every answer taken"


def test_a_step_in_doubt_stops_the_row_whatever_follows() -> None:
    """ "A step the scanner cannot call stops the row as a doubt, whatever comes after it":
    steps N, (unclear), N, N are not imported as N."""
    truth = Truth(("N", "NE", "N", "N"), None, None)
    calls = _calls(truth, 4)
    calls[("step", 2, "NE")] = "doubt"
    read = _read(calls, 4, 0, Settle())
    assert [d.key() for d in read.doubts] == [f"{UNIT}:2"]


def test_a_gap_answered_with_the_later_step_stays_in_doubt_and_the_missed_step_settles_it() -> None:
    """A step read empty before a marked one: the doubt names both settlements; answering the
    later step with its own direction leaves the gap (no import short); answering the step
    missed imports the whole path."""
    truth = Truth(("N", "NE", "SE"), None, None)
    calls = _calls(truth, 4)
    calls[("step", 2, "NE")] = "empty"  # a ring the scanner missed: read as a clean empty bubble
    read = _read(calls, 4, 0, Settle())
    text = read.doubts[0].message().text
    assert f"--accept {UNIT}:2=DIR" in text and f"--accept {UNIT}:3=none" in text
    later = _read(calls, 4, 0, Settle(dict([parse_accept(f"{UNIT}:3=SE")])))
    assert later.doubts and later.answered == frozenset({f"{UNIT}:3"})
    missed = _read(calls, 4, 0, Settle(dict([parse_accept(f"{UNIT}:2=NE")])))
    assert missed.doubts == () and missed.steps == ("N", "NE", "SE")


def test_a_side_answered_while_the_special_is_in_doubt_is_taken_and_the_special_still_asked() -> None:
    """The special order in doubt and a side marked: an answer for the side is taken (not called
    stale) and the row stays in doubt on the special alone; answering the special imports both."""
    truth = Truth((), "emplace", "N")
    calls = _calls(truth, 2)
    calls[("special", 0, "emplace")] = "doubt"
    read = _read(calls, 2, 0, Settle())
    assert [d.key() for d in read.doubts] == [f"{UNIT}:special"]
    side = _read(calls, 2, 0, Settle(dict([parse_accept(f"{UNIT}:toward=N")])))
    assert [d.key() for d in side.doubts] == [f"{UNIT}:special"] and side.answered == {f"{UNIT}:toward"}
    both = _read(calls, 2, 0, Settle(dict([parse_accept(f"{UNIT}:special=emplace")])))
    assert both.doubts == () and (both.special, both.toward) == ("emplace", "N")
    assert "emplace" in FACING


def test_steps_answered_one_by_one_settle_hexes_written_with_no_step_read() -> None:
    """Hexes written and no step's bubble read: the advice `STEP=DIR for each step` is taken."""
    calls = _calls(Truth((), None, None), 3)
    read = _read(calls, 3, 2, Settle())
    assert [d.kind for d in read.doubts] == ["hexes"]
    answers = Settle(dict(parse_accept(a) for a in (f"{UNIT}:1=S", f"{UNIT}:2=SE")))
    done = _read(calls, 3, 2, answers)
    assert done.doubts == () and done.steps == ("S", "SE")


def test_an_answer_for_a_row_read_clear_is_not_taken() -> None:
    """A row the paper leaves clear takes no answer: a clear mark is never overridden."""
    truth = Truth(("N",), None, None)
    read = _read(_calls(truth, 2), 2, 0, Settle(dict([parse_accept(f"{UNIT}:1=S")])))
    assert read.steps == ("N",) and read.answered == frozenset()


# --- the issue's five cases, on a page of the Makhnovists' form scanned at 300 dpi -----------


@dataclass(frozen=True)
class Page:
    folder: Path
    scan: Path
    paths: dict[str, tuple[str, ...]]
    """Each row's path as the paper means it."""
    starts: dict[str, str]
    """Each row's hex."""


RINGS = {"m_makhno_hq": (2,), "m_shchus_cav": (1, 2), "m_berdyansk_regt": (2,)}
"""The rows whose steps are ringed round (1.05 to 1.19 times the bubble), not filled: Makhno's
second of three, both of Shchus's two (hexes written under them), Berdyansk's last of two."""
RATIOS = (1.05, 1.12, 1.19, 1.08)


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Page:
    """The Makhnovists' form of the sample's turn being played, filled in soft pencil: paths
    within reach with some steps ringed, Kurilenko's emplace ringed with the side it faces (N)
    filled; scanned at 300 dpi."""
    import numpy as np

    from kitgen.campaign import load_campaign
    from tests.penciled import at, filled_page, printed, ringed, save
    from tests.test_scan import SAMPLES, reach_paths

    root = tmp_path_factory.mktemp("ringed")
    folder = root / "week"
    shutil.copytree(SAMPLES["denikin"], folder)
    assert run_cli("next", str(folder)).returncode == 0
    rng = np.random.default_rng(49)
    campaign = load_campaign(folder)
    want = {"m_makhno_hq": 3, "m_shchus_cav": 2, "m_berdyansk_regt": 2}
    paths: dict[str, tuple[str, ...]] = {}
    for _ in range(200):  # paths to random hexes of each unit's reach, until one is long enough
        for unit, way in reach_paths(campaign, "makhnovists", rng).items():
            if unit in want and unit not in paths and len(way) >= want[unit]:
                paths[unit] = tuple(way[: want[unit]])
    assert set(paths) == set(want), paths
    form = printed(folder, "makhnovists")
    plan = form.plans[0]
    marks = [(u, "step", k, d, "fill") for u, way in paths.items() for k, d in enumerate(way, 1) if k not in RINGS[u]]
    marks.append(("m_kurilenko_regt", "toward", 0, "N", "fill"))
    written = {("m_shchus_cav", k): "0000" for k in (1, 2)}
    image = filled_page(form, 0, marks, rng, dpi=300, written=written)
    where = {(b.row, b.part, b.step, b.choice): b for b in plan.bubbles}
    r = plan.layout.bubble / 2 * 300 / 72
    ringed_at = [(u, "step", k, paths[u][k - 1]) for u, steps in RINGS.items() for k in steps]
    ringed_at.append(("m_kurilenko_regt", "special", 0, "emplace"))
    for n, key in enumerate(ringed_at):
        ringed(image, at(plan, where[key], 300), r, RATIOS[n % len(RATIOS)], 70, rng)
    paths["m_kurilenko_regt"] = ()
    starts = {rp.row.id: rp.row.hex for rp in plan.rows}
    return Page(folder, Path(str(save(image, root / "makhnovists.png"))), paths, starts)


def _scan(page: Page, tmp: Path, *answers: str) -> tuple[Run, Path]:
    """`orders scan` of the page into a copy of its campaign, with `--accept` answers (or other
    options, given as they are)."""
    folder = tmp / "c"
    shutil.copytree(page.folder, folder)
    accepts = [x for a in answers for x in (("--accept", a) if not a.startswith("-") and "=" in a else (a,))]
    return run_cli("orders", "scan", str(page.scan), "--campaign", str(folder), "--partial", *accepts), folder


def _orders(folder: Path) -> dict[str, list[dict[str, object]]]:
    """The Makhnovists' orders in the log of the turn being played, by unit."""
    import yaml

    log = yaml.safe_load(sorted((folder / "turns").glob("turn-*.yaml"))[-1].read_text(encoding="utf-8"))
    found: dict[str, list[dict[str, object]]] = {}
    for section, value in log.items():
        entries = value.get("makhnovists") if isinstance(value, dict) else None
        for entry in entries or []:
            if isinstance(entry, dict) and "unit" in entry:
                found.setdefault(entry["unit"], []).append({"section": section, **entry})
    return found


def test_issue49_a_tight_ring_is_a_doubt_at_any_size_and_nothing_is_imported(page: Page, tmp_path: Path) -> None:
    """ "A ring hugging a bubble is a doubt at any size": every step and special ringed round
    (1.05 to 1.19 times the bubble) is named with its key, and nothing is written."""
    before = {p.name: p.read_bytes() for p in (page.folder / "turns").glob("*.yaml")}
    done, folder = _scan(page, tmp_path)
    assert done.returncode == 1, done.stderr
    named = set(re.findall(r"--accept (m_\w+:\w+)=", done.stderr))
    assert {
        "m_makhno_hq:2",
        "m_shchus_cav:1",
        "m_shchus_cav:2",
        "m_berdyansk_regt:2",
        "m_kurilenko_regt:special",
    } <= named
    assert {p.name: p.read_bytes() for p in (folder / "turns").glob("*.yaml")} == before


def test_issue49_the_answers_the_paper_gives_import_every_row_whole(page: Page, tmp_path: Path) -> None:
    """Each doubt answered as the paper means it: Makhno's three steps (the ringed second
    given), Shchus's two steps one by one, Berdyansk's ringed last step, Kurilenko's emplace with
    the side it faces: imported whole, none short."""
    answers = [f"m_makhno_hq:2={page.paths['m_makhno_hq'][1]}", "m_kurilenko_regt:special=emplace"]
    answers += [f"m_shchus_cav:{k}={d}" for k, d in enumerate(page.paths["m_shchus_cav"], 1)]
    answers += [f"m_berdyansk_regt:2={page.paths['m_berdyansk_regt'][1]}"]
    done, folder = _scan(page, tmp_path, *answers)
    assert done.returncode == 0, done.stderr
    from kitgen.campaign import load_campaign
    from kitgen.scan.readback import path_hexes

    campaign = load_campaign(folder)
    orders = _orders(folder)
    for unit in ("m_makhno_hq", "m_shchus_cav", "m_berdyansk_regt"):
        start = page.starts[unit]
        moved = [e["move"] for e in orders[unit] if "move" in e]
        assert moved == [[start, *(path_hexes(campaign, start, page.paths[unit]) or [])]], (unit, orders[unit])
    start = page.starts["m_kurilenko_regt"]
    facing = [start, *(path_hexes(campaign, start, ("N",)) or [])]
    assert [e.get("emplace") for e in orders["m_kurilenko_regt"]] == [facing], orders["m_kurilenko_regt"]


def test_issue49_an_answer_for_the_side_alone_is_taken_and_the_special_still_asked(page: Page, tmp_path: Path) -> None:
    """Kurilenko's side answered, his ringed emplace not: the answer is not refused as settling
    no doubt; the scan still asks, and only, what the special order is."""
    done, _ = _scan(page, tmp_path, "m_kurilenko_regt:toward=N")
    assert done.returncode == 1 and "settles no doubt" not in done.stderr
    assert "--accept m_kurilenko_regt:special=" in done.stderr
    assert "--accept m_kurilenko_regt:toward=" not in done.stderr


def test_issue49_stale_answers_are_named_all_in_one_run(page: Page, tmp_path: Path) -> None:
    """Answers for rows the paper leaves clear, or for no row, are named together, once."""
    answers = ["m_nobody:1=N", "m_ghost:special=resupply", "m_other:2=S"]
    done, _ = _scan(page, tmp_path, *answers)
    assert done.returncode == 2
    line = next(said for said in done.stderr.splitlines() if "settle no doubt" in said)
    assert all(a.split("=")[0] in line for a in answers), line


def test_issue48_the_answers_pasted_into_a_file_are_read_with_one_option(page: Page, tmp_path: Path) -> None:
    """ "An answer file (all --accept keys in one file) is read with one option": the lines the
    scan printed pasted in (`--accept` and all), with comments, import as the options do."""
    lines = ["# the week's answers, from the paper", f"--accept m_makhno_hq:2={page.paths['m_makhno_hq'][1]}", ""]
    lines += ["m_kurilenko_regt:special=emplace", f"  m_berdyansk_regt:2={page.paths['m_berdyansk_regt'][1]}"]
    lines += [f"m_shchus_cav:{k}={d}" for k, d in enumerate(page.paths["m_shchus_cav"], 1)]
    (tmp_path / "answers.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    done, folder = _scan(page, tmp_path, "--answers", str(tmp_path / "answers.txt"))
    assert done.returncode == 0, done.stderr
    assert [e.get("emplace") for e in _orders(folder)["m_kurilenko_regt"]] != [None]


def test_issue48_a_line_of_the_answers_file_that_is_no_answer_is_named_at_its_place(
    folder: Path, tmp_path: Path
) -> None:
    """Each bad line of the answers file named at its line and column, before any scan is read."""
    (tmp_path / "answers.txt").write_text(
        "# answers\n  m_x:1=NE\n  --accept m_x:special=flying\nm_x:9\n  --accept a_x:special=flying\n", encoding="utf-8"
    )
    answers = str(tmp_path / "answers.txt")
    done = run_cli("orders", "scan", str(tmp_path / "none.png"), "--campaign", str(folder), "--answers", answers)
    assert done.returncode == 1
    assert f"{tmp_path / 'answers.txt'}:3:12: found the answer 'm_x:special=flying'" in done.stderr, done.stderr
    assert f"{tmp_path / 'answers.txt'}:4:1: found the answer 'm_x:9'" in done.stderr
    assert f"{tmp_path / 'answers.txt'}:5:12: found the answer 'a_x:special=flying'" in done.stderr  # not accept's a


def test_an_answer_against_a_clear_mark_of_a_row_in_doubt_is_not_taken() -> None:
    """A row in doubt takes answers for its parts, but never one that overrides a clear mark: a
    step filled N answered NE is not taken (and so named as settling nothing); the row stays in doubt."""
    truth = Truth(("N", "NE"), None, None)
    calls = _calls(truth, 3)
    calls[("step", 2, "NE")] = "doubt"
    answers = Settle(dict(parse_accept(a) for a in (f"{UNIT}:1=NE", f"{UNIT}:2=NE")))
    read = _read(calls, 3, 0, answers)
    assert read.answered == frozenset({f"{UNIT}:2"}) and read.steps == ("N", "NE")
    agreeing = _read(calls, 3, 0, Settle(dict(parse_accept(a) for a in (f"{UNIT}:1=N", f"{UNIT}:2=NE"))))
    assert agreeing.answered == frozenset({f"{UNIT}:1", f"{UNIT}:2"}) and agreeing.doubts == ()


def test_an_answer_naming_a_choice_the_row_does_not_print_is_not_taken() -> None:
    """A special order the row does not offer, or a side for a row with no side bubbles, settles nothing."""
    truth = Truth((), "resupply", None)
    calls = _calls(truth, 2)
    calls[("special", 0, "resupply")] = "doubt"
    read = _read(calls, 2, 0, Settle(dict([parse_accept(f"{UNIT}:special=land")])))
    assert read.answered == frozenset() and [d.key() for d in read.doubts] == [f"{UNIT}:special"]
    text = read.doubts[0].message().text
    assert "pickup" not in text and "resupply" in text  # the row's own choices, as an answer names them


def test_issue48_a_tick_is_measured_against_the_pages_own_pencil(tmp_path: Path) -> None:
    """ "Thresholds come from the page itself": a faint grey tick alone in its step is a mark on a
    page filled in the same faint pencil, and a doubt on a page whose fills are a 2B's black (there
    it is more like an eraser's trace than that pencil's stroke)."""
    import cv2
    import numpy as np

    from kitgen.scan.locate import find
    from kitgen.scan.readback import look
    from tests.penciled import _blob, at, printed, render
    from tests.test_scan import SAMPLES

    folder = tmp_path / "week"
    shutil.copytree(SAMPLES["denikin"], folder)
    assert run_cli("next", str(folder)).returncode == 0
    form = printed(folder, "reds")
    plan = form.plans[0]
    steps = [b for b in plan.bubbles if b.part == "step"]
    rows = sorted({b.row for b in steps})
    filled = [b for b in steps if b.row in rows[1:] and b.step == 1 and b.choice == "N"]
    ticked = next(b for b in steps if b.row == rows[0] and b.step == 1 and b.choice == "N")
    calls = {}
    for fill_grey in (150, 45):
        rng = np.random.default_rng(48)
        image = render(form.pdf, 0, 200)
        r = plan.layout.bubble / 2 * 200 / 72
        for b in filled:
            _blob(image, *at(plan, b, 200), r * 1.05, fill_grey, rng, texture=6)
        x, y = at(plan, ticked, 200)
        layer = np.full_like(image, 255)
        tick = np.array([(x - 0.55 * r, y), (x - 0.1 * r, y + 0.5 * r), (x + 0.65 * r, y - 0.6 * r)], np.int32)
        cv2.polylines(layer, [tick], False, 150, max(2, round(r * 0.2)), cv2.LINE_AA)
        np.minimum(image, layer, out=image)
        _, measures, _ = look(image, plan, find(image))
        calls[fill_grey] = next(m for m in measures if m.bubble == ticked)
    assert calls[150].call == "marked" and calls[150].why == "ink", calls[150]
    assert calls[45].call == "doubt" and calls[45].why == "smudge", calls[45]
