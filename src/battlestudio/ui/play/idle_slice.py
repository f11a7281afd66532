"""IdleSlice: a view's update run in a later event-loop slice while the replay plays.

One playback step used to redraw the map, the command overlay, the trails, the tree and the
docks in one go (60-110 ms a turn on Jena), so a click waited for all of it. While a timeline
plays, the views wrapped here run in their own slices after the step (the unit positions are
drawn first); calls that arrive before a slice runs coalesce into one (the latest arguments).
Paused, they run at once, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QTimer


class IdleSlice(QObject):
    """Call ``fn(*args)`` now, or, while ``playing()`` is true, in a later event-loop slice.

    Parameters
    ----------
    fn : callable
        the update; when several calls are deferred only the last one's arguments are used.
    playing : callable returning bool
        whether to defer (e.g. ``lambda: timeline.playing``).
    """

    def __init__(self, fn: Callable[..., Any], playing: Callable[[], bool], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._fn = fn
        self._playing = playing
        self._args: tuple[Any, ...] | None = None
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.flush)

    @property
    def pending(self) -> bool:
        """True while a deferred call waits for its slice."""
        return self._args is not None

    def __call__(self, *args: Any) -> None:
        if self._args is not None or self._playing():
            self._args = args
            self._timer.start()
            return
        self._fn(*args)

    def flush(self) -> None:
        """Run the waiting call now (nothing when none waits)."""
        self._timer.stop()
        args, self._args = self._args, None
        if args is not None:
            self._fn(*args)

    def cancel(self) -> None:
        """Drop the waiting call."""
        self._timer.stop()
        self._args = None
