"""The game log: append-only battle events indexed turn → side → phase → event, with keyframes.

``GameLog.state_at(p)`` starts from the nearest keyframe at or before ``p`` (or a recently
computed state, when nearer) and applies only the events after it. Keyframes are taken at every
phase boundary and after ``keyframe_every`` events without one, so a random jump costs fewer than
``keyframe_every`` events. States are immutable and share unchanged records, so a keyframe is
only a reference to a state computed anyway while appending, never a copy of the battle.

Every event is applied when it is appended: an event that cannot apply (unknown unit, a phase
already closed) is refused with ``ValueError`` and the log is left as it was, so a log is always
replayable from start to end.

A log read from a file can instead be built lazily (``GameLog.lazy``): the phases are indexed
from the events' (turn, side, phase) without applying anything, ``state_at`` applies (checks)
and keyframes the events only as far as it is asked, and ``validate(budget)`` checks the rest a
slice at a time (e.g. in a GUI's idle time), raising the same ``ValueError`` as the eager
constructor at the first event that cannot apply. Once checked to the end it is the same log
as an eager one: same states, same keyframes.
"""

from __future__ import annotations

import gc
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence

from psygnal import Signal

from battlestudio.model.scenario import Scenario
from battlestudio.replay.battle import Battle
from battlestudio.replay.cursor import START, Cursor, PhaseKey
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.lazy_log import LazyChecking, Seed, Segment as _Segment, phase_order_problem
from battlestudio.replay.queries import LogQueries
from battlestudio.replay.recorded import RecordedEvents
from battlestudio.replay.state import GameState


