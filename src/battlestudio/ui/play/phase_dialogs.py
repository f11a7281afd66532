"""The dialogs of a phase's own steps besides orders, driven by what the ruleset declares.

``CommandRollDialog``: every command check due in the open phase (``GameSession.checks_due``,
e.g. each General d'Armée brigade's command roll), the one picked with its exact odds before
the roll (``analysis.odds.order_odds``), "Roll" for it or "Roll All" for every one left, each
outcome shown with its dice, modifiers and the ruleset's explanation (``RollRecord``).

``ActivationDialog``: the formations that may activate next (``activation_choices``, e.g. a
Regimental brigade or division), whose turn the alternation says it is, and "Activate" to
record the choice (``choose_activation``) before its orders are written.

Each roll or choice is one undo step of the ``PlayDocument``. Neither dialog is modal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from battlestudio.analysis.odds import order_odds
from battlestudio.rules.odds import pct
from battlestudio.rules.protocol import ActivationChoice, CheckResult

if TYPE_CHECKING:
    from battlestudio.play.document import PlayDocument

ID_ROLE = Qt.ItemDataRole.UserRole


def _esc(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\n", "<br>")


def _name(document: PlayDocument, rid: str) -> str:
    rec = document.session.state.record(rid)
    return f"{rec.name or rid} ({rec.side})" if rec is not None else rid


class CommandRollDialog(QDialog):
    """Roll the command checks due in the open phase of ``document``'s game, one by one or all.

    ``results`` holds every ``CheckResult`` rolled through the dialog, oldest first.
    """

    def __init__(self, document: PlayDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("command_roll_dialog")
        self.setWindowTitle("Command rolls")
        self.document = document
        self.results: list[CheckResult] = []
        self.where = QLabel(self)
        self.where.setWordWrap(True)
        self.due = QListWidget(self)
        self.due.setObjectName("command_rolls_due")
        self.due.currentRowChanged.connect(lambda _r: self.show_odds())
        self.odds = QTextBrowser(self)
        self.odds.setObjectName("command_rolls_odds")
        self.odds.setMinimumHeight(110)
        self.outcome = QTextBrowser(self)
        self.outcome.setObjectName("command_rolls_outcome")
        self.outcome.setMinimumHeight(150)
        self.roll_button = QPushButton("Roll", self)
        self.roll_button.setObjectName("command_rolls_roll")
        self.roll_button.setDefault(True)
        self.roll_button.clicked.connect(self.roll)
        self.roll_all_button = QPushButton("Roll All", self)
        self.roll_all_button.setObjectName("command_rolls_roll_all")
        self.roll_all_button.clicked.connect(self.roll_all)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.roll_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.roll_all_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.close)
        lay = QVBoxLayout(self)
        lay.addWidget(self.where)
        lay.addWidget(QLabel("<b>Due this phase</b>"))
        lay.addWidget(self.due, 1)
        lay.addWidget(QLabel("<b>Before the roll</b>"))
        lay.addWidget(self.odds)
        lay.addWidget(QLabel("<b>Rolled</b>"))
        lay.addWidget(self.outcome, 1)
        lay.addWidget(buttons)
        self.resize(560, 620)
        self.reload()

    @property
    def session(self):
        return self.document.session

    def reload(self) -> None:
        """List the checks due now, keeping the current one when it is still due."""
        keep = self.current()
        k = self.session.key
        spec = self.session.step().spec
        self.where.setText(f"<b>Turn {k.turn}</b> ({self.session.clock()}), {k.side}: {spec.name} ({spec.rule})")
        self.due.blockSignals(True)
        self.due.clear()
        for f in self.session.checks_due():
            item = QListWidgetItem(_name(self.document, f))
            item.setData(ID_ROLE, f)
            self.due.addItem(item)
        rows = [i for i in range(self.due.count()) if self.due.item(i).data(ID_ROLE) == keep]
        self.due.setCurrentRow(rows[0] if rows else 0)
        self.due.blockSignals(False)
        self.roll_button.setEnabled(self.due.count() > 0)
        self.roll_all_button.setEnabled(self.due.count() > 0)
        self.show_odds()

    def current(self) -> str | None:
        """The id of the formation picked (None when nothing is due)."""
        item = self.due.currentItem()
        return None if item is None else str(item.data(ID_ROLE))

    def select(self, formation: str) -> None:
        """Pick ``formation`` in the list (when it is due)."""
        for i in range(self.due.count()):
            if self.due.item(i).data(ID_ROLE) == formation:
                self.due.setCurrentRow(i)

    def show_odds(self) -> None:
        """The ruleset's exact odds for the formation picked, before its roll."""
        f = self.current()
        if f is None:
            self.odds.setHtml("No command check is due in this phase.")
            return
        s = self.session
        issuer = s.state.oob.superior(f) or f
        odds = order_odds(s.state, s.ruleset.id, s.params, issuer, f)
        if odds.refusal:
            self.odds.setHtml(f"<b>No odds:</b> {_esc(odds.refusal)}")
            return
        lines = [f"<b>{_esc(odds.headline)}</b>"]
        for row in odds.rows:
            mark = "▶ " if row.current else "• "
            exact = f" ({row.chance.numerator}/{row.chance.denominator})" if row.chance is not None else ""
            lines.append(f"{mark}{_esc(row.label)}: {pct(row.chance)}{exact} — {_esc(row.detail)}")
        if odds.what_if:
            lines.append(_esc(odds.what_if))
        if odds.rule:
            lines.append(f"<span style='color:gray'>{_esc(odds.rule)}</span>")
        self.odds.setHtml("<br>".join(lines))

    def _show(self, results: list[CheckResult]) -> None:
        for r in results:
            said = [x.explain() for x in r.rolls if x.explain() not in r.explanation]  # not said twice
            rolls = "".join(f"<br>&nbsp;&nbsp;· {_esc(line)}" for line in said)
            self.outcome.append(f"<b>{_esc(_name(self.document, r.formation))}</b>{rolls}<br>{_esc(r.explanation)}")

    def _run(self, label: str, formations: list[str] | None) -> list[CheckResult]:
        res: Any = self.document.run(label, lambda s: s.command_checks(formations))
        if not isinstance(res, list):
            self.outcome.append("<b>Not recorded.</b> See the status bar.")
            return []
        self.results += res
        self._show(res)
        self.reload()
        return res

    def roll(self) -> list[CheckResult]:
        """Roll the picked formation's check; returns its result (empty when refused)."""
        f = self.current()
        if f is None:
            return []
        return self._run(f"Command roll of {_name(self.document, f)}", [f])

    def roll_all(self) -> list[CheckResult]:
        """Roll every check still due, one after the other, as one undo step."""
        if not self.session.checks_due():
            return []
        return self._run("Command rolls", None)


