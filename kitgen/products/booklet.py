"""The rules booklet: `layouts/booklet.md.j2` filled from the scenario's data (every number and
table from the files the engine reads), set with reportlab's platypus on A4/Letter pages or on
A5/half-letter pages imposed two to a sheet for saddle stitching."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Literal

from kitgen import messages as msg
from kitgen.errors import KitgenError
from kitgen.messages import ordinal
from kitgen.model.scenario import Scenario, Town, name_key
from kitgen.packagedata import shipped
from kitgen.products.tailoring import uses_ships
from kitgen.products.worked import stop_example
from kitgen.render.bookletstyle import booklet_style
from kitgen.render.pages import HALF, PAPER, Part
from kitgen.rules.ending import condition_text, days_text, turn_days
from kitgen.rules.sequence import turn_sequence

if TYPE_CHECKING:
    from pypdf import PageObject, PdfWriter
    from pypdf.generic import ContentStream, IndirectObject

    from kitgen.render.bookletset import Block

TEMPLATE = shipped("layouts") / "booklet.md.j2"


def booklet_text(scenario: Scenario) -> list[Block]:
    """The booklet as blocks: the template filled from the scenario (values escaped)."""
    from markupsafe import Markup

    from kitgen.templates import environment

    env = environment(TEMPLATE.parent, autoescape=True, keep_trailing_newline=True)
    s = scenario
    names = {f.id: f.name for f in s.meta.factions}

    every = all_rulings(s)
    used: set[tuple[str, str]] = set()

    def ruling(file: str, ruling_id: str) -> Markup:
        text = every.get((file, ruling_id))
        if text is None:
            known = [i for f, i in every if f == file]
            where = _template_position(
                rf"ruling\(\s*['\"]{re.escape(file)}['\"]\s*,\s*['\"]{re.escape(ruling_id)}['\"]"
            )
            raise KitgenError.at(TEMPLATE, *where, msg.booklet_unknown_ruling(file, ruling_id, known))
        used.add((file, ruling_id))
        return Markup("[[ruling]]<b>Ruling, {}:</b> {}").format(ruling_title(ruling_id), text)

    def leave_out(*rulings: tuple[str, str]) -> str:
        """Rulings of a rule the scenario leaves out, which the booklet says it leaves out."""
        for file, ruling_id in rulings:
            if (file, ruling_id) not in every:
                raise KitgenError.at(
                    TEMPLATE, 1, 1, msg.booklet_unknown_ruling(file, ruling_id, sorted(i for _, i in every))
                )
            used.add((file, ruling_id))
        return ""

    def breakdown(unit_type: str) -> Any:
        return next(b for b in s.movement.breakdown if b.unit_type == unit_type)

    def placement(faction: str) -> str:
        rule = s.victory.placement[faction]
        words = [f"the {e.edge} edge" + (f" north of {e.north_of}" if e.north_of else "") for e in rule.edges]
        if rule.supply_towns:
            towns = [src.town for src in s.map.supply_sources.get(faction, []) if src.town]
            words.append(" or ".join(t for t in towns if t) + ", their first supply-source towns, while held")
        if rule.town:
            words.append(
                f"{rule.town} if they hold it, otherwise the westernmost town they hold (lowest column, then lowest row)"
            )
        return "; ".join(words)

    def sources(faction: str) -> str:
        out = []
        for src in s.map.supply_sources.get(faction, []):
            if src.rail_exits:
                where = next(
                    (f" {k.replace('_of', '')} of {v}" for k, v in src.model_dump().items() if k.endswith("_of") and v),
                    "",
                )
                out.append(f"railways leaving the {src.rail_exits} map edge{where}")
            elif src.town:
                out.append(src.town + (" while held" if src.while_held else ""))
            elif src.ports:
                out.append("ports they hold with a friendly ship in or next to them (D.2)")
            elif src.depots:
                out.append("depots they capture")
        return "; ".join(out)

    rail = next(t for t in s.movement.unit_types if t.id == s.transport.train.unit_type)
    example = stop_example(s)
    text = env.get_template(TEMPLATE.name).render(
        s=s,
        mv=s.movement,
        sp=s.supply,
        tr=s.transport,
        vic=s.victory,
        ev=s.events,
        bt=s.battle,
        cmd=s.command,
        pt=s.partisans,
        factions=s.meta.factions,
        faction_list=", ".join(f.name for f in s.meta.factions),
        faction_name=lambda f: names.get(f, f),
        hex_km=f"{s.meta.map.hex_size_km:g}",
        rail_mp=rail.mp,
        ruling=ruling,
        leave_out=leave_out,
        naval=uses_ships(s),
        breakdown=breakdown,
        placement=placement,
        sources={f.id: sources(f.id) for f in s.meta.factions},
        ordinal=ordinal,
        sequence=turn_sequence(s),
        turns=s.meta.turns,
        memory_turns=s.meta.intel.memory_turns,
        added=[c for c in s.commanders if c.added],
        turn_one=days_text(first[0], first[0]) if (first := turn_days(s, 1)) else "",
        win=[condition_text(s, c) for c in s.victory.win],
        stop_example=example.text() if example else None,
    )
    left = sorted(set(every) - used)
    if left:  # the printed rules must say what the engine does (RULES-NOTES)
        raise KitgenError.at(TEMPLATE, 1, 1, msg.booklet_rulings_left_out(left))
    return _blocks(text)


def _template_position(pattern: str) -> tuple[int, int]:
    """Line and column of the first match of `pattern` in the template; (1, 1) if none."""
    text = TEMPLATE.read_text(encoding="utf-8")
    found = re.search(pattern, text)
    if found is None:
        return 1, 1
    start = found.start()
    return text.count("\n", 0, start) + 1, start - text.rfind("\n", 0, start)


def all_rulings(scenario: Scenario) -> dict[tuple[str, str], str]:
    """(data file, ruling id) -> text, for every ruling of the scenario's rule files."""
    parts = {
        "movement": scenario.movement,
        "supply": scenario.supply,
        "transport": scenario.transport,
        "victory": scenario.victory,
        "events": scenario.events,
        "battle": scenario.battle,
        "command": scenario.command,
        "partisans": scenario.partisans,
    }
    return {(file, r.id): r.text for file, part in parts.items() for r in getattr(part, "rulings", [])}


