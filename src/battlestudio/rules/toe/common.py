"""Shared look-ups of Torden over Europa's command rules: generals' ratings, the corps a node
belongs to, enemies, standing orders in force and their propagation down the order of battle.

Ratings the rules text does not give (OAS, KE, command distances, march lengths) come from the
commander or unit record first, then from named scenario parameters; absent both, a
``MissingParameterError`` names the parameter (shared/DESIGN.md: never invent a rule value).
"""

from __future__ import annotations

import math
from typing import Any
from collections.abc import Iterable, Mapping

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from battlestudio.model.command_geometry import general_base
from battlestudio.model.geometry import Point
from battlestudio.model.orders import Order, OrderStatus
from battlestudio.model.units import Arm, Commander, Echelon, OrderState, Unit, cached_split
from battlestudio.replay.order_events import DEFENCE
from battlestudio.replay.state import GameState
from battlestudio.rules.params import RuleParameters, RuleRefused

CHIEFS = (Echelon.C_IN_C.value, Echelon.ARMY.value)
"""Echelons with order capacity and command zones (2.2, 2.3, 2.12)."""

PENDING = (OrderStatus.WRITTEN, OrderStatus.FAILED)

ACTING_ARMY_CHIEF = "scenario.acting_army_chief"
"""Scenario parameter: side id → the corps general who also acts as that side's army chief."""


def params_for(params: RuleParameters | Mapping[str, Any] | None) -> RuleParameters:
    """A ``RuleParameters`` for Torden over Europa from a scenario mapping (or pass-through)."""
    if isinstance(params, RuleParameters):
        return params
    return RuleParameters.for_ruleset("toe", params or {})


def commander(state: GameState, cid: str) -> Commander:
    """The commander ``cid``.

    Raises
    ------
    RuleRefused
        for an unknown id.
    """
    c = state.commanders.get(cid)
    if c is None:
        raise RuleRefused(f"no commander {cid!r} in this game")
    return c


def name_of(state: GameState, node: str) -> str:
    """Display name of a commander or unit id (the id when unknown)."""
    rec = state.commanders.get(node) or state.units.get(node)
    return rec.name if rec is not None and rec.name else node


def base_of(c: Commander) -> BaseGeometry:
    """The general's base; Table 12 is missing, so his position point (assumed ``general_base``).

    Cached per commander record (records are immutable; a command check measures from every
    general, and an overlay repeats it on every drag step)."""
    hit = _BASES.get(id(c))
    if hit is not None and hit[0] is c:
        return hit[1]
    base = general_base(c.position)
    if len(_BASES) >= 1 << 14:
        _BASES.clear()
    _BASES[id(c)] = (c, base)
    return base


_BASES: dict[int, tuple[Commander, BaseGeometry]] = {}  # id(record) -> (record, base); the record keeps the id taken


def bases_of(cs: Iterable[Commander]) -> list[BaseGeometry]:
    """``[base_of(c) for c in cs]``, the bases not cached yet made in one vectorised call
    (~1 µs a general instead of ~5) and cached: the same points ``base_of`` makes."""
    cs = list(cs)
    out, missing = cached_split(cs, _BASES)
    if missing:
        points = shapely.points(np.asarray([cs[k].position for k in missing], dtype=float).reshape(-1, 2))
        if len(_BASES) + len(missing) > 1 << 14:
            _BASES.clear()
        for k, base in zip(missing, points.tolist(), strict=True):
            _BASES[id(cs[k])] = (cs[k], base)
            out[k] = base
    return out


def footprint(u: Unit) -> BaseGeometry:
    """The shape command distance is measured to: the footprint (for an unlimbered battery,
    its gun model, which is what ``Unit.footprint`` draws; 4.6.2, A39)."""
    return u.footprint()


def shape_of(state: GameState, node: str) -> BaseGeometry:
    """General base or unit footprint of ``node``."""
    if node in state.commanders:
        return base_of(state.commanders[node])
    if node in state.units:
        return footprint(state.units[node])
    raise RuleRefused(f"no unit or commander {node!r} in this game")


