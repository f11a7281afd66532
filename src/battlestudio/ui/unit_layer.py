"""UnitLayer: every unit of the map drawn by one scene item when the view is zoomed out, on the
scene's older ``items`` path (``MapScene(unit_path="items")``; the default path draws from
arrays, ``ui.unit_arrays``).

Below ``BATCH_LOD`` screen pixels per table cm a whole army is in view and each unit is a few
pixels across; painting 1,000 items one by one then costs more in Graphics View's per-item
bookkeeping (bounding rectangles, cache look-ups, painter state) than in pixels. The scene then
flags the unit items ``ItemHasNoContents`` (they stay for hit testing, selection and tools) and
this single item draws all of them: one filled path per nation colour, one ``drawLines`` call for
the glyphs and one for the front edges of the units large enough to show them (the same
level-of-detail rule as ``UnitItem.paint``), and the selection outlines.

On screen the layer keeps its own picture of the viewport (a device-pixel image). When units
change, the scene tells it where (``mark_dirty``: each changed unit's rectangle before and
after); the next paint clears just those rectangles and redraws only the units that touch them
(found in a grid of ``CELL_CM`` cells), in the same order as a full redraw, so the picture is
the same as drawing everything again. A replay step that moves 50 of 1,000 units therefore
redraws ~100 units' worth of pixels. A new zoom, scroll or viewport size redraws it all; so
does painting anywhere else than a view's viewport (exports, printing), which draws the units
directly as vectors.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from collections.abc import Iterable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QPainterPath, QPaintEngine, QRegion, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from battlestudio.ui.map_item import FRONT_PEN, OUTLINE_PEN, SELECTED_PEN, Z_UNIT, blit_picture
from battlestudio.ui.troop_items import STRIKE_PEN, UnitItem, strike_lines

if TYPE_CHECKING:
    from battlestudio.ui.map_scene import MapScene

BATCH_LOD = 3.0
"""Zoom (screen pixels per table cm) below which units are drawn by the layer, not one by one."""

GLYPH_PX = 5.0
"""A unit's glyph and front edge are drawn when its shorter side is at least this many pixels."""

CELL_CM = 25.0
"""Cell size of the grid that finds the units touching a changed rectangle."""

PAD_PX = 3
"""Pixels around a changed unit that its outline, front edge or selection may cover."""

MAX_BOXES = 96
"""Above this many changed rectangles the whole picture is redrawn instead (a clip region of
hundreds of rectangles costs more than drawing every unit)."""

Box = tuple[float, float, float, float]


