"""ChunkedMap: an immutable mapping that shares structure between versions.

A game state is replaced by a new one after every event, and most events change one record of
thousands. Copying the whole ``units`` dict each time makes applying an event cost O(units) and
keyframes cost O(units) each; ``ChunkedMap`` instead keeps the records in chunks of
``CHUNK`` entries and a new version copies only the list of chunks and the one chunk that
changed, so an update costs O(units / CHUNK + CHUNK) pointer copies (about 2 µs at 10,000
units) and two versions share every chunk they did not change.

Each key gets a *slot* the first time any version sees it; slots are assigned in insertion
order and kept in an index shared by every version derived from the same map (append-only, so
one version's new key is invisible to the others). Iteration walks the chunks in slot order,
so it follows insertion order like a dict: deterministic, never hash order. A key deleted and
added again returns to its old slot (a dict would move it to the end).

Two versions of one lineage can be compared chunk by chunk (``changed_keys``): chunks that are
the same object are skipped, so finding what one step changed costs O(units / CHUNK).
"""

from __future__ import annotations

from collections.abc import ItemsView, KeysView, Mapping, ValuesView
from typing import Any, Iterable, Iterator, TypeVar

V = TypeVar("V")

SHIFT = 6
CHUNK = 1 << SHIFT
"""Entries per chunk (64)."""


