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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from collections.abc import Mapping

from battlestudio.model.units import Echelon, Quality
from battlestudio.store.importers.common import OobImportError, check_input_file

ARMS = ("infantry", "cavalry", "artillery", "other", "command")
"""What ``[values.arm]`` may map a source value to."""
ECHELONS = {e.value for e in Echelon}
QUALITIES = [q.value for q in Quality]
NUMERIC_COLUMNS = ("men", "horses", "guns", "bases")
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
        "arm",
        "quality",
        "nation",
        "side",
        "echelon",
        "year",
    ),
    "values": ("arm", "quality", "echelon", "side"),
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
    for k, allowed in (("arm", list(ARMS)), ("quality", QUALITIES), ("echelon", sorted(ECHELONS))):
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
