"""Belle Alliance's melee procedure (seed 001, 4.1.1–4.1.8) as actions: fighting a melee at one
target with all its attackers (melee and continued-advance phases) and announcing a continued
attack (continued-advance phase); announcing an attack, demanding one and the intervening unit
are ``announce``.

The excerpt gives the procedure, not the numbers: the melee dice, skema 8 (modifiers), skema 11
(the loser's morale by the difference) and skema 12 (losses and prisoners) are lost. The melee
action therefore takes the umpire's entry of each side's modified melee result, of the skema 11
morale result and of the skema 12 losses (in figures, fractions allowed) per attack, and the
program does everything around the tables: who attacks and who lost its attack, the
comparison, the common target, summing before rounding down, sharing pro rata, prisoners only
from FU units, the carried after-melee status, the right to a continued attack. All melees of a
sub-phase are judged on the unit states at its start (A22): the first melee records them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any
from collections.abc import Mapping, Sequence

from battlestudio.model.units import Arm
from battlestudio.replay.combat_events import Melee
from battlestudio.replay.events import json_value, BattleEvent, register
from battlestudio.replay.flow_events import OrderStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.belle_alliance.attacks import (
    DISORDERED,
    check_neighbour,
    check_support,
)
from battlestudio.rules.belle_alliance.events import AttackAnnounced, AttackSettled, MeleeStatus, _flags
from battlestudio.rules.belle_alliance.geometry import at_break_in, classify, stands_in_zone
from battlestudio.rules.belle_alliance.paths import continued_attack_reach, counted_figures, figures_of, position_status
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.losses import loss_event
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec

STATES = ("O", "LU", "U", "FU")  # the loser's morale results, mildest first (skema 11 gives them)
MELEE_TABLES = (
    "skema 8 (melee modifiers), skema 11 (the loser's morale by the difference) and skema 12 "
    "(losses, prisoners) and the melee dice are not in the excerpt: scenario parameters melee_dice, "
    "melee_modifiers, melee_result, melee_losses"
)
YES = ("no", "yes")


@register
@dataclass(frozen=True, slots=True)
class MeleeSubPhase(BattleEvent):
    """Bookkeeping of one melee sub-phase (4.1.3, 4.1.6, 4.1.7, A22): the unit states and
    figures at its start (``snapshot``, recorded by its first melee) and the units already used
    as neighbour or support (``roles``: one unit each per sub-phase)."""

    kind = "ba_melee_subphase"
    snapshot: Mapping[str, Any] = field(default_factory=dict)
    roles: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:  # as read back from a file: lists, not tuples
        object.__setattr__(self, "snapshot", json_value(dict(self.snapshot)))
        object.__setattr__(self, "roles", json_value(dict(self.roles)))

    def apply(self, state: GameState) -> GameState:
        key = f"ba:subphase:{self.turn}:{self.phase}"
        old = dict(state.flags.get(key) or {})
        snap = old.get("snapshot") or {u: (str(v[0]), int(v[1])) for u, v in self.snapshot.items()}
        roles = {**dict(old.get("roles") or {}), **dict(self.roles)}
        return _flags(state, **{key: {"snapshot": snap, "roles": roles}})


EVENT_TYPES: tuple[type[BattleEvent], ...] = (MeleeSubPhase,)


def _stamp(state: GameState) -> dict[str, Any]:
    return {"turn": state.turn, "side": state.side, "phase": state.phase}


def announced(state: GameState, uid: str) -> Mapping[str, Any] | None:
    """``uid``'s attack announced this turn (``ba:attack:<uid>``), if any."""
    rec = state.flags.get(f"ba:attack:{uid}")
    return rec if rec is not None and rec.get("turn") == state.turn else None


def carried(state: GameState, uid: str) -> list[str]:
    """The after-melee skema 8 factors in force for ``uid`` now (4.1.1: "i resten af dette og
    hele næste træk"): having been attacker, defender, and the FU bonus."""
    rec = state.flags.get(f"ba:melee:{uid}") or {}
    out = []
    for key, what in (("attacker_until", "deduction: was attacker"), ("defender_until", "deduction: was defender")):
        if int(rec.get(key, -1)) >= state.turn:
            out.append(f"{what} (until the end of turn {rec[key]}, 4.1.1)")
    if int(rec.get("fu_bonus_until", -1)) >= state.turn:
        out.append(f"bonus: put an opponent in FU (until the end of turn {rec['fu_bonus_until']}, 4.1.1)")
    return out


