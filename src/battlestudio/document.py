"""Document: the battle being edited, its undo history, its selection, and the signals views use.

The editor changes scenario data only through ``Document.push(edit)``. Every change is
announced on ``changed`` as a list of ``Change``s (the Tiled model); the history (undo/redo,
merging of drags, clean flag) is pure Python so it is tested without Qt.

The gestures of the map tools and the Properties dock are verbs: ``move`` (a drag or a nudge),
``rotate``, ``set_fields`` (a field typed in the dock: a formation, an order state, a name …)
and ``place`` (a drop from the order of battle). The editor answers each with an edit pushed
here; a recording (``battlestudio.play.PlayDocument``) answers the same verbs with battle events.
A gesture is the calls made with one merge ``key``: the document snapshots the records it
works on at the first call with a new key, every later call gives the displacement or turn
from there, and the whole gesture is one undo step.

Records from elsewhere come in through ``import_edit`` (an importer's scenario) and ``paste_into``
(copied records): their units first take the document's ruleset scale
(``rules.switch.conform_import``), then one undo step adds them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol
from collections.abc import Iterable, Mapping, Sequence

from psygnal import Signal

from battlestudio.edits import RECORD_KINDS, Change, Clip, Edit, Macro, PutRecords, container, paste_edit
from battlestudio.edits.merge import merge_edit
from battlestudio.edits.moves import MOVABLE, Snapshot, move_edit, rotate_edit, snapshot
from battlestudio.edits.place import place_edit
from battlestudio.model.geometry import Point
from battlestudio.model.scenario import Scenario, Side
from battlestudio.replay.battle import Battle
from battlestudio.rules import resolve_ruleset_id
from battlestudio.rules.switch import Conformed, conform_import
from battlestudio.rules.toe.scale import read_prussian_brigades_for


class OnDisk(Protocol):
    """What the file looked like when the document was opened or last saved
    (``store.file_identity.FileIdentity``)."""

    def still(self, path: Path | None = None) -> str | None:
        """None when the file holds the same bytes still, else what happened to it."""
        ...


class Document:
    """An open battle file.

    Parameters
    ----------
    battle : Battle
        what the file holds (scenario + game log); edited in place.
    path : Path | None
        where it was loaded from / last saved to; None for a new, unsaved document.

    ``disk`` is the file as it was opened or last saved (``OnDisk``, set by whoever reads or
    writes it; None when unknown), so a save can tell whether another writer changed it since.

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
        self._gesture_key: object = None
        self._gesture_records: Snapshot = {}
        self._disk: OnDisk | None = None

    @property
    def disk(self) -> OnDisk | None:
        """The file at ``path`` as it was opened or last saved (None when unknown)."""
        return self._disk

    @disk.setter
    def disk(self, value: OnDisk | None) -> None:
        self._disk = value

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
        del self._edits[self._index :]
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

    # -- gestures ------------------------------------------------------------------------
    def gesture_start(self, ids: Iterable[str], key: object = None, kinds: Sequence[str] = MOVABLE) -> Snapshot:
        """id → (container, record) of ``ids`` (in ``kinds``; unknown ids left out) as they stood
        at the first call with merge ``key``: a new key (or None) snapshots them now."""
        if key is None or key != self._gesture_key:
            self._gesture_key, self._gesture_records = key, {}
        ids = list(ids)
        held = self._gesture_records
        missing = [i for i in ids if i not in held]
        if missing:
            held.update(snapshot(self.scenario, missing, kinds))
        return {i: held[i] for i in ids if i in held and held[i][0] in kinds}

    def move(self, ids: Iterable[str], dx: float, dy: float, key: object = None, verb: str = "Move") -> list[Change]:
        """Move the records ``ids`` (units, commanders, terrain, towns, objectives) by (dx, dy) cm
        from where they stood at the gesture's start (``gesture_start``); one undo step per
        ``key`` ("Move Bde Roguet", "Nudge 3 units"). Returns the changes ([] when none moves)."""
        edit = move_edit(self.gesture_start(ids, key), dx, dy, verb, key)
        return self.push(edit) if edit is not None else []

    def rotate(self, ids: Iterable[str], delta: float, key: object = None) -> list[Change]:
        """Turn the units among ``ids`` by ``delta`` degrees CCW from their facing at the gesture's
        start, each about the centre of its footprint; one undo step per ``key``."""
        units = {i: rec for i, (_, rec) in self.gesture_start(ids, key, ("units",)).items()}
        return self.push(rotate_edit(units, delta, key)) if units else []

    def set_fields(
        self, kind: str, fields: Mapping[str, Mapping[str, Any]], text: str, key: object = None
    ) -> list[Change]:
        """Set fields of records of container ``kind``: ``fields`` is id → {field: new value}
        (dataclass field names, e.g. ``{"formation": Formation.COLUMN}``), as one undo step
        labelled ``text``; calls with the same ``key`` merge. Records left unchanged are
        skipped ([] when none changes).

        Raises
        ------
        KeyError
            for an id not in the container; ValueError for an unknown container.
        """
        new = self.fields_set(kind, fields)
        return self.push(PutRecords(kind, new, text, merge_key=key)) if new else []

    def fields_set(self, kind: str, fields: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
        """id → the record of container ``kind`` with ``fields[id]`` set, for the records it
        changes (``set_fields``)."""
        d = container(self.scenario, kind)
        new = {i: replace(d[i], **f) for i, f in fields.items()}
        return {i: r for i, r in new.items() if r != d[i]}

    def place(self, ids: Iterable[str], point: Point) -> list[str]:
        """Place the units and commanders ``ids`` dropped at ``point`` (cm) in a line about it
        (``edits.place``) as one undo step; unknown ids are ignored. Returns the ids placed."""
        ids = list(ids)
        edit = place_edit(self.scenario, ids, point)
        if edit is None:
            return []
        self.push(edit)
        s = self.scenario
        return [i for i in dict.fromkeys(ids) if i in s.units or i in s.commanders]

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


# -- records coming in from elsewhere ----------------------------------------------------------
class ImportEdit(Macro):
    """An import or paste as one undo step, with what bringing its units to the scenario's ruleset
    scale noted (``notes``) and could not do (``warnings``, one or more per unit it names)."""

    def __init__(self, edits: Sequence[Edit], text: str, notes: Sequence[str] = (), warnings: Sequence[str] = ()):
        super().__init__(edits, text)
        self.notes: tuple[str, ...] = tuple(notes)
        self.warnings: tuple[str, ...] = tuple(warnings)


def _conformed_text(text: str, conf: Conformed) -> str:
    if not (conf.changed or conf.warnings):
        return text
    n, w = conf.changed, len(conf.warnings)
    return (
        f"{text} ({conf.ruleset_name}: {n} unit{'s' if n != 1 else ''} converted, {w} warning{'s' if w != 1 else ''})"
    )


def import_edit(
    target: Scenario, imported: Scenario, side_map: Mapping[str, str], new_sides: Mapping[str, Side] = {}
) -> tuple[ImportEdit, list[str]]:
    """The one undo step that brings ``imported`` (an importer's result) into ``target``: its
    units first take ``target``'s ruleset scale (``rules.switch.conform_import``: the Regimental
    rules convert them to bases and split brigades into regiments), then ``edits.merge.merge_edit``
    adds them; the new node ids. An imported Prussian brigade is read with ``target``'s year and
    ``prussian_brigade_years`` (Torden over Europa 1.3, ``scale.read_prussian_brigades_for``).
    Raises ``ValueError`` as ``merge_edit`` does, and for a bad ``prussian_brigade_years``."""
    imported, brigades = read_prussian_brigades_for(imported, target.info)
    conf = conform_import(imported, target.info)
    edit, nodes = merge_edit(target, conf.scenario, side_map, new_sides)
    assert isinstance(edit, Macro)
    notes = (*brigades, *conf.notes)
    return ImportEdit(edit.edits, _conformed_text(edit.text, conf), notes, conf.warnings), nodes


def paste_into(
    target: Scenario,
    clip: Clip,
    source_ruleset: str | None = None,
    sides: dict[str, str] | None = None,
    new_sides: dict[str, Any] | None = None,
) -> tuple[ImportEdit, list[str]] | None:
    """``edits.paste_edit`` of ``clip`` into ``target`` (``sides``/``new_sides`` as there: where the
    copied sides go), its units first brought to ``target``'s ruleset scale when they were copied
    under another ruleset (``source_ruleset``; None: unknown, converted too); None for an empty clip.
    Imported commanders (a ``source_echelon``) are read with ``target``'s year and
    ``prussian_brigade_years`` (Torden over Europa 1.3)."""
    clip, brigades = _brigades_read(target, clip)
    units = dict(clip.records.get("units", {}))
    if units and (
        source_ruleset is None or resolve_ruleset_id(source_ruleset) != resolve_ruleset_id(target.info.ruleset)
    ):
        cmds = {**target.commanders, **clip.records.get("commanders", {})}
        held = Scenario(info=target.info, units=units, commanders=cmds)
        for rid, sup in clip.superiors.items():
            if sup is not None:
                held.oob.add(sup, rid)
        conf = conform_import(held, target.info, only=units)
    else:
        conf = Conformed(Scenario())
    if conf.changed:
        out = conf.scenario
        records = {**clip.records, "units": dict(out.units)}
        superiors = {k: v for k, v in clip.superiors.items() if k not in units}
        superiors.update({uid: out.oob.superior(uid) for uid in out.units})
        clip = Clip(records, superiors)
    made = paste_edit(target, clip, sides=sides, new_sides=new_sides)
    if made is None:
        return None
    edit, ids = made
    assert isinstance(edit, Macro)
    return ImportEdit(edit.edits, _conformed_text(edit.text, conf), (*brigades, *conf.notes), conf.warnings), ids


def _brigades_read(target: Scenario, clip: Clip) -> tuple[Clip, list[str]]:
    """``clip`` with its commanders' 1.3 Prussian-brigade reading taken from ``target``."""
    cmds = dict(clip.records.get("commanders", {}))
    if not any(c.attributes.get("source_echelon") for c in cmds.values()):
        return clip, []
    held = Scenario(info=target.info, commanders={**target.commanders, **cmds})
    for cid in cmds:
        sup = clip.superiors.get(cid)
        if sup is not None:
            held.oob.add(sup, cid)
        else:
            held.oob.add_node(cid)
    read, notes = read_prussian_brigades_for(held, target.info, only=set(cmds))
    if not notes:
        return clip, []
    return replace(clip, records={**clip.records, "commanders": {k: read.commanders[k] for k in cmds}}), notes
