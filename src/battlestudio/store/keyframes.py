"""Keyframes of a ``.battle`` file: game states stored so an unfinished game opens without a replay.

A keyframe is the state after the events before a phase's first event (``position``). ``save``
stores one at the start of the last phase (the state at the last closed phase) and one every
``KEYFRAME_EVERY_PHASES`` phases; ``append_events`` adds those the new events reach. Each is one
``keyframe`` row: ``seq``, ``position``, ``turn``, ``side``, ``phase`` (the open phase there) and
``state``, compact JSON of what differs from the scenario::

    {"v": 1, "turn": 3, "side": "french", "phase": "move",
     "units": [<unit record, as in the document>, ...], "units_gone": ["u-7"],
     "commanders": [...], "commanders_gone": [], "orders": [...], "orders_gone": [],
     "oob": null or <oob as in the document>, "flags": [[key, value], ...], "off_table": [...]}

Records equal to the scenario's are left out (a state read back starts from the scenario's),
so a keyframe early in a game is small; flag values keep tuples as ``{"tuple": [...]}``. Records
are read back through the document's record specs, so a bad value is named like any other
(``keyframe seq=N.state: units[3].facing ...``). The stored state is a cache: an opened game
checks it against a replay in idle time and the replay wins (``replay.lazy_log``).
"""

from __future__ import annotations

import dataclasses
import json
import os
from types import MappingProxyType
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from battlestudio.model.scenario import Scenario
from battlestudio.replay.cursor import PhaseKey
from battlestudio.replay.pmap import ChunkedMap
from battlestudio.replay.state import GameState
from battlestudio.store.codec import COMMANDER, ORDER, UNIT, RecordSpec, oob_from_doc, oob_to_doc
from battlestudio.store.errors import BattleFileError, DocumentError
from battlestudio.store.fields import JSON

KEYFRAME_EVERY_PHASES = 200
"""A keyframe is stored at every 200th phase start (and at the last phase's start): at Leipzig
scale (560 phases, 51,203 events) 2 + 1 keyframes of ~0.4 MB each (~4 MB at ten times)."""
KEYFRAME_VERSION = 1
_CONTAINERS: tuple[tuple[str, RecordSpec], ...] = (("units", UNIT), ("commanders", COMMANDER), ("orders", ORDER))


def keyframe_positions(phase_starts: Sequence[int]) -> list[int]:
    """The positions to store for a game whose phases start at ``phase_starts`` (the position
    of each phase's first event, ascending): every ``KEYFRAME_EVERY_PHASES``-th phase start and
    the last phase's (the first phase's start, 0, never: that is the scenario)."""
    if len(phase_starts) < 2:
        return []
    picked = {phase_starts[i] for i in range(KEYFRAME_EVERY_PHASES, len(phase_starts), KEYFRAME_EVERY_PHASES)}
    picked.add(phase_starts[-1])
    return sorted(p for p in picked if p > 0)


def _changed(before: Any, now: Any) -> bool:
    return before is not now and before != now


def _tagged(value: Any) -> Any:
    if isinstance(value, tuple):
        return {"tuple": [_tagged(v) for v in value]}
    if isinstance(value, list):
        return [_tagged(v) for v in value]
    if isinstance(value, dict | Mapping):
        return {"dict": [[k, _tagged(v)] for k, v in value.items()]}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    raise DocumentError("flags", f"a {type(value).__name__} cannot be stored in a keyframe")


def _untagged(value: Any, where: str) -> Any:
    # scalars are kept without a call each (a flag is often a tuple of ids or numbers)
    if isinstance(value, list):
        return [_untagged(v, where) if isinstance(v, list | dict) else v for v in value]
    if isinstance(value, dict):
        if len(value) == 1:
            inner = value.get("tuple")
            if isinstance(inner, list):
                return tuple([_untagged(v, where) if isinstance(v, list | dict) else v for v in inner])
            inner = value.get("dict")
            if isinstance(inner, list):
                return {str(k): _untagged(v, where) for k, v in _pairs(inner, where)}
        raise DocumentError(where, f"expected a tagged tuple or mapping, got keys {sorted(value)}")
    return value


def _pairs(raw: Any, where: str) -> list[tuple[Any, Any]]:
    if not isinstance(raw, list) or not all(isinstance(p, list) and len(p) == 2 for p in raw):
        raise DocumentError(where, "expected a list of [key, value] pairs")
    return [(k, v) for k, v in raw]


def _has_tuple(value: Any) -> bool:
    if isinstance(value, tuple):
        return True
    if isinstance(value, list):
        return any(_has_tuple(v) for v in value)
    if isinstance(value, Mapping):
        return any(_has_tuple(v) for v in value.values())
    return False


def _json_fields(spec: RecordSpec) -> tuple[str, ...]:
    return tuple(name for name, codec in spec.fields if codec is JSON)


def _dump(spec: RecordSpec, record: Any, where: str) -> dict[str, Any]:
    """``spec.dump`` of a record; a free-form field holding tuples (which the document reads
    back as lists) is kept exactly under ``"~"`` (``{field: tagged value}``)."""
    out = spec.dump(record, where)
    exact = {n: _tagged(getattr(record, n)) for n in _json_fields(spec) if _has_tuple(getattr(record, n))}
    if exact:
        out["~"] = exact
    return out


