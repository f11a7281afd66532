"""A scenario's ruleset parameters as rows for the parameter editor, and checking a new value.

Each row is one number of ``resources/rulesets/<id>.toml`` (plus any parameter the ruleset's
``describe().unknown_parameters`` names that the file lacks): its name, rule section, status
(rule / assumed / missing), the ruleset's value and the scenario's override
(``ScenarioInfo.parameters``, plain or written ``<id>.<name>``). A missing value whose name is a
template (``zones_cm.<echelon>``) gets a row per key the scenario sets under it, plus the template
row itself. A new value must look like the ruleset's (or the file's example), and must not make
the ruleset refuse something it answered before (``new_refusal``).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping

from battlestudio.replay.state import GameState
from battlestudio.rules import MissingParameterError, Ruleset
from battlestudio.rules.params import ASSUMED, MISSING, RuleEntry, load_ruleset_file

_PLACEHOLDER = re.compile(r"<[^>]+>")


@dataclass(frozen=True, slots=True)
class ParameterRow:
    """One parameter: ``key`` as the ruleset reads it (without the ruleset prefix; a template
    still holds its ``<placeholder>``), rule ``section``, ``status``, ``text``, ``ambiguity``;
    ``ruleset_value`` (None when missing), ``scenario_key`` (the scenario's key that sets it,
    None when unset), the ``value`` in force, and the ``reference`` a new value must look like
    (the ruleset's value or the file's example; None: a number); ``choices``: the words a
    reading named by a word may take (empty: any)."""

    key: str
    section: str
    status: str
    text: str = ""
    ambiguity: str = ""
    ruleset_value: Any = None
    scenario_key: str | None = None
    value: Any = None
    reference: Any = None
    template: bool = False
    unset: bool = False
    """A missing value the scenario does not supply (for a template: nothing under it)."""
    choices: tuple[str, ...] = ()

    @property
    def overridden(self) -> bool:
        return self.scenario_key is not None


def _own_key(ruleset_id: str, key: str) -> str:
    prefix = f"{ruleset_id}."
    return key[len(prefix) :] if key.startswith(prefix) else key


def template_pattern(template: str) -> re.Pattern[str]:
    """The keys a template names: each ``<placeholder>`` stands for one or more dotted parts
    (``zones_cm.<echelon>`` matches ``zones_cm.army`` and ``zones_cm.France.army``)."""
    parts = _PLACEHOLDER.split(template)
    return re.compile("^" + r"[^.]+(?:\.[^.]+)*".join(re.escape(p) for p in parts) + "$")


def parameter_rows(ruleset: Ruleset, parameters: Mapping[str, Any]) -> list[ParameterRow]:
    """Every parameter ``ruleset`` knows with ``parameters``' values: the missing ones first,
    then the assumed readings, then the rule values, each in the file's order."""
    rid = ruleset.id
    _, entries = load_ruleset_file(rid)
    own: dict[str, str] = {}  # the ruleset's name → as the scenario spells it (plain wins, as it is read)
    for k in parameters:
        name = _own_key(rid, k)
        if name not in own or k == name:
            own[name] = k
    rows: list[ParameterRow] = []
    named: set[str] = set()
    for entry in entries.values():
        name = entry.parameter or entry.key
        named.add(name)
        rows += _rows_of(entry, name, own, parameters)
    for name in ruleset.describe().unknown_parameters:
        if not any(n == name or n.startswith(name + ".") for n in named):
            missing = RuleEntry(name, None, "", MISSING, "named by the ruleset; not in its parameter file")
            rows += _rows_of(missing, name, own, parameters)
    order = {MISSING: 0, ASSUMED: 1}
    return sorted(rows, key=lambda r: order.get(r.status, 2))  # stable: the file's order within a status


