"""MapView: the editor's map of the table, bound to a Document.

The view mirrors the document: on ``document.changed`` it reconciles only the touched ids, and
its selection follows ``document.selection`` (tools write the selection back through the
document). Replay uses the same path through ``show_state``. Navigation: the wheel zooms about
the cursor, the middle button or Space + left button pans, ``fit_table`` shows the whole table.
Every other mouse and key event goes to the current tool (``ui.tools``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from collections.abc import Mapping

from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import QKeyEvent, QMouseEvent, QPainter, QPixmapCache, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QWidget

from battlestudio.model.geometry import Point
from battlestudio.model.scenario import Scenario
from battlestudio.replay.pmap import ChunkedMap
from battlestudio.ui.coords import scene_to_table, table_to_scene
from battlestudio.ui.labels import LABEL_MIN_LOD, AlongLabel, Label, labels_in_view
from battlestudio.ui.map_scene import ITEM_CLASSES, MapScene
from battlestudio.ui.overlays import draw_scale_bar

if TYPE_CHECKING:
    from battlestudio.document import Document
    from battlestudio.edits import Change
    from battlestudio.ui.tools import Tool

MIME_IDS = "application/x-battlestudio-ids"
"""Drag-and-drop payload of record ids (newline-separated UTF-8), e.g. from the OOB tree."""

MIN_ZOOM, MAX_ZOOM = 0.05, 200.0
"""Zoom bounds in screen pixels per table cm."""

WHEEL_STEP = 1.2
"""Zoom factor per wheel notch (120 eighths of a degree)."""

FIT_MARGIN_PX = 40
"""Screen pixels left free on every side of the table by ``fit_table`` (room for the flags,
badges and labels of troops standing at its edge)."""

PIXMAP_CACHE_KB = 128 * 1024
"""Room for the items' device-coordinate caches (Qt's default of 10 MB thrashes past ~1,000 items)."""


LAZY_FROM = 8
"""A game's change of more units than this leaves their items stale until read
(``MapScene.reconcile(lazy=True)``); fewer (an order's move) are synced at once."""


class MapView(QGraphicsView):
    """The map of a document's table.

    Parameters
    ----------
    document : Document
        the open document; the view subscribes to its ``changed`` and ``selection_changed``.
    parent : QWidget | None

    Signals
    -------
    cursor_moved(float, float)
        the cursor's table position (x, y) in cm.
    zoom_changed(float)
        the zoom in screen pixels per table cm.
    hint_changed(str)
        the current tool's status-bar hint.
    """

    cursor_moved = Signal(float, float)
    zoom_changed = Signal(float)
    hint_changed = Signal(str)

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        self.map_scene = MapScene()
        super().__init__(self.map_scene, parent)
        QPixmapCache.setCacheLimit(max(QPixmapCache.cacheLimit(), PIXMAP_CACHE_KB))
        self.document: Document | None = None
        self.tool: Tool | None = None
        self.snap_to_grid = False
        self.snap_step = 5.0
        self._pan_from: QPoint | None = None
        self._space = False
        self._label_key: tuple | None = None
        self._static_labels: dict = {}  # the terrain, town, objective, zone and reinforcement names (labels_in_view)
        self._labels: list[tuple[QRectF, Label | AlongLabel]] = []
        self._shown: dict[str, Mapping[str, object]] = {}  # kind -> records last given to show_state
        self._auto_fit = False
        self.scale_bar_visible = True
        """Draw the scale bar in the viewport's corner (map pages draw their own in the legend)."""
        self._bar_policies: tuple | None = None  # scroll bar policies kept while fitted
        self._fitted_size = None  # (view, viewport) sizes at the last fit: scroll bars coming and going
        # resize only the viewport; refitting only when it shrank cannot oscillate
        self.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontSavePainterState, True)
        self.setOptimizationFlag(QGraphicsView.OptimizationFlag.DontAdjustForAntialiasing, True)
        self.setCacheMode(QGraphicsView.CacheModeFlag.CacheBackground)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setResizeAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setDragMode(QGraphicsView.DragMode.NoDrag)
        self.setMouseTracking(True)
        self.setAcceptDrops(True)
        self.viewport().setAcceptDrops(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        for bar in (self.horizontalScrollBar(), self.verticalScrollBar()):
            bar.actionTriggered.connect(self._user_moved)  # user scrolling only, not setValue
        self.set_document(document)
        from battlestudio.ui.tools.select import SelectTool

        self.set_tool(SelectTool())

    # -- document binding ----------------------------------------------------------------
    def set_document(self, document: Document) -> None:
        """Show ``document`` (disconnecting from the previous one) and rebuild every item."""
        if self.document is not None:
            self.document.changed.disconnect(self._on_changed)
            self.document.selection_changed.disconnect(self._on_selection_changed)
        self.document = document
        document.changed.connect(self._on_changed)
        document.selection_changed.connect(self._on_selection_changed)
        self.rebuild()
        if self.tool is not None:
            self.tool.reset()

    def rebuild(self) -> None:
        """Recreate every item from the document's scenario."""
        s = self.document.scenario
        self._shown.clear()
        self.map_scene.clear_items()
        self.map_scene.ctx.side_colours = {sid: side.colour for sid, side in s.sides.items()}
        self.map_scene.ctx.record_names = _record_names(s, self._designed())
        self.map_scene.set_table(s.info.table_width, s.info.table_height)
        self.map_scene.aggregate_layer.set_oob(s.oob)
        for kind in ITEM_CLASSES:  # unit items placed when first read (arrays path)
            self.map_scene.reconcile(kind, getattr(s, kind), lazy=kind == "units")
        self._on_selection_changed(self.document.selection)
        self.setBackgroundBrush(self.backgroundBrush())  # drop the cached background

    def _on_changed(self, changes: list[Change]) -> None:
        s = self.document.scenario
        self._shown.clear()
        if any(c.kind in ("units", "commanders", "reinforcements") for c in changes) and s.reinforcements:
            names = _record_names(s, self._designed())  # a formation renamed, or newly a reinforcement
            if names != self.map_scene.ctx.record_names:
                self.map_scene.ctx.record_names = names
                self.map_scene.resync("reinforcements", s.reinforcements)
        if any(c.kind == "oob" for c in changes):
            self.map_scene.aggregate_layer.set_oob(s.oob)  # formations: reattached, or a new file's
        # a replay step (a game's cursor moved) leaves the unit items to be synced when read
        lazy = getattr(self.document, "timeline", None) is not None
        for change in changes:
            if change.kind in ITEM_CLASSES:
                many = len(change.ids) > LAZY_FROM
                self.map_scene.reconcile(change.kind, getattr(s, change.kind), change.ids, lazy=lazy and many)
            elif change.kind == "sides":
                self.map_scene.ctx.side_colours = {sid: side.colour for sid, side in s.sides.items()}
                for kind in ("units", "commanders", "deployment_zones", "reinforcements"):
                    self.map_scene.resync(kind, getattr(s, kind))
            elif change.kind == "info":
                self.map_scene.set_table(s.info.table_width, s.info.table_height)
                self.map_scene.resync("reinforcements", s.reinforcements)  # arrows point in from the edge
                self.resetCachedContent()
        self._on_selection_changed(self.document.selection)
        self.viewport().update()  # labels elsewhere may appear or vanish
        if self.tool is not None:
            self.tool.document_changed()

    def _designed(self) -> Scenario | None:
        """The scenario as designed when a game's state is shown (``Document.battle``), else None."""
        battle = getattr(self.document, "battle", None)
        return getattr(battle, "scenario", None)

    def _on_selection_changed(self, ids: frozenset[str]) -> None:
        """Select the items of ``ids`` and deselect the other record items: visits the
        selection only, not every item (an edit at 10,000 units walked 13,000 items)."""
        scene = self.map_scene
        want = [item for item in map(scene.item_for, ids) if item is not None]
        keep = set(want)
        for item in scene.selectedItems():
            if item not in keep and scene.item_for(getattr(item, "id", None) or "") is item:
                item.setSelected(False)
        for item in want:
            if not item.isSelected():
                item.setSelected(True)

    def show_state(self, units: Mapping[str, object], commanders: Mapping[str, object]) -> None:
        """Show these units and commanders (id → record), e.g. a replay's state at the cursor.

        Items are created, synced (only when the record object differs from the one last
        shown) or removed by id; terrain and towns are left alone. When the mappings are
        ``ChunkedMap``s of the lineage shown last (states of one game log), only the ids whose
        record changed are visited, so a replay step costs what it changed, not the army's size.
        """
        for kind, records in (("units", units), ("commanders", commanders)):
            last = self._shown.get(kind)
            ids = records.changed_keys(last) if last is not None and isinstance(records, ChunkedMap) else None
            if ids is None or ids:
                self.map_scene.reconcile(kind, records, ids, lazy=True)
            self._shown[kind] = records
        self.viewport().update()

    # -- layers --------------------------------------------------------------------------
    def set_layer_visible(self, name: str, visible: bool) -> None:
        """Show or hide a layer (see ``MapScene.set_layer_visible`` for the names)."""
        self.map_scene.set_layer_visible(name, visible)
        if name == "grid":
            self.resetCachedContent()
        self.viewport().update()

    def layer_names(self) -> list[str]:
        """Every layer the Layers dock can toggle for the current document."""
        return self.map_scene.layer_names(self.document.scenario.sides)

    # -- zoom and pan --------------------------------------------------------------------
    def zoom(self) -> float:
        """Current zoom in screen pixels per table cm."""
        return self.transform().m11()

    def set_zoom(self, px_per_cm: float, anchor_scene: QPointF | None = None) -> None:
        """Zoom to ``px_per_cm`` (clamped to 0.05–200), keeping ``anchor_scene`` under the cursor
        (or the view centre when None)."""
        self.auto_fit = False
        z = min(max(px_per_cm, MIN_ZOOM), MAX_ZOOM)
        if abs(z - self.zoom()) < 1e-9:
            return
        if anchor_scene is None:
            self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorViewCenter)
        self.setTransform(self.transform().fromScale(z, z))
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.refresh_zoom()

    def zoom_by(self, factor: float) -> None:
        """Multiply the zoom by ``factor`` about the view centre."""
        self.set_zoom(self.zoom() * factor)

    def actual_size(self) -> None:
        """Zoom to 100 %: one table centimetre is one centimetre on the screen."""
        self.set_zoom(self.logicalDpiX() / 2.54)

    @property
    def auto_fit(self) -> bool:
        """True from ``fit_table`` until the user zooms or pans: resizes refit. While fitted the
        scroll bars are hidden (the whole table is in view, there is nothing to scroll to)."""
        return self._auto_fit

    @auto_fit.setter
    def auto_fit(self, on: bool) -> None:
        if on == self._auto_fit:
            return
        self._auto_fit = on
        if on:
            self._bar_policies = (self.horizontalScrollBarPolicy(), self.verticalScrollBarPolicy())
            self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
            self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        elif self._bar_policies is not None:
            h, v = self._bar_policies
            self.setHorizontalScrollBarPolicy(h)
            self.setVerticalScrollBarPolicy(v)

    def fit_table(self) -> None:
        """Zoom and centre so the whole table is in view with ``FIT_MARGIN_PX`` free on every
        side (less in a very small view) and no scroll bars, and keep it so when the view is
        resized (the window shown, maximized, docks moved) until the user zooms or pans."""
        self.auto_fit = True  # hides the scroll bars first, so the viewport has its final size
        port = self.viewport().size()
        self._fitted_size = (self.size(), port)
        table = self.map_scene.table_rect()
        if table.width() <= 0 or table.height() <= 0 or port.width() < 2 or port.height() < 2:
            return
        margin = min(FIT_MARGIN_PX, port.width() / 8.0, port.height() / 8.0)
        z = min((port.width() - 2 * margin) / table.width(), (port.height() - 2 * margin) / table.height())
        z = min(max(z, MIN_ZOOM), MAX_ZOOM)
        self.setTransform(self.transform().fromScale(z, z))
        self.centerOn(table.center())
        self.refresh_zoom()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        vp = self.viewport().size()
        if not self.auto_fit or vp.width() < 2 or vp.height() < 2 or self._fitted_size is None:
            return
        view, port = self._fitted_size
        if self.size() != view or vp.width() < port.width() or vp.height() < port.height():
            self.fit_table()

    def _user_moved(self, _action: int = 0) -> None:
        self.auto_fit = False

    def centre_on_table(self, point: Point) -> None:
        """Centre the view on the table point ``point`` (cm)."""
        self.auto_fit = False
        self.centerOn(table_to_scene(*point))

    def refresh_zoom(self) -> None:
        """Take the zoom of the current transform: the scene's level of detail follows it and
        ``zoom_changed`` announces it. Call it after setting the transform directly."""
        self.map_scene.set_zoom(self.zoom())
        self.resetCachedContent()
        self.zoom_changed.emit(self.zoom())

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802 - Qt API
        steps = event.angleDelta().y() / 120.0
        if steps == 0:
            return
        self.auto_fit = False
        before = self.mapToScene(event.position().toPoint())
        z = min(max(self.zoom() * WHEEL_STEP**steps, MIN_ZOOM), MAX_ZOOM)
        self.setTransform(self.transform().fromScale(z, z))
        after = self.mapToScene(event.position().toPoint())
        delta = after - before
        self.translate_view(delta)
        self.refresh_zoom()
        event.accept()

    def translate_view(self, scene_delta: QPointF) -> None:
        """Scroll so that scene content moves by ``scene_delta`` on screen (used by zoom-to-cursor)."""
        self.auto_fit = False
        z = self.zoom()
        self.horizontalScrollBar().setValue(round(self.horizontalScrollBar().value() - scene_delta.x() * z))
        self.verticalScrollBar().setValue(round(self.verticalScrollBar().value() - scene_delta.y() * z))

    def placed_labels(self) -> list[tuple[QRectF, Label | AlongLabel]]:
        """Labels shown in the viewport now: (device rectangle, label), non-overlapping.

        Recomputed only when the view transform, the scroll position, the viewport size, the
        layers or items whose labels (or room) count at this zoom changed since the last call
        or the overlay badges labels keep off (``MapScene.label_obstacles``):
        zoomed out below ``LABEL_MIN_LOD``, where unit names are hidden, units moving alone
        leave the labels as they are.
        """
        t = self.viewportTransform()
        vp = self.viewport().rect()
        scene = self.map_scene
        revs = scene.kind_revision
        # unit names show from LABEL_MIN_LOD, and units keep terrain names off from 2 px/cm
        # (TerrainItem.label_request): below that a step that only moves units keeps the labels
        units = revs["units"] if self.zoom() >= LABEL_MIN_LOD else -1
        fixed = [
            item.deviceTransform(t).mapRect(item.shape().boundingRect())  # a handful of badges, where drawn
            for items in scene.label_obstacles
            for item in items()
            if item.isVisible()
        ]
        key = (
            t.m11(),
            t.m12(),
            t.m21(),
            t.m22(),
            t.dx(),
            t.dy(),
            vp.width(),
            vp.height(),
            tuple(r.getCoords() for r in fixed),
            revs["commanders"],
            revs["terrain"],
            revs["towns"],
            revs["objectives"],
            revs["deployment_zones"],
            revs["reinforcements"],
            units,
            scene.layer_revision,
            scene.ctx.labels_visible,
            scene.aggregate_layer.revision if scene.aggregate_layer.markers() else -1,
        )
        if key != self._label_key:
            self._label_key = key
            inverse, _ = t.inverted()
            by_kind = {**scene.items_by_kind, "units": scene.unit_items_in(inverse.mapRect(QRectF(vp)))}
            self._labels = (
                labels_in_view(
                    by_kind,
                    t,
                    QRectF(vp),
                    self.zoom(),
                    scene.table_rect(),
                    fixed,
                    scene.aggregate_layer,
                    lambda r: scene.commander_items_named(r, self.zoom()),
                    (self._static_labels, key[:8] + key[10:15] + key[16:18]),
                )
                if scene.ctx.labels_visible
                else []
            )
        return self._labels

    def drawForeground(self, painter: QPainter, rect: QRectF) -> None:  # noqa: N802 - Qt API
        exposed = self.viewportTransform().mapRect(rect)
        painter.save()
        # labels are placed in viewport pixels: on the viewport that is the painter's device,
        # but ``render`` (exports) paints the view into a part of a page (below its title)
        inverse, _ok = self.viewportTransform().inverted()
        painter.setWorldTransform(inverse * painter.worldTransform())
        for r, label in self.placed_labels():
            if r.intersects(exposed):
                label.draw(painter, r)
        if self.scale_bar_visible:
            draw_scale_bar(
                painter,
                QRectF(self.viewport().rect()),
                self.zoom(),
                self.document.scenario.info.ground_scale if self.document else 30.0,
            )
        painter.restore()

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802 - Qt API
        super().scrollContentsBy(dx, dy)
        self.viewport().update()  # the scale bar is pinned to the viewport

    # -- tools ---------------------------------------------------------------------------
    def set_tool(self, tool: Tool | None) -> None:
        """Make ``tool`` the current tool (deactivating the previous one)."""
        if self.tool is not None:
            self.tool.deactivate()
        self.tool = tool
        if tool is not None:
            tool.activate(self)
            self.viewport().setCursor(tool.cursor)
            self.hint_changed.emit(tool.hint)

    def snap(self, p: Point) -> Point:
        """``p`` rounded to the grid (``snap_step`` cm) when snapping is on, else ``p``."""
        if not self.snap_to_grid:
            return p
        s = self.snap_step
        return (round(p[0] / s) * s, round(p[1] / s) * s)

    def table_pos(self, view_pos: QPoint | QPointF) -> Point:
        """Table point (cm) under a viewport position."""
        return scene_to_table(self.mapToScene(QPointF(view_pos).toPoint()))

    # -- input ---------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if event.button() == Qt.MouseButton.MiddleButton or (
            self._space and event.button() == Qt.MouseButton.LeftButton
        ):
            self._pan_from = event.position().toPoint()
            self.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)
            event.accept()
            return
        self.setFocus()
        self.map_scene.flush_units()  # tools hit-test the unit items: put them where the records are
        if self.tool is not None:
            self.tool.press(event)
        event.accept()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        pos = event.position().toPoint()
        x, y = self.table_pos(pos)
        self.cursor_moved.emit(x, y)
        if self._pan_from is not None:
            d = pos - self._pan_from
            self._pan_from = pos
            self.auto_fit = False
            self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() - d.x())
            self.verticalScrollBar().setValue(self.verticalScrollBar().value() - d.y())
            event.accept()
            return
        if event.buttons() != Qt.MouseButton.NoButton:
            self.map_scene.flush_units()
        else:
            near = self.mapToScene(QRect(pos.x() - 8, pos.y() - 8, 17, 17)).boundingRect()
            self.map_scene.flush_units_in(near)
        if self.tool is not None:
            self.tool.move(event)
        event.accept()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if self._pan_from is not None and event.button() in (Qt.MouseButton.MiddleButton, Qt.MouseButton.LeftButton):
            self._pan_from = None
            self.viewport().setCursor(
                Qt.CursorShape.OpenHandCursor
                if self._space
                else (self.tool.cursor if self.tool else Qt.CursorShape.ArrowCursor)
            )
            event.accept()
            return
        if self.tool is not None:
            self.tool.release(event)
        event.accept()

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        self.map_scene.flush_units()
        if self.tool is not None:
            self.tool.double_click(event)
        event.accept()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            event.accept()
            return
        self.map_scene.flush_units()
        if self.tool is not None and self.tool.key_press(event):
            event.accept()
            return
        super().keyPressEvent(event)

    def keyReleaseEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.viewport().setCursor(self.tool.cursor if self.tool else Qt.CursorShape.ArrowCursor)
            event.accept()
            return
        super().keyReleaseEvent(event)

    # -- drag and drop from the order-of-battle tree ---------------------------------------
    def dragEnterEvent(self, event) -> None:  # noqa: N802 - Qt API
        if event.mimeData().hasFormat(MIME_IDS):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:  # noqa: N802 - Qt API
        if event.mimeData().hasFormat(MIME_IDS):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event) -> None:  # noqa: N802 - Qt API
        if not event.mimeData().hasFormat(MIME_IDS):
            event.ignore()
            return
        from battlestudio.ui.tools.place import place_records

        raw = bytes(event.mimeData().data(MIME_IDS)).decode("utf-8")
        ids = [i.strip() for i in raw.splitlines() if i.strip()]
        place_records(self.document, ids, self.snap(self.table_pos(event.position())))
        event.acceptProposedAction()


def _record_names(s: Scenario, designed: Scenario | None = None) -> dict[str, str]:
    """Commander and unit id → name of the formations that reinforcements name, from ``s`` or,
    for those not in it (a game's state before they arrive), the ``designed`` scenario."""
    wanted = {r.formation for r in s.reinforcements.values()}
    out: dict[str, str] = {}
    for where in (designed, s):
        if where is not None:
            out.update(
                {
                    i: (where.commanders.get(i) or where.units[i]).name
                    for i in wanted
                    if i in where.commanders or i in where.units
                }
            )
    return out
