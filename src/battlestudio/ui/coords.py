"""The one conversion between the table frame and the Qt scene (DESIGN.md, "Frame").

The model works in table centimetres with the origin at the bottom-left corner, ``x`` to the
right, ``y`` **up**, and facings in degrees counter-clockwise from +x (``model/geometry.py``).
Qt scenes grow ``y`` **down**. The scene keeps one scene unit = one table centimetre and
flips ``y``: table ``(x, y)`` is scene ``(x, -y)``, so the table occupies the scene rectangle
``(0, -height, width, height)``.

``table_to_scene`` and ``scene_to_table`` are the only functions in the code base that perform
this conversion; everything else (paths of shapely geometries, tool gestures, the status bar)
goes through them. Facings never need converting: items are drawn from footprint corners
computed in the table frame, and tools measure angles in the table frame.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QPainterPath, QPolygonF
from shapely.geometry.base import BaseGeometry

from battlestudio.model.geometry import Point


def table_to_scene(x: float, y: float) -> QPointF:
    """Scene point of the table point ``(x, y)``.

    Parameters
    ----------
    x, y : float
        table cm, origin bottom-left, y up.

    Returns
    -------
    QPointF
        scene coordinates (1 unit = 1 cm, y down).
    """
    return QPointF(x, -y)


def scene_to_table(p: QPointF) -> Point:
    """Table point ``(x, y)`` in cm of the scene point ``p`` (inverse of ``table_to_scene``)."""
    return (p.x(), -p.y())


# -- helpers built on the pair above ---------------------------------------------------------


def scene_polygon(points: Iterable[Point]) -> QPolygonF:
    """A scene polygon through table points (cm)."""
    return QPolygonF([table_to_scene(x, y) for x, y in points])


def table_rect_to_scene(x0: float, y0: float, x1: float, y1: float) -> QRectF:
    """Scene rectangle of the table box with corners ``(x0, y0)`` and ``(x1, y1)`` (cm)."""
    a, b = table_to_scene(x0, y0), table_to_scene(x1, y1)
    return QRectF(a, b).normalized()


def geometry_path(geom: BaseGeometry) -> QPainterPath:
    """Scene path of a shapely geometry in table cm.

    Polygons (with holes) become closed subpaths filled with the odd-even rule; lines become
    open subpaths; points become a zero-length move. Multi-part geometries and collections
    are drawn part by part. An empty geometry gives an empty path.
    """
    path = QPainterPath()
    _add_geometry(path, geom)
    return path


def _add_geometry(path: QPainterPath, geom: BaseGeometry) -> None:
    if geom.is_empty:
        return
    kind = geom.geom_type
    if kind == "Polygon":
        for ring in (geom.exterior, *geom.interiors):
            path.addPolygon(scene_polygon(ring.coords))
            path.closeSubpath()
    elif kind in ("LineString", "LinearRing"):
        coords = list(geom.coords)
        path.moveTo(table_to_scene(*coords[0][:2]))
        for c in coords[1:]:
            path.lineTo(table_to_scene(*c[:2]))
    elif kind == "Point":
        path.moveTo(table_to_scene(geom.x, geom.y))
    else:  # Multi* and GeometryCollection
        for part in geom.geoms:
            _add_geometry(path, part)
