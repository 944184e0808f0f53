"""Cross-checks between the files of a scenario: names that must agree, numbers that must add up.

Each check runs on whichever files validated, so that one broken file does not hide the
problems of the others.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from kitgen.errors import Problem
from kitgen.model import rules as m
from kitgen.model.forces import Cards, SetUp, UnitSpec
from kitgen.model.geography import FeatureCollection, MapData
from kitgen.model.scenario import CommanderTable, RailNet, ScenarioMeta, TownTable, name_key
from kitgen.rules.dice import Dice
from kitgen.validation import dotted
from kitgen.yamlsource import Loc, Located

SECTION = re.compile(r"(II\.)?[A-E](\.\d+)*")


class _Report:
    def __init__(self, docs: dict[str, Located]) -> None:
        self.docs = docs
        self.problems: list[Problem] = []

    def add(self, file: str, loc: Loc, message: str, *, key: bool = False) -> None:
        where = dotted(loc)
        self.problems.append(self.docs[file].problem(loc, f"{where}: {message}" if where else message, key=key))

    def unique(self, file: str, entries: Iterable[tuple[Loc, str]], what: str) -> None:
        seen: dict[str, str] = {}
        for loc, name in entries:
            k = name_key(name)
            if k in seen:
                self.add(file, loc, f"{what} '{name}' is given twice (first as '{seen[k]}')")
            else:
                seen[k] = name

    def known(self, file: str, loc: Loc, value: str, allowed: Iterable[str], what: str, *, key: bool = False) -> None:
        allowed = list(allowed)
        if value not in allowed:
            self.add(file, loc, f"unknown {what} '{value}'; expected one of: {', '.join(allowed)}", key=key)

    def keys_exactly(self, file: str, loc: Loc, given: Iterable[str], expected: list[str], what: str) -> None:
        given = list(given)
        for k in given:
            self.known(file, loc + (k,), k, expected, what, key=True)
        missing = [k for k in expected if k not in given]
        if missing:
            self.add(file, loc, f"{what} missing: {', '.join(missing)}")

    def faces(self, file: str, loc: Loc, values: Iterable[int], dice: str) -> None:
        d = Dice.parse(dice)
        for v in values:
            if not d.low <= v <= d.high:
                self.add(file, loc, f"found {v}, but {dice} only rolls {d.low} to {d.high}")


def check_scenario(parts: dict[str, BaseModel], docs: dict[str, Located]) -> list[Problem]:
    """Every disagreement between the files that validated, each at its line and column."""
    r = _Report(docs)
    get: Any = parts.get
    meta: ScenarioMeta | None = get("scenario.yaml")
    movement: m.MovementRules | None = get("movement.yaml")
    transport: m.TransportRules | None = get("transport.yaml")
    rulings = _rulings(r, parts)
    if meta:
        r.unique("scenario.yaml", ((("factions", i, "id"), f.id) for i, f in enumerate(meta.factions)), "faction")
        factions = [f.id for f in meta.factions]
        scoring = [f.id for f in meta.factions if f.scores_vp]
        if towns := get("towns.yaml"):
            _check_towns(r, towns, scoring)
        if commanders := get("commanders.yaml"):
            _check_commanders(r, commanders, factions)
        if victory := get("victory.yaml"):
            _check_victory(r, victory, factions, scoring)
        if partisans := get("partisans.yaml"):
            r.known("partisans.yaml", ("artillery_cap_faction",), partisans.artillery_cap_faction, factions, "faction")
    if movement:
        _check_movement(r, movement, rulings)
        if transport:
            _check_transport(r, transport, movement, rulings)
    if transport and (supply := get("supply.yaml")):
        stands = [k.id for k in transport.stands]
        for i, a in enumerate(supply.ammo):
            r.known("supply.yaml", ("ammo", i, "stand"), a.stand, stands, "stand kind")
    if railways := get("railways.yaml"):
        _check_railways(r, railways, get("towns.yaml"))
    if map_data := get("map.yaml"):
        _check_map(r, map_data, parts)
    if setup := get("setup.yaml"):
        _check_setup(r, "setup.yaml", setup, parts)
    if cards := get("cards.yaml"):
        _check_cards(r, cards, parts)
    if events := get("events.yaml"):
        r.faces("events.yaml", ("draw_on",), events.draw_on, events.roll)
    if partisans := get("partisans.yaml"):
        r.faces("partisans.yaml", ("ambush", "succeeds_at"), [partisans.ambush.succeeds_at], partisans.ambush.roll)
    if command := get("command.yaml"):
        for key in ("adjacent", "alone"):
            r.faces("command.yaml", ("leaderless", key), [getattr(command.leaderless, key)], command.roll)
    if battle := get("battle.yaml"):
        for side in ("winner", "loser"):
            part = getattr(battle, side)
            if part.permanent_pct + part.return_pct != 100:
                r.add(
                    "battle.yaml",
                    (side,),
                    f"permanent_pct {part.permanent_pct} + return_pct {part.return_pct} must make 100",
                )
    return r.problems


def _names(table: str, entries: Iterable[Any]) -> Iterable[tuple[Loc, str]]:
    for i, e in enumerate(entries):
        if e is None:  # an entry that failed validation (reported already)
            continue
        yield (table, i, "name"), e.name
        if e.seed_name and name_key(e.seed_name) != name_key(e.name):
            yield (table, i, "seed_name"), e.seed_name
        for j, alias in enumerate(getattr(e, "aliases", [])):
            yield (table, i, "aliases", j), alias


def _check_towns(r: _Report, table: TownTable, scoring: list[str]) -> None:
    r.unique("towns.yaml", _names("towns", table.towns), "town name")
    for i, t in enumerate(table.towns):
        if t is not None:
            r.keys_exactly("towns.yaml", ("towns", i, "vp"), t.vp, scoring, "faction")


def _check_railways(r: _Report, net: RailNet, towns: TownTable | None) -> None:
    f = "railways.yaml"
    town_names = {name_key(n) for t in (towns.towns if towns else []) if t is not None for n in t.names()}
    points = {name_key(p.name) for p in net.points}
    for i, p in enumerate(net.points):
        if name_key(p.name) in town_names:
            r.add(f, ("points", i, "name"), f"'{p.name}' is a town of towns.yaml; a point must have another name")
    r.unique(f, ((("points", i, "name"), p.name) for i, p in enumerate(net.points)), "point")
    known = town_names | points
    for i, line in enumerate(net.lines):
        keys = [name_key(st) for st in line.stations]
        if towns is not None and None not in towns.towns:  # else a broken town would cascade here
            for j, station in enumerate(line.stations):
                if keys[j] not in known:
                    r.add(
                        f,
                        ("lines", i, "stations", j),
                        f"unknown station '{station}'; expected a town of towns.yaml or a point of this file",
                    )
        for j, bridge in enumerate(line.bridges):
            a, b = (name_key(n) for n in bridge.between)
            if not any({a, b} == {x, y} for x, y in zip(keys, keys[1:], strict=False)):
                r.add(
                    f,
                    ("lines", i, "bridges", j, "between"),
                    f"{bridge.between[0]} and {bridge.between[1]} are not consecutive stations of this line",
                )


def _check_map(r: _Report, data: MapData, parts: dict[str, BaseModel]) -> None:
    f = "map.yaml"
    get: Any = parts.get
    towns: TownTable | None = get("towns.yaml")
    railways: RailNet | None = get("railways.yaml")
    movement: m.MovementRules | None = get("movement.yaml")
    meta: ScenarioMeta | None = get("scenario.yaml")
    town_names = {name_key(n) for t in (towns.towns if towns else []) if t is not None for n in t.names()}
    rail_points = {name_key(p.name) for p in (railways.points if railways else [])}
    for i, p in enumerate(data.points):
        if name_key(p.name) in town_names | rail_points:
            r.add(f, ("points", i, "name"), f"'{p.name}' is already a town or railway point; use that name in roads")
    r.unique(f, ((("points", i, "name"), p.name) for i, p in enumerate(data.points)), "point")
    complete = towns is not None and None not in towns.towns and railways is not None
    if complete:
        places = town_names | rail_points | {name_key(p.name) for p in data.points}
        for i, road in enumerate(data.roads):
            for j, name in enumerate(road.through):
                if name_key(name) not in places:
                    r.add(
                        f,
                        ("roads", i, "through", j),
                        f"unknown place '{name}'; expected a town, a railway point or a point of this file",
                    )
    if movement:
        terrains = [t.id for t in movement.terrain]
        r.known(f, ("default_terrain",), data.default_terrain, terrains, "terrain")
        for i, area in enumerate(data.terrain_areas):
            r.known(f, ("terrain_areas", i, "terrain"), area.terrain, terrains, "terrain")
    if meta:
        factions = [x.id for x in meta.factions]
        for x in factions:
            if not data.supply_sources.get(x):
                where = ("supply_sources", x) if x in data.supply_sources else ("supply_sources",)
                r.add(f, where, f"no supply sources for {x}; expected at least one for each faction (B.3)")
        for faction, sources in data.supply_sources.items():
            r.known(f, ("supply_sources", faction), faction, factions, "faction", key=True)
            for i, source in enumerate(sources):
                named = {"town": source.town, **source.limits()}
                for key, town_name in named.items():
                    if (
                        town_name is not None
                        and towns is not None
                        and None not in towns.towns
                        and name_key(town_name) not in town_names
                    ):
                        r.add(
                            f,
                            ("supply_sources", faction, i, key),
                            f"unknown town '{town_name}'; expected a town of towns.yaml",
                        )
    for name in ("coast", "rivers"):
        _check_layer(r, f"geo/{name}.geojson", get(f"geo/{name}.geojson"), name)
    courses: FeatureCollection | None = get("geo/rivers.geojson")
    classes = {"major": data.rivers.major, "crossable": data.rivers.crossable}
    in_class = {name_key(n): c for c, names in classes.items() for n in names}
    for c, names in classes.items():
        for j, name in enumerate(names):
            other = in_class[name_key(name)]
            if other != c:
                r.add(f, ("rivers", c, j), f"'{name}' is both {other} and {c}; a river has one class")
            if courses is not None and name_key(name) not in {name_key(x.properties.name) for x in courses.features}:
                r.add(f, ("rivers", c, j), f"'{name}' has no course in geo/rivers.geojson")
    if courses is not None:
        r.unique(
            "geo/rivers.geojson",
            ((("features", i, "properties", "name"), x.properties.name) for i, x in enumerate(courses.features)),
            "river",
        )
        for i, feature in enumerate(courses.features):
            if name_key(feature.properties.name) not in in_class:
                r.add(
                    "geo/rivers.geojson",
                    ("features", i, "properties", "name"),
                    f"river '{feature.properties.name}' is in no class; expected it under rivers: major or crossable in map.yaml",
                )


class _Known:
    """The names a forces file may use, from whichever other files validated (None: not checked)."""

    def __init__(self, parts: dict[str, BaseModel]) -> None:
        get: Any = parts.get
        movement: m.MovementRules | None = get("movement.yaml")
        transport: m.TransportRules | None = get("transport.yaml")
        meta: ScenarioMeta | None = get("scenario.yaml")
        towns: TownTable | None = get("towns.yaml")
        railways: RailNet | None = get("railways.yaml")
        map_data: MapData | None = get("map.yaml")
        commanders: CommanderTable | None = get("commanders.yaml")
        self.unit_types = [u.id for u in movement.unit_types if not u.rail_only] if movement else None
        self.stands = [k.id for k in transport.stands] if transport else None
        self.factions = [f.id for f in meta.factions] if meta else None
        # a broken or twice-named row is reported in its own file; checking names against it would cascade
        good_towns = towns is not None and None not in towns.towns and _distinct(towns.towns)
        self.towns = [t.name for t in towns.towns] if towns and good_towns else None
        self.places: set[str] | None = None
        if towns and good_towns and railways and map_data:
            self.places = {name_key(n) for t in towns.towns for n in t.names()}
            self.places |= {name_key(p.name) for p in railways.points}
            self.places |= {name_key(p.name) for p in map_data.points}
        self.commanders = None
        if commanders is not None and None not in commanders.commanders and _distinct(commanders.commanders):
            self.commanders = {name_key(n): c.faction for c in commanders.commanders for n in c.names()}

    def spec(self, r: _Report, file: str, loc: Loc, spec: UnitSpec) -> None:
        if self.unit_types is not None:
            r.known(file, loc + ("type",), spec.type, self.unit_types, "unit type")
        if self.stands is not None:
            for kind in spec.stands:
                r.known(file, loc + ("stands", kind), kind, self.stands, "stand kind", key=True)

    def place(self, r: _Report, file: str, loc: Loc, name: str | None) -> None:
        if name is not None and self.places is not None and name_key(name) not in self.places:
            r.add(file, loc, f"unknown place '{name}'; expected a town, a railway point or a map point")

    def faction(self, r: _Report, file: str, loc: Loc, faction: str | None, *, all_ok: bool = False) -> None:
        if faction is not None and self.factions is not None:
            r.known(file, loc, faction, self.factions + (["all"] if all_ok else []), "faction")


def check_setup(parts: dict[str, BaseModel], docs: dict[str, Located], setup: SetUp, file: str) -> list[Problem]:
    """A set-up (the scenario's or a campaign's) against the scenario's files."""
    r = _Report(docs)
    _check_setup(r, file, setup, parts)
    return r.problems


