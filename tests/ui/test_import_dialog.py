"""File ▸ Import…: a republique5 .oob into a new side of the open document (one undo step), a
CSV with its TOML mapping into a new document, and a file that cannot be imported."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox

from battlestudio.ui.import_dialog import NEW_SIDE, ImportDialog
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window

SHARED = Path("/work/shared/data/oob")
OOB = SHARED / "republique5/scenarios/leipzig-1813/Austrian-3-Corps.oob"
CSV = SHARED / "waterloo-1815-from-pages.csv"
MAPPING = Path(__file__).parents[1] / "store/importers/data/waterloo_levels.toml"


def _type(qtbot, edit, text: str) -> None:
    edit.clear()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def _ok(dialog: ImportDialog):
    return dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)


def _run(monkeypatch, script) -> list[ImportDialog]:
    seen: list[ImportDialog] = []

    def fake_exec(self: ImportDialog) -> int:
        seen.append(self)
        script(self)
        return self.result()

    monkeypatch.setattr(ImportDialog, "exec", fake_exec)
    return seen


def test_oob_into_a_new_side_of_the_open_document_is_one_undo_step(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(ELCHINGEN)
    doc = w.document
    units, cmds, sides = len(doc.scenario.units), len(doc.scenario.commanders), dict(doc.scenario.sides)
    old_ids = set(doc.scenario.units)
    steps = doc.undo_count

    def script(d: ImportDialog) -> None:
        _type(qtbot, d.files_edit, str(OOB))
        assert d.format() == "oob"
        assert d.tree.topLevelItemCount() >= 1  # the preview: the corps and its subordinates
        top = d.tree.topLevelItem(0)
        assert top.childCount() > 0
        shown = [d.tree.topLevelItem(0).child(i) for i in range(top.childCount())]
        assert any(int(it.text(4) or 0) > 0 for c in shown for it in [c, *[c.child(j) for j in range(c.childCount())]])
        assert not _ok(d).isEnabled() or d.new_doc.isChecked()
        d.into_doc.click()
        d.side_box.setCurrentIndex(d.side_box.findData(NEW_SIDE))
        assert not _ok(d).isEnabled()  # a new side needs a name
        qtbot.keyClicks(d.side_name, "Austrian army")
        assert _ok(d).isEnabled()
        qtbot.mouseClick(_ok(d), Qt.MouseButton.LeftButton)

    seen = _run(monkeypatch, script)
    w.actions["import"].trigger()
    assert seen and seen[0].result() == QDialog.DialogCode.Accepted
    sc = w.document.scenario
    res = seen[0].imported
    assert res is not None
    assert len(sc.units) == units + len(res.scenario.units)
    assert len(sc.commanders) == cmds + len(res.scenario.commanders)
    new = [s for s in sc.sides.values() if s.id not in sides]
    assert [s.name for s in new] == ["Austrian army"]
    assert new[0].colour not in {s.colour for s in sides.values()}
    assert {u.side for u in sc.units.values() if u.id not in old_ids} == {new[0].id}
    assert all(sc.oob.superior(i) is not None for i in sc.units if i not in old_ids)  # the tree came along
    assert w.document.undo_count == steps + 1
    assert w.document.selection  # the imported forces are selected
    w.actions["undo"].trigger()
    assert len(sc.units) == units and len(sc.commanders) == cmds and dict(sc.sides) == sides


def test_csv_with_mapping_into_a_new_document(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)  # the unsaved import is discarded when the test closes the window
    w = make_window(qtbot, tmp_path)

    def script(d: ImportDialog) -> None:
        _type(qtbot, d.files_edit, str(CSV))
        # the columns are guessed from the header: one per echelon, the rest by name
        assert [d.field_box(c).currentData() for c in ("army", "corps", "division", "brigade")] == [
            "level 1",
            "level 2",
            "level 3",
            "level 4",
        ]
        assert d.imported is not None and "--map" not in d.status.text()
        assert set(d.imported.scenario.sides) == {"french", "anglo-allied", "prussian"}  # the side names slugged
        _type(qtbot, d.mapping_edit, str(MAPPING))  # the mapping file's [values.side] renames them
        assert d.imported is not None, d.status.text()
        assert "french" in d.status.text()
        qtbot.mouseClick(_ok(d), Qt.MouseButton.LeftButton)

    _run(monkeypatch, script)
    w.actions["import"].trigger()
    sc = w.document.scenario
    assert set(sc.sides) == {"french", "allied", "prussian"}
    colours = [s.colour for s in sc.sides.values()]
    assert len(set(colours)) == 3  # distinct default colours per nation
    assert w.document.is_modified and w.document.path is None


def test_a_file_that_cannot_be_imported_says_why_and_changes_nothing(qtbot, tmp_path, monkeypatch):
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(ELCHINGEN)
    before = len(w.document.scenario.units)
    bad = tmp_path / "broken.oob"
    bad.write_bytes(b"\x00\x01garbage")
    rec = ModalRecorder(monkeypatch)

    def script(d: ImportDialog) -> None:
        _type(qtbot, d.files_edit, str(bad))
        assert "Cannot import" in d.status.text() and "broken.oob" in d.status.text()
        assert "NUL byte" in d.status.text()
        assert not _ok(d).isEnabled()
        d.reject()

    _run(monkeypatch, script)
    w.actions["import"].trigger()
    assert len(w.document.scenario.units) == before and not w.document.can_undo
    assert not rec.calls


def test_importing_into_a_shown_game_is_refused_with_the_reason(qtbot, tmp_path, monkeypatch):
    """A tester's report: during a game the import said "Imported …" and added nothing."""
    modals = ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(ELCHINGEN)
    w.play_view.actions["start"].trigger()
    doc = w.document
    units, events = len(doc.scenario.units), len(doc.log)

    def script(d: ImportDialog) -> None:
        _type(qtbot, d.files_edit, str(OOB))
        d.into_doc.click()
        qtbot.mouseClick(_ok(d), Qt.MouseButton.LeftButton)

    _run(monkeypatch, script)
    w.actions["import"].trigger()
    assert len(w.document.scenario.units) == units and len(w.document.log) == events
    ((kind, title, text),) = modals.of("critical")
    assert title == "Could not import" and "Back to Scenario Editor" in text and "as it was" in text
    assert not w.statusBar().currentMessage().startswith("Imported")
