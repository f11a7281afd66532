"""Checks of where the troops stand: units and commanders off the table, units overlapping,
units in impassable terrain (Torden over Europa 4.7) or in a river away from its crossings, town
zones holding more units than their capacity (Torden over Europa 4.8.2).

Footprints (table cm) come from a ``FootprintCache`` kept between checks, so the Problems dock
re-checking after an edit recomputes only the units that changed. Units and commanders of a
reinforcement may wait off the table until they arrive.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import shapely
from shapely import STRtree
from shapely.geometry import Point, Polygon

from battlestudio.model.geometry import EPS
from battlestudio.model.scenario import Scenario
from battlestudio.model.terrain import TerrainKind
from battlestudio.model.units import Unit
from battlestudio.validate.geometry import MIN_OVERLAP_CM2
from battlestudio.validate.problem import Problem, error, warning


class FootprintCache:
    """Unit footprints kept between checks: a record's polygon is recomputed only when the
    record object changed (records are frozen, so identity means unchanged)."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[Unit, Polygon | None]] = {}

    def footprints(self, s: Scenario) -> dict[str, Polygon]:
        """id → footprint polygon (cm) of every unit whose footprint can be computed."""
        old = self._cache
        new: dict[str, tuple[Unit, Polygon | None]] = {}
        out: dict[str, Polygon] = {}
        for uid, u in s.units.items():
            hit = old.get(uid)
            if hit is not None and hit[0] is u:
                poly = hit[1]
            else:
                try:
                    poly = u.footprint()
                except ValueError:  # a bad formation/figure combination
                    poly = None
            new[uid] = (u, poly)
            if poly is not None:
                out[uid] = poly
        self._cache = new
        return out


def _name(s: Scenario, rid: str) -> str:
    rec = s.units.get(rid) or s.commanders.get(rid) or s.towns.get(rid) or s.terrain.get(rid)
    return getattr(rec, "name", "") or rid


def waiting(s: Scenario) -> set[str]:
    """Ids of the commanders and units of every reinforcement (they may wait off the table)."""
    out: set[str] = set()
    for r in s.reinforcements.values():
        out.add(r.formation)
        if r.formation in s.oob.graph:
            out.update(s.oob.all_subordinates(r.formation))
    return out


def off_table(s: Scenario, footprints: dict[str, Polygon]) -> Iterable[Problem]:
    """Units whose footprint (or front midpoint, if it has none) leaves the table, commanders
    whose base centre is off it; reinforcements' troops excepted."""
    w, h = s.info.table_width, s.info.table_height
    table = s.table().buffer(EPS)
    away = waiting(s)
    ids = [uid for uid in footprints if uid not in away]
    inside = shapely.contains(table, np.array([footprints[i] for i in ids], dtype=object)) if ids else np.array([])
    bad = {uid for uid, ok in zip(ids, inside.tolist(), strict=True) if not ok}
    for uid, u in s.units.items():
        if uid in away:
            continue
        fp = footprints.get(uid)
        x, y = u.position
        if fp is not None and uid in bad:
            x0, y0, x1, y1 = fp.bounds
            yield error(
                "unit.off_table",
                f"units[{uid!r}].position: ({x:g}, {y:g}) cm puts {u.name}'s footprint "
                f"(x {x0:.1f}–{x1:.1f}, y {y0:.1f}–{y1:.1f} cm) off the {w:g} × {h:g} cm table",
                uid,
            )
        elif fp is None and not table.covers(Point(x, y)):
            yield error(
                "unit.off_table",
                f"units[{uid!r}].position: ({x:g}, {y:g}) cm is off the {w:g} × {h:g} cm table ({u.name})",
                uid,
            )
    for cid, c in s.commanders.items():
        x, y = c.position
        if cid not in away and not (0.0 <= x <= w and 0.0 <= y <= h):
            yield error(
                "commander.off_table",
                f"commanders[{cid!r}].position: ({x:g}, {y:g}) cm is off the {w:g} × {h:g} cm table ({c.name})",
                cid,
            )


STACK_LIMIT = 8
"""More units than this on one spot (an import not yet deployed) are one warning, not every pair."""
MAX_OVERLAP_PAIRS = 50_000
"""Most touching footprint pairs measured; past it one warning says how far the check went."""
_CHUNK = 256


