"""The battles a club server holds, for File ▸ Open Club Game…'s list.

``list_battles(url)`` reads ``club.battle`` (id, title, status: ``setup``, ``running``,
``finished``), newest last; the URL's ``battle=`` is ignored.
"""

from __future__ import annotations

from dataclasses import dataclass

from battlestudio.store.club import ClubURL
from battlestudio.store.club.battles import require_club
from battlestudio.store.club.server import as_url, club_errors, connect


@dataclass(frozen=True, slots=True)
class ClubBattle:
    """One battle on a server: its ``id`` (the URL's ``battle=``), ``title`` and ``status``."""

    id: int
    title: str
    status: str


def list_battles(url: str | ClubURL) -> list[ClubBattle]:
    """Every battle on the server ``url`` names, by id.

    Raises
    ------
    ClubError
        (``ServerUnavailable``) naming the URL and what to do: server down, no such database,
        refused password, not a club database (run ``serve-init``).
    """
    u = as_url(url)
    with connect(u) as conn:
        require_club(conn, u)
        with club_errors(u):
            rows = conn.execute("SELECT id, title, status FROM club.battle ORDER BY id").fetchall()
    return [ClubBattle(int(i), str(t), str(s)) for i, t, s in rows]