def position_of(state: GameState, node: str) -> Point:
    """General's position or unit's front-edge midpoint, cm."""
    rec = state.commanders.get(node) or state.units.get(node)
    if rec is None:
        raise RuleRefused(f"no unit or commander {node!r} in this game")
    return rec.position


def on_table_units(state: GameState) -> Iterable[Unit]:
    """Units on the table and not eliminated."""
    for u in state.units.values():
        if u.id not in state.off_table and u.state != OrderState.ELIMINATED.value:
            yield u


def enemies_of(state: GameState, side: str) -> list[Unit]:
    """Enemy tactical units on the table (glossary §4: generals excluded), in state order."""
    from battlestudio.rules.toe.table_index import table_index

    idx = table_index(state)
    units = idx.units
    return [units[i] for i in np.flatnonzero(idx.side_mask(idx.on_table, side)).tolist()]  # type: ignore[misc]


def enemies_near(state: GameState, side: str, shape: BaseGeometry, cm: float) -> list[Unit]:
    """Those of ``enemies_of(state, side)`` whose footprint's bounding box is within ``cm``
    (plus 0.01) of ``shape``'s, in state order: every enemy whose footprint is within ``cm`` of
    ``shape`` is among them (the caller measures exactly)."""
    from battlestudio.rules.toe.table_index import table_index

    idx = table_index(state)
    units = idx.units
    near = idx.near_box(idx.side_mask(idx.on_table, side), shape.bounds, cm + 0.01)
    return [units[i] for i in near.tolist()]


def is_detached(state: GameState, node: str) -> bool:
    """True while ``node`` is detached (2.11)."""
    return f"detached:{node}" in state.flags


def is_fled(u: Unit, p: RuleParameters) -> bool:
    """A routed (flygtet) unit may be outside command distance (2.4); assumed: state FU."""
    return bool(u.state == p.get("fled_state"))


