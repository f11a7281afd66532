"""Every way records come into a document takes its ruleset's scale: ``document.import_edit``
(File ▸ Import… into the open document) and ``document.paste_into`` (Edit ▸ Paste from a
document of another ruleset) bring Regimental units into a Regimental scenario as one undo
step, and leave a Torden over Europa scenario's imports as ``edits.merge.merge_edit`` makes them."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from battlestudio import store
from battlestudio.document import Document, ImportEdit, import_edit, paste_into
from battlestudio.edits import copy_records
from battlestudio.edits.merge import merge_edit
from battlestudio.store.importers import import_oob

ELCHINGEN = Path(__file__).resolve().parents[1] / "scenarios" / "elchingen-1805.battle.json"
VI_CORPS = Path("/work/shared/data/oob/republique5/scenarios/jena-auerstadt-1806/VI-Corps.oob")
FOGOFWAR = Path("/work/shared/data/oob/fogofwar")


def _under(ruleset: str) -> Document:
    doc = Document(store.load(ELCHINGEN))
    doc.battle.scenario.info = replace(doc.scenario.info, ruleset=ruleset)
    return doc


def test_an_import_into_a_regimental_scenario_brings_regiments_of_bases_in_one_undo_step():
    doc = _under("regimental")
    before = dict(doc.scenario.units)
    res = import_oob([VI_CORPS], "oob")
    edit, nodes = import_edit(doc.scenario, res.scenario, {s: "french" for s in res.scenario.sides})
    assert isinstance(edit, ImportEdit)
    assert edit.text == "Import 11 units and 5 commanders (Regimental rules: 11 units converted, 2 warnings)"
    assert "9eme Hussars: 1 squadron, a cavalry regiment has 4 (1.2)" in edit.warnings
    doc.push(edit)
    new = {i: u for i, u in doc.scenario.units.items() if i not in before}
    line = next(u for u in new.values() if u.name == "39eme Ligne")
    assert (line.bases, line.figures, line.side) == (4, 24, "french")
    assert line.attributes["base_size_cm"] == [6.0, 2.0]
    assert all(doc.scenario.oob.superior(i) for i in new)
    assert set(nodes) >= set(new)
    doc.undo()
    assert doc.scenario.units == before


def test_a_fogofwar_brigade_of_3400_men_arrives_as_two_regiments_of_four_bases():
    doc = _under("regimental")
    res = import_oob([FOGOFWAR], "fogofwar", scenario_id=18, convert=False)
    edit, _ = import_edit(doc.scenario, res.scenario, {"france": "french", "austria": "austrian"})
    doc.push(edit)
    parts = [u for u in doc.scenario.units.values() if u.attributes.get("split_from") == "austria-avantgarde"]
    # 3400 / 75 = 45 figures, 8 bases: 2 regiments of 4 (1.2), under the 1st division's general
    assert sorted((u.bases, u.figures) for u in parts) == [(4, 22), (4, 23)]
    sups = {doc.scenario.oob.superior(u.id) for u in parts}
    assert (
        len(sups) == 1 and doc.scenario.commanders[sups.pop()].name == res.scenario.commanders["austria-1st-div"].name
    )
    assert any("Avantgarde: 8 bases are a brigade" in n for n in edit.notes)


def test_an_import_into_torden_over_europa_is_the_plain_merge():
    doc = _under("toe")
    res = import_oob([VI_CORPS], "oob")
    side_map = {s: "french" for s in res.scenario.sides}
    edit, nodes = import_edit(doc.scenario, res.scenario, side_map)
    plain, plain_nodes = merge_edit(doc.scenario, res.scenario, side_map)
    assert edit.text == plain.text and nodes == plain_nodes and not edit.notes and not edit.warnings
    doc.push(edit)
    assert doc.scenario.units["vi-corps-39eme-ligne"] == replace(
        res.scenario.units["vi-corps-39eme-ligne"], side="french"
    )


def test_paste_from_another_ruleset_converts_and_a_paste_within_does_not():
    toe = _under("toe")
    clip = copy_records(toe.scenario, ["austrian-avantgarde", "austrian-avantgarde-cavalry"])
    reg = _under("regimental")
    made = paste_into(reg.scenario, clip, "toe")
    assert made is not None
    edit, ids = made
    reg.push(edit)
    pasted = [reg.scenario.units[i] for i in ids]
    assert sorted((u.bases, u.figures) for u in pasted) == [(2, 4), (4, 22), (4, 23)]  # 2 squadrons; 2 regiments
    assert "Regimental rules: 3 units converted" in edit.text
    again = copy_records(reg.scenario, ids[:1])
    made = paste_into(reg.scenario, again, "regimental")
    assert made is not None and reg.scenario.units[ids[0]] == next(iter(again.records["units"].values()))
    edit, ids2 = made
    reg.push(edit)
    assert (
        replace(reg.scenario.units[ids2[0]], id=ids[0], position=reg.scenario.units[ids[0]].position)
        == (reg.scenario.units[ids[0]])
    )
    reg.undo()
    reg.undo()
    assert not set(ids) & set(reg.scenario.units)