def _distinct(rows: Iterable[Any]) -> bool:
    """No name (or other name) of one row is a name of another."""
    keys = [key for row in rows for key in {name_key(n) for n in row.names()}]
    return len(keys) == len(set(keys))


def _check_setup(r: _Report, f: str, setup: SetUp, parts: dict[str, BaseModel]) -> None:
    k = _Known(parts)
    ids = [(("units", i, "id"), u.id) for i, u in enumerate(setup.units)]
    ids += [(("trains", i, "id"), t.id) for i, t in enumerate(setup.trains)]
    ids += [(("ships", i, "id"), x.id) for i, x in enumerate(setup.ships)]
    r.unique(f, ids, "id")
    with_commander: dict[str, str] = {}
    for i, u in enumerate(setup.units):
        k.spec(r, f, ("units", i), u)
        k.faction(r, f, ("units", i, "faction"), u.faction)
        k.place(r, f, ("units", i, "at"), u.at)
        if u.commander and k.commanders is not None:
            faction = k.commanders.get(name_key(u.commander))
            if faction is None:
                r.add(
                    f, ("units", i, "commander"), f"unknown commander '{u.commander}'; expected one of commanders.yaml"
                )
            elif faction != u.faction and faction in (k.factions or [faction]):  # else commanders.yaml says
                r.add(f, ("units", i, "commander"), f"{u.commander} commands for the {faction}, not the {u.faction}")
            elif name_key(u.commander) in with_commander:
                r.add(
                    f,
                    ("units", i, "commander"),
                    f"{u.commander} is already with {with_commander[name_key(u.commander)]}",
                )
            else:
                with_commander[name_key(u.commander)] = u.id
    for table in ("trains", "ships", "depots"):
        for i, x in enumerate(getattr(setup, table)):
            k.faction(r, f, (table, i, "faction"), x.faction)
            k.place(r, f, (table, i, "at"), x.at)
    for i, name in enumerate(setup.destroyed_track):
        k.place(r, f, ("destroyed_track", i), name)
    for i, alliance in enumerate(setup.alliances):
        for j, faction in enumerate(alliance.factions):
            k.faction(r, f, ("alliances", i, "factions", j), faction)
        if len(set(alliance.factions)) < 2:
            r.add(f, ("alliances", i, "factions"), "an alliance is of two different factions")
    if k.towns is not None:
        r.keys_exactly(f, ("owners",), setup.owners, k.towns, "town")
        for town, owner in setup.owners.items():
            if owner != "none":
                k.faction(r, f, ("owners", town), owner)


