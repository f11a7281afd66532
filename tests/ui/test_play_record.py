"""Recording a game through the main window: Start Game, the order dialog with its objective
clicked on the map, a move dragged on the map, undo/redo of the open phase, Next Phase, Save;
then reopening the file and replaying it to the same states.

The table is the bundled Jena 1806 scenario with its recorded game taken out and the engine's
names for its Table 1 placeholders laid over the parameters (as scenarios/record_jena.py does).
"""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.store.journal import read_journal
from battlestudio.ui.resources import bundled_scenarios
from battlestudio.play.document import PlayDocument
from tests.jena import ENGINE
from tests.ui.window_helpers import ModalRecorder, drag, make_window, mouse, px

JENA = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")
NAPOLEON, LANNES = "french-imperial-guard", "french-v-corps"


@pytest.fixture
def jena_file(tmp_path):
    """Jena without its recorded game, saved as a .battle file."""
    b = store.load(JENA)
    s = b.scenario
    s.info = replace(s.info, parameters={**s.info.parameters, **ENGINE})
    path = tmp_path / "jena.battle"
    store.save(Battle(s, []), path)
    return path


def _unit_on_table(doc, side: str) -> str:
    """A unit of ``side`` standing in the open with nothing within 6 cm (so a click hits it)."""
    units = sorted((u for u in doc.scenario.units.values() if u.side == side), key=lambda u: u.id)
    for u in units:
        c = u.rect().centre
        if all(
            o.id == u.id or abs(o.rect().centre[0] - c[0]) + abs(o.rect().centre[1] - c[1]) > 12
            for o in doc.scenario.units.values()
        ) and all(abs(g.position[0] - c[0]) + abs(g.position[1] - c[1]) > 12 for g in doc.scenario.commanders.values()):
            return u.id
    raise AssertionError("no isolated unit")


