"""While the replay plays, a step moves the map's units at once and the tree, trails and docks
follow in later event-loop slices (coalesced); paused, everything updates at once."""

from __future__ import annotations

from battlestudio.ui.coords import table_to_scene
from tests.ui.test_replay_goto import JENA
from tests.ui.window_helpers import ModalRecorder, make_window


def _men_shown(w, unit_id: str) -> str:
    model = w.oob_panel.model
    return model.data(model.index_of(unit_id, 1))


def test_a_playing_step_shows_the_map_first_and_the_docks_in_the_next_slices(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1400, 900)
    assert w.files.open_path(JENA, ask=False)
    t = w.document.timeline
    t.jump_to(20)
    qtbot.wait(50)
    panel = w.play_view.panel
    heading = panel.heading.text()
    marks = w.play_view.marks
    w.play_view.glide.enabled = False  # the units' places at once (the glide has its own tests)
    totals_before = dict(w.oob_panel.model._totals)
    t.play()  # playing, but the tick is driven here: one step of one turn
    try:
        t.step_unit = "turn"
        t.step_turn(1)
        state = t.state
        items = w.map_view.map_scene.items_by_kind["units"]
        for uid, u in state.units.items():  # the map at once
            if uid in items:
                assert items[uid].pos() == table_to_scene(*u.position) + items[uid]._shape.offset
        assert panel.heading.text() == heading  # the event list waits for its slice
        assert w.oob_panel.model._totals == totals_before
        assert marks._later.pending and w.command_view._later.pending
        t.step_turn(1)  # a second step before the slices ran: they coalesce into one
        qtbot.waitUntil(lambda: not marks._later.pending and not w.command_view._later.pending, timeout=3000)
        qtbot.waitUntil(lambda: panel.heading.text() != heading, timeout=3000)
        assert f"Turn {t.cursor.turn}" in panel.heading.text()
        qtbot.waitUntil(lambda: w.oob_panel.model._totals != totals_before, timeout=3000)
    finally:
        t.pause()
    # paused: a step updates the docks at once
    t.step_turn(1)
    assert f"Turn {t.cursor.turn}" in panel.heading.text() and not marks._later.pending
    men = {uid: u.men for uid, u in t.state.units.items() if uid not in t.state.off_table}
    uid = next(iter(men))
    shown = _men_shown(w, uid)
    assert shown == (f"{men[uid]:,}" if men[uid] else "")
