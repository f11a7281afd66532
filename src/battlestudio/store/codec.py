"""The battle document codec: a Battle as plain data, shared by the JSON and the SQLite formats.

``battle_to_doc`` turns a Battle into a dict of lists of records (sorted by id, keys in field
order) that ``json_format`` writes as text and ``database`` writes as rows; ``battle_from_doc``
checks such a dict value by value and rebuilds the Battle, raising ``DocumentError`` with the
path of the first bad value. Geometries stay shapely objects in the dict.

The order of battle is kept in graph order, not sorted: the order of a commander's
subordinates is the order the source lists them in, and it is shown to the user.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass
from typing import Any
from collections.abc import Callable, Mapping

from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.orders import Order, OrderStatus
from battlestudio.model.scenario import (
    DeploymentZone,
    Objective,
    Reinforcement,
    Scenario,
    ScenarioInfo,
    Side,
    Source,
)
from battlestudio.model.terrain import TerrainFeature, TerrainKind, TownZone
from battlestudio.model.units import Arm, Commander, Formation, Subtype, Unit
from battlestudio.replay.battle import Battle
from battlestudio.replay.events import BattleEvent, event_from_dict
from battlestudio.rules import load_event_types
from battlestudio.store.errors import DocumentError
from battlestudio.store.game_doc import GAME_SINCE, game_from_doc, game_to_doc
from battlestudio.store.fields import (
    FLOAT,
    GEOMETRY,
    HHMM,
    IDENT,
    INT,
    ISO_DATE,
    JSON,
    OPT_FLOAT,
    OPT_GEOREF,
    OPT_INT,
    OPT_POINT,
    POINT,
    POLYGON,
    STR,
    STRS,
    Codec,
    EnumOf,
    FloatIn,
    IntIn,
    Optional,
    _kind,
    nested,
    show,
)

FORMAT = "battlestudio"
"""Value of the document's ``format`` key."""

SCHEMA_VERSION = 4
"""Newest version of the document layout; this code reads it and every older one.

1: the first layout. 2: ``info.georef`` (three ``scenario_info`` columns ``georef_lon``,
``georef_lat``, ``georef_bearing`` in a ``.battle`` file). 3: the ``game`` object (bookmarks;
``store.game_doc``), written only when it holds something; a ``meta`` row in a ``.battle`` file.
4: the ``keyframe`` table of a ``.battle`` file (``store.keyframes``), written only when it holds
a keyframe (a ``.battle.json`` has none).
A field added after version 1 is named in its spec's ``since`` and defaults to None; a document is written in the oldest
version that holds it (such a field is left out while it is None), so a scenario that uses no
newer field still opens in an older BattleStudio, and an older file, which has no column for
the field, reads as None.
"""


