"""Dragging a unit of the side not on the move asks first (Torden over Europa 1.2, 4.2: in the
active side's movement only its units move): on the Elchingen table of the map tests, in the
French movement phase, an Austrian battalion dragged on the map brings one question when the drag
ends; Yes records the move, No puts it back. A French unit moves without a word. The check is the
play layer's, Qt-free (``PlayDocument.side_on_the_move`` / ``why_not_moving``)."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QMessageBox

from battlestudio.document import Document
from battlestudio.play.document import PlayDocument
from battlestudio.replay.battle import Battle
from battlestudio.replay.flow_events import Annotation, Moved
from tests.ui.window_helpers import ModalRecorder, drag, px


def isolated(doc, side: str) -> str:
    """A unit of ``side`` with nothing else within 12 cm (so a press hits it)."""
    s = doc.scenario
    for u in sorted((u for u in s.units.values() if u.side == side), key=lambda u: u.id):
        c = u.rect().centre
        others = [o.rect().centre for o in s.units.values() if o.id != u.id]
        others += [g.position for g in s.commanders.values()]
        if all(abs(o[0] - c[0]) + abs(o[1] - c[1]) > 12 for o in others):
            return u.id
    raise AssertionError(f"no isolated unit of {side}")


@pytest.fixture
def moving(qtbot, tmp_path, monkeypatch, scenario):
    from tests.ui.window_helpers import make_window

    modal = ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path, Document(Battle(scenario)))
    w.resize(1500, 950)
    w.play_view.seed = 3
    w.play_view.start_game()
    doc: PlayDocument = w.document
    assert doc.side_on_the_move() == "french"  # the orders phase: the active side acts
    w.play_view.actions["next_phase"].trigger()
    assert doc.session.key == (1, "french", "movement") and doc.side_on_the_move() == "french"
    w.map_view.fit_table()
    return w, doc, modal


def drag_by(w, doc, uid: str, d: tuple[float, float]) -> None:
    c = doc.scenario.units[uid].rect().centre
    drag(w.map_view, px(w.map_view, c), px(w.map_view, (c[0] + d[0], c[1] + d[1])))


def test_the_other_sides_unit_asks_once_and_no_puts_it_back(moving):
    w, doc, modal = moving
    uid = isolated(doc, "austrian")
    name = doc.scenario.units[uid].name
    start = doc.scenario.units[uid].position
    assert doc.why_not_moving([uid]) == f"{name} belongs to Austria, which is not on the move."
    n = len(doc.log)
    modal.question_answer = QMessageBox.StandardButton.No
    drag_by(w, doc, uid, (8.0, 6.0))
    asked = modal.of("question")
    assert len(asked) == 1 and asked[0][2] == f"{name} belongs to Austria, which is not on the move. Move it anyway?"
    assert len(doc.log) == n and doc.scenario.units[uid].position == pytest.approx(start)
    assert not doc.can_redo  # nothing to redo: the move never happened


def test_the_other_sides_unit_moves_when_the_umpire_says_yes(moving):
    w, doc, modal = moving
    uid = isolated(doc, "austrian")
    start = doc.scenario.units[uid].position
    n = len(doc.log)
    modal.question_answer = QMessageBox.StandardButton.Yes
    drag_by(w, doc, uid, (8.0, 6.0))
    assert len(modal.of("question")) == 1
    new = doc.log.events[n:]
    # the move, and the log's note that the movement rules refuse it (4.2: not the side on the move)
    assert [type(e) for e in new] == [Moved, Annotation] and new[0].id == uid and new[1].ids == (uid,)
    assert "(4.2" in new[1].text
    assert doc.scenario.units[uid].position == pytest.approx((start[0] + 8.0, start[1] + 6.0), abs=1.0)
    w.undo()
    assert doc.scenario.units[uid].position == pytest.approx(start)


def test_the_side_on_the_move_moves_without_a_question(moving):
    w, doc, modal = moving
    uid = isolated(doc, "french")
    n = len(doc.log)
    drag_by(w, doc, uid, (5.0, 5.0))
    assert modal.of("question") == [] and [e.kind for e in doc.log.events[n:]] == ["moved"]
    assert doc.why_not_moving([uid, "c-ney"]) == ""


def test_both_sides_act_in_visual_contact_and_nothing_is_asked(moving):
    w, doc, modal = moving
    w.play_view.actions["next_phase"].trigger()
    assert doc.session.key.phase == "visual_contact" and doc.side_on_the_move() is None
    assert doc.why_not_moving([isolated(doc, "austrian")]) == ""