def overlaps(s: Scenario, footprints: dict[str, Polygon]) -> Iterable[Problem]:
    """Pairs of units whose footprints overlap by more than ``MIN_OVERLAP_CM2`` (warnings);
    reinforcements' troops, waiting off the table, excepted.

    Units stacked on one spot beyond ``STACK_LIMIT`` give one warning per spot, and at most
    ``MAX_OVERLAP_PAIRS`` touching pairs are measured, so the cost stays linear in the units
    for an undeployed import (every unit at one point) and bounded otherwise.
    """
    away = waiting(s)
    spots: dict[tuple[float, float], list[str]] = {}
    for uid in footprints:
        if uid in away:
            continue
        x, y = s.units[uid].position
        spots.setdefault((x, y), []).append(uid)
    ids: list[str] = []
    for (x, y), group in spots.items():
        if len(group) <= STACK_LIMIT:
            ids += group
            continue
        ids.append(group[0])  # the stack stands for itself against its neighbours
        shown = ", ".join(_name(s, i) for i in group[:4])
        yield warning(
            "unit.overlap",
            f"units[{group[0]!r}].position: {len(group)} units stand one on another at ({x:g}, {y:g}) cm "
            f"({shown}, ...); place them apart",
            *group[:50],
        )
    polys = [footprints[i] for i in ids]
    if len(polys) < 2:
        return
    tree = STRtree(polys)
    arr = np.asarray(polys, dtype=object)
    measured = 0
    for start in range(0, len(polys), _CHUNK):
        left, right = tree.query(polys[start : start + _CHUNK], predicate="intersects")
        left = left + start
        keep = left < right
        left, right = left[keep], right[keep]
        if measured + len(left) > MAX_OVERLAP_PAIRS:
            yield warning(
                "unit.overlap",
                f"units[{ids[start]!r}].position: more than {MAX_OVERLAP_PAIRS:,} pairs of units touch; "
                f"overlaps after the first {measured:,} pairs are not listed",
                ids[start],
            )
            return
        measured += len(left)
        areas = shapely.area(shapely.intersection(arr[left], arr[right]))
        big = areas > MIN_OVERLAP_CM2
        for a, b, area in zip(left[big].tolist(), right[big].tolist(), areas[big].tolist(), strict=True):
            ia, ib = ids[a], ids[b]
            yield warning(
                "unit.overlap",
                f"units[{ia!r}].position: {_name(s, ia)} overlaps {_name(s, ib)} ({ib!r}) by {area:.1f} cm²",
                ia,
                ib,
            )


def in_impassable(s: Scenario, footprints: dict[str, Polygon]) -> Iterable[Problem]:
    """Units standing in impassable terrain (Torden over Europa 4.7; errors)."""
    areas = [
        (tid, t.geometry)
        for tid, t in s.terrain.items()
        if t.kind == TerrainKind.IMPASSABLE and t.geometry.area > 0 and t.geometry.is_valid
    ]
    if not areas or not footprints:
        return
    ids = list(footprints)
    tree = STRtree(np.array([footprints[i] for i in ids], dtype=object))
    for tid, geom in areas:
        for k in sorted(tree.query(geom, predicate="intersects").tolist()):
            uid = ids[k]
            area = footprints[uid].intersection(geom).area
            if area > MIN_OVERLAP_CM2:
                yield error(
                    "unit.impassable",
                    f"units[{uid!r}].position: {_name(s, uid)} stands {area:.1f} cm² "
                    f"in impassable terrain {_name(s, tid)} ({tid!r})",
                    uid,
                    tid,
                )


RIVER_WIDTH_CM = 2.5
"""Width of a river drawn without one (the map draws it so wide)."""


def in_river(s: Scenario, footprints: dict[str, Polygon]) -> Iterable[Problem]:
    """Units standing in a river's water away from its bridges and fords (errors): a river is
    crossed only there, so troops turned or dropped into it are misplaced."""
    waters = []
    crossings = [
        t.geometry
        for t in s.terrain.values()
        if t.kind in (TerrainKind.BRIDGE, TerrainKind.FORD) and t.geometry.is_valid and not t.geometry.is_empty
    ]
    dry = shapely.union_all(crossings) if crossings else None
    for tid, t in s.terrain.items():
        if t.kind != TerrainKind.RIVER or t.geometry.is_empty or not t.geometry.is_valid:
            continue
        water = t.geometry if t.geometry.area > 0 else t.geometry.buffer((t.width or RIVER_WIDTH_CM) / 2.0)
        if dry is not None:
            water = water.difference(dry)
        if not water.is_empty:
            waters.append((tid, water))
    if not waters or not footprints:
        return
    ids = list(footprints)
    tree = STRtree(np.array([footprints[i] for i in ids], dtype=object))
    for tid, water in waters:
        for k in sorted(tree.query(water, predicate="intersects").tolist()):
            uid = ids[k]
            area = footprints[uid].intersection(water).area
            if area > MIN_OVERLAP_CM2:
                yield error(
                    "unit.in_river",
                    f"units[{uid!r}].position: {_name(s, uid)} stands {area:.1f} cm² in the river "
                    f"{_name(s, tid)} ({tid!r}), away from its bridges and fords: move it to a bank or a crossing",
                    uid,
                    tid,
                )


def towns_over_capacity(s: Scenario, footprints: dict[str, Polygon]) -> Iterable[Problem]:
    """Town zones holding more units (footprint centre inside) than their capacity (warnings)."""
    if not s.towns or not footprints:
        return
    ids = list(footprints)
    tree = STRtree(shapely.centroid(np.array(list(footprints.values()), dtype=object)))  # one query per town
    for zid, z in s.towns.items():
        if z.polygon.is_empty or not z.polygon.is_valid:
            continue
        inside = [ids[i] for i in np.sort(tree.query(z.polygon, predicate="contains")).tolist()]
        if len(inside) > z.capacity:
            yield warning(
                "town.over_capacity",
                f"towns[{zid!r}].capacity: {z.capacity}, but {z.name} holds {len(inside)} units",
                zid,
                *inside,
            )
