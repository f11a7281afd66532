"""TimelineBar: the replay's transport, bound both ways to a ``replay.Timeline``.

A painted track with a tick at every phase start, a taller, numbered tick at every turn start and
a band in each side's colour under every player-turn; its tooltip names the place under the mouse
("turn 14, prussian, fire"); click or drag on it to move the cursor. Buttons step by turn, phase
and event in both directions and play or pause; a spin box jumps to a turn; the Go to box takes a
place typed in the CLI's ``--at`` syntax (``session.text.AT_GRAMMAR``: ``14:prussian:fire`` the
end of that phase, ``14:2:fire:start`` where it has begun) and shows the cursor's place in it,
its menu picks a turn, side and phase (their start); a combo sets the speed and another
what one playback step is. The bar owns the only ``QTimer`` of the replay: on each tick it calls
``Timeline.advance`` with the seconds elapsed, so the pure model decides how far to go.

Keys while the bar has focus (``handle_key`` serves the map too): Left/Right one event,
Shift+Left/Right one phase, Ctrl+Left/Right or PageUp/PageDown one turn, Home/End the start and
end of the game, Space play/pause.
"""

from __future__ import annotations

import time

import html

from bisect import bisect_right
from collections.abc import Callable
from html import escape

from PySide6.QtCore import QElapsedTimer, QPointF, QRectF, QSize, QStringListModel, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QKeyEvent, QMouseEvent, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMenu,
    QSizePolicy,
    QSpinBox,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from battlestudio.replay.cursor import PhaseKey
from battlestudio.replay.timeline import STEP_UNITS, Timeline
from battlestudio.session.text import AT_GRAMMAR, AT_MEANING, at_text, phase_label, position_at

SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)
"""Speeds offered in the speed combo (multiples of the timeline's base rate)."""

TICK_MIN_MS = 15

BUSY_SHARE = 0.4
"""Most of the event loop's time playback may take: a tick whose frame (the step, then the
views' slices and the repaint it causes) cost ``c`` ms waits at least ``c / BUSY_SHARE`` ms for
the next, so clicks and keys always find the loop free; the steps owed meanwhile are taken in
one seek (frames are dropped, the speed is kept)."""

