"""Flat-topped hex grid arithmetic: ids, centres, corners, neighbours, point to hex.

Columns run west to east and rows north to south, both from 1 (RULES-NOTES); the hex id is
`CCRR`, or wider when the grid has more than 99 columns or rows. Even-numbered columns sit
half a hex lower than odd ones, as on GDW and SPI maps. Positions are projected kilometres
with y pointing north. A grid made by `covering` fills a rectangle (the map's frame) with
hexes, the outer ones cut by the frame, as the half hexes along a printed map's edges.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

SQRT3 = math.sqrt(3.0)

# Axial neighbour steps (dq, dr) for flat-topped hexes, clockwise from north.
DIRECTIONS = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
DIRECTION_NAMES = ("N", "NE", "SE", "S", "SW", "NW")


@dataclass(frozen=True)
class HexGrid:
    """`columns` x `rows` hexes of `size` km across the flats; (left, top) is the top-left corner
    of hex 0101's bounding box; `frame` (left, bottom, right, top) the map's edges, if cut."""

    size: float
    columns: int
    rows: int
    left: float
    top: float
    frame: tuple[float, float, float, float] | None = None

    @classmethod
    def covering(cls, size: float, left: float, bottom: float, right: float, top: float) -> HexGrid:
        """The hexes that cover the rectangle: column 1's centres half a side in from its west
        edge, the odd columns' first centres on its north edge, and as many more as it takes."""
        side = size / SQRT3
        columns = max(1, math.ceil((right - left - side) / (1.5 * side) - 1e-9) + 1)
        rows = max(1, math.ceil((top - bottom) / size + 0.5 - 1e-9))
        return cls(size, columns, rows, left - side / 2, top + size / 2, (left, bottom, right, top))

    @property
    def side(self) -> float:
        return self.size / SQRT3

    @property
    def count(self) -> int:
        return self.columns * self.rows

    @property
    def digits(self) -> int:
        return max(2, len(str(max(self.columns, self.rows))))

    @property
    def edges(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the map: the frame, or the box of all hexes."""
        return self.frame if self.frame is not None else self.bounds

    def in_frame(self, points: npt.NDArray[np.float64]) -> npt.NDArray[np.bool_]:
        left, bottom, right, top = self.edges
        x, y = points[:, 0], points[:, 1]
        return np.asarray((x >= left) & (x <= right) & (y >= bottom) & (y <= top))

    @property
    def bounds(self) -> tuple[float, float, float, float]:
        """(left, bottom, right, top) of the box holding every hex."""
        width = self.side * (1.5 * self.columns + 0.5)
        height = self.size * (self.rows + (0.5 if self.columns > 1 else 0.0))
        return self.left, self.top - height, self.left + width, self.top

    def hex_id(self, col: int, row: int) -> str:
        """`CCRR` for 1-based column and row."""
        return f"{col:0{self.digits}d}{row:0{self.digits}d}"

    def parse_id(self, hex_id: str) -> tuple[int, int] | None:
        d = self.digits
        if len(hex_id) != 2 * d or not (hex_id.isascii() and hex_id.isdigit()):
            return None
        col, row = int(hex_id[:d]), int(hex_id[d:])
        return (col, row) if self.contains(col, row) else None

    def contains(self, col: int, row: int) -> bool:
        return 1 <= col <= self.columns and 1 <= row <= self.rows

    def cells(self) -> Iterator[tuple[int, int]]:
        """Every (col, row), column by column: the order of hex indices."""
        for col in range(1, self.columns + 1):
            for row in range(1, self.rows + 1):
                yield col, row

    def index(self, col: int, row: int) -> int:
        return (col - 1) * self.rows + (row - 1)

    def centre(self, col: int, row: int) -> tuple[float, float]:
        x = self.left + self.side + 1.5 * self.side * (col - 1)
        y = self.top - self.size / 2 - self.size * (row - 1) - (self.size / 2 if col % 2 == 0 else 0.0)
        return x, y

    def centres(self) -> npt.NDArray[np.float64]:
        """Centres of all hexes in index order, shape (count, 2)."""
        cols, rows = np.meshgrid(np.arange(1, self.columns + 1), np.arange(1, self.rows + 1), indexing="ij")
        col, row = cols.ravel(), rows.ravel()
        x = self.left + self.side + 1.5 * self.side * (col - 1)
        y = self.top - self.size / 2 - self.size * (row - 1) - np.where(col % 2 == 0, self.size / 2, 0.0)
        return np.column_stack([x, y])

    def corners(self, centres: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The six corners of hexes at `centres`, shape (n, 7, 2): rings closed, counter-clockwise from east."""
        angles = np.radians(np.arange(0, 420, 60))
        offsets = np.column_stack([np.cos(angles), np.sin(angles)]) * self.side
        return centres[:, None, :] + offsets[None, :, :]

    def neighbours(self, col: int, row: int) -> list[tuple[int, int]]:
        """Neighbours on the grid, clockwise from north."""
        q, r = _axial(col, row)
        found = []
        for dq, dr in DIRECTIONS:
            c, w = _offset(q + dq, r + dr)
            if self.contains(c, w):
                found.append((c, w))
        return found

    def distance(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """Hexes between two cells, counting the steps from one to the other."""
        qa, ra = _axial(*a)
        qb, rb = _axial(*b)
        dq, dr = qb - qa, rb - ra
        return (abs(dq) + abs(dr) + abs(dq + dr)) // 2

    def direction(self, a: tuple[int, int], b: tuple[int, int]) -> str | None:
        """Which side of hex `a` touches hex `b` (N, NE, SE, S, SW, NW), or None if not adjacent."""
        qa, ra = _axial(*a)
        qb, rb = _axial(*b)
        step = (qb - qa, rb - ra)
        return DIRECTION_NAMES[DIRECTIONS.index(step)] if step in DIRECTIONS else None

    def toward(self, cell: tuple[int, int], name: str) -> tuple[int, int] | None:
        """The hex beside `cell` across its side `name` (N, NE, SE, S, SW, NW), or None off the grid."""
        q, r = _axial(*cell)
        dq, dr = DIRECTIONS[DIRECTION_NAMES.index(name)]
        found = _offset(q + dq, r + dr)
        return found if self.contains(*found) else None

    def locate(self, points: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
        """(col, row) of the hex holding each point, shape (n, 2); may fall outside the grid."""
        u = points[:, 0] - (self.left + self.side)
        v = (self.top - self.size / 2) - points[:, 1]
        q = (2.0 / 3.0 * u) / self.side
        r = (-1.0 / 3.0 * u + SQRT3 / 3.0 * v) / self.side
        qi, ri = _cube_round(q, r)
        col = qi + 1
        row = ri + (qi - (qi & 1)) // 2 + 1
        return np.column_stack([col, row]).astype(np.int64)

    def inside(self, cells: npt.NDArray[np.int64]) -> npt.NDArray[np.bool_]:
        return (cells[:, 0] >= 1) & (cells[:, 0] <= self.columns) & (cells[:, 1] >= 1) & (cells[:, 1] <= self.rows)

    def place(self, points: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.bool_]]:
        """(col, row) of the hex holding each point (`locate`), and whether the point is on the
        map: in a hex of the grid and inside the frame, which cuts the outer hexes."""
        cells = self.locate(points)
        return cells, self.inside(cells) & self.in_frame(points)


def _axial(col: int, row: int) -> tuple[int, int]:
    q = col - 1
    return q, (row - 1) - (q - (q & 1)) // 2


def _offset(q: int, r: int) -> tuple[int, int]:
    return q + 1, r + (q - (q & 1)) // 2 + 1


def _cube_round(
    q: npt.NDArray[np.float64], r: npt.NDArray[np.float64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    s = -q - r
    rq, rr, rs = np.round(q), np.round(r), np.round(s)
    dq, dr, ds = np.abs(rq - q), np.abs(rr - r), np.abs(rs - s)
    fix_q = (dq > dr) & (dq > ds)
    fix_r = ~fix_q & (dr > ds)
    rq = np.where(fix_q, -rr - rs, rq)
    rr = np.where(fix_r, -rq - rs, rr)
    return rq.astype(np.int64), rr.astype(np.int64)
