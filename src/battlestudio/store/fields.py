"""Value codecs: how one model value is written to, and checked when read from, a document.

A document is plain JSON data (dicts, lists, str, int, float, bool, None) except that
geometries stay shapely objects until the JSON layer writes them as GeoJSON (the SQLite layer
writes WKB). Every ``load`` checks the raw value and raises ``DocumentError`` whose ``where``
is relative to the value (``""``, ``"[1]"``, ``".coordinates[0][2]"``); record specs prefix it
with the record's path, so messages read ``units[3].facing: expected a number, got "north"``.

Floats are written exactly (JSON uses ``repr``); ``-0.0`` is written as ``0.0`` because SQLite
stores REAL zeros without a sign, and the two formats must give identical documents.
"""

from __future__ import annotations

import json
import math
from enum import Enum
from typing import Any
from collections.abc import Iterable

from shapely.errors import ShapelyError
from shapely.geometry import shape
from shapely.geometry.base import BaseGeometry

from battlestudio.model.georef import Georeference, GeoreferenceError
from battlestudio.store.errors import DocumentError

INT_LIMIT = 2**63
"""Integers must lie in (-2**63, 2**63): what SQLite's INTEGER holds."""

COORD_LIMIT_CM = 1_000_000.0
"""Coordinates (cm) must lie in [-COORD_LIMIT_CM, COORD_LIMIT_CM]: ten times the largest table
(``info.table_width`` ≤ 100,000 cm); beyond that shapely's predicates overflow."""


def show(raw: Any) -> str:
    """A short rendering of a bad value for an error message (JSON spelling where possible)."""
    try:
        text = json.dumps(raw, ensure_ascii=False, allow_nan=True)
    except (TypeError, ValueError):
        text = repr(raw)
    return text if len(text) <= 60 else text[:57] + "..."


def _kind(raw: Any) -> str:
    if isinstance(raw, dict):
        return "an object"
    if isinstance(raw, list | tuple):
        return "a list"
    return show(raw)


def nested(prefix: str, err: DocumentError) -> DocumentError:
    """``err`` moved under ``prefix`` (``units[3]`` + ``.facing`` → ``units[3].facing``)."""
    return DocumentError(prefix + err.where, err.what)


class Codec:
    """Base codec: ``dump`` gives the document value, ``load`` checks and converts it back.

    Both raise ``DocumentError`` (with a ``where`` relative to the value) for a bad value.
    """

    def dump(self, value: Any) -> Any:
        """The document form of a model value."""
        return value

    def load(self, raw: Any) -> Any:  # pragma: no cover - abstract
        """The model value of a document value, after checking it."""
        raise NotImplementedError

    def columns(self, name: str) -> tuple[str, ...]:
        """The SQLite columns that hold a field ``name`` of this codec: one, of the same name."""
        return (name,)


MAX_TEXT = 1_000_000
"""Longest text (characters) a string field may hold (a description, a note)."""
MAX_ID = 500
"""Longest identifier (characters): an id, a side or nation reference."""


def _text_problem(raw: str, limit: int) -> str | None:
    if len(raw) > limit:
        return f"text of {len(raw):,} characters, more than {limit:,}"
    try:
        raw.encode("utf-8")
    except UnicodeEncodeError as exc:  # a lone surrogate: the text could not be saved again
        return f"not valid Unicode text (a lone surrogate U+{ord(raw[exc.start]):04X} at character {exc.start})"
    return None


class Str(Codec):
    """A string of at most ``MAX_TEXT`` characters, valid Unicode (no lone surrogate, so it
    can be written back as UTF-8)."""

    limit = MAX_TEXT

    def dump(self, value: Any) -> Any:
        if not isinstance(value, str):
            raise DocumentError("", f"expected a string, got {_kind(value)}")
        if not value.isascii():
            why = _text_problem(value, len(value))  # written whatever its length; never unsavable text
            if why:
                raise DocumentError("", f"{why}; got {show(value)}")
        return value

    def load(self, raw: Any) -> str:
        if not isinstance(raw, str):
            raise DocumentError("", f"expected a string, got {_kind(raw)}")
        if not raw.isascii():
            why = _text_problem(raw, self.limit)
            if why:
                raise DocumentError("", f"{why}; got {show(raw)}")
        elif len(raw) > self.limit:
            raise DocumentError("", f"text of {len(raw):,} characters, more than {self.limit:,}")
        return raw


class Ident(Str):
    """An identifier: at most ``MAX_ID`` printable characters (no control character, no lone
    surrogate), so it shows and saves as it reads."""

    limit = MAX_ID

    def load(self, raw: Any) -> str:
        value = super().load(raw)
        if not value.isprintable():
            bad = next(c for c in value if not c.isprintable())
            raise DocumentError("", f"an identifier must be printable text; U+{ord(bad):04X} in {show(value)}")
        return value


