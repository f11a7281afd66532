"""Regimental rules (Russian homebrew) behind the ruleset Protocol.

Owns ``RegimentalRuleset``, which the entry point ``regimental`` names. The rules are in
``command`` (initiative, zones, adjutant chains, order tests), ``activation`` (orders test of
a brigade or division, single-regiment orders) and ``morale`` (2D6 ≤ 8, casualty markers,
commander casualty test). Numbers come from ``resources/rulesets/regimental.toml``.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable, Mapping, Sequence

from battlestudio.model.scenario import Scenario
from battlestudio.model.units import Commander
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import Moved
from battlestudio.replay.order_events import CommandRolled, CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.regimental.actions import ACTIONS as ACTION_TABLE
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.params import MissingParameterError, RuleParameters, RuleRefused
from battlestudio.rules.odds import Odds
from battlestudio.rules.protocol import (
    ActivationChoice,
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
from battlestudio.rules.regimental.activation import RegimentOrder, activate, choice_event, chosen_next, regiment_order
from battlestudio.rules.regimental.command import (
    ACTIONS,
    ADJUTANT_MOVED,
    adjutant_move,
    distance_to,
    eligible,
    exempt_from_command,
    general_condition,
    hq_link,
    hq_of,
    may_activate,
    roll_initiative,
    units_under,
    usable_adjutants,
)
from battlestudio.rules.regimental.dependencies import REGIMENTAL
from battlestudio.rules.regimental.morale import MarkersPlaced, commander_casualty_test, formation_losses
from battlestudio.rules.regimental.odds import regimental_odds
from battlestudio.rules.regimental.organisation import Conversion, convert_import, convert_units

RULE = "Regimental rules"


def parameters(params: Mapping[str, Any] | None) -> RuleParameters:
    """The regimental.toml numbers with the scenario's parameters on top."""
    return RuleParameters.for_ruleset("regimental", params or {})


