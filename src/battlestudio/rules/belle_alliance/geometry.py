"""Belle Alliance geometric predicates B-1 … B-16 of ``shared/rules/geometry-glossary.md`` §5:
break-in zone and distance, the pursuit limit, flank / rear / overlap classification, the
figure grid, neighbour and support positions, and the continued-advance envelope.

Built on the generic primitives of ``model.predicates`` (G-4, G-5, G-8). Lengths table cm,
angles degrees, frame of ``model.geometry``.
"""

from __future__ import annotations

from typing import Literal
from collections.abc import Sequence

from shapely.geometry import Polygon

from battlestudio.model.geometry import TINY, UnitRect, forward, right_of
from battlestudio.model.predicates import (
    behind_ext_front,
    behind_ext_rear,
    in_front_of_ext_front,
    lateral_overlap,
    visible_edges,
)

Classification = Literal["flank", "rear", "overlap", "front"]


def break_in_zone(a: UnitRect, depth: float) -> Polygon:
    """B-1: the rectangle across ``a``'s frontage, ``depth`` cm deep in front of it."""
    fl, fr, _, _ = a.corners()
    fx, fy = forward(a.facing)
    return Polygon([fl, fr, (fr[0] + depth * fx, fr[1] + depth * fy), (fl[0] + depth * fx, fl[1] + depth * fy)])


def at_break_in(a: UnitRect, b: UnitRect, depth: float, eps: float) -> bool:
    """B-2: ``a``'s break-in zone touches ``b`` (directional)."""
    return float(break_in_zone(a, depth).distance(b.polygon())) <= eps + TINY


def stands_in_zone(a: UnitRect, b: UnitRect, depth: float) -> bool:
    """B-2, symmetric case: ``a`` stands inside ``b``'s break-in zone (if ``b`` announces an
    attack the pair counts as at break-in distance)."""
    return bool(a.polygon().intersection(break_in_zone(b, depth)).area > TINY)


def target_still_ahead(a: UnitRect, t: UnitRect) -> bool:
    """B-5 (4.1.2): part of the target lies in front of ``a``'s extended front (a pursuer must stop
    before this turns false)."""
    return in_front_of_ext_front(a, t.polygon())


def figure_grid(rect: UnitRect, files: int, ranks: int) -> list[Polygon]:
    """The figure rectangles of a unit (glossary §1.4): file j from the left, rank k from the front."""
    if files <= 0 or ranks <= 0:
        return []
    fx, fy = forward(rect.facing)
    rx, ry = right_of(rect.facing)
    fl = rect.corners()[0]
    w, d = rect.width / files, rect.depth / ranks
    cells = []
    for k in range(ranks):
        for j in range(files):
            x0, y0 = fl[0] + j * w * rx - k * d * fx, fl[1] + j * w * ry - k * d * fy
            cells.append(
                Polygon(
                    [
                        (x0, y0),
                        (x0 + w * rx, y0 + w * ry),
                        (x0 + w * rx - d * fx, y0 + w * ry - d * fy),
                        (x0 - d * fx, y0 - d * fy),
                    ]
                )
            )
    return cells


def figures_behind(t: UnitRect, figures: Sequence[Polygon]) -> int:
    """B-13: figures wholly or partly behind ``t``'s extended front (open half-plane)."""
    return sum(1 for g in figures if behind_ext_front(t, g, "any"))


def classify(
    a: UnitRect,
    t: UnitRect,
    a_figures: Sequence[Polygon],
    *,
    a_start: UnitRect | None = None,
    t_start: UnitRect | None = None,
    flank_mode: str = "all",
    min_behind: int = 3,
) -> Classification:
    """B-11 → B-12 → B-13 → front: how attacker ``a`` strikes target ``t`` (4.1.8).

    Flank (best reading A1): ``a`` at the start (``a_start``, default ``a``) lay behind the
    target's extended front (mode ``all``/``front_centre``/``any``) and a perpendicular from its
    front first hits a flank edge. Rear: not flank, and the perpendicular hits the rear edge.
    Overlap: neither, ≥ ``min_behind`` figures behind the extended front and the perpendicular
    hits a flank.
    """
    seen = visible_edges(a, t)
    start_a, start_t = a_start or a, t_start or t
    hits_flank = bool(seen & {"left", "right"})
    if hits_flank and behind_ext_front(start_t, start_a, flank_mode):  # type: ignore[arg-type]
        return "flank"
    if "rear" in seen:
        return "rear"
    if hits_flank and figures_behind(t, a_figures) >= min_behind:
        return "overlap"
    return "front"


def support_position_ok(s: UnitRect, t: UnitRect, max_cm: float) -> tuple[bool, str]:
    """B-16: ``s`` lies wholly behind ``t``'s rear line, overlaps it laterally, within ``max_cm``."""
    if not behind_ext_rear(t, s.polygon()):
        return False, "not wholly behind the supported unit's rear rank"
    if lateral_overlap(t, s.polygon()) <= TINY:
        return False, "not behind the supported unit (no lateral overlap)"
    d = float(s.polygon().distance(t.polygon()))
    if d > max_cm + TINY:
        return False, f"{d:.1f} cm behind, more than {max_cm:g} cm"
    return True, f"{d:.1f} cm behind"


def pivot_ok(angles: Sequence[float], max_pivots: int, max_deg: float) -> tuple[bool, str]:
    """B-10: at most ``max_pivots`` direction changes, each a pivot of at most ``max_deg``."""
    turns = [a for a in angles if abs(a) > TINY]
    if len(turns) > max_pivots:
        return False, f"{len(turns)} changes of direction, only {max_pivots} allowed"
    big = [a for a in turns if abs(a) > max_deg + TINY]
    if big:
        return False, f"a pivot of {abs(big[0]):g}° exceeds {max_deg:g}°"
    return True, ""
