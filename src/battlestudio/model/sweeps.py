"""Swept areas of moves, glossary G-7: straight translation, pivot about a front corner, and a
multi-leg path with its cost as paid by the figure that has farthest to go (Torden over Europa
4.1, 4.4; glossary T-11, T-12). Lengths in table cm, angles in degrees counter-clockwise.

Movement predicates (interpenetration, obstacles, woods, the 75 cm march rule, the 20 cm
reaction trigger) test these areas rather than the end position (glossary §0.3).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal
from collections.abc import Iterable

from shapely import affinity
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from battlestudio.model.geometry import Point, UnitRect


def _geom(x: UnitRect | BaseGeometry) -> BaseGeometry:
    return x.polygon() if isinstance(x, UnitRect) else x


def swept_translation(p: UnitRect | BaseGeometry, v: Point) -> BaseGeometry:
    """G-7: area swept by footprint ``p`` translated by ``v`` (cm): ``hull(P ∪ (P + v))``,
    exact for a convex footprint."""
    g = _geom(p)
    return unary_union([g, affinity.translate(g, v[0], v[1])]).convex_hull


def swept_pivot(p: UnitRect | BaseGeometry, angle: float, origin: Point, step: float = 1.0) -> BaseGeometry:
    """G-7: area swept by ``p`` rotating ``angle`` degrees about ``origin``, as the union of
    convex hulls of consecutive positions ``step`` ≤ 1° apart (the glossary's approximation)."""
    g = _geom(p)
    n = max(1, math.ceil(abs(angle) / step))
    poses = [affinity.rotate(g, angle * i / n, origin=origin) for i in range(n + 1)]
    return unary_union([unary_union([a, b]).convex_hull for a, b in pairwise(poses)])


@dataclass(frozen=True, slots=True)
class Translate:
    """A straight leg of a move: displacement ``(dx, dy)`` in cm."""

    dx: float
    dy: float


@dataclass(frozen=True, slots=True)
class Pivot:
    """A pivot leg: ``angle`` degrees counter-clockwise about corner ``"FL"`` or ``"FR"``."""

    angle: float
    corner: Literal["FL", "FR"]


@dataclass(frozen=True, slots=True)
class Sweep:
    """A multi-leg move: the ``final`` rectangle, the ``area`` swept, and ``cost`` in cm as
    paid by the figure with farthest to go (|v| per translation, ``w·|φ|`` rad per pivot)."""

    final: UnitRect
    area: BaseGeometry
    cost: float


def swept_path(rect: UnitRect, legs: Iterable[Translate | Pivot]) -> Sweep:
    """G-7 for a multi-leg path: the union of each leg's swept area (Torden over Europa 4.1,
    4.4; glossary T-11 cost, T-12 pivot)."""
    cur, areas, cost = rect, [rect.polygon()], 0.0
    for leg in legs:
        if isinstance(leg, Translate):
            areas.append(swept_translation(cur, (leg.dx, leg.dy)))
            cost += math.hypot(leg.dx, leg.dy)
            cur = cur.translated(leg.dx, leg.dy)
        else:
            fl, fr, _, _ = cur.corners()
            areas.append(swept_pivot(cur, leg.angle, fl if leg.corner == "FL" else fr))
            cost += cur.width * math.radians(abs(leg.angle))
            cur = cur.pivoted(leg.angle, leg.corner)
    return Sweep(cur, unary_union(areas), cost)
