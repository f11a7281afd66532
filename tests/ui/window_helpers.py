"""Helpers for the main-window tests: an isolated window and recorders for modal dialogs.

Every window gets its settings in an INI file and its recovery folder under ``tmp_path``, so
tests never touch the user's configuration; ``ModalRecorder`` replaces the static
``QMessageBox``/``QFileDialog`` functions so nothing blocks.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QMessageBox

from battlestudio.document import Document
from battlestudio.ui.main_window import MainWindow
from battlestudio.ui.recovery import RecoveryStore
from battlestudio.ui.resources import bundled_scenarios
from battlestudio.ui.settings import Settings

ELCHINGEN = next(p for p in bundled_scenarios() if p.name == "elchingen-1805.battle.json")


class ModalRecorder:
    """Stands in for modal dialogs: records each call and gives scripted answers."""

    def __init__(self, monkeypatch) -> None:
        self.calls: list[tuple[str, str, str]] = []
        self.question_answer = QMessageBox.StandardButton.Discard
        self.save_name = ""
        self.open_name = ""
        rec = self

        def box(kind):
            def show(parent, title, text, *args, **kwargs):
                rec.calls.append((kind, title, text))
                return rec.question_answer if kind == "question" else QMessageBox.StandardButton.Ok
            return show

        for kind in ("critical", "warning", "information", "question"):
            monkeypatch.setattr(QMessageBox, kind, staticmethod(box(kind)))
        monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (rec.save_name, "")))
        monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (rec.open_name, "")))

    def of(self, kind: str) -> list[tuple[str, str, str]]:
        return [c for c in self.calls if c[0] == kind]


def make_window(qtbot, tmp_path: Path, document: Document | None = None, show: bool = True) -> MainWindow:
    """A MainWindow with settings and recovery folder under ``tmp_path``."""
    w = MainWindow(Settings.at(tmp_path / "settings.ini"), RecoveryStore(tmp_path / "recovery"), document)
    qtbot.addWidget(w)
    if show:
        w.show()
        qtbot.waitExposed(w)
    return w
