"""The Order dialog follows who commands when a C-in-C is attached to an army chief (Torden over
Europa 2.2, 2.12): at Leipzig, Barclay ridden into base contact with Grand Duke Constantine takes
over his command, so Barclay's hold order to the reserve cavalry corps is offered and goes to the
roll, while Constantine's is offered disabled with the rule as the reason."""

from __future__ import annotations

from dataclasses import replace

from PySide6.QtCore import Qt

from battlestudio import store
from battlestudio.play.document import PlayDocument
from battlestudio.ui.resources import bundled_scenarios
from tests.ui.window_helpers import ModalRecorder, make_window

LEIPZIG = next(p for p in bundled_scenarios() if p.name == "leipzig-1813.battle.json")
BARCLAY = "russo-prussian-army-hq-russo-prussian-army-hq"
CONSTANTINE = "russian-reserve-constantine-russian-reserve-army"
CAVALRY = "russian-reserve-cavalry-corps-reserve-cavalry-corps"


def _items(combo) -> dict[str, tuple[bool, str]]:
    model = combo.model()
    return {
        combo.itemData(i): (model.item(i).isEnabled(), combo.itemData(i, Qt.ItemDataRole.ToolTipRole) or "")
        for i in range(combo.count())
    }


def test_the_order_dialog_gives_an_attached_c_in_c_the_army_chiefs_command(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    battle = store.load(LEIPZIG)
    battle.events, battle.ruleset_record = [], None  # the scenario before its recorded game
    sc = battle.scenario
    # the reserve on the table from the start (not arriving in the afternoon), Barclay beside Constantine
    sc.reinforcements = {k: r for k, r in sc.reinforcements.items() if r.formation != CONSTANTINE}
    sc.commanders[BARCLAY] = replace(sc.commanders[BARCLAY], position=sc.commanders[CONSTANTINE].position)
    path = tmp_path / "leipzig-attached.battle.json"
    store.save(battle, path)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(path, ask=False)
    pv = w.play_view
    pv.seed = 1813
    pv.actions["start"].trigger()
    doc = w.document
    assert isinstance(doc, PlayDocument) and doc.recording and doc.session.key.side == "allied"

    dlg = pv.open_order_dialog()
    dlg.issuer.setCurrentIndex(dlg.issuer.findData(CONSTANTINE))
    dlg.recipient.setCurrentIndex(dlg.recipient.findData(CAVALRY))
    enabled, why = _items(dlg.order_type)["H"]
    assert not enabled and "has taken over his command" in why and "(2.2" in why
    dlg.close()

    dlg = pv.open_order_dialog()
    dlg.issuer.setCurrentIndex(dlg.issuer.findData(BARCLAY))
    dlg.recipient.setCurrentIndex(dlg.recipient.findData(CAVALRY))
    assert _items(dlg.order_type)["H"][0]
    dlg.order_type.setCurrentIndex(dlg.order_type.findData("H"))
    assert dlg.roll_button.isEnabled()
    start = len(doc.log)
    dlg.roll_button.click()
    assert dlg.result is not None and dlg.result.status in ("delivered", "failed")
    written = [e for e in doc.log.events[start:] if e.kind == "order_written"]
    assert written and written[0].issuer == BARCLAY and written[0].recipient == CAVALRY
    dlg.close()
