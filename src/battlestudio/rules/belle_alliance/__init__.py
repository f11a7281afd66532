"""Belle Alliance (Danish; the melee excerpt 4.1.1–4.1.8) behind the ruleset Protocol.

Owns ``BelleAllianceRuleset``, named by the entry point ``belle-alliance``. The excerpt has no
command chapter: command distance and the order roll (1.1.3) are missing values the scenario
supplies, and the rules refuse without them. What it does have — attack orders with a declared
target, break-in distance, neighbour and support units, flank/rear/overlap and the continued
advance — lives in ``attacks`` and ``geometry`` as umpire checks, and is played as the actions
of ``actions`` (order roll, announcement, fire record, melee, several targets, retreat,
continued attack and advance). Numbers come from ``resources/rulesets/belle-alliance.toml``.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping, Sequence

import numpy as np
import shapely

from battlestudio.model.units import footprints

from battlestudio.replay.order_events import OrderWritten
from battlestudio.replay.state import GameState
from battlestudio.rules.belle_alliance.actions import ACTIONS
from battlestudio.rules.belle_alliance.attacks import Announcement, attack_order, check_announcement, may_attack
from battlestudio.rules.belle_alliance.events import EVENT_TYPES
from battlestudio.rules.belle_alliance.continued import EVENT_TYPES as ADVANCE_EVENT_TYPES
from battlestudio.rules.belle_alliance.fire import EVENT_TYPES as FIRE_EVENT_TYPES
from battlestudio.rules.belle_alliance.retreat import EVENT_TYPES as RETREAT_EVENT_TYPES
from battlestudio.rules.belle_alliance.melee_plan import EVENT_TYPES as MELEE_EVENT_TYPES
from battlestudio.rules.belle_alliance.odds import belle_alliance_odds
from battlestudio.rules.belle_alliance.orders import roll_order
from battlestudio.replay.events import BattleEvent
from battlestudio.rules.odds import name_of
from battlestudio.rules.dependencies import DIRECT_SUPERIOR
from battlestudio.rules.odds import Odds
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.protocol import (
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

RULE = "Belle Alliance"


def parameters(params: Mapping[str, Any] | None) -> RuleParameters:
    """The belle-alliance.toml numbers with the scenario's parameters on top."""
    return RuleParameters.for_ruleset("belle-alliance", params or {})


ATTACK = OrderTypeSpec(
    "attack",
    "Attack order",
    "angrebsordre",
    ("c_in_c", "army", "corps", "division", "brigade"),
    ("unit",),
    (
        ParameterSpec("target", "enemy_unit", required=False, note="the unit attacked, as on the order sheet (4.1.1)"),
        ParameterSpec("storm", "choice", required=False, choices=("no", "yes"), note="storm or not (4.1.1)"),
        ParameterSpec(
            "against_position",
            "choice",
            required=False,
            choices=("no", "yes"),
            note="against the target's position rather than the unit (4.1.2)",
        ),
    ),
    cost=0,
    cost_unit="",
    dice=True,
    standing=True,
    rule="4.1.1, 4.1.2 (order sheet 1.1.2, order roll 1.1.3)",
    recipient_kind="unit",
)


def _yes(value: Any) -> bool:
    """An order-sheet yes/no as written: True, or the dialog's ``"yes"``."""
    return value is True or (isinstance(value, str) and value.strip().lower() in ("yes", "true", "1"))


