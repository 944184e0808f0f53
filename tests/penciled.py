"""Synthetic scans of order forms, made from the real form pages: marks like a soft pencil's
(grey, irregular, partly filled, overrunning the bubble; stray strokes and erasures) and the
faults of a scanner or a phone (rotation, perspective, resolution, blur, noise, JPEG, uneven
light and shadow, pages upside down). Every mark is made with what it is, so that a test can
tell a misread from a doubt."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

import cv2
import numpy as np
import numpy.typing as npt

from kitgen.orders.sheetplan import Bubble, HexBox, PagePlan

if TYPE_CHECKING:
    from kitgen.mapping.hexgrid import HexGrid

Mark = Literal["fill", "half", "erased", "stray", "dot", "circled", "tick", "cross"]
CLEAR: tuple[Mark, ...] = ("fill", "tick", "cross", "dot")
"""Marks a reader must read right when they are the only ink of their step (issue 48: a fill, a
tick, a cross or a heavy dot); the others it must call in doubt."""
Lead = Literal["2B", "HB"]
LEADS: dict[Lead, tuple[int, int]] = {"2B": (40, 110), "HB": (95, 150)}
"""The grey a pencil leaves on white paper (0 black, 255 white), pressed lightly to hard: a soft
2B's, and the HB most people hold, which is lighter."""
Image = npt.NDArray[np.uint8]


def render(pdf: bytes, page: int, dpi: float) -> Image:
    """A page of a PDF as a greyscale picture, as a printer and a clean scan would give it."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(pdf)
    try:
        image = doc[page].render(scale=dpi / 72, grayscale=True).to_numpy()
    finally:
        doc.close()
    return np.ascontiguousarray(image[:, :, 0] if image.ndim == 3 else image)


def at(plan: PagePlan, b: Bubble, dpi: float) -> tuple[float, float]:
    """A bubble's centre in pixels of the page rendered at `dpi`."""
    return b.x * dpi / 72, (plan.size[1] - b.y) * dpi / 72


def pencil(
    image: Image, centre: tuple[float, float], radius: float, kind: Mark, rng: np.random.Generator, lead: Lead = "2B"
) -> None:
    """A pencil mark in the bubble of `radius` pixels at `centre`, drawn into `image`."""
    x, y = centre
    grey = int(rng.integers(*LEADS[lead]))  # pressed hard or lightly
    if kind == "fill":
        # an irregular blob over most of the bubble, often over its ring
        reach = radius * rng.uniform(0.95, 1.35)
        _blob(image, x, y, reach, grey, rng)
    elif kind == "half":
        # half the bubble or so: a blob pushed to one side of it
        angle = rng.uniform(0, 2 * math.pi)
        shift = radius * rng.uniform(0.45, 0.6)
        _blob(
            image, x + shift * math.cos(angle), y + shift * math.sin(angle), radius * rng.uniform(0.55, 0.7), grey, rng
        )
    elif kind == "erased":
        # what an eraser leaves: a light grey smudge over the bubble
        residue = int(rng.integers(170, 215))
        _blob(image, x, y, radius * rng.uniform(0.9, 1.2), residue, rng, texture=18)
    elif kind == "dot":
        # a dot in the middle: a pencil's touch, not a fill
        _blob(image, x, y, radius * rng.uniform(0.4, 0.55), grey, rng)
    elif kind in ("tick", "cross"):
        # strokes a third of a millimetre wide, as a hand makes them, not quite centred
        width = max(2, round(radius * rng.uniform(0.15, 0.22)))
        x, y = x + rng.uniform(-0.12, 0.12) * radius, y + rng.uniform(-0.12, 0.12) * radius
        if kind == "tick":
            points = [(-0.55, -0.05), (-0.1, 0.5), (0.65, -0.6)]
        else:
            points = [(-0.6, -0.6), (0.6, 0.6), (0.0, 0.0), (0.6, -0.6), (-0.6, 0.6)]
        spread = radius * rng.uniform(0.85, 1.15)
        pts = [(round((x + px * spread) * 16), round((y + py * spread) * 16)) for px, py in points]
        strokes = [pts] if kind == "tick" else [pts[:2], pts[3:]]
        for stroke in strokes:
            cv2.polylines(image, [np.array(stroke, np.int32)], False, grey, width, cv2.LINE_AA, 4)
    elif kind == "circled":
        # the bubble ringed round, not filled: hugging its printed ring, or loose round it
        ringed(image, centre, radius, float(rng.uniform(1.0, 1.4)), grey, rng)
    else:
        # a stray stroke across the bubble
        angle = rng.uniform(0, math.pi)
        dx, dy = math.cos(angle) * radius * 1.6, math.sin(angle) * radius * 1.6
        off = rng.uniform(-0.25, 0.25) * radius
        thick = max(2, round(radius * rng.uniform(0.35, 0.5)))
        p0 = (round(x - dx - off * math.sin(angle)), round(y - dy + off * math.cos(angle)))
        p1 = (round(x + dx - off * math.sin(angle)), round(y + dy + off * math.cos(angle)))
        cv2.line(image, p0, p1, grey, thick, cv2.LINE_AA)


