"""The tool protocol of the map (Tiled's ``AbstractTool``): a strategy object the view feeds.

A tool receives the mouse and key events the view does not use for navigation, keeps its own
explicit gesture state, shows temporary preview items in the scene, and turns each finished
gesture (or each step of a drag, one undo step per merge key) into a verb of the document
(``move``, ``rotate``, ``place``) or an edit pushed through it. A tool never changes records
itself, and its previews are never the truth.
"""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING
from collections.abc import Iterable

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QKeyEvent, QMouseEvent
from PySide6.QtWidgets import QGraphicsItem

from battlestudio.edits import MAP_KINDS
from battlestudio.model.geometry import Point
from battlestudio.ui.items import MapItem

if TYPE_CHECKING:
    from battlestudio.document import Document
    from battlestudio.ui.map_view import MapView

_gesture_ids = itertools.count(1)


def new_merge_key(name: str) -> tuple[str, int]:
    """A fresh merge key: the calls made with it during one gesture are one undo step."""
    return (name, next(_gesture_ids))


class Tool:
    """Base class of map tools.

    Attributes
    ----------
    name : str
        registry name (``select``, ``rotate``, ``draw:woods`` …).
    hint : str
        status-bar hint for the current state.
    cursor : Qt.CursorShape
    view : MapView | None
        the view while active.
    """

    name = ""
    hint = ""
    cursor = Qt.CursorShape.ArrowCursor

    def __init__(self) -> None:
        self.view: MapView | None = None
        self._previews: list[QGraphicsItem] = []

    # -- lifecycle -------------------------------------------------------------------------
    def activate(self, view: MapView) -> None:
        """Start serving ``view``."""
        self.view = view

    def deactivate(self) -> None:
        """Stop: cancel any gesture and remove previews."""
        self.reset()
        self.view = None

    def reset(self) -> None:
        """Cancel the gesture in progress and remove preview items."""
        self.clear_previews()

    def document_changed(self) -> None:
        """The document changed (edit, undo, redo): refresh handles that show records."""

    # -- events (default: ignore) ------------------------------------------------------------
    def press(self, event: QMouseEvent) -> None:
        """Mouse button pressed (viewport coordinates)."""

    def move(self, event: QMouseEvent) -> None:
        """Mouse moved, with or without a button."""

    def release(self, event: QMouseEvent) -> None:
        """Mouse button released."""

    def double_click(self, event: QMouseEvent) -> None:
        """Double click (Qt sends press, release, double click, release)."""

    def key_press(self, event: QKeyEvent) -> bool:
        """A key; return True if the tool used it."""
        return False

    # -- helpers ---------------------------------------------------------------------------
    @property
    def document(self) -> Document:
        """The document of the view the tool serves."""
        return self.view.document

    def set_hint(self, text: str) -> None:
        """Show ``text`` as the status hint."""
        self.hint = text
        if self.view is not None:
            self.view.hint_changed.emit(text)

    def table_pos(self, event: QMouseEvent, snap: bool = True) -> Point:
        """Table point (cm) of a mouse event, snapped to the grid when snapping is on."""
        p = self.view.table_pos(event.position())
        return self.view.snap(p) if snap else p

    def item_at(self, event: QMouseEvent, kinds: Iterable[str] | None = None) -> MapItem | None:
        """Topmost visible record item under the cursor (of ``kinds``, if given: ``unit`` …)."""
        wanted = set(kinds) if kinds is not None else None
        for item in self.view.items(event.position().toPoint()):
            if isinstance(item, MapItem) and item.isVisible() and (wanted is None or item.kind in wanted):
                return item
        return None

    def px_to_cm(self, px: float) -> float:
        """Table cm spanned by ``px`` screen pixels at the current zoom."""
        return px / max(self.view.zoom(), 1e-9)

    def add_preview(self, item: QGraphicsItem) -> QGraphicsItem:
        """Put a temporary item in the scene (removed by ``clear_previews``)."""
        item.setZValue(1000.0)
        self.view.map_scene.addItem(item)
        self._previews.append(item)
        return item

    def clear_previews(self) -> None:
        """Remove every preview item."""
        for item in self._previews:
            if item.scene() is not None:
                item.scene().removeItem(item)
        self._previews.clear()


def distance(a: Point, b: Point) -> float:
    """Euclidean distance in cm."""
    return math.hypot(b[0] - a[0], b[1] - a[1])


def kind_of(document: Document, rid: str) -> str | None:
    """Container name (one of ``edits.MAP_KINDS``: ``units``, ``commanders``, ``terrain``, …) of ``rid``."""
    s = document.scenario
    for kind in MAP_KINDS:
        if rid in getattr(s, kind):
            return kind
    return None


def scene_rect(a: QPointF, b: QPointF) -> QRectF:
    """Normalised scene rectangle between two scene points."""
    return QRectF(a, b).normalized()
