"""The bundled Leipzig 1813 battle in the window: it opens where its recorded opening stops (an
unfinished game, ready to play on) with the Problems dock empty; from the start T» steps it
turn by turn to the end with the map following the log
(Bertrand's corps off the table by 10:15, Kleist's Prussians moved up on Markkleeberg), and Home
goes back to the deployment."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from battlestudio.play.document import PlayDocument
from battlestudio.ui.coords import scene_to_table
from battlestudio.ui.panels.problems_panel import ProblemsPanel
from battlestudio.ui.resources import bundled_scenarios
from tests.ui.window_helpers import ModalRecorder, make_window

LEIPZIG = next(p for p in bundled_scenarios() if p.name == "leipzig-1813.battle.json")


def _map_shows(w, state) -> None:
    items = w.map_view.map_scene.items_by_kind
    on_table = {i for i in state.units if i not in state.off_table}
    assert set(items["units"]) == on_table
    for uid in sorted(on_table)[::17]:
        assert scene_to_table(items["units"][uid].pos()) == pytest.approx(state.units[uid].rect().centre)


def test_leipzig_opens_clean_and_replays_turn_by_turn_to_the_end(qtbot, tmp_path, monkeypatch):
    rec = ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1500, 950)
    assert w.files.open_path(LEIPZIG, ask=False)
    doc = w.document
    # an unfinished game (10 of 40 turns) opens where its recording stops, ready to play on
    assert isinstance(doc, PlayDocument) and doc.timeline.at_end
    panel = w.findChild(ProblemsPanel)
    # the map paints first; the Problems dock checks the scenario after that frame
    assert panel.summary.text() == "Checking the scenario…" and panel.list.topLevelItemCount() == 0
    assert w.problems_label.text() == "Checking…"  # the status bar too, not the last file's count
    qtbot.waitUntil(lambda: panel.summary.text() != "Checking the scenario…", timeout=30_000)
    assert w.problems_label.text() == "No problems"
    assert panel.list.topLevelItemCount() == 0 and panel.summary.text() == "No problems found."
    bar = w.play_view.panel.bar
    t = doc.timeline
    assert bar.turn_box.maximum() == 10 and "Turn 10" in bar.where.text()
    bar.buttons["start"].click()
    assert t.position == 0 and "Start of the game" in bar.where.text()
    _map_shows(w, doc.log.initial)
    seen = []
    while not t.at_end:
        bar.buttons["turn_fwd"].click()
        seen.append(t.cursor.turn)
        _map_shows(w, t.state)
        assert len(seen) <= 11
    assert seen == list(range(1, 11)) + [10]
    assert "Turn 10" in bar.where.text() and "10:15" in bar.where.text()
    end = t.state
    sc = doc.battle.scenario
    iv = [u for u in sc.oob.all_subordinates("french-iv-corps") if u in sc.units]
    assert iv and all(u in end.units and u not in end.off_table for u in iv)  # Bertrand holds Lindenau
    assert set(iv) <= set(w.map_view.map_scene.items_by_kind["units"])  # and the map shows them
    start = doc.log.initial
    kleist = "prussian-corps-prussian-corps"
    assert end.commanders[kleist].position[1] > start.commanders[kleist].position[1] + 10.0  # north, on Markkleeberg
    w.map_view.setFocus()
    qtbot.keyClick(w.map_view, Qt.Key.Key_Home)
    assert t.position == 0
    assert not rec.of("critical") and not rec.of("warning")
