"""The Problems dock: the live result of validating the scenario as it stands at the cursor
(``battlestudio.validate``, the checks ``battlestudio check`` runs).

It re-checks shortly after the Document changes (one check per burst of edits, so a drag does
not validate on every mouse move) and lists errors and warnings grouped by check (a row per
check with its count, errors' groups first), filtered by severity and by text; clicking a
problem selects the records at fault, clicking a group selects those of all its problems, so
the map and the order-of-battle tree show them. Problems of a document found elsewhere
(``set_extra_problems``: its recorded game cannot be replayed) are listed first.

A recorded game's scenario is checked after the window's first frame (``release``, called on
``PlayView.frame_done``; "Checking the scenario…" until then): reading ``problems`` or ``rows``
before checks at once.
"""

from __future__ import annotations

from weakref import WeakKeyDictionary

from PySide6.QtCore import QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QStyle,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlestudio.document import Document
from battlestudio.edits import MAP_KINDS, Change
from battlestudio.ui.panels.oob_panel import fold
from battlestudio.validate import ERROR, FootprintCache, Problem, find_problems

IDS_ROLE = Qt.ItemDataRole.UserRole + 1
INDEX_ROLE = Qt.ItemDataRole.UserRole + 2
"""On a problem row: its index in ``ProblemsPanel.problems``; on a group row: None."""
SEVERITIES = {"All": None, "Errors": "error", "Warnings": "warning"}
RECHECK_MS = 250
"""Delay after the last change before re-validating."""

MAX_LISTED = 1000
"""Problems listed at most (errors first); the summary still counts them all."""


def check_title(check: str) -> str:
    """A check's id as words for its group row: ``unit.off_table`` -> "Unit off table"."""
    words = check.replace(".", " ").replace("_", " ").split()
    return " ".join(words).capitalize() if words else check


