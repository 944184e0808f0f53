"""Property tests of the look-ups over the bundled scenario's data."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from kitgen.loader import load_scenario
from kitgen.rules import battle, command, movement, partisans, transport, victory

S = load_scenario()
KINDS = [k.id for k in S.transport.stands]
POINTS = {k.id: k.points for k in S.transport.stands}
TYPES = [u.id for u in S.movement.unit_types]
TERRAIN = [t.id for t in S.movement.terrain]


@given(st.dictionaries(st.sampled_from(KINDS), st.integers(0, 20)), st.sampled_from(["train", "ship"]))
def test_load_total_is_the_sum_of_points_and_fits_iff_within_capacity(items: dict[str, int], carrier: str) -> None:
    load = transport.load_points(S.transport, items, carrier)  # type: ignore[arg-type]
    assert load.total == sum(POINTS[k] * n for k, n in items.items())
    assert load.capacity == (12 if carrier == "train" else 16)
    assert load.fits == (load.total <= load.capacity)


@given(st.integers(1, 10), st.integers(0, 12))
def test_obey_chance_is_target_over_ten_and_grows_with_failures(rating: int, failures: int) -> None:
    chance = command.obey_chance(S.command, rating, failures=failures)
    assert chance == Fraction(min(rating + failures, 10), 10)
    assert command.obey_chance(S.command, rating, failures=failures + 1) >= chance


@given(st.sampled_from(["winner", "loser"]), st.integers(0, 60), st.integers(0, 60), st.booleans())
def test_losses_split_every_stand_exactly_once(side: str, lost: int, routed: int, exempt: bool) -> None:
    r = battle.losses(S.battle, side, lost, routed, exempt=exempt)  # type: ignore[arg-type]
    assert r.permanent + r.returning == lost
    assert r.routed_lost + r.routed_returning == routed
    pct = 40 if side == "winner" else 55
    assert abs(r.permanent - lost * pct / 100) <= 0.5
    if side == "winner" or exempt:
        assert r.routed_lost == 0


@given(st.sampled_from(["reds", "whites", "ukrainians"]), st.integers(0, 10_000))
def test_chart_rolls_account_for_the_whole_total(faction: str, total: int) -> None:
    r = victory.chart_rolls(S.victory, faction, total)
    assert r.rolls * r.threshold + r.remainder == total
    assert 0 <= r.remainder < r.threshold


@given(
    st.sampled_from(TYPES),
    st.sampled_from(TERRAIN),
    st.sampled_from(movement.RIVERS),
    st.booleans(),
    st.booleans(),
    st.booleans(),
)
def test_a_bridge_road_or_rail_never_makes_a_hex_dearer(
    unit: str, terrain: str, river: str, bridge: bool, road: bool, rail: bool
) -> None:
    base = movement.entry_cost(S.movement, unit, terrain, river=river)  # type: ignore[arg-type]
    helped = movement.entry_cost(S.movement, unit, terrain, river=river, bridge=bridge, road=road, rail=rail)  # type: ignore[arg-type]
    if base.allowed:
        assert helped.allowed and helped.mp <= base.mp  # type: ignore[operator]
    if helped.allowed:
        assert helped.mp >= 1  # type: ignore[operator]


@given(st.integers(-3, 3))
def test_evade_chance_grows_with_the_modifier(modifier: int) -> None:
    assert partisans.evade_chance(S.partisans, modifier + 1) >= partisans.evade_chance(S.partisans, modifier)


@given(st.sampled_from(S.towns), st.data())
def test_any_name_of_a_town_in_any_case_finds_it(town: object, data: st.DataObject) -> None:
    name = data.draw(st.sampled_from(town.names()))  # type: ignore[attr-defined]
    spelled = data.draw(st.sampled_from([name.upper(), name.lower(), name.replace("-", " "), f" {name} "]))
    found = S.find_town(spelled.strip())
    assert found is town
