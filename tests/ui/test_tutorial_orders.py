"""The Order dialog over the bundled Elchingen tutorial offers each general every order type the
ruleset lists as available for him, and rolls them: Ney and Riesch, each his side's acting army
chief (``toe.scenario.acting_army_chief``, Torden over Europa 2.3, 2.12), attack with their own
corps and detach a division (2.4, 2.11).
"""

from __future__ import annotations

import math
import shutil

from PySide6.QtCore import Qt

from battlestudio.play.document import PlayDocument
from battlestudio.replay.order_events import Detached, OrderWritten
from battlestudio.rules.toe.orders import nearest_enemy_point
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window

CHIEFS = {"french": "french-vi-corps", "austrian": "austrian-riesch-corps"}


def _items(combo) -> list[tuple[str, bool, str]]:
    """(data, enabled, tooltip) of every entry of a combo box."""
    model = combo.model()
    return [
        (combo.itemData(i), model.item(i).isEnabled(), combo.itemData(i, Qt.ItemDataRole.ToolTipRole) or "")
        for i in range(combo.count())
    ]


def test_the_order_dialog_offers_and_rolls_every_order_of_the_tutorials_generals(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    path = tmp_path / ELCHINGEN.name
    shutil.copy(ELCHINGEN, path)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(path, ask=False)
    pv = w.play_view
    pv.seed = 1805
    pv.actions["start"].trigger()
    doc = w.document
    assert isinstance(doc, PlayDocument) and doc.recording
    seen: set[str] = set()
    while len(seen) < 2:
        side = doc.session.key.side
        assert doc.session.key.phase == "orders" and side not in seen
        seen.add(side)
        chief = CHIEFS[side]
        dlg = pv.open_order_dialog()
        # the division generals give no orders (2.1, 2.5): only the corps general issues
        assert [dlg.issuer.itemData(i) for i in range(dlg.issuer.count())] == [chief]
        recipients = [dlg.recipient.itemData(i) for i in range(dlg.recipient.count())]
        assert recipients[0] == chief and len(recipients) > 1
        for r in recipients:
            dlg.recipient.setCurrentIndex(dlg.recipient.findData(r))
            listed = doc.session.order_types(chief, r)
            assert _items(dlg.order_type) == [(t.id, not t.unavailable, t.unavailable) for t in listed]
            enabled = {t.id for t in listed if not t.unavailable}
            assert enabled == ({"A", "H", "T", "move"} if r == chief else {"D"})

        # his own corps attacks 20 cm towards the nearest enemy: rolled in his army zones, 1 OAS
        dlg.recipient.setCurrentIndex(dlg.recipient.findData(chief))
        dlg.order_type.setCurrentIndex(dlg.order_type.findData("A"))
        assert "Pick the objective" in dlg.preview.toPlainText()
        state = doc.session.state
        x, y = state.commanders[chief].position
        (ex, ey), _ = nearest_enemy_point(state, chief)
        n = math.hypot(ex - x, ey - y)
        dlg.set_objective((x + 20 * (ex - x) / n, y + 20 * (ey - y) / n))
        text = dlg.preview.toPlainText()
        assert "orders himself" in text and "zone 1" in text and "Chance the order goes through" in text
        assert dlg.roll_button.isEnabled()
        before = len(doc.log)
        dlg.roll_button.click()
        written = [e for e in doc.log.events[before:] if isinstance(e, OrderWritten)]
        assert [(e.order_type, e.recipient, e.cost) for e in written] == [("A", chief, 1)]
        assert dlg.result.status in ("delivered", "failed")

        # a division detached to hold a point 10 cm behind it (2.11), rolled with both KEs (A20)
        division = recipients[1]
        dlg.recipient.setCurrentIndex(dlg.recipient.findData(division))
        dlg.order_type.setCurrentIndex(dlg.order_type.findData("D"))
        mode = dlg.findChild(type(dlg.order_type), "order_param_mode")
        mode.setCurrentIndex(mode.findData("H"))
        dx, dy = doc.session.state.commanders[division].position
        dlg.set_objective((dx, dy - 10.0) if side == "french" else (dx, dy + 10.0))
        assert "used for detachments" in dlg.preview.toPlainText()
        before = len(doc.log)
        dlg.roll_button.click()
        assert dlg.result.status in ("delivered", "failed"), dlg.outcome.toPlainText()
        events = doc.log.events[before:]
        assert [(e.order_type, e.cost) for e in events if isinstance(e, OrderWritten)] == [("D", 0)]
        assert any(isinstance(e, Detached) for e in events) == (dlg.result.status == "delivered")
        dlg.close()
        for _ in range(7):  # to the other side's order phase
            if len(seen) == 2:
                break
            pv.actions["next_phase"].trigger()
            if doc.session.key.phase == "orders":
                break