def _subphase(state: GameState) -> Mapping[str, Any]:
    return state.flags.get(f"ba:subphase:{state.turn}:{state.phase}") or {}


def _state_at_start(state: GameState, uid: str) -> str:
    """A22: the unit's state at the start of the melee sub-phase (now, before its first melee)."""
    snap = _subphase(state).get("snapshot") or {}
    return str(snap[uid][0]) if uid in snap else state.units[uid].state


def _snapshot(state: GameState) -> dict[str, Any]:
    return {uid: [u.state, u.figures] for uid, u in state.units.items()}


# -- melee (4.1.1, 4.1.3–4.1.8) -----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Attack:
    """One attack on the melee's target: ``attacker``, how it strikes (``situation``: front,
    flank, rear, overlap, B-11–B-13), whether the defender overlaps it, its announcement."""

    attacker: str
    situation: str
    defender_overlaps: bool
    storm: bool
    against_position: bool
    continued: bool = False


def _flank_or_rear(state: GameState, by: str, on: str, p: RuleParameters) -> str:
    """B-11 → B-13 (4.1.8) for ``by`` striking ``on``; with ``flank_when`` ``start_of_movement``
    (A1) the flank test uses where both stood when ``by`` announced its attack."""
    a, t = state.units[by], state.units[on]
    a_start = t_start = None
    rec = announced(state, by)
    if str(p.get("flank_when")) == "start_of_movement" and rec is not None:
        start = rec.get("start") or {}
        if by in start:
            x, y, f = start[by]
            a_start = a.moved((x, y), f).rect()
        if on in start:
            x, y, f = start[on]
            t_start = t.moved((x, y), f).rect()
    return classify(
        a.rect(),
        t.rect(),
        figures_of(a),
        a_start=a_start,
        t_start=t_start,
        flank_mode=str(p.get("flank_mode")),
        min_behind=int(p.get("overlap_min_figures_behind")),
    )


def _side_of(state: GameState, by: str, on: str) -> str:
    """Which side of ``on`` a flank attacker ``by`` strikes: ``left`` or ``right`` (its lateral
    coordinate in ``on``'s frame)."""
    r = state.units[on].rect()
    return "left" if r.lat(state.units[by].rect().centre) < 0 else "right"


def attacks_on(state: GameState, target: str, p: RuleParameters) -> tuple[list[Attack], dict[str, str]]:
    """The announced attacks of this sub-phase on ``target`` that are fought, and those that are
    not with the reason (4.1.1: the attacker in U/FU at the start of the sub-phase, attacked in
    the flank or rear, or infantry attacked by cavalry — "aflyses dens eget angreb, og enheden
    regnes som forsvarer"; not at break-in distance; 4.1.2: a position found abandoned)."""
    continued = state.phase == "continued-advance"
    depth, eps = float(p.get("break_in_depth_cm")), float(p.get("touch_eps_cm"))
    fought: list[Attack] = []
    lost: dict[str, str] = {}
    for uid in sorted(state.units):
        rec = announced(state, uid)
        if (
            rec is None
            or rec.get("target") != target
            or rec.get("resolved")
            or (rec.get("continued") and not continued)
        ):
            continue
        a, t = state.units[uid], state.units[target]
        why = ""
        if _state_at_start(state, uid) in DISORDERED:
            why = f"4.1.1: {uid} is in {_state_at_start(state, uid)}: it may not attack"
        for other in sorted(state.units):
            o = announced(state, other)
            if why or o is None or o.get("target") != uid or o.get("resolved"):
                continue
            x = state.units[other]
            if not (at_break_in(x.rect(), a.rect(), depth, eps) or stands_in_zone(a.rect(), x.rect(), depth)):
                continue  # announced but not at break-in distance: it does not attack uid now
            how = _flank_or_rear(state, other, uid, p)
            if how in ("flank", "rear"):
                why = f"4.1.1: {uid} is attacked in the {how} by {other}: its own attack is cancelled, it is a defender"
            elif a.arm is Arm.INFANTRY and state.units[other].arm is Arm.CAVALRY:
                why = f"4.1.1: infantry {uid} is attacked by cavalry {other}: its own attack is cancelled"
        if not why and rec.get("against_position") and rec.get("position"):
            st = position_status(state, a, rec["position"], p)
            if st["abandoned"]:
                why = (
                    f"4.1.2: the position of {target} is abandoned: {uid} stops in it and may attack "
                    "another unit it reaches there"
                )
        if not why and not (at_break_in(a.rect(), t.rect(), depth, eps) or stands_in_zone(t.rect(), a.rect(), depth)):
            why = f"4.1.1: {uid} is not at break-in distance of {target}: no melee (its target stays, 4.1.2)"
        if why:
            lost[uid] = why
            continue
        situation = _flank_or_rear(state, uid, target, p)
        fought.append(
            Attack(
                uid,
                situation,
                _flank_or_rear(state, target, uid, p) == "overlap",
                bool(rec.get("storm")),
                bool(rec.get("against_position")),
                bool(rec.get("continued")),
            )
        )
    return fought, lost


