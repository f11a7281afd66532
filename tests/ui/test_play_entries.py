"""What the umpire enters during play, on the Elchingen 1805 table of the map tests: turns and
formation and order-state changes made in the Properties dock become events, melee and morale
through the umpire dialog, an annotation pinned to a clicked place; edits outside the game are
refused, and nothing is recorded while the cursor is in the past. Also the replay's order of
battle on Jena: formations still to arrive and removed units are left out (no false problems).
"""

from __future__ import annotations

import pytest

from battlestudio.document import Document
from battlestudio.model.units import Formation
from battlestudio.replay.battle import Battle
from battlestudio.play.document import PlayDocument
from battlestudio.ui.resources import bundled_scenarios
from tests.ui.window_helpers import ModalRecorder, make_window, mouse, px


@pytest.fixture
def playing(qtbot, tmp_path, monkeypatch, scenario):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path, Document(Battle(scenario)))
    w.play_view.seed = 14
    assert w.play_view.start_game() is w.document
    return w


def test_properties_edits_become_events(playing):
    w = playing
    doc: PlayDocument = w.document
    doc.set_selection({"u-39ligne"})
    n = len(doc.log)
    w.properties_panel.apply("units", "facing", 45.0)
    w.properties_panel.apply("units", "formation", Formation.COLUMN)
    w.properties_panel.apply("units", "state", "U")
    w.properties_panel.apply("units", "men", doc.scenario.units["u-39ligne"].men - 140)
    kinds = [e.kind for e in doc.log.events[n:]]
    assert kinds == ["rotated", "formation_changed", "order_state_changed", "casualties"]
    u = doc.scenario.units["u-39ligne"]
    assert (u.facing, u.formation, u.state, u.men) == (45.0, Formation.COLUMN, "U", 1500)
    assert doc.base.scenario.units["u-39ligne"].formation == Formation.LINE  # the scenario is untouched
    # editing the commander's name is the scenario's business
    doc.set_selection({"c-ney"})
    w.properties_panel.apply("commanders", "name", "Michel Ney")
    assert doc.scenario.commanders["c-ney"].name == "Marshal Ney" and len(doc.log) == n + 4
    assert "name of Marshal Ney belongs to the scenario" in w.statusBar().currentMessage()
    # undo takes the losses back first, then the order state
    w.undo()
    assert doc.scenario.units["u-39ligne"].men == 1640
    w.undo()
    assert doc.scenario.units["u-39ligne"].state == "O"


def test_umpire_melee_and_morale(playing):
    w = playing
    doc = w.document
    pv = w.play_view
    side = doc.session.key.side
    mine = next(u for u in doc.scenario.units.values() if u.side == side)
    theirs = next(u for u in doc.scenario.units.values() if u.side != side)
    doc.set_selection({mine.id, theirs.id})
    dlg = pv.open_umpire_dialog("melee")
    assert [i.data(256) for i in dlg.mel_att.selectedItems()] == [mine.id]
    assert [i.data(256) for i in dlg.mel_def.selectedItems()] == [theirs.id]
    dlg.mel_winner.setCurrentIndex(dlg.mel_winner.findData("defender"))
    dlg.mel_text.setText("the attack broke on the hedge")
    assert dlg.record()
    e = doc.log.events[-1]
    assert (e.kind, e.attackers, e.defenders, e.winner) == ("melee", (mine.id,), (theirs.id,), "defender")
    dlg = pv.open_umpire_dialog("morale")
    dlg.mor_unit.setCurrentIndex(dlg.mor_unit.findData(mine.id))
    dlg.mor_passed.setChecked(False)
    dlg.mor_result.setCurrentText("falls back")
    assert dlg.record()
    e = doc.log.events[-1]
    assert (e.kind, e.unit, e.passed, e.result) == ("morale_test", mine.id, False, "falls back")
    line = pv.panel.item_texts()[-1]
    assert line.startswith(f"morale test of {mine.name} fails: falls back")
    # a melee with nobody on one side is refused with a reason, nothing recorded
    dlg = pv.open_umpire_dialog("melee")
    dlg.mel_def.clearSelection()
    n = len(doc.log)
    assert not dlg.record() and len(doc.log) == n
    assert "at least one attacker and one defender" in w.statusBar().currentMessage()


def test_annotation_pinned_to_a_clicked_place(playing):
    w = playing
    doc = w.document
    w.map_view.fit_table()
    doc.set_selection({"c-loison"})
    w.play_view.actions["annotate"].trigger()
    assert w.map_view.tool.name == "pick"
    at = px(w.map_view, (110.0, 70.0))
    mouse(w.map_view, "press", at)
    mouse(w.map_view, "release", at)
    dlg = w.play_view.annotation_dialog
    assert dlg is not None and dlg.at == pytest.approx((110.0, 70.0), abs=1.5)
    dlg.title_edit.setText("Unterelchingen")
    dlg.text_edit.setPlainText("Loison's men clear the village street by street.")
    assert dlg.record()
    e = doc.log.events[-1]
    assert e.kind == "annotation" and e.title == "Unterelchingen" and e.ids == ("c-loison",)
    assert (e.turn, e.side, e.phase) == tuple(doc.session.key)
    marks = w.play_view.marks
    assert len(marks.pins) == 2 and marks.pins[0].toolTip().startswith("Unterelchingen")


