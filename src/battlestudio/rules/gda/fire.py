"""General d'Armée defensive fire at an attack (ПРОВЕДЕНИЕ АТАКИ 5 А).

«Обороняющееся подразделение, а так же вся доступная поддержка сейчас могут провести стрельбу
по атакующему их неприятелю. Большинство потерь, нанесенных огнем, придется на ведущее атаку
подразделение, дополнительный урон пойдет по поддержке. Пример: если было нанесено три единицы
урона, ведущее подразделение получает два. Если поддержка не может быть обстреляна (например,
тыловая), то весь урон идет в ведущее подразделение.»

The fire rules themselves (ranges, volleys, fire dice) are not in the text (digest Missing
piece 10): the umpire enters the damage the target and its supports inflict, and the action
splits it as the seed says — the leader takes the majority (``fire_damage_split``, assumed
"majority": floor(n/2) + 1, Ambiguity 21; "leader" puts it all on the leader), the rest goes
to the flank supports in turn; a rear support cannot be fired at. The damage is recorded as
``events.DamageTaken`` with a ``combat_events.Fired`` and counts as «Урон в Атаке» for the
leader's attack roll (``melee.sides_of``).
"""

from __future__ import annotations

from battlestudio.replay.combat_events import Fired
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.gda.events import DamageTaken
from battlestudio.rules.gda.declaration import attack_flag_event, attack_of
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec

RULE = "ПРОВЕДЕНИЕ АТАКИ 5 А: «Большинство потерь, нанесенных огнем, придется на ведущее атаку подразделение»"
FIRE_TABLE = "fire rules (ranges, volleys, fire dice) not in the text; digest Missing piece 10"


def split_damage(points: int, leader: str, supports: dict[str, str], params: RuleParameters) -> dict[str, int]:
    """Damage per unit: the leader's share by ``fire_damage_split``, the rest over the flank
    supports in turn (a rear support cannot be fired at; with none, all on the leader).

    Raises
    ------
    RuleRefused
        for a negative number of points or an unknown split rule.
    """
    if points < 0:
        raise RuleRefused("damage points cannot be negative")
    rule = str(params.get("fire_damage_split"))
    flanks = [s for s, pos in supports.items() if pos in ("left", "right")]
    if rule == "majority":
        lead = min(points, points // 2 + 1) if flanks else points
    elif rule == "leader":
        lead = points
    else:
        raise RuleRefused(f"unknown fire_damage_split {rule!r} (majority or leader)")
    out = {leader: lead}
    for i in range(points - lead):
        s = flanks[i % len(flanks)]
        out[s] = out.get(s, 0) + 1
    return out


def fire_spec(state: GameState, params: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered in the attacks phase for an attack of this side declared and not yet rolled
    (ПРОВЕДЕНИЕ АТАКИ 5 А: the defender fires at 5 cm)."""
    if state.phase != "attacks":
        return None
    u = state.units.get(subject)
    decl = attack_of(state, subject) if u is not None and u.side == state.side else None
    if decl is None or decl.get("stage") not in ("declared", "closed"):
        return None
    done = "fire_damage" in decl
    return ActionSpec(
        "defensive_fire",
        f"Defensive fire of {decl['target']} and its supports",
        term="Обороняющийся стреляет",
        rule=RULE,
        umpire_table=FIRE_TABLE,
        umpire_result=(
            ParameterSpec("damage", "int", minimum=0, maximum=20, label="Damage points the defenders' fire inflicts"),
        ),
        unavailable="the defenders have fired at this attack" if done else "",
    )


def _damage(request: ActionRequest) -> int:
    try:
        return int((request.umpire_result or {}).get("damage", 0))
    except (TypeError, ValueError):
        raise RuleRefused("damage must be a whole number of damage points") from None


def fire_preview(state: GameState, request: ActionRequest, params: RuleParameters) -> ActionPreview:
    decl = attack_of(state, request.subject)
    assert decl is not None
    n = _damage(request)
    split = split_damage(n, request.subject, dict(decl.get("positions", {})), params)
    return ActionPreview(
        "defensive_fire",
        request.subject,
        True,
        explanation=f"{n} damage split {split} ({RULE}; {FIRE_TABLE}).",
        umpire_entry=True,
        assumed=tuple(params.assumptions()),
    )


def fire_resolve(state: GameState, request: ActionRequest, params: RuleParameters, dice: DiceSource) -> ActionOutcome:
    decl = attack_of(state, request.subject)
    assert decl is not None
    n = _damage(request)
    split = split_damage(n, request.subject, dict(decl.get("positions", {})), params)
    t, s, p = state.turn, state.side, state.phase
    target = str(decl["target"])
    text = f"Defensive fire of {target}: {n} damage, " + ", ".join(f"{u} {d}" for u, d in split.items()) + f" ({RULE})."
    ev: list[BattleEvent] = [
        Fired(t, s, p, unit=target, target=request.subject, result=f"{n} damage", explanation=text)
    ]
    ev += [DamageTaken(t, s, p, unit=u, points=d, cause="defensive fire") for u, d in split.items() if d]
    ev.append(attack_flag_event(state, request.subject, decl, "defensive fire", fire_damage=split))
    return ActionOutcome("resolved", text, tuple(ev), assumed=tuple(params.assumptions()))


HANDLERS = (ActionHandler("defensive_fire", fire_spec, fire_preview, fire_resolve),)