def ruling_title(ruling_id: str) -> str:
    """'engineers_as_rr_repair' -> 'Engineers as RR repair'."""
    words = " ".join(w.upper() if w in ("rr", "vp", "mg") else w for w in ruling_id.split("_"))
    return words[:1].upper() + words[1:]


def _blocks(text: str) -> list[Block]:
    """Split the filled template into blocks: one per paragraph, ruling or list item."""
    blocks: list[Block] = []
    para: list[str] = []
    kind = "para"

    def flush(then: str = "para") -> None:
        nonlocal kind
        if para:
            blocks.append((kind, " ".join(para)))
            para.clear()
        kind = then

    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            flush()
        elif line.startswith("# "):
            flush()
            blocks.append(("part", line[2:]))
        elif line.startswith("## "):
            flush()
            blocks.append(("rule", line[3:]))
        elif line.startswith("- "):
            flush()
            blocks.append(("item", line[2:]))
        elif line.startswith("> "):
            flush()
            blocks.append(("quote", line[2:]))
        elif line.startswith("[[table:") and line.endswith("]]"):
            flush()
            blocks.append(("table", line[8:-2]))
        elif line.startswith("[[ruling]]"):
            flush("ruling")
            para.append(line[10:])
        else:
            para.append(line)
    flush()
    return blocks


