"""The column mapping of the table importer: reading a TOML mapping and checking every key.

The format itself (every section and key, with an example) is described in the docstring of
``battlestudio.store.importers.tabular`` and in ``docs/import-mapping.md``. This module owns
``KNOWN`` (the sections and keys a mapping may hold), ``Mapping_`` (a checked mapping) and
``load_mapping``, which refuses an unknown section or key, a value of the wrong type, an empty
column name, a column named twice in ``levels`` and a ``[values.*]`` target that is not a known
arm, quality or echelon, with a message naming the mapping file, the key and the bad value.
"""

from __future__ import annotations

import tomllib
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Mapping, Sequence

from battlestudio.model.units import Echelon, Quality, Subtype
from battlestudio.store.importers.common import OobImportError, check_input_file

ARMS = ("infantry", "cavalry", "artillery", "other", "command")
"""What ``[values.arm]`` may map a source value to."""
ECHELONS = {e.value for e in Echelon}
QUALITIES = [q.value for q in Quality]
SUBTYPES = [t.value for t in Subtype]
NUMERIC_COLUMNS = ("men", "horses", "guns", "bases", "figures")
"""``[columns]`` keys that may list several columns (their numbers are added)."""

KNOWN: dict[str, tuple[str, ...]] = {
    "hierarchy": ("path", "separator", "prefix", "id", "parent", "levels", "sheet"),
    "columns": (
        "name",
        "commander",
        "men",
        "horses",
        "guns",
        "bases",
        "figures",
        "arm",
        "subtype",
        "quality",
        "nation",
        "side",
        "echelon",
        "year",
    ),
    "values": ("arm", "subtype", "quality", "echelon", "side"),
    "defaults": ("side", "nation", "quality", "arm", "year"),
    "source": ("title", "url", "licence"),
}
"""Every section of a mapping and the keys it may hold."""


@dataclass
class Mapping_:
    """A checked column mapping (see ``battlestudio.store.importers.tabular``)."""

    mode: str
    hierarchy: dict[str, Any]
    columns: dict[str, Any]
    values: dict[str, dict[str, str]] = field(default_factory=dict)
    defaults: dict[str, str] = field(default_factory=dict)
    source: dict[str, str] = field(default_factory=dict)
    origin: str = "mapping"


def _known(origin: str, where: str, keys: Mapping[str, Any], known: tuple[str, ...]) -> None:
    for k in keys:
        if k not in known:
            raise OobImportError(f"{origin}: unknown key {k!r} in {where}; known keys: {', '.join(known)}")


def _text(origin: str, where: str, value: Any, what: str = "a column name") -> str:
    if not isinstance(value, str) or not value.strip():
        raise OobImportError(f"{origin}: {where} = {value!r}: expected {what} (a non-empty quoted string)")
    return value


def _table(origin: str, where: str, value: Any) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise OobImportError(f"{origin}: {where} = {value!r}: expected a table ({where} section)")
    return value


