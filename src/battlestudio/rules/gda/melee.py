"""General d'Armée: the 2D6 attack roll (ПРОВЕДЕНИЕ АТАКИ 1–3, 9; ТАБЛИЦА «РЕЗУЛЬТАТЫ АТАКИ»).

``attack`` (phase ``attacks``): «Обе стороны бросают 2Д6, добавляют модификаторы» — both leading
units roll 2D6 with ``modifiers.attack_modifiers``; each support allows one die rerolled
(«переброс 1Д6», with ``attacks.support_reroll_penalty``, minimum 1), attacker first, then the
defender, whose supports in range are included whether he wants them or not (step 3 «не имеет
вариантов отказаться»). A clean double six calls for a Fate test («Двойная 6», ``fate``). The
difference of the totals is recorded as a ``combat_events.Melee`` with no winner yet;
``attack_result`` (``results``) applies the lost Attack Results table.

Reroll choice: a player rerolls his lowest die while it shows less than ``reroll_below``
(the action's parameter), once per support («Перебросы поддержки добровольны»); the exact
distribution of the difference is computed for that choice before the roll.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any
from collections.abc import Mapping, Sequence

from battlestudio.model.units import Arm, Unit
from battlestudio.replay.combat_events import Melee
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource, DiceSpec, Modifier, RollRecord
from battlestudio.rules.gda.attacks import (
    brigade_of,
    check_support,
    support_reroll_penalty,
)
from battlestudio.rules.gda.brigades import members
from battlestudio.rules.gda.modifiers import attack_modifiers, situation_from_positions
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec

from battlestudio.rules.gda.declaration import (
    ATTACK_FLAG,
    RESULT_TABLE,
    UNIT_RESULTS,
    _own_unit,
    attack_of,
    attacks_on,
    damage_in_attack,
    declared_this_turn,
)


D6 = DiceSpec(1, 6)
TWO_D6 = DiceSpec(2, 6)
ATTACK_RULE = "ПРОВЕДЕНИЕ АТАКИ 1-3, 9; ТАБЛИЦА «РЕЗУЛЬТАТЫ АТАКИ»; Модификаторы атаки"


@dataclass(frozen=True, slots=True)
class Side:
    """One side of an attack roll: the leading ``unit``, its ``supports`` (id → position),
    the ``penalties`` of the rerolls they give (0 or -1 each, best first), its ``modifiers``."""

    unit: Unit
    supports: Mapping[str, str]
    penalties: tuple[int, ...]
    modifiers: tuple[Modifier, ...]

    @property
    def modifier(self) -> int:
        return sum(m.value for m in self.modifiers)


def _penalties(state: GameState, ids: Sequence[str], enemy: Unit, params: RuleParameters) -> tuple[int, ...]:
    pens = [
        support_reroll_penalty(state.units[s], params, against_cavalry=enemy.arm is Arm.CAVALRY)
        for s in ids
        if s in state.units
    ]
    return tuple(sorted(pens, reverse=True))


def defending_supports(
    state: GameState,
    defender: Unit,
    attacker: Unit,
    params: RuleParameters,
    terrain: Sequence[Any] = (),
) -> dict[str, str]:
    """Every unit of the defender's brigade that may support it (``check_support`` with
    ``defending``), one per position: ПРОВЕДЕНИЕ АТАКИ 3, the defender must include them. When
    ``attacker`` is the only unit attacking ``defender`` this turn, a Faltering brigade's
    adjacent unit it also attacks joins as a support (exception to prohibition З)."""
    single = len([d for d in declared_this_turn(state, attacker.side) if d.target == defender.id]) <= 1
    b = brigade_of(state, defender.id)
    out: dict[str, str] = {}
    if not b:
        return out
    for u in sorted(members(state, b).present, key=lambda x: x.id):
        if u.id == defender.id:
            continue
        v = check_support(
            state, defender, attacker, u.id, params, defending=True, terrain=terrain, single_attacker=single
        )
        if not v.startswith("refused") and v not in out.values():
            out[u.id] = v
    return out


def sides_of(
    state: GameState, attacker_id: str, params: RuleParameters, terrain: Sequence[Any] = ()
) -> tuple[Side, Side, Mapping[str, Any]]:
    """The attacking and defending ``Side`` of the attack ``attacker_id`` declared this turn:
    its leading unit and supports, the defender's supports (ПРОВЕДЕНИЕ АТАКИ 1-3).

    Raises
    ------
    RuleRefused
        when it has no declared attack this turn, its target is gone (ПРОЦЕДУРА АТАКИ 1:
        «атака отменяется»), or the target is a garrison / built-up area (step 10: straight
        into melee, chapter 9 lost).
    """
    decl = attack_of(state, attacker_id)
    if decl is None:
        raise RuleRefused(f"{attacker_id} has declared no attack this turn (ПРОЦЕДУРА АТАКИ 1)")
    a = state.units.get(attacker_id)
    t = state.units.get(str(decl["target"]))
    if a is None or t is None:
        raise RuleRefused("the attacker or its target has left the table: the attack is cancelled (ПРОЦЕДУРА АТАКИ 1)")
    if t.attributes.get("garrison") or t.attributes.get("built_up"):
        raise RuleRefused(
            "ПРОВЕДЕНИЕ АТАКИ 10 / Атака против гарнизона: the attacker goes straight into melee, the 2D6 "
            "procedure is skipped; the melee chapter (9) is not in the text, the umpire resolves it"
        )
    a_sup = {
        s: p for s, p in dict(decl.get("positions", {})).items() if s in state.units and not p.startswith("refused")
    }
    # a support whose brigade turned Faltering since the declaration no longer rerolls (З)
    a_sup = {
        s: p
        for s, p in a_sup.items()
        if not check_support(state, a, t, s, params, terrain=terrain).startswith("refused")
    }
    d_sup = defending_supports(state, t, a, params, terrain)
    in_attack = damage_in_attack(decl, a.id)  # «Урон в Атаке»: defensive fire (5 А), fire support (6), tests (7)
    a_mods = attack_modifiers(
        state, a, situation_from_positions(state, a, t, True, params, damage_in_attack=in_attack), params
    )
    d_mods = attack_modifiers(state, t, situation_from_positions(state, t, a, False, params), params)
    att = Side(a, a_sup, _penalties(state, list(a_sup), t, params), tuple(a_mods))
    dfn = Side(t, d_sup, _penalties(state, list(d_sup), a, params), tuple(d_mods))
    return att, dfn, decl


@lru_cache(maxsize=256)
def natural_distribution(penalties: tuple[int, ...], below: int) -> tuple[tuple[int, Fraction], ...]:
    """Exact distribution of a side's 2D6 after its rerolls: while the lowest die shows less
    than ``below`` and a reroll is left, reroll it (next penalty, result at least 1)."""
    dist: dict[int, Fraction] = {}

    def walk(d: tuple[int, int], pens: tuple[int, ...], p: Fraction) -> None:
        lo = min(d)
        if not pens or lo >= below:
            dist[d[0] + d[1]] = dist.get(d[0] + d[1], Fraction(0)) + p
            return
        keep = max(d)
        for f in range(1, 7):
            walk((keep, max(1, f + pens[0])), pens[1:], p / 6)

    for a in range(1, 7):
        for b in range(1, 7):
            walk((a, b), penalties, Fraction(1, 36))
    return tuple(sorted(dist.items()))


def difference_distribution(att: Side, dfn: Side, a_below: int, d_below: int) -> dict[int, Fraction]:
    """Exact distribution of attacker total − defender total."""
    out: dict[int, Fraction] = {}
    for x, px in natural_distribution(att.penalties, a_below):
        for y, py in natural_distribution(dfn.penalties, d_below):
            k = (x + att.modifier) - (y + dfn.modifier)
            out[k] = out.get(k, Fraction(0)) + px * py
    return out


def attack_spec(state: GameState, params: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered in the attacks phase to a unit of this side that declared an attack this turn."""
    if state.phase != "attacks":
        return None
    u = _own_unit(state, subject)
    if u is None:
        return None
    decl = attack_of(state, u.id)
    if decl is None:
        return None
    stage = decl.get("stage")
    why = {
        "declared": "",
        "closed": "",
        "abandoned": f"{u.name or u.id}'s attack was abandoned: the target was out of reach (ПРОЦЕДУРА АТАКИ 4)",
        "repulsed": f"{u.name or u.id} retreated at its Discipline Test: no melee (ПРОВЕДЕНИЕ АТАКИ 7)",
        "cancelled": f"{u.name or u.id}'s attack was cancelled: its target was out of reach (ПРОЦЕДУРА АТАКИ 1)",
        "turned": f"{u.name or u.id} wheeled and could not reach its target: cancelled (ПРОЦЕДУРА АТАКИ 2)",
    }.get(str(stage), f"{u.name or u.id} has already rolled its attack this turn")
    return ActionSpec(
        "attack",
        f"Attack {decl['target']}",
        term="Проведение атаки",
        rule=ATTACK_RULE,
        parameters=(
            ParameterSpec(
                "reroll_below",
                "int",
                required=False,
                minimum=0,
                maximum=7,
                label="Attacker rerolls his lowest die while it shows less than (0 = no rerolls)",
            ),
            ParameterSpec(
                "defender_reroll_below",
                "int",
                required=False,
                minimum=0,
                maximum=7,
                label="Defender rerolls his lowest die while it shows less than",
            ),
        ),
        unavailable=why,
    )


