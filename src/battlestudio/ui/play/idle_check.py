"""IdleCheck: a lazily opened game is checked in idle time, after the window's first frame.

``PlayView.wrap`` opens a recorded game with a ``GameLog.lazy``: only what the opening cursor
needs is replayed before the map paints. ``IdleCheck`` then holds the rest — the check of every
event (``GameLog.validate`` in slices of about ``CHECK_SLICE_S``) and the Analysis dock's charts
(which replay the whole game) — until the map's viewport has painted once (or a second has
passed, or at once when the map is not shown), and runs the check on a zero-interval timer so
the window stays responsive. A bad event is handed to ``PlayView.game_unplayable``, which says
so with ``unplayable_text`` (the warning) and ``game_problems`` (the Problems dock's error).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from battlestudio.document import Document
from battlestudio.validate import Problem
from battlestudio.store import BattleFileError

if TYPE_CHECKING:
    from battlestudio.ui.play.controller import PlayView

CHECK_SLICE_S = 0.02
"""Seconds of idle time one slice of checking a lazily opened game may take."""


def unplayable_text(doc: Document, exc: Exception) -> str:
    """The warning shown when ``doc``'s recorded game cannot be replayed: the file, the first bad
    event (``exc``, from ``GameLog``), and what happens to the game."""
    name = str(doc.path) if doc.path is not None else "This battle"
    n = len(doc.battle.events)
    saving = ("Saving to a .battle file keeps the recorded events as they are, that one included; a "
              ".battle.json file cannot hold it, so saving there asks first whether to save the scenario "
              "without its recorded game." if isinstance(getattr(exc, "error", exc), BattleFileError) else
              "Saving keeps the recorded events as they are in the file.")
    return (f"{name}: the recorded game ({n} event{'' if n == 1 else 's'}) cannot be replayed.\n\n{exc}\n\n"
            f"The scenario was opened without the game: the map shows it as deployed. {saving}")


def game_problems(doc: Document, exc: Exception | None) -> list[Problem]:
    """For the Problems dock: one error when ``doc``'s recorded game cannot be replayed
    (``exc``, naming the first bad event; None when it can)."""
    if exc is None:
        return []
    n = len(doc.battle.events)
    return [Problem("error", "game:not-replayable",
                    f"The recorded game ({n} event{'' if n == 1 else 's'}) cannot be replayed: {exc}", ())]


class _NoPanel:
    """Stands in for the Analysis dock of a window without one."""

    def hold(self) -> None: ...

    def release(self) -> None: ...


class IdleCheck(QObject):
    """Checks the game of ``view``'s document in idle slices after the first frame."""

    def __init__(self, view: "PlayView") -> None:
        super().__init__(view)
        self.view = view
        self.timer = QTimer(self)
        self.timer.setInterval(0)
        self.timer.timeout.connect(self._slice)
        self._first_frame_pending = False  # a document was set; its map has not painted yet

    @property
    def checking(self) -> bool:
        """True while the shown game's events are still being checked."""
        p = self.view.play
        return p is not None and p.log.validated < len(p.log)

    def after_first_frame(self) -> None:
        """Hold the check and the analysis until the map's next paint (``painted``); at once
        when no paint is coming, and after a second at the latest."""
        self.timer.stop()
        self._analysis().hold()
        self._first_frame_pending = True
        if not self.view.window.map_view.viewport().isVisible():
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
        self._analysis().release()

    def _analysis(self):
        cv = getattr(self.view.window, "command_view", None)
        return cv.analysis_panel if cv is not None else _NoPanel()

    def _slice(self) -> None:
        """Check events for about ``CHECK_SLICE_S``; on a bad one, stop and report it."""
        p = self.view.play
        if p is None or not self.checking:
            self.timer.stop()
            return
        end = time.perf_counter() + CHECK_SLICE_S
        try:
            while not p.log.validate(256):
                if time.perf_counter() > end:
                    return
        except ValueError as exc:
            self.timer.stop()
            self.view.game_unplayable(p, exc)
            return
        self.timer.stop()
