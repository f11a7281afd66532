"""Names to show in lists: units and commanders that share a name told apart by their superior.

Imported orders of battle repeat names ("Avantgarde" in two Austrian divisions at Elchingen);
every list of the window shows ``display_names`` so the two read "Avantgarde (von Loudon)" and
"Avantgarde (von Hessen-Homburg)". Messages that name records by id are unaffected.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Protocol
from collections.abc import Mapping

from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.units import Commander, Unit


class Roster(Protocol):
    """What ``display_names`` reads: a ``Scenario`` or a game state."""

    @property
    def units(self) -> Mapping[str, Unit]: ...

    @property
    def commanders(self) -> Mapping[str, Commander]: ...

    @property
    def oob(self) -> OrderOfBattle: ...


def display_names(roster: Roster) -> dict[str, str]:
    """id → the name to show for every unit and commander of ``roster``.

    A record's own name when no other unit or commander has it; otherwise the name followed by
    its superior commander's name ("Avantgarde (von Loudon)"), and by its id as well where that
    still leaves two alike (same superior name, or none: "Avantgarde (u-12)"). A record without
    a name shows its id.
    """
    records: dict[str, Unit | Commander] = {**roster.units, **roster.commanders}
    by_name: dict[str, list[str]] = defaultdict(list)
    for rid, rec in records.items():
        by_name[rec.name or rid].append(rid)
    out: dict[str, str] = {}
    for name, ids in by_name.items():
        if len(ids) == 1:
            out[ids[0]] = name
            continue
        sup_names: dict[str, str] = {}
        for rid in ids:
            sup = roster.oob.superior(rid)
            boss = records.get(sup) if sup is not None else None
            sup_names[rid] = (boss.name or boss.id) if boss is not None else (sup or "")
        counts: dict[str, int] = defaultdict(int)
        for s in sup_names.values():
            counts[s] += 1
        for rid in ids:
            s = sup_names[rid]
            if s and counts[s] == 1:
                out[rid] = f"{name} ({s})"
            elif s:
                out[rid] = f"{name} ({s}, {rid})"
            else:
                out[rid] = f"{name} ({rid})"
    return out


def labelled(name: str, shown: str, detail: str) -> str:
    """``shown`` (the display name of a record called ``name``) with ``detail`` added: inside
    the parentheses a duplicate name got ("Avantgarde (von Loudon, brigade)"), else in its own
    ("Marshal Michel Ney (corps)")."""
    if not detail:
        return shown
    if shown != name and shown.endswith(")"):
        return f"{shown[:-1]}, {detail})"
    return f"{shown} ({detail})"