class ProblemsPanel(QWidget):
    """List of the scenario's problems.

    Signals
    -------
    count_changed(int, int)
        number of errors and warnings after each check.
    centre_requested(str)
        a problem was double-clicked: centre the map on its first record.
    waiting()
        a recorded game's scenario is shown and will be checked after the first frame.
    """

    count_changed = Signal(int, int)
    waiting = Signal()
    centre_requested = Signal(str)

    def __init__(self, document: Document, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.summary = QLabel()
        self.severity = QComboBox()
        self.severity.addItems(list(SEVERITIES))
        self.severity.setToolTip("Show all problems, only errors or only warnings")
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter problems…")
        self.filter.setClearButtonEnabled(True)
        self.filter.setToolTip("Show only problems whose text or check contains this (ignoring case and accents)")
        self.list = QTreeWidget()
        self.list.setHeaderLabels(["Problem", "Check"])
        self.list.setColumnWidth(0, 420)
        self.list.setMinimumHeight(40)
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.severity)
        top.addWidget(self.filter, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addLayout(top)
        lay.addWidget(self.list, 1)
        self._problems: list[Problem] = []
        self._waiting = False  # a game's scenario not checked yet: after the first frame (release)
        self._footprints = FootprintCache()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(RECHECK_MS)
        self._timer.timeout.connect(self.check)
        self.list.itemClicked.connect(self._on_clicked)
        self.list.itemActivated.connect(self._on_activated)
        self.severity.currentTextChanged.connect(lambda _text: self.apply_filter())
        self.filter.textChanged.connect(lambda _text: self.apply_filter())
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
        if getattr(document, "timeline", None) is None:
            self.check()
            return
        self._timer.stop()  # a recorded game: the map paints first (release)
        self._waiting = True
        self._problems = []
        self.list.clear()
        self.summary.setText("Checking the scenario…")
        self.waiting.emit()

    @property
    def problems(self) -> list[Problem]:
        """The problems found by the last check (checking now if one is waiting: ``release``)."""
        if self._waiting:
            self.check()
        return self._problems

    def release(self) -> None:
        """The window's first frame is shown: check the waiting game's scenario in the next idle moment."""
        if self._waiting:
            QTimer.singleShot(0, self._check_waiting)

    def _check_waiting(self) -> None:
        if self._waiting:
            self.check()

    def _on_changed(self, _changes: list[Change]) -> None:
        self._timer.start()

    def check(self) -> list[Problem]:
        """Validate now and show the result."""
        self._timer.stop()
        self._waiting = False
        extra = self._extra.get(self.document, [])
        # the scenario as designed (``battle.scenario``), as ``battlestudio check`` reads the file; in
        # a game ``document.scenario`` is the state at the replay cursor, which is not a scenario to check
        self._problems = extra + find_problems(self.document.battle.scenario, self._footprints)
        self._fill()
        errors = sum(p.severity == ERROR for p in self.problems)
        warnings = len(self.problems) - errors
        text = "No problems found." if not self.problems else f"{errors} errors, {warnings} warnings"
        if len(self.problems) > MAX_LISTED:
            text += f" (the first {MAX_LISTED} are listed)"
        self.summary.setText(text)
        self.count_changed.emit(errors, warnings)
        return self.problems

    def _fill(self) -> None:
        """One group row per check (in order of its first problem, groups with errors first),
        its problems as children; groups of one problem start expanded."""
        style = self.style()
        icons = {
            "error": style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxCritical),
            "warning": style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning),
        }
        expanded = {
            self.list.topLevelItem(k).text(1)
            for k in range(self.list.topLevelItemCount())
            if self.list.topLevelItem(k).isExpanded()
        }
        self.list.clear()
        groups: dict[str, list[int]] = {}
        for i, p in enumerate(self.problems[:MAX_LISTED]):
            groups.setdefault(p.check, []).append(i)
        order = sorted(
            groups, key=lambda c: (not any(self.problems[i].severity == ERROR for i in groups[c]), groups[c][0])
        )
        for check in order:
            members = groups[check]
            worst = ERROR if any(self.problems[i].severity == ERROR for i in members) else "warning"
            group = QTreeWidgetItem(self.list, ["", check])
            group.setIcon(0, icons[worst])
            group.setData(0, INDEX_ROLE, None)
            subjects: list[str] = []
            for i in members:
                p = self.problems[i]
                item = QTreeWidgetItem(group, [p.message, p.check])
                item.setIcon(0, icons.get(p.severity, icons["warning"]))
                item.setData(0, IDS_ROLE, list(p.subjects))
                item.setData(0, INDEX_ROLE, i)
                item.setToolTip(0, f"{p.severity}: {p.message}")
                subjects.extend(s for s in p.subjects if s not in subjects)
            group.setData(0, IDS_ROLE, subjects)
            group.setToolTip(0, f"{check}: click to select the records of all its problems")
            group.setExpanded(len(members) == 1 or check in expanded or len(groups) == 1)
        self.apply_filter()

    def apply_filter(self) -> None:
        """Show the problems of the chosen severity whose message or check contains the filter
        text (ignoring case and accents); a group shows how many of its problems are shown."""
        want = SEVERITIES.get(self.severity.currentText())
        needle = fold(self.filter.text().strip())
        for k in range(self.list.topLevelItemCount()):
            group = self.list.topLevelItem(k)
            shown = 0
            for j in range(group.childCount()):
                item = group.child(j)
                p = self.problems[item.data(0, INDEX_ROLE)]
                ok = (want is None or p.severity == want) and (
                    not needle or needle in fold(p.message) or needle in fold(p.check)
                )
                item.setHidden(not ok)
                shown += ok
            total = group.childCount()
            noun = "problem" if total == 1 else "problems"
            count = f"{total} {noun}" if shown == total else f"{shown} of {total} {noun} shown"
            group.setText(0, f"{check_title(group.text(1))}: {count}")
            group.setHidden(shown == 0)

    def rows(self) -> list[QTreeWidgetItem]:
        """The problem rows (not the group rows), in the order of ``problems``."""
        if self._waiting:
            self.check()
        items = [
            self.list.topLevelItem(k).child(j)
            for k in range(self.list.topLevelItemCount())
            for j in range(self.list.topLevelItem(k).childCount())
        ]
        return sorted(items, key=lambda item: item.data(0, INDEX_ROLE))

    def _culprits(self, item: QTreeWidgetItem) -> list[str]:
        s = self.document.scenario
        return [i for i in item.data(0, IDS_ROLE) or [] if any(i in getattr(s, k) for k in MAP_KINDS)]

    def _on_clicked(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        ids = self._culprits(item)
        if ids:
            self.document.set_selection(ids)

    def _on_activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        ids = self._culprits(item)
        if ids:
            self.document.set_selection(ids)
            self.centre_requested.emit(ids[0])
