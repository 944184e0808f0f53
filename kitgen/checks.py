"""Cross-checks between the files of a scenario: names that must agree, numbers that must add up.

Each check runs on whichever files validated, so that one broken file does not hide the
problems of the others.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from pydantic import BaseModel

from kitgen import messages as msg
from kitgen.errors import Problem
from kitgen.model import rules as m
from kitgen.model.base import Modifier
from kitgen.model.forces import Cards, SetUp, UnitSpec
from kitgen.model.geography import FeatureCollection, MapData
from kitgen.model.scenario import CommanderTable, RailNet, ScenarioMeta, TownTable, name_key
from kitgen.rules.dice import Dice
from kitgen.rules.partisans import AMBUSH_CONDITIONS, EVADE_CONDITIONS
from kitgen.rules.victory import STRENGTH_CONDITIONS
from kitgen.validation import dotted
from kitgen.yamlsource import Loc, Located

SECTION = re.compile(r"(II\.)?[A-E](\.\d+)*")

Twice = Callable[[str, str], msg.Msg]
"""A catalogue entry for a name given twice: (the name, its first spelling)."""
Unknown = Callable[[str, list[str]], msg.Msg]
"""A catalogue entry for a name not among the known ones: (the name, the known names)."""
Missing = Callable[[list[str], list[str]], msg.Msg]
"""A catalogue entry for keys left out: (the missing keys, every expected key)."""


class _Report:
    def __init__(self, docs: dict[str, Located]) -> None:
        self.docs = docs
        self.problems: list[Problem] = []

    def add(self, file: str, loc: Loc, message: msg.Msg, *, key: bool = False) -> None:
        self.problems.append(self.docs[file].problem(loc, message.within(dotted(loc)), key=key))

    def unique(self, file: str, entries: Iterable[tuple[Loc, str]], twice: Twice) -> None:
        seen: dict[str, str] = {}
        for loc, name in entries:
            k = name_key(name)
            if k in seen:
                self.add(file, loc, twice(name, seen[k]))
            else:
                seen[k] = name

    def known(
        self, file: str, loc: Loc, value: str, allowed: Iterable[str], unknown: Unknown, *, key: bool = False
    ) -> None:
        allowed = list(allowed)
        if value not in allowed:
            self.add(file, loc, unknown(value, allowed), key=key)

    def keys_exactly(
        self, file: str, loc: Loc, given: Iterable[str], expected: list[str], unknown: Unknown, missing: Missing
    ) -> None:
        given = list(given)
        for k in given:
            self.known(file, loc + (k,), k, expected, unknown, key=True)
        left_out = [k for k in expected if k not in given]
        if left_out:
            self.add(file, loc, missing(left_out, expected))

    def faces(self, file: str, loc: Loc, values: Iterable[int], dice: str) -> None:
        d = Dice.parse(dice)
        for v in values:
            if not d.low <= v <= d.high:
                self.add(file, loc, msg.check_roll_off_die(v, dice, d.low, d.high))


def check_scenario(parts: dict[str, BaseModel], docs: dict[str, Located]) -> list[Problem]:
    """Every disagreement between the files that validated, each at its line and column."""
    r = _Report(docs)
    get: Any = parts.get
    meta: ScenarioMeta | None = get("scenario.yaml")
    movement: m.MovementRules | None = get("movement.yaml")
    transport: m.TransportRules | None = get("transport.yaml")
    rulings = _rulings(r, parts)
    if meta:
        r.unique(
            "scenario.yaml",
            ((("factions", i, "id"), f.id) for i, f in enumerate(meta.factions)),
            msg.check_duplicate_faction,
        )
        factions = [f.id for f in meta.factions]
        scoring = [f.id for f in meta.factions if f.scores_vp]
        if towns := get("towns.yaml"):
            _check_towns(r, towns, scoring)
        if commanders := get("commanders.yaml"):
            _check_commanders(r, commanders, factions)
        if victory := get("victory.yaml"):
            _check_victory(r, victory, factions, scoring)
            _check_win(r, victory, meta, get("towns.yaml"))
        if (partisans := get("partisans.yaml")) and partisans.artillery_cap_faction != m.NO_FACTION:
            r.known(
                "partisans.yaml",
                ("artillery_cap_faction",),
                partisans.artillery_cap_faction,
                factions,
                msg.check_unknown_faction,
            )
    if movement:
        _check_movement(r, movement, rulings)
        if transport:
            _check_transport(r, transport, movement, rulings)
    if transport and (supply := get("supply.yaml")):
        stands = [k.id for k in transport.stands]
        for i, a in enumerate(supply.ammo):
            r.known("supply.yaml", ("ammo", i, "stand"), a.stand, stands, msg.check_unknown_stand_kind)
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
    if supply := get("supply.yaml"):
        cut = supply.depot_cutoff  # B.7: a roll at or under these, so each a face of the die
        for key in ("empties_on_first_use", "added_each_further_use"):
            r.faces("supply.yaml", ("depot_cutoff", key), [getattr(cut, key)], cut.roll)
    if partisans := get("partisans.yaml"):
        r.faces("partisans.yaml", ("ambush", "succeeds_at"), [partisans.ambush.succeeds_at], partisans.ambush.roll)
        for roll, judged in (("evade", EVADE_CONDITIONS), ("ambush", AMBUSH_CONDITIONS)):
            _check_modifiers(r, "partisans.yaml", (roll, "modifiers"), getattr(partisans, roll).modifiers, judged)
    if victory := get("victory.yaml"):
        strength = ("makhnovist_strength", "modifiers")
        _check_modifiers(r, "victory.yaml", strength, victory.makhnovist_strength.modifiers, STRENGTH_CONDITIONS)
    if command := get("command.yaml"):
        for key in ("adjacent", "alone"):
            r.faces("command.yaml", ("leaderless", key), [getattr(command.leaderless, key)], command.roll)
    if battle := get("battle.yaml"):
        for side in ("winner", "loser"):
            part = getattr(battle, side)
            if part.permanent_pct + part.return_pct != 100:
                r.add("battle.yaml", (side,), msg.check_losses_not_100(part.permanent_pct, part.return_pct))
    return r.problems


def _names(table: str, entries: Iterable[Any]) -> Iterable[tuple[Loc, str]]:
    for i, e in enumerate(entries):
        if e is None:  # an entry that failed validation (reported already)
            continue
        yield (table, i, "name"), e.name
        if e.seed_name and name_key(e.seed_name) != name_key(e.name):
            yield (table, i, "seed_name"), e.seed_name
        if getattr(e, "name_1919", None):
            yield (table, i, "name_1919"), e.name_1919
        for j, alias in enumerate(getattr(e, "aliases", [])):
            yield (table, i, "aliases", j), alias


def _check_towns(r: _Report, table: TownTable, scoring: list[str]) -> None:
    r.unique("towns.yaml", _names("towns", table.towns), msg.check_duplicate_town)
    for i, t in enumerate(table.towns):
        if t is not None:
            r.keys_exactly(
                "towns.yaml",
                ("towns", i, "vp"),
                t.vp,
                scoring,
                msg.check_unknown_scoring_faction,
                msg.check_missing_factions,
            )


def _check_railways(r: _Report, net: RailNet, towns: TownTable | None) -> None:
    f = "railways.yaml"
    spelt = [n for t in (towns.towns if towns else []) if t is not None for n in t.names()]
    town_names = {name_key(n) for n in spelt}
    points = {name_key(p.name) for p in net.points}
    for i, p in enumerate(net.points):
        if name_key(p.name) in town_names:
            r.add(f, ("points", i, "name"), msg.check_point_is_town(p.name))
    r.unique(f, ((("points", i, "name"), p.name) for i, p in enumerate(net.points)), msg.check_duplicate_point)
    known = town_names | points
    stations = spelt + [p.name for p in net.points]
    for i, line in enumerate(net.lines):
        keys = [name_key(st) for st in line.stations]
        if towns is not None and None not in towns.towns:  # else a broken town would cascade here
            for j, station in enumerate(line.stations):
                if keys[j] not in known:
                    r.add(f, ("lines", i, "stations", j), msg.check_unknown_station(station, stations))
        for j, bridge in enumerate(line.bridges):
            a, b = (name_key(n) for n in bridge.between)
            if not any({a, b} == {x, y} for x, y in zip(keys, keys[1:], strict=False)):
                r.add(
                    f,
                    ("lines", i, "bridges", j, "between"),
                    msg.check_bridge_not_consecutive(bridge.between[0], bridge.between[1]),
                )


def _check_map(r: _Report, data: MapData, parts: dict[str, BaseModel]) -> None:
    f = "map.yaml"
    get: Any = parts.get
    towns: TownTable | None = get("towns.yaml")
    railways: RailNet | None = get("railways.yaml")
    movement: m.MovementRules | None = get("movement.yaml")
    meta: ScenarioMeta | None = get("scenario.yaml")
    good_towns = [t for t in (towns.towns if towns else []) if t is not None]
    town_names = {name_key(n) for t in good_towns for n in t.names()}
    rail_points = {name_key(p.name) for p in (railways.points if railways else [])}
    for i, p in enumerate(data.points):
        if name_key(p.name) in town_names | rail_points:
            r.add(f, ("points", i, "name"), msg.check_map_point_taken(p.name))
    r.unique(f, ((("points", i, "name"), p.name) for i, p in enumerate(data.points)), msg.check_duplicate_point)
    complete = towns is not None and None not in towns.towns and railways is not None
    if complete:
        places = town_names | rail_points | {name_key(p.name) for p in data.points}
        spelt = [n for t in good_towns for n in t.names()]
        spelt += [p.name for p in (railways.points if railways else [])] + [p.name for p in data.points]
        for i, road in enumerate(data.roads):
            for j, name in enumerate(road.through):
                if name_key(name) not in places:
                    r.add(f, ("roads", i, "through", j), msg.check_unknown_place(name, spelt))
        for i, ferry in enumerate(data.ferries):
            for j, name in enumerate(ferry.between):
                if name_key(name) not in places:
                    r.add(f, ("ferries", i, "between", j), msg.check_unknown_place(name, spelt))
    if movement:
        terrains = [t.id for t in movement.terrain]
        r.known(f, ("default_terrain",), data.default_terrain, terrains, msg.check_unknown_terrain)
        for i, area in enumerate(data.terrain_areas):
            r.known(f, ("terrain_areas", i, "terrain"), area.terrain, terrains, msg.check_unknown_terrain)
    if meta and data.board is None:  # a board gives its sources hex by hex
        factions = [x.id for x in meta.factions]
        for x in factions:
            if not data.supply_sources.get(x):
                where = ("supply_sources", x) if x in data.supply_sources else ("supply_sources",)
                r.add(f, where, msg.check_no_supply_sources(x))
        for faction, sources in data.supply_sources.items():
            r.known(f, ("supply_sources", faction), faction, factions, msg.check_unknown_faction, key=True)
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
                            msg.check_unknown_town(
                                town_name, [t.name for t in good_towns], [n for t in good_towns for n in t.names()]
                            ),
                        )
    if data.board is not None:
        return  # a map given hex by hex reads no geography
    for name in ("coast", "rivers"):
        _check_layer(r, f"geo/{name}.geojson", get(f"geo/{name}.geojson"), name)
    courses: FeatureCollection | None = get("geo/rivers.geojson")
    classes = {"major": data.rivers.major, "crossable": data.rivers.crossable}
    in_class = {name_key(n): c for c, names in classes.items() for n in names}
    drawn = [x.properties.name for x in courses.features] if courses is not None else []
    for c, names in classes.items():
        for j, name in enumerate(names):
            other = in_class[name_key(name)]
            if other != c:
                r.add(f, ("rivers", c, j), msg.check_river_two_classes(name, other, c))
            if courses is not None and name_key(name) not in {name_key(x) for x in drawn}:
                r.add(f, ("rivers", c, j), msg.check_river_no_course(name, drawn))
    if courses is not None:
        r.unique(
            "geo/rivers.geojson",
            ((("features", i, "properties", "name"), x.properties.name) for i, x in enumerate(courses.features)),
            msg.check_duplicate_river,
        )
        for i, feature in enumerate(courses.features):
            if name_key(feature.properties.name) not in in_class:
                r.add(
                    "geo/rivers.geojson",
                    ("features", i, "properties", "name"),
                    msg.check_river_no_class(feature.properties.name),
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
        self.place_names: list[str] = []
        if towns and good_towns and railways and map_data:
            self.place_names = [n for t in towns.towns for n in t.names()]
            self.place_names += [p.name for p in railways.points] + [p.name for p in map_data.points]
            board = map_data.board.hexes.values() if map_data.board else ()
            self.place_names += [n for given in board for n in given.places]
            self.places = {name_key(n) for n in self.place_names}
        self.rivers: list[str] | None = None
        if map_data is not None:
            sides = map_data.board.sides if map_data.board else []
            named = [*map_data.rivers.major, *map_data.rivers.crossable, *(s.river for s in sides if s.river)]
            self.rivers = sorted({n for n in named}, key=name_key)
        self.commanders = None
        self.commander_names: list[str] = []
        self.other_commander_names: list[str] = []
        if commanders is not None and None not in commanders.commanders and _distinct(commanders.commanders):
            self.commanders = {name_key(n): c.faction for c in commanders.commanders for n in c.names()}
            self.commander_names = [c.name for c in commanders.commanders]
            self.other_commander_names = [n for c in commanders.commanders for n in c.names()]

    def spec(self, r: _Report, file: str, loc: Loc, spec: UnitSpec) -> None:
        if self.unit_types is not None:
            r.known(file, loc + ("type",), spec.type, self.unit_types, msg.check_unknown_unit_type)
        if self.stands is not None:
            for kind in spec.stands:
                r.known(file, loc + ("stands", kind), kind, self.stands, msg.check_unknown_stand_kind, key=True)

    def place(self, r: _Report, file: str, loc: Loc, name: str | None) -> None:
        if name is not None and self.places is not None and name_key(name) not in self.places:
            r.add(file, loc, msg.check_unknown_place(name, self.place_names))

    def faction(self, r: _Report, file: str, loc: Loc, faction: str | None, *, all_ok: bool = False) -> None:
        if faction is not None and self.factions is not None:
            r.known(file, loc, faction, self.factions + (["all"] if all_ok else []), msg.check_unknown_faction)


def check_setup(parts: dict[str, BaseModel], docs: dict[str, Located], setup: SetUp, file: str) -> list[Problem]:
    """A set-up (the scenario's or a campaign's) against the scenario's files."""
    r = _Report(docs)
    _check_setup(r, file, setup, parts)
    return r.problems


