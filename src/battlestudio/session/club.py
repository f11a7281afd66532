"""Club play without a server: which umpire may act for which units, who is busy in a phase.

Several umpires record one game; each holds formations (a claim: an order-of-battle node, a
commander with everything under him, or a single unit) and records actions only for the units
and commanders under them. A node belongs to the umpire holding its *nearest* claimed node on
its chain of command (itself first): a division claimed inside a corps claimed by another
umpire is the division's umpire's. A node under no claim belongs to nobody and anyone may act
for it. A phase is closed when every umpire holding something that acts in it has closed it.

Pure functions of the order of battle, the claims (``formation id → umpire``) and the game
state; the window asks the server for claims and closes (``store.club``) and decides with these.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from battlestudio.model.names import display_names
from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.scenario import Scenario
from battlestudio.replay.state import GameState


def holding_claim(oob: OrderOfBattle, claims: Mapping[str, str], node_id: str) -> str | None:
    """The claimed node ``node_id`` falls under: itself when claimed, else its nearest claimed
    superior; None when nothing above it is claimed."""
    for n in (node_id, *oob.chain_of_command(node_id)):
        if n in claims:
            return n
    return None


def holder(oob: OrderOfBattle, claims: Mapping[str, str], node_id: str) -> str | None:
    """The umpire who acts for ``node_id`` (see ``holding_claim``), or None for nobody."""
    c = holding_claim(oob, claims, node_id)
    return claims[c] if c is not None else None


@dataclass(frozen=True, slots=True)
class Refusal:
    """``node`` may not be acted for by the asking umpire: it is in ``formation``, held by
    ``umpire``."""

    node: str
    formation: str
    umpire: str


def refusals(oob: OrderOfBattle, claims: Mapping[str, str], umpire: str, ids: Iterable[str]) -> list[Refusal]:
    """The ids among ``ids`` (each once, in order) that another umpire than ``umpire`` holds."""
    out = []
    for i in dict.fromkeys(ids):
        c = holding_claim(oob, claims, i)
        if c is not None and claims[c] != umpire:
            out.append(Refusal(i, c, claims[c]))
    return out


def refusal_text(scenario: Scenario, found: list[Refusal]) -> str:
    """A sentence naming what is refused and who holds it, e.g. "39e Ligne is in Loison's
    formation, held by umpire Bea: only Bea records for it." ("" when nothing is refused)."""
    if not found:
        return ""
    names = display_names(scenario)
    by: dict[tuple[str, str], list[str]] = {}
    for r in found:
        by.setdefault((r.formation, r.umpire), []).append(names.get(r.node, r.node))
    parts = []
    for (formation, umpire), nodes in by.items():
        what = nodes[0] if len(nodes) == 1 else f"{', '.join(nodes[:3])}{' …' if len(nodes) > 3 else ''}"
        verb = "is" if len(nodes) == 1 else "are"
        fname = names.get(formation, formation)
        where = (
            f"{verb} held by umpire {umpire}"
            if formation in nodes
            else f"{verb} in {fname}'s formation, held by umpire {umpire}"
        )
        parts.append(f"{what} {where}")
    owners = sorted({r.umpire for r in found})
    return f"{'; '.join(parts)}: only {' and '.join(owners)} may record for {'it' if len(found) == 1 else 'them'}."


def holdings(state: GameState, claims: Mapping[str, str]) -> dict[str, dict[str, int]]:
    """umpire → side → how many units and commanders on the table they act for (a claimed
    formation whose troops have all left the table holds nothing)."""
    out: dict[str, dict[str, int]] = {u: {} for u in claims.values()}
    for kind in (state.units, state.commanders):
        for rid, rec in kind.items():
            if rid in state.off_table:
                continue
            who = holder(state.oob, claims, rid)
            if who is not None:
                sides = out.setdefault(who, {})
                sides[rec.side] = sides.get(rec.side, 0) + 1
    return out


def acting_sides(who: str, side: str, sides: Iterable[str]) -> list[str]:
    """The sides whose troops act in a phase of ``side`` where ``who`` acts (a ``PhaseSpec.who``:
    ``active``, ``passive``, ``both``)."""
    all_sides = list(sides)
    if who == "active":
        return [side]
    if who == "passive":
        return [s for s in all_sides if s != side]
    return all_sides


def umpires_in_phase(state: GameState, claims: Mapping[str, str], sides: Iterable[str]) -> list[str]:
    """The umpires (sorted) who act for at least one unit or commander of ``sides`` on the table."""
    wanted = set(sides)
    return sorted(u for u, held in holdings(state, claims).items() if wanted & {s for s, n in held.items() if n})


def busy_umpires(state: GameState, claims: Mapping[str, str], sides: Iterable[str], closed: Iterable[str]) -> list[str]:
    """The umpires (sorted) with troops of ``sides`` in the phase who have not ``closed`` it: the
    phase may advance when this is empty."""
    done = set(closed)
    return [u for u in umpires_in_phase(state, claims, sides) if u not in done]


def busy_text(busy: list[str], me: str) -> str:
    """The phase strip's word on who is still busy: "" when nobody, "waiting for Bea and Carl",
    "you and Bea still busy"."""
    if not busy:
        return ""
    names = ["you" if u == me else u for u in busy]
    listed = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return f"{listed} still busy" if me in busy else f"waiting for {listed}"
