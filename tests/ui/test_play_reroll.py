"""A failed order through the window: issued in the order dialog, it fails; when the side's next
order phase closes (Next Phase, after its declarations, 3.3), it is rolled again and the roll
stands in the Replay dock's list with its explanation; Undo Next phase takes it back too."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battlestudio import store
from battlestudio.play.document import PlayDocument
from battlestudio.replay.battle import Battle
from tests.test_session import FixedDice
from tests.ui.test_play_record import ENGINE, JENA, LANNES, NAPOLEON
from tests.ui.window_helpers import ModalRecorder, make_window


@pytest.fixture
def jena_file(tmp_path):
    """Jena without its recorded game, with the engine's Table 1 values, as a .battle file."""
    s = store.load(JENA).scenario
    s.info = replace(s.info, parameters={**s.info.parameters, **ENGINE})
    path = tmp_path / "jena.battle"
    store.save(Battle(s, []), path)
    return path


def test_a_failed_order_is_rolled_again_as_the_next_order_phase_closes(qtbot, tmp_path, monkeypatch, jena_file):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1500, 950)
    assert w.files.open_path(jena_file, ask=False)
    pv = w.play_view
    pv.start_game()
    doc = w.document
    assert isinstance(doc, PlayDocument)
    doc.session.dice = FixedDice(0, 9)  # the order fails (0 + 2 < 4), then goes through (9 + 2)

    dlg = pv.open_order_dialog()
    dlg.issuer.setCurrentIndex(dlg.issuer.findData(NAPOLEON))
    dlg.recipient.setCurrentIndex(dlg.recipient.findData(LANNES))
    dlg.order_type.setCurrentIndex(dlg.order_type.findData("A"))
    dlg.set_objective((380.0, 160.0))
    dlg.roll_button.click()
    assert dlg.result.status == "failed" and "rolled for again next order phase (A6)" in dlg.result.explanation
    oid = dlg.result.outcome.order_id
    dlg.close()

    while not (doc.session.key.turn == 2 and doc.session.key.phase == "orders"):
        pv.actions["next_phase"].trigger()
    assert doc.session.key.side == "french" and doc.state.orders[oid].status.value == "failed"
    pv.actions["next_phase"].trigger()  # the orders phase closes: its pending order is rolled again
    assert doc.session.key.phase == "movement" and doc.state.orders[oid].status.value == "delivered"
    start, end = doc.log.phase_range((2, "french", "orders"))
    doc.timeline.seek(end)  # the Replay dock shows the orders phase's events
    lines = pv.panel.item_texts()
    assert len(lines) == 3 and lines[0].startswith("phase begins: Order issuing")
    assert lines[1].startswith(f"roll for {oid}: Command control (failed order rolled again, A6)")
    assert lines[1].endswith("order passes") and lines[2] == f"order {oid} (Lannes, A) delivered"

    doc.timeline.to_end()
    assert w.actions["undo"].text() == "&Undo Next phase"
    w.actions["undo"].trigger()  # the phase start and the roll go back together
    assert doc.session.key.phase == "orders" and doc.state.orders[oid].status.value == "failed"
    assert [e.kind for e in doc.log.events[start:]] == ["phase_started"]
