"""Shared pieces of the Regimental rules' actions: bases and troop types of a unit (1.1, Пехота,
Кавалерия), the activated formation's announced actions and their use by its units (2.2),
casualty markers with their consequences (3.3.1, Тест на мораль), disorganisation, withdrawals.

State conventions: a disorganisation marker is ``Unit.state == "disorganised"``; the action
slots a unit used this activation are the flag ``regimental_actions:<unit>`` = ``{"turn",
"formation", "used": [slot indices]}``; the formation activated last by a side is
``active_formation:<side>`` = ``{"turn", "formation"}``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from battlestudio.model.units import Arm, Subtype, Unit
from battlestudio.replay.events import BattleEvent
from battlestudio.replay.flow_events import Moved, OrderStateChanged, UnitRemoved
from battlestudio.replay.combat_events import MoraleTest
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import DiceSource, DiceSpec, Modifier, RollRecord
from battlestudio.rules.losses import loss_event
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.regimental.command import activation_of
from battlestudio.rules.regimental.morale import add_markers, marker_event, morale_test

DISORGANISED = "disorganised"
NORMAL = "normal"
USED = "regimental_actions"
ACTIVE = "active_formation"


def stamp(state: GameState) -> dict[str, Any]:
    return {"turn": state.turn, "side": state.side, "phase": state.phase or "activation"}


def apply(state: GameState, events: Iterable[BattleEvent]) -> GameState:
    for e in events:
        state = e.apply(state)
    return state


def name(state: GameState, uid: str) -> str:
    u = state.units.get(uid)
    return (u.name or uid) if u is not None else uid


def unit_or_refuse(state: GameState, uid: str, what: str = "unit") -> Unit:
    u = state.units.get(uid)
    if u is None or uid in state.off_table:
        raise RuleRefused(f"no {what} {uid!r} on the table")
    return u


def is_skirmishers(u: Unit) -> bool:
    return u.subtype is Subtype.SKIRMISHERS or u.formation.value == "skirmish" and u.arm is Arm.INFANTRY


def disorganised(u: Unit) -> bool:
    """A disorganisation marker is on the unit (Unit.state ``disorganised``)."""
    return u.state == DISORGANISED


def bases_of(u: Unit, p: RuleParameters) -> int:
    """The unit's bases: ``Unit.bases`` when the model counts them, else ceil(figures / figures
    per base) (1.1: 5-6 infantry figures, 2 cavalry figures a base; assumed ``figures_per_base``).

    Raises
    ------
    RuleRefused
        for artillery whose bases the model does not count (Ambiguity 1: not in the text).
    """
    if u.bases is not None:
        return int(u.bases)
    if u.arm is Arm.ARTILLERY:
        raise RuleRefused(f"{u.name or u.id}: the number of artillery bases is not given (Unit.bases; Ambiguity 1)")
    per = int(p.get("figures_per_base")["cavalry" if u.arm is Arm.CAVALRY else "infantry"])
    return math.ceil(u.figures / per) if u.figures > 0 else 0


def figures_of_bases(u: Unit, removed: int, p: RuleParameters) -> int:
    """Figures that ``removed`` bases carry (the last base takes what is left)."""
    bases = bases_of(u, p)
    if removed >= bases:
        return u.figures
    if u.bases is not None:
        return min(u.figures, round(u.figures * removed / bases))
    per = int(p.get("figures_per_base")["cavalry" if u.arm is Arm.CAVALRY else "infantry"])
    return min(u.figures, removed * per)


def troop_type(u: Unit, p: RuleParameters) -> str:
    """The seed's troop type (Пехота, Кавалерия, Застрельщики): ``attributes['regimental_type']``,
    else ``guard`` for guard infantry, lancers and mounted chasseurs by the ``fogofwar_cav_type``,
    else the subtype's (assumed ``troop_types``)."""
    own = u.attributes.get("regimental_type")
    if own:
        return str(own)
    if u.arm is Arm.INFANTRY and u.quality == "guard":
        return "guard"
    cav = str(u.attributes.get("fogofwar_cav_type", "")).lower()
    if u.arm is Arm.CAVALRY and cav in ("uhlan", "uhlans", "lancer", "lancers"):
        return "lancers"
    if u.arm is Arm.CAVALRY and cav in ("chasseur", "chasseurs", "chasseurs à cheval"):
        return "chasseurs"
    if u.subtype is None:
        return ""
    return str(p.get("troop_types").get(u.subtype.value, ""))


def gap(a: Unit, b: Unit) -> float:
    """Distance in cm between the two units' footprints (0 when they touch)."""
    return float(a.footprint().distance(b.footprint()))


def move_rate(u: Unit, p: RuleParameters) -> float:
    """One action's move in cm on open ground (Перемещение)."""
    m = p.get("move_cm")
    if u.arm is Arm.CAVALRY:
        return float(m["cavalry"])
    if u.arm is Arm.ARTILLERY:
        return float(m["horse_artillery" if u.subtype is Subtype.HORSE_ARTILLERY else "foot_artillery"])
    return float(m["infantry"])


