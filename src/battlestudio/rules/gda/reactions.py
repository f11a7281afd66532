"""General d'Armée: the target's reaction, the attack move and the Fate test (seed 002).

Three actions of the attacks phase, each offered to the leading attacker of a declared attack
(the umpire acts for both sides, as for ``defensive_fire``):

* ``reaction`` — ПРОЦЕДУРА АТАКИ 6 and ПРОВЕДЕНИЕ АТАКИ 5 Б: the target fires (А), wheels up to
  half its move and fires (Б / I, only when the attacker started at least 15 cm [9"] away),
  forms square against cavalry (В / II) or turns to face a rear attack (III, Elite and Veteran
  only) after a Discipline Test, or evades (Г / V: skirmishers, Cossacks, limbered artillery);
  a retreating target routs at once (Д). With the attacker starting closer than 15 cm only
  fire and evasion are left (IV). The Discipline Test's table, its modifiers (Line forming
  square «с отрицательным модификатором») and outcomes are lost (digest Missing piece 3): the
  scenario parameter ``discipline_test`` is missing and the umpire enters the test's result.
  The evade move's details are lost too (Missing piece 9): the reaction is recorded and the
  umpire moves the unit.
* ``attack_move`` — ПРОЦЕДУРА АТАКИ 3-5, ПРОВЕДЕНИЕ АТАКИ 4: the Forward! dice are rolled now
  (not before the declaration), the attacker closes to 5 cm [3"] of the target by the shortest
  route towards its centre, its supports moving with it and keeping their places; out of reach
  it moves its full distance, stops Unformed and the attack is abandoned (ПРОЦЕДУРА АТАКИ 4);
  a passive side's attack whose target can no longer be reached is cancelled (ПРОЦЕДУРА АТАКИ 1).
* ``attack_discipline`` — ПРОВЕДЕНИЕ АТАКИ 7-8: the leading attacker's and its supports'
  Discipline Tests at 5 cm (lost; the umpire enters them): a retreating leader takes its supports
  back and there is no melee; an Unformed support keeps supporting at -1; a retreating one
  withdraws.
* ``fate_test`` — Двойная «6»: a clean double six calls for the Fate test, whose table is lost
  (scenario parameter ``fate_table`` missing): the umpire enters its result for the side's
  leading unit.
"""

from __future__ import annotations

import math
from typing import Any
from collections.abc import Mapping

from shapely.affinity import translate

from battlestudio.model.units import Arm, Formation, Unit
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import FormationChanged, Moved, OrderStateChanged, Rotated
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource, DiceSpec, RollRecord
from battlestudio.rules.gda.attacks import attack_reach, brigade_of
from battlestudio.rules.gda.brigades import Grade, UnitState, brigade_status, grade_of, is_cossack, is_skirmisher
from battlestudio.rules.gda.brigades import unit_state
from battlestudio.rules.gda.events import DamageTaken
from battlestudio.rules.gda.geometry import attack_aspect, distance_cm, unit_distance
from battlestudio.rules.gda.melee import ATTACK_FLAG, UNIT_RESULTS, attack_of
from battlestudio.rules.gda.results import unit_events
from battlestudio.rules.gda.states import apply_events, follow_units
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec

REACTIONS = ("fire", "wheel", "square", "turn_about", "evade", "rout")
"""The target's reactions (ПРОЦЕДУРА АТАКИ 6 А–Д, ПРОВЕДЕНИЕ АТАКИ 5 Б I–V)."""

DISCIPLINE = (
    "Discipline Test (table, modifiers and outcomes lost; digest Missing piece 3), scenario parameter "
    "gda.discipline_test"
)
DISCIPLINE_RESULTS = ("passed", "unformed", "retreating", "routing")
FATE = "Fate table (lost; digest Missing piece 4), scenario parameter gda.fate_table"
REACTION_RULE = "ПРОЦЕДУРА АТАКИ 6; ПРОВЕДЕНИЕ АТАКИ 5 Б"
MOVE_RULE = "ПРОЦЕДУРА АТАКИ 3-5; ПРОВЕДЕНИЕ АТАКИ 4"
D6 = DiceSpec(1, 6)


