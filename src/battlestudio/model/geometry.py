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
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TypeAlias

from shapely.geometry import Polygon

Point: TypeAlias = tuple[float, float]
"""(x, y) in table cm."""

EPS = 0.1
"""Tolerance in cm for what the rules call touching or contact (glossary §0.1)."""

TINY = 1e-6
"""Numerical zero (glossary §0.1)."""


def normalize_angle(degrees: float) -> float:
    """Return ``degrees`` wrapped into [0, 360)."""
    a = math.fmod(degrees, 360.0)
    if a < 0:
        a += 360.0
    return 0.0 if a >= 360.0 else a


def forward(facing: float) -> Point:
    """Unit vector the front faces: ``(cos θ, sin θ)`` for facing θ in degrees."""
    r = math.radians(facing)
    return (math.cos(r), math.sin(r))


def right_of(facing: float) -> Point:
    """Unit vector to the unit's right: the forward vector rotated −90° (glossary §1.1)."""
    r = math.radians(facing)
    return (math.sin(r), -math.cos(r))


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
        frontage ``w`` in cm (length of the front edge).
    depth : float
        front-to-rear depth ``d`` in cm.
    """

    front: Point
    facing: float
    width: float
    depth: float

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

    def local(self, p: Point) -> Point:
        """Local coordinates ``(s, l)`` of point ``p`` (glossary §1.1).

        ``s`` > 0 is in front of the extended front; ``l`` > 0 is towards the unit's right.
        """
        fx, fy = forward(self.facing)
        rx, ry = right_of(self.facing)
        dx, dy = p[0] - self.front[0], p[1] - self.front[1]
        return (dx * fx + dy * fy, dx * rx + dy * ry)


def front_from_centre(centre: Point, facing: float, depth: float) -> Point:
    """Front-edge midpoint ``F`` of a rectangle of ``depth`` cm centred on ``centre``."""
    fx, fy = forward(facing)
    return (centre[0] + fx * depth / 2.0, centre[1] + fy * depth / 2.0)


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
        Square returns ``(a, a)`` with side ``a`` in figures (2-rank hollow square).

    Raises
    ------
    ValueError
        for a negative figure count, column ranks outside 3–4, or an unknown formation.
    """
    if figures < 0:
        raise ValueError(f"figures must be >= 0, got {figures}")
    if figures == 0:
        return (0, 0)
    if formation in ("line", "skirmish", "unlimbered", "limbered"):
        return (math.ceil(figures / 2), min(2, figures)) if formation != "unlimbered" else (figures, 1)
    if formation == "column":
        if column_ranks not in (3, 4):
            raise ValueError(f"column ranks must be 3 or 4 (Torden over Europa 1.7), got {column_ranks}")
        k = min(column_ranks, figures)
        return (math.ceil(figures / k), k)
    if formation == "march_column":
        n = 1 if figures < 6 else 2
        return (n, math.ceil(figures / n))
    if formation == "square":
        a = math.ceil(figures / 8) + 2
        return (a, a)
    if formation == "none":
        side = math.ceil(math.sqrt(figures))
        return (side, math.ceil(figures / side))
    raise ValueError(f"unknown formation {formation!r}")


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
    both in cm. Skirmish order is drawn as a line with double intervals. A unit with no
    figures gets a 1 cm token so it still has a place on the map.
    """
    files, ranks = grid_shape(formation, figures, column_ranks)
    if files == 0:
        return UnitRect(front, facing, 1.0, 1.0)
    if formation == "square":
        side = files * figure_width
        return UnitRect(front, facing, side, side)
    width = files * figure_width * (2.0 if formation == "skirmish" else 1.0)
    return UnitRect(front, facing, width, ranks * figure_depth)
