"""The ``.battle.json`` format: readable, diff-friendly JSON of a Battle.

Layout: one key per line, records sorted by id with their fields in model order, short lists
(points, GeoJSON geometries, id lists) and each event (payload keys sorted) on one line, so a change to one record
shows as a change to one line in a diff. Floats are written with ``repr`` (exact round trip);
UTF-8, ``\\n`` line ends, a final newline. Reading rejects duplicate keys, NaN/Infinity and
anything ``battle_from_doc`` finds wrong, naming the JSON path and the bad value.
"""

from __future__ import annotations

import json
import re
import os
from typing import Any

from shapely.geometry import mapping
from shapely.geometry.base import BaseGeometry

from battlestudio.replay.battle import Battle
from battlestudio.store.atomic import atomic_write
from battlestudio.store.codec import EVENT_HEAD, battle_from_doc, battle_to_doc, event_payload_json
from battlestudio.replay.recorded import heads_of
from battlestudio.store.event_places import raise_for_places
from battlestudio.store.errors import BattleFileError, DocumentError


def dumps(battle: Battle) -> str:
    """The ``.battle.json`` text of ``battle``.

    Raises
    ------
    DocumentError
        for a value that cannot be stored, naming its path.
    """
    doc = battle_to_doc(battle)
    lines = ["{"]
    keys = list(doc)
    for n, key in enumerate(keys):
        comma = "," if n < len(keys) - 1 else ""
        value = doc[key]
        if key == "events" and value:
            lines.append(f"  {_scalar(key)}: [")
            lines.extend(
                f"    {_event_line(item, i)}{',' if i < len(value) - 1 else ''}" for i, item in enumerate(value)
            )
            lines.append(f"  ]{comma}")
        else:
            lines.append(f"  {_scalar(key)}: {_pretty(value, 1)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _event_line(event: dict[str, Any], n: int) -> str:
    """``{"kind": …, "turn": …, "side": …, "phase": …, <payload keys sorted>}`` on one line."""
    head = ", ".join(f"{_scalar(k)}: {_scalar(event[k])}" for k in EVENT_HEAD)
    payload = event_payload_json(event, f"events[{n}]", (", ", ": "))[1:-1]
    return f"{{{head}, {payload}}}" if payload else f"{{{head}}}"


def _scalar(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(", ", ": "), default=_geojson)


def _geojson(value: Any) -> Any:
    if isinstance(value, BaseGeometry):
        return mapping(value)
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def _flat(value: Any) -> bool:
    """True for values written on one line: scalars, geometries, lists of flat scalars."""
    if isinstance(value, BaseGeometry):
        return True
    if isinstance(value, list):
        return all(not isinstance(v, dict) and _flat(v) for v in value)
    return not isinstance(value, dict) or not value


def _pretty(value: Any, depth: int) -> str:
    if _flat(value):
        return _compact(value)
    pad, inner = "  " * depth, "  " * (depth + 1)
    if isinstance(value, list):
        items = [f"{inner}{_pretty(v, depth + 1)}" for v in value]
        return "[\n" + ",\n".join(items) + f"\n{pad}]"
    items = [f"{inner}{_scalar(k)}: {_pretty(v, depth + 1)}" for k, v in value.items()]
    return "{\n" + ",\n".join(items) + f"\n{pad}}}"


def loads(text: str) -> Battle:
    """Parse and check ``.battle.json`` text.

    Raises
    ------
    DocumentError
        for text that is not JSON (with line and column) or a document that is wrong
        (with the JSON path and the bad value).
    """
    try:
        doc = json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        said = exc.msg[:1].lower() + exc.msg[1:]
        said = said.removesuffix(" starting at")  # Python's "Unterminated string starting at": the place follows
        raise DocumentError(f"line {exc.lineno} column {exc.colno}", f"not valid JSON: {said}") from None
    except _DuplicateKey as exc:
        raise DocumentError(
            f"key {exc.args[0]!r}", "appears twice in one object; a BattleStudio document gives each key once"
        ) from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):  # Python's int-size guard, in the user's words
            m = re.search(r"\d{4300,}", text)
            at = _place(text, m.start()) if m else ""
            raise DocumentError(
                at, "a number of more than 4,300 digits; no value in a battle file is that long"
            ) from None
        raise DocumentError(_constant_place(text), f"not valid JSON: {exc}") from None
    except RecursionError:
        raise DocumentError(
            "", "nested too deeply: more lists and objects inside each other than can be read"
        ) from None
    if "\\ud" in text or "\\uD" in text:  # an escaped surrogate: refuse a lone one, which could not be saved
        found = _lone_surrogate(doc, "")
        if found is not None:
            raise DocumentError(found[0], f"{found[1]}; the file could not be saved as it is")
    return battle_from_doc(doc)


