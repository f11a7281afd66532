"""Whether a file on disk is still the one a window opened or last saved.

``FileIdentity.of(path)`` records the file as it is now: its device and inode, size,
modification time, SHA-256 of its bytes and, for a ``.battle`` (SQLite) file, the file change
counter SQLite keeps in its header (bytes 24–27, raised by every committed write). Before a
save or an append the caller asks ``identity.still(path)``: None when the bytes are the same
(a ``touch`` or a copy of the same content is no change), else a sentence saying what happened
("was replaced by another file", "was changed (12,288 → 16,384 bytes, …)", "was deleted").

Reading never blocks: the file is opened non-blocking and refused unless it is a regular file.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from battlestudio.store.errors import BattleFileError

_SQLITE_MAGIC = b"SQLite format 3\x00"


class FileReplaced(BattleFileError):
    """The file was changed or replaced by another writer since it was opened or last saved
    here: nothing is journaled beside it or appended to it."""


@dataclass(frozen=True)
class FileIdentity:
    """A file as it was at one moment.

    Attributes
    ----------
    path : Path
        the real path (a symlink resolved: the file a save writes).
    device, inode : int
        where it lives (a different inode means another file was put in its place).
    size : int
        bytes.
    mtime_ns : int
        modification time, nanoseconds since the epoch.
    sha256 : str
        hex digest of the bytes.
    sqlite_changes : int | None
        SQLite's file change counter for a SQLite file, None for any other file.
    """

    path: Path
    device: int
    inode: int
    size: int
    mtime_ns: int
    sha256: str
    sqlite_changes: int | None = None

    @classmethod
    def of(cls, path: str | os.PathLike[str]) -> FileIdentity:
        """The identity of the file at ``path`` now.

        Raises
        ------
        BattleFileError
            naming the file, when it is a directory, a pipe or a device.
        OSError
            when it is missing or cannot be read (``filename`` = ``path``).
        """
        real = Path(os.path.realpath(os.fspath(path)))
        try:
            fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except IsADirectoryError:
            raise BattleFileError(path, "is a directory, not a file") from None
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, os.fspath(path)) from None
        try:
            st = os.fstat(fd)
            if stat.S_ISDIR(st.st_mode):
                raise BattleFileError(path, "is a directory, not a file")
            if not stat.S_ISREG(st.st_mode):
                raise BattleFileError(path, "not a regular file (a pipe or a device); open a saved battle file")
            h = hashlib.sha256()
            head = b""
            with os.fdopen(fd, "rb", closefd=False) as f:
                for block in iter(lambda: f.read(1 << 20), b""):
                    if not head:
                        head = block[:100]
                    h.update(block)
        finally:
            os.close(fd)
        changes = int.from_bytes(head[24:28], "big") if head.startswith(_SQLITE_MAGIC) and len(head) >= 28 else None
        return cls(real, st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, h.hexdigest(), changes)

    def still(self, path: str | os.PathLike[str] | None = None) -> str | None:
        """None when ``path`` (default: this file) holds the same bytes as when this identity
        was taken; otherwise what changed, as a sentence to follow the file's name."""
        where = path if path is not None else self.path
        try:
            now = FileIdentity.of(where)
        except FileNotFoundError:
            return "was deleted or moved away"
        except BattleFileError as exc:
            return f"is no longer a file you can save over ({exc.what})"
        except OSError as exc:
            if exc.errno == errno.EACCES:
                return "can no longer be read (permission denied)"
            return f"can no longer be read ({exc.strerror or exc})"
        if now.sha256 == self.sha256:
            return None
        when = datetime.fromtimestamp(now.mtime_ns / 1e9).strftime("%Y-%m-%d %H:%M:%S")
        if (now.device, now.inode) != (self.device, self.inode):
            how = "was replaced by another file"
        else:
            how = "was changed by another program"
        details = [f"{self.size:,} → {now.size:,} bytes" if now.size != self.size else f"{now.size:,} bytes"]
        if (
            self.sqlite_changes is not None
            and now.sqlite_changes is not None
            and now.sqlite_changes > self.sqlite_changes
        ):
            details.append(f"{now.sqlite_changes - self.sqlite_changes} more SQLite writes")
        return f"{how} (modified {when}, {', '.join(details)}) since it was opened or last saved here"