def _check_modifiers(r: _Report, file: str, loc: Loc, given: list[Modifier], judged: tuple[str, ...]) -> None:
    """A roll's modifiers are exactly the conditions kitgen judges for it: one left out would
    stop a turn that needs it, one more would never apply."""
    ids = [modifier.id for modifier in given]
    for i, found in enumerate(ids):
        if found not in judged:
            r.add(file, loc + (i, "id"), msg.check_unjudged_modifier(found, list(judged)))
    missing = [c for c in judged if c not in ids]
    if missing:
        r.add(file, loc, msg.check_missing_modifiers(missing))


def _distinct(rows: Iterable[Any]) -> bool:
    """No name (or other name) of one row is a name of another."""
    keys = [key for row in rows for key in {name_key(n) for n in row.names()}]
    return len(keys) == len(set(keys))


def _check_setup(r: _Report, f: str, setup: SetUp, parts: dict[str, BaseModel]) -> None:
    k = _Known(parts)
    ids = [(("units", i, "id"), u.id) for i, u in enumerate(setup.units)]
    ids += [(("trains", i, "id"), t.id) for i, t in enumerate(setup.trains)]
    ids += [(("ships", i, "id"), x.id) for i, x in enumerate(setup.ships)]
    r.unique(f, ids, msg.check_duplicate_id)
    unit_ids = [u.id for u in setup.units]
    for key in setup.unit_sources:
        if key not in unit_ids:
            r.add(f, ("unit_sources", key), msg.check_unknown_source_unit(key, unit_ids))
    with_commander: dict[str, str] = {}
    for i, u in enumerate(setup.units):
        k.spec(r, f, ("units", i), u)
        k.faction(r, f, ("units", i, "faction"), u.faction)
        k.place(r, f, ("units", i, "at"), u.at)
        if u.commander and k.commanders is not None:
            faction = k.commanders.get(name_key(u.commander))
            where = ("units", i, "commander")
            if faction is None:
                r.add(f, where, msg.check_unknown_commander(u.commander, k.commander_names, k.other_commander_names))
            elif faction != u.faction and faction in (k.factions or [faction]):  # else commanders.yaml says
                r.add(f, where, msg.check_commander_wrong_faction(u.commander, faction, u.faction))
            elif name_key(u.commander) in with_commander:
                r.add(f, where, msg.check_commander_twice(u.commander, with_commander[name_key(u.commander)]))
            else:
                with_commander[name_key(u.commander)] = u.id
    _check_posts(r, f, setup, {name_key(u.commander) for u in setup.units if u.commander})
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
            r.add(f, ("alliances", i, "factions"), msg.check_alliance_of_one(alliance.factions))
    if k.towns is not None:
        r.keys_exactly(f, ("owners",), setup.owners, k.towns, msg.check_unknown_town, msg.check_missing_towns)
        for town, owner in setup.owners.items():
            if owner != "none":
                k.faction(r, f, ("owners", town), owner)


