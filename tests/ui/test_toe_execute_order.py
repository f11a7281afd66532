"""Carrying out an attack order in the Actions dock (Torden over Europa 2.7), on the bundled
Jena battle with the 34e Ligne in square: Napoleon's attack order reaches Lannes through the
order dialog; in the movement phase the dock's "Carry out the standing order" previews the
formation changes the move needs in the turn the order arrives (the square forms column, the
unlimbered battery limbers), offers the "batteries unlimber where they may" box, and Roll records
the changes, Lannes' move, his troops following, the battery's full-speed move towards the corps
and its unlimbering within his command distance, as one undo step; the Properties ▸ Formation
combo refuses to unlimber a battery out of his command distance and out of range."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox

from battlestudio import store
from battlestudio.model.units import Formation
from battlestudio.play.document import PlayDocument
from battlestudio.replay.battle import Battle
from tests.test_session import ENGINE
from tests.ui.window_helpers import ModalRecorder, make_window

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"
NAPOLEON, LANNES = "french-imperial-guard", "french-v-corps"
SQUARE, BATTERY = "french-34e-ligne", "french-v-corps-foot-guns-1"
OBJECTIVE = (420.0, 200.0)
SEED = 3  # the dice that deliver Napoleon's order to Lannes


def _jena(tmp_path: Path, **battery) -> Path:
    s = store.load(JENA).scenario
    s.info = replace(s.info, parameters={**s.info.parameters, **ENGINE, **battery.pop("params", {})})
    s.units[SQUARE] = replace(s.units[SQUARE], formation=Formation.SQUARE)
    s.units[BATTERY] = replace(s.units[BATTERY], **battery)
    path = tmp_path / "jena-attack.battle.json"
    store.save(Battle(s, []), path)
    return path


def _attack_order(qtbot, w) -> None:
    dlg = w.play_view.open_order_dialog()
    try:
        dlg.issuer.setCurrentIndex(dlg.issuer.findData(NAPOLEON))
        dlg.recipient.setCurrentIndex(dlg.recipient.findData(LANNES))
        dlg.order_type.setCurrentIndex(dlg.order_type.findData("A"))
        dlg.set_objective(OBJECTIVE)
        assert dlg.roll_button.isEnabled()
        qtbot.mouseClick(dlg.roll_button, Qt.MouseButton.LeftButton)
    finally:
        dlg.close()


def test_the_attack_order_is_carried_out_with_its_formation_changes_and_the_artillery(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(_jena(tmp_path, position=(409.5, 115.0)), ask=False)  # the battery behind the corps
    w.play_view.seed = SEED
    w.play_view.actions["start"].trigger()
    play = w.document
    assert isinstance(play, PlayDocument) and play.recording
    _attack_order(qtbot, w)
    order = next(o for o in play.session.state.orders.values() if o.recipient == LANNES)
    assert order.status.value == "delivered", order
    w.play_view.actions["next_phase"].trigger()
    assert tuple(play.session.key) == (1, "french", "movement")
    before = play.session.state

    panel = w.play_view.action_panel
    panel.refresh()
    assert panel.set_subject(LANNES)
    assert panel.select_action("execute_order") and panel.spec is not None
    text = panel.preview.toPlainText()
    assert "34e Ligne square → column" in text and "unlimbered → limbered" in text and "2.7" in text
    (box,) = panel.form.widgets["unlimber"]
    assert isinstance(box, QCheckBox) and not box.isChecked()
    box.setChecked(True)
    panel.update_preview()
    assert panel.roll_button.isEnabled()
    n = len(play.log)
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    kinds = [e.kind for e in play.log.events[n:]]
    assert kinds[0] == "formation_changed" and "moved" in kinds and kinds[-1] == "formation_changed"
    after = play.session.state
    assert after.units[SQUARE].formation is Formation.COLUMN
    assert math.dist(before.units[SQUARE].position, after.units[SQUARE].position) > 15.0
    assert after.units[BATTERY].formation is Formation.UNLIMBERED
    assert math.dist(before.units[BATTERY].position, after.units[BATTERY].position) > 25.0
    outcome = panel.outcome.toPlainText()
    panel.refresh()  # carried out: not offered again this turn (Lannes is engaged; the changes are made)
    assert panel.set_subject(LANNES) and not panel.select_action("execute_order")
    row = next(panel.list.item(r) for r in range(panel.list.count()) if panel._id_at(r) == "execute_order")
    assert not row.flags() & Qt.ItemFlag.ItemIsEnabled and "Not now" in row.text() and "engaged" in row.text()
    assert "full march speed" in outcome and "unlimbers: within Lannes's command distance" in outcome
    play.undo()  # one undo step takes it all back
    assert play.session.state.units[SQUARE].formation is Formation.SQUARE
    assert play.session.state.units[BATTERY].position == before.units[BATTERY].position


def test_the_properties_combo_refuses_to_unlimber_out_of_command_distance_and_range(qtbot, tmp_path, monkeypatch):
    """Under Lannes' attack order his limbered battery 85 cm behind him, with the scenario's
    Table 6 reaching 40 cm, is refused the change to unlimbered in Properties ▸ Formation: the
    status bar names 2.7 and nothing is recorded (2.7 'Artilleri kan når dette er indenfor
    skudafstand, af fjenden eller indenfor korpschefens kommandoafstand foretage afprodsning')."""
    from tests.ui.test_formation_change import pick_from_list

    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    table = {"zones_cm": [10, 20, 40], "losses": [[1], [1], [1]]}
    path = _jena(
        tmp_path, formation=Formation.LIMBERED, position=(409.5, 60.0), params={"toe.fire_table.artillery": table}
    )
    assert w.files.open_path(path, ask=False)
    w.play_view.seed = SEED
    w.play_view.actions["start"].trigger()
    play = w.document
    _attack_order(qtbot, w)
    w.play_view.actions["next_phase"].trigger()
    assert tuple(play.session.key) == (1, "french", "movement")
    play.set_selection({BATTERY})
    n = len(play.log)
    pick_from_list(qtbot, w, Formation.UNLIMBERED)
    said = w.statusBar().currentMessage()
    assert len(play.log) == n and play.session.state.units[BATTERY].formation is Formation.LIMBERED
    assert "may not unlimber here" in said and "2.7" in said and "Lannes" in said, said
