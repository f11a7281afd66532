"""The bundled Elchingen switched (Properties ▸ Ruleset) to General d'Armée, the Regimental
rules and Belle Alliance is played from the window: the Game menu rolls the initiative and
every brigade's command roll, with the odds before and the dice after; ADC tasks go to the
division generals who lead their regiments themselves; the Regimental HQ issues orders and the
next activation is chosen and recorded; Belle Alliance attack orders go to units, with target,
storm and position as on the order sheet. Each step is driven through the real actions and
dialogs with qtbot clicks.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from battlestudio.edits import SetInfo
from battlestudio.play.document import PlayDocument
from battlestudio.replay.order_events import CommandRolled, CommandStateChanged, OrderWritten
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window


def elchingen_under(qtbot, tmp_path, monkeypatch, ruleset: str, **params):
    """A window showing the bundled Elchingen switched to ``ruleset`` through the Properties
    dock's Ruleset combo (confirmed), with ``params`` added to the scenario's parameters."""
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(ELCHINGEN, ask=False)
    panel = w.properties_panel
    panel.confirm_switch = lambda report: True
    combo: QComboBox = panel.editors["info"]["ruleset"].widget
    combo.setCurrentIndex(combo.findData(ruleset))
    combo.activated.emit(combo.currentIndex())
    assert w.document.scenario.info.ruleset == ruleset
    if params:
        w.document.push(SetInfo({"parameters": {**w.document.scenario.info.parameters, **params}}))
    w.play_view.seed = 1805
    return w


def start(w) -> PlayDocument:
    w.play_view.actions["start"].trigger()
    doc = w.document
    assert isinstance(doc, PlayDocument) and doc.recording
    return doc


def until(w, phase: str, side: str | None = None) -> None:
    """Next Phase until ``phase`` (of ``side``) is open."""
    doc = w.document
    for _ in range(40):
        k = doc.session.key
        if k.phase == phase and (side is None or k.side == side):
            return
        w.play_view.actions["next_phase"].trigger()
    raise AssertionError(f"never reached {phase} of {side}")


def choose(combo: QComboBox, data) -> None:
    i = combo.findData(data)
    assert i >= 0, f"{data!r} is not offered"
    combo.setCurrentIndex(i)


def enabled_types(dlg) -> dict[str, str]:
    """Order types offered now: id → "" when enabled, else the reason shown as the tooltip."""
    m = dlg.order_type.model()
    return {
        dlg.order_type.itemData(i): ""
        if m.item(i).isEnabled()
        else str(dlg.order_type.itemData(i, Qt.ItemDataRole.ToolTipRole))
        for i in range(dlg.order_type.count())
    }


def test_gda_adc_to_a_division_command_rolls_with_odds_and_the_initiative_at_phase_entry(qtbot, tmp_path, monkeypatch):
    w = elchingen_under(qtbot, tmp_path, monkeypatch, "gda", adcs=3)
    pv = w.play_view
    doc = start(w)
    session = doc.session
    assert session.key.phase == "adc"
    acts = pv.actions
    assert not acts["command_rolls"].isEnabled() and not acts["initiative"].isEnabled()
    side = session.key.side
    corps = next(c for c in session.state.commanders.values() if c.side == side and c.echelon == "corps")
    division = next(
        c
        for c in session.state.commanders.values()
        if c.side == side and c.echelon == "division" and session.state.oob.superior(c.id) == corps.id
    )

    # an ADC task for a division general who leads his regiments himself
    dlg = pv.open_order_dialog()
    choose(dlg.issuer, corps.id)
    choose(dlg.recipient, division.id)
    offered = enabled_types(dlg)
    assert offered["infantry_assault"] == "", offered["infantry_assault"]
    choose(dlg.order_type, "infantry_assault")
    assert dlg.roll_button.isEnabled()
    preview = dlg.preview.toPlainText()  # the task waits for the brigade's command roll, not 1/1
    assert "No roll as it is written. Then: " in preview and "66.7 % to obey this turn" in preview
    qtbot.mouseClick(dlg.roll_button, Qt.MouseButton.LeftButton)
    assert dlg.result is not None and dlg.result.status == "pending" and "2 ADCs sent" in dlg.result.explanation
    dlg.close()

    # the other side's ADC tasks: General d'Armée plays its turn phase by phase for both sides
    acts["next_phase"].trigger()
    assert doc.session.key.phase == "adc" and doc.session.key.side != side
    # the command phase: Command Rolls lists every brigade, with its odds before the roll
    acts["next_phase"].trigger()
    assert doc.session.key.phase == "command"
    assert acts["command_rolls"].isEnabled() and not acts["initiative"].isEnabled()
    acts["command_rolls"].trigger()
    rolls = pv.command_dialog
    assert rolls is not None and rolls.isVisible()
    listed = [rolls.due.item(i).data(Qt.ItemDataRole.UserRole) for i in range(rolls.due.count())]
    assert division.id in listed and len(listed) == len(doc.session.checks_due()) >= 4
    rolls.select(division.id)
    before = rolls.odds.toPlainText()
    assert "to obey this turn" in before and "66.7 % (2/3) — D6 ≥ 3" in before
    n = len(doc.log)
    qtbot.mouseClick(rolls.roll_button, Qt.MouseButton.LeftButton)
    assert len(doc.log) > n
    first = rolls.results[-1]
    assert first.formation == division.id and first.rolls
    shown = rolls.outcome.toPlainText()
    assert first.rolls[0].explain() in shown and "chance of obeying this turn 2/3" in shown
    assert division.id not in [rolls.due.item(i).data(Qt.ItemDataRole.UserRole) for i in range(rolls.due.count())]
    qtbot.mouseClick(rolls.roll_all_button, Qt.MouseButton.LeftButton)
    assert rolls.due.count() == 0 and not rolls.roll_button.isEnabled() and not rolls.roll_all_button.isEnabled()
    assert len(rolls.results) == len(listed)
    assert not acts["command_rolls"].isEnabled()
    assert any("Brigade command roll" in t for t in pv.panel.item_texts())
    rolls.close()

    # the other side's command phase, then the initiative phase, which opens with its roll,
    # shown in the Replay dock (once a turn: the turn goes phase by phase, ИНИЦИАТИВА)
    acts["next_phase"].trigger()
    assert doc.session.key.phase == "command" and doc.session.key.side != side
    doc.run("the other side's rolls", lambda s: s.command_checks())
    acts["next_phase"].trigger()
    assert doc.session.key.phase == "initiative"
    texts = pv.panel.item_texts()
    assert sum("Initiative," in t for t in texts) == 2, texts
    assert doc.session.state.flags["initiative:holder"] in ("french", "austrian")
    assert not acts["initiative"].isEnabled()
    assert "rolled" in acts["initiative"].toolTip()
    rolled = [e for e in doc.log.events if isinstance(e, CommandStateChanged) and e.subject == "holder"]
    assert len(rolled) == 1


def test_gda_roll_initiative_from_the_game_menu_when_it_was_not_rolled(qtbot, tmp_path, monkeypatch):
    w = elchingen_under(qtbot, tmp_path, monkeypatch, "gda", adcs=3)
    pv = w.play_view
    doc = start(w)
    # reach the initiative phase through the session, as a game recorded elsewhere would
    doc.run("to the initiative", lambda s: s.advance_to("initiative"))
    pv.update()
    assert doc.session.key.phase == "initiative" and doc.session.initiative_rolled() is None
    assert pv.actions["initiative"].isEnabled()
    menu_texts = [a.text() for a in pv.menu.actions()]
    assert "Roll &Initiative" in menu_texts and "&Command Rolls…" in menu_texts
    pv.actions["initiative"].trigger()
    assert doc.session.initiative_rolled() == doc.session.key
    assert not pv.actions["initiative"].isEnabled()
    assert sum(isinstance(e, CommandRolled) for e in doc.log.events) >= 2


def test_regimental_hq_issues_orders_and_the_next_activation_is_chosen(qtbot, tmp_path, monkeypatch):
    w = elchingen_under(qtbot, tmp_path, monkeypatch, "regimental")
    pv = w.play_view
    doc = start(w)
    assert doc.session.key.phase == "initiative"
    assert any("Initiative" in t for t in pv.panel.item_texts()), "rolled as the phase opened"
    holder = doc.session.state.flags["initiative:holder"]
    assert holder in ("french", "austrian")
    until(w, "activation")
    session = doc.session
    side = session.key.side
    hq = next(c for c in session.state.commanders.values() if c.side == side and c.echelon == "corps")

    acts = pv.actions
    assert acts["activation"].isEnabled()
    acts["activation"].trigger()
    act = pv.activation_dialog
    listed = [act.choices.item(i).data(Qt.ItemDataRole.UserRole) for i in range(act.choices.count())]
    assert len(listed) >= 2 and all(session.state.commanders[f].echelon == "division" for f in listed)
    chosen, other = listed[-1], listed[0]
    act.select(chosen)
    n = len(doc.log)
    qtbot.mouseClick(act.activate_button, Qt.MouseButton.LeftButton)
    assert len(doc.log) == n + 1 and act.result is not None and act.result.formation == chosen
    ev = doc.log.events[-1]
    assert isinstance(ev, CommandStateChanged) and ev.state == "next_activation" and ev.value["formation"] == chosen
    assert "next activation" in pv.panel.item_texts()[-1]
    assert session.state.commanders[chosen].name in act.outcome.toPlainText()
    act.close()

    dlg = pv.open_order_dialog()
    issuers = [dlg.issuer.itemData(i) for i in range(dlg.issuer.count())]
    assert issuers == [hq.id], "the side's top general is its HQ"
    choose(dlg.recipient, other)
    assert "was chosen to activate next" in enabled_types(dlg)["activate"]
    choose(dlg.recipient, chosen)
    assert enabled_types(dlg)["activate"] == ""
    choose(dlg.order_type, "activate")
    boxes = dlg.extra["actions"]
    choose(boxes[0], "move")
    choose(boxes[1], "reform")
    assert dlg.roll_button.isEnabled()
    qtbot.mouseClick(dlg.roll_button, Qt.MouseButton.LeftButton)
    assert dlg.result is not None and "Orders test" in dlg.result.explanation
    dlg.close()
    left = doc.session.activation_choices()
    assert chosen not in left and other in left


def test_belle_alliance_attack_order_to_a_unit_with_target_and_storm(qtbot, tmp_path, monkeypatch):
    w = elchingen_under(qtbot, tmp_path, monkeypatch, "belle-alliance")
    pv = w.play_view
    doc = start(w)
    assert doc.session.key.phase == "orders"
    st = doc.session.state
    side = doc.session.key.side
    unit = next(u for u in st.units.values() if u.side == side)
    commander = st.oob.superior(unit.id)

    dlg = pv.open_order_dialog()
    choose(dlg.issuer, commander)
    choose(dlg.recipient, unit.id)
    assert enabled_types(dlg)["attack"] == ""
    choose(dlg.order_type, "attack")
    target_box = dlg.extra["target"][0]
    enemies = [target_box.itemData(i) for i in range(target_box.count()) if target_box.itemData(i)]
    assert enemies and all(st.units[e].side != side for e in enemies)
    choose(target_box, enemies[0])  # the nearest
    choose(dlg.extra["storm"][0], "yes")
    assert dlg.extra["against_position"][0].currentData() == "no"
    assert dlg.roll_button.isEnabled()
    assert "Odds not known" in dlg.preview.toPlainText() and "order_roll" in dlg.preview.toPlainText()
    qtbot.mouseClick(dlg.roll_button, Qt.MouseButton.LeftButton)
    assert dlg.result is not None and dlg.result.status == "pending"
    written = next(e for e in reversed(doc.log.events) if isinstance(e, OrderWritten))
    assert written.recipient == unit.id and written.order_type == "attack"
    assert written.parameters["target"] == enemies[0]
    assert written.parameters["storm"] is True and written.parameters["against_position"] is False
    assert "with storm" in dlg.outcome.toPlainText()