def acting_army_chiefs(p: RuleParameters, state: GameState | None = None) -> dict[str, str]:
    """Side id → the corps general who also acts as that side's army chief for issuing orders
    (scenario parameter ``scenario.acting_army_chief``; {} when the scenario names none).

    The seed knows a general acting for the echelon above him: an army chief in base contact
    with the C-in-C "fungerer som hærchef" (2.12, A5). A scenario with one corps a side and no
    army general in play names its corps general so (2.3): he then has an OAS and three command
    zones and gives his corps A, H, T or M orders, while keeping what a corps general does
    himself (2.4: his own retreat, detachments).

    Raises
    ------
    RuleRefused
        naming the parameter for a value that is not a mapping side → commander id, or (with
        ``state``) one that names no corps general of that side.
    """
    found = p.lookup(ACTING_ARMY_CHIEF)
    if found is None:
        return {}
    key, value = found
    key = key if key in p.scenario else f"{p.ruleset_id}.{key}"  # as the scenario spells it
    if not isinstance(value, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise RuleRefused(f"scenario parameter {key} must map a side to the id of its acting army chief, got {value!r}")
    if state is not None:
        for side, cid in value.items():
            c = state.commanders.get(cid)
            if c is None or c.side != side or c.echelon != Echelon.CORPS.value:
                what = "no commander" if c is None else f"{c.name}, a {c.echelon} general of {c.side}"
                raise RuleRefused(
                    f"scenario parameter {key} names {cid!r} for {side} ({what}); only a corps general of "
                    "that side acts as its army chief (2.3, 2.12)"
                )
    return dict(value)


ATTACHED_CHIEF_READINGS = ("c_in_c", "army")
"""Readings of a C-in-C attached to (in base contact with) an army chief (``attached_chief_commands``,
2.2, 2.12, A5): ``c_in_c`` — the C-in-C takes over the army chief's command (2.2 "hærchefen
overtager kommandoen"); ``army`` — the army chief acts as C-in-C (2.12 "vil det være arméchefen
der fungere som hærchef")."""


def in_base_contact(p: RuleParameters, a: Commander, b: Commander) -> bool:
    """True when the generals ``a`` and ``b`` are in base contact (brikkontakt): their bases at most
    ``contact_tolerance_cm`` apart (Table 12's base sizes are missing: ``general_base``, 2.12)."""
    return bool(base_of(a).distance(base_of(b)) <= float(p.get("contact_tolerance_cm")) + 1e-9)


def attachments(state: GameState, p: RuleParameters) -> dict[str, str]:
    """Army chief id → the C-in-C of his side he is attached to: in base contact with him (2.2
    "En hærchef kan tilknyttes en arméchef", 2.12 "i brikkontakt med hærchefen"; A5 reads base
    contact as the attachment). Generals off the table are attached to no one."""
    chiefs = [c for c in state.commanders.values() if c.echelon == Echelon.C_IN_C.value and c.id not in state.off_table]
    out: dict[str, str] = {}
    for a in state.commanders.values():
        if a.echelon != Echelon.ARMY.value or a.id in state.off_table:
            continue
        for h in chiefs:
            if h.side == a.side and in_base_contact(p, a, h):
                out[a.id] = h.id
                break
    return out


def attached_reading(p: RuleParameters) -> str:
    """``attached_chief_commands`` (2.2, 2.12); RuleRefused naming it for another value."""
    how = str(p.get("attached_chief_commands"))
    if how not in ATTACHED_CHIEF_READINGS:
        raise RuleRefused(
            f"attached_chief_commands {how!r} is not supported; use one of {', '.join(ATTACHED_CHIEF_READINGS)} "
            "(2.2, 2.12)"
        )
    return how


def commander_of(state: GameState, p: RuleParameters, node: str) -> str | None:
    """Who gives ``node`` its orders: its superior in the order of battle, except that with a
    C-in-C attached to an army chief (``attachments``) one of the pair commands both of their
    direct subordinates (2.2, 2.12): the C-in-C by default (``attached_chief_commands =
    "c_in_c"``, 2.2 "hærchefen overtager kommandoen"), the army chief with ``"army"`` (2.12 "vil
    det være arméchefen der fungere som hærchef"). None for the top of the order of battle."""
    sup = state.oob.superior(node)
    if sup is None:
        return None
    pairs = attachments(state, p)
    if not pairs:
        return sup
    how = attached_reading(p)
    for army, c_in_c in pairs.items():
        if sup in (army, c_in_c) and node not in (army, c_in_c):
            return c_in_c if how == "c_in_c" else army
    return sup


def command_taken_over(state: GameState, p: RuleParameters, issuer: str) -> str:
    """Why ``issuer`` gives no A, H, T or M orders now because the other general of an attached
    pair commands for both (``commander_of``, 2.2, 2.12); "" when he gives them."""
    pairs = attachments(state, p)
    if not pairs:
        return ""
    how = attached_reading(p)
    for army, c_in_c in pairs.items():
        if how == "c_in_c" and issuer == army:
            return (
                f"{name_of(state, c_in_c)} is attached to {name_of(state, army)} (in base contact) and has taken over "
                f"his command: {name_of(state, c_in_c)} gives the orders to his corps and divisions (2.2; "
                "attached_chief_commands)"
            )
        if how == "army" and issuer == c_in_c:
            return (
                f"{name_of(state, army)} is in base contact with {name_of(state, c_in_c)} and acts as C-in-C: he "
                "gives the orders to both their corps and divisions (2.12; attached_chief_commands)"
            )
    return ""


def is_acting_chief(p: RuleParameters, c: Commander) -> bool:
    """True when the corps general ``c`` acts as his side's army chief (``acting_army_chiefs``)."""
    return c.echelon == Echelon.CORPS.value and acting_army_chiefs(p).get(c.side) == c.id


def issuing_echelon(p: RuleParameters, c: Commander) -> str:
    """The echelon ``c`` issues orders as: ``army`` for an acting army chief (2.3), else his own."""
    return Echelon.ARMY.value if is_acting_chief(p, c) else c.echelon


def is_chief(p: RuleParameters, c: Commander) -> bool:
    """A C-in-C, army general or acting army chief: he has OAS and command zones (2.2, 2.3, 2.12)."""
    return issuing_echelon(p, c) in CHIEFS


def echelon_rating(p: RuleParameters, c: Commander, attr: str, entry: str, echelon: str = "") -> int:
    """OAS (``attr="order_capacity"``) or KE (``"command_ability"``) of ``c``: his own value,
    else ``<entry>.<nation>.<echelon>``, else ``<entry>.<echelon>`` (2.12); ``echelon``
    defaults to his own.

    Raises
    ------
    MissingParameterError
        naming ``<entry>.<echelon>`` when neither the commander nor the scenario rates him.
    """
    own = getattr(c, attr)
    if own is not None:
        return int(own)
    ech = echelon or c.echelon
    key, value = p.require(entry, f"{entry}.{c.nation}.{ech}", f"{entry}.{ech}")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise RuleRefused(f"scenario parameter {key} must be a whole number, got {value!r}") from None


def order_capacity(p: RuleParameters, c: Commander) -> int:
    """OAS of a C-in-C, army general or acting army chief (2.12, read as ``order_capacity.army``
    for the last); corps and division generals have none (0)."""
    ech = issuing_echelon(p, c)
    if ech not in CHIEFS:
        return 0
    return echelon_rating(p, c, "order_capacity", "order_capacity", ech)


def command_ability(p: RuleParameters, c: Commander) -> int:
    """KE of any general (2.12)."""
    return echelon_rating(p, c, "command_ability", "command_ability")


def corps_command_distance(p: RuleParameters, c: Commander) -> float:
    """The corps general's one command distance in cm (2.4–2.5; value missing from the text)."""
    if c.command_distance is not None:
        return float(c.command_distance)
    _, value = p.require(
        "corps_command_distance_cm", f"corps_command_distance_cm.{c.nation}", "corps_command_distance_cm"
    )
    return _cm(value, "corps_command_distance_cm")


class RatingOutOfRange(RuleRefused):
    """A general's command distance ``value`` (cm) lies outside the rule's range (2.5); the
    command check still measures his own troops with it and reports the rating."""

    def __init__(self, message: str, value: float) -> None:
        super().__init__(message)
        self.value = value


def division_command_distance(p: RuleParameters, c: Commander) -> float:
    """A division general's command distance in cm, within 10–20 (2.5); assumed 15 by default.

    Raises
    ------
    RuleRefused
        for a value that is not a number; ``RatingOutOfRange`` for one outside the rule's
        10–20 cm range.
    """
    found = p.lookup(f"division_command_distance_cm.{c.nation}")
    value = (
        c.command_distance
        if c.command_distance is not None
        else (found[1] if found else p.get("division_command_distance_cm"))
    )
    r = _cm(value, "division_command_distance_cm")
    lo, hi = p.get("division_command_distance_range_cm")
    if not lo <= r <= hi:
        raise RatingOutOfRange(
            f"Torden over Europa 2.5: division general {c.name} has command distance {r:g} cm, "
            f"outside the rule's {lo}-{hi} cm",
            r,
        )
    return r


def march_length(p: RuleParameters, u: Unit) -> float:
    """A unit's march length in cm (4.1; the national supplements are missing)."""
    own = u.attributes.get("march_length_cm")
    if own is not None:
        return _cm(own, f"unit {u.id} march_length_cm")
    _, value = p.require(
        "march_length_cm", f"march_length_cm.{u.nation}.{u.arm.value}", f"march_length_cm.{u.arm.value}"
    )
    return _cm(value, f"march_length_cm.{u.arm.value}")


def _cm(value: object, what: str) -> float:
    try:
        v = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError, OverflowError):  # OverflowError: an integer of hundreds of digits
        shown = repr(value) if len(repr(value)) <= 40 else repr(value)[:37] + "..."
        raise RuleRefused(f"parameter {what} must be a number of cm, got {shown}") from None
    if not math.isfinite(v) or v < 0:
        raise RuleRefused(f"parameter {what} must be a number of cm >= 0, got {value!r}")
    return v


