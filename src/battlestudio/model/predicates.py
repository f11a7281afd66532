"""The generic geometric primitives G-1 … G-13 of shared/rules/geometry-glossary.md §3.

Every function takes unit rectangles (``geometry.UnitRect``) where a facing matters and any
shapely geometry (or a ``UnitRect``, which stands for its polygon) where only the footprint
matters. Lengths are table cm, angles degrees, in the frame of ``model.geometry``. Thresholds
are inclusive with ``TINY`` slack, so "within 20 cm" counts 20.0. Functions that test one
geometry against many take sequences and use shapely's vectorised functions and ``STRtree``.

G-7 (swept areas) lives in ``model.sweeps`` and is re-exported here.

Rulesets build their predicates (glossary §4 T-n, §5 B-n) from these; this module knows no rule.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, TypeAlias
from collections.abc import Sequence

import numpy as np
import shapely
from shapely.geometry import LineString, Polygon
from shapely.geometry import Point as ShapelyPoint
from shapely.geometry.base import BaseGeometry

from battlestudio.model.geometry import EDGE_NAMES, EPS, TINY, EdgeName, Point, UnitRect, forward
from battlestudio.model.sweeps import (  # G-7, re-exported (see __all__)
    Pivot,
    Sweep,
    Translate,
    swept_path,
    swept_pivot,
    swept_translation,
)

Shape: TypeAlias = UnitRect | BaseGeometry
"""A footprint: a unit rectangle or any shapely geometry, in table cm."""

PARALLEL_TOL = 10.0
"""Degrees two edges may deviate from antiparallel and still run along each other (G-2)."""


def geom(x: Shape) -> BaseGeometry:
    """The shapely geometry of a footprint (a ``UnitRect`` becomes its polygon)."""
    return x.polygon() if isinstance(x, UnitRect) else x


def _vertices(x: Shape) -> np.ndarray:
    """All vertices of a footprint as an (n, 2) array."""
    if isinstance(x, UnitRect):
        return np.asarray(x.corners(), dtype=float)
    coords: np.ndarray = shapely.get_coordinates(x)  # shapely is untyped
    return coords


# -- G-1 distance ------------------------------------------------------------------------
def distance(a: Shape, b: Shape) -> float:
    """G-1: shortest Euclidean distance between two footprints in cm; 0 if they touch or overlap."""
    return float(geom(a).distance(geom(b)))


def distances(a: Sequence[Shape], b: Sequence[Shape]) -> np.ndarray:
    """G-1 for every pair: an array of shape (len(a), len(b)) in cm (vectorised)."""
    ga = np.asarray([geom(x) for x in a], dtype=object)
    gb = np.asarray([geom(x) for x in b], dtype=object)
    if ga.size == 0 or gb.size == 0:
        return np.zeros((ga.size, gb.size))
    out: np.ndarray = shapely.distance(ga[:, None], gb[None, :])  # shapely is untyped
    return out


def within_distance(a: Shape, others: Sequence[Shape], limit: float) -> np.ndarray:
    """Indices (ascending) of ``others`` whose G-1 distance to ``a`` is ≤ ``limit`` cm.

    Uses an ``STRtree`` so that thousands of footprints are cheap; the limit is inclusive
    (``limit + TINY``).

    Raises
    ------
    ValueError
        for a negative limit.
    """
    if limit < 0:
        raise ValueError(f"distance limit must be >= 0 cm, got {limit}")
    gs = [geom(x) for x in others]
    if not gs:
        return np.zeros(0, dtype=int)
    tree = shapely.STRtree(gs)
    return np.sort(tree.query(geom(a), predicate="dwithin", distance=limit + TINY)).astype(int)


def pairs_within(a: Sequence[Shape], b: Sequence[Shape], limit: float) -> np.ndarray:
    """Every pair ``(i, j)`` with ``distance(a[i], b[j]) ≤ limit`` cm, shape (k, 2), sorted.

    One ``STRtree`` over ``b`` answers all of ``a`` at once, e.g. every cavalry unit against
    every enemy for a 20 cm reaction trigger.

    Raises
    ------
    ValueError
        for a negative limit.
    """
    if limit < 0:
        raise ValueError(f"distance limit must be >= 0 cm, got {limit}")
    ga = np.asarray([geom(x) for x in a], dtype=object)
    gb = [geom(x) for x in b]
    if ga.size == 0 or not gb:
        return np.zeros((0, 2), dtype=int)
    ij: np.ndarray = shapely.STRtree(gb).query(ga, predicate="dwithin", distance=limit + TINY).T.astype(int)
    return ij[np.lexsort((ij[:, 1], ij[:, 0]))]


# -- G-2 base contact --------------------------------------------------------------------
def _segments(g: BaseGeometry) -> list[tuple[np.ndarray, np.ndarray]]:
    """Boundary segments of a polygon or line (every ring of every part)."""
    out: list[tuple[np.ndarray, np.ndarray]] = []
    parts = getattr(g, "geoms", [g])
    for part in parts:
        rings = [part.exterior, *part.interiors] if isinstance(part, Polygon) else [part]
        for ring in rings:
            c = np.asarray(ring.coords, dtype=float)
            out.extend((c[i], c[i + 1]) for i in range(len(c) - 1) if np.hypot(*(c[i + 1] - c[i])) > TINY)
    return out


def contact_length(a: Shape, b: Shape, eps: float = EPS) -> float:
    """G-2 contact length in cm: how much of ``a``'s boundary runs along ``b``'s within ``eps``.

    Counts, for each pair of edges that face each other (antiparallel within ``PARALLEL_TOL``
    degrees), the length of ``a``'s edge inside the flat-capped ``eps`` band around ``b``'s
    edge. So a corner-to-corner contact has length 0 as the glossary requires; the literal
    ``A.boundary ∩ B.boundary.buffer(EPS)`` would add up to ``eps`` for every edge leaving the
    contact.
    """
    sa, sb = _segments(geom(a)), _segments(geom(b))
    if not sa or not sb:
        return 0.0
    cos_tol = math.cos(math.radians(PARALLEL_TOL))
    total = 0.0
    for p0, p1 in sa:
        ua = (p1 - p0) / np.hypot(*(p1 - p0))
        seg = LineString([p0, p1])
        for q0, q1 in sb:
            ub = (q1 - q0) / np.hypot(*(q1 - q0))
            if abs(float(ua @ ub)) < cos_tol:
                continue
            band = LineString([q0, q1]).buffer(eps, cap_style="flat")
            total += seg.intersection(band).length
    return float(total)


@dataclass(frozen=True, slots=True)
class Contact:
    """Result of ``base_contact``: ``touching`` (distance ≤ EPS), ``overlap`` (interiors
    overlap beyond tolerance: an illegal placement to flag), ``length`` in cm."""

    touching: bool
    overlap: bool
    length: float

    @property
    def in_contact(self) -> bool:
        """Base contact (brikkontakt): touching and not illegally overlapping."""
        return self.touching and not self.overlap


def _extent(x: Shape) -> float:
    if isinstance(x, UnitRect):
        return x.width
    g = geom(x)
    if g.is_empty:
        return 0.0
    mrr = g.minimum_rotated_rectangle
    c = shapely.get_coordinates(mrr)
    return float(np.max(np.hypot(*(np.diff(c, axis=0).T)))) if len(c) > 1 else 0.0


def base_contact(a: Shape, b: Shape, eps: float = EPS, min_length: float = 0.0) -> Contact:
    """G-2 base contact (brikkontakt) between two footprints.

    Touching ⇔ ``distance(a, b) ≤ eps``. Overlap ⇔ the interiors share more than
    ``eps·max(wA, wB)`` cm² (w = frontage, or the longest side of the minimum rotated
    rectangle for a bare geometry). A contact shorter than ``min_length`` cm (the glossary's
    ``contact_min_len``, default 0 = any contact, corner-to-corner included) is reported as
    not touching.
    """
    ga, gb = geom(a), geom(b)
    d = ga.distance(gb)
    touching = d <= eps + TINY
    overlap = touching and ga.intersection(gb).area > eps * max(_extent(a), _extent(b))
    length = contact_length(a, b, eps) if touching else 0.0
    if length < min_length - TINY:
        touching = False
    return Contact(touching, overlap, length)


# -- G-4 half-plane tests, G-5 lateral overlap ------------------------------------------
def behind_ext_front(t: UnitRect, g: Shape, mode: Literal["any", "all", "front_centre"] = "all") -> bool:
    """G-4: is ``g`` behind ``t``'s extended front (``s_t < 0``)?

    ``"any"``: partly behind, some vertex has ``s < 0``. ``"all"``: wholly behind, every
    vertex has ``s ≤ 0``. ``"front_centre"``: ``g``'s front midpoint has ``s < 0`` (``g`` must
    be a ``UnitRect``). Used by Torden over Europa 5.3.2 (T-16) and 6.1.8 (T-23).

    Raises
    ------
    ValueError
        for an unknown mode, or ``"front_centre"`` with a bare geometry.
    """
    if mode == "front_centre":
        if not isinstance(g, UnitRect):
            raise ValueError("mode 'front_centre' needs a UnitRect, not a bare geometry")
        return t.s(g.front) < -TINY
    s, _ = t.local_array(_vertices(g))
    if s.size == 0:
        return False
    if mode == "any":
        return bool(s.min() < -TINY)
    if mode == "all":
        return bool(s.max() <= TINY)
    raise ValueError(f"mode must be 'any', 'all' or 'front_centre', got {mode!r}")


def in_front_of_ext_front(t: UnitRect, g: Shape) -> bool:
    """G-4: some part of ``g`` lies strictly in front of ``t``'s extended front (``max s > 0``)."""
    s, _ = t.local_array(_vertices(g))
    return bool(s.size and s.max() > TINY)


