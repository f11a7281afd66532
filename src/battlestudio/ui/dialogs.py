"""The editor's modal questions and file pickers, each one function.

Everything modal goes through the static ``QMessageBox``/``QFileDialog``/``QInputDialog``
helpers called here, so tests patch those and never block.
"""

from __future__ import annotations

from pathlib import Path

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
