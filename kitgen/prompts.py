"""Questions at the umpire's terminal: a choice from a numbered list, a count in a range. Each
answer is checked as it is given and asked again, with the nearest right answer, when it is
wrong; input that ends before every question is answered writes nothing (a usage error).

The questions read standard input line by line, so a test, a script or a pipe answers them as a
person at the keyboard would."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from kitgen import messages as msg
from kitgen.errors import UsageError, escape_controls

TRIES = 5
"""Wrong answers to one question before kitgen gives up (a script feeding the wrong answers
would otherwise ask for ever)."""


@dataclass(frozen=True)
class Option:
    key: str
    """What the answer stands for (a unit's id, a faction's, a word)."""
    label: str
    """What the umpire reads: a name as the counters print it."""
    also: tuple[str, ...] = ()
    """Other answers that name it: a hex's id, the side of a hex."""


class Asker:
    """Asks on `out`, reads answers from `src` and says what was wrong with one on `err`
    (standard output, input and error by default)."""

    def __init__(self, src: TextIO | None = None, out: TextIO | None = None, err: TextIO | None = None) -> None:
        self.src = src if src is not None else sys.stdin
        self.out = out if out is not None else sys.stdout
        self.err = err if err is not None else sys.stderr

    def wrong(self, said: msg.Msg) -> None:
        self.err.write(escape_controls(f"kitgen: {said.text}") + "\n")
        self.err.flush()

    def say(self, text: str = "") -> None:
        self.out.write(escape_controls(text) + "\n")
        self.out.flush()

    def _line(self, prompt: str, question: str) -> str:
        self.out.write(escape_controls(prompt) + " ")
        self.out.flush()
        line = self.src.readline()
        if not line:
            self.say()
            raise UsageError(msg.prompt_ended(question.rstrip(" :?")))
        return line.strip()

    def choose(self, question: str, options: Sequence[Option], *, default: str | None = None) -> str:
        """One of `options`, by its number, its key or the start of its label (a unique one)."""
        self.say(question)
        for k, o in enumerate(options, start=1):
            mark = " (Enter)" if o.key == default else ""
            self.say(f"  {k}) {o.label}{mark}")
        for _ in range(TRIES):
            answer = self._line(f"Choose 1-{len(options)}:", question)
            found = pick(answer, options, default)
            if found is not None:
                return found
            self.wrong(msg.prompt_wrong(answer, f"a number from 1 to {len(options)}", [o.label for o in options]))
        raise UsageError(msg.prompt_gave_up(question.rstrip(" :?"), TRIES))

    def count(self, question: str, low: int, high: int, *, default: int | None = None) -> int:
        """A whole number from `low` to `high`."""
        hint = f" [{default}]" if default is not None else ""
        for _ in range(TRIES):
            answer = self._line(f"{question} ({low}-{high}){hint}:", question)
            if not answer and default is not None:
                return default
            if answer.isascii() and answer.lstrip("-").isdigit() and low <= int(answer) <= high:
                return int(answer)
            self.wrong(msg.prompt_wrong(answer, f"a whole number from {low} to {high}", []))
        raise UsageError(msg.prompt_gave_up(question, TRIES))


def pick(answer: str, options: Sequence[Option], default: str | None = None) -> str | None:
    """The option an answer names: its number, its key, or a label it is the start of (alone)."""
    text = answer.strip()
    if not text:
        return default
    if text.isascii() and text.isdigit() and 1 <= int(text) <= len(options):
        return options[int(text) - 1].key
    low = text.lower()
    for o in options:
        if low in (o.key.lower(), o.label.lower(), *(a.lower() for a in o.also)):
            return o.key
    starts = [o.key for o in options if o.label.lower().startswith(low) or o.key.lower().startswith(low)]
    return starts[0] if len(starts) == 1 else None