@dataclass(frozen=True)
class RecordSpec:
    """How one record class is written: its fields in order, each with a codec; ``since``
    names the fields added after schema version 1 with the version that added them (each
    defaults to None and is written only when it is not None)."""

    cls: type
    fields: tuple[tuple[str, Codec], ...]
    since: Mapping[str, int] = dataclasses.field(default_factory=dict)

    def __post_init__(self) -> None:
        names = {f.name for f in dataclasses.fields(self.cls)}
        gone = [n for n, _ in self.fields if n not in names]
        if gone:  # a field was renamed or removed from the model: nothing could be read back
            raise TypeError(f"{self.cls.__name__} has no field(s) {', '.join(gone)} the store writes")
        required = {
            f.name
            for f in dataclasses.fields(self.cls)
            if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        }
        object.__setattr__(self, "required", frozenset(required))
        defaults = {f.name: f.default for f in dataclasses.fields(self.cls)}
        not_none = [n for n in self.since if defaults.get(n) is not None]
        if not_none:  # an older file has no value for it: only None can stand for "not given"
            listed = ", ".join(not_none)
            raise TypeError(f"{self.cls.__name__}: field(s) {listed} added in a later version must default to None")

    def version_of(self, rec: Mapping[str, Any]) -> int:
        """The oldest schema version that holds the dumped record ``rec``."""
        return max((v for n, v in self.since.items() if n in rec), default=1)

    def at_version(self, version: int) -> RecordSpec:
        """This spec as schema ``version`` wrote it: without the fields added after it."""
        if all(v <= version for v in self.since.values()):
            return self
        kept = tuple((n, c) for n, c in self.fields if self.since.get(n, 1) <= version)
        return RecordSpec(self.cls, kept, {n: v for n, v in self.since.items() if v <= version})

    def uncovered(self) -> list[str]:
        """Model fields this spec does not store (a test keeps this empty: add a codec, its
        columns in ``tables``, bump ``SCHEMA_VERSION`` and name the field in ``since``, so a
        ``.battle`` file of the older version, which has no such column, still reads)."""
        known = {n for n, _ in self.fields}
        return [f.name for f in dataclasses.fields(self.cls) if f.name not in known]

    def dump(self, record: Any, where: str) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, codec in self.fields:
            if name in self.since and getattr(record, name) is None:
                continue  # the older layout, without it
            try:
                out[name] = codec.dump(getattr(record, name))
            except DocumentError as err:
                raise nested(f"{where}.{name}", err) from None
        return out

    def load(self, raw: Any, where: str) -> Any:
        if not isinstance(raw, dict):
            raise DocumentError(where, f"expected an object, got {_kind(raw)}")
        known = dict(self.fields)
        for key in raw:
            if key not in known:
                shown = key if len(key) <= 40 else f"{key[:37]}...({len(key):,} characters)"
                raise DocumentError(f"{where}.{shown}", f"unknown field (a {self.cls.__name__} has {', '.join(known)})")
        kwargs = {}
        for name, codec in self.fields:
            if name not in raw:
                if name in self.required:  # type: ignore[attr-defined]
                    raise DocumentError(f"{where}.{name}", "missing")
                continue
            try:
                kwargs[name] = codec.load(raw[name])
            except DocumentError as err:
                raise nested(f"{where}.{name}", err) from None
        try:
            return self.cls(**kwargs)
        except (TypeError, ValueError) as exc:
            raise DocumentError(where, str(exc)) from None


def _spec(cls: type, since: Mapping[str, int] | None = None, **codecs: Codec) -> RecordSpec:
    return RecordSpec(cls, tuple(codecs.items()), dict(since or {}))


MAX_TABLE_CM = 100_000.0
"""Largest table side (cm) a file may give: 1 km of table; more is a typing error."""
MAX_TURNS = 10_000
"""Most turns a scenario may last."""

MAX_FIGURE_CM = 50.0
"""Largest figure (stand) frontage or depth, cm; more is a typing error or damage (1.4e53
from one flipped byte would take the map's drawing past the machine's memory)."""
MAX_FIGURES = 10_000
"""Most figures (or bases) one unit may have."""
MAX_MEN = 10_000_000
"""Most men or horses one unit may have."""
MAX_GUNS = 100_000
"""Most guns one unit may have."""
MAX_RANKS = 100
"""Most ranks of a column."""