def tables(scenario: Scenario, hex_ids: dict[str, str]) -> dict[str, list[list[str]]]:
    """Every table of the booklet as rows of cell text (the first row the header), built from
    the scenario's data; the typesetter sizes the columns from their content."""
    s = scenario
    names = {f.id: f.name for f in s.meta.factions}
    adjective = {f.id: f.adjective for f in s.meta.factions}
    terrain = [t.id for t in s.movement.terrain]
    rows_mv = [["Unit type", "MP", *[t.name for t in s.movement.terrain], "Crossable river"]]
    for t in s.movement.unit_types:
        if t.moves_as:
            like = next(u.name for u in s.movement.unit_types if u.id == t.moves_as)
            rows_mv.append([t.name, f"moves as {like}", *[""] * len(terrain), ""])
        elif t.rail_only:
            rows_mv.append([t.name, str(t.mp), "must be on railway track", *[""] * len(terrain)])
        else:
            cost = t.cost or {}
            river = "" if t.crossable_river is None else str(t.crossable_river)
            river = river if river == "p*" else f"+{river}"
            rows_mv.append([t.name, str(t.mp), *[str(cost.get(x, "")) for x in terrain], river])
    kinds = {k.id: k.name for k in s.transport.stands}
    ammo = [["Stand", "Full load", "Natures"]] + [
        [kinds.get(a.stand, a.stand), f"{a.rounds} {a.unit}", ", ".join(a.natures)] for a in s.supply.ammo
    ]
    loads = [["Stand or load", "Points"]] + [[k.name, str(k.points)] for k in s.transport.stands]
    loads += [["Train capacity", str(s.transport.train.capacity)]]
    loads += [["Ship capacity", str(s.transport.ship.capacity)]] if uses_ships(s) else []
    ships = [["Ship", "Side", "Port", "Gunfire (batteries)"]] + [
        [x.name, names.get(x.faction, x.faction), x.at, str(x.gunfire) if x.gunfire else "transport"]
        for x in s.setup.ships
    ]
    scoring = [f for f in s.meta.factions if f.scores_vp]
    short = [f.adjective if len(f.adjective) <= 5 else f.adjective[:3] + "." for f in scoring]
    vp = [["Town", *short]]
    vp += [[_as_mapped(t), *["-" if t.vp.get(f.id) is None else str(t.vp[f.id]) for f in scoring]] for t in s.towns]
    strength = [[f"{s.victory.makhnovist_strength.roll} + modifiers", "Forces for the next turns"]]
    for row in s.cards.makhnovist_strength:
        span = str(row.low) if row.low == row.high else f"{row.low} to {row.high}"
        forces = "; ".join(f"{u.name} ({_stands(u.stands)})" for u in row.units)
        strength.append([span, f"{row.text} {forces}"])
    losses = losses_rows(s)
    commanders = [["Rank", "Commander", "Dependability", "Charismatic"]]
    for f in s.meta.factions:
        commanders.append([f.name, "", "", ""])  # a heading row, across the table
        for c in (c for c in s.commanders if c.faction == f.id):
            name = f"{c.name}*" if c.added else c.name  # the note under the table says why
            commanders.append([str(s.rank(c)), name, str(c.dependability), "C" if c.charismatic else "-"])
    partisans = [["Evade modifier (the partisans' roll)", "Value"]]
    partisans += [[m.text, f"{m.value:+d}"] for m in s.partisans.evade.modifiers]
    chart = s.victory.reinforcement_chart
    charted = [f for f in s.meta.factions if f.id in chart.draws]
    reinforcements = [[chart.roll, *[f"{adjective[f.id]} draws" for f in charted]]]
    for face in range(1, 7):
        reinforcements.append([str(face), *[str(chart.draws[f.id][face - 1]) for f in charted]])
    reinforcements.append(["Threshold", *[str(s.victory.thresholds.get(f.id, "-")) for f in charted]])

    def at(place: str) -> str:
        """A place and its hex, a town by the name the map prints (its 1919 name)."""
        shown = s.shown_place(place)
        return f"{shown} ({hex_ids[name_key(place)]})" if name_key(place) in hex_ids else shown

    setup = [["Unit", "Stands", "Commander", "Starts at (hex)"]]
    for f in s.meta.factions:
        setup.append([f.name, "", "", ""])  # a heading row, across the table
        for u in (u for u in s.setup.units if u.faction == f.id):
            flags = f" ({', '.join(u.flags)})" if u.flags else ""
            setup.append([u.name + flags, _stands(u.stands), u.commander or "", at(u.at)])
    assets = [["Trains, ships and depots", "Side", "Starts at (hex)"]]
    assets += [
        [f"{'Armoured train' if t.armoured else 'Train'}", names.get(t.faction, t.faction), at(t.at)]
        for t in s.setup.trains
    ]
    assets += [[x.name, names.get(x.faction, x.faction), at(x.at)] for x in s.setup.ships]
    assets += [["Supply depot", names.get(d.faction, d.faction), at(d.at)] for d in s.setup.depots]
    towns = [["Town", "Hex", "1919 name"]]
    for town in sorted(s.towns, key=lambda t: t.name):
        then = town.name_1919 if town.name_1919 and town.name_1919 != town.name else ""
        towns.append([town.name, hex_ids.get(name_key(town.name), "off map"), then])
    return {
        "movement": rows_mv,
        "ammo": ammo,
        "loads": loads,
        "ships": ships,
        "vp": vp,
        "strength": strength,
        "losses": losses,
        "commanders": commanders,
        "partisans": partisans,
        "reinforcements": reinforcements,
        "towns": towns,
        "setup": setup,
        "assets": assets,
    }


