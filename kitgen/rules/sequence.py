"""The sequence of play: the ten steps of a strategic turn (RULES-NOTES' turn order), as the
booklet, every player aid and the umpire's turn record print them."""

from __future__ import annotations

from dataclasses import dataclass

from kitgen.messages import ordinal
from kitgen.model.scenario import Scenario


@dataclass(frozen=True)
class Step:
    """One step: its short title, the rules it plays ('' for none), a few words of what is done
    (for the forms and aids), and the booklet's sentence."""

    title: str
    rule: str
    hint: str
    text: str


def turn_sequence(s: Scenario) -> tuple[Step, ...]:
    """The ten steps in order, their numbers from the scenario (the dice, the award turns)."""
    v = s.victory
    every = ordinal(v.award_every_turns)
    turns = ", ".join(str(v.award_every_turns * k) for k in range(1, 4)) + ", ..."
    adjective = {f.id: f.adjective for f in s.meta.factions}
    bonus = " and ".join(f"the {adjective.get(f, f)} bonus of {dice}" for f, dice in v.bonus.items())
    strength = s.faction(v.makhnovist_strength.faction)
    award = [
        "victory points for towns held",
        *([bonus] if bonus else []),
        "reinforcement chart rolls while a total is at or above its threshold",
        *([f"the {strength.adjective} strength roll"] if strength else []),
    ]
    return (
        Step("Supply judged", "B.2", "every unit, at the start of the turn", "Supply status is judged for every unit"),
        Step("Orders written", "", "by every faction", "Each faction writes its orders"),
        Step(
            "Command rolls",
            "II.C",
            f"{s.command.roll} for each commander with orders",
            "Command control is rolled for every commander, and every unit without one, that has orders",
        ),
        Step(
            "Random event",
            "II.A",
            f"{s.events.roll}; a card on {' or '.join(map(str, s.events.draw_on))}",
            "The random event roll is made",
        ),
        Step(
            "Movement",
            "A, C, D",
            "rail, sea and land, all at once; breakdowns",
            "Movement: rail, sea and land moves, all at once; breakdown rolls",
        ),
        Step(
            "Contacts",
            "II.D",
            "partisans evade or ambush; battles listed",
            "Contacts are found: partisans try to evade or ambush, battles are listed",
        ),
        Step("Tabletop battles", "", "fought and reported", "The battles are fought on the tabletop and reported"),
        Step("Post-battle", "II.B", "retreats, losses, captures", "Post-battle results are applied"),
        Step("Track", "C.2", "wrecked and repaired", "Track is wrecked and repaired"),
        Step(
            f"Every {every} turn",
            "E, II.E",
            "VP, bonus, charts, strength roll" if strength else "VP, bonus, charts",
            f"At the end of every {every} strategic turn (turns {turns}): "
            + ", ".join(award[:-1])
            + (", and " if len(award) > 1 else "")
            + award[-1],
        ),
    )
