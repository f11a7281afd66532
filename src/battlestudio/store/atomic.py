"""Atomic replacement of a file: write a temp file beside it, fsync, then ``os.replace``.

Whatever happens while the temp file is written (an exception, a full disk, a crash), the
previous file at ``path`` is left exactly as it was; the temp file is removed on failure. A
path that is a symbolic link is written through: the link's target is replaced, the link stays.
A read-only file is not replaced unless the caller says so (``replacing_read_only``).

The temp file is ``.<name>.bs<pid>-<random>.tmp`` beside the target (SQLite may add
``-journal`` to it while a ``.battle`` is built). A process killed mid-save leaves it behind;
``remove_leftovers`` deletes such files once their writer is dead (or a day old), and is run
whenever a folder is written and whenever a battle file is opened; so is
``remove_stale_sqlite_journal`` for a ``.battle``'s own ``-journal`` that a killed append left.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from contextvars import ContextVar

TEMP_SUFFIX = ".tmp"
_TEMP = re.compile(r"^\.(?P<name>.+)\.bs(?P<pid>\d+)-[A-Za-z0-9_]{8}\.tmp(?:-journal|-wal|-shm)?$")
"""A temp file of ``atomic_write`` (and the SQLite journal beside it)."""
_LEGACY_TEMP = re.compile(r"^\.(?P<name>.+\.battle(?:\.json)?)\.[A-Za-z0-9_]{8}\.tmp(?:-journal)?$")
"""A temp file of a battle save by an older BattleStudio (no pid in its name)."""
STALE_AFTER_S = 24 * 3600
"""A temp file this old is a leftover even if a process with its pid runs (pids are reused)."""
LEGACY_STALE_AFTER_S = 3600
"""An older BattleStudio's temp file (no pid to ask) is a leftover after an hour."""

_read_only_ok: ContextVar[frozenset[str]] = ContextVar("read_only_ok", default=frozenset())


def atomic_write(path: str | os.PathLike[str], fill: Callable[[str], None]) -> None:
    """Replace ``path`` (or the file a symlink ``path`` points to) with a file produced by
    ``fill(temp_path)``, atomically.

    Parameters
    ----------
    path : path-like
        the file to create or replace.
    fill : callable
        writes the whole new content to the (existing, empty) temp file it is given.

    Raises
    ------
    OSError
        when the directory is not writable, the file is read-only (see ``check_output_folder``),
        the disk is full, or the replace fails; the old file is untouched. Any exception from
        ``fill`` propagates after the temp file is removed.
    """
    check_output_folder(path)
    target = os.path.realpath(os.fspath(path))
    directory = os.path.dirname(target)
    remove_leftovers(directory)
    fd, tmp = tempfile.mkstemp(
        prefix=f".{os.path.basename(target)}.bs{os.getpid()}-", suffix=TEMP_SUFFIX, dir=directory
    )
    os.close(fd)
    try:
        fill(tmp)
        fsync_file(tmp)
        _copy_mode(target, tmp)
        os.replace(tmp, target)
    except BaseException:
        for p in (tmp, tmp + "-journal"):
            with suppress(OSError):
                os.unlink(p)
        raise
    fsync_dir(directory)


def check_output_folder(path: str | os.PathLike[str]) -> None:
    """Refuse early, naming ``path``, a file that cannot be written where it is asked for.

    Every command that writes a file calls this before its long work (an import, a render),
    so the user hears at once, and in one wording: ``OUT: the folder DIR does not exist``,
    ``OUT: the folder DIR is not writable``, ``OUT: is a folder, not a file``, ``OUT: is not a
    regular file ...`` or ``OUT: is read-only ...`` (unless inside ``replacing_read_only(OUT)``).
    A symlink is judged by the file it points to.

    Raises
    ------
    OSError
        with ``filename`` = ``path`` and ``strerror`` the sentence above.
    """
    name = os.fspath(path)
    target = os.path.realpath(name)
    directory = os.path.dirname(target)
    if os.path.isdir(target):
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", name)
    if not os.path.isdir(directory):
        raise FileNotFoundError(errno.ENOENT, f"the folder {directory} does not exist", name)
    if not os.access(directory, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, f"the folder {directory} is not writable", name)
    try:
        st = os.stat(target)
    except OSError:
        return  # a new file
    if not stat.S_ISREG(st.st_mode):
        raise PermissionError(errno.EACCES, "is not a regular file (a pipe or a device); write to a file", name)
    if is_read_only(st) and target not in _read_only_ok.get():
        raise PermissionError(
            errno.EACCES,
            f"is read-only (mode {stat.S_IMODE(st.st_mode):04o}); make it writable (chmod u+w) or write another file",
            name,
        )


