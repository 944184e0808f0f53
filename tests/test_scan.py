"""Paper order forms read back (`kitgen orders scan`): the form's markers and code, blank forms
at three resolutions, a corpus of synthetic scans with zero silent misreads, pages in any order
and any way up, PDFs of scans, and a week played with paper forms for every faction."""

from __future__ import annotations

import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from kitgen.campaign import Campaign, load_campaign
from kitgen.engine.basis import turn_basis
from kitgen.mapping.hexgrid import DIRECTION_NAMES
from kitgen.orders.sheetplan import MARKERS, FormPage, page_plan, split_pages
from kitgen.scan.intake import read_scans
from kitgen.scan.readback import PageRead, Settle, parse_accept
from tests.conftest import run_cli
from tests.penciled import (
    Faults,
    Printed,
    RowTruth,
    degrade,
    faults,
    filled_page,
    printed,
    random_orders,
    render,
    save,
    save_colour,
)

if TYPE_CHECKING:
    from kitgen.engine.reach import Reach
    from kitgen.orders.rows import OrderRow

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = {"denikin": ROOT / "data" / "sample-campaign", "tsaritsyn": ROOT / "data" / "tsaritsyn-sample"}


@pytest.fixture(scope="module")
def samples(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Both sample campaigns, copied (each a turn being played: the three-turn scenario's club
    plays on past its end, so that its forms have a turn to be printed for)."""
    root = tmp_path_factory.mktemp("samples")
    found = {}
    for name, source in SAMPLES.items():
        shutil.copytree(source, root / name)
        found[name] = root / name
    with (found["tsaritsyn"] / "campaign.yaml").open("a", encoding="utf-8") as club:
        club.write("play_on: true\n")
    return found


def factions(folder: Path) -> list[str]:
    return [f.id for f in load_campaign(folder).scenario.meta.factions]


# --- the form's markers and code ----------------------------------------------------------------


def test_markers_are_opencvs_aruco_4x4_markers_0_to_3() -> None:
    """The markers the form prints are ArUco DICT_4X4_50's 0-3 as OpenCV draws them."""
    import cv2

    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for number, rows in MARKERS.items():
        drawn = cv2.aruco.generateImageMarker(dictionary, number, 6)
        inner = ["".join("1" if v == 0 else "0" for v in line[1:5]) for line in drawn[1:5]]
        assert tuple(inner) == rows, number
        assert (drawn[0] == 0).all() and (drawn[:, 0] == 0).all()  # the black border


@given(
    st.text("0123456789abcdef", min_size=12, max_size=12),
    st.text("0123456789abcdef", min_size=12, max_size=12),
    st.integers(1, 999),
    st.integers(0, 9),
    st.integers(1, 60),
    st.sampled_from(["a4", "letter"]),
)
def test_form_page_code_reads_back_what_it_says(
    campaign: str, state: str, turn: int, faction: int, pages: int, paper: str
) -> None:
    page = FormPage(campaign, state, turn, faction, pages, pages, paper)
    back = FormPage.parse(page.code())
    assert back is not None
    assert (back.campaign, back.state) == (campaign[:8], state[:10])
    assert (back.turn, back.faction, back.page, back.pages, back.paper) == (turn, faction, pages, pages, paper)


@pytest.mark.parametrize(
    "text", ["", "KG2", "https://example.com", "KG2/ZZZZZZZZ/0123456789/1/0/1/1/A", "KG2/01234567/0123456789/1/0/1/1/Q"]
)
def test_a_code_that_is_no_form_is_none(text: str) -> None:
    assert FormPage.parse(text) is None


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_bubble_stands_clear_of_every_other_and_inside_the_frame(samples: dict[str, Path], paper: str) -> None:
    """A pencil's overrun into the next bubble, or a bubble in the markers' margin, would be read
    as a mark: every two bubbles' centres stand a bubble and 1 mm apart, inside the content frame."""
    campaign = load_campaign(samples["denikin"])
    basis = turn_basis(campaign)
    from kitgen.orders.rows import order_rows

    for faction in factions(samples["denikin"]):
        for chunk in split_pages(order_rows(campaign, basis.start, faction, basis.turn)):
            plan = page_plan(chunk, paper)
            xy = np.array([(b.x, b.y) for b in plan.bubbles])
            gaps = np.hypot(*(xy[:, None, :] - xy[None, :, :]).transpose(2, 0, 1))
            np.fill_diagonal(gaps, np.inf)
            assert gaps.min() >= plan.layout.bubble + 1 / 25.4 * 72, faction
            r = plan.layout.bubble / 2
            assert xy[:, 0].min() - r >= plan.left and xy[:, 0].max() + r <= plan.right
            assert xy[:, 1].min() - r >= plan.layout.margin and xy[:, 1].max() + r <= plan.size[1] - plan.layout.margin


# --- blank forms ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dpi", [150, 200, 300])
@pytest.mark.parametrize("sample", sorted(SAMPLES))
def test_blank_forms_read_as_no_orders_with_their_identity(
    samples: dict[str, Path], tmp_path: Path, sample: str, dpi: int
) -> None:
    """Every page of every faction's form, printed blank and scanned: 0 orders, each page's form known."""
    folder = samples[sample]
    files = []
    for faction in factions(folder):
        form = printed(folder, faction)
        for page in range(len(form.plans)):
            files.append(save(render(form.pdf, page, dpi), tmp_path / f"{faction}-{page}.png"))
    reads, problems = read_scans(folder, files, Settle())
    assert problems == []
    assert sorted((r.faction, r.code.page) for r in reads) == sorted(
        (f, k + 1) for f in factions(folder) for k in range(len(printed(folder, f).plans))
    )
    assert all(row.empty and not row.doubts for r in reads for row in r.rows)
    assert all(m.call == "empty" for r in reads for m in r.measures)


@pytest.mark.parametrize("seed", range(8))
def test_a_page_bent_between_its_steps_reads_every_line_bubble_where_it_lies(
    samples: dict[str, Path], tmp_path: Path, seed: int
) -> None:
    """A page bulged by up to 2.2 mm inside (the reader takes 2.4), in a wave across it, so that
    two steps a few centimetres apart stand off by a millimetre more or less: the special and
    side bubbles between them are found where they lie, and the blank form reads blank."""
    from tests.penciled import _curled

    folder = samples["denikin"]
    form = printed(folder, "whites")
    image = _curled(render(form.pdf, 1, 200), 2.2 * 200 / 25.4, np.random.default_rng(seed))
    reads, problems = read_scans(folder, [save(image, tmp_path / "bent.png")], Settle())
    assert problems == []
    assert all(row.empty and not row.doubts for row in reads[0].rows), [
        [d.message().text for d in row.doubts] for row in reads[0].rows if row.doubts
    ]


# --- the corpus ---------------------------------------------------------------------------------


@dataclass
class Figures:
    pages: int = 0
    marks: int = 0
    clear_rows: int = 0
    doubt_rows: int = 0
    flagged: int = 0
    misread: int = 0
    clear_flagged: int = 0
    by_condition: dict[str, list[int]] = field(default_factory=dict)
    """Per scanning condition: [clear rows, of them flagged]."""
    messy: list[int] = field(default_factory=lambda: [0, 0])
    """Rows marked messily (`RowTruth.messy`) with no doubt put in: [rows, of them flagged]."""

    def __str__(self) -> str:
        return (
            f"{self.pages} pages, {self.marks} marks, {self.clear_rows} rows clear and {self.doubt_rows} in doubt; "
            f"flagged {self.flagged}, clean rows flagged {self.clear_flagged}, messy rows flagged "
            f"{self.messy[1]} of {self.messy[0]}, misread {self.misread}"
        )

    def conditions(self) -> str:
        said = [f"{c}: {f}/{n} clear rows flagged" for c, (n, f) in sorted(self.by_condition.items())]
        return "; ".join([*said, f"marked messily: {self.messy[1]}/{self.messy[0]} flagged"])


CLEAR_FLAGGED = 0.03
"""Issue 48: at most 3% of the rows marked clearly (fills, ticks, crosses, dots, in HB or 2B) held
for a doubt, in every scanning condition."""


MESSY_FLAGGED = 0.15
"""Issue 48: at most 15% of the rows marked messily held for a doubt."""


def conditions(f: Faults, lead: str) -> list[str]:
    """The scanning conditions a page was made in, as the issue counts them."""
    found = [f"{lead} pencil", f"{int(f.dpi)} dpi"]
    found += ["JPEG 60 or worse" if f.jpeg is not None and f.jpeg <= 60 else "JPEG" if f.jpeg else "lossless"]
    found += ["rotated 3-8 degrees" if abs(f.angle) >= 3 else "rotated under 3 degrees"]
    found += ["curled"] if f.curl else []
    found += ["uneven light"] if f.light >= 0.2 else []
    return found


_REACHES: dict[tuple[int, str], tuple[Campaign, list[Reach], list[OrderRow]]] = {}
"""Each campaign's faction's reach and order rows, worked out once (the campaign kept with them,
so that its id is not another's)."""


def _reaches(campaign: Campaign, faction: str) -> tuple[list[Reach], list[OrderRow]]:
    from kitgen.engine.reach import faction_reach
    from kitgen.orders.rows import order_rows

    key = (id(campaign), faction)
    if key not in _REACHES:
        basis = turn_basis(campaign)
        reaches = list(faction_reach(campaign, basis.start, faction))
        _REACHES[key] = (campaign, reaches, list(order_rows(campaign, basis.start, faction, basis.turn)))
    _, reaches, rows = _REACHES[key]
    return reaches, rows


def reach_paths(campaign: Campaign, faction: str, rng: np.random.Generator) -> dict[str, list[str]]:
    """A path for each row of the faction: a unit's to a hex of its reach (back from it, hex by
    hex through cheaper ones), a train's or ship's a short walk on the map; as directions."""
    reaches, rows = _reaches(campaign, faction)
    grid = campaign.board.grid
    paths: dict[str, list[str]] = {}
    for reach in reaches:
        if not reach.land:
            continue
        cur = str(rng.choice(sorted(reach.land)))
        way = [cur]
        while cur != reach.hex:
            cell = grid.parse_id(cur)
            assert cell is not None
            near = [grid.hex_id(*n) for n in grid.neighbours(*cell)]
            cheaper = [h for h in near if reach.land.get(h, 10**6) < reach.land[cur]]
            if not cheaper:
                break
            cur = min(cheaper, key=lambda h: reach.land[h])
            way.append(cur)
        way.reverse()
        cells = [grid.parse_id(h) for h in way]
        paths[reach.unit] = [grid.direction(a, b) or "N" for a, b in zip(cells, cells[1:], strict=False) if a and b]
    for row in rows:
        if row.kind != "unit":
            cell = grid.parse_id(row.hex)
            walk: list[str] = []
            for _ in range(int(rng.integers(0, 8))):
                side = str(rng.choice(DIRECTION_NAMES))
                step = grid.toward(cell, side) if cell else None
                if step is None:
                    break
                cell = step
                walk.append(side)
            paths[row.id] = walk
    return paths


def corpus(
    samples: dict[str, Path], tmp: Path, pages: int, seed: int
) -> Iterator[tuple[Path, list[RowTruth], Path, list[str]]]:
    """`pages` synthetic scans of both samples' forms: (the scan, its rows' truth, its campaign,
    the conditions it was made in)."""
    rng = np.random.default_rng(seed)
    forms: dict[tuple[str, str], tuple[Printed, dict[str, list[str]]]] = {}
    for sample, folder in samples.items():
        campaign = load_campaign(folder)
        for faction in factions(folder):
            forms[(sample, faction)] = (
                printed(folder, faction, str(rng.choice(["a4", "letter"]))),
                reach_paths(campaign, faction, rng),
            )
    keys = sorted(forms)
    for n in range(pages):
        sample, faction = keys[int(rng.integers(0, len(keys)))]
        form, paths = forms[(sample, faction)]
        page = int(rng.integers(0, len(form.plans)))
        marks, written, truths = random_orders(form, page, paths, rng)
        f = faults(rng)
        if rng.random() < 0.15:  # a home scanner's default, which the issue names: 150 dpi, JPEG 60 or worse
            f = replace(f, dpi=150.0, jpeg=int(rng.integers(40, 61)))
        lead = "HB" if rng.random() < 0.5 else "2B"
        image = degrade(filled_page(form, page, marks, rng, dpi=f.dpi, written=written, lead=lead), f, rng)
        where = conditions(f, lead)
        if rng.random() < 0.25:  # a colour scan, saved as the scanner does, in JPEG
            quality = f.jpeg or int(rng.integers(60, 90))
            scan = save_colour(image, tmp / f"scan-{n:03d}.jpg", quality, rng)
            where += ["colour JPEG"] + (["150 dpi colour JPEG 60 or worse"] if f.dpi == 150 and quality <= 60 else [])
        else:
            scan = save(image, tmp / f"scan-{n:03d}.png")
            where += ["150 dpi grey JPEG 60 or worse"] if f.dpi == 150 and f.jpeg is not None and f.jpeg <= 60 else []
        yield scan, truths, samples[sample], where  # type: ignore[misc]


def judge(read: PageRead, truths: list[RowTruth], figures: Figures, where: Sequence[str] = ()) -> list[str]:
    """Each row read against what was marked: a misread, or a row in doubt not flagged (each
    wrong); a clear row flagged is counted, by the conditions `where` the page was made in."""
    wrong = []
    got = {r.row.id: r for r in read.rows}
    for truth in truths:
        row = got[truth.row]
        figures.marks += truth.marks
        if truth.doubt is not None:
            figures.doubt_rows += 1
            figures.flagged += bool(row.doubts)
            if not row.doubts:
                wrong.append(f"{truth.row}: a {truth.doubt} not flagged, read {row.steps}")
            elif truth.doubt in ("ringed", "circled") and not any(
                said == "ring" for d in row.doubts for _, said in d.bubbles
            ):  # the ring itself seen, not only the gap or the count it leaves
                wrong.append(f"{truth.row}: a ring not seen: {[d.message().text for d in row.doubts]}")
            continue
        figures.clear_rows += 1
        if truth.messy:  # counted apart: the 3% is for clean marks, the 15% for messy ones
            figures.messy[0] += 1
            figures.messy[1] += bool(row.doubts)
        else:
            for condition in where:
                figures.by_condition.setdefault(condition, [0, 0])[0] += 1
            if row.doubts:
                figures.clear_flagged += 1
                for condition in where:
                    figures.by_condition[condition][1] += 1
        if row.doubts:
            continue
        said = (tuple(row.steps), row.special, row.toward, tuple(sorted(row.carry)))
        if said != (truth.steps, truth.special, truth.toward, tuple(sorted(truth.carry))):
            figures.misread += 1
            wrong.append(f"{truth.row}: MISREAD {said}, marked {truth}")
    return wrong


def run_corpus(samples: dict[str, Path], tmp: Path, pages: int, seed: int) -> Figures:
    """The corpus read page by page: no misread, every doubt put in flagged, and at most
    `CLEAR_FLAGGED` of the clear rows held for a doubt, in every condition with rows enough to say."""
    figures = Figures()
    wrong: list[str] = []
    for scan, truths, folder, where in corpus(samples, tmp, pages, seed):
        reads, problems = read_scans(folder, [scan], Settle())
        assert problems == [], [str(p) for p in problems]
        figures.pages += 1
        wrong += [f"{scan.name}: {w}" for w in judge(reads[0], truths, figures, where)]
    assert wrong == [], "\n".join(wrong[:20])
    assert figures.misread == 0 and figures.flagged == figures.doubt_rows
    assert figures.clear_flagged <= CLEAR_FLAGGED * (figures.clear_rows - figures.messy[0]), figures.conditions()
    for condition, (rows, flagged) in figures.by_condition.items():
        assert rows < 100 or flagged <= CLEAR_FLAGGED * rows, (condition, figures.conditions())
    assert figures.messy[1] <= MESSY_FLAGGED * figures.messy[0], figures.conditions()
    return figures


def test_corpus_of_scans_reads_every_clear_mark_and_flags_every_doubt(
    samples: dict[str, Path], tmp_path: Path, record_property: pytest.RecordProperty
) -> None:
    """Synthetic scans of both samples' forms, random orders drawn from the units' reach, marked
    as people mark (fills, ticks, crosses, dots, half fills; HB and 2B), with the doubts people
    make (rings, erasures, strokes, two marks, a ring before fills) and a scanner's or phone's
    faults: zero silent misreads (a smaller corpus than the slow suite's)."""
    figures = run_corpus(samples, tmp_path, 24, seed=27)
    record_property("figures", f"scan corpus: {figures}")
    assert figures.pages == 24 and figures.doubt_rows > 0 and figures.clear_rows > 0


@pytest.mark.slow
def test_corpus_of_300_scans_has_zero_silent_misreads(
    samples: dict[str, Path], tmp_path: Path, record_property: pytest.RecordProperty
) -> None:
    """The issue's corpus (issues 48, 49): 300 pages, every clear mark read right or (at most 3% of
    clear rows, in every condition) held for a doubt, every doubt flagged; the figures by condition printed."""
    figures = run_corpus(samples, tmp_path, 300, seed=2027)
    record_property("figures", f"scan corpus: {figures}; {figures.conditions()}")
    assert figures.pages == 300


def test_a_fill_overrunning_its_ring_leaves_its_neighbours_empty_and_a_ring_round_one_in_doubt(
    samples: dict[str, Path], tmp_path: Path
) -> None:
    """A soft pencil's fill pressed well past its ring darkens the paper round the bubbles next
    to it, in its step and the next: that is its overrun, and they read empty; a ring drawn round
    one of them beside such a fill is still a doubt."""
    import cv2

    from tests.penciled import _blob, at, pencil

    folder = samples["tsaritsyn"]
    form = printed(folder, factions(folder)[1])
    plan = form.plans[0]
    rows = [rp.row.id for rp in plan.rows if any(b.part == "step" for b in plan.bubbles if b.row == rp.row.id)]
    image = render(form.pdf, 0, 200)
    r = plan.layout.bubble / 2 * 200 / 72
    where = {(b.row, b.part, b.step, b.choice): b for b in plan.bubbles}
    path = ("SW", "N", "SE", "NE")
    rng = np.random.default_rng(3)
    offered = {row: max(b.step for b in plan.bubbles if b.row == row) for row in rows}  # a row's own steps (issue 42)
    for row in rows:
        for k, side in enumerate(path[: offered[row]], start=1):
            _blob(image, *at(plan, where[(row, "step", k, side)], 200), r * 1.45, 60, rng)  # the corpus's heaviest
    pencil(image, at(plan, where[(rows[-1], "step", 1, "S")], 200), r, "circled", rng)
    image = cv2.GaussianBlur(image, (0, 0), 1.0)
    reads, problems = read_scans(folder, [save(image, tmp_path / "overrun.png")], Settle())
    assert problems == []
    got = {row.row.id: row for row in reads[0].rows}
    assert len(rows) > 2
    for row in rows[:-1]:
        assert tuple(got[row].steps) == path[: offered[row]] and not got[row].doubts, row
    said = [d.message().text for d in got[rows[-1]].doubts]
    assert len(said) == 1 and ", step 1: found S ringed round" in said[0], said


# --- pages as they come -------------------------------------------------------------------------


def test_pages_in_any_order_and_any_way_up_in_one_pdf(samples: dict[str, Path], tmp_path: Path) -> None:
    """A PDF of scanned pages, out of order, some upside down, of two factions: every page read."""
    import cv2
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    folder = samples["tsaritsyn"]
    rng = np.random.default_rng(5)
    images = []
    for faction in factions(folder):
        form = printed(folder, faction)
        for page in range(len(form.plans)):
            images.append(render(form.pdf, page, 150))
    order = rng.permutation(len(images))
    c = canvas.Canvas(str(tmp_path / "scans.pdf"), invariant=1)
    for k in order:
        image = images[k] if k % 2 else cv2.rotate(images[k], cv2.ROTATE_180)
        ok, png = cv2.imencode(".png", image)
        h, w = image.shape
        c.setPageSize((w * 72 / 150, h * 72 / 150))
        c.drawImage(ImageReader(__import__("io").BytesIO(png.tobytes())), 0, 0, w * 72 / 150, h * 72 / 150)
        c.showPage()
    c.save()
    reads, problems = read_scans(folder, [tmp_path / "scans.pdf"], Settle())
    assert problems == []
    assert len(reads) == len(images) and [r.page for r in reads] == list(range(1, len(images) + 1))


def test_accept_answers_are_read_and_checked() -> None:
    assert parse_accept("r_1st:3=ne") == (("r_1st", "3"), "NE")
    assert parse_accept("r_1st:special=pick up") == (("r_1st", "special"), "pickup")
    assert parse_accept("r_1st:toward=none") == (("r_1st", "toward"), "none")
    assert parse_accept("r_1st:path=read") == (("r_1st", "path"), "read")
    for bad in ("r_1st", "r_1st:3=north", "r_1st:special=charge", ":3=N", "r_1st:path=guess"):
        with pytest.raises(ValueError):
            parse_accept(bad)


# --- a week played with paper forms --------------------------------------------------------------


def test_a_week_played_with_scanned_paper_forms_for_every_faction(samples: dict[str, Path], tmp_path: Path) -> None:
    """Every faction's form printed, filled in pencil (paths within reach), scanned with a
    scanner's faults, imported by `orders scan`, then `validate` and `state` run on the result;
    a mark in doubt stops the import until --accept settles it."""
    folder = tmp_path / "week"
    shutil.copytree(samples["denikin"], folder)
    assert run_cli("next", str(folder)).returncode == 0  # the turn's log, to take the orders
    campaign = load_campaign(folder)
    rng = np.random.default_rng(11)
    files: list[Path] = []
    expected: dict[str, list[str]] = {}
    doubted = None
    for faction in factions(folder):
        form = printed(folder, faction)
        paths = reach_paths(campaign, faction, rng)
        for page, plan in enumerate(form.plans):
            marks = []
            for rp in plan.rows[:3]:
                way = paths.get(rp.row.id, [])[:3]
                marks += [(rp.row.id, "step", k, d, "fill") for k, d in enumerate(way, start=1)]
                if way and rp.row.kind == "unit":
                    expected.setdefault(faction, []).append(rp.row.id)
            if doubted is None and plan.rows:
                row = plan.rows[-1].row
                marks.append((row.id, "step", 1, "N", "circled"))
                doubted = row.id
            f = faults(rng)
            image = degrade(filled_page(form, page, marks, rng, dpi=f.dpi), f, rng)
            files.append(save(image, tmp_path / f"{faction}-{page}.jpg"))
    before = (folder / "turns").glob("*.yaml")
    logs = {p.name: p.read_bytes() for p in before}
    refused = run_cli("orders", "scan", *map(str, files), "--campaign", str(folder))
    assert refused.returncode != 0 and f"--accept {doubted}:1=" in refused.stderr
    assert {p.name: p.read_bytes() for p in (folder / "turns").glob("*.yaml")} == logs  # nothing written
    done = run_cli(
        "orders",
        "scan",
        *map(str, reversed(files)),
        "--campaign",
        str(folder),
        "--accept",
        f"{doubted}:1=none",
        "--review",
        str(tmp_path / "review.pdf"),
    )
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "review.pdf").read_bytes()[:5] == b"%PDF-"
    last = sorted((folder / "turns").glob("turn-*.yaml"))[-1]
    log = yaml.safe_load(last.read_text(encoding="utf-8"))
    ordered = {o["unit"] for orders in (log.get("orders") or {}).values() for o in orders}
    for faction, units in expected.items():
        assert set(units) <= ordered, faction
    assert doubted not in ordered
    checked = run_cli("validate", str(folder))
    assert checked.returncode == 0, checked.stderr  # void orders are warnings, as the import said
    state = run_cli("state", str(folder))
    assert state.returncode == 0, state.stderr


