"""The table frame and unit footprints: the one place geometry conventions are written.

Frame (shared/rules/geometry-glossary.md §0.1):

* lengths are **centimetres on the table**; the origin is the table's bottom-left corner;
* ``x`` grows to the right, ``y`` grows **up** (mathematical orientation);
* a facing ``θ`` is in **degrees, counter-clockwise from +x**: 0 faces east/right,
  90 faces north/up (towards the far table edge).

A formed unit is the rectangle of glossary §1.1: ``F`` (midpoint of the front edge), facing
``θ``, frontage ``w`` and depth ``d``. ``Unit.position`` is ``F``, the point a formation change
keeps fixed (Torden over Europa 4.5). The UI converts to scene coordinates in exactly one
function (``ui.coords``); nothing below the UI knows about screens.

This module owns the frame, the rectangle with its named edges, lines and local coordinates
(glossary §1.1–1.2, G-3), the bearing of a point relative to a facing, rigid motions and
pivots, and the files × ranks shape of each formation (glossary §1.4, Torden over Europa 1.7).
The figure grid and formation-change anchoring live in ``model.formations``, swept areas in
``model.sweeps``; the predicates built on these rectangles live in ``model.predicates`` and
``model.command_geometry``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal, TypeAlias

import numpy as np
from shapely.geometry import LineString, Polygon

Point: TypeAlias = tuple[float, float]
"""(x, y) in table cm."""

EPS = 0.1
"""Tolerance in cm for what the rules call touching or contact (glossary §0.1)."""

TINY = 1e-6
"""Numerical zero (glossary §0.1): also the slack on every "within X cm" threshold."""

LONG = 10_000.0
"""Half-length in cm of the segments that stand in for the rules' infinite extended lines."""

EdgeName: TypeAlias = Literal["front", "right", "rear", "left"]
EDGE_NAMES: tuple[EdgeName, ...] = ("front", "right", "rear", "left")
"""The four edges of a unit rectangle, in the ring order of glossary §1.1."""


def normalize_angle(degrees: float) -> float:
    """Return ``degrees`` wrapped into [0, 360)."""
    a = math.fmod(degrees, 360.0)
    if a < 0:
        a += 360.0
    return 0.0 if a >= 360.0 else a


def signed_angle(degrees: float) -> float:
    """Return ``degrees`` wrapped into (−180, 180]."""
    a = normalize_angle(degrees)
    return a - 360.0 if a > 180.0 else a


def forward(facing: float) -> Point:
    """Unit vector the front faces: ``(cos θ, sin θ)`` for facing θ in degrees."""
    r = math.radians(facing)
    return (math.cos(r), math.sin(r))


def right_of(facing: float) -> Point:
    """Unit vector to the unit's right: the forward vector rotated −90° (glossary §1.1)."""
    r = math.radians(facing)
    return (math.sin(r), -math.cos(r))


def direction_angle(v: Point) -> float:
    """Facing angle in [0, 360) of vector ``v`` (degrees counter-clockwise from +x).

    Raises
    ------
    ValueError
        if ``v`` has zero length (no direction).
    """
    if math.hypot(v[0], v[1]) <= TINY:
        raise ValueError(f"vector {v!r} has no direction")
    return normalize_angle(math.degrees(math.atan2(v[1], v[0])))


def rotate_point(p: Point, angle: float, origin: Point = (0.0, 0.0)) -> Point:
    """Rotate ``p`` by ``angle`` degrees counter-clockwise about ``origin`` (cm)."""
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    dx, dy = p[0] - origin[0], p[1] - origin[1]
    return (origin[0] + c * dx - s * dy, origin[1] + s * dx + c * dy)


def bearing(front: Point, facing: float, p: Point) -> float:
    """Bearing of ``p`` seen from ``front`` relative to ``facing``, in (−180, 180] degrees.

    0 is straight ahead, +90 is to the unit's left, −90 to its right, 180 straight behind
    (counter-clockwise positive, as the frame). Use ``UnitRect.bearing`` for a unit.

    Raises
    ------
    ValueError
        if ``p`` coincides with ``front`` (no bearing).
    """
    d = (p[0] - front[0], p[1] - front[1])
    if math.hypot(*d) <= TINY:
        raise ValueError(f"point {p!r} coincides with the reference point {front!r}: no bearing")
    return signed_angle(math.degrees(math.atan2(d[1], d[0])) - facing)


