"""A failed order through the window: issued in the order dialog, it fails; when the side's next
order phase opens (Next Phase), it is rolled again and the roll stands in the Replay dock's list
with its explanation; Undo Next phase takes the roll back with the phase."""

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


def test_a_failed_order_is_rolled_again_and_shown_when_the_order_phase_opens(qtbot, tmp_path, monkeypatch, jena_file):
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
    assert doc.session.key.side == "french"
    lines = pv.panel.item_texts()
    assert lines[1].startswith(f"roll for {oid}: Command control (failed order rolled again, A6)")
    assert "order passes" in lines[1] and lines[2] == f"order {oid} (Lannes, A) delivered"
    assert doc.state.orders[oid].status.value == "delivered"

    assert w.actions["undo"].text() == "&Undo Next phase"
    w.actions["undo"].trigger()  # the phase, its roll and the turn's end go back together
    assert doc.session.key.turn == 1 and doc.state.orders[oid].status.value == "failed"
    assert not any("rolled again" in t for t in pv.panel.item_texts())
