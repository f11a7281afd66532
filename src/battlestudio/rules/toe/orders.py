"""Torden over Europa's order types and whether an order may be given (2.1–2.12).

Orders go to corps generals (and divisions directly under a chief) from the C-in-C and army
generals: A attack, H hold, T retreat, M march; the C-in-C gives army generals mission orders;
a corps general may order his own corps to retreat and detach divisions or brigades with M, H or
T; a march order to a detached formation lifts the detachment. Spare order capacity buys general
moves (15 cm corps general, 40 cm chief). A corps general the scenario names acting army chief
(``scenario.acting_army_chief``) also gives his own corps A, H or M orders as an army chief does
(2.3, 2.12). An order that has not gone through stays pending (A6) until it passes, its issuer
cancels it (it costs what the order cost, 2.12), or a new order to the recipient replaces it; no
corps gets both an order and a cancellation in one turn (3.3). ``check_request`` answers "may this
be ordered now, and why not".
"""

from __future__ import annotations

import math

from battlestudio.model.geometry import Point
from battlestudio.model.orders import Order
from battlestudio.model.units import Echelon
from battlestudio.replay.order_events import DEFENCE, oas_spent
from battlestudio.replay.state import GameState
from battlestudio.rules.params import RuleParameters, RuleRefused
from battlestudio.rules.protocol import OrderRequest, OrderTypeSpec, ParameterSpec
from battlestudio.rules.toe.command import fmt_cm
from battlestudio.rules.toe.common import (
    CHIEFS,
    PENDING,
    corps_of,
    acting_army_chiefs,
    command_taken_over,
    commander_of,
    enemies_near,
    enemies_of,
    is_acting_chief,
    is_detached,
    name_of,
    order_capacity,
    pending_orders,
    position_of,
    shape_of,
    standing_order,
)

ORDER_TERMS = {
    "A": ("attack", "angrebsordre", "2.7"),
    "H": ("hold", "holdordre", "2.8"),
    "T": ("retreat", "tilbageordre", "2.9"),
    "M": ("march", "marchordre", "2.10"),
    "D": ("detachment", "detachering", "2.11"),
    "mission": ("mission order to an army general", "opgavemæssig ordre", "2.2"),
    "move": ("general move bought with order capacity", "OAS-ryk", "2.12"),
    "cancel": ("cancellation", "aflysning", "2.12, 3.3"),
}

CORPS_ORDERS = ("A", "H", "T", "M")


def spec(order_type: str, p: RuleParameters, unavailable: str = "", cost: int = 0) -> OrderTypeSpec:
    """The ``OrderTypeSpec`` of a Torden over Europa order type."""
    label, term, rule = ORDER_TERMS[order_type]
    objective_max = float(p.get("objective_max_cm"))
    params: tuple[ParameterSpec, ...] = ()
    issuers: tuple[str, ...] = CHIEFS
    recipients: tuple[str, ...] = (Echelon.CORPS.value, Echelon.DIVISION.value)
    standing, dice = True, True
    if order_type == "A":
        params = (ParameterSpec("objective", "point", True, objective_max, note="towards the enemy"),)
    elif order_type == "T":
        params = (ParameterSpec("objective", "point", True, objective_max, note="directly away from the enemy front"),)
        issuers = CHIEFS + (Echelon.CORPS.value,)
    elif order_type == "M":
        params = (ParameterSpec("objective", "point", True, note="never within 75 cm of the enemy"),)
        issuers = CHIEFS + (Echelon.CORPS.value,)
        recipients = recipients + (Echelon.BRIGADE.value,)
    elif order_type == "D":
        params = (
            ParameterSpec("point", "point", True, note="where the division general or brigade goes"),
            ParameterSpec("mode", "choice", True, choices=("M", "H", "T")),
        )
        issuers, recipients = (Echelon.CORPS.value,), (Echelon.DIVISION.value, Echelon.BRIGADE.value)
    elif order_type == "mission":
        params = (ParameterSpec("text", "text", True),)
        issuers, recipients = (Echelon.C_IN_C.value,), (Echelon.ARMY.value,)
    elif order_type == "cancel":
        standing, dice = False, bool(p.get("cancellation_needs_roll"))
    elif order_type == "move":
        params = (
            ParameterSpec(
                "to",
                "point",
                True,
                float(p.get("oas_corps_move_cm")),
                note=f"{p.get('oas_chief_move_cm')} cm when a chief moves himself",
            ),
        )
        recipients, standing, dice = (Echelon.CORPS.value,) + CHIEFS, False, False
    return OrderTypeSpec(
        order_type,
        label,
        term,
        issuers,
        recipients,
        params,
        cost,
        "OAS" if cost else "",
        dice,
        standing,
        unavailable,
        rule,
    )


