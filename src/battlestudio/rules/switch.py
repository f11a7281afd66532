"""What does not carry over when a scenario changes ruleset (issue 6, item 5).

``switch_report`` compares a scenario with the ruleset it would switch to, using that ruleset's
``describe()`` and its numbers file: orders whose type the new ruleset does not know, units in
states it has no name for, commanders at echelons it does not have, scenario parameters it does
not read (keys prefixed with another ruleset's id, or keys of the old ruleset's file the new one
lacks; general keys such as ``scenario.*`` notes stay), and the values it needs that the
scenario does not supply, and the units a ruleset re-scales (its optional ``convert_units``, e.g. the
Regimental bases at 75 men a figure). Nothing is changed here: the editor shows the report and
lets the designer confirm (the switch is a ``SetInfo`` edit with the converted units).

``conform_import`` is the other way in: records imported or pasted into a scenario take that
scenario's ruleset scale (the ruleset's optional ``convert_import``), with notes and warnings.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from collections.abc import Iterable, Mapping
from typing import Any

from battlestudio.model.scenario import Scenario, ScenarioInfo
from battlestudio.rules import RuleRefused, available_rulesets, get_ruleset, resolve_ruleset_id
from battlestudio.rules.params import RuleParameters


@dataclass(frozen=True, slots=True)
class SwitchReport:
    """What switching ``old`` → ``new`` leaves behind. Each mapping goes from the value that does
    not carry over (an order type, unit state, echelon or parameter key) to the ids using it;
    ``needs`` lists parameters the new ruleset asks the scenario for that it does not have."""

    old: str
    new: str
    new_name: str
    order_types: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    unit_states: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    echelons: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    parameters: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()
    converted: Mapping[str, Any] = field(default_factory=dict)
    """Units the new ruleset re-scales when the switch is made (id → new ``Unit``), from its
    optional ``convert_units(scenario)``; ``conversion`` says what changed and what is amiss."""
    conversion: tuple[str, ...] = ()

    @property
    def lossless(self) -> bool:
        """True when everything carries over and nothing more is needed."""
        return not (
            self.order_types or self.unit_states or self.echelons or self.parameters or self.needs or self.conversion
        )

    def lines(self) -> list[str]:
        """The report as sentences, one per finding (at most five ids named each)."""

        def ids(xs: tuple[str, ...]) -> str:
            return ", ".join(xs[:5]) + (f" and {len(xs) - 5} more" if len(xs) > 5 else "")

        out = [f"Order type {k!r} is not a {self.new_name} order: {ids(v)}" for k, v in self.order_types.items()]
        out += [f"Unit state {k!r} means nothing in {self.new_name}: {ids(v)}" for k, v in self.unit_states.items()]
        out += [f"Echelon {k!r} does not exist in {self.new_name}: {ids(v)}" for k, v in self.echelons.items()]
        if self.parameters:
            n = len(self.parameters)
            out.append(
                f"{n} ruleset parameter{'s are' if n > 1 else ' is'} not used by {self.new_name}: "
                f"{ids(self.parameters)}"
            )
        if self.needs:
            out.append(
                f"{self.new_name} asks the scenario for values its text does not give: {', '.join(self.needs)} "
                "(rules needing them are refused until they are set)"
            )
        if self.converted:
            n = len(self.converted)
            out.append(
                f"{n} unit{'s are' if n != 1 else ' is'} converted to the {self.new_name} scale (undo restores them)"
            )
        out += list(self.conversion[:6])
        if len(self.conversion) > 6:
            out.append(f"… and {len(self.conversion) - 6} more conversion notes (see the details)")
        return out

    def text(self) -> str:
        """A plain-text report for a confirmation dialog."""
        head = f"Switching the scenario from {self.old!r} to {self.new_name} ({self.new!r})"
        if self.lossless:
            return head + ": everything carries over."
        lines = self.lines()
        if len(self.conversion) > 6:  # the details give every conversion note
            lines = lines[:-7] + list(self.conversion)
        return head + ", these do not carry over:\n" + "\n".join(f"• {x}" for x in lines)


def _group(pairs: list[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    out: dict[str, list[str]] = {}
    for key, rid in pairs:
        out.setdefault(key, []).append(rid)
    return {k: tuple(sorted(v)) for k, v in sorted(out.items())}


def switch_report(scenario: Scenario, new: str) -> SwitchReport:
    """What does not carry over if ``scenario`` switches to ruleset ``new``.

    Raises
    ------
    rules.UnknownRuleset
        for a ruleset that is not installed.
    """
    rs = get_ruleset(new)
    d = rs.describe()
    old = resolve_ruleset_id(scenario.info.ruleset)
    if new == old:
        return SwitchReport(new, new, d.name)
    types = {t.id for t in d.order_types}
    echelons = {e.id for e in d.echelons}
    machine = next((m for m in d.state_machines if m.id.startswith("unit")), None)
    aliases = {str(k).lower() for k in getattr(rs, "state_aliases", {})}
    states = {s.lower() for s in machine.states} | aliases if machine else set()
    orders = _group([(o.order_type, oid) for oid, o in scenario.orders.items() if o.order_type not in types])
    unit_states = _group(
        [(u.state, uid) for uid, u in scenario.units.items() if states and u.state and u.state.lower() not in states]
    )
    ech = _group([(c.echelon, cid) for cid, c in scenario.commanders.items() if c.echelon not in echelons])
    entries = RuleParameters.for_ruleset(new, {}).entries
    installed = available_rulesets()
    old_entries = RuleParameters.for_ruleset(old, {}).entries if old in installed and old != new else {}
    others = {rid for rid in installed if rid != new}
    dropped = []
    for key in sorted(scenario.info.parameters):
        head, _, rest = key.partition(".")
        if head == new:
            continue
        if head in others or (head in old_entries and head not in entries):
            dropped.append(key)  # another ruleset's own value (prefixed, or a key of the old file)
    given = {k.partition(".")[0] if k.partition(".")[0] != new else k.split(".")[1] for k in scenario.info.parameters}
    needs = tuple(p for p in d.unknown_parameters if p.partition(".")[0] not in given)
    convert = getattr(rs, "convert_units", None)
    converted: dict[str, Any] = {}
    conversion: tuple[str, ...] = ()
    if callable(convert):
        conv = convert(scenario)
        converted, conversion = dict(conv.units), tuple(conv.notes) + tuple(conv.warnings)
    return SwitchReport(old, new, d.name, orders, unit_states, ech, tuple(dropped), needs, converted, conversion)


@dataclass(frozen=True, slots=True)
class Conformed:
    """Records brought to a ruleset's scale: the scenario holding them (the input's info
    replaced by the target's), the notes saying what changed and the warnings naming each unit
    that could not be converted; ``changed`` counts the new and changed units."""

    scenario: Scenario
    notes: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()
    changed: int = 0
    ruleset_name: str = ""


def conform_import(imported: Scenario, target: ScenarioInfo, only: Iterable[str] | None = None) -> Conformed:
    """``imported`` with its units (``only`` those ids) at the scale of ``target``'s ruleset,
    read with ``target``'s parameters: what the ruleset's optional ``convert_import(scenario,
    only)`` returns; the input unchanged for a ruleset without one, or one not installed (the
    scenario's own check names that)."""
    rid = resolve_ruleset_id(target.ruleset)
    try:
        rs = available_rulesets().get(rid)
    except RuleRefused:
        return Conformed(imported)
    convert = getattr(rs, "convert_import", None)
    if rs is None or not callable(convert):
        return Conformed(imported)
    sc = imported.copy()
    sc.info = replace(imported.info, ruleset=rid, parameters=dict(target.parameters))
    out, conv = convert(sc, only)
    out.info = imported.info
    return Conformed(out, tuple(conv.notes), tuple(conv.warnings), len(conv.units), rs.describe().name)
