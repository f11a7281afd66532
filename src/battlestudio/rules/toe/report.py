"""The orders report of a Torden over Europa game at one turn, as plain text (``battlestudio
orders FILE``): each commander's standing order and its status, the OAS budget per chief, and
the out-of-command list with distances and consequences. Values the scenario lacks are shown as
refusals naming the parameter; assumed readings used are listed at the end.
"""

from __future__ import annotations

from typing import Any
from collections.abc import Iterable, Mapping

from battlestudio.model.units import Echelon
from battlestudio.replay.state import GameState
from battlestudio.rules.params import RuleRefused
from battlestudio.rules.toe.command import check_command, oas_budget
from battlestudio.rules.toe.common import (
    CHIEFS,
    is_chief,
    is_detached,
    name_of,
    order_in_force_for,
    order_label,
    params_for,
    pending_orders,
    standing_order,
)

_ORDERED = (Echelon.C_IN_C.value, Echelon.ARMY.value, Echelon.CORPS.value, Echelon.DIVISION.value)


def orders_report(state: GameState, parameters: Mapping[str, Any], sides: Mapping[str, str] | None = None) -> str:
    """The report text for ``state`` (``sides`` maps side id → display name)."""
    p = params_for(dict(parameters))
    lines = [f"Torden over Europa: orders and command at turn {state.turn}"]
    side_ids = sorted({c.side for c in state.commanders.values()} | {u.side for u in state.units.values()})
    for side in side_ids:
        report = check_command(state, p, side)
        lines.append("")
        lines.append(f"== {(sides or {}).get(side, side)} ==")
        lines += _c_in_c_problem(state, side)
        lines.append("Standing orders:")
        for cid, depth in _walk(state, side):
            c = state.commanders[cid]
            if c.echelon not in _ORDERED or cid in state.off_table:
                continue
            lines.append("  " * (depth + 1) + _order_line(state, cid))
        chiefs = [c for c in state.commanders.values() if c.side == side and is_chief(p, c)]
        if chiefs:
            lines.append("Order capacity (OAS) this turn:")
            for c in chiefs:
                try:
                    cap, spent, left = oas_budget(state, p, c.id)
                    lines.append(f"  {c.name}: {spent} of {cap} spent, {left} left")
                except RuleRefused as exc:
                    lines.append(f"  {c.name}: unknown ({exc})")
        out = [f for f in report.findings if not f.within]
        lines.append(f"Out of command: {len(out)}" + ("" if out else " (everyone within command distance)"))
        for f in sorted(out, key=lambda f: (f.superior, f.subject)):
            tag = f"exempt, {f.exemption}" if f.exemption else f.consequence
            lines.append(f"  - [{tag}] {f.text}")
        for refused in report.refusals:
            lines.append(f"  ! not checked: {refused}")
    used = p.assumptions()
    if used:
        lines.append("")
        lines.append("Assumed readings used (override them in the scenario parameters):")
        lines += [f"  * {a}" for a in used]
    return "\n".join(lines) + "\n"


def _c_in_c_problem(state: GameState, side: str) -> list[str]:
    """A warning line when ``side`` has more than one C-in-C on the table (1.4 "Der kan i en hær kun
    være én hærchef"), naming them; none otherwise."""
    c_in_c = sorted(
        c.name or c.id
        for c in state.commanders.values()
        if c.side == side and c.echelon == Echelon.C_IN_C.value and c.id not in state.off_table
    )
    if len(c_in_c) < 2:
        return []
    return [
        f"! {len(c_in_c)} C-in-Cs ({', '.join(c_in_c)}): an army has only one (1.4 'Der kan i en hær kun være én "
        "hærchef'); make the others army generals"
    ]


def _superior_echelon(state: GameState, node: str) -> str:
    sup = state.oob.superior(node)
    return state.commanders[sup].echelon if sup is not None and sup in state.commanders else ""


def _walk(state: GameState, side: str) -> Iterable[tuple[str, int]]:
    roots = [r for r in state.oob.roots() if r in state.commanders and state.commanders[r].side == side]
    seen: set[str] = set()
    for r in roots:
        for node, depth in state.oob.walk(r):
            if node in state.commanders and node not in seen:
                seen.add(node)
                yield node, depth
    for cid, c in state.commanders.items():  # generals outside the graph
        if c.side == side and cid not in seen:
            yield cid, 0


def _order_line(state: GameState, cid: str) -> str:
    c = state.commanders[cid]
    own = standing_order(state, cid)
    head = f"{c.name} ({c.echelon.replace('_', '-')})"
    if is_detached(state, cid):
        head += " [detached]"
    if c.echelon in CHIEFS and own is None:
        text = f"{head}: issues orders"
    elif own is not None:
        text = (
            f"{head}: {order_label(own)}, in force since turn {own.parameters.get('delivered_turn', own.turn_issued)}"
        )
        if state.flags.get(f"engaged:{cid}"):
            text += ", engaged"
    else:
        inherited, holder = order_in_force_for(state, cid)
        if inherited is not None and holder != cid:
            text = f"{head}: under {name_of(state, holder)}'s {order_label(inherited)}"
        elif c.echelon == Echelon.CORPS.value or _superior_echelon(state, cid) in CHIEFS:
            text = f"{head}: H (hold, no order)"
        else:
            text = f"{head}: under {name_of(state, holder)}, hold"
    pend = pending_orders(state, cid)
    for o in pend:
        text += f"; pending {order_label(o)} from {name_of(state, o.issuer)} ({o.status.value} turn {o.turn_issued})"
    return text
