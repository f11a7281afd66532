"""The editor's modal questions and file pickers, each one function.

Everything modal goes through the static ``QMessageBox``/``QFileDialog``/``QInputDialog``
helpers called here, so tests patch those and never block; the one question with buttons of its
own (``ask_file_changed``) is a ``QMessageBox`` shown with ``exec``, which ``ModalRecorder``
answers with ``choice_answer``.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget

FILE_FILTER = "BattleStudio documents (*.battle *.battle.json);;All files (*)"
IMAGE_FILTER = "PNG image (*.png);;JPEG image (*.jpg)"


def show_error(parent: QWidget | None, title: str, text: str) -> None:
    """A critical message box: ``title`` says what failed, ``text`` says what and where."""
    QMessageBox.critical(parent, title, text)


def show_notice(parent: QWidget | None, title: str, text: str) -> None:
    """An information box (e.g. why a drop was refused)."""
    QMessageBox.information(parent, title, text)


def ask_save_changes(parent: QWidget | None, name: str) -> str:
    """Ask whether to save ``name`` before it is closed.

    Returns
    -------
    str
        ``"save"``, ``"discard"`` or ``"cancel"``.
    """
    b = QMessageBox.StandardButton
    answer = QMessageBox.question(
        parent,
        "Unsaved changes",
        f"“{name}” has changes that are not saved.\nSave them before closing it?",
        b.Save | b.Discard | b.Cancel,
        b.Save,
    )
    return {b.Save: "save", b.Discard: "discard"}.get(answer, "cancel")


FILE_CHANGED_CHOICES = (("reload", "Reload"), ("save_as", "Save As…"), ("overwrite", "Overwrite"))
"""The answers to ``ask_file_changed`` besides Cancel: (key, button text)."""


def ask_file_changed(parent: QWidget | None, name: str, what: str) -> str:
    """Ask what to do when the file ``name`` was changed by another writer (``what``: how, a
    sentence from ``FileIdentity.still``) since this window opened or last saved it.

    Returns
    -------
    str
        ``"reload"`` (read the file again, dropping this window's changes), ``"save_as"``
        (keep both), ``"overwrite"`` (replace the other writer's version) or ``"cancel"``.
    """
    box = QMessageBox(parent)
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle("File changed on disk")
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setText(f"“{name}” {what}.")
    box.setInformativeText(
        "Reload reads it again and drops your changes here; Save As… keeps both versions; "
        "Overwrite replaces the other version with yours."
    )
    buttons = {}
    for key, label in FILE_CHANGED_CHOICES:
        role = QMessageBox.ButtonRole.DestructiveRole if key == "overwrite" else QMessageBox.ButtonRole.AcceptRole
        buttons[box.addButton(label, role)] = key
    cancel = box.addButton(QMessageBox.StandardButton.Cancel)
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    box.exec()
    return buttons.get(box.clickedButton(), "cancel")


def ask_replace_read_only(parent: QWidget | None, path: Path) -> bool:
    """Ask whether to replace the read-only file ``path`` (it stays read-only); True to replace."""
    b = QMessageBox.StandardButton
    answer = QMessageBox.question(
        parent,
        "Replace a read-only file?",
        f"{path} is read-only.\n\nReplace it with this version anyway? It stays read-only. "
        "(Cancel leaves it as it is; use Save As… to write another file.)",
        b.Save | b.Cancel,
        b.Cancel,
    )
    return answer == b.Save


def ask_restore(parent: QWidget | None, description: str) -> bool:
    """Offer to restore a recovered document; True to restore, False to discard it."""
    b = QMessageBox.StandardButton
    answer = QMessageBox.question(
        parent,
        "Recover unsaved work",
        f"BattleStudio did not close normally. A recovery copy was found:\n\n{description}\n\n"
        "Restore it? (No discards the copy.)",
        b.Yes | b.No,
        b.Yes,
    )
    return answer == b.Yes


def open_file(parent: QWidget | None, start: Path | None) -> Path | None:
    """Pick a document to open; None when cancelled."""
    name, _ = QFileDialog.getOpenFileName(parent, "Open battle", str(start or ""), FILE_FILTER)
    return Path(name) if name else None


def save_file(parent: QWidget | None, suggested: Path | None) -> Path | None:
    """Pick where to save; adds ``.battle`` when the name has no document suffix."""
    name, _ = QFileDialog.getSaveFileName(parent, "Save battle as", str(suggested or ""), FILE_FILTER)
    if not name:
        return None
    if not name.lower().endswith((".battle", ".battle.json")):
        name += ".battle"
    return Path(name)


def export_image_file(parent: QWidget | None, suggested: Path | None) -> Path | None:
    """Pick an image file to export the map to; adds ``.png`` when no suffix is given."""
    name, _ = QFileDialog.getSaveFileName(parent, "Export map image", str(suggested or ""), IMAGE_FILTER)
    if not name:
        return None
    if not name.lower().endswith((".png", ".jpg", ".jpeg")):
        name += ".png"
    return Path(name)


def ask_text(parent: QWidget | None, title: str, label: str, text: str = "") -> str | None:
    """A one-line text question (e.g. rename); None when cancelled or left empty."""
    value, ok = QInputDialog.getText(parent, title, label, text=text)
    value = value.strip()
    return value if ok and value else None