def _rows_of(entry: RuleEntry, name: str, own: Mapping[str, str], parameters: Mapping[str, Any]) -> list[ParameterRow]:
    def row(key: str, skey: str | None, value: Any, template: bool = False, unset: bool = False) -> ParameterRow:
        return ParameterRow(
            key,
            entry.section,
            entry.status,
            entry.text,
            entry.ambiguity,
            ruleset_value=None if entry.status == MISSING else entry.value,
            scenario_key=skey,
            value=value,
            reference=entry.example if entry.status == MISSING else entry.value,
            template=template,
            unset=unset,
            choices=entry.choices,
        )

    if entry.status == MISSING and _PLACEHOLDER.search(name):
        pattern = template_pattern(name)
        found = sorted(k for k in own if pattern.match(k))
        return [row(k, own[k], parameters[own[k]]) for k in found] + [row(name, None, None, True, not found)]
    skey = own.get(name)
    if skey is not None:
        return [row(name, skey, parameters[skey])]
    if entry.status == MISSING:
        return [row(name, None, None, unset=True)]
    return [row(name, None, entry.value)]


def show_value(value: Any) -> str:
    """A value as the editor shows (and reads back) it: JSON, strings bare; "" for None."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def parse_value(text: str) -> Any:
    """What the user typed: JSON (``15``, ``true``, ``[20, 40, "60+"]``, ``{}``), else the text
    itself as a string (``nearest``)."""
    text = text.strip()
    try:
        return json.loads(text)
    except ValueError:
        return text


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return f"a list of {len(value)} values"
    if isinstance(value, dict):
        return "a table of name = value"
    return type(value).__name__


def _is_distance(key: str) -> bool:
    """Whether ``key`` names a length in cm (a part ending in ``_cm``: march lengths, command
    distances, deductions), which is never negative."""
    return any(part.endswith("_cm") for part in key.split("."))


def check_value(row: ParameterRow, value: Any) -> str:
    """Why ``value`` cannot be ``row``'s ("" when it can): it must be of the kind of the
    ruleset's value (or the file's example; a number when there is neither) — a number finite,
    and not negative where the ruleset's is not or where it is a length in cm, one of the
    entry's ``choices`` where it names them, a list as long (any list where the ruleset's is
    empty)."""
    ref = row.reference
    want = "a number" if ref is None else _kind(ref)
    if isinstance(ref, bool):
        ok = isinstance(value, bool)
    elif ref is None or isinstance(ref, (int, float)):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
        if ok and value < 0 and (ref >= 0 if isinstance(ref, (int, float)) else _is_distance(row.key)):
            return "it must not be negative"
    elif isinstance(ref, str):
        ok = isinstance(value, str) and bool(value)
        if ok and row.choices and value not in row.choices:
            return "it must be one of " + ", ".join(row.choices)
    elif isinstance(ref, list):
        ok = isinstance(value, list) and (len(value) == len(ref) or not ref)
        want = "a list" if not ref else want
    elif isinstance(ref, dict):
        ok = isinstance(value, dict)
    else:
        ok = True
    return "" if ok else f"it must be {want}"


def refusals(ruleset: Ruleset, state: GameState, params: Mapping[str, Any]) -> set[str]:
    """What the ruleset refuses, as messages, when asked for every commander's reach, order
    budget and odds of command (to himself and to his first subordinate) and for who is out of
    command; a value the scenario has not given (``MissingParameterError``) is not counted."""
    out: set[str] = set()

    def ask(call: Any, *args: Any) -> None:
        try:
            call(*args)
        except MissingParameterError:
            pass
        except Exception as exc:  # noqa: BLE001 - a value that breaks the ruleset is refused
            out.add(str(exc) or type(exc).__name__)

    for cid in state.commanders:
        ask(ruleset.command_reach, state, cid, params)
        ask(ruleset.order_budget, state, cid, params)
        ask(ruleset.odds, state, params, cid, cid)
        first = next(iter(state.oob.subordinates(cid)), None)
        if first is not None:
            ask(ruleset.odds, state, params, cid, first)
    ask(ruleset.out_of_command, state, params)
    return out


def new_refusal(ruleset: Ruleset, state: GameState, before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """A refusal the ruleset gives with the parameters ``after`` but not ``before`` ("" when
    none), so a value the rules reject (a division command distance outside 10–20 cm, zone
    bounds that do not increase) is refused when it is entered."""
    new = refusals(ruleset, state, after) - refusals(ruleset, state, before)
    return sorted(new)[0] if new else ""
