"""The ruleset Protocol every command system implements, and the plain records it returns.

Follows ``shared/rules/command-systems-compared.md`` §3: a ruleset never mutates state; each
method takes the current ``GameState`` (plus the scenario's parameters, and a dice source where
chance is involved) and returns a result with a human-readable explanation and a list of battle
events for the game to apply and record. Values the rules text does not give are reported as
unknown with the scenario parameter that supplies them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable
from collections.abc import Callable, Iterable, Mapping, Sequence

from battlestudio.model.geometry import Point
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionOutcome, ActionPreview, ActionRequest, ActionSpec, ActionTable
from battlestudio.rules.dice import DiceSource, RollRecord
from battlestudio.rules.moves import MoveCheck, MoveRequest
from battlestudio.rules.odds import Odds
from battlestudio.rules.params import RuleParameters, RuleRefused


@dataclass(frozen=True, slots=True)
class EchelonSpec:
    """One level of command, top to bottom: ``id`` (an ``Echelon`` value), ``label``, the
    ruleset's own ``term``, and what it does: issues orders, receives orders, its ``reach``
    kind (``"zones"``, ``"radius"``, ``"none"``)."""

    id: str
    label: str
    term: str
    issues_orders: bool
    receives_orders: bool
    reach: str


@dataclass(frozen=True, slots=True)
class ParameterSpec:
    """One parameter of the order form: ``name``, ``kind`` (``point``, ``text``, ``choice``,
    ``enemy_unit``: the id of a unit of another side), ``required``, limits such as
    ``max_distance_cm``, ``choices``; ``multiple`` > 1 lets the writer pick up to that many
    choices in order (the value is then a tuple of choices). Actions (``rules.actions``) also
    use the kinds ``unit``, ``friendly_unit`` (ids), ``int`` (within ``minimum``–``maximum``)
    and ``bool``; ``label`` is the form's caption ("" = ``name``)."""

    name: str
    kind: str
    required: bool = True
    max_distance_cm: float | None = None
    choices: tuple[str, ...] = ()
    note: str = ""
    multiple: int = 1
    minimum: int | None = None
    maximum: int | None = None
    label: str = ""


@dataclass(frozen=True, slots=True)
class OrderTypeSpec:
    """An order type: id, label, native ``term``, who may issue/receive it (echelon ids), its
    ``parameters``, ``cost`` (in the ruleset's currency, ``cost_unit``), whether delivery needs
    ``dice``, whether it is ``standing``; ``unavailable`` gives the reason when it cannot be
    given right now ("" = available), ``rule`` the section. ``recipient_kind`` says what the
    order goes to: ``commander`` (a general), ``unit`` (a unit's own order sheet) or ``none``
    (no one: the issuer himself, e.g. an ADC kept for the initiative roll)."""

    id: str
    label: str
    term: str
    issuers: tuple[str, ...]
    recipients: tuple[str, ...]
    parameters: tuple[ParameterSpec, ...] = ()
    cost: int = 0
    cost_unit: str = ""
    dice: bool = False
    standing: bool = True
    unavailable: str = ""
    rule: str = ""
    recipient_kind: str = "commander"


@dataclass(frozen=True, slots=True)
class StateMachineSpec:
    """States of a unit or formation: ``states`` id → label, ``forbids`` id → capabilities the
    state forbids, ``transitions`` as (from, to, cause)."""

    id: str
    states: Mapping[str, str]
    forbids: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    transitions: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class PhaseSpec:
    """A phase of the turn: ``id``, ``name``, ``who`` acts (``active``, ``passive``, ``both``,
    ``umpire``), the ruleset ``methods`` the game calls in it, and its ``rule`` section.
    ``automatic`` names those of ``methods`` the game runs by itself when the phase opens (no
    player decides anything first: e.g. ``initiative``); a ``both`` phase's step runs once a
    turn, in the first player-turn."""

    id: str
    name: str
    who: str
    methods: tuple[str, ...] = ()
    rule: str = ""
    automatic: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RulesetDescription:
    """Static metadata of a ruleset (Protocol method 1, ``describe``)."""

    id: str
    name: str
    source: str
    measurement: tuple[str, ...]
    dice: tuple[str, ...]
    echelons: tuple[EchelonSpec, ...]
    order_types: tuple[OrderTypeSpec, ...]
    state_machines: tuple[StateMachineSpec, ...]
    phases: tuple[PhaseSpec, ...]
    unknown_parameters: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ZoneBand:
    """A distance band: ``zone`` number, ``inner``–``outer`` cm (``outer`` None = open, "60+")."""

    zone: int
    inner: float
    outer: float | None


