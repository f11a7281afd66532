"""The Odds dock in a recorded game uses the rule numbers recorded with it (its ruleset
fingerprint) and says so; a changed ruleset file does not change past odds."""

from __future__ import annotations

import pytest

from battlestudio import store
from battlestudio.analysis.odds import order_odds
from battlestudio.rules import params
from battlestudio.rules.fingerprint import fingerprint
from tests.test_ruleset_fingerprint import changed_rules
from tests.ui.window_helpers import ModalRecorder, make_window
from tests.ui.test_replay_goto import JENA

ISSUER, RECIPIENT = "french-imperial-guard", "french-v-corps"  # Napoleon, Lannes


@pytest.fixture(autouse=True)
def _fresh_rules():
    params.load_ruleset_file.cache_clear()
    yield
    params.load_ruleset_file.cache_clear()


def _odds_at_start(w):
    t = w.document.timeline
    t.to_start()
    t.step_event(1)
    panel = w.command_view.odds_panel
    assert panel.set_pair(ISSUER, RECIPIENT), "Napoleon and Lannes are in the Jena order of battle"
    return panel, [row.chance for row in panel.odds.rows], panel.headline.text()


def test_past_odds_stay_as_recorded_when_a_rule_value_changes(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    battle = store.load(JENA)
    battle.ruleset_record = fingerprint("toe", battle.scenario.info.parameters)
    path = tmp_path / "recorded.battle"
    store.save(battle, path)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(path, ask=False)
    panel, recorded_chances, recorded_head = _odds_at_start(w)
    assert panel.numbers.isHidden()  # the same numbers as now: nothing to say
    assert all(c is not None and 0 < c < 1 for c in recorded_chances)

    old = "[rules.d10_zero_based]\nvalue = true\n"  # a d10 read 1-10 instead of 0-9: +10 points
    changed_rules(tmp_path, monkeypatch, old, old.replace("true", "false"))
    assert w.files.open_path(JENA, ask=False) and w.files.open_path(path, ask=False)
    assert "d10_zero_based: true → false" in w.play_view.panel.ruleset_note.text()
    panel, chances, head = _odds_at_start(w)
    assert chances == recorded_chances and head == recorded_head
    assert panel.numbers.isVisible()
    assert panel.numbers.text() == (
        "Odds use the rule numbers recorded with this game (now changed: d10_zero_based: true → false)"
    )
    # the command overlay and the Analysis charts compute the past with the recorded numbers too
    assert w.command_view.overlay._params.get("toe.d10_zero_based") is True
    assert w.command_view.recorded_parameters() == w.command_view.overlay._params
    # the numbers in force now would give other odds: the dock really reads the recorded ones
    now = order_odds(panel.state, "toe", w.document.scenario.info.parameters, ISSUER, RECIPIENT)
    assert [row.chance for row in now.rows] != recorded_chances
