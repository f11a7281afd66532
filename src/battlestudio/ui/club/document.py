"""ClubPlayDocument: a game on a club server, recorded by several umpires at once.

A ``PlayDocument`` whose log is the server's: every action recorded here (a drag, an Actions
dock roll, an order, Next Phase …) goes to the server as ONE ``ClubConnection.append_action``
call, conditional on having seen the server's last event (``after=``); when another umpire
wrote first (``StaleLog``) the action is taken back, their events are read and applied, and
the action is recorded again after them and sent once more — so this window's log is always
the server's, in the server's order. A drag is sent once it ends (``flush`` by the window,
after the mouse is released or it rests), not on every mouse move. A write that fails takes
the action back here and says why (``write_failed``): nothing is half-applied.

Claims: an umpire acts only for the units and commanders they hold or nobody holds
(``session.club``); a gesture or an action for another umpire's troops is refused naming the
holder. Undo is not offered (the other umpires may have acted on what was recorded), and the
scenario is locked while the game runs: edits are refused saying so.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Callable, Iterable, Mapping

from psygnal import Signal

from battlestudio.document import Document
from battlestudio.edits import Change, Edit
from battlestudio.model.geometry import Point
from battlestudio.play.document import PlayDocument
from battlestudio.replay.game import GameLog
from battlestudio.session import GameSession, SessionError
from battlestudio.session.club import acting_sides, busy_umpires, refusal_text, refusals
from battlestudio.store.club import ClubConnection, ClubError, StaleLog

LOCKED = (
    "The scenario is locked while the club game runs: edit it in its file and publish it again "
    "(battlestudio publish) once the game has ended."
)
NO_UNDO = "Undo is not available in a club game: the other umpires may already have acted on what was recorded."
STALE_RETRIES = 5
"""How often an action is re-based on the others' events before the write is given up."""


