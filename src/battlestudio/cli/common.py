"""What every command shares: exit codes, the command record, usage and one-line failures,
checks of options before any work, terminal-safe text, club URLs without their passwords,
the ``--georef`` option."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

EXIT_OK, EXIT_PROBLEMS, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


class UsageError(Exception):
    """Arguments that make no sense together (exit code 2)."""


@dataclass(frozen=True)
class Command:
    """One subcommand: ``name``, one-line ``help``, its argument declarer and its runner."""

    name: str
    help: str
    arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


class Problem(Exception):
    """A one-line failure message (exit code 1)."""


AT_HELP = (
    "where in the game: start (or 0, the deployment), end; TURN, TURN:SIDE or TURN:SIDE:PHASE is the end "
    "of that turn, player-turn or phase (every event applied), with :start where it has begun (its first "
    "event applied, where the window's phase and turn steps stop) or :end; TURN:SIDE:PHASE:N after its "
    "Nth event; SIDE is an id or 1, 2 (first, second side to play); e.g. 12, 12:prussian:fire, "
    "14:2:fire:start (the same syntax as the Replay dock's Go to box)"
)

MAX_WIDTH_PX = 10_000
"""Largest ``--width`` of a picture or page (100,000 px needed 21 GB of memory)."""


def check_width(width: int, least: int) -> None:
    """Refuse a ``--width`` outside ``least``..``MAX_WIDTH_PX`` (usage error, exit 2)."""
    if not least <= width <= MAX_WIDTH_PX:
        raise UsageError(f"--width must be {least} to {MAX_WIDTH_PX} pixels, got {width}")


@contextmanager
def about_file(path: str) -> Iterator[None]:
    """Name the input file in an option's error (``--at 7: …`` → ``FILE: --at 7: …``)."""
    try:
        yield
    except ValueError as exc:
        if str(exc).startswith("--"):
            raise Problem(f"{path}: {exc}") from None
        raise


def check_at_syntax(text: str) -> None:
    """Refuse a malformed ``--at`` (usage error, exit 2); whether the log holds it is checked later."""
    from battlestudio.session.text import parse_at

    if text.strip().lower() in ("start", "end", "0"):
        return
    try:
        parse_at(text)
    except ValueError as exc:
        raise UsageError(f"{exc}; or start, end, 0 (the deployment)") from None


def check_suffix(path: str, allowed: tuple[str, ...]) -> None:
    """Refuse, before reading the input, an output whose type is not one of ``allowed``
    (suffixes with the dot, lower case; usage error, exit 2)."""
    suffix = Path(path).suffix.lower()
    if suffix not in allowed:
        names = ", ".join(allowed[:-1]) + " or " + allowed[-1]
        raise UsageError(f"--out {path}: cannot write {suffix or 'a file without a suffix'}; name it {names}")


def check_writable(path: str) -> None:
    """Refuse, before any long work, an output whose folder is missing or not writable (exit 1)."""
    from battlestudio.store.atomic import check_output_folder

    check_output_folder(path)


def silence_stdout() -> None:
    """Point stdout at /dev/null so the interpreter's final flush does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # a captured or closed stdout (tests)
        pass


def one_line(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        name = f"{exc.filename}: " if exc.filename else ""
        return f"{name}{exc.strerror}"
    return " ".join(str(exc).split()) or type(exc).__name__


def fail(message: str) -> None:
    message = terminal_text(message)
    print(f"battlestudio: {message}" if not message.startswith("battlestudio") else message, file=sys.stderr)


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Characters a terminal acts on rather than shows (escape sequences, C1 controls, bidi overrides);
tab and newline are kept."""


def terminal_text(text: str) -> str:
    """``text`` with every terminal control character written as a visible escape (``\\x1b``,
    ``\\u202e``), so a name in a file cannot clear the screen or retitle the window."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m[0]):02x}" if ord(m[0]) < 0x100 else f"\\u{ord(m[0]):04x}", text)


def terminal_json(text: str) -> str:
    """JSON ``text`` with the control characters ``json.dumps`` leaves (DEL, C1, bidi) as ``\\uXXXX`` escapes."""
    return _CONTROL.sub(lambda m: f"\\u{ord(m[0]):04x}", text)


# -- club play on a PostgreSQL server (store.club) -------------------------------------------
CLUB_URLS: dict[str, str] = {}
"""A club URL as shown (without its password) → as given, for the commands that print it."""


def is_club_arg(text: str | None) -> bool:
    from battlestudio.store.club import is_club_url

    return text is not None and is_club_url(text)


def load_battle(path: str) -> Any:
    """The Battle in the file ``path``, or on the club server a ``postgresql://`` URL names."""
    from battlestudio import store

    if is_club_arg(path):
        from battlestudio.store.club import load_club

        return load_club(CLUB_URLS.get(path, path))
    return store.load(path)


def hide_passwords(args: argparse.Namespace) -> None:
    """Replace every club URL argument by its form without a password (kept in ``CLUB_URLS``),
    so no message or output of a command shows the password."""
    from battlestudio.store.club import ClubURL

    for key in ("file", "input", "url"):
        value = getattr(args, key, None)
        if isinstance(value, str) and is_club_arg(value):
            shown = ClubURL.parse(value).shown
            CLUB_URLS[shown] = value
            setattr(args, key, shown)


GEOREF_HELP = "the table origin's longitude and latitude and the bearing of its x axis (degrees; 90 = east)"


def parse_georef(text: str | None) -> Any:
    """``LON,LAT[,BEARING]`` as a ``Georeference`` (None for None); usage error when malformed."""
    if text is None:
        return None
    from battlestudio.model.georef import Georeference, GeoreferenceError

    try:
        parts = [float(p) for p in text.split(",")]
        if len(parts) not in (2, 3):
            raise ValueError
    except ValueError:
        raise UsageError(f"--georef {text!r}: give LON,LAT or LON,LAT,BEARING in degrees, e.g. 11.4,50.9,90") from None
    try:
        return Georeference(*parts)
    except GeoreferenceError as exc:
        raise UsageError(f"--georef {text!r}: {exc}") from None