def _day(date: str, *, last: bool) -> tuple[int, int, int]:
    """'1919-05-07' -> (1919, 5, 7); a month alone is its first day, or its last if `last`."""
    parts = [int(p) for p in date.split("-")]
    return (parts[0], parts[1], parts[2] if len(parts) == 3 else (31 if last else 1))


def _check_posts(r: _Report, f: str, setup: SetUp, placed: set[str]) -> None:
    """Each post belongs to a commander placed with a unit, and he held it on the start day
    (a month alone counts as any day of it)."""
    for name, post in setup.posts.items():
        if name_key(name) not in placed:
            names = [u.commander for u in setup.units if u.commander]
            r.add(f, ("posts", name), msg.check_post_unplaced(name, names))
        elif setup.start is not None:
            start = _day(setup.start, last=False)
            began = _day(post.since, last=False) <= start
            if not began or (post.until is not None and _day(post.until, last=True) < start):
                r.add(f, ("posts", name), msg.check_post_not_held(name, post.post, post.since, post.until, setup.start))


def _check_cards(r: _Report, cards: Cards, parts: dict[str, BaseModel]) -> None:
    f = "cards.yaml"
    k = _Known(parts)
    r.unique(f, ((("events", i, "id"), c.id) for i, c in enumerate(cards.events)), msg.check_duplicate_card)
    for i, card in enumerate(cards.events):
        for j, e in enumerate(card.effects):
            loc = ("events", i, "effects", j)
            k.faction(r, f, loc + ("faction",), e.faction, all_ok=True)
            for n, faction in enumerate(e.factions):
                k.faction(r, f, loc + ("factions", n), faction)
            k.place(r, f, loc + ("at",), e.at)
            if e.battles is not None:
                k.place(r, f, loc + ("battles", "near"), e.battles.near)
                along = e.battles.along
                if along is not None and k.rivers is not None and name_key(along) not in map(name_key, k.rivers):
                    r.add(f, loc + ("battles", "along"), msg.check_unknown_river(along, k.rivers))
            for n, spec in enumerate(e.units):
                k.spec(r, f, loc + ("units", n), spec)
            if e.stand is not None and k.stands is not None:
                r.known(f, loc + ("stand",), e.stand, k.stands, msg.check_unknown_stand_kind)
            if e.unit_types and k.unit_types is not None:
                for n, t in enumerate(e.unit_types):
                    r.known(f, loc + ("unit_types", n), t, k.unit_types, msg.check_unknown_unit_type)
    for faction, pile in cards.piles.items():
        k.faction(r, f, ("piles", faction), faction)
        r.unique(f, ((("piles", faction, i, "id"), x.id) for i, x in enumerate(pile)), msg.check_duplicate_slip)
        for i, slip in enumerate(pile):
            for n, spec in enumerate(slip.units):
                k.spec(r, f, ("piles", faction, i, "units", n), spec)
            if k.stands is not None:
                for kind in slip.replacements:
                    where = ("piles", faction, i, "replacements", kind)
                    r.known(f, where, kind, k.stands, msg.check_unknown_stand_kind, key=True)
            if not slip.units and not slip.replacements:
                r.add(f, ("piles", faction, i), msg.check_empty_slip())
    rows = sorted(enumerate(cards.makhnovist_strength), key=lambda x: x[1].low)
    for (_, a), (j, b) in zip(rows, rows[1:], strict=False):
        if b.low != a.high + 1:
            leave = msg.check_strength_overlap if b.low <= a.high else msg.check_strength_gap
            r.add(f, ("makhnovist_strength", j, "low"), leave(a.low, a.high, b.low, b.high))
    for i, row in enumerate(cards.makhnovist_strength):
        if row.low > row.high:
            r.add(f, ("makhnovist_strength", i, "low"), msg.check_low_above_high(row.low, row.high))
        for n, spec in enumerate(row.units):
            k.spec(r, f, ("makhnovist_strength", i, "units", n), spec)


