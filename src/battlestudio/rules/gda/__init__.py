"""General d'Armée (Russian partial translation) behind the ruleset Protocol.

Owns the ``GdaRuleset`` object the entry point ``gda`` names. The rules live in the modules:
``brigades`` (grades, averaged quality, brigade status), ``command`` (brigade command roll,
Faltering table, restrictions), ``adc`` (ADC tasks and costs), ``initiative``, ``attacks``
(declaration legality, supports) and ``modifiers`` (attack modifiers). Numbers come from
``resources/rulesets/gda.toml``.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping, Sequence

import numpy as np
import shapely
from shapely.geometry import Point as ShapelyPoint

from battlestudio.model.geometry import TINY
from battlestudio.model.units import footprints
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.order_events import OrderWritten
from battlestudio.replay.state import GameState
from battlestudio.rules.gda.actions import ACTIONS
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.gda.adc import TASKS, adcs_left, check_task, order_budget
from battlestudio.rules.gda.brigades import _STATE_ALIASES, UnitState, brigade_status, brigades_of, is_brigade, members
from battlestudio.rules.gda.command import FORBIDS, command_roll, end_of_turn, restrictions
from battlestudio.rules.gda.events import DamageTaken, LowAmmunition, TaskInForce
from battlestudio.rules.gda.geometry import distance_cm
from battlestudio.rules.gda.odds import gda_odds
from battlestudio.rules.gda.initiative import roll_initiative
from battlestudio.rules.params import MissingParameterError, RuleParameters, RuleRefused
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
    ParameterSpec,
    PhaseSpec,
    RulesetDefaults,
    RulesetDescription,
    StateMachineSpec,
)

RULE = "General d'Armée"


def parameters(params: Mapping[str, Any] | None) -> RuleParameters:
    """The gda.toml numbers with the scenario's parameters on top."""
    return RuleParameters.for_ruleset("gda", params or {})


