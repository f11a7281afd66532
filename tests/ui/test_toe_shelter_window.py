"""Torden over Europa 5.3.2 / 7.1 in the window, on the bundled Jena: the Advanced Guard foot
battery stands in base contact with von Pelet's brigade; the 10e Hussards declare an attack on
the battery through the Actions dock, the battery's reaction (the umpire's entry, Table 3 being
lost) takes it into von Pelet, the melee on the battery is refused with the rule's reason, the
hussars beat von Pelet instead, and once he falls back the battery is lost with him."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QSpinBox

from battlestudio import store
from battlestudio.play.document import PlayDocument
from battlestudio.replay.battle import Battle
from tests.ui.window_helpers import ModalRecorder, make_window

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"
PELET = "prussian-bde-von-pelet"  # line at (422, 190) facing south: its left end at x = 410
GUNS = "prussian-advanced-guard-foot-guns-1"
HUSSARS = "french-10e-hussar"
PLACE = {GUNS: (408.2, 190.0), HUSSARS: (408.2, 190.0)}  # the guns 0.3 cm from von Pelet; the hussars on both fronts


def _choose(box: QComboBox, value: str) -> None:
    i = box.findData(value)
    assert i >= 0, f"{value!r} is not offered: {[box.itemData(j) for j in range(box.count())]}"
    box.setCurrentIndex(i)


def _to_phase(w, phase: str) -> None:
    doc = w.document
    for _ in range(40):
        k = doc.session.key
        if (k.turn, k.side, k.phase) == (1, "french", phase):
            return
        w.play_view.actions["next_phase"].trigger()
    raise AssertionError(f"never reached the French {phase} of turn 1: {doc.session.key}")


def _do(qtbot, w, subject: str, action: str, **choices: str) -> str:
    """Pick ``subject`` and ``action`` in the Actions dock, set ``choices``, press its button;
    returns what the panel shows."""
    panel = w.play_view.action_panel
    panel.refresh()
    assert panel.set_subject(subject)
    assert panel.select_action(action), [panel._id_at(i) for i in range(panel.list.count())]
    for name, value in choices.items():
        _choose(panel.form.widgets[name][0], value)
    panel.update_preview()
    button = panel.roll_button if panel.roll_button.isVisible() else panel.enter_button
    assert button.isEnabled(), panel.preview.toPlainText()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    return panel.outcome.toPlainText()


def test_a_sheltered_battery_sends_the_attack_to_its_unit_and_is_lost_with_it(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    path = tmp_path / "jena-shelter.battle.json"
    store.save(Battle(store.load(JENA).scenario, []), path)
    assert w.files.open_path(path, ask=False)
    for uid, (x, y) in PLACE.items():
        u = w.document.scenario.units[uid]
        w.document.move([uid], x - u.position[0], y - u.position[1], key=("place", uid))
    w.play_view.seed = 1806
    w.play_view.actions["start"].trigger()
    doc = w.document
    assert isinstance(doc, PlayDocument) and doc.recording
    _to_phase(w, "attack_declaration")

    shown = _do(qtbot, w, HUSSARS, "declare_attack", target=GUNS)
    assert "declares an attack on Advanced Guard foot artillery" in shown
    panel = w.play_view.action_panel
    assert panel.set_subject(GUNS) and panel.select_action("react")
    kind = panel.form.widgets["kind"][0]
    assert [kind.itemData(i) for i in range(kind.count()) if kind.itemData(i)] == ["shelter"]  # 5.3.2
    assert "Table 3" in panel.umpire_line.text()
    # the roll's result is the umpire's: nothing is recorded until he enters it (a fresh tester's
    # first Enter result recorded "failed" from a check box he never saw)
    panel.update_preview()
    assert not panel.enter_button.isEnabled() and "Fill in:" in panel.preview.toPlainText()
    for box in panel.umpire_form.widgets["passed"]:
        if isinstance(box, QCheckBox):
            assert box.checkState() == Qt.CheckState.PartiallyChecked
            box.setChecked(True)
    panel.update_preview()
    assert panel.enter_button.isEnabled()
    qtbot.mouseClick(panel.enter_button, Qt.MouseButton.LeftButton)
    assert "It moves into Bde von Pelet (5.3.2)" in panel.outcome.toPlainText()
    assert doc.session.state.flags[f"attack_declared:{HUSSARS}"]["target"] == PELET

    _to_phase(w, "attack")
    panel.refresh()
    assert panel.set_subject(HUSSARS) and panel.select_action("melee")
    _choose(panel.form.widgets["target"][0], GUNS)
    panel.update_preview()
    text = panel.preview.toPlainText()
    assert "Not legal" in text and "the attack is made on Bde von Pelet" in text and "7.1" in text
    _choose(panel.form.widgets["target"][0], PELET)
    panel.update_preview()
    umpire = panel.umpire_form.widgets
    _choose(umpire["winner"][0], "attacker")
    for name, value in (("attacker_losses", 0), ("defender_losses", 2)):
        box = umpire[name][0]
        assert isinstance(box, QSpinBox)
        box.setValue(value)
    qtbot.mouseClick(panel.enter_button, Qt.MouseButton.LeftButton)
    assert "sheltered in Bde von Pelet does not count" in panel.outcome.toPlainText()

    panel.refresh()
    assert panel.set_subject(GUNS)
    row = next(panel.list.item(i) for i in range(panel.list.count()) if panel._id_at(i) == "battery_lost")
    assert "has not moved away" in row.text()  # von Pelet has not fallen back yet: offered, not legal
    assert not row.flags() & Qt.ItemFlag.ItemIsEnabled
    doc.move([PELET], 0.0, 12.0, key=("fall back", PELET))  # the umpire's morale result: it falls back
    shown = _do(qtbot, w, GUNS, "battery_lost")
    assert "is destroyed" in shown and "5.3.2" in shown
    assert GUNS not in doc.session.state.units or doc.session.state.units[GUNS].state == "eliminated"
