"""`kitgen validate` and the scenario loader: every problem at once, each at file:line:column."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from kitgen.errors import KitgenError, Problem
from kitgen.loader import SCENARIO_FILES, load_scenario
from tests.conftest import BUNDLED, edit


def problems(folder: Path) -> list[str]:
    return [str(p) for p in problem_list(folder)]


def problem_list(folder: Path) -> list[Problem]:
    with pytest.raises(KitgenError) as exc:
        load_scenario(folder)
    return exc.value.problems


def run_validate(folder: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kitgen", "validate", str(folder)], capture_output=True, text=True, check=False
    )


def test_bundled_scenario_validates() -> None:
    result = run_validate(BUNDLED)
    assert result.returncode == 0, result.stderr
    assert "ok (73 towns, 59 commanders, 4 factions; map 54 x 34 hexes of 30 km)" in result.stdout


def test_every_scenario_file_is_loaded_and_used() -> None:
    found = [str(p.relative_to(BUNDLED)) for p in [*BUNDLED.glob("*.yaml"), *BUNDLED.glob("geo/*.geojson")]]
    assert sorted(found) == sorted(SCENARIO_FILES)


def test_rating_eleven_names_file_line_and_key(scenario_copy: Path) -> None:
    """The issue's example: a commander rating of `eleven` exits 1 and names file, line and key."""
    line = edit(
        scenario_copy / "commanders.yaml",
        "name: Vatsetis, faction: reds, dependability: 9",
        "name: Vatsetis, faction: reds, dependability: eleven",
    )
    result = run_validate(scenario_copy)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    expected = f"commanders.yaml:{line}:52: commanders[1].dependability: found 'eleven', expected a whole number (the rule's range is 1 to 10)"
    assert expected in result.stderr
    assert result.stderr.strip().endswith("1 problem found")


def test_unknown_key(scenario_copy: Path) -> None:
    line = edit(scenario_copy / "command.yaml", "failure_bonus: 1", "failure_bonus: 1\nfailure_bonsu: 2")
    assert problems(scenario_copy) == [
        f"{scenario_copy / 'command.yaml'}:{line + 1}:1: failure_bonsu: found the unknown key 'failure_bonsu', "
        "expected one of roll, leaderless, failure_bonus or rulings; did you mean 'failure_bonus'?"
    ]


def test_wrong_type(scenario_copy: Path) -> None:
    edit(scenario_copy / "events.yaml", "discard_after_use: true", "discard_after_use: yes please")
    (found,) = problems(scenario_copy)
    assert found.endswith("discard_after_use: found 'yes please', expected true or false")


def test_missing_key(scenario_copy: Path) -> None:
    edit(scenario_copy / "supply.yaml", "trace_hexes: 5\n", "")
    (found,) = problem_list(scenario_copy)
    assert found.code == "value.missing_key" and found.message.startswith("trace_hexes: found nothing")


def test_town_named_twice(scenario_copy: Path) -> None:
    line = edit(scenario_copy / "towns.yaml", "{name: Grigoriopol,", "{name: KIEV,")
    (found,) = problem_list(scenario_copy)
    assert (Path(found.file).name, found.line, found.column) == ("towns.yaml", line, 12)
    assert found.code == "check.duplicate_town"
    assert found.message.startswith("towns[13].name: found the town name 'KIEV' a second time (first as 'Kiev')")


def test_town_alias_clashing_with_another_town(scenario_copy: Path) -> None:
    edit(scenario_copy / "towns.yaml", "aliases: [Kyiv]", "aliases: [Kyiv, Odessa]")
    (found,) = problem_list(scenario_copy)
    assert found.code == "check.duplicate_town" and "'Odessa'" in found.message


def test_commander_named_twice(scenario_copy: Path) -> None:
    edit(scenario_copy / "commanders.yaml", "name: Budenny,", "name: Trotsky,")
    (found,) = problem_list(scenario_copy)
    assert found.code == "check.duplicate_commander"
    assert found.message.startswith("commanders[4].name:") and "'Trotsky'" in found.message


def test_commander_of_unknown_faction(scenario_copy: Path) -> None:
    line = edit(scenario_copy / "commanders.yaml", "name: Shchors, faction: reds", "name: Shchors, faction: greens")
    (found,) = problems(scenario_copy)
    assert found == (
        f"{scenario_copy / 'commanders.yaml'}:{line}:30: commanders[20].faction: found the unknown faction 'greens', "
        "expected one of reds, whites, ukrainians or makhnovists; did you mean 'reds'?"
    )


