"""File ▸ Import… into a Regimental scenario (issue 18): Elchingen switched to the Regimental
rules from the Properties dock, Ney's VI Corps of 1806 imported from its republique5 ``.oob``
onto the French side through the Import dialog — its regiments arrive with their bases at 75
men a figure (1.1-1.2, the source's 4 bases of 6 figures), in one undo step whose text counts
the conversion — then Marchand's division, brought up beside Ney in the editor, is activated
in the game: the orders test (2.2) gives its actions and one of its regiments moves with the
Actions dock."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog, QDialogButtonBox

from battlestudio.model.units import Arm
from battlestudio.play.document import PlayDocument
from battlestudio.replay.flow_events import Moved
from battlestudio.ui.import_dialog import ImportDialog
from battlestudio.validate.ruleset import ruleset_terms
from tests.ui import test_every_ruleset_two_turns as loop
from tests.ui.test_play_elchingen_rulesets import choose, elchingen_under, until

VI_CORPS = Path("/work/shared/data/oob/republique5/scenarios/jena-auerstadt-1806/VI-Corps.oob")
MARCHAND = "vi-corps-1eme-division"
LINE = "vi-corps-39eme-ligne"
HQ = "french-vi-corps"


def _import(qtbot, w, monkeypatch) -> ImportDialog:
    seen: list[ImportDialog] = []

    def fake_exec(self: ImportDialog) -> int:
        seen.append(self)
        self.files_edit.clear()
        qtbot.keyClicks(self.files_edit, str(VI_CORPS))
        qtbot.keyClick(self.files_edit, Qt.Key.Key_Return)
        assert self.format() == "oob"
        self.into_doc.click()
        self.side_box.setCurrentIndex(self.side_box.findData("french"))
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        assert ok.isEnabled()
        qtbot.mouseClick(ok, Qt.MouseButton.LeftButton)
        return self.result()

    monkeypatch.setattr(ImportDialog, "exec", fake_exec)
    w.actions["import"].trigger()
    assert seen and seen[0].result() == QDialog.DialogCode.Accepted
    return seen[0]


def test_an_oob_imported_into_a_regimental_scenario_arrives_as_regiments_and_plays(qtbot, tmp_path, monkeypatch):
    w = elchingen_under(qtbot, tmp_path, monkeypatch, "regimental")
    doc = w.document
    before = set(doc.scenario.units)
    steps = doc.undo_count
    _import(qtbot, w, monkeypatch)
    sc = doc.scenario
    new = {i: u for i, u in sc.units.items() if i not in before}
    assert doc.undo_count == steps + 1
    # no Torden over Europa conversion first: its two batteries stay two (not one ToE gun model)
    assert doc.undo_text == "Import 12 units and 5 commanders (Regimental rules: 12 units converted, 2 warnings)"
    regiments = [u for u in new.values() if u.arm is Arm.INFANTRY]
    assert len(regiments) == 8
    for u in regiments:  # the source's 4 bases, 6 figures each at 75 men (1.1-1.2)
        assert (u.bases, u.figures, u.men) == (4, 24, 1800), u.id
        assert u.attributes["base_size_cm"] == [6.0, 2.0] and u.attributes["scale"] == "regimental"
        assert u.side == "french" and sc.commanders[sc.oob.superior(u.id)].echelon == "division"
    hussars = sc.units["vi-corps-9eme-hussars"]
    assert (hussars.bases, hussars.figures, hussars.attributes["base_size_cm"]) == (1, 2, [4.0, 3.5])

    # the designer drags Marchand's division under Elchingen's Ney (the side's HQ, who orders
    # only his own divisions) in the Order of battle dock, and brings it up beside him (20 cm zone)
    model = w.oob_panel.model
    mime = model.mimeData([model.index_of(MARCHAND)])
    model.dropMimeData(mime, Qt.DropAction.MoveAction, -1, 0, model.index_of(HQ))
    assert sc.oob.superior(MARCHAND) == HQ
    ney = sc.commanders[HQ].position
    ids = [MARCHAND, *sc.oob.subordinates(MARCHAND)]
    doc.move(ids, ney[0] + 8.0, ney[1] + 6.0, key=("bring up", MARCHAND))
    assert sc.units[LINE].position == (ney[0] + 8.0, ney[1] + 6.0)

    w.play_view.actions["start"].trigger()
    play = w.document
    assert isinstance(play, PlayDocument) and play.recording
    assert play.session.state.units[LINE].bases == 4
    until(w, "activation", "french")
    dlg = w.play_view.open_order_dialog()
    choose(dlg.recipient, MARCHAND)
    choose(dlg.order_type, "activate")
    boxes = [b for b in dlg.extra["actions"]]
    for box in boxes:
        choose(box, "move")
    assert dlg.roll_button.isEnabled()
    n = len(play.log)
    qtbot.mouseClick(dlg.roll_button, Qt.MouseButton.LeftButton)
    assert dlg.result is not None and "Orders test" in dlg.result.explanation
    dlg.close()
    assert len(play.log) > n
    assert MARCHAND not in play.session.activation_choices()  # activated this turn (2.2)

    panel = w.play_view.action_panel
    panel.refresh()
    assert panel.set_subject(LINE) and panel.select_action("move")
    loop._fill_points(w, panel, LINE)
    loop._fill_unset(panel.form)
    assert "Not legal" not in panel.preview.toPlainText(), panel.preview.toPlainText()
    button = (
        panel.roll_button if panel.roll_button.isVisible() and panel.roll_button.isEnabled() else panel.enter_button
    )
    n = len(play.log)
    start = play.session.state.units[LINE].position
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    moved = [e for e in play.log.events[n:] if isinstance(e, Moved) and e.id == LINE]
    assert moved, panel.outcome.toPlainText()
    assert play.session.state.units[LINE].position != start


def test_units_copied_under_another_ruleset_are_pasted_as_regiments(qtbot, tmp_path, monkeypatch):
    """Edit ▸ Copy in Elchingen under Torden over Europa, Edit ▸ Paste into Elchingen switched
    to the Regimental rules: the Avantgarde's 3,400 men come in as two regiments of 4 bases
    (1.2), its hussars as 2 squadrons; one undo step; a paste within the document copies as is."""
    from tests.ui.window_helpers import ELCHINGEN

    w = elchingen_under(qtbot, tmp_path, monkeypatch, "toe")
    w.document.set_selection({"austrian-avantgarde", "austrian-avantgarde-cavalry"})
    w.actions["copy"].trigger()
    panel = w.properties_panel
    assert w.files.open_path(ELCHINGEN, ask=False)
    combo = panel.editors["info"]["ruleset"].widget
    combo.setCurrentIndex(combo.findData("regimental"))
    combo.activated.emit(combo.currentIndex())
    doc = w.document
    assert doc.scenario.info.ruleset == "regimental"
    before = set(doc.scenario.units)
    steps = doc.undo_count
    w.actions["paste"].trigger()
    new = [doc.scenario.units[i] for i in sorted(set(doc.scenario.units) - before)]
    assert sorted((u.bases, u.figures) for u in new) == [(2, 4), (4, 22), (4, 23)]
    assert doc.undo_count == steps + 1 and "Regimental rules: 3 units converted" in doc.undo_text
    assert set(doc.selection) == {u.id for u in new}
    one = next(u for u in new if u.bases == 4)
    doc.set_selection({one.id})
    w.actions["copy"].trigger()
    w.actions["paste"].trigger()  # within the Regimental document: as copied
    again = [doc.scenario.units[i] for i in doc.selection]
    assert [(u.bases, u.figures, u.attributes.get("split_from")) for u in again] == [
        (4, one.figures, "austrian-avantgarde")
    ]
    w.actions["undo"].trigger()
    w.actions["undo"].trigger()
    assert set(doc.scenario.units) == before


def test_the_import_dialog_names_the_regimental_conversion_and_units_start_normal(qtbot, tmp_path, monkeypatch):
    w = elchingen_under(qtbot, tmp_path, monkeypatch, "regimental")
    doc = w.document
    before = set(doc.scenario.units)
    seen: list[ImportDialog] = []

    def fake_exec(self: ImportDialog) -> int:
        seen.append(self)
        self.files_edit.clear()
        qtbot.keyClicks(self.files_edit, str(VI_CORPS))
        qtbot.keyClick(self.files_edit, Qt.Key.Key_Return)
        # a new document is Torden over Europa's: its conversion, which can be switched off
        assert self.convert.text().startswith("Convert to Torden over Europa scale") and self.convert.isEnabled()
        notes = [self.warnings.item(i).text() for i in range(self.warnings.count())]
        assert any(n.startswith("conversion to Torden over Europa scale") for n in notes)
        self.into_doc.click()  # into the Regimental document: its conversion, always applied
        assert self.convert.text() == "Convert to the Regimental rules scale (as every import into this document)"
        assert self.convert.isChecked() and not self.convert.isEnabled()
        notes = [self.warnings.item(i).text() for i in range(self.warnings.count())]
        assert not [n for n in notes if "Torden over Europa" in n]
        assert any(n.startswith("conversion to the Regimental rules scale") for n in notes)
        assert any("Regimental initial state 'normal'" in n for n in notes)
        self.side_box.setCurrentIndex(self.side_box.findData("french"))
        qtbot.mouseClick(self.buttons.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)
        return self.result()

    monkeypatch.setattr(ImportDialog, "exec", fake_exec)
    w.actions["import"].trigger()
    assert seen and seen[0].result() == QDialog.DialogCode.Accepted
    new = [u for i, u in doc.scenario.units.items() if i not in before]
    new_ids = {u.id for u in new}
    assert new and {u.state for u in new} == {"normal"}
    assert {u.attributes.get("scale") for u in new if u.arm is Arm.INFANTRY} == {"regimental"}
    assert not [p for p in ruleset_terms(doc.scenario) if p.check == "unit.unknown_state" and set(p.subjects) & new_ids]
