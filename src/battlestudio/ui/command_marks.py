"""Every out-of-command mark of the command overlay in one scene item, drawn as batched paths.

A mark is the outline of an out-of-command unit or general (solid red, with a red "!" badge at
its top right) or of an exempt one (amber, dashed); its tooltip is the ruleset's finding with
the consequence. ``MarksLayer`` keeps the marks by subject id and, per ``CELL_CM`` grid cell (by
the outline's centre), four combined paths: the red outlines, the amber ones, the badge discs
and their "!" glyphs. A paint draws the cells the exposed rectangle touches with four calls per
cell; a change (a dragged general, a replay step) rebuilds only the cells of the marks it
touched and repaints only their rectangles. The same grid answers hit tests (``mark_at``, and
Qt's ``contains`` / ``collidesWithPath``, so the scene finds the layer, and its tooltip, as it
found one item per mark: only on the outline's band and the badge, not inside the unit).

Zoomed out below ``SUMMARY_LOD`` screen pixels per cm the red outlines and badges are not drawn:
the overlay's per-formation "!n" badges (``command_items.SummaryItem``) count them there, so the
brigades stay visible at whole-table zoom. Exempt outlines are drawn at every zoom.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from collections.abc import Iterable, Mapping

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPainterPathStroker
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsScene,
    QGraphicsSceneHelpEvent,
    QStyleOptionGraphicsItem,
    QWidget,
)

from battlestudio.analysis.command_picture import EXEMPT
from battlestudio.ui.command_items import LINK_COLOURS, OUT_COLOUR, SUMMARY_LOD, Z_MARK
from battlestudio.ui.styles import cosmetic_pen

CELL_CM = 64.0
"""Side of a grid cell (scene cm): the unit of batching, of partial repaint and of hit tests."""

BADGE_R = 1.6
"""Radius of the red "!" disc (cm)."""

HIT_BAND = 1.25
"""Half-width (cm) of the band along an outline that hit tests and tooltips answer to."""

_MARGIN = 4.0  # cm beyond the outlines: the badge, the pen's width zoomed out


def _bang() -> QPainterPath:
    """A "!" 2.2 cm high centred on the origin (scene cm, y down), as a filled path."""
    path = QPainterPath()
    path.addRect(QRectF(-0.3, -1.1, 0.6, 1.35))
    path.addEllipse(QPointF(0.0, 0.75), 0.33, 0.33)
    return path


BANG = _bang()


@dataclass(eq=False, slots=True)
class Mark:
    """One mark: ``outline`` (scene path), ``exempt`` (amber dashed, no badge) and the tooltip
    ``text``; ``key`` is what it was made from (unchanged, it is not redone)."""

    outline: QPainterPath
    exempt: bool
    text: str
    key: tuple = ()
    rect: QRectF = field(default_factory=QRectF)
    cell: tuple[int, int] = (0, 0)
    _hit: QPainterPath | None = None

    def __post_init__(self) -> None:
        self.rect = self.outline.boundingRect()
        c = self.rect.center()
        self.cell = (math.floor(c.x() / CELL_CM), math.floor(c.y() / CELL_CM))

    @property
    def badge(self) -> QPointF | None:
        """Centre of the "!" badge (the outline's top right), None for an exempt mark."""
        return None if self.exempt else QPointF(self.rect.right(), self.rect.top())

    def extent(self) -> QRectF:
        """What the mark may paint (scene cm)."""
        return self.rect.adjusted(-_MARGIN, -_MARGIN, _MARGIN, _MARGIN)

    def hit_shape(self) -> QPainterPath:
        """The band along the outline and the badge disc: where the mark answers the mouse."""
        if self._hit is None:
            stroker = QPainterPathStroker()
            stroker.setWidth(2 * HIT_BAND)
            shape = stroker.createStroke(self.outline)
            b = self.badge
            if b is not None:
                disc = QPainterPath()
                disc.addEllipse(b, BADGE_R, BADGE_R)
                shape = shape.united(disc)
            self._hit = shape
        return self._hit


class _Cell:
    """The combined paths of the marks of one grid cell (built on first paint after a change)."""

    __slots__ = ("ids", "paths")

    def __init__(self) -> None:
        self.ids: set[str] = set()
        self.paths: tuple[QPainterPath, QPainterPath, QPainterPath, QPainterPath] | None = None

    def build(self, marks: Mapping[str, Mark]) -> tuple[QPainterPath, QPainterPath, QPainterPath, QPainterPath]:
        if self.paths is None:
            out, exempt, discs, bangs = QPainterPath(), QPainterPath(), QPainterPath(), QPainterPath()
            for p in (discs, bangs):
                p.setFillRule(Qt.FillRule.WindingFill)  # overlapping badges stay filled
            for rid in sorted(self.ids):  # a fixed order: the same picture whatever the history
                m = marks[rid]
                (exempt if m.exempt else out).addPath(m.outline)
                b = m.badge
                if b is not None:
                    discs.addEllipse(b, BADGE_R, BADGE_R)
                    bangs.addPath(BANG.translated(b))
            self.paths = (out, exempt, discs, bangs)
        return self.paths


class MarksLayer(QGraphicsItem):
    """All out-of-command marks in one item (scene cm); ``items`` maps subject id → ``Mark``.

    ``set_marks`` replaces them all, ``update_marks`` only the given ids. The item is the
    overlay's ``marks`` (``set_visible`` is the layer toggle).
    """

    def __init__(self) -> None:
        super().__init__()
        self.setZValue(Z_MARK)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)  # clicks go to the map's tools
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption, True)
        self._filter: _TipFilter | None = None
        self.items: dict[str, Mark] = {}
        self._cells: dict[tuple[int, int], _Cell] = {}
        self._rect = QRectF()
        self._reach = 0.0  # the largest half-extent of a mark beyond its cell (cm)
        self._out_pen = cosmetic_pen(OUT_COLOUR, 2.5)
        self._exempt_pen = cosmetic_pen(QColor(LINK_COLOURS[EXEMPT]), 2.5, Qt.PenStyle.DashLine)

    # -- contents ------------------------------------------------------------------------
    def set_marks(self, marks: Mapping[str, Mark]) -> None:
        """Draw exactly ``marks`` (subject id → mark)."""
        self.prepareGeometryChange()
        self.items = dict(marks)
        self._cells = {}
        rect = QRectF()
        reach = 0.0
        for rid, m in self.items.items():
            self._cells.setdefault(m.cell, _Cell()).ids.add(rid)
            ext = m.extent()
            rect = rect.united(ext)
            reach = max(reach, ext.width(), ext.height())
        self._rect, self._reach = rect, reach
        self.update()

    def update_marks(self, changes: Mapping[str, Mark | None]) -> None:
        """Replace the marks of the ids in ``changes`` (None: no mark any more); only their
        cells are rebuilt and only their rectangles repainted. The bounds only grow until the
        next ``set_marks``."""
        dirty = QRectF()
        for rid, new in changes.items():
            old = self.items.get(rid)
            if old is new:
                continue
            if old is not None:
                self._cell_changed(old.cell).ids.discard(rid)
                dirty = dirty.united(old.extent())
                del self.items[rid]
            if new is not None:
                self.items[rid] = new
                self._cell_changed(new.cell).ids.add(rid)
                ext = new.extent()
                dirty = dirty.united(ext)
                self._reach = max(self._reach, ext.width(), ext.height())
        if dirty.isNull():
            return
        if not self._rect.contains(dirty):
            self.prepareGeometryChange()
            self._rect = self._rect.united(dirty)
        self.update(dirty)

    def _cell_changed(self, key: tuple[int, int]) -> _Cell:
        cell = self._cells.setdefault(key, _Cell())
        cell.paths = None
        return cell

    def set_visible(self, visible: bool) -> None:
        """The command layer's toggle."""
        self.setVisible(visible)

    # -- hit tests -----------------------------------------------------------------------
    def _near(self, rect: QRectF) -> Iterable[tuple[str, Mark]]:
        """Marks whose cell is within reach of ``rect`` (scene cm)."""
        r = self._reach
        x0, x1 = math.floor((rect.left() - r) / CELL_CM), math.floor((rect.right() + r) / CELL_CM)
        y0, y1 = math.floor((rect.top() - r) / CELL_CM), math.floor((rect.bottom() + r) / CELL_CM)
        if (x1 - x0 + 1) * (y1 - y0 + 1) > len(self._cells):
            keys: Iterable[tuple[int, int]] = [k for k in self._cells if x0 <= k[0] <= x1 and y0 <= k[1] <= y1]
        else:
            keys = [(x, y) for x in range(x0, x1 + 1) for y in range(y0, y1 + 1)]
        for key in keys:
            cell = self._cells.get(key)
            if cell is not None:
                for rid in sorted(cell.ids):
                    yield rid, self.items[rid]

    def mark_at(self, point: QPointF) -> str | None:
        """The id of the mark whose outline band or badge is at ``point`` (scene cm), else None
        (of several, the first by id)."""
        if not self.isVisible():
            return None
        for rid, m in self._near(QRectF(point, point)):
            if m.extent().contains(point) and m.hit_shape().contains(point):
                return rid
        return None

    def contains(self, point: QPointF) -> bool:
        return self.mark_at(point) is not None

    def collidesWithPath(  # noqa: N802 - Qt API
        self, path: QPainterPath, mode: Qt.ItemSelectionMode = Qt.ItemSelectionMode.IntersectsItemShape
    ) -> bool:
        r = path.boundingRect()
        if r.width() <= 1.0 and r.height() <= 1.0:  # a point query (items at a position)
            return self.contains(r.center())
        for _rid, m in self._near(r):
            if not m.extent().intersects(r):
                continue
            hit = m.hit_shape()
            if mode in (Qt.ItemSelectionMode.ContainsItemShape, Qt.ItemSelectionMode.ContainsItemBoundingRect):
                if path.contains(hit):
                    return True
            elif path.intersects(hit):
                return True
        return False

    def shape(self) -> QPainterPath:
        out = QPainterPath()
        out.setFillRule(Qt.FillRule.WindingFill)
        for m in self.items.values():
            out.addPath(m.hit_shape())
        return out

    def attach(self, scene: QGraphicsScene) -> None:
        """Add the layer to ``scene`` and answer its tooltip requests with the mark under the
        mouse (the map's view passes no hover to its items; a tooltip is asked of the scene)."""
        scene.addItem(self)
        self._filter = _TipFilter(self, scene)
        scene.installEventFilter(self._filter)

    def tip_at(self, pos: QPointF) -> str:
        """Set and return the tooltip for ``pos`` (scene cm): the finding of the mark there."""
        rid = self.mark_at(pos)
        text = self.items[rid].text if rid is not None else ""
        if text != self.toolTip():
            self.setToolTip(text)
        return text

    # -- painting ------------------------------------------------------------------------
    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt API
        return self._rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        summary = option.levelOfDetailFromTransform(painter.worldTransform()) < SUMMARY_LOD
        exposed = option.exposedRect  # type: ignore[attr-defined]
        cells = [c.build(self.items) for _, c in sorted(self._visible_cells(exposed))]
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(self._exempt_pen)
        for _out, exempt, _d, _b in cells:
            if not exempt.isEmpty():
                painter.drawPath(exempt)
        if summary:
            return  # zoomed out: the formations' "!n" badges count the out of command
        painter.setPen(self._out_pen)
        for out, _e, _d, _b in cells:
            if not out.isEmpty():
                painter.drawPath(out)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(OUT_COLOUR)
        for _o, _e, discs, _b in cells:
            if not discs.isEmpty():
                painter.drawPath(discs)
        painter.setBrush(QColor("white"))
        for _o, _e, _d, bangs in cells:
            if not bangs.isEmpty():
                painter.drawPath(bangs)

    def _visible_cells(self, exposed: QRectF) -> list[tuple[tuple[int, int], _Cell]]:
        r = self._reach
        x0, x1 = math.floor((exposed.left() - r) / CELL_CM), math.floor((exposed.right() + r) / CELL_CM)
        y0, y1 = math.floor((exposed.top() - r) / CELL_CM), math.floor((exposed.bottom() + r) / CELL_CM)
        return [(k, c) for k, c in self._cells.items() if c.ids and x0 <= k[0] <= x1 and y0 <= k[1] <= y1]


class _TipFilter(QObject):
    """Sets the layer's tooltip before the scene answers a tooltip request (Qt then shows the
    tooltip of the first item at the point that has one: the layer only where a mark is)."""

    def __init__(self, layer: MarksLayer, parent: QObject) -> None:
        super().__init__(parent)
        self.layer = layer

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.GraphicsSceneHelp and isinstance(event, QGraphicsSceneHelpEvent):
            self.layer.tip_at(event.scenePos())
        return False
