"""What the command overlay's items are built from: pools of items by key, where a link or
mark attaches to a record, mark outlines (cached per immutable record) and the outline of a
detached formation. All shapes in scene coordinates (``ui.coords.table_to_scene``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from collections.abc import Callable, Iterable

from PySide6.QtGui import QPainterPath, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from battlestudio.model.units import Commander, Unit
from battlestudio.replay.state import GameState
from battlestudio.ui.coords import table_to_scene

if TYPE_CHECKING:
    from battlestudio.ui.map_scene import MapScene


class Pool:
    """Items of one kind by key: created on demand, removed when no longer wanted."""

    def __init__(self, scene: MapScene, make: Callable[[], QGraphicsItem]) -> None:
        self.scene, self.make = scene, make
        self.items: dict[str, QGraphicsItem] = {}

    def get(self, key: str, visible: bool) -> QGraphicsItem:
        """The item for ``key``, made and added to the scene (shown if ``visible``) if new."""
        item = self.items.get(key)
        if item is None:
            item = self.items[key] = self.make()
            item.setVisible(visible)
            self.scene.addItem(item)
        return item

    def keep_only(self, keys: set[str]) -> None:
        """Remove every item whose key is not in ``keys``."""
        for key in [k for k in self.items if k not in keys]:
            self.scene.removeItem(self.items.pop(key))

    def remove(self, key: str) -> None:
        """Remove the item for ``key``, if any."""
        item = self.items.pop(key, None)
        if item is not None:
            self.scene.removeItem(item)

    def set_visible(self, visible: bool) -> None:
        for item in self.items.values():
            item.setVisible(visible)


def name_of(state: GameState, rid: str) -> str:
    """Display name of commander or unit ``rid`` (the id when it has none or is unknown)."""
    rec = state.commanders.get(rid) or state.units.get(rid)
    return rec.name if rec is not None and rec.name else rid


def anchor(state: GameState, rid: str) -> tuple[float, float]:
    """Where a link or mark attaches: a unit's footprint centre, a general's position (cm)."""
    u = state.units.get(rid)
    if u is not None:
        c = u.footprint().centroid
        return (c.x, c.y)
    return state.commanders[rid].position


_OUTLINES: dict[int, tuple[Unit | Commander, QPainterPath]] = {}  # id(record) -> (record, outline)


def mark_outline(rec: Unit | Commander) -> QPainterPath:
    """A unit's footprint grown by 1 cm, or a 3.5 cm circle round a general (scene path).

    Cached per record (records are immutable; the record kept in the cache keeps its id taken)."""
    hit = _OUTLINES.get(id(rec))
    if hit is not None and hit[0] is rec:
        return hit[1]
    path = QPainterPath()
    if isinstance(rec, Unit):
        ring = rec.footprint().buffer(1.0, join_style=2).exterior.coords
        path.addPolygon(QPolygonF([table_to_scene(x, y) for x, y in ring]))
        path.closeSubpath()
    else:
        path.addEllipse(table_to_scene(*rec.position), 3.5, 3.5)
    if len(_OUTLINES) >= 1 << 14:
        _OUTLINES.clear()
    _OUTLINES[id(rec)] = (rec, path)
    return path


def hull_path(state: GameState, members: Iterable[str]) -> QPainterPath:
    """The convex hull of ``members``' footprints and generals' positions grown by 3 cm (scene
    path; empty when none of them is in ``state``): a detached formation's outline (2.11)."""
    from shapely import MultiPoint, unary_union
    from shapely.geometry import Point as SPoint

    shapes = []
    for m in members:
        if m in state.units:
            shapes.append(state.units[m].footprint())
        elif m in state.commanders:
            shapes.append(SPoint(state.commanders[m].position))
    path = QPainterPath()
    if not shapes:
        return path
    hull = unary_union(shapes).convex_hull.buffer(3.0)
    if isinstance(hull, MultiPoint) or hull.is_empty:
        return path
    pts = [table_to_scene(x, y) for x, y in hull.exterior.coords]
    path.addPolygon(QPolygonF(pts))
    path.closeSubpath()
    return path
