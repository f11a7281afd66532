"""Standing orders: written by a commander for a recipient, with a lifecycle.

A standing order is issued, then delivered or failed (command roll), then in force until it is
completed or cancelled (command-systems-compared §2.2). Torden over Europa's corps orders (A, H,
T, M, detachment) persist over many turns; other rulesets' orders may last one activation.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any
from collections.abc import Mapping

from battlestudio.model.geometry import Point


class OrderStatus(StrEnum):
    """Where an order is in its lifecycle."""

    WRITTEN = "written"
    DELIVERED = "delivered"
    FAILED = "failed"
    CANCELLED = "cancelled"
    COMPLETED = "completed"


@dataclass(frozen=True, slots=True)
class Order:
    """One order.

    Attributes
    ----------
    id : str
    issuer, recipient : str
        commander ids (recipient may be a unit id where the ruleset orders units).
    order_type : str
        the ruleset's order type id, e.g. Torden over Europa's ``A`` (attack), ``H`` (hold),
        ``T`` (retreat, tilbagetog), ``M`` (march), ``D`` (detachment).
    objective : Point | None
        objective point in table cm, when the order type takes one.
    status : OrderStatus
    turn_issued : int
        game turn it was written (0 = in force when the scenario starts).
    parameters : Mapping[str, Any]
        further order parameters (JSON-compatible), e.g. the detachment point.
    """

    id: str
    issuer: str
    recipient: str
    order_type: str
    objective: Point | None = None
    status: OrderStatus = OrderStatus.WRITTEN
    turn_issued: int = 0
    parameters: Mapping[str, Any] = field(default_factory=dict)

    @property
    def in_force(self) -> bool:
        """True once delivered and until completed or cancelled."""
        return self.status is OrderStatus.DELIVERED
