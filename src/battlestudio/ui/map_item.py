"""MapItem, the base of the map's scene items, and what they share: selection colour, pens
and stacking order.

Each item holds the id of its record and a ``sync(record)`` that re-reads it (the Tiled
``syncWithMapObject`` idiom): items never hold the truth, the document or the replay state
does. Items are positioned in scene coordinates obtained from ``ui.coords``; nothing here
converts between the table frame and the scene by hand. Labels are not painted by the items:
each offers a ``label_request(lod)`` and the view places and draws them (``ui.labels``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QRect, QRectF, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPaintEngine, QTransform
from PySide6.QtWidgets import QGraphicsItem

from battlestudio.ui.labels import LabelRequest, MapContext
from battlestudio.ui.styles import contrast_ink, cosmetic_pen

SELECTED = QColor("#ff9d00")
"""Highlight colour of selected items."""

OUTLINE_PEN = cosmetic_pen("#202020", 0.8)
SELECTED_PEN = cosmetic_pen(SELECTED, 2.5)
FRONT_PEN = cosmetic_pen("#101010", 2.5)
LIGHT_INK_PEN = cosmetic_pen(contrast_ink(QColor("#000000")), 1.0)
DARK_INK_PEN = cosmetic_pen(contrast_ink(QColor("#ffffff")), 1.0)

Z_TERRAIN, Z_TOWN, Z_OBJECTIVE, Z_UNIT, Z_COMMANDER = 0.0, 10.0, 15.0, 20.0, 30.0
Z_ZONE, Z_REINFORCEMENT = 5.0, 16.0
"""Deployment zones lie over the terrain and under the towns; reinforcement markers over objectives."""

_SELECTABLE = QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
_DEVICE_CACHE = QGraphicsItem.CacheMode.DeviceCoordinateCache
_RASTER = QPaintEngine.Type.Raster
# (PySide6 looks enum members up on every access: the hot paths use these names)


class MapItem(QGraphicsItem):
    """Base of the map's items: an ``id``, a ``kind`` and a shared ``MapContext``."""

    kind = ""

    def __init__(self, record_id: str, ctx: MapContext) -> None:
        super().__init__()
        self.id = record_id
        self.ctx = ctx
        self._bounds = QRectF()
        self.scene_box = (0.0, 0.0, 0.0, 0.0)
        """(left, top, right, bottom) of the item in scene cm (a commander: his position),
        kept by ``sync`` for quick tests in plain floats (label placement)."""
        self.setFlag(_SELECTABLE, True)
        # Repaints blit a per-view pixmap; it is redrawn only on zoom or when the item changes.
        self.setCacheMode(_DEVICE_CACHE)

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._bounds

    def label_request(self, lod: float) -> LabelRequest | None:
        """The label to show at zoom ``lod`` (px per cm), or None when it would not fit."""
        return None

    def _keep_scene_box(self) -> None:
        r = self._bounds.translated(self.pos())
        self.scene_box = (r.left(), r.top(), r.right(), r.bottom())


def viewport_picture(
    painter: QPainter, world: QTransform, w: int, h: int, ratio: float, draw: Callable[[QPainter], None]
) -> QImage:
    """A transparent picture of the ``w`` × ``h`` px viewport at device pixel ``ratio``, drawn by
    ``draw`` with ``painter``'s render hints and the ``world`` transform (for ``blit_picture``):
    the formation markers' and the commander flags' cached pictures are made this way."""
    image = QImage(round(w * ratio), round(h * ratio), QImage.Format.Format_ARGB32_Premultiplied)
    image.setDevicePixelRatio(ratio)
    image.fill(Qt.GlobalColor.transparent)
    p = QPainter(image)
    try:  # a painter left open on an image crashes Qt
        p.setRenderHints(painter.renderHints())
        p.setTransform(world)
        draw(p)
    finally:
        p.end()
    return image


def blit_picture(
    painter: QPainter, image: QImage, world: QTransform, exposed: QRectF, w: int, h: int, ratio: float
) -> None:
    """Copy the part of ``image`` (a picture of the ``w`` × ``h`` px viewport at device pixel
    ``ratio``) under ``exposed`` (item coordinates, mapped by ``world``) onto ``painter``: the
    array layers' and the markers' cached viewport pictures are drawn this way."""
    target = world.mapRect(exposed).toAlignedRect().intersected(QRect(0, 0, w, h))
    painter.save()
    painter.resetTransform()
    painter.drawImage(
        QRectF(target),
        image,
        QRectF(target.x() * ratio, target.y() * ratio, target.width() * ratio, target.height() * ratio),
    )
    painter.restore()
