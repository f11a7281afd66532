"""Duplicate names in the window's lists: the bundled Elchingen's two Austrian "Avantgarde"
brigades read "Avantgarde (von Loudon)" and "Avantgarde (von Hessen-Homburg)" in the order of
battle tree (renaming keeps the plain name, and renaming their general relabels them), and in a
copy whose two Austrian divisions each have an "Avantgarde" brigade general (as an imported order
of battle names its headquarters) the order dialog's recipients tell the two apart."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt

from battlestudio import store
from battlestudio.document import Document
from battlestudio.edits import PutRecords
from battlestudio.model.units import Commander
from battlestudio.replay.battle import Battle
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window


def test_the_tree_shows_duplicates_with_their_general(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path, Document(store.load(ELCHINGEN)))
    model = w.oob_panel.model
    first, second = model.index_of("austrian-avantgarde"), model.index_of("austrian-avantgarde-2")
    assert first.data(Qt.ItemDataRole.DisplayRole) == "Avantgarde (von Loudon)"
    assert second.data(Qt.ItemDataRole.DisplayRole) == "Avantgarde (von Hessen-Homburg)"
    assert first.data(Qt.ItemDataRole.EditRole) == "Avantgarde"  # what the rename editor starts from
    assert model.index_of("austrian-riesch-corps").data() == "FML Riesch"
    # the rows as the tree view draws them (through the panel's filter proxy)
    view_text = w.oob_panel.index_of("austrian-avantgarde").data()
    assert view_text == "Avantgarde (von Loudon)"
    doc = w.document
    loudon = doc.scenario.commanders["austrian-1st-div"]
    doc.push(PutRecords("commanders", {loudon.id: replace(loudon, name="FML von Loudon")}, "Rename"))
    assert model.index_of("austrian-avantgarde").data() == "Avantgarde (FML von Loudon)"
    second_rec = replace(doc.scenario.units["austrian-avantgarde-2"], name="Avantgarde II")
    doc.push(PutRecords("units", {second_rec.id: second_rec}, "Rename"))
    assert model.index_of("austrian-avantgarde").data() == "Avantgarde"  # no longer a duplicate
    assert model.index_of("austrian-avantgarde-2").data() == "Avantgarde II"


def elchingen_with_duplicate_generals():
    b = store.load(ELCHINGEN)
    s = b.scenario
    for div, n in (("austrian-1st-div", ""), ("austrian-2nd-div", "-2")):
        c = s.commanders[div]
        hq = f"austrian-avantgarde-hq{n}"
        s.commanders[hq] = Commander(hq, "Avantgarde", "austrian", "Austria", "brigade", c.position)
        s.oob.add(div, hq)
        s.oob.remove(f"austrian-avantgarde{n}")
        s.oob.add(hq, f"austrian-avantgarde{n}")
    return Battle(s, [])


def test_the_order_dialog_tells_duplicate_recipients_apart(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path, Document(elchingen_with_duplicate_generals()))
    w.resize(1400, 900)
    w.play_view.seed = 5
    doc = w.play_view.start_game()
    assert doc.run("to the Austrian orders", lambda s: s.advance_to("orders", "austrian")) is not None
    doc.set_selection({"austrian-riesch-corps"})
    dlg = w.play_view.open_order_dialog()
    assert dlg.issuer.currentData() == "austrian-riesch-corps" and dlg.issuer.currentText() == "FML Riesch (corps)"
    listed = {dlg.recipient.itemData(i): dlg.recipient.itemText(i) for i in range(dlg.recipient.count())}
    assert listed["austrian-avantgarde-hq"] == "Avantgarde (von Loudon, brigade)"
    assert listed["austrian-avantgarde-hq-2"] == "Avantgarde (von Hessen-Homburg, brigade)"
    assert listed["austrian-1st-div"] == "von Loudon (division)"
    # the user picks the second Avantgarde by its label
    dlg.recipient.setFocus()
    for _ in range(dlg.recipient.count()):
        if dlg.recipient.currentData() == "austrian-avantgarde-hq-2":
            break
        qtbot.keyClick(dlg.recipient, Qt.Key.Key_Down)
    assert dlg.recipient.currentText() == "Avantgarde (von Hessen-Homburg, brigade)"
    dlg.close()