class RegimentalRuleset(RulesetDefaults):
    """Alternating activations of brigades or divisions, each with a D6 orders test."""

    action_table = ACTION_TABLE

    id = "regimental"

    def event_types(self) -> Sequence[type[BattleEvent]]:
        """Casualty markers placed on a regiment (``morale``)."""
        return (MarkersPlaced,)

    def odds(self, state: GameState, params: Mapping[str, Any], issuer: str, recipient: str) -> Odds:
        """Expected actions of a formation from the orders test, in and out of the HQ's zone (2.2)."""
        return regimental_odds(state, parameters(params), self.id, issuer, recipient)

    def finding_dependencies(self) -> FindingDependencies:
        """Brigade distances and the HQ's adjutant chain (``dependencies``)."""
        return REGIMENTAL

    def describe(self) -> RulesetDescription:
        echelons = (
            EchelonSpec("c_in_c", "HQ (fixed, with adjutants)", "штаб", True, False, "radius"),
            EchelonSpec("corps", "Corps (2 divisions)", "корпус", False, False, "none"),
            EchelonSpec("division", "Divisional general", "дивизионный генерал", False, True, "radius"),
            EchelonSpec("brigade", "Brigade general", "бригадный генерал", False, True, "radius"),
        )
        order = OrderTypeSpec(
            "activate",
            "Activate (orders test)",
            "тест на приказы",
            ("c_in_c",),
            ("division", "brigade"),
            (
                ParameterSpec(
                    "actions", "choice", choices=ACTIONS, multiple=3, note="up to 3, announced in order before the roll"
                ),
            ),
            cost=0,
            cost_unit="actions",
            dice=True,
            standing=False,
            rule="2.2",
        )
        machines = (
            StateMachineSpec(
                "general",
                {
                    "alive": "Alive",
                    "lightly_wounded": "Lightly wounded",
                    "badly_wounded": "Badly wounded",
                    "killed": "Killed",
                },
                forbids={
                    "lightly_wounded": ("give_orders",),
                    "badly_wounded": ("give_orders",),
                    "killed": ("give_orders",),
                },
            ),
            StateMachineSpec(
                "unit",
                {
                    "normal": "Normal",
                    "disorganised": "Disorganised",
                    "withdrawing": "Withdrawing",
                    "broken": "Broken (fled)",
                },
            ),
        )
        phases = (
            PhaseSpec("initiative", "Initiative test", "both", ("initiative",), "2.1", automatic=("initiative",)),
            PhaseSpec(
                "activation",
                "Alternating activations of one brigade or division",
                "active",
                ("next_activation", "issue_order"),
                "2.2",
            ),
        )
        return RulesetDescription(
            "regimental",
            RULE,
            "shared/seeds/003_b06bd850974f16fd.txt",
            ("metric",),
            ("d6", "2d6"),
            echelons,
            (order,),
            machines,
            phases,
            unknown_parameters=("adjutants.<side>",),
        )

    def command_reach(self, state: GameState, commander_id: str, params: Mapping[str, Any]) -> CommandReach:
        p = parameters(params)
        c = state.commanders[commander_id]
        if c.attributes.get("role") == "adjutant":
            return CommandReach(
                commander_id,
                "radius",
                radius=float(p.get("adjutant_link_cm")),
                measured_to="the next adjutant or the divisional general (a chain link)",
                assumed=tuple(p.assumptions()),
                rule="Дистанция командования; Ambiguity 17",
            )
        if c.echelon == "c_in_c" or c.attributes.get("role") == "hq":
            return CommandReach(
                commander_id,
                "radius",
                radius=float(p.get("hq_zone_cm")),
                measured_to="divisional generals, extended by adjutant chains",
                secondary={"adjutant move": float(p.get("adjutant_move_cm"))},
                rule="Дистанция командования",
            )
        if c.echelon in ("division", "brigade"):
            return CommandReach(
                commander_id,
                "radius",
                radius=float(p.get("general_zone_cm")),
                measured_to="nearest point of the regiment or of its brigade",
                assumed=tuple(p.assumptions()),
                rule="Дистанция командования",
            )
        return CommandReach(commander_id, "none")

    def order_types(
        self, state: GameState, issuer: str, recipient: str, params: Mapping[str, Any]
    ) -> Sequence[OrderTypeSpec]:
        spec = self.describe().order_types[0]
        why = may_activate(state, recipient)
        c = state.commanders.get(recipient)
        chosen = chosen_next(state, c.side) if c is not None else None
        if not why and chosen is not None and chosen != recipient:
            name = state.commanders[chosen].name or chosen
            why = f"{name} was chosen to activate next (2.2: one brigade or division at a time)"
        return [OrderTypeSpec(**{**{f: getattr(spec, f) for f in spec.__slots__}, "unavailable": why})]

    def issue_order(
        self, state: GameState, request: OrderRequest, params: Mapping[str, Any], dice: DiceSource
    ) -> OrderOutcome:
        p = parameters(params)
        if request.order_type != "activate":
            return OrderOutcome("refused", "", f"Regimental rules know only 'activate', not {request.order_type!r}")
        announced = request.parameters.get("actions", ())
        announced = (announced,) if isinstance(announced, str) else tuple(announced)
        act = activate(state, request.recipient, announced, p, dice)
        oid = f"regimental-activate-{request.recipient}-t{state.turn}"
        return OrderOutcome(
            act.status,
            oid,
            act.explanation,
            act.events,
            act.rolls,
            spent={"actions": len(act.granted)},
            assumed=tuple(p.assumptions()),
        )

    def command_check(
        self, state: GameState, formation: str, params: Mapping[str, Any], dice: DiceSource
    ) -> CheckResult:
        """The commander casualty test when the formation's losses call for it (no roll otherwise)."""
        p = parameters(params)
        t = commander_casualty_test(state, formation, p, dice)
        flags: dict[str, Any] = {"general": general_condition(state, formation), "casualty_test_due": t.due}
        events = []
        if t.roll is not None:
            flags["general"] = t.result
            events = [
                CommandRolled(state.turn, state.side, state.phase, roll=t.roll.to_dict(), explanation=t.roll.explain()),
                CommandStateChanged(
                    state.turn,
                    state.side,
                    state.phase,
                    subject=formation,
                    state="casualty_tested",
                    value=formation_losses(state, formation, p),
                    reason=t.why,
                ),
            ]
            if t.result != "unharmed":
                events.append(
                    CommandStateChanged(
                        state.turn,
                        state.side,
                        state.phase,
                        subject=formation,
                        state="general",
                        value=t.result,
                        reason="commander casualty test",
                    )
                )
        text = t.roll.explain() if t.roll else f"No commander casualty test for {formation}: {t.why}."
        restr = (
            ("-1 on morale tests; orders only from the HQ",) if flags["general"] not in ("alive", "unharmed") else ()
        )
        return CheckResult(
            formation, flags, restr, text, tuple(events), (t.roll,) if t.roll else (), tuple(p.assumptions())
        )

    def out_of_command(
        self, state: GameState, params: Mapping[str, Any], side: str | None = None
    ) -> Sequence[OutOfCommandFinding]:
        p = parameters(params)
        zone = float(p.get("general_zone_cm"))
        out = []
        near: dict[str, float] = {}  # general -> distance to his nearest unit, once per general
        exempt_subtypes: set[str] | None = None
        for uid, u in sorted(state.units.items()):
            if side and u.side != side:
                continue
            g = state.oob.superior(uid)
            if not g or g not in state.commanders:
                continue
            d = near.get(g)
            if d is None:
                d = near[g] = distance_to(state.commanders[g].position, units_under(state, g))
            if exempt_subtypes is None:  # read once, when the first unit needs it (an assumed reading)
                exempt_subtypes = set(p.get("command_exempt_subtypes"))
            exempt = "light or irregular cavalry" if exempt_from_command(u, p, exempt_subtypes) else ""
            within = d <= zone + 1e-6
            cons = "" if within or exempt else "order-test"
            text = f"{u.name or uid}: its brigade is {d:.1f} cm from {g} (zone {zone:g} cm)" + (
                ""
                if within or exempt
                else "; an order to this regiment alone takes the order test "
                "(1-2 arrives, 3-4 one action, 5-6 lost) and it loses the general's +1 morale/+1 result"
            )
            out.append(OutOfCommandFinding(uid, g, d, zone, within, exempt, cons, text, "Дистанция командования"))
        memo: dict[tuple[str, str], Any] = {}  # each side's HQ and adjutants, found once
        for c in sorted(state.commanders.values(), key=lambda c: c.id):
            if c.echelon != "division" or (side and c.side != side):
                continue
            link = hq_link(state, c.side, c.position, p, memo)
            out.append(
                OutOfCommandFinding(
                    c.id,
                    " → ".join(link.chain),
                    link.distance,
                    float(p.get("hq_zone_cm")),
                    link.within,
                    "",
                    "" if link.within else "order-test",
                    f"{c.name or c.id} {'is' if link.within else 'is not'} in the HQ's zone"
                    + (f" via {' → '.join(link.chain)}" if len(link.chain) > 1 else ""),
                    "Дистанция командования",
                )
            )
        return out

    def turn_sequence(self, state: GameState) -> Sequence[PhaseSpec]:
        return self.describe().phases

    def initiative(self, state: GameState, params: Mapping[str, Any], dice: DiceSource) -> InitiativeResult:
        sides = tuple(sorted({c.side for c in state.commanders.values()}))
        if len(sides) != 2:
            raise RuleRefused(f"Regimental initiative needs two sides, this game has {len(sides)}")
        side, rolls, text = roll_initiative(state, (sides[0], sides[1]), parameters(params), dice)
        phase = state.phase or "initiative"
        events: list[BattleEvent] = [
            CommandRolled(state.turn, state.side, phase, roll=r.to_dict(), explanation=r.explain()) for r in rolls
        ]
        events.append(
            CommandStateChanged(
                state.turn,
                state.side,
                phase,
                subject="holder",
                state="initiative",
                value=side,
                reason="initiative test (2.1)",
            )
        )
        return InitiativeResult(side, text, tuple(rolls), tuple(events))

    def next_activation(self, state: GameState) -> str:
        """The side that activates next: alternate from the initiative holder (flag
        ``initiative:holder``); a side with nothing left passes; ``turn over`` at the end."""
        sides = sorted({c.side for c in state.commanders.values()})
        left = {s: eligible(state, s) for s in sides}
        if not any(left.values()):
            return "turn over"
        holder = str(state.flags.get("initiative:holder", sides[0]))
        done = {
            s: sum(
                1
                for k, v in state.flags.items()
                if k.startswith("activated:")
                and isinstance(v, dict)
                and v.get("turn") == state.turn
                and state.commanders.get(k.split(":", 1)[1]) is not None
                and state.commanders[k.split(":", 1)[1]].side == s
            )
            for s in sides
        }
        order = [holder] + [s for s in sides if s != holder]
        nxt = min(order, key=lambda s: (done[s], order.index(s)))
        if not left[nxt]:
            nxt = next(s for s in order if left[s])
        return nxt

    def issuers(self, state: GameState, side: str, params: Mapping[str, Any]) -> Sequence[str]:
        """The side's HQ (orders come from the штаб, 2.2), its ``c_in_c`` or, assumed
        (``hq_fallback``), its top commander; none when it has no HQ."""
        hq = hq_of(state, side, parameters(params))
        return [hq.id] if hq is not None and hq.id not in state.off_table else []

    def activation_choices(self, state: GameState, params: Mapping[str, Any]) -> Sequence[str]:
        """The brigades and divisions of the side on the move that may still activate this turn (2.2)."""
        return eligible(state, state.side) if state.side else []

    def choose_activation(self, state: GameState, formation: str, params: Mapping[str, Any]) -> ActivationChoice:
        """Record that ``formation`` activates next (2.2: alternating activations, one brigade or
        division at a time); its orders test follows through ``issue_order``.

        Raises
        ------
        RuleRefused
            for a formation that may not activate now (naming why).
        """
        c = state.commanders.get(formation)
        why = may_activate(state, formation)
        if not why and c is not None and state.side and c.side != state.side:
            why = f"it is {state.side}'s activation, {c.name or formation} belongs to {c.side}"
        if why or c is None:
            raise RuleRefused(f"{formation} cannot activate now: {why}")
        pending = chosen_next(state, c.side)
        if pending is not None:
            p = state.commanders.get(pending)
            raise RuleRefused(
                f"{c.side} chose {(p.name if p else '') or pending} to activate next and it has not activated yet: "
                "give it its orders test first (2.2, one formation at a time)"
            )
        due = self.next_activation(state)
        left = len(eligible(state, c.side))
        turn_of = "" if due in (c.side, "turn over") else f" (the alternation would give {due} the next activation)"
        text = (
            f"{c.side} activates {c.name or formation} next{turn_of}: announce up to 3 actions, then the "
            f"orders test (2.2); {left - 1} more formation{'s' if left != 2 else ''} of {c.side} to activate this turn."
        )
        return ActivationChoice(formation, c.side, text, (choice_event(state, formation, text),))

    def regiment_order(
        self, state: GameState, regiment: str, division_actions: int, params: Mapping[str, Any], dice: DiceSource
    ) -> RegimentOrder:
        """An order to a single regiment (see ``activation.regiment_order``)."""
        return regiment_order(state, regiment, division_actions, parameters(params), dice)

    def move_adjutant(
        self, state: GameState, adjutant: str, to: tuple[float, float], params: Mapping[str, Any]
    ) -> OrderOutcome:
        """Move an HQ adjutant up to 20 cm once a turn (Перемещение; D-R4); ``status`` ``delivered`` with a
        ``Moved`` event, or ``refused`` with the reason (too far, or more adjutants on the table
        than ``adjutants.<side>``).

        Raises
        ------
        MissingParameterError
            when the scenario does not say how many adjutants the side has.
        """
        p = parameters(params)
        oid = f"regimental-adjutant-{adjutant}-t{state.turn}"
        try:
            ok, _, text = adjutant_move(state, adjutant, to, p)
            c = state.commanders[adjutant]  # there: adjutant_move refuses an id that is not an adjutant
            usable_adjutants(state, c.side, p)
        except MissingParameterError:
            raise
        except RuleRefused as exc:
            return OrderOutcome("refused", oid, f"Adjutant move refused: {exc}.")
        if not ok:
            return OrderOutcome("refused", oid, f"Adjutant move refused: {text}.")
        assert c is not None  # adjutant_move refused an unknown adjutant
        ev = Moved(
            state.turn,
            state.side,
            state.phase or "activation",
            id=adjutant,
            path=((c.position[0], c.position[1]), (float(to[0]), float(to[1]))),
        )
        moved = CommandStateChanged(
            state.turn,
            state.side,
            state.phase or "activation",
            subject=adjutant,
            state=ADJUTANT_MOVED,
            value=state.turn,
            reason="adjutant's move of the turn (Перемещение; D-R4)",
        )
        return OrderOutcome("delivered", oid, text + ".", (ev, moved), assumed=tuple(p.assumptions()))

    def convert_units(self, scenario: Scenario) -> Conversion:
        """The scenario's units at the Regimental scale (1.1-1.2; ``organisation``), applied
        by the ruleset switch."""
        return convert_units(scenario, parameters(scenario.info.parameters))

    def convert_import(self, scenario: Scenario, only: Iterable[str] | None = None) -> tuple[Scenario, Conversion]:
        """Imported or pasted units (``only`` those ids) at the Regimental scale, brigades split
        into regiments (1.1-1.2; ``organisation.convert_import``), read with the parameters of
        ``scenario.info``; applied by every import into a Regimental scenario."""
        return convert_import(scenario, parameters(scenario.info.parameters), only)

    def hq(self, state: GameState, side: str) -> Commander | None:
        """The side's HQ commander (the assumed ``hq_fallback`` applies)."""
        return hq_of(state, side, parameters({}))


ruleset = RegimentalRuleset()
