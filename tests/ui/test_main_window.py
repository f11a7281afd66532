"""The main window: open/save/new with their dialogs, the corrupt-file error path, title and
modified mark, undo/redo actions, recent files, drag-and-drop open, status bar, layout, clipboard."""

from __future__ import annotations

import copy

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent, QKeySequence
from PySide6.QtWidgets import QApplication, QMessageBox

from battlestudio import store
from battlestudio.edits import MoveRecords
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window


@pytest.fixture
def modals(monkeypatch) -> ModalRecorder:
    return ModalRecorder(monkeypatch)


@pytest.fixture
def window(qtbot, tmp_path, modals):
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(ELCHINGEN)
    return w


def test_opens_bundled_scenario_with_title_and_docks(window):
    assert window.windowTitle() == "elchingen-1805.battle.json[*] — BattleStudio"
    assert not window.isWindowModified()
    s = window.document.scenario
    assert window.oob_panel.model.rowCount() == len(s.oob.roots())
    assert {d.objectName() for d in window.docks.values()} == {
        "dock_oob",
        "dock_layers",
        "dock_properties",
        "dock_problems",
        "dock_sides",
        "dock_places",
    }
    assert window.settings.recent_files()[0] == ELCHINGEN.resolve()
    assert not window.actions["undo"].isEnabled()


def test_edit_sets_modified_mark_and_undo_redo_actions(window):
    uid = next(iter(window.document.scenario.units))
    name = window.document.scenario.units[uid].name
    window.document.push(MoveRecords("units", {uid: (50.0, 50.0)}, None, f"Move {name}"))
    assert window.isWindowModified()
    assert window.actions["undo"].isEnabled() and window.actions["undo"].text() == f"&Undo Move {name}"
    window.actions["undo"].trigger()
    assert not window.isWindowModified() and window.actions["redo"].text() == f"&Redo Move {name}"
    window.actions["redo"].trigger()
    assert window.document.scenario.units[uid].position == (50.0, 50.0)


def test_standard_shortcuts(window):
    assert window.actions["undo"].shortcut() == QKeySequence(QKeySequence.StandardKey.Undo)
    assert window.actions["save"].shortcut() == QKeySequence(QKeySequence.StandardKey.Save)
    assert window.actions["open"].shortcut() == QKeySequence(QKeySequence.StandardKey.Open)
    assert window.actions["copy"].shortcut() == QKeySequence(QKeySequence.StandardKey.Copy)
    assert window.actions["zoom_in"].shortcuts() == QKeySequence.keyBindings(QKeySequence.StandardKey.ZoomIn)


@pytest.mark.parametrize("content", [b"{ not json", b"", b'{"format": "battlestudio", "units": 3}'])
def test_corrupt_json_file_shows_error_and_keeps_document(window, modals, tmp_path, content):
    before_doc = window.document
    uid = next(iter(before_doc.scenario.units))
    before_doc.push(MoveRecords("units", {uid: (60.0, 60.0)}, None, "Move"))
    before = copy.deepcopy(before_doc.scenario)
    bad = tmp_path / "broken.battle.json"
    bad.write_bytes(content)
    assert not window.files.open_path(bad)
    errors = modals.of("critical")
    assert len(errors) == 1 and "broken.battle.json" in errors[0][2]
    assert modals.of("question") == []  # nothing asked: the file was never going to open
    assert window.document is before_doc and window.document.scenario == before
    assert window.document.undo_count == 1 and window.isWindowModified()
    assert window.map_view.document is before_doc and window.oob_panel.document is before_doc
    assert bad.resolve() not in window.settings.recent_files()


def test_corrupt_sqlite_file_shows_error(window, modals, tmp_path):
    bad = tmp_path / "broken.battle"
    bad.write_bytes(b"SQLite format 3\x00" + b"\x07" * 500)
    before = copy.deepcopy(window.document.scenario)
    assert not window.files.open_path(bad)
    assert "broken.battle" in modals.of("critical")[0][2]
    assert window.document.scenario == before


def test_opening_an_order_of_battle_says_to_import_it(window, modals, tmp_path):
    """A fresh tester opened a CSV with File ▸ Open: the message said 'ValueError' and not what to do."""
    csv_file = tmp_path / "army.csv"
    csv_file.write_text("name,men\nBde A,2000\n", encoding="utf-8")
    assert not window.files.open_path(csv_file)
    said = modals.of("critical")[0][2]
    assert said.startswith(f"{csv_file}: unknown file type; use a name ending in .battle or .battle.json")
    assert "File ▸ Import…" in said and "ValueError" not in said


def test_missing_file_shows_error(window, modals, tmp_path):
    assert not window.files.open_path(tmp_path / "nowhere.battle.json")
    assert "nowhere.battle.json" in modals.of("critical")[0][2]