@dataclass(frozen=True, slots=True)
class UnitRect:
    """A formed unit's rectangle (glossary §1.1).

    Attributes
    ----------
    front : Point
        ``F``, midpoint of the front edge, table cm.
    facing : float
        θ, degrees counter-clockwise from +x.
    width : float
        frontage ``w`` in cm (length of the front edge), ≥ 0.
    depth : float
        front-to-rear depth ``d`` in cm, ≥ 0.
    """

    front: Point
    facing: float
    width: float
    depth: float

    # -- corners, edges, reference points ---------------------------------------------
    def corners(self) -> tuple[Point, Point, Point, Point]:
        """Return (FL, FR, RR, RL): front-left, front-right, rear-right, rear-left, in cm."""
        fx, fy = forward(self.facing)
        rx, ry = right_of(self.facing)
        x, y = self.front
        hw = self.width / 2.0
        fl = (x - hw * rx, y - hw * ry)
        fr = (x + hw * rx, y + hw * ry)
        rr = (fr[0] - self.depth * fx, fr[1] - self.depth * fy)
        rl = (fl[0] - self.depth * fx, fl[1] - self.depth * fy)
        return fl, fr, rr, rl

    def polygon(self) -> Polygon:
        """The footprint as a shapely polygon (counter-clockwise ring FL, RL, RR, FR)."""
        fl, fr, rr, rl = self.corners()
        return Polygon([fl, rl, rr, fr])

    @property
    def centre(self) -> Point:
        """Centre of the rectangle, cm."""
        fx, fy = forward(self.facing)
        return (self.front[0] - fx * self.depth / 2.0, self.front[1] - fy * self.depth / 2.0)

    @property
    def rear_centre(self) -> Point:
        """Midpoint of the rear edge, ``F − d·f`` (cm)."""
        fx, fy = forward(self.facing)
        return (self.front[0] - fx * self.depth, self.front[1] - fy * self.depth)

    def edges(self) -> dict[EdgeName, tuple[Point, Point]]:
        """The four edges as (start, end) points: front [FL,FR], right [FR,RR], rear [RR,RL],
        left [RL,FL] (glossary §1.1)."""
        fl, fr, rr, rl = self.corners()
        return {"front": (fl, fr), "right": (fr, rr), "rear": (rr, rl), "left": (rl, fl)}

    def edge(self, name: EdgeName) -> LineString:
        """One edge as a shapely segment (cm).

        Raises
        ------
        KeyError
            for a name other than front, right, rear, left.
        """
        a, b = self.edges()[name]
        return LineString([a, b])

    def normal(self, name: EdgeName) -> Point:
        """Outward unit normal of an edge: front f, rear −f, right r, left −r (glossary §1.1)."""
        fx, fy = forward(self.facing)
        rx, ry = right_of(self.facing)
        return {"front": (fx, fy), "rear": (-fx, -fy), "right": (rx, ry), "left": (-rx, -ry)}[name]

    # -- local coordinates and named lines (G-3) ----------------------------------------
    def local(self, p: Point) -> Point:
        """Local coordinates ``(s, l)`` of point ``p`` (glossary §1.1).

        ``s`` > 0 is in front of the extended front; ``l`` > 0 is towards the unit's right.
        """
        fx, fy = forward(self.facing)
        rx, ry = right_of(self.facing)
        dx, dy = p[0] - self.front[0], p[1] - self.front[1]
        return (dx * fx + dy * fy, dx * rx + dy * ry)

    def s(self, p: Point) -> float:
        """Forward coordinate ``s(p) = (p − F)·f`` in cm (glossary §1.1, G-3)."""
        return self.local(p)[0]

    def lat(self, p: Point) -> float:
        """Lateral coordinate ``l(p) = (p − F)·r`` in cm, > 0 to the right (G-3)."""
        return self.local(p)[1]

    def local_array(self, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Vectorised ``local``: ``points`` of shape (n, 2) → arrays ``s`` and ``l`` of shape (n,)."""
        pts = np.asarray(points, dtype=float).reshape(-1, 2)
        d = pts - np.asarray(self.front, dtype=float)
        return d @ np.asarray(forward(self.facing)), d @ np.asarray(right_of(self.facing))

    def extended_front(self, half_length: float = LONG) -> LineString:
        """The extended front ``s = 0`` (forlængede front) as a long segment through FL, FR."""
        return self._line(0.0, half_length)

    def extended_rear(self, half_length: float = LONG) -> LineString:
        """The extended rear line ``s = −d`` as a long segment."""
        return self._line(-self.depth, half_length)

    def extended_flank(self, side: Literal["left", "right"], half_length: float = LONG) -> LineString:
        """An extended flank line ``l = ∓w/2`` as a long segment running along the facing."""
        fx, fy = forward(self.facing)
        rx, ry = right_of(self.facing)
        off = (-1.0 if side == "left" else 1.0) * self.width / 2.0
        cx, cy = self.front[0] + off * rx, self.front[1] + off * ry
        return LineString(
            [(cx - half_length * fx, cy - half_length * fy), (cx + half_length * fx, cy + half_length * fy)]
        )

    def _line(self, s: float, half_length: float) -> LineString:
        fx, fy = forward(self.facing)
        rx, ry = right_of(self.facing)
        cx, cy = self.front[0] + s * fx, self.front[1] + s * fy
        return LineString(
            [(cx - half_length * rx, cy - half_length * ry), (cx + half_length * rx, cy + half_length * ry)]
        )

    def bearing(self, p: Point, origin: Literal["front", "centre"] = "front") -> float:
        """Bearing of ``p`` relative to the unit's facing, (−180, 180] degrees, left positive.

        Measured from ``F`` (``origin="front"``) or from the centre. See ``bearing``.
        """
        return bearing(self.front if origin == "front" else self.centre, self.facing, p)

    # -- rigid motions --------------------------------------------------------------------
    def translated(self, dx: float, dy: float) -> UnitRect:
        """The same rectangle moved by ``(dx, dy)`` cm."""
        return UnitRect((self.front[0] + dx, self.front[1] + dy), self.facing, self.width, self.depth)

    def rotated(self, angle: float, origin: Point = (0.0, 0.0)) -> UnitRect:
        """The same rectangle rotated ``angle`` degrees counter-clockwise about ``origin``.

        The facing is returned wrapped into [0, 360).
        """
        return UnitRect(
            rotate_point(self.front, angle, origin), normalize_angle(self.facing + angle), self.width, self.depth
        )

    def pivoted(self, angle: float, corner: Literal["FL", "FR"]) -> UnitRect:
        """Pivot (pivotering) by ``angle`` degrees about the front-left or front-right corner.

        Positive is counter-clockwise: about FL it wheels the right wing forward, about FR it
        swings the left wing back (glossary T-12, F15; Torden over Europa 4.4).

        Raises
        ------
        ValueError
            for a corner other than ``"FL"`` or ``"FR"``.
        """
        fl, fr, _, _ = self.corners()
        if corner not in ("FL", "FR"):
            raise ValueError(f"pivot corner must be 'FL' or 'FR', got {corner!r}")
        return self.rotated(angle, fl if corner == "FL" else fr)


def front_from_centre(centre: Point, facing: float, depth: float) -> Point:
    """Front-edge midpoint ``F`` of a rectangle of ``depth`` cm centred on ``centre``."""
    fx, fy = forward(facing)
    return (centre[0] + fx * depth / 2.0, centre[1] + fy * depth / 2.0)


def square_side(figures: int) -> int:
    """Side in figures of a 2-rank hollow square of ``figures`` figures (glossary §1.4).

    The glossary's ``ceil(N/8) + 2`` holds a 2-rank ring of ``8a − 16`` figures. Below side 5 a
    2-rank ring would fill the middle, which Torden over Europa 1.7 forbids ("open in the
    middle"; small units use one rank on some sides), so sides 3 and 4 hold only their outer
    ring (8 and 12 figures). That makes 13–16 figures a side-5 square, not the glossary's 4.
    """
    if figures <= 0:
        return 0
    a = 3
    while square_capacity(a) < figures:
        a += 1
    return a


def square_capacity(side: int) -> int:
    """Figures a hollow square of ``side`` figures holds with its middle open (see ``square_side``)."""
    if side < 3:
        return 0
    return 4 * side - 4 if side < 5 else 8 * side - 16


def grid_shape(formation: str, figures: int, column_ranks: int = 3) -> tuple[int, int]:
    """Files and ranks ``(n, k)`` of a formation of ``figures`` figures (glossary §1.4).

    Parameters
    ----------
    formation : str
        a ``Formation`` value: ``line``, ``column``, ``march_column``, ``square``,
        ``skirmish``, ``limbered``, ``unlimbered`` or ``none`` (complete disorder).
    figures : int
        figure count, ≥ 0. Zero figures gives ``(0, 0)``.
    column_ranks : int
        3 or 4, the player's choice for column (Torden over Europa 1.7).

    Returns
    -------
    (files, ranks) : tuple[int, int]
        Line: 2 ranks. Column: ``column_ranks`` ranks. March column: at most 2 files, so that
        the depth is at least 3 ranks where the figures allow it. Square returns ``(a, a)``,
        ``a`` = ``square_side``. This draws what is asked even where the rules forbid it (a
        4-figure column); ``formations.formation_problem`` says whether it is allowed.

    Raises
    ------
    ValueError
        for a negative figure count, column ranks outside 3–4, or an unknown formation.
    """
    if figures < 0:
        raise ValueError(f"figures must be >= 0, got {figures}")
    if formation == "column" and column_ranks not in (3, 4):
        raise ValueError(f"column ranks must be 3 or 4 (Torden over Europa 1.7), got {column_ranks}")
    if formation not in FORMATION_KEYS:
        raise ValueError(f"unknown formation {formation!r}")
    if figures == 0:
        return (0, 0)
    if formation in ("line", "skirmish", "limbered"):
        return (math.ceil(figures / 2), min(2, figures))
    if formation == "unlimbered":
        return (figures, 1)
    if formation == "column":
        k = min(column_ranks, figures)
        return (math.ceil(figures / k), k)
    if formation == "march_column":
        n = 1 if figures < 6 else 2
        return (n, math.ceil(figures / n))
    if formation == "square":
        a = square_side(figures)
        return (a, a)
    side = math.ceil(math.sqrt(figures))  # "none": the FU mob, a rough block of figures
    return (side, math.ceil(figures / side))


FORMATION_KEYS = frozenset({"line", "column", "march_column", "square", "skirmish", "limbered", "unlimbered", "none"})
"""The formation strings ``grid_shape`` knows (the values of ``units.Formation``)."""


def unit_rect(
    front: Point,
    facing: float,
    formation: str,
    figures: int,
    figure_width: float,
    figure_depth: float,
    column_ranks: int = 3,
) -> UnitRect:
    """Footprint rectangle of a unit from its figures (glossary §1.4, Torden over Europa 1.7).

    ``figure_width`` is the frontage of one figure and ``figure_depth`` the depth of one rank,
    both in cm. Width is files × figure width and depth ranks × figure depth; a square is the
    outer square of side ``a`` × figure width; skirmish order is drawn as a line with double
    intervals. A unit with no figures gets a 1 cm token so it still has a place on the map.

    Raises
    ------
    ValueError
        as ``grid_shape``.
    """
    files, ranks = grid_shape(formation, figures, column_ranks)
    if files == 0:
        return UnitRect(front, facing, 1.0, 1.0)
    if formation == "square":
        side = files * figure_width
        return UnitRect(front, facing, side, side)
    width = files * figure_width * (2.0 if formation == "skirmish" else 1.0)
    return UnitRect(front, facing, width, ranks * figure_depth)
