"""The Layers dock: check boxes that show or hide the map's layers.

The map names its layers (``MapView.layer_names``: ``terrain:<kind>``, ``towns``,
``objectives``, ``units:<side>``, ``commanders``, ``labels``, ``grid``); this dock groups them
(Terrain, Table, Units) and calls ``MapView.set_layer_visible`` when a box is toggled.
Visibility is view state: it is neither saved in the document nor undone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

NAME_ROLE = Qt.ItemDataRole.UserRole + 1


def layer_label(name: str, side_names: dict[str, str]) -> tuple[str, str]:
    """(group, label) of a layer name, e.g. ``("Terrain", "Woods")`` for ``terrain:woods``."""
    if name.startswith("terrain:"):
        return "Terrain", name.split(":", 1)[1].replace("_", " ").capitalize()
    if name.startswith("units:"):
        sid = name.split(":", 1)[1]
        return "Units", f"Units: {side_names.get(sid, sid)}"
    if name == "commanders":
        return "Units", "Commanders"
    if name == "formations":
        return "Units", "Formations (zoomed out)"
    names = {
        "towns": "Town zones",
        "objectives": "Objectives",
        "deployment_zones": "Deployment zones",
        "reinforcements": "Reinforcements",
        "labels": "Labels",
        "grid": "Grid",
    }
    return "Table", names.get(name, name.replace("_", " ").capitalize())


class LayersPanel(QWidget):
    """A checkable tree of map layers.

    Parameters
    ----------
    set_visible : Callable[[str, bool], None]
        what toggling a layer does (the map's ``set_layer_visible``).
    """

    def __init__(self, set_visible: Callable[[str, bool], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._set_visible = set_visible
        self.tree = QTreeWidget()
        self.tree.setHeaderHidden(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.tree)
        self._hidden: set[str] = set()
        self.tree.itemChanged.connect(self._on_item_changed)

    def set_target(self, set_visible: Callable[[str, bool], None]) -> None:
        """Send toggles to another map (after a document change); re-applies hidden layers."""
        self._set_visible = set_visible
        for name in self._hidden:
            set_visible(name, False)

    def set_layers(self, names: Iterable[str], side_names: dict[str, str]) -> None:
        """Show ``names`` grouped; layers hidden before stay unchecked."""
        self.tree.blockSignals(True)
        try:
            self.tree.clear()
            groups: dict[str, QTreeWidgetItem] = {}
            for name in names:
                group, label = layer_label(name, side_names)
                parent = groups.get(group)
                if parent is None:
                    parent = groups[group] = QTreeWidgetItem(self.tree, [group])
                    parent.setFlags(parent.flags() | Qt.ItemFlag.ItemIsAutoTristate | Qt.ItemFlag.ItemIsUserCheckable)
                item = QTreeWidgetItem(parent, [label])
                item.setData(0, NAME_ROLE, name)
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                item.setCheckState(0, Qt.CheckState.Unchecked if name in self._hidden else Qt.CheckState.Checked)
            self.tree.expandAll()
        finally:
            self.tree.blockSignals(False)

    def item(self, name: str) -> QTreeWidgetItem | None:
        """The check item of layer ``name``."""
        for top in range(self.tree.topLevelItemCount()):
            group = self.tree.topLevelItem(top)
            for i in range(group.childCount()):
                if group.child(i).data(0, NAME_ROLE) == name:
                    return group.child(i)
        return None

    def is_checked(self, name: str) -> bool:
        return name not in self._hidden

    def _on_item_changed(self, item: QTreeWidgetItem, _column: int) -> None:
        name = item.data(0, NAME_ROLE)
        if not name:
            return
        visible = item.checkState(0) == Qt.CheckState.Checked
        (self._hidden.discard if visible else self._hidden.add)(name)
        self._set_visible(name, visible)