class Int(Codec):
    """An integer (not a bool) that fits SQLite's 64-bit INTEGER."""

    def dump(self, value: Any) -> Any:
        return self.load(value)

    def load(self, raw: Any) -> int:
        if isinstance(raw, bool) or not isinstance(raw, int):
            raise DocumentError("", f"expected an integer, got {_kind(raw)}")
        if not -INT_LIMIT < raw < INT_LIMIT:
            raise DocumentError("", f"integer out of range: {raw}")
        return int(raw)


class Float(Codec):
    """A finite number, stored as a float (ints are accepted and widened)."""

    def dump(self, value: Any) -> Any:
        return self.load(value)

    def load(self, raw: Any) -> float:
        if isinstance(raw, bool) or not isinstance(raw, int | float):
            raise DocumentError("", f"expected a number, got {_kind(raw)}")
        try:
            value = float(raw)
        except OverflowError:
            raise DocumentError("", f"number too large: {show(raw)}") from None
        if not math.isfinite(value):
            raise DocumentError("", f"expected a finite number, got {value!r}")
        return value + 0.0  # -0.0 → 0.0


class IntIn(Int):
    """An integer in ``[lo, hi]`` (``hi=None``: no upper bound) when read; written as any ``Int``.

    Writing does not refuse an out-of-range value (the user's work is saved whatever it
    holds); reading does, so commands never run on, say, a unit of -3 figures.
    """

    def __init__(self, lo: int, hi: int | None = None) -> None:
        self.lo, self.hi = lo, hi

    def dump(self, value: Any) -> Any:
        return Int.load(self, value)

    def load(self, raw: Any) -> int:
        value = super().load(raw)
        if value < self.lo or (self.hi is not None and value > self.hi):
            bound = f">= {self.lo}" if self.hi is None else f"between {self.lo} and {self.hi}"
            raise DocumentError("", f"must be {bound}, got {value}")
        return value


class FloatIn(Float):
    """A finite number above ``lo`` (``lo_open``: strictly) and at most ``hi`` when read.

    Like ``IntIn``, writing checks only that the value is a finite number.
    """

    def __init__(self, lo: float, hi: float, lo_open: bool = True) -> None:
        self.lo, self.hi, self.lo_open = lo, hi, lo_open

    def dump(self, value: Any) -> Any:
        return Float.load(self, value)

    def load(self, raw: Any) -> float:
        value = super().load(raw)
        low_ok = value > self.lo if self.lo_open else value >= self.lo
        if not low_ok or value > self.hi:
            op = ">" if self.lo_open else ">="
            raise DocumentError("", f"must be {op} {self.lo:g} and <= {self.hi:g}, got {value:g}")
        return value


class Matching(Str):
    """A string matching ``pattern`` (a ``re`` pattern, whole string) when read; ``label``
    says what is expected, e.g. ``"a time HH:MM"``. ``check`` may refuse it further (returns
    an error text or None)."""

    def __init__(self, pattern: str, label: str, check: Any = None) -> None:
        import re

        self.pattern = re.compile(pattern)
        self.label = label
        self.check = check

    def dump(self, value: Any) -> Any:
        return Str.load(self, value)

    def load(self, raw: Any) -> str:
        value = super().load(raw)
        if not self.pattern.fullmatch(value) or (self.check is not None and self.check(value)):
            raise DocumentError("", f"expected {self.label}, got {show(value)}")
        return value


def _bad_hhmm(text: str) -> bool:
    h, m = text.split(":")
    return not (0 <= int(h) <= 23 and 0 <= int(m) <= 59)


def _bad_date(text: str) -> bool:
    import datetime

    if not text:
        return False
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return True
    return False


class Optional(Codec):
    """``None`` or a value of ``inner``."""

    def __init__(self, inner: Codec) -> None:
        self.inner = inner

    def dump(self, value: Any) -> Any:
        return None if value is None else self.inner.dump(value)

    def load(self, raw: Any) -> Any:
        return None if raw is None else self.inner.load(raw)

    def columns(self, name: str) -> tuple[str, ...]:
        return self.inner.columns(name)


class EnumOf(Codec):
    """One of a ``StrEnum``'s values."""

    def __init__(self, enum: type[Enum]) -> None:
        self.enum = enum
        self.values = {e.value: e for e in enum}

    def dump(self, value: Any) -> Any:
        return self.load(value.value if isinstance(value, Enum) else value).value

    def load(self, raw: Any) -> Any:
        if isinstance(raw, str) and raw in self.values:
            return self.values[raw]
        return self._fail(raw)

    def _fail(self, raw: Any) -> Any:
        allowed = ", ".join(self.values)
        raise DocumentError("", f"expected one of {allowed}; got {_kind(raw)}")