def test_terrain_not_in_movement_table(scenario_copy: Path) -> None:
    edit(
        scenario_copy / "movement.yaml",
        "cost: {open: 1, forest: 2, mountain: 4, marsh: 4}",
        "cost: {open: 1, forest: 2, mountain: 4, swamp: 4}",
    )
    found = {p.code: p.message for p in problem_list(scenario_copy)}
    assert found["check.unknown_terrain"].startswith("unit_types[1].cost.swamp: found the unknown terrain 'swamp'")
    assert "open, forest, mountain or marsh" in found["check.unknown_terrain"]
    assert found["check.missing_terrains"].startswith("unit_types[1].cost: found no entry for marsh")


def _one(folder: Path) -> Problem:
    (found,) = problem_list(folder)
    return found


def test_unknown_town_suggests_the_nearest(scenario_copy: Path) -> None:
    line = edit(
        scenario_copy / "map.yaml", "{town: Gulai Pole, while_held: true}", "{town: Gulai Polye, while_held: true}"
    )
    found = _one(scenario_copy)
    assert (Path(found.file).name, found.line, found.code) == ("map.yaml", line, "check.unknown_town")
    assert "'Gulai Polye'" in found.message and "; did you mean 'Gulai Pole'" in found.message


def test_unknown_faction_suggests_the_nearest(scenario_copy: Path) -> None:
    line = edit(
        scenario_copy / "setup.yaml", "{faction: makhnovists, at: Gulai Pole}", "{faction: makhnovsts, at: Gulai Pole}"
    )
    found = _one(scenario_copy)
    assert (Path(found.file).name, found.line, found.code) == ("setup.yaml", line, "check.unknown_faction")
    assert "'makhnovsts'" in found.message and found.message.endswith("did you mean 'makhnovists'?")


def test_unknown_stand_kind_suggests_the_nearest(scenario_copy: Path) -> None:
    line = edit(
        scenario_copy / "setup.yaml",
        "stands: {armoured_car: 2}, at: Kharkov}",
        "stands: {armoured_cars: 2}, at: Kharkov}",
    )
    found = _one(scenario_copy)
    assert (Path(found.file).name, found.line, found.code) == ("setup.yaml", line, "check.unknown_stand_kind")
    assert "'armoured_cars'" in found.message and found.message.endswith("did you mean 'armoured_car'?")


def test_unknown_commander_suggests_the_nearest(scenario_copy: Path) -> None:
    line = edit(scenario_copy / "setup.yaml", "at: Kharkov, commander: Trotsky}", "at: Kharkov, commander: Vatsetiss}")
    edit(scenario_copy / "setup.yaml", "  Trotsky: {post:", "  Vatsetiss: {post:")  # his post goes with him
    found = _one(scenario_copy)
    assert (Path(found.file).name, found.line, found.code) == ("setup.yaml", line, "check.unknown_commander")
    text = (scenario_copy / "setup.yaml").read_text(encoding="utf-8").splitlines()[line - 1]
    assert found.column == text.index("Vatsetiss") + 1
    assert "'Vatsetiss'" in found.message and found.message.endswith("did you mean 'Vatsetis'?")


def test_bad_move_cost_value(scenario_copy: Path) -> None:
    edit(
        scenario_copy / "movement.yaml",
        "cost: {open: 1, forest: 3, mountain: p*, marsh: p*}",
        "cost: {open: 1, forest: 3, mountain: P, marsh: p*}",
    )
    (found,) = problems(scenario_copy)
    assert "unit_types[2].cost.mountain: found 'P', expected a whole number of movement points or 'p*'" in found


def test_vp_value_must_be_number_or_dash(scenario_copy: Path) -> None:
    edit(
        scenario_copy / "towns.yaml",
        'lon: 36.19, vp: {reds: 2, whites: 1, ukrainians: "-"}}',
        "lon: 36.19, vp: {reds: 2, whites: 1, ukrainians: none}}",
    )
    (found,) = problems(scenario_copy)
    assert "ukrainians: found 'none', expected a whole number of VP (0 or more) or '-'" in found


def test_bad_dice(scenario_copy: Path) -> None:
    edit(scenario_copy / "command.yaml", "roll: D10", "roll: d7")
    (found,) = problems(scenario_copy)
    assert found.endswith("roll: found 'd7', expected dice such as 'D6', '2D6', '3D6' or 'D10'")


def test_losses_must_add_to_100(scenario_copy: Path) -> None:
    edit(scenario_copy / "battle.yaml", "return_pct: 60", "return_pct: 50")
    found = _one(scenario_copy)
    assert found.code == "check.losses_not_100"
    assert found.message.startswith("winner: found permanent_pct 40 + return_pct 50 = 90")


def test_chart_needs_one_entry_per_face(scenario_copy: Path) -> None:
    edit(scenario_copy / "victory.yaml", "reds: [3, 4, 4, 5, 5, 7]", "reds: [3, 4, 4, 5, 5]")
    (found,) = problems(scenario_copy)
    assert "reinforcement_chart.draws.reds: found 5 entries, expected one for each face of D6" in found


