"""Merge one scenario's forces into another as one undo step (File ▸ Import… into an open document).

``merge_edit`` builds a ``Macro`` that adds the imported sides (those not mapped onto a side of
the target), commanders and units — with fresh ids where the target already uses one, each put
on its target side — and their order of battle, subordinates in the imported order. Terrain,
towns, objectives, deployment zones and reinforcements of the import come along too, with the
same id and side mapping. Undo removes all of it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from collections.abc import Mapping

from battlestudio.edits.base import Edit, Macro
from battlestudio.edits.oob import Reattach
from battlestudio.edits.records import PutRecords
from battlestudio.model.scenario import Scenario, Side
from battlestudio.model.units import Commander, Unit

_SIDED = ("objectives", "deployment_zones", "reinforcements")
_PLAIN = ("terrain", "towns")


def _fresh(base: str, used: set[str]) -> str:
    cand, n = base, 2
    while cand in used:
        cand = f"{base}-{n}"
        n += 1
    used.add(cand)
    return cand


def merge_edit(
    target: Scenario, imported: Scenario, side_map: Mapping[str, str], new_sides: Mapping[str, Side] = {}
) -> tuple[Edit, list[str]]:
    """The edit that adds ``imported``'s forces to ``target``, and the ids of the new nodes.

    Parameters
    ----------
    target : Scenario
        the open document's scenario (not changed here).
    imported : Scenario
        what an importer returned.
    side_map : Mapping[str, str]
        imported side id → target side id; every imported side that holds a record must be in it.
    new_sides : Mapping[str, Side]
        sides to add to ``target`` (their ids are values of ``side_map``).

    Raises
    ------
    ValueError
        when an imported side is not mapped, or mapped onto a side that neither ``target`` nor
        ``new_sides`` holds (names the side).
    """
    known = set(target.sides) | set(new_sides)
    nodes_in: list[Unit | Commander] = [*imported.units.values(), *imported.commanders.values()]
    for rec in nodes_in:
        if rec.side not in side_map:
            raise ValueError(f"imported side {rec.side!r} ({rec.name}) is not mapped to a side of the document")
    for src, dst in side_map.items():
        if dst not in known:
            raise ValueError(f"imported side {src!r} is mapped to {dst!r}, which the document does not have")
    used = target.all_ids()
    ids: dict[str, str] = {}
    for kind in ("commanders", "units", *_SIDED, *_PLAIN):
        for old in getattr(imported, kind):
            ids[old] = _fresh(old, used)

    def sided(rec: Any) -> Any:
        side = getattr(rec, "side", "")
        return replace(rec, id=ids[rec.id], side=side_map.get(side, side))

    edits: list[Edit] = []
    if new_sides:
        edits.append(PutRecords("sides", dict(new_sides), "Add sides"))
    for kind in ("commanders", "units", *_SIDED):
        recs = {ids[i]: sided(r) for i, r in getattr(imported, kind).items()}
        if kind == "reinforcements":
            recs = {i: replace(r, formation=ids.get(r.formation, r.formation)) for i, r in recs.items()}
        if kind == "deployment_zones":
            recs = {i: replace(r, formation=ids.get(r.formation, r.formation)) for i, r in recs.items()}
        if recs:
            edits.append(PutRecords(kind, recs, "Import"))
    for kind in _PLAIN:
        recs = {ids[i]: replace(r, id=ids[i]) for i, r in getattr(imported, kind).items()}
        if recs:
            edits.append(PutRecords(kind, recs, "Import"))
    nodes: list[str] = []
    oob = imported.oob
    for root in oob.roots():
        for node, _depth in oob.walk(root):
            if node not in ids:
                continue
            sup = oob.superior(node)
            edits.append(Reattach(ids[node], ids.get(sup) if sup else None, "Attach"))
            nodes.append(ids[node])
    for node in (*imported.commanders, *imported.units):  # records outside the graph
        if node not in oob:
            edits.append(Reattach(ids[node], None, "Attach"))
            nodes.append(ids[node])
    n_units, n_cmd = len(imported.units), len(imported.commanders)
    return Macro(edits, f"Import {n_units} units and {n_cmd} commanders"), nodes