def _echelon_of(state: GameState, node: str) -> str:
    c = state.commanders.get(node)
    return c.echelon if c is not None else Echelon.BRIGADE.value


def _dist(a: Point, b: Point) -> float:
    return math.hypot(b[0] - a[0], b[1] - a[1])


def _angle(u: tuple[float, float], v: tuple[float, float]) -> float:
    nu, nv = math.hypot(*u), math.hypot(*v)
    if nu == 0 or nv == 0:
        return 0.0
    c = max(-1.0, min(1.0, (u[0] * v[0] + u[1] * v[1]) / (nu * nv)))
    return math.degrees(math.acos(c))


def nearest_enemy_point(state: GameState, node: str) -> tuple[Point, str] | None:
    """Nearest point (cm) of the nearest enemy unit to ``node``'s position, and that unit's id
    (the first in state order of those equally near).

    Measures exactly only the enemies whose footprint's bounding box is no farther than the
    nearest bounding box's footprint (the others are farther): the answer of
    ``nearest_enemy_point_scan``, without measuring every enemy.
    """
    import numpy
    import shapely
    from shapely.geometry import Point as SPoint
    from shapely.ops import nearest_points

    from battlestudio.rules.toe.table_index import table_index

    pos = position_of(state, node)
    side = (state.commanders.get(node) or state.units[node]).side
    idx = table_index(state)
    slots = numpy.flatnonzero(idx.side_mask(idx.on_table, side))
    if not len(slots):
        return None
    here = SPoint(pos)
    low = idx.box_gaps(slots, pos[0], pos[1])
    first = slots[int(low.argmin())]
    bound = float(idx.shapes[first].distance(here))
    near = slots[low <= bound + 1e-9]  # ascending slots: state order
    gaps = shapely.distance(idx.shapes[near], here)
    k = int(gaps.argmin())  # the first of the smallest, as the scan's strict "<" keeps it
    e = idx.units[near[k]]
    assert e is not None
    q = nearest_points(idx.shapes[near[k]], here)[0]
    return (q.x, q.y), e.id


def nearest_enemy_point_scan(state: GameState, node: str) -> tuple[Point, str] | None:
    """``nearest_enemy_point`` measured on every enemy unit (the plain scan, for tests)."""
    from shapely.geometry import Point as SPoint
    from shapely.ops import nearest_points

    pos = position_of(state, node)
    side = (state.commanders.get(node) or state.units[node]).side
    best: tuple[float, Point, str] | None = None
    for e in enemies_of(state, side):
        poly = e.footprint()
        d = poly.distance(SPoint(pos))
        if best is None or d < best[0]:
            q = nearest_points(poly, SPoint(pos))[0]
            best = (d, (q.x, q.y), e.id)
    return None if best is None else (best[1], best[2])


RETREAT_DIRECTIONS = ("nearest_enemy", "enemy_front")
"""Readings of "directly away from the enemy front" (2.9, A11) the ``retreat_direction``
parameter may name."""


