"""CursorMemory: a recorded game reopens where it was last shown, per file (``Settings``).

The window hands it every shown document (``follow``). The first time a ``PlayDocument`` with a
file is shown, its timeline goes to the position remembered for that file, when the game still
has that many events; while it is shown, its position is remembered half a second after it last
moved (not on every playback step) and when another document is shown.
"""

from __future__ import annotations

import weakref

from PySide6.QtCore import QObject, QTimer

from battlestudio.document import Document
from battlestudio.play.document import PlayDocument
from battlestudio.ui.settings import Settings

WRITE_DELAY_MS = 500
"""How long the cursor rests before its position is written to the settings."""


class CursorMemory(QObject):
    """Remembers and restores each file's replay position (see the module docstring)."""

    def __init__(self, settings: Settings, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.doc: PlayDocument | None = None
        self._restored: weakref.WeakSet[PlayDocument] = weakref.WeakSet()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(WRITE_DELAY_MS)
        self._timer.timeout.connect(self.write)

    def follow(self, doc: Document) -> None:
        """``doc`` is shown now: write the last one's position, restore this one's once."""
        if self.doc is not None and self.doc is not doc:
            self.write()
            self.doc.timeline.position_changed.disconnect(self._moved)
            self.doc = None
        if not isinstance(doc, PlayDocument) or doc is self.doc:
            return
        self.doc = doc
        if doc not in self._restored and doc.path is not None:
            self._restored.add(doc)
            pos = self.settings.replay_cursor(doc.path)
            if pos is not None and pos <= len(doc.log):
                doc.timeline.seek(pos)
        doc.timeline.position_changed.connect(self._moved)

    def _moved(self, _pos: int) -> None:
        self._timer.start()

    def write(self) -> None:
        """Remember the shown game's position for its file now."""
        self._timer.stop()
        d = self.doc
        if d is not None and d.path is not None:
            self.settings.set_replay_cursor(d.path, d.timeline.position)