@dataclass(frozen=True, slots=True)
class CommandReach:
    """How far a commander's command reaches (Protocol method 2).

    ``kind`` is ``"zones"``, ``"radius"`` or ``"none"``. ``radius`` in cm, ``zones`` the bands
    in order, ``measured_to`` says to what the distance runs, ``secondary`` other named radii,
    ``unknown`` maps each value the text does not give to the scenario parameter that supplies
    it (a reach with unknowns has ``radius``/``zones`` unset), ``assumed`` the best readings used.
    """

    commander: str
    kind: str
    radius: float | None = None
    zones: tuple[ZoneBand, ...] = ()
    measured_to: str = ""
    secondary: Mapping[str, float] = field(default_factory=dict)
    unknown: Mapping[str, str] = field(default_factory=dict)
    assumed: tuple[str, ...] = ()
    rule: str = ""

    def zone_of(self, distance: float) -> int | None:
        """Zone number for a distance in cm (bounds inclusive), None when out of reach."""
        for band in self.zones:
            if band.outer is None or distance <= band.outer:
                return band.zone
        return None


@dataclass(frozen=True, slots=True)
class OrderRequest:
    """What an issuer asks for: ``order_type`` to ``recipient``, with ``objective`` (cm) and
    ``parameters``; ``modifiers`` are extra situational roll modifiers as (value, source)."""

    issuer: str
    recipient: str
    order_type: str
    objective: Point | None = None
    parameters: Mapping[str, Any] = field(default_factory=dict)
    modifiers: tuple[tuple[int, str], ...] = ()
    cancel: str = ""  # id of an order to cancel (then order_type is "cancel")


@dataclass(frozen=True, slots=True)
class OrderOutcome:
    """Result of issuing (Protocol method 4): ``status`` one of ``delivered``, ``failed``,
    ``refused`` (not legal; nothing happens), ``pending`` (written, roll later); ``order_id``;
    ``rolls`` made; ``spent`` resources; ``explanation``; ``events``; ``assumed`` readings."""

    status: str
    order_id: str
    explanation: str
    events: tuple[BattleEvent, ...] = ()
    rolls: tuple[RollRecord, ...] = ()
    spent: Mapping[str, int] = field(default_factory=dict)
    assumed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class CheckResult:
    """Result of a per-turn command check (Protocol method 5): findings as ``flags`` (e.g.
    ``engaged``, ``auto_retreat``), ``restrictions`` in force, ``explanation``, ``events``."""

    formation: str
    flags: Mapping[str, Any]
    restrictions: tuple[str, ...]
    explanation: str
    events: tuple[BattleEvent, ...] = ()
    rolls: tuple[RollRecord, ...] = ()
    assumed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class OutOfCommandFinding:
    """One unit's or commander's command situation (Protocol method 6).

    ``subject`` and its ``superior``; ``distance`` and allowed ``reach`` in cm; ``within``;
    ``exemption`` ("" when none, else e.g. ``detached``); ``consequence`` code ("" when in
    command, else e.g. ``must-return``) and ``text``; ``rule`` section.
    """

    subject: str
    superior: str
    distance: float
    reach: float
    within: bool
    exemption: str
    consequence: str
    text: str
    rule: str = ""


@dataclass(frozen=True, slots=True)
class InitiativeResult:
    """Who is active (Protocol method 8): ``side``, how it was decided, any rolls, and the
    ``events`` that record them (the rolls and the holder flag) for the game to apply."""

    side: str
    explanation: str
    rolls: tuple[RollRecord, ...] = ()
    events: tuple[BattleEvent, ...] = ()


@dataclass(frozen=True, slots=True)
class ActivationChoice:
    """Which formation activates next (optional method ``choose_activation``): the
    ``formation`` and its ``side``, the ``explanation`` and the ``events`` recording the choice."""

    formation: str
    side: str
    explanation: str
    events: tuple[BattleEvent, ...] = ()


@dataclass(frozen=True, slots=True)
class Budget:
    """A chief's order budget this turn (optional method ``order_budget``): ``unit`` in the
    ruleset's own currency (e.g. ``OAS``, ``ADCs``), ``capacity``, ``spent``, ``left``
    (``left`` < 0 never happens in a legal game)."""

    unit: str
    capacity: int
    spent: int
    left: int


