"""Scenario problems for the editor's Problems dock (and any checker): pure, Qt-free.

``find_problems`` runs every check and returns ``Problem`` records naming the ids at fault, so
clicking a problem can select its culprit. Checks: the order of battle (``OrderOfBattle.validate``),
units off the table, units overlapping, units inside impassable terrain (Torden over Europa
4.7), town zones holding more units than their capacity (Torden over Europa 4.8.2) and
commanders without subordinates.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

import numpy as np
import shapely
from shapely import STRtree
from shapely.geometry import Polygon

from battlestudio.model.geometry import EPS
from battlestudio.model.scenario import Scenario
from battlestudio.model.terrain import TerrainKind

MIN_OVERLAP_CM2 = EPS * EPS
"""Overlaps smaller than this (cm²) count as touching, not overlapping (glossary §0.1)."""


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with a scenario.

    Attributes
    ----------
    severity : str
        ``"error"`` (the scenario cannot be played as is) or ``"warning"``.
    code : str
        which check, e.g. ``"off-table"``, ``"overlap"``, ``"oob:roots"``.
    message : str
        one sentence naming the records by name.
    ids : tuple[str, ...]
        the records at fault (the first is the main culprit).
    """

    severity: str
    code: str
    message: str
    ids: tuple[str, ...]


def _name(s: Scenario, rid: str) -> str:
    rec = s.units.get(rid) or s.commanders.get(rid) or s.towns.get(rid) or s.terrain.get(rid)
    return getattr(rec, "name", "") or rid


class FootprintCache:
    """Unit footprints kept between checks: a record's polygon is recomputed only when the
    record object changed (records are frozen, so identity means unchanged)."""

    def __init__(self) -> None:
        self._cache: dict[str, tuple[object, Polygon | None]] = {}

    def footprints(self, s: Scenario) -> dict[str, Polygon]:
        """id → footprint polygon (cm) of every unit whose footprint can be computed."""
        old, new = self._cache, {}
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


def find_problems(s: Scenario, cache: FootprintCache | None = None) -> list[Problem]:
    """Every problem of ``s``: errors first, then warnings, each group in check order.

    ``cache`` keeps footprints between calls (the Problems dock re-checks after every edit).
    """
    found: list[Problem] = []
    found += oob_problems(s)
    footprints = (cache or FootprintCache()).footprints(s)
    found += off_table(s, footprints)
    found += overlaps(s, footprints)
    found += in_impassable(s, footprints)
    found += towns_over_capacity(s, footprints)
    found += idle_commanders(s)
    return sorted(found, key=lambda p: p.severity != "error")


def oob_problems(s: Scenario) -> list[Problem]:
    """Order-of-battle validation (``OrderOfBattle.validate``) as errors."""
    return [Problem("error", f"oob:{p.code}", p.message, p.ids) for p in s.validate_oob()]


def off_table(s: Scenario, footprints: dict[str, Polygon]) -> list[Problem]:
    """Units whose footprint leaves the table, commanders whose base centre is off it."""
    table = s.table().buffer(EPS)
    out = [
        Problem("error", "off-table", f"{_name(s, uid)} is off the table", (uid,))
        for uid, fp in footprints.items() if not table.contains(fp)
    ]
    w, h = s.info.table_width, s.info.table_height
    for cid, c in s.commanders.items():
        x, y = c.position
        if not (0.0 <= x <= w and 0.0 <= y <= h):
            out.append(Problem("error", "off-table", f"{c.name} is off the table", (cid,)))
    return out


def overlaps(s: Scenario, footprints: dict[str, Polygon]) -> list[Problem]:
    """Pairs of units whose footprints overlap by more than ``MIN_OVERLAP_CM2``."""
    ids = list(footprints)
    polys = [footprints[i] for i in ids]
    if len(polys) < 2:
        return []
    tree = STRtree(polys)
    left, right = tree.query(polys, predicate="intersects")
    keep = left < right
    left, right = left[keep], right[keep]
    arr = np.asarray(polys, dtype=object)
    areas = shapely.area(shapely.intersection(arr[left], arr[right]))
    out = []
    for a, b in zip(left[areas > MIN_OVERLAP_CM2].tolist(), right[areas > MIN_OVERLAP_CM2].tolist()):
        ia, ib = ids[a], ids[b]
        out.append(Problem("warning", "overlap", f"{_name(s, ia)} overlaps {_name(s, ib)}", (ia, ib)))
    return out


def in_impassable(s: Scenario, footprints: dict[str, Polygon]) -> list[Problem]:
    """Units standing in impassable terrain (Torden over Europa 4.7)."""
    areas = [(tid, t.geometry) for tid, t in s.terrain.items()
             if t.kind == TerrainKind.IMPASSABLE and t.geometry.area > 0]
    out = []
    for uid, fp in footprints.items():
        for tid, geom in areas:
            if fp.intersection(geom).area > MIN_OVERLAP_CM2:
                out.append(Problem("error", "impassable",
                                   f"{_name(s, uid)} stands in impassable terrain {_name(s, tid)}", (uid, tid)))
    return out


def towns_over_capacity(s: Scenario, footprints: dict[str, Polygon]) -> list[Problem]:
    """Town zones holding more units (footprint centre inside) than their capacity
    (Torden over Europa 4.8.2)."""
    out: list[Problem] = []
    if not s.towns or not footprints:
        return out
    ids = list(footprints)
    tree = STRtree(shapely.centroid(np.array(list(footprints.values()), dtype=object)))  # one query per town
    for zid, z in s.towns.items():
        found = np.sort(tree.query(z.polygon, predicate="contains"))  # footprint order, as before
        inside = [ids[i] for i in found]
        if len(inside) > z.capacity:
            out.append(Problem("warning", "town-capacity",
                               f"{z.name} holds {len(inside)} units, capacity {z.capacity}", (zid, *inside)))
    return out


def idle_commanders(s: Scenario) -> list[Problem]:
    """Commanders with no subordinate in the order of battle."""
    return [
        Problem("warning", "no-subordinates", f"{c.name} commands nobody", (cid,))
        for cid, c in s.commanders.items() if not s.oob.subordinates(cid)
    ]


def ids_of(problems: Iterable[Problem]) -> set[str]:
    """Every id any of ``problems`` names."""
    return {i for p in problems for i in p.ids}