class PointOf(Codec):
    """An ``(x, y)`` point in cm, written as ``[x, y]``; two SQLite columns ``<name>_x``, ``<name>_y``."""

    def columns(self, name: str) -> tuple[str, ...]:
        return (f"{name}_x", f"{name}_y")

    def dump(self, value: Any) -> Any:
        return list(self.load(value))

    def load(self, raw: Any) -> tuple[float, float]:
        if not isinstance(raw, list | tuple) or len(raw) != 2:
            raise DocumentError("", f"expected a point [x, y], got {_kind(raw)}")
        out = []
        for i, v in enumerate(raw):
            try:
                out.append(COORD.load(v))
            except DocumentError as err:
                raise nested(f"[{i}]", err) from None
        return (out[0], out[1])


class StrTuple(Codec):
    """A list of strings, held as a tuple."""

    def dump(self, value: Any) -> Any:
        return list(self.load(value))

    def load(self, raw: Any) -> tuple[str, ...]:
        if not isinstance(raw, list | tuple):
            raise DocumentError("", f"expected a list of strings, got {_kind(raw)}")
        for i, v in enumerate(raw):
            try:
                STR.load(v)
            except DocumentError as err:
                raise nested(f"[{i}]", err) from None
        return tuple(raw)


class JsonMapping(Codec):
    """A free-form JSON object (ruleset parameters, attributes); keys sorted when written."""

    def dump(self, value: Any) -> Any:
        return self.load(value)

    def load(self, raw: Any) -> dict[str, Any]:
        if not isinstance(raw, dict):
            raise DocumentError("", f"expected an object, got {_kind(raw)}")
        try:
            return _json_object(raw)
        except RecursionError:
            raise DocumentError("", "nested too deeply") from None


def _json_value(raw: Any) -> Any:
    if isinstance(raw, str):
        return STR.load(raw)
    if raw is None or isinstance(raw, bool | int):
        return raw
    if isinstance(raw, float):
        if not math.isfinite(raw):
            raise DocumentError("", f"expected a finite number, got {raw!r}")
        return raw
    if isinstance(raw, list | tuple):
        out = []
        for i, v in enumerate(raw):
            try:
                out.append(_json_value(v))
            except DocumentError as err:
                raise nested(f"[{i}]", err) from None
        return out
    if isinstance(raw, dict):
        return _json_object(raw)
    raise DocumentError("", f"expected a JSON value, got {type(raw).__name__}")


def _json_object(raw: dict[Any, Any]) -> dict[str, Any]:
    obj = {}
    for k in sorted(raw, key=str):
        if not isinstance(k, str):
            raise DocumentError("", f"object keys must be strings, got {show(k)}")
        try:
            STR.load(k)
        except DocumentError as err:
            raise DocumentError("", f"key: {err.what}") from None
        try:
            obj[k] = _json_value(raw[k])
        except DocumentError as err:
            raise nested(f".{k}", err) from None
    return obj


_DEPTH = {"Point": 0, "MultiPoint": 1, "LineString": 1, "MultiLineString": 2, "Polygon": 2, "MultiPolygon": 3}


class GeometryOf(Codec):
    """A shapely geometry; GeoJSON in JSON documents (``types`` limits the geometry types)."""

    def __init__(self, types: Iterable[str] | None = None) -> None:
        self.types = frozenset(types) if types is not None else None

    def dump(self, value: Any) -> Any:
        if not isinstance(value, BaseGeometry):
            raise DocumentError("", f"expected a shapely geometry, got {type(value).__name__}")
        self._check_type(value.geom_type)
        return value

    def load(self, raw: Any) -> BaseGeometry:
        if isinstance(raw, BaseGeometry):
            self._check_type(raw.geom_type)
            if raw.is_empty:
                raise DocumentError("", f"an empty {raw.geom_type} (a geometry needs at least one position)")
            for v in raw.bounds:
                try:
                    COORD.load(v)
                except DocumentError as err:
                    raise DocumentError("", f"coordinate {err.what}") from None
            return raw
        if not isinstance(raw, dict):
            raise DocumentError("", f"expected a GeoJSON geometry object, got {_kind(raw)}")
        self._check_type(raw.get("type"))
        _check_geojson(raw)
        try:
            geom = shape(raw)
        except (ShapelyError, ValueError, TypeError, IndexError) as exc:
            raise DocumentError("", f"invalid {raw['type']}: {exc}") from None
        if geom.is_empty:
            raise DocumentError(".coordinates", f"an empty {raw['type']} (a geometry needs at least one position)")
        return geom

    def _check_type(self, geom_type: Any) -> None:
        allowed = self.types or (set(_DEPTH) | {"GeometryCollection"})
        if not isinstance(geom_type, str) or geom_type not in allowed:
            raise DocumentError(".type", f"expected {' or '.join(sorted(allowed))}, got {show(geom_type)}")