def _belows(request: ActionRequest) -> tuple[int, int]:
    try:
        return int(request.parameters.get("reroll_below", 0)), int(request.parameters.get("defender_reroll_below", 0))
    except (TypeError, ValueError):
        raise RuleRefused("reroll_below and defender_reroll_below are faces 0-7") from None


def _describe(side: Side, who: str) -> str:
    mods = ", ".join(f"{m.value:+d} {m.source}" for m in side.modifiers if m.value) or "none"
    sup = ", ".join(f"{s} ({p})" for s, p in side.supports.items()) or "none"
    pens = ", ".join("−1" if p else "0" for p in side.penalties)
    return f"{who} {side.unit.name or side.unit.id}: 2D6 {side.modifier:+d} (modifiers: {mods}); supports {sup}" + (
        f", rerolls at {pens}" if side.penalties else ", no rerolls"
    )


def attack_preview(state: GameState, request: ActionRequest, params: RuleParameters) -> ActionPreview:
    att, dfn, _ = sides_of(state, request.subject, params, request.terrain)
    a_below, d_below = _belows(request)
    dist = difference_distribution(att, dfn, a_below, d_below)
    higher = sum((p for k, p in dist.items() if k > 0), Fraction(0))
    tie = dist.get(0, Fraction(0))
    text = (
        f"{_describe(att, 'Attacker')}. {_describe(dfn, 'Defender')}. The difference of the totals goes to the "
        f"Attack Results table ({RESULT_TABLE}). {ATTACK_RULE}."
    )
    return ActionPreview(
        "attack",
        request.subject,
        True,
        explanation=text,
        odds=(
            ("attacker's total higher", higher),
            ("totals equal", tie),
            ("defender's total higher", 1 - higher - tie),
            ("a clean double six for one side (Fate test)", Fraction(1, 36)),
        ),
        outcomes=tuple((f"difference {k:+d}", p) for k, p in sorted(dist.items())),
        assumed=tuple(params.assumptions()),
    )


