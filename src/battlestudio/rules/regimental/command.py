"""Regimental rules command system: initiative, alternating activation of a brigade or
division with its orders test, general 15 cm and HQ 20 cm command zones, adjutant chains, the
out-of-zone order test and the light/irregular cavalry exemption (seed 2.1, 2.2,
"Дистанция командования"; digest §3, §8).

Conventions in the game state: the HQ is the side's ``c_in_c`` commander (fixed); adjutants are
commanders with ``attributes["role"] == "adjutant"``; a general's condition is the flag
``general:<id>`` (``alive``, ``killed``, ``badly_wounded``, ``lightly_wounded``, default from
``attributes["status"]``); a captured HQ is ``hq_captured:<side>``; an activation is
``activated:<formation>`` = ``{"turn": t, "actions": [...]}``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any
from collections.abc import Sequence

from shapely.geometry import Point as ShapelyPoint

from battlestudio.model.geometry import TINY
from battlestudio.model.units import ECHELON_RANK, Commander, Unit
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import DiceSource, DiceSpec, RollRecord
from battlestudio.rules.params import MissingParameterError, RuleParameters, RuleRefused

D6 = DiceSpec(1, 6)
ACTIONS = ("move", "reform", "fire", "melee", "deploy", "skirmish_chain")
"""Action types a formation may be ordered (3 Виды приказов)."""


def general_condition(state: GameState, cid: str) -> str:
    """``alive``, ``killed``, ``badly_wounded`` or ``lightly_wounded``."""
    flag = state.flags.get(f"general:{cid}")
    if flag is not None:
        return str(flag)
    c = state.commanders.get(cid)
    return str(c.attributes.get("status", "alive")) if c else "killed"


def hq_of(state: GameState, side: str, params: RuleParameters | None = None) -> Commander | None:
    """The side's HQ (штаб): its ``c_in_c`` commander, or one with ``attributes["role"] == "hq"``;
    with ``params`` and ``hq_fallback`` ``top_commander`` (assumed), else its highest commander
    without a superior (a scenario built for another ruleset, whose top general is a corps)."""
    for c in state.commanders.values():
        if c.side == side and (c.echelon == "c_in_c" or c.attributes.get("role") == "hq"):
            return c
    if params is None or params.get("hq_fallback") != "top_commander":
        return None
    tops = [
        c
        for c in state.commanders.values()
        if c.side == side and c.attributes.get("role") != "adjutant" and state.oob.superior(c.id) is None
    ]
    tops.sort(key=lambda c: (ECHELON_RANK.get(c.echelon, 99), -len(state.oob.all_subordinates(c.id)), c.id))
    return tops[0] if tops else None


def adjutants_of(state: GameState, side: str) -> list[Commander]:
    """The side's adjutants on the table (sorted by id)."""
    return sorted(
        (c for c in state.commanders.values() if c.side == side and c.attributes.get("role") == "adjutant"),
        key=lambda c: c.id,
    )


def adjutant_cap(params: RuleParameters, side: str) -> int:
    """How many adjutants the side's HQ has: scenario parameter ``adjutants.<side>`` (or
    ``adjutants``); the text does not give the number (Дистанция командования; Ambiguity 17).

    Raises
    ------
    MissingParameterError
        naming ``adjutants.<side>`` when the scenario gives neither.
    RuleRefused
        for a value that is not a whole number ≥ 0.
    """
    found = params.lookup(f"adjutants.{side}", "adjutants")
    if found is None:
        entry = params.entries["adjutants"]
        raise MissingParameterError(
            f"adjutants.{side}", f"{params.rule_name} {entry.section}", entry.text, ("adjutants",)
        )
    key, value = found
    try:
        n = int(value)
    except (TypeError, ValueError):
        raise RuleRefused(f"scenario parameter {key!r} must be a whole number of adjutants, got {value!r}") from None
    if n < 0 or n != value:
        raise RuleRefused(f"scenario parameter {key!r} must be a whole number of adjutants ≥ 0, got {value!r}")
    return n


def usable_adjutants(state: GameState, side: str, params: RuleParameters) -> list[Commander]:
    """The adjutants that may relay the HQ's orders: all of the side's adjutants when there are
    no more than ``adjutants.<side>``.

    Raises
    ------
    MissingParameterError
        when the side has adjutants on the table and the scenario does not say how many it may have.
    RuleRefused
        when the table holds more adjutants than the scenario allows, naming them.
    """
    adj = adjutants_of(state, side)
    if not adj:
        return []
    cap = adjutant_cap(params, side)
    if len(adj) > cap:
        raise RuleRefused(
            f"side {side!r} has {len(adj)} adjutants on the table ({', '.join(a.id for a in adj)}) "
            f"but scenario parameter adjutants.{side} allows {cap}"
        )
    return adj


