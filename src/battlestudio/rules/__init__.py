"""Rulesets: the Protocol they implement, and the registry that finds them.

Rulesets are found through the entry-point group ``battlestudio.rulesets``: each entry point
names an object implementing ``Ruleset`` (``toe = "battlestudio.rules.toe:ruleset"`` in
pyproject.toml), so a third-party package plugs in a ruleset exactly as the built-in ones do.
Loading a ruleset registers its own event types (``Ruleset.event_types``) with
``replay.events``; ``load_event_types`` loads every installed one, and the store calls it
before it decodes any file.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint, entry_points

from battlestudio.replay.events import BattleEvent, register

from battlestudio.rules.dice import (
    DiceReplayError,
    DiceSource,
    DiceSpec,
    Modifier,
    ReplayDice,
    RollRecord,
    SeededDice,
    success_probability,
)
from battlestudio.rules.params import MissingParameterError, RuleParameters, RuleRefused
from battlestudio.rules.odds import Odds, OddsRow, pct
from battlestudio.rules.protocol import (
    ActivationChoice,
    Budget,
    CheckResult,
    CommandReach,
    EchelonSpec,
    FindingDependencies,
    InitiativeResult,
    OrderOutcome,
    OrderRequest,
    OrderTypeSpec,
    OutOfCommandFinding,
    ParameterSpec,
    PhaseSpec,
    Ruleset,
    RulesetDefaults,
    RulesetDescription,
    StateMachineSpec,
    ZoneBand,
)

ENTRY_POINT_GROUP = "battlestudio.rulesets"

DEFAULT_RULESET = "toe"
"""The ruleset of a scenario that has not chosen one (``ScenarioInfo.ruleset == ""``)."""

_loaded: dict[str, Ruleset] | None = None
_event_problems: tuple[str, ...] | None = None


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
        _loaded = {ep.name: _load(ep) for ep in entry_points(group=ENTRY_POINT_GROUP)}
    return dict(_loaded)


def _load(ep: EntryPoint) -> Ruleset:
    """The ruleset ``ep`` names, its event types registered.

    Raises
    ------
    RuleRefused
        when it is not a ``Ruleset`` (naming the methods it lacks) or an event type of it is
        not a ``BattleEvent`` or takes a kind another class has.
    """
    obj = ep.load()
    where = f"entry point {ep.name} = {ep.value} in {ENTRY_POINT_GROUP}"
    if not isinstance(obj, Ruleset):
        required = _PROTOCOL_MEMBERS[: _PROTOCOL_MEMBERS.index("event_types")]
        lacks = sorted(m for m in required if not hasattr(obj, m))  # the required ones first
        lacks += sorted(m for m in _PROTOCOL_MEMBERS if m not in required and not hasattr(obj, m))
        raise RuleRefused(
            f"{where} is not a Ruleset (it lacks {', '.join(lacks) or 'nothing'}; inherit "
            "rules.RulesetDefaults for the optional methods)"
        )
    for cls in obj.event_types():
        if not (isinstance(cls, type) and issubclass(cls, BattleEvent)):
            raise RuleRefused(f"{where}: event type {cls!r} is not a BattleEvent class")
        try:
            register(cls)
        except ValueError as exc:
            raise RuleRefused(f"{where}: {exc}") from None
    return obj


_PROTOCOL_MEMBERS = (
    "id",
    "describe",
    "command_reach",
    "order_types",
    "issue_order",
    "command_check",
    "out_of_command",
    "turn_sequence",
    "initiative",
    "next_activation",
    "event_types",
    "parameters",
    "odds",
    "order_budget",
    "finding_dependencies",
    "orders_report",
    "issuers",
    "checks_due",
    "activation_choices",
    "choose_activation",
)


def load_event_types() -> tuple[str, ...]:
    """Register the event types of every installed ruleset with ``replay.events``, once; the
    store calls it before decoding a file. Never raises: an entry point that cannot be loaded
    is skipped (its events stay unknown, so a file holding them is refused naming the kind) and
    its problem returned, as the text ``"<entry point>: <why>"``."""
    global _event_problems
    if _event_problems is None:
        problems: list[str] = []
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            try:
                _load(ep)
            except Exception as exc:  # a broken plug-in must not stop every other file from opening
                problems.append(f"{ep.name}: {exc}")
        _event_problems = tuple(problems)
    return _event_problems


def resolve_ruleset_id(chosen: str) -> str:
    """The ruleset a scenario plays: ``chosen`` (``ScenarioInfo.ruleset``), or
    ``DEFAULT_RULESET`` when it is "" (not chosen)."""
    return chosen or DEFAULT_RULESET


def get_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset registered as ``ruleset_id`` (e.g. the id of ``Ruleset.id``); "" (a
    scenario that has not chosen one) gives ``DEFAULT_RULESET``.

    Raises
    ------
    UnknownRuleset
        naming the id and the known ones.
    """
    ruleset_id = ruleset_id or DEFAULT_RULESET
    found = available_rulesets()
    if ruleset_id not in found:
        known = ", ".join(sorted(found)) or "none"
        raise UnknownRuleset(f"no ruleset {ruleset_id!r} is installed (known: {known})")
    return found[ruleset_id]


__all__ = [
    "ActivationChoice",
    "DEFAULT_RULESET",
    "ENTRY_POINT_GROUP",
    "available_rulesets",
    "get_ruleset",
    "load_event_types",
    "resolve_ruleset_id",
    "UnknownRuleset",
    "Budget",
    "FindingDependencies",
    "Odds",
    "OddsRow",
    "RulesetDefaults",
    "pct",
    "DiceReplayError",
    "DiceSource",
    "DiceSpec",
    "Modifier",
    "ReplayDice",
    "RollRecord",
    "SeededDice",
    "success_probability",
    "MissingParameterError",
    "RuleParameters",
    "RuleRefused",
    "CheckResult",
    "CommandReach",
    "EchelonSpec",
    "InitiativeResult",
    "OrderOutcome",
    "OrderRequest",
    "OrderTypeSpec",
    "OutOfCommandFinding",
    "ParameterSpec",
    "PhaseSpec",
    "Ruleset",
    "RulesetDescription",
    "StateMachineSpec",
    "ZoneBand",
]
