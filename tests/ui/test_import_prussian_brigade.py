"""File ▸ Import… of a Prussian brigade into the open document (Torden over Europa 1.3, issue 16
D9): the dialog's preview and the imported order of battle read it with the document's year
and its ``prussian_brigade_years``: an undated source into a document of 1815 that keeps the
reading to 1806–1813 stays a brigade; into one of 1810 it acts as a division."""

from __future__ import annotations

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.ui.import_dialog import NEW_SIDE, ImportDialog
from tests.store.importers.test_prussian_brigade_years import WINDOW, klux, source
from tests.ui.test_import_dialog import _ok, _run, _type
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window


def _document(tmp_path, date: str):
    battle = store.load(ELCHINGEN)
    sc = battle.scenario
    sc.info = replace(sc.info, date=date, parameters={**sc.info.parameters, **WINDOW})
    path = tmp_path / f"elchingen-{date}.battle.json"
    store.save(Battle(sc, []), path)
    return path


@pytest.mark.parametrize("date, expected", [("1815-06-18", "brigade"), ("1810-07-01", "division")])
def test_import_into_the_document_reads_the_prussian_brigade_with_its_year(
    qtbot, tmp_path, monkeypatch, date, expected
):
    ModalRecorder(monkeypatch)  # the unsaved import is discarded when the test closes the window
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(_document(tmp_path, date), ask=False)
    undated = source(tmp_path, None)

    def script(d: ImportDialog) -> None:
        d.into_doc.click()
        _type(qtbot, d.files_edit, str(undated))
        assert d.imported is not None, d.status.text()
        assert klux(d.imported.scenario).echelon == expected  # the preview already reads it
        shown = [d.warnings.item(i).text() for i in range(d.warnings.count())]
        assert any("stays a brigade" in t for t in shown) == (expected == "brigade")
        d.side_box.setCurrentIndex(d.side_box.findData(NEW_SIDE))
        qtbot.keyClicks(d.side_name, "Prussian army")
        qtbot.mouseClick(_ok(d), Qt.MouseButton.LeftButton)

    seen = _run(monkeypatch, script)
    w.actions["import"].trigger()
    assert seen and seen[0].imported is not None
    assert klux(w.document.scenario).echelon == expected
