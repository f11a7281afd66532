"""Replay marks on the map: unit trails, what changed in the last step, annotation pins.

``ReplayMarks`` owns a few graphics items in the map scene and redraws them from a ``Timeline``
whenever its cursor moves: a trail (dashed line in the side's colour) for every unit or general
that moved during the last ``trail_turns`` turns up to the cursor (``GameLog.trail``), an
orange halo round each record changed by the step just taken (``GameLog.changed_between`` of
the previous and the new position), and a pin with its title for each annotation of the
current phase that names a place. The marks are the truth of the log; the map items below
them show the state at the cursor.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QBrush, QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QGraphicsScene, QGraphicsSimpleTextItem

from battlestudio.model.units import Unit
from battlestudio.replay.timeline import Timeline
from battlestudio.ui.coords import scene_polygon, table_to_scene
from battlestudio.ui.play.idle_slice import IdleSlice

TRAIL_Z, HALO_Z, PIN_Z = 40.0, 45.0, 60.0
"""Stacking of the marks (above terrain, around the troops)."""

MAX_HALOS = 400
"""More changed records than this in one jump are not haloed (a jump across the game)."""


class ReplayMarks:
    """Trails, change halos and annotation pins of a timeline in ``scene``.

    Parameters
    ----------
    scene : QGraphicsScene
        the map scene (table frame through ``ui.coords``).
    side_colours : callable
        ``side id → colour`` (the map's side colours).
    """

    def __init__(self, scene: QGraphicsScene, side_colours) -> None:
        self.scene = scene
        self.side_colours = side_colours
        self.timeline: Timeline | None = None
        self.trail_turns = 2
        self.highlight = True
        self.trails = self._path_item(TRAIL_Z)
        self.halos = self._path_item(HALO_Z)
        self.halos.setPen(_pen("#ff8c00", 3.0))
        self.halos.setBrush(QBrush(QColor(255, 140, 0, 50)))
        self.pins: list[QGraphicsItem] = []
        self._trail_items: list[QGraphicsPathItem] = []
        self._last = 0
        self.changed_ids: frozenset[str] = frozenset()
        # while playing, trails and halos follow the units in the next slice (one per step)
        self._later = IdleSlice(self._show_position, lambda: self.timeline is not None and self.timeline.playing)
        self.trail_ids: dict[str, list[tuple[float, float]]] = {}

    def _path_item(self, z: float) -> QGraphicsPathItem:
        item = QGraphicsPathItem()
        item.setZValue(z)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.scene.addItem(item)
        return item

    def bind(self, timeline: Timeline | None) -> None:
        """Follow ``timeline`` (None clears every mark)."""
        if self.timeline is not None:
            self.timeline.position_changed.disconnect(self._on_position)
        self._later.cancel()
        self.timeline = timeline
        self._last = timeline.position if timeline is not None else 0
        if timeline is not None:
            timeline.position_changed.connect(self._on_position)
        self.refresh(changed=frozenset())

    def set_trail_turns(self, n: int) -> None:
        """Show trails over the last ``n`` turns (0 hides them)."""
        self.trail_turns = max(0, int(n))
        self.refresh(self.changed_ids)

    def set_highlight(self, on: bool) -> None:
        self.highlight = bool(on)
        self.refresh(self.changed_ids)

    def _on_position(self, pos: int) -> None:
        self._later(pos)

    def _show_position(self, pos: int) -> None:
        if self.timeline is None:
            return
        log = self.timeline.log
        last, self._last = self._last, pos
        changed = log.changed_between(last, pos) if last <= len(log) and last != pos else frozenset()
        self.refresh(changed)

    # -- drawing ----------------------------------------------------------------------------
    def refresh(self, changed: frozenset[str]) -> None:
        """Redraw every mark for the cursor, haloing ``changed``."""
        self.changed_ids = changed
        t = self.timeline
        for item in self._trail_items + self.pins:
            if item.scene() is not None:
                self.scene.removeItem(item)
        self._trail_items, self.pins, self.trail_ids = [], [], {}
        self.halos.setPath(QPainterPath())
        if t is None or t.position == 0:
            return
        state = t.state
        if self.highlight and 0 < len(changed) <= MAX_HALOS:
            path = QPainterPath()
            for rid in changed:
                rec = state.record(rid)
                if rec is None or rid in state.off_table:
                    continue
                if isinstance(rec, Unit):
                    poly = rec.footprint().buffer(0.8, join_style=2)
                    path.addPolygon(scene_polygon(poly.exterior.coords))
                    path.closeSubpath()
                else:
                    path.addEllipse(table_to_scene(*rec.position), 4.0, 4.0)
            self.halos.setPath(path)
        if self.trail_turns:
            self._draw_trails(state)
        self._draw_pins()

    def _draw_trails(self, state) -> None:
        for rid, pts in self.trails_at().items():
            rec = state.record(rid)
            path = QPainterPath(table_to_scene(*pts[0]))
            for p in pts[1:]:
                path.lineTo(table_to_scene(*p))
            item = QGraphicsPathItem(path)
            colour = QColor(self.side_colours(rec.side) if rec is not None else "#606060")
            colour.setAlpha(200)
            item.setPen(_pen(colour, 2.0, Qt.PenStyle.DashLine))
            item.setZValue(TRAIL_Z)
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self.scene.addItem(item)
            self._trail_items.append(item)

    def trails_at(self) -> dict[str, list[tuple[float, float]]]:
        """Every trail of at least two points over the last ``trail_turns`` turns up to the
        cursor: id → points (cm), oldest first, as ``GameLog.trail`` gives them, in one pass
        over the events of those turns."""
        t = self.timeline
        log, pos = t.log, t.position
        turn = t.cursor.turn
        first = next(
            (p - 1 for tn, p in zip(log.turns(), log.turn_starts(), strict=False) if tn >= turn - self.trail_turns + 1),
            0,
        )
        # a game opened from a stored keyframe: the trails start there until the idle check has
        # replayed the turns before it (PlayView redraws them then), so opening replays nothing
        first = max(first, min(log.unverified_until, pos))
        start = log.state_at(first)
        trails: dict[str, list[tuple[float, float]]] = {}
        for _, e in log.events_between(first, pos):
            if e.kind not in ("moved", "reinforcement_arrived"):
                continue
            for rid in e.touched():
                pts = trails.get(rid)
                if pts is None:
                    rec = start.record(rid)
                    pts = trails[rid] = [rec.position] if rec is not None and rid not in start.off_table else []
                for pt in e.positions_of(rid):
                    if not pts or pts[-1] != pt:
                        pts.append(pt)
        self.trail_ids = {rid: pts for rid, pts in trails.items() if len(pts) >= 2}
        return self.trail_ids

    def _draw_pins(self) -> None:
        t = self.timeline
        c = t.cursor
        start, _ = t.log.phase_range(c.key)
        for _, e in t.log.events_between(start, t.position, "annotation"):
            if e.at is None:
                continue
            at = table_to_scene(*e.at)
            pin = QGraphicsPathItem()  # a map pin of constant screen size (pixels) standing on ``at``
            path = QPainterPath(QPointF(0, 0))
            path.lineTo(QPointF(0, -12))
            path.addEllipse(QPointF(0, -16), 4.5, 4.5)
            pin.setPath(path)
            pin.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
            pin.setPos(at)
            pin.setPen(_pen("#8e44ad", 2.0))
            pin.setBrush(QColor("#d2b4de"))
            pin.setZValue(PIN_Z)
            pin.setToolTip(f"{e.title}\n{e.text}" if e.title else e.text)
            self.scene.addItem(pin)
            label = QGraphicsSimpleTextItem(e.title or e.text[:40])
            label.setBrush(QColor("#5b2c6f"))
            label.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations, True)
            label.setPos(at)
            label.setTransform(label.transform().translate(7, -24))
            label.setZValue(PIN_Z)
            self.scene.addItem(label)
            self.pins += [pin, label]

    def clear(self) -> None:
        """Remove every item (the scene is being dropped or the document changed)."""
        self.bind(None)


def _pen(colour, width: float, style: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPen:
    pen = QPen(QColor(colour), width, style)
    pen.setCosmetic(True)
    return pen