def _melee_params() -> tuple[ParameterSpec, ...]:
    return (
        ParameterSpec("neighbour", "unit", required=False, note="a neighbour unit of an attacker (4.1.6)"),
        ParameterSpec("support", "unit", required=False, note="a support unit of an attacker (4.1.7)"),
        ParameterSpec("defender_support", "unit", required=False, note="a support unit of the defender (4.1.7)"),
        ParameterSpec(
            "fired", "unit", required=False, multiple=8, note="units of this melee that fired this turn (4.1.3)"
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
    needs_table = bool(fought) and _state_at_start(state, subject) not in DISORDERED
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


def _units(v: Any) -> list[str]:
    if v is None or v == "":
        return []
    return [str(x) for x in v] if isinstance(v, (list, tuple)) else [str(v)]


@dataclass
class _Plan:
    """What the melee at ``target`` is, before the tables: the attacks fought and lost, the
    neighbour and supports with whom they go, the skema 8 factors of each side."""

    target: str
    fought: list[Attack]
    lost: dict[str, str]
    neighbour: tuple[str, str] | None = None  # (neighbour, attacker)
    support: tuple[str, str] | None = None  # (support, supported attacker)
    defender_support: str = ""
    factors: dict[str, list[str]] = field(default_factory=dict)
    counted: dict[str, int] = field(default_factory=dict)


def _plan(state: GameState, request: ActionRequest, p: RuleParameters) -> _Plan:
    """4.1.3: "Alle angreb, naboenheder og støtteenheder i forhold til et mål skal være fastlagt,
    før nærkampskastet foretages": the attacks, neighbour and supports, checked.

    Raises
    ------
    RuleRefused
        for a neighbour or support that fails 4.1.6 / 4.1.7, naming why.
    """
    target = request.subject
    fought, lost = attacks_on(state, target, p)
    plan = _Plan(target, fought, lost)
    attackers = [a.attacker for a in fought]
    roles = dict(_subphase(state).get("roles") or {})
    all_attacked = {str(r.get("target")) for u in state.units if (r := announced(state, u)) is not None}
    flank_rear = [
        str(r.get("target"))
        for u in state.units
        if (r := announced(state, u)) is not None
        and r.get("target") in state.units
        and _flank_or_rear(state, u, str(r.get("target")), p) in ("flank", "rear")
    ]
    fighting = [*attackers, target]
    n = request.parameters.get("neighbour")
    if n:
        why: list[str] = []
        for att in attackers:
            ok, why = check_neighbour(
                state,
                str(n),
                att,
                target,
                p,
                defenders=sorted(all_attacked),
                fighting=fighting,
                taken=[u for u, r in roles.items() if r in ("neighbour", "support")],
                flank_or_rear_attacked=flank_rear,
            )
            if ok:
                plan.neighbour = (str(n), att)
                break
        else:
            raise RuleRefused(f"{n} cannot be a neighbour unit: " + "; ".join(why or ["no attack is fought"]))
    s = request.parameters.get("support")
    neighbours = [plan.neighbour[0]] if plan.neighbour else []
    taken = [u for u, r in roles.items() if r in ("neighbour", "support")]
    if s:
        for att in attackers:
            ok, why = check_support(state, str(s), att, p, fighting=fighting, neighbours=neighbours, taken=taken)
            if ok:
                plan.support = (str(s), att)
                break
        else:
            raise RuleRefused(f"{s} cannot be a support unit: " + "; ".join(why or ["no attack is fought"]))
    ds = request.parameters.get("defender_support")
    if ds:
        ok, why = check_support(state, str(ds), target, p, fighting=fighting, neighbours=neighbours, taken=taken)
        if not ok:
            raise RuleRefused(f"{ds} cannot support {target}: " + "; ".join(why))
        plan.defender_support = str(ds)
    fired = set(_units(request.parameters.get("fired")))
    for a in fought:
        f = [f"{a.situation} attack (4.1.8)"] if a.situation != "front" else []
        if a.storm:
            f.append("storm announced (4.1.1)")
        if plan.neighbour and plan.neighbour[1] == a.attacker:
            f.append(f"neighbour {plan.neighbour[0]} (4.1.6)")
        if plan.support and plan.support[1] == a.attacker:
            f.append(f"support {plan.support[0]} (4.1.7)")
        if a.attacker in fired:
            f.append("deduction: fired this turn (4.1.3)")
        plan.factors[a.attacker] = f + carried(state, a.attacker)
        plan.counted[a.attacker] = counted_figures(state.units[a.attacker], "front")
    d = [f"overlaps {a.attacker} (4.1.8)" for a in fought if a.defender_overlaps]
    if plan.defender_support:
        d.append(f"support {plan.defender_support} (4.1.7)")
    if target in fired:
        d.append("deduction: fired this turn (4.1.3)")
    plan.factors[target] = d + carried(state, target)
    for a in fought:
        where = {"flank": _side_of(state, a.attacker, target), "rear": "rear"}.get(a.situation, "front")
        plan.counted[f"{target}<-{a.attacker}"] = counted_figures(state.units[target], where)
    return plan


def _explain_plan(plan: _Plan) -> str:
    parts = []
    for a in plan.fought:
        fs = plan.factors.get(a.attacker) or []
        parts.append(
            f"{a.attacker} attacks {plan.target} ({a.situation}); skema 8 factors: {', '.join(fs) or 'none listed'}; "
            f"figures counted for losses: {plan.counted[a.attacker]} of {a.attacker}, "
            f"{plan.counted[f'{plan.target}<-{a.attacker}']} of {plan.target} (4.1.3)"
        )
    parts.append(f"{plan.target}'s skema 8 factors: {', '.join(plan.factors.get(plan.target) or []) or 'none listed'}")
    parts += [f"not fought: {why}" for why in plan.lost.values()]
    return ". ".join(parts)


def _melee_preview(state: GameState, request: ActionRequest, p: RuleParameters) -> ActionPreview:
    plan = _plan(state, request, p)
    table = bool(plan.fought) and _state_at_start(state, plan.target) not in DISORDERED
    return ActionPreview(
        "melee",
        request.subject,
        True,
        explanation=_explain_plan(plan) + (f". {MELEE_TABLES}: the umpire enters the results" if table else ""),
        umpire_entry=table,
    )


def _figures(v: Any, what: str) -> Fraction:
    """A skema 12 loss as the umpire enters it: figures, a fraction allowed ("1.5", "3/2")."""
    try:
        f = Fraction(str(v).strip().replace(",", "."))
    except (ValueError, ZeroDivisionError):
        raise RuleRefused(f"{what} must be a number of figures, got {v!r}") from None
    if f < 0:
        raise RuleRefused(f"{what} must be 0 or more, got {v!r}")
    return f


def _int(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise RuleRefused(f"{what} must be a whole number, got {v!r}")
    try:
        return int(v)
    except ValueError:
        raise RuleRefused(f"{what} must be a whole number, got {v!r}") from None


def share(total: int, weights: Mapping[str, int]) -> dict[str, int]:
    """A8: ``total`` figures shared in proportion to ``weights`` (figures counted, B-9), each
    share rounded down, the remainder to the unit with the most counted figures (first by id)."""
    if not weights:
        return {}
    w = sum(weights.values()) or len(weights)
    out = {u: (total * (c or (1 if w == len(weights) else 0))) // w for u, c in weights.items()}
    biggest = sorted(weights, key=lambda u: (-weights[u], u))[0]
    out[biggest] += total - sum(out.values())
    return out


def _melee_resolve(state: GameState, request: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    plan = _plan(state, request, p)
    target = plan.target
    stamp = _stamp(state)
    until = state.turn + 1
    events: list[BattleEvent] = []
    if not _subphase(state).get("snapshot"):
        events.append(MeleeSubPhase(**stamp, snapshot=_snapshot(state)))
    roles = {}
    if plan.neighbour:
        roles[plan.neighbour[0]] = "neighbour"
    if plan.support:
        roles[plan.support[0]] = "support"
    if plan.defender_support:
        roles[plan.defender_support] = "support"
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
    t_state = _state_at_start(state, target)
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
        events.append(MeleeStatus(**stamp, unit=target, role="defender", until_turn=until))
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
        ar = _int(res.get(f"attacker_result:{k}"), f"{k}'s modified melee roll")
        dr = _int(res.get(f"defender_result:{k}"), f"{target}'s modified roll against {k}")
        ls = str(res.get(f"loser_state:{k}", ""))
        if ls not in STATES:
            raise RuleRefused(f"the loser's morale result against {k} must be one of {', '.join(STATES)}, got {ls!r}")
        rows[k] = {
            "attacker": ar,
            "defender": dr,
            "difference": ar - dr,
            "loser_state": ls,
            "on_defender": _figures(res.get(f"losses_on_defender:{k}", "0"), f"{target}'s losses from {k}"),
            "on_attacker": _figures(res.get(f"losses_on_attacker:{k}", "0"), f"losses {target} inflicts on {k}"),
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
    p_def = _int(res.get("prisoners_from_defender", 0) or 0, "prisoners from the defender")
    p_att = _int(res.get("prisoners_from_attackers", 0) or 0, "prisoners from the attackers")
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
                    extra={"opponent": target, "opponent_state": "FU"} if gave_fu else {},
                )
            )
        events.append(AttackSettled(**stamp, attacker=k))
    events.append(MeleeStatus(**stamp, unit=target, role="defender", fu_bonus=bool(fu_attackers), until_turn=until))
    return ActionOutcome("resolved", explanation, tuple(events), assumed=("A5 tie: no loser", "A7", "A8", "A22"))


# -- continued_attack (4.1.4) -------------------------------------------------------------------
def _continued_spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    if state.phase != "continued-advance" or subject not in state.units:
        return None
    right = state.flags.get(f"ba:continue:{subject}")
    if right is None or right.get("turn") != state.turn:
        return None
    why = ""
    rec = announced(state, subject)
    open_ = sorted(
        u
        for u in state.units
        if (r := announced(state, u)) is not None and not r.get("resolved") and not r.get("continued")
    )
    if rec is not None and rec.get("continued"):
        why = "4.1.4: its continued attack is already announced"
    elif open_:
        why = "4.1.4: decisions on continued attacks come after all other attacks are fought; still open: " + ", ".join(
            open_
        )
    return ActionSpec(
        "continued_attack",
        "Continued attack",
        "fortsat angreb",
        "4.1.4",
        parameters=(
            ParameterSpec("target", "enemy_unit", note="the original target or any other within reach (4.1.4)"),
            ParameterSpec(
                "last_march_rate_cm", "int", minimum=1, note="the march rate last used in the movement phase (2.3.1)"
            ),
        ),
        unavailable=why,
    )


def _continued_check(state: GameState, request: ActionRequest, p: RuleParameters) -> str:
    target = str(request.parameters.get("target") or "")
    if target not in state.units or state.units[target].side == state.units[request.subject].side:
        raise RuleRefused(f"4.1.4: {target!r} is not an enemy unit")
    rate = _int(request.parameters.get("last_march_rate_cm"), "the last march rate")
    right = state.flags[f"ba:continue:{request.subject}"]
    ok, why = continued_attack_reach(
        state, request.subject, target, float(rate), p, str(right.get("opponent_state", "FU"))
    )
    if not ok:
        raise RuleRefused(why)
    return why


def _continued_preview(state: GameState, request: ActionRequest, p: RuleParameters) -> ActionPreview:
    return ActionPreview("continued_attack", request.subject, True, explanation=_continued_check(state, request, p))


def _continued_resolve(state: GameState, request: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    why = _continued_check(state, request, p)
    ev = AttackAnnounced(
        **_stamp(state), attacker=request.subject, target=str(request.parameters["target"]), continued=True
    )
    return ActionOutcome(
        "resolved",
        f"{request.subject} announces a continued attack, a new attack (4.1.4): {why}; no order roll (1.1.3)",
        (ev,),
    )


HANDLERS: tuple[ActionHandler, ...] = (
    ActionHandler("melee", _melee_spec, _melee_preview, _melee_resolve),
    ActionHandler("continued_attack", _continued_spec, _continued_preview, _continued_resolve),
)
