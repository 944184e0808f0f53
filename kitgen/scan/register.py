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
CLEAR = 0.25
"""A bubble's own ring is seen where it matches at least this share of the page's median ring."""
BESIDE_MM = 6.0
"""A bubble whose ring is not seen (filled, or a ring drawn round it) moves as the bubble beside
it moved whose ring is, when one stands this near: a page bends little over a bubble's width."""
NEAR_MM = 40.0
"""A line's bubbles move as the hexagons within this reach moved; a line farther from any (a report
form's count of stands, a roll sheet's totals) is matched by its own rings, which nothing there
mimics (its numbers stand clear above them)."""
LINE_MM = 35.0
"""A line of bubbles is matched in stretches this long: a page bends along a line too."""


def group_keys(plan: PagePlan) -> list[tuple[str, str, int, float]]:
    """Each bubble's group: its hexagon's (row, 'step', step: an order's step, a beaten unit's
    fate; or row, 'toward', 0: the side an order faces, drawn as a step is), or its stretch of a
    line's (row, 'line', stretch, y)."""
    stretch = LINE_MM / 25.4 * 72
    levels: dict[str, set[float]] = {}
    for b in plan.bubbles:
        if b.part == "toward":
            levels.setdefault(b.row, set()).add(round(b.y, 1))
    return [
        (b.row, "step", b.step, 0.0)
        if b.step
        else (b.row, "toward", 0, 0.0)
        if b.part == "toward" and len(levels[b.row]) > 1
        else (b.row, "line", int(b.x // stretch), round(b.y, 1))
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
    keys = group_keys(plan)
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
    anchors = {key: pick for key, pick in strong.items() if key[1] in ("step", "toward")} or strong
    middles = {key: centres[members].mean(axis=0) for key, members in groups.items()}
    base = np.zeros_like(centres)
    own = np.zeros_like(centres)
    """Each line's own move, where its rings are seen (several of them, clear of the page's edge)."""
    bent = False
    near = NEAR_MM * pixel

    def apart(a: tuple[str, str, int, float], b: tuple[str, str, int, float]) -> float:
        return float(np.hypot(*(middles[a] - middles[b])))

    for key, members in groups.items():
        if key in anchors:
            pick = anchors[key]
        elif anchors:
            closest = min(anchors, key=lambda other: apart(other, key))
            if apart(closest, key) <= near:
                pick = anchors[closest]
            elif key in strong and len(members) > 1:  # its own rings: a lone bubble's may match a word's edge
                pick = strong[key]
            else:  # all its rings filled, or a lone bubble: as the nearest line whose rings are seen, its own first
                lines_seen = [g for g in strong if len(groups[g]) > 1] or list(strong)
                same = [g for g in lines_seen if abs(middles[g][1] - middles[key][1]) < pixel] or lines_seen
                pick = strong[min(same, key=lambda other: apart(other, key))]
        else:
            continue
        dx, dy = (pick % (2 * span + 1)) - span, (pick // (2 * span + 1)) - span
        bent |= max(abs(dx), abs(dy)) == span
        base[members] = own[members] = coarse[pick]
        if key not in anchors and key in strong and len(members) > 1:
            mine = strong[key]
            if max(abs((mine % (2 * span + 1)) - span), abs((mine // (2 * span + 1)) - span)) < span:
                own[members] = coarse[mine]
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
        """The bubbles at `at` moved round `base`, each to where its own ring is seen (else `base`):
        a ring as clear as the page's printed rings are, not the faint match a ring drawn round a
        bubble (which hides its own) leaves at the edge of the search."""
        near = base[:, None, :] + fine[None, :, :]
        own = _rings(flat, at, near, r)
        pick_own = own.argmax(axis=1)
        best = own[np.arange(len(at)), pick_own]
        seen = (best >= WEAK * usual) & (best >= CLEAR * typical)
        chosen = np.where(seen, pick_own, len(fine) // 2)
        return near[np.arange(len(at)), chosen], seen

    typical = float(np.median(_rings(flat, centres, (base[:, None, :] + fine[None, :, :]), r).max(axis=1)))

    moved, seen = finely(centres, base)
    # a page bends between its steps too: a line's bubble takes the moves of the step bubbles
    # nearest it, weighted by nearness, as found finely, then its own ring's; or its line's own
    # move, then its ring's: whichever finds the clearer ring (a report form's line stands far
    # from any hexagon)
    # a bubble of a hexagon of six (a step's, or the side an order faces, drawn as a step is)
    hexagon = np.array([key[1] in ("step", "toward") for key in keys], dtype=bool)
    steps = hexagon & seen
    lines = ~hexagon
    if lines.any():
        at = centres[lines]
        tried = [(moved[lines], seen[lines]), finely(at, own[lines])]
        if steps.sum() >= NEAREST:
            gap = np.hypot(*(at[:, None, :] - centres[steps][None, :, :]).transpose(2, 0, 1))
            nearest = np.argsort(gap, axis=1)[:, :NEAREST]
            weight = 1.0 / np.maximum(np.take_along_axis(gap, nearest, axis=1), 1.0) ** 2
            guess = (moved[steps][nearest] * weight[:, :, None]).sum(axis=1) / weight.sum(axis=1)[:, None]
            by_steps = finely(at, guess)
            tried.append(by_steps)
            fallback = np.where((gap.min(axis=1) <= near)[:, None], by_steps[0], moved[lines])
        else:
            fallback = moved[lines]
        # a ring seen at none of them (filled, or a ring drawn round it): where the steps near it say
        clear = np.stack([np.where(s, _rings(flat, at, f[:, None, :], r)[:, 0], -1.0) for f, s in tried])
        clearest = np.stack([f for f, _ in tried])[clear.argmax(axis=0), np.arange(len(at))]
        found = clear.max(axis=0) >= 0
        ours = np.where(found[:, None], clearest, fallback)
        # ... or better, as its next bubble moved whose ring is seen, on its line a pitch away
        if found.any():
            apart_px = np.hypot(*(at[:, None, :] - at[found][None, :, :]).transpose(2, 0, 1))
            nearest_seen = apart_px.argmin(axis=1)
            beside = (~found) & (apart_px.min(axis=1) <= BESIDE_MM * pixel)
            ours[beside] = ours[found][nearest_seen[beside]]
        moved[lines] = ours
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
