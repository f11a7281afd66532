"""Belle Alliance: one unit attacking several targets at once (seed 001, 4.1.1, 4.1.5) as the
``melee_several`` action of the melee phases, offered to an attacker whose break-in zone touches
more than one enemy unit. "Det tilsvarende gælder for de angrebne enheder, såfremt en enhed
angriber flere mål samtidigt" (4.1.1); "de angrebne enheder [får] tilsvarende flere
terningkast" (4.1.5): each target gets its own roll against the attacker, and the lone attacker
is treated as a common target — it takes the best result any target achieved (picking among
equals whom it retreats from), its losses are summed over the rolls before rounding down, the
losses it inflicts come from the roll with its best conditions (A7) shared pro rata among the
targets (A8), prisoners only among targets that go FU. The skema 8/11/12 results are the
umpire's entry, as in ``melee``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from battlestudio.replay.combat_events import Melee
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import OrderStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.belle_alliance.events import AttackSettled, MeleeStatus
from battlestudio.rules.belle_alliance.retreat import MeleeLost
from battlestudio.rules.belle_alliance.geometry import at_break_in
from battlestudio.rules.belle_alliance.melee import MELEE_TABLES, figures_entry, share
from battlestudio.rules.belle_alliance.melee_plan import (
    STATES,
    MeleeSubPhase,
    announced,
    attacks_on,
    event_stamp,
    side_of,
    flank_or_rear,
    subphase_record,
    unit_snapshot,
    whole,
)
from battlestudio.rules.belle_alliance.paths import counted_figures
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.losses import loss_event
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec


def reached(state: GameState, attacker: str, p: RuleParameters) -> list[str]:
    """The enemy units at ``attacker``'s break-in distance (its zone touches them, 4.1.1)."""
    a = state.units[attacker]
    depth, eps = float(p.get("break_in_depth_cm")), float(p.get("touch_eps_cm"))
    return sorted(
        e.id
        for e in state.units.values()
        if e.side != a.side
        and e.id not in state.off_table
        and e.state != "eliminated"
        and at_break_in(a.rect(), e.rect(), depth, eps)
    )


def _fields(attacker: str, targets: list[str]) -> tuple[ParameterSpec, ...]:
    out: list[ParameterSpec] = []
    for t in targets:
        out += [
            ParameterSpec(f"attacker_result:{t}", "int", required=False, label=f"{attacker} against {t} (skema 8)"),
            ParameterSpec(f"defender_result:{t}", "int", required=False, label=f"{t}: modified roll (skema 8)"),
            ParameterSpec(
                f"loser_state:{t}", "choice", required=False, choices=STATES, label="the loser's morale (skema 11)"
            ),
            ParameterSpec(f"losses_on_defender:{t}", "text", required=False, label=f"{t}'s losses, figures (skema 12)"),
            ParameterSpec(f"losses_on_attacker:{t}", "text", required=False, label=f"losses {t} inflicts (skema 12)"),
        ]
    return tuple(out)


def _spec(state: GameState, p: RuleParameters, subject: str) -> ActionSpec | None:
    if state.phase not in ("melee", "continued-advance") or subject not in state.units:
        return None
    rec = announced(state, subject)
    if rec is None or rec.get("resolved") or (rec.get("continued") and state.phase != "continued-advance"):
        return None
    targets = reached(state, subject, p)
    if len(targets) < 2 or rec.get("target") not in targets:
        return None
    fought, lost = attacks_on(state, str(rec.get("target")), p)
    why = lost.get(subject, "")
    return ActionSpec(
        "melee_several",
        "Melee against several",
        "angreb på flere mål",
        "4.1.1, 4.1.5",
        parameters=(
            ParameterSpec("targets", "enemy_unit", multiple=len(targets), choices=tuple(targets), note="4.1.5"),
            ParameterSpec(
                "measured_from",
                "enemy_unit",
                required=False,
                choices=tuple(targets),
                note="on equal morale results, the target the attacker's retreat is measured from (4.1.5)",
            ),
        ),
        umpire_result=_fields(subject, targets),
        umpire_table=MELEE_TABLES,
        unavailable=why,
        note=f"{subject} reaches {', '.join(targets)}",
    )


def _targets(state: GameState, request: ActionRequest, p: RuleParameters) -> list[str]:
    rec = announced(state, request.subject) or {}
    v = request.parameters.get("targets")
    chosen = [str(x) for x in (v if isinstance(v, (list, tuple)) else [v]) if x]
    reach = reached(state, request.subject, p)
    bad = [t for t in chosen if t not in reach]
    if bad:
        raise RuleRefused(f"4.1.5: {', '.join(bad)} not at {request.subject}'s break-in distance")
    if rec.get("target") not in chosen:
        chosen.insert(0, str(rec.get("target")))
    if len(set(chosen)) < 2:
        raise RuleRefused("4.1.5: name at least one more target than the announced one")
    return sorted(set(chosen))


def _preview(state: GameState, request: ActionRequest, p: RuleParameters) -> ActionPreview:
    targets = _targets(state, request, p)
    counted = {t: counted_figures(state.units[t], _where(state, request.subject, t, p)) for t in targets}
    text = f"{request.subject} attacks {', '.join(targets)} at once: each target rolls against it (4.1.5); " + (
        ", ".join(f"{t} counts {n} figures for losses" for t, n in counted.items())
    )
    return ActionPreview(
        "melee_several", request.subject, True, explanation=f"{text}. {MELEE_TABLES}", umpire_entry=True
    )


def _where(state: GameState, by: str, on: str, p: RuleParameters) -> str:
    how = flank_or_rear(state, by, on, p)
    return {"flank": side_of(state, by, on), "rear": "rear"}.get(how, "front")


