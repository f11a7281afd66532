"""Reading an ORBAT Mapper scenario file: the JSON document, its version, and its order of
battle walked into nodes with their JSON paths, each field checked as it is read.

Every failure is an ``OrbatMapperError`` naming the file and the JSON path of the field
(``$.sides[0].groups[1].subUnits[3].id``) with what is wrong.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, UTC
from pathlib import Path
from typing import Any

from battlestudio.store.importers.common import ImportWarning, OobImportError, check_input_file, json_too_deep

FORMAT_TYPE = "ORBAT-mapper"
READ_VERSIONS = ("3.2.0", "3.3.0", "3.4.0", "3.5.0", "3.6.0")
"""ORBAT Mapper file versions read as they are (its own upgrader changes nothing in units, state
or events from 3.2.0 on); older ones are upgraded by ``orbat_mapper_upgrade`` where known."""
GUN_WORDS = ("gun", "howitzer", "cannon", "mortar", "artillery", "piece")
HORSE_WORDS = ("horse",)


class OrbatMapperError(OobImportError):
    """An ORBAT Mapper file that cannot be imported; ``path`` is the JSON path of the field
    (``$`` for the file as a whole, then left out of the message)."""

    def __init__(self, file: str, path: str, message: str) -> None:
        super().__init__(f"{file}: {path}: {message}" if path != "$" else f"{file}: {message}")
        self.file = file
        self.path = path


@dataclass
class Node:
    id: str
    path: str
    data: Mapping[str, Any]
    side: str
    group: str
    parent: str | None
    children: list[str] = field(default_factory=list)


@dataclass
class Entry:
    t: datetime
    path: str
    data: Mapping[str, Any]
    order: int


class Reader:
    def __init__(self, file: str) -> None:
        self.file = file
        self.warnings: list[ImportWarning] = []

    def fail(self, path: str, message: str) -> OrbatMapperError:
        return OrbatMapperError(self.file, path, message)

    def warn(self, message: str, text: str = "", severity: str = "warning") -> None:
        self.warnings.append(ImportWarning(self.file, 0, message, text, severity))

    def note(self, message: str, text: str = "") -> None:
        self.warn(message, text, "note")

    def obj(self, value: Any, path: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(path, f"must be an object, not {kind_of(value)}")
        return value

    def arr(self, parent: Mapping[str, Any], key: str, path: str, required: bool = False) -> list[Any]:
        value = parent.get(key)
        if value is None:
            if required:
                raise self.fail(f"{path}.{key}", "missing (a list is required)")
            return []
        if not isinstance(value, list):
            raise self.fail(f"{path}.{key}", f"must be a list, not {kind_of(value)}")
        return value

    def ident(self, parent: Mapping[str, Any], path: str) -> str:
        value = parent.get("id")
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, str) or not value.strip():
            what = "missing" if value is None else f"{value!r} is not an id"
            raise self.fail(f"{path}.id", f"{what} (every side, group and unit needs a non-empty id)")
        return value

    def time(self, value: Any, path: str) -> datetime:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            try:
                return datetime.fromtimestamp(value / 1000.0, tz=UTC)
            except (OverflowError, OSError, ValueError):  # beyond year 1..9999 or not finite
                raise self.fail(path, f"{value!r} is not a time in milliseconds since 1970 (years 1 to 9999)") from None
        if isinstance(value, str):
            try:
                t = datetime.fromisoformat(value.strip())
            except ValueError:
                pass
            else:
                return t if t.tzinfo else t.replace(tzinfo=UTC)
        raise self.fail(path, f"{value!r} is not a time (an ISO 8601 date and time, e.g. 1806-10-14T06:00:00+01:00)")

    def position(self, value: Any, path: str) -> tuple[float, float]:
        ok = (
            isinstance(value, list)
            and len(value) >= 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) and abs(v) <= 1e6 for v in value[:2])
        )
        if ok:
            lon, lat = float(value[0]), float(value[1])
            if math.isfinite(lon) and math.isfinite(lat) and -180 <= lon <= 180 and -90 <= lat <= 90:
                return (lon, lat)
        shown = repr(value) if len(repr(value)) <= 80 else repr(value)[:77] + "..."
        raise self.fail(path, f"{shown} is not a place [longitude, latitude] in WGS84 degrees")


def kind_of(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", type(None): "null", bool: "a boolean"}.get(
        type(value), "a number" if isinstance(value, (int, float)) else type(value).__name__
    )


def read_orbat_mapper(path: str | Path) -> dict[str, Any]:
    """The JSON object of an ORBAT Mapper file.

    Raises
    ------
    OrbatMapperError
        when the file cannot be read or is not JSON (the path is ``$``).
    """
    try:
        check_input_file(path)
    except OobImportError as exc:
        raise OrbatMapperError(str(path), "$", str(exc).removeprefix(f"{path}: ")) from None
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise OrbatMapperError(str(path), "$", f"cannot read file ({exc.strerror or exc})") from exc
    except UnicodeDecodeError as exc:
        raise OrbatMapperError(str(path), "$", f"not UTF-8 text (byte offset {exc.start})") from exc
    deep = json_too_deep(text)
    if deep:
        raise OrbatMapperError(str(path), "$", f"nested too deeply: {deep}")
    try:
        data = json.loads(text)
    except RecursionError:
        raise OrbatMapperError(str(path), "$", "nested too deeply for JSON reading") from None
    except json.JSONDecodeError as exc:
        raise OrbatMapperError(str(path), "$", f"not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}") from exc
    if not isinstance(data, dict):
        raise OrbatMapperError(str(path), "$", f"must be an object, not {kind_of(data)}")
    return data


def check_version(doc: Mapping[str, Any], file: str, upgradable: Sequence[str] = ()) -> str:
    """The file's ``version`` if this importer reads it (``READ_VERSIONS``) or upgrades it
    (``upgradable``).

    Raises
    ------
    OrbatMapperError
        for a file that is not an ORBAT Mapper scenario, an encrypted one, or a version neither
        read nor upgradable (named, with what to do).
    """
    kind = doc.get("type")
    if kind == "ORBAT-mapper-encrypted":
        raise OrbatMapperError(
            file, "$.type", "an encrypted ORBAT Mapper scenario; open it in ORBAT Mapper and save it unencrypted"
        )
    if kind != FORMAT_TYPE:
        raise OrbatMapperError(file, "$.type", f"{kind!r} is not {FORMAT_TYPE!r}: not an ORBAT Mapper scenario")
    version = doc.get("version")
    if not isinstance(version, str):
        raise OrbatMapperError(file, "$.version", f"{version!r} is not a version string such as '3.4.0'")
    if version not in READ_VERSIONS and version not in upgradable:
        if _version_key(version) < _version_key(READ_VERSIONS[0]):
            hint = "written by an older ORBAT Mapper; open it in ORBAT Mapper and save it to upgrade it"
        else:
            hint = "newer than this importer knows"
        also = f"; upgraded: {', '.join(upgradable)}" if upgradable else ""
        raise OrbatMapperError(
            file, "$.version", f"version {version!r} is not read ({hint}); read: {', '.join(READ_VERSIONS)}{also}"
        )
    return version


def _version_key(v: str) -> tuple[int, ...]:
    try:
        return tuple(int(p) for p in v.split("."))
    except ValueError:
        return (0,)


# -- the order of battle -----------------------------------------------------------------------
def walk(
    r: Reader, doc: Mapping[str, Any]
) -> tuple[list[tuple[str, Mapping[str, Any], str]], dict[str, Node], dict[str, dict[str, str]]]:
    """Sides (id, data, path), nodes by id (file order), groups {id: {side, name}}."""
    sides: list[tuple[str, Mapping[str, Any], str]] = []
    nodes: dict[str, Node] = {}
    groups: dict[str, dict[str, str]] = {}
    seen: dict[str, str] = {}

    def unit(data: Any, path: str, side: str, group: str, parent: str | None, ancestors: tuple[str, ...]) -> None:
        u = r.obj(data, path)
        uid = r.ident(u, path)
        if uid in ancestors:
            raise r.fail(
                f"{path}.id", f"unit {uid!r} is nested inside itself (a cycle in subUnits, first at {seen[uid]})"
            )
        if uid in seen:
            raise r.fail(f"{path}.id", f"id {uid!r} is used twice (first at {seen[uid]})")
        seen[uid] = path
        nodes[uid] = Node(uid, path, u, side, group, parent)
        if parent is not None:
            nodes[parent].children.append(uid)
        for i, sub in enumerate(r.arr(u, "subUnits", path)):
            unit(sub, f"{path}.subUnits[{i}]", side, group, uid, (*ancestors, uid))

    for i, s in enumerate(r.arr(doc, "sides", "$", required=True)):
        spath = f"$.sides[{i}]"
        side = r.obj(s, spath)
        sid = r.ident(side, spath)
        if sid in seen:
            raise r.fail(f"{spath}.id", f"id {sid!r} is used twice (first at {seen[sid]})")
        seen[sid] = spath
        sides.append((sid, side, spath))
        for j, sub in enumerate(r.arr(side, "subUnits", spath)):
            unit(sub, f"{spath}.subUnits[{j}]", sid, "", None, ())
        for j, g in enumerate(r.arr(side, "groups", spath)):
            gpath = f"{spath}.groups[{j}]"
            grp = r.obj(g, gpath)
            gid = r.ident(grp, gpath)
            if gid in seen:
                raise r.fail(f"{gpath}.id", f"id {gid!r} is used twice (first at {seen[gid]})")
            seen[gid] = gpath
            groups[gid] = {"side": sid, "name": str(grp.get("name") or gid)}
            for k, sub in enumerate(r.arr(grp, "subUnits", gpath)):
                unit(sub, f"{gpath}.subUnits[{k}]", sid, gid, None, ())
    return sides, nodes, groups


def entries(r: Reader, node: Node) -> list[Entry]:
    out = []
    for i, s in enumerate(r.arr(node.data, "state", node.path)):
        path = f"{node.path}.state[{i}]"
        st = r.obj(s, path)
        if "t" not in st:
            raise r.fail(f"{path}.t", "missing (every state entry needs its time)")
        out.append(Entry(r.time(st["t"], f"{path}.t"), path, st, i))
    out.sort(key=lambda e: (e.t, e.order))
    return out


def strength(u: Mapping[str, Any]) -> tuple[int, int, int]:
    """(men, horses, guns) from the unit's TO&E."""

    def amount(item: Any) -> int:
        if not isinstance(item, Mapping):
            return 0
        v = item.get("onHand", item.get("count", 0))
        return int(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and v > 0 else 0

    men = sum(amount(p) for p in u.get("personnel") or [] if isinstance(u.get("personnel"), list))
    horses = guns = 0
    for e in u.get("equipment") or [] if isinstance(u.get("equipment"), list) else []:
        name = str(e.get("name", "")).lower() if isinstance(e, Mapping) else ""
        if any(w in name for w in HORSE_WORDS):
            horses += amount(e)
        elif any(w in name for w in GUN_WORDS):
            guns += amount(e)
    return men, horses, guns


def count_units(doc: Mapping[str, Any]) -> int:
    """How many units an ORBAT Mapper document holds (every side's and group's, recursively)."""

    def walk(units: Any) -> Iterator[Any]:
        for u in units or []:
            yield u
            yield from walk(u.get("subUnits") if isinstance(u, Mapping) else None)

    n = 0
    for side in doc.get("sides") or []:
        n += sum(1 for _ in walk(side.get("subUnits")))
        for g in side.get("groups") or []:
            n += sum(1 for _ in walk(g.get("subUnits")))
    return n