def _check_cards(r: _Report, cards: Cards, parts: dict[str, BaseModel]) -> None:
    f = "cards.yaml"
    k = _Known(parts)
    r.unique(f, ((("events", i, "id"), c.id) for i, c in enumerate(cards.events)), "event card")
    for i, card in enumerate(cards.events):
        for j, e in enumerate(card.effects):
            loc = ("events", i, "effects", j)
            k.faction(r, f, loc + ("faction",), e.faction, all_ok=True)
            for n, faction in enumerate(e.factions):
                k.faction(r, f, loc + ("factions", n), faction)
            k.place(r, f, loc + ("at",), e.at)
            for n, spec in enumerate(e.units):
                k.spec(r, f, loc + ("units", n), spec)
            if e.stand is not None and k.stands is not None:
                r.known(f, loc + ("stand",), e.stand, k.stands, "stand kind")
            if e.unit_types and k.unit_types is not None:
                for n, t in enumerate(e.unit_types):
                    r.known(f, loc + ("unit_types", n), t, k.unit_types, "unit type")
    for faction, pile in cards.piles.items():
        k.faction(r, f, ("piles", faction), faction)
        r.unique(f, ((("piles", faction, i, "id"), x.id) for i, x in enumerate(pile)), "slip")
        for i, slip in enumerate(pile):
            for n, spec in enumerate(slip.units):
                k.spec(r, f, ("piles", faction, i, "units", n), spec)
            if k.stands is not None:
                for kind in slip.replacements:
                    r.known(f, ("piles", faction, i, "replacements", kind), kind, k.stands, "stand kind", key=True)
            if not slip.units and not slip.replacements:
                r.add(f, ("piles", faction, i), "a slip brings units, replacements or both; found neither")
    rows = sorted(enumerate(cards.makhnovist_strength), key=lambda x: x[1].low)
    for (_, a), (j, b) in zip(rows, rows[1:], strict=False):
        if b.low != a.high + 1:
            gap = "overlap" if b.low <= a.high else "gap"
            r.add(f, ("makhnovist_strength", j, "low"), f"rows {a.low}..{a.high} and {b.low}..{b.high} leave a {gap}")
    for i, row in enumerate(cards.makhnovist_strength):
        if row.low > row.high:
            r.add(f, ("makhnovist_strength", i, "low"), f"low {row.low} is above high {row.high}")
        for n, spec in enumerate(row.units):
            k.spec(r, f, ("makhnovist_strength", i, "units", n), spec)