def _check_layer(r: _Report, file: str, layer: FeatureCollection | None, kind: str) -> None:
    if layer is None:
        return
    expected = ["Polygon", "MultiPolygon"] if kind == "coast" else ["LineString"]
    for i, feature in enumerate(layer.features):
        if feature.geometry.type not in expected:
            r.add(file, ("features", i, "geometry", "type"), msg.check_geometry_type(feature.geometry.type, expected))


def _check_commanders(r: _Report, table: CommanderTable, factions: list[str]) -> None:
    r.unique("commanders.yaml", _names("commanders", table.commanders), msg.check_duplicate_commander)
    for i, c in enumerate(table.commanders):
        if c is not None:
            r.known("commanders.yaml", ("commanders", i, "faction"), c.faction, factions, msg.check_unknown_faction)


def _check_victory(r: _Report, v: m.VictoryRules, factions: list[str], scoring: list[str]) -> None:
    f = "victory.yaml"
    unknown, missing = msg.check_unknown_scoring_faction, msg.check_missing_factions
    r.keys_exactly(f, ("thresholds",), v.thresholds, scoring, unknown, missing)
    for fid in v.bonus:
        r.known(f, ("bonus", fid), fid, scoring, unknown, key=True)
    chart = v.reinforcement_chart
    r.keys_exactly(f, ("reinforcement_chart", "draws"), chart.draws, scoring, unknown, missing)
    faces = Dice.parse(chart.roll)
    for fid, draws in chart.draws.items():
        if faces.count != 1 or len(draws) != faces.sides:
            r.add(f, ("reinforcement_chart", "draws", fid), msg.check_chart_faces(len(draws), chart.roll))
    makhnovists = v.makhnovist_strength.faction
    if makhnovists != m.NO_FACTION:
        r.known(f, ("makhnovist_strength", "faction"), makhnovists, factions, msg.check_unknown_faction)


