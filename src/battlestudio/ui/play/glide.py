"""UnitGlide: units glide from their old to their new place while the replay plays by phase or
by turn, instead of jumping.

After each playback step (the scene already synced to the new state) the units that moved are
put back where they were shown and slid to their new centre over most of the time to the next
step (``Timeline.interval``, at most ``MAX_S``), frame by frame on a ``FRAME_MS`` timer. The
frame shown is worked out from the time elapsed, so a slow frame skips ahead (frames are
dropped, not the window). A step that comes mid-glide starts the next glide from where the
units are shown. Steps too short to show a glide (``MIN_S``: fast speeds), stepping by event,
and steps while paused jump as before. Facing changes at the start of a glide (the drawing of a
unit is per facing); the position glides. On the scene's arrays path (``MapScene.arrays_on``)
the glide moves the rows' drawn centres (``UnitArrays.shown``) in one vectorised write a frame,
from where each unit was drawn to its record's place; the unit items are not touched.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

import numpy as np
from PySide6.QtCore import QObject, QPointF, QTimer

if TYPE_CHECKING:
    from battlestudio.replay.timeline import Timeline
    from battlestudio.ui.map_scene import MapScene
    from battlestudio.ui.troop_items import UnitItem

FRAME_MS = 30
"""Milliseconds between two glide frames."""

MIN_S, MAX_S = 0.12, 0.6
"""Shortest glide worth showing and longest glide (seconds)."""

SHARE = 0.85
"""Part of the time to the next step a glide takes (the rest shows the units at rest)."""


class UnitGlide(QObject):
    """Glides the unit items of ``scene`` between the states a playing ``timeline`` shows."""

    def __init__(self, scene: MapScene, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.scene = scene
        self.timeline: Timeline | None = None
        self.enabled = True
        self._shown: dict[str, QPointF] = {}  # id -> the centre last shown
        self._moves: dict[str, tuple[UnitItem, QPointF, QPointF]] = {}  # id -> (item, from, to)
        self._t0 = 0.0
        self._duration = 0.0
        self.frames = 0  # glide frames drawn (for tests and benchmarks)
        self._drawn: tuple[int, list[str], np.ndarray] | None = None  # arrays: (layout, ids, shown)
        self._rows = np.zeros(0, np.intp)  # arrays: rows gliding, from, to
        self._from = self._to = np.zeros((0, 2))
        self._timer = QTimer(self)
        self._timer.setInterval(FRAME_MS)
        self._timer.timeout.connect(self._frame)

    def bind(self, timeline: Timeline | None) -> None:
        """Follow ``timeline`` (None: glide nothing)."""
        if self.timeline is not None:
            self.timeline.position_changed.disconnect(self._on_position)
        self.finish()
        self.timeline = timeline
        self._remember()
        if timeline is not None:
            timeline.position_changed.connect(self._on_position)

    @property
    def gliding(self) -> bool:
        """True while units are between two places."""
        return bool(self._moves) or self._rows.size > 0

    @property
    def _arrays(self) -> bool:
        return self.scene.arrays_on

    def _items(self) -> dict[str, UnitItem]:
        return self.scene.items_by_kind["units"]  # type: ignore[return-value]

    def _remember(self) -> None:
        if self._arrays:
            a = self.scene.unit_arrays
            self._drawn = (a.layout, list(a.ids), a.shown.copy())
            return
        self._shown = {rid: QPointF(item._centre) for rid, item in self._items().items()}

    def _on_position(self, _pos: int) -> None:
        if self._arrays:
            self._on_position_rows()
            return
        t = self.timeline
        # mid-glide: a unit the new step did not move again still heads for its old target
        # (its item was not synced: it stands where the glide left it)
        old = {rid: (QPointF(m[0]._centre), m[2]) for rid, m in self._moves.items()}
        duration = min(MAX_S, t.interval * SHARE) if t is not None else 0.0
        if t is None or not self.enabled or not t.playing or t.step_unit == "event" or duration < MIN_S:
            self.finish()
            self._remember()
            return
        self._moves.clear()
        moves = {}
        for rid, item in self._items().items():
            start = self._shown.get(rid)
            end = QPointF(item._centre)
            if rid in old:
                start, target = old[rid]
                if end == start:  # not synced since: carry on to where it was going
                    end = target
            if start is not None and start != end and item.isVisible():
                moves[rid] = (item, QPointF(start), end)
        self._remember()
        if not moves:
            self._timer.stop()
            return
        self._moves = moves
        self._t0, self._duration = time.perf_counter(), duration
        self._place(0.0)
        self._timer.start()

    def _on_position_rows(self) -> None:
        """``_on_position`` on the arrays path: glide every row from where it was drawn before
        this step to its record's place."""
        from battlestudio.ui.unit_arrays import HIDDEN

        t = self.timeline
        a = self.scene.unit_arrays
        duration = min(MAX_S, t.interval * SHARE) if t is not None else 0.0
        drawn = self._drawn
        self._timer.stop()
        self._rows = np.zeros(0, np.intp)
        if (
            t is None
            or not self.enabled
            or not t.playing
            or t.step_unit == "event"
            or duration < MIN_S
            or drawn is None
        ):
            self._remember()
            return
        layout, ids, shown = drawn
        if layout == a.layout:
            rows, start = np.arange(len(a), dtype=np.intp), shown
        else:
            pairs = [(a.row[rid], i) for i, rid in enumerate(ids) if rid in a.row]
            rows = np.array([p[0] for p in pairs], dtype=np.intp)
            start = shown[np.array([p[1] for p in pairs], dtype=np.intp)] if pairs else np.zeros((0, 2))
        end = a.centre[rows]
        moving = (start != end).any(axis=1) & ((a.flags[rows] & HIDDEN) == 0)
        self._rows, self._from, self._to = rows[moving], start[moving], end[moving]
        if self._rows.size == 0:
            self._remember()
            return
        self._t0, self._duration = time.perf_counter(), duration
        self._place(0.0)
        self._timer.start()

    def _frame(self) -> None:
        if self._rows.size:
            f = min(1.0, (time.perf_counter() - self._t0) / self._duration)
            self._place(f)
            if f >= 1.0:
                self.finish()
            return
        if not self._moves:
            self._timer.stop()
            return
        f = min(1.0, (time.perf_counter() - self._t0) / self._duration)
        self._place(f)
        if f >= 1.0:
            self.finish()

    def _place(self, f: float) -> None:
        e = f * f * (3 - 2 * f)  # ease in and out
        if self._rows.size:
            self._place_rows(self._from + (self._to - self._from) * e)
            self.frames += 1
            return
        boxes = []
        for item, a, b in self._moves.values():
            before = item.scene_box
            item.show_centre(a + (b - a) * e)
            boxes += (before, item.scene_box)
            self.scene.unit_layer.place(item, item.scene_box)
        self.frames += 1
        if boxes:
            self.scene.unit_layer.mark_dirty(boxes)

    def finish(self) -> None:
        """Put every gliding unit at its place now."""
        self._timer.stop()
        if self._rows.size:
            self._place_rows(self._to)
            self._rows = np.zeros(0, np.intp)
            return
        moves, self._moves = self._moves, {}
        boxes = []
        for item, _a, b in moves.values():
            before = item.scene_box
            item.show_centre(b)
            boxes += (before, item.scene_box)
            self.scene.unit_layer.place(item, item.scene_box)
        if boxes:
            self.scene.unit_layer.mark_dirty(boxes)

    def _place_rows(self, centres: np.ndarray) -> None:
        """Draw the gliding rows at ``centres`` (scene cm)."""
        a = self.scene.unit_arrays
        before = a.boxes(self._rows)
        a.shown[self._rows] = centres
        self.scene.array_layer.mark_boxes(np.concatenate([before, a.boxes(self._rows)]))
        self._remember()