class GameLog(LogQueries, LazyChecking):
    """A game: initial state plus the append-only list of events, with random access.

    Parameters
    ----------
    initial : GameState
        the state before the first event (``GameState.from_scenario``).
    events : Iterable[BattleEvent]
        events to append at once (e.g. read from a file); each is checked as by ``append``.
    keyframe_every : int
        take a keyframe after this many events without one, even inside a long phase (≥ 1).
    cache_size : int
        how many recently computed states to keep (stepping back and forth reuses them).

    Raises
    ------
    ValueError
        if an event in ``events`` is refused (the message gives its position), or
        ``keyframe_every`` < 1.

    Queries for views (what changed, trails, events by kind or unit) come from ``LogQueries``;
    the lazy constructor and ``validate`` from ``LazyChecking``.

    Signals
    -------
    appended(int, int)
        old and new length after events were appended.
    truncated(int)
        new length after ``undo``.
    keyframe_rejected(str)
        the stored keyframe a lazy log started from did not match the replay, which replaces
        it (the text is ``keyframe_problem``): states after it may have changed.
    """

    appended = Signal(int, int)
    truncated = Signal(int)
    keyframe_rejected = Signal(str)

    def __init__(
        self,
        initial: GameState,
        events: Iterable[BattleEvent] = (),
        *,
        keyframe_every: int = 64,
        cache_size: int = 16,
    ) -> None:
        if keyframe_every < 1:
            raise ValueError(f"keyframe_every must be >= 1, got {keyframe_every}")
        self.keyframe_every = keyframe_every
        self._initial = initial
        self._events: list[BattleEvent] | RecordedEvents = []  # RecordedEvents: a lazy log of a file
        self._segments: list[_Segment] = []
        self._seg_starts: list[int] = []
        self._seg_by_key: dict[PhaseKey, int] = {}
        self._kf_pos: list[int] = [0]
        self._kf_state: list[GameState] = [initial]
        self._cache: OrderedDict[int, GameState] = OrderedDict()
        self._cache_size = max(0, cache_size)
        self._touch: dict[str, list[int]] = {}
        self._head = initial
        self._sealed = 0  # undo never goes below this position
        self._checked = 0  # events before this position were applied, keyframed and indexed by id
        self.truncations = 0
        """How many times events were taken back (``undo``): a position's event is the same as
        before while it has not changed."""
        self._front = initial  # the state at _checked
        self._failure: ValueError | None = None  # why the event at _checked cannot apply
        self._seed: Seed | None = None  # a stored keyframe not yet verified (LazyChecking)
        self.keyframe_problem = ""  # why a stored keyframe was not used or was replaced
        paused = gc.isenabled()
        gc.disable()  # a bulk load makes no cycles; the collector would only rescan the log (~10 %)
        try:
            for i, e in enumerate(events):
                try:
                    self._append(e)
                except ValueError as exc:
                    raise ValueError(f"game log event {i + 1}: {exc}") from None
        finally:
            if paused:
                gc.enable()

    @classmethod
    def from_scenario(cls, scenario: Scenario, events: Iterable[BattleEvent] = (), **kw: int) -> GameLog:
        """A log starting from ``GameState.from_scenario(scenario)``."""
        return cls(GameState.from_scenario(scenario), events, **kw)

    @classmethod
    def from_battle(cls, battle: Battle, **kw: int) -> GameLog:
        """The log of a ``Battle`` read from a file (its scenario and recorded events).

        Raises
        ------
        ValueError
            naming the first event (1-based) that cannot be replayed.
        """
        return cls.from_scenario(battle.scenario, battle.events, **kw)

    @classmethod
    def lazy_from_battle(
        cls, battle: Battle, *, use_keyframe: bool = True, keyframe_every: int = 64, cache_size: int = 16
    ) -> GameLog:
        """``GameLog.lazy`` of a ``Battle``'s scenario and recorded events, from its last stored
        keyframe (``Battle.keyframes``) when it has one that can be read (else
        ``keyframe_problem`` says why not)."""
        stored = [k for k in battle.keyframes if 0 < k.position < len(battle.events)] if use_keyframe else []
        if not stored:
            return cls.lazy(battle.scenario, battle.events, keyframe_every=keyframe_every, cache_size=cache_size)
        last = max(stored, key=lambda k: k.position)
        try:
            state = last.state()
        except ValueError as exc:
            log = cls.lazy(battle.scenario, battle.events, keyframe_every=keyframe_every, cache_size=cache_size)
            log.keyframe_problem = f"the stored keyframe at event {last.position} cannot be read ({exc}); not used"
            return log
        return cls.lazy(
            battle.scenario,
            battle.events,
            keyframe=(last.position, state),
            keyframe_every=keyframe_every,
            cache_size=cache_size,
        )

    def seat_stored_keyframe(self, battle: Battle) -> bool:
        """Run from ``battle``'s last stored keyframe (``Battle.keyframes``) when this lazy log
        of its game was made without it and nothing after the start is applied yet
        (``seat_keyframe``); True when seated. One that cannot be read is not used
        (``keyframe_problem`` says why)."""
        stored = [k for k in battle.keyframes if 0 < k.position < len(self._events)]
        if not stored or self._seed is not None or self._checked != 0:
            return False
        last = max(stored, key=lambda k: k.position)
        try:
            state = last.state()
        except ValueError as exc:
            self.keyframe_problem = f"the stored keyframe at event {last.position} cannot be read ({exc}); not used"
            return False
        return self.seat_keyframe(last.position, state)

    def _on_keyframe_rejected(self, problem: str) -> None:
        self.keyframe_rejected.emit(problem)

    # -- recording ------------------------------------------------------------------------
    def append(self, event: BattleEvent) -> Cursor:
        """Add ``event`` at the end and return its cursor.

        The event must belong to the open (last) phase or start a phase not seen before, in a
        turn not earlier than the last one.

        Raises
        ------
        ValueError
            (``EventError`` when it cannot apply) if refused; the log is unchanged.
        """
        old = len(self._events)
        self._append(event)
        self.appended.emit(old, old + 1)
        return self.cursor_at(old + 1)

    def extend(self, events: Iterable[BattleEvent]) -> None:
        """Append several events, emitting ``appended`` once.

        Raises
        ------
        ValueError
            at the first refused event; the ones before it stay appended.
        """
        old = len(self._events)
        try:
            for e in events:
                self._append(e)
        finally:
            if len(self._events) != old:
                self.appended.emit(old, len(self._events))

    def _append(self, event: BattleEvent) -> None:
        if self._checked < len(self._events):  # a lazy log: the head is needed
            self._advance(len(self._events))
        if not isinstance(event, BattleEvent):
            raise ValueError(f"not a battle event: {event!r}")
        key = PhaseKey(event.turn, event.side, event.phase)
        pos = len(self._events)
        last = self._segments[-1] if self._segments else None
        new_segment = last is None or key != last.key
        if new_segment:
            problem = phase_order_problem(
                key, lambda: event.kind, pos, last.key if last is not None else None, key in self._seg_by_key
            )
            if problem:
                raise ValueError(problem)
        head = event.apply(self._head)  # raises before anything changes
        if new_segment:
            if self._kf_pos[-1] != pos:
                self._add_keyframe(pos, self._head)
            self._seg_by_key[key] = len(self._segments)
            self._segments.append(_Segment(key, pos, pos + 1))
            self._seg_starts.append(pos)
            self._sealed = pos
        else:
            self._segments[-1].end = pos + 1
        self._events.append(event)
        self._head = self._front = head
        self._checked = pos + 1
        for node_id in dict.fromkeys(event.touched()):
            self._touch.setdefault(node_id, []).append(pos)
        if pos + 1 - self._kf_pos[-1] >= self.keyframe_every:
            self._add_keyframe(pos + 1, head)

    def _add_keyframe(self, pos: int, state: GameState) -> None:
        self._kf_pos.append(pos)
        self._kf_state.append(state)

    @property
    def undoable(self) -> int:
        """How many of the last events ``undo`` may take back: those of the open phase."""
        return len(self._events) - self._sealed

    def undo(self, count: int = 1) -> list[BattleEvent]:
        """Take back the last ``count`` events of the open phase; return them, oldest first.

        Taking back a phase's first event (undoing "next phase") makes the phase before the
        last one again: it takes new events, and its own events may be taken back in turn.

        Raises
        ------
        ValueError
            if ``count`` < 1 or more than ``undoable``.
        """
        if count < 1 or count > self.undoable:
            raise ValueError(f"can undo 1 to {self.undoable} event(s) of the open phase, not {count}")
        if self._seed is not None and len(self._events) - count < self._seed.pos:
            self._finish_seed()  # the stored keyframe is taken back: check it first
        self._advance(len(self._events))
        n = len(self._events) - count
        removed = self._events[n:]
        del self._events[n:]
        seg = self._segments[-1]
        seg.end = n
        if seg.end == seg.start:
            self._segments.pop()
            self._seg_starts.pop()
            del self._seg_by_key[seg.key]
        while self._kf_pos[-1] > n:
            self._kf_pos.pop()
            self._kf_state.pop()
        for p in [p for p in self._cache if p > n]:
            del self._cache[p]
        for e in removed:
            for node_id in dict.fromkeys(e.touched()):
                lst = self._touch.get(node_id)
                if lst is None:  # an earlier removed event touched it too and emptied its list
                    continue
                while lst and lst[-1] >= n:
                    lst.pop()
                if not lst:
                    del self._touch[node_id]
        self._sealed = self._seg_starts[-1] if self._seg_starts else 0  # the last phase is open again
        self._head = self._front = self._fold_to(n)
        self._checked = n
        self.truncations += 1
        self.truncated.emit(n)
        return removed

    # -- addressing -----------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._events)

    @property
    def events(self) -> Sequence[BattleEvent]:
        """All events, oldest first (a read-only view; do not keep it across appends)."""
        return tuple(self._events)

    @property
    def initial(self) -> GameState:
        """The state before the first event."""
        return self._initial

    @property
    def head(self) -> GameState:
        """The state after the last event (a lazy log applies what it has not yet)."""
        self._advance(len(self._events))
        return self._head

    def bounds(self) -> tuple[int, int]:
        """First and last position: ``(0, len(self))``."""
        return (0, len(self._events))

    def position(self, at: Cursor | int) -> int:
        """The position (events applied) of a cursor; an int is checked and returned.

        Raises
        ------
        ValueError
            for a position outside ``bounds()``, an unknown phase, or an index outside it.
        """
        if isinstance(at, int):
            if not 0 <= at <= len(self._events):
                raise ValueError(f"position {at} is outside the game log (0..{len(self._events)})")
            return at
        cursor = Cursor(*at)
        if cursor == START:
            return 0
        i = self._seg_by_key.get(cursor.key)
        if i is None:
            raise ValueError(f"the game log has no phase {cursor.key}")
        seg = self._segments[i]
        if not -1 <= cursor.index < seg.end - seg.start:
            raise ValueError(f"{cursor.key} has {seg.end - seg.start} events; no index {cursor.index}")
        return seg.start + cursor.index + 1

    def cursor_at(self, pos: int) -> Cursor:
        """The cursor of the last event applied at position ``pos`` (``START`` for 0).

        Raises
        ------
        ValueError
            for a position outside ``bounds()``.
        """
        self.position(pos)
        if pos == 0:
            return START
        seg = self._segments[bisect_right(self._seg_starts, pos - 1) - 1]
        return Cursor(*seg.key, pos - 1 - seg.start)

    # -- random access --------------------------------------------------------------------
    def state_at(self, at: Cursor | int) -> GameState:
        """The state after the events up to ``at`` (a cursor or a position).

        Costs the events since the nearest keyframe or cached state at or before ``at``.

        Raises
        ------
        ValueError
            as ``position``.
        """
        pos = self.position(at)
        if pos > self._checked:
            self._advance(pos)
            return self._front  # the state just computed
        if pos == len(self._events):
            return self._head
        return self._fold_to(pos)

    def _fold_to(self, pos: int) -> GameState:
        seed = self._seed
        if seed is not None and seed.checked <= pos < seed.pos:  # before a stored keyframe: replay
            self._verify_to(pos)
            if self._seed is seed:
                return seed.front
        cached = self._cache.get(pos)
        if cached is not None:
            self._cache.move_to_end(pos)
            return cached
        k = bisect_right(self._kf_pos, pos) - 1
        base_pos, state = self._kf_pos[k], self._kf_state[k]
        for p, s in self._cache.items():
            if base_pos < p <= pos:
                base_pos, state = p, s
        for e in self._events[base_pos:pos]:
            state = e.apply(state)
        if self._cache_size:
            self._cache[pos] = state
            if len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return state

    def checked_prefix(self) -> GameLog:
        """A log of the events checked so far (``validated`` of them), sharing this log's
        states and keyframes: what a view of a game still being checked can analyse. It is a
        snapshot: a separate object, so another thread may read it while this log is checked.
        """
        end = self.validated
        seed = self._seed
        out = GameLog(self._initial, keyframe_every=self.keyframe_every, cache_size=self._cache_size)
        out._events = list(self._events[:end])
        for seg in self._segments:
            if seg.start >= end:
                break
            out._seg_by_key[seg.key] = len(out._segments)
            out._segments.append(_Segment(seg.key, seg.start, min(seg.end, end)))
            out._seg_starts.append(seg.start)
        count = seed.kf_count if seed is not None else bisect_right(self._kf_pos, end)
        out._kf_pos = self._kf_pos[:count]
        out._kf_state = self._kf_state[:count]
        touch = seed.touch if seed is not None else self._touch
        out._touch = {k: [p for p in v if p < end] for k, v in touch.items()}
        out._touch = {k: v for k, v in out._touch.items() if v}
        front = seed.front if seed is not None else (self._front if self._checked == end else None)
        out._checked = end
        out._head = out._front = front if front is not None else out._fold_to(end)
        out._sealed = out._seg_starts[-1] if out._seg_starts else 0
        return out

    def keyframe_positions(self) -> list[int]:
        """Positions that hold a keyframe, ascending (0 always does)."""
        return list(self._kf_pos)

    # -- the turn → side → phase → event index --------------------------------------------
    def phases(self) -> list[PhaseKey]:
        """Every phase in the order played."""
        return [s.key for s in self._segments]

    def turns(self) -> list[int]:
        """Every turn with events, ascending."""
        return list(dict.fromkeys(s.key.turn for s in self._segments))

    def index(self) -> dict[int, dict[str, dict[str, list[BattleEvent]]]]:
        """``{turn: {side: {phase: [events]}}}``, each level in the order played."""
        out: dict[int, dict[str, dict[str, list[BattleEvent]]]] = {}
        for s in self._segments:
            t, side, phase = s.key
            out.setdefault(t, {}).setdefault(side, {})[phase] = self._events[s.start : s.end]
        return out

    def phase_range(self, key: PhaseKey | tuple[int, str, str]) -> tuple[int, int]:
        """Positions ``(start, end)`` of a phase: its events are ``events[start:end]``.

        Raises
        ------
        ValueError
            for a phase not in the log.
        """
        i = self._seg_by_key.get(PhaseKey(*key))
        if i is None:
            raise ValueError(f"the game log has no phase {PhaseKey(*key)}")
        return (self._segments[i].start, self._segments[i].end)

    def events_of(self, turn: int, side: str, phase: str) -> list[BattleEvent]:
        """The events of one phase, in order (ValueError for a phase not in the log)."""
        start, end = self.phase_range((turn, side, phase))
        return self._events[start:end]

    def iter_phases(self) -> Iterator[tuple[PhaseKey, list[BattleEvent]]]:
        """``(phase, events)`` pairs in the order played."""
        for s in self._segments:
            yield s.key, self._events[s.start : s.end]

    def phase_starts(self) -> list[int]:
        """For each phase, the position just after its first event (the phase has begun)."""
        return [s.start + 1 for s in self._segments]

    def turn_starts(self) -> list[int]:
        """For each turn, the position just after its first event."""
        out: list[int] = []
        last = None
        for s in self._segments:
            if s.key.turn != last:
                out.append(s.start + 1)
                last = s.key.turn
        return out

    def find_phase(self, turn: int, side: str | None = None, phase: str | None = None) -> PhaseKey:
        """The first phase played in ``turn`` (and ``side``, ``phase`` where given).

        Raises
        ------
        ValueError
            if no phase matches.
        """
        for s in self._segments:
            t, sd, ph = s.key
            if t == turn and (side is None or sd == side) and (phase is None or ph == phase):
                return s.key
        want = ", ".join(f"{n} {v!r}" for n, v in (("turn", turn), ("side", side), ("phase", phase)) if v is not None)
        raise ValueError(f"the game log has no phase with {want}")
