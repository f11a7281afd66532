"""The command situation at one moment, as the command overlay and the odds panel show it.

``command_picture`` asks the ruleset (through the Protocol) for every commander's reach and
every out-of-command finding, and adds what the Protocol does not carry: a link from every
subordinate to its commander with its status, the standing orders with their objectives, each
chief's order budget (``Ruleset.order_budget``, e.g. Torden over Europa's OAS) and the detached
formations. Values the scenario lacks are reported in ``refusals`` instead of raising.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any
from collections.abc import Mapping

from battlestudio.model.orders import OrderStatus
from battlestudio.replay.state import GameState
from battlestudio.rules import Budget, CommandReach, OutOfCommandFinding, Ruleset, RuleRefused

IN, OUT, EXEMPT, UNBOUND = "in", "out", "exempt", "unbound"
"""Link statuses: within command distance or a zone; outside it; outside but exempt
(detached, routed, cavalry attacking); no distance binds the pair (e.g. a unit under a brigade
commander in Torden over Europa)."""


@dataclass(frozen=True, slots=True)
class Link:
    """Subordinate → commander: ``status`` (see IN/OUT/EXEMPT/UNBOUND), ``distance`` cm
    (nearest points; NaN when unmeasured), ``zone`` for a chief's zones, ``text`` explaining."""

    subject: str
    superior: str
    status: str
    distance: float = math.nan
    zone: int | None = None
    text: str = ""


@dataclass(frozen=True, slots=True)
class StandingOrder:
    """An order on the table: id, ``order_type``, ``issuer``, ``recipient``, ``status``
    (written, failed = pending; delivered = in force) and its ``objective`` (cm, or None)."""

    order_id: str
    order_type: str
    issuer: str
    recipient: str
    status: str
    objective: tuple[float, float] | None


@dataclass(frozen=True, slots=True)
class CommandPicture:
    """Everything the command overlay draws for one state.

    Attributes
    ----------
    reaches : dict[str, CommandReach]
        commander id → reach (kind ``none`` and reaches with unknown values left out).
    findings : dict[str, OutOfCommandFinding]
        subject id → the ruleset's finding.
    links : dict[str, Link]
        subject id → its link to its commander.
    orders : tuple[StandingOrder, ...]
    budgets : dict[str, Budget]
    detached : frozenset[str]
        detached formations and everything under them.
    refusals : tuple[str, ...]
        what could not be computed, naming the missing scenario parameter.
    findings_refused : str
        the ruleset's refusal of ``out_of_command`` (then ``findings`` is empty; also in
        ``refusals``), "" when the findings were computed.
    """

    reaches: dict[str, CommandReach] = field(default_factory=dict)
    findings: dict[str, OutOfCommandFinding] = field(default_factory=dict)
    links: dict[str, Link] = field(default_factory=dict)
    orders: tuple[StandingOrder, ...] = ()
    budgets: dict[str, Budget] = field(default_factory=dict)
    detached: frozenset[str] = frozenset()
    refusals: tuple[str, ...] = ()
    findings_refused: str = ""

    def out_of_command(self) -> frozenset[str]:
        """Subjects outside their commander's distance with no exemption."""
        return frozenset(s for s, f in self.findings.items() if not f.within and not f.exemption)

    def exempt(self) -> frozenset[str]:
        """Subjects outside their commander's distance but exempt (detached, routed, …)."""
        return frozenset(s for s, f in self.findings.items() if not f.within and f.exemption)


def _on_table(state: GameState, rid: str) -> bool:
    if rid in state.off_table:
        return False
    u = state.units.get(rid)
    return u is None or u.state != "eliminated"


def _distance(state: GameState, a: str, b: str) -> float:
    """Nearest distance cm from commander ``a``'s position to ``b`` (footprint or position)."""
    ca = state.commanders[a].position
    if b in state.units:
        from shapely.geometry import Point as SPoint

        return float(state.units[b].footprint().distance(SPoint(ca)))
    pb = state.commanders[b].position
    return math.hypot(pb[0] - ca[0], pb[1] - ca[1])