# --- the scanner check ---------------------------------------------------------------------------


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_scanner_check_page_filled_as_it_asks_says_the_scanner_reads_forms(tmp_path: Path, paper: str) -> None:
    """The kit's scanner check, filled as each line asks and scanned with a scanner's faults (issue
    48: it tests each kind of mark): filled, ticked and crossed read as marks, empty as empty, a
    ring round a bubble asked about, a mark rubbed out never read, the boxes' writing seen."""
    from tests.penciled import check_page

    rng = np.random.default_rng(3)
    scan = save(degrade(check_page(paper), faults(rng), rng), tmp_path / "check.jpg")
    done = run_cli("orders", "check", str(scan))
    assert done.returncode == 0, done.stderr
    for line in ("filled in full", "ticked", "crossed"):
        assert f"  {line}: 6 read as marked; the other bubbles: 30 empty" in done.stdout, done.stdout
    assert "left empty: 36 empty" in done.stdout
    assert "ringed round: 6 asked about" in done.stdout
    assert "it reads kitgen's order forms" in done.stdout


def test_the_scanner_check_left_blank_says_what_was_missed(tmp_path: Path) -> None:
    from tests.penciled import check_page

    scan = save(check_page(filled=False), tmp_path / "blank.png")
    done = run_cli("orders", "check", str(scan))
    assert done.returncode == 1
    assert "blank.png:1:1: the scanner check's 'filled' line: found 0 of 6 (6 empty)" in done.stderr
    assert "blank.png:1:1: the scanner check's 'ringed' line: found 0 of 6 (6 empty)" in done.stderr
    assert "it does not yet read kitgen's order forms right" in done.stdout


