"""The week's turn packets: one for the umpire, one per faction, for the turn to be played next.

The umpire's holds the master map (every unit), each faction's supply, the ledgers, the rolls
to make, the contacts and what changed since last turn, and a set-up sheet per battle
(`umpire`). A faction's holds only what it can know (`kitgen.engine.intel`): its map, its
supply, where its stacks can reach, its lists and ledger, and its order form (`faction`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kitgen.engine.basis import past_the_end, turn_basis
from kitgen.products.packets.builder import PacketFile, Packets
from kitgen.products.packets.faction import acetate, faction_packet
from kitgen.products.packets.umpire import umpire_packet

if TYPE_CHECKING:
    from kitgen.campaign import Campaign


def packets_of(p: Packets, *, acetates: bool = False) -> list[PacketFile]:
    """The umpire's packet, then each faction's with units on the map (and, with `acetates`,
    its supply overlay for transparency)."""
    files = [umpire_packet(p)]
    for f in p.s.meta.factions:
        if any(u.faction == f.id for u in p.b.start.units):
            files.append(faction_packet(p, f.id))
            if acetates:
                files.append(acetate(p, f.id))
    return files


def build_packets(
    campaign: Campaign, turn: int | None = None, paper: str = "a4", *, acetates: bool = False
) -> list[PacketFile]:
    """Every packet of the turn (`turn` by default the one being played); a turn past the
    scenario's end is refused unless campaign.yaml says the club plays on."""
    from kitgen.errors import KitgenError

    basis = turn_basis(campaign, turn)
    refused = past_the_end(campaign, basis.after)
    if refused is not None:
        raise KitgenError([refused])
    return packets_of(Packets(basis, paper), acetates=acetates)


def write_packets(folder: Path, out: Path, files: list[PacketFile]) -> list[Path]:
    """The packets written into `out` as one set, beside the earlier weeks' (its manifest lists
    what kitgen wrote there): never into a folder of the user's files, a symbolic link, or a
    campaign's own files."""
    from kitgen.outputs import ProductFolder

    with ProductFolder(out, keep=True) as product:
        written = [product.write(f.name, f.pdf) for f in files]
    return written
