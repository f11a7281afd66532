"""Building a game log lazily: index the phases now, apply (check) the events later.

``LazyChecking`` is mixed into ``GameLog``. ``GameLog.lazy(scenario, events)`` indexes the
phases from each event's (turn, side, phase) — for a ``RecordedEvents`` read from a file,
without building the events — and applies nothing. ``_advance(p)`` applies the events up to
position ``p`` exactly as the eager constructor's appends would (same keyframes, same per-id
index), so ``state_at`` and the queries call it before reading, and ``validate(budget)`` lets a
GUI check the rest a slice at a time after its first frame. The first event that cannot apply
raises the eager constructor's ``ValueError`` ("game log event N: ...") and is remembered.

A lazy log may start from a stored keyframe (``lazy(..., keyframe=(p, state))``, the state a
``.battle`` file saved at a phase start): the events after ``p`` are applied from that state, so
the end of an unfinished game is reached without replaying the start; the events before ``p``
are replayed by ``validate`` (or as far as a jump before ``p`` needs) into the same keyframes
and id index, and at ``p`` the replayed state is compared with the stored one. A difference is
a ``keyframe_problem`` (naming the keyframe's turn, side and phase and what differs): the replay
wins, the events after ``p`` are applied again from it, and ``keyframe_rejected`` is emitted.

It uses the log's ``_events``, ``_segments``, ``_seg_starts``, ``_seg_by_key``, ``_kf_pos``,
``_kf_state``, ``_cache``, ``_touch``, ``_sealed``, ``_head``, ``keyframe_every`` and
``_add_keyframe``, and keeps ``_checked`` (events before it applied), ``_front`` (the state
there), ``_failure`` and ``_seed`` (the stored keyframe while it is not yet verified).
"""

from __future__ import annotations

import gc
from bisect import bisect_left
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial
from typing import Protocol, TypeVar
from collections.abc import Callable, Sequence

from battlestudio.model.scenario import Scenario
from battlestudio.replay.cursor import PhaseKey
from battlestudio.replay.digest import state_difference
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.recorded import RecordedEvents, heads_of
from battlestudio.replay.state import GameState


@dataclass(slots=True)
class Segment:
    """One phase in the log: its key and the positions of its events ``[start, end)``."""

    key: PhaseKey
    start: int  # position of its first event
    end: int  # one past its last event


@dataclass(slots=True)
class Seed:
    """A stored keyframe a lazy log started from, while the events before it are replayed.

    ``pos``: its position; ``state``: the stored state; ``checked``/``front``: how far the
    events before it are replayed and the state there; ``kf_count``: keyframes of ``_kf_pos``
    below ``pos`` (the initial one included); ``touch``: the id index of the replayed events;
    ``failure``: why an event before it cannot be replayed.
    """

    pos: int
    state: GameState
    front: GameState
    checked: int = 0
    kf_count: int = 1
    touch: dict[str, list[int]] = field(default_factory=dict)
    failure: ValueError | None = None


class UnreplayableEvent(ValueError):
    """Event ``number`` (1-based) of a lazily built log cannot be replayed: ``error`` says why
    (an ``EventError``, or the store's error for an event that cannot even be read)."""

    def __init__(self, number: int, error: Exception) -> None:
        super().__init__(f"game log event {number}: {error}")
        self.number = number
        self.error = error


def phase_order_problem(key: PhaseKey, kind: Callable[[], str], pos: int, last: PhaseKey | None, closed: bool) -> str:
    """Why an event may not start phase ``key`` at position ``pos`` (0-based) of a log whose
    last phase is ``last`` ("" when it may), for ``GameLog.append`` and the lazy index alike.

    Where the event before it is the likelier culprit (a damaged turn, side or phase that
    closed this one or went ahead in turns) the message names both: that event is number
    ``pos`` (1-based). ``closed``: ``key`` is a phase already in the log. ``kind`` gives the
    event's kind (called only for the message; "?" when it cannot be read).
    """

    def kind_text() -> str:
        try:
            return repr(kind())
        except ValueError:
            return "?"

    if key.turn < 1:
        return f"event {kind_text()}: turn must be >= 1, got {key.turn}"
    if last is not None and key.turn < last.turn:
        return (
            f"event {kind_text()} is in turn {key.turn}, but event {pos} before it is in turn {last.turn}; "
            "turns cannot go back"
        )
    if closed:
        return (
            f"{key} is closed (event {pos} before it is in {last}); events can only be added to the open phase "
            "or a new one"
        )
    return ""


