"""General d'Armée: the attackers' Discipline Tests at 5 cm (ПРОВЕДЕНИЕ АТАКИ 7-8).

``attack_discipline``: the leading attacker's and its supports' Discipline Tests at 5 cm. The
test's table, modifiers and outcomes are lost (digest Missing piece 3; scenario parameter
``discipline_test`` missing): the umpire enters each result. A retreating leader takes its
supports back and there is no melee; an Unformed support keeps supporting at -1; a retreating
one withdraws.
"""

from __future__ import annotations


from battlestudio.replay.events import BattleEvent
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.gda.declaration import attack_flag_event
from battlestudio.rules.gda.results import damage_fields, entered_damage, unit_events
from battlestudio.rules.protocol import ParameterSpec
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.gda.declaration import declared_attack as _declared
from battlestudio.rules.gda.results import brigades_follow as _brigades_follow
from battlestudio.rules.gda.reactions import DISCIPLINE, DISCIPLINE_RESULTS


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
    fields += damage_fields([subject, *sorted(s for s in positions if s in state.units)], "Discipline Test,")
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
    more, damage = entered_damage(state, entry, [i for i in ids if i in state.units], "Discipline Test")
    events = more + events
    if damage:
        notes.append("damage " + ", ".join(f"{u} {n}" for u, n in damage.items()))
    taken = dict(decl.get("discipline_damage", {}))
    for u, n in damage.items():
        taken[u] = taken.get(u, 0) + n
    events += _brigades_follow(state, events, [i for i in ids if i in state.units], params)
    events.append(
        attack_flag_event(
            state,
            a.id,
            decl,
            "attackers' Discipline Tests",
            stage=stage,
            positions=positions,
            discipline_taken=True,
            discipline_damage=taken,
        )
    )
    text = f"Discipline Tests at 5 cm, entered by the umpire ({DISCIPLINE}): " + "; ".join(notes) + "."
    return ActionOutcome("resolved", text, tuple(events), assumed=tuple(params.assumptions()))


HANDLERS = (ActionHandler("attack_discipline", discipline_spec, discipline_preview, discipline_resolve),)
