"""The editor command that switches a scenario's ruleset (issue 6, item 5): it shows what does
not carry over (``rules.switch.switch_report``: order types, unit states, echelons, ruleset
parameters, values the new ruleset needs) and, once the designer confirms, pushes one undoable
``SetInfo`` edit, with the units the new ruleset re-scales (``SwitchReport.converted``, e.g. the
Regimental bases) in the same undo step. Nothing else changes: values the new ruleset does not
read stay in the file, so switching back restores them.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMessageBox, QWidget

from battlestudio.document import Document
from battlestudio.edits import Macro, PutRecords, SetInfo
from battlestudio.rules import RuleRefused
from battlestudio.rules.switch import SwitchReport, switch_report

Confirm = Callable[[SwitchReport], bool]


def ask(parent: QWidget | None) -> Confirm:
    """A confirmation that shows the report in a message box (Switch / Cancel)."""

    def confirm(report: SwitchReport) -> bool:
        box = QMessageBox(
            QMessageBox.Icon.Question,
            f"Switch to {report.new_name}?",
            f"Switch this scenario from {report.old!r} to {report.new_name}?\n\n"
            "These do not carry over (they stay in the file; switching back restores them):",
            QMessageBox.StandardButton.Cancel,
            parent,
        )
        box.setInformativeText("\n".join(f"• {x}" for x in report.lines()))
        box.setDetailedText(report.text())
        switch = box.addButton("Switch ruleset", QMessageBox.ButtonRole.AcceptRole)
        box.exec()
        return box.clickedButton() is switch

    return confirm


def switch_ruleset(document: Document, new: str, confirm: Confirm) -> tuple[bool, SwitchReport | str]:
    """Switch ``document``'s scenario to ruleset ``new`` after ``confirm`` accepts the report
    (not asked when everything carries over). Returns ``(switched, report)``; for a ruleset
    that is not installed, or a battle with a recorded game, ``(False, message)`` and nothing
    changes."""
    if new == document.scenario.info.ruleset:
        return False, switch_report(document.scenario, new)
    recorded = len(document.battle.events)
    if recorded:  # a game is recorded under one ruleset: its phases and events belong to it
        return False, (
            f"This battle holds a recorded game ({recorded} event{'' if recorded == 1 else 's'}) played under "
            f"{document.scenario.info.ruleset or 'the default ruleset'}; a recorded game keeps its ruleset. "
            "To play the scenario under another ruleset, save a copy without the game "
            "(File ▸ Save As after Game ▸ Back to Scenario Editor and discarding the game) and switch there."
        )
    try:
        report = switch_report(document.scenario, new)
    except RuleRefused as exc:
        return False, str(exc)
    if not report.lossless and not confirm(report):
        return False, report
    text = f"Switch ruleset to {report.new_name}"
    if report.converted:  # the new ruleset's organisation (e.g. Regimental bases), one undo step
        document.push(Macro([SetInfo({"ruleset": new}, text), PutRecords("units", report.converted, text)], text))
    else:
        document.push(SetInfo({"ruleset": new}, text))
    return True, report
