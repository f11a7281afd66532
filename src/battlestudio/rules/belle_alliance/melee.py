"""Belle Alliance's melee action (seed 001, 4.1.1, 4.1.3–4.1.8): fighting a melee at one target
with all its attackers, in the melee and continued-advance phases. Who fights and the plan fixed
before the roll are ``melee_plan``; the continued attack is ``continued``.

The excerpt gives the procedure, not the numbers: the melee dice, skema 8 (modifiers), skema 11
(the loser's morale by the difference) and skema 12 (losses and prisoners) are lost. The melee
action therefore takes the umpire's entry of each side's modified melee result, of the skema 11
morale result and of the skema 12 losses (in figures, fractions allowed) per attack, and the
program does everything around the tables: the comparison, the common target, summing before
rounding down, sharing pro rata, prisoners only from FU units, the carried after-melee status,
the right to a continued attack.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any
from collections.abc import Mapping, Sequence

from battlestudio.replay.combat_events import Melee
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import OrderStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.belle_alliance.attacks import DISORDERED
from battlestudio.rules.belle_alliance.events import AttackSettled, MeleeStatus
from battlestudio.rules.belle_alliance.retreat import MeleeLost
from battlestudio.rules.belle_alliance.melee_plan import (
    STATES,
    Attack,
    MeleeSubPhase,
    announced,
    attacks_on,
    event_stamp,
    explain_plan,
    plan_melee,
    state_at_start,
    subphase_record,
    unit_snapshot,
    whole,
)
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.losses import loss_event
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec

MELEE_TABLES = (
    "skema 8 (melee modifiers), skema 11 (the loser's morale by the difference) and skema 12 "
    "(losses, prisoners) and the melee dice are not in the excerpt: scenario parameters melee_dice, "
    "melee_modifiers, melee_result, melee_losses"
)


def _melee_params() -> tuple[ParameterSpec, ...]:
    return (
        ParameterSpec("neighbour", "unit", required=False, note="a neighbour unit of an attacker (4.1.6)"),
        ParameterSpec("support", "unit", required=False, note="a support unit of an attacker (4.1.7)"),
        ParameterSpec("defender_support", "unit", required=False, note="a support unit of the defender (4.1.7)"),
        ParameterSpec(
            "defender_neighbour",
            "unit",
            required=False,
            note="a unit of the defender's side the attacker attacks at the same time, counted as a neighbour (4.1.6)",
        ),
        ParameterSpec(
            "measured_from",
            "unit",
            required=False,
            note="on equal morale results, the attacker the defender's retreat is measured from (4.1.5)",
        ),
    )


def _umpire_fields(attacks: Sequence[Attack], target: str) -> tuple[ParameterSpec, ...]:
    out: list[ParameterSpec] = []
    for a in attacks:
        out += [
            ParameterSpec(f"attacker_result:{a.attacker}", "int", label=f"{a.attacker}: modified melee roll (skema 8)"),
            ParameterSpec(
                f"defender_result:{a.attacker}", "int", label=f"{target} against {a.attacker}: modified roll (skema 8)"
            ),
            ParameterSpec(
                f"loser_state:{a.attacker}", "choice", choices=STATES, label="the loser's morale result (skema 11)"
            ),
            ParameterSpec(f"losses_on_defender:{a.attacker}", "text", label=f"{target}'s losses, figures (skema 12)"),
            ParameterSpec(f"losses_on_attacker:{a.attacker}", "text", label=f"losses {target} inflicts (skema 12)"),
        ]
    out += [
        ParameterSpec("prisoners_from_defender", "int", required=False, minimum=0, label="prisoners (skema 12)"),
        ParameterSpec("prisoners_from_attackers", "int", required=False, minimum=0, label="prisoners (skema 12)"),
    ]
    return tuple(out)


def _melee_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    if state.phase not in ("melee", "continued-advance") or subject not in state.units:
        return None
    continued = state.phase == "continued-advance"
    pending = [
        uid
        for uid in state.units
        if (rec := announced(state, uid)) is not None
        and rec.get("target") == subject
        and not rec.get("resolved")
        and (not rec.get("continued") or continued)
    ]
    if not pending:
        return None
    fought, _ = attacks_on(state, subject, p)
    needs_table = bool(fought) and state_at_start(state, subject) not in DISORDERED
    return ActionSpec(
        "melee",
        "Melee",
        "nærkamp",
        "4.1.1, 4.1.3–4.1.8",
        parameters=_melee_params(),
        umpire_result=_umpire_fields(fought, subject) if needs_table else (),
        umpire_table=MELEE_TABLES if needs_table else "",
        note=f"the attacks on {subject}: {', '.join(sorted(pending))}",
    )


def _melee_preview(state: GameState, request: ActionRequest, p: RuleParameters) -> ActionPreview:
    plan = plan_melee(state, request, p)
    table = bool(plan.fought) and state_at_start(state, plan.target) not in DISORDERED
    return ActionPreview(
        "melee",
        request.subject,
        True,
        explanation=explain_plan(plan) + (f". {MELEE_TABLES}: the umpire enters the results" if table else ""),
        umpire_entry=table,
    )


def figures_entry(v: Any, what: str) -> Fraction:
    """A skema 12 loss as the umpire enters it: figures, a fraction allowed ("1.5", "3/2")."""
    try:
        f = Fraction(str(v).strip().replace(",", "."))
    except (ValueError, ZeroDivisionError):
        raise RuleRefused(f"{what} must be a number of figures, got {v!r}") from None
    if f < 0:
        raise RuleRefused(f"{what} must be 0 or more, got {v!r}")
    return f


def share(total: int, weights: Mapping[str, int]) -> dict[str, int]:
    """A8 (4.1.5 "fordeles forholdsmæssigt"): ``total`` figures shared in proportion to
    ``weights`` (figures counted, B-9), each share rounded down, the remainder to the unit with
    the most counted figures (first by id)."""
    if not weights:
        return {}
    w = sum(weights.values()) or len(weights)
    out = {u: (total * (c or (1 if w == len(weights) else 0))) // w for u, c in weights.items()}
    biggest = sorted(weights, key=lambda u: (-weights[u], u))[0]
    out[biggest] += total - sum(out.values())
    return out


def _melee_resolve(state: GameState, request: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    """The melee at the request's target with the umpire's entry of skema 8/11/12 (4.1.3, 4.1.5):
    each attack's difference, the loser's morale (a neighbour shares its unit's, 4.1.6), the
    losses summed and shared, prisoners, the carried status (4.1.1) and continued right (4.1.4)."""
    plan = plan_melee(state, request, p)
    target = plan.target
    stamp = event_stamp(state)
    until = state.turn + 1
    events: list[BattleEvent] = []
    if not subphase_record(state).get("snapshot"):
        events.append(MeleeSubPhase(**stamp, snapshot=unit_snapshot(state)))
    roles = {}
    if plan.neighbour:
        roles[plan.neighbour[0]] = "neighbour"
    if plan.support:
        roles[plan.support[0]] = "support"
    if plan.defender_support:
        roles[plan.defender_support] = "support"
    defenders = [target, *([plan.defender_neighbour[0]] if plan.defender_neighbour else [])]
    if plan.defender_neighbour:
        roles[plan.defender_neighbour[0]] = "neighbour"
    if roles:
        events.append(MeleeSubPhase(**stamp, roles=roles))
    lines: list[str] = []
    for uid, why in plan.lost.items():
        events.append(AttackSettled(**stamp, attacker=uid, cancelled=why))
        lines.append(why)
    by = {a.attacker: a for a in plan.fought}
    if not plan.fought:
        return ActionOutcome("resolved", "No melee at " + target + ": " + "; ".join(lines), tuple(events))
    neighbour_of = {plan.neighbour[1]: plan.neighbour[0]} if plan.neighbour else {}
    t_state = state_at_start(state, target)
    if t_state in DISORDERED:
        # 4.1.1: not fought because the target went U or FU in the fire phase at break-in distance
        fu = t_state == "FU"
        for a in plan.fought:
            for uid in (a.attacker, *([neighbour_of[a.attacker]] if a.attacker in neighbour_of else [])):
                events.append(
                    MeleeStatus(
                        **stamp,
                        unit=uid,
                        role="attacker",
                        fu_bonus=fu,
                        continued_attack=fu and not a.continued,
                        until_turn=until,
                        extra={"opponent": target, "opponent_state": t_state},
                    )
                )
            events.append(AttackSettled(**stamp, attacker=a.attacker))
        events += [MeleeStatus(**stamp, unit=d, role="defender", until_turn=until) for d in defenders]
        why = (
            f"{target} went {t_state} in the fire phase while at break-in distance: the melee is not fought, "
            f"but both count as having been attacker and defender until the end of turn {until}"
            + ("; the attackers gain the FU bonus and may make a continued attack (4.1.1, 4.1.4)" if fu else " (4.1.1)")
        )
        events.append(
            Melee(**stamp, attackers=tuple(a.attacker for a in plan.fought), defenders=(target,), explanation=why)
        )
        return ActionOutcome("resolved", "; ".join([*lines, why]), tuple(events))
    res = request.umpire_result or {}
    rows: dict[str, dict[str, Any]] = {}
    for a in plan.fought:
        k = a.attacker
        ar = whole(res.get(f"attacker_result:{k}"), f"{k}'s modified melee roll")
        dr = whole(res.get(f"defender_result:{k}"), f"{target}'s modified roll against {k}")
        ls = str(res.get(f"loser_state:{k}", ""))
        if ls not in STATES:
            raise RuleRefused(f"the loser's morale result against {k} must be one of {', '.join(STATES)}, got {ls!r}")
        rows[k] = {
            "attacker": ar,
            "defender": dr,
            "difference": ar - dr,
            "loser_state": ls,
            "on_defender": figures_entry(res.get(f"losses_on_defender:{k}", "0"), f"{target}'s losses from {k}"),
            "on_attacker": figures_entry(res.get(f"losses_on_attacker:{k}", "0"), f"losses {target} inflicts on {k}"),
        }
    # 4.1.3: the lower result loses; the difference gives the loser's morale (skema 11)
    tie = str(p.get("melee_tie"))  # A5: no_loser | defender_wins
    won = {k: r for k, r in rows.items() if r["difference"] > 0}
    lost_attacks = {
        k: r for k, r in rows.items() if r["difference"] < 0 or (r["difference"] == 0 and tie == "defender_wins")
    }
    new_state: dict[str, str] = {}
    measured = ""
    if won:
        # 4.1.5: the defender takes the best result of the attackers; it picks among equals
        worst = max(STATES.index(r["loser_state"]) for r in won.values())
        tied = sorted(k for k, r in won.items() if STATES.index(r["loser_state"]) == worst)
        pick = request.parameters.get("measured_from")
        if pick and str(pick) not in tied:
            raise RuleRefused(f"4.1.5: {target} may measure its retreat only from {', '.join(tied)}, not {pick}")
        measured = str(pick) if pick else max(tied, key=lambda k: (won[k]["difference"], k))
        new_state[target] = STATES[worst]
        if plan.defender_neighbour:  # 4.1.6: the defender's neighbour gets the same morale effect
            new_state[plan.defender_neighbour[0]] = STATES[worst]
    for k, r in lost_attacks.items():
        new_state[k] = r["loser_state"]
        if k in neighbour_of:  # 4.1.6: the neighbour gets the same morale effect
            new_state[neighbour_of[k]] = r["loser_state"]
    target_fu = new_state.get(target) == "FU"
    fu_attackers = [k for k in rows if new_state.get(k) == "FU"]
    # 4.1.5: losses suffered summed over every attack before rounding down (skema 12)
    suffered = sum((r["on_defender"] for r in rows.values()), Fraction(0))
    t_loss = math.floor(suffered)
    # 4.1.5: losses inflicted from the attack with the defender's best conditions (A7), shared (A8)
    if str(p.get("defender_best_conditions")) == "highest_result":
        best = max(rows, key=lambda k: (rows[k]["defender"], rows[k]["defender"] - rows[k]["attacker"], k))
    else:
        best = max(rows, key=lambda k: (rows[k]["defender"] - rows[k]["attacker"], rows[k]["defender"], k))
    inflicted = math.floor(rows[best]["on_attacker"])
    by_all = str(p.get("loss_sharing")) == "all_figures"
    weight = {k: state.units[k].figures if by_all else plan.counted[k] for k in rows}
    shares = share(inflicted, weight)
    p_def = whole(res.get("prisoners_from_defender", 0) or 0, "prisoners from the defender")
    p_att = whole(res.get("prisoners_from_attackers", 0) or 0, "prisoners from the attackers")
    if p_def and not target_fu:
        raise RuleRefused(f"4.1.3: prisoners are taken only from a unit in FU; {target} is not")
    if p_att and not fu_attackers:
        raise RuleRefused("4.1.3 / 4.1.5: prisoners are shared only among attackers that go FU; none does")
    p_shares = share(p_att, {k: weight[k] for k in fu_attackers})
    after = state
    losses: list[BattleEvent] = []

    def lose(uid: str, figures: int, cause: str) -> None:
        nonlocal after
        if figures:
            ev = loss_event(after, uid, figures, cause, stamp)
            after = ev.apply(after)
            losses.append(ev)

    lose(target, t_loss, f"melee: {float(suffered):g} figures summed over {len(rows)} attack(s), rounded down (4.1.5)")
    lose(target, p_def, "prisoners, removed from the table (4.1.3)")
    for k in rows:
        lose(k, shares[k], f"melee: {inflicted} figures from the attack on {best}, shared pro rata (4.1.5, A8)")
        lose(k, p_shares.get(k, 0), "prisoners, removed from the table (4.1.3, 4.1.5)")
    winner = "attacker" if won else ("defender" if lost_attacks else "draw")
    roll = {
        "attacks": {
            k: {
                **{x: r[x] for x in ("attacker", "defender", "difference", "loser_state")},
                "on_defender": str(r["on_defender"]),
                "on_attacker": str(r["on_attacker"]),
            }
            for k, r in rows.items()
        },
        "measured_from": measured,
        "best_for_defender": best,
        "neighbour": list(plan.neighbour or ()),
        "support": list(plan.support or ()),
        "defender_support": plan.defender_support,
        "defender_neighbour": list(plan.defender_neighbour or ()),
        "factors": plan.factors,
        "counted": plan.counted,
        "tables": "umpire",
    }
    parts = [
        f"{k} {r['attacker']} against {target} {r['defender']}: "
        + (
            "tie, no loser (A5)"
            if r["difference"] == 0 and k not in lost_attacks
            else f"{'attacker' if r['difference'] > 0 else 'defender'} wins by "
            f"{abs(r['difference'])}, the loser {r['loser_state']} (skema 11)"
        )
        for k, r in rows.items()
    ]
    if won:
        parts.append(f"{target} takes the best attacker result, {new_state[target]}, measured from {measured} (4.1.5)")
    parts.append(f"{target} loses {t_loss} figures ({float(suffered):g} summed, rounded down)")
    if inflicted:
        parts.append(
            f"it inflicts {inflicted} from the attack on {best}: " + ", ".join(f"{k} {v}" for k, v in shares.items())
        )
    explanation = "; ".join([*lines, *parts])
    events.append(
        Melee(**stamp, attackers=tuple(rows), defenders=(target,), winner=winner, roll=roll, explanation=explanation)
    )
    events += losses
    for uid, st in new_state.items():
        if st != state.units[uid].state:
            events.append(OrderStateChanged(**stamp, unit=uid, state=st, reason="melee result (skema 11), 4.1.3"))
    # 4.1.5: the losers' retreat or rout, measured from the chosen attacker (or from the target)
    lost_from = {k: target for k in lost_attacks} | {neighbour_of[k]: target for k in lost_attacks if k in neighbour_of}
    if won:
        lost_from |= {d: measured for d in defenders}
    events += [MeleeLost(**stamp, unit=u, measured_from=f, result=new_state[u]) for u, f in lost_from.items()]
    # 4.1.7: the support may join the supported unit's continued advance (not its continued attack)
    supported = {plan.support[1]: {"support": plan.support[0]}} if plan.support else {}
    for k in rows:
        gave_fu = target_fu and rows[k]["difference"] > 0
        for uid in (k, *([neighbour_of[k]] if k in neighbour_of else [])):
            events.append(
                MeleeStatus(
                    **stamp,
                    unit=uid,
                    role="attacker",
                    fu_bonus=gave_fu,
                    continued_attack=gave_fu and not by[k].continued,
                    until_turn=until,
                    extra={"opponent": target, "opponent_state": "FU", **supported.get(uid, {})} if gave_fu else {},
                )
            )
        events.append(AttackSettled(**stamp, attacker=k))
    events += [
        MeleeStatus(**stamp, unit=d, role="defender", fu_bonus=bool(fu_attackers), until_turn=until) for d in defenders
    ]
    return ActionOutcome("resolved", explanation, tuple(events), assumed=("A5 tie: no loser", "A7", "A8", "A22"))


HANDLERS: tuple[ActionHandler, ...] = (ActionHandler("melee", _melee_spec, _melee_preview, _melee_resolve),)