def retreat_direction(state: GameState, node: str, p: RuleParameters | None = None) -> tuple[float, float] | None:
    """Unit vector directly away from the enemy front (2.9, A11), or None with no enemy on the table.

    ``p["retreat_direction"]`` chooses the reading (the assumed ``"nearest_enemy"`` when ``p``
    is None):

    * ``"nearest_enemy"`` (A11's best reading): away from the nearest point of the nearest enemy
      unit; the way that unit faces when it stands on the general;
    * ``"enemy_front"`` (T-9's alternative): the way the enemy front faces, i.e. the mean facing
      of the enemy units within ``retreat_front_radius_cm`` (75 cm) of the general. Their fronts
      face the corps, so this is straight back from their line even when the nearest enemy has
      got round a flank. The digest writes it ``−mean(f_E)``; with the glossary's facing vector
      ``f`` (forward, perpendicular to the front) that would point into an enemy facing the corps,
      so the seed's words are followed: away from the front = the way it faces. Falls back to
      ``"nearest_enemy"`` when no enemy is that close or their facings cancel out.

    Raises
    ------
    RuleRefused
        for another ``retreat_direction`` value.
    """
    how = "nearest_enemy" if p is None else str(p.get("retreat_direction"))
    if how not in RETREAT_DIRECTIONS:
        raise RuleRefused(
            f"retreat_direction {how!r} is not supported; use one of {', '.join(RETREAT_DIRECTIONS)} (A11)"
        )
    if how == "enemy_front":
        front = _enemy_front_facing(state, node, float(p.get("retreat_front_radius_cm")))  # type: ignore[union-attr]
        if front is not None:
            return front
    found = nearest_enemy_point(state, node)
    if found is None:
        return None
    (qx, qy), eid = found
    px, py = position_of(state, node)
    n = math.hypot(px - qx, py - qy)
    if n <= 1e-9:  # the enemy stands on him: away = the way that enemy faces
        r = math.radians(state.units[eid].facing)
        return (math.cos(r), math.sin(r))
    return ((px - qx) / n, (py - qy) / n)


def _enemy_front_facing(state: GameState, node: str, radius: float) -> tuple[float, float] | None:
    """Mean facing (unit vector) of the enemy units within ``radius`` cm of ``node`` (nearest
    point of each footprint), or None when there are none or their facings cancel out."""
    from shapely.geometry import Point as SPoint

    here = SPoint(position_of(state, node))
    side = (state.commanders.get(node) or state.units[node]).side
    sx = sy = 0.0
    for e in enemies_of(state, side):
        if e.footprint().distance(here) <= radius + 1e-9:
            r = math.radians(e.facing)
            sx, sy = sx + math.cos(r), sy + math.sin(r)
    n = math.hypot(sx, sy)
    if n <= 1e-6:
        return None
    return (sx / n, sy / n)


ACTING_CHIEF_MOVES = ("corps", "chief")
"""Readings of an acting army chief's bought move of himself (``acting_chief_moves_as``)."""


def goes_as_chief(state: GameState, p: RuleParameters, issuer: str, recipient: str, order_type: str) -> bool:
    """True when ``issuer``'s order of ``order_type`` to ``recipient`` goes as a chief's (1 OAS,
    rolled in his command zones, 2.2, 2.3, 2.12), False as a corps general's own (no OAS, zone 1,
    2.4, A20).

    An acting army chief (``scenario.acting_army_chief``) gives his own corps A, H or M as an army
    chief (2.3; "Ordren tildeles korpset af hærchefen eller armégeneralen", 2.4) and buys moves
    with his OAS; his retreat of his own corps, detachments and the march lifting one stay a
    corps general's own orders (2.4: "selvstændigt"). Orders to the divisions directly under him
    go as a chief's only with the assumed ``acting_chief_orders_divisions`` (2.1, 2.3).
    """
    c = state.commanders.get(issuer)
    if c is None:
        return False
    if c.echelon in CHIEFS:
        return True
    if not is_acting_chief(p, c):
        return False
    if order_type == "move":
        return True
    if order_type not in CORPS_ORDERS:
        return False
    if recipient == issuer:
        return order_type != "T"
    if order_type == "M" and is_detached(state, recipient):
        return False
    return bool(p.get("acting_chief_orders_divisions"))


def order_cost(state: GameState, p: RuleParameters, issuer: str, recipient: str, order_type: str) -> int:
    """1 OAS point for a chief's order, cancellation or move (2.12); a corps general's own
    orders cost nothing (``goes_as_chief``)."""
    return 1 if goes_as_chief(state, p, issuer, recipient, order_type) else 0


