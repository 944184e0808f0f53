"""The map projection: a Lambert conformal conic fitted to the scenario's box, in kilometres."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from kitgen.model.geography import MapData

if TYPE_CHECKING:
    import pyproj

LONLAT = "+proj=longlat +datum=WGS84 +no_defs"


@cache
def _transformer(source: str, target: str) -> pyproj.Transformer:
    """One transformer a pair of projections for the process: PROJ takes milliseconds to make
    one (its database read), and a map's build or drawing projects many times."""
    import pyproj  # only where a map is built or drawn: a campaign's load reads the kept map

    return pyproj.Transformer.from_crs(source, target, always_xy=True)


@dataclass(frozen=True)
class MapProjection:
    """lon/lat <-> projected km for one map."""

    proj: str

    @classmethod
    def for_map(cls, data: MapData) -> MapProjection:
        e, p = data.extent, data.projection
        if e is None or p is None:
            raise ValueError("a map given hex by hex has no projection")
        lat1, lat2 = p.standard_parallels
        lat0, lon0 = (e.south + e.north) / 2, (e.west + e.east) / 2
        return cls(
            f"+proj=lcc +lat_1={lat1:g} +lat_2={lat2:g} +lat_0={lat0:g} +lon_0={lon0:g} "
            "+x_0=0 +y_0=0 +ellps=WGS84 +units=km +no_defs"
        )

    @property
    def _forward(self) -> pyproj.Transformer:
        return _transformer(LONLAT, self.proj)

    @property
    def _inverse(self) -> pyproj.Transformer:
        return _transformer(self.proj, LONLAT)

    def forward(self, lonlat: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """(n, 2) lon/lat degrees to (n, 2) projected km."""
        if len(lonlat) == 0:
            return np.zeros((0, 2))
        x, y = self._forward.transform(lonlat[:, 0], lonlat[:, 1])
        return np.column_stack([x, y])

    def inverse(self, xy: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """(n, 2) projected km to (n, 2) lon/lat degrees."""
        if len(xy) == 0:
            return np.zeros((0, 2))
        lon, lat = self._inverse.transform(xy[:, 0], xy[:, 1])
        return np.column_stack([lon, lat])

    def box(self, data: MapData) -> tuple[float, float, float, float]:
        """(left, bottom, right, top): the projected rectangle through the midpoints of the box's edges.

        Its west and east sides cross the box's west and east meridians at the middle latitude,
        its north and south sides the north and south parallels at the middle meridian.
        """
        e = data.extent
        if e is None:
            raise ValueError("a map given hex by hex has no extent")
        lat, lon = (e.south + e.north) / 2, (e.west + e.east) / 2
        xy = self.forward(np.array([[e.west, lat], [lon, e.south], [e.east, lat], [lon, e.north]]))
        return float(xy[0, 0]), float(xy[1, 1]), float(xy[2, 0]), float(xy[3, 1])