class ClubPlayDocument(PlayDocument):
    """The club game ``conn`` names, recorded as umpire ``conn.umpire``.

    Parameters
    ----------
    base : Document
        the battle as the server holds it (``conn.load()``), no path.
    session : GameSession | None
        records the game (None: the ruleset is not installed here; the game is followed only).
    conn : ClubConnection
        the umpire's connection; the document never closes it (``close`` does).
    seq : int
        the seq of the last event of ``base.battle`` (``-1`` when none).

    Signals
    -------
    write_failed(str)
        an action could not be stored; it was taken back here; the text says why.
    followed(int)
        events recorded by others were applied (how many).
    claims_changed()
        ``claims`` changed (read again from the server).
    phase_closed(list)
        this umpire closed the open phase; the umpires still busy in it.
    """

    write_failed = Signal(str)
    followed = Signal(int)
    claims_changed = Signal()
    phase_closed = Signal(list)

    def __init__(
        self,
        base: Document,
        session: GameSession | None,
        conn: ClubConnection,
        seq: int,
        log: GameLog | None = None,
    ) -> None:
        super().__init__(base, session, None, log=log)
        self.conn = conn
        self.umpire = conn.umpire
        self.seq = seq
        self.claims: dict[str, str] = {}
        self._synced = len(self.log)  # the log's events before this position are on the server
        self._sending = False
        self._guard_key: object = object()

    # -- where it is --------------------------------------------------------------------
    @property
    def club_title(self) -> str:
        """The window title's name: the battle's title and the server (no password)."""
        return f"{self.base.scenario.info.title} — {self.conn.url}"

    @property
    def scenario_locked(self) -> str:
        """Why the scenario cannot be edited here (always: it is the server's)."""
        return LOCKED

    @property
    def pending(self) -> int:
        """Events recorded here and not yet on the server (a drag in progress)."""
        return len(self.log) - self._synced

    @property
    def is_modified(self) -> bool:
        """Never: what is recorded goes to the server (a drag in progress as it ends, or on
        ``close``), so closing the window asks nothing and no recovery copy is written."""
        return False

    # -- claims ------------------------------------------------------------------------
    def read_claims(self) -> dict[str, str]:
        """Read the claims from the server (``claims``); announce them when they changed."""
        claims = self.conn.claims()
        if claims != self.claims:
            self.claims = claims
            self.claims_changed.emit()
        return self.claims

    def why_not_yours(self, ids: Iterable[str]) -> str:
        """Why this umpire may not act for the units and commanders among ``ids`` ("" if may)."""
        s = self.scenario
        pieces = [i for i in ids if i in s.units or i in s.commanders]
        return refusal_text(s, refusals(s.oob, self.claims, self.umpire, pieces))

    def _fresh_why(self, ids: Iterable[str]) -> str:
        """``why_not_yours`` with the claims read from the server first."""
        try:
            self.read_claims()
        except ClubError:
            pass  # the claims as last read: the write says what is wrong with the server
        return self.why_not_yours(ids)

    def _guard(self, ids: Iterable[str], key: object = None) -> bool:
        """False (and ``refused`` says why) when another umpire holds one of ``ids``; the claims
        are read from the server at the start of each gesture (a new ``key``, or None)."""
        if key is None or key != self._guard_key:
            self._guard_key = key
            try:
                self.read_claims()
            except ClubError:
                pass  # the claims as last read: the write says what is wrong with the server
        why = self.why_not_yours(ids)
        if why:
            self._refuse(why)
        return not why

    def move(self, ids: Iterable[str], dx: float, dy: float, key: object = None, verb: str = "Move") -> list[Change]:
        ids = list(ids)
        return super().move(ids, dx, dy, key, verb) if self._guard(ids, key) else []

    def rotate(self, ids: Iterable[str], delta: float, key: object = None) -> list[Change]:
        ids = list(ids)
        return super().rotate(ids, delta, key) if self._guard(ids, key) else []

    def set_fields(
        self, kind: str, fields: Mapping[str, Mapping[str, Any]], text: str, key: object = None
    ) -> list[Change]:
        return super().set_fields(kind, fields, text, key) if self._guard(fields, key) else []

    def place(self, ids: Iterable[str], point: Point) -> list[str]:
        ids = list(ids)
        return super().place(ids, point) if self._guard(ids) else []

    def run(self, text: str, do: Callable[[GameSession], Any], merge_key: object = None, starting: bool = False) -> Any:
        """``PlayDocument.run`` with the session's actions for one subject (an Actions dock
        action, an order, a command check, an order's execution) refused for another umpire's
        troops, and the action sent to the server (``flush``)."""
        guarded = _Guarded(self._fresh_why)
        return super().run(text, lambda s: do(guarded.over(s)), merge_key, starting)

    def push(self, edit: Edit) -> list[Change]:
        self._refuse(LOCKED)
        return []

    # -- undo: not in a club game -------------------------------------------------------
    @property
    def can_undo(self) -> bool:
        return False

    @property
    def can_redo(self) -> bool:
        return False

    def undo(self) -> list[Change]:
        self._refuse(NO_UNDO)
        return []

    def redo(self) -> list[Change]:
        self._refuse(NO_UNDO)
        return []

    # -- the server ---------------------------------------------------------------------
    def _after_record(self) -> None:
        super()._after_record()
        top = self._actions[-1] if self._actions else None
        if top is None or top.merge_key is None:
            self.flush()  # one-shot actions go now; a drag goes when it ends

    def flush(self) -> bool:
        """Send the events recorded here since the last write as one action; True when the
        server holds them (or there were none). Refused by the server: taken back here and
        said (``write_failed``)."""
        if self._sending or not self.pending:
            return True
        self._sending = True
        try:
            for _ in range(STALE_RETRIES):
                events = list(self.log.events[self._synced :])
                if not events:
                    return True
                try:
                    seqs = self.conn.append_action(events, after=self.seq)
                except StaleLog:
                    try:
                        self.catch_up()  # their events first, ours re-recorded after them
                    except ClubError as exc:
                        self._drop_pending(f"Not recorded — the others' actions cannot be read: {exc}")
                        return False
                    continue
                except ClubError as exc:
                    self._drop_pending(f"Not recorded — the server refused it: {exc}")
                    return False
                self.seq = seqs[-1]
                self._synced = len(self.log)
                if self._actions:
                    self._actions[-1].merge_key = None  # on the server: a continued drag records anew
                self.history_changed.emit()
                return True
            self._drop_pending("Not recorded: the other umpires kept recording first; try again.")
            return False
        finally:
            self._sending = False

    def _drop_pending(self, why: str) -> None:
        n = self.pending
        if n and self.session is not None:
            self._held += 1
            try:
                self.session.undo(n)
            finally:
                self._held -= 1
                self._sync()
            while self._actions and n > 0:
                n -= self._actions.pop().count
            self.recorded.emit()
            self.history_changed.emit()
        self.write_failed.emit(why)

    def catch_up(self) -> int:
        """Apply the events the others recorded since ``seq`` (before any recorded here and not
        yet sent, which are recorded again after them); return how many were applied.

        Raises
        ------
        ClubError
            when the server cannot be read, or its events cannot be replayed here (then nothing
            changes here).
        """
        new = self.conn.events_after(self.seq)
        if not new:
            return 0
        pending = list(self.log.events[self._synced :])
        session = self.session
        self._held += 1
        lost = ""
        try:
            if pending and session is not None:
                session.undo(len(pending))
            theirs = [e for _, e in new]
            try:
                if session is not None:
                    session.record_all(theirs)
                else:
                    for e in theirs:
                        self.log.append(e)
                        self.battle.events.append(e)
                        self.seq += 1
            except (SessionError, ValueError) as exc:
                if pending and session is not None:
                    session.record_all(pending)
                raise ClubError(
                    str(self.conn.url), f"the events after seq {self.seq} cannot be replayed here: {exc}"
                ) from None
            self.seq = new[-1][0]
            self._synced = len(self.log)
            if pending and session is not None:
                try:
                    session.record_all(pending)
                except SessionError as exc:
                    lost = f"Your last action was taken back: after the other umpires' actions, {exc}"
                    n = len(pending)
                    while self._actions and n > 0:
                        n -= self._actions.pop().count
        finally:
            self._held -= 1
            self._sync()
        self.revision += 1
        self.followed.emit(len(new))
        self.recorded.emit()
        self.history_changed.emit()
        if lost:
            self._refuse(lost)
        return len(new)

    # -- the game's end ------------------------------------------------------------------
    finished = False
    """True once the game was ended on the server (``end_game``): it is replayed only."""

    ENDED = "The club game has ended: it is replayed only (spectators may read it now)."

    @property
    def recording(self) -> bool:
        return super().recording and not self.finished

    def why_not_recording(self, starting: bool = False) -> str:
        return self.ENDED if self.finished else super().why_not_recording(starting)

    def end_game(self) -> None:
        """End the game on the server for every umpire (what is pending is sent first).

        Raises
        ------
        ClubError
            when the server cannot be reached or refuses (the game goes on).
        """
        self.flush()
        self.conn.end_game()
        self.set_finished(True)

    def set_finished(self, finished: bool) -> None:
        """The server says the game has (not) ended: recording stops (or goes on)."""
        if finished != self.finished:
            self.finished = finished
            self.recorded.emit()
            self.history_changed.emit()

    # -- phases -------------------------------------------------------------------------
    def phase_sides(self) -> list[str]:
        """The sides whose troops act in the open phase (the phase's side when only it acts)."""
        session = self.session
        if session is None or not session.started:
            return []
        step = session.step()
        return acting_sides(step.spec.who, step.side, session.sides)

    def busy(self) -> list[str]:
        """The umpires (sorted) with troops on the table in the open phase (``session.club``)
        who have not closed it (the server's phase closes)."""
        session = self.session
        if session is None or not session.started:
            return []
        k = session.key
        sides = self.phase_sides()
        open_for: set[str] = set()
        for side in sides:
            open_for.update(self.conn.busy(k.turn, side, k.phase))
        closed = set(self.claims.values()) - open_for
        return busy_umpires(self.timeline.log.head, self.claims, sides, closed)

    def close_phase(self) -> bool:
        """Next Phase in a club game: send what is pending, mark the open phase done for this
        umpire (for every side acting in it) and say whether it may advance now (nobody else
        is busy in it). The window then records the next phase (only one umpire's write of it
        succeeds; the others' are taken back by ``catch_up``)."""
        session = self.session
        if session is None or not session.started:
            return True  # PlayView says why it cannot advance
        if not self.flush():
            return False
        seen = session.key
        try:
            self.catch_up()
            k = session.key
            if k != seen:  # the others closed it and moved on while this window had not seen it yet
                self._refuse(f"{seen.phase} of turn {seen.turn} was closed meanwhile; now {k.phase} of turn {k.turn}.")
                return False
            for side in self.phase_sides():
                self.conn.close_phase(k.turn, side, k.phase)
            busy = self.busy()
        except ClubError as exc:
            self.write_failed.emit(f"The phase was not closed: {exc}")
            return False
        self.phase_closed.emit(busy)
        if busy:
            verb = "closes" if len(busy) == 1 else "close"
            self._refuse(f"You have closed {k.phase} of turn {k.turn}; it goes on until {_listed(busy)} {verb} it too.")
        return not busy

    def mark_saved(self, path: object = None) -> None:
        """A copy was saved (Save As): the game stays on the server, this is no file's document."""
        self.history_changed.emit()

    def close(self) -> None:
        """Send what is pending, stop following the log and close the connection."""
        try:
            self.flush()
        finally:
            super().close()
            self.conn.close()


