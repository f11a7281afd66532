"""File ▸ Import… of a hand-made CSV with odd headers: the column mapping set in the dialog's
table (the guess corrected with the keyboard), the first rows shown as they import, estimates
warned about by row, the mapping saved as TOML and loaded back into a second dialog, and a
command row's stated strength shown in Properties beside the sum of its units."""

from __future__ import annotations

import tomllib
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QDialogButtonBox, QFileDialog

from battlestudio.store.importers.tabular_mapping import load_mapping
from battlestudio.ui.import_dialog import ImportDialog
from tests.ui.window_helpers import ModalRecorder, make_window

ODD = Path(__file__).parents[1] / "data/import/odd-headers.csv"


def _type(qtbot, edit, text: str) -> None:
    edit.clear()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def _choose(qtbot, box: QComboBox, field: str) -> None:
    """Pick ``field`` in a column's combo with the keyboard, from the top."""
    box.setFocus()
    qtbot.keyClick(box, Qt.Key.Key_Home)
    for _ in range(box.count()):
        if box.currentData() == field:
            return
        qtbot.keyClick(box, Qt.Key.Key_Down)
    assert box.currentData() == field, f"{field!r} not offered"


def _wheel(widget) -> None:
    """One notch of the mouse wheel over ``widget`` (which has not the focus)."""
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication

    at = QPointF(widget.rect().center())
    glob = QPointF(widget.mapToGlobal(QPoint(int(at.x()), int(at.y()))))
    mods, phase = Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase
    QApplication.sendEvent(
        widget, QWheelEvent(at, glob, QPoint(0, 0), QPoint(0, -120), Qt.MouseButton.NoButton, mods, phase, False)
    )


def _rows(d: ImportDialog) -> dict[str, list[str]]:
    t = d.rows_table
    return {
        t.item(r, 0).text(): [t.item(r, c).text() if t.item(r, c) else "" for c in range(t.columnCount())]
        for r in range(t.rowCount())
    }


