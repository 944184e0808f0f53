"""What a turn changed, as data: units moved, arrived or gone, stands lost or won back, towns
changing hands, VP, the battles fought. Made from the states before and after it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from kitgen.engine.state import CampaignState

ChangeKind = Literal["moved", "arrived", "gone", "stands", "town", "vp", "battle"]


@dataclass(frozen=True)
class Change:
    kind: ChangeKind
    faction: str
    subject: str
    """A unit's id, a town's name, or a battle's hex."""
    where: str = ""
    """The hex it happened in (a move's end)."""
    start: str = ""
    """A move's first hex; a town's owner before; a count before."""
    end: str = ""
    """A move's last hex; a town's owner after; a count after."""
    detail: str = ""
    """A battle's units; why a unit left the map: 'surrenders', 'perishes', 'destroyed' (every
    stand lost in a battle), or '' (disbanded or lost at sea)."""


def changes(before: CampaignState, after: CampaignState) -> list[Change]:
    """The changes from `before` to `after` (the state one turn later), in a fixed order: battles,
    units, towns, VP."""
    found: list[Change] = []
    by_battle: dict[int, list[str]] = {}
    for r in after.battle_results:
        by_battle.setdefault(r.battle, []).append(r.unit)
    for r in after.battle_results:
        if r.unit == by_battle[r.battle][0]:
            winners = sorted({x.faction for x in after.battle_results if x.battle == r.battle and x.side == "winner"})
            found.append(
                Change("battle", winners[0] if winners else "", r.hex, r.hex, detail=", ".join(by_battle[r.battle]))
            )
    old = {u.id: u for u in before.units}
    new = {u.id: u for u in after.units}
    fates = {r.unit: r.fate for r in after.battle_results}
    for u in after.units:
        was = old.get(u.id)
        if was is None:
            found.append(Change("arrived", u.faction, u.id, u.hex))
            continue
        if was.hex != u.hex:
            found.append(Change("moved", u.faction, u.id, u.hex, was.hex, u.hex))
        was_n, now_n = sum(was.stands.values()), sum(u.stands.values())
        if was_n != now_n:
            found.append(Change("stands", u.faction, u.id, u.hex, str(was_n), str(now_n)))
    for u in before.units:
        if u.id not in new:
            fate = fates.get(u.id)  # a unit in a battle that left the map: taken, perished or wiped out
            why = fate if fate in ("surrenders", "perishes") else "destroyed" if fate else ""
            found.append(Change("gone", u.faction, u.id, u.hex, detail=why))
    for town in sorted(set(before.owners) | set(after.owners)):
        old_owner, new_owner = before.owners.get(town, ""), after.owners.get(town, "")
        if old_owner != new_owner:
            found.append(Change("town", new_owner, town, start=old_owner, end=new_owner))
    for faction in sorted(set(before.vp) | set(after.vp)):
        old_vp, new_vp = before.vp.get(faction, 0), after.vp.get(faction, 0)
        if old_vp != new_vp:
            found.append(Change("vp", faction, faction, start=str(old_vp), end=str(new_vp)))
    return found