def load_mapping(spec: str | Path | Mapping[str, Any]) -> Mapping_:
    """Read and check a column mapping (a TOML file, or the same dict).

    Parameters
    ----------
    spec : str | Path | Mapping
        path of the TOML file, or its content as a dict.

    Returns
    -------
    Mapping_

    Raises
    ------
    OobImportError
        naming the mapping file (``mapping`` for a dict), the key at fault and its value: an
        unreadable or invalid TOML file, an unknown section or key (the known ones are listed),
        a value of the wrong type, a duplicated ``levels`` column, not exactly one of ``path``,
        ``id`` + ``parent`` or ``levels``, or a ``[values.*]`` target that is not known.
    """
    origin = "mapping"
    if not isinstance(spec, Mapping):
        origin = str(spec)
        if Path(spec).exists():  # a FIFO would block the read; a missing file is said below
            check_input_file(spec, 1 << 20)
        try:
            spec = tomllib.loads(Path(spec).read_text(encoding="utf-8"))
        except OSError as e:
            raise OobImportError(f"{origin}: cannot read mapping ({e.strerror or e})") from e
        except UnicodeDecodeError as e:
            raise OobImportError(f"{origin}: not UTF-8 text (byte offset {e.start})") from e
        except tomllib.TOMLDecodeError as e:
            raise OobImportError(f"{origin}: not valid TOML ({e})") from e
    for sec in spec:
        if sec not in KNOWN:
            raise OobImportError(
                f"{origin}: unknown section [{sec}]; known sections: " + ", ".join(f"[{s}]" for s in KNOWN)
            )
    h = dict(_table(origin, "[hierarchy]", spec.get("hierarchy", {})))
    _known(origin, "[hierarchy]", h, KNOWN["hierarchy"])
    modes = [m for m in ("path", "id", "levels") if m in h]
    if len(modes) != 1:
        raise OobImportError(f"{origin}: [hierarchy] needs exactly one of path, id (+ parent) or levels; got {modes}")
    for k in ("path", "prefix", "id", "parent", "sheet"):
        if k in h:
            _text(origin, f"[hierarchy] {k}", h[k], "a worksheet name" if k == "sheet" else "a column name")
    if "separator" in h:
        _text(origin, "[hierarchy] separator", h["separator"], 'a separator such as "."')
    if modes[0] == "id" and "parent" not in h:
        raise OobImportError(f"{origin}: [hierarchy] id needs a parent column")
    if modes[0] != "id" and "parent" in h:
        raise OobImportError(f"{origin}: [hierarchy] parent is read only with id, not with {modes[0]}")
    if modes[0] == "levels":
        levels = h["levels"]
        if not isinstance(levels, list) or not levels:
            raise OobImportError(
                f"{origin}: [hierarchy] levels = {levels!r}: expected a list of column names, "
                'one per echelon, e.g. levels = ["army", "corps", "division"]'
            )
        for i, c in enumerate(levels):
            _text(origin, f"[hierarchy] levels[{i}]", c)
            if c in levels[:i]:
                raise OobImportError(f"{origin}: [hierarchy] levels = {levels!r}: column {c!r} is named twice")
    cols = dict(_table(origin, "[columns]", spec.get("columns", {})))
    _known(origin, "[columns]", cols, KNOWN["columns"])
    for k, v in cols.items():
        if k in NUMERIC_COLUMNS and isinstance(v, list):
            if not v:
                raise OobImportError(f"{origin}: [columns] {k} = []: expected a column name or a list of them")
            for i, c in enumerate(v):
                _text(origin, f"[columns] {k}[{i}]", c)
        else:
            _text(origin, f"[columns] {k}", v, "a column name" + (" or a list of them" if k in NUMERIC_COLUMNS else ""))
    if "name" not in cols and modes[0] != "levels":
        raise OobImportError(f"{origin}: [columns] needs a name column")
    values: dict[str, dict[str, str]] = {}
    for k, table in _table(origin, "[values]", spec.get("values", {})).items():
        _known(origin, "[values]", {k: 0}, KNOWN["values"])
        values[k] = {
            str(a): _text(origin, f"[values.{k}] {a!r}", b, f"a {k} name")
            for a, b in _table(origin, f"[values.{k}]", table).items()
        }
    for k, allowed in (
        ("arm", list(ARMS)),
        ("subtype", SUBTYPES),
        ("quality", QUALITIES),
        ("echelon", sorted(ECHELONS)),
    ):
        for src, tgt in values.get(k, {}).items():
            if tgt not in allowed:
                raise OobImportError(f"{origin}: values.{k}.{src} = {tgt!r} is not one of {', '.join(allowed)}")
    defaults = dict(_table(origin, "[defaults]", spec.get("defaults", {})))
    _known(origin, "[defaults]", defaults, KNOWN["defaults"])
    for k, v in defaults.items():
        if k == "year":
            if isinstance(v, bool) or not (isinstance(v, int) or (isinstance(v, str) and v.isdigit())):
                raise OobImportError(f"{origin}: [defaults] year = {v!r}: expected a year such as 1806")
            continue
        _text(origin, f"[defaults] {k}", v, f"a {k}")
    if defaults.get("arm", "infantry") not in ARMS:
        raise OobImportError(f"{origin}: [defaults] arm = {defaults['arm']!r} is not one of {', '.join(ARMS)}")
    if defaults.get("quality", "regular") not in QUALITIES:
        raise OobImportError(
            f"{origin}: [defaults] quality = {defaults['quality']!r} is not one of {', '.join(QUALITIES)}"
        )
    source = dict(_table(origin, "[source]", spec.get("source", {})))
    _known(origin, "[source]", source, KNOWN["source"])
    for k, v in source.items():
        _text(origin, f"[source] {k}", v, f"a {k}")
    return Mapping_(modes[0], h, cols, values, defaults, source, origin)