def _check_layer(r: _Report, file: str, layer: FeatureCollection | None, kind: str) -> None:
    if layer is None:
        return
    expected = ("Polygon", "MultiPolygon") if kind == "coast" else ("LineString",)
    for i, feature in enumerate(layer.features):
        if feature.geometry.type not in expected:
            r.add(
                file,
                ("features", i, "geometry", "type"),
                f"found {feature.geometry.type}, expected {' or '.join(expected)}",
            )


def _check_commanders(r: _Report, table: CommanderTable, factions: list[str]) -> None:
    r.unique("commanders.yaml", _names("commanders", table.commanders), "commander")
    for i, c in enumerate(table.commanders):
        if c is not None:
            r.known("commanders.yaml", ("commanders", i, "faction"), c.faction, factions, "faction")


def _check_victory(r: _Report, v: m.VictoryRules, factions: list[str], scoring: list[str]) -> None:
    f = "victory.yaml"
    r.keys_exactly(f, ("thresholds",), v.thresholds, scoring, "faction")
    for fid in v.bonus:
        r.known(f, ("bonus", fid), fid, scoring, "faction", key=True)
    chart = v.reinforcement_chart
    r.keys_exactly(f, ("reinforcement_chart", "draws"), chart.draws, scoring, "faction")
    faces = Dice.parse(chart.roll)
    for fid, draws in chart.draws.items():
        if faces.count != 1 or len(draws) != faces.sides:
            r.add(
                f,
                ("reinforcement_chart", "draws", fid),
                f"found {len(draws)} entries, expected one for each face of {chart.roll}",
            )
    r.known(f, ("makhnovist_strength", "faction"), v.makhnovist_strength.faction, factions, "faction")


