"""TimelineBar: the replay's transport, bound both ways to a ``replay.Timeline``.

A painted track with a tick at every phase start and a taller, numbered tick at every turn
start; click or drag on it to move the cursor. Buttons step by turn, phase and event in both
directions and play or pause; a spin box jumps to a turn; a combo sets the speed and another
what one playback step is. The bar owns the only ``QTimer`` of the replay: on each tick it calls
``Timeline.advance`` with the seconds elapsed, so the pure model decides how far to go.

Keys while the bar has focus (``handle_key`` serves the map too): Left/Right one event,
Shift+Left/Right one phase, Ctrl+Left/Right or PageUp/PageDown one turn, Home/End the start and
end of the game, Space play/pause.
"""

from __future__ import annotations

import html

from bisect import bisect_right

from PySide6.QtCore import QElapsedTimer, QPointF, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QKeyEvent, QMouseEvent, QPainter, QPen
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from battlestudio.replay.timeline import STEP_UNITS, Timeline

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
"""Speeds offered in the speed combo (multiples of the timeline's base rate)."""

TICK_MIN_MS = 15
"""Shortest timer interval; faster playback takes several steps per tick."""


def handle_key(timeline: Timeline, event: QKeyEvent) -> bool:
    """Move ``timeline`` for a replay key (see the module docstring); True if it was one."""
    key, mods = event.key(), event.modifiers()
    shift = bool(mods & Qt.KeyboardModifier.ShiftModifier)
    ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
    if key in (Qt.Key.Key_Left, Qt.Key.Key_Right):
        n = -1 if key == Qt.Key.Key_Left else 1
        timeline.step(n, "turn" if ctrl else "phase" if shift else "event")
    elif key in (Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
        timeline.step_turn(-1 if key == Qt.Key.Key_PageUp else 1)
    elif key == Qt.Key.Key_Home:
        timeline.to_start()
    elif key == Qt.Key.Key_End:
        timeline.to_end()
    elif key == Qt.Key.Key_Space:
        timeline.toggle_play()
    else:
        return False
    return True


class TimelineTrack(QWidget):
    """The painted track: turn and phase ticks, the cursor, click/drag to seek.

    Signals
    -------
    seek_requested(int)
        the log position under the mouse.
    """

    seek_requested = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setMinimumHeight(34)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setMouseTracking(True)
        self.length = 0
        self.position = 0
        self.turns: list[tuple[int, int]] = []  # (turn, start position)
        self.phases: list[int] = []

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(600, 34)

    def x_of(self, pos: int) -> float:
        w = max(1.0, self.width() - 12.0)
        return 6.0 + w * (pos / self.length if self.length else 0.0)

    def pos_at(self, x: float) -> int:
        w = max(1.0, self.width() - 12.0)
        return min(self.length, max(0, round((x - 6.0) / w * self.length)))

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        h = self.height()
        mid = h - 12.0
        p.fillRect(QRectF(6, mid - 3, self.width() - 12, 6), pal.mid())
        p.fillRect(QRectF(6, mid - 3, self.x_of(self.position) - 6, 6), QColor("#3d7ad6"))
        p.setPen(QPen(pal.text().color(), 1))
        last_x = -1e9
        for pos in self.phases:  # phase ticks where they stand apart, else only the turns'
            x = self.x_of(pos - 1)
            if x - last_x >= 4.0:
                p.drawLine(QPointF(x, mid - 5), QPointF(x, mid + 5))
                last_x = x
        font = QFont(self.font())
        font.setPointSizeF(max(6.5, font.pointSizeF() * 0.8))
        p.setFont(font)
        fm = p.fontMetrics()
        last_label = -1e9
        for turn, pos in self.turns:
            x = self.x_of(pos - 1)
            p.setPen(QPen(pal.text().color(), 2))
            p.drawLine(QPointF(x, mid - 11), QPointF(x, mid + 7))
            text = str(turn)
            if x - last_label > fm.horizontalAdvance("000") + 4:
                p.drawText(QPointF(x + 2, mid - 12), text)
                last_label = x
        x = self.x_of(self.position)
        p.setPen(QPen(QColor("#c0392b"), 2))
        p.setBrush(QColor("#e74c3c"))
        p.drawLine(QPointF(x, 2), QPointF(x, h - 2))
        p.drawEllipse(QPointF(x, mid), 5, 5)
        p.end()

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if event.button() == Qt.MouseButton.LeftButton:
            self.seek_requested.emit(self.pos_at(event.position().x()))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if event.buttons() & Qt.MouseButton.LeftButton:
            self.seek_requested.emit(self.pos_at(event.position().x()))
        elif self.length:
            pos = self.pos_at(event.position().x())
            i = bisect_right([p for _, p in self.turns], pos + 1) - 1
            self.setToolTip(f"turn {self.turns[i][0]}, event {pos}" if i >= 0 else "start of the game")


class TimelineBar(QWidget):
    """Transport controls and track of a ``Timeline`` (None = nothing to replay).

    Attributes
    ----------
    timer : QTimer
        the replay's only timer, running while the timeline plays.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("timeline_bar")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.timeline: Timeline | None = None
        self.timer = QTimer(self)
        self.timer.timeout.connect(self._tick)
        self._clock = QElapsedTimer()
        self.track = TimelineTrack(self)
        self.track.seek_requested.connect(self._seek)
        self.buttons: dict[str, QToolButton] = {}
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        for name, text, tip in (
            ("start", "|◀", "Start of the game (Home)"),
            ("turn_back", "«T", "Back one turn (Ctrl+Left, PageUp)"),
            ("phase_back", "«P", "Back one phase (Shift+Left)"),
            ("event_back", "‹", "Back one event (Left)"),
            ("play", "▶", "Play / pause (Space)"),
            ("event_fwd", "›", "Forward one event (Right)"),
            ("phase_fwd", "P»", "Forward one phase (Shift+Right)"),
            ("turn_fwd", "T»", "Forward one turn (Ctrl+Right, PageDown)"),
            ("end", "▶|", "End of the game (End)"),
        ):
            b = QToolButton(self)
            b.setObjectName(f"timeline_{name}")
            b.setText(text)
            b.setToolTip(tip)
            b.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            b.clicked.connect(lambda _c=False, n=name: self.press(n))
            self.buttons[name] = b
            row.addWidget(b)
        row.addSpacing(8)
        row.addWidget(QLabel("Turn"))
        self.turn_box = QSpinBox(self)
        self.turn_box.setObjectName("timeline_turn")
        self.turn_box.setToolTip("Jump to the start of a turn")
        self.turn_box.setKeyboardTracking(False)
        self.turn_box.valueChanged.connect(self._jump)
        row.addWidget(self.turn_box)
        row.addWidget(QLabel("Speed"))
        self.speed_box = QComboBox(self)
        self.speed_box.setObjectName("timeline_speed")
        for s in SPEEDS:
            self.speed_box.addItem(f"{s:g}×", s)
        self.speed_box.setCurrentIndex(SPEEDS.index(1.0))
        self.speed_box.currentIndexChanged.connect(self._on_speed_box)
        row.addWidget(self.speed_box)
        self.unit_box = QComboBox(self)
        self.unit_box.setObjectName("timeline_unit")
        self.unit_box.setToolTip("What one playback step moves by")
        for u in STEP_UNITS:
            self.unit_box.addItem(f"by {u}", u)
        self.unit_box.currentIndexChanged.connect(self._on_unit_box)
        row.addWidget(self.unit_box)
        self.where = QLabel(self)
        self.where.setObjectName("timeline_where")
        self.where.setTextFormat(Qt.TextFormat.RichText)
        row.addWidget(self.where, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(4, 2, 4, 2)
        lay.setSpacing(2)
        lay.addLayout(row)
        lay.addWidget(self.track)
        self.clock_of = lambda turn: ""  # game time of a turn (set by the owner)
        self.set_timeline(None)

    # -- binding ----------------------------------------------------------------------------
    def set_timeline(self, timeline: Timeline | None) -> None:
        """Bind to ``timeline`` (None: disable the controls)."""
        old = self.timeline
        if old is not None:
            old.pause()
            for sig, slot in self._slots(old):
                sig.disconnect(slot)
        self.timer.stop()
        self.timeline = timeline
        self.setEnabled(timeline is not None)
        if timeline is None:
            self.track.length = self.track.position = 0
            self.track.turns, self.track.phases = [], []
            self.where.setText("No game recorded")
            self.track.update()
            return
        for sig, slot in self._slots(timeline):
            sig.connect(slot)
        self._on_bounds(0, len(timeline.log))
        self._on_speed(timeline.speed)
        self._on_playing(timeline.playing)

    def _slots(self, t: Timeline):
        return (
            (t.position_changed, self._on_position),
            (t.playing_changed, self._on_playing),
            (t.speed_changed, self._on_speed),
            (t.bounds_changed, self._on_bounds),
            (t.step_unit_changed, self._on_unit),
        )

    # -- model → widgets ------------------------------------------------------------------------
    def _on_bounds(self, _lo: int, hi: int) -> None:
        log = self.timeline.log
        self.track.length = hi
        self.track.turns = list(zip(log.turns(), log.turn_starts(), strict=False))
        self.track.phases = log.phase_starts()
        turns = log.turns()
        self.turn_box.blockSignals(True)
        self.turn_box.setRange(turns[0] if turns else 0, turns[-1] if turns else 0)
        self.turn_box.blockSignals(False)
        if self.timeline.position <= hi:  # after an undo the timeline seeks back to the end next
            self._on_position(self.timeline.position)

    def _on_position(self, pos: int) -> None:
        t = self.timeline
        self.track.position = pos
        self.track.update()
        c = t.cursor
        self.turn_box.blockSignals(True)
        self.turn_box.setValue(c.turn)
        self.turn_box.blockSignals(False)
        if pos == 0:
            text = "<b>Start of the game</b> (as deployed)"
        else:
            clock = self.clock_of(c.turn)
            n = len(t.log.events_of(*c.key))
            text = (
                f"<b>Turn {c.turn}</b>{' · ' + clock if clock else ''} · {html.escape(c.side or 'both sides')} · "
                f"{html.escape(c.phase)} · event {c.index + 1}/{n}"
            )
        self.where.setText(f"{text}  <span style='color:gray'>({pos}/{len(t.log)})</span>")
        self.buttons["end"].setEnabled(not t.at_end)
        self.buttons["start"].setEnabled(not t.at_start)

    def _on_playing(self, playing: bool) -> None:
        self.buttons["play"].setText("❚❚" if playing else "▶")
        if playing:
            self._clock.start()
            self.timer.start(max(TICK_MIN_MS, round(self.timeline.interval * 1000)))
        else:
            self.timer.stop()

    def _on_speed(self, speed: float) -> None:
        i = self.speed_box.findData(speed)
        if i < 0:
            self.speed_box.addItem(f"{speed:g}×", speed)
            i = self.speed_box.count() - 1
        self.speed_box.blockSignals(True)
        self.speed_box.setCurrentIndex(i)
        self.speed_box.blockSignals(False)
        if self.timer.isActive():
            self.timer.setInterval(max(TICK_MIN_MS, round(self.timeline.interval * 1000)))

    def _on_unit(self, unit: str) -> None:
        self.unit_box.blockSignals(True)
        self.unit_box.setCurrentIndex(self.unit_box.findData(unit))
        self.unit_box.blockSignals(False)

    # -- widgets → model -----------------------------------------------------------------------
    def press(self, name: str) -> None:
        """Act as the button ``name`` (``start``, ``turn_back`` … ``play`` … ``end``)."""
        t = self.timeline
        if t is None:
            return
        {
            "start": t.to_start,
            "end": t.to_end,
            "play": t.toggle_play,
            "turn_back": lambda: t.step_turn(-1),
            "turn_fwd": lambda: t.step_turn(1),
            "phase_back": lambda: t.step_phase(-1),
            "phase_fwd": lambda: t.step_phase(1),
            "event_back": lambda: t.step_event(-1),
            "event_fwd": lambda: t.step_event(1),
        }[name]()

    def _seek(self, pos: int) -> None:
        if self.timeline is not None:
            self.timeline.seek(pos)

    def _jump(self, turn: int) -> None:
        if self.timeline is not None and turn in self.timeline.log.turns():
            self.timeline.jump_to(turn)

    def _on_speed_box(self, _i: int) -> None:
        if self.timeline is not None:
            self.timeline.speed = float(self.speed_box.currentData())

    def _on_unit_box(self, _i: int) -> None:
        if self.timeline is not None:
            self.timeline.step_unit = self.unit_box.currentData()

    def _tick(self) -> None:
        if self.timeline is None:
            self.timer.stop()
            return
        elapsed = self._clock.restart() / 1000.0
        self.timeline.advance(elapsed)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if self.timeline is not None and handle_key(self.timeline, event):
            event.accept()
            return
        super().keyPressEvent(event)