class ChunkedMap(Mapping[str, V]):
    """An immutable ``Mapping[str, V]`` whose updates return new maps sharing unchanged chunks.

    Build one with ``ChunkedMap.from_mapping`` (or ``ChunkedMap()`` for an empty map); derive
    new versions with ``set``, ``set_many`` and ``delete``. Reads (``m[k]``, ``get``, ``in``,
    ``len``, iteration, ``keys``/``values``/``items``) behave as on a dict; equality compares
    contents with any mapping.
    """

    __slots__ = ("_index", "_chunks", "_len")

    def __init__(self) -> None:
        self._index: dict[str, int] = {}
        self._chunks: list[dict[str, V] | None] = []
        self._len = 0

    @classmethod
    def from_mapping(cls, mapping: Mapping[str, V] | Iterable[tuple[str, V]]) -> "ChunkedMap[V]":
        """A new lineage holding ``mapping``'s items in its iteration order (O(n))."""
        items = mapping.items() if isinstance(mapping, Mapping) else mapping
        out: ChunkedMap[V] = cls()
        index, chunks = out._index, out._chunks
        for key, value in items:
            slot = index.get(key)
            if slot is None:
                slot = index[key] = len(index)
            c = slot >> SHIFT
            while len(chunks) <= c:
                chunks.append(None)
            chunk = chunks[c]
            if chunk is None:
                chunk = chunks[c] = {}
            chunk[key] = value
        out._len = sum(len(ch) for ch in chunks if ch)
        return out

    def _derive(self, chunks: list[dict[str, V] | None], length: int) -> "ChunkedMap[V]":
        out: ChunkedMap[V] = ChunkedMap.__new__(ChunkedMap)
        out._index = self._index
        out._chunks = chunks
        out._len = length
        return out

    # -- reading --------------------------------------------------------------------------
    def __getitem__(self, key: str) -> V:
        slot = self._index.get(key)
        if slot is not None:
            c = slot >> SHIFT
            if c < len(self._chunks):
                chunk = self._chunks[c]
                if chunk is not None and key in chunk:
                    return chunk[key]
        raise KeyError(key)

    def get(self, key: str, default: Any = None) -> Any:
        slot = self._index.get(key)
        if slot is None:
            return default
        c = slot >> SHIFT
        if c >= len(self._chunks):
            return default
        chunk = self._chunks[c]
        return default if chunk is None else chunk.get(key, default)

    def __contains__(self, key: object) -> bool:
        slot = self._index.get(key)  # type: ignore[call-overload]
        if slot is None:
            return False
        c = slot >> SHIFT
        return c < len(self._chunks) and self._chunks[c] is not None and key in self._chunks[c]  # type: ignore[operator]

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[str]:
        for chunk in self._chunks:
            if chunk:
                yield from chunk

    def keys(self) -> KeysView[str]:
        return KeysView(self)

    def values(self) -> ValuesView[V]:
        return _Values(self)

    def items(self) -> ItemsView[str, V]:
        return _Items(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ChunkedMap) and other._chunks is self._chunks:
            return True
        if not isinstance(other, Mapping):
            return NotImplemented
        if len(other) != self._len:
            return False
        return dict(self.items()) == dict(other.items())

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ChunkedMap({dict(self.items())!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (ChunkedMap.from_mapping, (list(self.items()),))

    # -- new versions ---------------------------------------------------------------------
    def set(self, key: str, value: V) -> "ChunkedMap[V]":
        """A new map with ``key`` bound to ``value`` (added at the end if new)."""
        index = self._index
        slot = index.get(key)
        if slot is None:
            slot = index[key] = len(index)
        c = slot >> SHIFT
        chunks = self._chunks.copy()
        if c >= len(chunks):
            chunks.extend([None] * (c + 1 - len(chunks)))
        old = chunks[c]
        if old is None:
            chunks[c] = {key: value}
            return self._derive(chunks, self._len + 1)
        chunk = old.copy()
        length = self._len if key in old else self._len + 1
        chunk[key] = value
        chunks[c] = chunk
        return self._derive(chunks, length)

    def set_many(self, items: Iterable[tuple[str, V]]) -> "ChunkedMap[V]":
        """A new map with every ``(key, value)`` bound; each touched chunk is copied once."""
        chunks = list(self._chunks)
        copied: set[int] = set()
        length = self._len
        index = self._index
        for key, value in items:
            slot = index.get(key)
            if slot is None:
                slot = index[key] = len(index)
            c = slot >> SHIFT
            if c not in copied:
                while len(chunks) <= c:
                    chunks.append(None)
                old = chunks[c]
                chunks[c] = {} if old is None else old.copy()
                copied.add(c)
            chunk = chunks[c]
            if key not in chunk:  # type: ignore[operator]
                length += 1
            chunk[key] = value  # type: ignore[index]
        return self._derive(chunks, length)

    def delete(self, key: str) -> "ChunkedMap[V]":
        """A new map without ``key``.

        Raises
        ------
        KeyError
            if ``key`` is not in the map.
        """
        if key not in self:
            raise KeyError(key)
        c = self._index[key] >> SHIFT
        chunks = list(self._chunks)
        chunk = chunks[c].copy()  # type: ignore[union-attr]
        del chunk[key]
        chunks[c] = chunk
        return self._derive(chunks, self._len - 1)

    # -- comparing versions ---------------------------------------------------------------
    def changed_keys(self, other: Mapping[str, V]) -> set[str]:
        """Keys whose value is not the very same object in ``other`` (added, removed or replaced).

        Costs O(n / CHUNK) plus the changed chunks when ``other`` is of the same lineage (a
        version derived from the same ``from_mapping``); O(n) otherwise.
        """
        if not isinstance(other, ChunkedMap) or other._index is not self._index:
            keys = set(self) | set(other)
            return {k for k in keys if self.get(k, _MISSING) is not other.get(k, _MISSING)}
        out: set[str] = set()
        mine, theirs = self._chunks, other._chunks
        for c in range(max(len(mine), len(theirs))):
            a = mine[c] if c < len(mine) else None
            b = theirs[c] if c < len(theirs) else None
            if a is b:
                continue
            a = a or {}
            b = b or {}
            for k in a.keys() | b.keys():
                if a.get(k, _MISSING) is not b.get(k, _MISSING):
                    out.add(k)
        return out


_MISSING = object()


class _Values(ValuesView):
    __slots__ = ()

    def __iter__(self) -> Iterator[Any]:
        for chunk in self._mapping._chunks:
            if chunk:
                yield from chunk.values()


class _Items(ItemsView):
    __slots__ = ()

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        for chunk in self._mapping._chunks:
            if chunk:
                yield from chunk.items()
