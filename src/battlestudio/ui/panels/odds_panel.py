"""The Odds dock: the exact chance an order gets through, for a chosen issuer and recipient.

It reads ``analysis.odds.order_odds`` for the state shown (the editor's scenario, live as
generals are dragged, or the replay's state at the cursor) and lays out, per ruleset: Torden
over Europa's chance in every command zone with each modifier and the zone that applies now;
General d'Armée's chance that a brigade obeys, with and without an ADC attached; the Regimental
rules' expected number of actions in and out of the HQ's zone; and what moving the commander
into the next zone would change. Selecting two records on the map (a commander and one of
his subordinates) picks the pair.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from collections.abc import Mapping

from PySide6.QtCore import Qt
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from battlestudio.analysis.odds import order_odds
from battlestudio.rules import resolve_ruleset_id
from battlestudio.rules.fingerprint import recorded_parameters, ruleset_changes
from battlestudio.rules.odds import Odds, pct
from battlestudio.model.units import ECHELON_RANK
from battlestudio.replay.state import GameState
from battlestudio.ui.play.idle_slice import IdleSlice

if TYPE_CHECKING:
    from battlestudio.document import Document


class OddsPanel(QWidget):
    """Issuer and recipient choosers over a table of odds.

    Attributes
    ----------
    odds : Odds | None
        what is shown now.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state: GameState | None = None
        self.ruleset_id = ""
        self.params: Mapping[str, Any] = {}
        self.odds: Odds | None = None
        self._document: Document | None = None
        self._later = IdleSlice(self._show_document, self._playing, self)
        self._compared: tuple[tuple[Any, ...], list[str], dict[str, Any] | None] | None = None
        self.issuer = QComboBox()
        self.recipient = QComboBox()
        for combo in (self.issuer, self.recipient):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
            combo.setMinimumContentsLength(16)
        form = QFormLayout()
        form.addRow("Issuer", self.issuer)
        form.addRow("Recipient", self.recipient)
        self.numbers = QLabel()  # which rule numbers the odds use (recorded ones in a replay)
        self.numbers.setWordWrap(True)
        self.numbers.setObjectName("odds_numbers")
        self.numbers.hide()
        self.headline = QLabel()
        self.headline.setWordWrap(True)
        bold = QFont(self.headline.font())
        bold.setBold(True)
        self.headline.setFont(bold)
        self.table = QTableWidget(0, 3)
        self.table.setHorizontalHeaderLabels(["Situation", "Chance", "How"])
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.modifiers = QLabel()
        self.modifiers.setWordWrap(True)
        self.what_if = QLabel()
        self.what_if.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addLayout(form)
        lay.addWidget(self.numbers)
        lay.addWidget(self.headline)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.modifiers)
        lay.addWidget(self.what_if)
        self.issuer.currentIndexChanged.connect(self._on_issuer)
        self.recipient.currentIndexChanged.connect(lambda _i: self.recompute())

    # -- inputs --------------------------------------------------------------------------
    def bind(self, document: Document) -> None:
        """Follow ``document``: its scenario, changes (live while dragging) and selection."""
        if self._document is not None:
            self._document.changed.disconnect(self._on_doc_changed)
            self._document.selection_changed.disconnect(self.select_pair)
        self._document = document
        document.changed.connect(self._on_doc_changed)
        document.selection_changed.connect(self.select_pair)
        self._on_doc_changed([])

    def _playing(self) -> bool:
        timeline = getattr(self._document, "timeline", None)
        return timeline is not None and bool(timeline.playing)

    def _on_doc_changed(self, _changes: list) -> None:
        self._later()

    def _show_document(self) -> None:
        from battlestudio.ui.command_overlay import document_state

        s = self._document.scenario
        self.set_state(document_state(self._document), s.info.ruleset, s.info.parameters)

    def set_state(self, state: GameState, ruleset_id: str, params: Mapping[str, Any]) -> None:
        """Show odds in ``state`` (keeps the chosen pair when both still exist).

        In a recorded game shown at a past cursor the odds use the rule numbers recorded with
        the game (``Battle.ruleset_record``) when they differ from the ruleset's file now, and
        say so; at the end of a game being recorded, the numbers now (the next roll uses them).
        """
        self.state, self.ruleset_id, self.params = state, ruleset_id, self._numbers(ruleset_id, params)
        keep = self.issuer.currentData()
        issuers = sorted(
            (c for c in state.commanders.values() if c.id not in state.off_table),
            key=lambda c: (c.side, ECHELON_RANK.get(c.echelon, 9), c.name),
        )
        ids = [c.id for c in issuers]
        if ids != [self.issuer.itemData(i) for i in range(self.issuer.count())]:
            self.issuer.blockSignals(True)
            self.issuer.clear()
            for c in issuers:
                self.issuer.addItem(f"{c.name} ({c.echelon})", c.id)
            self.issuer.blockSignals(False)
            if keep in ids:
                self.issuer.setCurrentIndex(ids.index(keep))
            self._fill_recipients()
        self.recompute()

    def _numbers(self, ruleset_id: str, params: Mapping[str, Any]) -> Mapping[str, Any]:
        """The parameters to compute with, and the note saying which numbers they are."""
        doc = self._document
        battle = getattr(doc, "battle", None)
        record = getattr(battle, "ruleset_record", None) if getattr(doc, "timeline", None) is not None else None
        rid = resolve_ruleset_id(ruleset_id) if record else ruleset_id
        key = (record, rid, params)
        if self._compared is None or any(a is not b for a, b in zip(self._compared[0], key, strict=True)):
            changed = ruleset_changes(record, rid, params) if record else []  # a hash of every number:
            self._compared = (key, changed, recorded_parameters(record, rid, params) if changed else None)
        _, changed, recorded = self._compared  # once per game, not per replay step
        if not changed:
            self.numbers.hide()
            return params
        what = "; ".join(changed)
        if getattr(doc, "recording", False) or recorded is None:
            now = "Odds use the rule numbers in force now, changed since this game was recorded"
            self.numbers.setText(f"{now}: {what}")
            self.numbers.show()
            return params
        self.numbers.setText(f"Odds use the rule numbers recorded with this game (now changed: {what})")
        self.numbers.show()
        return recorded

    def _on_issuer(self, _index: int) -> None:
        self._fill_recipients()
        self.recompute()

    def _fill_recipients(self) -> None:
        state, issuer = self.state, self.issuer.currentData()
        keep = self.recipient.currentData()
        self.recipient.blockSignals(True)
        self.recipient.clear()
        if state is not None and issuer in state.commanders:
            subs = [n for n in state.oob.all_subordinates(issuer) if n not in state.off_table]
            for n in subs:
                rec = state.commanders.get(n) or state.units.get(n)
                if rec is not None:
                    self.recipient.addItem(rec.name or n, n)
            if keep in subs:
                self.recipient.setCurrentIndex(subs.index(keep))
        self.recipient.blockSignals(False)

    def set_pair(self, issuer: str, recipient: str) -> bool:
        """Choose ``issuer`` and ``recipient`` by id; False when either is not offered."""
        i = self.issuer.findData(issuer)
        if i < 0:
            return False
        self.issuer.setCurrentIndex(i)
        j = self.recipient.findData(recipient)
        if j < 0:
            return False
        self.recipient.setCurrentIndex(j)
        self.recompute()
        return True

    def select_pair(self, ids: frozenset[str]) -> None:
        """With exactly two records selected, one above the other in the order of battle,
        show the odds from the higher to the lower."""
        if self.state is None or len(ids) != 2:
            return
        a, b = sorted(ids)
        oob = self.state.oob
        if a in oob.chain_of_command(b):
            self.set_pair(a, b)
        elif b in oob.chain_of_command(a):
            self.set_pair(b, a)

    # -- output --------------------------------------------------------------------------
    def recompute(self) -> None:
        """Compute and show the odds of the chosen pair."""
        issuer, recipient = self.issuer.currentData(), self.recipient.currentData()
        if self.state is None or not issuer or not recipient:
            self.odds = None
            self.headline.setText("Choose an issuer and one of his subordinates.")
            self.table.setRowCount(0)
            self.modifiers.clear()
            self.what_if.clear()
            return
        self.odds = odds = order_odds(self.state, self.ruleset_id, self.params, issuer, recipient)
        if odds.refusal:
            self.headline.setText(odds.refusal)
            self.table.setRowCount(0)
            self.modifiers.clear()
            self.what_if.clear()
            return
        self.headline.setText(odds.headline)
        self.table.setRowCount(len(odds.rows))
        for r, row in enumerate(odds.rows):
            value = pct(row.chance) if row.chance is not None else f"{float(row.expected):.2f} actions"
            for col, text in enumerate((row.label, value, row.detail)):
                item = QTableWidgetItem(text)
                if row.current:
                    item.setBackground(QBrush(QColor("#fff1b8")))
                    f = item.font()
                    f.setBold(True)
                    item.setFont(f)
                if col == 1:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.table.setItem(r, col, item)
        self.table.resizeColumnsToContents()
        if odds.modifiers:
            self.modifiers.setText("Modifiers: " + "; ".join(f"{v:+d} {src}" for v, src in odds.modifiers))
        else:
            self.modifiers.setText("")
        self.what_if.setText(f"What if: {odds.what_if}  ({odds.rule})")