def standing_orders(state: GameState) -> tuple[StandingOrder, ...]:
    """The orders on the table: written, failed (pending) or delivered (in force), to a
    recipient on the table, in the state's order."""
    return tuple(
        StandingOrder(o.id, o.order_type, o.issuer, o.recipient, o.status.value, o.objective)
        for o in state.orders.values()
        if o.status in (OrderStatus.WRITTEN, OrderStatus.FAILED, OrderStatus.DELIVERED)
        and _on_table(state, o.recipient)
    )


def unknown_reach(state: GameState, cid: str, reach: CommandReach) -> str:
    """The refusal for commander ``cid``'s ``reach`` with unknown values, naming the parameters."""
    return f"{state.commanders[cid].name}'s reach is unknown: scenario parameter " + ", ".join(
        sorted(set(reach.unknown.values()))
    )


def command_picture(
    state: GameState, ruleset: Ruleset, params: Mapping[str, Any], with_budgets: bool = True
) -> CommandPicture:
    """The command situation of ``state`` under ``ruleset`` with the scenario's ``params``.

    Never raises for missing scenario values: each is reported once in ``refusals``.
    """
    refusals: list[str] = []

    def note(exc: Exception) -> None:
        if str(exc) not in refusals:
            refusals.append(str(exc))

    reaches: dict[str, CommandReach] = {}
    budgets: dict[str, Budget] = {}
    for cid in state.commanders:
        if not _on_table(state, cid):
            continue
        try:
            r = ruleset.command_reach(state, cid, params)
        except RuleRefused as exc:
            note(exc)
            continue
        if r.unknown:
            note(RuleRefused(unknown_reach(state, cid, r)))
        elif r.kind != "none":
            reaches[cid] = r
        if with_budgets:
            try:
                b = ruleset.order_budget(state, cid, params)
            except RuleRefused as exc:
                note(exc)
                b = None
            if b is not None:
                budgets[cid] = b
    findings_refused = ""
    try:
        found = ruleset.out_of_command(state, params)
    except RuleRefused as exc:
        note(exc)
        found, findings_refused = (), str(exc)
    findings = {f.subject: f for f in found}
    links: dict[str, Link] = {}
    for sup, sub in state.oob.edges():
        link = link_of(state, sup, sub, findings, reaches)
        if link is not None:
            links[sub] = link
    orders = standing_orders(state)
    detached: set[str] = set()
    for key in state.flags:
        if key.startswith("detached:"):
            node = key.split(":", 1)[1]
            detached.add(node)
            detached.update(state.oob.all_subordinates(node))
    return CommandPicture(
        reaches, findings, links, orders, budgets, frozenset(detached), tuple(refusals), findings_refused
    )


def link_of(
    state: GameState,
    sup: str,
    sub: str,
    findings: Mapping[str, OutOfCommandFinding],
    reaches: Mapping[str, CommandReach],
) -> Link | None:
    """The link of the order-of-battle edge ``sup`` → ``sub``, or None when it is not drawn
    (either end off the table or eliminated, ``sup`` not a commander, ``sub`` unknown).

    From ``sub``'s finding when it names ``sup`` as its superior (in, out or exempt); else, under
    a chief's zones (Torden over Europa 2.2-2.3), the zone ``sub`` stands in, measured to its
    nearest point (cm); else unbound.
    """
    if sup not in state.commanders or not _on_table(state, sup) or not _on_table(state, sub):
        return None
    if sub not in state.units and sub not in state.commanders:
        return None
    f = findings.get(sub)
    if f is not None and f.superior == sup:
        status = IN if f.within else (EXEMPT if f.exemption else OUT)
        return Link(sub, sup, status, f.distance, None, f.text)
    reach = reaches.get(sup)
    if reach is not None and reach.kind == "zones" and reach.zones:
        d = _distance(state, sup, sub)
        z = reach.zone_of(d)
        text = (
            f"{d:.0f} cm from {state.commanders[sup].name}: zone {z}"
            if z is not None
            else f"{d:.0f} cm from {state.commanders[sup].name}: beyond every zone, no order can reach it"
        )
        return Link(sub, sup, IN if z is not None else OUT, d, z, text)
    return Link(sub, sup, UNBOUND)