def test_save_as_then_reopen_gives_equal_scenario(window, modals, tmp_path):
    uid = next(iter(window.document.scenario.units))
    window.document.push(MoveRecords("units", {uid: (70.0, 65.0)}, {uid: 45.0}, "Move"))
    modals.save_name = str(tmp_path / "mine")
    assert window.files.save_as()
    saved = tmp_path / "mine.battle"
    assert window.document.path == saved and not window.isWindowModified()
    assert window.windowTitle().startswith("mine.battle[*]")
    edited = copy.deepcopy(window.document.scenario)
    assert window.files.open_path(saved)
    assert window.document.scenario == edited
    assert window.document.scenario.units[uid].facing == 45.0


def test_save_failure_shows_error_and_keeps_modified(window, modals, tmp_path):
    uid = next(iter(window.document.scenario.units))
    window.document.push(MoveRecords("units", {uid: (70.0, 65.0)}, None, "Move"))
    assert not window.files.save_as(tmp_path / "no-such-dir" / "x.battle")
    assert "x.battle" in modals.of("critical")[0][2]
    assert window.isWindowModified() and window.document.path == ELCHINGEN


def test_unsaved_changes_prompt_on_new_and_close(window, modals):
    uid = next(iter(window.document.scenario.units))
    window.document.push(MoveRecords("units", {uid: (70.0, 65.0)}, None, "Move"))
    doc = window.document
    modals.question_answer = QMessageBox.StandardButton.Cancel
    window.actions["new"].trigger()
    assert window.document is doc and len(modals.of("question")) == 1
    assert not window.close()
    assert window.isVisible()
    modals.question_answer = QMessageBox.StandardButton.Discard
    window.actions["new"].trigger()
    assert window.document is not doc and window.document.scenario.units == {}
    assert window.windowTitle() == "Untitled[*] — BattleStudio"


def test_open_asks_before_dropping_changes(window, modals, tmp_path):
    path = tmp_path / "copy.battle.json"
    store.save(store.load(ELCHINGEN), path)
    window.document.push(MoveRecords("units", {next(iter(window.document.scenario.units)): (1.0, 1.0)}, None, "Move"))
    modals.question_answer = QMessageBox.StandardButton.Cancel
    assert not window.files.open_path(path)
    assert window.document.path == ELCHINGEN
    modals.question_answer = QMessageBox.StandardButton.Discard
    assert window.files.open_path(path) and window.document.path == path


def test_dropping_a_battle_file_opens_it(window, tmp_path):
    path = tmp_path / "dropped.battle.json"
    store.save(store.load(ELCHINGEN), path)
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    event = QDropEvent(
        QPointF(200, 200), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    )
    window.dropEvent(event)
    assert window.document.path == path
    other = QMimeData()
    other.setUrls([QUrl.fromLocalFile(str(tmp_path / "notes.txt"))])
    window.dropEvent(
        QDropEvent(
            QPointF(1, 1), Qt.DropAction.CopyAction, other, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
        )
    )
    assert window.document.path == path


def test_recent_files_menu(window, tmp_path):
    path = tmp_path / "second.battle.json"
    store.save(store.load(ELCHINGEN), path)
    window.files.open_path(path)
    window.actions.recent_menu.aboutToShow.emit()  # File ▸ Open Recent about to show
    names = [a.text() for a in window.actions.recent_menu.actions()]
    assert names[:2] == ["second.battle.json", "elchingen-1805.battle.json"]
    window.actions.recent_menu.actions()[1].trigger()
    assert window.document.path == ELCHINGEN


def test_status_bar_cursor_and_zoom(window):
    window.map_view.cursor_moved.emit(100.0, 50.0)
    text = window.cursor_label.text()
    assert "x 100.0 cm, y 50.0 cm" in text and "3,000 m, 1,500 m" in text  # 30 m of ground per cm
    window.zoom_100()
    assert window.zoom_label.text() == "Zoom 100 %"
    window.zoom_in()
    assert window.zoom_label.text() == "Zoom 125 %"
    window.set_tool("measure")
    assert window.hint_label.text() == window.map_view.tool.hint and window.actions.tools["measure"].isChecked()


def test_layout_is_kept_in_settings(qtbot, tmp_path, modals):
    w = make_window(qtbot, tmp_path)
    w.docks["problems"].hide()
    w.close()
    assert w.settings.window_state()[1] is not None
    w2 = make_window(qtbot, tmp_path)
    assert w2.docks["problems"].isHidden() and not w2.docks["oob"].isHidden()


def test_copy_paste_duplicate_and_cut(window):
    s = window.document.scenario
    uid = next(iter(s.units))
    sup = s.oob.superior(uid)
    x, y = s.units[uid].position
    window.document.set_selection({uid})
    window.actions["copy"].trigger()
    window.actions["paste"].trigger()
    (new,) = window.document.selection
    assert new != uid and s.units[new].name == s.units[uid].name
    assert s.units[new].position == (x + 5.0, y - 5.0) and s.oob.superior(new) == sup
    assert window.document.undo_text == f"Paste {s.units[uid].name}"
    window.actions["duplicate"].trigger()
    assert window.document.undo_text.startswith("Duplicate") and len(window.document.selection) == 1
    count = len(s.units)
    window.document.set_selection({uid})
    window.actions["cut"].trigger()
    assert uid not in s.units and len(s.units) == count - 1
    window.actions["paste"].trigger()
    assert len(s.units) == count
    while window.document.can_undo:
        window.document.undo()
    assert window.document.scenario == store.load(ELCHINGEN).scenario