def test_odd_headers_mapped_in_the_dialog_saved_and_loaded_again(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    saved = tmp_path / "klenau.toml"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (str(saved), "")))
    seen: list[ImportDialog] = []

    def script(d: ImportDialog) -> None:
        seen.append(d)
        _type(qtbot, d.files_edit, str(ODD))
        assert d.format() == "csv" and not d.mapping_box.isHidden()
        table = d.columns_table
        assert [table.item(r, 0).text() for r in range(table.rowCount())][:4] == [
            "Ref",
            "Reports To",
            "Formation",
            "Général",
        ]
        assert "Klenau" in table.item(3, 2).text()  # the first values of each column
        # the guess: a parent column but no id column, no side column
        assert d.field_box("Ref").currentData() == "" and d.field_box("Reports To").currentData() == "parent"
        assert (d.field_box("Bayonets").currentData(), d.field_box("Sabres").currentData()) == ("men", "men")
        assert d.imported is None and "parent id column" in d.status.text() and "--map" not in d.status.text()
        _wheel(d.field_box("Bayonets"))  # scrolling the list over a column's combo changes nothing
        assert d.field_box("Bayonets").currentData() == "men"
        ok = d.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert not ok.isEnabled()
        _choose(qtbot, d.field_box("Ref"), "id")
        assert d.imported is not None, d.status.text()
        assert {u.side for u in d.imported.scenario.units.values()} == {"side"}  # no side column read yet
        _choose(qtbot, d.field_box("Camp"), "side")
        assert {u.side for u in d.imported.scenario.units.values()} == {"allied"}
        # the first rows as they import, before the conversion; estimates marked
        rows = _rows(d)
        assert rows["2"][1:4] == ["command (army)", "Armee de Boheme (part)", "allied"]
        assert rows["2"][6] == "26,500 (est.) stated"
        assert rows["4"][1:8] == [
            "unit",
            "IR Erzherzog Karl",
            "allied",
            "infantry",
            "line_infantry",
            "2,400 (est.)",
            "",
        ]
        assert rows["6"][4:8] == ["cavalry", "light_cavalry", "720 (est.)", "6"]
        shown = [d.warnings.item(i).text() for i in range(d.warnings.count())]
        assert f"{ODD}:4: warning: column 'Bayonets': 'c. 2400' read as an estimate of 2,400" in "\n".join(shown)
        assert any("Artillery Reserve (" in x and "artillery command removed" in x for x in shown)
        # save the mapping as TOML: import-oob reads the same file
        qtbot.mouseClick(d.mapping_save, Qt.MouseButton.LeftButton)
        assert d.mapping_edit.text() == str(saved)
        qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)

    monkeypatch.setattr(ImportDialog, "exec", lambda self: script(self) or self.result())
    w.actions["import"].trigger()
    assert seen and w.document.path is None
    sc = w.document.scenario
    assert {u.name for u in sc.units.values()} >= {"IR Erzherzog Karl", "Grenz-Jäger", "Chevaulegers Hohenzollern"}
    m = load_mapping(saved)
    assert m.hierarchy == {"id": "Ref", "parent": "Reports To"} and m.columns["side"] == "Camp"
    assert m.columns["men"] == ["Bayonets", "Sabres"] and m.columns["subtype"] == "Kind"
    assert tomllib.loads(saved.read_text(encoding="utf-8"))["columns"]["figures"] == "Figs"

    # Properties: the army row's stated strength beside its units (the guns left off the table count)
    klenau = next(c for c in sc.commanders.values() if c.name == "Klenau")
    w.document.set_selection([klenau.id])
    label = w.properties_panel.stated_label
    assert label.text() == (
        "26,500 men stated, 5,530 in its units; 40 guns stated, 24 in its units (an estimate) — they disagree"
    )

    # a second dialog loads the saved mapping into its table
    def again(d: ImportDialog) -> None:
        _type(qtbot, d.files_edit, str(ODD))
        _type(qtbot, d.mapping_edit, str(saved))
        assert d.field_box("Ref").currentData() == "id" and d.field_box("Camp").currentData() == "side"
        assert d.imported is not None
        assert d.imported.scenario.sources[-1].note == "imported from odd-headers.csv with mapping klenau.toml"
        _choose(qtbot, d.field_box("Figs"), "")  # changed in the table: the table's mapping is read, not the file
        assert d.imported.scenario.sources[-1].note == "imported from odd-headers.csv with a column mapping"
        d.reject()

    monkeypatch.setattr(ImportDialog, "exec", lambda self: again(self) or self.result())
    w.actions["import"].trigger()


def test_a_table_that_cannot_be_read_says_why(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    empty = tmp_path / "empty.csv"
    empty.write_text("", encoding="utf-8")
    said: list[str] = []

    def script(d: ImportDialog) -> None:
        _type(qtbot, d.files_edit, str(tmp_path / "missing.csv"))
        said.append(d.status.text())
        _type(qtbot, d.files_edit, str(empty))
        said.append(d.status.text())
        bad = tmp_path / "bad.toml"
        bad.write_text("[hierarchy]\nlevels = 3\n", encoding="utf-8")
        _type(qtbot, d.files_edit, str(ODD))
        _type(qtbot, d.mapping_edit, str(bad))
        said.append(d.status.text())
        assert d.imported is None and not d.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled()
        d.reject()

    monkeypatch.setattr(ImportDialog, "exec", lambda self: script(self) or self.result())
    w.actions["import"].trigger()
    assert "Cannot import" in said[0] and "missing.csv: cannot read file" in said[0]
    assert "empty.csv: row 1: no header" in said[1]
    assert "Cannot read the mapping" in said[2] and "bad.toml: [hierarchy] levels = 3" in said[2]
    assert not any("--map" in x for x in said)