def ringed(
    image: Image, centre: tuple[float, float], radius: float, ratio: float, grey: int, rng: np.random.Generator
) -> None:
    """A ring traced round a bubble by hand, `ratio` times its radius (1.0 on its printed ring):
    a little off centre and out of round, a soft pencil's line about a third of a millimetre wide."""
    x, y = centre
    x, y = x + rng.uniform(-0.03, 0.03) * radius, y + rng.uniform(-0.03, 0.03) * radius
    stretch = rng.uniform(0.97, 1.03)
    axes = (round(radius * ratio * stretch * 16), round(radius * ratio / stretch * 16))
    width = max(2, round(radius * 0.18))
    layer = np.full_like(image, 255)  # graphite darkens what it crosses, the printed ring too, never lightens it
    cv2.ellipse(
        layer, (round(x * 16), round(y * 16)), axes, float(rng.uniform(0, 180)), 0, 360, grey, width, cv2.LINE_AA, 4
    )
    np.minimum(image, layer, out=image)


def _blob(image: Image, x: float, y: float, r: float, grey: int, rng: np.random.Generator, texture: int = 35) -> None:
    """An irregular filled shape of about `r` round (x, y), grainy like graphite, darkening the picture."""
    n = 18
    angles = np.linspace(0, 2 * math.pi, n, endpoint=False)
    radii = r * rng.uniform(0.88, 1.08, n)
    x0, y0 = max(0, int(x - 1.2 * r) - 2), max(0, int(y - 1.2 * r) - 2)
    x1, y1 = min(image.shape[1], int(x + 1.2 * r) + 3), min(image.shape[0], int(y + 1.2 * r) + 3)
    patch = image[y0:y1, x0:x1]
    pts = np.column_stack([x - x0 + radii * np.cos(angles), y - y0 + radii * np.sin(angles)]).round().astype(np.int32)
    mask = np.zeros_like(patch)
    cv2.fillPoly(mask, [pts], 255)
    grain = rng.normal(0, texture, patch.shape) if texture else np.zeros(patch.shape)
    marked = np.clip(grey + grain, 0, 255).astype(np.uint8)
    inside = mask > 0
    patch[inside] = np.minimum(patch[inside], marked[inside])


@dataclass(frozen=True)
class Faults:
    dpi: float
    angle: float
    perspective: float
    blur: float
    noise: float
    jpeg: int | None
    light: float
    upside_down: bool
    curl: float = 0.0
    """How far the middle of the page stands off from where its corners put it (mm): a page not
    quite flat under a phone, which no straightening by the corners can see."""


