"""Deleting records: the delete tool (click to delete) and ``delete_selection`` for the menu.

Removing a unit or commander also removes it from the order of battle (``RemoveRecords``);
undo puts everything back, edges included.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from collections.abc import Iterable

from PySide6.QtCore import Qt
from PySide6.QtGui import QMouseEvent

from battlestudio.edits import Edit, RemoveRecords, combine, count_text
from battlestudio.ui.tools.base import Tool, kind_of

if TYPE_CHECKING:
    from battlestudio.document import Document


def delete_edit(document: Document, ids: Iterable[str]) -> Edit | None:
    """One edit removing the records ``ids`` (any kinds); None when none exists."""
    s = document.scenario
    kinds = {i: k for i in ids if (k := kind_of(document, i)) is not None}
    if not kinds:
        return None
    names = {i: getattr(getattr(s, k)[i], "name", "") for i, k in kinds.items()}
    text = count_text("Delete", kinds, kinds, names)
    edits: list[Edit] = []
    for kind in dict.fromkeys(kinds.values()):
        edits.append(RemoveRecords(kind, [i for i, k in kinds.items() if k == kind], text))
    return combine(edits, text)


def delete_selection(document: Document) -> bool:
    """Delete every selected record as one undo step; True if anything was deleted."""
    edit = delete_edit(document, sorted(document.selection))
    if edit is None:
        return False
    document.push(edit)
    return True


class DeleteTool(Tool):
    """Click a record to delete it."""

    name = "delete"
    hint = "Click a unit, commander, terrain feature, town, objective, deployment zone or reinforcement to delete it"
    cursor = Qt.CursorShape.PointingHandCursor

    def press(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton:
            return
        item = self.item_at(event)
        if item is not None:
            edit = delete_edit(self.document, [item.id])
            if edit is not None:
                self.document.push(edit)
