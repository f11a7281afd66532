"""The editor answers the gestures with edits: ``Document.move`` and ``rotate`` give what pushing
the tool's edits did (same records, one undo step per merge key, same labels), ``set_fields``
pushes one merged ``PutRecords``, ``place`` one undo step."""

from __future__ import annotations

import pytest

from battlestudio.document import Document
from battlestudio.edits.moves import move_edit, rotate_edit, snapshot
from battlestudio.model.units import Formation
from battlestudio.replay.battle import Battle


def _pair(scenario):
    return Document(Battle(scenario.copy())), Document(Battle(scenario.copy()))


def test_the_move_verb_equals_pushing_the_drags_edits(scenario):
    verb, old = _pair(scenario)
    ids = ["u-villatte", "u-roguet", "c-loison", "t-heights", "z-ober"]
    originals = snapshot(old.scenario, ids)
    for k in range(1, 21):  # twenty mouse moves, then a second drag
        dx, dy = 0.7 * k, -0.3 * k
        verb.move(ids, dx, dy, key=("move", 1))
        old.push(move_edit(originals, dx, dy, merge_key=("move", 1)))
    originals = snapshot(old.scenario, ids[:1])
    verb.move(ids[:1], 2.0, 2.0, key=("move", 2))
    old.push(move_edit(originals, 2.0, 2.0, merge_key=("move", 2)))
    for kind in ("units", "commanders", "terrain", "towns"):
        assert getattr(verb.scenario, kind) == getattr(old.scenario, kind)
    assert verb.undo_count == old.undo_count == 2
    assert verb.undo_text == old.undo_text == "Move Bde Villatte"
    verb.undo()
    assert verb.undo_text == "Move 5 items"
    verb.undo()
    assert verb.scenario.units == scenario.units and verb.scenario.terrain["t-heights"] == scenario.terrain["t-heights"]
    assert verb.scenario.units["u-villatte"].position == (95.0, 55.0)


def test_the_rotate_verb_equals_the_rotate_edit_and_turns_only_units(scenario):
    verb, old = _pair(scenario)
    units = {i: scenario.units[i] for i in ("u-villatte", "u-marcognet")}
    for delta in (5.0, 20.0, 35.0):
        verb.rotate([*units, "c-ney"], delta, key=("rotate", 1))
        old.push(rotate_edit(units, delta, ("rotate", 1)))
    assert verb.scenario.units == old.scenario.units and verb.undo_count == 1 == old.undo_count
    assert verb.scenario.commanders["c-ney"] == scenario.commanders["c-ney"]
    assert verb.scenario.units["u-villatte"].rect().centre == pytest.approx(units["u-villatte"].rect().centre)
    assert verb.rotate(["c-ney", "t-wood"], 15.0) == [] and verb.undo_count == 1


def test_set_fields_merges_by_key_and_skips_what_does_not_change(scenario):
    doc = Document(Battle(scenario.copy()))
    key = ("properties", "units", "formation", ("u-villatte", "u-roguet"))
    fields = {"u-villatte": {"formation": Formation.COLUMN}, "u-roguet": {"formation": Formation.COLUMN}}
    doc.set_fields("units", fields, "Set formation of 2 units", key)
    doc.set_fields("units", {i: {"formation": Formation.SQUARE} for i in fields}, "Set formation of 2 units", key)
    assert doc.undo_count == 1 and doc.scenario.units["u-roguet"].formation is Formation.SQUARE
    assert doc.set_fields("units", {"u-roguet": {"formation": Formation.SQUARE}}, "Set formation") == []
    doc.undo()
    assert doc.scenario.units["u-roguet"].formation is scenario.units["u-roguet"].formation


def test_place_is_one_undo_step_and_returns_what_it_placed(scenario):
    doc = Document(Battle(scenario.copy()))
    assert doc.place(["u-villatte", "c-loison", "nobody"], (120.0, 60.0)) == ["u-villatte", "c-loison"]
    assert doc.undo_count == 1 and doc.undo_text == "Place 2 items"
    assert doc.scenario.units["u-villatte"].facing == 90.0  # towards the Austrians' centre (122, 127)
    assert doc.place(["nobody"], (1.0, 1.0)) == [] and doc.undo_count == 1
