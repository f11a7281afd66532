"""Issue 17's Done-when in the window: a General d'Armée attack with a support and a reroll played
on the bundled Elchingen through the order dialog, Command Rolls and the Actions dock; the
umpire enters the lost Attack Results table's result, the defending brigade turns Faltering
from its routing unit (ДРОГНУВШИЕ: «одно (любое) подразделение бежит»), and the next turn's
command roll of that brigade is on the Faltering Brigade table (ТАБЛИЦА ДРОГНУВШЕЙ БРИГАДЫ).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox, QSpinBox

from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.rules.gda.brigades import CommandState, brigade_status
from tests.ui.test_play_elchingen_rulesets import choose, elchingen_under, start, until

ATTACKER, SUPPORT, TARGET = "french-bde-villatte", "french-bde-roguet", "austrian-avantgarde"
LOISON, LOUDON, CORPS = "french-2eme-division", "austrian-1st-div", "french-vi-corps"
PARAMS = {"adcs": 3, "normal_move_cm.infantry": 15, "normal_move_cm.cavalry": 30}


def _pick(panel, field: str, value) -> None:
    box = panel.form.widgets[field][0]
    assert isinstance(box, (QComboBox, QSpinBox)), box
    if isinstance(box, QSpinBox):
        box.setValue(value)
    else:
        choose(box, value)
    panel.update_preview()


def _act(qtbot, w, subject: str, action: str, **params) -> str:
    """Select ``subject`` and ``action`` in the Actions dock, fill ``params``, click Roll; the
    outcome text."""
    panel = w.play_view.action_panel
    panel.refresh()
    assert panel.set_subject(subject), f"{subject} is not offered an action"
    assert panel.select_action(action), f"{action} is not offered to {subject}"
    for name, value in params.items():
        _pick(panel, name, value)
    assert "Not legal" not in panel.preview.toPlainText(), panel.preview.toPlainText()
    n = len(w.document.log)
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    assert len(w.document.log) > n, panel.outcome.toPlainText()
    return panel.outcome.toPlainText()


def _roll_all(qtbot, w):
    pv = w.play_view
    pv.actions["command_rolls"].trigger()
    rolls = pv.command_dialog
    qtbot.mouseClick(rolls.roll_all_button, Qt.MouseButton.LeftButton)
    results = list(rolls.results)
    rolls.close()
    return results


def test_gda_supported_attack_with_a_reroll_makes_the_defender_falter_and_roll_on_the_faltering_table(
    qtbot, tmp_path, monkeypatch
):
    w = elchingen_under(qtbot, tmp_path, monkeypatch, "gda", **PARAMS)
    doc = w.document
    # the designer brings the Austrian avant-garde 13 cm in front of Villatte (Roguet behind him)
    x, y = doc.scenario.units[TARGET].position
    doc.move([TARGET], 110.0 - x, 45.0 - y, key=("engage", TARGET))
    play = start(w)
    pv = w.play_view

    # ADC phase: the corps sends Infantry Assault! (2 ADCs) so Villatte may be supported
    until(w, "adc", "french")
    dlg = pv.open_order_dialog()
    choose(dlg.issuer, CORPS)
    choose(dlg.recipient, LOISON)
    choose(dlg.order_type, "infantry_assault")
    qtbot.mouseClick(dlg.roll_button, Qt.MouseButton.LeftButton)
    assert dlg.result is not None and "2 ADCs sent" in dlg.result.explanation
    dlg.close()

    # command rolls: Loison's brigade obeys, so the task is in force
    until(w, "command")
    results = {r.formation: r for r in _roll_all(qtbot, w)}
    assert results[LOISON].flags["obeys"], results[LOISON].explanation
    assert "infantry_assault" in brigade_status(play.session.state, LOISON).tasks

    # declaration: Villatte on the avant-garde, Roguet (2.5 cm behind) as his rear support
    until(w, "attack-declaration", "french")
    text = _act(qtbot, w, ATTACKER, "declare_attack", target=TARGET, supports=SUPPORT)
    assert "may be declared" in text
    assert play.session.state.flags[f"gda-attack:{ATTACKER}"]["positions"] == {SUPPORT: "rear"}

    # resolution: both sides roll 2D6; the attacker rerolls his lower die with Roguet's support
    until(w, "attacks", "french")
    text = _act(qtbot, w, ATTACKER, "attack", reroll_below=7)
    melee = play.session.state.flags[f"gda-attack:{ATTACKER}"]
    assert melee["stage"] == "rolled", melee
    rolls = {r.purpose.rsplit(":", 1)[1]: r for r in pv.action_panel.result.outcome.rolls}
    assert set(rolls) >= {"attacker", "reroll1"}, sorted(rolls)  # Roguet's reroll of the lower die
    assert "Support reroll 1 of the attacker's" in rolls["reroll1"].label
    assert rolls["reroll1"].explain() in text, text  # the dock shows the first dice and the reroll

    # the Attack Results table is lost: the umpire enters the attacker's victory, the defender routs
    panel = pv.action_panel
    panel.refresh()
    assert panel.set_subject(ATTACKER) and panel.select_action("attack_result")
    assert panel.enter_button.isVisible()
    form = panel.umpire_form
    choose(form.widgets["winner"][0], "attacker")
    choose(form.widgets["attacker"][0], "stands")
    choose(form.widgets["defender"][0], "routing")
    n = len(play.log)
    qtbot.mouseClick(panel.enter_button, Qt.MouseButton.LeftButton)
    assert len(play.log) > n, panel.outcome.toPlainText()
    state = play.session.state
    assert state.units[TARGET].state == "routing"
    assert brigade_status(state, LOUDON).state is CommandState.FALTERING
    falter = [
        e
        for e in play.log.events[n:]
        if isinstance(e, CommandStateChanged) and e.subject == LOUDON and e.value["state"] == "faltering"
    ]
    assert falter and "routs" in falter[0].reason

    # turn 2: Loudon's brigade rolls on the Faltering Brigade table, by its averaged quality
    until(w, "command")
    assert play.session.key.turn == 2
    results = {r.formation: r for r in _roll_all(qtbot, w)}
    loudon = results[LOUDON]
    # 3 regular battalions and 3 Elite cavalry regiments: the upper median is Elite
    assert loudon.flags["faltering_result"] and loudon.flags["quality"] == "elite", loudon.explanation
    assert loudon.rolls[0].purpose.startswith(f"gda-faltering:{LOUDON}:t2")
    assert "Faltering Brigade table" in loudon.rolls[0].threshold_source
