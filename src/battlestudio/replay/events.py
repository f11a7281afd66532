"""Battle events: frozen records of what happened, each able to apply itself to a state.

Every event class registers under its ``kind`` string, so the store can save any event as
``(kind, payload)`` and read it back with ``event_from_dict`` without knowing the classes.
Field values must be JSON-compatible (str, int, float, bool, None, lists/tuples, dicts);
points are ``(x, y)`` tuples in table cm.

Concrete event types are added in this module (or modules it imports) with ``@register``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

_REGISTRY: dict[str, type["BattleEvent"]] = {}

E = TypeVar("E", bound="BattleEvent")


def register(cls: type[E]) -> type[E]:
    """Class decorator: make ``cls`` loadable by its ``kind``.

    Raises
    ------
    ValueError
        if another class already registered the same kind.
    """
    kind = cls.kind
    if kind in _REGISTRY and _REGISTRY[kind] is not cls:
        raise ValueError(f"event kind {kind!r} registered twice")
    _REGISTRY[kind] = cls
    return cls


def event_kinds() -> dict[str, type["BattleEvent"]]:
    """Every registered event kind → class."""
    return dict(_REGISTRY)


@dataclass(frozen=True, slots=True)
class BattleEvent:
    """Base of all battle events.

    Attributes
    ----------
    turn : int
        game turn, 1-based.
    side : str
        id of the active side in whose player-turn it happened ("" for both/none).
    phase : str
        the ruleset's phase id.
    """

    kind: ClassVar[str] = "event"

    turn: int
    side: str
    phase: str

    def apply(self, state: Any) -> Any:
        """Return the state after this event; the base event changes nothing."""
        return state

    def to_dict(self) -> dict[str, Any]:
        """``{"kind": ..., field: value, ...}`` with tuples turned into lists."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    if isinstance(value, dict):
        return {k: _tupled(v) for k, v in value.items()}
    return value


def event_from_dict(data: dict[str, Any]) -> BattleEvent:
    """Rebuild an event from ``to_dict`` output. Lists become tuples.

    Raises
    ------
    ValueError
        for an unknown kind or fields the kind does not have / lacks.
    """
    kind = data.get("kind")
    cls = _REGISTRY.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise ValueError(f"unknown event kind {kind!r}; known: {', '.join(sorted(_REGISTRY))}")
    names = {f.name for f in dataclasses.fields(cls)}
    given = {k: _tupled(v) for k, v in data.items() if k != "kind"}
    extra = set(given) - names
    if extra:
        raise ValueError(f"event {kind!r} has no field(s) {', '.join(sorted(extra))}")
    try:
        return cls(**given)
    except TypeError as exc:
        raise ValueError(f"event {kind!r}: {exc}") from None


register(BattleEvent)