TABLE_CM = FloatIn(0.0, MAX_TABLE_CM)
FIGURE_CM = FloatIn(0.0, MAX_FIGURE_CM)
FIGURES = IntIn(0, MAX_FIGURES)
INFO = _spec(
    ScenarioInfo,
    title=STR,
    date=ISO_DATE,
    place=STR,
    ruleset=STR,
    parameters=JSON,
    table_width=TABLE_CM,
    table_height=TABLE_CM,
    ground_scale=FloatIn(0.0, 1e6),
    turn_minutes=IntIn(1, 24 * 60),
    first_turn=HHMM,
    turns=IntIn(1, MAX_TURNS),
    description=STR,
    georef=OPT_GEOREF,
    since={"georef": 2},
)
SIDE = _spec(Side, id=IDENT, name=STR, nations=STRS, colour=STR)
UNIT = _spec(
    Unit,
    id=IDENT,
    name=STR,
    side=IDENT,
    nation=STR,
    arm=EnumOf(Arm),
    subtype=Optional(EnumOf(Subtype)),
    quality=STR,
    figures=FIGURES,
    bases=Optional(FIGURES),
    men=IntIn(0, MAX_MEN),
    horses=IntIn(0, MAX_MEN),
    guns=IntIn(0, MAX_GUNS),
    position=POINT,
    facing=FLOAT,
    formation=EnumOf(Formation),
    state=STR,
    ammunition=Optional(FIGURES),
    figure_width=FIGURE_CM,
    figure_depth=FIGURE_CM,
    column_ranks=IntIn(1, MAX_RANKS),
    attributes=JSON,
)
COMMANDER = _spec(
    Commander,
    id=IDENT,
    name=STR,
    side=IDENT,
    nation=STR,
    echelon=STR,
    position=POINT,
    facing=FLOAT,
    figures=FIGURES,
    order_capacity=OPT_INT,
    command_ability=OPT_INT,
    command_distance=OPT_FLOAT,
    attributes=JSON,
)
TERRAIN = _spec(
    TerrainFeature,
    id=IDENT,
    kind=EnumOf(TerrainKind),
    geometry=GEOMETRY,
    name=STR,
    level=OPT_INT,
    width=OPT_FLOAT,
    properties=JSON,
)
TOWN = _spec(TownZone, id=IDENT, name=STR, polygon=POLYGON, capacity=INT)
OBJECTIVE = _spec(Objective, id=IDENT, name=STR, geometry=GEOMETRY, side=STR, value=INT)
DEPLOYMENT = _spec(DeploymentZone, id=IDENT, side=STR, name=STR, polygon=POLYGON, formation=STR)
REINFORCEMENT = _spec(
    Reinforcement,
    id=IDENT,
    side=STR,
    formation=STR,
    earliest_turn=INT,
    latest_turn=INT,
    entry_point=POINT,
    probability=FLOAT,
    note=STR,
)
ORDER = _spec(
    Order,
    id=IDENT,
    issuer=STR,
    recipient=STR,
    order_type=STR,
    objective=OPT_POINT,
    status=EnumOf(OrderStatus),
    turn_issued=INT,
    parameters=JSON,
)
SOURCE = _spec(Source, title=STR, url=STR, licence=STR, note=STR)

COLLECTIONS: Mapping[str, RecordSpec] = {
    "sides": SIDE,
    "commanders": COMMANDER,
    "units": UNIT,
    "terrain": TERRAIN,
    "towns": TOWN,
    "objectives": OBJECTIVE,
    "deployment_zones": DEPLOYMENT,
    "reinforcements": REINFORCEMENT,
    "orders": ORDER,
}
"""Scenario containers keyed by id, as document key → spec (document key = Scenario field)."""

TOP_KEYS = ("format", "schema_version", "info", *COLLECTIONS, "sources", "oob", "game", "events")
"""Keys of a document, in the order they are written."""


# -- writing --------------------------------------------------------------------------------
def battle_to_doc(battle: Battle) -> dict[str, Any]:
    """The document for ``battle``: records sorted by id, OOB in graph order, events in order;
    ``schema_version`` the oldest that holds it (see ``SCHEMA_VERSION``).

    Raises
    ------
    DocumentError
        for a value that cannot be stored (non-finite float, integer beyond 64 bits, a
        geometry of the wrong type, a non-JSON attribute), naming its path.
    """
    sc = battle.scenario
    doc: dict[str, Any] = {"format": FORMAT, "schema_version": 1}
    doc["info"] = INFO.dump(sc.info, "info")
    for key, spec in COLLECTIONS.items():
        records = getattr(sc, key)
        doc[key] = [spec.dump(records[i], f"{key}[{n}]") for n, i in enumerate(sorted(records))]
    doc["sources"] = [SOURCE.dump(s, f"sources[{n}]") for n, s in enumerate(sc.sources)]
    newer = [(key, spec) for key, spec in (*COLLECTIONS.items(), ("sources", SOURCE)) if spec.since]
    doc["schema_version"] = max([INFO.version_of(doc["info"])] + [s.version_of(r) for k, s in newer for r in doc[k]])
    doc["oob"] = oob_to_doc(sc.oob)
    game = game_to_doc(battle)
    if game is not None:
        doc["game"] = game
        doc["schema_version"] = max(doc["schema_version"], GAME_SINCE)
    doc["events"] = [event_to_doc(e, f"events[{n}]") for n, e in enumerate(battle.events)]
    return doc


