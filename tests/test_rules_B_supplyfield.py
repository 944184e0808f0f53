"""B.3 over the whole board at once (kitgen/rules/supplyfield.py) against the trace of one hex
(kitgen/rules/paths.py), on random small hand-made boards: terrain with sea, major and crossable
rivers with bridges, open-water hexsides, railways, sources, enemies, wrecked track, pontoons."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kitgen.mapping.board import Board
from kitgen.mapping.hexgrid import HexGrid
from kitgen.mapping.hexmap import SEA, Hexside
from kitgen.rules.paths import rail_tree, supply_trace
from kitgen.rules.supplyfield import supply_field


@st.composite
def boards(draw: st.DrawFn) -> Board:
    grid = HexGrid(30.0, draw(st.integers(1, 7)), draw(st.integers(1, 7)), 0.0, 0.0)
    hexes = [grid.hex_id(c, r) for c, r in grid.cells()]
    terrain = {h: draw(st.sampled_from(["open", "open", "open", "forest", SEA])) for h in hexes}
    pairs = sorted({tuple(sorted((h, n))) for h in hexes for n in _neighbours(grid, h)})
    sides: dict[frozenset[str], Hexside] = {}
    rail = set()
    for a, b in pairs:
        kind = draw(st.sampled_from(["none", "none", "none", "major", "crossable", "water"]))
        bridge = kind != "none" and draw(st.booleans())
        if kind == "water":
            sides[frozenset((a, b))] = Hexside((a, b), "", None, None, bridge, sea=True)
        elif kind != "none":
            sides[frozenset((a, b))] = Hexside((a, b), "", "River", kind, bridge)
        if draw(st.integers(0, 2)) == 0:
            rail.add(frozenset((a, b)))
    return Board(grid, terrain, sides, frozenset(rail))


def _neighbours(grid: HexGrid, hex_id: str) -> list[str]:
    cell = grid.parse_id(hex_id)
    assert cell is not None
    return [grid.hex_id(*n) for n in grid.neighbours(*cell)]


def is_proof(
    board: Board,
    path: tuple[str, ...],
    start: str,
    sources: set[str],
    enemy: set[str],
    wrecked: set[str],
    trace: int,
    crossings: set[frozenset[str]],
) -> bool:
    """The path starts in `start`, runs at most `trace` hexes overland through hexes free of
    enemies (the unit's own hex aside), not across open water or an unbridged major river, to
    the first hex with a railway (or a source), then along intact, enemy-free track to a source."""
    if path[0] != start or path[-1] not in sources:
        return False
    if any(not board.adjacent(a, b) for a, b in zip(path, path[1:], strict=False)):
        return False
    railway = rail_tree(board, sources, enemy - {start}, wrecked)
    land = next(i for i, h in enumerate(path) if h in railway or h in sources)
    if land > trace:
        return False
    for a, b in zip(path[:land], path[1 : land + 1], strict=False):
        side = board.side(a, b)
        bridged = side is not None and (side.bridge or frozenset((a, b)) in crossings)
        if (
            b in enemy
            or board.is_sea(b)
            or (side is not None and not bridged and (side.sea or side.river_class == "major"))
        ):
            return False
    track = path[land:]
    return all(
        board.rail_link(a, b) and b not in wrecked and a not in wrecked and (b not in enemy or b == start)
        for a, b in zip(track, track[1:], strict=False)
    )


@settings(max_examples=300, deadline=None)
@given(board=boards(), data=st.data())
def test_B3_whole_board_supply_equals_the_trace_of_each_hex(board: Board, data: st.DataObject) -> None:
    """RULES-NOTES on B.3: "Supply trace: from the unit's hex, at most 5 hexes (the unit's own hex
    is 0) through hexes free of enemy units, not across sea or an unbridged major-river hexside, to
    a hex with rail track that connects over intact, enemy-free track to one of the faction's
    supply sources." Judged for every hex of the board at once, each hex is in supply exactly when
    its own trace is (its own hex not counted as enemy-held, as for a unit in a contested hex),
    and the path given proves it: the same path the trace of that hex finds."""
    hexes = sorted(board.terrain)
    subset = st.sets(st.sampled_from(hexes), max_size=len(hexes))
    sources, enemy, wrecked = data.draw(subset), data.draw(subset), data.draw(subset)
    pairs = sorted({tuple(sorted((h, n))) for h in hexes for n in board.neighbours(h)})
    crossings = {frozenset(p) for p in data.draw(st.sets(st.sampled_from(pairs), max_size=3))} if pairs else set()
    trace = data.draw(st.integers(0, 5))

    field = supply_field(board, sources, enemy=enemy, wrecked=wrecked, trace_hexes=trace, crossings=crossings)

    for i, h in enumerate(field.arrays.ids):
        own = enemy - {h}
        railway = rail_tree(board, sources, own, wrecked)
        want = supply_trace(
            board, h, sources, enemy=own, wrecked=wrecked, trace_hexes=trace, railway=railway, crossings=crossings
        )
        got = field.path(h)
        assert (got is not None) is (want is not None) is bool(field.in_supply[i]), h
        if got is not None:
            assert is_proof(board, got, h, sources, enemy, wrecked, trace, crossings), (h, got)
        assert got == want, h


def test_B3_whole_board_supply_has_a_hex_by_hex_answer_off_the_board() -> None:
    """B.3: a hex off the board is in supply only as a source of its own."""
    board = Board(HexGrid(30.0, 2, 2, 0.0, 0.0), {"0101": "open", "0102": "open"})
    field = supply_field(board, {"9999"}, trace_hexes=5)
    assert field.path("9999") == ("9999",) and field.path("0101") is None and field.path("8888") is None
