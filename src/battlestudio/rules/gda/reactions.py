"""General d'Armée: the target's reaction to an attack (ПРОЦЕДУРА АТАКИ 6, ПРОВЕДЕНИЕ АТАКИ 5 Б).

Two actions of the attacks phase, each offered to the leading attacker of a declared attack
(the umpire acts for both sides, as for ``defensive_fire``):

* ``reaction`` — the target fires (А), wheels up to half its move and fires (Б / I, only when
  the attacker started at least 15 cm [9"] away), evades (Г / V: skirmishers, Cossacks,
  limbered artillery; ``evade_move``: straight away from the attacker by the scenario's lost
  evade distance or the umpire's, the path checked), or, retreating, routs at once (Д). With
  the attacker starting closer than 15 cm only fire and evasion are left (IV).
* ``reaction_test`` — the target forms square against cavalry (В / II) or turns to face a rear
  attack (III, Elite and Veteran only) after a Discipline Test. The Discipline Test's table, its
  modifiers (Line forming square «с отрицательным модификатором») and outcomes are lost (digest
  Missing piece 3): the scenario parameter ``discipline_test`` is missing and the umpire enters
  the test's result.

The attack move is ``attack_move``, the attackers' Discipline Tests ``discipline``, the Fate
test ``fate``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any
from collections.abc import Mapping


from shapely.affinity import translate
from shapely.geometry import box
from shapely.ops import unary_union

from battlestudio.model.geometry import forward
from battlestudio.model.units import Arm, Formation, Unit
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import FormationChanged, Moved, OrderStateChanged, Rotated
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.gda.brigades import Grade, UnitState, grade_of, is_cossack, is_skirmisher
from battlestudio.rules.gda.brigades import unit_state
from battlestudio.rules.gda.geometry import attack_aspect, distance_cm, unit_distance, wheel_geometry, wheeled
from battlestudio.rules.gda.melee import defending_supports
from battlestudio.rules.gda.results import unit_events
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.gda.declaration import attack_flag_event
from battlestudio.rules.gda.declaration import declared_attack as _declared
from battlestudio.rules.gda.results import brigades_follow as _brigades_follow
from battlestudio.rules.gda.attacks import normal_move as _normal_move

from battlestudio.rules.protocol import ParameterSpec

REACTIONS = ("fire", "wheel", "square", "turn_about", "evade", "rout")
"""The target's reactions (ПРОЦЕДУРА АТАКИ 6 А–Д, ПРОВЕДЕНИЕ АТАКИ 5 Б I–V)."""

DISCIPLINE = (
    "Discipline Test (table, modifiers and outcomes lost; digest Missing piece 3), scenario parameter "
    "gda.discipline_test"
)
DISCIPLINE_RESULTS = ("passed", "unformed", "retreating", "routing")
REACTION_RULE = "ПРОЦЕДУРА АТАКИ 6; ПРОВЕДЕНИЕ АТАКИ 5 Б"


def start_gap(decl: Mapping[str, Any], a: Unit, t: Unit) -> float:
    """How far the attacker started from the target (cm): recorded by ``attack_move``, else now."""
    return float(decl.get("start_gap", unit_distance(a, t)))


def reaction_refusal(a: Unit, t: Unit, decl: Mapping[str, Any], reaction: str, params: RuleParameters) -> str:
    """Why ``t`` may not react with ``reaction`` to ``a``'s attack ("" when it may)."""
    if reaction not in REACTIONS:
        return f"{reaction!r} is not a reaction ({', '.join(REACTIONS)})"
    st = unit_state(t)
    if st is UnitState.RETREATING:
        return "" if reaction == "rout" else "ПРОЦЕДУРА АТАКИ 6 Д: a retreating unit cannot stand; it routs at once"
    if reaction == "rout":
        return "only a retreating unit routs when attacked (ПРОЦЕДУРА АТАКИ 6 Д)"
    near = distance_cm(params, "enemy_near")
    gap = start_gap(decl, a, t)
    if reaction == "evade":
        if is_skirmisher(t) or is_cossack(t) or (t.arm is Arm.ARTILLERY and t.formation is Formation.LIMBERED):
            return ""
        return "V: only skirmishers, Cossacks and limbered artillery may evade"
    if reaction == "fire":
        return ""
    if gap < near:
        return (
            f"IV: the attacker started {gap:.1f} cm away, closer than {near:g} cm: no time to react, "
            "only fire or evasion"
        )
    if reaction == "square":
        if t.arm is not Arm.INFANTRY or t.formation not in (Formation.LINE, Formation.COLUMN):
            return "II: only infantry in line or column forms square"
        if a.arm is not Arm.CAVALRY:
            return "II: square is formed against cavalry only"
    if reaction == "turn_about":
        if attack_aspect(a, t) != "rear":
            return "III: only a unit attacked in the rear turns about"
        try:
            if grade_of(t, params) not in (Grade.ELITE, Grade.VETERAN):
                return "III: only Elite or Veteran units may turn to face a rear attack"
        except RuleRefused as exc:
            return str(exc)
    return ""