def behind_ext_rear(t: UnitRect, g: Shape) -> bool:
    """G-4: ``g`` lies wholly behind ``t``'s extended rear line (every vertex ``s ≤ −d``)."""
    s, _ = t.local_array(_vertices(g))
    return bool(s.size and s.max() <= -t.depth + TINY)


def lateral_overlap(t: UnitRect, g: Shape) -> float:
    """G-5: length in cm of ``[min l_t(g), max l_t(g)] ∩ [−w/2, +w/2]``; > 0 means ``g`` is
    at least partly straight ahead of or behind ``t``."""
    _, lat = t.local_array(_vertices(g))
    if lat.size == 0:
        return 0.0
    lo, hi = max(lat.min(), -t.width / 2.0), min(lat.max(), t.width / 2.0)
    return float(max(0.0, hi - lo))


# -- G-6 angles --------------------------------------------------------------------------
def angle_between(u: Point, v: Point) -> float:
    """G-6: angle in degrees, [0, 180], between directions ``u`` and ``v``.

    Raises
    ------
    ValueError
        if either vector has zero length.
    """
    nu, nv = math.hypot(*u), math.hypot(*v)
    if nu <= TINY or nv <= TINY:
        raise ValueError(f"angle between {u!r} and {v!r} is undefined: zero-length vector")
    c = (u[0] * v[0] + u[1] * v[1]) / (nu * nv)
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def within_cone(v: Point, facing: float, half_angle: float) -> bool:
    """G-6: direction ``v`` lies within ``half_angle`` degrees of ``facing`` (inclusive).

    E.g. Torden over Europa 4.4: a move is forward when within 45° of the front.
    """
    return angle_between(v, forward(facing)) <= half_angle + 1e-9


