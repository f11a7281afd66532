"""Editing bugs of issue 20, each driven through the real widgets: the order-of-battle filter
ignores accents, a click in the tree replaces the map's selection, and a drag from the tree
leaves no false "command cycle" message behind."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QDragEnterEvent, QDragLeaveEvent, QDragMoveEvent
from PySide6.QtWidgets import QApplication

from battlestudio.ui.panels.oob_model import ID_ROLE
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window


def _window(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)  # an edited document is discarded when the test closes the window
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(ELCHINGEN)
    return w


def _visible_names(panel) -> list[str]:
    out, stack = [], [panel.proxy.index(r, 0) for r in range(panel.proxy.rowCount())]
    while stack:
        ix = stack.pop()
        out.append(ix.data())
        stack += [panel.proxy.index(r, 0, ix) for r in range(panel.proxy.rowCount(ix))]
    return out


def test_filter_is_accent_insensitive(qtbot, tmp_path, monkeypatch):
    panel = _window(qtbot, tmp_path, monkeypatch).oob_panel
    qtbot.keyClicks(panel.filter, "delabassee")
    assert any("Delabassée" in n for n in _visible_names(panel))
    panel.filter.clear()
    qtbot.keyClicks(panel.filter, "DÉLABASSÉE")
    assert any("Delabassée" in n for n in _visible_names(panel))


def test_click_in_tree_replaces_map_selection(qtbot, tmp_path, monkeypatch):
    w = _window(qtbot, tmp_path, monkeypatch)
    sc, panel = w.document.scenario, w.oob_panel
    unit = next(iter(sc.units))
    map_only = {next(iter(sc.terrain)), next(iter(sc.towns)), *list(sc.objectives)[:1]}
    w.document.set_selection(map_only | {next(iter(sc.commanders))})
    tree = panel.tree
    ix = panel.index_of(unit)
    tree.scrollTo(ix)
    qtbot.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton, pos=tree.visualRect(ix).center())
    assert w.document.selection == {unit}
    w.actions["delete"].trigger()
    assert unit not in sc.units and map_only <= sc.all_ids()  # Delete removed only the clicked unit


def test_drag_from_tree_to_map_leaves_no_cycle_message(qtbot, tmp_path, monkeypatch):
    w = _window(qtbot, tmp_path, monkeypatch)
    panel, sc = w.oob_panel, w.document.scenario
    cmd = next(c for c in sc.commanders if sc.oob.subordinates(c))
    tree, vp = panel.tree, panel.tree.viewport()
    ix = panel.index_of(cmd)
    tree.scrollTo(ix)
    mime = panel.proxy.mimeData([ix])
    pos = tree.visualRect(ix).center()
    act, btn, mods = Qt.DropAction.MoveAction, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    QApplication.sendEvent(vp, QDragEnterEvent(pos, act, mime, btn, mods))
    QApplication.sendEvent(vp, QDragMoveEvent(pos, act, mime, btn, mods))  # the drag starts over its own row
    QApplication.sendEvent(vp, QDragLeaveEvent())  # ... and leaves the tree for the map
    assert not panel.notice.isVisibleTo(panel), panel.notice.text()
    assert "cycle" not in panel.notice.text()
    assert tree.currentIndex().data(ID_ROLE) in (None, cmd)


def test_multi_edit_to_the_first_records_value_sets_the_others(qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QDoubleSpinBox

    w = _window(qtbot, tmp_path, monkeypatch)
    sc = w.document.scenario
    ids = list(sc.units)
    first = sc.units[ids[0]].facing
    assert len({sc.units[i].facing for i in ids}) > 1  # the selection's facings differ
    w.document.set_selection(ids)
    spin: QDoubleSpinBox = w.properties_panel.editors["units"]["facing"].widget
    assert spin.value() == first and spin.font().italic()
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, f"{first:g}")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert {sc.units[i].facing for i in ids} == {first}
    assert w.document.undo_text.startswith("Set facing")
    w.actions["undo"].trigger()
    assert len({sc.units[i].facing for i in ids}) > 1
    # tabbing through a mixed field without typing sets nothing
    spin.setFocus()
    qtbot.keyClick(spin, Qt.Key.Key_Tab)
    assert len({sc.units[i].facing for i in ids}) > 1


def test_a_number_above_the_maximum_is_clamped_visibly_not_cut(qtbot, tmp_path, monkeypatch):
    w = _window(qtbot, tmp_path, monkeypatch)
    w.document.set_selection(set())
    spin = w.properties_panel.editors["info"]["turns"].widget  # 1 to 500
    assert spin.maximum() == 500
    spin.setFocus()
    spin.selectAll()
    qtbot.keyClicks(spin, "600")
    qtbot.keyClick(spin, Qt.Key.Key_Return)
    assert w.document.scenario.info.turns == 500  # not 60
    assert "600 is outside 1 to 500; set to 500" in spin.toolTip()