def _check_movement(r: _Report, mv: m.MovementRules, rulings: list[str] | None) -> None:
    f = "movement.yaml"
    terrain = [t.id for t in mv.terrain]
    r.unique(f, ((("terrain", i, "id"), t.id) for i, t in enumerate(mv.terrain)), "terrain")
    r.unique(f, ((("unit_types", i, "id"), u.id) for i, u in enumerate(mv.unit_types)), "unit type")
    tabled = [u.id for u in mv.unit_types if u.moves_as is None]
    for i, u in enumerate(mv.unit_types):
        loc: Loc = ("unit_types", i)
        if u.moves_as is not None:
            if u.mp is not None or u.cost is not None or u.crossable_river is not None or u.rail_only:
                r.add(
                    f,
                    loc,
                    f"unit type '{u.id}' moves as '{u.moves_as}': it takes no mp, cost, crossable_river or rail_only",
                )
            r.known(f, loc + ("moves_as",), u.moves_as, [t for t in tabled if t != u.id], "unit type to move as")
        elif u.mp is None:
            r.add(f, loc, f"unit type '{u.id}' needs mp (or moves_as another type)")
        elif u.rail_only:
            if u.cost is not None or u.crossable_river is not None:
                r.add(f, loc, f"unit type '{u.id}' is rail_only, so it takes no cost or crossable_river")
        else:
            if u.cost is None:
                r.add(f, loc, f"unit type '{u.id}' needs cost: one entry per terrain ({', '.join(terrain)})")
            else:
                r.keys_exactly(f, loc + ("cost",), u.cost, terrain, "terrain")
            if u.crossable_river is None:
                r.add(f, loc, f"unit type '{u.id}' needs crossable_river: the extra MP (or 'p*')")
        _check_source(r, f, loc + ("source",), u.source, rulings)
    types = [u.id for u in mv.unit_types]
    for i, b in enumerate(mv.breakdown):
        r.known(f, ("breakdown", i, "unit_type"), b.unit_type, types, "unit type")
        r.faces(f, ("breakdown", i, "fails_on"), b.fails_on, b.roll)
        _check_source(r, f, ("breakdown", i, "source"), b.source, rulings)