ADJUTANT_MOVED = "adjutant_moved"
"""Flag prefix: the turn an adjutant made his one move (D-R4)."""


def adjutant_move(
    state: GameState, adjutant: str, to: tuple[float, float], params: RuleParameters
) -> tuple[bool, float, str]:
    """Whether ``adjutant`` may move to ``to`` this turn: at most ``adjutant_move_cm`` (20 cm)
    in a straight line from where he stands, once a turn (Перемещение: "Адъютанты штабов
    перемещаются на 20 см"; the flag ``adjutant_moved:<id>`` holds the turn of his move; D-R4).
    Returns ``(ok, distance_cm, explanation)``.

    Raises
    ------
    RuleRefused
        when ``adjutant`` is not an adjutant of the game.
    """
    c = state.commanders.get(adjutant)
    if c is None or c.attributes.get("role") != "adjutant":
        raise RuleRefused(f"{adjutant!r} is not an adjutant (a commander with attributes role = 'adjutant')")
    limit = float(params.get("adjutant_move_cm"))
    if state.flags.get(f"{ADJUTANT_MOVED}:{adjutant}") == state.turn:
        return False, 0.0, f"{c.name or adjutant} has already moved this turn (one 20 cm move a turn; D-R4)"
    d = math.dist(c.position, to)
    ok = d <= limit + TINY
    text = f"{c.name or adjutant} moves {d:.1f} cm" + (
        f" (at most {limit:g} cm)" if ok else f": more than the {limit:g} cm an adjutant moves in a turn"
    )
    return ok, d, text


def units_under(state: GameState, cid: str) -> list[Unit]:
    """Every unit below commander ``cid`` in the order of battle."""
    return [state.units[n] for n in state.oob.all_subordinates(cid) if n in state.units]


def distance_to(point: tuple[float, float], units: Sequence[Unit]) -> float:
    """Distance in cm from a commander's base centre to the nearest of ``units``."""
    if not units:
        return math.inf
    p = ShapelyPoint(point)
    return min(float(p.distance(u.footprint())) for u in units)


def exempt_from_command(unit: Unit, params: RuleParameters, subtypes: set[str] | None = None) -> bool:
    """Light and irregular cavalry may ignore command distance (Кавалерия). ``subtypes`` is
    ``set(params.get("command_exempt_subtypes"))`` when the caller already read it."""
    subs = set(params.get("command_exempt_subtypes")) if subtypes is None else subtypes
    return (unit.subtype is not None and unit.subtype.value in subs) or bool(unit.attributes.get("irregular"))


@dataclass(frozen=True, slots=True)
class Link:
    """How a point is reached from the HQ: ``within`` or not, the ``chain`` of relay ids
    (HQ first), and the ``distance`` of the last link in cm."""

    within: bool
    chain: tuple[str, ...]
    distance: float


def hq_link(
    state: GameState,
    side: str,
    target: tuple[float, float] | Sequence[Unit],
    params: RuleParameters,
    memo: dict[tuple[str, str], Any] | None = None,
) -> Link:
    """Whether ``target`` (a point, or units measured to their nearest point) lies in the HQ's
    20 cm zone directly or at the end of an adjutant chain whose every link is ≤ 20 cm
    (Дистанция командования; Ambiguity 17). Breadth-first over the adjutants. A captured HQ
    (``hq_captured:<side>``) reaches nothing (Тест на потери командования; D-R1).

    Raises
    ------
    RuleRefused
        when the side has no HQ, or more adjutants than ``adjutants.<side>``;
        ``MissingParameterError`` (``adjutants.<side>``) when a chain is needed, the side has
        adjutants and the scenario does not say how many it may have.

    ``memo`` (a dict kept by the caller for one state and ``params``) keeps each side's HQ
    and usable adjutants between calls, for checking many targets at once.
    """
    if memo is None:
        memo = {}
    hq = memo[("hq", side)] if ("hq", side) in memo else memo.setdefault(("hq", side), hq_of(state, side, params))
    if hq is None:
        raise RuleRefused(f"side {side!r} has no HQ (a c_in_c commander) for the Regimental command zones")
    zone = float(params.get("hq_zone_cm"))
    link = float(params.get("adjutant_link_cm"))

    def reach(p: tuple[float, float]) -> float:
        if isinstance(target, tuple):
            return math.dist(p, target)
        return distance_to(p, target)

    best = reach(hq.position)
    if state.flags.get(f"hq_captured:{side}"):  # D-R1: a captured HQ relays no order, gives no zone
        return Link(False, (hq.id,), best)
    if best <= zone + TINY:
        return Link(True, (hq.id,), best)
    frontier: list[tuple[tuple[float, float], tuple[str, ...]]] = [(hq.position, (hq.id,))]
    if ("adjutants", side) not in memo:
        memo[("adjutants", side)] = usable_adjutants(state, side, params)
    left = {a.id: a for a in memo[("adjutants", side)]}
    while frontier:
        nxt: list[tuple[tuple[float, float], tuple[str, ...]]] = []
        for pos, chain in frontier:
            for aid, a in list(left.items()):
                if math.dist(pos, a.position) <= link + TINY:
                    del left[aid]
                    d = reach(a.position)
                    if d <= link + TINY:
                        return Link(True, chain + (aid,), d)
                    best = min(best, d)
                    nxt.append((a.position, chain + (aid,)))
        frontier = nxt
    return Link(False, (hq.id,), best)