def _wheel_cm(t: Unit, facing: float) -> float:
    """Distance the outer flank travels when ``t`` wheels to ``facing`` (cm)."""
    return wheel_geometry(t, (facing - t.facing + 180.0) % 360.0 - 180.0)[1]


EVADE = "evade move (lost from the text, digest Missing piece 9), scenario parameter gda.evade_distance_cm"


@dataclass(frozen=True, slots=True)
class EvadeMove:
    """The evade of ``unit`` (ПРОВЕДЕНИЕ АТАКИ 5 Б V): ``distance`` cm straight away from the
    attacker (``source`` says where the distance comes from), to ``end`` (front point, same
    facing); ``refusal`` why it may not ("" when it may)."""

    unit: str
    distance: float
    source: str
    end: tuple[float, float]
    refusal: str
    way: str = "away_from_attacker"

    def explain(self) -> str:
        if not self.distance:
            return f"no evade distance: {EVADE}"
        where = f"({self.end[0]:.1f}, {self.end[1]:.1f})"
        way = "straight to its rear" if self.way == "to_its_rear" else "straight away from the attacker"
        return f"it evades {self.distance:g} cm {way} to {where} ({self.source})"


def evade_move(
    state: GameState,
    a: Unit,
    t: Unit,
    decl: Mapping[str, Any],
    request: ActionRequest,
    params: RuleParameters,
) -> EvadeMove:
    """Where ``t`` evades ``a``'s attack to, and whether it may: only before the attack move
    (the reaction is declared as the attack is, ПРОЦЕДУРА АТАКИ 6 Г), keeping its facing,
    ``evade_direction`` (assumed): straight away from the attacker (from its front point through
    the evader's centre) or straight to the evader's own rear. The evade
    rules are lost (digest Missing piece 9): the distance is the scenario's
    ``evade_distance_cm[.<arm>]`` (missing) or the umpire's entry. The path may not cross
    another unit or ``blocking_terrain`` and the evader must stay on the table."""
    try:
        entered = float(request.parameters.get("evade_cm") or 0)
    except (TypeError, ValueError):
        raise RuleRefused("evade_cm: a whole number of cm") from None
    found = params.lookup(f"evade_distance_cm.{t.arm.value}", "evade_distance_cm")
    if entered > 0:
        dist, source = entered, "distance entered by the umpire; the evade rules are lost"
    elif found is not None:
        dist, source = float(found[1]), f"scenario parameter {found[0]}"
    else:
        return EvadeMove(t.id, 0.0, "", t.position, f"V: enter the evade distance: {EVADE}")
    if decl.get("stage") != "declared":
        return EvadeMove(t.id, dist, source, t.position, "V: the target evades before the attack move, not after it")
    way = str(params.get("evade_direction"))
    if way == "away_from_attacker":
        c = t.footprint().centroid
        dx, dy = c.x - a.position[0], c.y - a.position[1]
    elif way == "to_its_rear":
        dx, dy = forward((t.facing + 180.0) % 360.0)
    else:
        raise RuleRefused(f"unknown evade_direction {way!r} (away_from_attacker or to_its_rear)")
    norm = math.hypot(dx, dy) or 1.0
    vx, vy = dx / norm * dist, dy / norm * dist
    end = (t.position[0] + vx, t.position[1] + vy)
    swept = unary_union([t.footprint(), translate(t.footprint(), vx, vy)]).convex_hull
    why = ""
    for o in sorted(state.units.values(), key=lambda u: u.id):
        if o.id != t.id and o.id not in state.off_table and swept.intersects(o.footprint()):
            why = f"V: the evade path of {t.id} runs into {o.name or o.id}"
            break
    kinds = set(params.get("blocking_terrain"))
    for f in request.terrain:
        if not why and str(getattr(f, "kind", "")) in kinds and swept.intersects(f.geometry):
            why = f"V: the evade path of {t.id} crosses {getattr(f, 'name', '') or f.kind}"
    if not why and request.table is not None:
        w, h = request.table
        if not box(0.0, 0.0, w, h).contains(translate(t.footprint(), vx, vy)):
            why = f"V: {t.id} would evade off the table"
    return EvadeMove(t.id, dist, source, end, why, way)


