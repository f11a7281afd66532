"""General d'Armée brigade command roll, the Faltering Brigade table and what each state forbids.

Every brigade rolls one D6 every turn (digest §2.1): a standard brigade obeys on 3–6 and is
Hesitant on 1–2; a Demoralised one obeys on 5–6; an attached ADC (Brigade Attachment!) rerolls
a failure (example A). A Faltering brigade rolls on the Faltering Brigade table by its averaged
quality instead (§3, example В); a Demoralised brigade that is Faltering disperses with no roll.
Everything returns events; nothing here mutates a state.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from collections.abc import Mapping, Sequence

from battlestudio.model.orders import OrderStatus
from battlestudio.model.terrain import TerrainFeature
from battlestudio.model.units import Arm, Subtype, Unit
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import OrderStateChanged, UnitRemoved
from battlestudio.replay.order_events import CommandRolled, CommandStateChanged, OrderCancelled, OrderFailed
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import DiceSource, DiceSpec, RollRecord
from battlestudio.rules.gda.brigades import (
    FLAG,
    BrigadeStatus,
    CommandState,
    Grade,
    UnitState,
    brigade_quality,
    brigade_status,
    brigades_of,
    demoralised_now,
    is_skirmisher,
    members,
    unit_state,
)
from battlestudio.rules.gda.events import DamageTaken, LowAmmunition, TaskInForce
from battlestudio.rules.gda.geometry import battery_exempt, must_retire_on_rally
from battlestudio.rules.params import RuleParameters

D6 = DiceSpec(1, 6)


class FalteringResult(StrEnum):
    """Results of the Faltering Brigade table (ТАБЛИЦА ДРОГНУВШЕЙ БРИГАДЫ)."""

    OBEYS = "obeys"
    RALLY = "rally"
    RETREAT = "retreat"
    SAUVE_QUI_PEUT = "sauve_qui_peut"

    @property
    def label(self) -> str:
        return {"obeys": "Obeys orders", "rally": "Rally", "retreat": "Retreat", "sauve_qui_peut": "Sauve qui Peut!"}[
            self.value
        ]


HESITANT_RESTRICTIONS: tuple[str, ...] = (
    "1. no attacks; cavalry may only counter-attack",
    "2. a unit that is attacked suffers -1",
    "3. no advance: no move may bring its units closer to the enemy "
    "(attacked units may wheel to face; winners may occupy the enemy's position)",
    '4. no formation change with an enemy within 15 cm [9"], except forming Square or an Unformed unit',
    "5. artillery: no long-range fire or artillery preparation; guns may wheel but not relocate",
    "6. fire straight ahead only (skirmishers exempt)",
    "7. Retreating units cannot be rallied: they stay, disordered, and take 1 more damage",
    "8. Routing units Disperse",
)
"""The restrictions of a Hesitant brigade (КОЛЕБЛЮЩАЯСЯ, Ограничения), digest §2.2."""

FALTERING_EXTRA = "supports do not count for attacks (no D6 reroll) but may give fire support"
STEADY_RESTRICTIONS = ("may not Redeploy unless an ADC has delivered a Redeploy task",)

FORBIDS: Mapping[str, tuple[str, ...]] = {
    "steady": ("redeploy",),
    "hesitant": (
        "attack",
        "advance",
        "change_formation_near_enemy",
        "long_range_fire",
        "relocate_guns",
        "fire_outside_front",
        "rally",
        "redeploy",
    ),
    "faltering": (
        "attack",
        "advance",
        "change_formation_near_enemy",
        "long_range_fire",
        "relocate_guns",
        "fire_outside_front",
        "rally",
        "support",
        "redeploy",
        "obey_orders",
    ),
}
"""Capabilities each brigade state forbids (for ``describe`` and the command view)."""


def restrictions(status: BrigadeStatus) -> tuple[str, ...]:
    """The restrictions in force for a brigade in ``status`` (digest §2.2)."""
    out: tuple[str, ...]
    if status.state is CommandState.STEADY:
        out = () if "redeploy" in status.tasks else STEADY_RESTRICTIONS
    elif status.state is CommandState.HESITANT:
        out = HESITANT_RESTRICTIONS
    else:
        out = HESITANT_RESTRICTIONS + (FALTERING_EXTRA,)
    if status.demoralised:
        out = out + ("Demoralised: obeys only on 5-6; a Faltering result disperses the brigade",)
    return out


def obey_threshold(demoralised: bool, params: RuleParameters) -> int:
    """Lowest D6 face that obeys: 3 standard, 5 Demoralised (digest §2.1)."""
    return int(params.get("obey_min_demoralised" if demoralised else "obey_min_standard"))


def faltering_result(grade: Grade, die: int, params: RuleParameters) -> FalteringResult:
    """Row ``grade`` (averaged quality), column ``die`` (1–6) of the Faltering Brigade table.
    Example В: Dullitz's Faltering brigade of 3 Line and 1 Veteran battalions averages Line and
    its 3 is Retreat.

    Raises
    ------
    ValueError
        for a die outside 1–6.
    """
    if not 1 <= die <= 6:
        raise ValueError(f"a D6 shows 1-6, got {die}")
    table: Mapping[str, Sequence[str]] = params.get("faltering_table")
    return FalteringResult(table[grade.table_row][die - 1])


def obey_probability(status: BrigadeStatus, grade: Grade | None, params: RuleParameters, reroll: bool) -> Fraction:
    """Exact chance that the brigade obeys orders this turn (ends the turn Steady).

    ``reroll`` is whether an attached ADC gives a reroll of a failed die (for a Faltering
    brigade only when ``faltering_adc_reroll``). A Faltering brigade needs ``grade``, its
    averaged quality. A Faltering Demoralised brigade disperses: 0.
    """
    if status.state is CommandState.FALTERING:
        if status.demoralised:
            return Fraction(0)
        assert grade is not None, "a Faltering brigade's odds need its averaged quality"
        p = Fraction(sum(faltering_result(grade, d, params) is FalteringResult.OBEYS for d in range(1, 7)), 6)
        reroll = reroll and bool(params.get("faltering_adc_reroll"))
    else:
        p = Fraction(7 - obey_threshold(status.demoralised, params), 6)
    return p + (1 - p) * p if reroll else p


@dataclass(frozen=True, slots=True)
class CommandRollResult:
    """Outcome of one brigade's command roll: the new ``status``, the Faltering ``result`` (if
    the table was used), the averaged ``grade`` used, ``rolls``, ``events``, ``explanation``,
    ``odds`` (exact chance of obeying before the roll), ``must_retire`` unit ids (Rally)."""

    brigade: str
    status: BrigadeStatus
    obeys: bool
    result: FalteringResult | None
    grade: Grade | None
    rolls: tuple[RollRecord, ...]
    events: tuple[BattleEvent, ...]
    explanation: str
    odds: Fraction
    must_retire: tuple[str, ...] = ()


def _pending_tasks(state: GameState, brigade: str) -> list[str]:
    return [
        oid
        for oid, o in state.orders.items()
        if o.recipient == brigade
        and o.status is OrderStatus.WRITTEN
        and o.turn_issued == state.turn
        and o.parameters.get("ruleset") == "gda"
    ]


def _attached_adc(state: GameState, brigade: str) -> bool:
    """An ADC with Brigade Attachment! is with the brigade: sent this turn, or the task is in
    force in the brigade's status (it ends with its turn unless ``adc_task_duration`` is
    ``standing``, ``end_of_turn``)."""
    if "brigade_attachment" in brigade_status(state, brigade).tasks:
        return True
    return any(
        o.recipient == brigade
        and o.order_type == "brigade_attachment"
        and o.status in (OrderStatus.WRITTEN, OrderStatus.DELIVERED)
        and o.turn_issued == state.turn
        for o in state.orders.values()
    )


def command_roll(
    state: GameState, brigade: str, params: RuleParameters, dice: DiceSource, terrain: Sequence[TerrainFeature] = ()
) -> CommandRollResult:
    """Roll the brigade's command die for this turn and return the new status with its events.

    General d'Armée, Командная Ситуация / ДРОГНУВШИЕ / ТАБЛИЦА ДРОГНУВШЕЙ БРИГАДЫ (digest §2–§3).
    ADC tasks written to the brigade this turn come into force if it obeys and fail if not.

    Raises
    ------
    RuleRefused
        for an unknown brigadier, unknown unit qualities or states.
    """
    turn, side, phase = state.turn, state.side, state.phase or "command"
    status = brigade_status(state, brigade)
    name = state.commanders[brigade].name or brigade
    events: list[BattleEvent] = []
    notes: list[str] = []
    demoralised, why = demoralised_now(state, brigade, params)
    if demoralised and not status.demoralised:
        status = status.evolve(demoralised=True)
        notes.append(f"{name} becomes Demoralised ({why})")
    pending = _pending_tasks(state, brigade)
    reroll = bool(params.get("attached_adc_reroll")) and _attached_adc(state, brigade)

    if status.state is CommandState.FALTERING and status.demoralised:
        return _disperse_brigade(state, brigade, status, notes, params)

    rolls: list[RollRecord] = []
    grade: Grade | None = None
    result: FalteringResult | None = None
    must_retire: tuple[str, ...] = ()
    if status.state is CommandState.FALTERING:
        grade = brigade_quality(state, brigade, params)
        odds = obey_probability(status, grade, params, reroll)
        die = dice.roll(f"gda-faltering:{brigade}:t{turn}", D6)[0]
        result = faltering_result(grade, die, params)
        rolls.append(_table_record(f"gda-faltering:{brigade}:t{turn}", name, grade, die, result, ""))
        if result is not FalteringResult.OBEYS and reroll and params.get("faltering_adc_reroll"):
            die = dice.roll(f"gda-faltering-reroll:{brigade}:t{turn}", D6)[0]
            result = faltering_result(grade, die, params)
            rolls.append(
                _table_record(
                    f"gda-faltering-reroll:{brigade}:t{turn}",
                    name,
                    grade,
                    die,
                    result,
                    " (reroll from the attached ADC)",
                )
            )
        effect_events, status, effect_notes, must_retire = faltering_effects(
            state, brigade, status, result, params, terrain
        )
        events += effect_events
        notes += effect_notes
        obeys = result is FalteringResult.OBEYS
    else:
        need = obey_threshold(status.demoralised, params)
        odds = obey_probability(status, None, params, reroll)
        purpose = f"gda-command:{brigade}:t{turn}"
        die = dice.roll(purpose, D6)[0]
        obeys = die >= need
        rolls.append(_threshold_record(purpose, f"Brigade command roll, {name}", die, need, status.demoralised, obeys))
        if not obeys and reroll:
            purpose = f"gda-command-reroll:{brigade}:t{turn}"
            die = dice.roll(purpose, D6)[0]
            obeys = die >= need
            rolls.append(
                _threshold_record(
                    purpose,
                    f"Brigade command roll, {name}, reroll from the attached ADC",
                    die,
                    need,
                    status.demoralised,
                    obeys,
                )
            )
        status = status.evolve(state=CommandState.STEADY if obeys else CommandState.HESITANT, state_turn=turn)
    for r in rolls:
        events.insert(
            0 if r is rolls[0] else 1,
            CommandRolled(turn, side, phase, order_id="", roll=r.to_dict(), explanation=r.explain()),
        )
    tasks = list(status.tasks)
    for oid in pending:
        order = state.orders[oid]
        if obeys:
            events.append(TaskInForce(turn, side, phase, order_id=oid))
            if order.order_type not in tasks and order.order_type != "initiative":
                tasks.append(order.order_type)
        else:
            events.append(OrderFailed(turn, side, phase, order_id=oid, reason=f"{name} did not obey this turn"))
    status = status.evolve(tasks=tuple(tasks))
    events.append(
        CommandStateChanged(
            turn, side, phase, subject=brigade, state=FLAG, value=status.to_value(), reason="brigade command roll"
        )
    )
    head = "; ".join(r.explain() for r in rolls)
    verdict = "obeys orders" if obeys else f"is {status.state.value.capitalize()}"
    text = f"{head}. {name} {verdict} (chance of obeying this turn {odds}, {float(odds):.0%})."
    if notes:
        text += " " + " ".join(n if n.endswith(".") else n + "." for n in notes)
    return CommandRollResult(
        brigade, status, obeys, result, grade, tuple(rolls), tuple(events), text, odds, must_retire
    )


def _threshold_record(purpose: str, label: str, die: int, need: int, demoralised: bool, obeys: bool) -> RollRecord:
    kind = "Demoralised brigade obeys on 5-6" if demoralised else "brigade obeys on 3-6, Hesitant on 1-2"
    return RollRecord(
        purpose=purpose,
        label=label,
        dice=D6,
        raw=(die,),
        threshold=need,
        threshold_source=f"General d'Armée command roll: {kind}",
        outcome="obeys orders" if obeys else "Hesitant",
        success=obeys,
    )


def _table_record(purpose: str, name: str, grade: Grade, die: int, result: FalteringResult, extra: str) -> RollRecord:
    return RollRecord(
        purpose=purpose,
        label=f"Faltering brigade roll, {name}{extra}",
        dice=D6,
        raw=(die,),
        threshold_source=f"Faltering Brigade table, row {grade.value.capitalize()}, column {die}",
        outcome=result.label,
        success=result is FalteringResult.OBEYS,
    )


def _active_assault_orders(state: GameState, brigade: str) -> list[str]:
    return [
        oid
        for oid, o in state.orders.items()
        if o.recipient == brigade
        and o.order_type == "infantry_assault"
        and o.status in (OrderStatus.DELIVERED, OrderStatus.WRITTEN)
    ]


def faltering_effects(
    state: GameState,
    brigade: str,
    status: BrigadeStatus,
    result: FalteringResult,
    params: RuleParameters,
    terrain: Sequence[TerrainFeature] = (),
) -> tuple[list[BattleEvent], BrigadeStatus, list[str], tuple[str, ...]]:
    """Events and new status for a Faltering-table ``result`` (digest §3, full effect of each).

    Returns ``(events, status, notes, must_retire)``; ``must_retire`` lists units that must
    retire at once on a Rally (within 15 cm [9"] of enemy close-order units, not garrisons).
    """
    turn, side, phase = state.turn, state.side, state.phase or "command"
    present = members(state, brigade).present
    ev: list[BattleEvent] = []
    notes: list[str] = []
    retire: tuple[str, ...] = ()
    if result is FalteringResult.OBEYS:
        return (
            ev,
            status.evolve(state=CommandState.STEADY, state_turn=turn),
            ["the Faltering marker is removed"],
            retire,
        )
    if result is FalteringResult.RALLY:
        stopped = str(params.get("rallied_unit_state"))
        for u in present:
            st = unit_state(u)
            if st is UnitState.RETREATING:
                ev.append(
                    OrderStateChanged(turn, side, phase, unit=u.id, state=stopped, reason="Rally: retreat stopped")
                )
            elif st is UnitState.ROUTING:
                ev.append(UnitRemoved(turn, side, phase, id=u.id, reason="Rally: routing unit disperses"))
        retire = must_retire_on_rally(state, brigade, params)
        notes.append("Rally: retreating units stop, routing units disperse, the brigade counts as Hesitant this turn")
        if retire:
            notes.append(f"must retire at once (within 15 cm of enemy close-order units): {', '.join(retire)}")
        return ev, status.evolve(state=CommandState.HESITANT, state_turn=turn, rallied_turn=turn), notes, retire
    sqp = result is FalteringResult.SAUVE_QUI_PEUT
    damage = int(params.get("sauve_qui_peut_damage" if sqp else "retreat_damage"))
    for u in present:
        st = unit_state(u)
        if st in (UnitState.RETREATING, UnitState.ROUTING):
            ev.append(UnitRemoved(turn, side, phase, id=u.id, reason=f"{result.label}: {st.value} unit disperses"))
            continue
        if is_skirmisher(u):
            if sqp:
                ev.append(
                    UnitRemoved(turn, side, phase, id=u.id, reason="Sauve qui Peut!: the skirmisher line disperses")
                )
            else:
                ev.append(
                    DamageTaken(
                        turn,
                        side,
                        phase,
                        unit=u.id,
                        points=int(params.get("skirmisher_base_damage")),
                        cause="Retreat: the skirmisher line loses one base",
                    )
                )
            continue
        if u.arm not in (Arm.INFANTRY, Arm.CAVALRY, Arm.ARTILLERY):
            continue
        # «Исключение: Если Батарея развернута в 30см[18”] за передовой линией Бригады, она может
        # игнорировать это требование» — the requirement is the Low Ammunition status only
        exempt, why = battery_exempt(state, brigade, u, params) if u.arm is Arm.ARTILLERY else (False, "")
        if exempt:
            notes.append(f"{u.name or u.id} ignores the Low Ammunition requirement ({why})")
        if u.attributes.get("garrison"):
            notes.append(f"{u.name or u.id} is a garrison and stays")
        else:
            ev.append(
                OrderStateChanged(
                    turn,
                    side,
                    phase,
                    unit=u.id,
                    state=UnitState.RETREATING.value,
                    reason=f"{result.label}: the brigade retreats",
                )
            )
        ev.append(DamageTaken(turn, side, phase, unit=u.id, points=damage, cause=f"{result.label} (Faltering brigade)"))
        if u.arm is Arm.ARTILLERY and (sqp or _is_foot_artillery(u)) and not exempt:
            ev.append(LowAmmunition(turn, side, phase, unit=u.id, cause=result.label))
    for oid in _active_assault_orders(state, brigade):
        ev.append(OrderCancelled(turn, side, phase, order_id=oid, reason=f"{result.label} cancels Assault!"))
    tasks = tuple(t for t in status.tasks if t != "infantry_assault")
    new = status.evolve(state=CommandState.FALTERING, state_turn=turn, tasks=tasks)
    if sqp:
        new = new.evolve(sauve_qui_peut=status.sauve_qui_peut + 1, adc_lost=True)
        notes.append(
            "the brigade permanently loses its ADC"
            if not status.adc_lost
            else "a repeated Sauve qui Peut! loses no further ADC"
        )
    notes.append(
        f"remaining units retreat and take {damage} damage each; no other actions this turn; "
        "the brigade stays Faltering"
    )
    return ev, new, notes, retire


def _is_foot_artillery(u: Unit) -> bool:
    return u.subtype in (Subtype.FOOT_ARTILLERY, Subtype.HEAVY_ARTILLERY) or bool(u.attributes.get("foot_artillery"))


def _disperse_brigade(
    state: GameState, brigade: str, status: BrigadeStatus, notes: list[str], params: RuleParameters
) -> CommandRollResult:
    """A Demoralised brigade that is Faltering disperses at once, with its ADC (no roll)."""
    turn, side, phase = state.turn, state.side, state.phase or "command"
    name = state.commanders[brigade].name or brigade
    ev: list[BattleEvent] = [
        UnitRemoved(turn, side, phase, id=u.id, reason="Demoralised brigade Faltering: disperses")
        for u in members(state, brigade).present
    ]
    new = status.evolve(adc_lost=True, tasks=(), state_turn=turn)
    ev.append(
        CommandStateChanged(
            turn, side, phase, subject=brigade, state=FLAG, value=new.to_value(), reason="Demoralised brigade dispersed"
        )
    )
    text = (
        f"{name} is Demoralised and Faltering: no roll, every remaining unit disperses and the brigade "
        "loses its ADC (Рассеивание Деморализованной Бригады)."
    )
    if notes:
        text = " ".join(notes) + ". " + text
    return CommandRollResult(brigade, new, False, None, None, (), tuple(ev), text, Fraction(0))


def end_of_turn(state: GameState, params: RuleParameters, side: str | None = None) -> list[BattleEvent]:
    """Events that clear every Hesitant marker at the end of the turn (Командная Ситуация,
    КОЛЕБЛЮЩАЯСЯ: "все маркеры снимаются в конце каждого хода"; digest §2.2): each Hesitant
    brigade (of ``side``, or of every side) becomes Steady again. Faltering brigades stay
    Faltering until the Faltering table rallies them. With ``adc_task_duration = "turn"``
    (assumed, D-11) every ADC task in force ends too: the sender's ADCs are back for the next
    turn. Events are stamped with the state's turn, side and phase."""
    out: list[BattleEvent] = []
    per_turn = str(params.get("adc_task_duration")) == "turn"
    for b in brigades_of(state, side or None, params):
        status = brigade_status(state, b)
        new = status
        why: list[str] = []
        if status.state is CommandState.HESITANT:
            new = new.evolve(state=CommandState.STEADY, state_turn=state.turn)
            why.append("Hesitant markers removed")
        if per_turn and status.tasks:
            new = new.evolve(tasks=())
            why.append(f"ADC tasks {', '.join(status.tasks)} end (adc_task_duration = turn)")
        if new != status:
            out.append(
                CommandStateChanged(
                    state.turn,
                    state.side,
                    state.phase or "end",
                    subject=b,
                    state=FLAG,
                    value=new.to_value(),
                    reason="end of turn: " + "; ".join(why),
                )
            )
    return out
