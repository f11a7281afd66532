"""Document: the battle being edited, its undo history, its selection, and the signals views use.

The editor's only way to change scenario data is ``Document.push(edit)``. Every change is
announced on ``changed`` as a list of ``Change``s (the Tiled model); the history (undo/redo,
merging of drags, clean flag) is pure Python so it is tested without Qt.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable

from psygnal import Signal

from battlestudio.edits import RECORD_KINDS, Change, Edit
from battlestudio.model.scenario import Scenario
from battlestudio.replay.battle import Battle


class Document:
    """An open battle file.

    Parameters
    ----------
    battle : Battle
        what the file holds (scenario + game log); edited in place.
    path : Path | None
        where it was loaded from / last saved to; None for a new, unsaved document.

    Signals
    -------
    changed(list[Change])
        after every push, undo and redo, with what the edit touched.
    history_changed()
        when undo/redo availability, labels or the modified flag may have changed.
    selection_changed(frozenset[str])
        the new set of selected ids (units, commanders, terrain, towns, …).
    path_changed()
        after ``mark_saved`` with a new path.
    """

    changed = Signal(list)
    history_changed = Signal()
    selection_changed = Signal(frozenset)
    path_changed = Signal()

    def __init__(self, battle: Battle, path: Path | None = None) -> None:
        self.battle = battle
        self.path: Path | None = Path(path) if path is not None else None
        self._edits: list[Edit] = []
        self._index = 0  # number of edits currently applied
        self._clean: int | None = 0  # index at which the document equals the file; None = unreachable
        self._selection: frozenset[str] = frozenset()
        self.revision = 0
        """Counts every change (push, undo, redo); autosave compares it to decide to write."""

    # -- data ----------------------------------------------------------------------------
    @property
    def scenario(self) -> Scenario:
        """The scenario being edited (``battle.scenario``)."""
        return self.battle.scenario

    # -- history -------------------------------------------------------------------------
    def push(self, edit: Edit) -> list[Change]:
        """Do ``edit`` and record it for undo; merge it into the previous edit if it agrees.

        Any redo steps are dropped. An edit does not merge into the step the document was
        saved at, so the saved state stays reachable by undo.

        Returns
        -------
        list[Change]
            what the edit touched (also emitted on ``changed``).

        Raises
        ------
        Exception
            whatever ``edit.do`` raises; the history is then unchanged.
        """
        changes = edit.do(self.scenario)
        del self._edits[self._index:]
        if self._clean is not None and self._clean > self._index:
            self._clean = None
        top = self._edits[-1] if self._edits else None
        if top is not None and self._clean != self._index and top.merge(edit):
            pass
        else:
            self._edits.append(edit)
            self._index += 1
        self._after(changes)
        return changes

    def undo(self) -> list[Change]:
        """Undo the last applied edit (no-op returning [] when there is none)."""
        if not self.can_undo:
            return []
        self._index -= 1
        changes = self._edits[self._index].undo(self.scenario)
        self._after(changes)
        return changes

    def redo(self) -> list[Change]:
        """Redo the next undone edit (no-op returning [] when there is none)."""
        if not self.can_redo:
            return []
        changes = self._edits[self._index].do(self.scenario)
        self._index += 1
        self._after(changes)
        return changes

    def _after(self, changes: list[Change]) -> None:
        self.revision += 1
        self.changed.emit(changes)
        self._prune_selection()
        self.history_changed.emit()

    @property
    def can_undo(self) -> bool:
        return self._index > 0

    @property
    def can_redo(self) -> bool:
        return self._index < len(self._edits)

    @property
    def undo_text(self) -> str:
        """Label of the edit ``undo`` would undo ("" when none)."""
        return self._edits[self._index - 1].text if self.can_undo else ""

    @property
    def redo_text(self) -> str:
        """Label of the edit ``redo`` would redo ("" when none)."""
        return self._edits[self._index].text if self.can_redo else ""

    @property
    def undo_count(self) -> int:
        """Number of edits that ``undo`` can undo."""
        return self._index

    @property
    def is_modified(self) -> bool:
        """True when the data differs from the file (or from the new empty document)."""
        return self._clean != self._index

    def mark_saved(self, path: Path | None = None) -> None:
        """Record that the document was just saved (to ``path`` if given): it is clean now."""
        if path is not None and Path(path) != self.path:
            self.path = Path(path)
            self.path_changed.emit()
        self._clean = self._index
        self.history_changed.emit()

    def mark_unsaved(self) -> None:
        """Treat the current state as differing from the file (e.g. a recovered copy)."""
        self._clean = None
        self.history_changed.emit()

    # -- selection -----------------------------------------------------------------------
    @property
    def selection(self) -> frozenset[str]:
        """Ids of the selected records."""
        return self._selection

    def set_selection(self, ids: Iterable[str]) -> None:
        """Select exactly ``ids`` (emits ``selection_changed`` only if the set differs)."""
        new = frozenset(ids)
        if new != self._selection:
            self._selection = new
            self.selection_changed.emit(new)

    def _prune_selection(self) -> None:
        if self._selection:
            s = self.scenario
            containers = [getattr(s, k) for k in RECORD_KINDS]
            self.set_selection(i for i in self._selection if any(i in d for d in containers))
