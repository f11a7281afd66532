"""General d'Armée brigade states that follow their units (Бригадное Командное состояние).

After an action changes units (an attack result, a rally) ``follow_units`` gives the brigade
events the seed attaches to the units' new states:

* ДРОГНУВШИЕ: «Бригада считается Дрогнувшей, если в ней два и более подразделений пехоты в
  Сомкнутом Строю отступают, или одно (любое) подразделение бежит или Рассеяно» — Faltering;
* Командная Ситуация деморализованной Бригады: «Как только более 50% подразделений Бригады
  Рассеиваются, она становится Деморализованной»; «Элитные Бригады никогда не становятся
  Деморализованными», judged on the brigade as formed (its dispersed units' grades are kept in
  the brigade's status, ``BrigadeStatus.dispersed_grades``);
* «Не проводите броска, если деморализованная Бригада Дрогнула – такие Бригады немедленно
  рассеиваются и теряют своего адъютанта» — a Demoralised Faltering brigade disperses at once.

Events are ``flow_events.UnitRemoved`` (dispersal) and ``order_events.CommandStateChanged``
(flag ``gda:<brigadier>``), stamped with the state's turn, side and phase.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from battlestudio.model.units import Arm
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import UnitRemoved
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.gda.brigades import (
    FLAG,
    BrigadeStatus,
    CommandState,
    UnitState,
    brigade_status,
    demoralised_verdict,
    grade_of,
    graded_units,
    is_brigade,
    members,
    unit_state,
)
from battlestudio.rules.gda.geometry import is_close_order
from battlestudio.rules.params import RuleParameters, RuleRefused


def apply_events(state: GameState, events: Iterable[BattleEvent]) -> GameState:
    """``state`` after ``events`` (each event's own ``apply``)."""
    for e in events:
        state = e.apply(state)
    return state


def faltering_cause(state: GameState, brigade: str, newly_broken: Sequence[str] = ()) -> str:
    """Why the brigade's units make it Faltering now ("" when they do not): two or more
    close-order infantry units retreating, any unit routing, or ``newly_broken`` (units of
    the brigade that routed or were dispersed by the action just resolved). ДРОГНУВШИЕ."""
    present = members(state, brigade).present
    retreating = [
        u.id for u in present if u.arm is Arm.INFANTRY and is_close_order(u) and unit_state(u) is UnitState.RETREATING
    ]
    routing = [u.id for u in present if unit_state(u) is UnitState.ROUTING]
    mine = set(state.oob.subordinates(brigade))
    broken = [u for u in newly_broken if u in mine]
    if routing:
        return f"{', '.join(routing)} routs («одно (любое) подразделение бежит»)"
    if broken:
        return f"{', '.join(broken)} is dispersed («или Рассеяно»)"
    if len(retreating) >= 2:
        return (
            f"{len(retreating)} close-order infantry units retreat ({', '.join(retreating)}; "
            "«два и более подразделений пехоты в Сомкнутом Строю отступают»)"
        )
    return ""


def demoralised_cause(state: GameState, brigade: str, params: RuleParameters) -> str:
    """Why the brigade becomes Demoralised now ("" when it does not or already is):
    ``brigades.demoralised_verdict``."""
    if brigade_status(state, brigade).demoralised:
        return ""
    yes, why = demoralised_verdict(state, brigade, params)
    return why if yes else ""


def dispersal_grades(
    state: GameState, brigade: str, unit_ids: Iterable[str], params: RuleParameters
) -> tuple[str, ...]:
    """Grades of ``unit_ids`` (of ``brigade``) to keep in its status when they disperse."""
    out: list[str] = []
    for uid in unit_ids:
        u = state.units.get(uid)
        if u is not None and state.oob.superior(uid) == brigade and graded_units([u], params):
            try:
                out.append(grade_of(u, params).value)
            except RuleRefused:
                continue
    return tuple(out)


def follow_units(
    before: GameState,
    after: GameState,
    brigades: Iterable[str],
    newly_broken: Sequence[str],
    params: RuleParameters,
) -> tuple[list[BattleEvent], list[str]]:
    """The brigade events that follow the units' states in ``after`` (``before`` is the state
    the action started from, for the grades of units it dispersed), with a sentence for each.
    ``newly_broken`` are the units the action routed or dispersed."""
    turn, side, phase = after.turn, after.side, after.phase
    events: list[BattleEvent] = []
    notes: list[str] = []
    for b in dict.fromkeys(brigades):
        if b not in after.commanders or not is_brigade(after, b, params):
            continue
        old = brigade_status(after, b)
        gone = [u for u in newly_broken if u in before.units and u not in after.units]
        status = old.evolve(dispersed_grades=old.dispersed_grades + dispersal_grades(before, b, gone, params))
        name = after.commanders[b].name or b
        probe = after if status == old else apply_events(after, [_changed(after, b, status, "")])
        why = faltering_cause(probe, b, newly_broken)
        if why and status.state is not CommandState.FALTERING:
            status = status.evolve(state=CommandState.FALTERING, state_turn=turn)
            notes.append(f"{name} is Faltering: {why} (ДРОГНУВШИЕ)")
        probe = apply_events(after, [_changed(after, b, status, "")])
        dem = demoralised_cause(probe, b, params)
        if dem:
            status = status.evolve(demoralised=True)
            notes.append(f"{name} is Demoralised: {dem} (Командная Ситуация деморализованной Бригады)")
        if status.demoralised and status.state is CommandState.FALTERING:
            present = members(probe, b).present
            grades = dispersal_grades(probe, b, [u.id for u in present], params)
            events += [
                UnitRemoved(turn, side, phase, id=u.id, reason="Demoralised brigade Faltering: disperses")
                for u in present
            ]
            status = status.evolve(adc_lost=True, tasks=(), dispersed_grades=status.dispersed_grades + grades)
            if present:
                notes.append(
                    f"{name} is Demoralised and Faltering: every remaining unit disperses at once and the brigade "
                    "loses its ADC («такие Бригады немедленно рассеиваются и теряют своего адъютанта»)"
                )
        if status != old:
            events.append(_changed(after, b, status, "; ".join(n for n in notes if n.startswith(name)) or "units"))
    return events, notes


def _changed(state: GameState, brigade: str, status: BrigadeStatus, reason: str) -> CommandStateChanged:
    return CommandStateChanged(
        state.turn, state.side, state.phase, subject=brigade, state=FLAG, value=status.to_value(), reason=reason
    )