class GdaRuleset(RulesetDefaults):
    """General d'Armée: ADCs as order tokens, a command roll per brigade per turn, initiative."""

    action_table = ACTIONS
    turn_by_phase = True
    """ИНИЦИАТИВА: "the initiative winner is the active player: he declares attacks first and
    resolves his attacks first"; ADC tasks and command rolls come before the roll, for both sides."""

    id = "gda"
    state_aliases = dict(_STATE_ALIASES)
    """Unit states of other rulesets General d'Armée reads as its own (O → formed, U → unformed, FU → routing)."""

    def event_types(self) -> Sequence[type[BattleEvent]]:
        """An ADC task in force, damage points, Low Ammunition (``events``)."""
        return (TaskInForce, DamageTaken, LowAmmunition)

    def odds(self, state: GameState, params: Mapping[str, Any], issuer: str, recipient: str) -> Odds:
        """The brigade's chance to obey this turn, with and without an ADC attached (§2.1, §3)."""
        return gda_odds(state, parameters(params), self.id, issuer, recipient)

    def order_budget(self, state: GameState, commander_id: str, params: Mapping[str, Any]) -> Budget | None:
        """A commander's ADCs this turn; None for a brigadier."""
        return order_budget(state, commander_id, parameters(params))

    def finding_dependencies(self) -> FindingDependencies:
        """A unit is measured from its brigadier only."""
        return DIRECT_SUPERIOR

    def describe(self) -> RulesetDescription:
        echelons = (
            EchelonSpec("c_in_c", "Commander-in-Chief", "Главнокомандующий", True, False, "none"),
            EchelonSpec("corps", "Corps commander", "корпусной командир", True, False, "none"),
            EchelonSpec(
                "division", "Division (its brigadier when units stand under it)", "дивизия", False, True, "none"
            ),
            EchelonSpec("brigade", "Brigadier", "бригадир", False, True, "radius"),
        )
        order_types = tuple(self._task_spec(t, "") for t in TASKS)
        machines = (
            StateMachineSpec(
                "brigade",
                {
                    "steady": "Steady / obeys orders",
                    "hesitant": "Hesitant (this turn)",
                    "faltering": "Faltering (until rolled off)",
                },
                forbids=dict(FORBIDS),
                transitions=(
                    ("steady", "hesitant", "command roll 1-2"),
                    ("steady", "faltering", "units retreat/rout"),
                    ("faltering", "steady", "Faltering table: Obeys"),
                    ("faltering", "hesitant", "Faltering table: Rally"),
                    ("hesitant", "steady", "end of turn / command roll 3-6"),
                ),
            ),
            StateMachineSpec("unit", {s.value: s.value.capitalize() for s in UnitState}),
        )
        phases = (
            PhaseSpec("adc", "ADC tasks", "both", ("order_types", "issue_order"), "ADC chapter (lost)"),
            PhaseSpec("command", "Brigade command rolls", "both", ("command_check",), "Командная Ситуация"),
            PhaseSpec("initiative", "Initiative", "both", ("initiative",), "ИНИЦИАТИВА", automatic=("initiative",)),
            PhaseSpec(
                "attack-declaration", "Attack declarations, active then passive", "both", (), "ПРОЦЕДУРА АТАКИ 1"
            ),
            PhaseSpec("attacks", "Attack resolution, active then passive", "both", (), "ПРОВЕДЕНИЕ АТАКИ"),
            PhaseSpec("movement", "Movement, fire, melee (not in the text)", "both", (), "Фаза Движения"),
        )
        return RulesetDescription(
            id="gda",
            name=RULE,
            source="shared/seeds/002_c65aa4a0b2259b92.txt",
            measurement=("metric", "imperial"),
            dice=("d6", "2d6"),
            echelons=echelons,
            order_types=order_types,
            state_machines=machines,
            phases=phases,
            unknown_parameters=(
                "adc_cost_forward",
                "adc_cost_brigade_attachment",
                "adc_cost_redeploy",
                "adcs",
                "normal_move_cm.<arm>",
                "attack_results",
                "discipline_test",
                "fate_table",
                "fire_support_range_cm.<arm>",
                "fire_support_effect.<arm>",
                "evade_distance_cm.<arm>",
            ),
        )

    @staticmethod
    def _task_spec(task: str, unavailable: str, cost: int = 0) -> OrderTypeSpec:
        label, term, effect = TASKS[task]
        params = (ParameterSpec("adcs", "choice", required=False, choices=("1", "2")),) if task == "initiative" else ()
        return OrderTypeSpec(
            task,
            label,
            term,
            issuers=("c_in_c", "army", "corps"),
            recipients=() if task == "initiative" else ("brigade",),
            parameters=params,
            cost=cost,
            cost_unit="ADC",
            dice=task != "initiative",
            standing=task == "infantry_assault",
            unavailable=unavailable,
            rule=effect,
            recipient_kind="none" if task == "initiative" else "commander",
        )

    def command_reach(self, state: GameState, commander_id: str, params: Mapping[str, Any]) -> CommandReach:
        p = parameters(params)
        if not is_brigade(state, commander_id, p):
            return CommandReach(
                commander_id,
                "none",
                measured_to="ADCs carry tasks; no distance roll in the text",
                rule="ADC chapter (lost)",
            )
        r = distance_cm(p, "brigadier_radius")
        sec = {
            "flanked": distance_cm(p, "flanked"),
            "support flank": distance_cm(p, "support_flank"),
            "cavalry rear support": distance_cm(p, "support_rear_cavalry"),
        }
        return CommandReach(
            commander_id,
            "radius",
            radius=r,
            measured_to="nearest point of each unit of his brigade",
            secondary=sec,
            assumed=tuple(p.assumptions()),
            rule='ОБЪЯВЛЕНИЕ АТАКИ (30 cm [18"])',
        )

    def order_types(
        self, state: GameState, issuer: str, recipient: str, params: Mapping[str, Any]
    ) -> Sequence[OrderTypeSpec]:
        p = parameters(params)
        out = []
        for task in TASKS:
            try:
                chk = check_task(state, issuer, recipient, task, p)
                out.append(self._task_spec(task, chk.reason, chk.cost))
            except MissingParameterError as exc:
                out.append(self._task_spec(task, str(exc)))
        return out

    def issue_order(
        self, state: GameState, request: OrderRequest, params: Mapping[str, Any], dice: DiceSource
    ) -> OrderOutcome:
        p = parameters(params)
        adcs = int(request.parameters.get("adcs", 1))
        oid = str(
            request.parameters.get("order_id")
            or f"gda-{request.order_type}-{request.recipient or request.issuer}-t{state.turn}"
        )
        try:
            chk = check_task(
                state,
                request.issuer,
                request.recipient,
                request.order_type,
                p,
                adcs=adcs,
                year=request.parameters.get("year"),
            )
        except (MissingParameterError, RuleRefused) as exc:
            return OrderOutcome(
                "refused", oid, f"{TASKS.get(request.order_type, (request.order_type,))[0]} refused: {exc}"
            )
        label = TASKS[request.order_type][0]
        if chk.reason:
            return OrderOutcome("refused", oid, f"{label} refused: {chk.reason}")
        ev = OrderWritten(
            state.turn,
            state.side,
            state.phase or "adc",
            order_id=oid,
            issuer=request.issuer,
            recipient=request.recipient,
            order_type=request.order_type,
            parameters={"ruleset": "gda", "adcs": chk.cost},
            cost=chk.cost,
        )
        left = adcs_left(state, request.issuer, p) - chk.cost
        when = (
            "adds to this turn's initiative roll"
            if request.order_type == "initiative"
            else "comes into force if the brigade obeys its command roll this turn"
        )
        text = f"{label}: {chk.cost} ADC{'s' if chk.cost > 1 else ''} sent ({left} left this turn); it {when}."
        return OrderOutcome("pending", oid, text, (ev,), spent={"adc": chk.cost}, assumed=tuple(p.assumptions()))

    def command_check(
        self, state: GameState, formation: str, params: Mapping[str, Any], dice: DiceSource
    ) -> CheckResult:
        p = parameters(params)
        res = command_roll(state, formation, p, dice)
        flags: dict[str, Any] = {
            "state": res.status.state.value,
            "obeys": res.obeys,
            "demoralised": res.status.demoralised,
            "odds": str(res.odds),
        }
        if res.result is not None:
            flags["faltering_result"] = res.result.value
            flags["quality"] = res.grade.value if res.grade else ""
        if res.must_retire:
            flags["must_retire"] = res.must_retire
        return CheckResult(
            formation, flags, restrictions(res.status), res.explanation, res.events, res.rolls, tuple(p.assumptions())
        )

    def out_of_command(
        self, state: GameState, params: Mapping[str, Any], side: str | None = None
    ) -> Sequence[OutOfCommandFinding]:
        """Every brigade's present units against the brigadier's command range (ОБЪЯВЛЕНИЕ
        АТАКИ: 30 cm [18"]), as ``geometry.under_command`` measures one: his base centre to
        the unit's nearest point; the whole army in one vectorised distance."""
        p = parameters(params)
        rows: list[tuple[str, Any, Any]] = []  # brigade id, brigadier, unit
        bases: list[Any] = []
        r = 0.0
        for b in brigades_of(state, side or None, p):
            c = state.commanders[b]
            present = members(state, b).present
            if not present:
                continue
            if not rows:
                r = distance_cm(p, "brigadier_radius")
            base = ShapelyPoint(c.position)
            rows += [(b, c, u) for u in present]
            bases += [base] * len(present)
        if not rows:
            return []
        ds = shapely.distance(
            np.asarray(bases, dtype=object), np.asarray(footprints([u for *_, u in rows]), dtype=object)
        ).tolist()
        out = []
        for (b, c, u), d in zip(rows, ds, strict=True):
            ok = d <= r + TINY
            out.append(
                OutOfCommandFinding(
                    u.id,
                    b,
                    d,
                    r,
                    ok,
                    "",
                    "" if ok else "cannot-attack-or-support",
                    f"{u.name or u.id} is {d:.1f} cm from {c.name or b}"
                    + ("" if ok else f", beyond his {r:g} cm: it may not attack or support an attack"),
                    rule="ОБЪЯВЛЕНИЕ АТАКИ; support prohibition А",
                )
            )
        return out

    def turn_sequence(self, state: GameState) -> Sequence[PhaseSpec]:
        return self.describe().phases

    def initiative(self, state: GameState, params: Mapping[str, Any], dice: DiceSource) -> InitiativeResult:
        sides = tuple(sorted({c.side for c in state.commanders.values()}))
        if len(sides) != 2:
            raise RuleRefused(f"General d'Armée initiative needs two sides, this game has {len(sides)}")
        res = roll_initiative(state, (sides[0], sides[1]), parameters(params), dice)
        return InitiativeResult(res.side, res.explanation, res.rolls, res.events)

    def next_activation(self, state: GameState) -> str:
        return "whole side"

    def checks_due(self, state: GameState, params: Mapping[str, Any]) -> Sequence[str]:
        """Every brigade of both sides with units on the table that has not rolled its command
        die this turn (Командная Ситуация: one roll per brigade per turn), side by side."""
        p = parameters(params)
        due = [
            b
            for b in brigades_of(state, None, p)
            if members(state, b).present and brigade_status(state, b).state_turn != state.turn
        ]
        return sorted(due, key=lambda b: (state.commanders[b].side, state.commanders[b].name or b))

    def end_turn(self, state: GameState, params: Mapping[str, Any], side: str | None = None) -> tuple[BattleEvent, ...]:
        """Events of the end of the turn: Hesitant brigades return to Steady (digest §2.2)."""
        return tuple(end_of_turn(state, parameters(params), side))

    def brigade_restrictions(self, state: GameState, brigade: str) -> tuple[str, ...]:
        """Restrictions in force for ``brigade`` now (digest §2.2)."""
        return restrictions(brigade_status(state, brigade))


ruleset = GdaRuleset()
