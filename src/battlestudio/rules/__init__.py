"""Rulesets: the Protocol they implement, and the registry that finds them.

Rulesets are found through the entry-point group ``battlestudio.rulesets``: each entry point
names an object implementing ``Ruleset`` (``toe = "battlestudio.rules.toe:ruleset"`` in
pyproject.toml), so a third-party package plugs in a ruleset exactly as the built-in ones do.
"""

from __future__ import annotations

from importlib.metadata import entry_points

from battlestudio.rules.dice import (
    DiceReplayError, DiceSource, DiceSpec, Modifier, ReplayDice, RollRecord, SeededDice, success_probability,
)
from battlestudio.rules.params import MissingParameterError, RuleParameters, RuleRefused
from battlestudio.rules.protocol import (
    CheckResult, CommandReach, EchelonSpec, InitiativeResult, OrderOutcome, OrderRequest, OrderTypeSpec,
    OutOfCommandFinding, ParameterSpec, PhaseSpec, Ruleset, RulesetDescription, StateMachineSpec, ZoneBand,
)

ENTRY_POINT_GROUP = "battlestudio.rulesets"

_loaded: dict[str, Ruleset] | None = None


class UnknownRuleset(RuleRefused):
    """No ruleset is registered under the id asked for."""


def available_rulesets(reload: bool = False) -> dict[str, Ruleset]:
    """Every ruleset registered in the entry-point group, by entry-point name.

    Raises
    ------
    RuleRefused
        when an entry point loads something that does not implement ``Ruleset``; the message
        names the entry point.
    """
    global _loaded
    if _loaded is None or reload:
        found: dict[str, Ruleset] = {}
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            obj = ep.load()
            if not isinstance(obj, Ruleset):
                raise RuleRefused(f"entry point {ep.name} = {ep.value} in {ENTRY_POINT_GROUP} is not a Ruleset")
            found[ep.name] = obj
        _loaded = found
    return dict(_loaded)


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset registered as ``ruleset_id`` (e.g. ``"toe"``).

    Raises
    ------
    UnknownRuleset
        naming the id and the known ones.
    """
    found = available_rulesets()
    if ruleset_id not in found:
        known = ", ".join(sorted(found)) or "none"
        raise UnknownRuleset(f"no ruleset {ruleset_id!r} is installed (known: {known})")
    return found[ruleset_id]


__all__ = [
    "ENTRY_POINT_GROUP", "available_rulesets", "get_ruleset", "UnknownRuleset",
    "DiceReplayError", "DiceSource", "DiceSpec", "Modifier", "ReplayDice", "RollRecord", "SeededDice",
    "success_probability", "MissingParameterError", "RuleParameters", "RuleRefused",
    "CheckResult", "CommandReach", "EchelonSpec", "InitiativeResult", "OrderOutcome", "OrderRequest",
    "OrderTypeSpec", "OutOfCommandFinding", "ParameterSpec", "PhaseSpec", "Ruleset", "RulesetDescription",
    "StateMachineSpec", "ZoneBand",
]