# -- a mapping as per-column fields (the Import dialog's table) -------------------------------

MAX_LEVELS = 8
"""Most ``levels`` columns the per-column form offers (``level 1`` … ``level 8``)."""
HIERARCHY_FIELDS = ("path", "prefix", "id", "parent")
"""Per-column fields that go to ``[hierarchy]`` (``level N`` goes to ``levels``)."""
COLUMN_FIELDS = KNOWN["columns"]
FIELDS: tuple[str, ...] = (
    "",
    *COLUMN_FIELDS,
    *HIERARCHY_FIELDS,
    *(f"level {i}" for i in range(1, MAX_LEVELS + 1)),
)
"""What a column of the file can be read as: ``""`` (not read), a ``[columns]`` key, a
``[hierarchy]`` column, or ``level N`` (the N-th entry of ``[hierarchy] levels``)."""

_ALIASES: dict[str, tuple[str, ...]] = {
    "name": ("name", "unit", "unit name", "formation", "nom", "designation", "title", "label"),
    "commander": ("commander", "general", "leader", "commanding", "cmdr", "commander name", "chef", "officer"),
    "men": ("men", "strength", "total men", "effectif", "effectifs", "troops", "soldiers", "bayonets", "sabres"),
    "horses": ("horses", "mounts"),
    "guns": ("guns", "cannon", "cannons", "canons", "pieces", "artillery pieces", "ordnance"),
    "bases": ("bases", "elements", "stands", "battalions", "bns"),
    "figures": ("figures", "figs", "models", "miniatures"),
    "arm": ("arm", "arme", "branch", "utype", "unit type", "type", "troop type"),
    "subtype": ("subtype", "sub type", "class", "kind", "category"),
    "quality": ("quality", "grade", "rating", "morale", "experience", "training"),
    "nation": ("nation", "nationality", "country", "contingent"),
    "side": ("side", "belligerent", "allegiance", "faction"),
    "echelon": ("echelon", "cmd level", "command level", "rank", "level"),
    "year": ("year",),
    "path": ("path", "oob path"),
    "id": ("id", "unit id", "key", "uid"),
    "parent": ("parent", "parent id", "superior", "parent unit", "reports to"),
}
_LEVEL_WORDS = ("c in c", "army", "wing", "corps", "division", "brigade", "regiment", "battalion")


def _norm(header: str) -> str:
    plain = "".join(c for c in unicodedata.normalize("NFKD", header) if not unicodedata.combining(c))
    return " ".join("".join(c.lower() if c.isalnum() else " " for c in plain).split())


def guess_fields(header: Sequence[str]) -> dict[str, str]:
    """The automatic guess of what each column of ``header`` holds: column → one of ``FIELDS``.

    A column whose name is an echelon word (army, corps, division, brigade…) is a ``level``,
    numbered in header order; otherwise the name is matched against the usual words for each
    field (``bayonets`` and ``sabres`` both read as men, which the mapping adds up). A field
    other than men/horses/guns/bases/figures goes to the first column that names it; the other
    columns are not read (``""``).
    """
    out: dict[str, str] = {}
    taken: set[str] = set()
    level = 0
    levels = [h for h in header if _norm(h) in _LEVEL_WORDS]
    for h in header:
        n = _norm(h)
        field_ = ""
        if h in levels and len(levels) > 1 and level < MAX_LEVELS:
            level += 1
            field_ = f"level {level}"
        else:
            for f, words in _ALIASES.items():
                if n in words and (f in NUMERIC_COLUMNS or f not in taken):
                    field_ = f
                    break
        if field_ and field_ not in NUMERIC_COLUMNS:
            taken.add(field_)
        out[h] = field_
    if "id" in taken and "parent" not in taken:  # an id column alone does not nest rows
        out = {h: ("" if f == "id" else f) for h, f in out.items()}
    return out


