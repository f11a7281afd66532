"""Names from a file are shown as text in the window, never read as markup: a side name holding
HTML used to be rendered by the phase strip as rich text (a 4,200 px label) (issue 27)."""

from __future__ import annotations

from dataclasses import replace

from battlestudio import store
from battlestudio.play.document import PlayDocument
from battlestudio.replay.battle import Battle
from battlestudio.ui.resources import bundled_scenarios
from tests.jena import ENGINE
from tests.ui.window_helpers import ModalRecorder, make_window

JENA = next(p for p in bundled_scenarios() if p.name.startswith("jena"))
EVIL = "<b style='font-size:400px'>Français</b>"


def test_phase_strip_shows_a_side_name_as_text(qtbot, tmp_path, monkeypatch):
    modal = ModalRecorder(monkeypatch)
    b = store.load(JENA)
    s = b.scenario
    s.info = replace(s.info, parameters={**s.info.parameters, **ENGINE})
    s.sides["french"] = replace(s.sides["french"], name=EVIL)
    path = tmp_path / "evil.battle"
    store.save(Battle(s, []), path)
    w = make_window(qtbot, tmp_path)
    w.resize(1500, 950)
    assert w.files.open_path(path, ask=False)
    pv = w.play_view
    pv.actions["start"].trigger()
    assert isinstance(w.document, PlayDocument) and w.document.session.key[1] == "french"
    text = pv.strip.text()
    assert "<b>&lt;b style=&#x27;font-size</b>" in text  # the name up to its first ':', escaped
    assert "<b style='font-size" not in text
    assert pv.strip.sizeHint().height() < 100  # one line of ordinary text, not a 400 px heading
    assert not modal.calls, modal.calls
