"""Each group of bubbles found where it really lies on a straightened page. The corner markers
put the page right at its edges; a page not quite flat under a phone, or curled in a scanner's
lid, stands off inside by a millimetre or two, which would put a bubble's ring where its inside
is measured. So each step's six bubbles, and each line of a row's other bubbles, are moved to
where their printed rings are darkest against the paper in and round them, within `REACH_MM`.
A step whose rings cannot be seen (all its bubbles filled) takes the move of the nearest step
that could be; a line of bubbles beside words takes, bubble by bubble, the moves of the step
bubbles nearest it, weighted by nearness, before its own rings are looked for."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kitgen.orders.sheetplan import PagePlan
from kitgen.scan.locate import SCALE

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

REACH_MM = 2.4
"""How far a group may stand off from where the corners put it."""
COARSE_MM = 0.6
"""A group's moves tried, this far apart each way."""
STEP_MM = 0.2
"""A bubble's own moves tried round its group's, this far apart."""
RIM_POINTS = 16
WEAK = 0.25
NUDGE = 1
"""A bubble whose own ring is seen may stand this many of its steps beyond its group's half step."""
"""A group whose best ring match is under this share of the page's usual is matched by its neighbours."""


NEAREST = 4
"""The step bubbles whose moves a line's bubble takes, weighted by nearness."""
LINE_MM = 35.0
"""A line of bubbles is matched in stretches this long: a page bends along a line too."""


