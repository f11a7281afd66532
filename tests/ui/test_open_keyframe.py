"""Opening an unfinished game in the window from the keyframe its ``.battle`` file stored (issue
26): the map shows the end of the game without the start replayed, the idle check replays the
events before the keyframe and compares; recording goes on meanwhile and Save stores the new
keyframes; a keyframe that does not match the replay is a warning (status bar, Problems dock)
and the window shows the replayed game."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace

from battlestudio import store
from battlestudio.play.document import PlayDocument
from battlestudio.replay.battle import Battle
from battlestudio.replay.digest import state_digest
from battlestudio.replay.game import GameLog
from battlestudio.store import checksum
from battlestudio.ui.resources import bundled_scenarios
from tests.jena import ENGINE
from tests.ui.window_helpers import ModalRecorder, make_window

JENA = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")


def _unfinished_jena(tmp_path) -> tuple[Battle, object]:
    """The bundled Jena game stopped after half its turns (with the engine's parameters, so
    the window records), saved as a ``.battle`` file."""
    b = store.load(JENA)
    s = b.scenario
    s.info = replace(s.info, parameters={**s.info.parameters, **ENGINE})
    last = max(e.turn for e in b.events)
    battle = Battle(s, [e for e in b.events if e.turn <= last // 2])
    path = tmp_path / "jena-half.battle"
    store.save(battle, path)
    return battle, path


def test_an_unfinished_game_opens_from_its_keyframe_records_and_saves(qtbot, tmp_path, monkeypatch):
    modals = ModalRecorder(monkeypatch)
    battle, path = _unfinished_jena(tmp_path)
    ref = GameLog.from_battle(battle)
    w = make_window(qtbot, tmp_path)

    assert w.files.open_path(path)

    doc = w.document
    assert isinstance(doc, PlayDocument) and doc.timeline.at_end and doc.recording
    assert doc.log.verifying_keyframe and doc.log.validated == 0  # the start is not replayed
    assert w.play_view.checking
    assert state_digest(doc.timeline.state) == state_digest(ref.head)
    uid = next(iter(ref.head.units))
    assert w.map_view.map_scene.item_for(uid) is not None

    # one more action while the check runs: Next Phase
    key = doc.session.key
    w.play_view.actions["next_phase"].trigger()
    assert doc.session.key != key and len(doc.log) == len(battle.events) + 1
    assert w.files.save()
    assert not doc.is_modified and modals.calls == []

    back = store.load(path, lazy_events=True)
    assert list(back.events) == list(doc.log.events)
    new_start = len(battle.events)  # the phase Next Phase opened starts there
    assert max(k.position for k in back.keyframes) == new_start
    full = GameLog.from_battle(back)
    for k in back.keyframes:
        assert state_digest(k.state()) == state_digest(full.state_at(k.position))

    qtbot.waitUntil(lambda: not w.play_view.checking, timeout=60_000)
    assert doc.log.keyframe_problem == "" and doc.log.validated == len(doc.log)
    assert "keyframe" not in w.statusBar().currentMessage()
    assert not [p for p in w.problems_panel.problems if p.check == "game.keyframe"]


def _move_unit_in_last_keyframe(path, uid: str) -> None:
    con = sqlite3.connect(path)
    seq, text = con.execute("SELECT seq, state FROM keyframe ORDER BY position DESC LIMIT 1").fetchone()
    doc = json.loads(text)
    unit = next(u for u in doc["units"] if u["id"] == uid)
    unit["position"] = [unit["position"][0] + 40.0, unit["position"][1] + 10.0]
    con.execute("UPDATE keyframe SET state = ? WHERE seq = ?", (json.dumps(doc), seq))
    rec = json.loads(dict(con.execute("SELECT key, value FROM meta"))["checksums"])
    rec["tables"]["keyframe"] = checksum.table_digest(con, "keyframe")
    checksum.store(con, rec)
    con.commit()
    con.close()


def test_a_keyframe_that_does_not_match_is_a_warning_and_the_replay_is_shown(qtbot, tmp_path, monkeypatch):
    modals = ModalRecorder(monkeypatch)
    battle, path = _unfinished_jena(tmp_path)
    ref = GameLog.from_battle(battle)
    con = sqlite3.connect(path)
    stored = json.loads(con.execute("SELECT state FROM keyframe ORDER BY position DESC LIMIT 1").fetchone()[0])
    con.close()
    uid = stored["units"][0]["id"]  # a unit the game moved
    _move_unit_in_last_keyframe(path, uid)
    w = make_window(qtbot, tmp_path)

    assert w.files.open_path(path)

    doc = w.document
    assert isinstance(doc, PlayDocument) and doc.log.verifying_keyframe
    moved = doc.timeline.state.units[uid].position
    assert moved != ref.head.units[uid].position  # the stored (tampered) keyframe is shown first
    qtbot.waitUntil(lambda: not w.play_view.checking, timeout=60_000)

    key = ref.phases()[-1]
    text = doc.log.keyframe_problem
    assert text.startswith(f"the keyframe saved at the start of turn {key.turn}, {key.side} {key.phase} (event ")
    assert f"(unit {uid!r} differs); the replay is used" in text
    assert w.statusBar().currentMessage() == f"Stored keyframe not used: {text}"
    warnings = [p for p in w.problems_panel.problems if p.check == "game.keyframe"]
    assert [p.message for p in warnings] == [text] and warnings[0].severity == "warning"
    assert doc.timeline.state.units[uid].position == ref.head.units[uid].position  # the replay won
    assert state_digest(doc.log.head) == state_digest(ref.head)
    item = w.map_view.map_scene.item_for(uid)
    assert item is not None
    assert w.document is doc and modals.calls == []