# -- the order of battle ----------------------------------------------------------------------
def corps_of(state: GameState, node: str) -> str | None:
    """The corps general ``node`` belongs to (itself if a corps general), or None."""
    if node in state.commanders and state.commanders[node].echelon == Echelon.CORPS.value:
        return node
    for up in state.oob.chain_of_command(node):
        c = state.commanders.get(up)
        if c is not None and c.echelon == Echelon.CORPS.value:
            return up
    return None


def corps_units(state: GameState, corps: str, include_detached: bool = False) -> list[Unit]:
    """Tactical units under ``corps`` (on the table, not eliminated); detached ones (and all
    below a detached node) left out unless ``include_detached``."""
    out: list[Unit] = []
    stack = list(state.oob.subordinates(corps))
    while stack:
        n = stack.pop(0)
        if not include_detached and is_detached(state, n):
            continue
        if n in state.units:
            u = state.units[n]
            if u.id not in state.off_table and u.state != OrderState.ELIMINATED.value:
                out.append(u)
        stack.extend(state.oob.subordinates(n))
    return out


def non_artillery(units: Iterable[Unit]) -> list[Unit]:
    """Units that are not artillery (2.7, 2.9 leave artillery out of their counts)."""
    return [u for u in units if u.arm != Arm.ARTILLERY]


