"""OobModel: a ``QAbstractItemModel`` adapter over the order of battle's networkx graph.

Rows are commanders and units, children are direct subordinates in the graph's order; columns
are name, men and guns (a commander shows the totals of everything below him, eliminated units
left out; their rows are struck out); a name several
records share is shown with the superior's (``model.names.display_names``). The model
mirrors the Document: it re-reads the graph when an ``oob``, ``units`` or ``commanders``
change arrives, and every edit it makes (rename, drag-and-drop reassignment) is pushed on the
Document's history. Nodes are keyed by a small int stored in ``QModelIndex.internalId``.

In a replay, a unit eliminated and then removed from the game (Torden over Europa 1.6: "2/3 lost
and in FU") is gone from the state at the cursor; the tree still lists it under its superior,
struck out, from its last record (``eliminated_gone``).
"""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import QAbstractItemModel, QByteArray, QMimeData, QModelIndex, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor, QFont

from battlestudio.document import Document
from battlestudio.edits import Change, Macro, PutRecords, Reattach, reattach_problem
from battlestudio.model.names import display_names
from battlestudio.model.units import ECHELON_RANK, Commander, Unit
from battlestudio.ui.panels.icons import arm_icon, commander_icon

OOB_MIME = "application/x-battlestudio-ids"
"""Mime type of dragged commanders/units: their ids as UTF-8, one per line (the map's place
tool accepts the same payload)."""

ID_ROLE = Qt.ItemDataRole.UserRole + 1
"""Data role giving a row's record id."""

COLUMNS = ("Name", "Men", "Guns")


def is_eliminated(rec: object) -> bool:
    """True for a unit whose state is ``eliminated`` (struck out, left out of the totals)."""
    return isinstance(rec, Unit) and rec.state == "eliminated"


def eliminated_gone(document: Document) -> dict[str, tuple[Unit, str | None]]:
    """Units of a replayed game removed from it after being eliminated, at the cursor:
    ``{id: (its last record, state eliminated; its superior in the order of battle or None)}``.

    Empty for a document without a timeline (the scenario editor). A unit removed while not
    eliminated (routed off the table) is not included.
    """
    timeline = getattr(document, "timeline", None)
    if timeline is None:
        return {}
    log, pos = timeline.log, timeline.position
    if getattr(log, "validated", pos) < pos:
        return {}  # not checked up to the cursor yet (an unfinished game opened from its keyframe):
        # looking back would replay the whole game before the first frame; ``rebuild`` after the check
    state = timeline.state
    out: dict[str, tuple[Unit, str | None]] = {}
    for n in state.oob.graph:
        if n in state.units or n in state.commanders or n in state.off_table:
            continue
        touching = log.events_touching(n, 0, pos)
        if not touching:
            continue
        before = log.state_at(touching[-1]).units.get(n)  # just before its removal
        if is_eliminated(before):
            assert before is not None
            out[n] = (before, state.oob.superior(n))
    return out


_ROOT = QModelIndex()
"""The invisible root, the default parent of Qt's model calls."""


def encode_ids(ids: list[str]) -> QMimeData:
    """Mime data carrying ``ids`` as ``OOB_MIME`` (plus plain text for other targets)."""
    mime = QMimeData()
    mime.setData(OOB_MIME, QByteArray("\n".join(ids).encode("utf-8")))
    mime.setText("\n".join(ids))
    return mime


def decode_ids(mime: QMimeData) -> list[str]:
    """The ids in ``OOB_MIME`` data (empty when absent)."""
    if not mime.hasFormat(OOB_MIME):
        return []
    return [i for i in bytes(mime.data(OOB_MIME).data()).decode("utf-8").split("\n") if i]