def test_export_image(window, tmp_path):
    out = tmp_path / "map.png"
    assert window.files.export_image(out)
    from PySide6.QtGui import QImage

    from battlestudio.ui.map_export import PageSpec, page_layout

    img = QImage(str(out))
    w, h = window.document.scenario.info.table_width, window.document.scenario.info.table_height
    lay = page_layout(PageSpec(), (w, h))  # the export-map page: title band, the table, legend band
    assert (img.width(), img.height()) == (1800, round(lay.height))
    assert abs(lay.map_rect.width() / lay.map_rect.height() - w / h) < 0.25


def test_new_window_without_document_is_untitled(qtbot, tmp_path, modals):
    w = make_window(qtbot, tmp_path)
    assert w.windowTitle() == "Untitled[*] — BattleStudio" and set(w.document.scenario.sides) == {"blue", "red"}
    assert QApplication.instance() is not None


def test_problem_double_click_selects_and_centres(window, qtbot):
    s = window.document.scenario
    uid = next(iter(s.units))
    window.document.push(MoveRecords("units", {uid: (235.0, 175.0)}, None, "Move to the corner"))
    panel = window.problems_panel
    panel.check()
    item = next(panel.rows()[i] for i in range(len(panel.rows())) if panel.rows()[i].text(1) == "unit.off_table")
    window.zoom_100()
    panel.list.itemActivated.emit(item, 0)
    assert window.document.selection == {uid}
    centre = window.map_view.table_pos(window.map_view.viewport().rect().center())
    assert abs(centre[0] - 235.0) < 30 and abs(centre[1] - 175.0) < 30  # as near as the scroll range allows


def test_failed_recent_file_that_vanished_is_forgotten(window, tmp_path):
    gone = tmp_path / "gone.battle.json"
    store.save(store.load(ELCHINGEN), gone)
    window.files.open_path(gone)
    gone.unlink()
    assert not window.files.open_path(gone)
    assert gone.resolve() not in window.settings.recent_files()


def test_every_tool_has_an_icon_and_a_checkable_action(window):
    from battlestudio.ui.tools import tool_names

    assert list(window.actions.tools) == tool_names()
    for name, action in window.actions.tools.items():
        assert not action.icon().isNull(), name
        action.trigger()
        assert window.map_view.tool.name == name and action.isChecked()


def test_save_never_overwrites_a_bundled_scenario(window, modals, tmp_path):
    original = ELCHINGEN.read_bytes()
    window.document.push(MoveRecords("units", {next(iter(window.document.scenario.units)): (9.0, 9.0)}, None, "Move"))
    modals.save_name = ""  # the user cancels the Save As that Save turns into
    assert not window.files.save()
    assert ELCHINGEN.read_bytes() == original and window.isWindowModified()
    modals.save_name = str(tmp_path / "my-elchingen.battle.json")
    assert window.files.save()
    assert window.document.path == tmp_path / "my-elchingen.battle.json" and ELCHINGEN.read_bytes() == original


def test_tree_double_click_centres_and_place_on_map_uses_the_view_centre(window):
    s = window.document.scenario
    cid = next(iter(s.commanders))
    window.zoom_100()
    window.oob_panel.centre_requested.emit(cid)
    centre = window.map_view.table_pos(window.map_view.viewport().rect().center())
    x, y = s.commanders[cid].position
    assert abs(centre[0] - x) < 1.0 and abs(centre[1] - y) < 1.0
    uid = next(iter(s.units))
    window.oob_panel.place_requested.emit([uid])
    assert window.document.undo_text.startswith("Place")
    ux, uy = s.units[uid].position
    assert abs(ux - centre[0]) < 1.0 and abs(uy - centre[1]) < 1.0


def test_first_start_takes_most_of_the_screen_and_leaves_the_map_the_room(qtbot, tmp_path, modals):
    from battlestudio.ui.main_window import BOTTOM_DOCK_HEIGHT

    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(ELCHINGEN.with_name("jena-1806.battle.json"))  # a recorded game: Replay dock shown
    area = w.screen().availableGeometry()
    assert w.width() >= 0.85 * area.width() and w.height() >= 0.85 * area.height()
    replay = w.play_view.dock
    qtbot.waitUntil(lambda: replay.height() <= BOTTOM_DOCK_HEIGHT + 20)
    assert replay.isVisible() and replay.height() >= 150
    assert w.map_view.height() > 1.5 * replay.height()


def test_saved_window_size_wins_over_the_first_start_size(qtbot, tmp_path, modals):
    w = make_window(qtbot, tmp_path)
    first = w.size()
    w.resize(first.width() - 30, first.height() - 90)
    qtbot.waitUntil(lambda: w.size() != first)
    saved = w.size()
    w.close()
    w2 = make_window(qtbot, tmp_path)
    assert w2.size() == saved != first
