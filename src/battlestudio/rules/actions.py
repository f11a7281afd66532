"""Ruleset actions: what a player or the umpire may do in the open phase beyond orders.

An action (fire, melee, morale test, rally, resupply, square test, leader casualty test, …) is
declared by a ruleset as an ``ActionSpec`` for one subject in the open phase, with its legality
and the parameters it needs (``ParameterSpec``, as the order form). The window shows the spec,
``preview_action`` gives the exact odds before the roll, ``resolve_action`` rolls through the
session's dice and returns events with ``RollRecord`` explanations. Where the seed lost a table
the spec says so in ``umpire_table`` and lists the ``umpire_result`` fields: the umpire enters
the table's result and everything around the table is still computed and validated.

Rulesets never mutate state: each call takes the ``GameState`` and returns records.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any
from collections.abc import Callable, Iterable, Mapping

from battlestudio.replay.events import BattleEvent
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import DiceSource, RollRecord
from battlestudio.rules.params import RuleParameters, RuleRefused

#: subject kinds an action may have
SUBJECT_KINDS = ("unit", "commander", "formation", "none")


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """One action a subject may take now.

    ``id`` is stable within the ruleset (``fire``, ``melee``, ``morale_test``, ``rally``,
    ``resupply``, …); ``label`` in English, ``term`` the ruleset's own word, ``rule`` its
    section. ``subject_kind`` is one of ``SUBJECT_KINDS``. ``parameters`` use the order form's
    ``ParameterSpec`` kinds plus ``unit`` / ``enemy_unit`` / ``friendly_unit`` (one id; with
    ``multiple`` > 1 a tuple of ids), ``int`` and ``choice``. ``unavailable`` says why the
    action is not legal now ("" = legal). ``umpire_table`` names the missing table or scenario
    parameter (e.g. ``"Table 5 (fire), toe.fire_table"``) when the result must be entered by the
    umpire; ``umpire_result`` are then the fields he enters (``int`` with ``max_value``, or
    ``choice``); an action may offer them also when it can roll (``umpire_table`` "").
    """

    id: str
    label: str
    term: str = ""
    rule: str = ""
    subject_kind: str = "unit"
    parameters: tuple[Any, ...] = ()  # ParameterSpec (rules.protocol), kept untyped to avoid a cycle
    umpire_result: tuple[Any, ...] = ()
    unavailable: str = ""
    umpire_table: str = ""
    note: str = ""

    @property
    def legal(self) -> bool:
        return not self.unavailable

    @property
    def rolls(self) -> bool:
        """Whether the program can roll this action (no missing table)."""
        return not self.umpire_table


@dataclass(frozen=True, slots=True)
class ActionRequest:
    """What is asked: ``action`` id for ``subject`` (a unit, commander or formation id; "" for
    ``none``), the ``parameters`` filled in, and ``umpire_result`` when the umpire enters the
    table's result instead of rolling (None: roll). ``table`` (width, height cm),
    ``terrain`` (``TerrainFeature``s) and ``towns`` (``TownZone``s) are the scenario's, filled
    in by the session: the game state does not hold them."""

    action: str
    subject: str = ""
    parameters: Mapping[str, Any] = field(default_factory=dict)
    umpire_result: Mapping[str, Any] | None = None
    table: tuple[float, float] | None = None
    terrain: tuple[Any, ...] = ()
    towns: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True)
class ActionPreview:
    """Before the roll: ``legal`` (else ``reason``), the ``explanation`` of what will be rolled
    and why (modifiers with their sources), the exact ``odds`` of each pass/fail roll as
    (label, probability) and the ``outcomes`` of a table roll as (result, probability);
    ``umpire_entry`` when the result must be entered (the missing table is named in
    ``reason``/``explanation``); ``assumed`` readings used."""

    action: str
    subject: str
    legal: bool
    reason: str = ""
    explanation: str = ""
    odds: tuple[tuple[str, Fraction], ...] = ()
    outcomes: tuple[tuple[str, Fraction], ...] = ()
    umpire_entry: bool = False
    assumed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ActionOutcome:
    """After the roll (or the umpire's entry): ``status`` ``resolved`` or ``refused`` (nothing
    happens; ``explanation`` says why), the ``events`` to record (the action's own event first,
    its consequences after), the ``rolls`` made, the ``explanation`` naming every rule used."""

    status: str
    explanation: str
    events: tuple[BattleEvent, ...] = ()
    rolls: tuple[RollRecord, ...] = ()
    assumed: tuple[str, ...] = ()

    @property
    def resolved(self) -> bool:
        return self.status == "resolved"


def refused(reason: str) -> ActionOutcome:
    """An outcome that records nothing, with ``reason``."""
    return ActionOutcome("refused", reason)


@dataclass(frozen=True, slots=True)
class ActionHandler:
    """One action of a ruleset: ``spec(state, params, subject)`` the ``ActionSpec`` offered to
    ``subject`` in the open phase (None: not offered to it here), ``preview(state, request,
    params)`` the odds, ``resolve(state, request, params, dice)`` the outcome. ``params`` is the
    ruleset's ``RuleParameters``. ``preview`` and ``resolve`` are only called for a request whose
    spec is legal; they may raise ``RuleRefused`` (the table turns it into a refusal).
    ``request_spec(state, params, request)``, when given, is the spec as far as one request needs
    it (offered, ``unavailable``, ``umpire_table``) without listing every choice: the table checks
    a request with it instead of ``spec`` (``spec`` of a fire action measures every target)."""

    id: str
    spec: Callable[[GameState, RuleParameters, str], ActionSpec | None]
    preview: Callable[[GameState, ActionRequest, RuleParameters], ActionPreview]
    resolve: Callable[[GameState, ActionRequest, RuleParameters, DiceSource], ActionOutcome]
    request_spec: Callable[[GameState, RuleParameters, ActionRequest], ActionSpec | None] | None = None

    def spec_for(self, state: GameState, p: RuleParameters, request: ActionRequest) -> ActionSpec | None:
        """The spec that decides whether ``request`` is legal (``request_spec`` or ``spec``)."""
        if self.request_spec is not None:
            return self.request_spec(state, p, request)
        return self.spec(state, p, request.subject)


class ActionTable:
    """A ruleset's actions as a table of ``ActionHandler``: answers the Protocol's ``actions``,
    ``action_subjects``, ``preview_action`` and ``resolve_action`` (a ruleset delegates to it).

    Legality is checked here once for every handler: an unknown action, a subject it is not
    offered to, an ``unavailable`` spec, or a missing umpire result where the table is lost are
    refused with the reason; ``RuleRefused`` from a handler becomes a refusal with its message.
    """

    def __init__(
        self, handlers: Iterable[ActionHandler], params: Callable[[Mapping[str, Any]], RuleParameters]
    ) -> None:
        self.handlers = {h.id: h for h in handlers}
        self._params = params

    def actions(self, state: GameState, params: Mapping[str, Any], subject: str) -> list[ActionSpec]:
        p = self._params(params)
        out = []
        for h in self.handlers.values():
            try:
                spec = h.spec(state, p, subject)
            except RuleRefused as exc:
                spec = ActionSpec(h.id, h.id.replace("_", " "), unavailable=str(exc))
            if spec is not None:
                out.append(spec)
        return out

    def action_subjects(self, state: GameState, params: Mapping[str, Any]) -> list[str]:
        ids = ["", *state.units, *state.commanders]
        return [i for i in ids if any(a.legal for a in self.actions(state, params, i))]

    def _check(
        self, state: GameState, request: ActionRequest, p: RuleParameters
    ) -> tuple[ActionHandler | None, ActionSpec | None, str]:
        h = self.handlers.get(request.action)
        if h is None:
            return None, None, f"there is no action {request.action!r} in this ruleset"
        try:
            spec = h.spec_for(state, p, request)
        except RuleRefused as exc:
            return None, None, str(exc)
        if spec is None:
            who = request.subject or "no subject"
            return None, None, f"{spec_label(h)} is not offered to {who} in the {state.phase or '?'} phase"
        if spec.unavailable:
            return None, spec, spec.unavailable
        return h, spec, ""

    def preview_action(self, state: GameState, request: ActionRequest, params: Mapping[str, Any]) -> ActionPreview:
        p = self._params(params)
        h, _, why = self._check(state, request, p)
        if h is None:
            return ActionPreview(request.action, request.subject, False, why)
        try:
            return h.preview(state, request, p)
        except RuleRefused as exc:
            return ActionPreview(request.action, request.subject, False, str(exc))

    def resolve_action(
        self, state: GameState, request: ActionRequest, params: Mapping[str, Any], dice: DiceSource
    ) -> ActionOutcome:
        p = self._params(params)
        h, spec, why = self._check(state, request, p)
        if h is None:
            return refused(why)
        if spec is not None and spec.umpire_table and request.umpire_result is None:
            return refused(f"{spec.label}: {spec.umpire_table} is not in the rules text; enter the table's result")
        try:
            return h.resolve(state, request, p, dice)
        except RuleRefused as exc:
            return refused(str(exc))


def spec_label(h: ActionHandler) -> str:
    return h.id.replace("_", " ").capitalize()
