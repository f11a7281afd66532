"""The Order of battle dock: a filterable tree of commanders and units.

The filter finds names ignoring case and accents; it does not find eliminated units unless
"Show eliminated" is ticked (without a filter they are listed, struck out).

Selection follows the Document both ways; drag a row onto a commander to reassign it (refused
with a message where the echelons or sides forbid it); drag rows onto the map to place them;
double-click centres the map on the item; the context menu adds a subordinate, renames,
deletes or places on the map. Every change goes through the Document's history.

A replaying document's tree is expanded after the window's first frame (``release``, called on
``PlayView.frame_done``; "Filling in the order of battle…" until then): expanding every row of
ten times Leipzig takes ~0.3 s, which the map does not wait for.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable

from PySide6.QtCore import QItemSelection, QItemSelectionModel, QModelIndex, QSortFilterProxyModel, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from battlestudio.document import Document
from battlestudio.edits import Macro, PutRecords, Reattach, RemoveRecords
from battlestudio.model.units import Commander, Echelon, Unit
from battlestudio.ui import dialogs
from battlestudio.ui.panels.oob_model import ID_ROLE, OobModel, decode_ids, is_eliminated

_NEXT_ECHELON = {e.value: list(Echelon)[i + 1].value for i, e in enumerate(list(Echelon)[:-1])}


class OobTree(QTreeView):
    """The tree view; while a drag hovers over a commander who may not take it, it says why.

    Signals
    -------
    drop_refused(str)
        the reason the hovered drop target is refused ("" when it is allowed again).
    """

    drop_refused = Signal(str)

    def dragMoveEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().dragMoveEvent(event)
        proxy = self.model()
        source = proxy.sourceModel() if isinstance(proxy, QSortFilterProxyModel) else proxy
        ids = decode_ids(event.mimeData())
        target = self.indexAt(event.position().toPoint())
        if not ids or not isinstance(source, OobModel) or not target.isValid():
            return
        node = target.data(ID_ROLE)
        if node in ids:  # hovering the dragged rows themselves (every drag starts there): no drop here
            self.drop_refused.emit("")
            return
        if node not in source.document.scenario.commanders:
            node = source.document.scenario.oob.superior(node)
        problem = source.drop_problem(ids, node)
        self.drop_refused.emit("" if event.isAccepted() else (problem or ""))

    def dragLeaveEvent(self, event) -> None:  # noqa: N802 - Qt API
        """A drag leaving the tree (e.g. to the map) takes the refusal message with it."""
        super().dragLeaveEvent(event)
        self.drop_refused.emit("")


def fold(text: str) -> str:
    """``text`` without accents, case-folded: "Légère" → "legere"."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()


_SHOW_ELIMINATED_TIP = (
    "Let the filter find eliminated units too (struck out); they never count in their superiors' totals."
)
_SHOW_ELIMINATED_OFF_TIP = (
    "Type a name in the filter to use this: without a filter every unit is already listed, "
    "eliminated ones struck out and left out of their superiors' totals."
)


class FoldingFilterProxy(QSortFilterProxyModel):
    """Filters rows by a substring of column 0, ignoring case and accents ("Legere" finds "Légère").

    An eliminated unit (``oob_model.is_eliminated``) matches no filter unless
    ``match_eliminated`` is set; without a filter every row is shown (eliminated ones struck out).
    """

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self._needle = ""
        self.match_eliminated = False
        self.setDynamicSortFilter(False)  # no filter: a changed row needs no re-filtering

    def set_match_eliminated(self, on: bool) -> None:
        """Let eliminated units match the filter (True) or not (False, the default)."""
        if on == self.match_eliminated:
            return
        if not hasattr(self, "endFilterChange"):  # Qt before 6.9
            self.match_eliminated = on
            self.invalidateFilter()
            return
        self.beginFilterChange()
        self.match_eliminated = on
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def set_folded_filter(self, text: str) -> None:
        """Show the rows whose name contains ``text`` (and their superiors).

        Rows are re-filtered as their data changes only while a filter is set: without one the
        proxy passes a replay step's hundred changed rows straight through."""
        self.setDynamicSortFilter(bool(text))
        if not hasattr(self, "endFilterChange"):  # Qt before 6.9 (the pin allows 6.6)
            self._needle = fold(text)
            self.invalidateFilter()
            return
        self.beginFilterChange()  # Qt 6.10 deprecates invalidateFilter()
        self._needle = fold(text)
        self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, row: int, parent: QModelIndex) -> bool:  # noqa: N802 - Qt API
        if not self._needle:
            return True
        src = self.sourceModel()
        index = src.index(row, 0, parent)
        name = src.data(index, Qt.ItemDataRole.DisplayRole)
        if self._needle not in fold(str(name or "")):
            return False
        if not self.match_eliminated and isinstance(src, OobModel):
            return not is_eliminated(src.record(src.node(index) or ""))
        return True


