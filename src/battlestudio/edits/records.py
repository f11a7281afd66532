"""Record edits: put (add or replace), remove and move records in a Scenario container.

Every edit keeps the records it replaced, so undo puts back the very same objects in the same
dict positions. Removing units or commanders also removes their order-of-battle nodes; undo
restores the nodes, their edges and each commander's order of subordinates.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Iterable, Mapping

from battlestudio.edits.base import Change, Edit, container
from battlestudio.model.geometry import Point, normalize_angle
from battlestudio.model.scenario import Scenario

_ABSENT = object()
"""Marks an id that had no record before a ``PutRecords``."""

OOB_KINDS = frozenset({"units", "commanders"})
"""Record kinds whose ids are order-of-battle nodes."""


def _check_ids(d: Mapping[str, Any], ids: Iterable[str], kind: str) -> None:
    missing = sorted(i for i in ids if i not in d)
    if missing:
        raise KeyError(f"no {kind} with id {', '.join(map(repr, missing))}")


class PutRecords(Edit):
    """Add records to, or replace records in, the Scenario container ``kind``.

    Parameters
    ----------
    kind : str
        a record container: ``units``, ``commanders``, ``terrain``, ``towns``, ``objectives``,
        ``deployment_zones``, ``reinforcements``, ``orders`` or ``sides``.
    records : Mapping[str, record]
        id → new frozen record; each record's ``id`` must equal its key.
    text : str
        undo label, e.g. ``"Rename Davout"``.
    merge_key : Hashable | None
        consecutive PutRecords of the same kind with the same non-None key merge into one undo
        step (e.g. dragging a terrain vertex).

    Raises
    ------
    ValueError
        if ``kind`` is not a record container or a record's id differs from its key.

    Notes
    -----
    Adding a unit or commander does not put it in the order of battle; pair it with
    ``Reattach`` in a ``Macro``.
    """

    def __init__(self, kind: str, records: Mapping[str, Any], text: str, merge_key: Any = None) -> None:
        container(Scenario(), kind)  # validates kind
        for key, rec in records.items():
            rid = getattr(rec, "id", key)
            if rid != key:
                raise ValueError(f"{kind} record keyed {key!r} has id {rid!r}")
        self.kind = kind
        self.records: dict[str, Any] = dict(records)
        self.text = text
        self.merge_key = merge_key
        self._old: dict[str, Any] = {}

    def do(self, scenario: Scenario) -> list[Change]:
        d = container(scenario, self.kind)
        self._old = {i: d.get(i, _ABSENT) for i in self.records}
        d.update(self.records)
        return [Change(self.kind, frozenset(self.records))]

    def undo(self, scenario: Scenario) -> list[Change]:
        d = container(scenario, self.kind)
        for i, old in self._old.items():
            if old is _ABSENT:
                d.pop(i, None)
            else:
                d[i] = old
        return [Change(self.kind, frozenset(self._old))]

    def merge(self, other: Edit) -> bool:
        if not isinstance(other, PutRecords) or not _absorb(self, other):
            return False
        self.records.update(other.records)
        return True


def _absorb(edit: "PutRecords | MoveRecords", other: Edit) -> bool:
    """Merge bookkeeping shared by the mergeable record edits.

    If ``other`` is the same kind of edit on the same container with the same non-None
    ``merge_key``, keep the oldest record of every id for undo, take ``other``'s label and
    return True (the caller then takes ``other``'s new values); otherwise return False.
    """
    if not (
        type(other) is type(edit)
        and edit.merge_key is not None
        and other.merge_key == edit.merge_key
        and other.kind == edit.kind
    ):
        return False
    for i, old in other._old.items():
        edit._old.setdefault(i, old)
    edit.text = other.text
    return True


class RemoveRecords(Edit):
    """Remove records ``ids`` from container ``kind`` (and their OOB nodes for units/commanders).

    Subordinates of a removed commander become parentless. Undo restores the records at their
    former dict positions and the OOB nodes with every edge, in the former order.

    Raises
    ------
    KeyError
        (from ``do``) if an id has no record; nothing is changed then.
    """

    def __init__(self, kind: str, ids: Iterable[str], text: str) -> None:
        container(Scenario(), kind)
        self.kind = kind
        self.ids: tuple[str, ...] = tuple(dict.fromkeys(ids))
        self.text = text
        self._removed: list[tuple[int, str, Any]] = []
        self._nodes: dict[str, dict[str, Any]] = {}
        self._children: dict[str, list[tuple[str, dict[str, Any]]]] = {}

    def do(self, scenario: Scenario) -> list[Change]:
        d = container(scenario, self.kind)
        _check_ids(d, self.ids, self.kind)
        wanted = set(self.ids)
        self._removed = [(pos, k, v) for pos, (k, v) in enumerate(d.items()) if k in wanted]
        for _, k, _ in self._removed:
            del d[k]
        changes = [Change(self.kind, frozenset(self.ids))]
        self._nodes, self._children = {}, {}
        if self.kind in OOB_KINDS:
            g = scenario.oob.graph
            gone = [n for n in self.ids if n in g]
            parents = {p for n in gone for p in g.predecessors(n)} | set(gone)
            self._nodes = {n: dict(g.nodes[n]) for n in gone}
            self._children = {p: [(c, dict(g.edges[p, c])) for c in g.successors(p)] for p in parents}
            touched = set(parents) | {c for kids in self._children.values() for c, _ in kids}
            g.remove_nodes_from(gone)
            if gone:
                changes.append(Change("oob", frozenset(touched)))
        return changes

    def undo(self, scenario: Scenario) -> list[Change]:
        d = container(scenario, self.kind)
        items = list(d.items())
        for pos, k, v in self._removed:
            items.insert(pos, (k, v))
        d.clear()
        d.update(items)
        changes = [Change(self.kind, frozenset(self.ids))]
        if self._nodes:
            g = scenario.oob.graph
            for n, data in self._nodes.items():
                g.add_node(n, **data)
            for p, kids in self._children.items():
                for c, _ in kids:
                    if g.has_edge(p, c):
                        g.remove_edge(p, c)
                for c, data in kids:
                    g.add_edge(p, c, **data)
            touched = set(self._children) | {c for kids in self._children.values() for c, _ in kids}
            changes.append(Change("oob", frozenset(touched)))
        return changes


class MoveRecords(Edit):
    """Move and/or turn units or commanders.

    Parameters
    ----------
    kind : str
        ``"units"`` or ``"commanders"``.
    positions : Mapping[str, Point]
        id → new position (x, y) in table cm (a unit's front-edge midpoint, a commander's
        base centre).
    facings : Mapping[str, float] | None
        id → new facing in degrees counter-clockwise from +x (wrapped into [0, 360)); ids may
        appear here without a position (a pure rotation).
    text : str
        undo label, e.g. ``"Move 3 units"``.
    merge_key : Hashable | None
        consecutive MoveRecords with the same non-None key merge into one undo step, so a whole
        drag is undone at once.

    Raises
    ------
    ValueError
        for another kind; KeyError (from ``do``) for an unknown id, changing nothing.
    """

    def __init__(
        self,
        kind: str,
        positions: Mapping[str, Point],
        facings: Mapping[str, float] | None = None,
        text: str = "Move",
        merge_key: Any = None,
    ) -> None:
        if kind not in OOB_KINDS:
            raise ValueError(f"MoveRecords moves units or commanders, not {kind!r}")
        self.kind = kind
        self.positions: dict[str, Point] = {k: (float(x), float(y)) for k, (x, y) in positions.items()}
        self.facings: dict[str, float] = {k: normalize_angle(float(f)) for k, f in (facings or {}).items()}
        self.text = text
        self.merge_key = merge_key
        self._old: dict[str, Any] = {}

    @property
    def ids(self) -> frozenset[str]:
        """Every id this edit moves or turns."""
        return frozenset(self.positions) | frozenset(self.facings)

    def do(self, scenario: Scenario) -> list[Change]:
        d = container(scenario, self.kind)
        ids = self.ids
        _check_ids(d, ids, self.kind)
        self._old = {i: d[i] for i in ids}
        for i in ids:
            rec = d[i]
            fields: dict[str, Any] = {}
            if i in self.positions:
                fields["position"] = self.positions[i]
            if i in self.facings:
                fields["facing"] = self.facings[i]
            d[i] = replace(rec, **fields)
        return [Change(self.kind, ids)]

    def undo(self, scenario: Scenario) -> list[Change]:
        d = container(scenario, self.kind)
        d.update(self._old)
        return [Change(self.kind, frozenset(self._old))]

    def merge(self, other: Edit) -> bool:
        if not isinstance(other, MoveRecords) or not _absorb(self, other):
            return False
        self.positions.update(other.positions)
        self.facings.update(other.facings)
        return True