def _check_transport(r: _Report, t: m.TransportRules, mv: m.MovementRules, rulings: list[str] | None) -> None:
    f = "transport.yaml"
    types = [u.id for u in mv.unit_types]
    rail = [u.id for u in mv.unit_types if u.rail_only]
    r.unique(f, ((("stands", i, "id"), k.id) for i, k in enumerate(t.stands)), "stand kind")
    r.known(f, ("train", "unit_type"), t.train.unit_type, rail, "rail_only unit type")
    for key in ("repair_unit_types", "wreck_unit_types"):
        for i, u in enumerate(getattr(t.track, key)):
            r.known(f, ("track", key, i), u, types, "unit type")
    for i, k in enumerate(t.stands):
        _check_source(r, f, ("stands", i, "source"), k.source, rulings)


def _rulings(r: _Report, parts: dict[str, BaseModel]) -> list[str] | None:
    """Ids of every ruling in the scenario, each unique; None while a file of rulings is broken."""
    from kitgen.loader import SCENARIO_FILES

    ids: list[str] = []
    for file, part in parts.items():
        for i, ruling in enumerate(getattr(part, "rulings", [])):
            if ruling.id in ids:
                r.add(file, ("rulings", i, "id"), f"ruling '{ruling.id}' is given twice")
            ids.append(ruling.id)
    with_rulings = [f for f, (_, model) in SCENARIO_FILES.items() if "rulings" in model.model_fields]
    return ids if all(f in parts for f in with_rulings) else None


def _check_source(r: _Report, file: str, loc: Loc, source: str, rulings: list[str] | None) -> None:
    """A source is a seed section (A, A.4, II.D.3) or `ruling:<id>` of a ruling in the scenario."""
    if source.startswith("ruling:"):
        if rulings is not None:
            r.known(file, loc, source.removeprefix("ruling:"), rulings, "ruling")
    elif not SECTION.fullmatch(source):
        r.add(file, loc, f"found '{source}', expected a seed section such as 'A', 'C.1' or 'II.D.3', or 'ruling:<id>'")
