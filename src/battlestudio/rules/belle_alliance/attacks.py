"""Belle Alliance attack rules as umpire checks (4.1.1–4.1.8): who may attack or only close to
break-in distance, what an announcement must say, who stops at break-in distance, neighbour
and support unit eligibility, and the continued advance and continued attack.

A unit's attack order is its order sheet entry: an ``Order`` with ``order_type == "attack"``
in force for the unit, ``parameters`` ``target``, ``storm``, ``against_position``. Unit states
are ``O``, ``LU``, ``U``, ``FU`` (U/FU: disorder and complete disorder). Each check returns
``(ok, reasons)`` with reasons citing the section.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from collections.abc import Sequence

from shapely.geometry import Polygon

from battlestudio.model.geometry import grid_shape
from battlestudio.model.orders import Order, OrderStatus
from battlestudio.model.units import Arm, Unit
from battlestudio.replay.state import GameState
from battlestudio.rules.belle_alliance.geometry import at_break_in, figure_grid, pivot_ok, support_position_ok
from battlestudio.rules.params import RuleParameters

DISORDERED = ("U", "FU")


@dataclass(frozen=True, slots=True)
class Announcement:
    """An attack announcement (4.1.1): ``attacker``, ``target`` (None when only a position),
    ``storm``, ``against_position`` (default: the unit itself, 4.1.2)."""

    attacker: str
    target: str | None
    storm: bool = False
    against_position: bool = False


def attack_order(state: GameState, unit_id: str) -> Order | None:
    """The unit's attack order in force, if any: only a delivered order (its order roll, 1.1.3,
    passed). A written order whose roll was never made, or that failed, is not in force."""
    for o in state.orders.values():
        if o.recipient == unit_id and o.order_type == "attack" and o.status is OrderStatus.DELIVERED:
            return o
    return None


def written_attack_order(state: GameState, unit_id: str) -> Order | None:
    """The unit's attack order written (or failed earlier) and waiting for its order roll."""
    for o in state.orders.values():
        if (
            o.recipient == unit_id
            and o.order_type == "attack"
            and o.status in (OrderStatus.WRITTEN, OrderStatus.FAILED)
        ):
            return o
    return None


def figures_in_grid(u: Unit) -> list[Polygon]:
    """The unit's figure rectangles (glossary §1.4)."""
    files, ranks = grid_shape(u.formation.value, u.figures, u.column_ranks)
    return figure_grid(u.rect(), files, ranks)


def may_attack(
    state: GameState, unit_id: str, announcement: Announcement | None, opponent_demands: bool = False
) -> tuple[bool, list[str]]:
    """4.1.1: a unit without an attack order, in U or FU, or whose attack was not announced
    (unless the opponent demands it) may only move up to break-in distance."""
    u = state.units[unit_id]
    reasons = []
    if attack_order(state, unit_id) is None:
        reasons.append("4.1.1: no attack order on its order sheet, it may only close to break-in distance")
    if u.state in DISORDERED:
        reasons.append(f"4.1.1: it is in {u.state}, it may only close to break-in distance")
    if announcement is None and not opponent_demands:
        reasons.append("4.1.1: the attack was not announced (the opponent may demand it be fought)")
    return not reasons, reasons


def check_announcement(state: GameState, ann: Announcement) -> tuple[bool, list[str]]:
    """4.1.1 / 4.1.2: the announcement states the order sheet's target ("oplyses om
    ordresedlens angivelse af angrebets mål"), whether storm is used and whether the attack is
    against the unit's position. Only the target is tied to the sheet; storm is announced, not
    written. A position attack needs both sheet and announcement ("Såfremt der ikke angives og
    meldes andet, betragtes et angreb som ført mod selve enheden"): a sheet position not
    announced is an attack on the unit; an announced position the sheet lacks is refused."""
    order = attack_order(state, ann.attacker)
    if order is None:
        return False, ["4.1.1: no attack order to announce"]
    reasons = []
    sheet_target = order.parameters.get("target")
    if ann.target is not None and sheet_target is not None and ann.target != sheet_target:
        reasons.append(f"4.1.1 / 1.1.2: the order sheet names target {sheet_target!r}, not {ann.target!r}")
    if ann.target is None and not ann.against_position:
        reasons.append("4.1.2: an attack with no target unit must be against a position")
    if ann.against_position and not order.parameters.get("against_position", False):
        reasons.append("4.1.2: the order sheet does not name the position; the attack is against the unit itself")
    return not reasons, reasons


