"""The Analysis dock of a long game (issue 26): built in a thread, so the window keeps running,
and while the game is still being checked, from what is checked so far — said above the tabs —
then complete once the check is done. Jena stands in for a long game (the threshold lowered)."""

from __future__ import annotations

import threading

from battlestudio import store
from battlestudio.analysis import strength_over_turns
from battlestudio.replay.game import GameLog
from battlestudio.ui.panels import analysis_panel
from battlestudio.ui.panels.analysis_panel import AnalysisPanel
from battlestudio.ui.resources import bundled_scenarios

JENA = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")


def test_charts_of_what_is_checked_then_of_the_whole_game(qtbot, monkeypatch):
    monkeypatch.setattr(analysis_panel, "THREADED_MIN_EVENTS", 0)
    monkeypatch.setattr(analysis_panel, "PARTIAL_FIRST_S", 0.0)  # a long check: partial charts at once
    battle = store.load(JENA)
    log = GameLog.lazy_from_battle(battle)
    half = log.turn_starts()[len(log.turn_starts()) // 2] - 1  # the end of a turn in the middle
    log.validate(half)
    assert log.validated == half

    p = AnalysisPanel()
    qtbot.addWidget(p)
    p.resize(900, 500)
    p.show()
    qtbot.waitExposed(p)
    main = threading.current_thread()
    seen: list[str] = []
    real = analysis_panel.game_charts

    def charts(*args, **kw):
        seen.append(threading.current_thread().name if threading.current_thread() is not main else "main")
        return real(*args, **kw)

    monkeypatch.setattr(analysis_panel, "game_charts", charts)
    p.set_game(log, battle.scenario)

    qtbot.waitUntil(lambda: bool(p.views), timeout=30_000)
    assert p.partial and seen == ["analysis-charts"]  # not in the window's thread
    turn = log.cursor_at(half).turn
    assert p.placeholder.isVisible()
    assert p.placeholder.text() == (
        f"Checking the game: the charts show turns 1 to {turn} ({half:,} of {len(log):,} events) so far."
    )
    partial_turns = strength_over_turns(log.checked_prefix())
    assert max(r.turn for r in partial_turns) == turn

    while not log.validate(500):
        pass
    qtbot.waitUntil(lambda: not p.partial and p._pending is None, timeout=60_000)
    assert len(seen) == 2 and not p.placeholder.isVisible()
    assert list(p.views)[0] == "strength" and p.tabs.count() == len(p.views)
    last_turn = log.cursor_at(len(log)).turn
    xs = p.views["strength"].chart.figure.axes[0].lines[0].get_xdata()
    assert max(xs) == last_turn > turn


def test_a_quick_check_shows_the_whole_charts_only(qtbot, monkeypatch):
    """Checked within ``PARTIAL_FIRST_S`` of being shown, a game gets no partial charts: they
    would share the interpreter with the check and be replaced a moment later."""
    monkeypatch.setattr(analysis_panel, "THREADED_MIN_EVENTS", 0)
    monkeypatch.setattr(analysis_panel, "PARTIAL_FIRST_S", 30.0)
    battle = store.load(JENA)
    log = GameLog.lazy_from_battle(battle)
    log.validate(log.turn_starts()[len(log.turn_starts()) // 2] - 1)  # half of it checked
    p = AnalysisPanel()
    qtbot.addWidget(p)
    p.resize(900, 500)
    p.show()
    qtbot.waitExposed(p)
    built: list[int] = []
    real = analysis_panel.game_charts
    monkeypatch.setattr(
        analysis_panel, "game_charts", lambda lg, *a, **k: (built.append(len(lg)), real(lg, *a, **k))[1]
    )
    p.set_game(log, battle.scenario)
    qtbot.wait(300)  # the dock looks every 100 ms: with a partial build due it would have started
    assert built == [] and not p.views and p._pending is not None
    while not log.validate(500):
        pass
    qtbot.waitUntil(lambda: p._pending is None, timeout=60_000)
    assert built == [len(log)] and not p.partial and list(p.views)[0] == "strength"
