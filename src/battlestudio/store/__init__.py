"""Persistence: ``.battle`` (SQLite via sqlmodel) and ``.battle.json`` (GeoJSON); the only
place SQL appears.

Public API: ``load(path) -> Battle``, ``save(battle, path)``, ``append_events(path, events)``,
``format_of(path)`` and ``BattleFileError``. The format follows the file name's suffix.
Opening a file removes what interrupted saves of it left beside it (``atomic.remove_leftovers``);
``file_identity.FileIdentity`` tells whether a file is still the one opened or last saved.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from contextlib import nullcontext

from battlestudio.replay.battle import Battle
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.state import GameState
from battlestudio.store.atomic import remove_leftovers, remove_stale_sqlite_journal, replacing_read_only
from battlestudio.store.errors import BattleFileError, DocumentError, UnreadableEvents
from battlestudio.store.file_identity import FileIdentity, FileReplaced

SQLITE = "battle"
JSON = "json"


def format_of(path: str | os.PathLike[str]) -> str:
    """``"battle"`` for a ``.battle`` file, ``"json"`` for ``.battle.json`` (or any ``.json``).

    Raises
    ------
    ValueError
        for any other suffix, naming the file and the suffixes understood.
    """
    name = os.fspath(path).lower()
    if name.endswith(".json"):
        return JSON
    if name.endswith(".battle"):
        return SQLITE
    raise ValueError(
        f"{os.fspath(path)}: unknown file type; use a name ending in .battle or .battle.json (an order of "
        "battle in .oob, CSV, XLSX, fogofwar tables or ORBAT Mapper JSON is imported: File ▸ Import…, "
        "or battlestudio import-oob)"
    )


MAX_FILE_BYTES = 1 << 30
"""Largest battle file opened (1 GiB; a Leipzig-size game of 50,000 events is under 50 MB)."""


def _check_input(path: str | os.PathLike[str]) -> None:
    """Refuse at once a path that is not a regular file (a FIFO or device would hang or fill
    memory) or is larger than ``MAX_FILE_BYTES``; a missing file is left to the reader."""
    import stat

    try:
        st = os.stat(path)
    except OSError:
        return
    if stat.S_ISDIR(st.st_mode):
        raise BattleFileError(path, "is a directory, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise BattleFileError(path, "not a regular file (a pipe or a device); open a saved battle file")
    if st.st_size > MAX_FILE_BYTES:
        raise BattleFileError(path, f"{st.st_size:,} bytes, more than the {MAX_FILE_BYTES:,} a battle file may have")


def load(path: str | os.PathLike[str], *, lazy_events: bool = False) -> Battle:
    """Read the Battle stored in ``path`` (``.battle`` or ``.battle.json``).

    With ``lazy_events`` a ``.battle`` file's events are checked and built when first read
    (``replay.recorded.RecordedEvents``; a bad one raises ``BattleFileError`` then, naming the
    file, ``event seq=N`` and the value), so opening a long game builds none of them; a
    ``.battle.json`` file is read whole either way.

    Raises
    ------
    BattleFileError
        if the file is missing, empty, corrupt, of the wrong kind, from a newer schema version,
        or holds a bad value; the message names the file, the place and the value.
    ValueError
        for an unknown suffix.
    """
    fmt = format_of(path)
    _check_input(path)
    real = os.path.realpath(os.fspath(path))
    remove_leftovers(os.path.dirname(real), of=os.path.basename(real))
    if fmt == JSON:
        from battlestudio.store.json_format import load_json

        return load_json(path)
    from battlestudio.store.database_read import load_database

    battle = load_database(path, lazy_events)  # SQLite rolls a hot journal back here
    remove_stale_sqlite_journal(real)
    return battle


def save(
    battle: Battle,
    path: str | os.PathLike[str],
    *,
    without_game: bool = False,
    replace_read_only: bool = False,
    states: Callable[[int], GameState] | None = None,
) -> None:
    """Write ``battle`` to ``path`` atomically, in the format its suffix names.

    A ``.battle`` file also stores the game's keyframes (``store.keyframes``), the states from
    ``states(position)`` (e.g. the caller's ``GameLog.state_at`` of this game) or a replay.

    A symlink ``path`` is written through (its target replaced, the link kept). A read-only
    file is refused (``PermissionError`` naming it) unless ``replace_read_only`` (the user was
    asked); the new file then keeps the old one's mode.

    A crash or full disk during the save leaves the previous file intact. Recorded events read
    lazily from a ``.battle`` file that cannot be read (``replay.recorded.RecordedEvents``) are
    kept: a ``.battle`` file gets their rows unchanged; a ``.battle.json`` file cannot hold them,
    so that save is refused with ``UnreadableEvents`` unless ``without_game`` (write the scenario
    without its recorded events).

    Raises
    ------
    BattleFileError
        if a value cannot be stored or SQLite fails (nothing replaced); ``UnreadableEvents``
        (a ``BattleFileError``) as said above.
    OSError
        if the file cannot be written (nothing replaced).
    ValueError
        for an unknown suffix.
    """
    if without_game:
        battle = Battle(battle.scenario, [])
    with replacing_read_only(path) if replace_read_only else nullcontext():
        _save(battle, path, states)


def _save(battle: Battle, path: str | os.PathLike[str], states: Callable[[int], GameState] | None = None) -> None:
    if format_of(path) == JSON:
        from battlestudio.store.json_format import save_json

        bad = unreadable_events(battle)
        if bad:
            raise UnreadableEvents(path, bad, len(battle.events))
        save_json(battle, path)
    else:
        from battlestudio.store.database_write import save_database

        save_database(battle, path, states)


def unreadable_events(battle: Battle) -> list[tuple[int, ValueError]]:
    """``(position, error)`` of each recorded event of ``battle`` that cannot be read (only
    events read lazily from a ``.battle`` file can be so; building the others)."""
    from battlestudio.replay.recorded import RecordedEvents

    return battle.events.unreadable() if isinstance(battle.events, RecordedEvents) else []


def append_events(
    path: str | os.PathLike[str],
    events: Iterable[BattleEvent],
    *,
    after: int | None = None,
    identity: FileIdentity | None = None,
    game: Battle | None = None,
    states: Callable[[int], GameState] | None = None,
) -> int:
    """Append new ``events`` to a ``.battle`` file in one transaction; see
    ``database_write.append_events``. Returns the number of events now stored.

    With ``identity`` (the file as it was opened or last saved) nothing is appended unless the
    file still holds those bytes: events appended to another file would name units it may lack.

    Raises
    ------
    BattleFileError
        as ``database_write.append_events``; also for a ``.battle.json`` path (JSON files are
        rewritten with ``save``, not appended to); ``FileReplaced`` (a ``BattleFileError``) when
        the file is no longer ``identity``.
    """
    if format_of(path) != SQLITE:
        raise BattleFileError(path, "events can only be appended to a .battle file; save a .battle.json whole")
    if identity is not None:
        changed = identity.still(path)
        if changed is not None:
            raise FileReplaced(
                path, f"cannot append events: the file {changed}; nothing appended (save the game with Save As)"
            )
    from battlestudio.store.database_write import append_events as _append

    return _append(path, events, after=after, game=game, states=states)


__all__ = [
    "BattleFileError",
    "DocumentError",
    "FileIdentity",
    "FileReplaced",
    "UnreadableEvents",
    "append_events",
    "format_of",
    "load",
    "save",
    "unreadable_events",
]
