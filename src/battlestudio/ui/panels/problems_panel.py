"""The Problems dock: the live result of validating the scenario as it stands at the cursor
(``battlestudio.validate``, the checks ``battlestudio check`` runs).

It re-checks shortly after the Document changes (one check per burst of edits, so a drag does
not validate on every mouse move) and lists errors and warnings; clicking a problem selects
the records at fault, so the map and the order-of-battle tree show them. Problems of a document
found elsewhere (``set_extra_problems``: its recorded game cannot be replayed) are listed first.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QStyle, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from battlestudio.document import Document
from battlestudio.edits import Change
from battlestudio.validate import ERROR, FootprintCache, Problem, find_problems

IDS_ROLE = Qt.ItemDataRole.UserRole + 1
RECHECK_MS = 250
"""Delay after the last change before re-validating."""

MAX_LISTED = 1000
"""Problems listed at most (errors first); the summary still counts them all."""


class ProblemsPanel(QWidget):
    """List of the scenario's problems.

    Signals
    -------
    count_changed(int, int)
        number of errors and warnings after each check.
    centre_requested(str)
        a problem was double-clicked: centre the map on its first record.
    """

    count_changed = Signal(int, int)
    centre_requested = Signal(str)

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel()
        self.list = QTreeWidget()
        self.list.setHeaderLabels(["Problem", "Check"])
        self.list.setRootIsDecorated(False)
        self.list.setColumnWidth(0, 420)
        self.list.setMinimumHeight(40)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.summary)
        lay.addWidget(self.list, 1)
        self.problems: list[Problem] = []
        self._footprints = FootprintCache()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(RECHECK_MS)
        self._timer.timeout.connect(self.check)
        self.list.itemClicked.connect(self._on_clicked)
        self.list.itemActivated.connect(self._on_activated)
        self.document: Document | None = None
        self._extra: WeakKeyDictionary[Document, list[Problem]] = WeakKeyDictionary()
        self.set_document(document)

    def set_extra_problems(self, document: Document, problems: list[Problem]) -> None:
        """Problems of ``document`` found elsewhere (its recorded game cannot be replayed:
        ``PlayView.problems_found``), listed first whenever it is shown; re-checks now if it is."""
        self._extra[document] = list(problems)
        if document is self.document:
            self.check()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        """A short strip under the map by default; the user can drag it taller."""
        return QSize(480, 120)

    def set_document(self, document: Document) -> None:
        if self.document is not None:
            self.document.changed.disconnect(self._on_changed)
        self.document = document
        document.changed.connect(self._on_changed)
        self.check()

    def _on_changed(self, _changes: list[Change]) -> None:
        self._timer.start()

    def check(self) -> list[Problem]:
        """Validate now and show the result."""
        self._timer.stop()
        extra = self._extra.get(self.document, [])
        # the scenario as designed (``battle.scenario``), as ``battlestudio check`` reads the file; in
        # a game ``document.scenario`` is the state at the replay cursor, which is not a scenario to check
        self.problems = extra + find_problems(self.document.battle.scenario, self._footprints)
        style = self.style()
        icons = {
            "error": style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical),
            "warning": style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning),
        }
        self.list.clear()
        for p in self.problems[:MAX_LISTED]:
            item = QTreeWidgetItem(self.list, [p.message, p.check])
            item.setIcon(0, icons.get(p.severity, icons["warning"]))
            item.setData(0, IDS_ROLE, list(p.subjects))
            item.setToolTip(0, f"{p.severity}: {p.message}")
        errors = sum(p.severity == ERROR for p in self.problems)
        warnings = len(self.problems) - errors
        text = "No problems found." if not self.problems else f"{errors} errors, {warnings} warnings"
        if len(self.problems) > MAX_LISTED:
            text += f" (the first {MAX_LISTED} are listed)"
        self.summary.setText(text)
        self.count_changed.emit(errors, warnings)
        return self.problems

    def _culprits(self, item: QTreeWidgetItem) -> list[str]:
        s = self.document.scenario
        return [
            i
            for i in item.data(0, IDS_ROLE) or []
            if any(i in getattr(s, k) for k in ("units", "commanders", "terrain", "towns", "objectives"))
        ]

    def _on_clicked(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        ids = self._culprits(item)
        if ids:
            self.document.set_selection(ids)

    def _on_activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        ids = self._culprits(item)
        if ids:
            self.document.set_selection(ids)
            self.centre_requested.emit(ids[0])