def is_read_only(st: os.stat_result) -> bool:
    """Whether a file's mode gives nobody write permission (0444 and the like), or this
    process may not write it; root can write anyway, so the mode bits decide."""
    if not st.st_mode & 0o222:
        return True
    return os.name == "posix" and os.geteuid() != 0 and not _may_write(st)


def _may_write(st: os.stat_result) -> bool:
    if st.st_uid == os.geteuid():
        return bool(st.st_mode & stat.S_IWUSR)
    if st.st_gid in os.getgroups() or st.st_gid == os.getegid():
        return bool(st.st_mode & stat.S_IWGRP)
    return bool(st.st_mode & stat.S_IWOTH)


@contextmanager
def replacing_read_only(path: str | os.PathLike[str]) -> Iterator[None]:
    """Within this block a read-only ``path`` may be replaced (the user was asked); the new
    file keeps the old one's mode."""
    token = _read_only_ok.set(_read_only_ok.get() | {os.path.realpath(os.fspath(path))})
    try:
        yield
    finally:
        _read_only_ok.reset(token)


def leftovers(directory: str | os.PathLike[str], of: str | None = None) -> list[str]:
    """Paths of the temp files in ``directory`` that interrupted saves left (of the file named
    ``of`` only, if given): our name pattern, and a writer that is dead or a day old; an older
    BattleStudio's battle temp files (no pid in the name) after an hour."""
    now = time.time()
    found = []
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    for entry in names:
        m = _TEMP.match(entry)
        hit = m or _LEGACY_TEMP.match(entry)
        if hit is None or (of is not None and hit.group("name") != of):
            continue
        full = os.path.join(directory, entry)
        try:
            st = os.lstat(full)
        except OSError:
            continue
        if not stat.S_ISREG(st.st_mode):
            continue
        age = now - st.st_mtime
        if m is not None:
            pid = int(m.group("pid"))
            stale = age > STALE_AFTER_S or (pid != os.getpid() and not process_alive(pid))
        else:
            stale = age > LEGACY_STALE_AFTER_S
        if stale:
            found.append(full)
    return sorted(found)


def remove_leftovers(directory: str | os.PathLike[str], of: str | None = None) -> list[str]:
    """Delete ``leftovers(directory, of)``; returns those deleted (a folder that cannot be
    written is left as it is)."""
    removed = []
    for p in leftovers(directory, of):
        with suppress(OSError):
            os.unlink(p)
            removed.append(p)
    return removed


def remove_stale_sqlite_journal(path: str | os.PathLike[str]) -> bool:
    """Delete ``PATH-journal`` beside the SQLite file ``path`` when it is stale: a write killed
    before its journal was synced leaves one with a zeroed header, which SQLite ignores (it is
    not "hot", nothing to roll back) but keeps until the next write. It is deleted only while
    this process holds SQLite's exclusive lock on the file (so no other writer is using it) and
    only if its header is still zeroed; a hot journal is SQLite's to roll back, and it does when
    the file is opened for writing. True if one was deleted."""
    import sqlite3
    from pathlib import Path

    real = os.path.realpath(os.fspath(path))
    journal = real + "-journal"
    if not _stale_journal(journal):
        return False
    try:
        conn = sqlite3.connect(Path(real).as_uri() + "?mode=rw", uri=True, timeout=0, isolation_level=None)
    except sqlite3.Error:
        return False
    try:
        conn.execute("BEGIN EXCLUSIVE")
        try:
            if not _stale_journal(journal):
                return False
            os.unlink(journal)
            return True
        finally:
            conn.execute("ROLLBACK")
    except (sqlite3.Error, OSError):
        return False
    finally:
        conn.close()


def _stale_journal(journal: str) -> bool:
    """Whether ``journal`` is a regular file whose header (the first 8 bytes, SQLite's magic
    once synced) is zeroed or missing."""
    try:
        if not stat.S_ISREG(os.lstat(journal).st_mode):
            return False
        with open(journal, "rb") as f:
            head = f.read(8)
    except OSError:
        return False
    return head == b"\0" * len(head)


def process_alive(pid: int) -> bool:
    """Whether process ``pid`` is running (a journal, recovery copy or temp file of a live editor)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # exists, owned by someone else
        return True
    except OSError:
        return False
    return True


def fsync_file(path: str) -> None:
    """Flush ``path``'s data to the disk."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_dir(directory: str) -> None:
    """Flush a directory entry change (the rename) to the disk, where the OS allows it."""
    if os.name != "posix":
        return
    with suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _copy_mode(target: str, tmp: str) -> None:
    """Give the temp file the old file's permissions, or the usual 0o644 for a new file."""
    try:
        mode = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        mode = 0o644
    os.chmod(tmp, mode)
