"""Placing units and commanders dropped on the map from the order-of-battle tree.

Dropped units are deployed side by side in one line centred on the drop point, 1 cm apart,
in their arm's default formation (infantry and cavalry in line, artillery unlimbered) and
facing the far side of the table from where they stand (up the table in the lower half, down
it in the upper half). Dropped commanders stand 6 cm behind that line, spread 4 cm apart.
The whole drop is one undo step, "Place 3 units".
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable

from battlestudio.edits import Edit, PutRecords
from battlestudio.model.geometry import Point, forward, right_of
from battlestudio.model.units import Arm, Formation, Unit
from battlestudio.ui.tools.base import combine, count_text

if TYPE_CHECKING:
    from battlestudio.document import Document

GAP_CM = 1.0
"""Interval between placed units, cm."""

COMMANDER_BEHIND_CM = 6.0
"""How far behind the placed line dropped commanders stand, cm."""

DEFAULT_FORMATION = {
    Arm.INFANTRY: Formation.LINE,
    Arm.CAVALRY: Formation.LINE,
    Arm.ARTILLERY: Formation.UNLIMBERED,
    Arm.OTHER: Formation.LINE,
}
"""Formation a unit gets when placed."""


def default_facing(point: Point, table_height: float) -> float:
    """Facing (degrees CCW from +x) towards the far side: 90 in the lower half, 270 in the upper."""
    return 90.0 if point[1] <= table_height / 2.0 else 270.0


def placed_units(units: list[Unit], point: Point, facing: float) -> dict[str, Unit]:
    """``units`` deployed in one line centred on ``point`` (cm), all facing ``facing``."""
    formed = [replace(u, formation=DEFAULT_FORMATION[u.arm], facing=facing) for u in units]
    widths = [u.rect().width for u in formed]
    total = sum(widths) + GAP_CM * (len(formed) - 1)
    rx, ry = right_of(facing)
    offset = -total / 2.0
    out: dict[str, Unit] = {}
    for u, w in zip(formed, widths):
        c = offset + w / 2.0
        out[u.id] = u.moved((point[0] + rx * c, point[1] + ry * c), facing)
        offset += w + GAP_CM
    return out


def place_edit(document: "Document", ids: Iterable[str], point: Point) -> Edit | None:
    """The edit placing the dropped ``ids`` at ``point`` (cm); None when none is known."""
    s = document.scenario
    ids = list(dict.fromkeys(ids))
    units = [s.units[i] for i in ids if i in s.units]
    commanders = [s.commanders[i] for i in ids if i in s.commanders]
    if not units and not commanders:
        return None
    facing = default_facing(point, s.info.table_height)
    edits: list[Edit] = []
    if units:
        edits.append(PutRecords("units", placed_units(units, point, facing), "Place"))
    if commanders:
        fx, fy = forward(facing)
        rx, ry = right_of(facing)
        back = COMMANDER_BEHIND_CM if units else 0.0
        moved = {}
        for k, c in enumerate(commanders):
            off = (k - (len(commanders) - 1) / 2.0) * 4.0
            moved[c.id] = c.moved((point[0] - fx * back + rx * off, point[1] - fy * back + ry * off))
        edits.append(PutRecords("commanders", moved, "Place"))
    kinds = {u.id: "units" for u in units} | {c.id: "commanders" for c in commanders}
    names = {u.id: u.name for u in units} | {c.id: c.name for c in commanders}
    return combine(edits, count_text("Place", kinds, kinds, names))


def place_records(document: "Document", ids: Iterable[str], point: Point) -> list[str]:
    """Place the dropped ``ids`` at ``point`` (cm) as one undo step and select them.

    Unknown ids are ignored. Returns the ids placed.
    """
    edit = place_edit(document, ids, point)
    if edit is None:
        return []
    document.push(edit)
    placed = [i for i in ids if i in document.scenario.units or i in document.scenario.commanders]
    document.set_selection(placed)
    return placed
