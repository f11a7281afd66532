"""The Analysis dock on the known game: one tab per chart, hover values, a click on a turn
moves the replay cursor, the cursor's turn is marked, charts export as PNG, SVG and PDF."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt

from battlestudio.replay.events import TurnEnded
from battlestudio.replay.timeline import Timeline
from battlestudio.ui.panels.analysis_panel import AnalysisPanel
from tests.analysis import known_game


@pytest.fixture
def panel(qtbot):
    p = AnalysisPanel()
    qtbot.addWidget(p)
    log = known_game.log()
    p.set_game(log, known_game.scenario())
    p.resize(900, 500)
    p.show()
    qtbot.waitExposed(p)
    return p, log


def widget_point(view, x: float, y: float) -> QPoint:
    """Qt widget pixel of data point (x, y) on the view's chart."""
    view.canvas.draw()
    ax = view.chart.figure.axes[0]
    dx, dy = ax.transData.transform((x, y))
    ratio = view.canvas.device_pixel_ratio
    return QPoint(round(dx / ratio), round(view.canvas.figure.bbox.height / ratio - dy / ratio))


def test_one_tab_per_chart(panel):
    p, _ = panel
    assert list(p.views) == [
        "strength",
        "strength-corps",
        "losses-turn",
        "losses-phase",
        "luck",
        "luck-chief",
        "out-of-command",
        "orders",
    ]
    assert p.tabs.count() == 8 and p.tabs.tabText(4) == "Command rolls: observed vs expected successes"
    ends = [i + 1 for i, e in enumerate(known_game.events()) if isinstance(e, TurnEnded)]  # each turn's last event
    assert p.turn_ends == {0: 0, 1: ends[0], 2: ends[1], 3: ends[2]} and ends[2] == len(known_game.events())


def test_hover_shows_the_values_under_the_mouse(panel, qtbot):
    p, _ = panel
    view = p.views["strength"]
    p.tabs.setCurrentWidget(view)
    qtbot.mouseMove(view.canvas, widget_point(view, 1.0, 700.0))
    qtbot.waitUntil(lambda: view.status.text().startswith("turn 1"), timeout=2000)
    assert view.status.text() == "turn 1: French 700, Prussian 800 men"
    luck = p.views["luck"]
    assert luck.chart.hover(0.1, 1.0) == "French: 2 of 3 rolls passed, 1.90 expected (luck +0.10, +0.1 sd)"
    assert (
        p.views["orders"]
        .chart.hover(2.0, 2.0)
        .startswith(
            "A order o2 to Prussia corps, written turn 1; failed in turn(s) 1; delivered turn 2; completed turn 3"
        )
    )


def test_clicking_a_turn_moves_the_replay_cursor(panel, qtbot):
    p, log = panel
    timeline = Timeline(log, 0)
    p.bind_timeline(timeline)
    view = p.views["losses-turn"]
    p.tabs.setCurrentWidget(view)
    with qtbot.waitSignal(p.turn_requested, timeout=2000) as got:
        qtbot.mouseClick(view.canvas, Qt.MouseButton.LeftButton, pos=widget_point(view, 2.0, 50.0))
    assert got.args == [2]
    assert timeline.position == p.turn_ends[2]
    assert log.state_at(timeline.position).commanders["french-d1"].position == (100.0, 80.0)
    marker = p.views["strength"]._marker
    assert marker is not None and list(marker.get_xdata()) == [2, 2]
    # charts not over turns (per phase, per side) ignore clicks
    assert p.views["luck"].chart.turn_at(1.0) is None


@pytest.mark.parametrize("suffix,magic", [(".png", b"\x89PNG"), (".svg", b"<?xml"), (".pdf", b"%PDF")])
def test_charts_export(panel, tmp_path, suffix, magic):
    p, _ = panel
    out = p.views["strength"].export(tmp_path / f"strength{suffix}")
    assert out.read_bytes().startswith(magic)


def test_export_refuses_an_unknown_format(panel, tmp_path):
    p, _ = panel
    with pytest.raises(ValueError, match="charts export as png, svg, pdf"):
        p.views["luck"].export(tmp_path / "luck.gif")


def test_marker_follows_replay_steps_and_renders_only_on_a_new_turn(panel, qtbot, monkeypatch):
    p, log = panel
    timeline = Timeline(log, 0)
    p.bind_timeline(timeline)
    view = p.views["strength"]
    p.tabs.setCurrentWidget(view)
    view.canvas.draw()  # first render: the background the marker is blitted on
    renders: list[int] = []
    monkeypatch.setattr(view.canvas, "draw", lambda: renders.append(1))
    strips: list = []  # the widget rectangles asked to repaint
    original_update = view.canvas.update
    monkeypatch.setattr(view.canvas, "update", lambda *a: (strips.append(a[0] if a else None), original_update(*a)))
    seen_turns = set()
    while not timeline.at_end:
        before = view.current_turn
        n_strips = len(strips)
        timeline.step_event(1)
        turn = timeline.cursor.turn
        assert view.current_turn == turn and view._marker.get_visible()
        assert list(view._marker.get_xdata()) == [turn, turn]
        new = strips[n_strips:]
        if turn == before:
            assert new == []  # nothing repainted within a turn
        else:  # the strip the line left (once shown) and the one it reached, each a few pixels wide
            assert len(new) == (1 if before is None else 2)
            assert all(r is not None and r.width() <= 12 and r.height() > 20 for r in new), new
            assert not any(r.width() >= view.canvas.width() for r in new)
        seen_turns.add(turn)
    timeline.step_phase(-1)
    assert view.current_turn == timeline.cursor.turn
    assert seen_turns == {1, 2, 3} and renders == []  # steps never re-render the figure
    # charts not over turns carry no marker
    assert p.views["luck"].current_turn is None