class OobModel(QAbstractItemModel):
    """The order of battle of ``document`` as a tree model.

    Signals
    -------
    refused(str)
        a drop was refused; the message says why (e.g. the echelons forbid it).
    """

    refused = Signal(str)

    def __init__(self, document: Document, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.document = document
        self._nodes: list[str] = []
        self._key: dict[str, int] = {}
        self._parent: dict[str, str | None] = {}
        self._children: dict[str | None, list[str]] = {}
        self._totals: dict[str, tuple[int, int]] = {}
        self._shown: dict[str, str] = {}  # id -> the name shown (duplicates with their superior)
        self._gone: dict[str, Unit] = {}  # eliminated units removed from the game (``eliminated_gone``)
        self._deferred: list[Change] = []  # changes seen during playback, applied when idle
        self._idle = QTimer(self)
        self._idle.setSingleShot(True)
        self._idle.setInterval(0)
        self._idle.timeout.connect(self._flush)
        self._rebuild()
        document.changed.connect(self._on_changed)

    def detach(self) -> None:
        """Stop listening to the document (before the model is dropped)."""
        self.document.changed.disconnect(self._on_changed)
        self._idle.stop()
        self._deferred = []

    # -- structure -----------------------------------------------------------------------
    def _rebuild(self, gone_now: dict[str, tuple[Unit, str | None]] | None = None) -> None:
        """Build the tree; ``gone_now``: ``eliminated_gone`` of the document when already known."""
        s = self.document.scenario
        g = s.oob.graph
        side_order = {sid: i for i, sid in enumerate(s.sides)}

        def sort_key(n: str) -> tuple:
            rec = s.record(n)
            side = side_order.get(rec.side, len(side_order)) if rec else len(side_order) + 1
            if isinstance(rec, Commander):
                return (side, 0, ECHELON_RANK.get(rec.echelon, 99))
            return (side, 1, 0)

        roots = [n for n in g.nodes if g.in_degree(n) == 0]
        roots += [r for r in (*s.commanders, *s.units) if r not in g]
        children: dict[str | None, list[str]] = {None: []}
        parent: dict[str, str | None] = {}
        pending = sorted(roots, key=sort_key)
        seen: set[str] = set()

        def visit(top: str) -> None:
            parent[top] = None
            children[None].append(top)
            stack = [top]
            seen.add(top)
            while stack:
                n = stack.pop()
                kids = [c for c in g.successors(n) if c not in seen] if n in g else []
                children[n] = kids
                for c in kids:
                    seen.add(c)
                    parent[c] = n
                stack.extend(reversed(kids))

        for r in pending:
            if r not in seen:
                visit(r)
        for n in g.nodes:  # nodes only reachable through a cycle
            if n not in seen:
                visit(n)
        if gone_now is None:
            gone_now = eliminated_gone(self.document)
        gone = {n: v for n, v in gone_now.items() if n not in seen}
        for n, (_, sup) in gone.items():  # last under their superior, or top rows of their own
            p = sup if sup in parent else None
            parent[n] = p
            children[p].append(n)
            children[n] = []
        self._gone = {n: rec for n, (rec, _) in gone.items()}
        self._parent, self._children = parent, children
        self._nodes = list(parent)
        self._key = {n: i for i, n in enumerate(self._nodes)}
        self._compute_totals()
        self._shown = display_names(s)

    def _compute_totals(self) -> None:
        s = self.document.scenario
        totals: dict[str, tuple[int, int]] = {}
        counted: dict[str, tuple[int, int]] = {}  # what a node adds to its superiors
        for n in reversed(self._nodes):  # parents come before children in _nodes
            u = s.units.get(n) or self._gone.get(n)
            men, guns = (u.men, u.guns) if u else (0, 0)
            for c in self._children.get(n, ()):
                cm, cg = counted[c]
                men, guns = men + cm, guns + cg
            totals[n] = (men, guns)
            counted[n] = (0, 0) if is_eliminated(u) else (men, guns)
        self._totals = totals

    def _on_changed(self, changes: list[Change]) -> None:
        timeline = getattr(self.document, "timeline", None)
        if self._deferred or (timeline is not None and timeline.playing):
            # playback: the map shows the step first, the tree follows in the next idle slice
            # (several steps coalesce into one update when the tree falls behind)
            self._deferred.extend(changes)
            self._idle.start()
            return
        self._apply(changes)

    def _flush(self) -> None:
        changes, self._deferred = self._deferred, []
        if changes:
            self._apply(changes)

    def rebuild(self) -> None:
        """Build the tree again (the idle check has reached the cursor: units eliminated and
        removed before it can be listed now); nothing is done when there are none, as before
        (a reset re-expands the whole tree: ~0.4 s at Leipzig scale)."""
        gone = eliminated_gone(self.document)
        if not self._gone and not gone:
            return
        self.beginResetModel()
        self._rebuild(gone)
        self.endResetModel()

    def _apply(self, changes: list[Change]) -> None:
        kinds = {c.kind for c in changes}
        if not kinds & {"oob", "units", "commanders", "sides"}:
            return
        s = self.document.scenario
        ids = {i for c in changes if c.kind in ("units", "commanders") for i in c.ids}
        structural = (
            "oob" in kinds
            or "sides" in kinds
            or any(i in self._gone or (i in self._key) != (s.record(i) is not None) for i in ids)
        )
        if structural:
            self.beginResetModel()
            self._rebuild()
            self.endResetModel()
            return
        self._compute_totals()
        shown, self._shown = self._shown, display_names(s)
        dirty: set[str] = {i for i, name in self._shown.items() if shown.get(i) != name and i in self._key}
        for i in ids:
            dirty.add(i)
            dirty.update(a for a in s.oob.chain_of_command(i) if a in self._key)
        self._emit_rows(dirty)

    def _emit_rows(self, dirty: set[str]) -> None:
        """One ``dataChanged`` per run of adjacent changed rows under one parent (a turn of a
        replay changes most of an army: a signal per row made the tree's filter proxy and view
        redo their bookkeeping a hundred times)."""
        rows: dict[str | None, list[int]] = {}
        for n in dirty:
            if n in self._key:
                parent = self._parent[n]
                rows.setdefault(parent, []).append(self._children[parent].index(n))
        last = len(COLUMNS) - 1
        for parent, found in rows.items():
            found.sort()
            kids = self._children[parent]
            start = prev = found[0]
            for row in found[1:] + [None]:
                if row is not None and row == prev + 1:
                    prev = row
                    continue
                self.dataChanged.emit(
                    self.createIndex(start, 0, self._key[kids[start]]),
                    self.createIndex(prev, last, self._key[kids[prev]]),
                )
                if row is not None:
                    start = prev = row

    # -- lookups -------------------------------------------------------------------------
    def node(self, index: QModelIndex) -> str | None:
        """Record id of ``index`` (None for the invisible root)."""
        if not index.isValid():
            return None
        return self._nodes[index.internalId()]

    def index_of(self, node_id: str, column: int = 0) -> QModelIndex:
        """Index of ``node_id`` (invalid when it is not in the tree)."""
        if node_id not in self._key:
            return QModelIndex()
        siblings = self._children[self._parent[node_id]]
        return self.createIndex(siblings.index(node_id), column, self._key[node_id])

    def record(self, node_id: str) -> Unit | Commander | None:
        """The record a row shows: the scenario's, or an eliminated unit's last one (None when
        the id has neither)."""
        return self.document.scenario.record(node_id) or self._gone.get(node_id)

    def node_ids(self) -> list[str]:
        """Every id in the tree, parents before children."""
        return list(self._nodes)

    # -- QAbstractItemModel --------------------------------------------------------------
    def index(self, row: int, column: int, parent: QModelIndex = _ROOT) -> QModelIndex:
        kids = self._children.get(self.node(parent), [])
        if not (0 <= row < len(kids) and 0 <= column < len(COLUMNS)):
            return QModelIndex()
        return self.createIndex(row, column, self._key[kids[row]])

    def parent(self, index: QModelIndex = _ROOT) -> QModelIndex:  # type: ignore[override]
        n = self.node(index)
        if n is None:
            return QModelIndex()
        p = self._parent.get(n)
        return self.index_of(p) if p is not None else QModelIndex()

    def rowCount(self, parent: QModelIndex = _ROOT) -> int:  # noqa: N802 - Qt API
        if parent.isValid() and parent.column() != 0:
            return 0
        return len(self._children.get(self.node(parent), []))

    def columnCount(self, parent: QModelIndex = _ROOT) -> int:  # noqa: N802
        return len(COLUMNS)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section]
        return None

    def data(self, index: QModelIndex, role: int = Qt.ItemDataRole.DisplayRole):
        n = self.node(index)
        if n is None:
            return None
        s = self.document.scenario
        rec = self.record(n)
        col = index.column()
        if role == ID_ROLE:
            return n
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            if col == 0:
                if rec is None:
                    return f"? {n}"
                return self._shown.get(n, rec.name) if role == Qt.ItemDataRole.DisplayRole else rec.name
            men, guns = self._totals.get(n, (0, 0))
            value = men if col == 1 else guns
            return f"{value:,}" if role == Qt.ItemDataRole.DisplayRole and value else (value or "")
        if role == Qt.ItemDataRole.TextAlignmentRole and col > 0:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and is_eliminated(rec):
            font = QFont()
            font.setStrikeOut(True)
            return font
        if role == Qt.ItemDataRole.ForegroundRole and is_eliminated(rec):
            return QBrush(QColor("#808080"))
        if role == Qt.ItemDataRole.DecorationRole and col == 0 and rec is not None:
            side = s.sides.get(rec.side)
            colour = side.colour if side else "#909090"
            if isinstance(rec, Unit):
                return arm_icon(rec.arm.value, colour)
            return commander_icon(rec.echelon, colour)
        if role == Qt.ItemDataRole.ToolTipRole:
            if rec is None:
                return f"{n} is in the order of battle but has no record"
            name = self._shown.get(n, rec.name)
            if isinstance(rec, Commander):
                return f"{name}: {rec.echelon.replace('_', ' ')}, {rec.side}"
            if is_eliminated(rec):
                return f"{name}: {rec.arm.value}, eliminated (not counted in its superiors' totals)"
            return f"{name}: {rec.arm.value}, {rec.figures} figures, {rec.formation.value}"
        return None

    def flags(self, index: QModelIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.ItemIsDropEnabled
        f = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsDragEnabled
        n = self.node(index)
        if n in self.document.scenario.commanders:
            f |= Qt.ItemFlag.ItemIsDropEnabled
        if index.column() == 0 and self.document.scenario.record(n) is not None:
            f |= Qt.ItemFlag.ItemIsEditable
        return f

    def setData(self, index: QModelIndex, value, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        n = self.node(index)
        s = self.document.scenario
        if role != Qt.ItemDataRole.EditRole or index.column() != 0 or n is None:
            return False
        name = str(value).strip()
        kind = "units" if n in s.units else "commanders" if n in s.commanders else None
        if kind is None or not name or name == s.record(n).name:
            return False
        old = s.record(n).name
        self.document.push(PutRecords(kind, {n: replace(s.record(n), name=name)}, f"Rename {old} to {name}"))
        return True

    # -- drag and drop -------------------------------------------------------------------
    def supportedDragActions(self) -> Qt.DropAction:  # noqa: N802
        return Qt.DropAction.MoveAction | Qt.DropAction.CopyAction

    def supportedDropActions(self) -> Qt.DropAction:  # noqa: N802
        return Qt.DropAction.MoveAction

    def mimeTypes(self) -> list[str]:  # noqa: N802
        return [OOB_MIME]

    def mimeData(self, indexes: list[QModelIndex]) -> QMimeData:  # noqa: N802
        ids = list(dict.fromkeys(n for i in indexes if (n := self.node(i)) is not None))
        return encode_ids(ids)

    def drop_problem(self, ids: list[str], superior: str | None) -> str | None:
        """Why dropping ``ids`` on ``superior`` is refused, or None (no drop on the root)."""
        if superior is None:
            return "drop on a commander to put a unit or commander under him"
        for i in ids:
            problem = reattach_problem(self.document.scenario, i, superior)
            if problem:
                return problem
        return None

    def canDropMimeData(self, data, action, row, column, parent) -> bool:  # noqa: N802
        ids = decode_ids(data)
        return bool(ids) and self.drop_problem(ids, self.node(parent)) is None

    def dropMimeData(self, data, action, row, column, parent) -> bool:  # noqa: N802
        ids = decode_ids(data)
        superior = self.node(parent)
        if not ids:
            return False
        problem = self.drop_problem(ids, superior)
        if problem:
            self.refused.emit(problem)
            return False
        return self.reattach(ids, superior, None if row < 0 else row)

    def reattach(self, ids: list[str], superior: str, row: int | None = None) -> bool:
        """Push the reassignment of ``ids`` under ``superior`` (at ``row``) as one undo step."""
        s = self.document.scenario
        sup_name = s.record(superior).name
        edits = []
        at = row
        for i in ids:
            if at is not None and s.oob.superior(i) == superior and s.oob.subordinates(superior).index(i) < at:
                at -= 1  # removing it first shifts the rows below
            edits.append(Reattach(i, superior, f"Attach {s.record(i).name} to {sup_name}", index=at))
            if at is not None:
                at += 1
        text = edits[0].text if len(edits) == 1 else f"Attach {len(ids)} formations to {sup_name}"
        self.document.push(edits[0] if len(edits) == 1 else Macro(edits, text))
        return False  # the graph already moved; Qt must not remove source rows itself