class _LogParts(Protocol):
    """The parts of ``GameLog`` that ``LazyChecking`` reads and writes (module docstring)."""

    keyframe_every: int
    _events: list[BattleEvent] | RecordedEvents
    _segments: list[Segment]
    _seg_starts: list[int]
    _seg_by_key: dict[PhaseKey, int]
    _kf_pos: list[int]
    _touch: dict[str, list[int]]
    _sealed: int
    _head: GameState
    _checked: int
    _front: GameState
    _failure: ValueError | None
    _seed: Seed | None
    _kf_state: list[GameState]
    _cache: OrderedDict[int, GameState]
    keyframe_problem: str

    def __init__(
        self, initial: GameState, events: Iterable[BattleEvent] = (), *, keyframe_every: int = 64, cache_size: int = 16
    ) -> None: ...

    def _add_keyframe(self, pos: int, state: GameState) -> None: ...

    def _index(self, events: Sequence[BattleEvent]) -> None: ...

    def _advance(self, to: int) -> None: ...

    def _verify_to(self, to: int) -> None: ...

    def seat_keyframe(self, pos: int, state: GameState) -> bool: ...

    def _finish_seed(self) -> None: ...

    def _seed_checked(self, seed: Seed) -> None: ...

    def _on_keyframe_rejected(self, problem: str) -> None: ...


L = TypeVar("L", bound=_LogParts)


def _kind_at(events: Sequence[BattleEvent], i: int) -> str:
    return events[i].kind


