"""Dropping units and commanders from the order-of-battle tree on the map.

The document places them (``Document.place``: a line about the drop point, ``edits.place``)
as one undo step, or records the placing as events while a game is recorded; the drop then
selects what was placed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from collections.abc import Iterable

from battlestudio.model.geometry import Point

if TYPE_CHECKING:
    from battlestudio.document import Document


def place_records(document: Document, ids: Iterable[str], point: Point) -> list[str]:
    """Place the dropped ``ids`` at ``point`` (cm) as one undo step and select them.

    Unknown ids are ignored. Returns the ids placed ([] when the document refused).
    """
    placed = document.place(ids, point)
    if placed:
        document.set_selection(placed)
    return placed
