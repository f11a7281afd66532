"""The ruleset fingerprint of a recorded game: the rule numbers in force when it was recorded.

``fingerprint(ruleset_id, scenario)`` is ``{"ruleset", "hash", "values", "scenario"}``: every
value of ``resources/rulesets/<id>.toml`` (missing entries left out), the scenario's parameters
and a SHA-256 of both (canonical JSON), so a reader can tell, and name, what changed since
(``changes``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from battlestudio.rules.params import RuleRefused, load_ruleset_file


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"), default=str)


def _plain(value: Any) -> Any:
    """``value`` as JSON data (toml dates as text, tuples as lists)."""
    return json.loads(_canonical(value))


def fingerprint(ruleset_id: str, scenario: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The rule numbers of ``ruleset_id`` in force now, with the scenario's parameters.

    Raises
    ------
    RuleRefused
        when the ruleset's file cannot be read (``load_ruleset_file``).
    """
    _header, entries = load_ruleset_file(ruleset_id)
    values = {k: _plain(e.value) for k, e in sorted(entries.items()) if e.value is not None}
    params = _plain(dict(scenario or {}))
    digest = hashlib.sha256(_canonical({"values": values, "scenario": params}).encode()).hexdigest()
    return {"ruleset": ruleset_id, "hash": digest, "values": values, "scenario": params}


def changes(recorded: Mapping[str, Any], current: Mapping[str, Any]) -> list[str]:
    """What differs between a ``recorded`` fingerprint and the ``current`` one, one line each
    (``"command_thresholds: [4, 6, 8] → [5, 6, 8]"``, ``"scenario initiative: french → prussian"``);
    empty when the hashes agree."""
    if recorded.get("hash") == current.get("hash") and recorded.get("ruleset") == current.get("ruleset"):
        return []
    if recorded.get("ruleset") != current.get("ruleset"):
        return [f"ruleset: {recorded.get('ruleset')} → {current.get('ruleset')}"]
    out = []
    for label, key in (("", "values"), ("scenario ", "scenario")):
        old, new = recorded.get(key) or {}, current.get(key) or {}
        for k in sorted(set(old) | set(new)):
            if k not in new:
                out.append(f"{label}{k}: {_canonical(old[k])} → (gone)")
            elif k not in old:
                out.append(f"{label}{k}: (none) → {_canonical(new[k])}")
            elif _canonical(old[k]) != _canonical(new[k]):
                out.append(f"{label}{k}: {_show(old[k])} → {_show(new[k])}")
    return out or ["the rule numbers' fingerprint differs"]


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=str)


def ruleset_changes(record: Mapping[str, Any] | None, ruleset_id: str, scenario: Mapping[str, Any]) -> list[str]:
    """``changes`` from a game's ``record`` (None: nothing recorded, nothing to say) to the
    numbers in force now; a ruleset whose file cannot be read is said as such."""
    if not record:
        return []
    try:
        now = fingerprint(ruleset_id, scenario)
    except (OSError, ValueError, RuleRefused) as exc:
        return [f"the ruleset {ruleset_id!r} cannot be read now: {exc}"]
    return changes(record, now)


def recorded_parameters(
    record: Mapping[str, Any] | None, ruleset_id: str, scenario: Mapping[str, Any]
) -> dict[str, Any] | None:
    """Scenario parameters that make any ruleset compute with the numbers of ``record`` (a
    game's fingerprint): the recorded scenario parameters plus every recorded file value as
    ``<ruleset>.<key>`` (a scenario value wins over the file, ``RuleParameters.get``).

    None when there is nothing to change: no record, a record of another ruleset (its numbers
    do not apply), or the same numbers as now (``ruleset_changes`` is empty).
    """
    if not record or record.get("ruleset") != ruleset_id or not ruleset_changes(record, ruleset_id, scenario):
        return None
    out: dict[str, Any] = {f"{ruleset_id}.{k}": v for k, v in (record.get("values") or {}).items()}
    out.update(record.get("scenario") or {})
    return out
