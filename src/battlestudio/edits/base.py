"""The edit protocol: ``Change`` (what an edit touched), ``Edit`` (one undoable verb), ``Macro``,
``MergingMacro`` and ``combine`` (several edits as one undo step), ``count_text`` (undo labels).

Shaped like Tiled's undo commands, in pure Python (no ``QUndoStack``): each edit changes a
``Scenario`` in ``do`` and puts it back exactly in ``undo``, returning the ``Change``s it caused
so views can re-read only what moved. Records are frozen, so undo keeps the old records.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from collections.abc import Iterable, Mapping, Sequence

from battlestudio.model.scenario import Scenario

RECORD_KINDS: tuple[str, ...] = (
    "units",
    "commanders",
    "terrain",
    "towns",
    "objectives",
    "deployment_zones",
    "reinforcements",
    "orders",
    "sides",
)
"""Scenario containers (``dict`` id → frozen record) that edits may change."""

KINDS: frozenset[str] = frozenset(RECORD_KINDS) | {"oob", "info"}

MAP_KINDS: tuple[str, ...] = tuple(k for k in RECORD_KINDS if k not in ("orders", "sides"))
"""Containers whose records are drawn, selected, moved and deleted on the map."""
"""Every kind a ``Change`` may name: the record containers plus ``oob`` and ``info``."""


@dataclass(frozen=True, slots=True)
class Change:
    """What an edit touched.

    Attributes
    ----------
    kind : str
        one of ``KINDS``: a Scenario container name, ``"oob"`` (the order-of-battle graph:
        ``ids`` are the nodes whose superior or subordinates changed) or ``"info"`` (``ids``
        are the ``ScenarioInfo`` field names changed).
    ids : frozenset[str]
        ids of the records (or nodes, or fields) touched.

    Raises
    ------
    ValueError
        for a kind outside ``KINDS``.
    """

    kind: str
    ids: frozenset[str]

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown change kind {self.kind!r}; expected one of {sorted(KINDS)}")


def merge_changes(changes: Iterable[Change]) -> list[Change]:
    """Collapse changes of the same kind into one, keeping the order kinds first appear in."""
    by_kind: dict[str, set[str]] = {}
    for c in changes:
        by_kind.setdefault(c.kind, set()).update(c.ids)
    return [Change(k, frozenset(ids)) for k, ids in by_kind.items()]


def container(scenario: Scenario, kind: str) -> dict[str, Any]:
    """The Scenario's dict for record ``kind``.

    Raises
    ------
    ValueError
        if ``kind`` is not one of ``RECORD_KINDS``.
    """
    if kind not in RECORD_KINDS:
        raise ValueError(f"{kind!r} is not a record container; expected one of {list(RECORD_KINDS)}")
    records: dict[str, Any] = getattr(scenario, kind)
    return records


class Edit:
    """One undoable change to a Scenario.

    Subclasses set ``text`` (the label shown as "Undo <text>") and implement ``do`` and
    ``undo``. ``do`` may be called again after ``undo`` (redo) and must capture whatever it
    needs to undo from the scenario it is given at that moment.
    """

    text: str = ""

    def do(self, scenario: Scenario) -> list[Change]:
        """Apply the edit; return what changed."""
        raise NotImplementedError

    def undo(self, scenario: Scenario) -> list[Change]:
        """Put the scenario back exactly as it was before the last ``do``; return what changed."""
        raise NotImplementedError

    def merge(self, other: Edit) -> bool:
        """Absorb ``other`` (already done, pushed right after this one) into this edit.

        Returns True if merged, in which case ``other`` is dropped and undoing this edit
        undoes both. The default never merges.
        """
        return False

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.text!r}>"


class Macro(Edit):
    """Several edits as one undo step (e.g. "Add subordinate" = put record + reattach).

    ``do`` runs the edits in order; if one raises, the ones already done are undone before the
    error propagates, so the scenario is unchanged. ``undo`` runs them in reverse.
    """

    def __init__(self, edits: Sequence[Edit], text: str) -> None:
        self.edits: list[Edit] = list(edits)
        self.text = text

    def do(self, scenario: Scenario) -> list[Change]:
        changes: list[Change] = []
        done: list[Edit] = []
        try:
            for e in self.edits:
                changes += e.do(scenario)
                done.append(e)
        except Exception:
            for e in reversed(done):
                e.undo(scenario)
            raise
        return merge_changes(changes)

    def undo(self, scenario: Scenario) -> list[Change]:
        changes: list[Change] = []
        for e in reversed(self.edits):
            changes += e.undo(scenario)
        return merge_changes(changes)


class MergingMacro(Macro):
    """A macro of mergeable edits (one per record kind) that merges component-wise.

    Used when one drag moves records of several kinds (units and commanders, or terrain): each
    step of the drag is one of these with the same ``merge_key`` and the same component kinds,
    and the document folds them into the first, so the whole drag is one undo step.
    """

    def __init__(self, edits: Sequence[Edit], text: str, merge_key: object) -> None:
        super().__init__(edits, text)
        self.merge_key = merge_key

    def merge(self, other: Edit) -> bool:
        if not (
            isinstance(other, MergingMacro)
            and other.merge_key == self.merge_key
            and len(other.edits) == len(self.edits)
            and all(
                type(a) is type(b) and getattr(a, "kind", None) == getattr(b, "kind", None)
                for a, b in zip(self.edits, other.edits, strict=True)
            )
        ):
            return False
        for a, b in zip(self.edits, other.edits, strict=True):
            if not a.merge(b):  # pragma: no cover - components share the key, so they merge
                return False
        self.text = other.text
        return True


def combine(edits: Sequence[Edit], text: str, merge_key: object = None) -> Edit:
    """One edit doing ``edits`` labelled ``text``: the edit itself when there is one, else a
    macro (a ``MergingMacro`` when ``merge_key`` is given)."""
    if len(edits) == 1:
        edits[0].text = text
        return edits[0]
    return MergingMacro(edits, text, merge_key) if merge_key is not None else Macro(edits, text)


NOUNS: dict[str, tuple[str, str]] = {
    "units": ("unit", "units"),
    "commanders": ("commander", "commanders"),
    "terrain": ("terrain feature", "terrain features"),
    "towns": ("town zone", "town zones"),
    "objectives": ("objective", "objectives"),
    "deployment_zones": ("deployment zone", "deployment zones"),
    "reinforcements": ("reinforcement", "reinforcements"),
}
"""Singular and plural noun of each record container, for undo labels."""


def count_text(verb: str, ids: Iterable[str], kinds: Mapping[str, str], names: Mapping[str, str]) -> str:
    """An undo label: "Move Bde Roguet" for one named record, else "Move 3 units" / "Move 4 items".

    ``kinds`` maps id → container name, ``names`` id → display name.
    """
    ids = list(ids)
    if len(ids) == 1 and names.get(ids[0]):
        return f"{verb} {names[ids[0]]}"
    kset = {kinds[i] for i in ids}
    one, many = NOUNS[next(iter(kset))] if len(kset) == 1 else ("item", "items")
    return f"{verb} {len(ids)} {one if len(ids) == 1 else many}"