# -- the activation's actions ------------------------------------------------------------------


def activation_event(state: GameState, formation: str, side: str) -> CommandStateChanged:
    """Record that ``formation`` is the side's formation in action now (2.2)."""
    return CommandStateChanged(
        state.turn,
        state.side,
        state.phase or "activation",
        subject=side,
        state=ACTIVE,
        value={"turn": state.turn, "formation": formation},
        reason="orders test (2.2)",
    )


def active_formation(state: GameState, side: str) -> str | None:
    rec = state.flags.get(f"{ACTIVE}:{side}")
    if isinstance(rec, dict) and int(rec.get("turn", -1)) == state.turn:
        return str(rec.get("formation", "")) or None
    return None


def formation_of(state: GameState, uid: str) -> str | None:
    """The brigade or division above ``uid`` that is in action now (2.2), or None."""
    u = state.units.get(uid)
    if u is None:
        return None
    current = active_formation(state, u.side)
    if current is None:
        return None
    chain = state.oob.chain_of_command(uid)
    return current if current in chain else None


def used_slots(state: GameState, uid: str, formation: str) -> list[int]:
    rec = state.flags.get(f"{USED}:{uid}")
    if isinstance(rec, dict) and rec.get("turn") == state.turn and rec.get("formation") == formation:
        return [int(i) for i in rec.get("used", ())]
    return []


def next_slot(state: GameState, uid: str, kind: str) -> tuple[int, str, str]:
    """The announced action ``kind`` the unit may take now: ``(slot, formation, "")`` or
    ``(-1, "", why)``. 2.2: only the activated brigade/division's units act; its actions were
    announced in order before the orders test and the first N granted (Ambiguity 4); each unit
    takes them in that order, skipping any it does not take, never more than N. With its HQ
    captured a unit may only fire or move (withdraw) (Тест на потери командования)."""
    u = state.units[uid]
    if state.side and u.side != state.side:
        return -1, "", f"it is {state.side}'s activation; {u.name or uid} is {u.side}'s"
    if state.flags.get(f"hq_captured:{u.side}") and kind not in ("fire", "move"):
        return (
            -1,
            "",
            (
                f"{u.side}'s HQ is captured: its units may only fire or withdraw "
                "(«При захвате противником штаба, все подразделения могут либо вести огонь, либо отходить»)"
            ),
        )
    withdrew = state.flags.get(f"withdrew_disorganised:{uid}")
    if isinstance(withdrew, int) and not isinstance(withdrew, bool) and withdrew < state.turn:
        return (
            -1,
            "",
            (
                f"{u.name or uid} withdrew disorganised last turn: its morale test comes first "
                "(3.4: «в начале следующего хода должен пройти тест на мораль»)"
            ),
        )
    f = formation_of(state, uid)
    if f is None:
        return -1, "", f"{u.name or uid} is not in the brigade or division activated now (2.2)"
    rec = activation_of(state, f) or {}
    granted = [str(a) for a in rec.get("actions", ())]
    used = used_slots(state, uid, f)
    cap = rec.get("granted")
    if isinstance(cap, int) and not isinstance(cap, bool):  # announced_first_n off: any cap of them
        free = [i for i, a in enumerate(granted) if a == kind and i not in used]
        if len(used) < cap and free:
            return free[0], f, ""
        return (
            -1,
            f,
            (
                f"{u.name or uid} has used {len(used)} of the {cap} action{'s' if cap != 1 else ''} the orders "
                f"test gave"
                + ("" if len(used) >= cap else f", and '{kind}' is not among the announced left")
                + f" ({', '.join(granted) or 'none'} announced; 2.2, announced_first_n off)"
            ),
        )
    last = max(used, default=-1)
    for i in range(last + 1, len(granted)):
        if granted[i] == kind:
            return i, f, ""
    if len(used) >= len(granted) or last + 1 >= len(granted):
        return (
            -1,
            f,
            (
                f"{u.name or uid} has used all {len(granted)} action{'s' if len(granted) != 1 else ''} "
                f"the orders test gave ({', '.join(granted) or 'none'}; 2.2)"
            ),
        )
    announced = [str(a) for a in rec.get("announced", granted)]
    return (
        -1,
        f,
        (
            f"'{kind}' is not among {u.name or uid}'s remaining actions ({', '.join(granted[last + 1 :])}; "
            f"the orders test gave {len(granted)} of the {len(announced)} announced: {', '.join(announced)}; "
            f"2.2: 'До броска кубика игрок озвучивает все приказы')"
        ),
    )


