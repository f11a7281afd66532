"""``ClubConnection``: one umpire's connection to one battle on a club server.

Every write is one transaction; the seq of a new event is allocated under a row lock on the
battle's ``club.battle`` row (``SELECT ... FOR UPDATE``), so seqs are gapless and two actions
never interleave. A retried action carries the token of its first try (``club.action``), so an
action whose commit the server made but whose reply was lost is not written twice.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from battlestudio.replay.battle import Battle
from battlestudio.replay.events import BattleEvent
from battlestudio.store.club import ClaimTaken, ClubError, ClubURL, ServerUnavailable, StaleLog
from battlestudio.store.errors import BattleFileError, DocumentError

if TYPE_CHECKING:
    import psycopg

T = TypeVar("T")

DRAIN_S = 0.005
"""Seconds ``poll`` waits for more notifications after the first."""


class ClubConnection:
    """One umpire's (or a player's, a spectator's) connection to one battle on a server.

    Two PostgreSQL connections: one for reading and writing, one that LISTENs to the battle's
    channel ``battle_<id>`` (made by ``listen``); both reconnect by themselves on a lost
    connection. Not thread-safe: use it from one thread (a window polls it when ``fileno()``
    is readable).

    Parameters
    ----------
    url : str | ClubURL
        a club URL with ``battle=``.
    umpire : str | None
        the name shown to the others for claims and phase closes (default: the login role).

    Raises
    ------
    ClubError
        no ``battle=`` in the URL, no such battle, not a club database; ``ServerUnavailable``.
    """

    url: ClubURL
    umpire: str
    battle_id: int

    def __init__(self, url: str | ClubURL, umpire: str | None = None) -> None:
        from battlestudio.store.club.battles import battle_row
        from battlestudio.store.club.schema import battle_schema
        from battlestudio.store.club.server import as_url, club_errors, connect

        self.url = as_url(url)
        self._main: psycopg.Connection[Any] | None = connect(self.url, autocommit=True)
        self._listener: psycopg.Connection[Any] | None = None
        self._changes: set[str] = set()
        try:
            with club_errors(self.url), self._main.transaction():
                self.battle_id = battle_row(self._main, self.url)[0]
                login = self._main.execute("SELECT current_user").fetchone()
        except BaseException:
            self.close()
            raise
        self.login = str(login[0]) if login else ""
        self.umpire = umpire or self.login
        self.schema = battle_schema(self.battle_id)
        self.channel = f"battle_{self.battle_id}"
        self._application = f"{self._present_prefix()}{self.umpire}"[:63]
        with club_errors(self.url):
            self._main.execute("SELECT set_config('application_name', %s, false)", (self._application,))

    # -- plumbing ------------------------------------------------------------------------
    def _conn(self) -> psycopg.Connection[Any]:
        from battlestudio.store.club.server import connect

        if self._main is None or self._main.closed or self._main.broken:
            if self._main is not None:
                self._main.close()
            self._main = connect(self.url, autocommit=True, application=self._application)
        return self._main

    def _run(self, work: Callable[[psycopg.Connection[Any]], T]) -> T:
        """``work(conn)`` in one transaction; run again once on a fresh connection if the
        connection was lost, else the error as a ``ClubError`` (nothing of it written)."""
        import psycopg

        from battlestudio.store.club.server import is_connection_lost, translate

        for attempt in (1, 2):
            conn = self._conn()
            try:
                with conn.transaction():
                    return work(conn)
            except psycopg.Error as exc:
                if attempt == 1 and is_connection_lost(exc, conn):
                    conn.close()
                    continue
                raise translate(self.url, exc) from None
        raise AssertionError("not reached")

    def _t(self, table: str) -> Any:
        from psycopg import sql

        return sql.Identifier(self.schema, table)

    def _notify(self, conn: psycopg.Connection[Any], payload: str) -> None:
        conn.execute("SELECT pg_notify(%s, %s)", (self.channel, payload))

    # -- the game log --------------------------------------------------------------------
    def append_action(self, events: Sequence[BattleEvent], *, after: int | None = None) -> list[int]:
        """Append one action's ``events`` in ONE transaction and return their seqs.

        Seqs are allocated by the server under a lock on the battle's row: gapless, and two
        umpires' actions never interleave. The first action starts the game
        (``game_running()``). Notifies ``battle_<id>`` with the last seq. On a lost connection
        the action is tried once more (an action the server had committed is not written twice).

        Parameters
        ----------
        after : int, optional
            the seq of the last event the caller has seen (``-1``: none); if the server holds
            later events, nothing is written and ``StaleLog`` is raised.

        Raises
        ------
        ClubError
            an event cannot be stored (nothing written; naming the event and value), an unknown
            side, the game has ended, the role may not record; ``StaleLog``; ``ServerUnavailable``
            when the server is gone and a new connection cannot be made (the action is then
            recorded whole or not at all: read the log after reconnecting to see which).
        """
        from psycopg import sql

        from battlestudio.store.codec import event_to_doc
        from battlestudio.store.database_write import event_row

        if not events:
            return []
        try:
            rows = []
            for i, event in enumerate(events):
                where = f"events[+{i}]"
                r = event_row(0, event_to_doc(event, where), where)
                rows.append((r["turn"], r["side"], r["phase"], r["kind"], r["payload"]))
        except DocumentError as err:
            raise ClubError(self.url.shown, f"{err.what} (nothing recorded)", err.where) from None
        token = uuid.uuid4()
        n = len(rows)

        def work(conn: psycopg.Connection[Any]) -> list[int]:
            head = conn.execute(
                "SELECT next_seq, status FROM club.battle WHERE id = %s FOR UPDATE", (self.battle_id,)
            ).fetchone()
            if head is None:
                raise ClubError(self.url.shown, f"battle {self.battle_id} is no longer on the server")
            done = conn.execute(
                "SELECT first_seq, last_seq FROM club.action WHERE battle = %s AND token = %s", (self.battle_id, token)
            ).fetchone()
            if done is not None:  # the first try was committed; its reply was lost
                return list(range(int(done[0]), int(done[1]) + 1))
            first, status = int(head[0]), str(head[1])
            if status == "finished":
                raise ClubError(self.url.shown, f"battle {self.battle_id}'s game has ended: nothing recorded")
            if after is not None and first - 1 != after:
                raise StaleLog(
                    self.url.shown,
                    f"the server holds events up to seq {first - 1}, after seq {after} this window has seen: "
                    "nothing recorded; read them (events_after) and try again",
                )
            sides = {r[0] for r in conn.execute(sql.SQL("SELECT id FROM {}").format(self._t("side")))} | {""}
            for i, r in enumerate(rows):
                if r[1] not in sides:
                    known = ", ".join(sorted(s for s in sides if s))
                    raise ClubError(
                        self.url.shown,
                        f"unknown side {r[1]!r} (the battle's sides: {known}); nothing recorded",
                        f"events[+{i}].side",
                    )
            with conn.cursor() as cur:
                cur.executemany(
                    sql.SQL(
                        "INSERT INTO {} (seq, turn, side, phase, kind, payload) VALUES (%s, %s, %s, %s, %s, %s)"
                    ).format(self._t("event")),
                    [(first + i, *r) for i, r in enumerate(rows)],
                )
            last = first + n - 1
            conn.execute(
                "UPDATE club.battle SET next_seq = %s, status = 'running' WHERE id = %s", (last + 1, self.battle_id)
            )
            conn.execute(
                "INSERT INTO club.action (battle, token, first_seq, last_seq, umpire) VALUES (%s, %s, %s, %s, %s)",
                (self.battle_id, token, first, last, self.umpire),
            )
            self._notify(conn, str(last))
            return list(range(first, last + 1))

        try:
            return self._run(work)
        except ServerUnavailable as err:
            raise ServerUnavailable(
                self.url.shown,
                f"{err.what}; the server did not confirm the action: it is recorded whole or not at all — "
                "reconnect and read the log (events_after) to see which",
            ) from None

    def events_after(self, seq: int) -> list[tuple[int, BattleEvent]]:
        """``(seq, event)`` of every stored event with a seq greater than ``seq`` (``-1``: all)
        that this login may read, in order, each checked as a ``.battle`` file's are.

        Raises
        ------
        ClubError
            for a bad stored event (naming ``event seq=N`` and the value) or a lost server.
        """
        from psycopg import sql

        from battlestudio.rules import load_event_types
        from battlestudio.store.database_read import _event_builder

        load_event_types()
        rows = self._run(
            lambda conn: conn.execute(
                sql.SQL("SELECT seq, kind, turn, side, phase, payload FROM {} WHERE seq > %s ORDER BY seq").format(
                    self._t("event")
                ),
                (seq,),
            ).fetchall()
        )
        build = _event_builder(self.url.shown)
        try:
            return [(int(r[0]), build(int(r[0]), tuple(r))) for r in rows]
        except BattleFileError as err:
            raise ClubError(self.url.shown, err.what, err.where) from None

    def last_seq(self) -> int:
        """The seq of the newest stored event (``-1`` when none)."""
        row = self._run(
            lambda conn: conn.execute("SELECT next_seq FROM club.battle WHERE id = %s", (self.battle_id,)).fetchone()
        )
        return int(row[0]) - 1 if row else -1

    # -- claims and phases ---------------------------------------------------------------
    def claim(self, formation_id: str) -> None:
        """Hold the formation ``formation_id`` (an order-of-battle node: a commander or unit id)
        for this umpire; claiming it again is harmless. Notifies ``claims``.

        Raises
        ------
        ClaimTaken
            if another umpire holds it. ``ClubError`` for an id the battle does not have.
        """
        from psycopg import sql

        def work(conn: psycopg.Connection[Any]) -> str:
            known = conn.execute(
                sql.SQL("SELECT 1 FROM {} WHERE id = %s").format(self._t("oob_node")), (formation_id,)
            ).fetchone()
            if known is None:
                raise ClubError(
                    self.url.shown, f"no formation {formation_id!r} in battle {self.battle_id}'s order of battle"
                )
            conn.execute(
                "INSERT INTO club.claim (battle, formation, umpire) VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                (self.battle_id, formation_id, self.umpire),
            )
            holder = conn.execute(
                "SELECT umpire FROM club.claim WHERE battle = %s AND formation = %s", (self.battle_id, formation_id)
            ).fetchone()
            self._notify(conn, "claims")
            return str(holder[0]) if holder else self.umpire

        holder = self._run(work)
        if holder != self.umpire:
            raise ClaimTaken(self.url.shown, formation_id, holder)

    def release(self, formation_id: str) -> None:
        """Give up this umpire's claim on ``formation_id`` (no error if not held). Notifies ``claims``."""

        def work(conn: psycopg.Connection[Any]) -> None:
            conn.execute(
                "DELETE FROM club.claim WHERE battle = %s AND formation = %s AND umpire = %s",
                (self.battle_id, formation_id, self.umpire),
            )
            self._notify(conn, "claims")

        self._run(work)

    def claims(self) -> dict[str, str]:
        """``formation id → umpire`` of every claim on this battle."""
        rows = self._run(
            lambda conn: conn.execute(
                "SELECT formation, umpire FROM club.claim WHERE battle = %s ORDER BY formation", (self.battle_id,)
            ).fetchall()
        )
        return {str(f): str(u) for f, u in rows}

    def holders(self) -> dict[str, str]:
        """``unit or commander id → umpire`` for everything under a claimed formation (the
        formation itself and its subordinates, down the order of battle); a claim lower down
        the tree wins over one above it."""
        from psycopg import sql

        query = sql.SQL(
            "WITH RECURSIVE held(node, umpire, depth) AS ("
            "SELECT formation, umpire, 0 FROM club.claim WHERE battle = %s "
            "UNION ALL SELECT e.subordinate, h.umpire, h.depth + 1 FROM held h JOIN {edge} e ON e.superior = h.node "
            "WHERE h.depth < 100) "
            "SELECT DISTINCT ON (node) node, umpire FROM held ORDER BY node, depth"
        ).format(edge=self._t("oob_edge"))
        rows = self._run(lambda conn: conn.execute(query, (self.battle_id,)).fetchall())
        return {str(n): str(u) for n, u in rows}

    def reveal(self, ids: Sequence[str], side: str) -> None:
        """Let ``side``'s players read the units and commanders ``ids`` (of the other side,
        under ``hidden_positions``: seen on contact); harmless twice. Notifies ``reveal``."""

        def work(conn: psycopg.Connection[Any]) -> None:
            with conn.cursor() as cur:
                cur.executemany(
                    "INSERT INTO club.reveal (battle, id, side, umpire) VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                    [(self.battle_id, i, side, self.umpire) for i in ids],
                )
            self._notify(conn, "reveal")

        self._run(work)

    def conceal(self, ids: Sequence[str], side: str) -> None:
        """Undo ``reveal`` of ``ids`` to ``side`` (contact lost). Notifies ``reveal``."""

        def work(conn: psycopg.Connection[Any]) -> None:
            conn.execute(
                "DELETE FROM club.reveal WHERE battle = %s AND side = %s AND id = ANY(%s)",
                (self.battle_id, side, list(ids)),
            )
            self._notify(conn, "reveal")

        self._run(work)

    def close_phase(self, turn: int, side: str, phase: str) -> None:
        """Record that this umpire has finished ``phase`` of ``side`` in ``turn`` (harmless
        twice). Notifies ``phases``."""

        def work(conn: psycopg.Connection[Any]) -> None:
            conn.execute(
                "INSERT INTO club.phase_close (battle, turn, side, phase, umpire) VALUES (%s, %s, %s, %s, %s) "
                "ON CONFLICT DO NOTHING",
                (self.battle_id, turn, side, phase, self.umpire),
            )
            self._notify(conn, "phases")

        self._run(work)

    def busy(self, turn: int, side: str, phase: str) -> list[str]:
        """The umpires (sorted) holding a formation of ``side`` (a commander or unit of that
        side) who have not closed this phase; empty when it is closed for everyone."""
        from psycopg import sql

        query = sql.SQL(
            "SELECT DISTINCT c.umpire FROM club.claim c WHERE c.battle = %(b)s AND ("
            "EXISTS (SELECT 1 FROM {k} k WHERE k.id = c.formation AND k.side = %(side)s) OR "
            "EXISTS (SELECT 1 FROM {u} u WHERE u.id = c.formation AND u.side = %(side)s)) AND NOT EXISTS ("
            "SELECT 1 FROM club.phase_close p WHERE p.battle = c.battle AND p.turn = %(turn)s AND p.side = %(side)s "
            "AND p.phase = %(phase)s AND p.umpire = c.umpire) ORDER BY c.umpire"
        ).format(k=self._t("commander"), u=self._t("unit"))
        params = {"b": self.battle_id, "side": side, "turn": turn, "phase": phase}
        rows = self._run(lambda conn: conn.execute(query, params).fetchall())
        return [str(r[0]) for r in rows]

    def _present_prefix(self) -> str:
        return f"battlestudio b{self.battle_id} "

    def present(self) -> list[str]:
        """The umpires (and players, spectators) connected to this battle now, sorted: every
        ``ClubConnection`` names itself ``battlestudio b<id> <umpire>`` in ``pg_stat_activity``."""
        prefix = self._present_prefix()
        rows = self._run(
            lambda conn: conn.execute(
                "SELECT DISTINCT substr(application_name, %s) FROM pg_stat_activity "
                "WHERE datname = current_database() AND starts_with(application_name, %s) ORDER BY 1",
                (len(prefix) + 1, prefix),
            ).fetchall()
        )
        return [str(r[0]) for r in rows]

    # -- the game ------------------------------------------------------------------------
    def game_running(self) -> bool:
        """True from the first recorded action until ``end_game``; the scenario is locked then."""
        row = self._run(
            lambda conn: conn.execute("SELECT status FROM club.battle WHERE id = %s", (self.battle_id,)).fetchone()
        )
        return row is not None and row[0] == "running"

    def end_game(self) -> None:
        """Mark the game finished: nothing more is recorded, spectators may read it, the
        scenario may be republished. Notifies ``game``."""

        def work(conn: psycopg.Connection[Any]) -> None:
            conn.execute("UPDATE club.battle SET status = 'finished' WHERE id = %s", (self.battle_id,))
            self._notify(conn, "game")

        self._run(work)

    def load(self) -> Battle:
        """The whole battle as ``load_club`` reads it (on a connection of its own)."""
        from battlestudio.store.club import load_club

        return load_club(self.url)

    # -- live updates --------------------------------------------------------------------
    def listen(self) -> None:
        """Start listening to ``battle_<id>``: ``poll`` then reports what anyone records
        (this connection's own actions too)."""
        from psycopg import sql

        from battlestudio.store.club.server import club_errors, connect

        if self._listener is not None and not self._listener.closed and not self._listener.broken:
            return
        if self._listener is not None:
            self._listener.close()
        self._listener = connect(self.url, autocommit=True, application=self._application)
        with club_errors(self.url):
            self._listener.execute(sql.SQL("LISTEN {}").format(sql.Identifier(self.channel)))

    def fileno(self) -> int:
        """The socket of the listening connection: readable when a notification has arrived
        (for ``select`` or a ``QSocketNotifier``); ``listen`` first. It changes when ``poll``
        reconnects."""
        if self._listener is None:
            raise ClubError(self.url.shown, "not listening: call listen() first")
        return self._listener.fileno()

    def poll(self, timeout: float = 0.0) -> int | None:
        """Read the pending notifications, waiting up to ``timeout`` seconds for the first;
        the newest seq notified, or None. Claims, phase closes and the game's end notified
        meanwhile are collected for ``changes()``. On a lost connection it listens again on a
        new one and returns ``last_seq()``, so the caller catches up with ``events_after``."""
        import psycopg

        if self._listener is None:
            self.listen()
        assert self._listener is not None
        newest: int | None = None
        try:
            notes = list(self._listener.notifies(timeout=timeout, stop_after=1))
            while notes:  # drain: the rest may come in later packets
                more = list(self._listener.notifies(timeout=DRAIN_S))
                if not more:
                    break
                notes += more
        except psycopg.OperationalError:
            self._listener.close()
            self.listen()
            self._changes |= {"claims", "phases", "game"}
            return self.last_seq()
        for note in notes:
            if note.payload.isdigit():
                newest = max(newest if newest is not None else -1, int(note.payload))
            else:
                self._changes.add(note.payload)
        return newest

    def changes(self) -> set[str]:
        """What else was notified since the last call (``"claims"``, ``"phases"``, ``"game"``,
        ``"reveal"``, ``"published"``), then forgets it."""
        out, self._changes = self._changes, set()
        return out

    def close(self) -> None:
        """Close both connections (harmless twice)."""
        for conn in (self._main, self._listener):
            if conn is not None:
                conn.close()
        self._main = self._listener = None

    def __enter__(self) -> ClubConnection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
