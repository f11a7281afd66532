"""Formation markers worked out (Qt-free): which units belong to which corps or division, and
each formation's marker: its living men, guns and main arm, the mean of its units' centres and
the convex hull of their footprints (scene cm, y down).

Two ways in, giving the same markers: ``aggregates`` reads unit records (exports, the item
path, tests); ``MarkerRows`` reads the map's unit arrays (``ui.unit_arrays``: footprint centres,
corners, men, guns, arm and state bits per row) and works a marker out again only when one of
its formation's rows changed (a replay step touches a few formations, a far jump most), every
formation's sums in one vectorised pass and the changed hulls in one call to shapely.
``ui.aggregate_layer`` draws them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from battlestudio.model.geometry import unit_rect
from battlestudio.model.units import Commander, Unit

if TYPE_CHECKING:
    from battlestudio.model.oob import OrderOfBattle

Box = tuple[float, float, float, float]
"""A scene rectangle as (left, top, right, bottom), cm."""

CORPS_LOD = 1.5
"""Zoom (screen pixels per table cm) below which one marker is drawn per corps."""

DIVISION_LOD = 3.0
"""Zoom below which (and from ``CORPS_LOD``) one marker is drawn per division; from here up the
brigades are large enough to read one by one and no marker is drawn."""


def echelon_at(px_per_cm: float) -> str | None:
    """The echelon drawn as one marker per formation at zoom ``px_per_cm``: ``"corps"``,
    ``"division"`` or None (no markers)."""
    if px_per_cm < CORPS_LOD:
        return "corps"
    if px_per_cm < DIVISION_LOD:
        return "division"
    return None


@dataclass(frozen=True, slots=True)
class Aggregate:
    """One formation's marker.

    Attributes
    ----------
    id : str
        the formation's commander id.
    name, side, echelon : str
    men : int
        men of its living units (eliminated ones left out; those waiting off the table
        counted, as the tree counts them).
    units : int
        how many living units it has on the map.
    centre : tuple[float, float]
        mean of its units' centres, scene cm.
    hull : tuple[tuple[float, float], ...]
        convex hull of its units' footprints, scene cm (counter-clockwise, not closed).
    arm : str
        the arm of most of its men (``Arm`` value): the symbol's glyph.
    guns : int
        guns of its living units.
    """

    id: str
    name: str
    side: str
    echelon: str
    men: int
    units: int
    centre: tuple[float, float]
    hull: tuple[tuple[float, float], ...]
    arm: str = "infantry"
    guns: int = 0

    @property
    def text(self) -> str:
        """The marker's label: name and men ("VI Corps 19,800"), or guns when no men are given."""
        if self.men:
            return f"{self.name} {self.men:,}"
        return f"{self.name} {self.guns} guns" if self.guns else self.name


