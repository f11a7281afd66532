"""Starting the editor: default bundled scenario, a file from the command line, a bad file,
and a recovery copy taking precedence; where bundled files are found."""

from __future__ import annotations

import os

from PySide6.QtWidgets import QMessageBox

from battlestudio import store
from battlestudio.ui import resources
from battlestudio.ui.app import create
from battlestudio.ui.recovery import RecoveryStore
from battlestudio.ui.settings import Settings
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder


def start(qtbot, tmp_path, path=None):
    app, w = create(path, settings=Settings.at(tmp_path / "s.ini"), recovery=RecoveryStore(tmp_path / "rec"))
    qtbot.addWidget(w)
    return w


def test_no_path_opens_the_bundled_default_scenario(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = start(qtbot, tmp_path)
    assert resources.default_scenario() == ELCHINGEN
    assert w.document.path == ELCHINGEN and w.isVisible()
    assert w.document.scenario.info.title == "Elchingen 1805"


def test_path_from_command_line(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    other = tmp_path / "mine.battle"
    store.save(store.load(ELCHINGEN), other)
    assert start(qtbot, tmp_path, str(other)).document.path == other


def test_bad_path_reports_and_starts_empty(qtbot, tmp_path, monkeypatch):
    modals = ModalRecorder(monkeypatch)
    bad = tmp_path / "bad.battle.json"
    bad.write_text("[1, 2")
    w = start(qtbot, tmp_path, str(bad))
    assert "bad.battle.json" in modals.of("critical")[0][2]
    assert w.document.path is None and w.windowTitle() == "Untitled[*] — BattleStudio"


def test_recovery_copy_is_offered_before_opening_anything(qtbot, tmp_path, monkeypatch):
    from battlestudio.document import Document
    from battlestudio.edits import SetInfo

    doc = Document(store.load(ELCHINGEN), ELCHINGEN)
    doc.push(SetInfo({"title": "Elchingen (my version)"}))
    old = RecoveryStore(tmp_path / "rec")
    old.write(doc)
    old.meta_path.write_text(old.meta_path.read_text().replace(f'"pid": {os.getpid()}', '"pid": 0'))
    modals = ModalRecorder(monkeypatch)
    modals.question_answer = QMessageBox.StandardButton.Yes
    w = start(qtbot, tmp_path)
    assert w.document.scenario.info.title == "Elchingen (my version)" and w.document.path == ELCHINGEN
    assert w.isWindowModified()


def test_resource_lookup():
    assert resources.is_battle_file("a/Jena.BATTLE.json") and resources.is_battle_file("x.battle")
    assert not resources.is_battle_file("x.json")
    assert ELCHINGEN in resources.bundled_scenarios()
    assert resources.resource("rulesets", "toe.toml").name == "toe.toml"
    assert resources.resource("rulesets", "nothing.toml") is None
