"""General d'Armée fire support at an attack (ПРОВЕДЕНИЕ АТАКИ 6).

«Поддержка огнем. Любое подразделение может оказывать поддержку стрельбой. Она оказывается внутри
эффективного радиуса стрельбы или на дистанции Залпа от атакующего неприятеля или поддержки
(вражеской), когда атакующие не дальше 5см[3"] и если они не имеют ближайших к ним целей, которые
не находятся внутри эффективного радиуса стрельбы или на дистанции Залпа от их фронта.»

``fire_support`` (phase ``attacks``, offered to the leading attacker once it has closed to 5 cm,
the umpire acting for the defender as for ``defensive_fire``): every unit of the defender's side
other than the target and its supports (they fire in step 5 А) is measured. It may give fire
support when an attacking unit (the leader or one of its supports) is in its front
(``fire_support_arc``, assumed: ahead of its front line) within its effective or volley range,
and no other enemy is a nearer target in its front (digest Ambiguity 19). A Faltering brigade
gives no support for the roll (prohibition З) but may still fire in support (digest §5).

The fire rules are lost (digest Missing piece 10): the range is the scenario parameter
``fire_support_range_cm[.<arm>]`` (missing, no default) and the effect of each unit's fire is
``fire_support_effect`` (missing): until the scenario gives it the umpire enters the damage each
supporting unit inflicts. The damage goes on the attacking unit that unit fires at and counts
as «Урон в Атаке» for the leader's attack roll (``melee.sides_of``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping

from battlestudio.model.geometry import TINY
from battlestudio.model.units import Unit
from battlestudio.replay.combat_events import Fired
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.gda.declaration import attack_flag_event, declared_attack
from battlestudio.rules.gda.events import DamageTaken
from battlestudio.rules.gda.geometry import enemies_of, unit_distance
from battlestudio.rules.gda.melee import defending_supports
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec

RULE = "ПРОВЕДЕНИЕ АТАКИ 6: «Поддержка огнем. Любое подразделение может оказывать поддержку стрельбой»"
RANGE = "fire_support_range_cm (effective / volley range, lost with the fire rules; digest Missing piece 10)"
EFFECT = (
    "fire support's effect (the fire rules are lost; digest Missing piece 10), scenario parameter "
    "gda.fire_support_effect"
)


@dataclass(frozen=True, slots=True)
class FireSupporter:
    """One unit measured for fire support: the attacking unit it would fire at (``target``, ""
    when none), the ``distance`` to it in cm (nearest points), its ``range`` (cm, None when the
    scenario gives none for its arm) and ``refusal`` ("" when it may fire)."""

    unit: str
    target: str
    distance: float
    range: float | None
    refusal: str

    def explain(self) -> str:
        if self.refusal:
            return f"{self.unit}: {self.refusal}"
        return f"{self.unit} fires at {self.target}, {self.distance:.1f} cm (range {self.range:g} cm)"


def in_front(u: Unit, e: Unit, params: RuleParameters) -> bool:
    """Whether ``e`` is in ``u``'s front for fire support: some corner of it ahead of ``u``'s
    extended front line (``fire_support_arc`` "front"), or anywhere ("all_round").

    Raises
    ------
    RuleRefused
        for another ``fire_support_arc``.
    """
    arc = str(params.get("fire_support_arc"))
    if arc == "all_round":
        return True
    if arc != "front":
        raise RuleRefused(f"unknown fire_support_arc {arc!r} (front or all_round)")
    rect = u.rect()
    return any(rect.local(p)[0] > TINY for p in list(e.footprint().exterior.coords)[:-1])


def _range(u: Unit, params: RuleParameters) -> float | None:
    found = params.lookup(f"fire_support_range_cm.{u.arm.value}", "fire_support_range_cm")
    return None if found is None else float(found[1])


def fire_supporters(
    state: GameState, a: Unit, t: Unit, decl: Mapping[str, Any], params: RuleParameters
) -> list[FireSupporter]:
    """Every unit of the target's side that could fire in support of the target against
    ``a``'s attack, nearest first, each with its target or the reason it may not
    (ПРОВЕДЕНИЕ АТАКИ 6; Ambiguity 19: no nearer enemy of its own in its front). Units with no
    attacking unit in their front are left out."""
    attackers = {a.id, *(s for s in dict(decl.get("positions", {})) if s in state.units)}
    firing = {t.id, *dict(decl.get("defending_supports", {})), *defending_supports(state, t, a, params)}
    out: list[FireSupporter] = []
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.side != t.side or u.id in firing or u.id in state.off_table or u.state.lower() == "dispersed":
            continue
        ahead = sorted(
            ((unit_distance(u, e), e.id) for e in enemies_of(state, u) if in_front(u, e, params)),
        )
        mine = [(d, e) for d, e in ahead if e in attackers]
        if not mine:
            continue
        reach = _range(u, params)
        d, target = mine[0]
        why = ""
        if reach is None:
            why = f"the scenario gives no fire range for {u.arm.value} (fire_support_range_cm.{u.arm.value})"
        elif d > reach + TINY:
            why = f"the nearest attacking unit, {target}, is {d:.1f} cm away, beyond its {reach:g} cm range"
        elif ahead[0][1] not in attackers:
            near_d, near = ahead[0]
            why = f"{near} is a nearer target of its own in its front ({near_d:.1f} cm; Ambiguity 19)"
        out.append(FireSupporter(u.id, target, d, reach, why))
    return sorted(out, key=lambda f: (f.distance, f.unit))


def summary(who: list[FireSupporter]) -> str:
    """Who may fire in support first, then who may not and why."""
    able = [f.explain() for f in who if not f.refusal]
    unable = [f.explain() for f in who if f.refusal]
    out = "May fire in support: " + ("; ".join(able) or "none")
    return out + (". May not: " + "; ".join(unable) if unable else "")


def _effect(params: RuleParameters, u: Unit) -> int | None:
    found = params.lookup(f"fire_support_effect.{u.arm.value}", "fire_support_effect")
    return None if found is None else int(found[1])


def fire_support_spec(state: GameState, params: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered in the attacks phase for an attack of this side that has closed to 5 cm and is not
    yet rolled (ПРОВЕДЕНИЕ АТАКИ 6): one damage field for each unit that may give fire support."""
    if state.phase != "attacks":
        return None
    found = declared_attack(state, subject)
    if found is None or found[2].get("stage") != "closed":
        return None
    a, t, decl = found
    if params.lookup("fire_support_range_cm") is None and not any(
        params.lookup(f"fire_support_range_cm.{arm}") for arm in ("infantry", "artillery", "cavalry")
    ):
        why = f"the scenario gives no {RANGE}: who may fire in support cannot be measured"
        return ActionSpec(
            "fire_support", "Fire support for the target", term="Поддержка огнем", rule=RULE, unavailable=why
        )
    who = fire_supporters(state, a, t, decl, params)
    able = [f for f in who if not f.refusal]
    supplied = all(_effect(params, state.units[f.unit]) is not None for f in able)
    why = ""
    if "fire_support" in decl:
        why = "the fire support at this attack has been given"
    elif not able:
        why = "no unit may give fire support: " + ("; ".join(f.explain() for f in who) or "no attacker in any front")
    return ActionSpec(
        "fire_support",
        f"Fire support for {t.name or t.id} ({len(able)} unit{'s' if len(able) != 1 else ''})",
        term="Поддержка огнем",
        rule=RULE,
        umpire_table="" if supplied else EFFECT,
        umpire_result=tuple(
            ParameterSpec(
                f.unit, "int", required=False, minimum=0, maximum=20, label=f"Damage by {f.unit} on {f.target}"
            )
            for f in able
        ),
        unavailable=why,
        note=summary(who),
    )