def slot_event(state: GameState, uid: str, formation: str, slot: int, kind: str) -> CommandStateChanged:
    used = used_slots(state, uid, formation) + [slot]
    return CommandStateChanged(
        **stamp(state),
        subject=uid,
        state=USED,
        value={"turn": state.turn, "formation": formation, "used": used},
        reason=f"action {slot + 1} ({kind}) of the activation (2.2)",
    )


# -- consequences -------------------------------------------------------------------------------


def disorganise(state: GameState, uid: str, why: str) -> list[BattleEvent]:
    u = state.units[uid]
    if disorganised(u):
        return []
    return [OrderStateChanged(**stamp(state), unit=uid, state=DISORGANISED, reason=why)]


def flee(state: GameState, uid: str, why: str) -> list[BattleEvent]:
    return [UnitRemoved(**stamp(state), id=uid, reason=why)]


def withdraw(state: GameState, uid: str, away_from: Unit, distance: float) -> list[BattleEvent]:
    """Move ``uid`` ``distance`` cm straight away from ``away_from`` (Ambiguity 23)."""
    u = state.units[uid]
    dx, dy = u.position[0] - away_from.position[0], u.position[1] - away_from.position[1]
    n = math.hypot(dx, dy)
    if n < 1e-9 or distance <= 0:
        return []
    to = (u.position[0] + dx / n * distance, u.position[1] + dy / n * distance)
    return [Moved(**stamp(state), id=uid, path=((u.position[0], u.position[1]), to))]


def morale_event(state: GameState, uid: str, passed: bool, result: str, roll: RollRecord) -> MoraleTest:
    return MoraleTest(
        **stamp(state), unit=uid, passed=passed, result=result, roll=roll.to_dict(), explanation=roll.explain()
    )


def take_morale(
    state: GameState,
    uid: str,
    p: RuleParameters,
    dice: DiceSource,
    why: str,
    situational: Sequence[Modifier] = (),
    melee: bool = False,
    key: str = "",
) -> tuple[bool, list[BattleEvent], RollRecord]:
    """A morale test (Тест на мораль: 2D6 ≤ 8 + modifiers) and its marker on a failure;
    ``key`` makes the roll's purpose unique (the action's own purpose)."""
    r = morale_test(state, uid, p, dice, situational, why, melee=melee, key=key)
    events: list[BattleEvent] = [
        morale_event(state, uid, r.passed, "passed" if r.passed else "failed: disorganised", r.roll)
    ]
    if not r.passed:
        events += disorganise(state, uid, f"morale test failed ({why}; Тест на мораль)")
    return r.passed, events, r.roll


def place_markers(
    state: GameState,
    uid: str,
    added: int,
    cause: str,
    p: RuleParameters,
    dice: DiceSource,
    force_test: bool = False,
    key: str = "",
    situational: Sequence[Modifier] = (),
) -> tuple[list[BattleEvent], list[RollRecord], str]:
    """``added`` casualty markers on ``uid`` (3.3.1 'помечаются маркером потерь'): bases removed
    at 6/2/5 markers (Пехота, Кавалерия, Артиллерия: the limit a base) with their figures lost
    (``loss_event``), the unit removed with its last base, and the morale test forced at 6/4/3
    markers (Тест на мораль) or by ``force_test``
    (casualties from canister, 3.3.3); ``situational`` morale modifiers of the cause (fire of
    skirmishers, Застрельщики)."""
    u = state.units[uid]
    if added <= 0:
        return [], [], f"{u.name or uid}: no casualty markers"
    bases = bases_of(u, p)
    r = add_markers(u, added, p, bases=bases)
    events: list[BattleEvent] = [marker_event(state, r)]
    text = f"{u.name or uid}: {added} casualty marker{'s' if added != 1 else ''}"
    if r.bases_removed:
        figs = figures_of_bases(u, r.bases_removed, p)
        if figs:
            events.append(loss_event(state, uid, figs, cause, stamp(state)))
        text += f", {r.bases_removed} base{'s' if r.bases_removed != 1 else ''} removed ({figs} figures)"
    rolls: list[RollRecord] = []
    if r.bases_removed >= bases:
        events += flee(state, uid, "its last base removed (casualty markers)")
        return events, rolls, text + "; no base left, removed"
    after = apply(state, events)
    whys = ["casualty markers (Тест на мораль)"] * r.forced_tests
    if force_test and not whys:
        whys = ["casualties from canister (3.3.3)"]
    for i, why in enumerate(whys):
        tag = f"{key}:markers{'' if i == 0 else i + 1}" if key else (f"markers{i + 1}" if i else "")
        passed, evs, roll = take_morale(after, uid, p, dice, why, situational, key=tag)
        events += evs
        rolls.append(roll)
        after = apply(after, evs)
        text += f"; morale test ({why}): {'passed' if passed else 'failed, disorganised'}"
    return events, rolls, text


def dice_spec(n: int) -> DiceSpec:
    return DiceSpec(n, 6)