def _as_mapped(town: Town) -> str:
    """A town as the map names it: its 1919 name, the rules' name after it where they differ."""
    return town.shown_name if town.shown_name == town.name else f"{town.shown_name} ({town.name})"


def losses_rows(s: Scenario) -> list[list[str]]:
    """II.B.3's losses as a table (the first row the header): the booklet's and the aids'."""
    b = s.battle
    return [
        ["", "Lost for good", "Back next turn", "Routed", "Equipment"],
        [
            "Winner",
            f"{b.winner.permanent_pct}%",
            f"{b.winner.return_pct}%",
            "all back next turn",
            f"{b.winner.equipment.roll} each: {b.winner.equipment.recovered_on} repaired, else lost",
        ],
        [
            "Loser",
            f"{b.loser.permanent_pct}%",
            f"{b.loser.return_pct}%",
            f"{b.loser.routed_lost_pct}% desert or are captured unless "
            + "/".join(x.title() for x in b.loser.routed_lost_exempt),
            "lost for the campaign, except routed equipment captured",
        ],
    ]


def _stands(stands: dict[str, int]) -> str:
    """'3 infantry, 1 machine gun', '2 armoured cars'."""
    same = ("infantry", "cavalry", "artillery", "rr_repair")  # read as "stands of"

    def label(kind: str, n: int) -> str:
        word = "RR repair" if kind == "rr_repair" else kind.replace("_", " ")
        return word if n == 1 or kind in same else word + "s"

    return ", ".join(f"{n} {label(k, n)}" for k, n in stands.items())


BookletSize = Literal["pages", "folded"]
"""The booklet on the paper's own pages, or on half-size pages imposed for folding."""


def build_booklet(
    scenario: Scenario, hex_ids: dict[str, str], paper: str, sizes: Sequence[BookletSize] = ("pages", "folded")
) -> list[Part]:
    """The booklet on `paper` pages, and as an A5/half-letter booklet imposed for saddle
    stitching on `paper` sheets (or those of `sizes` alone)."""
    from kitgen.render.bookletset import typeset
    from kitgen.render.wording import typographic

    style = booklet_style()
    # the same text at both sizes, with curly quotes and en dashes in its ranges
    blocks = [(kind, typographic(text)) for kind, text in booklet_text(scenario)]
    built = {
        name: [[typographic(cell) for cell in row] for row in rows] for name, rows in tables(scenario, hex_ids).items()
    }
    name = {"a4": "A4", "letter": "US Letter"}[paper]
    half = {"a4": "A5", "letter": "half-letter"}[paper]
    parts = []
    if "pages" in sizes:
        full = typeset(scenario, blocks, built, PAPER[paper], style)
        parts.append(
            Part(
                f"rules-{paper}.pdf",
                "Rules booklet",
                f"the rules, tables and rulings on {name} pages, to read and play by",
                full.pdf,
                _pages(full.pdf),
                full.outline,
                duplex=True,  # printed two-sided like a book: its cover on a right-hand page
            )
        )
    if "folded" in sizes:
        small = typeset(scenario, blocks, built, HALF[paper], style, scale=style.half_scale, columns=style.half_columns)
        imposed, sheets = impose_saddle(small.pdf, PAPER[paper])
        parts.append(
            Part(
                f"rules-booklet-{half.lower()}.pdf",
                f"Rules booklet ({half}, saddle-stitched)",
                f"the same rules as {'an' if half == 'A5' else 'a'} {half} booklet: print {name} landscape double-sided "
                f"(flip on the short edge), fold and staple; {sheets} sheets",
                imposed,
                _pages(imposed),
                duplex=True,
                in_kit=False,  # the same pages as the rules above, imposed for folding
            )
        )
    return parts


