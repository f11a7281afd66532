"""Each corps' order history: every order as a span from written to delivered (or failed) to
completed, cancelled or superseded, for a Gantt-like strip per corps.

Read from the order events (``replay.order_events``). An order delivered to a recipient
supersedes that recipient's other open orders at once (``OrderDelivered.apply``); a completed
order with a defence objective starts the defence order ``<id>/defence`` (Torden over Europa
2.7–2.10).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from battlestudio.analysis.common import corps_of
from battlestudio.model.geometry import Point
from battlestudio.replay.game import GameLog
from battlestudio.replay.order_events import (
    DEFENCE,
    OrderCancelled,
    OrderCompleted,
    OrderDelivered,
    OrderFailed,
    OrderWritten,
)


@dataclass(frozen=True, slots=True)
class OrderSpan:
    """One order's life in turns.

    ``written`` turn; ``delivered`` turn (None: never got through); ``failed`` turns of failed
    command rolls; ``ended`` turn and ``end`` how (``completed``, ``cancelled``,
    ``superseded``; "" while still open at the end of the log); ``corps`` of the recipient.
    """

    order_id: str
    corps: str
    issuer: str
    recipient: str
    order_type: str
    objective: Point | None
    written: int
    delivered: int | None = None
    failed: tuple[int, ...] = ()
    ended: int | None = None
    end: str = ""
    written_at: int = 0  # log position just after it was written
    notes: tuple[str, ...] = field(default=())


def order_history(log: GameLog) -> list[OrderSpan]:
    """Every order of the game in the order written, with its span (see ``OrderSpan``).

    Orders already in the scenario at the start (``turn_issued`` 0) appear with ``written`` 0.
    """
    initial = log.initial
    spans: dict[str, OrderSpan] = {}
    for oid, o in initial.orders.items():
        spans[oid] = OrderSpan(
            oid,
            corps_of(initial, o.recipient),
            o.issuer,
            o.recipient,
            o.order_type,
            o.objective,
            0,
            0 if o.status.value == "delivered" else None,
        )

    def close(oid: str, turn: int, how: str) -> None:
        s = spans.get(oid)
        if s is not None and s.ended is None:
            spans[oid] = replace(s, ended=turn, end=how)

    for pos, e in enumerate(log.events, start=1):
        if isinstance(e, OrderWritten):
            spans[e.order_id] = OrderSpan(
                e.order_id,
                corps_of(initial, e.recipient) or corps_of(log.initial, e.issuer),
                e.issuer,
                e.recipient,
                e.order_type,
                e.objective,
                e.turn,
                written_at=pos,
            )
        elif isinstance(e, OrderFailed) and e.order_id in spans:
            s = spans[e.order_id]
            spans[e.order_id] = replace(s, failed=s.failed + (e.turn,))
        elif isinstance(e, OrderDelivered) and e.order_id in spans:
            s = spans[e.order_id]
            for oid, other in spans.items():
                if oid != e.order_id and other.recipient == s.recipient and other.ended is None:
                    close(oid, e.turn, "superseded")
            spans[e.order_id] = replace(s, delivered=e.turn)
        elif isinstance(e, OrderCancelled):
            close(e.order_id, e.turn, "cancelled")
        elif isinstance(e, OrderCompleted) and e.order_id in spans:
            s = spans[e.order_id]
            close(e.order_id, e.turn, "completed")
            if e.defence_objective is not None:
                did = f"{e.order_id}/defence"
                spans[did] = OrderSpan(
                    did,
                    s.corps,
                    s.issuer,
                    s.recipient,
                    DEFENCE,
                    e.defence_objective,
                    e.turn,
                    delivered=e.turn,
                    written_at=pos,
                )
    return list(spans.values())


def spans_by_corps(spans: list[OrderSpan]) -> dict[str, list[OrderSpan]]:
    """Spans grouped by corps, corps in the order first met, spans in the order written."""
    out: dict[str, list[OrderSpan]] = {}
    for s in spans:
        out.setdefault(s.corps, []).append(s)
    return out
