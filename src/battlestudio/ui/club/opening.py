"""Opening a club game: connect as an umpire, read the battle, follow it.

``open_club(url, umpire)`` returns a ``ClubPlayDocument`` at the end of the game recorded so
far, listening for the others' events; the URL may carry a password for this connection only.
"""

from __future__ import annotations

import getpass
from urllib.parse import quote, urlsplit, urlunsplit

from battlestudio.document import Document
from battlestudio.replay.game import GameLog
from battlestudio.rules import UnknownRuleset
from battlestudio.session import GameSession
from battlestudio.store.club import ClubConnection, ClubURL
from battlestudio.ui.club.document import ClubPlayDocument


def default_umpire() -> str:
    """The name offered for a new umpire: the login name on this computer."""
    try:
        return getpass.getuser()
    except Exception:  # noqa: BLE001 - no login name: the user types one
        return ""


def with_password(url: str, password: str) -> str:
    """``url`` with ``password`` in its user part, for connecting only (never stored or shown);
    ``url`` itself when ``password`` is empty (libpq then asks ``~/.pgpass`` and ``PGPASSWORD``)."""
    if not password:
        return url
    parts = urlsplit(url)
    netloc = parts.netloc
    userinfo, _, host = netloc.rpartition("@")
    user = userinfo.split(":", 1)[0] if userinfo else getpass.getuser()
    return urlunsplit(
        (parts.scheme, f"{quote(user, safe='')}:{quote(password, safe='')}@{host}", parts.path, parts.query, "")
    )


def open_club(url: str | ClubURL, umpire: str | None = None, seed: int | str | None = None) -> ClubPlayDocument:
    """The club game ``url`` names (with ``battle=``), recorded as ``umpire``.

    Raises
    ------
    ClubError
        naming the URL without its password and what to do (server down, no such database or
        battle, password refused, not a club database).
    ValueError
        when the recorded events cannot be replayed (naming the first bad one).
    """
    conn = ClubConnection(url, umpire or None)
    try:
        battle = conn.load()
        log = GameLog.lazy_from_battle(battle)
        try:
            session: GameSession | None = GameSession(battle, seed=seed, log=log)
        except UnknownRuleset:
            session = None
        doc = ClubPlayDocument(Document(battle), session, conn, len(battle.events) - 1, log=log)
        doc.timeline.to_end()
        conn.listen()
        doc.read_claims()
        doc.catch_up()  # what was recorded while the battle was read
    except BaseException:
        conn.close()
        raise
    return doc