def _roll_side(side: Side, who: str, base: str, below: int, dice: DiceSource) -> tuple[int, list[RollRecord], bool]:
    """Roll one side's 2D6 and its rerolls; (natural after rerolls, records, clean double six)."""
    first = dice.roll(f"{base}:{who}", TWO_D6)
    recs = [
        RollRecord(
            f"{base}:{who}",
            f"Attack roll, {who} {side.unit.name or side.unit.id}",
            TWO_D6,
            first,
            side.modifiers,
            outcome="table roll (Attack Results)",
        )
    ]
    faces = [first[0], first[1]]
    for i, pen in enumerate(side.penalties):
        lo = min(range(2), key=lambda j: faces[j])
        if faces[lo] >= below:
            break
        face = dice.roll(f"{base}:{who}:reroll{i + 1}", D6)[0]
        new = max(1, face + pen)
        recs.append(
            RollRecord(
                f"{base}:{who}:reroll{i + 1}",
                f"Support reroll {i + 1} of the {who}'s {faces[lo]}" + (" at −1, minimum 1" if pen else ""),
                D6,
                (face,),
                (Modifier(pen, "support reroll penalty (Выгоды)"),) if pen else (),
                outcome=f"the die now reads {new} and must be kept",
            )
        )
        faces[lo] = new
    return faces[0] + faces[1], recs, first == (6, 6)


