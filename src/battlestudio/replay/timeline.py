"""The replay timeline: a pure, evented model of where the replay stands and how it plays.

``Timeline`` holds a position in a ``GameLog`` (0 = the scenario as deployed, ``len(log)`` =
the latest state), steps by event, phase or turn in both directions, jumps to a turn / side /
phase, and plays: the UI owns the only timer and calls ``advance()`` on each tick (or with the
seconds elapsed). No Qt, no timers, no threads here, so stepping, looping and speed are tested
without waiting in real time.

Phase and turn steps land just after the first event of a phase or turn (its "phase started"
in a well-formed log): the cursor then reads "turn 14, Prussian side, firing" and the state
shows everything before it. Stepping forward from the last phase lands at the end of the log.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from psygnal import Signal

from battlestudio.replay.cursor import Cursor
from battlestudio.replay.game import GameLog
from battlestudio.replay.lazy_log import UnreplayableEvent
from battlestudio.replay.state import GameState

STEP_UNITS = ("event", "phase", "turn")
"""What one playback step (and ``step``) moves by."""

MIN_SPEED, MAX_SPEED = 1 / 16, 64.0


class Timeline:
    """Cursor, bounds, stepping and playback over a ``GameLog``.

    Parameters
    ----------
    log : GameLog
    position : int | None
        where to start; None = the end of the log (the latest state).
    steps_per_second : float
        playback rate at speed 1.0 (steps of ``step_unit`` per second, > 0).

    Signals
    -------
    position_changed(int)
        the new position; read ``cursor`` / ``state`` for what it means.
    playing_changed(bool), speed_changed(float), loop_changed(bool), step_unit_changed(str)
    loop_range_changed(object)
        the new ``loop_range`` (a ``(first, last)`` pair of positions, or None: the whole game).
    bounds_changed(int, int)
        new first and last position (events appended or undone).
    unreplayable(UnreplayableEvent)
        a seek into a lazily opened log (``GameLog.lazy``) reached an event that cannot be
        replayed; the position is unchanged and playback paused.

    While the position is at the end of the log, appended events move it along (live
    recording); undo pulls a position past the new end back to it.
    """

    position_changed = Signal(int)
    playing_changed = Signal(bool)
    speed_changed = Signal(float)
    loop_changed = Signal(bool)
    loop_range_changed = Signal(object)
    step_unit_changed = Signal(str)
    bounds_changed = Signal(int, int)
    unreplayable = Signal(object)

    def __init__(self, log: GameLog, position: int | None = None, *, steps_per_second: float = 2.0) -> None:
        if steps_per_second <= 0:
            raise ValueError(f"steps_per_second must be > 0, got {steps_per_second}")
        self._log = log
        self._pos = len(log) if position is None else log.position(position)
        self._playing = False
        self._speed = 1.0
        self._loop = False
        self._range: tuple[int, int] | None = None
        self._unit = "event"
        self._rate = steps_per_second
        self._debt = 0.0
        log.appended.connect(self._on_appended)
        log.truncated.connect(self._on_truncated)

    def close(self) -> None:
        """Stop listening to the log (call when the view goes away)."""
        self._log.appended.disconnect(self._on_appended)
        self._log.truncated.disconnect(self._on_truncated)

    # -- where we are ---------------------------------------------------------------------
    @property
    def log(self) -> GameLog:
        return self._log

    @property
    def position(self) -> int:
        """Events applied at the cursor, in ``bounds``."""
        return self._pos

    @property
    def cursor(self) -> Cursor:
        """The cursor (turn, side, phase, index) of the position."""
        return self._log.cursor_at(self._pos)

    @property
    def state(self) -> GameState:
        """The game state at the cursor: what every view shows."""
        return self._log.state_at(self._pos)

    @property
    def bounds(self) -> tuple[int, int]:
        """First and last position."""
        return self._log.bounds()

    @property
    def at_start(self) -> bool:
        return self._pos == 0

    @property
    def at_end(self) -> bool:
        return self._pos == len(self._log)

    # -- moving ---------------------------------------------------------------------------
    def seek(self, at: Cursor | int) -> None:
        """Go to a cursor or position.

        A place past an event that cannot be replayed (a lazily opened log) is not reached:
        ``unreplayable`` says why and the position is unchanged.

        Raises
        ------
        ValueError
            for a place not in the log (the position is unchanged).
        """
        pos = self._log.position(at)
        if pos != self._pos:
            if pos > getattr(self._log, "validated", pos):  # a lazy log not yet checked that far
                try:
                    self._log.state_at(pos)
                except UnreplayableEvent as exc:
                    self.pause()
                    self.unreplayable.emit(exc)
                    return
            self._pos = pos
            self.position_changed.emit(pos)

    def to_start(self) -> None:
        self.seek(0)

    def to_end(self) -> None:
        self.seek(len(self._log))

    def step_event(self, n: int = 1) -> None:
        """Move ``n`` events (negative = back), stopping at the bounds."""
        self.seek(min(max(self._pos + n, 0), len(self._log)))

    def step_phase(self, n: int = 1) -> None:
        """Move ``n`` phase starts (negative = back), stopping at the bounds."""
        self._step_marks(self._log.phase_starts(), n)

    def step_turn(self, n: int = 1) -> None:
        """Move ``n`` turn starts (negative = back), stopping at the bounds."""
        self._step_marks(self._log.turn_starts(), n)

    def step(self, n: int = 1, unit: str | None = None) -> None:
        """Move ``n`` steps of ``unit`` (``"event"``, ``"phase"``, ``"turn"``; default ``step_unit``).

        Raises
        ------
        ValueError
            for an unknown unit.
        """
        unit = self._unit if unit is None else unit
        if unit == "event":
            self.step_event(n)
        elif unit == "phase":
            self.step_phase(n)
        elif unit == "turn":
            self.step_turn(n)
        else:
            raise ValueError(f"step unit must be one of {', '.join(STEP_UNITS)}, got {unit!r}")

    def _step_marks(self, marks: list[int], n: int) -> None:
        end = len(self._log)
        pos = self._pos
        for _ in range(abs(n)):
            if n > 0:
                i = bisect_right(marks, pos)
                pos = marks[i] if i < len(marks) else end
            else:
                i = bisect_left(marks, pos) - 1
                pos = marks[i] if i >= 0 else 0
        self.seek(pos)

    def jump_to(self, turn: int, side: str | None = None, phase: str | None = None) -> None:
        """Go to the start of the first phase of ``turn`` (``side``, ``phase`` where given).

        Raises
        ------
        ValueError
            if the log has no such phase.
        """
        start, _ = self._log.phase_range(self._log.find_phase(turn, side, phase))
        self.seek(start + 1)

    # -- playback -------------------------------------------------------------------------
    @property
    def playing(self) -> bool:
        return self._playing

    def play(self) -> None:
        """Start playing; from the end, playback starts again at the beginning."""
        if self._playing:
            return
        if self._loop and self._range is not None and not self._range[0] <= self._pos < self._range[1]:
            self.seek(self._range[0])
        elif self.at_end:
            self.to_start()
        self._debt = 0.0
        self._playing = True
        self.playing_changed.emit(True)

    def pause(self) -> None:
        if self._playing:
            self._playing = False
            self.playing_changed.emit(False)

    def toggle_play(self) -> None:
        self.pause() if self._playing else self.play()

    @property
    def speed(self) -> float:
        """Playback speed multiplier, in [1/16, 64]."""
        return self._speed

    @speed.setter
    def speed(self, value: float) -> None:
        if not MIN_SPEED <= value <= MAX_SPEED:
            raise ValueError(f"speed must be between {MIN_SPEED} and {MAX_SPEED}, got {value}")
        if value != self._speed:
            self._speed = float(value)
            self.speed_changed.emit(self._speed)

    def faster(self) -> None:
        """Double the speed (up to the maximum)."""
        self.speed = min(self._speed * 2, MAX_SPEED)

    def slower(self) -> None:
        """Halve the speed (down to the minimum)."""
        self.speed = max(self._speed / 2, MIN_SPEED)

    @property
    def loop(self) -> bool:
        """Whether playback starts again from the beginning after the end."""
        return self._loop

    @loop.setter
    def loop(self, value: bool) -> None:
        if bool(value) != self._loop:
            self._loop = bool(value)
            self.loop_changed.emit(self._loop)

    @property
    def loop_range(self) -> tuple[int, int] | None:
        """The ``(first, last)`` positions a looping playback goes round (None: the whole game).

        Playing from outside the range starts at ``first``; reaching ``last`` (or the end)
        shows it, then the next tick goes back to ``first``. Only used while ``loop`` is on.
        """
        return self._range

    @loop_range.setter
    def loop_range(self, value: tuple[int, int] | None) -> None:
        if value is not None:
            lo, hi = (self._log.position(v) for v in value)
            if not lo < hi:
                raise ValueError(f"a loop range needs its first position before its last, got {lo} and {hi}")
            value = (lo, hi)
        if value != self._range:
            self._range = value
            self.loop_range_changed.emit(value)

    @property
    def step_unit(self) -> str:
        """What a playback step moves by: ``"event"``, ``"phase"`` or ``"turn"``."""
        return self._unit

    @step_unit.setter
    def step_unit(self, value: str) -> None:
        if value not in STEP_UNITS:
            raise ValueError(f"step unit must be one of {', '.join(STEP_UNITS)}, got {value!r}")
        if value != self._unit:
            self._unit = value
            self.step_unit_changed.emit(value)

    @property
    def interval(self) -> float:
        """Seconds between two playback steps at the current speed (for the UI's timer)."""
        return 1.0 / (self._rate * self._speed)

    def advance(self, elapsed: float | None = None) -> int:
        """One tick of playback; return how many steps were taken.

        With ``elapsed`` None, take one step. Otherwise take as many steps as ``elapsed``
        seconds are worth at ``steps_per_second × speed`` (fractions carry over to the next
        tick), and move there in one ``seek``: the positions in between are not shown, so a
        slow view drops frames instead of falling behind. A tick stops at the end: that pauses,
        unless ``loop`` is on: then the next tick goes back to the start (with a ``loop_range``:
        its last position is the end and its first the start). Does nothing while paused.
        """
        if not self._playing:
            return 0
        if elapsed is None:
            steps = 1
        else:
            self._debt += max(0.0, elapsed) * self._rate * self._speed
            steps = int(self._debt)
            self._debt -= steps
        end = len(self._log)
        first = 0
        if self._loop and self._range is not None:
            first, end = self._range[0], min(self._range[1], end)
        pos, taken = self._pos, 0
        marks = None if self._unit == "event" else self._log.phase_starts() if self._unit == "phase" else None
        if self._unit == "turn":
            marks = self._log.turn_starts()
        for _ in range(steps):
            if pos >= end:
                if not self._loop or taken:
                    break  # show the end before going round
                pos = first
            elif marks is None:
                pos += 1
            else:
                i = bisect_right(marks, pos)
                pos = min(marks[i], end) if i < len(marks) else end
            taken += 1
            if pos == end:
                break
        if taken:
            self.seek(pos)
        if self.at_end and not self._loop:
            self.pause()
        return taken

    # -- following the log ----------------------------------------------------------------
    def _on_appended(self, old: int, new: int) -> None:
        self.bounds_changed.emit(0, new)
        if self._pos == old and not self._playing:
            self.seek(new)

    def _on_truncated(self, new: int) -> None:
        if self._range is not None and self._range[1] > new:
            self.loop_range = None  # events it spanned were undone
        self.bounds_changed.emit(0, new)
        if self._pos > new:
            self.seek(new)
