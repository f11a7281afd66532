"""Battle events: frozen records of what happened, each able to apply itself to a state.

Every event class registers under its ``kind`` string, so the store can save any event as
``(kind, payload)`` and read it back with ``event_from_dict`` without knowing the classes.
Field values must be JSON-compatible (str, int, float, bool, None, lists/tuples, dicts);
points are ``(x, y)`` tuples in table cm.

Concrete event types live in ``flow_events`` (phases, movement, arrivals, annotations),
``combat_events`` (fire, melee, morale, casualties, ammunition) and ``order_events`` (orders and
the chain of command); ``import battlestudio.replay`` registers them all. A ruleset's own event
types (``Ruleset.event_types``) are registered by the ruleset registry when it loads the
ruleset; the store has it load every installed one (``rules.load_event_types``) before it
decodes a file.
"""

from __future__ import annotations

import dataclasses
import math
import sys
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

_REGISTRY: dict[str, type[BattleEvent]] = {}

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


def event_kinds() -> dict[str, type[BattleEvent]]:
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

    def touched(self) -> tuple[str, ...]:
        """Ids of the units and commanders this event concerns (for highlighting); none here."""
        return ()

    def positions_of(self, node_id: str) -> tuple[tuple[float, float], ...]:
        """Points (cm) this event moves ``node_id`` through, last one where it ends; none here."""
        return ()

    def where(self) -> str:
        """``"turn T, side S, phase P"``: the place in the game log, for error messages."""
        return f"turn {self.turn}, side {self.side or '-'}, phase {self.phase or '-'}"

    def to_dict(self) -> dict[str, Any]:
        """``{"kind": ..., field: value, ...}`` with tuples turned into lists."""
        out: dict[str, Any] = {"kind": self.kind}
        for f in dataclasses.fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


class EventError(ValueError):
    """An event cannot apply to the state it meets (unknown id, impossible value)."""

    def __init__(self, event: BattleEvent, message: str) -> None:
        super().__init__(f"event {event.kind!r} ({event.where()}): {message}")
        self.event = event


def json_value(value: Any) -> Any:
    """``value`` as ``event_from_dict`` would give it back: lists become tuples, dict keys str.

    Event constructors pass JSON-like fields through this so a built event equals its
    round trip through ``to_dict``/``event_from_dict``.
    """
    return _tupled(_plain(value))


def _plain(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    return value


def _tupled(value: Any) -> Any:
    # the scalars of a list or dict are kept without a call each (points are lists of numbers)
    if isinstance(value, list):
        return tuple([_tupled(v) if isinstance(v, (list, dict)) else v for v in value])
    if isinstance(value, dict):
        return {k: _tupled(v) if isinstance(v, (list, dict)) else v for k, v in value.items()}
    return value


_SHARED_TEXT = 40
"""Text fields of at most this many characters (ids, sides, phases) are read as one shared
string each (``sys.intern``): half a million events read from a file name the same few
thousand ids."""
_Spec = tuple[
    frozenset[str], tuple[str, ...], tuple[str, ...], tuple[tuple[str, bool], ...], tuple[tuple[str, bool], ...]
]
_SPECS: dict[type, _Spec] = {}
"""Per event class, what ``event_from_dict`` checks (``dataclasses.fields`` is slow to call once
per event read): its field names; those declared ``str`` (a value read for one must be a text:
an id given as a list would otherwise be carried into the replay and its messages); those
declared ``Point`` or ``Point | None`` (a pair of numbers); those declared ``Mapping[...]`` with
whether None is allowed; those declared ``int`` or ``float`` with whether they must be whole."""


def _spec_of(cls: type) -> _Spec:
    fs = dataclasses.fields(cls)
    spec = (
        frozenset(f.name for f in fs),
        tuple(f.name for f in fs if f.type in ("str", str)),
        tuple(f.name for f in fs if f.type in ("Point", "Point | None")),
        tuple((f.name, "None" in str(f.type)) for f in fs if str(f.type).startswith("Mapping[")),
        tuple((f.name, f.type in ("int", int)) for f in fs if f.type in ("int", "float", int, float)),
    )
    _SPECS[cls] = spec
    return spec


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


"""Per event class, its fields declared ``str``: a value read for one must be a text (an id
given as a list would otherwise be carried into the replay and its messages)."""
"""Field names per event class (``dataclasses.fields`` is slow to call once per event read)."""


_NUMBER_FIELDS: dict[type, dict[str, Any]] = {}


def _what(value: Any) -> str:
    """``value`` as a message says what was found instead: "nothing", "a list", "a text", …"""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a yes/no)"
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, str):
        return f"the text {_short(value)}"
    return _short(value)


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
    spec = _SPECS.get(cls)
    names, texts, points, mappings, numbers = _spec_of(cls) if spec is None else spec
    given = {k: _tupled(v) if isinstance(v, (list, dict)) else v for k, v in data.items()}
    del given["kind"]
    if not names.issuperset(given):
        extra = given.keys() - names
        raise ValueError(f"event {kind!r} has no field(s) {', '.join(sorted(extra))}")
    for k in points:
        v = given.get(k)
        if v is not None and not (
            isinstance(v, tuple)
            and len(v) == 2
            and all(isinstance(c, int | float) and not isinstance(c, bool) for c in v)
        ):
            raise ValueError(f"event {kind!r}: field {k}: expected a point [x, y] in cm, got {_short(data[k])}")
    for k, optional in mappings:
        if k in given and not isinstance(given[k], dict) and not (optional and given[k] is None):
            raise ValueError(f"event {kind!r}: field {k}: expected an object {{...}}, got {_what(data[k])}")
    for k in texts:
        if k in given:
            v = given[k]
            if not isinstance(v, str):
                raise ValueError(f"event {kind!r}: field {k}: expected a text, got {_what(data[k])}")
            if len(v) <= _SHARED_TEXT:  # ids: one string for all the events naming a unit
                given[k] = sys.intern(v)
    for k, whole in numbers:
        if k not in given:
            continue
        v = given[k]
        if isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v):
            if whole and isinstance(v, float) and not v.is_integer():
                raise ValueError(f"event {kind!r}: field {k}: expected a whole number, got {v:g}")
            continue
        raise ValueError(f"event {kind!r}: field {k}: expected a number, got {_what(data[k])}")
    try:
        return cls(**given)
    except TypeError as exc:
        raise ValueError(f"event {kind!r}: {exc}") from None


register(BattleEvent)

# The concrete kinds, re-exported here for convenience. Imported last: they subclass the base.
from battlestudio.replay.flow_events import (  # noqa: E402
    Annotation,
    FormationChanged,
    Moved,
    OrderStateChanged,
    PhaseStarted,
    ReinforcementArrived,
    Rotated,
    TurnEnded,
    UnitRemoved,
)
from battlestudio.replay.combat_events import (  # noqa: E402
    AmmunitionResupplied,
    AmmunitionUsed,
    Casualties,
    Fired,
    Melee,
    MoraleTest,
)

__all__ = [
    "BattleEvent",
    "EventError",
    "event_from_dict",
    "event_kinds",
    "json_value",
    "register",
    "Annotation",
    "FormationChanged",
    "Moved",
    "OrderStateChanged",
    "PhaseStarted",
    "ReinforcementArrived",
    "Rotated",
    "TurnEnded",
    "UnitRemoved",
    "AmmunitionResupplied",
    "AmmunitionUsed",
    "Casualties",
    "Fired",
    "Melee",
    "MoraleTest",
]
