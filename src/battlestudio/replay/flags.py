"""FlagMap: a game state's ruleset flags as an immutable mapping whose updates do not copy it.

An event that sets or clears one flag (a combat mark, a command state, order capacity spent)
used to copy every flag of the game; a ``FlagMap`` keeps a shared ``base`` dict and a small
overlay of what changed since, and folds the overlay into a new base only when it has grown
to a fraction of the base, so one update costs O(overlay), amortised O(1) per flag changed.

Reading, iteration order and equality are exactly those of the dict the old way built:
``flags = dict(old); flags[k] = v`` keeps an existing key in its place and appends a new one;
``flags.pop(k)`` removes it, and a key set again after removal goes to the end.
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterable, Iterator, Mapping
from typing import Any

_GONE = object()
COMPACT_MIN = 64
"""Overlay entries a ``FlagMap`` keeps before folding them into a new base at the least."""


class FlagMap(Mapping[str, Any]):
    """An immutable ``Mapping[str, Any]`` of flags; ``updated`` returns a new version.

    ``base`` is never mutated; ``replaced`` holds new values of base keys still in their place,
    ``removed`` the base keys taken out (and maybe appended again to ``tail``), ``tail`` the
    keys after the base in their order.
    """

    __slots__ = ("_base", "_replaced", "_removed", "_tail", "_len", "_prefixed")

    def __init__(self, base: Mapping[str, Any] | None = None) -> None:
        self._base: dict[str, Any] = dict(base or {})
        self._replaced: dict[str, Any] = {}
        self._removed: frozenset[str] = frozenset()
        self._tail: dict[str, Any] = {}
        self._len = len(self._base)
        self._prefixed: dict[str, frozenset[str]] = {}

    @classmethod
    def of(cls, flags: Mapping[str, Any]) -> FlagMap:
        """``flags`` itself when it is a ``FlagMap``, else a new one holding its items."""
        return flags if isinstance(flags, FlagMap) else cls(flags)

    def _value(self, key: object) -> Any:
        tail = self._tail
        if key in tail:
            return tail[key]
        if key in self._removed:
            return _GONE
        replaced = self._replaced
        if key in replaced:
            return replaced[key]
        return self._base.get(key, _GONE)  # type: ignore[call-overload]

    def __getitem__(self, key: str) -> Any:
        v = self._value(key)
        if v is _GONE:
            raise KeyError(key)
        return v

    def get(self, key: str, default: Any = None) -> Any:
        v = self._value(key)
        return default if v is _GONE else v

    def __contains__(self, key: object) -> bool:
        return self._value(key) is not _GONE

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[str]:
        removed = self._removed
        if removed:
            yield from (k for k in self._base if k not in removed)
        else:
            yield from self._base
        yield from self._tail

    def items(self) -> Any:
        if not (self._replaced or self._removed or self._tail):
            return self._base.items()
        return _Items(self)

    def keys_with_prefix(self, prefix: str) -> frozenset[str]:
        """The keys that start with ``prefix``; kept with the version and carried to the next
        ones, which rescan only the keys they change, so a lookup does not read every flag."""
        hit = self._prefixed.get(prefix)
        if hit is None:
            hit = frozenset(k for k in self if k.startswith(prefix))
            self._prefixed = {**self._prefixed, prefix: hit}
        return hit

    def __repr__(self) -> str:
        return f"FlagMap({dict(self.items())!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (FlagMap, (dict(self.items()),))

    def updated(self, values: Mapping[str, Any] | None = None, remove: Iterable[str] = ()) -> FlagMap:
        """A new version with the keys of ``remove`` taken out (absent ones ignored), then
        ``values``' items bound, as ``dict`` pop and assignment would."""
        remove = tuple(remove)
        replaced = dict(self._replaced)
        set_: set[str] | None = None
        tail = dict(self._tail)
        length = self._len
        base = self._base
        gone = self._removed
        for k in remove:
            if k in tail:
                del tail[k]
                length -= 1
            elif k in base and k not in gone:
                if set_ is None:
                    set_ = set(gone)
                if k not in set_:
                    set_.add(k)
                    replaced.pop(k, None)
                    length -= 1
        if set_ is not None:
            gone = frozenset(set_)
        for k, v in (values or {}).items():
            if k in tail:
                tail[k] = v
            elif k in base and k not in gone:
                replaced[k] = v
            else:
                tail[k] = v
                length += 1
        out = FlagMap.__new__(FlagMap)
        out._base = base
        out._replaced = replaced
        out._removed = gone
        out._tail = tail
        out._len = length
        out._prefixed = self._prefixed
        if self._prefixed:
            touched = [*remove, *(values or {})]
            for p, keys in self._prefixed.items():
                hit = [k for k in touched if k.startswith(p)]
                if hit:
                    out._prefixed = dict(out._prefixed)
                    out._prefixed[p] = frozenset(k for k in keys | set(hit) if out._value(k) is not _GONE)
        if len(replaced) + len(gone) + len(tail) > max(COMPACT_MIN, len(base) >> 3):
            out._base = dict(out.items())
            out._replaced, out._removed, out._tail = {}, frozenset(), {}
        return out


def flags_with(
    flags: Mapping[str, Any], values: Mapping[str, Any] | None = None, remove: Iterable[str] = ()
) -> FlagMap:
    """``flags`` (any mapping) with ``remove`` popped and ``values`` bound, as a ``FlagMap``."""
    return FlagMap.of(flags).updated(values, remove)


class _Items(ItemsView[str, Any]):
    """``FlagMap.items()`` with an overlay: the base's items read once, not key by key."""

    __slots__ = ()
    _mapping: FlagMap

    def __iter__(self) -> Iterator[tuple[str, Any]]:
        m = self._mapping
        removed, replaced = m._removed, m._replaced  # noqa: SLF001
        if not removed and not replaced:
            yield from m._base.items()  # noqa: SLF001
        else:
            for k, v in m._base.items():  # noqa: SLF001
                if k in removed:
                    continue
                yield (k, replaced[k]) if k in replaced else (k, v)
        yield from m._tail.items()  # noqa: SLF001
