"""Checks of the scenario's areas and lines: empty or invalid geometries, geometry off the
table, overlapping town zones (Torden over Europa 4.8: a town zone is a separate area).

Off the table: a town zone, objective or deployment zone must lie on the table (error: units
in it would stand off it); terrain may run past the edge (the edge clips a wood or a road), but
terrain wholly off the table is a warning (it plays no part).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import shapely
from shapely import STRtree
from shapely.validation import explain_validity

from battlestudio.model.geometry import EPS
from battlestudio.model.scenario import Scenario
from battlestudio.validate.problem import Problem, error, warning

MIN_OVERLAP_CM2 = EPS * EPS
"""Areas sharing less than this (cm²) only touch (glossary §0.1)."""

_AREAS = (
    ("terrain", "terrain", "geometry"),
    ("towns", "town", "polygon"),
    ("objectives", "objective", "geometry"),
    ("deployment_zones", "deployment_zone", "polygon"),
)
"""(container, kind in check ids, geometry field) of every record with a geometry."""


def _shapes(s: Scenario) -> list[tuple[str, str, str, str, Any]]:
    """(container, kind, field, id, geometry) of every geometry, in container order."""
    return [
        (key, kind, f"{key}[{rid!r}].{attr}", rid, getattr(rec, attr))
        for key, kind, attr in _AREAS
        for rid, rec in getattr(s, key).items()
    ]


def geometries(s: Scenario) -> Iterable[Problem]:
    """Empty and invalid geometries (errors), then valid ones off the table."""
    shapes = _shapes(s)
    if not shapes:
        return
    geoms = np.array([g[4] for g in shapes], dtype=object)
    empty = shapely.is_empty(geoms)
    valid = shapely.is_valid(geoms)
    for (_key, _kind, where, rid, geom), e, v in zip(shapes, empty.tolist(), valid.tolist(), strict=True):
        if e:
            yield error("geometry.empty", f"{where}: empty {geom.geom_type}", rid)
        elif not v:
            yield error("geometry.invalid", f"{where}: invalid {geom.geom_type}: {explain_validity(geom)}", rid)
    w, h = s.info.table_width, s.info.table_height
    table = s.table()
    usable = ~empty & valid
    inside = shapely.within(geoms, table.buffer(EPS))
    touches = shapely.intersects(geoms, table)
    for (key, kind, where, rid, geom), ok, i, t in zip(
        shapes, usable.tolist(), inside.tolist(), touches.tolist(), strict=True
    ):
        if not ok or i:
            continue
        x0, y0, x1, y1 = geom.bounds
        span = f"spans x {x0:.1f}–{x1:.1f}, y {y0:.1f}–{y1:.1f} cm; the table is {w:g} × {h:g} cm"
        if key != "terrain":
            yield error(f"{kind}.off_table", f"{where}: {geom.geom_type} {span}", rid)
        elif not t:
            yield warning("terrain.off_table", f"{where}: {geom.geom_type} lies wholly off the table ({span})", rid)


def town_overlaps(s: Scenario) -> Iterable[Problem]:
    """Pairs of valid town zones sharing more than ``MIN_OVERLAP_CM2``."""
    ids = sorted(i for i, t in s.towns.items() if t.polygon.is_valid and not t.polygon.is_empty)
    polys = [s.towns[i].polygon for i in ids]
    if len(polys) < 2:
        return
    tree = STRtree(polys)
    for a, b in zip(*tree.query(polys, predicate="intersects"), strict=True):
        if a < b:
            area = polys[a].intersection(polys[b]).area
            if area > MIN_OVERLAP_CM2:
                yield error(
                    "town.overlap",
                    f"towns[{ids[a]!r}].polygon: overlaps town zone {ids[b]!r} by {area:.1f} cm²",
                    ids[a],
                    ids[b],
                )
