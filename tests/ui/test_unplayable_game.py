"""A file whose recorded game cannot be replayed: the window warns (file, first bad event),
opens the scenario without the game, and saving keeps the recorded events untouched."""

from __future__ import annotations

import json

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
