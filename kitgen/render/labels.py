"""Where the map's names go: each label tries places round its symbol (below, right, left, above,
the corners, then further out on a short leader line) and takes the one that covers least of
what is already there: other labels and symbols (never), hex ids, rail, rivers, roads.

Pure geometry in page points; `MapArt` says what is where and draws the result.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
import shapely

Box = tuple[float, float, float, float]


def meets(a: Box, b: Box) -> bool:
    """Whether two boxes (x0, y0, x1, y1) share more than an edge."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


"""x0, y0, x1, y1 in points."""
Points = npt.NDArray[np.float64]

SIDES = ("below", "right", "left", "above", "below-right", "below-left", "above-right", "above-left")
"""Round a symbol, in the order of preference."""
SIDE_COST = dict(zip(SIDES, (0.0, 4.0, 6.0, 9.0, 12.0, 14.0, 16.0, 18.0), strict=True)) | {
    "below-slid": 8.0,
    "above-slid": 13.0,
}
RINGS = 4
"""Candidate distances: next to the symbol, then three steps further out on a leader line."""

FORBIDDEN = 1e4
"""Per square point of a label on another label, a symbol or off the map."""
AWAY = 0.5
"""Per square point of a label outside the hex it names: a name across a hexside reads as the
neighbour's (issue 44: Mechetinskaia in 4220 was labelled in 4320)."""


@dataclass(frozen=True)
class Want:
    """A label to place: its size, and the symbol it names (its centre and the box round it)."""

    key: str
    width: float
    height: float
    x: float
    y: float
    around: Box
    radius: float
    """Of the symbol proper (a port's anchor lies in `around`, not in this): leaders start on it."""
    home: shapely.Polygon | None = None
    """The hex the label names, where it should stand: each square point of it outside costs."""


@dataclass(frozen=True)
class Placed:
    key: str
    box: Box
    side: str
    leader: tuple[tuple[float, float], tuple[float, float]] | None = None
    """From the symbol's edge to the label, where the label stands off."""
    cost: float = 0.0


@dataclass
class Obstacles:
    """What a label should not cover, each kind with its price per square point (boxes) or per
    point of length (lines)."""

    areas: list[tuple[npt.NDArray[np.object_], float]] = field(default_factory=list)
    lines: list[tuple[npt.NDArray[np.object_], float]] = field(default_factory=list)

    def add_boxes(self, boxes: Sequence[Box], price: float) -> None:
        if boxes:
            self.areas.append((shapely.box(*np.array(boxes, dtype=float).T), price))

    def add_shapes(self, shapes: Sequence[shapely.Polygon], price: float) -> None:
        if shapes:
            self.areas.append((np.array(shapes, dtype=object), price))

    def add_lines(self, lines: Sequence[Points], price: float) -> None:
        geometries = [shapely.LineString(line) for line in lines if len(line) > 1]
        if geometries:  # a quarter of a point off changes no price, and drops most of a curve's points
            self.lines.append((shapely.simplify(np.array(geometries, dtype=object), 0.25), price))

    def trees(self) -> list[tuple[shapely.STRtree, npt.NDArray[np.object_], float, bool]]:
        found = [(shapely.STRtree(g), g, price, True) for g, price in self.areas]
        return found + [(shapely.STRtree(g), g, price, False) for g, price in self.lines]


def candidates(want: Want, gap: float, step: float) -> list[tuple[str, int, Box]]:
    """(side, ring, box) for every place the label may go, in the order of preference."""
    w, h, x, y = want.width, want.height, want.x, want.y
    sx0, sy0, sx1, sy1 = want.around
    found = []
    for ring in range(RINGS):
        d = gap + ring * step
        for side in SIDES:
            if side == "below":
                box = (x - w / 2, sy0 - d - h, x + w / 2, sy0 - d)
            elif side == "above":
                box = (x - w / 2, sy1 + d, x + w / 2, sy1 + d + h)
            elif side == "right":
                box = (sx1 + d, y - h / 2, sx1 + d + w, y + h / 2)
            elif side == "left":
                box = (sx0 - d - w, y - h / 2, sx0 - d, y + h / 2)
            else:  # a corner: diagonally off the symbol's corner
                e = gap * 0.5 + ring * step * 0.7
                left = sx1 + e if side.endswith("right") else sx0 - e - w
                bottom = sy0 - e - h if side.startswith("below") else sy1 + e
                box = (left, bottom, left + w, bottom + h)
            found.append((side, ring, box))
            if side in ("below", "above") and ring == 0:  # a long name slid along under (or over) its dot
                for shift in (-w / 3, w / 3):
                    found.append((side + "-slid", ring, (box[0] + shift, box[1], box[2] + shift, box[3])))
    return found


