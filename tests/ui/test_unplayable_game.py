"""A file whose recorded game cannot be replayed: the window warns (file, first bad event),
opens the scenario without the game, and saving keeps the recorded events untouched. The game
is checked in idle time after the first frame, so the warning comes just after opening."""

from __future__ import annotations

import json

import sqlite3

from PySide6.QtWidgets import QMessageBox

from battlestudio import store
from battlestudio.edits import MoveRecords
from battlestudio.ui.recovery import RecoveryStore
from battlestudio.play.document import PlayDocument
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

    assert w.files.open_path(bad)

    # the game opens at its start at once; its events are checked in idle time after the map
    # has painted, and the bad one brings the warning and the scenario without the game
    qtbot.waitUntil(lambda: bool(modals.calls), timeout=20_000)
    assert not isinstance(w.document, PlayDocument) and w.document.path == bad
    ((kind, title, text),) = modals.calls
    assert kind == "warning" and title == "Recorded game not replayed"
    assert str(bad) in text
    assert "event 'fired' (turn 1, side french, phase fire): no unit 'ghost'" in text
    assert "game log event " in text and "opened without the game" in text
    assert "Saving keeps the recorded events as they are" in text

    # the Replay dock and the Problems dock say it too, naming the first bad event
    n = len(data["events"])
    panel = w.play_view.panel
    assert panel.heading.text().startswith(f"The recorded game ({n} events) cannot be replayed: game log event ")
    assert "no unit 'ghost'" in panel.heading.text()
    assert panel.bar.where.text() == f"Recorded game of {n} events not replayable"
    (first,) = [p for p in w.problems_panel.problems if p.check == "game.replay"]
    assert first is w.problems_panel.problems[0] and first.severity == "error"
    assert first.message.startswith("events: game log event ") and "no unit 'ghost'" in first.message
    assert w.problems_panel.rows()[0].text(0) == first.message

    w.set_document(w.document)  # shown again (e.g. after a view switch): warned once only
    assert len(modals.calls) == 1
    assert panel.heading.text().startswith(f"The recorded game ({n} events) cannot be replayed")
    assert w.problems_panel.problems[0] == first

    out = tmp_path / "saved.battle.json"
    assert w.files.save_as(out)
    saved, original = store.load(out), store.load(bad)
    assert saved.events == original.events and len(saved.events) == len(data["events"])
    assert json.loads(out.read_text())["events"] == json.loads(bad.read_text())["events"]


def _damaged_jena(tmp_path, sql: str):
    """A .battle copy of the bundled Jena game with ``sql`` run on it (``{seq}``: the 41st move),
    without its checksums (a file with them is refused whole: tests/ui/test_damaged_battle.py)."""
    good = tmp_path / "jena.battle"
    store.save(store.load(JENA), good)
    con = sqlite3.connect(good)
    (seq,) = con.execute("SELECT seq FROM event WHERE kind = 'moved' ORDER BY seq LIMIT 1 OFFSET 40").fetchone()
    con.execute(sql.format(seq=seq))
    con.execute("DELETE FROM meta WHERE key = 'checksums'")  # as a file saved before checksums: opened, then warned
    con.commit()
    con.close()
    return good, seq


def _event_rows(path):
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT seq, kind, turn, side, phase, payload FROM event ORDER BY seq").fetchall()
    finally:
        con.close()


def test_an_unreadable_event_in_a_battle_file_is_warned_about_and_kept_on_save(qtbot, tmp_path, monkeypatch):
    modals = ModalRecorder(monkeypatch)
    good, seq = _damaged_jena(
        tmp_path, "UPDATE event SET payload = json_set(payload, '$.path', json('[]')) WHERE seq = {seq}"
    )
    rows = _event_rows(good)
    w = make_window(qtbot, tmp_path)

    assert w.files.open_path(good)
    assert isinstance(w.document, PlayDocument) and w.document.timeline.position == 0

    qtbot.waitUntil(lambda: bool(modals.calls), timeout=20_000)
    assert not isinstance(w.document, PlayDocument) and w.document.path == good
    ((kind, title, text),) = modals.calls
    assert kind == "warning" and title == "Recorded game not replayed"
    assert f"game log event {seq + 1}: {good}: event seq={seq}: " in text and "is empty" in text
    assert "Saving to a .battle file keeps the recorded events as they are" in text

    uid = sorted(w.document.scenario.units)[0]
    w.document.push(MoveRecords("units", {uid: (12.0, 34.0)}, None, "Move"))
    assert w.files.save()  # the edit is saved, the recorded events with it, the bad row as it was
    assert _event_rows(good) == rows
    assert store.load(good, lazy_events=True).scenario.units[uid].position == (12.0, 34.0)