PLAIN = ("fire", "wheel", "evade", "rout")
TESTED = ("square", "turn_about")


def _reaction_spec(state: GameState, subject: str, tested: bool) -> ActionSpec | None:
    if state.phase != "attacks":
        return None
    found = _declared(state, subject)
    if found is None or found[2].get("stage") not in ("declared", "closed"):
        return None
    _, t, decl = found
    done = f"{t.id} has reacted ({decl['reaction']})" if decl.get("reaction") else ""
    if tested:
        return ActionSpec(
            "reaction_test",
            f"{t.name or t.id} forms square or turns about (Discipline Test)",
            term="Тест Дисциплины",
            rule=REACTION_RULE + " II, III",
            parameters=(ParameterSpec("reaction", "choice", choices=TESTED, label="The target's reaction"),),
            umpire_result=(ParameterSpec("discipline", "choice", choices=DISCIPLINE_RESULTS, label="Discipline Test"),),
            umpire_table=DISCIPLINE,
            unavailable=done,
        )
    return ActionSpec(
        "reaction",
        f"Reaction of {t.name or t.id} to the attack",
        term="Реакция цели",
        rule=REACTION_RULE,
        parameters=(
            ParameterSpec("reaction", "choice", choices=PLAIN, label="The target's reaction"),
            ParameterSpec("facing", "int", required=False, minimum=0, maximum=359, label="Wheel to facing (degrees)"),
            ParameterSpec("supports_wheel", "bool", required=False, label="Its supports wheel with it (I)"),
            ParameterSpec(
                "evade_cm",
                "int",
                required=False,
                minimum=0,
                maximum=100,
                label="Evade distance (cm; 0 = the scenario's evade_distance_cm)",
            ),
        ),
        unavailable=done,
    )


