"""The Analysis dock of a recorded game: one tab per chart (``reports.charts``), interactive.

Hovering a chart shows the values under the mouse in the status line (and as a tooltip);
clicking a turn on a chart whose x axis is turns emits ``turn_requested(turn)`` and, when a
``Timeline`` is bound, moves the replay cursor to the end of that turn (turn 0: the
deployment). A dashed line marks the cursor's turn on those charts. It is an animated artist:
it moves only when the turn changes, by restoring the chart's saved background and blitting the
line over it, and repaints only the two thin strips the line left and reached (when Qt next
paints, not at once), so a replay step never re-renders a figure. Each tab exports its chart as PNG or
SVG (or PDF); the marker is not part of the export.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING
from collections.abc import Mapping

from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg
from PySide6.QtCore import QRect, QTimer, Signal
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from battlestudio.analysis.common import turn_end_positions
from battlestudio.reports.charts import Chart, game_charts
from battlestudio.ui.play.idle_slice import IdleSlice

THREADED_MIN_EVENTS = 5000
"""A game of this many events or more is analysed in a thread (the window stays responsive; a
Leipzig-sized game takes seconds), and while it is being checked its charts are built from what
is checked so far (``GameLog.checked_prefix``), each time another quarter of it is; smaller
games are analysed at once, when checked."""
PARTIAL_FIRST_S = 2.0
"""Seconds after a game is set before its first partial charts: a check done sooner shows the
whole charts only (building charts shares the interpreter with the check and slows it)."""
PARTIAL_EVERY_S = 4.0
"""Seconds at least between two builds of partial charts while the game is checked: each is
drawn on the window's thread (0.2-0.5 s a chart)."""


if TYPE_CHECKING:
    from battlestudio.model.scenario import Scenario
    from battlestudio.replay.game import GameLog
    from battlestudio.replay.timeline import Timeline


class ChartView(QWidget):
    """One chart on a matplotlib Qt canvas with a hover line and export buttons.

    Signals
    -------
    turn_clicked(int)
        the turn clicked on (charts over turns only).
    """

    turn_clicked = Signal(int)

    def __init__(self, chart: Chart, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.chart = chart
        self.canvas = FigureCanvasQTAgg(chart.figure)
        self.canvas.setMinimumSize(240, 100)  # small enough for a ~200 px bottom dock area
        self.status = QLabel(" ")
        self.status.setWordWrap(True)
        self._marker = None
        self._turn: int | None = None
        self._background = None  # the rendered chart without the marker, for blitting
        if chart.turns:
            self._marker = chart.figure.axes[0].axvline(
                0, color="#c08000", linestyle="--", linewidth=1.2, animated=True, visible=False
            )
        buttons = QHBoxLayout()
        buttons.addWidget(self.status, 1)
        for fmt in ("PNG", "SVG"):
            b = QPushButton(f"Export {fmt}…")
            suffix = fmt.lower()
            b.clicked.connect(lambda _c=False, f=suffix: self.export_dialog(f))
            buttons.addWidget(b)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.canvas, 1)
        lay.addLayout(buttons)
        self.canvas.mpl_connect("motion_notify_event", self._on_motion)
        self.canvas.mpl_connect("button_press_event", self._on_press)
        self.canvas.mpl_connect("draw_event", self._on_draw)

    @property
    def current_turn(self) -> int | None:
        """The turn marked (None: no marker shown)."""
        return self._turn

    def _on_draw(self, _event) -> None:
        """After a full render (first show, resize): keep it as the background, draw the marker."""
        if self._marker is None:
            return
        self._background = self.canvas.copy_from_bbox(self.chart.figure.bbox)
        self._blit_marker()

    def _blit_marker(self) -> None:
        if self._marker.get_visible():
            self.chart.figure.axes[0].draw_artist(self._marker)
        self.canvas.update()

    def _marker_rect(self) -> QRect | None:
        """The widget rectangle (logical pixels) the marker covers, with a pixel or two around it."""
        if self._marker is None or not self._marker.get_visible():
            return None
        x0, y0, x1, y1 = self._marker.get_window_extent().extents
        ratio = self.canvas.device_pixel_ratio or 1.0
        height = self.canvas.height()
        return QRect(
            int(x0 / ratio) - 3, int(height - y1 / ratio) - 3, int((x1 - x0) / ratio) + 7, int((y1 - y0) / ratio) + 7
        )

    def _on_motion(self, event) -> None:
        text = self.chart.hover(event.xdata, event.ydata) if event.inaxes is not None else ""
        self.status.setText(text or " ")
        self.canvas.setToolTip(text)

    def _on_press(self, event) -> None:
        if event.inaxes is None or event.xdata is None:
            return
        turn = self.chart.turn_at(event.xdata)
        if turn is not None:
            self.turn_clicked.emit(turn)

    def set_current_turn(self, turn: int | None) -> None:
        """Mark ``turn`` with a dashed line (charts over turns; None removes it).

        Does nothing when ``turn`` is already marked; otherwise moves the line and blits it over
        the saved background (the chart is rendered at most once, when first drawn).
        """
        if self._marker is None or turn == self._turn:
            return
        self._turn = turn
        before = self._marker_rect() if self._background is not None else None
        if turn is not None:
            self._marker.set_xdata([turn, turn])
        self._marker.set_visible(turn is not None)
        if self._background is None:
            return
        self.canvas.restore_region(self._background)
        if self._marker.get_visible():
            self.chart.figure.axes[0].draw_artist(self._marker)
        for rect in (before, self._marker_rect()):  # only the strips the line left and reached
            if rect is not None:
                self.canvas.update(rect)

    def export(self, path: str | Path) -> Path:
        """Write the chart to ``path`` (PNG, SVG or PDF by suffix); see ``Chart.save``."""
        return self.chart.save(path)

    def export_dialog(self, fmt: str) -> Path | None:
        name, _ = QFileDialog.getSaveFileName(
            self, f"Export chart as {fmt.upper()}", f"{self.chart.key}.{fmt}", f"{fmt.upper()} (*.{fmt})"
        )
        if not name:
            return None
        try:
            return self.export(name)
        except (OSError, ValueError) as exc:
            QMessageBox.warning(self, "Could not export chart", str(exc))
            return None


