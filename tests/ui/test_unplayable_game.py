"""A file whose recorded game cannot be replayed: the window warns (file, first bad event),
opens the scenario without the game, and saving keeps the recorded events untouched. The game
is checked in idle time after the first frame, so the warning comes just after opening."""

from __future__ import annotations

import json

import sqlite3

from battlestudio import store
from battlestudio.ui.play.play_document import PlayDocument
from battlestudio.ui.resources import bundled_scenarios
from tests.ui.window_helpers import ModalRecorder, make_window

JENA = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")


def test_unreplayable_game_is_warned_about_and_kept_on_save(qtbot, tmp_path, monkeypatch):
    modals = ModalRecorder(monkeypatch)
    data = json.loads(JENA.read_text())
    fired = next(e for e in data["events"] if e["kind"] == "fired")
    fired["unit"] = "ghost"  # an event naming a unit the scenario does not have
    bad = tmp_path / "jena-ghost.battle.json"
    bad.write_text(json.dumps(data))
    w = make_window(qtbot, tmp_path)

    assert w.open_path(bad)

    # the game opens at its start at once; its events are checked in idle time after the map
    # has painted, and the bad one brings the warning and the scenario without the game
    qtbot.waitUntil(lambda: bool(modals.calls), timeout=20_000)
    assert not isinstance(w.document, PlayDocument) and w.document.path == bad
    (kind, title, text), = modals.calls
    assert kind == "warning" and title == "Recorded game not replayed"
    assert str(bad) in text
    assert "event 'fired' (turn 1, side french, phase fire): no unit 'ghost'" in text
    assert "game log event " in text and "opened without the game" in text
    assert "Saving keeps the recorded events as they are" in text

    w.set_document(w.document)  # shown again (e.g. after a view switch): warned once only
    assert len(modals.calls) == 1

    out = tmp_path / "saved.battle.json"
    assert w.save_as(out)
    saved, original = store.load(out), store.load(bad)
    assert saved.events == original.events and len(saved.events) == len(data["events"])
    assert json.loads(out.read_text())["events"] == json.loads(bad.read_text())["events"]


def test_an_unreadable_event_in_a_battle_file_is_warned_about_and_never_saved_without(qtbot, tmp_path, monkeypatch):
    modals = ModalRecorder(monkeypatch)
    good = tmp_path / "jena.battle"
    store.save(store.load(JENA), good)
    con = sqlite3.connect(good)
    seq, = con.execute("SELECT seq FROM event WHERE kind = 'moved' ORDER BY seq LIMIT 1 OFFSET 40").fetchone()
    con.execute(f"UPDATE event SET payload = json_set(payload, '$.path', json('[]')) WHERE seq = {seq}")
    con.commit()
    con.close()
    before = good.read_bytes()
    w = make_window(qtbot, tmp_path)

    assert w.open_path(good)
    assert isinstance(w.document, PlayDocument) and w.document.timeline.position == 0

    qtbot.waitUntil(lambda: bool(modals.calls), timeout=20_000)
    assert not isinstance(w.document, PlayDocument) and w.document.path == good
    (kind, title, text), = modals.calls
    assert kind == "warning" and title == "Recorded game not replayed"
    assert f"game log event {seq + 1}: {good}: event seq={seq}: " in text and "is empty" in text
    assert "Saving is refused while the game holds that unreadable event" in text

    assert not w.save()  # refused with an error naming the row; the file is as it was
    kind, title, text = modals.calls[-1]
    assert kind == "critical" and f"event seq={seq}" in text
    assert good.read_bytes() == before


def test_a_jump_past_a_bad_event_before_the_check_reaches_it_warns_and_stays(qtbot, tmp_path, monkeypatch):
    modals = ModalRecorder(monkeypatch)
    data = json.loads(JENA.read_text())
    fired = [e for e in data["events"] if e["kind"] == "fired"]
    fired[len(fired) // 2]["unit"] = "ghost"  # a bad event in the middle of the game
    bad = tmp_path / "jena-ghost-later.battle.json"
    bad.write_text(json.dumps(data))
    w = make_window(qtbot, tmp_path)
    assert w.open_path(bad)
    play = w.document
    assert isinstance(play, PlayDocument) and play.timeline.position == 0
    assert play.log.validated < len(play.log)  # the idle check has not started: no frame yet

    play.timeline.to_end()  # the user drags the timeline to the end at once: no traceback

    assert play.timeline.position == 0 and not play.timeline.playing
    qtbot.waitUntil(lambda: bool(modals.calls), timeout=20_000)
    (kind, title, text), = modals.calls
    assert kind == "warning" and title == "Recorded game not replayed"
    assert "no unit 'ghost'" in text
    qtbot.waitUntil(lambda: not isinstance(w.document, PlayDocument))
    assert w.document.path == bad
