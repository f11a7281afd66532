"""Unfolding a square in the Actions dock (Torden over Europa 1.7 "Såfremt en karré skal folde
ud i kolonne skal der heraf være/efterlades plads til at folde ud i"), on the bundled Jena
battle: the 17e Légère in square with the 64e Ligne 1 cm off its right side is refused, the
preview naming the 64e Ligne and 1.7, and the Roll button stays disabled (the Properties
combo refuses it too); the 100e Ligne in
square with room unfolds into column through the same dock, one recorded event."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QComboBox

from battlestudio import store
from battlestudio.model.geometry import right_of
from battlestudio.model.units import Formation
from battlestudio.play.document import PlayDocument
from battlestudio.replay.battle import Battle
from tests.ui.test_formation_change import pick_from_list
from tests.ui.window_helpers import ModalRecorder, make_window

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"
HEMMED, NEIGHBOUR, FREE = "french-17e-legere", "french-64e-ligne", "french-100e-ligne"


def _jena_with_squares(tmp_path: Path) -> Path:
    """Jena without its game, the 17e Légère in square at (240, 120) with the 64e Ligne in line
    1 cm off its right side, and the 100e Ligne in square at (300, 120), nothing near it."""
    battle = store.load(JENA)
    s = battle.scenario
    sq = replace(s.units[HEMMED], formation=Formation.SQUARE, position=(240.0, 120.0), facing=90.0)
    nb = replace(s.units[NEIGHBOUR], formation=Formation.LINE, facing=90.0)
    r = right_of(90.0)
    half = sq.rect().width / 2 + 1.0 + nb.rect().width / 2
    s.units[HEMMED] = sq
    s.units[NEIGHBOUR] = replace(nb, position=(240.0 + r[0] * half, 120.0 + r[1] * half))
    s.units[FREE] = replace(s.units[FREE], formation=Formation.SQUARE, position=(300.0, 120.0), facing=90.0)
    path = tmp_path / "jena-squares.battle.json"
    store.save(Battle(s, []), path)
    return path


def _to_french_movement(w) -> None:
    doc: PlayDocument = w.document
    for _ in range(20):
        k = doc.session.key
        if k.phase == "movement" and k.side == "french":
            return
        w.play_view.actions["next_phase"].trigger()
    raise AssertionError(f"no French movement phase reached: {doc.session.key}")


def _choose(panel, subject: str, formation: str) -> None:
    """The user picks ``subject`` and 'Unfold the square', then ``formation`` in the form."""
    assert panel.set_subject(subject)
    assert panel.select_action("change_formation") and panel.spec is not None
    box: QComboBox = panel.form.widgets["formation"][0]
    box.setCurrentIndex(box.findData(formation))
    side: QComboBox = panel.form.widgets["side"][0]
    side.setCurrentIndex(side.findData("front"))
    panel.update_preview()


def test_a_hemmed_in_square_is_refused_and_one_with_room_unfolds(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(_jena_with_squares(tmp_path), ask=False)
    assert w.document.scenario.info.ruleset == "toe"
    w.play_view.seed = 1806
    w.play_view.actions["start"].trigger()
    play = w.document
    assert isinstance(play, PlayDocument) and play.recording
    _to_french_movement(w)
    panel = w.play_view.action_panel
    panel.refresh()

    _choose(panel, HEMMED, "column")
    text = panel.preview.toPlainText()
    assert "Not legal" in text and "64e Ligne" in text and "1.7" in text and "room to unfold" in text
    assert not panel.roll_button.isEnabled()
    n = len(play.log)
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    assert len(play.log) == n and play.session.state.units[HEMMED].formation is Formation.SQUARE

    play.set_selection({HEMMED})  # the Properties ▸ Formation combo runs the same rule
    pick_from_list(qtbot, w, Formation.LINE)
    assert len(play.log) == n and "64e Ligne" in w.statusBar().currentMessage()
    assert "1.7" in w.statusBar().currentMessage()

    _choose(panel, FREE, "column")
    assert "Legal" in panel.preview.toPlainText() and "room to unfold into (1.7" in panel.preview.toPlainText()
    assert panel.roll_button.isEnabled()
    qtbot.mouseClick(panel.roll_button, Qt.MouseButton.LeftButton)
    assert [e.kind for e in play.log.events[n:]] == ["formation_changed"]
    u = play.session.state.units[FREE]
    assert u.formation is Formation.COLUMN and u.position == (300.0, 120.0) and u.facing == 90.0
    assert "recorded" in panel.outcome.toPlainText()
