"""Checks of the terms a scenario borrows from its ruleset: a ruleset id that is not installed,
unit states its unit state machine has no name for, unit qualities its ``quality_aliases``
parameter does not map. Warnings: the file still opens (a third-party ruleset's files, a term
a later version names)."""

from __future__ import annotations

from collections.abc import Iterable

from battlestudio.model.scenario import Scenario
from battlestudio.rules import RuleParameters, RuleRefused, available_rulesets, resolve_ruleset_id
from battlestudio.validate.problem import Problem, warning


def ruleset_terms(s: Scenario) -> Iterable[Problem]:
    """The ruleset id, then each unit's state and quality, in unit id order."""
    try:
        installed = available_rulesets()
    except RuleRefused as exc:
        yield warning("ruleset.unavailable", f"info.ruleset: the installed rulesets cannot be listed: {exc}")
        return
    rid = resolve_ruleset_id(s.info.ruleset)
    if rid not in installed:
        known = ", ".join(sorted(installed)) or "none"
        yield warning("ruleset.unknown", f"info.ruleset: {rid!r} is not installed (known: {known})")
        return
    rs = installed[rid]
    yield from _qualities(s, rid)
    machine = next((m for m in rs.describe().state_machines if m.id.startswith("unit")), None)
    if machine is None:
        return
    states = {x.lower() for x in machine.states} | {str(k).lower() for k in getattr(rs, "state_aliases", {})}
    for uid in sorted(s.units):
        state = s.units[uid].state
        if state and state.lower() not in states:
            yield warning(
                "unit.unknown_state",
                f"units[{uid!r}].state: {state!r} is not a unit state of ruleset "
                f"{rid!r} (known: {', '.join(sorted(machine.states))})",
                uid,
            )


def _qualities(s: Scenario, rid: str) -> Iterable[Problem]:
    """Unit qualities the ruleset's ``quality_aliases`` (e.g. General d'Armée's grades) do not
    map; a ruleset without that parameter takes any quality."""
    try:
        aliases = RuleParameters.for_ruleset(rid, s.info.parameters).get("quality_aliases")
    except Exception:  # noqa: BLE001 - no parameter file, no such entry, an unset entry: nothing to check
        return
    if not isinstance(aliases, dict) or not aliases:
        return
    known = {str(k).lower() for k in aliases}
    for uid in sorted(s.units):
        quality = s.units[uid].quality
        if quality and quality.lower() not in known:
            yield warning(
                "unit.unknown_quality",
                f"units[{uid!r}].quality: {quality!r} is not a quality of ruleset "
                f"{rid!r} (known: {', '.join(sorted(known))}; rules.quality_aliases)",
                uid,
            )
