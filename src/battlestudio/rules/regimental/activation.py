"""Regimental rules activation: the orders test of a brigade or division with its actions
announced before the roll (2.2), the formation's link to its command (general lost → orders
only from the HQ; a divisional general outside the HQ's 20 cm zone takes the order test), and
orders to single regiments measured to their general's 15 cm zone (Дистанция командования).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Sequence

from battlestudio.replay.events import BattleEvent
from battlestudio.replay.order_events import CommandRolled, CommandStateChanged
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import DiceSource, RollRecord
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.regimental.command import (
    ACTIONS,
    distance_to,
    exempt_from_command,
    general_condition,
    hq_link,
    may_activate,
    orders_test_actions,
    out_of_zone_result,
    roll_d6,
    table_record,
    units_under,
)


NEXT = "next_activation"
"""``CommandStateChanged.state`` (flag prefix, subject the side) of the formation chosen to activate next."""


def chosen_next(state: GameState, side: str) -> str | None:
    """The formation ``side`` chose this turn to activate next and has not activated yet."""
    rec = state.flags.get(f"{NEXT}:{side}")
    if not isinstance(rec, dict) or int(rec.get("turn", -1)) != state.turn:
        return None
    formation = str(rec.get("formation", ""))
    return formation if formation and not may_activate(state, formation) else None


def choice_event(state: GameState, formation: str, why: str) -> CommandStateChanged:
    """The event recording that ``formation``'s side activates it next (2.2), stamped with the state's phase."""
    side = state.commanders[formation].side
    return CommandStateChanged(
        state.turn,
        state.side,
        state.phase or "activation",
        subject=side,
        state=NEXT,
        value={"turn": state.turn, "formation": formation},
        reason=why,
    )


@dataclass(frozen=True, slots=True)
class Activation:
    """Outcome of activating a formation: ``status`` (``delivered`` / ``failed`` / ``refused``),
    ``announced`` and ``granted`` actions, ``rolls``, ``events``, ``explanation``."""

    formation: str
    status: str
    announced: tuple[str, ...]
    granted: tuple[str, ...]
    rolls: tuple[RollRecord, ...]
    events: tuple[BattleEvent, ...]
    explanation: str


def _zone_test(
    state: GameState, purpose: str, label: str, params: RuleParameters, dice: DiceSource
) -> tuple[str, RollRecord]:
    die = roll_d6(dice, purpose)
    res = out_of_zone_result(die, params)
    words = {"full": "the order arrives", "one": "only one action", "none": "the order does not arrive"}[res]
    return res, table_record(
        purpose, label, die, "out of the command zone: 1-2 arrives, 3-4 one action, 5-6 lost", words, res != "none"
    )


def activate(
    state: GameState, formation: str, announced: Sequence[str], params: RuleParameters, dice: DiceSource
) -> Activation:
    """Activate ``formation`` (a brigade or division general) with ``announced`` actions.

    2.2: up to 3 actions announced in full before the D6; 1-2 → 3, 3-4 → 2, 5-6 → 1; the first
    N are carried out (Ambiguity 4; with ``announced_first_n`` overridden to false, any N of the
    announced, in any order: the record's ``granted`` holds N). If the general is killed or wounded the formation takes
    orders only from the HQ, and a divisional general beyond the HQ's 20 cm (without an adjutant
    chain) takes the order test: 1-2 full, 3-4 one action, 5-6 none.
    """
    announced = tuple(announced)
    c = state.commanders.get(formation)
    name = (c.name or formation) if c else formation
    why = may_activate(state, formation)
    mx = int(params.get("max_actions"))
    if not why and not 1 <= len(announced) <= mx:
        why = f"announce 1 to {mx} actions before the roll, not {len(announced)}"
    bad = [a for a in announced if a not in ACTIONS]
    if not why and bad:
        why = f"unknown action {bad[0]!r} (known: {', '.join(ACTIONS)})"
    if not why and c is not None and c.side != state.side and state.side:
        why = f"it is {state.side}'s activation, {name} belongs to {c.side}"
    if why:
        return Activation(formation, "refused", announced, (), (), (), f"Activation of {name} refused: {why}.")
    assert c is not None
    turn, side, phase = state.turn, state.side, state.phase or "activation"
    rolls: list[RollRecord] = []
    purpose = f"regimental-orders:{formation}:t{turn}"
    die = roll_d6(dice, purpose)
    n = orders_test_actions(die, params)
    rolls.append(
        table_record(
            purpose,
            f"Orders test, {name} (announced: {', '.join(announced)})",
            die,
            "2.2: 1-2 three actions, 3-4 two, 5-6 one",
            f"{n} action{'s' if n > 1 else ''}",
        )
    )
    notes = []
    cond = general_condition(state, formation)
    needs_hq = cond != "alive" or c.echelon == "division"
    if needs_hq:
        units = units_under(state, formation)
        target = units if cond != "alive" else c.position
        link = hq_link(state, c.side, target, params)
        via = " via adjutants " + " → ".join(link.chain[1:]) if len(link.chain) > 1 else ""
        who = "its units" if cond != "alive" else name
        if cond != "alive":
            notes.append(f"the general is {cond.replace('_', ' ')}: orders only from the HQ")
        if state.flags.get(f"hq_captured:{c.side}"):
            notes.append("the HQ is captured: it relays no order and gives no zone (D-R1)")
        if link.within:
            notes.append(f"{who} in the HQ's command zone{via}")
        else:
            res, rec = _zone_test(
                state,
                f"regimental-zone:{formation}:t{turn}",
                f"Order test, {name} outside the HQ's zone ({link.distance:.1f} cm)",
                params,
                dice,
            )
            rolls.append(rec)
            n = {"full": n, "one": min(n, 1), "none": 0}[res]
    first_n = bool(params.get("announced_first_n"))
    granted = announced[:n] if first_n else (announced if n else ())
    status = "delivered" if granted else "failed"
    events: list[BattleEvent] = [
        CommandRolled(turn, side, phase, order_id="", roll=r.to_dict(), explanation=r.explain()) for r in rolls
    ]
    events.append(
        CommandStateChanged(
            turn,
            side,
            phase,
            subject=formation,
            state="activated",
            value={"turn": turn, "announced": list(announced), "actions": list(granted)}
            | ({} if first_n else {"granted": n}),
            reason="orders test",
        )
    )
    if granted:
        events.append(
            CommandStateChanged(
                turn,
                side,
                phase,
                subject=c.side,
                state="active_formation",
                value={"turn": turn, "formation": formation},
                reason="orders test (2.2): this formation acts now",
            )
        )
    text = "; ".join(r.explain() for r in rolls)
    if first_n or not granted:
        text += f". {name} carries out: {', '.join(granted) if granted else 'nothing'}"
    else:  # announced_first_n overridden: any n of the announced, in any order
        text += f". {name} carries out any {n} of: {', '.join(granted)} (announced_first_n off)"
    if notes:
        text += " (" + "; ".join(notes) + ")"
    return Activation(formation, status, announced, granted, tuple(rolls), tuple(events), text + ".")


@dataclass(frozen=True, slots=True)
class RegimentOrder:
    """An order to a single regiment: ``actions`` it may carry out, ``distance`` to its general,
    ``exempt`` (light/irregular cavalry), ``roll`` of the order test if taken."""

    regiment: str
    actions: int
    distance: float
    within: bool
    exempt: bool
    roll: RollRecord | None
    explanation: str


def regiment_order(
    state: GameState, regiment: str, division_actions: int, params: RuleParameters, dice: DiceSource
) -> RegimentOrder:
    """An order to one regiment (Дистанция командования): measured from its general to the
    regiment or to any unit of its brigade; inside 15 cm it gets the activation's actions,
    outside it takes the order test (1-2 full, 3-4 one, 5-6 none). Light and irregular cavalry
    ignore command distance. With its general killed or wounded the regiment takes orders only
    from the HQ (Тест на потери командования): measured to the HQ's 20 cm zone (D-R2)."""
    u = state.units[regiment]
    general = state.oob.superior(regiment)
    if exempt_from_command(u, params):
        return RegimentOrder(
            regiment,
            division_actions,
            0.0,
            True,
            True,
            None,
            f"{u.name or regiment} is light/irregular cavalry and ignores command distance.",
        )
    g = state.commanders[general] if general else None
    brigade_units = units_under(state, general) if general else [u]
    if g is None:
        d = float("inf")
    elif params.get("zone_measure") == "centre":  # overridden: to the units' centres, not their nearest point
        d = min(
            (math.dist(g.position, tuple(u.footprint().centroid.coords)[0]) for u in brigade_units),
            default=float("inf"),
        )
    else:
        d = distance_to(g.position, brigade_units)
    zone = float(params.get("general_zone_cm"))
    if g is not None and general_condition(state, g.id) == "alive" and d <= zone + 1e-6:
        return RegimentOrder(
            regiment,
            division_actions,
            d,
            True,
            False,
            None,
            f"{u.name or regiment}: its brigade is {d:.1f} cm from {g.name or general} "
            f"(zone {zone:g} cm): {division_actions} action(s).",
        )
    if g is not None and general_condition(state, g.id) != "alive":
        # D-R2: a fallen general's units take orders only from the HQ (Тест на потери
        # командования): the regiment is measured to the HQ's 20 cm zone or an adjutant chain.
        link = hq_link(state, u.side, [u], params)
        cond = general_condition(state, g.id).replace("_", " ")
        if link.within:
            via = " via adjutants " + " → ".join(link.chain[1:]) if len(link.chain) > 1 else ""
            return RegimentOrder(
                regiment,
                division_actions,
                link.distance,
                True,
                False,
                None,
                f"{u.name or regiment}: its general {g.name or g.id} is {cond}; orders only from the HQ, "
                f"{link.distance:.1f} cm{via} (zone {float(params.get('hq_zone_cm')):g} cm): "
                f"{division_actions} action(s).",
            )
        d = link.distance
        label = f"Order test, {u.name or regiment} ({d:.1f} cm from the HQ, general {cond})"
    else:
        label = f"Order test, {u.name or regiment} ({d:.1f} cm from its general, zone {zone:g} cm)"
    res, rec = _zone_test(state, f"regimental-zone:{regiment}:t{state.turn}", label, params, dice)
    n = {"full": division_actions, "one": min(1, division_actions), "none": 0}[res]
    return RegimentOrder(regiment, n, d, False, False, rec, rec.explain() + f": {n} action(s).")