class BelleAllianceRuleset(RulesetDefaults):
    """Belle Alliance: attack orders, break-in distance, neighbours, supports, continued advance.
    Its events are all in ``replay``; it has no order budget and no orders report."""

    action_table = ACTIONS

    id = "belle-alliance"

    def event_types(self) -> Sequence[type[BattleEvent]]:
        """An attack announced and settled, the after-melee status (``events``), the melee
        sub-phase record, the fired-this-turn record, the continued advance made, the melee lost and the retreat."""
        return (*EVENT_TYPES, *MELEE_EVENT_TYPES, *FIRE_EVENT_TYPES, *ADVANCE_EVENT_TYPES, *RETREAT_EVENT_TYPES)

    def odds(self, state: GameState, params: Mapping[str, Any], issuer: str, recipient: str) -> Odds:
        """The chance that an attack order passes the scenario's order roll (1.1.3)."""
        return belle_alliance_odds(state, parameters(params), self.id, issuer, recipient)

    def finding_dependencies(self) -> FindingDependencies:
        """A unit is measured from its commander only (the scenario's command distance)."""
        return DIRECT_SUPERIOR

    def describe(self) -> RulesetDescription:
        echelons = (EchelonSpec("brigade", "Commander (not in the excerpt)", "chef", True, False, "radius"),)
        machines = (
            StateMachineSpec(
                "unit",
                {
                    "O": "In order",
                    "LU": "Light disorder",
                    "U": "Disorder (uorden)",
                    "FU": "Complete disorder (fuldstændig uorden)",
                },
                forbids={"U": ("attack",), "FU": ("attack", "neighbour", "support")},
            ),
        )
        phases = (
            PhaseSpec("orders", "Order sheets and order rolls", "both", ("issue_order",), "1.1.2, 1.1.3"),
            PhaseSpec("movement", "Movement to break-in distance and announcements", "both", (), "4.1.1"),
            PhaseSpec("fire", "Fire", "both", (), "3"),
            PhaseSpec("melee", "Melee, all attacks at once", "both", (), "4.1.1, 4.1.3"),
            PhaseSpec("continued-advance", "Continued advance and attack", "both", (), "4.1.4"),
        )
        return RulesetDescription(
            "belle-alliance",
            RULE,
            "shared/seeds/001_cb41d6a8a7b4d53d.txt",
            ("metric",),
            (),
            echelons,
            (ATTACK,),
            machines,
            phases,
            unknown_parameters=(
                "command_distance_cm",
                "order_roll",
                "support_max_cm",
                "melee_dice",
                "melee_modifiers",
                "melee_result",
                "melee_losses",
                "fire_result",
                "retreat_cm",
                "rout_cm",
            ),
        )

    def command_reach(self, state: GameState, commander_id: str, params: Mapping[str, Any]) -> CommandReach:
        p = parameters(params)
        found = p.lookup("command_distance_cm")
        if found is None:
            return CommandReach(
                commander_id,
                "radius",
                measured_to="units under the commander",
                unknown={"command distance": "command_distance_cm"},
                rule="not in the excerpt",
            )
        return CommandReach(
            commander_id,
            "radius",
            radius=float(found[1]),
            measured_to="units under the commander",
            rule="scenario parameter command_distance_cm",
        )

    def order_types(
        self, state: GameState, issuer: str, recipient: str, params: Mapping[str, Any]
    ) -> Sequence[OrderTypeSpec]:
        """The attack order, offered for a unit (``recipient_kind`` ``unit``: it goes on the
        unit's own order sheet, 1.1.2); unavailable, saying why, for a general or an unknown id."""
        if recipient in state.units:
            why = ""
        elif recipient in state.commanders:
            why = f"{name_of(state, recipient)} is a general: Belle Alliance attack orders go on a unit's order sheet"
        else:
            why = f"{recipient!r} is not a unit"
        return [OrderTypeSpec(**{**{f: getattr(ATTACK, f) for f in ATTACK.__slots__}, "unavailable": why})]

    def issue_order(
        self, state: GameState, request: OrderRequest, params: Mapping[str, Any], dice: DiceSource
    ) -> OrderOutcome:
        """Write the attack order on the unit's sheet (1.1.2) with its target, storm and
        position, then make the order roll (1.1.3) when the scenario gives ``order_roll``: the
        order is in force only once delivered. Without it the order stays written ("pending")
        until the ``order_roll`` action settles it (the umpire enters the roll's result)."""
        p = parameters(params)
        oid = str(request.parameters.get("order_id") or f"ba-attack-{request.recipient}-t{state.turn}")
        if request.order_type != "attack":
            return OrderOutcome(
                "refused", oid, f"Belle Alliance knows only the attack order here, not {request.order_type!r}"
            )
        if request.recipient not in state.units:
            return OrderOutcome("refused", oid, f"attack orders go to units; {request.recipient!r} is not one")
        target = request.parameters.get("target")
        position = _yes(request.parameters.get("against_position", False))
        storm = _yes(request.parameters.get("storm", False))
        if not target and not position:
            return OrderOutcome("refused", oid, "an attack order names its target (4.1.1), or a position (4.1.2)")
        if target and target not in state.units:
            return OrderOutcome("refused", oid, f"no unit {target!r} to attack")
        if target and state.units[target].side == state.units[request.recipient].side:
            return OrderOutcome("refused", oid, f"{target!r} is on the same side as {request.recipient!r}")
        footprint = None
        if position and target:
            footprint = [list(c) for c in state.units[target].footprint().exterior.coords]
        stamp: dict[str, Any] = {"turn": state.turn, "side": state.side, "phase": state.phase or "orders"}
        ev = OrderWritten(
            **stamp,
            order_id=oid,
            issuer=request.issuer,
            recipient=request.recipient,
            order_type="attack",
            parameters={
                "ruleset": "belle-alliance",
                "target": target,
                "storm": storm,
                "against_position": position,
                "position": footprint,
            },
        )
        what = f"the position of {target}" if position and target else ("its own position" if position else target)
        head = f"Attack order for {request.recipient} against {what}{' with storm' if storm else ''} written"
        if p.lookup("order_roll") is None:
            note = (
                "the order roll (1.1.3) is not in the excerpt: supply scenario parameter 'order_roll' or "
                "enter the roll's result with the order_roll action; until then the order is not in force"
            )
            return OrderOutcome("pending", oid, f"{head}; {note}.", (ev,))
        record, events = roll_order(state, oid, request.recipient, p, dice, stamp)
        status = "delivered" if record.success else "failed"
        return OrderOutcome(status, oid, f"{head}; {record.explain()}.", (ev, *events), (record,))

    def command_check(
        self, state: GameState, formation: str, params: Mapping[str, Any], dice: DiceSource
    ) -> CheckResult:
        """No per-turn command roll in the excerpt: reports which units under ``formation`` may
        attack (attack order, not U/FU) and which may only close to break-in distance."""
        units = (
            [formation]
            if formation in state.units
            else [n for n in state.oob.all_subordinates(formation) if n in state.units]
        )
        flags: dict[str, Any] = {}
        lines = []
        for uid in units:
            order = attack_order(state, uid)
            ann = (
                Announcement(
                    uid,
                    order.parameters.get("target"),
                    bool(order.parameters.get("storm")),
                    bool(order.parameters.get("against_position")),
                )
                if order
                else None
            )
            ok, reasons = may_attack(state, uid, ann)
            flags[uid] = "may attack" if ok else "break-in distance only"
            lines.append(f"{uid}: " + ("may attack" if ok else "; ".join(reasons)))
        return CheckResult(formation, flags, (), " ".join(lines) or "no units", ())

    def out_of_command(
        self, state: GameState, params: Mapping[str, Any], side: str | None = None
    ) -> Sequence[OutOfCommandFinding]:
        """Units farther from their commander than ``command_distance_cm`` (a scenario
        parameter: the excerpt has no command distance; refused without it). Every unit is
        measured from its commander's position to its footprint's nearest point, all in one
        vectorised distance."""
        p = parameters(params)
        reach = float(p.require("command_distance_cm", "command_distance_cm")[1])
        pairs: list[tuple[str, Any, str]] = []
        for uid, u in sorted(state.units.items()):
            sup = state.oob.superior(uid)
            if (side and u.side != side) or not sup or sup not in state.commanders:
                continue
            pairs.append((uid, u, sup))
        if not pairs:
            return []
        sups = list(dict.fromkeys(sup for *_, sup in pairs))
        points = dict(
            zip(
                sups,
                shapely.points(
                    np.asarray([state.commanders[s].position for s in sups], dtype=float).reshape(-1, 2)
                ).tolist(),
                strict=True,
            )
        )
        ds = shapely.distance(
            np.asarray([points[sup] for *_, sup in pairs], dtype=object),
            np.asarray(footprints([u for _, u, _ in pairs]), dtype=object),
        ).tolist()
        out = []
        for (uid, _, sup), d in zip(pairs, ds, strict=True):
            ok = d <= reach + 1e-6
            out.append(
                OutOfCommandFinding(
                    uid,
                    sup,
                    d,
                    reach,
                    ok,
                    "",
                    "" if ok else "out-of-command",
                    f"{uid} is {d:.1f} cm from {sup} (scenario command distance {reach:g} cm)",
                    "scenario parameter command_distance_cm",
                )
            )
        return out

    def turn_sequence(self, state: GameState) -> Sequence[PhaseSpec]:
        return self.describe().phases

    def initiative(self, state: GameState, params: Mapping[str, Any], dice: DiceSource) -> InitiativeResult:
        return InitiativeResult(
            "",
            "Belle Alliance bounds are played by both sides together (phases of skema 1); "
            "the excerpt has no initiative roll.",
        )

    def next_activation(self, state: GameState) -> str:
        return "whole side"

    def check_announcement(self, state: GameState, ann: Announcement) -> tuple[bool, list[str]]:
        """Whether an announcement matches the order sheet (4.1.1)."""
        return check_announcement(state, ann)


ruleset = BelleAllianceRuleset()