def _resolve(state: GameState, request: ActionRequest, p: RuleParameters, dice: DiceSource) -> ActionOutcome:
    a = request.subject
    targets = _targets(state, request, p)
    res: dict[str, Any] = dict(request.umpire_result or {})
    rows: dict[str, dict[str, Any]] = {}
    for t in targets:
        ls = str(res.get(f"loser_state:{t}", ""))
        if ls not in STATES:
            raise RuleRefused(f"the loser's morale result against {t} must be one of {', '.join(STATES)}, got {ls!r}")
        ar = whole(res.get(f"attacker_result:{t}"), f"{a}'s modified roll against {t}")
        dr = whole(res.get(f"defender_result:{t}"), f"{t}'s modified roll")
        rows[t] = {
            "attacker": ar,
            "defender": dr,
            "difference": ar - dr,
            "loser_state": ls,
            "on_defender": figures_entry(res.get(f"losses_on_defender:{t}", "0"), f"{t}'s losses"),
            "on_attacker": figures_entry(res.get(f"losses_on_attacker:{t}", "0"), f"losses {t} inflicts"),
        }
    stamp = event_stamp(state)
    until = state.turn + 1
    events: list[BattleEvent] = []
    if not subphase_record(state).get("snapshot"):
        events.append(MeleeSubPhase(**stamp, snapshot=unit_snapshot(state)))
    tie = str(p.get("melee_tie"))
    beaten = [t for t, r in rows.items() if r["difference"] > 0]
    beat_a = [t for t, r in rows.items() if r["difference"] < 0 or (r["difference"] == 0 and tie == "defender_wins")]
    new_state = {t: rows[t]["loser_state"] for t in beaten}
    measured = ""
    if beat_a:  # 4.1.5 mirrored: the lone attacker takes the best result of the targets
        worst = max(STATES.index(rows[t]["loser_state"]) for t in beat_a)
        tied = sorted(t for t in beat_a if STATES.index(rows[t]["loser_state"]) == worst)
        pick = request.parameters.get("measured_from")
        if pick and str(pick) not in tied:
            raise RuleRefused(f"4.1.5: {a} may measure its retreat only from {', '.join(tied)}, not {pick}")
        measured = str(pick) if pick else min(tied, key=lambda t: (rows[t]["difference"], t))
        new_state[a] = STATES[worst]
    suffered = sum((r["on_attacker"] for r in rows.values()), Fraction(0))
    a_loss = math.floor(suffered)
    best = max(rows, key=lambda t: (rows[t]["difference"], rows[t]["attacker"], t))  # A7 from the attacker's side
    inflicted = math.floor(rows[best]["on_defender"])
    weight = {t: counted_figures(state.units[t], _where(state, a, t, p)) for t in targets}
    shares = share(inflicted, weight)
    after = state
    losses: list[BattleEvent] = []
    for uid, n, why in [
        (a, a_loss, f"melee: {float(suffered):g} figures summed over {len(rows)} rolls, rounded down (4.1.5)"),
        *[
            (t, shares[t], f"melee: {inflicted} figures from the roll against {best}, shared pro rata (4.1.5)")
            for t in targets
        ],
    ]:
        if n:
            ev = loss_event(after, uid, n, why, stamp)
            after = ev.apply(after)
            losses.append(ev)
    winner = "attacker" if beaten and not beat_a else ("defender" if beat_a and not beaten else "draw")
    parts = [
        f"{a} {r['attacker']} against {t} {r['defender']}: difference {r['difference']:+d}" for t, r in rows.items()
    ]
    if beat_a:
        parts.append(f"{a} takes the best result of its targets, {new_state[a]}, measured from {measured} (4.1.5)")
    parts.append(f"{a} loses {a_loss} figures ({float(suffered):g} summed, rounded down)")
    if inflicted:
        parts.append(
            f"it inflicts {inflicted} from the roll against {best}: " + ", ".join(f"{t} {v}" for t, v in shares.items())
        )
    explanation = "; ".join(parts)
    roll = {
        "attacks": {
            t: {
                **{x: r[x] for x in ("attacker", "defender", "difference", "loser_state")},
                "on_defender": str(r["on_defender"]),
                "on_attacker": str(r["on_attacker"]),
            }
            for t, r in rows.items()
        },
        "measured_from": measured,
        "best_for_attacker": best,
        "counted": weight,
        "tables": "umpire",
    }
    events.append(
        Melee(**stamp, attackers=(a,), defenders=tuple(targets), winner=winner, roll=roll, explanation=explanation)
    )
    events += losses
    for uid, st in new_state.items():
        if st != state.units[uid].state:
            events.append(OrderStateChanged(**stamp, unit=uid, state=st, reason="melee result (skema 11), 4.1.5"))
    lost_from = {t: a for t in beaten} | ({a: measured} if beat_a else {})
    events += [MeleeLost(**stamp, unit=u, measured_from=f, result=new_state[u]) for u, f in lost_from.items()]
    fu = [t for t in beaten if new_state.get(t) == "FU"]
    cont = bool(fu) and not (announced(state, a) or {}).get("continued")
    extra = {"opponent": fu[0], "opponent_state": "FU"} if fu else {}
    events.append(
        MeleeStatus(
            **stamp, unit=a, role="attacker", fu_bonus=bool(fu), continued_attack=cont, until_turn=until, extra=extra
        )
    )
    a_fu = new_state.get(a) == "FU"
    events += [MeleeStatus(**stamp, unit=t, role="defender", fu_bonus=a_fu, until_turn=until) for t in targets]
    events.append(AttackSettled(**stamp, attacker=a))
    return ActionOutcome("resolved", explanation, tuple(events), assumed=("A5", "A7", "A8"))


HANDLER = ActionHandler("melee_several", _spec, _preview, _resolve)