def test_an_unreadable_payload_is_copied_verbatim_and_json_asks_first(qtbot, tmp_path, monkeypatch):
    modals = ModalRecorder(monkeypatch)
    good, seq = _damaged_jena(tmp_path, "UPDATE event SET payload = '{{' WHERE seq = {seq}")
    rows = _event_rows(good)
    before = good.read_bytes()
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(good)
    qtbot.waitUntil(lambda: bool(modals.calls), timeout=20_000)
    assert "not valid JSON" in modals.calls[0][2]
    uid = sorted(w.document.scenario.units)[0]
    w.document.push(MoveRecords("units", {uid: (12.0, 34.0)}, None, "Move"))

    # autosave: the recovery copy is a .battle file holding the bad row as it is
    assert w.autosaver.save_now()
    assert not w.recovery.data_path.exists() and _event_rows(w.recovery.raw_data_path) == rows
    entry = RecoveryStore(w.recovery.folder)  # as the next start would see it, once this one is gone
    monkeypatch.setattr("battlestudio.ui.recovery.process_alive", lambda pid: False)
    (found,) = entry.pending()
    assert found.data == w.recovery.raw_data_path
    assert found.source == good and entry.load(found).scenario.units[uid].position == (12.0, 34.0)

    # Save As another .battle: every row copied, the bad payload verbatim; the opened file untouched
    other = tmp_path / "other.battle"
    assert w.files.save_as(other)
    assert _event_rows(other) == rows and (seq, "moved") == _event_rows(other)[seq][:2]
    assert _event_rows(other)[seq][5] == "{"
    assert good.read_bytes() == before

    # Save As .battle.json cannot hold the bad event: asked first; Cancel writes nothing
    out = tmp_path / "out.battle.json"
    modals.question_answer = QMessageBox.StandardButton.Cancel
    assert not w.files.save_as(out) and not out.exists()
    kind, title, text = modals.calls[-1]
    assert kind == "question" and title == "Save without the recorded game?"
    assert f"1 of its {len(rows)} events cannot be read" in text and f"event seq={seq}.payload" in text
    assert f"It stays, unchanged, in {good}" in text and "save as a .battle file" in text
    # ... and Save writes the scenario with the edit, without the game, and says so
    modals.question_answer = QMessageBox.StandardButton.Save
    assert w.files.save_as(out)
    saved = store.load(out)
    assert saved.events == [] and saved.scenario.units[uid].position == (12.0, 34.0)
    assert "without its recorded game" in w.statusBar().currentMessage()
    assert good.read_bytes() == before and len(w.document.battle.events) == len(rows)  # still held in the window


def test_a_jump_past_a_bad_event_before_the_check_reaches_it_warns_and_stays(qtbot, tmp_path, monkeypatch):
    modals = ModalRecorder(monkeypatch)
    data = json.loads(JENA.read_text())
    fired = [e for e in data["events"] if e["kind"] == "fired"]
    fired[len(fired) // 2]["unit"] = "ghost"  # a bad event in the middle of the game
    bad = tmp_path / "jena-ghost-later.battle.json"
    bad.write_text(json.dumps(data))
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(bad)
    play = w.document
    assert isinstance(play, PlayDocument) and play.timeline.position == 0
    assert play.log.validated < len(play.log)  # the idle check has not started: no frame yet

    play.timeline.to_end()  # the user drags the timeline to the end at once: no traceback

    assert play.timeline.position == 0 and not play.timeline.playing
    qtbot.waitUntil(lambda: bool(modals.calls), timeout=20_000)
    ((kind, title, text),) = modals.calls
    assert kind == "warning" and title == "Recorded game not replayed"
    assert "no unit 'ghost'" in text
    qtbot.waitUntil(lambda: not isinstance(w.document, PlayDocument))
    assert w.document.path == bad


def test_a_turn_damaged_at_one_row_is_named_at_opening_in_the_warning_the_replay_and_problems_docks(
    qtbot, tmp_path, monkeypatch
):
    modals = ModalRecorder(monkeypatch)
    good, seq = _damaged_jena(tmp_path, "UPDATE event SET turn = 999 WHERE seq = {seq}")
    n = len(_event_rows(good))
    w = make_window(qtbot, tmp_path)

    assert w.files.open_path(good)  # the phases are indexed at opening: refused at once, scenario shown

    assert not isinstance(w.document, PlayDocument) and w.document.path == good
    ((kind, title, text),) = modals.calls
    culprit = f"but event {seq + 1} before it is in turn 999; turns cannot go back"
    assert kind == "warning" and f"game log event {seq + 2}: event " in text and culprit in text
    heading = w.play_view.panel.heading.text()
    assert heading.startswith(f"The recorded game ({n} events) cannot be replayed: game log event {seq + 2}: ")
    assert culprit in heading
    first = w.problems_panel.problems[0]  # as battlestudio check words it
    assert first.check == "game.replay" and first.message.startswith(f"events: game log event {seq + 2}: ")
    assert culprit in first.message
