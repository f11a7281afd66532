"""What the map draws around and over its items: table cloth, grid, table edge and scale bar.

The table, grid and edge are drawn as the scene background (cheap: only the exposed part,
cosmetic lines); the scale bar is drawn in viewport pixels in the view's foreground so it stays
in the bottom-left corner at every zoom. Grid spacing adapts to the zoom: 5 cm lines appear
only when they are at least 8 pixels apart, with heavier lines every 50 cm.
"""

from __future__ import annotations

import math

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter

from battlestudio.ui.coords import table_rect_to_scene, table_to_scene
from battlestudio.ui.styles import GRID_MAJOR, GRID_MINOR, OUTSIDE_FILL, TABLE_EDGE, TABLE_FILL, cosmetic_pen

GRID_STEPS = (5.0, 10.0, 25.0, 50.0)
"""Candidate minor grid spacings in cm, finest first."""

MAJOR_STEP = 50.0
"""Heavy grid line spacing in cm."""


def minor_grid_step(px_per_cm: float) -> float:
    """The finest grid spacing (cm) whose lines are at least 8 pixels apart at this zoom."""
    for step in GRID_STEPS:
        if step * px_per_cm >= 8.0:
            return step
    return GRID_STEPS[-1] * math.ceil(8.0 / (GRID_STEPS[-1] * px_per_cm))


def draw_table(painter: QPainter, exposed: QRectF, width: float, height: float, grid: bool, px_per_cm: float) -> None:
    """Paint the background of the scene rectangle ``exposed``.

    Parameters
    ----------
    painter : QPainter
        in scene coordinates.
    exposed : QRectF
        scene rectangle to paint.
    width, height : float
        table size in cm.
    grid : bool
        draw the grid (the "grid" layer).
    px_per_cm : float
        current zoom, screen pixels per table cm.
    """
    painter.fillRect(exposed, QColor(OUTSIDE_FILL))
    table = table_rect_to_scene(0.0, 0.0, width, height)
    painter.fillRect(table.intersected(exposed), QColor(TABLE_FILL))
    if grid and px_per_cm > 0:
        step = minor_grid_step(px_per_cm)
        area = table.intersected(exposed)
        minor: list[QLineF] = []
        major: list[QLineF] = []
        x = math.ceil(area.left() / step) * step
        while x <= area.right():
            line = QLineF(table_to_scene(x, 0.0), table_to_scene(x, height))
            (major if abs(x / MAJOR_STEP - round(x / MAJOR_STEP)) < 1e-6 else minor).append(line)
            x += step
        y_lo, y_hi = -area.bottom(), -area.top()  # the table-y range of the exposed area
        y = math.ceil(max(y_lo, 0.0) / step) * step
        while y <= min(y_hi, height):
            line = QLineF(table_to_scene(0.0, y), table_to_scene(width, y))
            (major if abs(y / MAJOR_STEP - round(y / MAJOR_STEP)) < 1e-6 else minor).append(line)
            y += step
        painter.setPen(cosmetic_pen(GRID_MINOR, 1.0))
        painter.drawLines(minor)
        painter.setPen(cosmetic_pen(GRID_MAJOR, 1.0))
        painter.drawLines(major)
    painter.setPen(cosmetic_pen(TABLE_EDGE, 2.0))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawRect(table)


def nice_length(max_cm: float) -> float:
    """The largest 1-2-5 × 10ⁿ length in cm not above ``max_cm`` (at least 0.1)."""
    if max_cm <= 0.1:
        return 0.1
    exp = math.floor(math.log10(max_cm))
    for m in (5.0, 2.0, 1.0):
        if m * 10**exp <= max_cm:
            return m * 10**exp
    return 10**exp


def format_ground(metres: float) -> str:
    """Ground distance for labels: metres below 2 km, else km with one decimal."""
    return f"{metres:.0f} m" if metres < 2000 else f"{metres / 1000:.1f} km"


def draw_scale_bar(painter: QPainter, viewport: QRectF, px_per_cm: float, ground_scale: float) -> None:
    """Paint a scale bar in the bottom-left corner of the viewport (painter in viewport pixels).

    The bar is a round length of table cm (at most 160 px long), labelled with that length and
    the ground distance it stands for (``ground_scale`` metres per table cm).
    """
    if px_per_cm <= 0:
        return
    cm = nice_length(160.0 / px_per_cm)
    length = cm * px_per_cm
    x0, y0 = viewport.left() + 14.0, viewport.bottom() - 16.0
    text = f"{cm:g} cm = {format_ground(cm * ground_scale)}"
    font = QFont()
    font.setPixelSize(11)
    painter.setFont(font)
    width = max(length, painter.fontMetrics().horizontalAdvance(text)) + 12.0
    painter.fillRect(QRectF(x0 - 6.0, y0 - 22.0, width, 32.0), QColor(255, 255, 250, 210))
    painter.setPen(cosmetic_pen("#202020", 1.0))
    painter.fillRect(QRectF(x0, y0 - 3.0, length / 2.0, 6.0), QColor("#202020"))
    painter.drawRect(QRectF(x0, y0 - 3.0, length, 6.0))
    painter.drawText(QPointF(x0, y0 - 8.0), text)