def _lone_surrogate(value: Any, where: str, depth: int = 0) -> tuple[str, str] | None:
    """The JSON path of the first string (or key) holding a lone surrogate, and what is wrong; or None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            return (
                where,
                f"not valid Unicode text (a lone surrogate U+{ord(value[exc.start]):04X} at character {exc.start})",
            )
        return None
    if depth > 500:
        return None
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for k, v in items:
        sub = (f"{where}.{k}" if where else k) if isinstance(k, str) else f"{where}[{k}]"
        bad_key = _lone_surrogate(k, sub) if isinstance(k, str) else None
        if bad_key is not None:
            return bad_key
        found = _lone_surrogate(v, sub, depth + 1)
        if found is not None:
            return found
    return None


class _DuplicateKey(Exception):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _DuplicateKey(k)
        out[k] = v
    return out


_CONSTANT = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)')


def _constant_place(text: str) -> str:
    """``line L column C`` of the first NaN or Infinity outside a string in ``text``, or ""."""
    for m in _CONSTANT.finditer(text):
        if m.group(1):
            return _place(text, m.start(1))
    return ""


def _place(text: str, i: int) -> str:
    """``line L column C`` (1-based) of character ``i`` of ``text``."""
    return f"line {text.count(chr(10), 0, i) + 1} column {i - (text.rfind(chr(10), 0, i) + 1) + 1}"


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def save_json(battle: Battle, path: str | os.PathLike[str]) -> None:
    """Write ``battle`` to the ``.battle.json`` file ``path``, replacing it atomically.

    Raises
    ------
    BattleFileError
        when a value cannot be stored (naming its JSON path); nothing is written.
    OSError
        when the file cannot be written (the previous file is left intact).
    """
    try:
        data = dumps(battle).encode("utf-8")
    except DocumentError as err:
        raise BattleFileError(path, f"{err.what} (not saved)", err.where) from None
    except (UnicodeEncodeError, TypeError, ValueError) as exc:
        raise BattleFileError(path, f"cannot save: {exc}") from None

    def fill(tmp: str) -> None:
        with open(tmp, "wb") as f:
            write_all(f, data)

    atomic_write(path, fill)


def write_all(f: Any, data: bytes, block: int = 1 << 20) -> None:
    """Write ``data`` to the binary file ``f`` in blocks (a failing block leaves it partial)."""
    for i in range(0, len(data), block):
        f.write(data[i : i + block])
    f.flush()


def load_json(path: str | os.PathLike[str]) -> Battle:
    """Read the ``.battle.json`` file ``path``.

    Raises
    ------
    BattleFileError
        if the file is missing, empty, not UTF-8, not JSON, or not a valid document; the
        message names the file, the JSON path or line, and the bad value.
    """
    try:
        with open(path, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise BattleFileError(path, "no such file") from None
    except IsADirectoryError:
        raise BattleFileError(path, "is a directory, not a file") from None
    except OSError as exc:
        raise BattleFileError(path, f"cannot read: {exc.strerror or exc}") from None
    if not data.strip():
        raise BattleFileError(path, "file is empty")
    if data.startswith(b"SQLite format 3\x00"):
        raise BattleFileError(path, "not JSON: this is an SQLite .battle file (name it .battle)")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise BattleFileError(path, f"not UTF-8 text (bad byte at offset {exc.start})") from None
    try:
        battle = loads(text)
        raise_for_places(heads_of(battle.events), battle.scenario, "events[{i}]")
        return battle
    except DocumentError as err:
        raise BattleFileError.from_document(path, err) from None
