"""The week's turn packets: one for the umpire, one per faction, for the turn to be played next.

The umpire's holds the master map (every unit), each faction's supply, the ledgers, the rolls
to make, the contacts and what changed since last turn, and a set-up sheet per battle
(`umpire`). A faction's holds only what it can know (`kitgen.engine.intel`): its map, its
supply, where its stacks can reach, its lists and ledger, and its order form (`faction`)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from kitgen.engine.basis import playable_basis
from kitgen.products.packets.builder import PacketFile, Packets
from kitgen.products.packets.faction import acetate, faction_packet
from kitgen.products.packets.umpire import umpire_packet

if TYPE_CHECKING:
    from kitgen.campaign import Campaign


Job = tuple[str, str]
"""One file of the week: ('umpire', ''), ('faction', id) or ('acetate', id)."""


def jobs_of(p: Packets, *, acetates: bool = False) -> list[Job]:
    """The umpire's packet, then each faction's with units on the map (and, with `acetates`,
    its supply overlay for transparency)."""
    jobs: list[Job] = [("umpire", "")]
    for f in p.s.meta.factions:
        if any(u.faction == f.id for u in p.b.start.units):
            jobs.append(("faction", f.id))
            if acetates:
                jobs.append(("acetate", f.id))
    return jobs


def make(p: Packets, job: Job) -> PacketFile:
    kind, faction = job
    if kind == "umpire":
        return umpire_packet(p)
    return faction_packet(p, faction) if kind == "faction" else acetate(p, faction)


def umpires_forms(p: Packets) -> list[PacketFile]:
    """The umpire's forms alone, as their own PDFs beside the packets: the battle report forms of
    the turn's contacts (none before the orders make any) and the roll sheet."""
    import io

    from pypdf import PdfReader

    from kitgen.products.reportforms import report_forms_name, report_forms_pdf, roll_sheet_name, roll_sheet_pdf
    from kitgen.reports.battleform import battle_form

    turn, paper = p.b.turn, p.paper
    made = []
    if p.contacts():
        forms = [battle_form(p.c, contact) for contact in p.contacts()]
        made.append((report_forms_name(turn, paper), report_forms_pdf(p.c, forms, turn, paper), "report_forms"))
    made.append((roll_sheet_name(turn, paper), roll_sheet_pdf(p.c, p.sheet_rolls(), turn, paper), "roll_sheet"))
    return [PacketFile(name, "umpire", pdf, len(PdfReader(io.BytesIO(pdf)).pages), kind) for name, pdf, kind in made]


def packets_of(p: Packets, *, acetates: bool = False) -> list[PacketFile]:
    """Every file of the week (`jobs_of`), made one after another over one `Packets`."""
    return [make(p, job) for job in jobs_of(p, acetates=acetates)]


_SHARED: Packets | None = None
"""The packets a forked worker makes its files over: the parent's, inherited whole."""


def _made(job: Job) -> PacketFile:
    assert _SHARED is not None
    return make(_SHARED, job)


def packets_at_once(p: Packets, *, acetates: bool = False) -> list[PacketFile]:
    """The week's files (`packets_of`), each made in a process of its own on as many processors
    as there are (forked, so each starts from the one drawing of the clean map); one after
    another where a fork is not safe (`kitgen.forking.can_fork`). Each file is made from the same
    values either way, so its bytes are the same."""
    from kitgen import forking

    global _SHARED
    jobs = jobs_of(p, acetates=acetates)
    workers = min(len(jobs), forking.processors())
    if workers < 2 or not forking.can_fork():
        return packets_of(p, acetates=acetates)
    p.warm()
    _SHARED = p
    try:
        pool = forking.pool(workers)
        try:
            made = pool.map(_made, jobs, chunksize=1)
            pool.close()  # the workers leave when the queue runs dry, holding none of its locks
        except BaseException:
            pool.terminate()
            raise
        finally:
            pool.join()
    finally:
        _SHARED = None
    return made


def build_packets(
    campaign: Campaign, turn: int | None = None, paper: str = "a4", *, acetates: bool = False
) -> list[PacketFile]:
    """Every packet of the turn (`turn` by default the one being played), and the umpire's forms
    alone (`umpires_forms`); a turn past the scenario's end is refused unless campaign.yaml says
    the club plays on."""
    packets = Packets(playable_basis(campaign, turn), paper)
    return packets_at_once(packets, acetates=acetates) + umpires_forms(packets)


def write_packets(folder: Path, out: Path, files: list[PacketFile]) -> list[Path]:
    """The packets written into `out` as one set, beside the earlier weeks' (its manifest lists
    what kitgen wrote there): never into a folder of the user's files, a symbolic link, or a
    campaign's own files."""
    from kitgen.outputs import ProductFolder

    with ProductFolder(out, keep=True) as product:
        written = [product.write(f.name, f.pdf) for f in files]
    return written
