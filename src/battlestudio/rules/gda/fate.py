"""General d'Armée: the Fate test of a clean double six (ТАБЛИЦА «РЕЗУЛЬТАТЫ АТАКИ», Двойная «6»).

``fate_test``: «Любой не модифицированный, чистый дубль 6-ок, требует от игрока провести проверку
Судьбы (по таблице) и немедленно применить результаты». The Fate table is lost (scenario
parameter ``fate_table`` missing): the umpire enters its result for the side's leading unit.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping, Sequence


from battlestudio.replay.events import BattleEvent
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.gda.events import DamageTaken
from battlestudio.rules.gda.declaration import UNIT_RESULTS, attack_flag_event
from battlestudio.rules.gda.results import damage_fields, entered_damage, unit_events
from battlestudio.rules.protocol import ParameterSpec
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.gda.declaration import declared_attack as _declared
from battlestudio.rules.gda.results import brigades_follow as _brigades_follow


FATE = "Fate table (lost; digest Missing piece 4), scenario parameter gda.fate_table"


def _supports(state: GameState, decl: Mapping[str, Any], sides: Sequence[str]) -> list[str]:
    """The supporting units of the ``sides`` ("attacker", "defender") still on the table."""
    keys = {"attacker": "positions", "defender": "defending_supports"}
    return [u for w in sides for u in dict(decl.get(keys[w], {})) if u in state.units]


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
            *damage_fields(_supports(state, decl, due), "supporting unit"),
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
    more, support_damage = entered_damage(state, entry, _supports(state, decl, [who]), "Fate test")
    events += more
    events += unit_events(state, [unit.id], result, "Fate test")
    events += _brigades_follow(state, events, [unit.id, *support_damage], params)
    events.append(attack_flag_event(state, a.id, decl, "Fate test taken", fate_done=[*decl.get("fate_done", ()), who]))
    text = f"Fate test for the {who} ({unit.id}): {result}, {damage} damage, entered by the umpire ({FATE})."
    if support_damage:
        text += " Damage to the supports: " + ", ".join(f"{u} {n}" for u, n in support_damage.items()) + "."
    return ActionOutcome("resolved", text, tuple(events), assumed=tuple(params.assumptions()))


HANDLERS = (ActionHandler("fate_test", fate_spec, fate_preview, fate_resolve),)
