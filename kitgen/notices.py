"""Notes a command makes on its way that stop nothing (an index of backups set aside): raised as
warnings of one category, so that the code making them needs no way to the terminal, and shown
by the command line in kitgen's own words."""

from __future__ import annotations

from kitgen.errors import Problem


class Notice(UserWarning):
    """A note worth saying as it happens: its problem, kind note, printed file:line:column."""

    def __init__(self, problem: Problem) -> None:
        super().__init__(str(problem))
        self.problem = problem