def both_stop(
    state: GameState,
    mover: str,
    enemy: str,
    params: RuleParameters,
    announced: Announcement | None,
    cancels: bool = False,
) -> tuple[bool, bool, str]:
    """4.1.1 (B-4): when ``mover``'s break-in zone touches ``enemy`` the mover stops; the enemy
    stops too if the mover may attack it this turn (A17: order, not U/FU, announced, enemy is
    its target) and does not cancel. Returns ``(mover_stops, enemy_stops, why)``."""
    m, e = state.units[mover], state.units[enemy]
    depth, eps = float(params.get("break_in_depth_cm")), float(params.get("touch_eps_cm"))
    if not at_break_in(m.rect(), e.rect(), depth, eps):
        return False, False, f"{mover}'s break-in zone does not touch {enemy}: it may move on (4.1.1)"
    ok, _ = may_attack(state, mover, announced)
    if ok and not cancels:
        target = announced.target if announced else None
        how = "its target" if target == enemy else "an intervening unit: the attack switches to it (4.1.2)"
        return True, True, f"{mover} reaches break-in distance of {enemy}, {how}; both stop (4.1.1)"
    return True, False, f"{mover} reaches break-in distance of {enemy} and stops; {enemy} moves on (4.1.1)"


def check_neighbour(
    state: GameState,
    nid: str,
    attacker: str,
    enemy: str,
    params: RuleParameters,
    defenders: Sequence[str] = (),
    fighting: Sequence[str] = (),
    taken: Sequence[str] = (),
    flank_or_rear_attacked: Sequence[str] = (),
) -> tuple[bool, list[str]]:
    """4.1.6 (B-15): closed formation, at least half the attacker's figures, not U/FU, same
    arm, not a defender, not parent/soutien of the attacker's chain, one unit per sub-phase,
    not attacked in flank or rear, and (A10) its own break-in zone touches the same enemy."""
    n, a, e = state.units[nid], state.units[attacker], state.units[enemy]
    r = []
    if n.side != a.side:
        r.append("a neighbour is a friendly unit")
    if n.formation.value not in set(params.get("closed_formations")):
        r.append(f"4.1.6: not in closed formation ({n.formation.value})")
    ratio = float(params.get("neighbour_min_fig_ratio"))
    if n.figures < ratio * a.figures:
        r.append(f"4.1.6: {n.figures} figures, fewer than half the attacker's {a.figures}")
    if n.state in DISORDERED:
        r.append(f"4.1.6: in {n.state}")
    if n.arm is not a.arm:
        r.append(f"4.1.6: {n.arm.value}, not the attacker's arm ({a.arm.value})")
    if nid in defenders:
        r.append("4.1.6: a defender cannot be a neighbour to an attacker")
    if a.attributes.get("chain_parent") == nid or a.attributes.get("soutien") == nid:
        r.append("4.1.6: a parent unit or soutien cannot be a neighbour to its own chain")
    if nid in fighting:
        r.append("4.1.6: it fights its own melee")
    if nid in taken:
        r.append("4.1.6: already a neighbour in this melee sub-phase")
    if nid in flank_or_rear_attacked:
        r.append("4.1.8: a unit attacked in the flank or rear cannot be a neighbour")
    params.get("neighbour_position")
    depth, eps = float(params.get("break_in_depth_cm")), float(params.get("touch_eps_cm"))
    if not at_break_in(n.rect(), e.rect(), depth, eps):
        r.append("A10 (best reading): its break-in zone does not touch the same enemy")
    return not r, r


