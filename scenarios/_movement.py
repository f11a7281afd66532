"""Moves of the umpire's recording of the bundled Jena game (``record_jena.py``): a general
carries out his standing order with his troops following (kept apart from other formations,
wheeling to face an advance), a retreat that goes on past the table edge takes the formation
off the table, and a general whose troops are all gone leaves the field.
"""

from __future__ import annotations

import math

from battlestudio.session import GameSession

KEEP_APART_CM = 0.5
"""Troops following their general halt this far from friendly units of other formations
instead of stacking on them (the umpire's troop-following, ``follow_moves``)."""


def _execute(s: GameSession, cid: str) -> None:
    """The engine's legal move of ``cid`` under his order, his troops following; a move that
    would take the general off the table (an automatic retreat's objective may lie beyond the
    edge, 2.9) ends at the edge instead, and the umpire notes it."""
    from battlestudio.replay.flow_events import Moved
    from battlestudio.rules.following import follow_moves

    from battlestudio.rules.toe.common import standing_order

    help_ = s.legal_move(cid)
    w, h = s.table
    ex, ey = help_.end
    own = standing_order(s.state, cid)
    wheel = own is not None and own.order_type in ("A", "M")  # a retreat falls back facing the enemy
    if 1.0 <= ex <= w - 1.0 and 1.0 <= ey <= h - 1.0:
        s.execute_order(cid, keep_off_cm=1.0, keep_apart_cm=KEEP_APART_CM, wheel=wheel)
        return
    (sx, sy) = help_.start
    f = 1.0
    for v, p0, size in ((ex - sx, sx, w), (ey - sy, sy, h)):
        if v > 1e-9:
            f = min(f, (size - 1.0 - p0) / v)
        elif v < -1e-9:
            f = min(f, (1.0 - p0) / v)
    f = max(f, 0.0)
    if f * math.dist(help_.start, help_.end) >= 0.5:
        end = (round(sx + f * (ex - sx), 2), round(sy + f * (ey - sy), 2))
        s.record_all(
            [s.stamped(Moved, id=cid, path=(help_.start, end))]
            + follow_moves(
                s.state,
                cid,
                (end[0] - sx, end[1] - sy),
                keep_off_cm=1.0,
                table=s.table,
                keep_apart_cm=KEEP_APART_CM,
                **s._stamp(),
            )
        )
        s.annotate(
            f"{s.state.commanders[cid].name} reaches the edge of the table on his retreat ({help_.stop_reason}).",
            title="Table edge",
            at=end,
            ids=(cid,),
        )
    elif own is not None and own.order_type == "T":
        _leave_table(s, cid)


def _leave_table(s: GameSession, cid: str) -> None:
    """A general whose retreat (2.9) has brought him to the table edge, where he stands, leaves
    the battle with every unit and general under him still on the table (the umpire's ruling:
    the table edge is the limit of the battlefield; what leaves it is lost, 4.4)."""
    from battlestudio.replay.order_events import OrderCancelled

    st = s.state
    c = st.commanders[cid]
    nodes = [cid] + [
        n
        for n in st.oob.all_subordinates(cid)
        if n not in st.off_table and (n in st.commanders or (n in st.units and st.units[n].state != "eliminated"))
    ]
    gone = set(nodes)
    s.record_all(
        [
            s.stamped(OrderCancelled, order_id=oid, reason="the formation has left the table (umpire)")
            for oid, o in sorted(st.orders.items())
            if o.recipient in gone and o.status.value in ("written", "failed", "delivered")
        ]
    )
    for n in nodes:
        s.remove(
            n,
            f"retreated off the table with {c.name} (the umpire: a beaten formation at the table edge leaves "
            "by its line of retreat; 2.9, 4.4)",
        )
    s.annotate(
        f"{c.name} retreats off the table with what is left of his troops and leaves the battle.",
        title="Retreat off the table",
        at=c.position,
        ids=(cid,),
    )


def _has_troops(s: GameSession, cid: str) -> bool:
    st = s.state
    return any(
        n in st.units and n not in st.off_table and st.units[n].state != "eliminated"
        for n in st.oob.all_subordinates(cid)
    )


def _lone_generals_leave(s: GameSession, side: str) -> None:
    """A corps or division general whose troops are all eliminated or gone leaves the table
    (the umpire's ruling: he rides off after the remnants) instead of standing alone among the
    enemy."""
    st = s.state
    for cid, c in sorted(st.commanders.items()):
        if c.side != side or cid in st.off_table or c.echelon not in ("corps", "division"):
            continue
        if any(n in st.units for n in st.oob.all_subordinates(cid)) and not _has_troops(s, cid):
            from battlestudio.replay.order_events import OrderCancelled

            s.record_all(
                [
                    s.stamped(OrderCancelled, order_id=oid, reason="the general has left the field (umpire)")
                    for oid, o in sorted(st.orders.items())
                    if o.recipient == cid and o.status.value in ("written", "failed", "delivered")
                ]
            )
            s.remove(cid, "his troops are all eliminated or gone: he leaves the field (umpire)")
            s.annotate(
                f"{c.name} has no troops left on the table and rides off the field.",
                title="General leaves",
                at=c.position,
                ids=(cid,),
            )
