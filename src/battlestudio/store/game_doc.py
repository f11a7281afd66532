"""The document's ``game`` object: what a battle file keeps about its recorded game beside the
events — the bookmarks (``{"name", "position", "note"}``, position = events applied) and the
``ruleset`` fingerprint (``{"ruleset", "hash", "values", "scenario"}``, ``rules.fingerprint``).

A ``.battle.json`` holds it as the top-level key ``game``; a ``.battle`` file as the JSON text of
its ``meta`` row ``game``. Both exist from schema version 3 and only when there is something to
keep, so a battle without bookmarks is written exactly as before (version 2 or older).
"""

from __future__ import annotations

from typing import Any

from battlestudio.replay.battle import Battle, Bookmark
from battlestudio.store.errors import DocumentError
from battlestudio.store.fields import _kind, show

GAME_SINCE = 3
"""The schema version that added the ``game`` object."""

BOOKMARK_KEYS = ("name", "position", "note")


def game_to_doc(battle: Battle) -> dict[str, Any] | None:
    """The ``game`` object of ``battle``, or None when it has nothing to keep. A bookmark past
    the last event (its events were taken back) is kept at the end of the game."""
    if not battle.bookmarks and battle.ruleset_record is None:
        return None
    n = len(battle.events)
    out: dict[str, Any] = {}
    if battle.bookmarks:
        out["bookmarks"] = [{"name": b.name, "position": min(b.position, n), "note": b.note} for b in battle.bookmarks]
    if battle.ruleset_record is not None:
        out["ruleset"] = _sorted(battle.ruleset_record)  # the order a .battle's meta row keeps
    return out


def _sorted(value: Any) -> Any:
    """``value`` with every mapping's keys in sorted order (as ``json.dumps(sort_keys=True)``),
    so a game converted .battle.json → .battle → .battle.json is byte-identical."""
    if isinstance(value, dict):
        return {k: _sorted(value[k]) for k in sorted(value)}
    if isinstance(value, list):
        return [_sorted(v) for v in value]
    return value


def game_from_doc(raw: Any, events: int) -> dict[str, Any]:
    """The ``Battle`` fields the ``game`` object ``raw`` holds (``{"bookmarks": [...]}``), checked
    against a game of ``events`` events.

    Raises
    ------
    DocumentError
        naming the path (``game.bookmarks[2].position``) and the bad value.
    """
    if not isinstance(raw, dict):
        raise DocumentError("game", f"expected an object, got {_kind(raw)}")
    for key in raw:
        if key not in ("bookmarks", "ruleset"):
            raise DocumentError(f"game.{key}", "unknown key (the game object has bookmarks, ruleset)")
    marks = raw.get("bookmarks", [])
    if not isinstance(marks, list):
        raise DocumentError("game.bookmarks", f"expected a list, got {_kind(marks)}")
    out: list[Bookmark] = []
    for n, m in enumerate(marks):
        where = f"game.bookmarks[{n}]"
        if not isinstance(m, dict):
            raise DocumentError(where, f"expected an object, got {_kind(m)}")
        for key in m:
            if key not in BOOKMARK_KEYS:
                raise DocumentError(f"{where}.{key}", f"unknown key (a bookmark has {', '.join(BOOKMARK_KEYS)})")
        name, pos, note = m.get("name"), m.get("position"), m.get("note", "")
        if not isinstance(name, str) or not name.strip():
            raise DocumentError(f"{where}.name", f"expected a non-empty text, got {show(name)}")
        if isinstance(pos, bool) or not isinstance(pos, int) or not 0 <= pos <= events:
            raise DocumentError(
                f"{where}.position", f"expected a whole number from 0 to {events} (the game's events), got {show(pos)}"
            )
        if not isinstance(note, str):
            raise DocumentError(f"{where}.note", f"expected a text, got {show(note)}")
        out.append(Bookmark(name, pos, note))
    fields: dict[str, Any] = {"bookmarks": sorted(out, key=lambda b: b.position)}
    if "ruleset" in raw:
        fields["ruleset_record"] = _ruleset(raw["ruleset"])
    return fields


def _ruleset(raw: Any) -> dict[str, Any]:
    """A checked ruleset fingerprint (``rules.fingerprint``)."""
    if not isinstance(raw, dict):
        raise DocumentError("game.ruleset", f"expected an object, got {_kind(raw)}")
    for key in raw:
        if key not in ("ruleset", "hash", "values", "scenario"):
            raise DocumentError(
                f"game.ruleset.{key}", "unknown key (a fingerprint has ruleset, hash, values, scenario)"
            )
    for key, kind, want in (("ruleset", str, "a text"), ("hash", str, "a text"), ("values", dict, "an object")):
        if not isinstance(raw.get(key), kind):
            raise DocumentError(f"game.ruleset.{key}", f"expected {want}, got {show(raw.get(key))}")
    if not isinstance(raw.get("scenario", {}), dict):
        raise DocumentError("game.ruleset.scenario", f"expected an object, got {_kind(raw.get('scenario'))}")
    return dict(raw)
