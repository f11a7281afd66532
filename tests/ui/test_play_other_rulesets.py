"""Recording through the window works for the rulesets other than Torden over Europa (issue 6,
item 5): a General d'Armée world is opened, the game started, an ADC task sent through the order
dialog with its explanation shown, the phase closed, and the saved game replays to the same state.
"""

from __future__ import annotations

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.play.document import PlayDocument
from tests.test_session_rulesets import scenario_from_case
from tests.ui.window_helpers import ModalRecorder, make_window


def test_gda_adc_task_through_the_order_dialog_then_save_and_replay(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    path = tmp_path / "gda.battle.json"
    store.save(Battle(scenario_from_case("gda", "gda_cases", "command-roll-3-obeys-2-hesitant"), []), path)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(path, ask=False)
    pv = w.play_view
    pv.seed = 1809
    pv.actions["start"].trigger()
    doc = w.document
    assert isinstance(doc, PlayDocument) and doc.recording
    assert doc.session.key.phase == "adc"
    side = doc.session.key.side
    issuer, recipient = ("dullitz", "ab1") if side == "allies" else ("girard", "fb1")
    task = "infantry_assault" if side == "allies" else "brigade_attachment"

    dlg = pv.open_order_dialog()
    dlg.issuer.setCurrentIndex(dlg.issuer.findData(issuer))
    dlg.recipient.setCurrentIndex(dlg.recipient.findData(recipient))
    assert dlg.order_type.findData(task) >= 0, "the dialog offers General d'Armée's own ADC tasks"
    dlg.order_type.setCurrentIndex(dlg.order_type.findData(task))
    assert dlg.roll_button.isEnabled()
    before = len(doc.log)
    dlg.roll_button.click()
    assert len(doc.log) > before
    assert dlg.result is not None and dlg.result.explanation
    assert dlg.result.explanation in dlg.outcome.toPlainText()
    assert "ADC" in dlg.result.explanation
    dlg.close()

    pv.actions["next_phase"].trigger()
    assert doc.session.key.phase != "adc" or doc.session.key.side != side
    out = tmp_path / "gda-game.battle.json"
    store.save(Battle(doc.base.scenario, list(doc.log.events)), out)
    again = store.load(out)
    log = GameLog.from_battle(again)
    assert [e.to_dict() for e in log.events] == [e.to_dict() for e in doc.log.events]
    assert dict(log.head.units) == dict(doc.log.head.units)


def test_regimental_activation_announces_up_to_three_actions_in_the_dialog(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    path = tmp_path / "reg.battle.json"
    store.save(Battle(scenario_from_case("regimental", "regimental_cases", "orders-test-table"), []), path)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(path, ask=False)
    pv = w.play_view
    pv.seed = 1812
    pv.actions["start"].trigger()
    doc = w.document
    session = doc.session
    assert session.key.phase == "initiative" and session.initiative_rolled() == session.key  # rolled as it opened
    while session.key.phase != "activation":
        pv.actions["next_phase"].trigger()
        session = doc.session
    issuer, recipient = ("fhq", "fdiv") if session.key.side == "france" else ("hq", "div")

    dlg = pv.open_order_dialog()
    dlg.issuer.setCurrentIndex(dlg.issuer.findData(issuer))
    dlg.recipient.setCurrentIndex(dlg.recipient.findData(recipient))
    dlg.order_type.setCurrentIndex(dlg.order_type.findData("activate"))
    boxes = dlg.extra["actions"]
    assert len(boxes) == 3, "three announced actions, as the Regimental rules allow"
    boxes[0].setCurrentIndex(boxes[0].findData("move"))
    boxes[1].setCurrentIndex(boxes[1].findData("fire"))
    assert boxes[2].currentData() is None  # the third is optional
    assert dlg.request().parameters["actions"] == ("move", "fire")
    before = len(doc.log)
    dlg.roll_button.click()
    assert dlg.result is not None and "Orders test" in dlg.result.explanation
    assert dlg.result.explanation in dlg.outcome.toPlainText()
    recorded = [e.to_dict() for e in doc.log.events[before:]]
    assert recorded[0]["kind"] == "command_roll" and "announced: move, fire" in recorded[0]["explanation"]
    activated = next(e for e in recorded if e["kind"] == "command_state_changed")
    assert activated["value"]["announced"] == ["move", "fire"]