def attack_resolve(state: GameState, request: ActionRequest, params: RuleParameters, dice: DiceSource) -> ActionOutcome:
    att, dfn, decl = sides_of(state, request.subject, params, request.terrain)
    a_below, d_below = _belows(request)
    base = f"gda-attack:{att.unit.id}:{dfn.unit.id}:t{state.turn}"
    xa, ra, six_a = _roll_side(att, "attacker", base, a_below, dice)
    earlier = [
        (uid, v)
        for uid, v in attacks_on(state, dfn.unit.id, att.unit.side).items()
        if uid != att.unit.id and "defender_natural" in v
    ]
    if earlier:  # «обороняющийся бросает один раз»: his roll stands against every attacker
        rd: list[RollRecord] = []
        xd, six_d = int(earlier[0][1]["defender_natural"]), False
    else:
        xd, rd, six_d = _roll_side(dfn, "defender", base, d_below, dice)
    ta, td = xa + att.modifier, xd + dfn.modifier
    diff = ta - td
    fate = [w for w, six in (("attacker", six_a), ("defender", six_d)) if six]
    roll = {
        "attacker_total": ta,
        "defender_total": td,
        "difference": diff,
        "defender_natural": xd,
        "attacker_modifier": att.modifier,
        "defender_modifier": dfn.modifier,
        "fate_test": fate,
    }
    text = (
        f"{_describe(att, 'Attacker')}: {xa} {att.modifier:+d} = {ta}. {_describe(dfn, 'Defender')}: {xd} "
        f"{dfn.modifier:+d} = {td}. Difference {diff:+d} for the Attack Results table ({RESULT_TABLE})."
        f" Dice: {'; '.join(r.explain() for r in (*ra, *rd))}."
    )
    if earlier:
        text += (
            f" Several separate attacks on {dfn.unit.id}: the defender rolled once ({xd}, against "
            f"{earlier[0][0]}) and that roll stands against this attacker too; the best attack counts."
        )
    if fate:
        text += (
            f" A clean double six for the {' and '.join(fate)}: a Fate test is due now (Двойная «6»; Fate table lost)."
        )
    melee = Melee(
        state.turn,
        state.side,
        state.phase,
        attackers=(att.unit.id, *att.supports),
        defenders=(dfn.unit.id, *dfn.supports),
        winner="",
        roll=roll,
        explanation=text,
    )
    value = {
        **dict(decl),
        "stage": "rolled",
        "positions": dict(att.supports),
        "defending_supports": dict(dfn.supports),
        **roll,
    }
    flag = CommandStateChanged(
        state.turn, state.side, state.phase, subject=att.unit.id, state=ATTACK_FLAG, value=value, reason="attack rolled"
    )
    return ActionOutcome(
        "resolved", text + f" {ATTACK_RULE}.", (melee, flag), tuple(ra + rd), tuple(params.assumptions())
    )


HANDLERS = (ActionHandler("attack", attack_spec, attack_preview, attack_resolve),)

__all__ = ["ATTACK_FLAG", "RESULT_TABLE", "UNIT_RESULTS", "attack_of", "attacks_on", "declared_this_turn"]