@dataclass(frozen=True, slots=True)
class FindingDependencies:
    """What an out-of-command finding reads (optional method ``finding_dependencies``), so a
    moved general or unit updates a command picture without recomputing it whole.

    ``subjects(state, changed)`` gives the ids whose finding may change when the records of
    ``changed`` change (moved, turned, routed, removed); ``context(state, subjects)`` the ids of
    the records those subjects' findings read (``out_of_command`` run on a state holding only
    them must give the same findings for ``subjects``).
    """

    subjects: Callable[[GameState, Iterable[str]], set[str]]
    context: Callable[[GameState, set[str]], set[str]]


@runtime_checkable
class Ruleset(Protocol):
    """What every ruleset implements (command-systems-compared §3.1).

    ``params`` is the scenario's parameter mapping (``ScenarioInfo.parameters``); methods raise
    ``rules.params.MissingParameterError`` when a rule needs a value the scenario lacks.

    The methods from ``event_types`` on are optional: a ruleset inherits ``RulesetDefaults``,
    which answers each with "this ruleset has none", and overrides the ones it has. (The
    registry refuses an entry point lacking any method, so a ruleset that does not inherit
    ``RulesetDefaults`` must write them all.)
    """

    id: str

    def describe(self) -> RulesetDescription: ...

    def command_reach(self, state: GameState, commander_id: str, params: Mapping[str, Any]) -> CommandReach: ...

    def order_types(
        self, state: GameState, issuer: str, recipient: str, params: Mapping[str, Any]
    ) -> Sequence[OrderTypeSpec]: ...

    def issue_order(
        self, state: GameState, request: OrderRequest, params: Mapping[str, Any], dice: DiceSource
    ) -> OrderOutcome: ...

    def command_check(
        self, state: GameState, formation: str, params: Mapping[str, Any], dice: DiceSource
    ) -> CheckResult: ...

    def out_of_command(
        self, state: GameState, params: Mapping[str, Any], side: str | None = None
    ) -> Sequence[OutOfCommandFinding]: ...

    def turn_sequence(self, state: GameState) -> Sequence[PhaseSpec]: ...

    def initiative(self, state: GameState, params: Mapping[str, Any], dice: DiceSource) -> InitiativeResult: ...

    def next_activation(self, state: GameState) -> str: ...

    # -- optional (``RulesetDefaults`` gives the "none" answers) ------------------------------

    def event_types(self) -> Sequence[type[BattleEvent]]: ...

    def parameters(self, params: Mapping[str, Any] | None) -> RuleParameters: ...

    def odds(self, state: GameState, params: Mapping[str, Any], issuer: str, recipient: str) -> Odds | None: ...

    def order_budget(self, state: GameState, commander_id: str, params: Mapping[str, Any]) -> Budget | None: ...

    def finding_dependencies(self) -> FindingDependencies | None: ...

    def orders_report(self, state: GameState, params: Mapping[str, Any], sides: Mapping[str, str]) -> str | None: ...

    def issuers(self, state: GameState, side: str, params: Mapping[str, Any]) -> Sequence[str]: ...

    def checks_due(self, state: GameState, params: Mapping[str, Any]) -> Sequence[str]: ...

    def activation_choices(self, state: GameState, params: Mapping[str, Any]) -> Sequence[str]: ...

    def choose_activation(self, state: GameState, formation: str, params: Mapping[str, Any]) -> ActivationChoice: ...

    def actions(self, state: GameState, params: Mapping[str, Any], subject: str) -> Sequence[ActionSpec]: ...

    def move_check(self, state: GameState, request: MoveRequest, params: Mapping[str, Any]) -> MoveCheck | None: ...

    def action_subjects(self, state: GameState, params: Mapping[str, Any]) -> Sequence[str]: ...

    def preview_action(self, state: GameState, request: ActionRequest, params: Mapping[str, Any]) -> ActionPreview: ...

    def resolve_action(
        self, state: GameState, request: ActionRequest, params: Mapping[str, Any], dice: DiceSource
    ) -> ActionOutcome: ...


