"""User settings kept with QSettings: window layout, recent files, replay cursors, autosave timing.

``Settings`` wraps one ``QSettings`` so tests can hand the window an INI file in a temporary
folder instead of the user's real configuration.
"""

from __future__ import annotations

import json
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

MAX_RECENT = 10
"""How many recent files the Open Recent menu keeps."""

MAX_CURSORS = 50
"""How many files' last replay positions are remembered."""

ORGANIZATION = "BattleStudio"
APPLICATION = "BattleStudio"


class Settings:
    """Typed access to the editor's persistent settings.

    Parameters
    ----------
    qsettings : QSettings | None
        where to keep them; default: the user's BattleStudio settings.
    """

    def __init__(self, qsettings: QSettings | None = None) -> None:
        self.q = qsettings if qsettings is not None else QSettings(ORGANIZATION, APPLICATION)

    @classmethod
    def at(cls, path: str | Path) -> Settings:
        """Settings kept in the INI file ``path`` (used by tests and portable installs)."""
        return cls(QSettings(str(path), QSettings.Format.IniFormat))

    # -- recent files --------------------------------------------------------------------
    def recent_files(self) -> list[Path]:
        """Recently opened or saved files, newest first (at most ``MAX_RECENT``)."""
        raw = self.q.value("recent/files", [])
        if isinstance(raw, str):
            raw = [raw]
        return [Path(p) for p in (raw or []) if p][:MAX_RECENT]

    def add_recent(self, path: str | Path) -> list[Path]:
        """Put ``path`` first in the recent files; return the new list."""
        p = Path(path).resolve()
        files = [p] + [f for f in self.recent_files() if f != p]
        self._set_recent(files[:MAX_RECENT])
        return self.recent_files()

    def remove_recent(self, path: str | Path) -> None:
        """Forget ``path`` (e.g. after it failed to open)."""
        p = Path(path).resolve()
        self._set_recent([f for f in self.recent_files() if f != p])

    def clear_recent(self) -> None:
        self._set_recent([])

    def _set_recent(self, files: list[Path]) -> None:
        self.q.setValue("recent/files", [str(f) for f in files])
        self.q.sync()

    # -- window layout -------------------------------------------------------------------
    def window_state(self) -> tuple[QByteArray | None, QByteArray | None]:
        """Saved (geometry, dock/toolbar state) of the main window, None where missing."""
        geo = self.q.value("window/geometry")
        state = self.q.value("window/state")
        return (geo if isinstance(geo, QByteArray) else None, state if isinstance(state, QByteArray) else None)

    def set_window_state(self, geometry: QByteArray, state: QByteArray) -> None:
        self.q.setValue("window/geometry", geometry)
        self.q.setValue("window/state", state)
        self.q.sync()

    # -- replay cursors ------------------------------------------------------------------
    def replay_cursor(self, path: str | Path) -> int | None:
        """The replay position last shown for the file ``path`` (events applied), None if none."""
        value = self._cursors().get(str(Path(path).resolve()))
        return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None

    def set_replay_cursor(self, path: str | Path, position: int) -> None:
        """Remember ``position`` for ``path`` (the newest ``MAX_CURSORS`` files are kept)."""
        cursors = self._cursors()
        key = str(Path(path).resolve())
        cursors.pop(key, None)
        cursors[key] = int(position)
        kept = dict(list(cursors.items())[-MAX_CURSORS:])
        self.q.setValue("replay/cursors", json.dumps(kept))

    def _cursors(self) -> dict[str, object]:
        try:
            raw = json.loads(str(self.q.value("replay/cursors", "{}")))
        except ValueError:
            return {}
        return raw if isinstance(raw, dict) else {}

    # -- autosave ------------------------------------------------------------------------
    def autosave_interval_s(self) -> int:
        """Seconds between periodic autosaves of a modified document (default 120)."""
        return self._int("autosave/interval_s", 120)

    def autosave_idle_s(self) -> int:
        """Seconds of no editing after which a modified document is autosaved (default 5)."""
        return self._int("autosave/idle_s", 5)

    def set_autosave(self, interval_s: int, idle_s: int) -> None:
        self.q.setValue("autosave/interval_s", int(interval_s))
        self.q.setValue("autosave/idle_s", int(idle_s))
        self.q.sync()

    def _int(self, key: str, default: int) -> int:
        try:
            return max(1, int(self.q.value(key, default)))
        except (TypeError, ValueError):
            return default
