"""Edit ▸ Paste into a document that lacks the copied records' sides: ``PasteSidesDialog`` asks,
for each such side, which side of the document takes its records, or whether it comes in as a
new side (with a colour distinct from the document's). ``ask_paste_sides`` runs it."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtWidgets import QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QVBoxLayout, QWidget

from battlestudio.edits.clipboard import Clip
from battlestudio.model.scenario import Scenario, Side
from battlestudio.model.side_colours import side_colour

NEW = "__new_side__"


class PasteSidesDialog(QDialog):
    """One combo per copied side the document lacks (``boxes[side id]``): a side of the
    document, or ``NEW`` (the default) to add the copied side."""

    def __init__(self, scenario: Scenario, clip: Clip, unmatched: list[str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("paste_sides_dialog")
        self.setWindowTitle("Paste: sides")
        self.scenario, self.clip = scenario, clip
        lay = QVBoxLayout(self)
        lay.addWidget(QLabel("This document has no side for some of the pasted records. Put them on:"))
        form = QFormLayout()
        self.boxes: dict[str, QComboBox] = {}
        for sid in unmatched:
            side = clip.sides[sid]
            n = sum(1 for recs in clip.records.values() for r in recs.values() if getattr(r, "side", "") == sid)
            box = QComboBox()
            box.setObjectName(f"paste_side:{sid}")
            box.addItem(f"a new side “{side.name}”", NEW)
            for tid, t in scenario.sides.items():
                box.addItem(f"{t.name} ({tid})", tid)
            form.addRow(f"{side.name} ({sid}), {n} record(s):", box)
            self.boxes[sid] = box
        lay.addLayout(form)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText("&Paste")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)

    def answer(self, matched: dict[str, str]) -> tuple[dict[str, str], dict[str, Side]]:
        """``matched`` with the dialog's choices, and the new sides to add (distinct colours)."""
        mapping, new = dict(matched), {}
        for sid, box in self.boxes.items():
            choice = box.currentData()
            if choice == NEW:
                side = self.clip.sides[sid]
                taken = [s.colour for s in (*self.scenario.sides.values(), *new.values())]
                nation = side.nations[0] if side.nations else side.name
                colour = side.colour if side.colour not in taken else side_colour(nation, taken)
                new[sid] = replace(side, colour=colour)
                mapping[sid] = sid
            else:
                mapping[sid] = str(choice)
        return mapping, new


def ask_paste_sides(
    parent: QWidget, scenario: Scenario, clip: Clip, matched: dict[str, str], unmatched: list[str]
) -> tuple[dict[str, str], dict[str, Side]] | None:
    """Ask where the ``unmatched`` sides' records go; None when the user cancels."""
    dialog = PasteSidesDialog(scenario, clip, unmatched, parent)
    if dialog.exec() != QDialog.DialogCode.Accepted:
        return None
    return dialog.answer(matched)