class LazyChecking:
    """The lazy constructor and the checking in slices of ``GameLog`` (module docstring)."""

    __slots__ = ()
    _failure: ValueError | None  # GameLog's: why the event at _checked cannot apply
    _seed: Seed | None  # GameLog's: a stored keyframe not yet verified
    keyframe_problem: str

    @classmethod
    def lazy(
        cls: type[L],
        scenario: Scenario,
        events: Sequence[BattleEvent],
        *,
        keyframe_every: int = 64,
        cache_size: int = 16,
        keyframe: tuple[int, GameState] | None = None,
    ) -> L:
        """A log of ``events`` from ``scenario`` whose events are applied only when needed.

        The phases are indexed now from each event's (turn, side, phase) (without building a
        ``RecordedEvents``' events); ``state_at``, ``head`` and the queries apply the events as
        far as they need, and ``validate`` checks the rest in slices. ``events`` is copied
        (appending to it later does not change the log).

        ``keyframe`` ``(p, state)``: the stored state at position ``p``, which must be the start
        of a phase after the first (else it is not used and ``keyframe_problem`` says why); the
        events after ``p`` are applied from it until ``validate`` has replayed those before it
        (module docstring).

        Raises
        ------
        ValueError
            for an event out of phase order (a closed phase, a turn < 1 or going back), as the
            eager constructor does; an event that cannot apply raises later, when it is reached.
        """
        log = cls(GameState.from_scenario(scenario), (), keyframe_every=keyframe_every, cache_size=cache_size)
        paused = gc.isenabled()
        gc.disable()  # indexing makes no cycles; the collector would only rescan the events
        try:
            log._index(events)
        finally:
            if paused:
                gc.enable()
        if keyframe is not None:
            log.seat_keyframe(*keyframe)
        return log

    def seat_keyframe(self: _LogParts, pos: int, state: GameState) -> bool:
        """Run from the stored ``state`` at position ``pos`` as ``lazy(..., keyframe=(pos,
        state))`` does, when nothing after the start has been applied yet; True when seated.
        A ``pos`` that is not the start of a phase after the first is not used
        (``keyframe_problem`` says why); a log already checked past its start is left as it is."""
        if self._seed is not None or self._checked != 0 or len(self._kf_pos) != 1:
            return False
        k = bisect_left(self._seg_starts, pos)
        if 0 < pos < len(self._events) and k < len(self._seg_starts) and self._seg_starts[k] == pos:
            self._seed = Seed(pos, state, self._kf_state[0])
            self._kf_pos.append(pos)
            self._kf_state.append(state)
            self._checked, self._front = pos, state
            return True
        self.keyframe_problem = (
            f"the stored keyframe at event {pos} is not at the start of a phase of this game; not used"
        )
        return False

    def _index(self: _LogParts, events: Sequence[BattleEvent]) -> None:
        try:
            heads = heads_of(events)
        except ValueError as exc:
            raise ValueError(f"game log event {len(self._events) + 1}: {exc}") from None
        seq = events.copy() if isinstance(events, RecordedEvents) else list(events)
        last: tuple[int, str, str] | None = None
        for i, head in enumerate(heads):
            if head == last:
                continue
            key = PhaseKey(*head)
            problem = phase_order_problem(
                key,
                partial(_kind_at, seq, i),
                i,
                self._segments[-1].key if self._segments else None,
                key in self._seg_by_key,
            )
            if problem:
                raise ValueError(f"game log event {i + 1}: {problem}")
            if self._segments:
                self._segments[-1].end = i
            self._seg_by_key[key] = len(self._segments)
            self._segments.append(Segment(key, i, i + 1))
            self._seg_starts.append(i)
            last = head
        if self._segments:
            self._segments[-1].end = len(seq)
            self._sealed = self._segments[-1].start
        self._events = seq

    # -- checking a lazy log ----------------------------------------------------------------
    @property
    def validated(self: _LogParts) -> int:
        """Position up to which the events have been applied and checked (``len`` when all);
        while a stored keyframe is being verified, how far the events before it are."""
        return self._seed.checked if self._seed is not None else self._checked

    @property
    def verifying_keyframe(self: _LogParts) -> bool:
        """True while the log runs from a stored keyframe not yet checked against a replay."""
        return self._seed is not None

    @property
    def unverified_until(self: _LogParts) -> int:
        """The stored keyframe's position while the log runs from it unverified (states before
        it cost a replay until ``validate`` gets there); 0 otherwise."""
        return self._seed.pos if self._seed is not None else 0

    def validate(self: _LogParts, budget: int | None = None) -> bool:
        """Check (apply and keyframe) up to ``budget`` more events; True when all are checked.

        A stored keyframe's events are checked first (module docstring): reaching it compares
        the replayed state with the stored one.

        Raises
        ------
        UnreplayableEvent
            (a ``ValueError``) naming the first event (1-based) that cannot be replayed, as the
            eager constructor; raised again on every later call.
        """
        n = len(self._events)
        seed = self._seed
        if seed is not None:
            self._verify_to(seed.pos if budget is None else min(seed.pos, seed.checked + max(1, budget)))
            if self._seed is not None:
                return False
            if budget is not None:
                return self._checked == n  # the rest in the next slices
        self._advance(n if budget is None else min(n, self._checked + max(1, budget)))
        return self._checked == n

    def _verify_to(self: _LogParts, to: int) -> None:
        """Replay the events before the stored keyframe up to ``to`` (at most its position):
        keyframes and id index as ``_advance``; at the keyframe, compare (``_seed_checked``)."""
        seed = self._seed
        if seed is None or to <= seed.checked:
            return
        if seed.failure is not None:
            raise seed.failure
        to = min(to, seed.pos)
        pos, state = seed.checked, seed.front
        starts, kf_pos, kf_state, touch, every = (
            self._seg_starts,
            self._kf_pos,
            self._kf_state,
            seed.touch,
            self.keyframe_every,
        )
        k = bisect_left(starts, pos)
        events = self._events
        paused = gc.isenabled()
        gc.disable()  # as in __init__
        try:
            while pos < to:
                if k < len(starts) and starts[k] == pos:
                    if kf_pos[seed.kf_count - 1] != pos:
                        kf_pos.insert(seed.kf_count, pos)
                        kf_state.insert(seed.kf_count, state)
                        seed.kf_count += 1
                    k += 1
                try:
                    e = events[pos]
                    state = e.apply(state)
                except ValueError as exc:
                    seed.failure = UnreplayableEvent(pos + 1, exc)
                    raise seed.failure from None
                for node_id in dict.fromkeys(e.touched()):
                    touch.setdefault(node_id, []).append(pos)
                pos += 1
                if pos - kf_pos[seed.kf_count - 1] >= every and pos < seed.pos:
                    kf_pos.insert(seed.kf_count, pos)
                    kf_state.insert(seed.kf_count, state)
                    seed.kf_count += 1
        finally:
            seed.checked, seed.front = pos, state
            if paused:
                gc.enable()
        if pos == seed.pos:
            self._seed_checked(seed)

    def _seed_checked(self: _LogParts, seed: Seed) -> None:
        """The events before the stored keyframe are replayed: compare, merge the id index; on
        a difference the replayed state replaces the keyframe and the rest is applied again."""
        self._seed = None
        differs = state_difference(seed.front, seed.state)
        if not differs:
            for node_id, early in seed.touch.items():
                self._touch[node_id] = early + self._touch.get(node_id, [])
            return
        at = self._segments[bisect_left(self._seg_starts, seed.pos)].key  # the phase it opens
        self.keyframe_problem = (
            f"the keyframe saved at the start of turn {at.turn}, {at.side} {at.phase} (event {seed.pos + 1}) does not "
            f"match the replayed game ({differs} differs); the replay is used"
        )
        i = seed.kf_count  # the stored keyframe's index in _kf_pos
        self._kf_state[i] = seed.front
        del self._kf_pos[i + 1 :]
        del self._kf_state[i + 1 :]
        self._cache.clear()
        self._touch = seed.touch  # the later events are indexed again as they are applied again
        self._checked, self._front, self._failure = seed.pos, seed.front, None
        self._on_keyframe_rejected(self.keyframe_problem)

    def _finish_seed(self: _LogParts) -> None:
        """Verify the stored keyframe now (before an undo below it)."""
        if self._seed is not None:
            self._verify_to(self._seed.pos)

    def _touching(self: _LogParts, node_id: str, lo: int, hi: int) -> list[int]:
        """Positions of the events naming ``node_id``, indexed at least over ``[lo, hi)`` (the
        tail already applied to ``hi`` by the caller)."""
        seed = self._seed
        if seed is not None and lo < seed.pos:
            self._verify_to(min(hi, seed.pos))
            seed = self._seed
        if seed is not None:
            return seed.touch.get(node_id, []) + self._touch.get(node_id, [])
        return self._touch.get(node_id, [])

    def _advance(self: _LogParts, to: int) -> None:
        """Apply the events from ``_checked`` to ``to``: keyframes, id index, head at the end."""
        if to <= self._checked:
            return
        if self._failure is not None:
            raise self._failure
        pos, state = self._checked, self._front
        starts, kf_pos, touch, every = self._seg_starts, self._kf_pos, self._touch, self.keyframe_every
        k = bisect_left(starts, pos)
        events = self._events
        paused = gc.isenabled()
        gc.disable()  # as in __init__
        try:
            while pos < to:
                if k < len(starts) and starts[k] == pos:
                    if kf_pos[-1] != pos:
                        self._add_keyframe(pos, state)
                    k += 1
                try:
                    e = events[pos]
                    state = e.apply(state)
                except ValueError as exc:
                    self._failure = UnreplayableEvent(pos + 1, exc)
                    raise self._failure from None
                for node_id in dict.fromkeys(e.touched()):
                    touch.setdefault(node_id, []).append(pos)
                pos += 1
                if pos - kf_pos[-1] >= every:
                    self._add_keyframe(pos, state)
        finally:
            self._checked, self._front = pos, state
            if pos == len(events):
                self._head = state
            if paused:
                gc.enable()