# --- what the umpire gives and what he is refused --------------------------------------------------


def _week(samples: dict[str, Path], tmp_path: Path) -> Path:
    """The Denikin sample with its next turn's log begun (the Tsaritsyn sample has ended)."""
    folder = tmp_path / "week"
    shutil.copytree(samples["denikin"], folder)
    assert run_cli("next", str(folder)).returncode == 0
    return folder


def test_a_form_scanned_without_all_its_pages_is_refused_unless_partial(
    samples: dict[str, Path], tmp_path: Path
) -> None:
    """The QR code says how many pages the form has: a page missing would leave its units' orders
    behind unseen, so it is named; --partial imports the pages scanned."""
    folder = _week(samples, tmp_path)
    faction = factions(folder)[0]
    form = printed(folder, faction)
    assert len(form.plans) > 1
    scan = save(render(form.pdf, 0, 200), tmp_path / "first.png")
    logs = {p.name: p.read_bytes() for p in (folder / "turns").glob("*.yaml")}
    refused = run_cli("orders", "scan", str(scan), "--campaign", str(folder))
    assert refused.returncode == 1 and f"found the {faction} form without page" in refused.stderr
    assert {p.name: p.read_bytes() for p in (folder / "turns").glob("*.yaml")} == logs
    done = run_cli("orders", "scan", str(scan), "--campaign", str(folder), "--partial")
    assert done.returncode == 0, done.stderr