class UnitLayer(QGraphicsItem):
    """One item painting every shown unit of ``scene`` (its ``items_by_kind["units"]``).

    It covers the scene rectangle, is never hit (empty shape) and is not a ``MapItem``, so
    tools and label placement ignore it.
    """

    def __init__(self, scene: MapScene) -> None:
        super().__init__()
        self._scene = scene
        self._bounds = QRectF()
        self._image: QImage | None = None
        self._key: tuple | None = None  # (transform, device size, pixel ratio) of the image
        self._dirty: list[Box] | None = None  # scene boxes to redraw; None: everything
        self._grid: dict[tuple[int, int], set[UnitItem]] = {}
        self._cells: dict[UnitItem, tuple[tuple[int, int], ...]] = {}
        self._colour_rank: dict[tuple, int] = {}  # the same colour order in every redraw
        self.setZValue(Z_UNIT)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)  # exposedRect

    def set_bounds(self, rect: QRectF) -> None:
        """Cover scene rectangle ``rect`` (the table and its margin)."""
        self.prepareGeometryChange()
        self._bounds = QRectF(rect)
        self.mark_all()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._bounds

    def shape(self) -> QPainterPath:
        return QPainterPath()

    # -- what changed -------------------------------------------------------------------------
    def place(self, item: UnitItem, box: Box | None) -> None:
        """File ``item`` under scene box ``box`` (None: it left the scene) in the look-up grid."""
        cells = _cells_of(box) if box is not None else ()
        old = self._cells.get(item, ())
        if cells == old:
            return
        grid = self._grid
        for cell in old:
            members = grid.get(cell)
            if members is not None:
                members.discard(item)
        if cells:
            self._cells[item] = cells
            for cell in cells:
                members = grid.get(cell)
                if members is None:
                    grid[cell] = {item}
                else:
                    members.add(item)
        else:
            self._cells.pop(item, None)

    def mark_dirty(self, boxes: Iterable[Box]) -> None:
        """Redraw the units touching these scene boxes (left, top, right, bottom in cm) at the
        next paint, and ask the view to repaint there."""
        if self._dirty is None:
            return
        if not self.isVisible():
            self._dirty = None
            return
        boxes = list(boxes)
        if len(self._dirty) + len(boxes) > MAX_BOXES:
            self.mark_all()
            return
        self._dirty.extend(boxes)
        for x0, y0, x1, y1 in boxes:
            self.update(QRectF(x0, y0, x1 - x0, y1 - y0).adjusted(-1.0, -1.0, 1.0, 1.0))

    def forget_units(self) -> None:
        """Empty the look-up grid (every unit item left the scene)."""
        self._grid.clear()
        self._cells.clear()
        self.mark_all()

    def mark_all(self) -> None:
        """Redraw everything at the next paint (a layer, the selection or the colours changed)."""
        self._dirty = None
        self.update()

    # -- drawing --------------------------------------------------------------------------------
    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        world = painter.worldTransform()
        if widget is None or painter.paintEngine().type() != QPaintEngine.Type.Raster:
            self.draw_units(painter, world, self._all_units(option.exposedRect))  # export, print: vectors
            return
        device = painter.device()
        if device.width() <= 0 or device.height() <= 0:
            return
        ratio = device.devicePixelRatioF()
        key = (
            world.m11(),
            world.m12(),
            world.m21(),
            world.m22(),
            world.dx(),
            world.dy(),
            device.width(),
            device.height(),
            ratio,
        )
        if key != self._key or self._image is None:
            self._key = key
            self._image = QImage(
                round(device.width() * ratio), round(device.height() * ratio), QImage.Format.Format_ARGB32_Premultiplied
            )
            self._image.setDevicePixelRatio(ratio)
            self._dirty = None
        if self._dirty is None:
            self._redraw(world, None)
        elif self._dirty:
            self._redraw(world, self._dirty)
        self._dirty = []
        blit_picture(painter, self._image, world, option.exposedRect, device.width(), device.height(), ratio)

    def _redraw(self, world: QTransform, boxes: list[Box] | None) -> None:
        """Redraw the picture: everything (``boxes`` None) or the units touching ``boxes``."""
        image = self._image
        if boxes is None:
            image.fill(Qt.GlobalColor.transparent)
        p = QPainter(image)
        if boxes is None:
            units = self._all_units(None)
        else:
            regions = [
                QRegion(
                    world.mapRect(QRectF(x0, y0, x1 - x0, y1 - y0))
                    .toAlignedRect()
                    .adjusted(-PAD_PX, -PAD_PX, PAD_PX, PAD_PX)
                )
                for x0, y0, x1, y1 in boxes
            ]
            while len(regions) > 1:  # pairwise: O(n log n) where adding one by one is O(n²)
                regions = [
                    regions[i].united(regions[i + 1]) if i + 1 < len(regions) else regions[i]
                    for i in range(0, len(regions), 2)
                ]
            p.setClipRegion(regions[0])
            p.setCompositionMode(QPainter.CompositionMode.CompositionMode_Source)
            p.fillRect(image.rect(), Qt.GlobalColor.transparent)
            p.setCompositionMode(QPainter.CompositionMode.CompositionMode_SourceOver)
            pad = (PAD_PX + 1) / max(world.m11(), 1e-9)
            found: set[UnitItem] = set()
            for x0, y0, x1, y1 in boxes:
                for cell in _cells_of((x0 - pad, y0 - pad, x1 + pad, y1 + pad)):
                    found |= self._grid.get(cell, set())
            units = [i for i in self._scene.items_by_kind["units"].values() if i in found and i.isVisible()]
        p.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        p.setTransform(world)
        self.draw_units(p, world, units)
        p.end()

    def _all_units(self, exposed: QRectF | None) -> list[UnitItem]:
        units = [i for i in self._scene.items_by_kind["units"].values() if i.isVisible()]
        if exposed is not None and exposed.isValid() and not exposed.contains(self._bounds):
            x0, y0, x1, y1 = exposed.left(), exposed.top(), exposed.right(), exposed.bottom()
            units = [
                i
                for i in units
                if i.scene_box[0] < x1 and x0 < i.scene_box[2] and i.scene_box[1] < y1 and y0 < i.scene_box[3]
            ]
        return units

    def draw_units(self, painter: QPainter, world: QTransform, units: list[UnitItem]) -> None:
        """Draw ``units`` (in scene order) as ``UnitItem.paint`` would, batched by colour
        (painter in scene coordinates, ``world`` its transform to device pixels)."""
        lod = QStyleOptionGraphicsItem.levelOfDetailFromTransform(world)
        paths: dict[tuple, QPainterPath] = {}
        fills = {}
        selected = []
        light, dark, fronts, dots, struck = [], [], [], [], []
        chosen = set(self._scene.selectedItems())
        min_side = GLYPH_PX / max(lod, 1e-9)
        for item in units:
            key = item._colour
            path = paths.get(key)
            if path is None:
                path = paths[key] = QPainterPath()
                path.setFillRule(Qt.FillRule.WindingFill)
                fills[key] = item._fill
            poly = item.scene_polygon()
            path.addPolygon(poly)
            if chosen and item in chosen:
                selected.append(poly)
            if item.eliminated:
                struck.extend(strike_lines(poly))
            if item._shape.min_side >= min_side:
                glyph, front = item.scene_details()
                (light if item._ink_pen is UnitItem.LIGHT_INK else dark).extend(glyph)
                fronts.append(front)
                if item._shape.dot:
                    dots.append(item)
        rank = self._colour_rank
        for key in paths:
            rank.setdefault(key, len(rank))
        painter.setPen(OUTLINE_PEN)
        for key in sorted(paths, key=rank.__getitem__):
            painter.setBrush(fills[key])
            painter.drawPath(paths[key])
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
            r = item._shape.min_side * 0.18
            painter.drawEllipse(QPointF(item.pos()), r, r)
        if fronts:
            painter.setPen(FRONT_PEN)
            painter.drawLines(fronts)
        if struck:
            painter.setPen(STRIKE_PEN)
            painter.drawLines(struck)


def _cells_of(box: Box) -> tuple[tuple[int, int], ...]:
    """Grid cells (``CELL_CM``) a scene box touches."""
    x0, x1 = int(box[0] // CELL_CM), int(box[2] // CELL_CM)
    y0, y1 = int(box[1] // CELL_CM), int(box[3] // CELL_CM)
    if x0 == x1 and y0 == y1:
        return ((x0, y0),)
    return tuple((cx, cy) for cx in range(x0, x1 + 1) for cy in range(y0, y1 + 1))