def check_request(state: GameState, p: RuleParameters, req: OrderRequest, budget_used: int = 0) -> str:
    """Why ``req`` may not be given now ("" when it may). ``budget_used`` counts points already
    committed by earlier declarations of the same phase.

    Raises
    ------
    MissingParameterError
        when a check needs a missing value (e.g. the issuer's OAS).
    """
    issuer = state.commanders.get(req.issuer)
    if issuer is None:
        return f"{req.issuer!r} is not a general of this game"
    if req.recipient not in state.commanders and req.recipient not in state.units:
        return f"{req.recipient!r} is not a general or unit of this game"
    rec = state.commanders.get(req.recipient) or state.units[req.recipient]
    if rec.side != issuer.side:
        return f"{name_of(state, req.recipient)} fights for another side"
    if req.recipient in state.off_table:
        return f"{name_of(state, req.recipient)} is not on the table yet"
    acting_army_chiefs(p, state)  # refuses a scenario value naming no corps general
    cost = order_cost(state, p, req.issuer, req.recipient, req.order_type)
    if cost:
        cap = order_capacity(p, issuer)
        spent = oas_spent(state, req.issuer) + budget_used
        if spent + cost > cap:
            return f"{issuer.name} has no order capacity left ({spent} of OAS {cap} spent this turn, 2.12)"
    t = req.order_type
    r_ech = _echelon_of(state, req.recipient)
    direct = commander_of(state, p, req.recipient) == req.issuer  # 2.2, 2.12: an attached pair
    if t == "mission":
        if issuer.echelon != Echelon.C_IN_C.value or r_ech != Echelon.ARMY.value:
            return "mission orders go from the C-in-C to army generals (2.2)"
        return "" if req.parameters.get("text") else "a mission order needs its text"
    if t == "move":
        return _check_move(state, p, req)
    if issuer.echelon in CHIEFS:
        taken = command_taken_over(state, p, req.issuer) if t in CORPS_ORDERS else ""
        if taken:
            return taken
        if t not in CORPS_ORDERS:
            return f"a {issuer.echelon.replace('_', '-')} general gives A, H, T or M orders, not {t!r} (2.2-2.4)"
        if r_ech not in (Echelon.CORPS.value, Echelon.DIVISION.value) or not direct:
            return (
                f"{issuer.name} orders only corps generals or divisions directly under him; "
                f"{name_of(state, req.recipient)} is not (2.2, 2.3)"
            )
    elif goes_as_chief(state, p, req.issuer, req.recipient, t):  # an acting army chief's order
        if req.recipient != req.issuer and (r_ech != Echelon.DIVISION.value or not direct):
            return (
                f"as acting army chief {issuer.name} orders his own corps, or divisions directly under him; "
                f"{name_of(state, req.recipient)} is neither (2.3)"
            )
    elif issuer.echelon == Echelon.CORPS.value:
        if t == "T" and req.recipient == req.issuer:
            if req.parameters.get("automatic"):
                return _check_automatic_retreat(state, p, req)
        elif t in ("D", "M") and req.recipient != req.issuer and corps_of(state, req.recipient) == req.issuer:
            if t == "M" and not is_detached(state, req.recipient):
                return "a corps general's march order only lifts a detachment (2.11); this formation is not detached"
        elif is_acting_chief(p, issuer):
            return (
                f"{issuer.name} orders his own corps (A, H, T, M, 2.3, 2.4) and detaches its divisions and "
                "brigades (D, 2.11); they get no orders of their own (2.1; scenario parameter "
                "acting_chief_orders_divisions)"
            )
        else:
            return (
                "a corps general may give only a retreat (T) to his own corps and detachment orders to its "
                "divisions and brigades (2.4)"
            )
    else:
        return f"a {issuer.echelon} general gives no orders (2.1, 2.5)"
    if t == "A" and is_detached(state, req.recipient):
        return "detached formations cannot receive an attack order (2.11)"
    corps = corps_key(state, req.recipient)
    cancelled = (o for o in state.orders.values() if corps_key(state, o.recipient) == corps)
    if any(o.parameters.get("cancellation_turn") == state.turn for o in cancelled):
        return (
            f"{name_of(state, corps)} got a cancellation this turn; a corps gets no order and "
            "cancellation in the same turn (3.3)"
        )
    if (
        r_ech == Echelon.CORPS.value
        and t in CORPS_ORDERS
        and state.flags.get(f"moved_by_oas:{req.recipient}") == state.turn
    ):
        return (
            f"{name_of(state, req.recipient)} was moved with order capacity this turn: 1 OAS moves only a corps "
            "general who is not carrying out another order, so he gets no order in the same turn (2.12)"
        )
    return _check_objective(state, p, req)


