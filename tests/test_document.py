"""Document: history (push/undo/redo, labels), merging of drags, macros, the clean flag,
the signals views listen to, and selection pruning."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from battlestudio.document import Document
from battlestudio.edits import Change, Macro, MoveRecords, PutRecords, Reattach, RemoveRecords, SetInfo
from battlestudio.replay.battle import Battle
from tests.elchingen import elchingen_scenario


@pytest.fixture
def doc() -> Document:
    return Document(Battle(elchingen_scenario()), Path("elchingen.battle"))


class Recorder:
    def __init__(self, doc: Document) -> None:
        self.changes: list[list[Change]] = []
        self.history = 0
        self.selections: list[frozenset] = []
        self.paths = 0
        doc.changed.connect(self.changes.append)
        doc.history_changed.connect(self._hist)
        doc.selection_changed.connect(self.selections.append)
        doc.path_changed.connect(self._path)

    def _hist(self) -> None:
        self.history += 1

    def _path(self) -> None:
        self.paths += 1


def test_push_undo_redo_labels_and_signals(doc):
    rec = Recorder(doc)
    assert not doc.can_undo and not doc.can_redo and doc.undo_text == ""
    doc.push(MoveRecords("units", {"u-roguet": (131.0, 70.0)}, None, "Move Bde Roguet"))
    doc.push(Reattach("u-roguet", "c-malher", "Attach Bde Roguet to Malher"))
    assert doc.undo_text == "Attach Bde Roguet to Malher"
    assert rec.changes == [
        [Change("units", frozenset({"u-roguet"}))],
        [Change("oob", frozenset({"u-roguet", "c-loison", "c-malher"}))],
    ]
    assert rec.history == 2
    assert doc.undo() == [Change("oob", frozenset({"u-roguet", "c-loison", "c-malher"}))]
    assert doc.redo_text == "Attach Bde Roguet to Malher" and doc.undo_text == "Move Bde Roguet"
    doc.undo()
    assert doc.scenario.units["u-roguet"].position == (130.0, 55.0)
    assert not doc.can_undo and doc.undo() == []
    doc.redo()
    doc.redo()
    assert doc.scenario.oob.superior("u-roguet") == "c-malher"
    assert doc.redo() == [] and doc.revision == 6


def test_undo_all_restores_identical_scenario(doc):
    original = copy.deepcopy(doc.scenario)
    doc.push(SetInfo({"turns": 14}, "Set turns"))
    doc.push(RemoveRecords("units", ["u-3huss", "u-centre"], "Delete 2 units"))
    doc.push(MoveRecords("commanders", {"c-ney": (118.0, 25.0)}, {"c-ney": 80.0}, "Move Ney"))
    after = copy.deepcopy(doc.scenario)
    while doc.can_undo:
        doc.undo()
    assert doc.scenario == original
    assert doc.scenario.oob.subordinates("c-loudon") == ["u-avantgarde", "u-centre", "u-aus-bty"]
    while doc.can_redo:
        doc.redo()
    assert doc.scenario == after


def test_push_after_undo_drops_redo(doc):
    doc.push(SetInfo({"turns": 10}))
    doc.undo()
    doc.push(SetInfo({"turns": 11}))
    assert not doc.can_redo and doc.undo_count == 1 and doc.scenario.info.turns == 11


def test_a_drag_is_one_undo_step(doc):
    for step in range(1, 6):
        doc.push(
            MoveRecords("units", {"u-villatte": (95.0 + step, 55.0 + step)}, None, "Move Bde Villatte", merge_key=7)
        )
    assert doc.undo_count == 1
    doc.undo()
    assert doc.scenario.units["u-villatte"].position == (95.0, 55.0)
    doc.redo()
    assert doc.scenario.units["u-villatte"].position == (100.0, 60.0)


def test_failed_push_leaves_history_untouched(doc):
    doc.push(SetInfo({"turns": 10}))
    rec = Recorder(doc)
    with pytest.raises(KeyError):
        doc.push(RemoveRecords("units", ["u-nobody"], "Delete"))
    assert doc.undo_count == 1 and rec.changes == [] and rec.history == 0


def test_macro_is_one_step(doc):
    doc.push(Macro([RemoveRecords("units", ["u-roguet"], "Delete"), SetInfo({"turns": 9})], "Delete and shorten"))
    assert doc.undo_count == 1 and doc.undo_text == "Delete and shorten"
    doc.undo()
    assert "u-roguet" in doc.scenario.units and doc.scenario.info.turns == 20


def test_clean_flag(doc):
    rec = Recorder(doc)
    assert not doc.is_modified
    doc.push(SetInfo({"turns": 10}))
    assert doc.is_modified
    doc.undo()
    assert not doc.is_modified
    doc.redo()
    doc.mark_saved(Path("saved.battle"))
    assert not doc.is_modified and doc.path == Path("saved.battle") and rec.paths == 1
    doc.mark_saved(Path("saved.battle"))
    assert rec.paths == 1
    doc.undo()
    assert doc.is_modified
    doc.redo()
    assert not doc.is_modified
    # a drag right after saving does not merge into the saved step
    doc.push(MoveRecords("units", {"u-villatte": (1.0, 1.0)}, None, "Move", merge_key=1))
    doc.mark_saved()
    doc.push(MoveRecords("units", {"u-villatte": (2.0, 2.0)}, None, "Move", merge_key=1))
    assert doc.is_modified
    doc.undo()
    assert not doc.is_modified and doc.scenario.units["u-villatte"].position == (1.0, 1.0)
    # the saved state becomes unreachable once its redo step is dropped
    doc.undo()
    doc.push(SetInfo({"turns": 3}))
    assert doc.is_modified
    while doc.can_undo:
        doc.undo()
    assert doc.is_modified


def test_selection_signal_and_pruning(doc):
    rec = Recorder(doc)
    doc.set_selection(["u-roguet", "t-wood"])
    doc.set_selection({"t-wood", "u-roguet"})
    assert rec.selections == [frozenset({"u-roguet", "t-wood"})]
    doc.push(RemoveRecords("units", ["u-roguet"], "Delete"))
    assert doc.selection == frozenset({"t-wood"})
    doc.undo()
    assert doc.selection == frozenset({"t-wood"})


def test_new_document_has_no_path(doc):
    new = Document(Battle())
    assert new.path is None and not new.is_modified and new.scenario.units == {}
    new.push(PutRecords("units", {"u-1": doc.scenario.units["u-roguet"].__class__("u-1", "Bde", "french")}, "Add unit"))
    assert new.is_modified
