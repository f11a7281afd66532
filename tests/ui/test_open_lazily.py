"""Opening a recorded game replays only what the first frame needs: a finished game opens at its
start with no event applied or even built; the rest is checked in idle time after the map has
painted, and the Analysis dock is built once the game is checked."""

from __future__ import annotations

from battlestudio import store
from battlestudio.replay.game import GameLog
from battlestudio.replay.recorded import RecordedEvents
from battlestudio.play.document import PlayDocument
from battlestudio.ui.resources import bundled_scenarios
from tests.ui.window_helpers import ModalRecorder, make_window

JENA = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")


def test_a_finished_game_opens_at_its_start_and_is_checked_after_the_first_frame(qtbot, tmp_path, monkeypatch):
    modals = ModalRecorder(monkeypatch)
    path = tmp_path / "jena.battle"
    store.save(store.load(JENA), path)
    w = make_window(qtbot, tmp_path)
    cv = w.command_view
    cv.docks["analysis"].show()
    cv.docks["analysis"].raise_()

    assert w.files.open_path(path)

    doc = w.document
    assert isinstance(doc, PlayDocument) and doc.timeline.position == 0
    events = doc.battle.events
    assert isinstance(events, RecordedEvents) and events.built_count() == 0
    assert doc.log.validated == 0 and w.play_view.checking
    assert cv.analysis_panel.views == {}  # charts wait for the check

    qtbot.waitUntil(lambda: not w.play_view.checking, timeout=30_000)
    assert doc.log.validated == len(doc.log) == len(events) and events.built_count() == len(events)
    assert w.document is doc and modals.calls == []
    qtbot.waitUntil(lambda: bool(cv.analysis_panel.views), timeout=30_000)
    assert doc.log.head == store.load(path).events[-1].apply(doc.log.state_at(len(doc.log) - 1))


def test_an_unfinished_game_opens_at_its_end_from_its_keyframe(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    battle = store.load(JENA)
    last_turn = max(e.turn for e in battle.events)
    battle.events = [e for e in battle.events if e.turn <= last_turn // 2]
    path = tmp_path / "half.battle"
    store.save(battle, path)
    w = make_window(qtbot, tmp_path)

    assert w.files.open_path(path)

    doc = w.document
    assert isinstance(doc, PlayDocument) and doc.timeline.at_end
    keyframe = max(k.position for k in doc.battle.keyframes)
    events = doc.battle.events
    assert isinstance(events, RecordedEvents) and events.built_count() == len(events) - keyframe
    assert doc.log.verifying_keyframe and doc.log.validated == 0 and w.play_view.checking
    qtbot.waitUntil(lambda: not w.play_view.checking, timeout=30_000)
    assert doc.log.validated == len(doc.log) == len(battle.events) and doc.log.keyframe_problem == ""


def test_an_unfinished_game_without_keyframes_opens_at_its_end_replayed(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    battle = store.load(JENA)
    last_turn = max(e.turn for e in battle.events)
    battle.events = [e for e in battle.events if e.turn <= last_turn // 2]
    path = tmp_path / "half.battle.json"  # a .battle.json stores no keyframes: opened as before
    store.save(battle, path)
    w = make_window(qtbot, tmp_path)

    assert w.files.open_path(path)

    doc = w.document
    assert isinstance(doc, PlayDocument) and doc.timeline.at_end and doc.battle.keyframes == []
    assert doc.log.validated == len(doc.log) == len(battle.events) and not w.play_view.checking


def test_a_finished_game_reads_its_stored_keyframe_after_the_first_frame(qtbot, tmp_path, monkeypatch):
    modals = ModalRecorder(monkeypatch)
    path = tmp_path / "jena.battle"
    store.save(store.load(JENA), path)
    w = make_window(qtbot, tmp_path)
    read = []
    real = GameLog.seat_stored_keyframe

    def seat(log, battle):
        seated = real(log, battle)
        read.append((log, seated, log.verifying_keyframe, log.unverified_until))
        return seated

    monkeypatch.setattr(GameLog, "seat_stored_keyframe", seat)

    assert w.files.open_path(path)

    doc = w.document
    assert isinstance(doc, PlayDocument) and doc.timeline.position == 0
    assert not doc.log.verifying_keyframe and read == []  # the map paints first
    qtbot.waitUntil(lambda: bool(read), timeout=60_000)
    keyframe = max(k.position for k in doc.battle.keyframes)
    assert 0 < keyframe < len(doc.log)
    assert read == [(doc.log, True, True, keyframe)]  # seated; the check verifies it
    qtbot.waitUntil(lambda: not w.play_view.checking, timeout=60_000)
    assert doc.log.keyframe_problem == "" and doc.log.validated == len(doc.log)
    assert doc.log.head == GameLog.from_battle(store.load(path)).head
    assert modals.calls == []
