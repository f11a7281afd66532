"""General d'Armée attack steps through the window's Actions dock on the bundled Elchingen: the
attacker's wheel (ПРОЦЕДУРА АТАКИ 2), fire support whose effect the umpire enters (ПРОВЕДЕНИЕ
АТАКИ 6, the fire rules are lost) and an evade (ПРОВЕДЕНИЕ АТАКИ 5 Б V) after which the attack
falls short (ПРОЦЕДУРА АТАКИ 4).
"""

from __future__ import annotations

import math

from dataclasses import replace

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSpinBox

from battlestudio.edits import PutRecords
from battlestudio.model.units import Subtype
from battlestudio.rules.gda.events import DamageTaken
from tests.ui.test_gda_attack_window import _act, _roll_all
from tests.ui.test_play_elchingen_rulesets import choose, elchingen_under, start, until

VILLATTE, ROGUET, TARGET, SKIRMISHERS = (
    "french-bde-villatte",
    "french-bde-roguet",
    "austrian-avantgarde",
    "austrian-avantgarde-2",
)
LOISON, CORPS, FIRER = "french-2eme-division", "french-vi-corps", "austrian-centre-bde"
PARAMS = {
    "adcs": 3,
    "normal_move_cm.infantry": 15,
    "normal_move_cm.cavalry": 30,
    "fire_support_range_cm.infantry": 40,
    "evade_distance_cm": 15,
}


def _place(doc, uid: str, x: float, y: float) -> None:
    px, py = doc.scenario.units[uid].position
    doc.move([uid], x - px, y - py, key=("place", uid))


def test_gda_wheel_fire_support_and_evade_through_the_actions_dock(qtbot, tmp_path, monkeypatch):
    w = elchingen_under(qtbot, tmp_path, monkeypatch, "gda", **PARAMS)
    doc = w.document
    # the designer sets the table: the avant-garde 13 cm ahead of Villatte but off his axis (his
    # straight line misses it by 2 cm), Roguet out to the left, and Erbach's regiment, marked as
    # skirmishers, 15 cm in front of Roguet
    _place(doc, TARGET, 129.0, 45.0)
    _place(doc, ROGUET, 75.0, 32.0)
    _place(doc, SKIRMISHERS, 75.0, 47.0)
    sk = doc.scenario.units[SKIRMISHERS]
    doc.push(PutRecords("units", {SKIRMISHERS: replace(sk, subtype=Subtype.SKIRMISHERS)}, "Mark skirmishers"))
    play = start(w)
    pv = w.play_view

    # Infantry Assault! for Loison, so two of his battalions attack separately (restriction 3)
    until(w, "adc", "french")
    dlg = pv.open_order_dialog()
    choose(dlg.issuer, CORPS)
    choose(dlg.recipient, LOISON)
    choose(dlg.order_type, "infantry_assault")
    qtbot.mouseClick(dlg.roll_button, Qt.MouseButton.LeftButton)
    dlg.close()
    until(w, "command")
    results = {r.formation: r for r in _roll_all(qtbot, w)}
    assert results[LOISON].flags["obeys"], results[LOISON].explanation

    until(w, "attack-declaration", "french")
    assert "may be declared" in _act(qtbot, w, VILLATTE, "declare_attack", target=TARGET)
    assert "may be declared" in _act(qtbot, w, ROGUET, "declare_attack", target=SKIRMISHERS)

    until(w, "attacks", "french")
    panel = pv.action_panel
    # the wheel: more than the 5 cm attack bonus is refused in the dock's preview
    panel.refresh()
    assert panel.set_subject(VILLATTE) and panel.select_action("attack_move")
    wheel = panel.form.widgets["wheel"][0]
    assert isinstance(wheel, QSpinBox)
    wheel.setValue(-15)
    panel.update_preview()
    assert "more than the attack bonus (5 cm)" in panel.preview.toPlainText()
    text = _act(qtbot, w, VILLATTE, "attack_move", wheel=-11)
    assert "wheels -11°" in text and "straight ahead to 5 cm of" in text, text
    state = play.session.state
    assert state.units[VILLATTE].facing == pytest.approx(79.0)
    assert state.units[VILLATTE].footprint().distance(state.units[TARGET].footprint()) == pytest.approx(5.0, abs=1e-6)

    # fire support: the dock lists who may fire; the fire rules are lost, the umpire enters the damage
    panel.refresh()
    assert panel.set_subject(VILLATTE) and panel.select_action("fire_support")
    assert panel.enter_button.isVisible()
    form = panel.umpire_form
    assert FIRER in form.widgets and SKIRMISHERS not in form.widgets  # Roguet is nearer in its front
    box = form.widgets[FIRER][0]
    assert isinstance(box, QSpinBox)
    box.setValue(2)
    n = len(play.log)
    qtbot.mouseClick(panel.enter_button, Qt.MouseButton.LeftButton)
    assert len(play.log) > n, panel.outcome.toPlainText()
    hits = [(e.unit, e.points) for e in play.log.events[n:] if isinstance(e, DamageTaken)]
    assert hits == [(VILLATTE, 2)]
    assert play.session.state.flags[f"gda-attack:{VILLATTE}"]["support_fire_damage"] == {VILLATTE: 2}
    assert "2 damage in this attack" in _preview(panel, VILLATTE, "attack")

    # the evade: the skirmishers go 15 cm straight away (the scenario's lost distance) ...
    text = _act(qtbot, w, ROGUET, "reaction", reaction="evade")
    assert "evades 15 cm straight away from the attacker" in text, text
    assert play.session.state.units[SKIRMISHERS].position == pytest.approx((75.0, 62.0))
    # ... and Roguet can no longer reach them: the French won this turn's initiative, so theirs
    # is the active side's attack, which moves its full distance and stops Unformed (ПРОЦЕДУРА
    # АТАКИ 4); the turn is played phase by phase, the winner first after the roll (ИНИЦИАТИВА)
    assert play.session.state.flags["initiative:holder"] == "french" and play.session.key.side == "french"
    before = play.session.state.units[ROGUET].position
    text = _act(qtbot, w, ROGUET, "attack_move")
    assert "needed 25.0 cm but reaches 20.0 cm: it moves its full distance and stops Unformed" in text, text
    assert "the attack is abandoned and the target may fire" in text
    moved = play.session.state.units[ROGUET].position
    assert moved != before and math.dist(moved, before) == pytest.approx(20.0, abs=0.01)


def _preview(panel, subject: str, action: str) -> str:
    panel.refresh()
    assert panel.set_subject(subject) and panel.select_action(action)
    panel.update_preview()
    return panel.preview.toPlainText()


def _unavailable(panel, subject: str, action: str) -> str:
    """The dock's list entry of ``action`` for ``subject`` (its "Not now: …" line)."""
    panel.refresh()
    assert panel.set_subject(subject)
    for i in range(panel.list.count()):
        item = panel.list.item(i)
        if item.data(Qt.ItemDataRole.UserRole) == action:
            return item.text()
    raise AssertionError(f"{action} is not listed for {subject}")