def test_nothing_is_recorded_in_the_past(playing):
    w = playing
    doc = w.document
    w.play_view.next_phase()
    doc.timeline.to_start()
    assert not doc.recording and not w.play_view.actions["order"].isEnabled()
    doc.set_selection({"u-39ligne"})
    n = len(doc.log)
    w.properties_panel.apply("units", "facing", 10.0)
    assert len(doc.log) == n and "Replaying" in w.statusBar().currentMessage()
    w.play_view.actions["resume"].trigger()
    assert doc.recording and w.play_view.actions["order"].isEnabled()
    # back to the editor: the scenario with its own history; the game stays in the battle
    w.play_view.actions["editor"].trigger()
    assert not isinstance(w.document, PlayDocument) and len(w.document.battle.events) == n
    assert w.document.is_modified
    # the Replay dock says the game is kept and how to go back to it (not "No game recorded")
    panel = w.play_view.panel
    assert panel.bar.where.text() == f"Game of {n} events kept"
    assert "is kept in the battle: Game ▸ Resume Game goes back to it" in panel.heading.text()
    assert w.play_view.actions["start"].text() == "&Resume Game"
    w.play_view.actions["start"].trigger()
    assert isinstance(w.document, PlayDocument) and len(w.document.log) == n
    assert "kept" not in panel.bar.where.text()


def test_replay_tree_leaves_out_what_is_not_on_the_table(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    jena = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")
    assert w.files.open_path(jena, ask=False)
    doc = w.document
    log = doc.log
    waiting = sorted(log.initial.off_table)
    assert waiting and not any(w.oob_panel.index_of(i).isValid() for i in waiting)
    removed = next(p for p, e in enumerate(log.events) if e.kind == "unit_removed")
    gone = log.events[removed].id
    doc.timeline.seek(removed)
    assert w.oob_panel.index_of(gone).isValid()
    doc.timeline.seek(removed + 1)
    assert not w.oob_panel.index_of(gone).isValid()
    doc.timeline.seek(removed)
    assert w.oob_panel.index_of(gone).isValid()
    for pos in (0, removed + 1, len(log)):
        doc.timeline.seek(pos)
        problems = w.problems_panel.check()
        assert not [p for p in problems if p.check == "oob.unknown_id"]


def test_a_new_game_is_saved_whole_to_battle_json(qtbot, tmp_path, monkeypatch, scenario):
    from battlestudio import store

    modal = ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path, Document(Battle(scenario)))
    w.play_view.seed = 2
    doc = w.play_view.start_game()
    doc.set_selection({"u-39ligne"})
    w.properties_panel.apply("units", "facing", 60.0)
    w.play_view.next_phase()
    assert doc.is_modified and "*" in w.windowTitle()
    modal.save_name = str(tmp_path / "elchingen-game.battle.json")
    assert w.files.save()
    assert not doc.is_modified
    saved = store.load(tmp_path / "elchingen-game.battle.json")
    assert saved.events == list(doc.log.events) and [e.kind for e in saved.events][-1] == "phase_started"
    assert saved.scenario.units["u-39ligne"].facing == scenario.units["u-39ligne"].facing  # the scenario as deployed


def test_umpire_casualties_go_no_higher_than_the_unit_has(qtbot, playing):
    """Issue 15: 3 figures and 300 men from a 1-figure, 0-men battery were accepted."""
    from PySide6.QtCore import Qt

    w = playing
    doc: PlayDocument = w.document
    gun = min((u for u in doc.scenario.units.values() if u.guns), key=lambda u: u.figures)
    um = w.play_view.open_umpire_dialog("casualties")
    um.cas_unit.setCurrentIndex(um.cas_unit.findData(gun.id))
    assert um.cas_figures.maximum() == gun.figures and um.cas_men.maximum() == gun.men
    assert um.cas_figures.suffix() == f" of {gun.figures}"
    um.cas_figures.setFocus()
    um.cas_figures.selectAll()
    qtbot.keyClicks(um.cas_figures, str(gun.figures + 3))
    qtbot.keyClick(um.cas_figures, Qt.Key.Key_Tab)
    assert um.cas_figures.value() <= gun.figures
    um.cas_figures.setValue(gun.figures)
    n = len(doc.log)
    assert um.record()
    assert doc.log.events[n:][0].figures == gun.figures and doc.scenario.units[gun.id].figures == 0