class AnalysisPanel(QWidget):
    """Tabs of charts of one game.

    Signals
    -------
    turn_requested(int)
        a turn was clicked on a chart.
    """

    turn_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.tabs = QTabWidget()
        self.views: dict[str, ChartView] = {}
        self.turn_ends: dict[int, int] = {}
        self._timeline: Timeline | None = None
        self._pending: tuple | None = None
        self._shown_log: GameLog | None = None
        self._shown_len = 0
        self._worker: threading.Thread | None = None  # building charts of a long game (_start_worker)
        self._worker_job: tuple | None = None
        self._partial_at = 0  # events of the last charts built while the game was being checked
        self._partial_after = 0.0  # time.monotonic() before which no partial charts are built
        self.partial = False
        """True while the charts shown are of the part of the game checked so far."""
        self._held = False
        # while the replay plays, the turn marker moves in a slice of its own
        self._later = IdleSlice(
            self._mark_position, lambda: self._timeline is not None and self._timeline.playing, self
        )
        self.placeholder = QLabel("Open a recorded game to see its analysis.")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 2, 2, 2)
        lay.addWidget(self.placeholder)
        lay.addWidget(self.tabs, 1)
        self.turn_requested.connect(self._seek)

    def set_game(self, log: GameLog, scenario: Scenario, params: Mapping[str, object] | None = None) -> None:
        """Show the charts of ``log`` (played from ``scenario``): built now when the panel is
        visible, else the first time it is shown (a long game takes a second to analyse); a
        log still being checked in idle time (``GameLog.lazy``) is analysed once it is checked."""
        self.turn_ends = dict(turn_end_positions(log))
        if log is self._shown_log and len(log) == self._shown_len and self._pending is None:
            return  # the same game again (the window binds its timeline after its document)
        self._pending = (log, scenario, params)
        self._partial_at = 0
        self._partial_after = time.monotonic() + PARTIAL_FIRST_S
        if log is not self._shown_log:  # no charts of another game meanwhile
            self._clear()
        if self.isVisible():
            QTimer.singleShot(0, self._build_when_checked)  # after the window's first frame

    def _clear(self) -> None:
        self.tabs.clear()
        for view in self.views.values():
            view.deleteLater()
            view.chart.figure.clear()  # its artists are cycles: freed now, not by a full collection
        self.views.clear()
        self._shown_log = None

    def showEvent(self, event) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        if self._pending is not None:
            self._build_when_checked()

    def hold(self) -> None:
        """Build no charts until ``release`` (the window holds them until its first frame)."""
        self._held = True

    def release(self) -> None:
        """Build the pending charts (if shown) now that ``hold`` is over."""
        self._held = False
        if self._pending is not None and self.isVisible():
            QTimer.singleShot(0, self._build_when_checked)

    def _build_when_checked(self) -> None:
        if self._pending is None or self._held:
            return
        log = self._pending[0]
        if self._timeline is not None and self._timeline.playing:  # analysing takes ~1 s: not
            QTimer.singleShot(250, self._build_when_checked)  # while the replay plays
            return
        checked = getattr(log, "validated", len(log))
        if self._worker is not None:  # charts being built: look again when they are
            if self._worker.is_alive():
                QTimer.singleShot(100, self._build_when_checked)
                return
            self._take_worker()
            if self._pending is None:
                return
        if checked < len(log):  # not replayed to the end yet: charts of what is checked, if big
            if (
                len(log) >= THREADED_MIN_EVENTS
                and checked - self._partial_at >= max(1, len(log) // 4)
                and time.monotonic() >= self._partial_after
            ):
                self._start_worker(partial=True)
            QTimer.singleShot(100, self._build_when_checked)  # (a log that fails is replaced)
            return
        if len(log) >= THREADED_MIN_EVENTS:
            self._start_worker(partial=False)
            QTimer.singleShot(100, self._build_when_checked)
            return
        self._build()

    def _start_worker(self, partial: bool) -> None:
        """Build the charts of what is checked of the pending game in a thread, from a snapshot
        (``GameLog.checked_prefix``): the window's event loop keeps running meanwhile."""
        log, scenario, params = self._pending
        prefix = log.checked_prefix()
        self._partial_at = len(prefix)
        self._partial_after = time.monotonic() + PARTIAL_EVERY_S
        box: dict[str, object] = {}

        def run() -> None:
            try:
                box["charts"] = game_charts(prefix, scenario, params)
            except Exception as exc:  # noqa: BLE001 - shown in the dock, as _build does
                box["error"] = exc

        self._worker = threading.Thread(target=run, name="analysis-charts", daemon=True)
        self._worker_job = (log, prefix, partial, box)
        self._worker.start()

    def _take_worker(self) -> None:
        """Show what the finished worker built (nothing if another game is pending now)."""
        job = self._worker_job
        self._worker = self._worker_job = None
        if job is None or self._pending is None or self._pending[0] is not job[0]:
            return
        log, prefix, partial, box = job
        if not partial or len(prefix) == len(log):
            self._pending = None
        error = box.get("error")
        if isinstance(error, ValueError):
            self._clear()
            self.placeholder.setText(f"This game cannot be analysed: {error}")
            self.placeholder.setVisible(True)
            return
        if error is not None:
            raise error  # type: ignore[misc]
        charts = box.get("charts")
        if isinstance(charts, list):
            self._show(log, charts, len(prefix))

    def _build(self) -> None:
        log, scenario, params = self._pending
        self._pending = None
        self._clear()
        try:
            charts = game_charts(log, scenario, params)
        except ValueError as exc:  # e.g. a roll record the analysis cannot read
            self.placeholder.setText(f"This game cannot be analysed: {exc}")
            self.placeholder.setVisible(True)
            return
        self._show(log, charts, len(log))

    def _show(self, log: GameLog, charts: list[Chart], upto: int) -> None:
        """Show ``charts`` of ``log``'s first ``upto`` events (all of them, or what is checked
        so far: said above the tabs until the rest is)."""
        current = self.tabs.currentIndex()
        self._clear()
        for chart in charts:
            view = ChartView(chart)
            view.turn_clicked.connect(self.turn_requested.emit)
            self.views[chart.key] = view
            self.tabs.addTab(view, chart.title)
        if 0 <= current < self.tabs.count():
            self.tabs.setCurrentIndex(current)
        self._shown_log, self._shown_len = log, len(log)
        self.partial = upto < len(log)
        if self.partial:
            turn = log.cursor_at(upto).turn
            self.placeholder.setText(
                f"Checking the game: the charts show turns 1 to {turn} ({upto:,} of {len(log):,} events) so far."
            )
        else:
            self.placeholder.setText("Open a recorded game to see its analysis.")
        self.placeholder.setVisible(self.partial or not len(log))
        if self._timeline is not None:
            self._on_position(self._timeline.position)

    def bind_timeline(self, timeline: Timeline | None) -> None:
        """Move ``timeline`` when a turn is clicked, and mark its turn on the charts."""
        if self._timeline is not None:
            self._timeline.position_changed.disconnect(self._on_position)
        self._timeline = timeline
        if timeline is not None:
            timeline.position_changed.connect(self._on_position)
            self._on_position(timeline.position)

    def _seek(self, turn: int) -> None:
        if self._timeline is not None and turn in self.turn_ends:
            self._timeline.seek(self.turn_ends[turn])

    def _on_position(self, pos: int) -> None:
        self._later(pos)

    def _mark_position(self, _pos: int) -> None:
        turn = self._timeline.cursor.turn if self._timeline is not None else None
        for view in self.views.values():
            view.set_current_turn(turn)