def _check_win(r: _Report, v: m.VictoryRules, meta: ScenarioMeta, towns: TownTable | None) -> None:
    """Each win condition names factions and towns of the scenario, and one judged at the last
    turn needs a scenario that has one."""
    f = "victory.yaml"
    factions = [x.id for x in meta.factions]
    scoring = [x.id for x in meta.factions if x.scores_vp]
    good = [t for t in (towns.towns if towns else []) if t is not None]
    known = {name_key(n) for t in good for n in t.names()} if towns is not None and None not in towns.towns else None
    for i, c in enumerate(v.win):
        loc: Loc = ("win", i)
        r.known(f, loc + ("faction",), c.faction, scoring if c.kind == "vp" else factions, _faction_check(c.kind))
        for j, town in enumerate(c.towns):
            if known is not None and name_key(town) not in known:
                names = [n for t in good for n in t.names()]
                r.add(f, loc + ("towns", j), msg.check_unknown_town(town, [t.name for t in good], names))
        for j, enemy in enumerate(c.enemies):
            if enemy == c.faction:
                r.add(f, loc + ("enemies", j), msg.check_win_against_itself(enemy))
            else:
                r.known(f, loc + ("enemies", j), enemy, factions, msg.check_unknown_faction)
        if c.when == "last_turn" and meta.turns.last is None:
            r.add(f, loc + ("when",) if "when" in c.model_fields_set else loc, msg.check_win_needs_last_turn())