def _load(spec: RecordSpec, raw: Any, where: str) -> Any:
    """The record ``_dump`` wrote (``DocumentError`` naming ``where`` for a bad value)."""
    exact = raw.pop("~", None) if isinstance(raw, dict) else None
    record = spec.load(raw, where)
    if exact is None:
        return record
    if not isinstance(exact, dict) or not set(exact) <= set(_json_fields(spec)):
        raise DocumentError(f"{where}.~", "expected the exact values of free-form fields")
    return dataclasses.replace(record, **{n: _untagged(v, f"{where}.~.{n}") for n, v in exact.items()})


def encode_state(state: GameState, scenario: Scenario) -> str:
    """The keyframe text of ``state`` in a game of ``scenario`` (see module).

    Raises
    ------
    DocumentError
        when a record or flag cannot be stored.
    """
    doc: dict[str, Any] = {"v": KEYFRAME_VERSION, "turn": state.turn, "side": state.side, "phase": state.phase}
    for name, spec in _CONTAINERS:
        base: Mapping[str, Any] = getattr(scenario, name)
        now: Mapping[str, Any] = getattr(state, name)
        doc[name] = [_dump(spec, r, f"{name}[{k!r}]") for k, r in now.items() if _changed(base.get(k), r)]
        doc[f"{name}_gone"] = [k for k in base if k not in now]
    same_oob = state.oob.edges() == scenario.oob.edges() and list(state.oob.graph.nodes) == list(
        scenario.oob.graph.nodes
    )
    doc["oob"] = None if same_oob else oob_to_doc(state.oob)
    doc["flags"] = [[k, _tagged(v)] for k, v in state.flags.items()]
    doc["off_table"] = sorted(state.off_table)
    return json.dumps(doc, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def decode_state(text: Any, scenario: Scenario) -> GameState:
    """The state stored as ``text`` (``encode_state``) in a game of ``scenario``: the scenario's
    start with the stored records, removals, order of battle, flags and off-table ids.

    Raises
    ------
    DocumentError
        naming the bad value (``units[3].facing``...).
    """
    if not isinstance(text, str):
        raise DocumentError("state", f"expected JSON text, got {type(text).__name__}")
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise DocumentError("state", f"not valid JSON: {exc}") from None
    if not isinstance(doc, dict) or doc.get("v") != KEYFRAME_VERSION:
        raise DocumentError("state", f"expected a keyframe of version {KEYFRAME_VERSION}")
    changes: dict[str, Any] = {}
    for name, spec in _CONTAINERS:
        raw = doc.get(name)
        gone = doc.get(f"{name}_gone")
        if not isinstance(raw, list) or not isinstance(gone, list) or not all(isinstance(g, str) for g in gone):
            raise DocumentError(f"state.{name}", "expected a list of records and a list of ids")
        records = [_load(spec, r, f"state.{name}[{i}]") for i, r in enumerate(raw)]
        current: ChunkedMap[Any] = ChunkedMap.from_mapping(getattr(scenario, name))  # the replay's slots
        current = current.set_many((r.id, r) for r in records)
        for key in gone:
            if key in current:
                current = current.delete(key)
        changes[name] = current
    for name, kind in (("turn", int), ("side", str), ("phase", str)):
        if not isinstance(doc.get(name), kind) or isinstance(doc.get(name), bool):
            raise DocumentError(f"state.{name}", f"expected {'an integer' if kind is int else 'a text'}")
        changes[name] = doc[name]
    # the scenario's order of battle is copied only when the game did not change it (a copy of
    # a large one takes longer than reading every record)
    changes["oob"] = scenario.oob.copy() if doc.get("oob") is None else oob_from_doc(doc["oob"])
    flags = {str(k): _untagged(v, f"state.flags[{k!r}]") for k, v in _pairs(doc.get("flags"), "state.flags")}
    changes["flags"] = MappingProxyType(flags)  # read-only, as GameState.evolve makes it
    off = doc.get("off_table")
    if not isinstance(off, list) or not all(isinstance(i, str) for i in off):
        raise DocumentError("state.off_table", "expected a list of ids")
    changes["off_table"] = frozenset(off)
    return GameState(**changes)


def keyframe_rows(
    scenario: Scenario,
    phase_keys: Sequence[tuple[int, PhaseKey]],
    states: Callable[[int], GameState],
    first_seq: int = 0,
    positions: Sequence[int] | None = None,
) -> list[dict[str, Any]]:
    """The ``keyframe`` rows of a game whose phases start at ``phase_keys`` (``(position,
    phase)`` each), the states taken from ``states(position)``; ``positions`` to store (default
    ``keyframe_positions``).

    Raises
    ------
    DocumentError
        when a state cannot be stored; ``ValueError`` from ``states`` (the game cannot be replayed).
    """
    keys = dict(phase_keys)
    wanted = keyframe_positions([p for p, _ in phase_keys]) if positions is None else positions
    rows = []
    for i, pos in enumerate(wanted):
        key = keys[pos]
        rows.append(
            {
                "seq": first_seq + i,
                "position": pos,
                "turn": key.turn,
                "side": key.side,
                "phase": key.phase,
                "state": encode_state(states(pos), scenario),
            }
        )
    return rows


def stored_keyframe_reader(
    path: str | os.PathLike[str], seq: int, text: Any, scenario: Scenario
) -> Callable[[], GameState]:
    """``read()`` of a ``StoredKeyframe``: ``decode_state`` with a ``BattleFileError`` naming
    the file and ``keyframe seq=N.state...`` (a ``ValueError``)."""

    def read() -> GameState:
        try:
            return decode_state(text, scenario)
        except DocumentError as err:
            raise BattleFileError(path, err.what, f"keyframe seq={seq}.{err.where}") from None

    return read