def test_an_answer_never_overrides_a_clear_mark(samples: dict[str, Path], tmp_path: Path) -> None:
    """--accept settles a doubt the scan found, and nothing else: an answer for a step marked
    clearly is refused, and nothing is written."""
    folder = _week(samples, tmp_path)
    faction = factions(folder)[0]
    form = printed(folder, faction)
    row = form.plans[0].rows[0].row
    files = [
        save(
            filled_page(form, k, [(row.id, "step", 1, "N", "fill")] if k == 0 else [], np.random.default_rng(1)),
            tmp_path / f"p{k}.png",
        )
        for k in range(len(form.plans))
    ]
    logs = {p.name: p.read_bytes() for p in (folder / "turns").glob("*.yaml")}
    refused = run_cli("orders", "scan", *map(str, files), "--campaign", str(folder), "--accept", f"{row.id}:1=S")
    assert refused.returncode != 0 and f"found --accept for {row.id}:1, which settles no doubt" in refused.stderr
    assert {p.name: p.read_bytes() for p in (folder / "turns").glob("*.yaml")} == logs


def test_a_picture_claiming_more_pixels_than_any_page_is_an_error_not_a_crash(
    samples: dict[str, Path], tmp_path: Path
) -> None:
    """A small PNG whose header claims 9000 x 9000 pixels: refused by its size, before it is decoded."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 9000, 9000, 8, 0, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + chunk(b"IEND", b"")
    (tmp_path / "bomb.png").write_bytes(png)
    folder = _week(samples, tmp_path)
    done = run_cli("orders", "scan", str(tmp_path / "bomb.png"), "--campaign", str(folder))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "bomb.png:1:1: page 1: found a picture of 9,000 x 9,000 pixels" in done.stderr
    assert "expected at most 60,000,000 pixels" in done.stderr


def test_one_factions_refused_orders_leave_every_faction_unwritten(samples: dict[str, Path], tmp_path: Path) -> None:
    """Every faction's orders are checked before any is written: the Reds' clear move and the
    Whites' train told to take a unit aboard with no path to take it along (an order the import
    refuses) leave the log as it was."""
    folder = _week(samples, tmp_path)
    files: list[Path] = []
    rng = np.random.default_rng(4)
    for faction in ("reds", "whites"):
        form = printed(folder, faction)
        for k, plan in enumerate(form.plans):
            marks: list[tuple[str, str, int, str, str]] = []
            if faction == "reds" and k == 0:
                marks = [(plan.rows[0].row.id, "step", 1, "N", "fill")]
            carry = [b for b in plan.bubbles if b.part == "carry"]
            if faction == "whites" and carry and not any(m[1] == "carry" for m in marks):
                marks = [(carry[0].row, "carry", 0, carry[0].choice, "fill")]
            files.append(save(filled_page(form, k, marks, rng), tmp_path / f"{faction}-{k}.png"))  # type: ignore[arg-type]
    logs = {p.name: p.read_bytes() for p in (folder / "turns").glob("*.yaml")}
    refused = run_cli("orders", "scan", *map(str, files), "--campaign", str(folder))
    assert refused.returncode == 1 and "a path along the track for what it carries" in refused.stderr
    assert {p.name: p.read_bytes() for p in (folder / "turns").glob("*.yaml")} == logs


def test_the_kits_blank_form_is_read_out_for_the_umpire_and_nothing_imported(
    samples: dict[str, Path], tmp_path: Path
) -> None:
    """The kit's paper order form names no unit: its marks are read out, row by row, for the
    umpire to type by the names written on it, and nothing is imported."""
    from kitgen.loader import load_scenario
    from kitgen.orders.sheetplan import blank_plan
    from kitgen.products.forms import FORMS, build_forms
    from tests.penciled import at, pencil

    pdf = build_forms(load_scenario("denikin-1919"), "a4")[0].pdf
    plan = blank_plan("a4")
    image = render(pdf, FORMS.index("Paper order form"), 200)
    rng = np.random.default_rng(2)
    where = {(b.row, b.part, b.step, b.choice): b for b in plan.bubbles}
    r = plan.layout.bubble / 2 * 200 / 72
    for key in (("row1", "step", 1, "NE"), ("row1", "step", 2, "SE"), ("row3", "special", 0, "resupply")):
        pencil(image, at(plan, where[key], 200), r, "fill", rng)
    scan = save(degrade(image, faults(rng), rng), tmp_path / "blank.jpg")
    folder = _week(samples, tmp_path)
    logs = {p.name: p.read_bytes() for p in (folder / "turns").glob("*.yaml")}
    done = run_cli("orders", "scan", str(scan), "--campaign", str(folder))
    assert done.returncode == 1
    assert (
        "found the kit's blank order form, which names no unit (row 1: NE SE; row 3: no move, resupply)" in done.stderr
    )
    assert {p.name: p.read_bytes() for p in (folder / "turns").glob("*.yaml")} == logs
