"""Helpers for the main-window tests: an isolated window and recorders for modal dialogs.

Every window gets its settings in an INI file and its recovery folder under ``tmp_path``, so
tests never touch the user's configuration; ``ModalRecorder`` replaces the static
``QMessageBox``/``QFileDialog`` functions so nothing blocks.
"""

from __future__ import annotations

import os
import shutil

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
        self.choice_answer = "Cancel"
        """The button (by its text) clicked in a message box shown with ``exec`` (``dialogs.ask_file_changed``)."""
        rec = self

        def box(kind):
            def show(parent, title, text, *args, **kwargs):
                rec.calls.append((kind, title, text))
                return rec.question_answer if kind == "question" else QMessageBox.StandardButton.Ok

            return show

        for kind in ("critical", "warning", "information", "question"):
            monkeypatch.setattr(QMessageBox, kind, staticmethod(box(kind)))

        def exec_box(box):
            rec.calls.append(("choice", box.windowTitle(), box.text()))
            for button in box.buttons():  # none matching: closed without a click (Escape)
                if button.text().replace("&", "") == rec.choice_answer:
                    button.click()
                    break
            return 0

        monkeypatch.setattr(QMessageBox, "exec", exec_box)
        monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(lambda *a, **k: (rec.save_name, "")))
        monkeypatch.setattr(QFileDialog, "getOpenFileName", staticmethod(lambda *a, **k: (rec.open_name, "")))

    def of(self, kind: str) -> list[tuple[str, str, str]]:
        return [c for c in self.calls if c[0] == kind]


def make_window(
    qtbot, tmp_path: Path, document: Document | None = None, show: bool = True, recovery: RecoveryStore | None = None
) -> MainWindow:
    """A MainWindow with settings and recovery folder under ``tmp_path`` (or ``recovery``)."""
    w = MainWindow(Settings.at(tmp_path / "settings.ini"), recovery or RecoveryStore(tmp_path / "recovery"), document)
    qtbot.addWidget(w, before_close_func=_forget_unsaved)
    if show:
        w.show()
        qtbot.waitExposed(w)
    return w


def _forget_unsaved(w: MainWindow) -> None:
    """At teardown, a window whose document is still modified would ask to save in a modal
    box with nobody to answer, and the suite would hang there: mark it saved first."""
    if w.files.document.is_modified:
        w.files.document.mark_saved()


def px(view, point: tuple[float, float]):
    """Viewport pixel of a table point (cm) on ``view`` (a MapView)."""
    from battlestudio.ui.coords import table_to_scene

    return view.mapFromScene(table_to_scene(*point))


def mouse(view, kind: str, pos, button=None, modifiers=None) -> None:
    """Send one mouse event (``press``, ``move``, ``release``) to the map's viewport at ``pos``."""
    from PySide6.QtCore import QEvent, QPointF, Qt
    from PySide6.QtGui import QMouseEvent
    from PySide6.QtWidgets import QApplication

    b = button or Qt.MouseButton.LeftButton
    mods = modifiers or Qt.KeyboardModifier.NoModifier
    etype, btn, held = {
        "press": (QEvent.Type.MouseButtonPress, b, b),
        "move": (QEvent.Type.MouseMove, Qt.MouseButton.NoButton, b),
        "release": (QEvent.Type.MouseButtonRelease, b, Qt.MouseButton.NoButton),
    }[kind]
    vp = view.viewport()
    QApplication.sendEvent(vp, QMouseEvent(etype, QPointF(pos), QPointF(vp.mapToGlobal(pos)), btn, held, mods))


def drag(view, start, end, steps: int = 6, modifiers=None) -> None:
    """Press at ``start``, move in ``steps`` to ``end``, release (viewport pixels)."""
    from PySide6.QtCore import QPoint

    mouse(view, "press", start, modifiers=modifiers)
    for i in range(1, steps + 1):
        mouse(
            view,
            "move",
            QPoint(start.x() + (end.x() - start.x()) * i // steps, start.y() + (end.y() - start.y()) * i // steps),
            modifiers=modifiers,
        )
    mouse(view, "release", end, modifiers=modifiers)


def drop_on_tree(panel, source_id: str, target_id: str) -> bool:
    """Drag ``source_id``'s row of an OobPanel onto ``target_id``'s row through the view's own
    drag-enter/move/drop handling; True if the view accepted the move."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
    from PySide6.QtWidgets import QApplication

    tree = panel.tree
    tree.scrollTo(panel.index_of(target_id))
    mime = panel.proxy.mimeData([panel.index_of(source_id)])
    pos = tree.visualRect(panel.index_of(target_id)).center()
    act, btn, mods = Qt.DropAction.MoveAction, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    vp = tree.viewport()
    QApplication.sendEvent(vp, QDragEnterEvent(pos, act, mime, btn, mods))
    move = QDragMoveEvent(pos, act, mime, btn, mods)
    QApplication.sendEvent(vp, move)
    QApplication.sendEvent(vp, QDropEvent(pos.toPointF(), act, mime, btn, mods))
    return move.isAccepted()


NO_XVFB = shutil.which("xvfb-run") is None and not os.environ.get("CI")
"""Skip the xcb-platform checks where xvfb-run is missing, except on CI (which installs it:
there a missing xvfb-run fails them instead of hiding them)."""
