"""Each group of bubbles found where it really lies on a straightened page. The corner markers
put the page right at its edges; a page not quite flat under a phone, or curled in a scanner's
lid, stands off inside by a millimetre or two, which would put a bubble's ring where its inside
is measured. So each step's six bubbles, and each line of a row's other bubbles, are moved to
where their printed rings are darkest against the paper in and round them, within `REACH_MM`.
A step whose rings cannot be seen (all its bubbles filled), and every line of bubbles beside
words, takes the move of the nearest step that could be."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kitgen.orders.sheetplan import PagePlan
from kitgen.scan.locate import SCALE

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

REACH_MM = 2.1
"""How far a group may stand off from where the corners put it."""
STEP_MM = 0.3
"""The moves tried, this far apart each way."""
RIM_POINTS = 24
WEAK = 0.25
NUDGE = 2
"""A bubble whose own ring is seen may stand this many steps off its group."""
"""A group whose best ring match is under this share of the page's usual is matched by its neighbours."""


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
    any group stood off further than `REACH_MM` (the page is too bent to read)."""
    import numpy as np

    centres: npt.NDArray[np.float64] = np.array([(b.x, plan.size[1] - b.y) for b in plan.bubbles], float) * SCALE
    if not len(centres):
        return centres, False
    r = plan.layout.bubble / 2 * SCALE
    angles = np.linspace(0, 2 * np.pi, RIM_POINTS, endpoint=False)
    circle = np.column_stack([np.cos(angles), np.sin(angles)])
    span = int(round(REACH_MM / STEP_MM))
    shifts = np.array([(dx, dy) for dy in range(-span, span + 1) for dx in range(-span, span + 1)], float)
    shifts *= STEP_MM / 25.4 * 72 * SCALE
    light = flat.astype(np.float32)

    def dark(points: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        xs = np.clip(np.rint(points[..., 0]).astype(np.int64), 0, flat.shape[1] - 1)
        ys = np.clip(np.rint(points[..., 1]).astype(np.int64), 0, flat.shape[0] - 1)
        found: npt.NDArray[np.float64] = (255.0 - light[ys, xs]).astype(np.float64)
        return found

    # (bubbles, shifts, rim points): the rim, and the paper just inside and just outside it
    at = centres[:, None, None, :] + shifts[None, :, None, :]
    rim = dark(at + circle[None, None, :, :] * r).mean(axis=2)
    inner = dark(at + circle[None, None, :, :] * (r * 0.55)).mean(axis=2)
    outer = dark(at + circle[None, None, :, :] * (r + 3.5)).mean(axis=2)
    score = rim - np.maximum(inner, outer)
    keys = group_keys(plan)
    groups: dict[tuple[str, str, int, float], list[int]] = {}
    for k, key in enumerate(keys):
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
    moved = centres.copy()
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
        for k in members:  # each bubble whose own ring is seen, within a step or two of its group
            near = [
                (dy + ey + span) * (2 * span + 1) + (dx + ex + span)
                for ey in range(-NUDGE, NUDGE + 1)
                for ex in range(-NUDGE, NUDGE + 1)
                if abs(dx + ex) <= span and abs(dy + ey) <= span
            ]
            own = max(near, key=lambda j: score[k, j])
            moved[k] += shifts[own if score[k, own] >= WEAK * usual else pick]
    return moved, bent
