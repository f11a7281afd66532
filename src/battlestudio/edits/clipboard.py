"""Copy, paste and duplicate of records: pure functions that build ordinary edits.

A ``Clip`` holds frozen records (so later edits cannot change what was copied) and, for units
and commanders, who commanded them. Pasting gives every record a fresh id, shifts it by an
offset in table cm and reattaches it: under the copy of its superior when that was copied too,
else under the original superior if he still exists.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any
from collections.abc import Iterable

from shapely.affinity import translate

from battlestudio.edits.base import Edit, Macro
from battlestudio.edits.oob import Reattach
from battlestudio.edits.records import PutRecords
from battlestudio.model.scenario import Scenario

COPYABLE: dict[str, str] = {
    "commanders": "c",
    "units": "u",
    "terrain": "t",
    "towns": "z",
    "objectives": "o",
    "deployment_zones": "d",
}
"""Containers that can be copied, with the id prefix of pasted records (commanders first, so
subordinates can be attached to their pasted superiors)."""

PASTE_OFFSET = (5.0, -5.0)
"""Default shift in cm of pasted records, so they do not hide the originals."""


@dataclass(frozen=True)
class Clip:
    """Copied records: ``records[kind][id]`` and each copied node's superior (or None)."""

    records: dict[str, dict[str, Any]] = field(default_factory=dict)
    superiors: dict[str, str | None] = field(default_factory=dict)

    def __len__(self) -> int:
        return sum(len(v) for v in self.records.values())


def copy_records(scenario: Scenario, ids: Iterable[str]) -> Clip:
    """A ``Clip`` of the copyable records among ``ids`` (unknown ids are ignored)."""
    wanted = set(ids)
    records: dict[str, dict[str, Any]] = {}
    superiors: dict[str, str | None] = {}
    for kind in COPYABLE:
        d = getattr(scenario, kind)
        picked = {i: r for i, r in d.items() if i in wanted}
        if picked:
            records[kind] = picked
        if kind in ("units", "commanders"):
            superiors.update({i: scenario.oob.superior(i) for i in picked})
    return Clip(records, superiors)


def _shifted(kind: str, rec: Any, dx: float, dy: float) -> Any:
    if kind in ("units", "commanders"):
        x, y = rec.position
        return replace(rec, position=(x + dx, y + dy))
    if kind in ("towns", "deployment_zones"):
        return replace(rec, polygon=translate(rec.polygon, dx, dy))
    return replace(rec, geometry=translate(rec.geometry, dx, dy))


def paste_edit(
    scenario: Scenario, clip: Clip, offset: tuple[float, float] = PASTE_OFFSET, text: str | None = None
) -> tuple[Edit, list[str]] | None:
    """The edit that pastes ``clip`` shifted by ``offset`` (cm), and the new ids.

    Returns None for an empty clip. Names are kept; ids are fresh (``<prefix>-N``).
    """
    if not len(clip):
        return None
    used = scenario.all_ids()
    new_id: dict[str, str] = {}
    for kind, recs in clip.records.items():
        for old in recs:
            n = 1
            while f"{COPYABLE[kind]}-{n}" in used:
                n += 1
            new_id[old] = f"{COPYABLE[kind]}-{n}"
            used.add(new_id[old])
    dx, dy = offset
    edits: list[Edit] = []
    for kind, recs in clip.records.items():
        edits.append(
            PutRecords(
                kind, {new_id[o]: replace(_shifted(kind, r, dx, dy), id=new_id[o]) for o, r in recs.items()}, "Paste"
            )
        )
    for old, sup in clip.superiors.items():
        target = new_id.get(sup) if sup is not None else None
        if target is None and sup is not None and sup in scenario.commanders:
            target = sup
        if target is not None:
            edits.append(Reattach(new_id[old], target, "Attach"))
    count = len(clip)
    if text is None:
        only = next(iter(next(iter(clip.records.values())).values()))
        text = f"Paste {getattr(only, 'name', '') or 'item'}" if count == 1 else f"Paste {count} items"
    return Macro(edits, text), list(new_id.values())
