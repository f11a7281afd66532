"""Connecting to a club server: the URL, libpq's credentials, and errors that say what to do.

Every psycopg error that reaches a user goes through ``club_errors``, which turns it into a
``ClubError`` naming the URL (without its password) and the next step: start the server,
create the database, run ``serve-init``, ask for a role.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

if TYPE_CHECKING:
    import psycopg

from battlestudio.store.club import ClubError, ClubURL, ScenarioLocked, ServerUnavailable

SCHEMES = ("postgresql", "postgres")
CONNECT_TIMEOUT_S = 5
"""Seconds libpq waits for a server before giving up (the default waits forever)."""

UMPIRE, SPECTATOR, PLAYER = "battlestudio_umpire", "battlestudio_spectator", "battlestudio_player"
"""The club's group roles (cluster-wide; ``serve_init`` creates them)."""
MAX_ROLE = 63
"""Longest PostgreSQL role name, bytes."""


def is_club_url(text: str | os.PathLike[str]) -> bool:
    """True for a ``postgresql://`` or ``postgres://`` URL."""
    if not isinstance(text, str):
        return False
    return any(text.lower().startswith(f"{s}://") for s in SCHEMES)


def parse_url(text: str) -> ClubURL:
    """``ClubURL.parse``."""
    if not is_club_url(text):
        raise ClubError(text, "not a club URL: expected postgresql://[user@]host[:port]/database?battle=N")
    parts = urlsplit(text)
    netloc = parts.netloc
    shown_netloc = netloc
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        user = userinfo.split(":", 1)[0]
        shown_netloc = f"{user}@{host}"
    database = unquote(parts.path.lstrip("/"))
    query = parse_qsl(parts.query, keep_blank_values=True)
    battle: int | None = None
    rest = []
    for key, value in query:
        if key == "battle":
            if not re.fullmatch(r"[0-9]{1,9}", value) or int(value) < 1:
                shown = _join(parts.scheme, shown_netloc, parts.path, "")
                raise ClubError(shown, f"battle={value!r}: expected a positive whole number, e.g. ?battle=1")
            battle = int(value)
        else:
            rest.append((key, value))
    shown_query = [(k, v) for k, v in rest if k != "password"]
    if battle is not None:
        shown_query.append(("battle", str(battle)))
    shown = _join(parts.scheme, shown_netloc, parts.path, urlencode(shown_query))
    if not database and not os.environ.get("PGDATABASE"):
        raise ClubError(shown, "no database in the URL: add it after the host, e.g. postgresql://host/club")
    conninfo = _join(parts.scheme, netloc, parts.path, urlencode(rest))
    return ClubURL(conninfo=conninfo, battle=battle, shown=shown)


def _join(scheme: str, netloc: str, path: str, query: str) -> str:
    """A URL from its parts, keeping ``//`` when there is no host (``postgresql:///club``: libpq's
    default host; ``urlunsplit`` would drop it)."""
    return f"{scheme}://{netloc}{path}" + (f"?{query}" if query else "")


def url_with_battle(url: ClubURL, battle: int) -> ClubURL:
    """``url`` naming ``battle``."""
    parts = urlsplit(url.shown)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "battle"]
    shown = _join(parts.scheme, parts.netloc, parts.path, urlencode([*query, ("battle", str(battle))]))
    return ClubURL(conninfo=url.conninfo, battle=battle, shown=shown)


def as_url(url: str | ClubURL) -> ClubURL:
    return url if isinstance(url, ClubURL) else parse_url(os.fspath(url))


def connect(url: ClubURL, *, autocommit: bool = False, application: str = "battlestudio") -> psycopg.Connection[Any]:
    """A psycopg connection to ``url``'s database (credentials as libpq finds them), named
    ``application`` in ``pg_stat_activity`` (at most 63 bytes kept).

    Raises
    ------
    ServerUnavailable, ClubError
        naming the URL and what to do.
    """
    import psycopg

    with club_errors(url):
        return psycopg.connect(
            url.conninfo,
            autocommit=autocommit,
            connect_timeout=CONNECT_TIMEOUT_S,
            application_name=application,
        )


def is_connection_lost(exc: BaseException, conn: Any = None) -> bool:
    """True when ``exc`` means the connection is gone (not a refused statement)."""
    import psycopg

    if not isinstance(exc, psycopg.OperationalError):
        return False
    if conn is not None and (conn.closed or conn.broken):
        return True
    return getattr(exc, "sqlstate", None) is None or str(getattr(exc, "sqlstate", "")).startswith("08")


_HINTS = (
    (
        re.compile(
            r"connection refused|could not connect|no such file or directory|timeout expired|"
            r"could not translate host name|server closed the connection|connection is lost|"
            r"terminating connection|the connection is closed|consuming input failed",
            re.I,
        ),
        "the server cannot be reached ({reason}); start PostgreSQL or check the host and port",
        ServerUnavailable,
    ),
    (
        re.compile(r'database "([^"]*)" does not exist', re.I),
        "database {name!r} does not exist on the server; create it (createdb {name}) and run battlestudio serve-init",
        ClubError,
    ),
    (
        re.compile(r'role "([^"]*)" does not exist', re.I),
        "role {name!r} does not exist on the server; ask the club's administrator to create it "
        "(CREATE ROLE {name} LOGIN)",
        ClubError,
    ),
    (
        re.compile(r"password authentication failed|no password supplied|fe_sendauth", re.I),
        "the server refused the password ({reason}); give it in ~/.pgpass or PGPASSWORD",
        ClubError,
    ),
)


def _reason(exc: BaseException) -> str:
    text = " ".join(str(exc).split())
    return re.sub(r"password=\S+", "password=***", text)[:300]


def translate(url: ClubURL, exc: BaseException) -> ClubError:
    """The ``ClubError`` for the psycopg error ``exc`` met on ``url``."""
    import psycopg.errors as pe

    reason = _reason(exc)
    if isinstance(exc, ClubError):
        return exc
    if isinstance(exc, pe.ObjectNotInPrerequisiteState) and "scenario" in reason:
        diag = getattr(exc, "diag", None)
        return ScenarioLocked(url.shown, getattr(diag, "message_primary", None) or reason)
    if isinstance(exc, pe.InsufficientPrivilege):
        return ClubError(
            url.shown,
            f"not allowed: {reason}; ask the club's administrator to grant your login a club role "
            f"(GRANT {UMPIRE} TO you; players {PLAYER}_<side>, spectators {SPECTATOR})",
        )
    if isinstance(exc, pe.InvalidSchemaName | pe.UndefinedTable) and "club" in reason:
        return ClubError(url.shown, f"not a club database ({reason}); run battlestudio serve-init {url.shown}")
    for pattern, text, cls in _HINTS:
        m = pattern.search(reason)
        if m:
            name = m.group(1) if m.groups() else ""
            return cls(url.shown, text.format(name=name, reason=reason))
    if is_connection_lost(exc):
        return ServerUnavailable(url.shown, f"the connection to the server was lost ({reason})")
    return ClubError(url.shown, reason)


@contextmanager
def club_errors(url: ClubURL) -> Iterator[None]:
    """Turn psycopg errors inside the block into ``translate``'s ``ClubError``."""
    import psycopg

    try:
        yield
    except psycopg.Error as exc:
        raise translate(url, exc) from None


def player_role(side: str) -> str | None:
    """The player role of ``side`` (``battlestudio_player_<side>``), or None when the side's id
    is too long for a PostgreSQL role name (its players then see only what is not hidden)."""
    name = f"{PLAYER}_{side}"
    return name if side and len(name.encode()) <= MAX_ROLE else None