class _Guarded:
    """A ``GameSession`` stand-in for ``PlayDocument.run``: the actions naming one subject are
    refused (``SessionError``) when ``why(ids)`` says so; everything else is the session's."""

    def __init__(self, why: Callable[[Iterable[str]], str]) -> None:
        self._why = why
        self._session: GameSession | None = None

    def over(self, session: GameSession) -> Any:
        self._session = session
        return self

    def _check(self, ids: Iterable[str]) -> None:
        text = self._why([i for i in ids if i])
        if text:
            raise SessionError(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)

    def act(self, request: Any) -> Any:
        self._check([request.subject])
        return self._s.act(request)

    def issue_order(self, request: Any) -> Any:
        self._check([request.issuer])
        return self._s.issue_order(request)

    def issue_orders(self, requests: Any, *args: Any, **kwargs: Any) -> Any:
        self._check([r.issuer for r in requests])
        return self._s.issue_orders(requests, *args, **kwargs)

    def command_check(self, formation: str) -> Any:
        self._check([formation])
        return self._s.command_check(formation)

    def command_checks(self, formations: Any) -> Any:
        self._check(list(formations))
        return self._s.command_checks(formations)

    def choose_activation(self, formation: str) -> Any:
        self._check([formation])
        return self._s.choose_activation(formation)

    def execute_order(self, commander_id: str, **kwargs: Any) -> Any:
        self._check([commander_id])
        return self._s.execute_order(commander_id, **kwargs)

    @property
    def _s(self) -> GameSession:
        assert self._session is not None
        return self._session


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