def faults(rng: np.random.Generator) -> Faults:
    return Faults(
        dpi=float(rng.choice([150, 200, 240, 300])),
        angle=float(rng.uniform(-8, 8)),
        perspective=float(rng.uniform(0, 0.05)) if rng.random() < 0.4 else 0.0,
        blur=float(rng.uniform(0, 1.0)),
        noise=float(rng.uniform(0, 8)),
        jpeg=int(rng.integers(55, 95)) if rng.random() < 0.5 else None,
        light=float(rng.uniform(0, 0.35)),
        upside_down=bool(rng.random() < 0.3),
        curl=float(rng.uniform(0.3, 1.5)) if rng.random() < 0.35 else 0.0,
    )


def _grid(h: int, w: int) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Each pixel's row and column, as a column and a row that numpy broadcasts: the same
    values as `np.mgrid`'s, without the two whole-page arrays it makes (a tenth of a second a page)."""
    return np.arange(h, dtype=np.float32)[:, None], np.arange(w, dtype=np.float32)[None, :]


def _curled(image: Image, most: float, rng: np.random.Generator) -> Image:
    """The page bulged: each point moved by up to `most` pixels, least at the edges, most inside."""
    h, w = image.shape
    yy, xx = _grid(h, w)
    bulge = np.sin(np.pi * xx / w) * np.sin(np.pi * yy / h)
    a, b = rng.uniform(-1, 1, 2)
    wave = np.sin(2 * np.pi * xx / w * rng.uniform(0.5, 1.5))
    map_x = xx + most * a * bulge * wave
    map_y = yy + most * b * bulge
    return cv2.remap(image, map_x.astype(np.float32), map_y.astype(np.float32), cv2.INTER_LINEAR, borderValue=255)


def degrade(image: Image, f: Faults, rng: np.random.Generator) -> Image:
    """The page as a scanner or a phone hands it over: turned, skewed, blurred, noisy, unevenly lit."""
    h, w = image.shape
    if f.curl:
        image = _curled(image, f.curl * f.dpi / 25.4, rng)
    # uneven light: a gradient of shadow across the page, and a darker corner
    yy, xx = _grid(h, w)
    a = rng.uniform(0, 2 * math.pi)
    ramp = xx / w * math.cos(a) + yy / h * math.sin(a)
    ramp = (ramp - ramp.min()) / max(float(np.ptp(ramp)), 1e-6)
    lit = image.astype(np.float32) * (1 - f.light * ramp)
    # rotation and perspective onto a larger canvas (the scanner's bed, the table)
    pad = int(0.08 * max(h, w))
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    jitter = rng.uniform(-f.perspective, f.perspective, (4, 2)) * np.float32([w, h])
    dst = src + jitter + pad
    matrix = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    centre = (w / 2 + pad, h / 2 + pad)
    turn = cv2.getRotationMatrix2D(centre, f.angle + (180 if f.upside_down else 0), 1.0)
    turn3 = np.vstack([turn, [0, 0, 1]])
    size = (w + 2 * pad, h + 2 * pad)
    out = cv2.warpPerspective(lit, turn3 @ matrix, size, flags=cv2.INTER_LINEAR, borderValue=235)
    if f.blur > 0.05:
        out = cv2.GaussianBlur(out, (0, 0), f.blur)
    # the sensor's noise from OpenCV's generator, seeded from the page's: numpy's normal draws
    # took a tenth of a second a page, a sixth of the page's making
    cv2.setRNGSeed(int(rng.integers(2**31)))
    out = out + cv2.randn(np.empty(out.shape, np.float32), 0.0, float(f.noise))
    result = np.clip(out, 0, 255).astype(np.uint8)
    if f.jpeg is not None:
        ok, data = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY, f.jpeg])
        assert ok
        result = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
    return result


Pencil = tuple[str, str, int, str, Mark]
"""(row id, part, step, choice, mark): a mark on one bubble of a form ('step', 'special', 'toward', 'carry')."""


