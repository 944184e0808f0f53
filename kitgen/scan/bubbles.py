"""Every bubble of a straightened page measured and called marked, empty or in doubt: how much of
its inside a pencil has darkened, and how dark, against the paper round it (so that shadow and
uneven light do not count) and the black of the page's own markers (so that a pale photo reads
as a crisp scan; a blurred ring is paler than its ink, a marker's middle is not). Its own ring
checks the geometry: a bubble whose ring is not where the plan puts it is in doubt. And whether
a hex box has writing in it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from kitgen.orders.sheetplan import Bubble, PagePlan
from kitgen.scan.locate import SCALE

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

Call = Literal["marked", "empty", "doubt"]
INK = 0.35
"""A pixel is inked when it is darker than this share of the way from the paper to the markers' black."""
MARKED_COVER, MARKED_MEAN = 0.75, 0.50
"""A marked bubble: most of its inside inked, and dark on average: a soft pencil's mark."""
EMPTY_COVER, EMPTY_MEAN = 0.05, 0.08
"""An empty bubble: next to nothing inked, and light on average (a clean erasure is empty; the
smudge of one that is not, or a light mark, is in doubt)."""
INSIDE = 0.62
"""The share of a bubble's radius measured as its inside: clear of its ring, blurred as it may be."""
BAND = 0.85
"""The rim of the inside, from `INSIDE` to this share of the radius: a filled bubble is inked
there too; a dot in the middle is not."""
BAND_MARKED, BAND_EMPTY = 0.5, 0.3
AROUND_EMPTY = 0.35
"""The share of the paper just round a bubble's ring that may be inked round an empty bubble (a
neighbour's overrun, the step's hexagon): more is a ring drawn round it, in doubt."""
OVERRUN = 1.5
"""How far past its centre a filled bubble's mark may reach, in radii: ink round an empty bubble
that near a filled one is that one's overrun, not a ring drawn round the empty one."""
LEAST_RING = 0.22
"""The page's rings at their median are this much of the markers' black at the least: a paler
page is too blurred or too faint to read."""
RING_SEEN = 0.45
"""A bubble's ring is where the plan puts it when it is at least this share of the page's median ring."""
RIM = (-3.0, 4.0)
"""The band round a bubble's printed ring (pixels from it, in and out) where a pencil ring drawn
round the bubble lies, however tightly it hugs it: its ink summed across the band, so that a ring
counts alike wherever it lies in it, and a bubble found a pixel off its centre loses nothing."""
RING_EDGE = 0.75
"""The printed ring's outer edge, in pixels beyond its middle: past it lies the row's tint (a
bubble is printed white)."""
BACKDROP = (4.0, 5.5)
"""The band round a bubble (pixels beyond its ring), clear of its neighbours, whose median over
the bubbles of its row is the row's tint."""
SECTORS = 12
"""A rim's sectors: twelve, so that a hexagon's bubbles, sixty degrees apart, turn onto each other."""
RINGED = 0.03
"""A bubble is ringed round when, three quarters of the way round its rim or more, the band
holds this much more ink than the same bubble of the page's other rows (a clean one holds its
own print and no more; a tick, a cross or a neighbour's overrun crosses the rim in a few places)."""
LIKE = 5
"""The fewest clean bubbles of a part that make its own measure of a clean rim; fewer are
measured against the page's."""

PENCIL_COVER = 0.2
"""Deliberate pencil in a bubble: at least this share of its inside inked (a tick's or a cross's
strokes, a dot, half a fill, an HB's light fill: a fifth or more); an eraser's smudge leaves next
to none of it so dark (a twentieth at most)."""
PENCIL_DARK = 0.38
"""...and its darkest tenth at least this dark: an HB's stroke is (0.42 and more in the corpus);
an eraser's smudge, at a third at most, is not."""
PENCIL_OWN = 0.6
"""...or, on a page with fills enough to tell its pencil, this share of its fills' darkest tenth:
a tick is made with the pencil that made the fills, a 2B's far darker than an eraser's trace."""
FILLS_TO_TELL = 3
PENCIL_STROKE, PENCIL_FILL = 0.15, 0.4
"""...and either strokes (its darkest tenth this much darker than its average: a tick, a cross, a
dot, half a fill) or an even grey this dark on average (an HB's light fill); an eraser's smudge is
an even grey, and lighter (a third of the markers' black at most, in the corpus)."""

