"""Nothing lost: autosave of the open document to a recovery folder, and recovery at start.

``RecoveryStore`` owns the folder: each running editor writes one recovery copy
(``<session>.battle.json``) and a small ``<session>.json`` describing it (process id, the file
it came from, when). A copy whose process is gone is left over from a crash or kill; the next
start offers it (``pending``) and discards it when declined. A clean save or a normal close
discards the session's own copy. A document whose recorded game holds events that cannot be read
(opened from a damaged ``.battle`` file) is copied as ``<session>.battle`` instead, which keeps
those events' rows as they are (a JSON copy could not hold them).

A game recorded in a ``.battle`` file also keeps the phases it closed in a journal beside that
file (``store.journal``); restoring a copy of such a game takes the journal's game instead when
it holds more (``FileCommands.offer_recovery``), and the journal goes once the restored game
is in this session's copy.

``Autosaver`` decides when to write: every ``interval`` seconds and after ``idle`` seconds
without edits, but only if the document changed since it was last saved or autosaved.
"""

from __future__ import annotations

import json
import os
import uuid
from dataclasses import dataclass
from datetime import datetime, UTC
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer, Signal

from battlestudio import store
from battlestudio.document import Document
from battlestudio.replay.battle import Battle
from battlestudio.store.atomic import process_alive

RECOVERY_SUFFIX = ".battle.json"
"""Recovery copies are readable JSON documents."""
RAW_RECOVERY_SUFFIX = ".battle"
"""... or ``.battle`` files when the recorded game holds events that cannot be read."""


def default_folder() -> Path:
    """``<app data>/recovery`` for this user (``$XDG_DATA_HOME/BattleStudio/recovery`` on Linux)."""
    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    return Path(base) / "BattleStudio" / "recovery"


@dataclass(frozen=True)
class RecoveryEntry:
    """A recovery copy left by an editor that is no longer running.

    Attributes
    ----------
    data : Path
        the recovered document.
    meta : Path
        its description file.
    source : Path | None
        the file the user was editing (None for a new, never-saved document).
    title : str
        the scenario title when it was written.
    saved_at : str
        ISO time of the autosave (UTC).
    """

    data: Path
    meta: Path
    source: Path | None
    title: str
    saved_at: str

    def describe(self) -> str:
        """One or two lines for the restore question."""
        where = str(self.source) if self.source else "a new, unsaved scenario"
        return f"“{self.title}” ({where}), autosaved {self.saved_at.replace('T', ' ')[:19]} UTC"


