"""RecordedEvents: the events of a file, each built the first time it is read.

Opening a large recorded game should not build tens of thousands of event objects before the
first frame (a phase is replayed long after it is read, or never). The store hands the events
over as rows: the place of each event (turn, side, phase), checked when the file is read, and
its raw payload with a ``build`` function that checks and builds the event object when it is
first asked for, raising an error that names the file, row and column (``store``'s
``BattleFileError``, a ``ValueError``).

``RecordedEvents`` is a ``MutableSequence`` of ``BattleEvent`` (what ``Battle.events`` holds):
appending, taking back the last events and equality with a list behave as on a list. Copies
(``copy``) share the rows and every event already built (events are immutable), so a game log
and its battle never build the same event twice.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import Any, overload
from collections.abc import Callable, Iterable, Iterator, Sequence

from battlestudio.replay.events import BattleEvent

Head = tuple[int, str, str]
"""An event's place: ``(turn, side, phase)``."""


class _Rows:
    """Rows shared by the copies of one ``RecordedEvents``: places, raw payloads, built events."""

    __slots__ = ("heads", "raw", "built", "build")

    def __init__(self, heads: list[Head], raw: list[Any], build: Callable[[int, Any], BattleEvent]) -> None:
        self.heads = heads
        self.raw = raw
        self.built: list[BattleEvent | None] = [None] * len(heads)
        self.build = build

    def get(self, i: int) -> BattleEvent:
        e = self.built[i]
        if e is None:
            e = self.build(i, self.raw[i])  # raises before anything is kept
            self.built[i] = e
            self.raw[i] = None  # the payload text is not needed any more
        return e


class RecordedEvents(MutableSequence[BattleEvent]):
    """Events read from a file (built on first access), then any appended (see module docstring).

    Parameters
    ----------
    heads : list[tuple[int, str, str]]
        ``(turn, side, phase)`` of each recorded event, in log order.
    raw : list
        what ``build`` needs to build each event (e.g. its row's kind and payload text).
    build : Callable[[int, Any], BattleEvent]
        builds event ``i`` from ``raw[i]``; raises ``ValueError`` (naming the file and row)
        when the row holds a bad value.

    Raises
    ------
    ValueError
        from ``build``, on any access that builds a bad event (indexing, iterating, comparing).
    """

    __slots__ = ("_rows", "_n", "_tail")
    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    def __init__(self, heads: list[Head], raw: list[Any], build: Callable[[int, Any], BattleEvent]) -> None:
        if len(heads) != len(raw):
            raise ValueError(f"{len(heads)} event places for {len(raw)} rows")
        self._rows = _Rows(heads, raw, build)
        self._n = len(heads)  # the first _n rows are in this sequence
        self._tail: list[BattleEvent] = []  # events appended after them

    # -- reading without building ---------------------------------------------------------------
    def heads(self) -> list[Head]:
        """``(turn, side, phase)`` of every event, without building any."""
        out = self._rows.heads[: self._n]
        out.extend((e.turn, e.side, e.phase) for e in self._tail)
        return out

    def head_at(self, i: int) -> Head:
        """``(turn, side, phase)`` of event ``i`` (negative from the end), without building it.

        Raises
        ------
        IndexError
            when there is no event ``i``.
        """
        n = len(self)
        if not -n <= i < n:
            raise IndexError(f"event {i} of {n}")
        i %= n
        if i < self._n:
            return self._rows.heads[i]
        e = self._tail[i - self._n]
        return (e.turn, e.side, e.phase)

    def built_count(self) -> int:
        """How many of the recorded rows have been built so far (for tests and benchmarks)."""
        return sum(e is not None for e in self._rows.built[: self._n])

    def build_all(self) -> None:
        """Build every event now (raises as ``build`` at the first bad one)."""
        get = self._rows.get
        for i in range(self._n):
            get(i)

    def raw_row(self, i: int) -> Any:
        """What ``build`` is given for recorded event ``i`` (a file's raw row) while it is not
        built — e.g. because it cannot be: a save copies such a row as it is. None once built,
        and for appended events."""
        return self._rows.raw[i] if 0 <= i < self._n and self._rows.built[i] is None else None

    def unreadable(self) -> list[tuple[int, ValueError]]:
        """``(position, error)`` of every recorded event that cannot be built (building the
        others; an empty list when all can)."""
        out = []
        get = self._rows.get
        for i in range(self._n):
            try:
                get(i)
            except ValueError as exc:
                out.append((i, exc))
        return out

    def copy(self) -> RecordedEvents:
        """A new sequence with the same events, sharing the rows and the events built."""
        out = RecordedEvents.__new__(RecordedEvents)
        out._rows, out._n, out._tail = self._rows, self._n, list(self._tail)
        return out

    # -- the sequence ---------------------------------------------------------------------------
    def __len__(self) -> int:
        return self._n + len(self._tail)

    def _one(self, i: int) -> BattleEvent:
        return self._rows.get(i) if i < self._n else self._tail[i - self._n]

    @overload
    def __getitem__(self, index: int) -> BattleEvent: ...
    @overload
    def __getitem__(self, index: slice) -> list[BattleEvent]: ...

    def __getitem__(self, index: int | slice) -> BattleEvent | list[BattleEvent]:
        n = len(self)
        if isinstance(index, slice):
            return [self._one(i) for i in range(*index.indices(n))]
        i = index.__index__()
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("event index out of range")
        return self._one(i)

    def __iter__(self) -> Iterator[BattleEvent]:
        i = 0
        while i < len(self):
            yield self._one(i)
            i += 1

    def _as_list(self) -> None:
        """Build everything and keep it as a plain list (for edits that are not at the end)."""
        if self._n:
            self._tail = [self._rows.get(i) for i in range(self._n)] + self._tail
            self._n = 0

    def __setitem__(self, index: Any, value: Any) -> None:
        self._as_list()
        self._tail[index] = value

    def __delitem__(self, index: int | slice) -> None:
        n = len(self)
        if isinstance(index, slice):
            start, stop, step = index.indices(n)
            if step == 1 and stop >= n and start < n:  # taking back the last events
                if start >= self._n:
                    del self._tail[start - self._n :]
                else:
                    self._n, self._tail = start, []
                return
            if step == 1 and start >= stop:
                return
        else:
            i = index.__index__() + (n if index.__index__() < 0 else 0)
            if i == n - 1 and n:
                del self[i:]
                return
        self._as_list()
        del self._tail[index]

    def insert(self, index: int, value: BattleEvent) -> None:
        if index >= len(self):
            self._tail.append(value)
            return
        self._as_list()
        self._tail.insert(index, value)

    def append(self, value: BattleEvent) -> None:
        self._tail.append(value)

    def extend(self, values: Iterable[BattleEvent]) -> None:
        self._tail.extend(values)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (list, tuple, RecordedEvents)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))
        return NotImplemented

    def __repr__(self) -> str:
        return f"RecordedEvents({len(self)} events, {self.built_count()} of {self._n} read built)"


def heads_of(events: Sequence[BattleEvent]) -> list[Head]:
    """``(turn, side, phase)`` of each event: without building them for ``RecordedEvents``.

    Raises
    ------
    ValueError
        for an item that is not a ``BattleEvent``.
    """
    if isinstance(events, RecordedEvents):
        return events.heads()
    out = []
    for e in events:
        if not isinstance(e, BattleEvent):
            raise ValueError(f"not a battle event: {e!r}")
        out.append((e.turn, e.side, e.phase))
    return out
