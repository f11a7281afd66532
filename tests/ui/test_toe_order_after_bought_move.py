"""The Order dialog refuses an order to a corps general who was moved with order capacity this
turn, and says why (Torden over Europa 2.12): Napoleon buys Lannes a 10 cm move at Jena, then
the attack, hold, retreat and march orders to Lannes are offered disabled with the rule as the
reason, and choosing one shows it in the dialog instead of a roll."""

from __future__ import annotations

from PySide6.QtCore import Qt

from battlestudio import store
from battlestudio.play.document import PlayDocument
from battlestudio.replay.order_events import GeneralMoveBought
from tests.ui.window_helpers import ModalRecorder, make_window
from battlestudio.ui.resources import bundled_scenarios

JENA = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")
CHIEF, CORPS = "french-imperial-guard", "french-v-corps"


def _items(combo) -> dict[str, tuple[bool, str]]:
    model = combo.model()
    return {
        combo.itemData(i): (model.item(i).isEnabled(), combo.itemData(i, Qt.ItemDataRole.ToolTipRole) or "")
        for i in range(combo.count())
    }


def test_an_order_after_a_bought_move_is_refused_with_the_rule(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    battle = store.load(JENA)
    battle.events = []  # the scenario before its recorded game
    path = tmp_path / "jena-unplayed.battle.json"
    store.save(battle, path)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(path, ask=False)
    pv = w.play_view
    pv.seed = 1806
    pv.actions["start"].trigger()
    doc = w.document
    assert isinstance(doc, PlayDocument) and doc.recording and doc.session.key.side == "french"

    dlg = pv.open_order_dialog()
    dlg.issuer.setCurrentIndex(dlg.issuer.findData(CHIEF))
    dlg.recipient.setCurrentIndex(dlg.recipient.findData(CORPS))
    before = _items(dlg.order_type)
    assert before["H"][0] and before["move"][0]  # both open before the move
    dlg.order_type.setCurrentIndex(dlg.order_type.findData("move"))
    x, y = doc.session.state.commanders[CORPS].position
    dlg.set_objective((x, y + 10.0))
    assert dlg.roll_button.isEnabled()
    start = len(doc.log)
    dlg.roll_button.click()
    assert dlg.result is not None and dlg.result.status == "delivered"
    assert [type(e) for e in doc.log.events[start:]] == [GeneralMoveBought]

    again = pv.open_order_dialog()
    again.issuer.setCurrentIndex(again.issuer.findData(CHIEF))
    again.recipient.setCurrentIndex(again.recipient.findData(CORPS))
    after = _items(again.order_type)
    for t in ("A", "H", "T", "M"):
        enabled, why = after[t]
        assert not enabled and "was moved with order capacity this turn" in why and "(2.12)" in why
    again.order_type.setCurrentIndex(again.order_type.findData("H"))
    text = again.preview.toPlainText()
    assert "Not possible now:" in text and "(2.12)" in text
    assert not again.roll_button.isEnabled()
    again.close()
