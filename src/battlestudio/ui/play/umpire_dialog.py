"""The umpire's compact dialog (casualties, melee, morale) and the annotation dialog.

Torden over Europa's fire, melee and morale tables (Tables 2–12) are missing from the seed, so
their outcomes are the umpire's rulings, entered here and recorded through the session
(``GameSession.casualties``, ``melee``, ``morale_test``) as one undo step each. Units are
offered by name; the map selection fills the fields in (the selected unit for casualties and
morale, the selected units of each side as attackers and defenders). ``AnnotationDialog`` takes
a note's title and text; the place it is pinned to was clicked on the map before it opens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QSpinBox,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from battlestudio.model.names import display_names, labelled

if TYPE_CHECKING:
    from battlestudio.play.document import PlayDocument


def _unit_combo(state, selection, name: str) -> QComboBox:
    box = QComboBox()
    box.setObjectName(name)
    box.setEditable(True)
    box.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
    names = display_names(state)
    units = (u for u in state.units.values() if u.id not in state.off_table)
    for u in sorted(units, key=lambda u: (u.side, names[u.id])):
        box.addItem(labelled(u.name, names[u.id], u.side), u.id)
    sel = [i for i in selection if i in state.units]
    if sel:
        box.setCurrentIndex(box.findData(sel[0]))
    return box


def _unit_list(state, side_of, selection, name: str) -> QListWidget:
    lst = QListWidget()
    lst.setObjectName(name)
    lst.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)
    names = display_names(state)
    for u in sorted(
        (u for u in state.units.values() if side_of(u.side) and u.id not in state.off_table), key=lambda u: names[u.id]
    ):
        item = QListWidgetItem(names[u.id])
        item.setData(Qt.ItemDataRole.UserRole, u.id)
        lst.addItem(item)
        item.setSelected(u.id in selection)
    lst.setMinimumHeight(90)
    return lst


def _chosen(lst: QListWidget) -> list[str]:
    return [i.data(Qt.ItemDataRole.UserRole) for i in lst.selectedItems()]


class UmpireDialog(QDialog):
    """Enter one casualties, melee or morale outcome in the open phase (tab ``start``)."""

    TABS = ("casualties", "melee", "morale")

    def __init__(self, document: PlayDocument, start: str = "casualties", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("umpire_dialog")
        self.setWindowTitle("Umpire's entry")
        self.document = document
        s = document.session
        state, sel, active = s.state, document.selection, s.key.side
        self.tabs = QTabWidget(self)
        # casualties
        cas = QWidget()
        f = QFormLayout(cas)
        self.cas_unit = _unit_combo(state, sel, "umpire_cas_unit")
        self.cas_figures = QSpinBox(objectName="umpire_cas_figures", maximum=999)
        self.cas_men = QSpinBox(objectName="umpire_cas_men", maximum=100_000)
        self.cas_guns = QSpinBox(objectName="umpire_cas_guns", maximum=1000)
        self.cas_cause = QComboBox(objectName="umpire_cas_cause", editable=True)
        self.cas_cause.addItems(["fire", "melee", "artillery", "rout", "umpire"])
        for label, w in (
            ("Unit", self.cas_unit),
            ("Figures lost", self.cas_figures),
            ("Men", self.cas_men),
            ("Guns", self.cas_guns),
            ("Cause", self.cas_cause),
        ):
            f.addRow(label, w)
        self.tabs.addTab(cas, "Casualties")
        self.cas_unit.currentIndexChanged.connect(self._limit_losses)
        self._limit_losses()
        # melee
        mel = QWidget()
        f = QFormLayout(mel)
        self.mel_att = _unit_list(state, lambda sd: sd == active, sel, "umpire_melee_attackers")
        self.mel_def = _unit_list(state, lambda sd: sd != active, sel, "umpire_melee_defenders")
        self.mel_winner = QComboBox(objectName="umpire_melee_winner")
        for label, value in (("attackers", "attacker"), ("defenders", "defender"), ("draw", "draw"), ("undecided", "")):
            self.mel_winner.addItem(label, value)
        self.mel_text = QLineEdit(objectName="umpire_melee_text", placeholderText="why, in a sentence")
        f.addRow(f"Attackers ({active})", self.mel_att)
        f.addRow("Defenders", self.mel_def)
        f.addRow("Winner", self.mel_winner)
        f.addRow("Explanation", self.mel_text)
        self.tabs.addTab(mel, "Melee")
        # morale
        mor = QWidget()
        f = QFormLayout(mor)
        self.mor_unit = _unit_combo(state, sel, "umpire_morale_unit")
        self.mor_passed = QCheckBox("passed", objectName="umpire_morale_passed", checked=True)
        self.mor_result = QComboBox(objectName="umpire_morale_result", editable=True)
        self.mor_result.addItems(["holds", "falls back", "routs", "disordered"])
        self.mor_text = QLineEdit(objectName="umpire_morale_text", placeholderText="why, in a sentence")
        for label, w in (
            ("Unit", self.mor_unit),
            ("Test", self.mor_passed),
            ("Result", self.mor_result),
            ("Explanation", self.mor_text),
        ):
            f.addRow(label, w)
        self.tabs.addTab(mor, "Morale")
        self.tabs.setCurrentIndex(self.TABS.index(start) if start in self.TABS else 0)
        note = QLabel("The seed's fire, melee and morale tables (Tables 2–12) are missing: enter the umpire's ruling.")
        note.setWordWrap(True)
        note.setStyleSheet("color: gray;")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText("Record")
        buttons.accepted.connect(self.record)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(self.tabs)
        lay.addWidget(note)
        lay.addWidget(buttons)

    def _limit_losses(self) -> None:
        """The loss boxes go no higher than what the chosen unit has (1.1: figures, men, guns)."""
        u = self.document.session.state.units.get(self.cas_unit.currentData() or "")
        for box, has in (
            (self.cas_figures, u.figures if u else 0),
            (self.cas_men, u.men if u else 0),
            (self.cas_guns, u.guns if u else 0),
        ):
            box.setMaximum(has)
            box.setSuffix(f" of {has}")

    def record(self) -> bool:
        """Record the entry of the current tab; close on success (True)."""
        tab = self.TABS[self.tabs.currentIndex()]
        if tab == "casualties":
            uid = self.cas_unit.currentData()
            name = self.cas_unit.currentText()
            ok = self.document.run(
                f"Casualties of {name}",
                lambda s: s.casualties(
                    uid,
                    self.cas_figures.value(),
                    men=self.cas_men.value(),
                    guns=self.cas_guns.value(),
                    cause=self.cas_cause.currentText(),
                ),
            )
        elif tab == "melee":
            att, dfn = _chosen(self.mel_att), _chosen(self.mel_def)
            if not att or not dfn:
                self.document.refused.emit("A melee needs at least one attacker and one defender.")
                return False
            winner = self.mel_winner.currentData()
            ok = self.document.run("Melee", lambda s: s.melee(att, dfn, winner, self.mel_text.text()))
        else:
            uid = self.mor_unit.currentData()
            ok = self.document.run(
                f"Morale test of {self.mor_unit.currentText()}",
                lambda s: s.morale_test(
                    uid, self.mor_passed.isChecked(), self.mor_result.currentText(), self.mor_text.text()
                ),
            )
        if ok is not None:
            self.accept()
            return True
        return False


class AnnotationDialog(QDialog):
    """Title and text of a note pinned to the open phase, ``at`` a place (cm) and ``ids``."""

    def __init__(self, document: PlayDocument, at: tuple[float, float] | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("annotation_dialog")
        self.setWindowTitle("Annotation")
        self.document = document
        self.at = at
        self.ids = sorted(i for i in document.selection if document.session.state.record(i) is not None)
        self.title_edit = QLineEdit(objectName="annotation_title", placeholderText="short title (optional)")
        self.text_edit = QPlainTextEdit(objectName="annotation_text")
        self.text_edit.setPlaceholderText("What happens here, and why")
        where = "no place" if at is None else f"({at[0]:.1f}, {at[1]:.1f}) cm"
        shown = display_names(document.session.state)
        names = ", ".join(shown.get(i, i) for i in self.ids[:4])
        info = QLabel(f"Pinned to {document.session.key} at {where}" + (f"; about {names}" if names else ""))
        info.setWordWrap(True)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.record)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(info)
        lay.addWidget(self.title_edit)
        lay.addWidget(self.text_edit, 1)
        lay.addWidget(buttons)
        self.resize(420, 260)

    def record(self) -> bool:
        """Record the note (refused when it has no text); close on success."""
        text = self.text_edit.toPlainText().strip()
        if not text:
            self.document.refused.emit("An annotation needs some text.")
            return False
        title = self.title_edit.text().strip()
        ok = self.document.run(
            f"Annotation {title or text[:20]}", lambda s: s.annotate(text, title=title, at=self.at, ids=self.ids)
        )
        if ok is not None:
            self.accept()
            return True
        return False
