"""The built hex map as plain values, and its JSON form (the export, and the cache's format)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from kitgen.mapping.hexgrid import HexGrid

SCHEMA_VERSION = 1
SEA = "sea"
NO_PROJECTION = "none"
"""The projection of a map given hex by hex: it has no geography to place points by."""


@dataclass(frozen=True)
class Hex:
    id: str
    col: int
    row: int
    x_km: float
    y_km: float
    lat: float
    lon: float
    terrain: str
    """A terrain of movement.yaml, or 'sea'."""
    land_share: float
    coastal: bool
    port: bool
    rail: bool
    road: bool
    towns: tuple[str, ...] = ()


@dataclass(frozen=True)
class Hexside:
    """A side between two adjacent land hexes (ids in sorted order) that a river runs along,
    or that open water cuts (a strait, a liman, a bay between two shores)."""

    hexes: tuple[str, str]
    direction: str
    """Which side of hexes[0] it is: N, NE, SE, S, SW or NW."""
    river: str | None
    river_class: str | None
    bridge: bool
    """A railway or road crosses it."""
    sea: bool = False
    """Open water lies between the two hexes: no land move or supply trace across, unless bridged."""


@dataclass(frozen=True)
class Link:
    """A rail line or road from one hex to an adjacent one."""

    hexes: tuple[str, str]
    line: str


@dataclass(frozen=True)
class Ferry:
    """A.1: a ferry across a major-river hexside, and the units it takes across per turn."""

    hexes: tuple[str, str]
    units: int


@dataclass(frozen=True)
class PlacedPoint:
    """A railway or map point inside the map's frame, and the hex its projection puts it in."""

    name: str
    """As spelt in railways.yaml or map.yaml."""
    hex: str


@dataclass(frozen=True)
class SupplySourceHex:
    faction: str
    hex: str
    kind: str
    """'rail_exit' or 'town'."""
    edge: str | None = None
    town: str | None = None
    while_held: bool = False


@dataclass(frozen=True)
class HexMap:
    scenario: str
    hex_size_km: float
    projection: str
    columns: int
    rows: int
    left_km: float
    top_km: float
    frame_km: tuple[float, float, float, float]
    """(left, bottom, right, top): the map's edges, which cut the outer hexes."""
    hexes: tuple[Hex, ...]
    hexsides: tuple[Hexside, ...]
    rail: tuple[Link, ...]
    roads: tuple[Link, ...]
    rail_exits: tuple[tuple[str, str], ...]
    """(hex, edge) where a railway leaves the map."""
    supply_sources: tuple[SupplySourceHex, ...]
    conditional_sources: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Per faction, the sources that are not fixed hexes: 'ports with_friendly_ship', 'depots captured'."""
    ferries: tuple[Ferry, ...] = ()
    points: tuple[PlacedPoint, ...] = ()
    """Railway and map points, placed when the map was built: a load reads them here rather
    than importing PROJ and projecting them again (a twentieth of a second a command)."""

    @property
    def grid(self) -> HexGrid:
        return HexGrid(self.hex_size_km, self.columns, self.rows, self.left_km, self.top_km, self.frame_km)

    def by_id(self) -> dict[str, Hex]:
        return {h.id: h for h in self.hexes}

    def features(self) -> set[str]:
        """What the map has, for a kit that prints that and nothing else (its key, its forms):
        its terrain ids, and 'sea_side' (open water between shores), 'coast' (a land hex the
        coast tints), 'coastal', 'major' and 'crossable' (river hexsides), 'bridge', 'rail',
        'road', 'ferry', 'port', 'source' (a supply-source town) and 'edge' (a rail exit)."""
        has = {h.terrain for h in self.hexes}
        has |= {x.river_class for x in self.hexsides if x.river_class in ("major", "crossable")}
        found = {
            "sea_side": any(x.sea for x in self.hexsides),
            "coast": any(h.coastal or h.land_share < 1 for h in self.hexes if h.terrain != "sea"),
            "coastal": any(h.coastal for h in self.hexes),
            "bridge": any(x.bridge for x in self.hexsides),
            "rail": bool(self.rail),
            "road": bool(self.roads),
            "ferry": bool(self.ferries),
            "port": any(h.port for h in self.hexes),
            "source": any(x.kind == "town" for x in self.supply_sources),
            "edge": any(x.kind == "rail_exit" for x in self.supply_sources),
        }
        return has | {key for key, present in found.items() if present}

    def town_hex(self, town: str) -> Hex | None:
        return next((h for h in self.hexes if town in h.towns), None)

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out = {"schema_version": SCHEMA_VERSION, **out}
        out["rail_exits"] = [{"hex": h, "edge": e} for h, e in self.rail_exits]
        return out

    @classmethod
    def from_json(cls, data: Any) -> HexMap:
        if not isinstance(data, dict) or data.get("schema_version") != SCHEMA_VERSION:
            raise ValueError("unknown map schema version")
        return cls(
            scenario=data["scenario"],
            hex_size_km=data["hex_size_km"],
            projection=data["projection"],
            columns=data["columns"],
            rows=data["rows"],
            left_km=data["left_km"],
            top_km=data["top_km"],
            frame_km=tuple(data["frame_km"]),
            hexes=tuple(Hex(**{**h, "towns": tuple(h["towns"])}) for h in data["hexes"]),
            hexsides=tuple(Hexside(**{**s, "hexes": tuple(s["hexes"])}) for s in data["hexsides"]),
            rail=tuple(Link(tuple(k["hexes"]), k["line"]) for k in data["rail"]),
            roads=tuple(Link(tuple(k["hexes"]), k["line"]) for k in data["roads"]),
            rail_exits=tuple((e["hex"], e["edge"]) for e in data["rail_exits"]),
            supply_sources=tuple(SupplySourceHex(**s) for s in data["supply_sources"]),
            conditional_sources={k: tuple(v) for k, v in data["conditional_sources"].items()},
            ferries=tuple(Ferry(tuple(f["hexes"]), f["units"]) for f in data.get("ferries", [])),
            points=tuple(PlacedPoint(p["name"], p["hex"]) for p in data["points"]),
        )
