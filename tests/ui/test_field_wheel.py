"""A mouse wheel over the Properties dock scrolls it; it changes a number or a choice only in
the field being edited (a wheel over Turn length once set 15 → 20 min as an undoable edit)."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QComboBox, QSpinBox

from battlestudio.ui.panels.properties_panel import PropertiesPanel


def wheel(widget, steps: int = -3) -> None:
    centre = QPointF(widget.rect().center())
    event = QWheelEvent(
        centre,
        QPointF(widget.mapToGlobal(centre.toPoint())),
        QPoint(0, 0),
        QPoint(0, 120 * steps),
        Qt.MouseButton.NoButton,
        Qt.KeyboardModifier.NoModifier,
        Qt.ScrollPhase.NoScrollPhase,
        False,
    )
    QApplication.sendEvent(widget, event)


def test_a_wheel_over_an_unfocused_field_changes_nothing(qtbot, document):
    panel = PropertiesPanel(document)
    qtbot.addWidget(panel)
    panel.resize(300, 300)
    panel.show()
    qtbot.waitExposed(panel)
    minutes: QSpinBox = panel.editors["info"]["turn_minutes"].widget
    ruleset: QComboBox = panel.editors["info"]["ruleset"].widget
    before = (document.scenario.info.turn_minutes, document.scenario.info.ruleset, document.undo_text)
    wheel(minutes)
    wheel(ruleset)
    assert (document.scenario.info.turn_minutes, document.scenario.info.ruleset, document.undo_text) == before
    assert minutes.value() == before[0]

    minutes.setFocus()  # the field being edited takes the wheel as Qt's spin boxes do
    qtbot.waitUntil(minutes.hasFocus)
    wheel(minutes, steps=1)
    assert minutes.value() != before[0]