def test_record_save_reopen_and_replay(qtbot, tmp_path, monkeypatch, jena_file):
    modal = ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1500, 950)
    assert w.files.open_path(jena_file, ask=False)
    pv = w.play_view
    pv.seed = 1806
    assert not isinstance(w.document, PlayDocument)  # nothing recorded yet: the editor
    assert pv.actions["start"].isEnabled() and not pv.actions["next_phase"].isEnabled()

    # Start Game: the document is in play, the strip shows turn 1 and the ruleset's phases
    pv.actions["start"].trigger()
    doc = w.document
    assert isinstance(doc, PlayDocument) and doc.recording
    assert doc.session.key == (1, "french", "orders")
    strip = pv.strip.text()
    assert "Turn 1/40" in strip and "06:00" in strip and "French Empire" in strip
    assert "1 Orders" in strip and "2 Movement" in strip and "7 Reorganisation" in strip
    assert "Order issuing" in pv.strip.toolTip()
    assert pv.actions["next_phase"].shortcut().toString() == "Ctrl+Return"

    # the order dialog: Napoleon orders Lannes to attack an objective clicked on the map
    dlg = pv.open_order_dialog()
    dlg.issuer.setCurrentIndex(dlg.issuer.findData(NAPOLEON))
    dlg.recipient.setCurrentIndex(dlg.recipient.findData(LANNES))
    dlg.order_type.setCurrentIndex(dlg.order_type.findData("A"))
    assert "Pick the objective" in dlg.preview.toPlainText()
    w.map_view.fit_table()
    dlg.pick_button.click()
    assert not dlg.isVisible() and w.map_view.tool.name == "pick"
    target = px(w.map_view, (380.0, 160.0))
    mouse(w.map_view, "press", target)
    mouse(w.map_view, "release", target)
    assert dlg.isVisible() and w.map_view.tool.name == "select"
    assert dlg.objective == pytest.approx((380.0, 160.0), abs=2.0)
    text = dlg.preview.toPlainText()
    # zone, distance, the modifier with its source, the threshold and the exact chance:
    # d10 (0-9) + 2 (Napoleon's KE) >= 4 succeeds on 2-9, 8 faces of 10
    gap = math.dist(doc.scenario.commanders[NAPOLEON].position, doc.scenario.commanders[LANNES].position)
    assert gap <= 20.0  # zone 1 of a C-in-C: up to 20 cm (the scenario's Table 1 placeholder)
    assert f"{gap:.1f} cm, zone 1" in text and "+2 command ability (KE) of Napoleon" in text and "≥ 4 needed" in text
    assert "Chance the order goes through: 4/5 (80.0%)" in text
    assert dlg.roll_button.isEnabled()
    before = len(doc.log)
    dlg.roll_button.click()
    kinds = [e.kind for e in doc.log.events[before:]]
    assert kinds[0] == "order_written" and "command_roll" in kinds
    assert dlg.result.status in ("delivered", "failed") and dlg.result.explanation in dlg.outcome.toPlainText()
    assert not dlg.roll_button.isEnabled()
    dlg.close()

    # a move on the map: dragging a unit records one Moved event (the drag merges), not an edit
    uid = _unit_on_table(doc, "french")
    start_pos = doc.scenario.units[uid].position
    scenario_before = doc.base.scenario.units[uid]
    centre = doc.scenario.units[uid].rect().centre
    n = len(doc.log)
    drag(w.map_view, px(w.map_view, centre), px(w.map_view, (centre[0] + 20.0, centre[1] + 10.0)))
    moves = [e for e in doc.log.events[n:]]
    refused = "not legal" in w.statusBar().currentMessage()  # the movement rules' word on the drag
    assert [e.kind for e in moves] == ["moved"] + (["annotation"] if refused else []) and moves[0].id == uid
    assert moves[0].path[0] == pytest.approx(start_pos)
    assert doc.scenario.units[uid].position == pytest.approx((start_pos[0] + 20, start_pos[1] + 10), abs=1.0)
    assert doc.base.scenario.units[uid] is scenario_before  # the scenario itself is untouched
    assert w.map_view.map_scene.item_for(uid) is not None

    # undo takes the move back, redo records it again
    assert "Move" in w.actions["undo"].text()
    w.actions["undo"].trigger()
    assert len(doc.log) == n and doc.scenario.units[uid].position == pytest.approx(start_pos)
    w.actions["redo"].trigger()
    assert list(doc.log.events[n:]) == moves  # the move and its note come back as one step

    # an edit that is not part of the game is refused, with the reason in the status bar
    w.properties_panel.apply("units", "name", "Renamed")
    assert doc.scenario.units[uid].name != "Renamed"
    assert "belongs to the scenario" in w.statusBar().currentMessage()

    # Next Phase closes the orders phase: its events go to the journal beside the file at once,
    # the file itself stays as it was opened until Save
    saved_bytes = jena_file.read_bytes()
    pv.actions["next_phase"].trigger()
    assert doc.session.key == (1, "french", "movement")
    assert "Movement" in pv.strip.toolTip() and "white'>&nbsp;2 Movement" in pv.strip.text()
    assert jena_file.read_bytes() == saved_bytes and store.load(jena_file).events == []
    journal = read_journal(jena_file)
    assert journal is not None and journal.keep == 0
    assert list(journal.events) == list(doc.log.events[: len(doc.log) - doc.log.undoable])
    assert doc.log.undoable == 1  # the new phase's start can still be taken back
    assert doc.is_modified

    # a casualty through the umpire dialog, then Save writes everything
    um = pv.open_umpire_dialog("casualties")
    um.cas_unit.setCurrentIndex(um.cas_unit.findData(uid))
    um.cas_figures.setValue(2)
    assert um.record()
    assert doc.log.events[-1].kind == "casualties" and doc.log.events[-1].figures == 2
    assert w.files.save()
    assert not doc.is_modified and not modal.calls
    assert read_journal(jena_file) is None and store.load(jena_file).events == list(doc.log.events)
    recorded = list(doc.log.events)
    states = [doc.log.state_at(p) for p in range(len(recorded) + 1)]

    # reopen: the game opens ready to replay (at its end, being unfinished) and replays the same states
    assert w.files.open_path(jena_file, ask=False)
    again = w.document
    assert isinstance(again, PlayDocument) and again is not doc
    assert list(again.log.events) == recorded
    assert again.timeline.at_end and again.recording
    for p, st in enumerate(states):
        got = again.log.state_at(p)
        assert dict(got.units) == dict(st.units) and dict(got.commanders) == dict(st.commanders)
        assert dict(got.orders) == dict(st.orders)
    # the map, the OOB tree and the properties show the state at the cursor
    again.timeline.to_start()
    assert w.map_view.map_scene.item_for(uid) is not None
    assert again.scenario.units[uid].position == pytest.approx(start_pos)
    again.timeline.to_end()
    assert again.scenario.units[uid].figures == states[-1].units[uid].figures
    again.set_selection({uid})
    assert w.properties_panel.editors["units"]["figures"].widget.value() == states[-1].units[uid].figures
    assert w.oob_panel.index_of(uid).isValid()


def test_undo_of_next_phase_reopens_the_phase_before(qtbot, tmp_path, monkeypatch, jena_file):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(jena_file, ask=False)
    w.play_view.seed = 3
    w.play_view.start_game()
    doc = w.document
    w.play_view.actions["next_phase"].trigger()
    assert doc.session.key.phase == "movement"
    assert w.actions["undo"].isEnabled() and "Next phase" in w.actions["undo"].text()
    w.actions["undo"].trigger()  # takes the phase start back: the orders phase is open again
    assert doc.session.key.phase == "orders" and doc.recording
    assert "Order issuing" in w.play_view.strip.toolTip()
    w.actions["redo"].trigger()
    assert doc.session.key.phase == "movement"
