"""The map's commanders as numpy arrays, and the scene item that draws their flags and dots.

``CommanderArrays`` holds one row per commander shown: his position (scene cm), his look (a row
of a table of fill, ink and echelon mark, shared by every commander of the same nation, side
colour and echelon), the zooms from which he is a flag or a dot (``COMMANDER_FLAG_LOD``,
``COMMANDER_DOT_LOD``) and whether he is selected. A replay step writes the rows of the ids
whose record changed (``MapScene.reconcile``); nothing per commander is done in Qt.

``ArrayCommanderLayer`` draws them all as ``CommanderItem.paint`` would, in row order (the
items' stacking order): flags as the cached pictures of ``troop_items.flag_picture`` on screen,
vectors in exports. The ``CommanderItem`` of each commander stays in the scene, paints nothing
and is synced only when read (``MapScene.flush_commanders``), for hit testing, selection, tools
and label placement.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QImage, QPainter, QPainterPath, QPaintEngine, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from battlestudio.ui.map_item import Z_COMMANDER, blit_picture, viewport_picture
from battlestudio.ui.styles import ECHELON_MARKS, contrast_ink, nation_colour
from battlestudio.ui.troop_items import (
    COMMANDER_DOT_LOD,
    COMMANDER_FLAG_LOD,
    COMMANDER_LABEL_LOD,
    DOT_PEN,
    CommanderItem,
    draw_flag,
    flag_picture,
)

if TYPE_CHECKING:
    from battlestudio.model.units import Commander
    from battlestudio.ui.labels import MapContext

SELECTED = 1
"""Bit of ``CommanderArrays.flags``: the commander is selected (drawn as a flag, outlined)."""

PICTURE_FROM = 100
"""From this many flags and dots on screen the layer keeps them as a picture of the viewport
(filling and blitting it costs more than drawing a few dozen)."""


class CommanderArrays:
    """One row per commander of a scene, in the order their items were added.

    Attributes
    ----------
    ids : list[str]
        row → commander id; ``row`` the reverse.
    pos : ndarray (n, 2)
        position in scene cm.
    look : ndarray (n,) int32
        row of ``fills``, ``inks``, ``marks``.
    flag_lod, dot_lod, label_lod : ndarray (n,)
        zoom (px per cm) from which he is drawn as a flag, as a dot, and named
        (``COMMANDER_LABEL_LOD``).
    flags : ndarray (n,) uint8
        ``SELECTED``.
    """

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.row: dict[str, int] = {}
        self.pos = np.zeros((0, 2))
        self.look = np.zeros(0, np.int32)
        self.flag_lod = np.zeros(0)
        self.dot_lod = np.zeros(0)
        self.label_lod = np.zeros(0)
        self.flags = np.zeros(0, np.uint8)
        self.fills: list[Any] = []
        self.inks: list[Any] = []
        self.marks: list[str] = []
        self._look_ids: dict[tuple, int] = {}
        self.side_colours: dict[str, str] = {}
        self.revision = 0
        """Grows whenever a row is added, removed or changed (``touch``)."""

    def touch(self) -> None:
        """Rows or their flags changed: the layer's picture is stale."""
        self.revision += 1

    def __len__(self) -> int:
        return len(self.ids)

    def values_of(self, c: Commander) -> tuple[float, float, int, float, float, float]:
        """(x, y, look, flag zoom, dot zoom, name zoom) of commander ``c`` (as ``CommanderItem.sync``)."""
        key = (c.nation, self.side_colours.get(c.side, "#808080"), c.echelon)
        lid = self._look_ids.get(key)
        if lid is None:
            fill = nation_colour(c.nation, key[1])
            lid = self._look_ids[key] = len(self.fills)
            self.fills.append(fill)
            self.inks.append(contrast_ink(fill))
            self.marks.append(ECHELON_MARKS.get(c.echelon, c.echelon[:3].upper()))
        x, y = c.position
        flag = COMMANDER_FLAG_LOD.get(c.echelon, COMMANDER_FLAG_LOD["brigade"])
        dot = COMMANDER_DOT_LOD.get(c.echelon, COMMANDER_DOT_LOD["brigade"])
        named = COMMANDER_LABEL_LOD.get(c.echelon, COMMANDER_LABEL_LOD["brigade"])
        return (float(x), -float(y), lid, flag, dot, named)

    def append(self, ids: list[str], values: list[tuple]) -> None:
        """Add rows for ``ids`` with ``values_of`` tuples (at the end: drawn last)."""
        if not ids:
            return
        v = np.array(values, dtype=float).reshape(len(ids), 6)
        self.touch()
        start = len(self.ids)
        self.ids.extend(ids)
        for i, rid in enumerate(ids):
            self.row[rid] = start + i
        self.pos = np.concatenate([self.pos, v[:, 0:2]])
        self.look = np.concatenate([self.look, v[:, 2].astype(np.int32)])
        self.flag_lod = np.concatenate([self.flag_lod, v[:, 3]])
        self.dot_lod = np.concatenate([self.dot_lod, v[:, 4]])
        self.label_lod = np.concatenate([self.label_lod, v[:, 5]])
        self.flags = np.concatenate([self.flags, np.zeros(len(ids), np.uint8)])

    def update(self, rows: list[int], values: list[tuple]) -> None:
        """Set ``rows`` to ``values_of`` tuples."""
        if not rows:
            return
        r = np.array(rows, dtype=np.intp)
        v = np.array(values, dtype=float).reshape(len(rows), 6)
        self.touch()
        self.pos[r] = v[:, 0:2]
        self.look[r] = v[:, 2].astype(np.int32)
        self.flag_lod[r] = v[:, 3]
        self.dot_lod[r] = v[:, 4]
        self.label_lod[r] = v[:, 5]

    def remove(self, ids: list[str]) -> None:
        """Drop the rows of ``ids`` (the others keep their order)."""
        rows = np.array(sorted(self.row[i] for i in ids if i in self.row), dtype=np.intp)
        if rows.size == 0:
            return
        self.touch()
        for name in ("pos", "look", "flag_lod", "dot_lod", "label_lod", "flags"):
            setattr(self, name, np.delete(getattr(self, name), rows, axis=0))
        gone = set(rows.tolist())
        self.ids = [rid for i, rid in enumerate(self.ids) if i not in gone]
        self.row = {rid: i for i, rid in enumerate(self.ids)}

    def clear(self) -> None:
        """Drop every row (the look table stays)."""
        self.remove(list(self.ids))

    def modes(self, lod: float) -> tuple[np.ndarray, np.ndarray]:
        """(drawn as a flag, drawn as a dot) per row at zoom ``lod`` (``CommanderItem.set_lod``)."""
        flag = (lod >= self.flag_lod) | ((self.flags & SELECTED) != 0)
        return flag, ~flag & (lod >= self.dot_lod)


