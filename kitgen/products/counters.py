"""The counter sheets: a counter (19 mm, or half-inch in the compact edition) for every unit, train and ship the campaign can put on the
map, grouped by faction, fronts and out-of-supply backs on alternate pages for duplex printing.

Counters come from the starting order of battle, the reinforcement piles (one counter per slip
unit, though a slip may come back to the pile), the event cards that add units, the Makhnovist
Current Strength Chart (each unit once) and the trains and ships of the set-up. A back page
mirrors its front's columns, so that printed double-sided and flipped on the long edge each back
lands behind its own front (render/counterart.py draws them). The marker sheets
(products/markers.py) follow in the same file.
"""

from __future__ import annotations

import io
from collections.abc import Mapping
from typing import TYPE_CHECKING

from kitgen.engine.piecenames import train_names
from kitgen.model.scenario import name_key
from kitgen.products.cardkey import event_label, slip_label
from kitgen.render.counterart import Counter, Sheets
from kitgen.render.countergrid import sheet_pairs
from kitgen.render.counterstyle import CounterStyle, Edition, counter_style
from kitgen.render.markerart import MarkerSheets
from kitgen.render.pages import PAPER_NAMES, Part, new_canvas

if TYPE_CHECKING:
    from kitgen.model.forces import UnitSpec
    from kitgen.model.scenario import Scenario

MAKHNOVISTS = "makhnovists"
"""The faction of the Makhnovist Current Strength Chart (II.D)."""


# --- What goes on the counters ---------------------------------------------------------------


def stands_text(stands: dict[str, int], style: CounterStyle) -> str:
    """'3 inf 1 MG': each kind's count and short label, in the data's order."""
    return " ".join(f"{n} {style.stand_labels.get(kind, kind.replace('_', ' '))}" for kind, n in stands.items())


def _chart_rows(rows: list[tuple[int, int]]) -> str:
    """The Makhnovist chart rows a unit appears in, as runs: '2 to 6', '-2 to 1'."""
    covered = sorted({v for low, high in rows for v in range(low, high + 1)})
    runs: list[list[int]] = []
    for v in covered:
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    return ", ".join(str(a) if a == b else f"{a} to {b}" for a, b in runs)


def train_face(scenario: Scenario, armoured: bool, name: str) -> tuple[str, str, str]:
    """A train's counter: its symbol, its name (`train_names`) and its load."""
    load = f"carries {scenario.transport.train.capacity} pts"
    return ("armoured_train" if armoured else "rr_train", name, load)


def ship_face(scenario: Scenario, name: str, gunfire: int) -> tuple[str, str, str]:
    """A ship's counter: its symbol (a warship has gunfire), its name and its gunfire or load."""
    if gunfire:
        return ("warship", name, f"gunfire {gunfire}")
    return ("transport", name, f"carries {scenario.transport.ship.capacity} pts")


