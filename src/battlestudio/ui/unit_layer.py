"""UnitLayer: every unit of the map drawn by one scene item when the view is zoomed out.

Below ``BATCH_LOD`` screen pixels per table cm a whole army is in view and each unit is a few
pixels across; painting 1,000 items one by one then costs more in Graph View's per-item
bookkeeping (bounding rectangles, cache look-ups, painter state) than in pixels. The scene then
flags the unit items ``ItemHasNoContents`` (they stay for hit testing, selection and tools) and
this single item draws all of them: one filled path per nation colour, one ``drawLines`` call for
the glyphs and one for the front edges of the units large enough to show them (the same
level-of-detail rule as ``UnitItem.paint``), and the selection outlines. It is cached as one
device pixmap, so a repaint with nothing changed is one blit, and the scene asks it to redraw
whenever a unit, the selection or a side's layer changes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QPainter, QPainterPath
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from battlestudio.ui.items import FRONT_PEN, OUTLINE_PEN, SELECTED_PEN, Z_UNIT, UnitItem

if TYPE_CHECKING:
    from battlestudio.ui.map_scene import MapScene

BATCH_LOD = 3.0
"""Zoom (screen pixels per table cm) below which units are drawn by the layer, not one by one."""

GLYPH_PX = 5.0
"""A unit's glyph and front edge are drawn when its shorter side is at least this many pixels."""


class UnitLayer(QGraphicsItem):
    """One item painting every shown unit of ``scene`` (its ``items_by_kind["units"]``).

    It covers the scene rectangle, is never hit (empty shape) and is not a ``MapItem``, so
    tools and label placement ignore it.
    """

    def __init__(self, scene: "MapScene") -> None:
        super().__init__()
        self._scene = scene
        self._bounds = QRectF()
        self.setZValue(Z_UNIT)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)  # exposedRect

    def set_bounds(self, rect: QRectF) -> None:
        """Cover scene rectangle ``rect`` (the table and its margin)."""
        self.prepareGeometryChange()
        self._bounds = QRectF(rect)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._bounds

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        exposed = option.exposedRect
        cull = exposed.isValid() and not exposed.contains(self._bounds)
        paths: dict[tuple, QPainterPath] = {}
        fills = {}
        selected: list = []
        light, dark, fronts, dots = [], [], [], []
        chosen = set(self._scene.selectedItems())
        min_side = GLYPH_PX / max(lod, 1e-9)
        for item in self._scene.items_by_kind["units"].values():
            if not item.isVisible():
                continue
            poly = item.scene_poly
            if cull and not poly.boundingRect().intersects(exposed):
                continue
            key = item._colour
            path = paths.get(key)
            if path is None:
                path = paths[key] = QPainterPath()
                path.setFillRule(Qt.FillRule.WindingFill)
                fills[key] = item._fill
            path.addPolygon(poly)
            if chosen and item in chosen:
                selected.append(poly)
            if item._min_side >= min_side:
                (light if item._ink_pen is UnitItem.LIGHT_INK else dark).extend(item.scene_glyph)
                fronts.append(item.scene_front)
                if item._dot:
                    dots.append(item)
        painter.setPen(OUTLINE_PEN)
        for key, path in paths.items():
            painter.setBrush(fills[key])
            painter.drawPath(path)
        if selected:
            painter.setPen(SELECTED_PEN)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            for poly in selected:
                painter.drawPolygon(poly)
        if light:
            painter.setPen(UnitItem.LIGHT_INK)
            painter.drawLines(light)
        if dark:
            painter.setPen(UnitItem.DARK_INK)
            painter.drawLines(dark)
        for item in dots:
            painter.setPen(item._ink_pen)
            painter.setBrush(item._ink)
            r = item._min_side * 0.18
            painter.drawEllipse(item.pos(), r, r)
        if fronts:
            painter.setPen(FRONT_PEN)
            painter.drawLines(fronts)