def oob_to_doc(oob: OrderOfBattle) -> list[dict[str, Any]]:
    """``[{"id": superior, "subordinates": [...]}, ...]`` for every node with subordinates or
    none at all (a lone node), in graph order; subordinates in insertion order."""
    g = oob.graph
    return [
        {"id": n, "subordinates": list(g.successors(n))} for n in g.nodes if g.out_degree(n) > 0 or g.in_degree(n) == 0
    ]


def event_to_doc(event: BattleEvent, where: str) -> dict[str, Any]:
    """``event.to_dict()`` checked to be JSON data: kind, turn, side, phase, then its fields."""
    try:
        data = event.to_dict()
        for key in ("kind", "turn", "side", "phase"):
            if key not in data:
                raise DocumentError(f".{key}", "missing from the event's to_dict()")
        head = {}
        for key, codec in (("kind", STR), ("turn", INT), ("side", STR), ("phase", STR)):
            try:
                head[key] = codec.dump(data[key])
            except DocumentError as err:
                raise nested(f".{key}", err) from None
        return head | {k: v for k, v in data.items() if k not in head}
    except DocumentError as err:
        raise nested(where, err) from None


EVENT_HEAD = ("kind", "turn", "side", "phase")
"""Keys every event has; the rest of ``to_dict()`` is the event's payload."""


def event_payload_json(event: dict[str, Any], where: str, separators: tuple[str, str] = (",", ":")) -> str:
    """The payload of a document event (all but ``EVENT_HEAD``) as key-sorted JSON text.

    This is also where a payload is checked: one C-speed ``json.dumps`` per event, and the
    slow path-finding check only when it fails.

    Raises
    ------
    DocumentError
        naming ``where`` and the bad value's key, for non-JSON data or a non-finite float.
    """
    payload = {k: v for k, v in event.items() if k not in EVENT_HEAD}
    try:
        return json.dumps(payload, ensure_ascii=False, allow_nan=False, sort_keys=True, separators=separators)
    except (TypeError, ValueError) as exc:
        try:
            JSON.dump(payload)
        except DocumentError as err:
            raise nested(where, err) from None
        raise DocumentError(where, f"payload is not JSON data: {exc}") from None


