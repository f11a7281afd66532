"""Command-distance geometry: who is within a general's command distance, which command zone
an order falls in, and the march order's 75 cm exclusion (glossary T-3, T-4, T-8; Torden over
Europa 2.2–2.5, 2.10, 3.2).

Distances follow glossary §0.2 and ambiguity A3: from the nearest point of the general's base
to the nearest point of the unit (``"nearest"``), with the alternatives ``"all"`` (the whole
unit inside the radius) and ``"centre"`` (centre to centre). Every threshold is inclusive:
a unit exactly at the command distance is within it. The radii and zone bounds themselves are
scenario parameters (Table 1 and the national supplements are missing from the seed); this
module only measures.
"""

from __future__ import annotations

import math
from typing import Literal
from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry import LineString, box
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from battlestudio.model.geometry import TINY, Point
from battlestudio.model.predicates import Shape, geom

Measure = Literal["nearest", "all", "centre"]

MARCH_ORDER_EXCLUSION_CM = 75.0
"""March order (M): no movement within 0.75 m of enemy units (Torden over Europa 2.10, A12)."""


def general_base(centre: Point, width: float = 0.0, depth: float | None = None) -> BaseGeometry:
    """A general's base in table cm, centred on ``centre`` (Torden over Europa 1.4).

    Base sizes are in Table 12, missing from the seed, so the scenario supplies ``width`` and
    ``depth`` (cm, axis-aligned: facing does not matter for command). With the default width 0
    the base is the point ``centre`` and distances are measured from the base centre.

    Raises
    ------
    ValueError
        for a negative width or depth.
    """
    d = width if depth is None else depth
    if width < 0 or d < 0:
        raise ValueError(f"general base size must be >= 0 cm, got {width} x {d}")
    if width == 0 and d == 0:
        return ShapelyPoint(centre)
    x, y = centre
    return box(x - width / 2.0, y - d / 2.0, x + width / 2.0, y + d / 2.0)


def _check_radius(radius: float, what: str = "command distance") -> None:
    if not math.isfinite(radius) or radius < 0:
        raise ValueError(f"{what} must be a finite number of cm >= 0, got {radius!r}")


def command_distances(base: BaseGeometry, units: Sequence[Shape], measure: Measure = "nearest") -> np.ndarray:
    """Distance in cm from a general's ``base`` to each unit, shape (n,) (glossary T-3, T-4).

    ``"nearest"`` (A3) and ``"all"`` give nearest-point distances; ``"centre"`` gives
    base centroid to unit centroid. For ``"all"`` the test is on the farthest point, see
    ``within_command_many``.
    """
    gs = np.asarray([geom(u) for u in units], dtype=object)
    if gs.size == 0:
        return np.zeros(0)
    out: np.ndarray  # shapely is untyped
    if measure == "centre":
        out = shapely.distance(shapely.centroid(gs), base.centroid)
        return out
    if measure in ("nearest", "all"):
        out = shapely.distance(gs, base)
        return out
    raise ValueError(f"measure must be 'nearest', 'all' or 'centre', got {measure!r}")


def within_command_many(
    base: BaseGeometry, units: Sequence[Shape], radius: float, measure: Measure = "nearest"
) -> np.ndarray:
    """T-3 for many units at once: a bool array, True where the unit is within ``radius`` cm.

    Parameters
    ----------
    base : shapely geometry
        the general's base (``general_base``).
    units : sequence of UnitRect or shapely geometry
        each unit's footprint; for an unlimbered battery pass the gun model only (4.6.2, A39).
    radius : float
        command distance in cm (10–20 for a division general, Torden over Europa 2.5).
    measure : {"nearest", "all", "centre"}
        nearest points (default, A3); the whole unit within ``radius`` of the base; or
        centre to centre.

    Raises
    ------
    ValueError
        for a negative or non-finite radius or an unknown measure.
    """
    _check_radius(radius)
    if measure == "all":
        gs = np.asarray([geom(u) for u in units], dtype=object)
        if gs.size == 0:
            return np.zeros(0, dtype=bool)
        return np.asarray([_farthest(g, base) <= radius + TINY for g in gs], dtype=bool)
    return command_distances(base, units, measure) <= radius + TINY


def _farthest(g: BaseGeometry, base: BaseGeometry) -> float:
    """Largest distance from a vertex of ``g`` to ``base``. Distance to a convex base is convex
    along each edge of ``g``, so this is how far ``g`` reaches: ``g`` lies within
    ``base.buffer(R)`` ⇔ this ≤ R."""
    return float(shapely.distance(shapely.points(shapely.get_coordinates(g)), base).max())