def corps_key(state: GameState, node: str) -> str:
    """The corps ``node`` belongs to, for 3.3's "no order and cancellation to the same corps"
    (the node itself when it is under no corps general)."""
    return corps_of(state, node) or node


def pending_from(state: GameState, issuer: str, recipient: str) -> Order | None:
    """``issuer``'s order to ``recipient`` that has not gone through yet (written or failed)."""
    return next((o for o in sorted(pending_orders(state, recipient), key=lambda o: o.id) if o.issuer == issuer), None)


def _check_objective(state: GameState, p: RuleParameters, req: OrderRequest) -> str:
    t, obj = req.order_type, req.objective
    here = position_of(state, req.recipient)
    limit = float(p.get("objective_max_cm"))
    if t == "D":
        point = req.parameters.get("point", obj)
        mode = req.parameters.get("mode")
        if point is None:
            return "a detachment order names the point the formation goes to (2.11)"
        if mode not in ("M", "H", "T"):
            return f"a detachment is made with an M, H or T order, got {mode!r} (2.11)"
        return ""
    if t == "H" or (t == "M" and is_detached(state, req.recipient)):
        return ""
    if obj is None:
        return f"an {ORDER_TERMS[t][0]} order needs an objective (2.6)"
    if t in ("A", "T"):
        d = _dist(here, obj)
        if d > limit + 1e-9:
            return (
                f"the objective is {fmt_cm(d)} cm from {name_of(state, req.recipient)}; "
                f"it must lie within {limit:g} cm ({ORDER_TERMS[t][2]})"
            )
        if t == "A":
            found = nearest_enemy_point(state, req.recipient)
            if found is not None and d > 0:
                q, _ = found
                ang = _angle((obj[0] - here[0], obj[1] - here[1]), (q[0] - here[0], q[1] - here[1]))
                limit_deg = float(p.get("attack_toward_enemy_max_deg"))
                if ang > limit_deg + 1e-9:
                    return (
                        f"an attack must go towards the enemy; the objective lies {ang:.0f}° from the nearest "
                        f"enemy (more than {limit_deg:g}°, 2.7)"
                    )
        else:
            away = retreat_direction(state, req.recipient, p)
            if away is not None and d > 0:
                ang = _angle((obj[0] - here[0], obj[1] - here[1]), away)
                tol = float(p.get("retreat_direction_tolerance_deg"))
                if ang > tol + 1e-9:
                    return (
                        f"a retreat goes directly away from the enemy front; the objective lies {ang:.0f}° off "
                        f"that direction (more than {tol:g}°, 2.9)"
                    )
    if t == "M":
        from battlestudio.model.command_geometry import march_order_violations

        limit_m = float(p.get("march_exclusion_cm"))
        base = shape_of(state, req.recipient)
        enemies = enemies_near(
            state, (state.commanders.get(req.recipient) or state.units[req.recipient]).side, base, limit_m
        )
        if march_order_violations(base, [e.footprint() for e in enemies], limit_m).size:
            return f"{name_of(state, req.recipient)} is within {limit_m:g} cm of the enemy; a march cannot start (2.10)"
    return ""


def _check_automatic_retreat(state: GameState, p: RuleParameters, req: OrderRequest) -> str:
    """Why the corps general may not assign his corps an automatic retreat now ("" when he
    may): more than half its non-artillery units in U/FU or the enemy on his position, and the
    objective the rule gives, 1 m directly away from the enemy (2.9, ERRATA 4)."""
    from battlestudio.rules.toe.checks import at_table_edge, auto_retreat_objective, auto_retreat_reason

    why = auto_retreat_reason(state, p, req.issuer)
    if not why:
        return (
            f"{name_of(state, req.issuer)}'s corps has no cause for an automatic retreat: neither more than half "
            "its non-artillery units in U/FU nor the enemy on his position (2.9)"
        )
    if at_table_edge(state, p, req.issuer, why):
        return (
            f"{name_of(state, req.issuer)} stands at the table edge on his line of retreat: an objective is a point "
            "on the table and there is none further back (2.6, 2.9)"
        )
    obj = auto_retreat_objective(state, p, req.issuer, why)
    if req.objective is not None and _dist(req.objective, obj) > 0.5:
        return (
            f"an automatic retreat goes to ({obj[0]:.1f}, {obj[1]:.1f}), {p.get('auto_retreat_distance_cm')} cm "
            "directly away from the enemy (2.9); leave the objective empty or give that point"
        )
    return ""