class ActivationDialog(QDialog):
    """Choose the formation of the side on the move that activates next, and record it."""

    def __init__(self, document: PlayDocument, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("activation_dialog")
        self.setWindowTitle("Next activation")
        self.document = document
        self.result: ActivationChoice | None = None
        self.where = QLabel(self)
        self.where.setWordWrap(True)
        self.choices = QListWidget(self)
        self.choices.setObjectName("activation_choices")
        self.outcome = QTextBrowser(self)
        self.outcome.setObjectName("activation_outcome")
        self.outcome.setMinimumHeight(80)
        self.activate_button = QPushButton("Activate", self)
        self.activate_button.setObjectName("activation_choose")
        self.activate_button.setDefault(True)
        self.activate_button.clicked.connect(self.choose)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.activate_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.close)
        lay = QVBoxLayout(self)
        lay.addWidget(self.where)
        lay.addWidget(self.choices, 1)
        lay.addWidget(self.outcome)
        lay.addWidget(buttons)
        self.resize(460, 420)
        self.reload()

    @property
    def session(self):
        return self.document.session

    def reload(self) -> None:
        """List the formations that may activate next and whose turn it is."""
        s = self.session
        k = s.key
        due = s.ruleset.next_activation(s.state)
        self.where.setText(
            f"<b>Turn {k.turn}</b> ({s.clock()}), {k.side}: {s.step().spec.name}. "
            f"Next by the alternation: <b>{due}</b>."
        )
        self.choices.clear()
        for f in s.activation_choices():
            item = QListWidgetItem(_name(self.document, f))
            item.setData(ID_ROLE, f)
            self.choices.addItem(item)
        self.choices.setCurrentRow(0)
        self.activate_button.setEnabled(self.choices.count() > 0)

    def select(self, formation: str) -> None:
        """Pick ``formation`` in the list (when it may activate)."""
        for i in range(self.choices.count()):
            if self.choices.item(i).data(ID_ROLE) == formation:
                self.choices.setCurrentRow(i)

    def choose(self) -> ActivationChoice | None:
        """Record the picked formation as the next to activate and select it on the map."""
        item = self.choices.currentItem()
        if item is None:
            return None
        f = str(item.data(ID_ROLE))
        res = self.document.run(f"Activate {item.text()} next", lambda s: s.choose_activation(f))
        if not isinstance(res, ActivationChoice):
            self.outcome.setHtml("<b>Not recorded.</b> See the status bar.")
            return None
        self.result = res
        self.outcome.setHtml(_esc(res.explanation))
        self.document.set_selection([f])
        self.reload()
        return res
