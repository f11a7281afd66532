"""Copy, paste and duplicate of records: pure functions that build ordinary edits.

A ``Clip`` holds frozen records (so later edits cannot change what was copied) and, for units
and commanders, who commanded them. Pasting gives every record a fresh id, shifts it by an
offset in table cm and reattaches it: under the copy of its superior when that was copied too,
else under the original superior if he still exists. Pasted into another document, a record
whose side that document lacks is given a side of it (``side_mapping``: same id, else same name,
else a shared nation) or a side the caller chose or made — never a side the document lacks.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace
from typing import Any
from collections.abc import Iterable

from shapely.affinity import translate

from battlestudio.edits.base import Edit, Macro
from battlestudio.edits.oob import Reattach
from battlestudio.edits.records import PutRecords
from battlestudio.model.scenario import Scenario, Side

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
    sides: dict[str, Side] = field(default_factory=dict)
    """The copied records' sides as the source document had them."""

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
    used = {r.side for recs in records.values() for r in recs.values() if getattr(r, "side", "")}
    return Clip(records, superiors, {sid: scenario.sides.get(sid) or Side(sid, sid) for sid in sorted(used)})


def _fold(text: str) -> str:
    plain = unicodedata.normalize("NFKD", text)
    return "".join(c for c in plain if not unicodedata.combining(c)).casefold().strip()


def side_mapping(scenario: Scenario, clip: Clip) -> tuple[dict[str, str], list[str]]:
    """Where the clip's sides go in ``scenario``: side id → a side id of ``scenario``, for each
    side that has the same id, else the same name (ignoring case and accents), else exactly one
    side sharing a nation (of the side or of its copied units and commanders); and the clip's
    side ids left unmatched (the caller asks, or makes new sides)."""
    mapped: dict[str, str] = {}
    left: list[str] = []
    nations_of: dict[str, set[str]] = {}
    for kind in ("units", "commanders"):
        for r in clip.records.get(kind, {}).values():
            if r.nation:
                nations_of.setdefault(r.side, set()).add(_fold(r.nation))
    for sid, side in clip.sides.items():
        if sid in scenario.sides:
            mapped[sid] = sid
            continue
        by_name = [t for t, ts in scenario.sides.items() if _fold(ts.name) == _fold(side.name)]
        wanted = {_fold(n) for n in side.nations} | nations_of.get(sid, set())
        by_nation = [t for t, ts in scenario.sides.items() if wanted & {_fold(n) for n in ts.nations}]
        if len(by_name) == 1:
            mapped[sid] = by_name[0]
        elif len(by_nation) == 1:
            mapped[sid] = by_nation[0]
        else:
            left.append(sid)
    return mapped, left


def _shifted(kind: str, rec: Any, dx: float, dy: float) -> Any:
    if kind in ("units", "commanders"):
        x, y = rec.position
        return replace(rec, position=(x + dx, y + dy))
    if kind in ("towns", "deployment_zones"):
        return replace(rec, polygon=translate(rec.polygon, dx, dy))
    return replace(rec, geometry=translate(rec.geometry, dx, dy))


def paste_edit(
    scenario: Scenario,
    clip: Clip,
    offset: tuple[float, float] = PASTE_OFFSET,
    text: str | None = None,
    sides: dict[str, str] | None = None,
    new_sides: dict[str, Side] | None = None,
) -> tuple[Edit, list[str]] | None:
    """The edit that pastes ``clip`` shifted by ``offset`` (cm), and the new ids.

    ``sides`` maps the clip's side ids to ``scenario``'s (default ``side_mapping``'s matches);
    ``new_sides`` are added to ``scenario`` in the same undo step. Returns None for an empty clip.
    Names are kept; ids are fresh (``<prefix>-N``).

    Raises
    ------
    ValueError
        when a pasted record's side would be neither ``scenario``'s nor a new side, naming it.
    """
    if not len(clip):
        return None
    new_sides = dict(new_sides or {})
    side_of = dict(side_mapping(scenario, clip)[0] if sides is None else sides)
    known = set(scenario.sides) | set(new_sides)
    for sid in clip.sides:
        if side_of.get(sid, sid) not in known:
            name = clip.sides[sid].name
            raise ValueError(f"side {name!r} ({sid}) is not in this document: map it to one of its sides or add it")
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
    if new_sides:
        edits.append(PutRecords("sides", new_sides, "Add sides"))

    def placed(kind: str, r: Any, nid: str) -> Any:
        r = replace(_shifted(kind, r, dx, dy), id=nid)
        side = getattr(r, "side", "")
        return replace(r, side=side_of.get(side, side)) if side else r

    for kind, recs in clip.records.items():
        edits.append(PutRecords(kind, {new_id[o]: placed(kind, r, new_id[o]) for o, r in recs.items()}, "Paste"))
    pasted_side = {
        o: side_of.get(r.side, r.side) for recs in clip.records.values() for o, r in recs.items() if hasattr(r, "side")
    }
    for old, sup in clip.superiors.items():
        target = new_id.get(sup) if sup is not None else None
        if (
            target is None
            and sup is not None
            and sup in scenario.commanders
            and scenario.commanders[sup].side == pasted_side.get(old)  # not under another side's general
        ):
            target = sup
        if target is not None:
            edits.append(Reattach(new_id[old], target, "Attach"))
    count = len(clip)
    if text is None:
        only = next(iter(next(iter(clip.records.values())).values()))
        text = f"Paste {getattr(only, 'name', '') or 'item'}" if count == 1 else f"Paste {count} items"
    return Macro(edits, text), list(new_id.values())
