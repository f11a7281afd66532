"""General d'Armée: declaring an attack (ПРОЦЕДУРА АТАКИ 1, ОБЪЯВЛЕНИЕ АТАКИ, ОГРАНИЧЕНИЯ НА
АТАКУ 1–16, ПОДДЕРЖКА АТАКИ) and the record every later step of the attack reads.

``declare_attack`` (phase ``attack-declaration``): ``attacks.check_attack`` against this side's
declarations already made this turn; recorded as the unit flag ``gda-attack:<unit>``
(``order_events.CommandStateChanged``) with the target, the supports and their positions. The
steps after it (``attack_move``, ``reactions``, ``fire``, ``fire_support``, ``discipline``,
``melee``, ``results``, ``fate``) read and extend that flag: ``attack_of``, ``declared_attack``.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping

from battlestudio.model.units import Arm, Unit
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.gda.attacks import (
    Declaration,
    check_attack,
)
from battlestudio.rules.gda.brigades import UnitState, unit_state
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec

ATTACK_FLAG = "gda-attack"
"""``CommandStateChanged.state`` of a declared / rolled attack, keyed by the leading attacker."""


UNIT_RESULTS = ("stands", "unformed", "retreating", "routing", "dispersed")
"""What the Attack Results table can do to a unit, in the seed's words (Не построенные,
Отступают, Бегут, Рассеиваются); ``stands`` leaves it as it is."""

DECLARE_RULE = "ПРОЦЕДУРА АТАКИ 1; ОБЪЯВЛЕНИЕ АТАКИ; ОГРАНИЧЕНИЯ НА АТАКУ 1-16"
RESULT_TABLE = "ТАБЛИЦА «РЕЗУЛЬТАТЫ АТАКИ» (values lost), scenario parameter gda.attack_results"


def attack_of(state: GameState, unit_id: str) -> Mapping[str, Any] | None:
    """The attack ``unit_id`` leads this turn (declared or rolled), or None."""
    v = state.flags.get(f"{ATTACK_FLAG}:{unit_id}")
    if not isinstance(v, Mapping) or int(v.get("turn", -1)) != state.turn:
        return None
    return v


def attack_flag_event(
    state: GameState, leader: str, flag: Mapping[str, Any], reason: str, **changes: Any
) -> CommandStateChanged:
    """The event recording a stage of ``leader``'s attack: its flag ``flag`` with ``changes``
    set, in the current turn, side and phase (``ATTACK_FLAG``)."""
    return CommandStateChanged(
        state.turn,
        state.side,
        state.phase,
        subject=leader,
        state=ATTACK_FLAG,
        value={**dict(flag), **changes},
        reason=reason,
    )


def declared_this_turn(state: GameState, side: str) -> list[Declaration]:
    """This side's attacks declared this turn (restrictions 3, 5, 11 look at them)."""
    out = []
    for key, v in state.flags.items():
        if not key.startswith(ATTACK_FLAG + ":") or not isinstance(v, Mapping):
            continue
        uid = key.split(":", 1)[1]
        u = state.units.get(uid)
        if u is not None and u.side == side and int(v.get("turn", -1)) == state.turn:
            out.append(Declaration(uid, str(v["target"]), tuple(v.get("supports", ()))))
    return out


def attacks_on(state: GameState, target: str, side: str) -> dict[str, Mapping[str, Any]]:
    """The attacks ``side`` leads on ``target`` this turn: leading unit → its flag. Several of
    them are separate attacks on one target (ТАБЛИЦА «РЕЗУЛЬТАТЫ АТАКИ», «Несколько отдельных
    атак»): each attacker rolls with its own modifiers, the defender rolls once, the best
    result counts."""
    out: dict[str, Mapping[str, Any]] = {}
    for key, v in sorted(state.flags.items()):
        if not key.startswith(ATTACK_FLAG + ":") or not isinstance(v, Mapping):
            continue
        uid = key.split(":", 1)[1]
        u = state.units.get(uid)
        if u is not None and u.side == side and int(v.get("turn", -1)) == state.turn and str(v.get("target")) == target:
            out[uid] = v
    return out


def _own_unit(state: GameState, subject: str) -> Unit | None:
    u = state.units.get(subject)
    if u is None or u.side != state.side:
        return None
    return u


