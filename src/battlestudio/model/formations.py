"""Formation rules on the table: which formations a unit may take, its fronts, its figure grid,
and where a formation change puts it (glossary §1.3–1.4, T-13; Torden over Europa 1.7, 4.5).

Footprint sizes (files × ranks) are ``geometry.grid_shape`` / ``geometry.unit_rect``; this
module adds what the rules say about them:

* line 2 ranks; column 3–4 ranks and a minimum size (``COLUMN_MIN_FIGURES``, Figure 2 is
  missing from the seed: A42); march column at most 2 figures wide and at least 3 ranks deep;
  square 2 ranks, hollow, four fronts and no flank or rear; the FU mob (``none``) has no front;
* the figure grid, a figure addressed as (file from the LEFT, rank from the FRONT);
* the anchor of a formation change: same front midpoint and facing, except line ↔ march column
  (the figures turn on the spot) and square → other (any of its four sides becomes the front);
  ``reformed_unit`` puts a unit record there, ``FormationChange`` is a change as a ruleset
  allows it (the unit afterwards, the explanation, the march-length cost).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
import shapely
from shapely.geometry import Polygon

from battlestudio.model.geometry import (
    EDGE_NAMES,
    EdgeName,
    Point,
    UnitRect,
    direction_angle,
    forward,
    grid_shape,
    normalize_angle,
    right_of,
    unit_rect,
)
from battlestudio.model.units import Arm, Formation, Unit

COLUMN_MIN_FIGURES = 6
"""Fewest figures that may form column: 3 ranks × 2 files (Torden over Europa 1.7; value [I] A42)."""

MARCH_COLUMN_MIN_FIGURES = 3
"""Fewest figures for a march column: depth at least 3 ranks (Torden over Europa 1.7, A42)."""


FORMATION_ARM: dict[Formation, Arm] = {
    Formation.SQUARE: Arm.INFANTRY,
    Formation.LIMBERED: Arm.ARTILLERY,
    Formation.UNLIMBERED: Arm.ARTILLERY,
}
"""Formations only one arm can take: the square is infantry's (Torden over Europa 1.7, 4.5
"infantry square"), limbered and unlimbered are artillery's (4.6). A unit of arm ``other``
takes any formation."""


def arm_formation_problem(arm: Arm | str, formation: Formation | str) -> str | None:
    """Why a unit of ``arm`` cannot stand in ``formation`` at all, or None (``FORMATION_ARM``)."""
    only = FORMATION_ARM.get(Formation(formation))
    if only is None or Arm(arm) in (only, Arm.OTHER):
        return None
    return f"{Arm(arm).value} cannot be {Formation(formation).value} (only {only.value} can)"


class FormationError(ValueError):
    """A formation the rules do not allow for this unit; the message says why."""


def formation_problem(
    formation: str, figures: int, column_ranks: int = 3, column_min_figures: int = COLUMN_MIN_FIGURES
) -> str | None:
    """Why ``figures`` figures may not stand in ``formation`` (Torden over Europa 1.7), or None.

    Parameters
    ----------
    formation : str
        a ``Formation`` value.
    figures : int
        the unit's figure count.
    column_ranks : int
        3 or 4.
    column_min_figures : int
        the scenario's minimum size for column (default 6, [I] A42).

    Returns
    -------
    str | None
        a sentence naming the rule broken, or None when the formation is allowed.
    """
    try:
        files, ranks = grid_shape(formation, figures, column_ranks)
    except ValueError as e:
        return str(e)
    if figures == 0:
        return None
    if formation == "column" and figures < column_min_figures:
        return (
            f"{figures} figures cannot form column: at least {column_min_figures} are needed "
            "for 3-4 ranks with the weight of a column (Torden over Europa 1.7)"
        )
    if formation == "march_column" and ranks < 3:
        return (
            f"{figures} figures cannot form march column: at most 2 figures wide and at least "
            "3 ranks deep (Torden over Europa 1.7)"
        )
    return None


def check_formation(
    formation: str, figures: int, column_ranks: int = 3, column_min_figures: int = COLUMN_MIN_FIGURES
) -> None:
    """Raise ``FormationError`` with the reason when ``formation_problem`` finds one."""
    problem = formation_problem(formation, figures, column_ranks, column_min_figures)
    if problem is not None:
        raise FormationError(problem)


def has_front(formation: str) -> bool:
    """False for the FU mob (``none``): it has no front and every attack on it is frontal
    (Torden over Europa 1.6; glossary §1.3, A47)."""
    return formation != "none"


def fronts(rect: UnitRect, formation: str) -> tuple[EdgeName, ...]:
    """Names of the edges that are fronts: four for a square, none for an FU mob, else front.

    A square has no flank or rear (glossary §1.3, A47).
    """
    if formation == "square":
        return EDGE_NAMES
    return ("front",) if has_front(formation) else ()


@dataclass(frozen=True, slots=True)
class FigureCell:
    """One figure's place: ``file`` from the unit's left, ``rank`` from its front, and its
    rectangle in table cm (glossary §1.4)."""

    file: int
    rank: int
    polygon: Polygon


def figure_cells(rect: UnitRect, formation: str, figures: int, column_ranks: int = 3) -> list[FigureCell]:
    """The figure grid of a unit standing in ``rect`` (glossary §1.4).

    A figure at (file j, rank k) has its front-left corner at ``FL + j·(w/n)·r − k·(d/m)·f``
    for ``n`` files and ``m`` ranks, and is ``w/n`` wide and ``d/m`` deep (in skirmish order
    the figure takes the middle half of its doubled interval). Figures fill the front rank
    from the left first, so an odd-sized line lacks its rear-right figure. A square's figures
    stand on its 2-rank ring (one rank for sides 3–4), outer ring first; its middle stays
    empty. Zero figures give an empty list.

    Returns
    -------
    list[FigureCell]
        ``figures`` cells, front rank first, left to right.
    """
    n, m = grid_shape(formation, figures, column_ranks)
    if figures == 0:
        return []
    if formation == "square":
        ring = 2 if n >= 5 else 1
        slots = [(j, k) for k in range(m) for j in range(n) if min(j, k, n - 1 - j, m - 1 - k) < ring]
        slots.sort(key=lambda jk: min(jk[0], jk[1], n - 1 - jk[0], m - 1 - jk[1]))
    else:
        slots = [(i % n, i // n) for i in range(figures)]
    slots = slots[:figures]
    cw, cd = rect.width / n, rect.depth / m
    fw, inset = (cw / 2.0, cw / 4.0) if formation == "skirmish" else (cw, 0.0)
    f = np.asarray(forward(rect.facing))
    r = np.asarray(right_of(rect.facing))
    fl = np.asarray(rect.corners()[0])
    jk = np.asarray(slots, dtype=float)
    c0 = fl + np.outer(jk[:, 0] * cw + inset, r) - np.outer(jk[:, 1] * cd, f)
    ring_coords = np.stack([c0, c0 - cd * f, c0 - cd * f + fw * r, c0 + fw * r], axis=1)
    polys = shapely.polygons(ring_coords)
    return [FigureCell(int(j), int(k), p) for (j, k), p in zip(slots, polys, strict=True)]


def turn_on_the_spot(rect: UnitRect, turn: Literal["right", "left"]) -> UnitRect:
    """Line ↔ march column: the figures turn on the spot (Torden over Europa 4.5, glossary §1.4).

    The footprint polygon is unchanged; the new front is the old right (or left) edge, the
    facing turns −90° (or +90°), width and depth swap.

    Raises
    ------
    ValueError
        for a turn other than ``"right"`` or ``"left"``.
    """
    if turn not in ("right", "left"):
        raise ValueError(f"turn must be 'right' or 'left', got {turn!r}")
    a, b = rect.edges()[turn]
    mid = ((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0)
    facing = normalize_angle(rect.facing + (-90.0 if turn == "right" else 90.0))
    return UnitRect(mid, facing, rect.depth, rect.width)


def reform_anchor(
    rect: UnitRect, old: str, new: str, *, turn: Literal["right", "left"] = "right", side: EdgeName = "front"
) -> tuple[Point, float]:
    """Front midpoint and facing of a unit after changing formation ``old`` → ``new``.

    Torden over Europa 4.5 / glossary §1.4, T-13: the centre of the front edge and the facing
    are kept. Line ↔ march column turns on the spot (``turn``: which edge becomes the front).
    A square changing formation may face out of any of its four sides (``side``).

    Returns
    -------
    (front, facing) : tuple[Point, float]
        cm and degrees in [0, 360).

    Raises
    ------
    ValueError
        for an unknown ``turn`` or ``side``, or a ``side`` other than front when ``old`` is not
        a square.
    """
    if {old, new} == {"line", "march_column"}:
        t = turn_on_the_spot(rect, turn)
        return t.front, t.facing
    if side not in EDGE_NAMES:
        raise ValueError(f"side must be one of {', '.join(EDGE_NAMES)}, got {side!r}")
    if side != "front" and old != "square":
        raise ValueError(f"only a square may change front to its {side} side (Torden over Europa 4.5)")
    if side == "front":
        return rect.front, normalize_angle(rect.facing)
    a, b = rect.edges()[side]
    return ((a[0] + b[0]) / 2.0, (a[1] + b[1]) / 2.0), direction_angle(rect.normal(side))


def reformed_rect(
    rect: UnitRect,
    old: str,
    new: str,
    figures: int,
    figure_width: float,
    figure_depth: float,
    column_ranks: int = 3,
    *,
    turn: Literal["right", "left"] = "right",
    side: EdgeName = "front",
) -> UnitRect:
    """The footprint after a formation change (Torden over Europa 4.5, glossary T-13).

    Line ↔ march column returns ``turn_on_the_spot`` (same polygon). Every other change lays
    the new formation's figures out (``unit_rect``) from the anchor of ``reform_anchor``.
    The caller checks room for it (T-13) and whether it is allowed (``formation_problem``).
    """
    if {old, new} == {"line", "march_column"}:
        return turn_on_the_spot(rect, turn)
    front, facing = reform_anchor(rect, old, new, turn=turn, side=side)
    return unit_rect(front, facing, new, figures, figure_width, figure_depth, column_ranks)


def figures_outline(rect: UnitRect, formation: str, figures: int, column_ranks: int = 3) -> Polygon:
    """The ground the figures themselves cover: the union of ``figure_cells``, in cm.

    For a square this is the hollow ring with its open middle (Torden over Europa 1.7); the
    rules measure to the outer square (``unit_rect``, glossary §1.3). Empty for zero figures.
    """
    cells = figure_cells(rect, formation, figures, column_ranks)
    if not cells:
        return Polygon()
    return shapely.union_all([c.polygon for c in cells], grid_size=1e-6)  # snap shared cell edges


def reformed_unit(
    unit: Unit,
    formation: Formation | str,
    column_ranks: int | None = None,
    *,
    turn: Literal["right", "left"] = "right",
    side: EdgeName = "front",
) -> Unit:
    """``unit`` after changing to ``formation`` about the anchor of ``reform_anchor``
    (Torden over Europa 4.5, glossary T-13): its front-edge midpoint (``Unit.position``) and
    facing kept, turned on the spot for line ↔ march column, faced out of ``side`` for a square.
    ``column_ranks`` (3 or 4) replaces the unit's when given. Whether the rules allow the
    change is the caller's (``formation_problem``, the ruleset's ``formation_change``).

    Raises
    ------
    ValueError
        for an unknown formation, and for a ``turn`` or ``side`` as ``reform_anchor`` raises.
    """
    ranks = unit.column_ranks if column_ranks is None else column_ranks
    new = replace(unit, formation=Formation(formation), column_ranks=ranks)
    if new.formation == unit.formation:
        return new
    front, facing = reform_anchor(unit.rect(), unit.formation.value, new.formation.value, turn=turn, side=side)
    return replace(new, position=(float(front[0]), float(front[1])), facing=facing)


@dataclass(frozen=True, slots=True)
class FormationChange:
    """A formation change as a ruleset allows it (its optional ``formation_change``).

    Attributes
    ----------
    unit : Unit
        the unit afterwards: new formation, front-edge midpoint (cm) and facing (degrees).
    explanation : str
        the rule sections applied, the anchor, and the cost or why none is taken.
    cost_cm : float | None
        march length the change costs, cm; None when the rules give no figure.
    """

    unit: Unit
    explanation: str
    cost_cm: float | None = None
