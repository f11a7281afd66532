"""Edits that move and turn records on the map: a drag, an arrow-key nudge, a turn.

Units and commanders move through ``MoveRecords``; terrain features, town zones and objectives
are translated with shapely and put back through ``PutRecords``. One call builds one edit for a
whole selection, from the records as they stood when the gesture began (``snapshot``), so the
same ``merge_key`` across the calls of a gesture makes it one undo step. Distances in table cm,
angles in degrees counter-clockwise from +x.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from collections.abc import Iterable, Mapping, Sequence

from shapely.affinity import translate

from battlestudio.edits.base import MAP_KINDS, Edit, combine, count_text
from battlestudio.edits.records import MoveRecords, PutRecords
from battlestudio.model.geometry import Point, front_from_centre, normalize_angle
from battlestudio.model.scenario import Scenario
from battlestudio.model.units import Unit

MOVABLE: tuple[str, ...] = MAP_KINDS
"""Containers whose records a drag can move."""

Snapshot = dict[str, tuple[str, Any]]
"""id → (container, record) of the records a gesture works on, as at its start."""


def snapshot(scenario: Scenario, ids: Iterable[str], kinds: Sequence[str] = MOVABLE) -> Snapshot:
    """id → (container, record) for the records among ``ids`` in the containers ``kinds``
    (unknown ids are left out)."""
    out: Snapshot = {}
    for rid in ids:
        for kind in kinds:
            rec = getattr(scenario, kind).get(rid)
            if rec is not None:
                out[rid] = (kind, rec)
                break
    return out


def translated(kind: str, rec: Any, dx: float, dy: float) -> Any:
    """``rec`` moved by (dx, dy) cm: the new position (x, y) of a unit or commander, or the
    geometry record (terrain feature, town zone, objective) with its shape translated."""
    if kind in ("units", "commanders"):
        return (rec.position[0] + dx, rec.position[1] + dy)
    if kind in ("towns", "deployment_zones"):
        return replace(rec, polygon=translate(rec.polygon, dx, dy))
    if kind == "reinforcements":
        return replace(rec, entry_point=(rec.entry_point[0] + dx, rec.entry_point[1] + dy))
    return replace(rec, geometry=translate(rec.geometry, dx, dy))


def move_text(originals: Mapping[str, tuple[str, Any]], verb: str = "Move") -> str:
    """The undo label of moving ``originals``: "Move Bde Roguet", "Move 3 units", "Move 4 items"."""
    kinds = {rid: kind for rid, (kind, _) in originals.items()}
    names = {rid: getattr(rec, "name", "") or "" for rid, (_, rec) in originals.items()}
    return count_text(verb, originals, kinds, names)


def move_edit(
    originals: Mapping[str, tuple[str, Any]], dx: float, dy: float, verb: str = "Move", merge_key: object = None
) -> Edit | None:
    """One edit moving the ``originals`` (id → (container, record at gesture start)) by (dx, dy) cm.

    Returns None when there is nothing to move. The label names the record or counts them
    (``move_text``).
    """
    by_kind: dict[str, dict[str, Any]] = {}
    for rid, (kind, rec) in originals.items():
        by_kind.setdefault(kind, {})[rid] = translated(kind, rec, dx, dy)
    if not by_kind:
        return None
    text = move_text(originals, verb)
    edits: list[Edit] = []
    for kind in MOVABLE:
        if kind not in by_kind:
            continue
        if kind in ("units", "commanders"):
            edits.append(MoveRecords(kind, by_kind[kind], text=text, merge_key=merge_key))
        else:
            edits.append(PutRecords(kind, by_kind[kind], text=text, merge_key=merge_key))
    return combine(edits, text, merge_key)


def turned(unit: Unit, facing: float) -> tuple[Point, float]:
    """(front-edge midpoint, facing) of ``unit`` turned to ``facing`` degrees about the centre of
    its footprint (the editor places troops; it does not perform the rules' wheels)."""
    rect = unit.rect()
    return front_from_centre(rect.centre, facing, rect.depth), normalize_angle(facing)


def rotate_text(units: Mapping[str, Unit]) -> str:
    """The undo label of turning ``units``: "Rotate Bde Roguet", "Rotate 3 units"."""
    return count_text("Rotate", units, {i: "units" for i in units}, {i: u.name for i, u in units.items()})


def rotate_edit(units: Mapping[str, Unit], delta: float, merge_key: object = None) -> MoveRecords:
    """Turn every unit in ``units`` (id → record at gesture start) by ``delta`` degrees CCW."""
    positions: dict[str, Point] = {}
    facings: dict[str, float] = {}
    for uid, u in units.items():
        positions[uid], facings[uid] = turned(u, u.facing + delta)
    return MoveRecords("units", positions, facings, text=rotate_text(units), merge_key=merge_key)