def counters_of(
    scenario: Scenario, style: CounterStyle | None = None, hexes: Mapping[str, str] | None = None
) -> list[Counter]:
    """Every counter of the kit, by faction in the scenario's order: the set-up's units, trains
    and ships, then the reinforcement-pile units, the event cards' units and (Makhnovists) the
    Current Strength Chart's units, each distinct name and stands once. With `hexes` (place
    name_key -> hex), a set-up counter's small print is the hex it starts in, for the map is
    printed clean."""
    st = style or counter_style()
    out: list[Counter] = []

    def start(at: str) -> str:
        hex_id = (hexes or {}).get(name_key(at))
        return f"set-up {hex_id}" if hex_id else f"set-up {at}"

    def spec(faction: str, u: UnitSpec, note: str, commander: str | None = None) -> Counter:
        size = st.size_marks.get(u.size, "") if u.size else ""
        return Counter(
            faction,
            u.type,
            u.name,
            stands_text(u.stands, st),
            note,
            commander,
            tuple(u.flags),
            size=size,
            kinds=frozenset(u.stands),
        )

    for unit in scenario.setup.units:
        out.append(spec(unit.faction, unit, start(unit.at), unit.commander))
    trains = train_names(scenario)
    for train in scenario.setup.trains:
        out.append(Counter(train.faction, *train_face(scenario, train.armoured, trains[train.id]), start(train.at)))
    for ship in scenario.setup.ships:
        out.append(Counter(ship.faction, *ship_face(scenario, ship.name, ship.gunfire), start(ship.at)))
    for faction, slips in scenario.cards.piles.items():
        for slip in slips:
            out.extend(spec(faction, u, slip_label(scenario, faction, slip.id)) for u in slip.units)
    for card in scenario.cards.events:
        for effect in card.effects:
            if effect.kind == "units" and effect.faction:
                out.extend(spec(effect.faction, u, event_label(scenario, card.id)) for u in effect.units)
    chart: dict[tuple[str, tuple[tuple[str, int], ...]], tuple[UnitSpec, list[tuple[int, int]]]] = {}
    for row in scenario.cards.makhnovist_strength:
        for u in row.units:
            entry = chart.setdefault((u.name, tuple(u.stands.items())), (u, []))
            entry[1].append((row.low, row.high))
    for u, rows in chart.values():
        out.append(spec(MAKHNOVISTS, u, f"strength chart {_chart_rows(rows)}"))

    order = {f.id: k for k, f in enumerate(scenario.meta.factions)}
    return sorted(out, key=lambda c: order.get(c.faction, len(order)))  # stable: keeps the order above


def counter_sheets(
    scenario: Scenario, paper: str, hexes: Mapping[str, str] | None = None, edition: Edition = "full"
) -> tuple[Sheets, MarkerSheets]:
    """The units' sheets and the marker sheets of the kit, on A4 or US Letter, at the size of `edition`."""
    from kitgen.products.markers import marker_groups
    from kitgen.render.countergrid import grid
    from kitgen.render.formstyle import form_style

    style = counter_style(edition=edition)
    counters = counters_of(scenario, style, hexes)
    columns = grid(style, paper, style.markers.size_mm).columns
    groups = marker_groups(scenario, style, counters, columns, form_style().forms.vp_lap)
    units = Sheets(scenario, paper, style, counters)
    markers = MarkerSheets(scenario, paper, style, groups, after=units.layout)
    units.of = markers.of = max(units.layout.sheets, markers.layout.sheets)
    return units, markers


def build_counters(
    scenario: Scenario, paper: str, hexes: Mapping[str, str] | None = None, edition: Edition = "full"
) -> list[Part]:
    """The counter sheets on A4 or US Letter: one part, the units' sheets and then the markers',
    fronts and backs on alternate pages; `hexes` gives each set-up counter its starting hex."""
    sheets, markers = counter_sheets(scenario, paper, hexes, edition)
    out = io.BytesIO()
    g = sheets.layout.grid
    c = new_canvas(out, (g.page_w, g.page_h), scenario, f"counter sheets ({PAPER_NAMES[paper]})")
    bookmarks: list[tuple[str, int]] = []

    def title(sheet: int) -> str:
        names = sheets.names_on(sheet) + (["markers"] if markers.layout.on(sheet) else [])
        return f"Counters, sheet {sheet + 1}: {', '.join(names)}"

    sheet_pairs(c, [(sheets.layout, sheets.page), (markers.layout, markers.page)], title, bookmarks)
    c.save()
    count = sum(1 for s in sheets.layout.slots if not sheets.counter(s).spare)
    return [
        Part(
            file=f"counters{'-compact' if edition == 'compact' else ''}-{paper}.pdf",
            title="Counter sheets",
            purpose=(
                f"{count} counters ({sheets.st.counter_mm:g} mm) for every unit, train and ship, out-of-supply sides on the backs, and "
                f"{markers.count} markers: print double-sided (flip on the long edge) on card and cut "
                "along the lines"
            ),
            pdf=out.getvalue(),
            pages=2 * sheets.of,
            bookmarks=tuple(bookmarks),
            duplex=True,
        )
    ]