class RecoveryStore:
    """The recovery folder, seen from one editor session.

    Parameters
    ----------
    folder : Path | None
        where copies live; default ``default_folder()``.
    """

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = Path(folder) if folder is not None else default_folder()
        self.session = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"

    @property
    def data_path(self) -> Path:
        return self.folder / f"{self.session}{RECOVERY_SUFFIX}"

    @property
    def raw_data_path(self) -> Path:
        """Where the copy goes when its recorded game holds events that cannot be read."""
        return self.folder / f"{self.session}{RAW_RECOVERY_SUFFIX}"

    @property
    def meta_path(self) -> Path:
        return self.folder / f"{self.session}.json"

    def write(self, document: Document) -> Path:
        """Write the document's battle as this session's recovery copy.

        Raises
        ------
        battlestudio.store.errors.BattleFileError, OSError
            if it cannot be written (the caller reports it; the document is untouched).
        """
        self.folder.mkdir(parents=True, exist_ok=True)
        try:
            store.save(document.battle, self.data_path)
            written, stale = self.data_path, self.raw_data_path
        except store.UnreadableEvents:  # keep those events' rows as they are: a .battle copy
            store.save(document.battle, self.raw_data_path)
            written, stale = self.raw_data_path, self.data_path
        stale.unlink(missing_ok=True)
        meta = {
            "pid": os.getpid(),
            "source": str(document.path) if document.path else None,
            "title": document.scenario.info.title,
            "saved_at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        tmp = self.meta_path.with_suffix(".tmp")
        tmp.write_text(json.dumps(meta), encoding="utf-8")
        os.replace(tmp, self.meta_path)
        return written

    def discard(self) -> None:
        """Delete this session's copy (after a clean save or a normal close)."""
        for p in (self.data_path, self.raw_data_path, self.meta_path):
            p.unlink(missing_ok=True)

    def pending(self) -> list[RecoveryEntry]:
        """Copies left by sessions that are no longer running, newest first.

        Descriptions that cannot be read are skipped (their copy is reported if present).
        """
        if not self.folder.is_dir():
            return []
        found: list[RecoveryEntry] = []
        for meta in self.folder.glob("*.json"):
            if meta.name.endswith(RECOVERY_SUFFIX) or meta.stem == self.session or not meta.is_file():
                continue  # not a description (or a pipe, which would block the read)
            data = meta.with_name(meta.stem + RECOVERY_SUFFIX)
            if not data.exists():
                data = meta.with_name(meta.stem + RAW_RECOVERY_SUFFIX)
            try:
                info = json.loads(meta.read_text(encoding="utf-8"))
                pid = int(info.get("pid", 0))
            except (OSError, ValueError, AttributeError):
                info, pid = {}, 0
            if process_alive(pid) or not data.exists():
                continue
            src = info.get("source")
            found.append(
                RecoveryEntry(
                    data,
                    meta,
                    Path(src) if src else None,
                    str(info.get("title", data.name)),
                    str(info.get("saved_at", "")),
                )
            )
        return sorted(found, key=lambda e: e.saved_at, reverse=True)

    @staticmethod
    def load(entry: RecoveryEntry) -> Battle:
        """Read a recovered battle (raises ``BattleFileError`` like ``store.load``)."""
        return store.load(entry.data, lazy_events=True)  # events that cannot be read stay rows

    @staticmethod
    def remove(entry: RecoveryEntry) -> None:
        """Delete a recovery copy (declined, or restored and now owned by this session)."""
        for p in (entry.data, entry.meta):
            p.unlink(missing_ok=True)


class Autosaver(QObject):
    """Writes the document to the recovery store when it has unsaved changes.

    Parameters
    ----------
    recovery : RecoveryStore
    interval_s : int
        seconds between periodic checks.
    idle_s : int
        seconds after the last edit before an autosave.

    Signals
    -------
    saved(str)
        path written; ``failed(str)`` the error message.
    """

    saved = Signal(str)
    failed = Signal(str)

    def __init__(self, recovery: RecoveryStore, interval_s: int, idle_s: int, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.recovery = recovery
        self.document: Document | None = None
        self._written_revision: int | None = None
        self._periodic = QTimer(self)
        self._periodic.setInterval(interval_s * 1000)
        self._periodic.timeout.connect(self.save_now)
        self._periodic.start()
        self._idle = QTimer(self)
        self._idle.setSingleShot(True)
        self._idle.setInterval(idle_s * 1000)
        self._idle.timeout.connect(self.save_now)

    def set_timing(self, interval_s: float, idle_s: float) -> None:
        """Change the periodic and idle delays (seconds)."""
        self._periodic.setInterval(int(interval_s * 1000))
        self._idle.setInterval(int(idle_s * 1000))

    def set_document(self, document: Document, written: bool = False) -> None:
        """Watch ``document``; ``written`` = its current state is already in the recovery copy."""
        if self.document is not None:
            self.document.changed.disconnect(self._on_changed)
            self.document.history_changed.disconnect(self._on_history_changed)
        self.document = document
        self._written_revision = document.revision if written else None
        document.changed.connect(self._on_changed)
        document.history_changed.connect(self._on_history_changed)
        if not written:
            self.recovery.discard()

    def _on_changed(self, _changes: list) -> None:
        self._idle.start()

    def _on_history_changed(self) -> None:
        if self.document is not None and not self.document.is_modified:
            self._idle.stop()
            self._written_revision = None
            self.recovery.discard()

    def save_now(self) -> bool:
        """Write a recovery copy if the document has changes not yet written; True if written."""
        doc = self.document
        if doc is None or not doc.is_modified or doc.revision == self._written_revision:
            return False
        try:
            path = self.recovery.write(doc)
        except Exception as exc:  # noqa: BLE001 - autosave must never take the editor down
            self.failed.emit(f"Autosave failed: {exc}")
            return False
        self._written_revision = doc.revision
        self.saved.emit(str(path))
        return True
