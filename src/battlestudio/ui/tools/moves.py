"""Edits that move records, shared by the select tool (drags), arrow-key nudges and tests.

Units and commanders move through ``MoveRecords``; terrain features, town zones and objectives
are translated with shapely and put back through ``PutRecords``. One call builds one edit for a
whole selection, and the same ``merge_key`` across calls makes a drag one undo step.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterable, Mapping

from shapely.affinity import translate

from battlestudio.edits import Edit, MoveRecords, PutRecords
from battlestudio.model.scenario import Scenario
from battlestudio.ui.tools.base import combine, count_text

MOVABLE = ("units", "commanders", "terrain", "towns", "objectives")
"""Containers whose records the select tool can move."""


def record_name(scenario: Scenario, kind: str, rid: str) -> str:
    """Display name of a record for undo labels ("" when it has none)."""
    rec = getattr(scenario, kind)[rid]
    return getattr(rec, "name", "") or ""


def snapshot(scenario: Scenario, ids: Iterable[str]) -> dict[str, tuple[str, object]]:
    """id → (container, record) for the movable records among ``ids``."""
    out: dict[str, tuple[str, object]] = {}
    for rid in ids:
        for kind in MOVABLE:
            rec = getattr(scenario, kind).get(rid)
            if rec is not None:
                out[rid] = (kind, rec)
                break
    return out


def translated(kind: str, rec, dx: float, dy: float):
    """``rec`` moved by (dx, dy) cm (a geometry record), or its new position (unit, commander)."""
    if kind in ("units", "commanders"):
        return (rec.position[0] + dx, rec.position[1] + dy)
    if kind == "terrain":
        return replace(rec, geometry=translate(rec.geometry, dx, dy))
    if kind == "towns":
        return replace(rec, polygon=translate(rec.polygon, dx, dy))
    return replace(rec, geometry=translate(rec.geometry, dx, dy))


def move_edit(
    scenario: Scenario,
    originals: Mapping[str, tuple[str, object]],
    dx: float,
    dy: float,
    verb: str = "Move",
    merge_key: object = None,
) -> Edit | None:
    """One edit moving the ``originals`` (id → (container, record at gesture start)) by (dx, dy) cm.

    Returns None when there is nothing to move. The label names the record or counts them
    ("Move Bde Roguet", "Move 3 units").
    """
    by_kind: dict[str, dict[str, object]] = {}
    for rid, (kind, rec) in originals.items():
        by_kind.setdefault(kind, {})[rid] = translated(kind, rec, dx, dy)
    if not by_kind:
        return None
    kinds = {rid: kind for rid, (kind, _) in originals.items()}
    names = {rid: getattr(rec, "name", "") for rid, (_, rec) in originals.items()}
    text = count_text(verb, originals, kinds, names)
    edits: list[Edit] = []
    for kind in MOVABLE:
        if kind not in by_kind:
            continue
        if kind in ("units", "commanders"):
            edits.append(MoveRecords(kind, by_kind[kind], text=text, merge_key=merge_key))
        else:
            edits.append(PutRecords(kind, by_kind[kind], text=text, merge_key=merge_key))
    return combine(edits, text, merge_key)
