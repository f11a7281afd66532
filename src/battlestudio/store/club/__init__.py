"""Club play: one battle on a shared PostgreSQL server, several umpires recording it at once.

A club URL names a server, a database and a battle on it::

    postgresql://user@host:5432/club?battle=7

Credentials come from the URL, ``~/.pgpass`` or the ``PG*`` environment, as libpq finds
them; they are never stored in a battle or a fetched file.

Layout on the server (``serve_init``): a schema ``club`` with the club tables (``battle``,
``claim``, ``phase_close``, ``action``, ``reveal``) and one schema ``battle_<id>`` per published battle
holding exactly the tables of a ``.battle`` file (``store.tables``). PostgreSQL roles
``battlestudio_umpire`` (records), ``battlestudio_spectator`` (reads everything once the game
is not running), ``battlestudio_player`` with one ``battlestudio_player_<side>`` per side
(reads their own side's units, commanders and events; the other side's too unless the
scenario's house rule ``hidden_positions`` is true, and then those an umpire has revealed to
their side, e.g. on contact: ``ClubConnection.reveal``) are granted to login roles by the club's
administrator; row-level security enforces them in the database.

Public API
----------
``is_club_url(text)``, ``ClubURL.parse(text)``, ``serve_init(url)``,
``publish(path, url) -> battle id``, ``fetch(url, path)``, ``load_club(url) -> Battle``,
``ClubConnection(url, umpire)`` (append actions, claims and holders, phase closes and who is
busy, reveal to the other side, who is present, live updates), and
the errors ``ClubError`` (a ``BattleFileError`` naming the URL without its password),
``ServerUnavailable``, ``ClaimTaken``, ``ScenarioLocked``, ``StaleLog``.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from battlestudio.replay.battle import Battle
from battlestudio.store.errors import BattleFileError

HIDDEN_POSITIONS = "hidden_positions"
"""The house rule (``ScenarioInfo.parameters[HIDDEN_POSITIONS]``, a bool, default false) that
hides each side's units, commanders and events from the other side's players on a server."""


class ClubError(BattleFileError):
    """A club server could not do what was asked; ``path`` is the URL without its password and
    the message says what to do (start the server, run serve-init, ask for a role...)."""


class ServerUnavailable(ClubError):
    """The server cannot be reached (not running, wrong host or port, connection lost twice)."""


class ClaimTaken(ClubError):
    """A formation is already claimed by another umpire.

    Attributes
    ----------
    formation_id, holder : str
    """

    def __init__(self, url: str, formation_id: str, holder: str) -> None:
        self.formation_id, self.holder = formation_id, holder
        super().__init__(url, f"formation {formation_id!r} is held by umpire {holder!r}; ask them to release it")


class ScenarioLocked(ClubError):
    """The scenario of a battle whose game is running cannot be edited or republished."""


def is_club_url(text: str | os.PathLike[str]) -> bool:
    """True for a ``postgresql://`` or ``postgres://`` URL (anything else is a file path)."""
    from battlestudio.store.club.server import is_club_url as _is

    return _is(text)


@dataclass(frozen=True)
class ClubURL:
    """A parsed club URL.

    Attributes
    ----------
    conninfo : str
        the URL without ``battle=`` (handed to libpq: user, password, host, port, database and
        libpq options such as ``sslmode``).
    battle : int | None
        the battle id, or None (``serve_init``, ``publish`` of a new battle).
    """

    conninfo: str
    battle: int | None = None
    shown: str = field(default="", compare=False)
    """The URL as shown in messages: without the password."""

    @classmethod
    def parse(cls, text: str) -> ClubURL:
        """Parse ``postgresql://[user[:password]@]host[:port]/database[?battle=N&...]``.

        Raises
        ------
        ClubError
            for a URL that is not ``postgresql://``, has no database, or a ``battle`` that is not
            a positive integer.
        """
        from battlestudio.store.club.server import parse_url

        return parse_url(text)

    def with_battle(self, battle: int) -> ClubURL:
        """This URL naming ``battle``."""
        from battlestudio.store.club.server import url_with_battle

        return url_with_battle(self, battle)

    def __str__(self) -> str:
        return self.shown


def serve_init(url: str | ClubURL) -> None:
    """Create (or bring up to date; running it twice is harmless) the club schema and the
    roles on the database ``url`` names. Needs a role that may create schemas and roles
    (the database owner with CREATEROLE, or a superuser).

    Raises
    ------
    ServerUnavailable, ClubError
        naming the URL and what to do (server not running, database missing, not allowed).
    """
    from battlestudio.store.club.battles import serve_init as _serve_init

    _serve_init(url)


def publish(path: str | os.PathLike[str], url: str | ClubURL) -> int:
    """Put the battle in ``path`` (``.battle`` or ``.battle.json``) on the server; return its id.

    Without ``battle=`` in ``url`` a new battle is made; with it, that battle's scenario and
    events are replaced — refused with ``ScenarioLocked`` while its game is running. A file
    holding recorded events is published as a running game.

    Raises
    ------
    BattleFileError
        if the file cannot be read; ``ClubError`` subclasses as ``serve_init`` and above.
    """
    from battlestudio.store.club.battles import publish as _publish

    return _publish(path, url)


def load_club(url: str | ClubURL) -> Battle:
    """The battle ``url`` names, read from the server and checked value by value through the
    document codec exactly as a ``.battle`` file is (``store.database_read``).

    Raises
    ------
    ClubError
        naming the URL and, for a bad value, the table, row and column; no ``battle=`` in the
        URL or an unknown battle id; a player role (which sees only part of a battle).
    """
    from battlestudio.store.club.battles import load_club as _load

    return _load(url)


def fetch(url: str | ClubURL, path: str | os.PathLike[str]) -> Battle:
    """Save the battle ``url`` names, with every event recorded so far, to ``path`` (``.battle``
    or ``.battle.json``, written atomically) and return it. No credentials go into the file.

    Raises
    ------
    ClubError
        as ``load_club``; ``BattleFileError``/``OSError`` if the file cannot be written.
    """
    from battlestudio.store.club.battles import fetch as _fetch

    return _fetch(url, path)


class StaleLog(ClubError):
    """``append_action(after=N)`` found events after seq N: nothing was written."""


from battlestudio.store.club.connection import ClubConnection  # noqa: E402 - needs the errors above

__all__ = [
    "HIDDEN_POSITIONS",
    "ClaimTaken",
    "ClubConnection",
    "ClubError",
    "ClubURL",
    "ScenarioLocked",
    "ServerUnavailable",
    "StaleLog",
    "fetch",
    "is_club_url",
    "load_club",
    "publish",
    "serve_init",
]
