"""The order of battle: a ``networkx.DiGraph`` from commander to subordinate commander or unit.

Nodes are commander and unit ids; an edge ``a → b`` means ``a`` commands ``b``. Attach and
detach during a game are events that replace the graph, so the hierarchy can change over time.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Iterable, Iterator, Mapping

import networkx as nx

from battlestudio.model.units import ECHELON_RANK, Commander, Unit


@dataclass(frozen=True, slots=True)
class OobProblem:
    """One validation failure: ``code`` names the rule, ``ids`` the nodes involved."""

    code: str
    message: str
    ids: tuple[str, ...]

    def __str__(self) -> str:
        return self.message


class OrderOfBattle:
    """Who commands whom.

    Wraps a ``networkx.DiGraph`` whose edges run from superior to subordinate. Queries do not
    check that ids exist in a scenario; ``validate`` does.
    """

    __slots__ = ("graph",)

    def __init__(self, edges: Iterable[tuple[str, str]] = ()) -> None:
        self.graph: nx.DiGraph = nx.DiGraph()
        self.graph.add_edges_from(edges)

    # -- building -----------------------------------------------------------------------
    def add(self, superior: str, subordinate: str) -> None:
        """Put ``subordinate`` under ``superior`` (replaces any previous superior)."""
        for old in list(self.graph.predecessors(subordinate)) if subordinate in self.graph else ():
            self.graph.remove_edge(old, subordinate)
        self.graph.add_edge(superior, subordinate)

    def add_node(self, node_id: str) -> None:
        """Register a node with no superior yet (a root commander)."""
        self.graph.add_node(node_id)

    def remove(self, node_id: str) -> None:
        """Remove a node; its subordinates become parentless."""
        if node_id in self.graph:
            self.graph.remove_node(node_id)

    def copy(self) -> OrderOfBattle:
        """An independent copy."""
        o = OrderOfBattle()
        o.graph = self.graph.copy()
        return o

    def edges(self) -> list[tuple[str, str]]:
        """All (superior, subordinate) pairs, in insertion order."""
        return list(self.graph.edges())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, OrderOfBattle):
            return NotImplemented
        return set(self.graph.nodes) == set(other.graph.nodes) and set(self.graph.edges) == set(other.graph.edges)

    def __contains__(self, node_id: object) -> bool:
        return node_id in self.graph

    # -- queries ------------------------------------------------------------------------
    def superior(self, node_id: str) -> str | None:
        """Id of the commander directly above ``node_id``, or None for a root or unknown id."""
        if node_id not in self.graph:
            return None
        preds = list(self.graph.predecessors(node_id))
        return preds[0] if preds else None

    def chain_of_command(self, node_id: str) -> list[str]:
        """Ids from ``node_id``'s direct superior up to the root, nearest first."""
        chain: list[str] = []
        seen = {node_id}
        cur = self.superior(node_id)
        while cur is not None and cur not in seen:
            chain.append(cur)
            seen.add(cur)
            cur = self.superior(cur)
        return chain

    def subordinates(self, node_id: str) -> list[str]:
        """Direct subordinates of ``node_id``, in insertion order."""
        return list(self.graph.successors(node_id)) if node_id in self.graph else []

    def all_subordinates(self, node_id: str) -> list[str]:
        """Every node below ``node_id`` (breadth-first)."""
        if node_id not in self.graph:
            return []
        return [v for _, v in nx.bfs_edges(self.graph, node_id)]

    def roots(self) -> list[str]:
        """Nodes with no superior."""
        return [n for n in self.graph.nodes if self.graph.in_degree(n) == 0]

    def walk(self, root: str) -> Iterator[tuple[str, int]]:
        """Depth-first (node, depth) pairs from ``root``, children in insertion order."""
        stack = [(root, 0)]
        seen: set[str] = set()
        while stack:
            node, depth = stack.pop()
            if node in seen:
                continue
            seen.add(node)
            yield node, depth
            for child in reversed(self.subordinates(node)):
                stack.append((child, depth + 1))

    # -- validation ---------------------------------------------------------------------
    def validate(
        self,
        commanders: Mapping[str, Commander],
        units: Mapping[str, Unit],
        echelon_order: Mapping[str, int] = ECHELON_RANK,
    ) -> list[OobProblem]:
        """Check the hierarchy; return every problem found (empty list = valid).

        Rules: every node is a known commander or unit; no cycles; each unit and commander has
        at most one superior and every unit has exactly one; units command nobody; each side
        has exactly one root commander; a subordinate commander's echelon lies strictly below
        its superior's in ``echelon_order`` (a map echelon → depth); no edge crosses sides.
        """
        problems: list[OobProblem] = []
        g = self.graph
        known = set(commanders) | set(units)
        for n in g.nodes:
            if n not in known:
                problems.append(OobProblem("unknown-id", f"order of battle names unknown id {n!r}", (n,)))
        for cycle in nx.simple_cycles(g):
            ids = tuple(cycle)
            problems.append(OobProblem("cycle", f"command cycle: {' → '.join(ids + ids[:1])}", ids))
        for n in g.nodes:
            preds = list(g.predecessors(n))
            if len(preds) > 1:
                problems.append(
                    OobProblem("many-superiors", f"{n!r} has {len(preds)} superiors: {', '.join(preds)}", (n, *preds))
                )
        for uid in units:
            if uid not in g or g.in_degree(uid) == 0:
                problems.append(OobProblem("unit-no-commander", f"unit {uid!r} has no commander", (uid,)))
            elif g.out_degree(uid) > 0:
                subs = tuple(g.successors(uid))
                problems.append(OobProblem("unit-commands", f"unit {uid!r} commands {', '.join(subs)}", (uid, *subs)))
        roots_by_side: dict[str, list[str]] = {}
        for cid, c in commanders.items():
            if cid not in g or g.in_degree(cid) == 0:
                roots_by_side.setdefault(c.side, []).append(cid)
        sides = {c.side for c in commanders.values()} | {u.side for u in units.values()}
        for side in sorted(sides):
            roots = roots_by_side.get(side, [])
            if len(roots) != 1:
                what = "no root commander" if not roots else f"{len(roots)} root commanders: {', '.join(roots)}"
                problems.append(OobProblem("roots", f"side {side!r} has {what}", tuple(roots)))
        for a, b in g.edges:
            ra = commanders.get(a) or units.get(a)
            rb = commanders.get(b) or units.get(b)
            if ra is None or rb is None:
                continue
            if ra.side != rb.side:
                problems.append(
                    OobProblem("cross-side", f"{a!r} ({ra.side}) commands {b!r} of another side ({rb.side})", (a, b))
                )
            if a in commanders and b in commanders:
                ea, eb = echelon_order.get(commanders[a].echelon), echelon_order.get(commanders[b].echelon)
                if ea is None or eb is None:
                    bad = a if ea is None else b
                    problems.append(
                        OobProblem("echelon", f"{bad!r} has echelon {commanders[bad].echelon!r}, unknown here", (bad,))
                    )
                elif eb <= ea:
                    problems.append(
                        OobProblem(
                            "echelon-order",
                            f"{b!r} ({commanders[b].echelon}) is under {a!r} ({commanders[a].echelon}), "
                            "which is not a higher echelon",
                            (a, b),
                        )
                    )
        return problems

    def commander_of(self, unit_id: str) -> str | None:
        """The commander directly above a unit (same as ``superior``)."""
        return self.superior(unit_id)