def convex_hull(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Convex hull of ``points`` (shapely's), its corners in ring order, not closed."""
    if not points:
        return []
    coords = shapely.get_coordinates(shapely.convex_hull(shapely.multipoints(points)))
    out = [(float(x), float(y)) for x, y in coords]
    if len(out) > 1 and out[0] == out[-1]:
        out.pop()
    return out


def formation_of(
    units: Mapping[str, Unit], commanders: Mapping[str, Commander], oob: OrderOfBattle, echelon: str
) -> dict[str, str]:
    """Unit id → the nearest commander of ``echelon`` above it (units under none left out)."""
    out: dict[str, str] = {}
    for uid in units:
        if uid not in oob.graph:
            continue
        for cid in oob.chain_of_command(uid):
            c = commanders.get(cid)
            if c is not None and c.echelon == echelon:
                out[uid] = cid
                break
    return out


def aggregates(
    units: Mapping[str, Unit],
    commanders: Mapping[str, Commander],
    oob: OrderOfBattle | None,
    echelon: str,
    hidden_sides: frozenset[str] = frozenset(),
    table: Box | None = None,
    members_of: dict[str, str] | None = None,
    cache: dict[str, tuple[tuple, Aggregate | None]] | None = None,
) -> list[Aggregate]:
    """The markers of every formation of ``echelon`` (``"corps"`` or ``"division"``) with a
    living unit among ``units``, in commander id order.

    A unit belongs to the nearest commander of ``echelon`` in its chain of command
    (``members_of``, from ``formation_of`` when not given); eliminated units, units of
    ``hidden_sides`` and units whose centre is off ``table`` (scene (left, top, right, bottom): reinforcements
    waiting at its edge) count for none. ``cache`` (formation id → (its records, marker)) keeps
    the markers of formations none of whose records changed since the last call.
    """
    if oob is None:
        return []
    if members_of is None:
        members_of = formation_of(units, commanders, oob, echelon)
    members: dict[str, list[Unit]] = {}
    for uid in sorted(members_of):
        u = units.get(uid)
        if u is None or u.state == "eliminated" or u.side in hidden_sides:
            continue
        members.setdefault(members_of[uid], []).append(u)
    out: list[Aggregate | None] = []
    todo: list[tuple[int, Commander, list[Unit], tuple]] = []  # (slot in out, commander, units, key)
    for cid in sorted(members):
        c, us = commanders.get(cid), members[cid]
        if c is None:
            continue
        key = (c, *us)
        if cache is not None:
            got = cache.get(cid)
            if got is not None and len(got[0]) == len(key) and all(a is b for a, b in zip(got[0], key, strict=True)):
                if got[1] is not None:
                    out.append(got[1])
                continue
        todo.append((len(out), c, us, key))
        out.append(None)
    built = _markers([(c, us) for _, c, us, _ in todo], echelon, table)
    for (slot, c, _, key), marker in zip(todo, built, strict=True):
        if cache is not None:
            cache[c.id] = (key, marker)
        out[slot] = marker
    return [m for m in out if m is not None]


_SIZES: dict[tuple, tuple[float, float]] = {}
"""(formation, figures, figure width, figure depth, column ranks) → the footprint's (width,
depth) in cm (``model.geometry.unit_rect``): the same few sizes recur across every record."""


def _size(u: Unit) -> tuple[float, float]:
    key = (u.formation, u.figures, u.figure_width, u.figure_depth, u.column_ranks)
    got = _SIZES.get(key)
    if got is None:
        r = unit_rect((0.0, 0.0), 0.0, u.formation.value, u.figures, u.figure_width, u.figure_depth, u.column_ranks)
        got = _SIZES[key] = (r.width, r.depth)
    return got


def _footprints(units: list[Unit]) -> tuple[np.ndarray, np.ndarray]:
    """Centres (n, 2) and corners (n, 4, 2) of ``units``' footprints in scene cm (y down), as
    ``Unit.rect()`` gives them (front-left, front-right, rear-right, rear-left), in one
    vectorised pass."""
    n = len(units)
    pos = np.empty((n, 2))
    facing = np.empty(n)
    size = np.empty((n, 2))
    for i, u in enumerate(units):
        pos[i] = u.position
        facing[i] = u.facing
        size[i] = _size(u)
    t = np.radians(facing)
    fwd = np.stack([np.cos(t), np.sin(t)], axis=1)
    right = np.stack([np.sin(t), -np.cos(t)], axis=1)
    half = (size[:, 0] / 2.0)[:, None] * right
    depth = size[:, 1][:, None] * fwd
    fl, fr = pos - half, pos + half
    corners = np.stack([fl, fr, fr - depth, fl - depth], axis=1)
    centres = pos - depth / 2.0
    flip = np.array([1.0, -1.0])
    return centres * flip, corners * flip


def _markers(groups: list[tuple[Commander, list[Unit]]], echelon: str, table: Box | None) -> list[Aggregate | None]:
    """The marker of each (commander, his living units) of ``groups``; None for one with no
    unit on ``table``. Footprints and hulls are worked out in one vectorised pass each."""
    flat = [u for _, us in groups for u in us]
    centres, corners = _footprints(flat)
    on = np.ones(len(flat), bool)
    if table is not None and flat:
        cx, cy = centres[:, 0], centres[:, 1]
        left, top, right, bottom = table
        on = (left <= cx) & (cx <= right) & (top <= cy) & (cy <= bottom)
    found: list[tuple[int, float, float, dict[str, int]] | None] = []
    clouds: list[Any] = []  # one MultiPoint of footprint corners per group with a unit on the table
    present: list[int] = []
    start = 0
    for g, (_, us) in enumerate(groups):
        end = start + len(us)
        by_arm: dict[str, int] = {}
        for u in us:
            by_arm[u.arm.value] = by_arm.get(u.arm.value, 0) + u.men
        mine = on[start:end]
        n = int(mine.sum())
        if n:
            c = centres[start:end][mine]
            found.append((n, float(c[:, 0].sum()), float(c[:, 1].sum()), by_arm))
            # one geometry per group: building one point object per corner (shapely's
            # ``indices=``) made 40,000 Python objects at x10, and collections with them
            clouds.append(shapely.multipoints(corners[start:end][mine].reshape(-1, 2)))
            present.append(g)
        else:
            found.append(None)
        start = end
    hulls: list[list[tuple[float, float]]] = [[] for _ in groups]
    if clouds:
        coords, which = shapely.get_coordinates(shapely.convex_hull(clouds), return_index=True)
        for k, (x, y) in zip(which.tolist(), coords.tolist(), strict=True):
            hulls[present[k]].append((x, y))
        for h in hulls:
            if len(h) > 1 and h[0] == h[-1]:
                h.pop()
    out: list[Aggregate | None] = []
    for (c, us), got, hull in zip(groups, found, hulls, strict=True):
        if got is None:
            out.append(None)
            continue
        n, sx, sy, by_arm = got
        out.append(
            Aggregate(
                c.id,
                c.name,
                c.side,
                echelon,
                sum(u.men for u in us),  # those off the table too
                n,
                (sx / n, sy / n),
                tuple(hull),
                max(sorted(by_arm), key=lambda a: by_arm[a]),
                sum(u.guns for u in us),
            )
        )
    return out


ARMS = ("artillery", "cavalry", "infantry", "other")
"""``Arm`` values in name order: a row's ``arm`` is an index here (the main arm's tie goes to the
first, as ``aggregates`` takes it)."""

ARM_INDEX = {a: i for i, a in enumerate(ARMS)}


def _hulls(coords: np.ndarray, which: np.ndarray) -> dict[int, tuple[tuple[float, float], ...]]:
    """Convex hull (ring order, not closed) of the points ``coords`` (k, 2) of each group
    ``which`` (k,), ascending: one shapely call for every group (a line string through each
    group's points: built in C, no point object per corner)."""
    if len(which) == 0:
        return {}
    groups, starts = np.unique(which, return_index=True)
    lines = shapely.linestrings(coords, indices=np.searchsorted(groups, which))
    xy, at = shapely.get_coordinates(shapely.convex_hull(lines), return_index=True)
    out: dict[int, tuple[tuple[float, float], ...]] = {}
    bounds = np.searchsorted(at, np.arange(len(groups) + 1))
    flat = xy.tolist()
    for k, g in enumerate(groups.tolist()):
        ring = flat[bounds[k] : bounds[k + 1]]
        if len(ring) > 1 and ring[0] == ring[-1]:
            ring.pop()
        out[g] = tuple((x, y) for x, y in ring)
    return out


class MarkerRows:
    """The markers of one echelon's formations from the map's unit rows, kept between calls:
    a formation's marker is worked out again only when one of its rows, its commander's name
    or side, or the table changed (see the module text).

    ``markers`` takes, per row: the formation (index into ``heads``, -1 for none), whether it
    counts (living and its side shown), its footprint centre (n, 2) and corners (n, 4, 2) in
    scene cm, men, guns and arm (``ARM_INDEX``); and per formation its commander (None: no
    marker).
    """

    def __init__(self, echelon: str) -> None:
        self.echelon = echelon
        self._last: tuple | None = None  # the inputs of the last call
        self._made: list[Aggregate | None] = []  # per formation
        self._heads: list[tuple[str, str, str] | None] = []
        self.worked_out = 0
        """How many markers the last call worked out again (the others were kept)."""

    def markers(
        self,
        heads: Sequence[Commander | None],
        group: np.ndarray,
        counted: np.ndarray,
        centres: np.ndarray,
        corners: np.ndarray,
        men: np.ndarray,
        guns: np.ndarray,
        arm: np.ndarray,
        table: Box | None = None,
    ) -> list[Aggregate]:
        """The markers of the formations with a counted unit on ``table``, in the order of
        ``heads`` (commander id order when the caller sorts them)."""
        n_groups = len(heads)
        group = np.asarray(group, np.intp)
        mine = counted & (group >= 0)
        on = mine.copy()
        if table is not None and len(group):
            left, top, right, bottom = table
            cx, cy = centres[:, 0], centres[:, 1]
            on &= (left <= cx) & (cx <= right) & (top <= cy) & (cy <= bottom)
        now = (group, mine, on, corners, men, guns, arm)
        last = self._last
        if (
            last is None
            or len(self._made) != n_groups
            or any(a.shape != b.shape for a, b in zip(last, now, strict=True))
            or not np.array_equal(last[0], group)
        ):
            todo = np.ones(n_groups, bool)
        else:
            diff = (
                (last[1] != mine)
                | (last[2] != on)
                | (last[3] != corners).reshape(len(group), -1).any(axis=1)
                | (last[4] != men)
                | (last[5] != guns)
                | (last[6] != arm)
            )
            todo = np.zeros(n_groups, bool)
            todo[group[diff & (group >= 0)]] = True
        self._last = tuple(np.array(a, copy=True) for a in now)
        keys = [None if c is None else (c.id, c.name, c.side) for c in heads]
        if len(self._heads) == n_groups:
            todo |= np.fromiter((a != b for a, b in zip(keys, self._heads, strict=True)), bool, n_groups)
        else:
            todo[:] = True
        self._heads = keys
        if len(self._made) != n_groups:
            self._made = [None] * n_groups
        if todo.any():
            self._work_out(np.flatnonzero(todo), heads, group, mine, on, centres, corners, men, guns, arm)
        self.worked_out = int(todo.sum())
        return [m for m in self._made if m is not None]

    def _work_out(
        self,
        todo: np.ndarray,
        heads: Sequence[Commander | None],
        group: np.ndarray,
        mine: np.ndarray,
        on: np.ndarray,
        centres: np.ndarray,
        corners: np.ndarray,
        men: np.ndarray,
        guns: np.ndarray,
        arm: np.ndarray,
    ) -> None:
        n_groups = len(heads)
        g_mine, g_on = group[mine], group[on]
        n_on = np.bincount(g_on, minlength=n_groups)
        sx = np.bincount(g_on, centres[on, 0], minlength=n_groups)
        sy = np.bincount(g_on, centres[on, 1], minlength=n_groups)
        total = np.bincount(g_mine, men[mine], minlength=n_groups)
        gun_total = np.bincount(g_mine, guns[mine], minlength=n_groups)
        cell = g_mine * len(ARMS) + arm[mine]
        by_arm = np.bincount(cell, men[mine], minlength=n_groups * len(ARMS)).reshape(n_groups, len(ARMS))
        present = np.bincount(cell, minlength=n_groups * len(ARMS)).reshape(n_groups, len(ARMS)) > 0
        main_arm = np.argmax(np.where(present, by_arm, -1.0), axis=1)
        wanted = np.zeros(n_groups, bool)
        wanted[todo] = True
        pick = on & wanted[np.maximum(group, 0)] & (group >= 0)
        rows = np.flatnonzero(pick)
        rows = rows[np.argsort(group[rows], kind="stable")]
        hulls = _hulls(corners[rows].reshape(-1, 2), np.repeat(group[rows], 4))
        echelon = self.echelon
        for g in todo.tolist():
            c = heads[g]
            n = int(n_on[g])
            if c is None or n == 0:
                self._made[g] = None
                continue
            self._made[g] = Aggregate(
                c.id,
                c.name,
                c.side,
                echelon,
                int(round(total[g])),
                n,
                (float(sx[g]) / n, float(sy[g]) / n),
                hulls.get(g, ()),
                ARMS[int(main_arm[g])],
                int(round(gun_total[g])),
            )