def within_command(base: BaseGeometry, unit: Shape, radius: float, measure: Measure = "nearest") -> bool:
    """T-3 within command distance (inden for kommandoafstand), Torden over Europa 2.4–2.5.

    See ``within_command_many`` for the parameters. Exactly ``radius`` cm counts as within.
    """
    return bool(within_command_many(base, [unit], radius, measure)[0])


def zone_of(d: float, bounds: Sequence[float], open_ended: bool = False) -> int | None:
    """T-4: the command zone (1, 2, 3, …) that a distance ``d`` cm falls in.

    Zone ``i`` (1-based) holds ``bounds[i-2] < d ≤ bounds[i-1]``. Beyond the last bound the
    order cannot be issued (None), unless the outer zone is open-ended ("60+", Torden over
    Europa 2.2–2.3, A4), when it counts as the last zone.

    Raises
    ------
    ValueError
        for a negative or non-finite ``d``, no bounds, or bounds that are negative or not
        strictly increasing.
    """
    if not math.isfinite(d) or d < 0:
        raise ValueError(f"distance must be a finite number of cm >= 0, got {d!r}")
    b = [float(x) for x in bounds]
    if not b or b[0] < 0 or any(y <= x for x, y in zip(b, b[1:], strict=False)):
        raise ValueError(f"zone bounds must be non-negative and strictly increasing cm, got {tuple(bounds)!r}")
    for i, limit in enumerate(b, start=1):
        if d <= limit + TINY:
            return i
    return len(b) if open_ended else None


def command_zone(
    issuer_base: BaseGeometry,
    recipient: Shape | Point,
    bounds: Sequence[float],
    open_ended: bool = False,
    measure: Literal["nearest", "centre"] = "nearest",
) -> int | None:
    """T-4 command zone of an order from the issuing general to a recipient (Torden over Europa
    3.2: "from the issuing general to the receiving general/tactical unit").

    ``recipient`` is a general's base, a unit footprint or a point (cm). See ``zone_of``.
    """
    g = ShapelyPoint(recipient) if isinstance(recipient, tuple) else geom(recipient)
    if measure == "centre":
        d = issuer_base.centroid.distance(g.centroid)
    elif measure == "nearest":
        d = issuer_base.distance(g)
    else:
        raise ValueError(f"measure must be 'nearest' or 'centre', got {measure!r}")
    return zone_of(float(d), bounds, open_ended)


def march_order_violations(
    base: BaseGeometry, enemies: Sequence[Shape], limit: float = MARCH_ORDER_EXCLUSION_CM
) -> np.ndarray:
    """T-8: indices of enemy footprints within ``limit`` cm (inclusive) of the corps general's
    base. Any index means a march order converts to defence at the general's position
    (Torden over Europa 2.10)."""
    _check_radius(limit, "march-order exclusion")
    gs = np.asarray([geom(e) for e in enemies], dtype=object)
    if gs.size == 0:
        return np.zeros(0, dtype=int)
    return np.flatnonzero(shapely.distance(gs, base) <= limit + TINY)


def march_order_violated(base: BaseGeometry, enemies: Sequence[Shape], limit: float = MARCH_ORDER_EXCLUSION_CM) -> bool:
    """T-8 conversion test: some enemy unit is within ``limit`` cm of the corps general."""
    return bool(march_order_violations(base, enemies, limit).size)


def march_path_violations(
    path: Sequence[Point], enemies: Sequence[Shape], limit: float = MARCH_ORDER_EXCLUSION_CM
) -> np.ndarray:
    """T-8 path check (A12): indices of enemies that the general's remaining path (a polyline
    of points in cm) comes within ``limit`` cm of. Exact distances, not a buffered polygon.

    Raises
    ------
    ValueError
        for an empty path or a negative limit.
    """
    _check_radius(limit, "march-order exclusion")
    if len(path) == 0:
        raise ValueError("march path has no points")
    line = ShapelyPoint(path[0]) if len(path) == 1 else LineString(path)
    return march_order_violations(line, enemies, limit)


__all__ = [
    "MARCH_ORDER_EXCLUSION_CM",
    "Measure",
    "command_distances",
    "command_zone",
    "general_base",
    "march_order_violated",
    "march_order_violations",
    "march_path_violations",
    "within_command",
    "within_command_many",
    "zone_of",
]
