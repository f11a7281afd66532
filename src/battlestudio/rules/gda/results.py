"""General d'Armée attack results (ТАБЛИЦА «РЕЗУЛЬТАТЫ АТАКИ»; ПРОВЕДЕНИЕ АТАКИ 9).

``attack_result`` (phase ``attacks``): the Attack Results table is not in the text («сверяются
с таблицей» — the table itself is lost), so the result by difference comes from the scenario
parameter ``attack_results`` (status "missing") or is entered by the umpire; it is applied «ко
всем подразделениям, вовлеченным в атаку»: damage as ``events.DamageTaken``, the unit states
(unformed, retreating, routing) as ``flow_events.OrderStateChanged``, dispersal as
``flow_events.UnitRemoved``, then both brigades' states follow (``states.follow_units``).
With several separate attacks on one target the result waits until every one is rolled and
the best is applied to every attacker.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Mapping, Sequence

from battlestudio.model.units import Unit
from battlestudio.replay.combat_events import Melee
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import OrderStateChanged, UnitRemoved
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.actions import ActionHandler, ActionOutcome, ActionPreview, ActionRequest, ActionSpec
from battlestudio.rules.dice import DiceSource
from battlestudio.rules.gda.attacks import brigade_of
from battlestudio.rules.gda.brigades import UnitState, unit_state
from battlestudio.rules.gda.events import DamageTaken
from battlestudio.rules.gda.declaration import (
    ATTACK_FLAG,
    RESULT_TABLE,
    UNIT_RESULTS,
    _own_unit,
    attack_flag_event,
    attack_of,
    attacks_on,
)
from battlestudio.rules.gda.states import apply_events, follow_units
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import ParameterSpec


def _table_row(params: RuleParameters, diff: int) -> Mapping[str, Any] | None:
    """The scenario's row of the Attack Results table for ``diff`` (None: not supplied).

    ``attack_results`` is a list of rows ``{"min": d, "max": d, "winner": ..., "attacker": ...,
    "defender": ..., "attacker_damage": n, "defender_damage": n, "attacker_support_damage": n,
    "defender_support_damage": n}`` (``min``/``max`` and the damage keys optional; a support
    damage goes on every supporting unit of that side).

    Raises
    ------
    RuleRefused
        when the supplied table has no row for ``diff``.
    """
    found = params.lookup("attack_results", "gda.attack_results")
    if found is None:
        return None
    for row in found[1]:
        lo, hi = row.get("min"), row.get("max")
        if (lo is None or diff >= int(lo)) and (hi is None or diff <= int(hi)):
            return dict(row)
    raise RuleRefused(f"the scenario's attack_results has no row for a difference of {diff:+d}")


def result_spec(state: GameState, params: RuleParameters, subject: str) -> ActionSpec | None:
    """Offered in the attacks phase to a unit whose attack is rolled and not yet applied."""
    if state.phase != "attacks":
        return None
    u = _own_unit(state, subject)
    decl = attack_of(state, subject) if u is not None else None
    if decl is None or decl.get("stage") != "rolled":
        return None
    supplied = params.lookup("attack_results", "gda.attack_results") is not None
    assert u is not None
    return ActionSpec(
        "attack_result",
        f"Apply the attack result (difference {int(decl['difference']):+d})",
        unavailable=_not_best(state, u, decl),
        term="Результаты Атаки",
        rule="ТАБЛИЦА «РЕЗУЛЬТАТЫ АТАКИ»; ПРОВЕДЕНИЕ АТАКИ 9: «Результаты применяются немедленно»",
        umpire_table="" if supplied else RESULT_TABLE,
        umpire_result=(
            ParameterSpec("winner", "choice", choices=("attacker", "defender", "draw"), label="Winner"),
            ParameterSpec("attacker", "choice", choices=UNIT_RESULTS, label="Attacking units"),
            ParameterSpec("defender", "choice", choices=UNIT_RESULTS, label="Defending units"),
            ParameterSpec(
                "attacker_damage", "int", required=False, minimum=0, maximum=20, label="Damage, leading attacker"
            ),
            ParameterSpec(
                "defender_damage", "int", required=False, minimum=0, maximum=20, label="Damage, leading defender"
            ),
            ParameterSpec(
                "attacker_support_damage", "int", required=False, minimum=0, maximum=20, label="Damage, each support"
            ),
            ParameterSpec(
                "defender_support_damage",
                "int",
                required=False,
                minimum=0,
                maximum=20,
                label="Damage, each defending support",
            ),
            *damage_fields([s for s in dict(decl.get("positions", {})) if s in state.units], "attacking support"),
            *damage_fields(
                [s for s in dict(decl.get("defending_supports", {})) if s in state.units], "defending support"
            ),
        ),
    )


def _group(state: GameState, leader: str) -> dict[str, Mapping[str, Any]]:
    decl = attack_of(state, leader)
    assert decl is not None
    return attacks_on(state, str(decl["target"]), state.units[leader].side)


def _not_best(state: GameState, u: Unit, decl: Mapping[str, Any]) -> str:
    """Why ``u``'s rolled attack does not apply the result ("" when it does): another attack on
    the same target is still to be rolled, or another attacker rolled better (the best counts)."""
    group = {k: v for k, v in _group(state, u.id).items() if v.get("stage") in ("declared", "closed", "rolled")}
    waiting = sorted(k for k, v in group.items() if v.get("stage") in ("declared", "closed"))
    if waiting:
        return (
            f"roll every attack on {decl['target']} first ({', '.join(waiting)}): with several separate attacks "
            "on one target the best result counts"
        )
    best = max(group, key=lambda k: (int(group[k]["difference"]), k == u.id))
    if best != u.id:
        return (
            f"{best}'s attack on {decl['target']} is the best ({int(group[best]['difference']):+d} against "
            f"{int(decl['difference']):+d}): its result is applied to every attacker"
        )
    return ""


def _entry(state: GameState, request: ActionRequest, params: RuleParameters) -> tuple[dict[str, Any], str]:
    decl = attack_of(state, request.subject)
    assert decl is not None
    if request.umpire_result is not None:
        row, source = dict(request.umpire_result), "entered by the umpire (the table is not in the text)"
    else:
        table = _table_row(params, int(decl["difference"]))
        if table is None:
            raise RuleRefused(f"{RESULT_TABLE} is not supplied; enter the table's result")
        row, source = dict(table), "scenario parameter attack_results"
    if row.get("winner") not in ("attacker", "defender", "draw"):
        raise RuleRefused(f"winner must be attacker, defender or draw, not {row.get('winner')!r}")
    for k in ("attacker", "defender"):
        if row.get(k, "stands") not in UNIT_RESULTS:
            raise RuleRefused(f"{k}: {row.get(k)!r} is not one of {', '.join(UNIT_RESULTS)}")
        try:
            dmg = int(row.get(f"{k}_damage", 0) or 0)
        except (TypeError, ValueError):
            raise RuleRefused(f"{k}_damage must be a whole number of damage points") from None
        if dmg < 0:
            raise RuleRefused(f"{k}_damage cannot be negative")
        row[f"{k}_damage"] = dmg
    return row, source


def result_preview(state: GameState, request: ActionRequest, params: RuleParameters) -> ActionPreview:
    decl = attack_of(state, request.subject)
    assert decl is not None
    try:
        row, source = _entry(state, request, params)
    except RuleRefused as exc:
        return ActionPreview(
            "attack_result",
            request.subject,
            True,
            str(exc),
            f"Difference {int(decl['difference']):+d}: {RESULT_TABLE}.",
            umpire_entry=True,
        )
    return ActionPreview(
        "attack_result",
        request.subject,
        True,
        explanation=f"Difference {int(decl['difference']):+d}, result {source}: {row}.",
        umpire_entry=request.umpire_result is not None,
    )


def unit_events(state: GameState, ids: Sequence[str], result: str, why: str) -> list[BattleEvent]:
    out: list[BattleEvent] = []
    for uid in ids:
        if uid not in state.units or result == "stands":
            continue
        if result == "dispersed":
            out.append(UnitRemoved(state.turn, state.side, state.phase, id=uid, reason=f"{why}: dispersed"))
        elif unit_state(state.units[uid]).value != result:
            out.append(OrderStateChanged(state.turn, state.side, state.phase, unit=uid, state=result, reason=why))
    return out


def damage_fields(ids: Sequence[str], what: str) -> tuple[ParameterSpec, ...]:
    """One optional damage field ``damage:<id>`` for each unit in ``ids``: what a lost table
    (Attack Results, Fate, Discipline) does to each supporting unit, entered by the umpire."""
    return tuple(
        ParameterSpec(f"damage:{u}", "int", required=False, minimum=0, maximum=20, label=f"Damage, {what} {u}")
        for u in ids
    )


def entered_damage(
    state: GameState, entry: Mapping[str, Any], ids: Sequence[str], cause: str
) -> tuple[list[BattleEvent], dict[str, int]]:
    """The ``DamageTaken`` events of the umpire's ``damage:<id>`` entries for ``ids`` (units
    still on the table) and the points by unit.

    Raises
    ------
    RuleRefused
        for an entry that is not a whole number, a negative one, or one for a unit not in
        ``ids``.
    """
    extra = sorted(k[7:] for k in entry if k.startswith("damage:") and k[7:] not in ids)
    if extra:
        raise RuleRefused(f"damage entered for {', '.join(extra)}, which is not in this attack")
    events: list[BattleEvent] = []
    points: dict[str, int] = {}
    for uid in ids:
        try:
            n = int(entry.get(f"damage:{uid}") or 0)
        except (TypeError, ValueError):
            raise RuleRefused(f"damage:{uid} must be a whole number of damage points") from None
        if n < 0:
            raise RuleRefused(f"damage:{uid} cannot be negative")
        if n and uid in state.units:
            events.append(DamageTaken(state.turn, state.side, state.phase, unit=uid, points=n, cause=cause))
            points[uid] = n
    return events, points


def brigades_follow(
    state: GameState, events: list[BattleEvent], ids: list[str], params: RuleParameters
) -> list[BattleEvent]:
    """The brigade events that follow ``ids``' new states after ``events`` (``states.follow_units``):
    a unit newly routing or dispersed, two retreating battalions (ДРОГНУВШИЕ)."""
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


def _whole(row: Mapping[str, Any], key: str) -> int:
    """``row[key]`` as a whole number of damage points (0 when absent).

    Raises
    ------
    RuleRefused
        when it is not a whole number or is negative.
    """
    try:
        n = int(row.get(key) or 0)
    except (TypeError, ValueError):
        raise RuleRefused(f"{key} must be a whole number of damage points") from None
    if n < 0:
        raise RuleRefused(f"{key} cannot be negative")
    return n


def result_resolve(state: GameState, request: ActionRequest, params: RuleParameters, dice: DiceSource) -> ActionOutcome:
    decl = attack_of(state, request.subject)
    assert decl is not None
    row, source = _entry(state, request, params)
    group = {k: v for k, v in _group(state, request.subject).items() if v.get("stage") == "rolled"}
    others = [k for k in group if k != request.subject]
    attackers = [request.subject, *dict(decl.get("positions", {}))]
    for k in others:  # several separate attacks on one target: the best result for them all
        attackers += [k, *dict(group[k].get("positions", {}))]
    defenders = [str(decl["target"]), *dict(decl.get("defending_supports", {}))]
    diff = int(decl["difference"])
    why = f"Attack Results, difference {diff:+d}"
    turn, side, phase = state.turn, state.side, state.phase
    events: list[BattleEvent] = [
        Melee(
            turn,
            side,
            phase,
            attackers=tuple(a for a in attackers if a in state.units),
            defenders=tuple(d for d in defenders if d in state.units),
            winner=str(row["winner"]),
            roll={k: decl[k] for k in ("attacker_total", "defender_total", "difference")},
            explanation=f"{why}: {row['winner']} ({source})",
        )
    ]
    for lead, key in ((attackers[0], "attacker"), (defenders[0], "defender")):
        dmg = int(row[f"{key}_damage"])
        if dmg and lead in state.units:
            events.append(DamageTaken(turn, side, phase, unit=lead, points=dmg, cause=why))
    supports = [u for u in attackers[1:] + defenders[1:] if u in state.units]
    a_sup = [u for u in dict(decl.get("positions", {})) if u in state.units]
    for k in others:
        a_sup += [u for u in dict(group[k].get("positions", {})) if u in state.units]
    for key, ids in (("attacker", a_sup), ("defender", defenders[1:])):
        each = _whole(row, f"{key}_support_damage")
        for u in ids:
            if each and not row.get(f"damage:{u}"):
                row[f"damage:{u}"] = each  # «ко всем подразделениям»: every support of the side
    more, support_damage = entered_damage(state, row, supports, why)
    events += more
    events += unit_events(state, attackers, str(row.get("attacker", "stands")), why)
    events += unit_events(state, defenders, str(row.get("defender", "stands")), why)
    after = apply_events(state, events)
    broken = [
        u
        for u in attackers + defenders
        if u in state.units
        and (u not in after.units or unit_state(after.units[u]) is UnitState.ROUTING)
        and unit_state(state.units[u]) is not UnitState.ROUTING
    ]
    brigades = [b for b in (brigade_of(state, u) for u in attackers + defenders) if b]
    follow, notes = follow_units(state, after, brigades, broken, params)
    events += follow
    events.append(
        attack_flag_event(state, request.subject, decl, "attack result applied", stage="applied", winner=row["winner"])
    )
    events += [
        CommandStateChanged(
            turn,
            side,
            phase,
            subject=k,
            state=ATTACK_FLAG,
            value={**dict(group[k]), "stage": "applied", "winner": row["winner"], "best": request.subject},
            reason=f"attack result applied: {request.subject}'s was the best on {decl['target']}",
        )
        for k in others
    ]
    text = (
        f"{why} ({source}): {row['winner']} wins; attackers {row.get('attacker', 'stands')}"
        f" ({row['attacker_damage']} damage to the leader), defenders {row.get('defender', 'stands')}"
        f" ({row['defender_damage']} damage to the leader), applied to every unit in the attack "
        "(ПРОВЕДЕНИЕ АТАКИ 9)."
    )
    if support_damage:
        text += " Damage to the supports: " + ", ".join(f"{u} {n}" for u, n in support_damage.items()) + "."
    if others:
        text += (
            f" Several separate attacks on {decl['target']}: the best ({request.subject}'s) counts for "
            f"{', '.join(others)} too."
        )
    if notes:
        text += " " + ". ".join(notes) + "."
    return ActionOutcome("resolved", text, tuple(events), assumed=tuple(params.assumptions()))


HANDLERS = (ActionHandler("attack_result", result_spec, result_preview, result_resolve),)
