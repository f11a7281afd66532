"""The unsaved part of a game recorded in a ``.battle`` file: a journal beside it.

While a game in ``X.battle`` is recorded, the events of each phase as it closes go to
``X.battle.journal``, never into ``X.battle``: the file stays byte for byte as it was opened or
last saved, so ``battlestudio check``/``log`` never see a half-recorded game, Save rewrites the
file whole (``store.save``) and removes the journal, and Discard just removes the journal. If
the program dies, the journal stays; the next open of the file offers its events.

The journal is UTF-8 JSON lines. The first line is the header::

    {"format": "battlestudio-journal", "version": 1, "battle": "X.battle", "pid": 1234,
     "events_in_file": 88, "file_sha256": "...", "started": "2025-01-01T10:00:00+00:00"}

(``events_in_file`` events and the SHA-256 of ``X.battle`` when the journal began). Each further
line is one write, ``{"at": k, "events": [event, ...]}``: from position ``k`` on (0-based,
counting the file's events) the game's events are these, replacing whatever earlier lines put
at ``k`` and after (so an undo is a line with fewer events). Every line is flushed and fsynced;
a last line cut short by a crash (no newline, or not JSON) is ignored.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import datetime, UTC
from pathlib import Path
from collections.abc import Sequence

from battlestudio.replay.battle import Battle
from battlestudio.replay.events import BattleEvent
from battlestudio.store.atomic import process_alive
from battlestudio.store.codec import event_from_doc, event_to_doc
from battlestudio.store.errors import BattleFileError, DocumentError
from battlestudio.store.file_identity import FileIdentity, FileReplaced

FORMAT = "battlestudio-journal"
VERSION = 1
SUFFIX = ".journal"


def journal_path(path: str | os.PathLike[str]) -> Path:
    """``X.battle.journal`` for ``X.battle`` (not SQLite's own ``X.battle-journal``)."""
    return Path(os.fspath(path) + SUFFIX)


def file_digest(path: str | os.PathLike[str]) -> str:
    """SHA-256 (hex) of the file's bytes."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@dataclass(frozen=True)
class Journal:
    """A journal as read back: the game is the file's first ``keep`` events, then ``events``.

    Attributes
    ----------
    path : Path
        the journal file.
    battle : Path
        the ``.battle`` file it belongs to.
    pid : int
        the process that wrote it.
    events_in_file : int
        events the file held when the journal began.
    file_sha256 : str
        the file's digest then.
    started : str
        ISO time (UTC) the journal began.
    keep : int
        how many of the file's events the game keeps (fewer when undo went below them).
    events : tuple of BattleEvent
        the events after those.
    """

    path: Path
    battle: Path
    pid: int
    events_in_file: int
    file_sha256: str
    started: str
    keep: int
    events: tuple[BattleEvent, ...]

    @property
    def stale(self) -> bool:
        """True when the editor that wrote it is no longer running (it died or was killed)."""
        return self.pid != os.getpid() and not process_alive(self.pid)

    @property
    def changes_game(self) -> bool:
        """Whether it holds anything: events beyond the file's, or some of them taken back."""
        return bool(self.events) or self.keep < self.events_in_file

    def fits(self) -> bool:
        """Whether the ``.battle`` file is still the one the journal began from (same bytes)."""
        try:
            return file_digest(self.battle) == self.file_sha256
        except OSError:
            return False

    def applied(self, battle: Battle) -> Battle:
        """``battle`` (the file as read) with the journal's game.

        Raises
        ------
        BattleFileError
            when the battle does not hold the events the journal began from.
        """
        if len(battle.events) != self.events_in_file:
            raise BattleFileError(
                self.path,
                f"the journal continues a game of {self.events_in_file} events; {self.battle.name} holds "
                f"{len(battle.events)}",
            )
        out = Battle(battle.scenario, list(battle.events[: self.keep]) + list(self.events), list(battle.bookmarks))
        out.keyframes = [k for k in battle.keyframes if k.position <= self.keep]  # before what it changes
        return out


def read_journal(path: str | os.PathLike[str]) -> Journal | None:
    """The journal beside the ``.battle`` file ``path``, or None when there is none.

    Raises
    ------
    BattleFileError
        naming the journal and the line, when it is not a journal or an event in it is bad
        (a last line cut short is not an error: it is left out).
    """
    jp = journal_path(path)
    if jp.exists() and not jp.is_file():  # a FIFO would block the read
        raise BattleFileError(jp, "not a regular file (a pipe, a device or a folder); it is not read")
    try:
        raw = jp.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise BattleFileError(jp, f"cannot read the journal: {exc.strerror or exc}") from None
    lines = raw.split(b"\n")[:-1]  # what follows the last newline is a write cut short
    if not lines:
        raise BattleFileError(jp, "not a BattleStudio journal (empty)")
    try:
        head = json.loads(lines[0])
        ok = isinstance(head, dict) and head.get("format") == FORMAT
    except ValueError:
        ok = False
    if not ok:
        raise BattleFileError(jp, "not a BattleStudio journal", "line 1")
    if head.get("version") != VERSION:
        raise BattleFileError(jp, f"journal version {head.get('version')!r}; this BattleStudio reads {VERSION}")
    base = int(head.get("events_in_file", 0))
    keep, tail = base, list[BattleEvent]()
    for n, line in enumerate(lines[1:], start=2):
        try:
            entry = json.loads(line)
        except ValueError:
            if n == len(lines):  # the last write, cut short
                break
            raise BattleFileError(jp, "not JSON", f"line {n}") from None
        at, docs = entry.get("at"), entry.get("events")
        if not isinstance(at, int) or not isinstance(docs, list) or at < 0 or at > keep + len(tail):
            raise BattleFileError(jp, f"bad write {str(entry)[:80]}", f"line {n}")
        if at < keep:
            keep, tail = at, []
        else:
            del tail[at - keep :]
        try:
            tail += [event_from_doc(d, f"events[{i}]") for i, d in enumerate(docs)]
        except DocumentError as err:
            raise BattleFileError(jp, err.what, f"line {n}: {err.where}") from None
    return Journal(
        jp,
        Path(os.fspath(path)),
        int(head.get("pid", 0)),
        base,
        str(head.get("file_sha256", "")),
        str(head.get("started", "")),
        keep,
        tuple(tail),
    )


def remove_journal(path: str | os.PathLike[str]) -> bool:
    """Delete the journal beside ``path`` unless a running editor other than this one writes
    it; True if one was deleted. An unreadable journal is deleted too."""
    try:
        j = read_journal(path)
    except BattleFileError:
        j = None
    if j is not None and j.pid != os.getpid() and process_alive(j.pid):
        return False
    jp = journal_path(path)
    existed = jp.exists()
    jp.unlink(missing_ok=True)
    return existed


class JournalWriter:
    """Writes the journal of the ``.battle`` file ``path`` for this process.

    Parameters
    ----------
    path : path-like
        the ``.battle`` file, as opened or last saved (it is not touched).
    events_in_file : int
        how many events it holds.
    identity : FileIdentity | None
        the file as it was opened or last saved: the journal is not begun beside a file that
        is no longer that one (its events would continue another game).

    The journal file is created by the first ``write``.
    """

    def __init__(self, path: str | os.PathLike[str], events_in_file: int, identity: FileIdentity | None = None) -> None:
        self.battle = Path(os.fspath(path))
        self.path = journal_path(path)
        self.events_in_file = events_in_file
        self.identity = identity
        self._open = False

    def write(self, at: int, events: Sequence[BattleEvent]) -> None:
        """From position ``at`` on, the game's events are ``events`` (one line, fsynced).

        Raises
        ------
        BattleFileError
            if an event cannot be stored (nothing written), a journal of another editor is
            there already, the ``.battle`` file is no longer ``identity`` (``FileReplaced``), or
            the journal cannot be written.
        """
        try:
            docs = [event_to_doc(e, f"events[{at + i}]") for i, e in enumerate(events)]
            line = json.dumps({"at": at, "events": docs}, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        except DocumentError as err:
            raise BattleFileError(self.path, f"{err.what} (not journaled)", err.where) from None
        except (TypeError, ValueError) as exc:
            raise BattleFileError(self.path, f"an event is not JSON data: {exc} (not journaled)") from None
        try:
            if not self._open:
                self._create()
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(line + "\n")
                f.flush()
                os.fsync(f.fileno())
        except OSError as exc:
            raise BattleFileError(self.path, f"cannot write the journal: {exc.strerror or exc}") from None

    def _create(self) -> None:
        changed = self.identity.still(self.battle) if self.identity is not None else None
        if changed is not None:
            raise FileReplaced(
                self.battle,
                f"the file {changed}; the phases recorded here are not added beside it (they would "
                "continue another game). They stay in this window and its autosave: save the game "
                "with File ▸ Save As…",
            )
        if self.path.exists():
            raise BattleFileError(
                self.path,
                "a journal of unsaved recording is there already (another window, or a game not "
                "restored); it is left as it is",
            )
        head = {
            "format": FORMAT,
            "version": VERSION,
            "battle": self.battle.name,
            "pid": os.getpid(),
            "events_in_file": self.events_in_file,
            "file_sha256": file_digest(self.battle),
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        with open(self.path, "x", encoding="utf-8") as f:
            f.write(json.dumps(head) + "\n")
            f.flush()
            os.fsync(f.fileno())
        self._open = True

    def remove(self) -> None:
        """Delete the journal (after Save or Discard)."""
        if self._open:
            self.path.unlink(missing_ok=True)
            self._open = False