# -- G-8 visible edges, G-9 contact edge --------------------------------------------------
def visible_edges(a: UnitRect, t: UnitRect, eps: float = EPS) -> frozenset[EdgeName]:
    """G-8: edges of ``t`` hit first by some ray from ``a``'s front edge along ``a``'s facing.

    An edge qualifies when its outward normal faces ``a`` (``n·f_a < 0``) and the part of it
    with ``s_a ≥ −eps`` covers a lateral interval overlapping ``(−w_a/2, +w_a/2)`` with
    positive length. Exact for rectangles; rays grazing an edge do not hit it.
    """
    f = np.asarray(forward(a.facing))
    out: set[EdgeName] = set()
    for name, (p, q) in t.edges().items():
        if float(np.asarray(t.normal(name)) @ f) >= -TINY:
            continue
        (sp, sq), (lp, lq) = a.local_array(np.asarray([p, q]))
        if sp < -eps and sq < -eps:
            continue
        if sp < -eps or sq < -eps:  # clip the edge to s ≥ −eps
            u = (-eps - sp) / (sq - sp)
            lcut = lp + u * (lq - lp)
            lp, lq = (lcut, lq) if sp < -eps else (lp, lcut)
        lo, hi = max(min(lp, lq), -a.width / 2.0), min(max(lp, lq), a.width / 2.0)
        if hi - lo > TINY:
            out.add(name)
    return frozenset(out)