def standing_order(state: GameState, cid: str) -> Order | None:
    """The order in force for ``cid`` itself (delivered, not completed or cancelled), or None
    (which means hold, 2.8)."""
    best: Order | None = None
    for o in state.orders.values():
        if o.recipient == cid and o.status is OrderStatus.DELIVERED:
            if best is None or int(o.parameters.get("delivered_turn", o.turn_issued)) >= int(
                best.parameters.get("delivered_turn", best.turn_issued)
            ):
                best = o
    return best


def pending_orders(state: GameState, recipient: str | None = None) -> list[Order]:
    """Orders written but not yet through command control (written or failed)."""
    return [o for o in state.orders.values() if o.status in PENDING and (recipient is None or o.recipient == recipient)]


def order_in_force_for(state: GameState, node: str) -> tuple[Order | None, str]:
    """The standing order that governs ``node`` and the node that received it.

    An order to a corps applies to every division and brigade below it that is not detached;
    a detached node is governed by its own detachment order (2.1, 2.11). Returns
    ``(None, holder)`` when nobody above has an order (hold, 2.8).
    """
    cur: str | None = node
    while cur is not None:
        o = standing_order(state, cur)
        if o is not None:
            return o, cur
        if is_detached(state, cur):
            return None, cur
        c = state.commanders.get(cur)
        if c is not None and c.echelon == Echelon.CORPS.value:
            return None, cur
        cur = state.oob.superior(cur)
    return None, node


def covered_by(state: GameState, holder: str) -> list[str]:
    """Every node below ``holder`` that its standing order applies to (detached ones and what
    is below them excluded)."""
    out: list[str] = []
    stack = list(state.oob.subordinates(holder))
    while stack:
        n = stack.pop(0)
        if is_detached(state, n) or standing_order(state, n) is not None:
            continue
        out.append(n)
        stack.extend(state.oob.subordinates(n))
    return out


def order_label(o: Order | None) -> str:
    """Short words for an order: ``"A (attack) to (120, 80)"``; None is hold."""
    if o is None:
        return "H (hold, no order)"
    names = {
        "A": "attack",
        "H": "hold",
        "T": "retreat",
        "M": "march",
        "D": "detachment",
        DEFENCE: "defence",
        "mission": "mission order",
    }
    text = f"{o.order_type} ({names.get(o.order_type, o.order_type)})" if o.order_type != DEFENCE else "defence"
    if o.order_type == "D":
        text += f" with {o.parameters.get('mode', '?')}"
    if o.objective is not None:
        text += f" to ({o.objective[0]:g}, {o.objective[1]:g})"
    return text
