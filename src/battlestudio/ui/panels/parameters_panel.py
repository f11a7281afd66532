"""Properties ▸ Ruleset parameters: every number the scenario's ruleset knows, editable.

A table of ``analysis.parameters.parameter_rows``: name, rule section, status (rule / assumed /
missing), the value in force (the scenario's, in bold, or the ruleset's) and a Reset that takes
the scenario's value out so the ruleset's applies again. Missing values the scenario does not
supply are highlighted. Typing a value sets it as one undo step (``edits.info.SetParameters``);
a value of the wrong kind, or one the ruleset then refuses (``new_refusal``), is refused with a
message naming the parameter and the value. A template row (``zones_cm.<echelon>``) takes a new
key: replace the placeholder in its name, then type the value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QDialog,
    QGroupBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from battlestudio.analysis.parameters import (
    ParameterRow,
    check_value,
    new_refusal,
    parameter_rows,
    parse_value,
    show_value,
    template_pattern,
)
from battlestudio.edits.info import SetParameters
from battlestudio.rules import UnknownRuleset, get_ruleset
from battlestudio.rules.params import MISSING

if TYPE_CHECKING:
    from battlestudio.document import Document

NAME, VALUE, STATUS, SECTION, RESET = range(5)
UNSET = QColor("#f8d7da")
"""Background of a missing value the scenario does not supply."""


class ParametersPanel(QGroupBox):
    """The ruleset parameters of ``document``'s scenario; ``refresh`` re-reads them.

    Attributes
    ----------
    rows : list[ParameterRow]
        what the table shows, row by row.
    larger_window : QDialog | None
        the same table in a window of its own ("Larger view…"), while open.
    message : QLabel
        the last refusal (hidden when there is none).
    """

    def __init__(self, document: Document, parent: QWidget | None = None, in_window: bool = False) -> None:
        super().__init__("" if in_window else "Ruleset parameters", parent)
        self.setObjectName("ruleset_parameters")
        self.document = document
        self.rows: list[ParameterRow] = []
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.table = QTableWidget(0, 5)
        self.table.setObjectName("parameters_table")
        self.table.setHorizontalHeaderLabels(["Parameter", "Value", "Status", "Section", ""])
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(NAME, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(VALUE, QHeaderView.ResizeMode.Stretch)
        for col in (SECTION, STATUS, RESET):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.table.setMinimumHeight(320)
        self.table.setWordWrap(False)
        self.message = QLabel()
        self.message.setObjectName("parameters_message")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #b00020")
        self.message.hide()
        self.larger = QPushButton("Larger view…")
        self.larger.setObjectName("parameters_larger")
        self.larger.setToolTip("The same table in a window of its own")
        self.larger.clicked.connect(self.open_window)
        self.larger.setVisible(not in_window)
        self.larger_window: QDialog | None = None
        lay = QVBoxLayout(self)
        lay.addWidget(self.summary)
        lay.addWidget(self.larger, 0, Qt.AlignmentFlag.AlignRight)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.message)
        self.table.itemChanged.connect(self._on_item_changed)
        self.refresh()

    def open_window(self) -> QDialog:
        """The same table in a dialog of its own (not modal), following the document while open."""
        if self.larger_window is not None:
            self.larger_window.raise_()
            return self.larger_window
        top = self.window()
        dlg = QDialog(top if top is not self else None)
        dlg.setObjectName("parameters_window")
        dlg.setWindowTitle("Ruleset parameters")
        dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        panel = ParametersPanel(self.document, dlg, in_window=True)
        QVBoxLayout(dlg).addWidget(panel)
        doc, follow = self.document, panel.refresh
        doc.changed.connect(follow)
        dlg.destroyed.connect(lambda *_: doc.changed.disconnect(follow))
        dlg.finished.connect(lambda *_: setattr(self, "larger_window", None))
        dlg.resize(900, 640)
        dlg.show()
        self.larger_window = dlg
        return dlg

    # -- document → table ---------------------------------------------------------------------
    def ruleset(self) -> Any:
        return get_ruleset(self.document.scenario.info.ruleset)

    def refresh(self) -> None:
        """Re-read the parameters of the scenario and its ruleset."""
        params = self.document.scenario.info.parameters
        try:
            rs = self.ruleset()
        except UnknownRuleset as exc:
            self.rows = []
            self.table.setRowCount(0)
            self.summary.setText(str(exc))
            return
        self.rows = parameter_rows(rs, params)
        counts = {s: sum(r.status == s for r in self.rows if not r.template) for s in ("rule", "assumed", "missing")}
        unset = sum(r.unset for r in self.rows)
        self.summary.setText(
            f"<b>{rs.describe().name}</b>: {counts['rule']} rule values, {counts['assumed']} assumed readings, "
            f"{counts['missing']} missing values set by the scenario"
            + (
                f"; <span style='color:#8a5a00'>{unset} not set: the seed lost them, so the umpire "
                "enters those results at the table (not a problem)</span>"
                if unset
                else ""
            )
            + ". Type a value to override the ruleset's; Reset goes back to it."
        )
        self.table.blockSignals(True)
        self.table.setRowCount(len(self.rows))
        bold = QFont(self.table.font())
        bold.setBold(True)
        for i, row in enumerate(self.rows):
            tip = row.text + (f" (reading {row.ambiguity})" if row.ambiguity else "")
            section = row.section + (f" · {row.ambiguity}" if row.ambiguity else "")
            cells = [row.key, show_value(row.value), row.status, section]
            for col, text in enumerate(cells):
                item = QTableWidgetItem(text)
                flags = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
                if col == VALUE or (col == NAME and row.template):
                    flags |= Qt.ItemFlag.ItemIsEditable
                item.setFlags(flags)
                item.setToolTip(self._tip(row, col, tip))
                if row.unset:
                    item.setBackground(QBrush(UNSET))
                if col == VALUE and row.overridden:
                    item.setFont(bold)
                self.table.setItem(i, col, item)
            self.table.setCellWidget(i, RESET, self._reset_button(row))
        self.table.blockSignals(False)
        self.table.resizeColumnToContents(NAME)
        self.table.setColumnWidth(NAME, min(self.table.columnWidth(NAME), 190))  # the dock is narrow

    def _tip(self, row: ParameterRow, col: int, text: str) -> str:
        if col == VALUE:
            if row.template:
                return f"Replace the placeholder in the name ({row.key}), then type the value. {text}"
            if row.overridden:
                ruleset = "none (missing)" if row.status == MISSING else show_value(row.ruleset_value)
                return f"The scenario's value ({row.scenario_key}); the ruleset's: {ruleset}. {text}"
            if row.unset:
                return f"Missing: the rules text does not give it and the scenario does not set it. {text}"
            return f"The ruleset's value. {text}"
        return text

    def _reset_button(self, row: ParameterRow) -> QWidget:
        button = QToolButton()
        button.setText("Reset")
        button.setObjectName(f"parameter_reset:{row.key}")
        button.setEnabled(row.overridden)
        button.setToolTip(
            f"Take the scenario's {row.scenario_key} out: the ruleset's value applies"
            if row.overridden
            else "The ruleset's value is in force"
        )
        button.clicked.connect(lambda _=False, key=row.key: self.reset(key))
        return button

    # -- table → document ---------------------------------------------------------------------
    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        if item.column() != VALUE:
            return  # a template's new name is read when its value is typed
        name_item = self.table.item(item.row(), NAME)
        index, text, name = item.row(), item.text(), name_item.text() if name_item is not None else ""
        QTimer.singleShot(0, lambda: self.set_value(index, text, name))  # not while the item emits

    def row_of(self, key: str) -> int:
        """Index of the row of ``key`` (-1 when there is none)."""
        return next((i for i, r in enumerate(self.rows) if r.key == key), -1)

    def set_value(self, index: int, text: str, name: str = "") -> bool:
        """Set row ``index``'s parameter (a template's: the key ``name``) to the value ``text``
        as one undo step; False (and the message shown) when refused."""
        row = self.rows[index]
        key = name.strip() if row.template else row.key
        if row.template and (key == row.key or not template_pattern(row.key).match(key)):
            return self._refuse(f"{row.key}: replace {row.key[row.key.index('<') :]} in the name with a real one first")
        if not text.strip():
            return self._refuse(f"{key}: type a value, or Reset to take it out")
        value = parse_value(text)
        why = check_value(row, value)
        rs = self.ruleset()
        params = dict(self.document.scenario.info.parameters)
        skey = row.scenario_key or f"{rs.id}.{key}"
        if not why:
            if skey in params and params[skey] == value:
                self._done()
                return True
            from battlestudio.ui.command_overlay import document_state

            why = new_refusal(rs, document_state(self.document), params, {**params, skey: value})
        if why:
            return self._refuse(f"{key} = {text.strip()} refused: {why}")
        changes = self.document.push(SetParameters({skey: value}, text=f"Set parameter {key}"))
        if not changes:
            return self._refuse(f"{key} was not changed (the scenario cannot be edited now)")
        self._done()
        return True

    def reset(self, key: str) -> bool:
        """Take the scenario's value of ``key`` out (one undo step): the ruleset's applies."""
        i = self.row_of(key)
        if i < 0 or not self.rows[i].overridden:
            return False
        rs_id = self.ruleset().id
        changes = self.document.push(SetParameters({}, remove={key, f"{rs_id}.{key}"}, text=f"Reset parameter {key}"))
        self._done()
        return bool(changes)

    def _refuse(self, text: str) -> bool:
        self.message.setText(text)
        self.message.show()
        self.refresh()  # the cell shows the value in force again
        return False

    def _done(self) -> None:
        self.message.hide()
        self.refresh()