def reaction_spec(state: GameState, params: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered in the attacks phase for a declared attack whose target has not reacted: fire,
    wheel, evade or (a retreating target) rout (ПРОЦЕДУРА АТАКИ 6, ПРОВЕДЕНИЕ АТАКИ 5 Б)."""
    return _reaction_spec(state, subject, tested=False)


def reaction_test_spec(state: GameState, params: RuleParameters, subject: str) -> ActionSpec | None:
    """The reactions that need the lost Discipline Test (square, turn about): the umpire
    enters the test's result."""
    return _reaction_spec(state, subject, tested=True)


def _choice(request: ActionRequest) -> str:
    allowed = TESTED if request.action == "reaction_test" else PLAIN
    reaction = str(request.parameters.get("reaction") or allowed[0])
    if reaction not in allowed:
        raise RuleRefused(f"{request.action}: {reaction!r} is not one of {', '.join(allowed)}")
    return reaction


def reaction_preview(state: GameState, request: ActionRequest, params: RuleParameters) -> ActionPreview:
    found = _declared(state, request.subject)
    assert found is not None
    a, t, decl = found
    reaction = _choice(request)
    why = reaction_refusal(a, t, decl, reaction, params)
    if not why and reaction == "wheel":
        why = _wheel_refusal(t, request, params)
    more = ""
    if not why and reaction == "evade":
        move = evade_move(state, a, t, decl, request, params)
        why, more = move.refusal, f"; {move.explain()}"
    test = reaction in ("square", "turn_about")
    return ActionPreview(
        request.action,
        request.subject,
        not why,
        why,
        f"{t.name or t.id} reacts: {reaction}"
        + (f"; {DISCIPLINE}: the umpire enters its result" if test else "")
        + more
        + ".",
        umpire_entry=test,
        assumed=tuple(params.assumptions()),
    )


def _wheel_refusal(t: Unit, request: ActionRequest, params: RuleParameters) -> str:
    if request.parameters.get("facing") is None:
        return "give the facing the target wheels to"
    facing = float(request.parameters["facing"])
    half = _normal_move(t, params) / 2
    arc = _wheel_cm(t, facing)
    if arc > half + 1e-6:
        return f"I: the wheel to {facing:g}° moves its flank {arc:.1f} cm, more than half its move ({half:g} cm)"
    return ""


def _supports_wheel(
    state: GameState, a: Unit, t: Unit, by: float, request: ActionRequest, params: RuleParameters
) -> tuple[list[BattleEvent], list[str]]:
    """ПРОВЕДЕНИЕ АТАКИ 5 Б I «Подразделения, оказывающие поддержку оперируют по тем же правилам»:
    each of the target's supports wheels by the same angle on its own inner flank when its outer
    flank travels no more than half its own move; one that cannot stays as it is."""
    events: list[BattleEvent] = []
    notes: list[str] = []
    turn, side, phase = state.turn, state.side, state.phase
    sups = defending_supports(state, t, a, params, request.terrain)
    for sid in sorted(sups):
        s = state.units[sid]
        pivot, arc = wheel_geometry(s, by)
        half = _normal_move(s, params) / 2
        if arc > half + 1e-6:
            notes.append(f"its support {sid} stays: its flank would travel {arc:.1f} cm, more than half its move")
            continue
        w = wheeled(s, pivot, by)
        events.append(Moved(turn, side, phase, id=sid, path=(s.position, w.position)))
        events.append(Rotated(turn, side, phase, id=sid, facing=round(w.facing, 6)))
        notes.append(f"its support {sid} wheels with it ({arc:.1f} cm)")
    return events, notes or ["it has no supports to wheel"]


def reaction_resolve(
    state: GameState, request: ActionRequest, params: RuleParameters, dice: DiceSource
) -> ActionOutcome:
    found = _declared(state, request.subject)
    assert found is not None
    a, t, decl = found
    reaction = _choice(request)
    why = reaction_refusal(a, t, decl, reaction, params) or (
        _wheel_refusal(t, request, params) if reaction == "wheel" else ""
    )
    evade = evade_move(state, a, t, decl, request, params) if reaction == "evade" and not why else None
    if evade is not None:
        why = evade.refusal
    if why:
        raise RuleRefused(why)
    turn, side, phase = state.turn, state.side, state.phase
    events: list[BattleEvent] = []
    text = f"{t.name or t.id} reacts to {a.name or a.id}'s attack: {reaction}"
    test = ""
    if reaction in ("square", "turn_about"):
        test = str((request.umpire_result or {}).get("discipline") or "")
        if test not in DISCIPLINE_RESULTS:
            raise RuleRefused(f"enter the Discipline Test's result ({', '.join(DISCIPLINE_RESULTS)}): {DISCIPLINE}")
        text += f"; Discipline Test at 5 cm: {test} (entered by the umpire; {DISCIPLINE})"
        if test != "passed":
            events += unit_events(state, [t.id], test, "Discipline Test failed")
            text += f"; it suffers the test's result and is {test} (Ambiguity 18)"
        elif reaction == "square":
            events.append(FormationChanged(turn, side, phase, unit=t.id, formation=Formation.SQUARE.value))
            text += "; it forms square and may not fire now"
        else:
            events.append(Rotated(turn, side, phase, id=t.id, facing=(t.facing + 180.0) % 360.0))
            events.append(OrderStateChanged(turn, side, phase, unit=t.id, state="unformed", reason="turned about"))
            text += "; it faces the attacker and becomes Unformed"
    elif reaction == "wheel":
        facing = float(request.parameters["facing"])
        by = (facing - t.facing + 180.0) % 360.0 - 180.0
        pivot, arc = wheel_geometry(t, by)
        w = wheeled(t, pivot, by)
        events.append(Moved(turn, side, phase, id=t.id, path=(t.position, w.position)))
        events.append(Rotated(turn, side, phase, id=t.id, facing=facing))
        text += f" to {facing:g}° on its inner flank ({arc:.1f} cm of its half move), then it fires at 5 cm"
        if request.parameters.get("supports_wheel"):
            more, notes = _supports_wheel(state, a, t, by, request, params)
            events += more
            text += "; " + "; ".join(notes)
    elif reaction == "rout":
        events += unit_events(state, [t.id], "routing", "attacked while retreating")
        text += ": a retreating unit routs at once"
    elif reaction == "evade":
        assert evade is not None
        events.append(Moved(turn, side, phase, id=t.id, path=(t.position, evade.end)))
        text += f": {evade.explain()}"
    else:
        text += ": it fires when the enemy reaches 5 cm (defensive fire)"
    events += _brigades_follow(state, events, [t.id], params)
    events.append(
        attack_flag_event(
            state,
            a.id,
            decl,
            f"target reaction: {reaction}",
            reaction=reaction,
            discipline=test,
            **({"evaded_cm": round(evade.distance, 2)} if evade is not None else {}),
        )
    )
    return ActionOutcome("resolved", text + f" ({REACTION_RULE}).", tuple(events), assumed=tuple(params.assumptions()))


HANDLERS = (
    ActionHandler("reaction", reaction_spec, reaction_preview, reaction_resolve),
    ActionHandler("reaction_test", reaction_test_spec, reaction_preview, reaction_resolve),
)