def check_support(
    state: GameState,
    sid: str,
    supported: str,
    params: RuleParameters,
    fighting: Sequence[str] = (),
    neighbours: Sequence[str] = (),
    taken: Sequence[str] = (),
) -> tuple[bool, list[str]]:
    """4.1.7 (B-16): closed formation, at least half the supported unit's figures, not
    artillery, not U/FU, infantry never supports cavalry, not parent/soutien of its chain, not
    fighting or a neighbour itself, one unit per sub-phase; and (A11) behind the supported unit
    within ``support_max_cm`` (a scenario parameter: refused when absent)."""
    s, t = state.units[sid], state.units[supported]
    r = []
    if s.formation.value not in set(params.get("closed_formations")):
        r.append(f"4.1.7: not in closed formation ({s.formation.value})")
    if s.figures < float(params.get("support_min_fig_ratio")) * t.figures:
        r.append(f"4.1.7: {s.figures} figures, fewer than half the supported unit's {t.figures}")
    if s.arm is Arm.ARTILLERY:
        r.append("4.1.7: artillery cannot support")
    if s.state in DISORDERED:
        r.append(f"4.1.7: in {s.state}")
    if s.arm is Arm.INFANTRY and t.arm is Arm.CAVALRY:
        r.append("4.1.7: infantry cannot support cavalry")
    if t.attributes.get("chain_parent") == sid or t.attributes.get("soutien") == sid:
        r.append("4.1.7: a parent unit or soutien cannot support its own chain")
    if sid in fighting or sid in neighbours:
        r.append("4.1.7: a unit that fights a melee or is a neighbour cannot also support")
    if sid in taken:
        r.append("4.1.7: already a support in this melee sub-phase")
    ok, why = support_position_ok(s.rect(), t.rect(), float(params.get("support_max_cm")))
    if not ok:
        r.append(f"A11 (best reading): {why}")
    return not r, r


def check_continued_advance(
    distance: float,
    last_march_rate: float,
    pivots: Sequence[float],
    params: RuleParameters,
    frontage_cm: float = 0.0,
) -> tuple[bool, list[str]]:
    """4.1.4 (B-10): at most half a turn's march at the march rate last used ("et halvt træks
    march med den marchlængde, der senest blev anvendt"), one direction change, by a pivot of at
    most 20°. The pivot's outer corner travels ``frontage_cm`` × angle (radians), charged
    against the half march with ``distance`` (A20)."""
    r = []
    limit = float(params.get("continued_advance_factor")) * last_march_rate
    arc = sum(frontage_cm * math.radians(abs(a)) for a in pivots)
    used = distance + arc
    if used > limit + 1e-6:
        how = f"{distance:g} cm and a pivot arc of {arc:.1f} cm" if arc else f"{distance:g} cm"
        r.append(f"4.1.4: {how} is more than half a march ({limit:g} cm of {last_march_rate:g} cm)")
    ok, why = pivot_ok(
        pivots, int(params.get("continued_advance_max_pivots")), float(params.get("continued_advance_max_pivot_deg"))
    )
    if not ok:
        r.append(f"4.1.4: {why}")
    return not r, r


def check_continued_attack(
    opponent_state: str, role: str = "attacker", already_continued: bool = False
) -> tuple[bool, list[str]]:
    """4.1.4: a continued attack needs the opponent in FU (from the melee, or in the fire phase
    while at break-in distance); a continued attack never gives another; a support unit may
    join the continued advance but not attack (4.1.7); a neighbour may (4.1.6)."""
    r = []
    if opponent_state != "FU":
        r.append(f"4.1.4: the opponent is {opponent_state}, not FU")
    if already_continued:
        r.append("4.1.4: a continued attack gives no further continued advance or attack")
    if role == "support":
        r.append("4.1.7: a support unit may join the continued advance but makes no continued attack")
    return not r, r


def order_roll(params: RuleParameters) -> tuple[int, int, str, int]:
    """The order roll (1.1.3, not in the excerpt) from scenario parameter ``order_roll``, written
    ``"<n>d<sides> >= <target>"`` (or ``<=``), e.g. ``"2d6 >= 7"``: ``(n, sides, op, target)``.

    Raises
    ------
    MissingParameterError
        when the scenario does not give ``order_roll``.
    RuleRefused
        for a value not in that form, quoting it.
    """
    import re

    from battlestudio.rules.params import RuleRefused

    _, text = params.require("order_roll", "order_roll")
    m = re.fullmatch(r"\s*(\d+)\s*d\s*(\d+)\s*(>=|<=)\s*(\d+)\s*", str(text))
    if not m:
        raise RuleRefused(f"scenario parameter 'order_roll' = {text!r} is not of the form '2d6 >= 7'")
    return int(m.group(1)), int(m.group(2)), m.group(3), int(m.group(4))