def contact_edge(t: UnitRect, a: UnitRect, eps: float = EPS) -> tuple[EdgeName | None, float]:
    """G-9: the edge of ``t`` lying longest inside the flat-capped ``eps`` band around ``a``'s
    front edge, with that length in cm; ``(None, 0.0)`` when ``a`` does not touch ``t`` with
    its front (Torden over Europa 5.3.2 front/flank/rear, glossary T-17)."""
    band = a.edge("front").buffer(eps, cap_style="flat")
    if band.is_empty:
        return None, 0.0
    lengths = shapely.length(shapely.intersection(np.asarray([t.edge(n) for n in EDGE_NAMES]), band))
    best = float(lengths.max())
    if best <= TINY:
        return None, 0.0
    # ties (a front laid across the target) go to the edge that faces the attacker most
    f = np.asarray(forward(a.facing))
    tied = [i for i in range(4) if lengths[i] >= best - 1e-6]
    i = min(tied, key=lambda k: float(np.asarray(t.normal(EDGE_NAMES[k])) @ f))
    return EDGE_NAMES[i], float(lengths[i])


# -- G-10 … G-13 -------------------------------------------------------------------------
def first_side_crossed(zone: Polygon, p: Point, q: Point) -> int | None:
    """G-10: index of the edge of ``zone``'s exterior ring (in ring order from its first
    vertex) that the segment p→q crosses closest to ``p``; None if it crosses none."""
    seg = LineString([p, q])
    c = np.asarray(zone.exterior.coords, dtype=float)
    best, best_t = None, math.inf
    for i in range(len(c) - 1):
        x = seg.intersection(LineString([c[i], c[i + 1]]))
        if x.is_empty:
            continue
        t = min(seg.project(ShapelyPoint(xy)) for xy in shapely.get_coordinates(x))
        if t < best_t - TINY:
            best, best_t = i, t
    return best


def ahead_of_moving_point(e: Shape, p: Point, u: Point) -> bool:
    """G-11: some part of ``e`` lies beyond the line through ``p`` perpendicular to the
    direction of motion ``u`` (``max (v − p)·u > 0``).

    Raises
    ------
    ValueError
        if ``u`` has zero length.
    """
    n = math.hypot(*u)
    if n <= TINY:
        raise ValueError(f"direction of motion {u!r} has zero length")
    v = _vertices(e) - np.asarray(p, dtype=float)
    return bool(v.size and (v @ (np.asarray(u) / n)).max() > TINY)


def corridor(p0: Point, p1: Point, half_width: float) -> Polygon:
    """G-12: rectangle of ``half_width`` cm either side of the segment p0→p1, no end caps.

    Raises
    ------
    ValueError
        if p0 = p1 or the half-width is not positive.
    """
    if math.dist(p0, p1) <= TINY or half_width <= 0:
        raise ValueError(
            f"corridor needs two distinct points and a positive half-width, got {p0!r}, {p1!r}, {half_width!r}"
        )
    return LineString([p0, p1]).buffer(half_width, cap_style="flat")


Sector = Literal[
    "front", "left_flank", "right_flank", "rear", "front_left", "front_right", "rear_left", "rear_right", "inside"
]


def relative_sector(t: UnitRect, p: Point) -> Sector:
    """G-13: where ``p`` lies relative to ``t`` from its ``(s, l)``.

    front ``s>0, |l|≤w/2``; left/right flank ``−d≤s≤0, l<−w/2 / l>w/2``; rear ``s<−d,
    |l|≤w/2``; front-left/right ``s>0, |l|>w/2``; rear-left/right ``s<−d, |l|>w/2``; and
    ``inside`` for a point in the footprint. Boundaries are resolved with ``TINY``: a point on
    the extended front beside the unit is on its flank.
    """
    s, lat = t.local(p)
    hw = t.width / 2.0
    side = "left" if lat < -hw - TINY else "right" if lat > hw + TINY else ""
    if s > TINY:
        return f"front_{side}" if side else "front"  # type: ignore[return-value]
    if s < -t.depth - TINY:
        return f"rear_{side}" if side else "rear"  # type: ignore[return-value]
    return f"{side}_flank" if side else "inside"  # type: ignore[return-value]


__all__ = [
    "Contact",
    "PARALLEL_TOL",
    "Pivot",
    "Sector",
    "Shape",
    "Sweep",
    "Translate",
    "ahead_of_moving_point",
    "angle_between",
    "base_contact",
    "behind_ext_front",
    "behind_ext_rear",
    "contact_edge",
    "contact_length",
    "corridor",
    "distance",
    "distances",
    "first_side_crossed",
    "geom",
    "in_front_of_ext_front",
    "lateral_overlap",
    "pairs_within",
    "relative_sector",
    "swept_path",
    "swept_pivot",
    "swept_translation",
    "visible_edges",
    "within_cone",
    "within_distance",
]
