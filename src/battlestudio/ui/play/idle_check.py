"""IdleCheck: a lazily opened game is checked in idle time, after the window's first frame.

``PlayView.wrap`` opens a recorded game with a ``GameLog.lazy``: only what the opening cursor
needs is replayed before the map paints. ``IdleCheck`` then holds the check of every event
(``GameLog.validate`` in slices of about ``CHECK_SLICE_S``) until the map's viewport has painted
once (or a second has passed, or at once when the map is not shown) and announces the wait
(``frame_pending`` / ``frame_done``) so the Analysis dock's charts, which replay the whole game,
wait too; the check runs on a zero-interval timer so the window stays responsive. A bad event is
announced (``unplayable``); ``PlayView`` says so with ``play.problems.unplayable_text`` (the warning) and
``game_problems`` (the Problems dock's error). A game opened from a stored keyframe has the
events before it replayed first and the keyframe compared; a mismatch is announced
(``keyframe_rejected``) and the replay is used. ``progress`` tells how far the check is after
each slice (the Analysis dock builds from what is checked). What a slice built (events, states,
keyframes) lives as long as the document: after each slice what is not frozen yet is collected
and the survivors frozen (``gc.freeze``, as ``FileCommands.open_path`` does after the open), so
the collector's full collections do not rescan the whole game (0.1-0.5 s pauses at Leipzig
scale).
"""

from __future__ import annotations

import gc
import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QWidget

if TYPE_CHECKING:
    from battlestudio.play.document import PlayDocument

CHECK_SLICE_S = 0.02
"""Seconds of idle time one slice of checking a lazily opened game may take."""
CHECK_STEP = 64
"""Events checked between two looks at the clock (~2-5 ms at ten times Leipzig)."""


class IdleCheck(QObject):
    """Checks the game of the shown ``PlayDocument`` in idle slices after the map's first frame.

    Signals
    -------
    frame_pending()
        a game is shown and the map has not painted yet: views that replay the whole game (the
        Analysis charts) wait until ``frame_done``.
    frame_done()
        the map has painted (or a second passed, or it is not shown): the check starts.
    unplayable(object, object)
        the ``PlayDocument`` checked and the ``ValueError`` naming its first bad event.
    keyframe_rejected(object, str)
        the ``PlayDocument`` checked and why the stored keyframe it opened from was replaced
        by the replay (``GameLog.keyframe_problem``).
    keyframe_checked(object)
        the ``PlayDocument`` checked: the events before the stored keyframe it opened from are
        replayed and compared (after ``keyframe_rejected`` when they did not match).
    progress(object, int)
        the ``PlayDocument`` checked and how many of its events are checked now (after each
        slice; ``len(log)`` at the end).
    """

    frame_pending = Signal()
    frame_done = Signal()
    unplayable = Signal(object, object)
    keyframe_rejected = Signal(object, str)
    keyframe_checked = Signal(object)
    progress = Signal(object, int)

    def __init__(self, viewport: QWidget, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.viewport = viewport
        self.play: PlayDocument | None = None
        self.timer = QTimer(self)
        self.timer.setInterval(0)
        self.timer.timeout.connect(self._slice)
        self._first_frame_pending = False  # a document was set; its map has not painted yet

    @property
    def checking(self) -> bool:
        """True while the shown game's events are still being checked."""
        p = self.play
        return p is not None and p.log.validated < len(p.log)

    def show(self, play: PlayDocument | None) -> None:
        """``play`` is shown now (None: no game). A game is held, with the analysis, until the
        map's next paint (``painted``); at once when no paint is coming, a second at the latest."""
        self.play = play
        if play is None:
            return
        self.timer.stop()
        self.frame_pending.emit()
        self._first_frame_pending = True
        if not self.viewport.isVisible():
            self._first_frame_done()
        else:
            QTimer.singleShot(1000, self._first_frame_done)

    def painted(self) -> None:
        """The map's viewport is being painted: start once that paint is done."""
        if self._first_frame_pending:
            QTimer.singleShot(0, self._first_frame_done)

    def _first_frame_done(self) -> None:
        if not self._first_frame_pending:
            return
        self._first_frame_pending = False
        if self.checking:
            self.timer.start()
        self.frame_done.emit()

    def _slice(self) -> None:
        """Check events for about ``CHECK_SLICE_S``; on a bad one, stop and report it."""
        p = self.play
        if p is None or not self.checking:
            self.timer.stop()
            return
        end = time.perf_counter() + CHECK_SLICE_S
        log = p.log
        verifying = log.verifying_keyframe
        try:
            while not log.validate(CHECK_STEP):
                if verifying and not log.verifying_keyframe:
                    break  # the keyframe was compared: said in a slice of its own
                if time.perf_counter() > end:
                    break
        except ValueError as exc:
            self.timer.stop()
            self.unplayable.emit(p, exc)
            return
        if verifying and not log.verifying_keyframe:
            if log.keyframe_problem:
                self.keyframe_rejected.emit(p, log.keyframe_problem)
            self.keyframe_checked.emit(p)
        _keep_built()
        self.progress.emit(p, log.validated)
        if log.validated >= len(log):
            self.timer.stop()


def _keep_built() -> None:
    """Collect what is not frozen yet (what was made since the last slice: a few ms) and freeze
    what survives, the checked game's objects, which full collections would otherwise rescan
    again and again; garbage cycles are collected before, not kept frozen."""
    gc.collect()
    gc.freeze()
