"""File ▸ Import ORBAT Mapper… and File ▸ Export ORBAT Mapper… driven through the window's
real menu actions: an ORBAT Mapper fixture comes in as a new unsaved, replayable document with
every unit; a bad file leaves the open document as it was; the bundled Jena goes out, once it
is georeferenced, as a file that satisfies ORBAT Mapper's 3.4.0 schema, and is refused before."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QMessageBox

from battlestudio.model.georef import Georeference
from battlestudio.play.document import PlayDocument
from battlestudio.ui.georef_dialog import GeorefDialog
from battlestudio.ui.orbat_mapper_dialogs import OrbatMapperImportDialog
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window

REPO = Path(__file__).resolve().parents[2]
ISSUE663 = REPO / "tests" / "data" / "orbat-mapper" / "issue663Scenario.json"
JENA = ELCHINGEN.parent / "jena-1806.battle.json"
SCHEMA = REPO / "resources" / "schemas" / "orbat-mapper-3.4.0.schema.json"
JENA_GEOREF = Georeference(11.40, 50.90, 90.0)


def count_units(node: Any) -> int:
    """ORBAT Mapper units anywhere below ``node``: every object in a ``subUnits`` list."""
    if isinstance(node, list):
        return sum(count_units(n) for n in node)
    if not isinstance(node, dict):
        return 0
    units = node.get("subUnits") or []
    return len(units) + sum(count_units(v) for v in node.values() if isinstance(v, (list, dict)))


@pytest.fixture
def modals(monkeypatch) -> ModalRecorder:
    return ModalRecorder(monkeypatch)


@pytest.fixture
def window(qtbot, tmp_path, modals):
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(ELCHINGEN)
    return w


def _with_import_dialog(act) -> dict[str, Any]:
    """Run ``act(dialog)`` on the import dialog once it is open (modal), recording what it saw."""
    seen: dict[str, Any] = {}

    def poke() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, OrbatMapperImportDialog):
            QTimer.singleShot(20, poke)
            return
        seen["dialog"] = dialog
        act(dialog, seen)

    QTimer.singleShot(0, poke)
    return seen


def test_import_opens_a_new_unsaved_replayable_document_with_every_unit(window, modals, qtbot):
    before = window.document
    modals.open_name = str(ISSUE663)
    units_in = count_units(json.loads(ISSUE663.read_text(encoding="utf-8")))

    def act(dialog: OrbatMapperImportDialog, seen: dict[str, Any]) -> None:
        seen["start"] = dialog.start.dateTime().toString("yyyy-MM-ddTHH:mm:ss")
        seen["minutes"] = dialog.minutes.value()
        seen["derive"] = dialog.derive.isChecked()
        dialog.minutes.setValue(30)
        seen["summary"] = dialog.summary.text()
        seen["warnings"] = [dialog.warnings.item(i).text() for i in range(dialog.warnings.count())]
        dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()

    seen = _with_import_dialog(act)
    window.actions["import_orbat_mapper"].trigger()

    assert seen["start"] == "2026-08-08T08:00:00" and seen["minutes"] == 15 and seen["derive"]
    assert f"Commanders: 1, units: 2 (of {units_in} ORBAT Mapper units)" in seen["summary"]
    assert "Recorded events: " in seen["summary"] and "turns of 30 min" in seen["summary"]
    assert "at 30 m/cm (1 m = 3 km, Torden over Europa 1.1)" in seen["summary"]
    assert any("georeference derived" in w for w in seen["warnings"])
    assert any("$.sides[0].groups[0].subUnits[0].subUnits[0].state[0]" in w for w in seen["warnings"])

    doc = window.document
    assert doc is not before and doc.path is None and doc.is_modified
    assert isinstance(doc, PlayDocument)  # the recorded game opens ready to replay
    sc = doc.battle.scenario
    assert len(sc.units) + len(sc.commanders) == units_in == 3
    assert sc.info.turn_minutes == 30 and sc.info.georef is not None
    # 1.1: the batteries 5.60 km apart on the ground stand 186.6 cm apart on the table
    alpha, bravo = sc.units["alpha-battery"].position, sc.units["bravo-battery"].position
    assert math.dist(alpha, bravo) == pytest.approx(186.6, abs=0.5)
    doc.timeline.to_end()  # replays every imported event
    assert doc.timeline.position == len(doc.log) and len(doc.log) > 0
    assert not modals.of("critical")
    assert "Imported issue663Scenario.json" in window.statusBar().currentMessage()


def test_import_with_a_typed_georeference_and_cancel_keeps_the_document(window, modals):
    before = window.document
    modals.open_name = str(ISSUE663)

    def act(dialog: OrbatMapperImportDialog, seen: dict[str, Any]) -> None:
        dialog.given.setChecked(True)
        dialog.lon.setValue(10.6)
        dialog.lat.setValue(59.8)
        seen["georef"] = dialog.result_import.georef if dialog.result_import else None
        dialog.reject()

    seen = _with_import_dialog(act)
    window.actions["import_orbat_mapper"].trigger()
    assert seen["georef"] == Georeference(10.6, 59.8, 90.0)
    assert window.document is before and not before.is_modified


def test_a_bad_file_names_the_json_path_and_leaves_the_document_untouched(window, modals, tmp_path):
    before = window.document
    revision = before.revision
    doc = json.loads(ISSUE663.read_text(encoding="utf-8"))
    del doc["sides"][0]["groups"][0]["subUnits"][0]["subUnits"][1]["id"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    modals.open_name = str(bad)
    window.actions["import_orbat_mapper"].trigger()
    ((_kind, title, text),) = modals.of("critical")
    assert title == "Could not import ORBAT Mapper file"
    assert str(bad) in text and "$.sides[0].groups[0].subUnits[0].subUnits[1].id" in text
    assert window.document is before and before.revision == revision and not before.is_modified
    assert QApplication.activeModalWidget() is None


def test_export_refuses_without_a_georeference_then_writes_a_valid_file(window, modals, qtbot, tmp_path):
    assert window.files.open_path(JENA, ask=False)
    assert window.document.battle.scenario.info.georef is None
    out = tmp_path / "jena.json"
    modals.save_name = str(out)
    modals.question_answer = QMessageBox.StandardButton.No
    window.actions["export_orbat_mapper"].trigger()
    ((_kind, title, text),) = modals.of("question")
    assert title == "No georeference" and "nothing is exported" in text
    assert not out.exists() and window.findChild(GeorefDialog) is None

    window.play_view.actions["editor"].trigger()  # the georeference is set in the editor
    modals.question_answer = QMessageBox.StandardButton.Yes
    window.actions["export_orbat_mapper"].trigger()
    dialog = window.findChild(GeorefDialog)
    assert dialog is not None and not out.exists()
    qtbot.waitExposed(dialog)
    dialog.lon.setValue(JENA_GEOREF.lon)
    dialog.lat.setValue(JENA_GEOREF.lat)
    dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).click()
    assert window.document.scenario.info.georef == JENA_GEOREF

    modals.save_name = str(tmp_path / "jena")  # the suffix is added
    window.actions["export_orbat_mapper"].trigger()
    data = json.loads(out.read_text(encoding="utf-8"))
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(data)] == []
    sc = window.document.scenario
    assert count_units(data) == len(sc.units) + len(sc.commanders)
    assert sorted(p.name for p in tmp_path.iterdir() if p.suffix == ".json") == ["jena.json"]
    message = window.statusBar().currentMessage()
    assert message.startswith(f"Exported {out} (ORBAT Mapper 3.4.0") and f"{len(sc.units)} units" in message

    modals.save_name = str(tmp_path / "no" / "such" / "x.json")
    window.actions["export_orbat_mapper"].trigger()
    ((_kind, title, text),) = modals.of("critical")
    assert title == "Could not export ORBAT Mapper" and str(tmp_path / "no") in text
    assert not (tmp_path / "no").exists()
