"""Torden over Europa: the units on the table and their footprints as arrays, updated from what
changed between two states, for the measures a step repeats (contact, lines of fire, the
nearest enemy).

A ``TableIndex`` holds one row per slot of the state's ``ChunkedMap`` of units (slot order is
the state's iteration order): the record, its footprint, the footprint's bounds, and two masks,
``on_table`` (``common.on_table_units``: on the table, not eliminated) and ``in_fight``
(``contact.on_table``: state O, U or FU). ``table_index(state)`` returns it for ``state``,
brought up to date from the last state asked for by the keys that changed (``changed_keys``
of the same lineage) instead of rebuilt from every unit. A state whose units are not a
``ChunkedMap`` gets an index built from scratch.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import numpy
import shapely

from battlestudio.model.units import OrderState, Unit, footprints
from battlestudio.replay.pmap import ChunkedMap
from battlestudio.replay.state import GameState

ELIMINATED = OrderState.ELIMINATED.value
IN_FIGHT = (OrderState.O.value, OrderState.U.value, OrderState.FU.value)


class TableIndex:
    """Per-slot arrays of one state's units (see the module docstring).

    Attributes
    ----------
    units : list[Unit | None]
        the record in each slot (None for a slot without one in this state).
    shapes : numpy.ndarray
        object array of footprint polygons (None where ``units`` is None).
    bounds : numpy.ndarray
        (n, 4) float array of the footprints' (xmin, ymin, xmax, ymax), cm; +inf/-inf where empty.
    on_table, in_fight : numpy.ndarray
        boolean masks per slot.
    sides : numpy.ndarray
        each slot's side as a code of ``side_codes`` (-1 where empty).
    """

    __slots__ = ("keys", "units", "shapes", "bounds", "on_table", "in_fight", "sides", "side_codes", "_units", "_off")

    def __init__(self, state: GameState) -> None:
        units = state.units
        self.keys: list[str] = list(units._keys) if isinstance(units, ChunkedMap) else list(units)  # noqa: SLF001
        n = len(self.keys)
        self.units: list[Unit | None] = [None] * n
        self.shapes = numpy.empty(n, dtype=object)
        self.bounds = numpy.full((n, 4), numpy.inf)
        self.bounds[:, 2:] = -numpy.inf
        self.on_table = numpy.zeros(n, dtype=bool)
        self.in_fight = numpy.zeros(n, dtype=bool)
        self.sides = numpy.full(n, -1, dtype=numpy.int64)
        self.side_codes: dict[str, int] = {}
        self._units: Any = units
        self._off = state.off_table
        self._set(range(n), state)

    def _set(self, slots: Any, state: GameState) -> None:
        """Refresh ``slots`` from ``state``."""
        slots = list(slots)
        if not slots:
            return
        get, off, keys = state.units.get, state.off_table, self.keys
        changed: list[int] = []
        for i in slots:
            u = get(keys[i])
            if u is not self.units[i]:
                self.units[i] = u
                changed.append(i)
            self.on_table[i] = u is not None and u.id not in off and u.state != ELIMINATED
            self.in_fight[i] = u is not None and u.id not in off and u.state in IN_FIGHT
        if not changed:
            return
        live = [i for i in changed if self.units[i] is not None]
        dead = [i for i in changed if self.units[i] is None]
        if live:
            polys = footprints([self.units[i] for i in live])  # type: ignore[misc]
            arr = numpy.empty(len(polys), dtype=object)
            arr[:] = polys
            self.shapes[live] = arr
            self.bounds[live] = shapely.bounds(arr).reshape(-1, 4)
            codes = self.side_codes
            for i in live:
                self.sides[i] = codes.setdefault(self.units[i].side, len(codes))  # type: ignore[union-attr]
        for i in dead:
            self.shapes[i] = None
            self.bounds[i] = (numpy.inf, numpy.inf, -numpy.inf, -numpy.inf)
            self.sides[i] = -1

    def _grow(self, n: int) -> None:
        extra = n - len(self.keys)
        self.units.extend([None] * extra)
        self.sides = numpy.concatenate([self.sides, numpy.full(extra, -1, dtype=numpy.int64)])
        self.shapes = numpy.concatenate([self.shapes, numpy.empty(extra, dtype=object)])
        pad = numpy.full((extra, 4), numpy.inf)
        pad[:, 2:] = -numpy.inf
        self.bounds = numpy.concatenate([self.bounds, pad])
        self.on_table = numpy.concatenate([self.on_table, numpy.zeros(extra, dtype=bool)])
        self.in_fight = numpy.concatenate([self.in_fight, numpy.zeros(extra, dtype=bool)])

    def update(self, state: GameState) -> bool:
        """Bring the index to ``state`` from the changed keys; False when ``state`` is not of
        this index's lineage (the caller builds a new index)."""
        units = state.units
        if units is self._units and state.off_table is self._off:
            return True
        if not isinstance(units, ChunkedMap) or not isinstance(self._units, ChunkedMap):
            return False
        if units._index is not self._units._index:  # noqa: SLF001
            return False
        keys = units._keys  # noqa: SLF001
        if len(keys) > len(self.keys):
            old = len(self.keys)
            self._grow(len(keys))
            self.keys = list(keys)
            slots = set(range(old, len(keys)))
        else:
            slots = set()
        index = units._index  # noqa: SLF001
        if units is not self._units:
            slots.update(index[k] for k in units.changed_keys(self._units))
        if state.off_table is not self._off:
            slots.update(index[k] for k in state.off_table ^ self._off if k in index)
        self._units, self._off = units, state.off_table
        self._set(sorted(slots), state)
        return True

    def near_box(self, mask: numpy.ndarray, box: Sequence[float], cm: float) -> numpy.ndarray:
        """Slots (ascending) of ``mask`` whose footprint's bounding box is within ``cm`` of
        ``box`` (xmin, ymin, xmax, ymax): a footprint farther than ``cm`` from the box is never
        among them."""
        x0, y0, x1, y1 = box
        b = self.bounds
        near = mask & (b[:, 0] <= x1 + cm) & (b[:, 2] >= x0 - cm) & (b[:, 1] <= y1 + cm) & (b[:, 3] >= y0 - cm)
        return numpy.flatnonzero(near)

    def side_mask(self, mask: numpy.ndarray, not_side: str) -> numpy.ndarray:
        """``mask`` restricted to the slots of units not of ``not_side``."""
        code = self.side_codes.get(not_side)
        return mask if code is None else mask & (self.sides != code)

    def of_side(self, mask: numpy.ndarray, side: str) -> list[Unit]:
        """The units of ``side`` in ``mask``, in state order."""
        code = self.side_codes.get(side)
        if code is None:
            return []
        units = self.units
        return [units[i] for i in numpy.flatnonzero(mask & (self.sides == code)).tolist()]  # type: ignore[misc]

    def box_gaps(self, slots: numpy.ndarray, x: float, y: float) -> numpy.ndarray:
        """Distance (cm) from (x, y) to the bounding boxes of ``slots``: never more than the
        distance to the footprint itself."""
        b = self.bounds[slots]
        dx = numpy.maximum(numpy.maximum(b[:, 0] - x, x - b[:, 2]), 0.0)
        dy = numpy.maximum(numpy.maximum(b[:, 1] - y, y - b[:, 3]), 0.0)
        out: numpy.ndarray = numpy.hypot(dx, dy)
        return out


_LOCAL = threading.local()  # one index per thread: an index is updated in place


def table_index(state: GameState) -> TableIndex:
    """The ``TableIndex`` of ``state`` (updated in place from the last one this thread asked
    for)."""
    idx: TableIndex | None = getattr(_LOCAL, "index", None)
    if idx is not None and idx.update(state):
        return idx
    idx = TableIndex(state)
    _LOCAL.index = idx
    return idx