def _check_move(state: GameState, p: RuleParameters, req: OrderRequest) -> str:
    to = req.parameters.get("to", req.objective)
    if to is None:
        return "a general move needs the point he moves to"
    issuer = state.commanders[req.issuer]
    if not goes_as_chief(state, p, req.issuer, req.recipient, "move"):
        return "only a C-in-C or army general buys general moves with order capacity (2.12)"
    mover = state.commanders.get(req.recipient)
    if mover is None:
        return "only generals are moved with order capacity (2.12)"
    if p.get("one_oas_move_per_general") and state.flags.get(f"moved_by_oas:{mover.id}") == state.turn:
        return f"{mover.name} has already been moved with order capacity this turn (A18)"
    d = _dist(mover.position, (float(to[0]), float(to[1])))
    if mover.id == issuer.id and is_acting_chief(p, issuer):
        how = p.get("acting_chief_moves_as")
        if how not in ACTING_CHIEF_MOVES:
            raise RuleRefused(
                f"acting_chief_moves_as {how!r} is not supported; use one of {', '.join(ACTING_CHIEF_MOVES)}"
            )
        limit = float(p.get("oas_chief_move_cm" if how == "chief" else "oas_corps_move_cm"))
        o = standing_order(state, mover.id)
        if how == "corps" and o is not None and o.order_type not in ("H", DEFENCE):
            return f"{mover.name} is carrying out another order ({o.order_type}); no 15 cm move (2.12)"
    elif mover.id == issuer.id:
        limit = float(p.get("oas_chief_move_cm"))
    elif (
        mover.echelon == Echelon.CORPS.value
        and corps_of(state, mover.id) == mover.id
        and req.issuer in state.oob.chain_of_command(mover.id)
    ):
        o = standing_order(state, mover.id)
        if o is not None and o.order_type not in ("H", DEFENCE):
            return f"{mover.name} is carrying out another order ({o.order_type}); no 15 cm move (2.12)"
        fresh = next(
            (
                o
                for o in sorted(state.orders.values(), key=lambda o: o.id)
                if o.recipient == mover.id
                and o.turn_issued == state.turn
                and o.order_type in CORPS_ORDERS
                and o.status.value != "cancelled"
            ),
            None,
        )
        if fresh is not None:
            return (
                f"{mover.name} received order {fresh.id} ({fresh.order_type}) this turn; 1 OAS moves only a "
                "corps general not carrying out another order (2.12)"
            )
        limit = float(p.get("oas_corps_move_cm"))
    else:
        return "order capacity moves a chief himself or a corps general under him (2.12)"
    if d > limit + 1e-9:
        return f"{mover.name} would move {fmt_cm(d)} cm; 1 OAS buys at most {limit:g} cm (2.12)"
    return ""


