"""Toolbar icons of the map tools, drawn in code (no image files to ship or lose).

Each icon is a small pictogram on a 24 px grid: an arrow for select, a turning arrow for
rotate, a polygon with handles for vertices, a swatch in the map's own colours for each
terrain kind to draw, a built-up block for town zones, a ruler for measure, a cross for delete,
a dashed outline for deployment zones, a star for objectives, an arrow in from an edge for
reinforcements, units on a dashed line, in a zone, or in column along a road for the
deployment tools.
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPainterPath, QPen, QPixmap, QPolygonF

from battlestudio.model.terrain import TerrainKind
from battlestudio.ui.styles import TERRAIN_STYLES

_S = 24
_INK = QColor("#2b2b2b")


def _canvas() -> tuple[QPixmap, QPainter]:
    pm = QPixmap(_S, _S)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(QPen(_INK, 1.6, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap, Qt.PenJoinStyle.RoundJoin))
    return pm, p


def _poly(*pts: tuple[float, float]) -> QPolygonF:
    return QPolygonF([QPointF(x, y) for x, y in pts])


def _select(p: QPainter) -> None:
    p.setBrush(QColor("#ffffff"))
    p.drawPolygon(_poly((6, 3), (6, 19), (10, 15), (13, 21), (16, 20), (13, 14), (18, 14)))


def _rotate(p: QPainter) -> None:
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawArc(QRectF(4, 4, 16, 16), 30 * 16, 270 * 16)
    p.setBrush(_INK)
    p.drawPolygon(_poly((17, 2), (21, 8), (14, 8)))


def _vertices(p: QPainter) -> None:
    pts = [(4, 18), (8, 5), (19, 8), (20, 19)]
    p.setBrush(QColor("#d8e6f5"))
    p.drawPolygon(_poly(*pts))
    p.setBrush(QColor("#ff9d00"))
    for x, y in pts:
        p.drawRect(QRectF(x - 2, y - 2, 4, 4))


def _town(p: QPainter) -> None:
    p.setBrush(QColor("#c98b72"))
    p.drawRect(QRectF(4, 6, 16, 14))
    p.setPen(QPen(QColor("#7a3b28"), 1.2))
    for x in (8, 12, 16):
        p.drawLine(QPointF(x, 8), QPointF(x, 18))


def _measure(p: QPainter) -> None:
    p.save()
    p.translate(12, 12)
    p.rotate(-35)
    p.setBrush(QColor("#f3e3a0"))
    p.drawRect(QRectF(-11, -4, 22, 8))
    for i, x in enumerate(range(-8, 10, 3)):
        p.drawLine(QPointF(x, -4), QPointF(x, -1 if i % 2 else 0))
    p.restore()


def _delete(p: QPainter) -> None:
    p.setPen(QPen(QColor("#b00020"), 3.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    p.drawLine(QPointF(6, 6), QPointF(18, 18))
    p.drawLine(QPointF(18, 6), QPointF(6, 18))


def _zone(p: QPainter) -> None:
    p.setBrush(QColor(48, 80, 192, 60))
    p.setPen(QPen(QColor("#3050c0"), 1.6, Qt.PenStyle.DashLine))
    p.drawPolygon(_poly((3, 6), (20, 3), (21, 19), (5, 21)))


def _objective(p: QPainter) -> None:
    import math

    pts = []
    for i in range(10):
        r = 10.0 if i % 2 == 0 else 4.0
        a = math.radians(90 + 36 * i)
        pts.append((12 + r * math.cos(a), 13 - r * math.sin(a)))
    p.setBrush(QColor("#f2c230"))
    p.setPen(QPen(QColor("#5a4000"), 1.0))
    p.drawPolygon(_poly(*pts))


def _reinforcement(p: QPainter) -> None:
    p.setPen(QPen(_INK, 2.0))
    p.drawLine(QPointF(3, 3), QPointF(3, 21))  # the table edge
    p.setBrush(QColor("#3050c0"))
    p.setPen(QPen(_INK, 1.0))
    p.drawPolygon(_poly((5, 10), (13, 10), (13, 6), (21, 12), (13, 18), (13, 14), (5, 14)))


def _deploy_line(p: QPainter) -> None:
    p.setPen(QPen(QColor("#ff9d00"), 1.4, Qt.PenStyle.DashLine))
    p.drawLine(QPointF(2, 14), QPointF(22, 14))  # the drawn line
    p.setPen(QPen(_INK, 1.0))
    p.setBrush(QColor("#3050c0"))
    for x in (3, 10, 17):
        p.drawRect(QRectF(x, 14, 5, 4))  # units on it, fronts on the line
    p.setBrush(_INK)
    p.drawPolygon(_poly((12, 3), (16, 9), (8, 9)))  # facing the enemy


def _deploy_zone(p: QPainter) -> None:
    _zone(p)
    p.setPen(QPen(_INK, 1.0))
    p.setBrush(QColor("#3050c0"))
    for x, y in ((6, 8), (13, 8), (8, 14), (14, 14)):
        p.drawRect(QRectF(x, y, 5, 3))


def _march_column(p: QPainter) -> None:
    p.setPen(QPen(QColor("#9a8060"), 5.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
    path = QPainterPath(QPointF(6, 22))
    path.cubicTo(QPointF(6, 12), QPointF(18, 12), QPointF(18, 2))
    p.setBrush(Qt.BrushStyle.NoBrush)
    p.drawPath(path)  # the road
    p.setPen(QPen(_INK, 1.0))
    p.setBrush(QColor("#3050c0"))
    for x, y in ((16, 3), (13, 10), (7, 15)):
        p.drawRect(QRectF(x, y, 4, 5))  # one behind the other


def _terrain(p: QPainter, kind: TerrainKind) -> None:
    st = TERRAIN_STYLES.get(kind)
    if st is not None and st.line:
        path = QPainterPath(QPointF(3, 18))
        path.cubicTo(QPointF(9, 4), QPointF(15, 22), QPointF(21, 6))
        p.setPen(QPen(QColor(st.line), 4.0, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawPath(path)
        return
    fill = QColor(st.fill) if st is not None and st.fill else QColor("#cccccc")
    outline = QColor(st.outline) if st is not None and st.outline else _INK
    p.setPen(QPen(outline, 1.4))
    p.setBrush(fill)
    p.drawPolygon(_poly((3, 16), (7, 5), (17, 3), (21, 12), (15, 21), (6, 20)))


_DRAWERS = {
    "select": _select,
    "rotate": _rotate,
    "vertices": _vertices,
    "town": _town,
    "measure": _measure,
    "delete": _delete,
    "zone": _zone,
    "objective": _objective,
    "reinforcement": _reinforcement,
    "deploy_line": _deploy_line,
    "deploy_zone": _deploy_zone,
    "march_column": _march_column,
}


@lru_cache(maxsize=64)
def tool_icon(name: str) -> QIcon:
    """Icon of tool ``name`` (``select``, ``draw:woods`` …); an empty icon for unknown names."""
    if name.startswith("draw:"):
        try:
            kind = TerrainKind(name.split(":", 1)[1])
        except ValueError:
            return QIcon()
        pm, p = _canvas()
        _terrain(p, kind)
    elif name in _DRAWERS:
        pm, p = _canvas()
        _DRAWERS[name](p)
    else:
        return QIcon()
    p.end()
    return QIcon(pm)