class RulesetDefaults:
    """The optional methods of ``Ruleset`` with the answers of a ruleset that has none of them;
    every ruleset inherits it and overrides what it has.

    * ``event_types``: the ruleset's own ``BattleEvent`` classes (``replay.events.register``-ed);
      the registry registers them before any file is decoded. None here.
    * ``parameters``: the numbers of ``resources/rulesets/<id>.toml`` with the scenario's
      parameters on top (``RuleParameters.for_ruleset``).
    * ``odds``: the exact odds of command for ``issuer`` → ``recipient`` (the odds panel); None
      when the ruleset has no odds to give. Raises ``RuleRefused`` for a missing value,
      ``KeyError`` for an unknown id.
    * ``order_budget``: the orders a commander may still give this turn; None when he has no
      budget (or the ruleset none at all).
    * ``finding_dependencies``: what its findings read, for updating a command picture after a
      drag; None: recompute the picture whole.
    * ``orders_report``: a plain-text report of standing orders and command (``battlestudio
      orders``); None when the ruleset has none.
    * ``issuers``: the commanders of ``side`` on the table who may issue orders now (the order
      dialog's issuers); here those whose echelon ``describe`` says issues orders, or whose
      echelon it does not list.
    * ``checks_due``: the formations whose ``command_check`` is still due in the open phase, in
      the order they roll (e.g. every brigade's command roll); none here.
    * ``activation_choices`` / ``choose_activation``: the formations that may activate next in
      the open phase, and the events recording the one chosen (alternating activations); none
      here, and choosing raises ``RuleRefused``.
    * ``move_check``: a unit's move (``rules.moves.MoveRequest``) checked against the
      ruleset's movement rules — legal or not, how far of how far, why; None when the ruleset
      has no movement rules to check.
    * ``actions``: the actions (``rules.actions.ActionSpec``) the open phase (``state.phase``,
      ``state.side``) offers ``subject`` — a unit, commander or formation id, or "" for the
      actions with no subject — legal ones and, with ``unavailable`` set, the ones that are
      not legal now; none here. ``action_subjects``: the ids that have a legal action now (the
      panel's "who can act" list); none here.
    * ``preview_action`` / ``resolve_action``: legality and exact odds before the roll, and the
      outcome with its events and rolls. All four answer from ``action_table`` (a
      ``rules.actions.ActionTable``) when the ruleset sets one; without it every action is
      refused (the ruleset has none).
    * ``turn_by_phase``: False, each side plays all the turn's phases before the other (Torden
      over Europa 1.2); True, each phase is played by both sides in turn, the initiative phase
      once, and the winner of its roll first in every phase after it (General d'Armée ИНИЦИАТИВА).
    """

    id: str
    action_table: ActionTable | None = None
    turn_by_phase: bool = False

    def event_types(self) -> Sequence[type[BattleEvent]]:
        return ()

    def parameters(self, params: Mapping[str, Any] | None) -> RuleParameters:
        return RuleParameters.for_ruleset(self.id, params or {})

    def odds(self, state: GameState, params: Mapping[str, Any], issuer: str, recipient: str) -> Odds | None:
        return None

    def order_budget(self, state: GameState, commander_id: str, params: Mapping[str, Any]) -> Budget | None:
        return None

    def finding_dependencies(self) -> FindingDependencies | None:
        return None

    def orders_report(self, state: GameState, params: Mapping[str, Any], sides: Mapping[str, str]) -> str | None:
        return None

    def issuers(self, state: GameState, side: str, params: Mapping[str, Any]) -> Sequence[str]:
        rank = {e.id: e for e in self.describe().echelons}  # type: ignore[attr-defined]
        return [
            c.id
            for c in state.commanders.values()
            if c.side == side
            and c.id not in state.off_table
            and (c.echelon not in rank or rank[c.echelon].issues_orders)
        ]

    def checks_due(self, state: GameState, params: Mapping[str, Any]) -> Sequence[str]:
        return ()

    def activation_choices(self, state: GameState, params: Mapping[str, Any]) -> Sequence[str]:
        return ()

    def choose_activation(self, state: GameState, formation: str, params: Mapping[str, Any]) -> ActivationChoice:
        raise RuleRefused(f"ruleset {self.id!r} has no alternating activations")

    def move_check(self, state: GameState, request: MoveRequest, params: Mapping[str, Any]) -> MoveCheck | None:
        return None

    def actions(self, state: GameState, params: Mapping[str, Any], subject: str) -> Sequence[ActionSpec]:
        return () if self.action_table is None else self.action_table.actions(state, params, subject)

    def action_subjects(self, state: GameState, params: Mapping[str, Any]) -> Sequence[str]:
        return () if self.action_table is None else self.action_table.action_subjects(state, params)

    def preview_action(self, state: GameState, request: ActionRequest, params: Mapping[str, Any]) -> ActionPreview:
        if self.action_table is not None:
            return self.action_table.preview_action(state, request, params)
        reason = f"ruleset {self.id!r} has no action {request.action!r}"
        return ActionPreview(request.action, request.subject, False, reason)

    def resolve_action(
        self, state: GameState, request: ActionRequest, params: Mapping[str, Any], dice: DiceSource
    ) -> ActionOutcome:
        if self.action_table is not None:
            return self.action_table.resolve_action(state, request, params, dice)
        return ActionOutcome("refused", f"ruleset {self.id!r} has no action {request.action!r}")
