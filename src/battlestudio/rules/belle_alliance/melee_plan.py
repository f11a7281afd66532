"""Belle Alliance's melee before the roll (seed 001, 4.1.1, 4.1.3, 4.1.6–4.1.8): the sub-phase
bookkeeping, who fights at a target and who lost its attack, and the plan fixed before any melee
roll — neighbour and supports checked, the skema 8 factors of each side listed, the figures
counted for losses. All melees of a sub-phase are judged on the unit states at its start (A22):
the first melee records them (``MeleeSubPhase``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping

from battlestudio.model.units import Arm
from battlestudio.replay.events import json_value, BattleEvent, register
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionRequest
from battlestudio.rules.belle_alliance.attacks import DISORDERED, check_neighbour, check_support
from battlestudio.rules.belle_alliance.events import _flags
from battlestudio.rules.belle_alliance.geometry import at_break_in, classify, stands_in_zone
from battlestudio.rules.belle_alliance.paths import counted_figures, figures_of, in_cover, position_status
from battlestudio.rules.params import RuleParameters, RuleRefused

STATES = ("O", "LU", "U", "FU")  # the loser's morale results, mildest first (skema 11 gives them)
YES = ("no", "yes")


@register
@dataclass(frozen=True, slots=True)
class MeleeSubPhase(BattleEvent):
    """Bookkeeping of one melee sub-phase (4.1.1 all at once, 4.1.3, 4.1.6, 4.1.7, A22): the unit states and
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


def event_stamp(state: GameState) -> dict[str, Any]:
    return {"turn": state.turn, "side": state.side, "phase": state.phase}


def announced(state: GameState, uid: str) -> Mapping[str, Any] | None:
    """``uid``'s attack announced this turn (``ba:attack:<uid>``), if any."""
    rec = state.flags.get(f"ba:attack:{uid}")
    return rec if rec is not None and rec.get("turn") == state.turn else None


def fired_this_turn(state: GameState, uid: str) -> bool:
    """4.1.3: whether ``uid`` fired this turn, even only in part (its ``ba:fired`` record, written
    by the fire action)."""
    rec = state.flags.get(f"ba:fired:{uid}")
    return rec is not None and rec.get("turn") == state.turn


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


def subphase_record(state: GameState) -> Mapping[str, Any]:
    return state.flags.get(f"ba:subphase:{state.turn}:{state.phase}") or {}


def state_at_start(state: GameState, uid: str) -> str:
    """A22: the unit's state at the start of the melee sub-phase (now, before its first melee):
    all attacks of the phase are resolved at the same time (4.1.1)."""
    snap = subphase_record(state).get("snapshot") or {}
    return str(snap[uid][0]) if uid in snap else state.units[uid].state


def unit_snapshot(state: GameState) -> dict[str, Any]:
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


def flank_or_rear(state: GameState, by: str, on: str, p: RuleParameters) -> str:
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


def side_of(state: GameState, by: str, on: str) -> str:
    """Which side of ``on`` a flank attacker ``by`` strikes: ``left`` or ``right`` (its lateral
    coordinate in ``on``'s frame)."""
    r = state.units[on].rect()
    return "left" if r.lat(state.units[by].rect().centre) < 0 else "right"


def attacks_on(state: GameState, target: str, p: RuleParameters) -> tuple[list[Attack], dict[str, str]]:
    """The announced attacks of this sub-phase on ``target`` that are fought, and those that are
    not with the reason (4.1.1: the attacker in U/FU at the start of the sub-phase, attacked in
    the flank or rear, or infantry attacked by cavalry — "aflyses dens eget angreb, og enheden
    regnes som forsvarer"; not at break-in distance; 4.1.2: a position found abandoned). Only
    attacks announced this turn and not yet settled count: a later attack between the same
    units is a new attack (4.1.3). Each fought attack records whether the defender overlaps the
    attacker (4.1.8)."""
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
        if state_at_start(state, uid) in DISORDERED:
            why = f"4.1.1: {uid} is in {state_at_start(state, uid)}: it may not attack"
        for other in sorted(state.units):
            o = announced(state, other)
            if why or o is None or o.get("target") != uid or o.get("resolved"):
                continue
            x = state.units[other]
            if not (at_break_in(x.rect(), a.rect(), depth, eps) or stands_in_zone(a.rect(), x.rect(), depth)):
                continue  # announced but not at break-in distance: it does not attack uid now
            how = flank_or_rear(state, other, uid, p)
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
        situation = flank_or_rear(state, uid, target, p)
        fought.append(
            Attack(
                uid,
                situation,
                flank_or_rear(state, target, uid, p) == "overlap",
                bool(rec.get("storm")),
                bool(rec.get("against_position")),
                bool(rec.get("continued")),
            )
        )
    return fought, lost


@dataclass
class MeleePlan:
    """What the melee at ``target`` is, before the tables: the attacks fought and lost, the
    neighbour and supports with whom they go, the skema 8 factors of each side."""

    target: str
    fought: list[Attack]
    lost: dict[str, str]
    neighbour: tuple[str, str] | None = None  # (neighbour, attacker)
    support: tuple[str, str] | None = None  # (support, supported attacker)
    defender_support: str = ""
    defender_neighbour: tuple[str, str] | None = None  # (neighbour, the attacker that attacks it too)
    factors: dict[str, list[str]] = field(default_factory=dict)
    counted: dict[str, int] = field(default_factory=dict)