def _pages(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def impose_saddle(pdf: bytes, sheet: tuple[float, float]) -> tuple[bytes, int]:
    """Saddle-stitch imposition: the booklet's pages (padded with blanks to a multiple of 4),
    two to a side of a landscape `sheet`, in the order that folds into the booklet: sheet 1
    front has the last page and page 1, its back page 2 and the second-to-last, and so on.
    Returns the PDF and the number of sheets."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DictionaryObject, NameObject

    from kitgen.render.pages import copy_output_intent, uncut

    reader = PdfReader(io.BytesIO(pdf))
    pages = list(reader.pages)
    pw, ph = float(pages[0].mediabox.width), float(pages[0].mediabox.height)
    n = len(pages)
    total = (n + 3) // 4 * 4
    sw, sh = max(sheet), min(sheet)
    x0 = (sw - 2 * pw) / 2
    y0 = (sh - ph) / 2
    writer = PdfWriter()
    forms = [_page_form(page, writer) for page in pages]
    for s in range(total // 4):
        for left, right in ((total - 1 - 2 * s, 2 * s), (2 * s + 1, total - 2 - 2 * s)):
            side = uncut(writer.add_blank_page(width=sw, height=sh))  # the sheet is folded, not cut
            placed = [(f"/P{index + 1}", index, dx) for index, dx in ((left, x0), (right, x0 + pw)) if index < n]
            xobjects = DictionaryObject({NameObject(name): forms[index] for name, index, _ in placed})
            side[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
            side.replace_contents(_placing([(name, dx) for name, _, dx in placed], y0))
    meta = {k: v for k, v in (reader.metadata or {}).items() if k in ("/Title", "/Author", "/Subject", "/Creator")}
    if "/Title" in meta:
        meta["/Title"] = f"{meta['/Title']} (booklet, imposed for saddle stitching)"
    writer.add_metadata(meta)
    copy_output_intent(reader, writer)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), total // 4


def _page_form(page: PageObject, writer: PdfWriter) -> IndirectObject:
    """The page as a form XObject in `writer`, its bounding box the media box (which clips it
    as the page did), with the page's resources. Its content stream is copied as it is, still
    compressed and never parsed: merging pages by parsing them was most of the imposition's time."""
    from pypdf.generic import ArrayObject, ContentStream, DecodedStreamObject, FloatObject, NameObject, StreamObject

    contents = page[NameObject("/Contents")].get_object()
    if isinstance(contents, StreamObject):  # reportlab writes one stream a page
        form = contents.clone(writer)
    else:  # an array of streams: their data joined
        form = DecodedStreamObject()
        form.set_data(ContentStream(contents, None).get_data())
    form[NameObject("/Type")] = NameObject("/XObject")
    form[NameObject("/Subtype")] = NameObject("/Form")
    form[NameObject("/BBox")] = ArrayObject(FloatObject(v) for v in page.mediabox)
    form[NameObject("/Resources")] = page[NameObject("/Resources")].clone(writer)
    ref = getattr(form, "indirect_reference", None)  # a clone of a numbered stream is numbered
    return ref if ref is not None else writer._add_object(form)


def _placing(placed: list[tuple[str, float]], y: float) -> ContentStream:
    """A side's content: each named form drawn with its lower left corner at (x, y)."""
    from pypdf.generic import ContentStream, FloatObject

    content = ContentStream(None, None)
    content.set_data(
        "".join(
            f"q 1 0 0 1 {FloatObject(x).myrepr()} {FloatObject(y).myrepr()} cm {name} Do Q\n" for name, x in placed
        ).encode()
    )
    return content