def spec_from_fields(fields: Mapping[str, str], keep: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A mapping (the dict ``load_mapping`` reads) from column → field (``FIELDS``).

    ``keep`` is a mapping whose other parts are kept: ``[hierarchy] separator`` and ``sheet``,
    ``[values.*]``, ``[defaults]`` and ``[source]``. Numeric fields named by several columns
    become a list (added up); ``level N`` columns become ``levels`` in N order.
    """
    keep = keep or {}
    hierarchy: dict[str, Any] = {
        k: v for k, v in dict(keep.get("hierarchy", {})).items() if k in ("separator", "sheet")
    }
    columns: dict[str, Any] = {}
    levels: dict[int, str] = {}
    for col, f in fields.items():
        if not f:
            continue
        if f.startswith("level "):
            levels[int(f.split()[1])] = col
        elif f in HIERARCHY_FIELDS:
            hierarchy[f] = col
        elif f in NUMERIC_COLUMNS and f in columns:
            prev = columns[f]
            columns[f] = [*(prev if isinstance(prev, list) else [prev]), col]
        else:
            columns[f] = col
    if levels:
        hierarchy["levels"] = [levels[i] for i in sorted(levels)]
    if "path" not in hierarchy:
        hierarchy.pop("separator", None)
    spec: dict[str, Any] = {"hierarchy": hierarchy, "columns": columns}
    for sec in ("values", "defaults", "source"):
        if keep.get(sec):
            spec[sec] = {k: (dict(v) if isinstance(v, Mapping) else v) for k, v in dict(keep[sec]).items()}
    return spec


def fields_of(m: Mapping_) -> dict[str, str]:
    """Column → field of a checked mapping (the inverse of ``spec_from_fields`` for its columns)."""
    out: dict[str, str] = {}
    for i, col in enumerate(m.hierarchy.get("levels", []), start=1):
        out[col] = f"level {i}"
    for k in HIERARCHY_FIELDS:
        if k in m.hierarchy:
            out[m.hierarchy[k]] = k
    for k, v in m.columns.items():
        for col in v if isinstance(v, list) else [v]:
            out[col] = k
    return out


def as_spec(m: Mapping_) -> dict[str, Any]:
    """The dict ``load_mapping`` reads back as ``m``."""
    spec: dict[str, Any] = {"hierarchy": dict(m.hierarchy), "columns": dict(m.columns)}
    if m.values:
        spec["values"] = {k: dict(v) for k, v in m.values.items()}
    if m.defaults:
        spec["defaults"] = dict(m.defaults)
    if m.source:
        spec["source"] = dict(m.source)
    return spec


def _toml_key(k: str) -> str:
    return k if k and all(c.isascii() and (c.isalnum() or c in "-_") for c in k) else _toml_str(k)


def _toml_str(s: str) -> str:
    out = []
    for c in s:
        if c in '"\\':
            out.append("\\" + c)
        elif ord(c) < 0x20 or ord(c) == 0x7F:
            out.append(f"\\u{ord(c):04x}")
        else:
            out.append(c)
    return '"' + "".join(out) + '"'


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return _toml_str(str(v))


def dump_mapping(spec: Mapping[str, Any], comment: str = "") -> str:
    """``spec`` (a mapping as ``load_mapping`` reads it) as TOML text, sections in the order of
    ``docs/import-mapping.md``; ``comment`` goes first as ``#`` lines."""
    lines = [f"# {x}" for x in comment.splitlines()]
    for sec in ("hierarchy", "columns", "values", "defaults", "source"):
        table = spec.get(sec)
        if not table:
            continue
        if sec == "values":
            for k, sub in table.items():
                if sub:
                    lines += ["", f"[values.{_toml_key(k)}]"]
                    lines += [f"{_toml_key(str(a))} = {_toml_value(b)}" for a, b in sub.items()]
            continue
        lines += ["", f"[{sec}]"]
        lines += [f"{_toml_key(k)} = {_toml_value(v)}" for k, v in table.items()]
    return "\n".join(lines).lstrip("\n") + "\n"