def plan_melee(state: GameState, request: ActionRequest, p: RuleParameters) -> MeleePlan:
    """4.1.3: "Alle angreb, naboenheder og støtteenheder i forhold til et mål skal være fastlagt,
    før nærkampskastet foretages": the attacks, neighbour and supports, checked; the skema 8
    factors each side has, read from the state and the scenario's terrain — the fired-this-turn
    deduction from the fire records (4.1.3), the defender's cover against each attacker (B-8,
    4.1.3), storm, flank/rear/overlap, the carried after-melee status.

    Raises
    ------
    RuleRefused
        for a neighbour or support that fails 4.1.6 / 4.1.7, naming why.
    """
    target = request.subject
    fought, lost = attacks_on(state, target, p)
    plan = MeleePlan(target, fought, lost)
    attackers = [a.attacker for a in fought]
    roles = dict(subphase_record(state).get("roles") or {})
    all_attacked = {str(r.get("target")) for u in state.units if (r := announced(state, u)) is not None}
    flank_rear = [
        str(r.get("target"))
        for u in state.units
        if (r := announced(state, u)) is not None
        and r.get("target") in state.units
        and flank_or_rear(state, u, str(r.get("target")), p) in ("flank", "rear")
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
    dn = request.parameters.get("defender_neighbour")
    if dn:
        plan.defender_neighbour = defender_neighbour(state, str(dn), target, fought, p, [*taken, *neighbours])
    fired = {u for u in (*attackers, target) if fired_this_turn(state, u)}
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
    if plan.defender_neighbour:
        d.append(f"neighbour {plan.defender_neighbour[0]}, the defender's choice (4.1.6)")
    for a in fought:
        covered, cover_why = in_cover(state.units[target], state.units[a.attacker], request.terrain, p)
        if covered:
            d.append(f"in cover against {a.attacker}: {cover_why}")
    plan.factors[target] = d + carried(state, target)
    for a in fought:
        where = {"flank": side_of(state, a.attacker, target), "rear": "rear"}.get(a.situation, "front")
        plan.counted[f"{target}<-{a.attacker}"] = counted_figures(state.units[target], where)
    return plan


def defender_neighbour(
    state: GameState, nid: str, target: str, fought: list[Attack], p: RuleParameters, taken: list[str]
) -> tuple[str, str]:
    """4.1.6: "Såfremt en enhed angriber flere enheder samtidigt, kan modstanderen tilsvarende
    vælge, at nogle af de angrebne enheder skal regnes som naboenheder": ``nid``, a unit of the
    target's side that an attacker of this melee attacks at the same time (its break-in zone
    touches ``nid`` too), counted as the target's neighbour instead of a separate target. It
    meets the neighbour conditions against the target (closed formation, at least half its
    figures, not U/FU at the start of the sub-phase, same arm, not fighting its own melee, once a
    sub-phase) and is not attacked in the flank or rear (4.1.8). Returns ``(nid, attacker)``.

    Raises
    ------
    RuleRefused
        naming every condition ``nid`` fails.
    """
    if nid not in state.units:
        raise RuleRefused(f"4.1.6: no unit {nid!r}")
    n, t = state.units[nid], state.units[target]
    depth, eps = float(p.get("break_in_depth_cm")), float(p.get("touch_eps_cm"))
    r: list[str] = []
    if nid == target or n.side != t.side:
        r.append(f"the defender's neighbour is a unit of {target}'s side")
    by = [a.attacker for a in fought if at_break_in(state.units[a.attacker].rect(), n.rect(), depth, eps)]
    if not by:
        r.append("4.1.6: no attacker of this melee attacks it at the same time (its break-in zone does not touch it)")
    for a in by:
        how = flank_or_rear(state, a, nid, p)
        if how in ("flank", "rear"):
            r.append(f"4.1.8: {a} attacks it in the {how}: it cannot be a neighbour")
    if n.formation.value not in set(p.get("closed_formations")):
        r.append(f"4.1.6: not in closed formation ({n.formation.value})")
    if n.figures < float(p.get("neighbour_min_fig_ratio")) * t.figures:
        r.append(f"4.1.6: {n.figures} figures, fewer than half of {target}'s {t.figures}")
    if state_at_start(state, nid) in DISORDERED:
        r.append(f"4.1.6: in {state_at_start(state, nid)}")
    if n.arm is not t.arm:
        r.append(f"4.1.6: {n.arm.value}, not {target}'s arm ({t.arm.value})")
    own = [u for u in state.units if (x := announced(state, u)) is not None and x.get("target") == nid]
    if own and not all_settled(state, own):
        r.append(f"4.1.6: it fights its own melee (attacked by {', '.join(sorted(own))})")
    if nid in taken:
        r.append("4.1.6: already a neighbour or support in this melee sub-phase")
    if r:
        raise RuleRefused(f"{nid} cannot be {target}'s neighbour: " + "; ".join(r))
    return nid, by[0]


def all_settled(state: GameState, attackers: list[str]) -> bool:
    """Whether every announced attack of ``attackers`` is settled."""
    return all((announced(state, u) or {}).get("resolved") for u in attackers)


def explain_plan(plan: MeleePlan) -> str:
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


def whole(v: Any, what: str) -> int:
    if isinstance(v, bool) or not isinstance(v, (int, str)):
        raise RuleRefused(f"{what} must be a whole number, got {v!r}")
    try:
        return int(v)
    except ValueError:
        raise RuleRefused(f"{what} must be a whole number, got {v!r}") from None