# ------------------------------------------------------------------------------- declaration
def declare_spec(state: GameState, params: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered to a unit of the side whose player-turn it is, in the attack-declaration phase."""
    if state.phase != "attack-declaration":
        return None
    u = _own_unit(state, subject)
    if u is None:
        return None
    why = ""
    if attack_of(state, u.id) is not None:
        why = f"{u.name or u.id} has already declared an attack this turn"
    elif u.arm is Arm.ARTILLERY:
        why = "restriction 14: artillery may not declare attacks («Артиллерия не может заявлять атаки»)"
    else:
        try:
            st = unit_state(u)
        except RuleRefused as exc:
            st, why = UnitState.FORMED, str(exc)
        if st is not UnitState.FORMED and not why:
            why = f"restriction 2: a {st.value} unit may not declare an attack"
    return ActionSpec(
        "declare_attack",
        "Declare an attack",
        term="Атака!",
        rule=DECLARE_RULE,
        parameters=(
            ParameterSpec("target", "enemy_unit", label="Target"),
            ParameterSpec(
                "supports", "friendly_unit", required=False, multiple=3, label="Supports (left, right, rear)"
            ),
            ParameterSpec("line_of_sight", "bool", required=False, label="Line of sight to the target"),
        ),
        unavailable=why,
    )


def _declaration(state: GameState, request: ActionRequest) -> Declaration:
    target = str(request.parameters.get("target") or "")
    if target not in state.units:
        raise RuleRefused(f"declare an attack on a unit: {target!r} is not one")
    if state.units[target].side == state.units[request.subject].side:
        raise RuleRefused(f"{target} is a friendly unit")
    sup = request.parameters.get("supports") or ()
    sup = (sup,) if isinstance(sup, str) else tuple(str(s) for s in sup)
    return Declaration(request.subject, target, sup, bool(request.parameters.get("line_of_sight", True)))


def declare_preview(state: GameState, request: ActionRequest, params: RuleParameters) -> ActionPreview:
    decl = _declaration(state, request)
    chk = check_attack(state, decl, params, request.terrain, declared=declared_this_turn(state, state.side))
    sup = "; ".join(f"{s}: {v}" for s, v in chk.supports.items())
    bad = [f"support {s} {v}" for s, v in chk.supports.items() if v.startswith("refused")]
    return ActionPreview(
        "declare_attack",
        request.subject,
        chk.legal and not bad,
        "; ".join([*chk.reasons, *bad]),
        chk.explain() + (f" Supports: {sup}." if sup else ""),
        assumed=tuple(params.assumptions()),
    )


def declare_resolve(
    state: GameState, request: ActionRequest, params: RuleParameters, dice: DiceSource
) -> ActionOutcome:
    decl = _declaration(state, request)
    chk = check_attack(state, decl, params, request.terrain, declared=declared_this_turn(state, state.side))
    if not chk.legal:
        raise RuleRefused(chk.explain())
    bad = {s: v for s, v in chk.supports.items() if v.startswith("refused")}
    if bad:
        raise RuleRefused("; ".join(f"support {s} {v}" for s, v in bad.items()) + " (ПОДДЕРЖКА АТАКИ)")
    value = {
        "turn": state.turn,
        "stage": "declared",
        "target": decl.target,
        "supports": list(decl.supports),
        "positions": dict(chk.supports),
    }
    ev = CommandStateChanged(
        state.turn, state.side, state.phase, subject=decl.attacker, state=ATTACK_FLAG, value=value, reason="Атака!"
    )
    return ActionOutcome("resolved", chk.explain(), (ev,), assumed=tuple(params.assumptions()))


def declared_attack(state: GameState, subject: str) -> tuple[Unit, Unit, Mapping[str, Any]] | None:
    """(leading attacker, target, flag) of the attack ``subject`` leads this turn for the side
    whose player-turn it is, or None."""
    u = state.units.get(subject)
    decl = attack_of(state, subject) if u is not None and u.side == state.side else None
    if u is None or decl is None:
        return None
    t = state.units.get(str(decl["target"]))
    if t is None:
        return None
    return u, t, decl


DAMAGE_KEYS = ("fire_damage", "support_fire_damage", "discipline_damage")
"""The attack flag's records of damage taken in this attack: defensive fire (step 5 А), fire
support (step 6), the attackers' Discipline Tests (steps 7-8)."""


def damage_in_attack(decl: Mapping[str, Any], unit_id: str) -> int:
    """Damage ``unit_id`` has taken in this attack so far («Урон в Атаке», МОДИФИКАТОРЫ АТАКИ):
    defensive fire, fire support and the Discipline Tests' damage."""
    return sum(int(dict(decl.get(k, {})).get(unit_id, 0)) for k in DAMAGE_KEYS)


HANDLERS = (ActionHandler("declare_attack", declare_spec, declare_preview, declare_resolve),)