@dataclass(frozen=True)
class Printed:
    """A faction's form as `kitgen orders form` prints it for the turn being played, and its pages' plans."""

    pdf: bytes
    plans: tuple[PagePlan, ...]
    paper: str


_PRINTED: dict[tuple[str, str, str, str], Printed] = {}
"""The forms printed in this process, by their campaign folder's contents: tests print the same
sample's forms again and again, and the form is a pure function of them (its bytes are
deterministic, which other tests check)."""


def printed(folder: object, faction: str, paper: str = "a4") -> Printed:
    """The faction's form, printed once for a campaign folder's contents."""
    import hashlib
    from pathlib import Path

    root = Path(str(folder))
    digest = hashlib.sha256()
    for path in sorted([root / "campaign.yaml", root / "setup.yaml", *(root / "turns").glob("*.yaml")]):
        if path.is_file():
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    key = (str(root.resolve()), faction, paper, digest.hexdigest())
    if key not in _PRINTED:
        _PRINTED[key] = _printed(root, faction, paper)
    return _PRINTED[key]


def _printed(folder: object, faction: str, paper: str) -> Printed:
    from pathlib import Path

    from kitgen.campaign import load_campaign
    from kitgen.engine.basis import turn_basis
    from kitgen.orders.rows import order_rows
    from kitgen.orders.sheetplan import page_plan, split_pages
    from kitgen.products.orderform import order_form_pdf

    campaign = load_campaign(Path(str(folder)))
    basis = turn_basis(campaign)
    rows = order_rows(campaign, basis.start, faction, basis.turn)
    plans = tuple(page_plan(chunk, paper) for chunk in split_pages(rows))
    return Printed(order_form_pdf(campaign, basis.start, faction, basis.turn, paper), plans, paper)


def filled_page(
    form: Printed,
    page: int,
    marks: list[Pencil],
    rng: np.random.Generator,
    *,
    dpi: float = 200,
    written: dict[tuple[str, int], str] | None = None,
    lead: Lead = "2B",
) -> Image:
    """Page `page` (from 0) of the form printed at `dpi`, with pencil `marks` on its bubbles (in
    `lead`) and hexes `written` in its boxes ((row, step) -> text)."""
    plan = form.plans[page]
    image = render(form.pdf, page, dpi)
    r = plan.layout.bubble / 2 * dpi / 72
    where = {(b.row, b.part, b.step, b.choice): b for b in plan.bubbles}
    for row, part, step, choice, kind in marks:
        pencil(image, at(plan, where[(row, part, step, choice)], dpi), r, kind, rng, lead)
    for box in plan.boxes:
        text = (written or {}).get((box.row, box.step))
        if text:
            write(image, plan, box, text, dpi)
    return image


def write(image: Image, plan: PagePlan, box: HexBox, text: str, dpi: float) -> None:
    """`text` written in pencil in a hex box of the page printed at `dpi`."""
    x, y = box.x * dpi / 72, (plan.size[1] - box.y) * dpi / 72
    spot = (round(x + 2 * dpi / 72), round(y - 4 * dpi / 72))
    cv2.putText(image, text, spot, cv2.FONT_HERSHEY_SIMPLEX, dpi / 300, 70, max(1, round(dpi / 150)))


