"""A unit dragged on the map while recording is checked against the ruleset's movement rules
when the drag ends (Torden over Europa 4.4, ``PlayDocument.explain_move``): on the bundled
Elchingen in the French movement phase, a brigade dragged 10 cm forward is told it is legal
(how far of its 30 cm), one dragged 40 cm is told it goes beyond its march length; the umpire's
move is recorded either way, and the message is in the status bar and the Properties note; a
refused move is noted in the log (an ``Annotation`` in the drag's own undo step)."""

from __future__ import annotations

from battlestudio.model.geometry import forward
from battlestudio.replay.flow_events import Annotation, Moved
from tests.ui.test_side_on_the_move import drag_by, isolated
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window


def test_a_drag_is_told_how_it_stands_against_the_march_length(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1500, 950)
    assert w.files.open_path(ELCHINGEN, ask=False)
    w.play_view.actions["start"].trigger()
    doc = w.document
    w.play_view.actions["next_phase"].trigger()
    assert tuple(doc.session.key) == (1, "french", "movement")
    w.map_view.fit_table()
    uid = isolated(doc, "french")
    u = doc.scenario.units[uid]
    f = forward(u.facing)
    n = len(doc.log)
    drag_by(w, doc, uid, (10 * f[0], 10 * f[1]))
    assert len(doc.log) == n + 1
    said = w.statusBar().currentMessage()
    assert said.startswith(f"{u.name}: Move ") and "of 30.0 cm: legal." in said
    drag_by(w, doc, uid, (40 * f[0], 40 * f[1]))
    said = w.statusBar().currentMessage()
    assert "not legal" in said and "beyond its 30.0 cm (4.4)" in said
    assert "beyond its 30.0 cm (4.4)" in w.properties_panel.note.text()
    # the umpire's ruling stands: the move is recorded, and the log notes that the rules refuse it
    assert len(doc.log) == n + 3
    moved, note = doc.log.events[-2], doc.log.events[-1]
    assert isinstance(moved, Moved) and moved.id == uid
    assert isinstance(note, Annotation) and note.title == "Move beyond the rules" and note.ids == (uid,)
    assert "beyond its 30.0 cm (4.4)" in note.text and "noted in the log" in said
    # one Undo takes back the move and its note
    w.actions["undo"].trigger()
    assert len(doc.log) == n + 1 and doc.scenario.units[uid].position != u.position