def _overlap_areas(cands: Points, placed: Points, pad: float) -> Points:
    """Area each candidate box shares with the placed boxes (grown by pad), summed: numpy over
    all pairs at once, since placed labels change as labels go down."""
    if not len(placed):
        return np.zeros(len(cands))
    a, b = cands[:, None, :], placed[None, :, :]
    w = np.minimum(a[..., 2], b[..., 2] + pad) - np.maximum(a[..., 0], b[..., 0] - pad)
    h = np.minimum(a[..., 3], b[..., 3] + pad) - np.maximum(a[..., 1], b[..., 1] - pad)
    return np.asarray((np.clip(w, 0, None) * np.clip(h, 0, None)).sum(axis=1), dtype=float)


def place_labels(
    wants: Sequence[Want],
    obstacles: Obstacles,
    *,
    frame: Box,
    symbols: Sequence[Box],
    gap: float,
    step: float,
    pad: float,
    leader_cost: float,
) -> list[Placed]:
    """Each label in turn (in the order given: the most important first) where it costs least;
    a label already placed is an obstacle to the rest. Deterministic: ties go to the earlier
    candidate."""
    trees = obstacles.trees()
    symbol_boxes = np.array(symbols, dtype=float).reshape(-1, 4)
    fx0, fy0, fx1, fy1 = frame
    placed: list[Placed] = []
    placed_boxes = np.zeros((0, 4))
    for want in wants:
        options = candidates(want, gap, step)
        corners = np.array([box for _, _, box in options], dtype=float)
        polys = shapely.box(*corners.T)
        cost = np.array([SIDE_COST[side] + ring * leader_cost for side, ring, _ in options])
        for tree, geometries, price, is_box in trees:
            i, j = tree.query(polys, predicate="intersects")
            if len(i):
                shared = shapely.intersection(polys[i], geometries[j])
                amount = shapely.area(shared) if is_box else shapely.length(shared)
                cost += price * np.bincount(i, weights=amount, minlength=len(options))
        if want.home is not None:  # only the candidates not wholly in it have any of it outside
            out = ~shapely.within(polys, want.home)
            cost[out] += AWAY * (shapely.area(polys[out]) - shapely.area(shapely.intersection(polys[out], want.home)))
        cost += FORBIDDEN * _overlap_areas(corners, placed_boxes, pad)
        cost += FORBIDDEN * _overlap_areas(corners, symbol_boxes, pad / 2)
        inside_w = np.clip(np.minimum(corners[:, 2], fx1) - np.maximum(corners[:, 0], fx0), 0, None)
        inside_h = np.clip(np.minimum(corners[:, 3], fy1) - np.maximum(corners[:, 1], fy0), 0, None)
        cost += FORBIDDEN * (want.width * want.height - inside_w * inside_h)
        best = int(np.argmin(cost))
        side, ring, box = options[best]
        placed.append(Placed(want.key, box, side, _leader(want, box) if ring else None, float(cost[best])))
        placed_boxes = np.vstack([placed_boxes, corners[best]])
    return placed


def _leader(want: Want, box: Box) -> tuple[tuple[float, float], tuple[float, float]]:
    """A line from the symbol's edge to the nearest point of the label's box."""
    x0, y0, x1, y1 = box
    end = np.array([min(max(want.x, x0), x1), min(max(want.y, y0), y1)])
    centre = np.array([want.x, want.y])
    direction = end - centre
    start = centre + direction / max(float(np.linalg.norm(direction)), 1e-9) * want.radius
    return (float(start[0]), float(start[1])), (float(end[0]), float(end[1]))