Why = Literal["fill", "clean", "overrun", "ring", "no ring", "ink", "smudge", "faint"]
"""Why a bubble was called as it was: filled; clean; ink round it that a filled neighbour's
overrun explains (ignored); a ring drawn round it; its printed ring not where the plan puts it;
deliberate pencil inside it that is no fill (a tick, a cross, a dot, half a fill: a mark when
the other bubbles of its part are clean, else a doubt); a smudge (what an eraser leaves, a
trace); a trace too faint to count (ignored)."""


@dataclass(frozen=True)
class Measure:
    bubble: Bubble
    cover: float
    """The share of its inside inked."""
    mean: float
    """Its inside's mean ink, 0 paper to 1 as dark as the markers."""
    ring: float
    """Its ring's darkness, on the same scale."""
    call: Call
    why: Why = "clean"
    dark: float = 0.0
    """The ink of its inside's darkest tenth: a stroke of lead is dark, an eraser's smudge is not."""


def measure(
    flat: npt.NDArray[np.uint8], plan: PagePlan, centres: npt.NDArray[np.float64]
) -> tuple[list[Measure], float]:
    """Each bubble's measure at its centre (pixels of `flat`, as `register.registered` found
    it), and the page's median ring darkness (0 paper, 1 the markers' black)."""
    import numpy as np

    if not plan.bubbles:
        return [], 1.0
    r = plan.layout.bubble / 2 * SCALE
    inside = _sample(flat, centres, _offsets(0.0, r * INSIDE))
    band = _sample(flat, centres, _offsets(r * INSIDE, r * BAND))
    ring_round = _offsets(r + 2.5, r + 4.5)
    # the left half only: a bubble's label stands to its right, and a ring drawn round it goes round
    around_at = ring_round[ring_round[:, 0] < -1.0]
    around = _sample(flat, centres, around_at)
    ring_px = np.sort(_sample(flat, centres, _offsets(r - 1.5, r + 1.5)), axis=1)
    paper = np.maximum(_sample(paper_level(flat), centres, _offsets(0.0, 0.5))[:, 0], 1.0)
    black = _black(flat, plan, float(np.median(paper)))

    def inked(grey: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """Each sample's ink: 0 the paper round its bubble, 1 as dark as the markers."""
        return np.clip((1 - grey / paper[:, None]) / black, 0.0, 1.0)

    ring = inked(ring_px[:, : max(1, ring_px.shape[1] // 4)].mean(axis=1, keepdims=True))[:, 0]
    ink = inked(inside)
    cover = (ink > INK).mean(axis=1)
    mean = ink.mean(axis=1)
    darkest = np.quantile(ink, 0.9, axis=1)
    band_cover = (inked(band) > INK).mean(axis=1)
    filled = (cover >= MARKED_COVER) & (mean >= MARKED_MEAN) & (band_cover >= BAND_MARKED)  # a dot alone is no fill
    around_ink = inked(around) > INK
    around_cover = _share_unexplained(around_ink, centres, around_at, centres[filled], r * OVERRUN)
    backdrop = np.median(inked(_sample(flat, centres, _offsets(r + BACKDROP[0], r + BACKDROP[1]))), axis=1)
    by_row: dict[str, list[int]] = {}
    for i, b in enumerate(plan.bubbles):
        by_row.setdefault(b.row, []).append(i)
    tint = np.zeros(len(plan.bubbles))
    for members in by_row.values():  # a row is tinted alike: a ring round one bubble does not move its median
        tint[members] = np.median(backdrop[members])
    rim_at = _offsets(r + RIM[0], r + RIM[1])
    outside = float((np.hypot(rim_at[:, 0], rim_at[:, 1]) > r + RING_EDGE).mean())  # the share on the row's tint
    rim_ink = inked(_sample(flat, centres, rim_at)) - tint[:, None] * outside
    clean_inside = (cover <= EMPTY_COVER) & (mean <= EMPTY_MEAN) & (band_cover <= BAND_EMPTY)
    ringed = _ringed(plan, rim_at, rim_ink, clean_inside)
    usual = float(np.median(ring))
    found = []
    rows = zip(
        plan.bubbles,
        cover.tolist(),
        mean.tolist(),
        ring.tolist(),
        band_cover.tolist(),
        around_cover.tolist(),
        around_ink.mean(axis=1).tolist(),
        filled.tolist(),
        ringed.tolist(),
        darkest.tolist(),
        strict=True,
    )
    pencil = float(np.median(darkest[filled])) if int(filled.sum()) >= FILLS_TO_TELL else 0.0
    stroke = max(PENCIL_DARK, PENCIL_OWN * pencil)  # the page's own pencil, where its fills tell it
    for b, c, m, g, bc, ac, near, full, round_it, dark in rows:
        call: Call = "doubt"
        why: Why
        if g < RING_SEEN * usual:
            why = "no ring"  # the page is not where it seems
        elif full:
            call, why = "marked", "fill"
        elif c >= PENCIL_COVER and dark >= stroke and (dark - m >= PENCIL_STROKE or m >= PENCIL_FILL):
            why = "ink"
        elif c > EMPTY_COVER or m > EMPTY_MEAN or bc > BAND_EMPTY:
            why = "smudge"
        elif round_it > RINGED or ac > AROUND_EMPTY:
            why = "ring"
        else:
            call = "empty"
            why = "overrun" if near > AROUND_EMPTY else "faint" if c > 0 or bc > 0 else "clean"
        found.append(Measure(b, c, m, g, call, why, dark))
    return _alone(found), usual


def _alone(found: list[Measure]) -> list[Measure]:
    """Deliberate pencil that is no fill (a tick, a cross, a dot) called a mark where it is the
    only ink of its part (the other bubbles of its step, or of its line, empty); beside other ink, a doubt."""
    from dataclasses import replace

    parts: dict[tuple[str, str, int], list[Measure]] = {}
    for m in found:
        parts.setdefault((m.bubble.row, m.bubble.part, m.bubble.step), []).append(m)
    return [
        replace(m, call="marked")
        if m.why == "ink"
        and all(o is m or o.call == "empty" for o in parts[(m.bubble.row, m.bubble.part, m.bubble.step)])
        else m
        for m in found
    ]


def _ringed(
    plan: PagePlan, rim_at: npt.NDArray[np.float64], ink: npt.NDArray[np.float64], clean_inside: npt.NDArray[np.bool_]
) -> npt.NDArray[np.float64]:
    """How much each bubble looks ringed round (over `RINGED`, it is): ink all round its rim (`ink`,
    at each of its samples `rim_at`, its row's tint taken out) beyond what the clean bubbles of its
    part hold there (the lightest quarter of those with nothing inside: a page whose every N
    bubble, or every 'retreat', is ringed still has clean ones to measure by). A hexagon's six
    bubbles are measured alike, each turned to face the same way from its centre."""
    import numpy as np

    groups: dict[str | None, list[int]] = {}
    for i, b in enumerate(plan.bubbles):
        if clean_inside[i]:
            for key in (b.part, None):
                groups.setdefault(key, []).append(i)
    # each bubble measured against the clean rims of its part (a line's bubbles alike, whatever the
    # words beside them, which stand clear of the band), or of the page
    like = [b.part if len(groups.get(b.part, ())) >= LIKE else None for b in plan.bubbles]
    sector = ((np.arctan2(rim_at[:, 1], rim_at[:, 0]) + np.pi) / (2 * np.pi) * SECTORS).astype(int) % SECTORS
    rim = np.stack([ink[:, sector == k].mean(axis=1) for k in range(SECTORS)], axis=1)
    turned = (np.arange(SECTORS)[None, :] + np.array(_turns(plan))[:, None]) % SECTORS
    rim = np.take_along_axis(rim, turned, axis=1)
    clean = {k: np.quantile(rim[members], 0.25, axis=0) for k, members in groups.items() if k in like}
    zero = np.zeros(SECTORS)
    excess = rim - np.array([clean.get(k, zero) for k in like]).reshape(-1, SECTORS)
    # a ring lies in the band all round: most of its sectors hold it
    found: npt.NDArray[np.float64] = np.quantile(excess, 0.25, axis=1)
    return found


def _turns(plan: PagePlan) -> list[int]:
    """For each bubble of a hexagon of six (a step's, a side's), the sectors its rim is turned by
    to face as the hexagon's N bubble does; 0 for a bubble of a line."""
    import math

    around: dict[tuple[str, str, int], list[Bubble]] = {}
    for b in plan.bubbles:
        around.setdefault((b.row, b.part, b.step), []).append(b)
    centre = {key: (sum(o.x for o in six) / 6, sum(o.y for o in six) / 6) for key, six in around.items()}
    found: list[int] = []
    for b in plan.bubbles:
        key = (b.row, b.part, b.step)
        if len(around[key]) != 6 or b.part not in ("step", "toward"):
            found.append(0)
            continue
        cx, cy = centre[key]
        angle = math.atan2(-(b.y - cy), b.x - cx)  # as the picture's rows run, down the page
        found.append(round(angle / (2 * math.pi / SECTORS)) % SECTORS)
    return found


PAPER_SPAN_MM = 7.0
"""The paper's level at a point is the lightest within this much of it: wider than any pencil
mark over a bubble and its ring, narrower than a shadow's fall across the page."""


def paper_level(flat: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8]:
    """The paper's own grey at each pixel: the lightest near it (a morphological dilation, which
    takes away marks and print smaller than `PAPER_SPAN_MM`), of the page smoothed first, and smoothed."""
    from kitgen.scan.images import opencv

    cv2 = opencv()
    import numpy as np

    side = int(PAPER_SPAN_MM / 25.4 * 72 * SCALE) | 1
    kernel = np.ones((side, side), np.uint8)
    calm = cv2.GaussianBlur(flat, (0, 0), 2.0)  # the noise's peaks out first: the lightest of them is no paper
    level: npt.NDArray[np.uint8] = cv2.blur(cv2.dilate(calm, kernel), (side, side))
    return level


def _black(flat: npt.NDArray[np.uint8], plan: PagePlan, paper: float) -> float:
    """How dark the markers' black is against the paper (1 for black ink on white paper)."""
    import numpy as np

    m = plan.layout.marker
    cell = m / 6
    found = []
    for _, x, y in plan.markers:
        # the border's cells: black on every marker, whatever its code
        x0, y0 = x * SCALE, (plan.size[1] - y - m) * SCALE
        strip = flat[
            int(y0 + cell * 0.25 * SCALE) : int(y0 + cell * 0.75 * SCALE),
            int(x0 + cell * SCALE) : int(x0 + (m - cell) * SCALE),
        ]
        if strip.size:
            found.append(float(np.median(strip)))
    level = float(np.median(found)) if found else 0.0
    return max(1 - level / paper, 0.2)


def written(
    flat: npt.NDArray[np.uint8], plan: PagePlan, moves: dict[tuple[str, int], tuple[float, float]]
) -> dict[tuple[str, int], bool]:
    """Whether each hex box has writing in it: dark pixels inside its border, away from it; each
    box moved as its step's bubbles were (`moves`, pixels)."""
    import numpy as np

    found: dict[tuple[str, int], bool] = {}
    for box in plan.boxes:
        dx, dy = moves.get((box.row, box.step), (0.0, 0.0))
        x0, x1 = (box.x + 3.5) * SCALE + dx, (box.x + box.w - 3.5) * SCALE + dx
        y0, y1 = (plan.size[1] - box.y - box.h + 3.5) * SCALE + dy, (plan.size[1] - box.y - 3.5) * SCALE + dy
        patch = flat[max(0, int(y0)) : max(0, int(y1)), max(0, int(x0)) : max(0, int(x1))]
        paper = float(np.percentile(patch, 90)) if patch.size else 255.0
        found[(box.row, box.step)] = bool(patch.size and (patch < paper - 70).mean() > 0.02)
    return found


def _share_unexplained(
    inked: npt.NDArray[np.bool_],
    centres: npt.NDArray[np.float64],
    offsets: npt.NDArray[np.float64],
    filled: npt.NDArray[np.float64],
    reach: float,
) -> npt.NDArray[np.float64]:
    """Each bubble's share of its samples (at its centre plus `offsets`) that are inked, leaving
    out those within `reach` of a filled bubble's centre (`filled`): its overrun explains them."""
    import numpy as np

    if not len(filled):
        return np.asarray(inked.mean(axis=1), dtype="float64")
    pts = centres[:, None, None, :] + offsets[None, :, None, :]
    # bubbles x samples x filled bubbles: a few million numbers on the fullest page
    explained = (np.hypot(*np.moveaxis(pts - filled[None, None, :, :], -1, 0)) < reach).any(axis=2)
    counted = (~explained).sum(axis=1)
    share = np.where(counted > 0, (inked & ~explained).sum(axis=1) / np.maximum(counted, 1), 0.0)
    return np.asarray(share, dtype="float64")


def _offsets(inner: float, outer: float) -> npt.NDArray[np.float64]:
    import numpy as np

    n = int(outer) + 1
    ys, xs = np.mgrid[-n : n + 1, -n : n + 1]
    d = np.hypot(xs, ys)
    keep = (d >= inner) & (d <= outer)
    return np.column_stack([xs[keep], ys[keep]]).astype("float64")


def _sample(
    flat: npt.NDArray[np.uint8], centres: npt.NDArray[np.float64], offsets: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """The grey levels at each centre plus each offset, shape (centres, offsets)."""
    import numpy as np

    pts = np.rint(centres[:, None, :] + offsets[None, :, :]).astype(np.int64)
    xs = np.clip(pts[..., 0], 0, flat.shape[1] - 1)
    ys = np.clip(pts[..., 1], 0, flat.shape[0] - 1)
    return flat[ys, xs].astype("float64")
