"""The week's turn packets: fog of war checked against the state, the files, the pages.

What a faction may see is worked out here from the state and the board's neighbours alone, not
from `kitgen.engine.intel`, and checked against the packet's text and its drawn record."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from pypdf import PdfReader

from kitgen.campaign import Campaign, load_campaign
from kitgen.engine.basis import turn_basis
from kitgen.engine.state import CampaignState
from kitgen.products.packets import packets_of
from kitgen.products.packets.builder import PacketFile, Packets
from kitgen.products.packets.faction import reaches
from kitgen.products.packets.scene import make_scene
from kitgen.render.scene import Scene
from kitgen.render.unitmarks import Piece
from tests.conftest import SET_AS_TYPED, run_cli
from tests.layoutgate import breaches, qpdf_problems

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ["sample-campaign", "tsaritsyn-sample"]


@dataclass
class Built:
    campaign: Campaign
    packets: Packets
    files: dict[str, PacketFile]
    text: dict[str, str]

    @property
    def state(self) -> CampaignState:
        return self.packets.b.start


def _text(pdf: bytes, tmp: Path, name: str) -> str:
    path = tmp / name
    path.write_bytes(pdf)
    run = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True)
    return run.stdout.translate(SET_AS_TYPED)  # curly quotes and dashes as the data types them


@pytest.fixture(scope="module", params=SAMPLES)
def built(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Built:
    campaign = load_campaign(ROOT / "data" / request.param)
    packets = Packets(turn_basis(campaign), "a4")
    files = {f.who: f for f in packets_of(packets)}
    tmp = tmp_path_factory.mktemp("packets")
    text = {who: _text(f.pdf, tmp, f.name) for who, f in files.items()}
    return Built(campaign, packets, files, text)


def _seen(built: Built, faction: str) -> tuple[set[str], set[str]]:
    """The hexes a faction sees enemies in full (its own hexes, and those it fought in last turn:
    the battles of the state after it), and those it glimpses them in (next to its own)."""
    state, board = built.state, built.campaign.board
    own = {u.hex for u in state.units if u.faction == faction and u.aboard is None}
    after = built.packets.b.after
    fought = {r.hex for r in after.battle_results if r.faction == faction}
    fought |= {c.hex for c in after.partisan_contacts if c.faction == faction}
    full = own | fought
    near = {n for h in own for n in board.neighbours(h)} - full
    return full, near


def _allied(built: Built, a: str, b: str) -> bool:
    return built.state.allied(a, b, built.state.turn)


def test_every_faction_on_the_map_gets_a_packet(built: Built) -> None:
    """One packet for the umpire and one per faction with units, named for who gets it."""
    factions = {u.faction for u in built.state.units}
    assert set(built.files) == {"umpire", *factions}
    turn = built.packets.b.turn
    for who, f in built.files.items():
        assert f.name == f"{who}-turn-{turn:02d}-a4.pdf"
        assert len(PdfReader(_bytes_io(f.pdf)).pages) == f.pages


def _bytes_io(data: bytes):  # type: ignore[no-untyped-def]
    import io

    return io.BytesIO(data)


def test_fog_no_enemy_id_or_name_beyond_what_the_faction_sees(built: Built) -> None:
    """In a hex it occupies the enemy is shown in full; next to it, a stack of about that size and
    arm of service, not ids or stands; farther away, nothing. An enemy unit the faction fought
    last turn it knows by name (its last-turn page tells the battle), wherever it is now."""
    s = built.campaign.scenario
    results = built.packets.b.after.battle_results
    for faction in {u.faction for u in built.state.units}:
        full, near = _seen(built, faction)
        fought = {r.battle for r in results if r.faction == faction}
        met = {r.unit for r in results if r.battle in fought}
        # the slips' and cards' history may name an enemy general; a unit's id or name is intelligence
        text = built.text[faction].replace(s.meta.title, "").replace(s.meta.subtitle, "")  # no intelligence
        for u in built.state.units:
            if u.faction == faction:
                continue
            if u.aboard is None and (u.hex in full or (_allied(built, faction, u.faction) and u.hex in near)):
                continue
            assert u.id not in text, f"{faction} packet names {u.id} in {u.hex}"
            if u.id not in met:
                assert u.name not in text, f"{faction} packet names {u.name}"


def test_B2_a_faction_packet_lists_its_units_by_name_with_their_hexes(built: Built) -> None:
    """Your forces: each unit by the name on its counter and its hex, on one row (a long name, or
    a long place before the hex, may wrap onto the row's further lines); a unit aboard a ship by
    the ship's name."""
    for faction in {u.faction for u in built.state.units}:
        lines = built.text[faction].splitlines()
        ships = {str(x["id"]): str(x["name"]) for x in built.state.ships}
        for u in built.state.units:
            if u.faction != faction:
                continue
            where = u.hex if u.aboard is None else ships[u.aboard].split()[0]
            near = [" ".join(lines[max(0, k - 2) : k + 2]) for k, line in enumerate(lines) if where in line]
            assert any(u.name.split()[0] in n for n in near), f"{faction}: {u.name!r} not listed in {where}"


def test_issue24_no_id_on_a_faction_packets_pages(built: Built) -> None:
    """Issue 24: "no unit id appears in a faction packet's page text, outside the form fields": a
    player reads his units, trains and ships as their counters name them, on every page: the
    forces, command, supply, reach and order form, and the maps' counters and stack lists."""
    state = built.state
    ids = {u.id for u in state.units} | {str(x["id"]) for x in (*state.trains, *state.ships)}
    for faction in {u.faction for u in state.units}:
        pages = built.text[faction].split("\f")
        titles = _page_titles(built.files[faction].pdf)
        words = list(titles)
        assert any(t.startswith("Map sector") for t in titles.values()), titles
        for k in words:
            found = sorted(set(re.findall(r"[a-z][a-z0-9_]+", pages[k])) & ids)
            assert not found, f"{faction}, page {k + 1} ({titles[k]}): {found}"


def _page_titles(pdf: bytes) -> dict[int, str]:
    """Each page (from 0) by the title of the part it is in, from the packet's bookmarks."""
    reader = PdfReader(_bytes_io(pdf))
    starts = sorted(
        (reader.get_destination_page_number(x), str(x.title)) for x in reader.outline if not isinstance(x, list)
    )
    return {k: next(t for s, t in reversed(starts) if s <= k) for k in range(len(reader.pages)) if k >= starts[0][0]}


def test_fog_drawn_pieces_match_the_grades(built: Built) -> None:
    """The drawn record: an enemy counter only where the enemy is seen in full; a glimpsed stack
    only next to the faction's units, with no id and no stand count; nothing else of the enemy."""
    units = {u.id: u for u in built.state.units}
    for faction in {u.faction for u in built.state.units}:
        full, near = _seen(built, faction)
        scene = built.packets.scenes[faction]
        assert scene.drawn, f"{faction}: nothing drawn"
        for piece in scene.drawn:
            if piece.kind == "unit":
                unit = units[piece.label]
                ally = _allied(built, faction, unit.faction) and unit.hex in near
                assert unit.faction == faction or unit.hex in full or ally, f"{faction} sees {unit.id} in {unit.hex}"
            elif piece.kind == "block":
                assert not _allied(built, faction, piece.faction) and piece.hex in near
                assert piece.stands is None and piece.label in {"small", "medium", "large", "very large"}
                assert not any(u.id in piece.label or u.id in piece.detail for u in built.state.units)
            elif piece.kind == "carrier":
                assert _carrier_seen(built, faction, piece), f"{faction} sees {piece.label} in {piece.hex}"
            else:
                for unit_id_or_block in piece.detail:
                    if unit_id_or_block in units:
                        unit = units[unit_id_or_block]
                        assert unit.faction == faction or unit.hex in full
                if piece.top is not None and piece.top.kind == "carrier":
                    assert _carrier_seen(built, faction, piece.top)
        glimpsed = {p.hex for p in scene.drawn if p.kind == "block"}
        expected = {
            u.hex
            for u in built.state.units
            if not _allied(built, faction, u.faction) and u.hex in near and u.aboard is None
        }
        assert glimpsed <= expected
        shown_or_stacked = glimpsed | {p.hex for p in scene.drawn if p.kind == "stack"}
        assert expected <= shown_or_stacked, f"{faction}: enemies next to it not shown: {expected - shown_or_stacked}"


def test_fog_memory_drawn_is_what_the_faction_saw_before(built: Built) -> None:
    """A remembered stack drawn on a faction's map stands where that faction saw that enemy at
    an earlier turn's start (the turn it is marked with, no more than the scenario's memory
    turns ago) and in no hex it knows now; it names no unit id."""
    b, board = built.packets.b, built.campaign.board
    assert b.history is not None
    horizon = built.campaign.scenario.meta.intel.memory_turns
    remembered = 0
    for faction in {u.faction for u in built.state.units}:
        views = b.history.views(board, faction)
        now = views[-1]
        for piece in built.packets.scenes[faction].drawn:
            if piece.kind != "memory":
                continue
            remembered += 1
            seen = int(piece.label.removeprefix("T"))
            assert 1 <= b.turn - seen <= horizon and piece.hex not in now.known
            assert any(s.hex == piece.hex and s.faction == piece.faction for s in views[seen - 1].sightings)
            assert not {u.id for u in built.state.units} & set(piece.detail)
    if built.campaign.folder.name == "sample-campaign":
        assert remembered, "the sample's packets remember some enemy: else this checks nothing"


def _carrier_seen(built: Built, faction: str, piece: Piece) -> bool:
    """A train or ship a faction's map may show: its own anywhere, an enemy's only where the
    faction sees units in full or glimpses them (next to its own), and then by its kind alone:
    no ship's name, no load or gunfire."""
    full, near = _seen(built, faction)
    if piece.faction == faction:
        return True
    generic = piece.name in ("Train", "Armoured Train", "Warship", "Transport") and not piece.strength
    return (piece.hex in full or piece.hex in near) and generic


def test_umpire_master_map_shows_every_unit(built: Built) -> None:
    """The master map: every unit on the map is a counter, or inside a stack marker keyed to the list."""
    scene = built.packets.scenes["umpire"]
    drawn = {p.label for p in scene.drawn if p.kind == "unit"}
    stacked = {u for p in scene.drawn if p.kind == "stack" for u in p.detail}
    on_map = {u.id for u in built.state.units if u.aboard is None}
    assert on_map <= drawn | stacked
    for entry in scene.stacks:
        assert len(entry.lines) > 2, "a stack marker stands for more than two units"
        assert entry.key in built.text["umpire"]


def test_supply_overlay_is_the_engine_judgement(built: Built) -> None:
    """B.3: a unit is in supply exactly where the overlay tints its hex."""
    for faction in {u.faction for u in built.state.units}:
        overlay = built.packets.overlay(faction)
        for u in built.state.units:
            if u.faction == faction and u.aboard is None and u.in_supply is not None:
                assert (u.hex in overlay.hexes) == u.in_supply, (faction, u.id, u.hex)


def test_packets_are_byte_identical_when_rebuilt(built: Built) -> None:
    again = {f.who: f.pdf for f in packets_of(Packets(turn_basis(built.campaign), "a4"))}
    assert again == {who: f.pdf for who, f in built.files.items()}


@pytest.mark.forks
def test_packets_made_at_once_in_forked_workers_are_the_packets_made_one_by_one(
    built: Built, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`kitgen turn` makes the week's files in forked workers where it can: the same bytes as
    made one after another in its own process."""
    from kitgen import forking
    from kitgen.products.packets import packets_at_once

    if not forking.can_fork():
        pytest.skip("no fork here: one processor, or another thread running")
    pools = []
    real = forking.pool
    monkeypatch.setattr(forking, "pool", lambda workers: pools.append(workers) or real(workers))
    forked = {f.who: f.pdf for f in packets_at_once(Packets(turn_basis(built.campaign), "a4"))}
    assert pools and pools[0] >= 2
    assert forked == {who: f.pdf for who, f in built.files.items()}


def test_pages_are_exact_paper_size(built: Built) -> None:
    """A4 exactly: the map pages landscape (the sectors as the map tiles, the whole map and the
    supply maps as the map is wide), the rest portrait."""
    for f in built.files.values():
        titles = _page_titles(f.pdf)
        for k, page in enumerate(PdfReader(_bytes_io(f.pdf)).pages):
            size = (round(float(page.mediabox.width), 2), round(float(page.mediabox.height), 2))
            title = titles.get(k, "")
            wide = title.startswith(("Map sector ", "Supply: ")) or "the whole map" in title
            assert size == ((841.89, 595.28) if wide else (595.28, 841.89)), (f.name, k, titles.get(k))


def test_cli_turn_writes_the_packets(tmp_path: Path) -> None:
    folder = tmp_path / "campaign"
    shutil.copytree(ROOT / "data" / "tsaritsyn-sample", folder)
    run = run_cli("turn", str(folder), "--turn", "2", "--paper", "letter", "--out", str(tmp_path / "out"))
    assert run.returncode == 0, run.stdout + run.stderr
    names = sorted(p.name for p in (tmp_path / "out").iterdir())
    pdfs = ["umpire-turn-02-letter.pdf", "reds-turn-02-letter.pdf", "whites-turn-02-letter.pdf"]
    pdfs += ["report-forms-turn-02-letter.pdf", "roll-sheet-turn-02-letter.pdf"]  # the umpire's forms alone
    assert names == sorted([*pdfs, ".kitgen-manifest.json"])  # the folder is kitgen's: a rerun may replace them
    bad = run_cli("turn", str(folder), "--turn", "9")
    assert bad.returncode != 0 and "expected a turn from 1 to 4" in bad.stderr


def _played_on(tmp_path: Path) -> Path:
    """A copy of the Tsaritsyn sample, its three turns played, whose club plays on past the end."""
    folder = tmp_path / "campaign"
    shutil.copytree(ROOT / "data" / "tsaritsyn-sample", folder)
    with (folder / "campaign.yaml").open("a", encoding="utf-8") as club:
        club.write("play_on: true\n")
    return folder


def test_a_faction_packet_order_form_fills_and_imports(tmp_path: Path) -> None:
    """The packet's own order form, filled on screen (pypdf), reads back with `kitgen orders import`
    into the turn's log, and the campaign then replays."""
    from pypdf import PdfWriter

    from kitgen.engine.replay import replay

    folder = _played_on(tmp_path)
    assert run_cli("next", str(folder)).returncode == 0  # an import goes into the turn being played
    campaign = load_campaign(folder)
    basis = turn_basis(campaign)
    packet = next(f for f in packets_of(Packets(basis, "a4")) if f.who == "whites")
    unit = next(u for u in basis.start.units if u.faction == "whites" and u.aboard is None)
    step = next(
        n
        for n in campaign.board.neighbours(unit.hex)
        if campaign.board.terrain.get(n) not in (None, "sea") and not any(o.hex == n for o in basis.start.units)
    )
    writer = PdfWriter(clone_from=PdfReader(_bytes_io(packet.pdf)))
    for page in writer.pages:
        writer.update_page_form_field_values(page, {f"o-{unit.id}-path": step}, auto_regenerate=False)
    filled = tmp_path / "filled.pdf"
    with filled.open("wb") as out:
        writer.write(out)
    done = run_cli("orders", "import", str(filled), "--campaign", str(folder), "--turn", str(basis.turn))
    assert done.returncode == 0, done.stderr
    log = folder / "turns" / f"turn-{basis.turn:02d}.yaml"
    assert step in log.read_text(encoding="utf-8") and unit.id in log.read_text(encoding="utf-8")
    state = replay(load_campaign(folder))
    verdict = next(v for v in state.verdicts if v.unit == unit.id)
    moved = state.unit(unit.id)
    assert moved is not None
    assert verdict.result in ("done", "held")  # held: its command roll, drawn from the seed, failed
    assert moved.hex == (step if verdict.result == "done" else unit.hex)


def test_issue24_the_pencil_form_reads_its_boxes_and_ticks_back(tmp_path: Path) -> None:
    """Issue 24, item 6, filled on screen: a path typed as digits alone (they fall four to a
    box), a special order ticked with the side it faces, a unit ticked aboard a train: all
    read back by `kitgen orders import` into the turn's log; and the form's fields name no font
    but the embedded one."""
    from pypdf import PdfWriter

    from kitgen.orders.rows import order_rows

    folder = _played_on(tmp_path)
    assert run_cli("next", str(folder)).returncode == 0
    campaign = load_campaign(folder)
    basis = turn_basis(campaign)
    rows = order_rows(campaign, basis.start, "whites", basis.turn)
    unit = next(r for r in rows if r.kind == "unit" and r.aboard is None and "repair" in r.specials)
    other = next(r for r in rows if r.kind == "unit" and r.aboard is None and r.id != unit.id)
    train = next(r for r in rows if r.kind == "train" and r.carriable)
    steps = [n for n in campaign.board.neighbours(unit.hex) if campaign.board.terrain.get(n) not in (None, "sea")]
    grid = campaign.board.grid
    side = grid.direction(grid.parse_id(unit.hex), grid.parse_id(steps[0]))  # type: ignore[arg-type]
    assert side is not None
    values = {  # repair its own hex and the next, the side toward it ticked (issue 27)
        f"o-{other.id}-path": "".join(campaign.board.neighbours(other.hex)[:1] * 2),
        f"o-{unit.id}-special-repair": "/Yes",
        f"o-{unit.id}-toward-{side.lower()}": "/Yes",
    }
    values[f"o-{train.id}-carry-{train.carriable[0][0]}"] = "/Yes"
    values[f"o-{train.id}-path"] = train.hex + next(iter(campaign.board.rail_neighbours(train.hex)))
    packet = next(f for f in packets_of(Packets(basis, "a4")) if f.who == "whites")
    writer = PdfWriter(clone_from=PdfReader(_bytes_io(packet.pdf)))
    for page in writer.pages:
        writer.update_page_form_field_values(page, values, auto_regenerate=False)
    filled = tmp_path / "filled.pdf"
    with filled.open("wb") as out:
        writer.write(out)
    done = run_cli("orders", "import", str(filled), "--campaign", str(folder), "--turn", str(basis.turn))
    assert done.returncode == 0, done.stderr
    log = (folder / "turns" / f"turn-{basis.turn:02d}.yaml").read_text(encoding="utf-8")
    assert re.search(rf"repair:\s*\[?\s*'?{unit.hex}'?,\s*'?{steps[0]}", log), log
    assert log.count(campaign.board.neighbours(other.hex)[0]) >= 2, log  # the digits cut into two hex ids
    assert re.search(rf"carry:\s*\[?\s*'?{train.carriable[0][0]}", log), log
    fields = PdfReader(_bytes_io(packet.pdf)).trailer["/Root"]["/AcroForm"]
    fonts = fields["/DR"]["/Font"]
    assert list(fonts) == ["/KgSans"] and "/FontFile2" in fonts["/KgSans"]["/FontDescriptor"]


def test_issue24_the_pencil_form_has_room_for_a_pencil(built: Built) -> None:
    """Issue 24, item 6, measured on the form's fields: a path box a step the row offers (issue
    42: a unit's MP's worth, a train's twelve, a ship's sixteen over two lines) of 11 mm or more,
    none for a unit that cannot move; tick boxes (issue 27: bubbles) of 4 mm or more, a fillable
    "written by", and a tick box for every unit a train or ship may take aboard."""
    from kitgen.orders.rows import order_rows

    mm = 72 / 25.4
    for faction in {u.faction for u in built.state.units}:
        rows = {r.id: r for r in order_rows(built.campaign, built.state, faction, built.packets.b.turn)}
        reader = PdfReader(_bytes_io(built.files[faction].pdf))
        widgets = {}
        for page in reader.pages:
            for ref in page.get("/Annots", ()):
                w = ref.get_object()
                if "/T" in w:
                    x0, y0, x1, y1 = (float(v) for v in w["/Rect"])
                    widgets[str(w["/T"])] = (abs(x1 - x0), abs(y1 - y0))
        assert f"written_by_{faction}" in widgets
        for row in rows.values():
            if not row.offered:
                assert f"o-{row.id}-path" not in widgets, row.id
                continue
            width = widgets[f"o-{row.id}-path"][0] + widgets.get(f"o-{row.id}-path2", (0.0, 0.0))[0]
            assert width / row.offered >= 11 * mm - 0.01, (row.id, width / row.offered / mm)
            assert row.offered == _steps_expected(built, row), row.id
            for unit, _ in row.carriable:
                assert min(widgets[f"o-{row.id}-carry-{unit}"]) >= 4 * mm - 0.01
            for word in row.specials:
                assert min(widgets[f"o-{row.id}-special-{word.replace(' ', '')}"]) >= 4 * mm - 0.01


def _steps_expected(built: Built, row: object) -> int:
    """The steps a row should offer, from the scenario's tables alone: a train 12 (C.1), a ship
    16 (D.1); a unit its type's MP, with the most any event card adds to it, over the least a
    hex of any terrain or a road costs it, at most 12; none aboard or immobilised."""
    kind, unit_id, type_id = row.kind, row.id, row.type  # type: ignore[attr-defined]
    if kind != "unit":
        return {"train": 12, "ship": 16}[kind]
    unit = next(u for u in built.state.units if u.id == unit_id)
    if unit.aboard is not None or unit.immobilised:
        return 0
    rules = built.campaign.scenario.movement
    t = next(x for x in rules.unit_types if x.id == type_id)
    t = next(x for x in rules.unit_types if x.id == t.moves_as) if t.moves_as else t
    cards = [
        e.modifier or 0
        for card in built.campaign.scenario.cards.events
        for e in card.effects
        if e.kind == "movement" and e.faction in (unit.faction, "all") and (not e.unit_types or type_id in e.unit_types)
    ]
    least = min([rules.road_cost, *(c for c in (t.cost or {}).values() if isinstance(c, int | float) and c > 0)])
    return min(12, int(((t.mp or 0) + max([0, *cards])) // least))


def test_II_C_order_form_targets_are_the_command_rolls_ahead(built: Built) -> None:
    """II.C: "Roll D10 ... obey on a roll at or under the rating": the target the order form prints
    for each unit is the one the turn's command roll for its hex is judged against."""
    from kitgen.orders.rows import order_rows

    ahead = {u: r.target for r in built.packets.rolls() if r.kind == "command" for u in r.units}
    for faction in {u.faction for u in built.state.units}:
        rows = order_rows(built.campaign, built.packets.b.after, faction, built.packets.b.turn)
        for row in rows:
            if row.kind == "unit":
                assert row.target == ahead[row.id], (faction, row.id)


def test_clean_map_cache_gives_the_drawn_map_and_survives_damage(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The clean map kept on disk is the map as drawn, byte for byte; a damaged entry is drawn again."""
    from kitgen.render.mapart import MapArt
    from kitgen.render.mapcache import clean_map_pdf, draw_map_pdf, map_key
    from kitgen.render.style import map_style

    monkeypatch.setenv("KITGEN_CACHE", str(tmp_path))
    campaign = load_campaign(ROOT / "data" / "tsaritsyn-sample")
    art = MapArt(campaign.hex_map, campaign.scenario, map_style())
    drawn = draw_map_pdf(art, campaign.scenario)
    assert clean_map_pdf(art, campaign.scenario) == drawn
    entry = tmp_path / f"mapart-{campaign.scenario.meta.id}-{map_key(campaign.scenario)}.pdf"
    assert entry.read_bytes() == drawn
    entry.write_bytes(b"%PDF-1.4 broken")
    assert clean_map_pdf(art, campaign.scenario) == drawn
    assert entry.read_bytes() == drawn


def test_label_places_kept_between_runs_are_the_ones_worked_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The map's label places kept on disk are those worked out afresh, and a packet made with
    them is the same file byte for byte; a damaged entry is worked out again."""
    import pickle

    from kitgen.render.mapart import MapArt
    from kitgen.render.mapcache import place_labels_once
    from kitgen.render.style import map_style

    monkeypatch.setenv("KITGEN_CACHE", str(tmp_path))
    campaign = load_campaign(ROOT / "data" / "tsaritsyn-sample")

    def fresh() -> MapArt:
        return MapArt(campaign.hex_map, campaign.scenario, map_style())

    worked_out = fresh().label_places()
    place_labels_once(fresh(), campaign.scenario)
    (entry,) = tmp_path.glob("maplabels-*.pickle")
    kept = fresh()

    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("the labels were placed again, not taken from the cache")

    with monkeypatch.context() as patched:
        patched.setattr("kitgen.render.mapart.place_labels", never)
        place_labels_once(kept, campaign.scenario)
    assert pickle.dumps(kept.label_places()) == pickle.dumps(worked_out)

    basis = turn_basis(campaign, None)
    cold = tmp_path / "cold"
    monkeypatch.setenv("KITGEN_CACHE", str(cold))
    first = [f.pdf for f in packets_of(Packets(basis, "a4"))]
    again = [f.pdf for f in packets_of(Packets(basis, "a4"))]
    assert list(cold.glob("maplabels-*.pickle"))
    assert again == first

    entry.write_bytes(b"not a pickle")
    damaged = fresh()
    monkeypatch.setenv("KITGEN_CACHE", str(tmp_path))
    place_labels_once(damaged, campaign.scenario)
    assert pickle.dumps(damaged.label_places()) == pickle.dumps(worked_out)
    assert pickle.dumps(pickle.loads(entry.read_bytes())) == pickle.dumps(worked_out), (
        "the damaged entry was not kept afresh"
    )


def test_fog_nothing_hidden_changes_a_faction_packet(built: Built) -> None:
    """Players write orders without knowing where the enemy is: take away every enemy a faction
    cannot see and wreck a stretch of track it cannot see, and its supply overlay, its reach and
    its map are what they were (B.3 traces, A moves and C.1 trains would stop at them)."""
    from dataclasses import replace

    b = built.packets.b
    for faction in sorted({u.faction for u in b.start.units}):
        full, near = _seen(built, faction)
        seen = full | near
        rail = sorted(h for h in built.campaign.board.towns if built.campaign.board.rail_neighbours(h))
        unseen_rail = next(h for h in rail if h not in seen and h not in b.setup_wrecked)

        def hide(
            state: CampaignState, seen: set[str] = seen, extra: str = unseen_rail, faction: str = faction
        ) -> CampaignState:
            units = tuple(u for u in state.units if u.faction == faction or u.hex in seen)
            wrecked = tuple(sorted({h for h in state.wrecked_track if h in seen or h in b.setup_wrecked} | {extra}))
            return replace(state, units=units, wrecked_track=wrecked)

        other = Packets(replace(b, start=hide(b.start), after=hide(b.after)), "a4")
        mine = built.packets
        assert other.overlay(faction, believed=True) == mine.overlay(faction, believed=True), faction
        assert reaches(other, faction, other.view(faction)) == reaches(mine, faction, mine.view(faction)), faction
        assert (
            make_scene(built.campaign, other.believed(faction), other.view(faction)).pieces
            == make_scene(built.campaign, mine.believed(faction), mine.view(faction)).pieces
        )


def _view(built: Built, faction: str):  # type: ignore[no-untyped-def]
    from kitgen.engine.intel import faction_view

    return faction_view(built.campaign.board, built.state, faction)


def test_fog_enemies_where_the_faction_fought_last_turn_are_shown_in_full(built: Built) -> None:
    """An enemy in a hex the faction occupies, or in one it fought in last turn (II.B), is shown in
    full: a counter with its id, or under a stack marker keyed to the list."""
    units = built.state.units
    for faction in sorted({u.faction for u in units}):
        full, _ = _seen(built, faction)
        scene = built.packets.scenes[faction]
        shown = {p.label for p in scene.drawn if p.kind == "unit"} | {
            u for p in scene.drawn if p.kind == "stack" for u in p.detail
        }
        for u in units:
            if u.faction != faction and u.hex in full and u.aboard is None:
                assert u.id in shown, (faction, u.id, u.hex)


def test_fog_the_tsaritsyn_reds_see_the_hexes_they_fought_in() -> None:
    """The sample's turn 3: the Reds fight at Tsaritsyn and lose; on turn 4 they know who holds it."""
    campaign = load_campaign(ROOT / "data" / "tsaritsyn-sample")
    packets = Packets(turn_basis(campaign, 4), "a4")
    fought = {r.hex for r in packets.b.after.battle_results if r.faction == "reds"}
    assert fought, "the sample's turn 3 has battles"
    view = packets.view("reds")
    held = {u.hex for u in packets.b.start.units if u.faction == "whites" and u.hex in fought}
    assert held and all(any(s.hex == h and s.grade == "full" for s in view.sightings) for h in held)


def _carriers_drawn(scene: Scene) -> list[Piece]:
    """Every train and ship a scene's pages drew: as a counter, or under a stack's."""
    found = [p for p in scene.drawn if p.kind == "carrier"]
    return found + [p.top for p in scene.drawn if p.kind == "stack" and p.top and p.top.kind == "carrier"]


def _carriers_in(scene: Scene) -> set[str]:
    """Every train and ship in the scene, drawn or in a stack (by id)."""
    stacked = {u for p in scene.drawn if p.kind == "stack" for u in p.detail}
    return {p.label for p in _carriers_drawn(scene)} | stacked


def test_umpire_master_map_marks_trains_ships_and_depots(built: Built) -> None:
    """The master map shows every train and ship where it stands, as its counter (or in a
    stack), every depot, and the wrecked track."""
    scene = built.packets.scenes["umpire"]
    state = built.state
    carriers = {str(t["id"]) for t in state.trains} | {str(s["id"]) for s in state.ships}
    assert carriers and carriers <= _carriers_in(scene)
    for piece in _carriers_drawn(scene):
        where = next(x["hex"] for x in (*state.trains, *state.ships) if str(x["id"]) == piece.label)
        assert piece.hex == where and piece.strength, piece
    assert sorted(d[0] for d in scene.depots) == sorted(d["hex"] for d in state.depots)
    assert sorted(scene.wrecked) == sorted(state.wrecked_track)


def test_acetate_lies_on_the_map_tiles(built: Built) -> None:
    """The supply overlay for transparency: on the map tiles' own pages, one per tile it marks,
    each named for the tile it lies on."""
    from kitgen.products.mapsheets import MapSheet
    from kitgen.products.packets.faction import acetate
    from kitgen.render.style import map_style

    tiling = MapSheet(built.campaign.hex_map, built.campaign.scenario, map_style()).tiling("a4")
    faction = sorted({u.faction for u in built.state.units})[0]
    made = acetate(built.packets, faction)
    reader = PdfReader(_bytes_io(made.pdf))
    assert made.name == f"{faction}-acetate-turn-{built.packets.b.turn:02d}-a4.pdf" and made.kind == "acetate"
    assert 1 <= len(reader.pages) == made.pages <= tiling.columns * tiling.rows
    for page in reader.pages:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(
            (tiling.page_w, tiling.page_h)
        )
    assert all(item.title.startswith("Tile ") for item in reader.outline)  # type: ignore[union-attr]


def test_the_turn_being_played_is_the_log_kitgen_next_started_until_its_battles_are_in(tmp_path: Path) -> None:
    """`kitgen turn` and `kitgen orders form` default to the turn being played: the last log while
    its turn is unfinished (RULES-NOTES 2026-12-05), with one faction's orders in or not; once
    `kitgen next` starts the following turn (here gone past the unfinished one, --force), that one."""
    folder = _played_on(tmp_path)
    assert turn_basis(load_campaign(folder)).turn == 4
    assert run_cli("next", str(folder)).returncode == 0
    assert turn_basis(load_campaign(folder)).turn == 4
    sheet = tmp_path / "whites.csv"
    assert run_cli("orders", "form", str(folder), "--faction", "whites", "--csv", "--out", str(sheet)).returncode == 0
    from kitgen.engine.reach import land_paths

    campaign = load_campaign(folder)
    state = turn_basis(campaign).after
    mover, step = next(
        (u.id, path[1])
        for u in state.units
        if u.faction == "whites"
        for path in land_paths(campaign, state, u.id).values()
        if len(path) == 2
    )
    lines = sheet.read_text(encoding="utf-8").splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith(f"{mover},"))
    lines[k] = lines[k].removesuffix(",,,") + f",{step},,"
    sheet.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = run_cli("orders", "import", str(sheet), "--campaign", str(folder), "--turn", "4")
    assert done.returncode == 0, done.stderr
    assert turn_basis(load_campaign(folder)).turn == 4, "one faction's orders in: still turn 4"
    form = tmp_path / "reds.pdf"
    assert run_cli("orders", "form", str(folder), "--faction", "reds", "--out", str(form)).returncode == 0
    assert PdfReader(form).get_fields()["id-reds-turn"].get("/V") == "4"  # type: ignore[index]
    assert run_cli("next", str(folder)).returncode == 1  # the Reds' orders and the rolls are owed
    assert run_cli("next", str(folder), "--force").returncode == 0  # the umpire goes on regardless
    assert turn_basis(load_campaign(folder)).turn == 5


def test_the_order_form_alone_shows_the_turn_as_its_packet_does(built: Built) -> None:
    """The standalone form is drawn from the start of the turn, as the packet's own form is:
    last turn's returning stands back and supply judged (B.2)."""
    from kitgen.orders.rows import order_rows

    b = built.packets.b
    for faction in sorted({u.faction for u in b.start.units}):
        rows = {r.id: (r.stands, r.supply) for r in order_rows(built.campaign, b.start, faction, b.turn)}
        units = {u.id: u for u in b.start.units}
        for unit_id, (_, supply) in rows.items():
            if unit_id in units:
                assert (supply == "in") == bool(units[unit_id].in_supply), (faction, unit_id)


def test_packets_font_subsets_have_names_of_their_own(built: Built) -> None:
    """The clean map's subsets and the packet's own are joined in one file: each keeps a name of
    its own (preflight flags two subsets under one name)."""
    from kitgen.render.pdffonts import fonts_of

    for f in built.files.values():
        reader = PdfReader(_bytes_io(f.pdf))
        seen: set[int] = set()
        names = [str(x["/BaseFont"]) for page in reader.pages for x in fonts_of(page.get("/Resources"), seen)]
        assert names and len(names) == len(set(names)), f.name


def test_every_packet_passes_qpdfs_check(built: Built) -> None:
    """Issue 24: "qpdf warns on every packet". The clean map is laid under the map pages by an
    incremental update with a cross-reference of its own (kitgen/render/mapembed.py): qpdf's check
    (`qpdf --check`, through pikepdf) finds nothing, in the packets with map pages and without."""
    for who, f in built.files.items():
        assert qpdf_problems(f.pdf) == [], who


def test_the_umpire_packet_prints_no_command_lines(built: Built) -> None:
    """Issue 24: "The umpire's first page prints `kitgen` command lines": the packet says what to
    do in words; kitgen is named only in the footer, with its version."""
    text = built.text["umpire"]
    assert "`" not in text
    assert not re.search(r"\bkitgen (next|turn|status|validate|orders|new|restore)\b", text)


def test_the_umpire_checklist_says_what_status_says(tmp_path: Path) -> None:
    """Issue 24, item 7: a checklist page saying what `kitgen status` says: whose orders are in,
    the rolls not yet written, each battle to report with its units, slips to place. The sample's
    turn 6 with its battles taken out is a turn still owing them."""
    import yaml

    from kitgen.record.status import campaign_status

    folder = tmp_path / "campaign"
    shutil.copytree(ROOT / "data" / "sample-campaign", folder)
    last = folder / "turns" / "turn-06.yaml"
    log = yaml.safe_load(last.read_text(encoding="utf-8"))
    log.pop("battles")
    last.write_text(yaml.safe_dump(log, sort_keys=False), encoding="utf-8")
    campaign = load_campaign(folder)
    status = campaign_status(campaign)
    owed = [o for o in status.owed if o.kind == "no_report"]
    assert owed and status.turn == 6
    umpire = next(f for f in packets_of(Packets(turn_basis(campaign), "a4")) if f.who == "umpire")
    page = " ".join(_text(umpire.pdf, tmp_path, "umpire.pdf").split("\f")[1].split())
    assert "Turn 6: the checklist" in page
    for f in status.factions:
        assert f"{f.name}: {'in' if f.handed_in else 'not in yet'}; {f.ordered} of {f.units} units" in page
    for o in owed:
        assert f"to report under hex {' or '.join((o.hex or '', *o.across))}" in page
        assert all(f"({unit})" in page for unit in o.units)
    for ids in status.slips.values():
        assert all(f"({slip})" in page for slip in ids)


def _part(built: Built, who: str, title: str) -> str:
    """The text of the pages of one part of a packet, by the start of its bookmark's title."""
    pages = built.text[who].split("\f")
    titles = _page_titles(built.files[who].pdf)
    return "\n".join(pages[k] for k, t in titles.items() if t.startswith(title))


def test_issue24_a_players_packet_tells_his_last_turn(built: Built) -> None:
    """Issue 24, item 5: what his units did last turn, each order's verdict in words, the battles
    he fought with their results, the event card drawn, towns gained and lost: every sentence
    from the state's typed results, named as the counters are."""
    b = built.packets.b
    assert b.before is not None
    for faction in sorted({u.faction for u in b.start.units}):
        name = built.packets.names[faction]
        page = " ".join(_part(built, faction, f"{name}, turn {b.turn}").split())  # the situation report
        assert f"Turn {b.after.turn}: what happened".upper() in page, faction
        assert page, faction
        pieces = {u.id: u.name for u in (*b.before.units, *b.after.units)}
        for v in b.after.verdicts:
            if v.faction == faction and v.kind == "land":
                assert pieces[v.unit] in page and v.result in page, (faction, v.unit)
        fought = {r.battle for r in b.after.battle_results if r.faction == faction}
        for battle in fought:
            mine = [r for r in b.after.battle_results if r.battle == battle and r.faction == faction]
            assert f"{'won' if mine[0].side == 'winner' else 'lost'} against" in page
            assert all(pieces[r.unit] in page for r in mine)
        titles = {c.id: c.title for c in built.campaign.scenario.cards.events}
        assert all(titles[e] in page for e in b.after.events) and (b.after.events or "none drawn" in page)
        lost = sorted(t for t, f in b.before.owners.items() if f == faction and b.after.owners.get(t) != faction)
        assert all(built.campaign.scenario.shown_place(t) in page for t in lost)  # as the map prints them
        # fog: an enemy unit is named only if the faction fought it last turn
        met = {r.unit for r in b.after.battle_results if r.battle in fought}
        hidden = {u.name for u in (*b.before.units, *b.after.units) if u.faction != faction and u.id not in met}
        named = {u.name for u in (*b.before.units, *b.after.units) if u.faction == faction or u.id in met}
        assert not [n for n in hidden - named if n in page], faction


def test_a_unit_that_left_the_map_in_battle_is_said_to_be_taken_or_destroyed() -> None:
    """Issue 24: "What changed lists destroyed units as 'Left the map ... retreats'": a unit gone
    after a battle surrendered, perished, or lost every stand."""
    from kitgen.engine.changes import changes
    from kitgen.engine.state import BattleResult

    campaign = load_campaign(ROOT / "data" / "sample-campaign")
    before = turn_basis(campaign, 2).after
    gone = before.units[0]
    after = replace(
        before,
        turn=before.turn + 1,
        units=before.units[1:],
        battle_results=(BattleResult(0, gone.hex, gone.id, gone.faction, "loser", (), 4, 0, 0, "retreats", "0101"),),
    )
    (left,) = [c for c in changes(before, after) if c.kind == "gone"]
    assert (left.subject, left.detail) == (gone.id, "destroyed")


def test_issue24_reach_is_an_area_by_MP_band_and_a_short_table(built: Built) -> None:
    """Issue 24, item 4: each faction's reach is drawn as an area of the hexes its units can
    march to, by band of the least MP any of them spends there, hexes only a train reaches apart;
    the reach pages are short tables by stack (the towns within reach), not walls of hex numbers."""
    from kitgen.render.sceneart import reach_band

    assert [reach_band(mp, [1, 2, 4]) for mp in range(0, 7)] == [0, 0, 1, 2, 2, 3, 3]
    p = built.packets
    for faction in sorted({u.faction for u in built.state.units}):
        reached = reaches(p, faction, p.view(faction))
        least: dict[str, int] = {}
        for r in reached:
            for h, mp in r.land.items():
                if not built.campaign.board.is_sea(h):  # units aboard ship: no land reach
                    least[h] = min(mp, least.get(h, mp))
        scene = p.scenes[faction]
        assert scene.reach == least
        assert scene.rail == frozenset(h for r in reached for h in r.rail) - set(least)
        page = _part(built, faction, "Reach")
        stacks = len({r.hex for r in reached})
        assert len(re.findall(r"\b\d{4}\b", page)) <= 6 * stacks + 2, faction  # hexes, enemy hexes in notes


def _counters_on_pages(packets: Packets, who: str, pdf: bytes) -> dict[int, list[tuple[float, float, float, float]]]:
    """The counters and markers a packet's pages drew, page by page, in PyMuPDF's space (y down)."""
    heights = [float(page.mediabox.height) for page in PdfReader(_bytes_io(pdf)).pages]
    found: dict[int, list[tuple[float, float, float, float]]] = {}
    for page, (x0, y0, x1, y1) in packets.scenes[who].on_pages:
        h = heights[page - 1]
        found.setdefault(page, []).append((x0, h - y1, x1, h - y0))
    return found


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_issue24_every_packet_page_passes_the_layout_gate(built: Built, paper: str) -> None:
    """Issue 24, item 9: no type under the minimums (7 pt, hex ids 5 pt, counters 4.5 pt), no
    text over text or across a counter's edge, none off its page or broken in a cell, and qpdf's
    check clean, on every page of every packet: the words, the overview, the sectors with their
    counters and names, the supply maps, and the order form with its fields in the embedded font;
    A4 and US Letter."""
    packets = built.packets if paper == "a4" else Packets(turn_basis(built.campaign), paper)
    files = built.files if paper == "a4" else {f.who: f for f in packets_of(packets)}
    for who, f in files.items():
        titles = _page_titles(f.pdf)
        assert any(t.startswith("Map sector") for t in titles.values()), (who, titles)
        counters = _counters_on_pages(packets, who, f.pdf)
        assert counters, who
        found = breaches(f.pdf, counters=counters)
        assert not found, f"{who} ({paper}): " + "; ".join(str(b) for b in found[:10])


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_issue24_the_battle_sheets_pass_the_layout_gate(paper: str) -> None:
    """Issue 24, item 9, on the umpire's packet of a turn whose orders are in (the sample's
    turn 6): its battle set-up sheets (the small map at the map's own scale, the forces, the
    battle report and the losses) pass the gate, A4 and US Letter."""
    campaign = load_campaign(ROOT / "data" / "sample-campaign")
    packets = Packets(turn_basis(campaign, 6), paper)
    umpire = next(f for f in packets_of(packets) if f.who == "umpire")
    titles = _page_titles(umpire.pdf)
    assert any(t.startswith("Battle at") for t in titles.values()), titles
    found = breaches(umpire.pdf, counters=_counters_on_pages(packets, "umpire", umpire.pdf))
    assert not found, "; ".join(str(b) for b in found[:10])


def test_packets_are_never_forked_from_a_process_with_other_threads(monkeypatch: pytest.MonkeyPatch) -> None:
    """A fork copies the locks other threads hold, and its child can hang on one: kitgen run
    inside a threaded process (a test runner's worker) makes its packets one after another, and
    they are the files made in processes of their own."""
    import multiprocessing
    import threading

    from kitgen.products.packets import packets_at_once

    campaign = load_campaign(ROOT / "data" / "tsaritsyn-sample")
    expected = [f.pdf for f in packets_of(Packets(turn_basis(campaign), "a4"))]

    def refused(*args: object) -> None:
        raise AssertionError("forked with another thread alive")

    monkeypatch.setattr(multiprocessing, "get_context", refused)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        made = [f.pdf for f in packets_at_once(Packets(turn_basis(campaign), "a4"))]
    finally:
        stop.set()
        other.join()
    assert made == expected


def test_issue24_every_counter_lies_inside_its_hex(built: Built) -> None:
    """Issue 24, item 2: "each centred in its hex and never crossing a hexside": every counter,
    the edges of a stack's under-counters and its badge, as the sector pages drew them (the
    drawn record, in the map's points), lies inside its hex's outline."""
    import shapely

    art = built.packets.art
    by_id = art.map.by_id()
    for who, scene in built.packets.scenes.items():
        assert scene.placed, who
        for hex_id, box in scene.placed:
            outline = shapely.Polygon(art.corners(by_id[hex_id])).buffer(0.01)
            assert outline.contains(shapely.box(*box)), f"{who}: a piece in {hex_id} crosses its hexside: {box}"


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_issue24_every_piece_is_on_a_sector_page_inside_its_window(built: Built, paper: str) -> None:
    """Issue 24, items 2 and 3: every hex with pieces in a packet's scene is drawn on one of its
    sector pages at least (a tile of the last row or column is the largest, and is shown whole),
    and every counter lies inside the map's window of its page, never cut by it."""
    packets = built.packets if paper == "a4" else Packets(turn_basis(built.campaign), paper)
    if paper != "a4":
        packets_of(packets)
    for who, scene in packets.scenes.items():
        drawn = {h for h, _ in scene.placed}
        assert set(scene.pieces) <= drawn, f"{who} ({paper}): on no sector page: {sorted(set(scene.pieces) - drawn)}"
        for page, (x0, y0, x1, y1) in scene.on_pages:
            wx0, wy0, wx1, wy1 = scene.windows[page]
            assert wx0 - 0.5 <= x0 and x1 <= wx1 + 0.5 and wy0 - 0.5 <= y0 and y1 <= wy1 + 0.5, (who, page)


def test_issue24_counters_fit_every_hex_of_the_map_under_its_id(built: Built) -> None:
    """Issue 24, item 2, on the whole board: one counter fits inside every hex, inside what the
    map's frame leaves of it, and clear of its hex id; a stack's (with the edges of the counters
    under it) and two, one under the other with its name band above it (issue 42), fit inside
    every hex and clear of its id (inside the frame unless the frame leaves too little of the hex)."""
    import shapely

    from kitgen.render.sceneart import STEP

    p = built.packets
    art, draw = p.art, p.scene_art
    frame = shapely.box(0, 0, art.width, art.height).buffer(0.01)
    ids = {h: shapely.box(*box) for h, _, _, box in art.hex_id_spots()}
    for h in art.map.hexes:
        outline = shapely.Polygon(art.corners(h)).buffer(0.01)
        cx, cy = art.centres[h.id]
        cases = (
            (1, draw.st.counter, False, 0.0),
            (1, draw.st.counter, True, 0.0),
            (2, draw.st.pair, False, draw.st.peek),
        )
        for n, size, stack, peek in cases:
            squares = draw.squares(float(cx), float(cy), 1, size, (0, 0, art.width, art.height), stack=stack, peek=peek)
            up = 2 * STEP if stack else 0.0  # the edges of the counters under a stack's top one
            band = peek * (squares[0][2] - squares[0][0]) / size  # the under counter's name, above
            boxes = [shapely.box(b[0], b[1], b[2] + up, b[3] + up + band) for b in squares]
            assert all(outline.contains(b) for b in boxes), (h.id, n)
            assert n == 2 or stack or all(frame.contains(b) for b in boxes), (h.id, n)
            assert not any(b.intersects(ids[h.id]) for b in boxes), (h.id, n)


def _hex_ids_on(page: object) -> dict[str, tuple[float, float]]:
    """Each whole hex id printed on a page, at its glyphs' top-left corner."""
    found = {}
    for block in page.get_text("dict")["blocks"]:  # type: ignore[attr-defined]
        for line in block.get("lines", ()):
            for span in line["spans"]:
                if re.fullmatch(r"\d{4}", span["text"].strip()):
                    found[span["text"].strip()] = (span["bbox"][0], span["bbox"][1])
    return found


def test_issue24_sectors_are_the_kit_tiles_at_their_scale_and_under_their_names(built: Built) -> None:
    """Issue 24, item 3: a sector page is the kit's map tile of the same name at the tiles' hex
    size: measured on the pages, each hex id on "Sector B3" stands where it stands on "Tile B3",
    shifted by one offset for the whole page; and a hex is the map's own size across."""
    import pymupdf

    from kitgen.products.mapsheets import MapSheet
    from kitgen.render.style import map_style

    style = map_style()
    tiles_pdf, _ = MapSheet(built.campaign.hex_map, built.campaign.scenario, style).tiles("a4")
    tiles = pymupdf.open(stream=tiles_pdf, filetype="pdf")
    tile_pages = {}
    for page in tiles:
        found = re.search(r"Tile ([A-Z]+\d+) ", page.get_text())
        if found:
            tile_pages[found.group(1)] = _hex_ids_on(page)
    checked = 0
    for who, f in built.files.items():
        doc = pymupdf.open(stream=f.pdf, filetype="pdf")
        for k, title in _page_titles(f.pdf).items():
            if not title.startswith("Map sector "):
                continue
            name = title.removeprefix("Map sector ")
            assert name in tile_pages, f"{who}: sector {name} is no tile of the kit ({sorted(tile_pages)})"
            here, there = _hex_ids_on(doc[k]), tile_pages[name]
            shared = sorted(set(here) & set(there))
            assert len(shared) >= 12, (who, name)
            dx, dy = (here[shared[0]][i] - there[shared[0]][i] for i in (0, 1))
            for h in shared:
                assert abs(here[h][0] - there[h][0] - dx) < 0.05 and abs(here[h][1] - there[h][1] - dy) < 0.05, (
                    who,
                    name,
                    h,
                )
            art = built.packets.art
            whole = [h for h in shared if art.hex_pt / 2 <= art.centres[h][1] <= art.height - art.hex_pt / 2]
            pairs = [(h, f"{h[:2]}{int(h[2:]) - 1:02d}") for h in whole]  # the hex above, in the same column
            pairs = [(h, up) for h, up in pairs if up in whole]
            assert pairs, (who, name)
            for h, up in pairs:  # one hex across the flats apart, as the map's style says
                assert abs(here[h][1] - here[up][1] - style.hex_across_in * 72) < 0.05, (who, name, h, up)
            checked += 1
    assert checked >= 2


def test_issue24_the_lists_and_the_story_run_over_pages_as_they_grow(built: Built, tmp_path: Path) -> None:
    """A faction with many slips waiting (150, here) gets its reinforcements listed a row a slip,
    one drawn many times once with its count (issue 42); a faction eight times as large gets its
    report flowed on over as many pages as its words take, its tables' headers again over their
    further rows, never a page run into its footer (the Sheet would raise)."""
    from collections import Counter

    from kitgen.products.cardkey import slip_label

    b = built.packets.b
    s = built.campaign.scenario
    faction = next(f for f in sorted({u.faction for u in b.start.units}) if s.cards.piles.get(f))
    pile = [slip.id for slip in s.cards.piles[faction]]
    drawn = (pile * 60)[:150]
    own = [u for u in b.start.units if u.faction == faction and u.aboard is None]
    more = [
        replace(u, id=f"{u.id}_copy{k}", name=f"{u.name} {k}") for k in range(1, 8) for u in own
    ]  # a faction 8 times as large
    many = replace(b.start, slips={**b.start.slips, faction: tuple(drawn)}, units=(*b.start.units, *more))
    files = {f.who: f for f in packets_of(Packets(replace(b, start=many), "letter"))}
    titles = _page_titles(files[faction].pdf)
    name = built.packets.names[faction]
    before = sum(t.startswith(f"{name}, turn") for t in _page_titles(built.files[faction].pdf).values())
    assert sum(t.startswith(f"{name}, turn") for t in titles.values()) > max(1, before)
    text = " ".join(_text(files[faction].pdf, tmp_path, "grown").split())
    assert "YOUR FORCES (CONTINUED)" in text  # the forces run on, the header again over them
    for sid, n in Counter(drawn).items():
        label = slip_label(s, faction, sid)
        assert (f"{label} (\u00d7{n})" if n > 1 else label) in text, (sid, n)


def test_issue24_a_battle_is_told_with_allies_apart_and_every_stand_counted() -> None:
    """The last-turn page's battle: an ally on the player's side is named as fighting with him,
    not against him; stands lost for good count the routed who deserted; a unit taken or
    destroyed lost every stand, none back next turn."""
    from kitgen.engine.state import BattleResult
    from kitgen.products.packets.lastturn import battle_lines

    factions = {"reds": "Reds", "makhnovists": "Makhnovists", "whites": "Whites"}
    results = [
        BattleResult(0, "2129", "r_a", "reds", "loser", (), 1, 1, 2, "retreats", "2128"),
        BattleResult(0, "2129", "r_b", "reds", "loser", (), 1, 1, 0, "surrenders"),
        BattleResult(0, "2129", "m_a", "makhnovists", "loser", (), 0, 0, 0, "retreats", "2030"),
        BattleResult(0, "2129", "w_a", "whites", "winner", (), 0, 1, 0, "holds"),
    ]
    names = {"r_a": "Red A", "r_b": "Red B", "m_a": "Black Guard", "w_a": "White A"}
    (line,) = battle_lines(factions, {"2129": ("Sevastopol",)}, "reds", results, names)
    assert line.startswith("at Sevastopol (2129), with the Makhnovists, lost against the Whites.")
    assert "Red A: 3 stands lost for good, 1 back next turn; retreated to 2128" in line
    assert "Red B: all its stands lost; surrendered" in line
    assert "The enemy: White A held its ground." in line


def test_issue24_the_week_page_lists_the_battle_sheets_once() -> None:
    """The umpire's contents name the battle set-up sheets once, however many battles there are."""
    from kitgen.products.packets.builder import _contents

    pages = [("The week and the ledgers", "week", None)]
    for k in range(30):  # each battle's set-up sheet, then its report form
        pages += [(f"Battle at Town {k} (01{k:02d}), turn 3", f"b{k}", None)]
        pages += [(f"Battle report: Town {k} (01{k:02d})", f"r{k}", None)]
    said = _contents(pages)  # type: ignore[arg-type]
    assert said == [("The week and the ledgers", 1), ("Battle set-up sheets and report forms", 2)]