def save_colour(image: Image, path: object, quality: int, rng: np.random.Generator) -> object:
    """The page as a colour scanner or a phone saves it: on cream paper under a warm or cool
    light, in colour JPEG at `quality` (its colour sampled at half the resolution)."""
    from pathlib import Path

    tint = np.array([rng.uniform(0.86, 0.97), rng.uniform(0.94, 1.0), rng.uniform(0.97, 1.0)], np.float32)  # B, G, R
    colour = np.clip(image.astype(np.float32)[:, :, None] * tint[None, None, :], 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", colour, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    Path(str(path)).write_bytes(data.tobytes())
    return path


def save(image: Image, path: object) -> object:
    ok, data = cv2.imencode(".png", image)
    assert ok
    from pathlib import Path

    Path(str(path)).write_bytes(data.tobytes())
    return path


# --- a corpus of filled pages, each mark made with what it is -------------------------------


@dataclass(frozen=True)
class RowTruth:
    """What a row of a synthetic page says: read for certain, or in doubt (`doubt` names why)."""

    row: str
    steps: tuple[str, ...]
    special: str | None
    toward: str | None
    carry: tuple[str, ...]
    doubt: str | None
    marks: int
    messy: bool = False
    """Marked messily: a stroke through a bubble, a dot or half a fill for a fill (issue 48's messy marks)."""


FACING_FIELDS = ("repair", "emplace", "land")
DOUBTS = ("erased", "stray", "dot", "circled", "two", "gap", "count", "ringed")
"""The doubts a corpus row may hold: another bubble of a step erased, struck, dotted, ringed or
filled beside its mark; its steps out of order or not matching its hexes; or one of its own
steps ringed round instead of filled, the steps after it filled ('ringed')."""
WAYS: tuple[Mark, ...] = ("fill", "fill", "fill", "fill", "fill", "tick", "cross", "dot", "half", "stray")
"""How a corpus marks a bubble it means: a fill mostly, else a tick, a cross, a heavy dot, half a
fill or a stroke through it, each a mark where it is the only ink of its step (issue 48)."""
MESSY: tuple[Mark, ...] = ("dot", "half", "stray")
"""The ways of marking the issue counts as messy (light marks are the HB's, counted by pencil)."""


def _sides(grid: HexGrid | None, start: str, steps: Sequence[str]) -> list[str]:
    """The sides a special order may face from where the path ends: each, or with `grid` those
    facing a hex of the map."""
    from kitgen.mapping.hexgrid import DIRECTION_NAMES

    cell = grid.parse_id(start) if grid else None
    for side in steps:
        cell = grid.toward(cell, side) if grid and cell else None
    if grid is None or cell is None:
        return list(DIRECTION_NAMES)
    return [d for d in DIRECTION_NAMES if grid.toward(cell, d) is not None] or list(DIRECTION_NAMES)


def random_orders(
    form: Printed,
    page: int,
    paths: dict[str, list[str]],
    rng: np.random.Generator,
    *,
    doubt_rate: float = 0.15,
    marks_vary: bool = True,
    grid: HexGrid | None = None,
) -> tuple[list[Pencil], dict[tuple[str, int], str], list[RowTruth]]:
    """Random orders for the rows of a page: each row's path drawn from `paths` (the directions of
    a path within its reach), a special order and its side (with `grid`, a side facing a hex of
    the map, as an import requires), a carrier's cargo, the hexes written under the steps on half
    the rows, each marked as people mark (`WAYS`, or fills alone unless `marks_vary`); and on
    some rows a doubt put in on purpose."""
    from kitgen.mapping.hexgrid import DIRECTION_NAMES

    plan = form.plans[page]
    marks: list[Pencil] = []
    written: dict[tuple[str, int], str] = {}
    truths: list[RowTruth] = []
    by_row: dict[str, list[Bubble]] = {}
    for b in plan.bubbles:
        by_row.setdefault(b.row, []).append(b)
    for rp in plan.rows:
        row = rp.row
        bubbles = by_row.get(row.id, [])
        steps_held = max((b.step for b in bubbles), default=0)
        if rng.random() < 0.3:
            truths.append(RowTruth(row.id, (), None, None, (), None, 0))
            continue
        way = paths.get(row.id, [])
        steps = tuple(way[: int(rng.integers(0, min(len(way), steps_held) + 1))])
        specials = [b.choice for b in bubbles if b.part == "special"]
        special = str(rng.choice(specials)) if specials and rng.random() < 0.25 else None
        special = None if special == "retreat" and not steps else special  # a retreat is along a path
        # a side left out is an order the scan must refuse: none where no doubt is asked for (the bench)
        facing = special in FACING_FIELDS and (rng.random() < 0.8 or not doubt_rate)
        toward = str(rng.choice(_sides(grid, row.hex, steps))) if facing else None
        carriable = [b.choice for b in bubbles if b.part == "carry"]
        carry = tuple(c for c in carriable if rng.random() < 0.5) if steps else ()  # a carrier takes units to move them

        def how() -> Mark:
            """A clear mark as people make them: mostly fills, some ticks, crosses, dots and half fills."""
            return WAYS[int(rng.integers(0, len(WAYS)))] if marks_vary else "fill"

        row_marks: list[Pencil] = [(row.id, "step", k, d, how()) for k, d in enumerate(steps, start=1)]
        row_marks += [(row.id, "special", 0, special, how())] if special else []
        row_marks += [(row.id, "toward", 0, toward, how())] if toward else []
        row_marks += [
            (row.id, "carry", 0, c, "fill") for c in carry
        ]  # a carrier's cargo: fills (two ticks are a doubt)
        if rng.random() < 0.5:
            for k in range(1, len(steps) + 1):
                written[(row.id, k)] = f"{int(rng.integers(100, 9999)):04d}"
        doubt = str(rng.choice(DOUBTS)) if row_marks and rng.random() < doubt_rate else None
        if doubt in ("erased", "stray", "dot", "circled", "two", "ringed") and not any(
            m[1] == "step" for m in row_marks
        ):
            doubt = None  # those are put on a step
        if doubt == "ringed":
            k = int(rng.integers(0, len(steps)))  # a step's own bubble, whatever follows it
            row_marks[k] = (*row_marks[k][:4], "circled")
        elif doubt in ("erased", "stray", "dot", "circled", "two"):
            step = int(rng.integers(1, len(steps) + 1))
            others = [d for d in DIRECTION_NAMES if d != steps[step - 1]]
            row_marks.append((row.id, "step", step, str(rng.choice(others)), "fill" if doubt == "two" else doubt))  # type: ignore[arg-type]
        elif doubt == "gap":
            if len(steps) >= 1 and len(steps) < steps_held:
                gap = len(steps) + 2 if len(steps) + 2 <= steps_held else None
                if gap is None:
                    doubt = None
                else:
                    row_marks.append((row.id, "step", gap, str(rng.choice(DIRECTION_NAMES)), "fill"))
            else:
                doubt = None
        elif doubt == "count":
            if len(steps) < steps_held:
                for k in range(1, len(steps) + 2):
                    written[(row.id, k)] = f"{int(rng.integers(100, 9999)):04d}"
            else:
                doubt = None
        marks += row_marks
        messy = any(m[4] in MESSY for m in row_marks)
        truths.append(RowTruth(row.id, steps, special, toward, carry, doubt, len(row_marks), messy))
    return marks, written, truths


def check_page(paper: str = "a4", dpi: float = 200, *, filled: bool = True, seed: int = 1) -> Image:
    """The kit's scanner check page printed at `dpi`, filled in pencil as it asks (or left blank)."""
    from kitgen.loader import load_scenario
    from kitgen.orders.sheetplan import check_plan
    from kitgen.products.forms import FORMS, build_forms

    rng = np.random.default_rng(seed)
    pdf = build_forms(load_scenario("denikin-1919"), paper)[0].pdf
    plan = check_plan(paper)
    image = render(pdf, FORMS.index("Scanner check"), dpi)
    if not filled:
        return image
    r = plan.layout.bubble / 2 * dpi / 72
    kinds: dict[str, Mark] = {
        "filled": "fill",
        "ticked": "tick",
        "crossed": "cross",
        "ringed": "circled",
        "erased": "erased",
    }
    for b in plan.bubbles:
        if b.choice == "N" and b.row in kinds:
            pencil(image, at(plan, b, dpi), r, kinds[b.row], rng)
    for box in plan.boxes:
        if box.row == "written":
            write(image, plan, box, "3416", dpi)
    return image
