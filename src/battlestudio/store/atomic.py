"""Atomic replacement of a file: write a temp file beside it, fsync, then ``os.replace``.

Whatever happens while the temp file is written (an exception, a full disk, a crash), the
previous file at ``path`` is left exactly as it was; the temp file is removed on failure.
"""

from __future__ import annotations

import errno
import os
import tempfile
from contextlib import suppress
from collections.abc import Callable


def atomic_write(path: str | os.PathLike[str], fill: Callable[[str], None]) -> None:
    """Replace ``path`` with a file produced by ``fill(temp_path)``, atomically.

    Parameters
    ----------
    path : path-like
        the file to create or replace.
    fill : callable
        writes the whole new content to the (existing, empty) temp file it is given.

    Raises
    ------
    OSError
        when the directory is not writable, the disk is full, or the replace fails; the old
        file is untouched. Any exception from ``fill`` propagates after the temp file is removed.
    """
    check_output_folder(path)
    target = os.path.abspath(os.fspath(path))
    directory = os.path.dirname(target)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=directory)
    os.close(fd)
    try:
        fill(tmp)
        fsync_file(tmp)
        _copy_mode(target, tmp)
        os.replace(tmp, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise
    fsync_dir(directory)


def check_output_folder(path: str | os.PathLike[str]) -> None:
    """Refuse early, naming ``path``, a file that cannot be written where it is asked for.

    Every command that writes a file calls this before its long work (an import, a render),
    so the user hears at once, and in one wording: ``OUT: the folder DIR does not exist``,
    ``OUT: the folder DIR is not writable`` or ``OUT: is a folder, not a file``.

    Raises
    ------
    OSError
        with ``filename`` = ``path`` and ``strerror`` the sentence above.
    """
    name = os.fspath(path)
    target = os.path.abspath(name)
    directory = os.path.dirname(target)
    if os.path.isdir(target):
        raise IsADirectoryError(errno.EISDIR, "is a folder, not a file", name)
    if not os.path.isdir(directory):
        raise FileNotFoundError(errno.ENOENT, f"the folder {directory} does not exist", name)
    if not os.access(directory, os.W_OK | os.X_OK):
        raise PermissionError(errno.EACCES, f"the folder {directory} is not writable", name)


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