def test_unknown_ruling_reference(scenario_copy: Path) -> None:
    edit(
        scenario_copy / "movement.yaml",
        "source: ruling:foot_service_units\n  - id: engineer",
        "source: ruling:nonesuch\n  - id: engineer",
    )
    found = _one(scenario_copy)
    assert found.code == "check.unknown_ruling"
    assert found.message.startswith("unit_types[8].source: found the unknown ruling 'nonesuch'")


def test_roll_outside_the_die(scenario_copy: Path) -> None:
    edit(scenario_copy / "movement.yaml", "fails_on: [2, 3]", "fails_on: [1, 3]")
    found = _one(scenario_copy)
    assert found.code == "check.roll_off_die"
    assert found.message == "breakdown[0].fails_on: found 1, expected a roll of 2D6: 2 to 12"


def test_B7_depot_cutoff_numbers_are_faces_of_its_die(scenario_copy: Path) -> None:
    """B.7: "If a depot is cut off from supply lines, first turn it is utilized for resupply roll
    a D6 and on a 1 emptied. Second turn utilized would be a 1, 2 emptied, etc." The numbers are
    faces of the die (the depot marker's back prints them: 'D6 1: empty, +1/use')."""
    edit(scenario_copy / "supply.yaml", "empties_on_first_use: 1", "empties_on_first_use: 7")
    found = _one(scenario_copy)
    assert found.code == "check.roll_off_die"
    assert found.message == "depot_cutoff.empties_on_first_use: found 7, expected a roll of D6: 1 to 6"
    assert Path(found.file).name == "supply.yaml" and found.line == 17


def test_missing_and_unknown_files(scenario_copy: Path) -> None:
    (scenario_copy / "battle.yaml").unlink()
    (scenario_copy / "extra.yaml").write_text("a: 1\n")
    found = {(Path(p.file).name, p.code) for p in problem_list(scenario_copy)}
    assert ("battle.yaml", "file.missing") in found
    assert ("extra.yaml", "scenario.unknown_file") in found


def test_a_folder_where_a_file_should_be(scenario_copy: Path) -> None:
    (scenario_copy / "towns.yaml").unlink()
    (scenario_copy / "towns.yaml").mkdir()
    found = {(Path(p.file).name, p.line, p.code) for p in problem_list(scenario_copy)}
    assert ("towns.yaml", 1, "file.is_folder") in found


def test_every_problem_at_once_across_files(scenario_copy: Path) -> None:
    """Problems in several files are all reported in one run, sorted by file and line."""
    edit(
        scenario_copy / "commanders.yaml",
        "name: Vatsetis, faction: reds, dependability: 9",
        "name: Vatsetis, faction: reds, dependability: eleven",
    )
    edit(scenario_copy / "commanders.yaml", "name: Shchors, faction: reds", "name: Shchors, faction: greens")
    edit(scenario_copy / "towns.yaml", "{name: Grigoriopol,", "{name: Kiev,")
    (scenario_copy / "events.yaml").write_text("[1, 2\n")
    (scenario_copy / "battle.yaml").write_text("")
    found = problems(scenario_copy)
    assert len(found) == 5
    places = [(Path(p.split(":")[0]).name, int(p.split(":")[1])) for p in found]
    assert places == sorted(places)
    files = [name for name, _ in places]
    assert files == ["battle.yaml", "commanders.yaml", "commanders.yaml", "events.yaml", "towns.yaml"]


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", ":1:1: found an empty file"),
        (b"\x00\x01\x02 not yaml", ":1:1: found a NUL byte"),
        (b"a: [unclosed\n", ":1:4: found a '[' that is never closed"),
    ],
)
def test_unreadable_file_gets_one_clear_message(scenario_copy: Path, content: bytes, message: str) -> None:
    (scenario_copy / "towns.yaml").write_bytes(content)
    result = run_validate(scenario_copy)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    (line,) = [ln for ln in result.stderr.splitlines() if "towns.yaml" in ln]
    assert message in line


def test_alias_bomb_in_a_scenario_file(scenario_copy: Path) -> None:
    lines = ['towns: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, name in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    (scenario_copy / "towns.yaml").write_text("\n".join(lines) + "\n")
    result = run_validate(scenario_copy)
    assert result.returncode == 1
    assert "once aliases are expanded" in result.stderr and "Traceback" not in result.stderr


def test_unknown_scenario_name_is_a_usage_error() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "kitgen", "scenario", "show", "nosuch"], capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert "kitgen: no scenario 'nosuch'" in result.stderr and "denikin-1919" in result.stderr