def order_types(state: GameState, p: RuleParameters, issuer: str, recipient: str) -> list[OrderTypeSpec]:
    """Order types ``issuer`` could give ``recipient`` now, each with the reason it is
    unavailable if it is (Protocol method 3). Types that can never apply between these two
    echelons are left out."""
    c = state.commanders.get(issuer)
    if c is None:
        raise RuleRefused(f"no commander {issuer!r} in this game")
    acting_army_chiefs(p, state)
    r_ech = _echelon_of(state, recipient)
    candidates: list[tuple[str, OrderRequest]] = []
    if c.echelon == Echelon.C_IN_C.value and r_ech == Echelon.ARMY.value:
        candidates.append(("mission", OrderRequest(issuer, recipient, "mission", parameters={"text": "-"})))
    if c.echelon in CHIEFS and r_ech in (Echelon.CORPS.value, Echelon.DIVISION.value):
        here = position_of(state, recipient)
        for t in CORPS_ORDERS:  # objective at his own position: checks the type, not a choice
            candidates.append((t, OrderRequest(issuer, recipient, t, objective=here)))
    waiting = pending_from(state, issuer, recipient)
    if waiting is not None:
        candidates.append(("cancel", OrderRequest(issuer, recipient, "cancel", cancel=waiting.id)))
    if c.echelon in CHIEFS and (recipient == issuer or r_ech == Echelon.CORPS.value):
        candidates.append(
            ("move", OrderRequest(issuer, recipient, "move", parameters={"to": position_of(state, recipient)}))
        )
    acting = c.echelon == Echelon.CORPS.value and is_acting_chief(p, c)
    if acting and recipient == issuer:  # his own corps as army chief (2.3), and his bought move
        here = position_of(state, recipient)
        candidates += [(t, OrderRequest(issuer, recipient, t, objective=here)) for t in ("A", "H", "M")]
        candidates.append(("move", OrderRequest(issuer, recipient, "move", parameters={"to": here})))
    elif acting and r_ech == Echelon.DIVISION.value and state.oob.superior(recipient) == issuer:
        if p.get("acting_chief_orders_divisions"):
            here = position_of(state, recipient)
            lifting = is_detached(state, recipient)  # then M lifts the detachment (below)
            candidates += [
                (t, OrderRequest(issuer, recipient, t, objective=here))
                for t in CORPS_ORDERS
                if not (t == "M" and lifting)
            ]
    if c.echelon == Echelon.CORPS.value:
        if recipient == issuer:
            candidates.append(("T", OrderRequest(issuer, recipient, "T", objective=position_of(state, recipient))))
        elif corps_of(state, recipient) == issuer:
            candidates.append(("D", OrderRequest(issuer, recipient, "D", parameters={"mode": "H", "point": (0, 0)})))
            if is_detached(state, recipient):
                candidates.append(("M", OrderRequest(issuer, recipient, "M")))
    out = []
    listed = ("mission", "A", "H", "T", "M", "D", "move", "cancel")
    for t, req in sorted(candidates, key=lambda tr: listed.index(tr[0])):
        if t == "cancel":
            why = check_cancel(state, p, req)
            cost = order_cost(state, p, waiting.issuer, waiting.recipient, waiting.order_type) if waiting else 0
        else:
            why = check_request(state, p, req)
            cost = order_cost(state, p, issuer, recipient, t)
        out.append(spec(t, p, why, cost))
    return out


def check_cancel(state: GameState, p: RuleParameters, req: OrderRequest, used: int = 0) -> str:
    """Why the cancellation ``req`` may not be declared now ("" when it may): the order named by
    ``req.cancel`` (default: the issuer's pending order to ``req.recipient``) must exist, not be
    over, be the issuer's own, and he must have 1 OAS left (2.12)."""
    oid = cancel_target(state, req)
    target = state.orders.get(oid)
    if target is None:
        if not oid:
            return f"{name_of(state, req.recipient)} has no order to cancel"
        return f"there is no order {oid!r} to cancel"
    if target.status.value in ("cancelled", "completed"):
        return f"order {oid} is already {target.status.value}"
    if target.status not in PENDING:
        return (
            f"order {oid} has already got through command control; only orders not yet through are "
            "cancelled (2.12: 'der ikke er gennemført ved tidligere foretagne kommandokontrol'); "
            "a new order replaces it"
        )
    if target.issuer != req.issuer:
        return f"order {oid} was written by {name_of(state, target.issuer)}; only he cancels it"
    corps = corps_key(state, target.recipient)
    fresh = [
        o.id
        for o in state.orders.values()
        if corps_key(state, o.recipient) == corps and o.turn_issued == state.turn and o.order_type != DEFENCE
    ]
    if fresh:
        return (
            f"{name_of(state, corps)} got order {fresh[0]} this turn; a corps gets no order and "
            "cancellation in the same turn (3.3)"
        )
    issuer = state.commanders.get(req.issuer)
    cost = order_cost(state, p, target.issuer, target.recipient, target.order_type)  # what its order cost
    if issuer is not None and cost:
        cap = order_capacity(p, issuer)
        spent = oas_spent(state, req.issuer) + used
        if spent + cost > cap:
            return f"{issuer.name} has no order capacity left ({spent} of OAS {cap} spent this turn, 2.12)"
    return ""


def cancel_target(state: GameState, req: OrderRequest) -> str:
    """The id of the order a cancellation names: ``req.cancel``, else the issuer's pending order
    to ``req.recipient`` ("" when there is none)."""
    if req.cancel:
        return req.cancel
    waiting = pending_from(state, req.issuer, req.recipient) if req.recipient else None
    return waiting.id if waiting is not None else ""
