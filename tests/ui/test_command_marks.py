"""The out-of-command marks drawn as one batched item (``ui.command_marks``): the same picture as
one Qt item per mark at normal zooms (Jena, three zooms), hover and tooltips found through the
grid index, a drag repainting only the cells it touched, and at whole-table zoom one "!n" badge
per formation instead of the marks (zoom out → summaries, zoom in → per unit, in the window)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QHelpEvent, QImage, QPainter, QPainterPath
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsEllipseItem,
    QGraphicsPathItem,
    QStyleOptionGraphicsItem,
    QToolTip,
    QWidget,
)

from battlestudio import store
from battlestudio.document import Document
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.session.text import position_at
from battlestudio.ui.command_items import LINK_COLOURS, OUT_COLOUR, SUMMARY_LOD, Z_MARK
from battlestudio.ui.command_marks import BANG, MarksLayer
from battlestudio.ui.command_overlay import CommandOverlay
from battlestudio.ui.map_view import MapView
from battlestudio.ui.styles import cosmetic_pen
from tests.ui.window_helpers import ModalRecorder, make_window

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"


class ReferenceMark(QGraphicsPathItem):
    """One mark as one Qt item with a badge child: the drawing the batched layer replaced,
    kept here as the reference picture."""

    def __init__(self, outline: QPainterPath, exempt: bool) -> None:
        super().__init__(outline)
        self.setZValue(Z_MARK)
        self.exempt = exempt
        colour = QColor(LINK_COLOURS["exempt"]) if exempt else OUT_COLOUR
        self.setPen(cosmetic_pen(colour, 2.5, Qt.PenStyle.DashLine if exempt else Qt.PenStyle.SolidLine))
        self.setBrush(Qt.BrushStyle.NoBrush)
        badge = QGraphicsEllipseItem(-1.6, -1.6, 3.2, 3.2, self)
        badge.setPen(Qt.PenStyle.NoPen)
        badge.setBrush(OUT_COLOUR)
        bang = QGraphicsPathItem(BANG, badge)
        bang.setPen(Qt.PenStyle.NoPen)
        bang.setBrush(QColor("white"))
        r = outline.boundingRect()
        badge.setPos(r.right(), r.top())
        badge.setVisible(not exempt)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if not self.exempt and option.levelOfDetailFromTransform(painter.worldTransform()) < SUMMARY_LOD:
            return
        super().paint(painter, option, widget)


@pytest.fixture(scope="module")
def jena():
    battle = store.load(JENA)
    return battle, GameLog.from_battle(battle)


def jena_view(qtbot, jena, turn: str = "30") -> tuple[MapView, CommandOverlay]:
    """A 900 x 600 map of Jena at ``turn`` with the command overlay on the state there."""
    battle, log = jena
    state = log.state_at(position_at(log, turn))
    s = battle.scenario
    view = MapView(Document(Battle(s, [])))
    qtbot.addWidget(view)
    view.scale_bar_visible = False  # drawn over the viewport, not part of what is compared
    view.resize(900, 600)
    view.show()
    qtbot.waitExposed(view)
    view.show_state(dict(state.units), dict(state.commanders))
    ov = CommandOverlay(view.map_scene)
    ov.set_rules(s.info.ruleset, s.info.parameters)
    ov.show_state(state)
    return view, ov


def grab(view: MapView) -> QImage:
    return view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)


def differing(a: QImage, b: QImage, tolerance: int = 60) -> int:
    """Pixels whose colour differs by more than ``tolerance`` in some channel."""
    assert a.size() == b.size()
    n = 0
    for y in range(a.height()):
        for x in range(a.width()):
            p, q = a.pixel(x, y), b.pixel(x, y)
            if p != q and max(abs(((p >> s) & 255) - ((q >> s) & 255)) for s in (0, 8, 16)) > tolerance:
                n += 1
    return n


def marks_centre(ov: CommandOverlay) -> QPointF:
    r = QRectF()
    for m in ov.marks.items.values():
        r = r.united(m.rect)
    return r.center()


def test_batched_marks_look_like_one_item_per_mark_at_three_zooms(qtbot, jena):
    view, ov = jena_view(qtbot, jena)
    marks = ov.marks.items
    assert sum(not m.exempt for m in marks.values()) >= 5, "Jena at turn 30 has units out of command"
    reference = [ReferenceMark(m.outline, m.exempt) for m in marks.values()]
    for item in reference:
        item.setVisible(False)
        view.map_scene.addItem(item)
    centre = marks_centre(ov)
    for zoom in (SUMMARY_LOD * 1.2, 6.0, 12.0):
        view.set_zoom(zoom)
        view.centerOn(centre)
        new = grab(view)
        ov.marks.setVisible(False)
        none = grab(view)
        for item in reference:
            item.setVisible(True)
        old = grab(view)
        for item in reference:
            item.setVisible(False)
        ov.marks.setVisible(True)
        drawn = differing(old, none)
        assert drawn > 300, (zoom, drawn)  # the marks are in the picture
        assert differing(new, old) <= max(40, drawn // 50), (zoom, differing(new, old), drawn)


def test_hit_tests_and_tooltips_find_the_mark_through_the_grid(qtbot, jena):
    view, ov = jena_view(qtbot, jena)
    view.set_zoom(8.0)
    rid, mark = next((k, m) for k, m in sorted(ov.marks.items.items()) if not m.exempt and k in ov.picture.findings)
    view.centerOn(mark.rect.center())
    scene = view.map_scene
    band = QPointF(mark.rect.center().x(), mark.rect.top() + 0.2)  # on the outline's top edge
    assert ov.marks.mark_at(band) == rid
    assert ov.marks in scene.items(band)
    inside = mark.rect.center()  # inside the unit, away from the outline: the unit answers
    assert ov.marks.mark_at(inside) is None and ov.marks not in scene.items(inside)
    badge = mark.badge
    assert badge is not None and ov.marks.mark_at(badge) == rid
    assert tooltip_at(view, view.mapFromScene(band)) == mark.text and "Consequence" in mark.text
    assert tooltip_at(view, view.mapFromScene(badge)) == mark.text
    tooltip_at(view, view.mapFromScene(inside))  # inside the unit the layer claims no tooltip
    assert ov.marks.toolTip() == ""


def tooltip_at(view: MapView, at: QPoint) -> str:
    """The tooltip the map shows when the mouse rests at ``at`` (viewport pixels)."""
    QToolTip.hideText()
    event = QHelpEvent(QEvent.Type.ToolTip, at, view.viewport().mapToGlobal(at))
    QApplication.sendEvent(view.viewport(), event)
    return QToolTip.text() if QToolTip.isVisible() else ""


def test_a_change_rebuilds_and_repaints_only_the_cells_it_touches(qtbot, jena):
    view, ov = jena_view(qtbot, jena)
    layer: MarksLayer = ov.marks
    for cell in layer._cells.values():
        cell.build(layer.items)
    rid = sorted(layer.items)[0]
    mark = layer.items[rid]
    moved = type(mark)(mark.outline.translated(200.0, 0.0), mark.exempt, mark.text, mark.key)
    layer.update_marks({rid: moved})
    stale = {k for k, c in layer._cells.items() if c.paths is None}
    assert stale == {mark.cell, moved.cell} and mark.cell != moved.cell
    assert layer.mark_at(QPointF(mark.rect.center().x(), mark.rect.top() + 0.2)) is None
    assert layer.mark_at(QPointF(moved.rect.center().x(), moved.rect.top() + 0.2)) == rid
    layer.update_marks({rid: None})
    assert rid not in layer.items and all(rid not in c.ids for c in layer._cells.values())


def test_zoomed_out_the_window_counts_per_formation_and_zoomed_in_marks_each_unit(qtbot, tmp_path, monkeypatch, jena):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1400, 900)
    assert w.files.open_path(JENA, ask=False)
    _battle, log = jena
    w.document.timeline.seek(position_at(log, "30"))
    qtbot.waitUntil(lambda: any(not m.exempt for m in w.command_view.overlay.marks.items.values()))
    ov, view = w.command_view.overlay, w.map_view
    out = [s for s, f in ov.picture.findings.items() if not f.within and not f.exemption]
    w.actions["zoom_fit"].trigger()  # whole table
    while view.zoom() >= SUMMARY_LOD:
        w.actions["zoom_out"].trigger()
    badges = ov.summaries.items
    assert badges and len(badges) < len(out) and sum(b.count for b in badges.values()) == len(out)
    assert all(b.isVisible() and b.shown() for b in badges.values())
    whole = grab(view)
    ov.marks.setVisible(False)
    bare = grab(view)
    ov.marks.setVisible(True)
    exempt = [m.extent() for m in ov.marks.items.values() if m.exempt]
    at_badges = [
        view.mapFromScene(b)
        for m in ov.marks.items.values()
        if (b := m.badge) is not None and not any(r.contains(b) for r in exempt)
    ]
    assert len(at_badges) >= 5
    inside = [p for p in at_badges if whole.rect().contains(p)]
    assert inside and all(whole.pixel(p) == bare.pixel(p) for p in inside)  # no red "!" over the brigades
    for b in badges.values():
        b.setVisible(False)
    assert differing(whole, grab(view)) > 20 * len(badges)  # the "!n" badges are what is drawn
    for b in badges.values():
        b.setVisible(True)
    centre = marks_centre(ov)
    while view.zoom() < SUMMARY_LOD * 2:
        w.actions["zoom_in"].trigger()
    view.centerOn(centre)
    assert not any(b.shown() for b in badges.values())
    close = grab(view)
    ov.marks.setVisible(False)
    assert differing(close, grab(view)) > 300  # each unit's own mark again
    ov.marks.setVisible(True)