def orders_test_actions(die: int, params: RuleParameters) -> int:
    """Actions the orders test gives for ``die`` (2.2: 1-2 → 3, 3-4 → 2, 5-6 → 1)."""
    return int(params.get("orders_test_table")[die - 1])


def out_of_zone_result(die: int, params: RuleParameters) -> str:
    """``full``, ``one`` or ``none`` for the out-of-zone order test (тест на приказ)."""
    return str(params.get("out_of_zone_table")[die - 1])


def actions_distribution(params: RuleParameters) -> dict[int, Fraction]:
    """Exact chance of each number of actions from the orders test."""
    table = params.get("orders_test_table")
    return {n: Fraction(sum(1 for v in table if v == n), 6) for n in sorted(set(table))}


def roll_d6(dice: DiceSource, purpose: str) -> int:
    return dice.roll(purpose, D6)[0]


def table_record(
    purpose: str, label: str, die: int, source: str, outcome: str, success: bool | None = None
) -> RollRecord:
    return RollRecord(
        purpose=purpose, label=label, dice=D6, raw=(die,), threshold_source=source, outcome=outcome, success=success
    )


def roll_initiative(
    state: GameState, sides: tuple[str, str], params: RuleParameters, dice: DiceSource
) -> tuple[str, list[RollRecord], str]:
    """2.1: one D6 each, the higher acts first; ties are rolled again (Ambiguity 2, assumed
    ``initiative_tie`` = ``reroll``; ``holder_keeps``: a tie leaves the initiative with the side
    that held it last turn, rolled again only when no side has held it).

    Returns ``(side, rolls, explanation)``.
    """
    holder = state.flags.get("initiative:holder")
    keeps = params.get("initiative_tie") == "holder_keeps" and holder in sides
    rolls: list[RollRecord] = []
    attempt = 1
    while True:
        faces = {}
        for s in sides:
            purpose = f"regimental-initiative:{s}:t{state.turn}:{attempt}"
            faces[s] = roll_d6(dice, purpose)
            rolls.append(table_record(purpose, f"Initiative, {s}", faces[s], "higher D6 acts first (2.1)", ""))
        a, b = sides
        if faces[a] != faces[b]:
            w = a if faces[a] > faces[b] else b
            text = (
                "; ".join(r.explain() for r in rolls)
                + f". {w} wins {max(faces.values())} to {min(faces.values())} and activates first."
            )
            return w, rolls, text
        if keeps:
            text = "; ".join(r.explain() for r in rolls) + (
                f". A tie at {faces[a]}: {holder} held the initiative and keeps it (initiative_tie holder_keeps)."
            )
            return str(holder), rolls, text
        attempt += 1


def activation_of(state: GameState, formation: str) -> dict[str, Any] | None:
    """This turn's activation record of ``formation`` (or of the division above it)."""
    for f in (formation, state.oob.superior(formation)):
        rec = state.flags.get(f"activated:{f}") if f else None
        if rec and int(rec.get("turn", -1)) == state.turn:
            return dict(rec)
    return None


def formations_of(state: GameState, side: str) -> list[str]:
    """Brigade and division generals of ``side`` (the formations that activate)."""
    return sorted(
        c.id
        for c in state.commanders.values()
        if c.side == side and c.echelon in ("division", "brigade") and c.attributes.get("role") != "adjutant"
    )


def may_activate(state: GameState, formation: str) -> str:
    """ "" when ``formation`` may be activated now, else the reason (2.2)."""
    c = state.commanders.get(formation)
    if c is None or c.echelon not in ("division", "brigade"):
        return f"{formation!r} is not a brigade or division general"
    if activation_of(state, formation):
        return f"{c.name or formation} has already received orders this turn"
    for sub in state.oob.subordinates(formation):
        if state.flags.get(f"activated:{sub}", {}).get("turn") == state.turn:
            return f"a brigade of {c.name or formation} has already been activated this turn"
    return ""


def eligible(state: GameState, side: str) -> list[str]:
    """Formations of ``side`` that may still be activated this turn."""
    return [f for f in formations_of(state, side) if not may_activate(state, f)]