_FLAG = CommanderItem._FLAG_BOUNDS
_DOT = CommanderItem._DOT_BOUNDS


class ArrayCommanderLayer(QGraphicsItem):
    """One item painting every commander of ``arrays`` (see the module docstring). It covers
    the scene rectangle, is never hit (empty shape) and is not a ``MapItem``."""

    def __init__(self, arrays: CommanderArrays, ctx: MapContext) -> None:
        super().__init__()
        self.arrays = arrays
        self.ctx = ctx
        self._bounds = self._rect = QRectF()
        self._image: QImage | None = None  # the flags on screen, drawn for ``_key``
        self._key: tuple | None = None
        self.setZValue(Z_COMMANDER)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)

    def set_bounds(self, rect: QRectF) -> None:
        """Cover scene rectangle ``rect`` and, at the zoom (``zoom_changed``), the flags of
        commanders at its edges (a flag reaches ~35 screen pixels beyond his position)."""
        self.prepareGeometryChange()
        self._rect = QRectF(rect)
        m = 40.0 / max(self.ctx.px_per_cm, 1e-3)
        self._bounds = self._rect.adjusted(-m, -m, m, m)

    def zoom_changed(self) -> None:
        """The zoom changed: the margin for the flags at the edges follows."""
        self.set_bounds(self._rect)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._bounds

    def shape(self) -> QPainterPath:
        return QPainterPath()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        """On screen the flags are drawn into a picture of the viewport, blitted until a row,
        the selection, the zoom or the scroll changes; exports draw them directly."""
        if not len(self.arrays):
            return
        world = painter.worldTransform()
        device = painter.device()
        w, h = device.width(), device.height()
        if (
            widget is None
            or painter.paintEngine().type() != QPaintEngine.Type.Raster
            or world.isRotating()
            or self._on_screen(world, w, h) < PICTURE_FROM
        ):
            self.draw(painter, option.exposedRect)
            return
        if w <= 0 or h <= 0:
            return
        ratio = device.devicePixelRatioF()
        key = (world.m11(), world.m22(), world.dx(), world.dy(), w, h, ratio, self.arrays.revision, self.ctx.px_per_cm)
        if key != self._key or self._image is None:
            self._key = key
            inverse, _ = world.inverted()
            shown = inverse.mapRect(QRectF(0, 0, w, h))
            self._image = viewport_picture(painter, world, w, h, ratio, lambda p: self.draw(p, shown))
        blit_picture(painter, self._image, world, option.exposedRect, w, h, ratio)

    def _on_screen(self, world: QTransform, w: int, h: int) -> int:
        """How many flags and dots are drawn within the ``w`` × ``h`` pixel viewport."""
        a = self.arrays
        flag, dot = a.modes(self.ctx.px_per_cm)
        x = a.pos[:, 0] * world.m11() + world.dx()
        y = a.pos[:, 1] * world.m22() + world.dy()
        return int(((flag | dot) & (x > -40) & (x < w + 40) & (y > -40) & (y < h + 40)).sum())

    def draw(self, painter: QPainter, exposed: QRectF) -> None:
        """Draw the flags and dots meeting scene rectangle ``exposed`` (all when invalid),
        painter in scene coordinates."""
        a = self.arrays
        world = painter.worldTransform()
        flag, dot = a.modes(self.ctx.px_per_cm)
        rows = np.flatnonzero(flag | dot)
        if rows.size == 0:
            return
        if world.isRotating():
            dev = np.array([(p.x(), p.y()) for p in (world.map(QPointF(x, y)) for x, y in a.pos[rows])])
        else:
            dev = a.pos[rows] * (world.m11(), world.m22()) + (world.dx(), world.dy())
        if exposed.isValid():  # rows whose flag or dot meets what is repainted
            e = world.mapRect(exposed)
            x, y = dev[:, 0], dev[:, 1]
            near = (
                (x + _FLAG.right() >= e.left())
                & (x + _FLAG.left() <= e.right())
                & (y + _FLAG.bottom() >= e.top())
                & (y + _FLAG.top() <= e.bottom())
            )
            rows, dev = rows[near], dev[near]
        raster = painter.paintEngine().type() == QPaintEngine.Type.Raster  # as CommanderItem.paint
        ratio = painter.device().devicePixelRatioF()
        font = self.ctx.bold
        top_left = _FLAG.topLeft()
        painter.save()
        for r, (dx, dy) in zip(rows.tolist(), dev.tolist(), strict=True):
            painter.setTransform(QTransform.fromTranslate(dx, dy))
            lid = a.look[r]
            if flag[r]:
                chosen = bool(a.flags[r] & SELECTED)
                if raster:
                    painter.drawPixmap(
                        top_left, flag_picture(a.fills[lid], a.inks[lid], a.marks[lid], chosen, ratio, font)
                    )
                else:
                    draw_flag(painter, a.fills[lid], a.inks[lid], a.marks[lid], font, chosen)
            else:
                painter.setBrush(a.fills[lid])
                painter.setPen(DOT_PEN)
                rad = CommanderItem.DOT / 2
                painter.drawEllipse(QPointF(0.0, 0.0), rad, rad)
        painter.restore()