def _faction_check(kind: str) -> Unknown:
    """A VP condition is for a faction that scores VP; the others for any faction."""
    return msg.check_unknown_scoring_faction if kind == "vp" else msg.check_unknown_faction


def _check_movement(r: _Report, mv: m.MovementRules, rulings: list[str] | None) -> None:
    f = "movement.yaml"
    terrain = [t.id for t in mv.terrain]
    r.unique(f, ((("terrain", i, "id"), t.id) for i, t in enumerate(mv.terrain)), msg.check_duplicate_terrain)
    r.unique(f, ((("unit_types", i, "id"), u.id) for i, u in enumerate(mv.unit_types)), msg.check_duplicate_unit_type)
    tabled = [u.id for u in mv.unit_types if u.moves_as is None]
    for i, u in enumerate(mv.unit_types):
        loc: Loc = ("unit_types", i)
        given = {"mp": u.mp, "cost": u.cost, "crossable_river": u.crossable_river, "rail_only": u.rail_only or None}
        if u.moves_as is not None:
            if extra := [key for key, value in given.items() if value is not None]:
                r.add(f, loc, msg.check_moves_as_extra(u.id, u.moves_as, extra))
            others = [t for t in tabled if t != u.id]
            r.known(f, loc + ("moves_as",), u.moves_as, others, msg.check_unknown_moves_as)
        elif u.mp is None:
            r.add(f, loc, msg.check_needs_mp(u.id))
        elif u.rail_only:
            if extra := [key for key in ("cost", "crossable_river") if given[key] is not None]:
                r.add(f, loc, msg.check_rail_only_extra(u.id, extra))
        else:
            if u.cost is None:
                r.add(f, loc, msg.check_needs_cost(u.id, terrain))
            else:
                r.keys_exactly(
                    f, loc + ("cost",), u.cost, terrain, msg.check_unknown_terrain, msg.check_missing_terrains
                )
            if u.crossable_river is None:
                r.add(f, loc, msg.check_needs_crossable_river(u.id))
        _check_source(r, f, loc + ("source",), u.source, rulings)
    types = [u.id for u in mv.unit_types]
    for i, b in enumerate(mv.breakdown):
        r.known(f, ("breakdown", i, "unit_type"), b.unit_type, types, msg.check_unknown_unit_type)
        r.faces(f, ("breakdown", i, "fails_on"), b.fails_on, b.roll)
        _check_source(r, f, ("breakdown", i, "source"), b.source, rulings)