def _declared(state: GameState, subject: str) -> tuple[Unit, Unit, Mapping[str, Any]] | None:
    u = state.units.get(subject)
    decl = attack_of(state, subject) if u is not None and u.side == state.side else None
    if u is None or decl is None:
        return None
    t = state.units.get(str(decl["target"]))
    if t is None:
        return None
    return u, t, decl


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


def _brigades_follow(
    state: GameState, events: list[BattleEvent], ids: list[str], params: RuleParameters
) -> list[BattleEvent]:
    """The brigade events that follow ``ids``' new states (``states.follow_units``)."""
    after = apply_events(state, events)
    broken = [
        u
        for u in ids
        if u in state.units
        and (u not in after.units or unit_state(after.units[u]) is UnitState.ROUTING)
        and unit_state(state.units[u]) is not UnitState.ROUTING
    ]
    brigades = [b for b in (brigade_of(state, u) for u in ids) if b]
    return follow_units(state, after, brigades, broken, params)[0]


def _wheel_cm(t: Unit, facing: float) -> float:
    """Distance the outer flank travels when ``t`` wheels to ``facing`` (cm)."""
    turn = abs((facing - t.facing + 180.0) % 360.0 - 180.0)
    return t.rect().width * math.radians(turn)


def _normal_move(u: Unit, params: RuleParameters) -> float:
    if "normal_move_cm" in u.attributes:
        return float(u.attributes["normal_move_cm"])
    return float(
        params.require(
            "normal_move_cm", f"normal_move_cm.{u.arm.value}.{u.formation.value}", f"normal_move_cm.{u.arm.value}"
        )[1]
    )


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
    test = reaction in ("square", "turn_about")
    return ActionPreview(
        request.action,
        request.subject,
        not why,
        why,
        f"{t.name or t.id} reacts: {reaction}"
        + (f"; {DISCIPLINE}: the umpire enters its result" if test else "")
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
        events.append(Rotated(turn, side, phase, id=t.id, facing=facing))
        text += f" to {facing:g}° ({_wheel_cm(t, facing):.1f} cm of its half move), then it fires at 5 cm"
    elif reaction == "rout":
        events += unit_events(state, [t.id], "routing", "attacked while retreating")
        text += ": a retreating unit routs at once"
    elif reaction == "evade":
        text += ": the evade move is lost from the text (Missing piece 9); the umpire moves the unit"
    else:
        text += ": it fires when the enemy reaches 5 cm (defensive fire)"
    events += _brigades_follow(state, events, [t.id], params)
    events.append(
        CommandStateChanged(
            turn,
            side,
            phase,
            subject=a.id,
            state=ATTACK_FLAG,
            value={**dict(decl), "reaction": reaction, "discipline": test},
            reason=f"target reaction: {reaction}",
        )
    )
    return ActionOutcome("resolved", text + f" ({REACTION_RULE}).", tuple(events), assumed=tuple(params.assumptions()))


# ------------------------------------------------------------------------------- the attack move
def closing_distance(a: Unit, t: Unit, stop_cm: float) -> tuple[float, tuple[float, float]]:
    """How far ``a`` must go, and the unit direction, to stand ``stop_cm`` from ``t`` heading for
    its centre by the shortest route (ПРОВЕДЕНИЕ АТАКИ 4); 0 when it already is that close."""
    fp = a.footprint()
    c = t.footprint().centroid
    dx, dy = c.x - a.position[0], c.y - a.position[1]
    norm = math.hypot(dx, dy) or 1.0
    ux, uy = dx / norm, dy / norm
    if fp.distance(t.footprint()) <= stop_cm:
        return 0.0, (ux, uy)
    lo, hi = 0.0, norm
    for _ in range(60):
        mid = (lo + hi) / 2
        if translate(fp, mid * ux, mid * uy).distance(t.footprint()) > stop_cm:
            lo = mid
        else:
            hi = mid
    return lo, (ux, uy)


def move_spec(state: GameState, params: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered in the attacks phase for an attack declared and not yet moved or rolled."""
    if state.phase != "attacks":
        return None
    found = _declared(state, subject)
    if found is None or found[2].get("stage") != "declared":
        return None
    return ActionSpec(
        "attack_move",
        f"Attack move on {found[1].name or found[1].id}",
        term="Движение атаки",
        rule=MOVE_RULE,
    )


def move_preview(state: GameState, request: ActionRequest, params: RuleParameters) -> ActionPreview:
    found = _declared(state, request.subject)
    assert found is not None
    a, t, _ = found
    forward_task = "forward" in brigade_status(state, b).tasks if (b := brigade_of(state, a.id)) else False
    need, _ = closing_distance(a, t, distance_cm(params, "support_flank"))
    base = attack_reach(a, params, False)
    text = f"{a.id} must move {need:.1f} cm to stand 5 cm from {t.id}; normal move + attack bonus {base:.1f} cm"
    if forward_task:
        text += " + the Forward! dice, rolled now"
    return ActionPreview("attack_move", request.subject, True, explanation=text + f" ({MOVE_RULE}).")


def move_resolve(state: GameState, request: ActionRequest, params: RuleParameters, dice: DiceSource) -> ActionOutcome:
    found = _declared(state, request.subject)
    assert found is not None
    a, t, decl = found
    turn, side, phase = state.turn, state.side, state.phase
    b = brigade_of(state, a.id)
    reach = attack_reach(a, params, False)
    rolls: list[RollRecord] = []
    if b and "forward" in brigade_status(state, b).tasks:
        imperial = str(params.get("measurement")) == "imperial"
        n = int(params.get("forward_bonus_dice_imperial" if imperial else "forward_bonus_dice_metric"))
        spec = DiceSpec(n, 6)
        purpose = f"gda-forward:{a.id}:t{turn}"
        faces = dice.roll(purpose, spec)
        extra = sum(faces) * (2.54 if imperial else 1.0)
        rolls.append(RollRecord(purpose, f"Forward! bonus, {a.id}", spec, tuple(faces), outcome=f"+{extra:g} cm"))
        reach += extra
    stop = distance_cm(params, "support_flank")
    need, (ux, uy) = closing_distance(a, t, stop)
    gap = unit_distance(a, t)
    moved = min(need, reach)
    events: list[BattleEvent] = []
    holder = state.flags.get("initiative:holder")
    if need > reach + 1e-6 and holder and holder != a.side:  # ПРОЦЕДУРА АТАКИ 1: the passive side's attack
        value = {**dict(decl), "stage": "cancelled", "start_gap": round(gap, 2), "moved": 0.0}
        ev = CommandStateChanged(turn, side, phase, subject=a.id, state=ATTACK_FLAG, value=value, reason="cancelled")
        text = (
            f"{a.name or a.id} is the passive side's attacker and {t.name or t.id} can no longer be reached "
            f"({need:.1f} cm needed, {reach:.1f} cm reach): the attack is cancelled (ПРОЦЕДУРА АТАКИ 1)."
        )
        return ActionOutcome("resolved", text, (ev,), tuple(rolls), tuple(params.assumptions()))
    movers = [a.id, *(s for s in dict(decl.get("positions", {})) if s in state.units)]
    if moved > 0:
        for uid in movers:
            u = state.units[uid]
            end = (u.position[0] + moved * ux, u.position[1] + moved * uy)
            events.append(Moved(turn, side, phase, id=uid, path=(u.position, end)))
    if need > reach + 1e-6:
        events.append(OrderStateChanged(turn, side, phase, unit=a.id, state="unformed", reason="attack out of reach"))
        stage, text = (
            "abandoned",
            (
                f"{a.id} needed {need:.1f} cm but reaches {reach:.1f} cm: it moves its full distance and stops "
                "Unformed; the attack is abandoned and the target may fire (ПРОЦЕДУРА АТАКИ 4)"
            ),
        )
    else:
        stage, text = (
            "closed",
            (
                f"{a.id} closes {moved:.1f} cm to 5 cm of {t.id} (reach {reach:.1f} cm), its supports keeping their "
                "places (ПРОВЕДЕНИЕ АТАКИ 4)"
            ),
        )
    events.append(
        CommandStateChanged(
            turn,
            side,
            phase,
            subject=a.id,
            state=ATTACK_FLAG,
            value={**dict(decl), "stage": stage, "start_gap": round(gap, 2), "moved": round(moved, 2)},
            reason=f"attack move: {stage}",
        )
    )
    return ActionOutcome("resolved", text + ".", tuple(events), tuple(rolls), tuple(params.assumptions()))


# ------------------------------------------------------------------------------- the Fate test
def fate_spec(state: GameState, params: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered in the attacks phase when this attack's roll showed a clean double six."""
    if state.phase != "attacks":
        return None
    found = _declared(state, subject)
    if found is None or not found[2].get("fate_test"):
        return None
    decl = found[2]
    done = set(decl.get("fate_done", ()))
    due = [w for w in decl["fate_test"] if w not in done]
    return ActionSpec(
        "fate_test",
        f"Fate test ({', '.join(due) or 'done'})",
        term="Тест Судьбы",
        rule="ТАБЛИЦА «РЕЗУЛЬТАТЫ АТАКИ»: Двойная «6»",
        umpire_table=FATE,
        umpire_result=(
            ParameterSpec("side", "choice", choices=tuple(due) or ("attacker",), label="Whose double six"),
            ParameterSpec("result", "choice", choices=UNIT_RESULTS, label="Its leading unit"),
            ParameterSpec("damage", "int", required=False, minimum=0, maximum=20, label="Damage"),
        ),
        unavailable="" if due else "every Fate test of this attack is taken",
    )


def fate_preview(state: GameState, request: ActionRequest, params: RuleParameters) -> ActionPreview:
    return ActionPreview(
        "fate_test", request.subject, True, explanation=f"A clean double six: {FATE}.", umpire_entry=True
    )


def fate_resolve(state: GameState, request: ActionRequest, params: RuleParameters, dice: DiceSource) -> ActionOutcome:
    found = _declared(state, request.subject)
    assert found is not None
    a, t, decl = found
    entry = dict(request.umpire_result or {})
    who = str(entry.get("side") or "")
    if who not in tuple(decl.get("fate_test", ())) or who in tuple(decl.get("fate_done", ())):
        raise RuleRefused(f"no Fate test is due for {who!r}")
    result = str(entry.get("result") or "stands")
    if result not in UNIT_RESULTS:
        raise RuleRefused(f"result {result!r} is not one of {', '.join(UNIT_RESULTS)}")
    try:
        damage = int(entry.get("damage") or 0)
    except (TypeError, ValueError):
        raise RuleRefused("damage must be a whole number of damage points") from None
    if damage < 0:
        raise RuleRefused("damage cannot be negative")
    unit = a if who == "attacker" else t
    turn, side, phase = state.turn, state.side, state.phase
    events: list[BattleEvent] = []
    if damage:
        events.append(DamageTaken(turn, side, phase, unit=unit.id, points=damage, cause="Fate test"))
    events += unit_events(state, [unit.id], result, "Fate test")
    events += _brigades_follow(state, events, [unit.id], params)
    events.append(
        CommandStateChanged(
            turn,
            side,
            phase,
            subject=a.id,
            state=ATTACK_FLAG,
            value={**dict(decl), "fate_done": [*decl.get("fate_done", ()), who]},
            reason="Fate test taken",
        )
    )
    text = f"Fate test for the {who} ({unit.id}): {result}, {damage} damage, entered by the umpire ({FATE})."
    return ActionOutcome("resolved", text, tuple(events), assumed=tuple(params.assumptions()))


# ------------------------------------------------------------------ the attackers' Discipline Tests
SUPPORT_RESULTS = ("passed", "unformed", "retreating")


def discipline_spec(state: GameState, params: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered in the attacks phase for an attack not yet rolled: ПРОВЕДЕНИЕ АТАКИ 7-8, the
    Discipline Tests of the leading attacker and its supports at 5 cm, entered by the umpire."""
    if state.phase != "attacks":
        return None
    found = _declared(state, subject)
    if found is None or found[2].get("stage") not in ("declared", "closed"):
        return None
    decl = found[2]
    positions = dict(decl.get("positions", {}))
    fields = [ParameterSpec("leader", "choice", choices=DISCIPLINE_RESULTS, label=f"Leading attacker {subject}")]
    fields += [
        ParameterSpec(sid, "choice", choices=SUPPORT_RESULTS, label=f"Support {sid} ({pos})")
        for sid, pos in sorted(positions.items())
        if sid in state.units
    ]
    return ActionSpec(
        "attack_discipline",
        "Discipline Tests of the attackers at 5 cm",
        term="Тест Дисциплины атакующих",
        rule="ПРОВЕДЕНИЕ АТАКИ 7-8",
        umpire_table=DISCIPLINE,
        umpire_result=tuple(fields),
        unavailable="the attackers have taken their Discipline Tests" if decl.get("discipline_taken") else "",
    )


def discipline_preview(state: GameState, request: ActionRequest, params: RuleParameters) -> ActionPreview:
    return ActionPreview(
        "attack_discipline",
        request.subject,
        True,
        explanation=f"Steps 7-8: {DISCIPLINE}; the umpire enters each result.",
        umpire_entry=True,
    )


def discipline_resolve(
    state: GameState, request: ActionRequest, params: RuleParameters, dice: DiceSource
) -> ActionOutcome:
    found = _declared(state, request.subject)
    assert found is not None
    a, _, decl = found
    entry = dict(request.umpire_result or {})
    leader = str(entry.get("leader") or "")
    if leader not in DISCIPLINE_RESULTS:
        raise RuleRefused(f"enter the leading attacker's Discipline Test ({', '.join(DISCIPLINE_RESULTS)})")
    positions = {k: v for k, v in dict(decl.get("positions", {})).items() if k in state.units}
    events: list[BattleEvent] = []
    notes = [f"{a.id}: {leader}"]
    stage = str(decl.get("stage"))
    if leader in ("retreating", "routing"):
        events += unit_events(state, [a.id], leader, "Discipline Test of the leading attacker")
        events += unit_events(state, list(positions), "retreating", "the leading attacker retreats")
        notes.append("the leader retreats, its supports with it, and no melee takes place (step 7)")
        positions, stage = {}, "repulsed"
    else:
        events += unit_events(state, [a.id], leader if leader == "unformed" else "stands", "Discipline Test")
        if leader == "unformed":
            notes.append("the attack goes on with the Unformed modifiers (step 7)")
        for sid in sorted(positions):
            res = str(entry.get(sid) or "passed")
            if res not in SUPPORT_RESULTS:
                raise RuleRefused(f"support {sid}: {res!r} is not one of {', '.join(SUPPORT_RESULTS)}")
            if res == "retreating":
                events += unit_events(state, [sid], "retreating", "Discipline Test of a support")
                positions.pop(sid)
                notes.append(f"support {sid} retreats and withdraws at once (step 8)")
            elif res == "unformed":
                events += unit_events(state, [sid], "unformed", "Discipline Test of a support")
                notes.append(f"support {sid} is Unformed and keeps supporting at -1 (step 8)")
    ids = [a.id, *dict(decl.get("positions", {}))]
    events += _brigades_follow(state, events, [i for i in ids if i in state.units], params)
    turn, side, phase = state.turn, state.side, state.phase
    events.append(
        CommandStateChanged(
            turn,
            side,
            phase,
            subject=a.id,
            state=ATTACK_FLAG,
            value={**dict(decl), "stage": stage, "positions": positions, "discipline_taken": True},
            reason="attackers' Discipline Tests",
        )
    )
    text = f"Discipline Tests at 5 cm, entered by the umpire ({DISCIPLINE}): " + "; ".join(notes) + "."
    return ActionOutcome("resolved", text, tuple(events), assumed=tuple(params.assumptions()))


HANDLERS = (
    ActionHandler("attack_move", move_spec, move_preview, move_resolve),
    ActionHandler("reaction", reaction_spec, reaction_preview, reaction_resolve),
    ActionHandler("reaction_test", reaction_test_spec, reaction_preview, reaction_resolve),
    ActionHandler("attack_discipline", discipline_spec, discipline_preview, discipline_resolve),
    ActionHandler("fate_test", fate_spec, fate_preview, fate_resolve),
)