def _damage(state: GameState, request: ActionRequest, params: RuleParameters) -> tuple[dict[str, tuple[str, int]], str]:
    found = declared_attack(state, request.subject)
    assert found is not None
    a, t, decl = found
    able = [f for f in fire_supporters(state, a, t, decl, params) if not f.refusal]
    entry = request.umpire_result
    out: dict[str, tuple[str, int]] = {}
    for f in able:
        if entry is not None:
            raw, source = entry.get(f.unit, 0), "entered by the umpire"
        else:
            eff = _effect(params, state.units[f.unit])
            if eff is None:
                raise RuleRefused(f"{EFFECT} is not supplied; enter the damage of each supporting unit")
            raw, source = eff, "scenario parameter fire_support_effect"
        try:
            n = int(raw or 0)
        except (TypeError, ValueError):
            raise RuleRefused(f"{f.unit}: damage must be a whole number of damage points") from None
        if n < 0:
            raise RuleRefused(f"{f.unit}: damage cannot be negative")
        out[f.unit] = (f.target, n)
    bad = sorted(set(entry or {}) - {f.unit for f in able})
    if bad:
        raise RuleRefused(f"{', '.join(bad)} may not give fire support at this attack")
    return out, source if able else ""


def fire_support_preview(state: GameState, request: ActionRequest, params: RuleParameters) -> ActionPreview:
    found = declared_attack(state, request.subject)
    assert found is not None
    a, t, decl = found
    text = summary(fire_supporters(state, a, t, decl, params))
    try:
        dmg, source = _damage(state, request, params)
    except RuleRefused as exc:
        return ActionPreview("fire_support", request.subject, True, str(exc), f"{text} ({RULE}).", umpire_entry=True)
    done = ", ".join(f"{u} {n} on {tgt}" for u, (tgt, n) in dmg.items())
    return ActionPreview(
        "fire_support",
        request.subject,
        True,
        explanation=f"{text}. Damage ({source}): {done} ({RULE}).",
        umpire_entry=request.umpire_result is not None,
        assumed=tuple(params.assumptions()),
    )


def fire_support_resolve(
    state: GameState, request: ActionRequest, params: RuleParameters, dice: DiceSource
) -> ActionOutcome:
    found = declared_attack(state, request.subject)
    assert found is not None
    a, t, decl = found
    dmg, source = _damage(state, request, params)
    turn, side, phase = state.turn, state.side, state.phase
    events: list[BattleEvent] = []
    taken: dict[str, int] = dict(decl.get("support_fire_damage", {}))
    notes = []
    for u, (tgt, n) in dmg.items():
        note = f"{u} fires in support at {tgt}: {n} damage"
        notes.append(note)
        events.append(Fired(turn, side, phase, unit=u, target=tgt, result=f"{n} damage", explanation=note))
        if n:
            events.append(DamageTaken(turn, side, phase, unit=tgt, points=n, cause="fire support"))
            taken[tgt] = taken.get(tgt, 0) + n
    events.append(
        attack_flag_event(state, a.id, decl, "fire support", fire_support=sorted(dmg), support_fire_damage=taken)
    )
    text = f"Fire support for {t.id} ({source}): " + ("; ".join(notes) or "none") + f" ({RULE})."
    return ActionOutcome("resolved", text, tuple(events), assumed=tuple(params.assumptions()))


HANDLERS = (ActionHandler("fire_support", fire_support_spec, fire_support_preview, fire_support_resolve),)