def group_keys(plan: PagePlan) -> list[tuple[str, str, int, float]]:
    """Each bubble's group: its step's (row, 'step', step), or its stretch of a line's (row,
    'line', stretch, y)."""
    stretch = LINE_MM / 25.4 * 72
    return [
        (b.row, "step", b.step, 0.0) if b.part == "step" else (b.row, "line", int(b.x // stretch), round(b.y, 1))
        for b in plan.bubbles
    ]


def registered(flat: npt.NDArray[np.uint8], plan: PagePlan) -> tuple[npt.NDArray[np.float64], bool]:
    """Each bubble's centre in pixels of `flat` where its group's rings are found, and whether
    any group stood off further than `REACH_MM` (the page is too bent to read). Groups are moved
    in steps of `COARSE_MM`, then each bubble by `STEP_MM` round its group's move."""
    import numpy as np

    centres: npt.NDArray[np.float64] = (
        np.array([(b.x, plan.size[1] - b.y) for b in plan.bubbles], float).reshape(-1, 2) * SCALE
    )
    if not len(centres):
        return centres, False
    pixel = 72 / 25.4 * SCALE
    span = int(round(REACH_MM / COARSE_MM))
    coarse = (
        np.array([(dx, dy) for dy in range(-span, span + 1) for dx in range(-span, span + 1)], float)
        * COARSE_MM
        * pixel
    )
    from kitgen.scan.images import opencv

    # the coarse search on the page blurred: a ring's thin stroke, spread to a millimetre, is met
    # by moves this far apart, and small print meets no ring
    soft = opencv().GaussianBlur(flat, (0, 0), COARSE_MM / 2 * pixel)
    score = _rings(soft, centres, coarse[None, :, :], plan.layout.bubble / 2 * SCALE)
    groups: dict[tuple[str, str, int, float], list[int]] = {}
    for k, key in enumerate(group_keys(plan)):
        groups.setdefault(key, []).append(k)
    best: dict[tuple[str, str, int, float], tuple[int, float]] = {}
    for key, members in groups.items():
        total = score[members].sum(axis=0)
        pick = int(np.argmax(total))
        best[key] = (pick, float(total[pick]) / len(members))
    usual = float(np.median([s for _, s in best.values()]))
    strong = {key: pick for key, (pick, s) in best.items() if s >= WEAK * usual}
    # a step's six rings in a small hexagon are the surest match; a line's bubbles stand beside
    # words whose letters a ring can be matched to, so they move as the nearest steps moved
    anchors = {key: pick for key, pick in strong.items() if key[1] == "step"} or strong
    middles = {key: centres[members].mean(axis=0) for key, members in groups.items()}
    base = np.zeros_like(centres)
    bent = False
    for key, members in groups.items():
        if key in anchors:
            pick = anchors[key]
        elif anchors:
            pick = anchors[min(anchors, key=lambda other: float(np.hypot(*(middles[other] - middles[key]))))]
        else:
            continue
        dx, dy = (pick % (2 * span + 1)) - span, (pick // (2 * span + 1)) - span
        bent |= max(abs(dx), abs(dy)) == span
        base[members] = coarse[pick]
    # each bubble whose own ring is seen, moved finely round its group's move
    reach = int(COARSE_MM / 2 / STEP_MM) + NUDGE
    fine = (
        np.array([(dx, dy) for dy in range(-reach, reach + 1) for dx in range(-reach, reach + 1)], float)
        * STEP_MM
        * pixel
    )
    r = plan.layout.bubble / 2 * SCALE

    def finely(
        at: npt.NDArray[np.float64], base: npt.NDArray[np.float64]
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.bool_]]:
        """The bubbles at `at` moved round `base`, each to where its own ring is seen (else `base`)."""
        near = base[:, None, :] + fine[None, :, :]
        own = _rings(flat, at, near, r)
        pick_own = own.argmax(axis=1)
        seen = own[np.arange(len(at)), pick_own] >= WEAK * usual
        chosen = np.where(seen, pick_own, len(fine) // 2)
        return near[np.arange(len(at)), chosen], seen

    moved, seen = finely(centres, base)
    # a page bends between its steps too: a line's bubble takes the moves of the step bubbles
    # nearest it, weighted by nearness, as found finely, then its own ring's
    steps = np.array([b.part == "step" for b in plan.bubbles]) & seen
    lines = np.array([b.part != "step" for b in plan.bubbles])
    if steps.sum() >= NEAREST and lines.any():
        gap = np.hypot(*(centres[lines][:, None, :] - centres[steps][None, :, :]).transpose(2, 0, 1))
        nearest = np.argsort(gap, axis=1)[:, :NEAREST]
        weight = 1.0 / np.maximum(np.take_along_axis(gap, nearest, axis=1), 1.0) ** 2
        guess = (moved[steps][nearest] * weight[:, :, None]).sum(axis=1) / weight.sum(axis=1)[:, None]
        moved[lines] = finely(centres[lines], guess)[0]
    return centres + moved, bent


def _rings(
    flat: npt.NDArray[np.uint8], centres: npt.NDArray[np.float64], shifts: npt.NDArray[np.float64], r: float
) -> npt.NDArray[np.float32]:
    """How well a printed ring of radius `r` stands at each centre moved by each of its shifts
    (shape (1 or bubbles, shifts, 2)): the rim's darkness over the paper's just inside and outside it."""
    import numpy as np

    angles = np.linspace(0, 2 * np.pi, RIM_POINTS, endpoint=False)
    circle = np.column_stack([np.cos(angles), np.sin(angles)]).astype(np.float32)
    at = (centres[:, None, :] + shifts).astype(np.float32)[:, :, None, :]
    high = np.array([flat.shape[1] - 1, flat.shape[0] - 1], np.int32)

    def dark(radius: float) -> npt.NDArray[np.float32]:
        pts = np.clip(np.rint(at + circle * radius).astype(np.int32), 0, high)
        grey: npt.NDArray[np.float32] = flat[pts[..., 1], pts[..., 0]].mean(axis=2, dtype=np.float32)
        return 255.0 - grey

    # a filled bubble, darker inside than on its rim, says nothing of where it lies: it votes 0,
    # never against the place its empty neighbours agree on
    found: npt.NDArray[np.float32] = np.maximum(dark(r) - np.maximum(dark(r * 0.55), dark(r + 3.5)), 0.0)
    return found
