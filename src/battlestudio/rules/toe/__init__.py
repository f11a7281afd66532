"""Torden over Europa (Danish, 7th edition 2006): the order system, chapters 2–3 and 4.9.

``ruleset`` is the object the entry point ``battlestudio.rules.toe:ruleset`` names. Modules:
``common`` (ratings, corps membership, standing orders and their propagation), ``command``
(reach, zones, out of command), ``findings`` (out-of-command findings in words), ``orders``
(order types and legality), ``control`` (the command-control procedure), ``movement`` (a
general's legal move under his order), ``checks``
(engaged, automatic retreat, march conversion, completion, cavalry outside command distance),
``report`` (the orders report the ``battlestudio orders`` command prints), ``formations``
(formation changes, 1.6, 1.7, 4.4, 4.5).

Scenario parameters this ruleset needs because the rules text lost them (no defaults):

* ``zones_cm.c_in_c``, ``zones_cm.army`` — Table 1 zone bounds ``[z1, z2, z3]`` in cm, e.g.
  ``[20, 40, "60+"]`` (may be given per nation: ``zones_cm.<nation>.<echelon>``);
* ``command_thresholds`` — d10 needed in zones 1, 2, 3 (or ``command_thresholds.<echelon>``);
* ``command_modifiers`` — other Table 1 modifiers, name → value (``{}`` for none);
* ``order_capacity.<echelon>`` / ``order_capacity.<nation>.<echelon>`` — OAS, unless the
  commander record has ``order_capacity``;
* ``command_ability.<echelon>`` / ``command_ability.<nation>.<echelon>`` — KE, unless the
  commander record has ``command_ability``;
* ``corps_command_distance_cm`` / ``corps_command_distance_cm.<nation>`` — unless the corps
  general's record has ``command_distance``;
* ``march_length_cm.<arm>`` / ``march_length_cm.<nation>.<arm>`` — unless the unit has
  ``attributes["march_length_cm"]`` (march and retreat speed).
* ``melee_modifiers``, ``melee_odds_modifiers`` (Table 7), ``melee_losses.<arm>`` (Table 8),
  ``reaction_modifiers`` (Table 3), ``morale_table`` (Tables 9-10), ``rally_table`` (Table 11):
  until given, the umpire enters the melee, break-off, morale and reorganisation results
  (``melee``, ``after_melee``, ``morale``).

Every other number is in ``resources/rulesets/toe.toml`` with its section and status; assumed
readings are overridable under the same key.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable, Mapping, Sequence

from battlestudio.replay.events import BattleEvent
from battlestudio.replay.state import GameState
from battlestudio.rules.toe.combat_marks import CombatMarked
from battlestudio.rules.toe.actions import ACTIONS
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.params import MISSING, RuleParameters, RuleRefused, load_ruleset_file
from battlestudio.rules.dependencies import DIRECT_SUPERIOR
from battlestudio.rules.odds import Odds
from battlestudio.rules.protocol import (
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
    PhaseSpec,
    RulesetDescription,
    RulesetDefaults,
    StateMachineSpec,
)
from battlestudio.model.formations import FormationChange
from battlestudio.model.units import Formation
from battlestudio.rules.moves import MoveCheck, MoveRequest
from battlestudio.rules.toe import checks, command, control, execution, formations, march, movement, orders
from battlestudio.rules.toe.common import RatingOutOfRange, params_for
from battlestudio.rules.toe.odds import toe_odds
from battlestudio.rules.toe.report import orders_report

ECHELONS = (
    EchelonSpec("c_in_c", "C-in-C", "hærchef", True, False, "zones"),
    EchelonSpec("army", "army general", "armégeneral / arméchef", True, True, "zones"),
    EchelonSpec("corps", "corps general", "korpsgeneral / korpschef", True, True, "radius"),
    EchelonSpec("division", "division general", "divisionsgeneral / divisionschef", False, True, "radius"),
    EchelonSpec("brigade", "brigade (tactical unit)", "brigade", False, False, "none"),
)

PHASES = (
    PhaseSpec(
        "orders",
        "Order issuing and command control (ordregivning og kommandokontrol)",
        "active",
        ("command_check", "issue_order"),
        "1.2, 3",
    ),
    PhaseSpec("movement", "Movement (bevægelser)", "active", ("out_of_command",), "1.2, 4"),
    PhaseSpec("visual_contact", "Visual contact (visuel kontakt)", "both", (), "1.2"),
    PhaseSpec(
        "attack_declaration",
        "Attack declaration, reaction moves, reactions (erklæring af angreb)",
        "both",
        (),
        "1.2, 5",
    ),
    PhaseSpec("fire", "Passive side's firing (skydning)", "passive", (), "1.2, 6"),
    PhaseSpec("attack", "Attack: interrupted attacks, melee, morale, continued attack (angreb)", "both", (), "1.2, 7"),
    PhaseSpec("reorganisation", "Reorganisation, both sides (reorganisering)", "both", (), "1.2, 9"),
)

STATE_MACHINES = (
    StateMachineSpec(
        "unit_order_state",
        {
            "O": "in order (orden)",
            "U": "disorder (uorden)",
            "FU": "complete disorder (fuldstændig uorden)",
            "eliminated": "eliminated (elimineret)",
        },
        {
            "U": ("attack", "support", "leave command distance"),
            "FU": ("attack", "fire", "move", "change formation", "support"),
            "eliminated": ("everything",),
        },
        (
            ("O", "U", "morale"),
            ("U", "FU", "morale"),
            ("U", "O", "reorganisation"),
            ("FU", "U", "reorganisation"),
            ("FU", "eliminated", "2/3 lost and in FU, after its flight move"),
        ),
    ),
    StateMachineSpec(
        "corps_order",
        {
            "H": "hold (holdordre; also no order)",
            "A": "attack (angrebsordre)",
            "T": "retreat (tilbageordre)",
            "M": "march (marchordre)",
            "defence": "defence (forsvarsordre), read as hold",
            "D": "detached (detachering)",
        },
        {
            "H": ("corps general moves",),
            "defence": ("corps general moves",),
            "M": ("coming within 75 cm of the enemy",),
            "D": ("attack order",),
        },
        (
            ("H", "A", "order delivered"),
            ("A", "defence", "objective reached"),
            ("T", "defence", "objective reached"),
            ("M", "defence", "objective reached or enemy within 75 cm"),
            ("*", "T", "automatic retreat"),
        ),
    ),
)


class TordenOverEuropa(RulesetDefaults):
    """The Torden over Europa ruleset (Protocol ``rules.Ruleset``); stateless. Its events are
    in ``replay`` (orders, command states, rolls, combat) but for ``CombatMarked``."""

    action_table = ACTIONS

    id = "toe"

    def event_types(self) -> Sequence[type[BattleEvent]]:
        """The ruleset's own event: the combat marks of melee and morale (``combat_marks``)."""
        return (CombatMarked,)

    def parameters(self, params: Mapping[str, Any] | None) -> RuleParameters:
        """The ruleset's numbers with the scenario's parameters on top."""
        return params_for(params)

    def odds(self, state: GameState, params: Mapping[str, Any], issuer: str, recipient: str) -> Odds:
        """Command control of an order to ``recipient``, zone by zone (3.2, Table 1)."""
        return toe_odds(state, params_for(params), self.id, issuer, recipient)

    def order_budget(self, state: GameState, commander_id: str, params: Mapping[str, Any]) -> Budget | None:
        """A chief's OAS this turn (2.12); None for corps and division generals."""
        return command.order_budget(state, params_for(params), commander_id)

    def finding_dependencies(self) -> FindingDependencies:
        """Every subject is measured from its direct superior (2.4-2.5)."""
        return DIRECT_SUPERIOR

    def orders_report(self, state: GameState, params: Mapping[str, Any], sides: Mapping[str, str]) -> str:
        """Standing orders, OAS budgets and who is out of command (``battlestudio orders``)."""
        return orders_report(state, params, sides)

    def describe(self) -> RulesetDescription:
        header, entries = load_ruleset_file("toe")
        p = RuleParameters.for_ruleset("toe", {})
        types = tuple(orders.spec(t, p) for t in ("A", "H", "T", "M", "D", "mission", "move"))
        unknown = tuple(e.parameter for e in entries.values() if e.status == MISSING)
        return RulesetDescription(
            id="toe",
            name=str(header.get("name")),
            source=str(header.get("source")),
            measurement=("metric",),
            dice=tuple(header.get("dice", ("d10", "2d6"))),
            echelons=ECHELONS,
            order_types=types,
            state_machines=STATE_MACHINES,
            phases=PHASES,
            unknown_parameters=unknown,
        )

    def command_reach(self, state: GameState, commander_id: str, params: Mapping[str, Any]) -> CommandReach:
        return command.command_reach(state, commander_id, params_for(params))

    def order_types(
        self, state: GameState, issuer: str, recipient: str, params: Mapping[str, Any]
    ) -> Sequence[OrderTypeSpec]:
        return orders.order_types(state, params_for(params), issuer, recipient)

    def issue_order(
        self, state: GameState, request: OrderRequest, params: Mapping[str, Any], dice: DiceSource
    ) -> OrderOutcome:
        """One declaration through command control on its own (no pending re-rolls)."""
        out = control.order_phase(state, params_for(params), [request], dice, reroll_pending=False)
        first = out.outcomes[0]
        if first.status == "refused":
            return first
        return OrderOutcome(
            first.status,
            first.order_id,
            out.explanation(),
            tuple(out.events),
            first.rolls,
            first.spent,
            tuple(out.assumed),
        )

    def order_phase(
        self, state: GameState, requests: Sequence[OrderRequest], params: Mapping[str, Any], dice: DiceSource
    ) -> control.PhaseOutcome:
        """A whole order phase: every declaration first, then the rolls, then bought moves (3.3)."""
        return control.order_phase(state, params_for(params), requests, dice)

    def reroll_pending(self, state: GameState, params: Mapping[str, Any], dice: DiceSource) -> control.PhaseOutcome:
        """The order phase's last step, as it closes: the active side's failed orders rolled again (A6)."""
        return control.reroll_pending(state, params_for(params), dice)

    def command_check(
        self, state: GameState, formation: str, params: Mapping[str, Any], dice: DiceSource
    ) -> CheckResult:
        return checks.command_check(state, params_for(params), formation)

    def out_of_command(
        self, state: GameState, params: Mapping[str, Any], side: str | None = None
    ) -> Sequence[OutOfCommandFinding]:
        """Findings for every subject; raises ``MissingParameterError`` if a distance is missing.
        A division general rated outside 10–20 cm (2.5) does not stop the check: his troops are
        measured with his rating and the rating is reported by ``check`` and the orders report."""
        p = params_for(params)
        report = command.check_command(state, p, side)
        stop = [r for r in report.refusals if not isinstance(r, RatingOutOfRange)]
        if stop:
            raise stop[0]
        return report.findings

    def formation_change(
        self,
        state: GameState,
        unit_id: str,
        formation: str,
        params: Mapping[str, Any],
        column_ranks: int | None = None,
        *,
        terrain: Iterable[Any] = (),
        table: tuple[float, float] | None = None,
    ) -> FormationChange:
        """A unit changing formation (1.6, 1.7, 4.4, 4.5): where it stands afterwards and what
        it costs; raises ``RuleRefused`` naming the rule that forbids it. ``terrain`` and
        ``table`` (width, height cm) are the scenario's, for the room to unfold into (1.7)."""
        p = params_for(params)
        change = formations.formation_change(state, p, unit_id, formation, column_ranks, terrain=terrain, table=table)
        if formation == Formation.UNLIMBERED.value and state.units[unit_id].formation is not Formation.UNLIMBERED:
            refusal = execution.unlimber_refusal(state, p, unit_id)
            if refusal:
                raise RuleRefused(refusal)
        return change

    def move_check(self, state: GameState, request: MoveRequest, params: Mapping[str, Any]) -> MoveCheck:
        """A unit's move against chapter 4 (``march``), a general's against 2.4 (``command``)."""
        if request.unit in state.commanders and request.unit not in state.units:
            return command.general_move_check(state, params_for(params), request)
        return march.check_move(state, params_for(params), request)

    def legal_move(self, state: GameState, commander_id: str, params: Mapping[str, Any]) -> movement.MoveHelp:
        """This turn's legal move of a general under his standing order (2.7–2.11)."""
        return movement.legal_move(state, params_for(params), commander_id)

    def turn_sequence(self, state: GameState) -> Sequence[PhaseSpec]:
        return PHASES

    def initiative(self, state: GameState, params: Mapping[str, Any], dice: DiceSource) -> InitiativeResult:
        """Agreed between the sides, not rolled (1.2): the ``initiative`` entry (scenario choice
        ``toe.scenario.initiative``), a side id or a list of side ids per turn (the last one
        repeats). Nothing agreed: side ``""`` (the session then gives it to the scenario's first
        side every turn, so the sides still alternate)."""
        p = params_for(params)
        value = p.get("initiative")
        how = "the scenario's agreed initiative" if p.overridden("initiative") else "the ruleset default"
        if isinstance(value, (list, tuple)) and value:
            side = str(value[min(max(state.turn, 1), len(value)) - 1])
            how += f" for turn {max(state.turn, 1)}"
        else:
            side = str(value) if value else ""
        if not side:
            return InitiativeResult("", "Initiative is agreed between the sides, not rolled (1.2): not agreed.")
        return InitiativeResult(
            side, f"Initiative is agreed between the sides, not rolled (1.2): {side} ({how}) plays first."
        )

    def next_activation(self, state: GameState) -> str:
        """Whole sides act in turn (1.2): the active side."""
        return state.side


ruleset = TordenOverEuropa()
"""The instance the ``battlestudio.rulesets`` entry point ``toe`` names."""