class OobPanel(QWidget):
    """Tree view of the order of battle of a Document.

    Signals
    -------
    centre_requested(str)
        centre the map on this record (double-click).
    place_requested(list)
        place these units/commanders in the middle of the visible map.
    """

    centre_requested = Signal(str)
    place_requested = Signal(list)

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.filter = QLineEdit(placeholderText="Filter by name…", clearButtonEnabled=True)
        self.show_eliminated = QCheckBox("Show eliminated")
        self._set_show_eliminated_enabled(False)  # it acts on the filter's matches
        self.tree = OobTree()
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.tree.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        self.tree.setDefaultDropAction(Qt.DropAction.MoveAction)
        self.tree.setDragEnabled(True)
        self.tree.setAcceptDrops(True)
        self.tree.setDropIndicatorShown(True)
        self.tree.setEditTriggers(QAbstractItemView.EditTrigger.EditKeyPressed)
        self.tree.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.notice = QLabel()
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color: #b00020;")
        self.notice.hide()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.filter, 1)
        row.addWidget(self.show_eliminated)
        lay.addLayout(row)
        lay.addWidget(self.tree, 1)
        lay.addWidget(self.notice)
        self.proxy = FoldingFilterProxy(self)
        self.proxy.setRecursiveFilteringEnabled(True)
        self.proxy.setFilterCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.proxy.setFilterKeyColumn(0)
        self.tree.setModel(self.proxy)
        self.proxy.modelAboutToBeReset.connect(self._save_expansion)
        self.proxy.modelReset.connect(self._restore_expansion)
        self.tree.selectionModel().selectionChanged.connect(self._on_tree_selection)
        self.filter.textChanged.connect(self._on_filter)
        self.show_eliminated.toggled.connect(self._on_show_eliminated)
        self.tree.doubleClicked.connect(self._on_double_clicked)
        self.tree.customContextMenuRequested.connect(self._on_context_menu)
        self.tree.drop_refused.connect(self.show_notice)
        self._syncing = False
        self.expansion_waits = False  # a replaying document's tree is expanded after the first frame
        self.document: Document | None = None
        self.model: OobModel | None = None
        self.menu_hooks: list[Callable[[QMenu, str | None], None]] = []
        """Add entries of others to the context menu (``hook(menu, node id)``): club claims."""
        self.set_document(document)

    # -- document ------------------------------------------------------------------------
    def set_document(self, document: Document) -> None:
        """Show ``document``'s order of battle (replacing any previous one)."""
        if self.document is not None:
            self.document.selection_changed.disconnect(self._on_doc_selection)
        if self.model is not None:
            self.model.detach()
        self.document = document
        self.model = OobModel(document, self)
        self.model.refused.connect(self.show_notice)
        self._collapsed = set()
        self.expansion_waits = getattr(document, "timeline", None) is not None
        if self.expansion_waits:
            self.show_notice("Filling in the order of battle…")
        self.proxy.setSourceModel(self.model)  # resets the proxy: expansion is restored then (or at release)
        document.selection_changed.connect(self._on_doc_selection)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        digits = self.tree.fontMetrics().horizontalAdvance("000,000") + 12
        for c in (1, 2):  # fixed widths: sizing to contents would read every row of a big army
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.Fixed)
            header.resizeSection(c, digits if c == 1 else digits * 2 // 3)
        self._on_doc_selection(document.selection)

    def show_notice(self, text: str) -> None:
        """Show why something was refused under the tree (cleared by the next selection)."""
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    def index_of(self, node_id: str, column: int = 0) -> QModelIndex:
        """View (proxy) index of a record id."""
        return self.proxy.mapFromSource(self.model.index_of(node_id, column))

    # -- expansion across resets ---------------------------------------------------------
    def _save_expansion(self) -> None:
        m = self.model
        if m is None or self.proxy.sourceModel() is not m:
            return
        self._collapsed = {
            n
            for n in m.node_ids()
            if m.rowCount(m.index_of(n)) and not self.tree.isExpanded(self.proxy.mapFromSource(m.index_of(n)))
        }

    def release(self) -> None:
        """The window's first frame is shown: expand the waiting tree in the next idle moment."""
        if self.expansion_waits:
            QTimer.singleShot(0, self._expand_waiting)

    def _expand_waiting(self) -> None:
        if not self.expansion_waits:
            return
        self.expansion_waits = False
        if self.notice.text() == "Filling in the order of battle…":
            self.show_notice("")
        self._restore_expansion()

    def _restore_expansion(self) -> None:
        if self.document is None or self.proxy.sourceModel() is not self.model or self.expansion_waits:
            return
        self.tree.expandAll()
        for n in getattr(self, "_collapsed", ()):
            self.tree.collapse(self.index_of(n))
        self._on_doc_selection(self.document.selection)

    # -- selection both ways -------------------------------------------------------------
    def _on_tree_selection(self, *_: QItemSelection) -> None:
        if self._syncing:
            return
        self.show_notice("")
        ids = {i.data(ID_ROLE) for i in self.tree.selectionModel().selectedRows(0)}
        # a click replaces the map's selection; Ctrl or Shift keeps map-only records (terrain, towns)
        mods = QGuiApplication.keyboardModifiers()
        extend = mods & (Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
        others = {i for i in self.document.selection if not self.model.index_of(i).isValid()} if extend else set()
        self.document.set_selection(ids | others)

    def _on_doc_selection(self, ids: frozenset[str]) -> None:
        sel = QItemSelection()
        for n in ids:
            ix = self.index_of(n)
            if ix.isValid():
                sel.select(ix, ix.siblingAtColumn(self.proxy.columnCount() - 1))
        self._syncing = True
        try:
            flags = QItemSelectionModel.SelectionFlag.ClearAndSelect
            self.tree.selectionModel().select(sel, flags)
            if not sel.isEmpty():
                self.tree.scrollTo(sel.indexes()[0])
        finally:
            self._syncing = False

    def _on_filter(self, text: str) -> None:
        self.proxy.set_folded_filter(text)
        self._set_show_eliminated_enabled(bool(text))
        self.tree.expandAll()

    def _set_show_eliminated_enabled(self, on: bool) -> None:
        """Enable "Show eliminated" (a filter is typed) or grey it out, its tooltip saying why."""
        self.show_eliminated.setEnabled(on)
        self.show_eliminated.setToolTip(_SHOW_ELIMINATED_TIP if on else _SHOW_ELIMINATED_OFF_TIP)

    def _on_show_eliminated(self, on: bool) -> None:
        self.proxy.set_match_eliminated(on)
        self.tree.expandAll()

    def _on_double_clicked(self, index: QModelIndex) -> None:
        n = index.data(ID_ROLE)
        if n:
            self.centre_requested.emit(n)

    # -- context menu --------------------------------------------------------------------
    def _on_context_menu(self, pos) -> None:
        index = self.tree.indexAt(pos)
        n = index.data(ID_ROLE) if index.isValid() else None
        menu = self.context_menu(n)
        if not menu.isEmpty():
            menu.exec(self.tree.viewport().mapToGlobal(pos))

    def context_menu(self, node_id: str | None) -> QMenu:
        """The context menu for ``node_id`` (built separately so tests can trigger entries)."""
        menu = QMenu(self)
        s = self.document.scenario
        rec = s.record(node_id) if node_id else None
        if isinstance(rec, Commander):
            add_unit = QAction("Add subordinate unit…", menu)
            add_unit.triggered.connect(lambda: self.add_subordinate(node_id, unit=True))
            menu.addAction(add_unit)
            if rec.echelon in _NEXT_ECHELON:
                add_cmd = QAction("Add subordinate commander…", menu)
                add_cmd.triggered.connect(lambda: self.add_subordinate(node_id, unit=False))
                menu.addAction(add_cmd)
            menu.addSeparator()
        if rec is not None:
            rename = QAction("Rename…", menu)
            rename.triggered.connect(lambda: self.rename(node_id))
            place = QAction("Place on map", menu)
            place.triggered.connect(lambda: self.place_requested.emit(self._selected_or(node_id)))
            delete = QAction("Delete", menu)
            delete.triggered.connect(lambda: self.delete(self._selected_or(node_id)))
            for a in (rename, place, delete):
                menu.addAction(a)
        for hook in self.menu_hooks:
            hook(menu, node_id)
        return menu

    def _selected_or(self, node_id: str) -> list[str]:
        sel = [i for i in self.document.selection if self.document.scenario.record(i) is not None]
        return sel if node_id in sel else [node_id]

    def add_subordinate(self, superior: str, unit: bool, name: str | None = None) -> str | None:
        """Add a new unit (or commander one echelon down) under ``superior``; return its id."""
        s = self.document.scenario
        sup = s.commanders[superior]
        what = "unit" if unit else "commander"
        if name is None:
            name = dialogs.ask_text(self, f"Add subordinate {what}", f"Name of the new {what} under {sup.name}:")
        if not name:
            return None
        x, y = sup.position
        if unit:
            new_id = s.next_id("u")
            rec = Unit(
                new_id, name, sup.side, sup.nation, figures=24, men=2400, position=(x, y + 10.0), facing=sup.facing
            )
            kind = "units"
        else:
            new_id = s.next_id("c")
            rec = Commander(new_id, name, sup.side, sup.nation, _NEXT_ECHELON[sup.echelon], (x, y + 10.0), sup.facing)
            kind = "commanders"
        self.document.push(
            Macro(
                [PutRecords(kind, {new_id: rec}, "Add"), Reattach(new_id, superior, "Attach")],
                f"Add {name} under {sup.name}",
            )
        )
        self.document.set_selection({new_id})
        return new_id

    def rename(self, node_id: str) -> None:
        """Edit the name in place."""
        self.tree.edit(self.index_of(node_id))

    def delete(self, ids: list[str]) -> None:
        """Delete units and commanders ``ids`` as one undo step."""
        s = self.document.scenario
        units = [i for i in ids if i in s.units]
        cmds = [i for i in ids if i in s.commanders]
        edits = []
        if units:
            edits.append(RemoveRecords("units", units, "Delete units"))
        if cmds:
            edits.append(RemoveRecords("commanders", cmds, "Delete commanders"))
        if not edits:
            return
        n = len(units) + len(cmds)
        text = f"Delete {s.record(ids[0]).name}" if n == 1 else f"Delete {n} items"
        self.document.push(Macro(edits, text))
