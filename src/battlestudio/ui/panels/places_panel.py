"""The Places dock: every record of the ground and of the scenario's set-up in one list —
terrain features, town zones, objectives, deployment zones and reinforcements — grouped by
kind, each with what matters about it (kind and size, capacity, VP, side, arrival window).

Clicking a row selects the record (so the map and Properties show it, even a feature hidden
under units); double-clicking centres the map on it. The list follows the document's changes.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtWidgets import QLineEdit, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget
from PySide6.QtGui import QResizeEvent

from battlestudio.document import Document
from battlestudio.edits import Change
from battlestudio.model.scenario import Scenario
from battlestudio.ui.panels.oob_panel import fold

ID_ROLE = Qt.ItemDataRole.UserRole + 1

GROUPS = (
    ("terrain", "Terrain"),
    ("towns", "Town zones"),
    ("objectives", "Objectives"),
    ("deployment_zones", "Deployment zones"),
    ("reinforcements", "Reinforcements"),
)
"""Scenario container and group title, in list order."""


def describe(s: Scenario, kind: str, rid: str) -> tuple[str, str]:
    """(name, details) of record ``rid`` of container ``kind`` as the list shows it."""
    rec = getattr(s, kind)[rid]

    def side(sid: str) -> str:
        return s.sides[sid].name if sid in s.sides else sid or "both sides"

    if kind == "terrain":
        g = rec.geometry
        size = f"{g.length:.0f} cm long" if g.geom_type.endswith("LineString") else f"{g.area:.0f} cm²"
        level = f", level {rec.level}" if rec.level else ""
        return rec.name or rid, f"{rec.kind.value.replace('_', ' ')}, {size}{level}"
    if kind == "towns":
        return rec.name, f"capacity {rec.capacity}, {rec.area:.0f} cm²"
    if kind == "objectives":
        return rec.name, f"{rec.value} VP, wanted by {side(rec.side)}"
    if kind == "deployment_zones":
        only = s.commanders[rec.formation].name if rec.formation in s.commanders else ""
        return rec.name or rid, side(rec.side) + (f", only {only}" if only else "")
    who = s.commanders.get(rec.formation) or s.units.get(rec.formation)
    turns = (
        f"turn {rec.earliest_turn}"
        if rec.earliest_turn == rec.latest_turn
        else f"turns {rec.earliest_turn}–{rec.latest_turn}"
    )
    chance = "" if rec.probability >= 1.0 else f", {rec.probability * 100:.0f} % a turn"
    return (who.name if who is not None else rec.formation), f"{side(rec.side)}, {turns}{chance}"


class PlacesPanel(QWidget):
    """List of the ground's and the set-up's records (see the module docstring).

    Signals
    -------
    centre_requested(str)
        a row was double-clicked: centre the map on that record.
    """

    centre_requested = Signal(str)

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter places…")
        self.filter.setClearButtonEnabled(True)
        self.list = QTreeWidget()
        self.list.setObjectName("places_list")
        self.list.setHeaderLabels(["Name", "Details"])
        self.list.header().setStretchLastSection(False)  # each column as wide as its text; scroll for the rest
        self.list.itemExpanded.connect(lambda _item: self.fit_columns())
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.filter)
        lay.addWidget(self.list, 1)
        self.filter.textChanged.connect(lambda _t: self.apply_filter())
        self.list.itemClicked.connect(self._on_clicked)
        self.list.itemActivated.connect(self._on_activated)
        self.document: Document | None = None
        self.set_document(document)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self.fit_columns()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(360, 400)

    def set_document(self, document: Document) -> None:
        if self.document is not None:
            self.document.changed.disconnect(self._on_changed)
        self.document = document
        document.changed.connect(self._on_changed)
        self.refresh()

    def _on_changed(self, changes: list[Change]) -> None:
        if any(c.kind in {k for k, _ in GROUPS} | {"sides", "commanders", "units"} for c in changes):
            self.refresh()

    def refresh(self) -> None:
        """Re-read the records, keeping which groups are expanded."""
        assert self.document is not None
        s = self.document.scenario
        collapsed = {
            self.list.topLevelItem(k).data(0, ID_ROLE)
            for k in range(self.list.topLevelItemCount())
            if not self.list.topLevelItem(k).isExpanded()
        }
        self.list.clear()
        for kind, title in GROUPS:
            records = getattr(s, kind)
            group = QTreeWidgetItem(self.list, [title, f"{len(records)}"])
            group.setData(0, ID_ROLE, kind)
            for rid in sorted(records, key=lambda r: describe(s, kind, r)[0].casefold()):
                name, details = describe(s, kind, rid)
                item = QTreeWidgetItem(group, [name, details])
                item.setData(0, ID_ROLE, rid)
                item.setToolTip(0, f"{name} ({rid}): {details}")
            group.setExpanded(kind not in collapsed)
        self.apply_filter()
        self.fit_columns()

    def fit_columns(self) -> None:
        """Size the Name and Details columns to their longest shown text (Name at most two
        thirds of the list's width, so Details stays in sight; its tooltip has the whole)."""
        for col in (0, 1):
            self.list.resizeColumnToContents(col)
        room = max(120, self.list.viewport().width() * 2 // 3)
        if self.list.columnWidth(0) > room:
            self.list.setColumnWidth(0, room)

    def row(self, rid: str) -> QTreeWidgetItem | None:
        """The row of record ``rid``, or None."""
        for k in range(self.list.topLevelItemCount()):
            group = self.list.topLevelItem(k)
            for j in range(group.childCount()):
                if group.child(j).data(0, ID_ROLE) == rid:
                    return group.child(j)
        return None

    def apply_filter(self) -> None:
        """Show the rows whose name or details contain the filter text (ignoring case and accents)."""
        needle = fold(self.filter.text().strip())
        for k in range(self.list.topLevelItemCount()):
            group = self.list.topLevelItem(k)
            for j in range(group.childCount()):
                item = group.child(j)
                item.setHidden(bool(needle) and needle not in fold(item.text(0) + " " + item.text(1)))

    def _on_clicked(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        if item.parent() is not None and self.document is not None:
            self.document.set_selection({item.data(0, ID_ROLE)})

    def _on_activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        if item.parent() is not None and self.document is not None:
            rid = item.data(0, ID_ROLE)
            self.document.set_selection({rid})
            self.centre_requested.emit(rid)