SPACING_MAX_MS = 400
"""The longest wait ``BUSY_SHARE`` makes between two ticks (other work of the window that ran
during a frame, e.g. a check in idle time, must not slow playback to a crawl)."""
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
        self.keys: list[PhaseKey] = []  # the phase of each of ``phases``
        self.side_runs: list[tuple[int, int, str]] = []  # (start, end, side) of each player-turn
        self.side_colour: Callable[[str], str] = lambda side: "#808080"
        self.bookmarks: list[tuple[int, str]] = []  # (position, name), flagged above the bar
        self._picture: QPixmap | None = None  # the marks, drawn once (``_marks_picture``)
        self._picture_key: tuple | None = None

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt API
        return QSize(600, 34)

    def x_of(self, pos: int) -> float:
        w = max(1.0, self.width() - 12.0)
        return 6.0 + w * (pos / self.length if self.length else 0.0)

    def pos_at(self, x: float) -> int:
        w = max(1.0, self.width() - 12.0)
        return min(self.length, max(0, round((x - 6.0) / w * self.length)))

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt API
        """The bar, the progress up to the cursor, the marks (drawn once into a picture kept
        until the size, the log or the bookmarks change) and the cursor: a playback step
        repaints only the bar and the cursor over that picture."""
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        pal = self.palette()
        h = self.height()
        mid = h - 12.0
        p.fillRect(QRectF(6, mid - 3, self.width() - 12, 6), pal.mid())
        p.fillRect(QRectF(6, mid - 3, self.x_of(self.position) - 6, 6), QColor("#3d7ad6"))
        p.drawPixmap(0, 0, self._marks_picture())
        x = self.x_of(self.position)
        p.setPen(QPen(QColor("#c0392b"), 2))
        p.setBrush(QColor("#e74c3c"))
        p.drawLine(QPointF(x, 2), QPointF(x, h - 2))
        p.drawEllipse(QPointF(x, mid), 5, 5)
        p.end()

    def _marks_picture(self) -> QPixmap:
        ratio = self.devicePixelRatioF()
        key = (
            self.width(),
            self.height(),
            ratio,
            self.length,
            tuple(self.turns),
            len(self.phases),
            self.phases[-1] if self.phases else None,
            tuple(self.side_runs),
            tuple({self.side_colour(side) for _, _, side in self.side_runs}),
            tuple(self.bookmarks),
            self.palette().cacheKey(),
            self.font().key(),
        )
        if self._picture is not None and self._picture_key == key:
            return self._picture
        pix = QPixmap(max(1, round(self.width() * ratio)), max(1, round(self.height() * ratio)))
        pix.setDevicePixelRatio(ratio)
        pix.fill(Qt.GlobalColor.transparent)
        p = QPainter(pix)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        self._draw_marks(p)
        p.end()
        self._picture, self._picture_key = pix, key
        return pix

    def _draw_marks(self, p: QPainter) -> None:
        """Side bands, phase and turn ticks with turn numbers, bookmark flags."""
        pal = self.palette()
        mid = self.height() - 12.0
        for start, end, side in self.side_runs:  # who plays: a band in the side's colour under the bar
            x0, x1 = self.x_of(start), self.x_of(end)
            p.fillRect(QRectF(x0, mid + 4, max(1.0, x1 - x0), 3), QColor(self.side_colour(side)))
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
        p.setPen(QPen(QColor("#b8860b"), 1))
        p.setBrush(QColor("#f0b429"))
        for pos, _name in self.bookmarks:  # a small flag at each bookmark
            bx = self.x_of(min(pos, self.length))
            p.drawPolygon([QPointF(bx, mid - 3), QPointF(bx - 4, mid - 10), QPointF(bx + 4, mid - 10)])

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if event.button() == Qt.MouseButton.LeftButton:
            self.seek_requested.emit(self.pos_at(event.position().x()))

    def mouseMoveEvent(self, event: QMouseEvent) -> None:  # noqa: N802 - Qt API
        if event.buttons() & Qt.MouseButton.LeftButton:
            self.seek_requested.emit(self.pos_at(event.position().x()))
        elif self.length:
            self.setToolTip(self.place_at(self.pos_at(event.position().x())))

    def place_at(self, pos: int) -> str:
        """The tooltip of position ``pos``: ``"turn 14, prussian, fire (event 755)"``."""
        i = bisect_right(self.phases, pos) - 1
        text = "start of the game" if pos == 0 or i < 0 else f"{phase_label(self.keys[i])} (event {pos})"
        near = [name for p, name in self.bookmarks if abs(self.x_of(p) - self.x_of(pos)) <= 4]
        return text + "".join(f"\nbookmark: {name}" for name in near)


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
        self.frame_ms = 0.0  # what the last playback frame cost (``BUSY_SHARE``)
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
        self.goto_box = QLineEdit(self)
        self.goto_box.setObjectName("timeline_goto")
        self.goto_box.setPlaceholderText("14:prussian:fire")
        self.goto_box.setToolTip(f"Go to a place (Ctrl+G): {AT_GRAMMAR}. {AT_MEANING[0].upper()}{AT_MEANING[1:]}.")
        self.goto_box.setMinimumWidth(150)
        self.goto_box.returnPressed.connect(lambda: self.go_to(self.goto_box.text()))
        self._places = QStringListModel(self)
        completer = QCompleter(self._places, self.goto_box)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setFilterMode(Qt.MatchFlag.MatchStartsWith)
        self.goto_box.setCompleter(completer)
        row.addWidget(QLabel("Go to"))
        row.addWidget(self.goto_box)
        self.goto_menu = QMenu(self)
        self.goto_menu.setObjectName("timeline_goto_menu")
        self.goto_menu.aboutToShow.connect(self.fill_goto_menu)
        pick = QToolButton(self)
        pick.setObjectName("timeline_goto_pick")
        pick.setText("▾")
        pick.setToolTip("Pick a turn, side and phase to go to (its start)")
        pick.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        pick.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        pick.setMenu(self.goto_menu)
        row.addWidget(pick)
        self.goto_error = ""  # why the last Go to failed ("" when it did not)
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
        # a long place or error is clipped (and in the tooltip), never widening the window
        self.where.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.where.setMinimumWidth(120)
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
            self.track.turns, self.track.phases, self.track.keys, self.track.side_runs = [], [], [], []
            self.goto_box.clear()
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
        keys = log.phases()
        self.track.keys = keys
        runs: list[tuple[int, int, str]] = []
        for k in keys:
            start, end = log.phase_range(k)
            if runs and runs[-1][2] == k.side and runs[-1][1] == start:
                runs[-1] = (runs[-1][0], end, k.side)
            else:
                runs.append((start, end, k.side))
        self.track.side_runs = runs
        if len(keys) != self._places.rowCount():
            self._places.setStringList([f"{k.turn}:{k.side}:{k.phase}" for k in keys])
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
        if not self.goto_box.hasFocus():
            self.goto_box.setText(at_text(t.log, pos))
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

    def go_to(self, text: str) -> bool:
        """Go to the place ``text`` names (``session.text.position_at``); a place the game does
        not hold is said in the bar (``goto_error``) and the cursor stays. True if it moved there."""
        t = self.timeline
        if t is None:
            return False
        try:
            pos = position_at(t.log, text)
        except ValueError as exc:
            self.goto_error = str(exc).removeprefix("--at ")
            self.where.setText(f"<span style='color:#b00020'>Go to {escape(self.goto_error)}</span>")
            self.where.setToolTip(f"Go to {self.goto_error}")
            return False
        self.goto_error = ""
        t.seek(pos)
        self.goto_box.setText(at_text(t.log, t.position))
        self.goto_box.selectAll()
        return t.position == pos

    def fill_goto_menu(self) -> None:
        """The Go to menu: start, end, then turn ▸ side ▸ phase, each going to its start."""
        m = self.goto_menu
        m.clear()
        t = self.timeline
        if t is None:
            return
        m.addAction("Start of the game", lambda: self.go_to("start"))
        m.addAction("End of the game", lambda: self.go_to("end"))
        m.addSeparator()
        by_turn: dict[int, dict[str, list[str]]] = {}
        for k in t.log.phases():
            by_turn.setdefault(k.turn, {}).setdefault(k.side, []).append(k.phase)
        for turn, sides in by_turn.items():
            clock = self.clock_of(turn)
            tm = m.addMenu(f"Turn {turn}{' · ' + clock if clock else ''}")
            for side, phases in sides.items():
                sm = tm.addMenu(side or "both sides")
                for phase in phases:
                    where = f"{turn}:{side}:{phase}:start"
                    sm.addAction(phase.replace("_", " "), lambda w=where: self.go_to(w))

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
        start = time.perf_counter()
        if self.timeline.advance(elapsed) and self.timeline.playing:
            # the frame ends when what the step queued has run: the views' idle slices (first
            # hop), then the repaint they and the step asked for (second hop)
            QTimer.singleShot(0, lambda: QTimer.singleShot(0, lambda: self._frame_done(start)))

    def _frame_done(self, start: float) -> None:
        """Space the next tick after a frame that cost ``now - start`` (``BUSY_SHARE``)."""
        if self.timeline is None or not self.timeline.playing:
            return
        cost_ms = (time.perf_counter() - start) * 1000.0
        self.frame_ms = cost_ms
        wanted = max(TICK_MIN_MS, round(self.timeline.interval * 1000))
        self.timer.setInterval(max(wanted, min(SPACING_MAX_MS, round(cost_ms / BUSY_SHARE))))

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        if self.timeline is not None and handle_key(self.timeline, event):
            event.accept()
            return
        super().keyPressEvent(event)
