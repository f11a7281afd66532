"""Order-of-battle edits: ``Reattach`` a unit or commander under another commander.

Also ``reattach_problem``, the check the editor runs before a drag-and-drop reassignment so it
can refuse with a message where the echelons forbid it (Torden over Europa 1.4, Figure 1).
"""

from __future__ import annotations

from typing import Any

import networkx as nx

from battlestudio.edits.base import Change, Edit
from battlestudio.model.scenario import Scenario
from battlestudio.model.units import ECHELON_RANK


def reattach_problem(scenario: Scenario, node_id: str, new_superior: str | None) -> str | None:
    """Why ``node_id`` may not go under ``new_superior``, or None if it may.

    Refused: unknown ids; a unit as superior (units command nobody); a superior of another
    side; a superior that is the node itself or below it (a cycle); a subordinate commander
    whose echelon is not strictly below the superior's (Torden over Europa 1.4, Figure 1).
    """
    rec = scenario.record(node_id)
    if rec is None:
        return f"there is no unit or commander {node_id!r}"
    if new_superior is None:
        return None
    if new_superior in scenario.units:
        return f"{scenario.units[new_superior].name} is a unit; units command nobody"
    sup = scenario.commanders.get(new_superior)
    if sup is None:
        return f"there is no commander {new_superior!r}"
    if sup.side != rec.side:
        return f"{sup.name} ({sup.side}) cannot command {rec.name} of another side ({rec.side})"
    if new_superior == node_id or new_superior in scenario.oob.all_subordinates(node_id):
        return f"{sup.name} is under {rec.name}; that would make a command cycle"
    if node_id in scenario.commanders:
        ea, eb = ECHELON_RANK.get(sup.echelon), ECHELON_RANK.get(scenario.commanders[node_id].echelon)
        if ea is not None and eb is not None and eb <= ea:
            return (
                f"{rec.name} ({scenario.commanders[node_id].echelon}) cannot serve under "
                f"{sup.name} ({sup.echelon}): a subordinate commander must be of a lower echelon"
            )
    return None


class Reattach(Edit):
    """Put ``node_id`` under ``new_superior`` (None = detach it, making it a root).

    Parameters
    ----------
    node_id : str
        unit or commander id (added to the graph if absent).
    new_superior : str | None
        commander id.
    text : str
        undo label, e.g. ``"Attach 2nd Brigade to Friant"``.
    index : int | None
        position among the new superior's subordinates (None = last).

    Raises
    ------
    ValueError
        (from ``do``) if the new superior is the node itself or one of its subordinates;
        nothing is changed then. Echelon and side rules are checked by ``reattach_problem``.
    """

    def __init__(self, node_id: str, new_superior: str | None, text: str, index: int | None = None) -> None:
        self.node_id = node_id
        self.new_superior = new_superior
        self.text = text
        self.index = index
        self._existed: dict[str, bool] = {}
        self._children: dict[str, list[tuple[str, dict[str, Any]]]] = {}

    def do(self, scenario: Scenario) -> list[Change]:
        g = scenario.oob.graph
        n, sup = self.node_id, self.new_superior
        if sup is not None and (sup == n or (n in g and sup in nx.descendants(g, n))):
            raise ValueError(f"cannot put {n!r} under {sup!r}: {sup!r} is {n!r} or one of its subordinates")
        parents = set(g.predecessors(n)) if n in g else set()
        if sup is not None:
            parents.add(sup)
        self._existed = {x: x in g for x in (n, *([sup] if sup else []))}
        self._children = {p: [(c, dict(g.edges[p, c])) for c in g.successors(p)] if p in g else [] for p in parents}
        for p in list(g.predecessors(n)) if n in g else ():
            g.remove_edge(p, n)
        g.add_node(n)
        if sup is not None:
            kids = [c for c in g.successors(sup)] if sup in g else []
            at = len(kids) if self.index is None else max(0, min(self.index, len(kids)))
            after = [(c, dict(g.edges[sup, c])) for c in kids[at:]]
            g.remove_edges_from((sup, c) for c, _ in after)
            g.add_edge(sup, n)
            for c, data in after:
                g.add_edge(sup, c, **data)
        return [Change("oob", frozenset(parents | {n}))]

    def undo(self, scenario: Scenario) -> list[Change]:
        g = scenario.oob.graph
        n = self.node_id
        for p in list(g.predecessors(n)):
            g.remove_edge(p, n)
        for p, kids in self._children.items():
            if p not in g:
                continue
            g.remove_edges_from([(p, c) for c in list(g.successors(p))])
            for c, data in kids:
                g.add_edge(p, c, **data)
        for x, existed in self._existed.items():
            if not existed and x in g:
                g.remove_node(x)
        return [Change("oob", frozenset(set(self._children) | {n}))]
