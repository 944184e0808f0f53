"""The campaign chronicle (`kitgen chronicle`): after any turn and at the end, the war told from
the replayed logs. A cover with the key, the war in charts, then for each turn a map of the
whole board (towns by owner, units as blocks, moves as arrows, battles with their winner, trains
and ships moved, wrecked track) and a page of its story; and the end, when the scenario is over.
The umpire's edition has everything; a faction's only what that faction knew at each turn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kitgen.campaign import Campaign
    from kitgen.engine.history import History


@dataclass(frozen=True)
class ChronicleFile:
    name: str
    """`umpire-chronicle-turn-06-a4.pdf`, `reds-chronicle-turn-06-a4.pdf`."""
    who: str
    """'umpire' or the faction's id."""
    pdf: bytes
    pages: int


def build_chronicle(
    campaign: Campaign, faction: str | None, paper: str, *, history: History | None = None
) -> ChronicleFile:
    """The chronicle of the turns played so far (not the one being played): the umpire's
    (`faction` None) or a faction's."""
    from kitgen.engine.history import finished
    from kitgen.products.chronicle.edition import Edition
    from kitgen.products.chronicle.pages import ChroniclePages

    h = history or finished(campaign)
    book = ChroniclePages(Edition(campaign, h, faction), paper)
    who = faction or "umpire"
    name = f"{who}-chronicle-turn-{h.last:02d}-{paper}.pdf"
    pdf, pages = book.build(name)
    return ChronicleFile(name, who, pdf, pages)