def _check_geojson(raw: dict[str, Any]) -> None:
    gtype = raw.get("type")
    if gtype == "GeometryCollection":
        extra = set(raw) - {"type", "geometries"}
        if extra:
            raise DocumentError(f".{sorted(extra)[0]}", "unexpected key in a GeometryCollection")
        parts = raw.get("geometries")
        if not isinstance(parts, list):
            raise DocumentError(".geometries", f"expected a list, got {_kind(parts)}")
        for i, part in enumerate(parts):
            try:
                GEOMETRY.load(part)
            except DocumentError as err:
                raise nested(f".geometries[{i}]", err) from None
        return
    extra = set(raw) - {"type", "coordinates"}
    if extra:
        raise DocumentError(f".{sorted(extra)[0]}", f"unexpected key in a {gtype}")
    if "coordinates" not in raw:
        raise DocumentError(".coordinates", "missing")
    depth = _DEPTH[raw["type"]]  # a key of _DEPTH: the caller checked the type (GeometryField._check_type)
    _check_coords(raw["coordinates"], depth, ".coordinates")


def _check_coords(raw: Any, depth: int, where: str) -> None:
    if not isinstance(raw, list):
        raise DocumentError(where, f"expected a list, got {_kind(raw)}")
    if depth == 0:
        if len(raw) not in (2, 3):
            raise DocumentError(where, f"expected a position [x, y], got {show(raw)}")
        for i, v in enumerate(raw):
            try:
                COORD.load(v)
            except DocumentError as err:
                raise nested(f"{where}[{i}]", err) from None
        return
    for i, item in enumerate(raw):
        _check_coords(item, depth - 1, f"{where}[{i}]")


class GeorefOf(Codec):
    """A ``Georeference`` or ``None``: ``{"lon": deg, "lat": deg, "bearing": deg}`` in a JSON
    document, three nullable REAL columns ``<name>_lon``, ``<name>_lat``, ``<name>_bearing`` in
    SQLite (all NULL: not georeferenced). Reading refuses a longitude outside -180..180, a
    latitude outside -90..90, a missing, unknown or non-finite part, naming it (``.lat``)."""

    PARTS = ("lon", "lat", "bearing")
    CHECKS: dict[str, Codec] = {
        "lon": FloatIn(-180.0, 180.0, lo_open=False),
        "lat": FloatIn(-90.0, 90.0, lo_open=False),
        "bearing": Float(),
    }

    def columns(self, name: str) -> tuple[str, ...]:
        return tuple(f"{name}_{p}" for p in self.PARTS)

    def dump(self, value: Any) -> Any:
        if value is None:
            return None
        if not isinstance(value, Georeference):
            raise DocumentError("", f"expected a Georeference, got {type(value).__name__}")
        out = {}
        for part in self.PARTS:
            try:
                out[part] = FLOAT.dump(getattr(value, part))
            except DocumentError as err:
                raise nested(f".{part}", err) from None
        return out

    def load(self, raw: Any) -> Georeference | None:
        if raw is None:
            return None
        if not isinstance(raw, dict):
            raise DocumentError("", f'expected {{"lon": ..., "lat": ..., "bearing": ...}} or null, got {_kind(raw)}')
        for key in raw:
            if key not in self.PARTS:
                raise DocumentError(f".{key}", "unknown part (a georeference has lon, lat, bearing)")
        values = {}
        for part in self.PARTS:
            if part not in raw:
                raise DocumentError(f".{part}", "missing")
            try:
                values[part] = self.CHECKS[part].load(raw[part])
            except DocumentError as err:
                raise nested(f".{part}", err) from None
        try:
            return Georeference(**values)
        except GeoreferenceError as exc:  # (the ranges above are the model's own)
            raise DocumentError("", str(exc)) from None


STR = Str()
IDENT = Ident()
INT = Int()
FLOAT = Float()
COORD = FloatIn(-COORD_LIMIT_CM, COORD_LIMIT_CM, lo_open=False)
COUNT = IntIn(0)
OPT_COUNT = Optional(COUNT)
HHMM = Matching(r"[0-9]{2}:[0-9]{2}", 'a time of day HH:MM, e.g. "06:00"', _bad_hhmm)
ISO_DATE = Matching(r"(|[0-9]{4}-[0-9]{2}-[0-9]{2})", 'an ISO date YYYY-MM-DD (or "")', _bad_date)
POINT = PointOf()
STRS = StrTuple()
JSON = JsonMapping()
GEOMETRY = GeometryOf()
POLYGON = GeometryOf({"Polygon"})
OPT_INT = Optional(INT)
OPT_FLOAT = Optional(FLOAT)
OPT_POINT = Optional(POINT)
OPT_GEOREF = GeorefOf()
