"""Questions views ask the game log: what changed between two places, the events of a kind
or naming a unit, and where a unit has been (its trail).

``LogQueries`` is mixed into ``GameLog``; it uses the log's public addressing (``position``,
``cursor_at``, ``state_at``, ``turns``, ``turn_starts``) plus its per-id index ``_touch`` (id → positions
of the events naming it) and event list ``_events``.
"""

from __future__ import annotations

from typing import Protocol

from battlestudio.model.geometry import Point
from battlestudio.replay.cursor import Cursor
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.recorded import RecordedEvents
from battlestudio.replay.state import GameState


class _Log(Protocol):
    """The parts of ``GameLog`` that ``LogQueries`` uses (module docstring)."""

    _events: list[BattleEvent] | RecordedEvents
    _touch: dict[str, list[int]]

    def position(self, at: Cursor | int) -> int: ...

    def cursor_at(self, pos: int) -> Cursor: ...

    def state_at(self, at: Cursor | int) -> GameState: ...

    def turns(self) -> list[int]: ...

    def turn_starts(self) -> list[int]: ...

    def _advance(self, to: int) -> None: ...

    def _touching(self, node_id: str, lo: int, hi: int) -> list[int]: ...

    def events_touching(self, node_id: str, start: Cursor | int = 0, end: Cursor | int | None = None) -> list[int]: ...


class LogQueries:
    """What-changed, event-lookup and trail queries of a ``GameLog``."""

    __slots__ = ()

    def changed_between(self: _Log, a: Cursor | int, b: Cursor | int) -> frozenset[str]:
        """Ids of the units and commanders touched between two places (either order).

        The union of the ids named by the events in between (a unit that fired, a target)
        and of the ids whose record differs between the two states (appeared, disappeared,
        changed, or given another superior), whatever event kinds did it.
        """
        lo, hi = sorted((self.position(a), self.position(b)))
        ids: set[str] = set()
        for e in self._events[lo:hi]:
            ids.update(e.touched())
        sa, sb = self.state_at(lo), self.state_at(hi)
        for mine, theirs in ((sa.units, sb.units), (sa.commanders, sb.commanders)):
            if mine is theirs:
                continue
            ids.update(mine.keys() ^ theirs.keys())
            ids.update(k for k, v in mine.items() if k in theirs and theirs[k] is not v and theirs[k] != v)
        if sa.off_table != sb.off_table:
            ids.update(sa.off_table ^ sb.off_table)
        if sa.oob is not sb.oob:
            ga, gb = sa.oob.graph, sb.oob.graph
            ids.update(v for _, v in set(ga.edges) ^ set(gb.edges))
        return frozenset(ids)

    def events_between(
        self: _Log, start: Cursor | int = 0, end: Cursor | int | None = None, kind: str | None = None
    ) -> list[tuple[int, BattleEvent]]:
        """``(p, events[p])`` for the events in [start, end), only of ``kind`` if given.

        E.g. the annotations of the last turns: ``events_between(turn_start, at, "annotation")``.
        """
        lo = self.position(start)
        hi = len(self._events) if end is None else self.position(end)
        return [(p, e) for p, e in enumerate(self._events[lo:hi], lo) if kind is None or e.kind == kind]

    def events_touching(
        self: _Log, node_id: str, start: Cursor | int = 0, end: Cursor | int | None = None
    ) -> list[int]:
        """Positions ``p`` (event ``events[p]``) of the events naming ``node_id`` in [start, end)."""
        lo = self.position(start)
        hi = len(self._events) if end is None else self.position(end)
        self._advance(hi)  # a lazy log indexes ids as it applies events
        return [p for p in self._touching(node_id, lo, hi) if lo <= p < hi]

    def trail(self: _Log, node_id: str, turns: int, at: Cursor | int | None = None) -> list[Point]:
        """Where ``node_id`` has been over the last ``turns`` turns up to ``at``, oldest first.

        Starts at its position when the first of those turns began (if it was on the table)
        and adds every point of the moves and arrivals since. Points in cm; consecutive
        duplicates are dropped. Empty at the start of the game or for ``turns`` < 1.
        """
        pos = len(self._events) if at is None else self.position(at)
        turn = self.cursor_at(pos).turn
        if turn == 0 or turns < 1:
            return []
        first = max(1, turn - turns + 1)
        start = next(p - 1 for t, p in zip(self.turns(), self.turn_starts(), strict=False) if t >= first)
        st = self.state_at(start)
        rec = st.record(node_id)
        points: list[Point] = []
        if rec is not None and node_id not in st.off_table:
            points.append(rec.position)
        for p in self.events_touching(node_id, start, pos):
            for pt in self._events[p].positions_of(node_id):
                if not points or points[-1] != pt:
                    points.append(pt)
        return points
