"""Small symbol icons for the docks, drawn in code: NATO-style arm boxes and commander flags.

Infantry is a box with both diagonals, cavalry one diagonal, artillery a dot (as on the map);
a commander is a flag whose bars mark the echelon (Torden over Europa 1.4).
"""

from __future__ import annotations

from functools import lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QIcon, QPainter, QPen, QPixmap

from battlestudio.model.units import ECHELON_RANK

_W, _H = 20, 14


def _ink(fill: QColor) -> QColor:
    return QColor("#000000") if fill.lightnessF() > 0.55 else QColor("#ffffff")


@lru_cache(maxsize=64)
def arm_icon(arm: str, colour: str) -> QIcon:
    """Icon of a unit of ``arm`` (an ``Arm`` value) filled in ``colour`` (#rrggbb)."""
    pm = QPixmap(_W, _H)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    fill = QColor(colour)
    box = QRectF(1.5, 1.5, _W - 3, _H - 3)
    p.setPen(QPen(QColor("#202020"), 1.2))
    p.setBrush(fill)
    p.drawRect(box)
    p.setPen(QPen(_ink(fill), 1.4))
    if arm == "infantry":
        p.drawLine(box.topLeft(), box.bottomRight())
        p.drawLine(box.bottomLeft(), box.topRight())
    elif arm == "cavalry":
        p.drawLine(box.bottomLeft(), box.topRight())
    elif arm == "artillery":
        p.setBrush(_ink(fill))
        p.drawEllipse(box.center(), 2.6, 2.6)
    p.end()
    return QIcon(pm)


@lru_cache(maxsize=64)
def commander_icon(echelon: str, colour: str) -> QIcon:
    """A flag in ``colour`` with one bar per echelon step below the top (0 for a C-in-C)."""
    pm = QPixmap(_W, _H)
    pm.fill(Qt.GlobalColor.transparent)
    p = QPainter(pm)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setPen(QPen(QColor("#303030"), 1.4))
    p.drawLine(QPointF(3, 1), QPointF(3, _H - 1))
    fill = QColor(colour)
    p.setBrush(fill)
    p.setPen(QPen(QColor("#202020"), 1.0))
    flag = QRectF(3.5, 1.5, _W - 6, 7)
    p.drawRect(flag)
    bars = ECHELON_RANK.get(echelon, 0)
    p.setPen(QPen(_ink(fill), 1.0))
    for i in range(min(bars, 4)):
        x = flag.left() + 3 + i * 3
        p.drawLine(QPointF(x, flag.top() + 1.5), QPointF(x, flag.bottom() - 1.5))
    p.end()
    return QIcon(pm)