# -- reading --------------------------------------------------------------------------------
def battle_from_doc(doc: Any) -> Battle:
    """Check ``doc`` and rebuild its Battle.

    Raises
    ------
    DocumentError
        naming the path and value of the first problem: wrong type, missing or unknown key,
        duplicate id, unknown event kind, or a schema version newer than ``SCHEMA_VERSION``.
        Every installed ruleset's event types are known (``rules.load_event_types``).
    """
    load_event_types()
    if not isinstance(doc, dict):
        raise DocumentError("", f"expected a JSON object at the top, got {_kind(doc)}")
    if doc.get("format") != FORMAT:
        raise DocumentError(
            "format", f"not a BattleStudio document (expected {FORMAT!r}, got {show(doc.get('format'))})"
        )
    version = doc.get("schema_version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise DocumentError("schema_version", f"expected a positive integer, got {show(version)}")
    if version > SCHEMA_VERSION:
        raise DocumentError(
            "schema_version",
            f"written by a newer BattleStudio (schema version {version}; this version reads up to {SCHEMA_VERSION})",
        )
    for key in doc:
        if key not in TOP_KEYS:
            shown = key if len(key) <= 40 else f"{key[:37]}...({len(key):,} characters)"
            raise DocumentError(shown, f"unknown key (a document has {', '.join(TOP_KEYS)})")
    sc = Scenario(info=INFO.load(doc.get("info", {}), "info"))
    for key, spec in COLLECTIONS.items():
        setattr(sc, key, _records(doc.get(key, []), key, spec))
    sc.sources = [SOURCE.load(s, f"sources[{n}]") for n, s in enumerate(_list(doc.get("sources", []), "sources"))]
    sc.oob = oob_from_doc(doc.get("oob", []))
    events = [event_from_doc(e, f"events[{n}]") for n, e in enumerate(_list(doc.get("events", []), "events"))]
    game = game_from_doc(doc["game"], len(events)) if "game" in doc else {}
    return Battle(scenario=sc, events=events, **game)


def _list(raw: Any, where: str) -> list[Any]:
    if not isinstance(raw, list):
        raise DocumentError(where, f"expected a list, got {_kind(raw)}")
    return raw


def _records(raw: Any, key: str, spec: RecordSpec) -> dict[str, Any]:
    out: dict[str, Any] = {}
    first: dict[str, int] = {}
    for n, item in enumerate(_list(raw, key)):
        record = spec.load(item, f"{key}[{n}]")
        if record.id in out:
            raise DocumentError(f"{key}[{n}].id", f"duplicate id {show(record.id)} (also {key}[{first[record.id]}])")
        first[record.id] = n
        out[record.id] = record
    return out


def oob_from_doc(raw: Any) -> OrderOfBattle:
    """Rebuild the order of battle from ``oob_to_doc`` output (see there)."""
    entries = _list(raw, "oob")
    oob = OrderOfBattle()
    g = oob.graph
    for n, entry in enumerate(entries):
        where = f"oob[{n}]"
        if not isinstance(entry, dict) or set(entry) != {"id", "subordinates"}:
            raise DocumentError(where, f'expected {{"id": ..., "subordinates": [...]}}, got {show(entry)}')
        if not isinstance(entry["id"], str):
            raise DocumentError(f"{where}.id", f"expected a string, got {_kind(entry['id'])}")
        if entry["id"] in g:
            raise DocumentError(f"{where}.id", f"{show(entry['id'])} listed twice")
        g.add_node(entry["id"])
    for n, entry in enumerate(entries):
        subs = _strs_at(entry["subordinates"], f"oob[{n}].subordinates")
        for i, sub in enumerate(subs):
            if g.has_edge(entry["id"], sub):
                raise DocumentError(f"oob[{n}].subordinates[{i}]", f"{show(sub)} listed twice")
            g.add_edge(entry["id"], sub)
    return oob


def _strs_at(raw: Any, where: str) -> tuple[str, ...]:
    try:
        return STRS.load(raw)
    except DocumentError as err:
        raise nested(where, err) from None


def event_from_doc(raw: Any, where: str) -> BattleEvent:
    """Check the common event keys, then rebuild the event with ``event_from_dict``."""
    if not isinstance(raw, dict):
        raise DocumentError(where, f"expected an event object, got {_kind(raw)}")
    checks: dict[str, Callable[[Any], Any]] = {"kind": STR.load, "turn": INT.load, "side": STR.load, "phase": STR.load}
    for key, load in checks.items():
        if key not in raw:
            raise DocumentError(f"{where}.{key}", "missing")
        try:
            load(raw[key])
        except DocumentError as err:
            raise nested(f"{where}.{key}", err) from None
    try:
        return event_from_dict(dict(raw))
    except (ValueError, TypeError) as exc:
        raise DocumentError(where, str(exc)) from None
    except RecursionError:
        raise DocumentError(where, "nested too deeply") from None
