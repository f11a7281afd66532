"""A general dragged on the map while recording is checked against Torden over Europa 2.4 when
the drag ends (``PlayDocument.explain_move`` through the ruleset's ``move_check``): on the
bundled Elchingen in the French movement phase, Loison's 3e division general, 30 cm from Ney
(the scenario's corps command distance), dragged 10 cm away is told he may not leave Ney's
command distance voluntarily (2.4) in the status bar; dragged back 10 cm towards Ney he is told
the move is legal; dragged together with Ney he is measured from where Ney goes and is not
refused. The umpire's move is recorded either way."""

from __future__ import annotations

import math

import pytest

from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, drag, make_window, px

LOISON, NEY = "french-3eme-division", "french-vi-corps"


def _drag_general(w, doc, cid: str, d: tuple[float, float]) -> None:
    at = doc.session.state.commanders[cid].position
    drag(w.map_view, px(w.map_view, at), px(w.map_view, (at[0] + d[0], at[1] + d[1])))


def test_a_division_general_dragged_out_of_his_corps_generals_command_distance_is_told_2_4(
    qtbot, tmp_path, monkeypatch
):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1500, 950)
    assert w.files.open_path(ELCHINGEN, ask=False)
    w.play_view.actions["start"].trigger()
    doc = w.document
    w.play_view.actions["next_phase"].trigger()
    assert tuple(doc.session.key) == (1, "french", "movement")
    w.map_view.fit_table()
    state = doc.session.state
    assert math.dist(state.commanders[LOISON].position, state.commanders[NEY].position) <= 30.0
    n = len(doc.log)
    _drag_general(w, doc, LOISON, (10.0, 0.0))
    # the drag, and the log's note that the rules refuse it (recorded on the umpire's authority)
    assert len(doc.log) == n + 2, "the general's drag was not recorded"
    assert doc.log.events[-1].kind == "annotation" and doc.log.events[-1].ids == (LOISON,)
    moved = doc.session.state.commanders[LOISON].position
    assert math.dist(moved, state.commanders[NEY].position) > 30.0
    said = w.statusBar().currentMessage()
    assert "not legal" in said and "Ney's command distance" in said and "(2.4" in said, said
    _drag_general(w, doc, LOISON, (-10.0, 0.0))
    said = w.statusBar().currentMessage()
    assert said.endswith("legal.") and "2.4" not in said, said
    assert len(doc.log) == n + 3
    # Ney and Loison dragged together: Loison is measured from where Ney goes, so nothing is refused
    said_all: list[str] = []
    doc.explained.connect(said_all.append)
    doc.move([LOISON, NEY], 40.0, 0.0, key="both")  # the select tool's verb for a drag of both
    doc.explain_move()  # as the select tool does when the drag ends
    after = doc.session.state.commanders
    assert after[NEY].position[0] == pytest.approx(state.commanders[NEY].position[0] + 40.0, abs=0.01)
    assert said_all and all("not legal" not in m and "2.4" not in m for m in said_all), said_all
    said = w.statusBar().currentMessage()
    assert "2.4" not in said and "not legal" not in said, said