def _check_transport(r: _Report, t: m.TransportRules, mv: m.MovementRules, rulings: list[str] | None) -> None:
    f = "transport.yaml"
    types = [u.id for u in mv.unit_types]
    rail = [u.id for u in mv.unit_types if u.rail_only]
    r.unique(f, ((("stands", i, "id"), k.id) for i, k in enumerate(t.stands)), msg.check_duplicate_stand_kind)
    r.known(f, ("train", "unit_type"), t.train.unit_type, rail, msg.check_unknown_rail_unit_type)
    for key in ("repair_unit_types", "wreck_unit_types"):
        for i, u in enumerate(getattr(t.track, key)):
            r.known(f, ("track", key, i), u, types, msg.check_unknown_unit_type)
    for i, k in enumerate(t.stands):
        _check_source(r, f, ("stands", i, "source"), k.source, rulings)


def _rulings(r: _Report, parts: dict[str, BaseModel]) -> list[str] | None:
    """Ids of every ruling in the scenario, each unique; None while a file of rulings is broken."""
    from kitgen.model.files import SCENARIO_FILES

    ids: list[str] = []
    for file, part in parts.items():
        for i, ruling in enumerate(getattr(part, "rulings", [])):
            if ruling.id in ids:
                r.add(file, ("rulings", i, "id"), msg.check_duplicate_ruling(ruling.id))
            ids.append(ruling.id)
    with_rulings = [f for f, (_, model) in SCENARIO_FILES.items() if "rulings" in model.model_fields]
    return ids if all(f in parts for f in with_rulings) else None


def _check_source(r: _Report, file: str, loc: Loc, source: str, rulings: list[str] | None) -> None:
    """A source is a seed section (A, A.4, II.D.3) or `ruling:<id>` of a ruling in the scenario."""
    if source.startswith("ruling:"):
        if rulings is not None:
            r.known(file, loc, source.removeprefix("ruling:"), rulings, msg.check_unknown_ruling)
    elif not SECTION.fullmatch(source):
        r.add(file, loc, msg.check_bad_source(source))
