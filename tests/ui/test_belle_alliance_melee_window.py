"""Belle Alliance's melee procedure (seed 001, 4.1.1–4.1.8) played through the window on the
bundled Elchingen: the designer places the engagement in the editor, the order dialog writes
the attack orders to units (1.1.2), the Actions dock enters their order rolls (1.1.3), announces
the attacks in the movement phase (4.1.1) and fights the melee with the umpire's entry of the
lost skema 8/11/12 (4.1.3). Three melees, each in its own game:

- one attack with a neighbour (4.1.6) and a support (4.1.7), the defender having fired
  this turn (the fire action's record gives the 4.1.3 deduction);
- two attacks on a common target (4.1.5): the best attacker result, losses summed before
  rounding down, inflicted losses from the defender's best attack shared pro rata;
- one attack cancelled by a flank attack of cavalry (4.1.1, 4.1.8): the attacker defends;
- one unit attacking two at once (4.1.5), its losers' rout and stay, its continued advance (4.1.4).

Each game's losses and morale differences are read back from the recorded events, then saved
as ``.battle``, reopened, and replayed to the same ``state_digest`` after every event.
"""

from __future__ import annotations

import math
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit, QSpinBox

from battlestudio.play.document import PlayDocument
from battlestudio.replay.combat_events import Casualties, Melee
from battlestudio.replay.digest import state_digest
from tests.ui.test_play_elchingen_rulesets import choose, elchingen_under, start, until

ROGUET, VILLATTE, DELABASSEE = "french-bde-roguet", "french-bde-villatte", "french-bde-delabassee"
AVANT, CAV = "austrian-avantgarde", "austrian-avantgarde-cavalry"
ISSUER = {ROGUET: "french-2eme-division", VILLATTE: "french-2eme-division", CAV: "austrian-1st-div"}
# the avant-garde's front runs y = 61 from x 95 to 129, facing south; the French columns face
# north with their fronts at y = 58: their 5 cm break-in zones touch it. Delabassee stands 6 cm
# behind Roguet (support_max_cm 10); the hussars face east, wholly behind Roguet's extended front
PLACES = {ROGUET: ((106.0, 58.0), 90.0), VILLATTE: ((131.0, 58.0), 90.0), DELABASSEE: ((106.0, 52.0), 90.0)}
CAV_FLANK = ((91.0, 55.4), 0.0)


def _window(qtbot, tmp_path, monkeypatch, places: dict) -> PlayDocument:
    w = elchingen_under(qtbot, tmp_path, monkeypatch, "belle-alliance", support_max_cm=10)
    w.document.set_fields(  # the designer types X, Y and facing in Properties
        "units", {u: {"position": xy, "facing": f} for u, (xy, f) in places.items()}, "Place the engagement"
    )
    return w


def _set(box, value) -> None:
    if isinstance(box, QComboBox):
        choose(box, value)
    elif isinstance(box, QSpinBox):
        box.setValue(int(value))
    elif isinstance(box, QLineEdit):
        box.setText(str(value))
    elif isinstance(box, QCheckBox):
        box.setChecked(bool(value))
    else:  # pragma: no cover - a field kind this test does not know
        raise AssertionError(f"cannot set {box!r}")


def act(qtbot, w, subject: str, action: str, params: dict | None = None, entry: dict | None = None):
    """Choose ``subject`` and ``action`` in the Actions dock, fill its form and the umpire's
    entry, click Roll or Enter result; the outcome (asserted recorded)."""
    panel = w.play_view.action_panel
    panel.refresh()
    assert panel.set_subject(subject), subject
    assert panel.select_action(action), f"{action} not offered to {subject}"
    for name, value in (params or {}).items():
        values = value if isinstance(value, list) else [value]
        for box, v in zip(panel.form.widgets[name], values, strict=False):
            _set(box, v)
    if entry:
        assert panel.entering and panel.umpire_form is not None
        for name, value in entry.items():
            _set(panel.umpire_form.widgets[name][0], value)
    panel.update_preview()
    button = panel.enter_button if panel.entering else panel.roll_button
    assert button.isVisible() and button.isEnabled(), panel.preview.toPlainText()
    doc = w.document
    n = len(doc.log)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    assert len(doc.log) > n, panel.outcome.toPlainText()
    assert panel.result is not None and panel.result.status == "resolved", panel.outcome.toPlainText()
    return panel.result


def order(qtbot, w, unit: str, target: str) -> None:
    """The attack order on ``unit``'s order sheet (the order dialog), then its order roll
    entered as passed in the Actions dock (1.1.3 is not in the excerpt)."""
    dlg = w.play_view.open_order_dialog()
    try:
        choose(dlg.issuer, ISSUER[unit])
        choose(dlg.recipient, unit)
        choose(dlg.order_type, "attack")
        choose(dlg.extra["target"][0], target)
        assert dlg.roll_button.isEnabled(), dlg.preview.toPlainText()
        qtbot.mouseClick(dlg.roll_button, Qt.MouseButton.LeftButton)
        assert dlg.result is not None and dlg.result.status == "pending", dlg.outcome.toPlainText()
    finally:
        dlg.close()
    act(qtbot, w, unit, "order_roll", entry={"result": "passed"})


def entry(attacker: str, a: int, d: int, loser: str, on_d: str = "0", on_a: str = "0") -> dict:
    return {
        f"attacker_result:{attacker}": a,
        f"defender_result:{attacker}": d,
        f"loser_state:{attacker}": loser,
        f"losses_on_defender:{attacker}": on_d,
        f"losses_on_attacker:{attacker}": on_a,
    }


def french_attack(qtbot, w, attackers: dict) -> None:
    """French attack orders (unit → target), rolled and announced in their movement phase."""
    until(w, "orders", "french")
    for u, t in attackers.items():
        order(qtbot, w, u, t)
    until(w, "movement", "french")
    for u in attackers:
        text = act(qtbot, w, u, "announce_attack").explanation
        assert f"announces an attack on {attackers[u]} itself (4.1.1)" in text


def losses(doc: PlayDocument) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in doc.log.events:
        if isinstance(e, Casualties):
            out[e.unit] = out.get(e.unit, 0) + e.figures
    return out


def replays_identically(w, tmp_path: Path, name: str) -> None:
    """Saved as .battle and reopened, the log replays to the same state after every event."""
    doc = w.document
    recorded = [state_digest(doc.log.state_at(p)) for p in range(len(doc.log) + 1)]
    path = tmp_path / f"{name}.battle"
    assert w.files.save_to(path)
    assert w.files.open_path(path, ask=False)
    again = w.document
    assert isinstance(again, PlayDocument) and again is not doc
    assert [state_digest(again.log.state_at(p)) for p in range(len(again.log) + 1)] == recorded
    assert [e for e in again.log.events if isinstance(e, Melee)] == [e for e in doc.log.events if isinstance(e, Melee)]


def test_an_attack_with_a_neighbour_and_a_support_through_the_window(qtbot, tmp_path, monkeypatch):
    w = _window(qtbot, tmp_path, monkeypatch, PLACES)
    doc = start(w)
    french_attack(qtbot, w, {ROGUET: AVANT})
    until(w, "fire", "french")  # part of the avant-garde fires at Roguet: the melee deduction (4.1.3)
    fired = act(qtbot, w, AVANT, "fire", params={"target": ROGUET, "part": True}, entry={"losses": 0})
    assert "fired-this-turn deduction" in fired.explanation
    until(w, "melee", "french")
    panel = w.play_view.action_panel
    out = act(
        qtbot,
        w,
        AVANT,
        "melee",
        params={"neighbour": VILLATTE, "support": DELABASSEE},
        entry=entry(ROGUET, 8, 5, "U", on_d="2.5", on_a="1.5"),
    )
    # the loser retreats, measured from its attacker (4.1.5); the distance is the umpire's (5.3.1 is lost)
    was = doc.session.state.units[AVANT].position
    back = act(qtbot, w, AVANT, "retreat", params={"how": "retreat"}, entry={"distance_cm": 6})
    assert "Table missing" in panel.umpire_line.text() and "5.3.1" in panel.umpire_line.text()
    assert f"{AVANT} retreats 6 cm straight away from {ROGUET} (4.1.5; the umpire's distance)" in back.explanation
    now = doc.session.state.units[AVANT].position
    assert abs(math.dist(was, now) - 6) < 0.01 and now[1] > was[1]  # away from the French, to the north
    assert f"{ROGUET} 8 against {AVANT} 5: attacker wins by 3, the loser U (skema 11)" in out.explanation
    (melee,) = [e for e in doc.log.events if isinstance(e, Melee)]
    assert melee.roll["attacks"][ROGUET]["difference"] == 3
    assert "deduction: fired this turn (4.1.3)" in melee.roll["factors"][AVANT]
    assert list(melee.roll["neighbour"]) == [VILLATTE, ROGUET] and list(melee.roll["support"]) == [DELABASSEE, ROGUET]
    assert losses(doc) == {AVANT: 2, ROGUET: 1}  # 2.5 and 1.5 rounded down
    st = doc.session.state
    assert st.units[AVANT].state == "U" and st.units[AVANT].figures == 32
    # the neighbour counts as attacker (4.1.6), the support does not
    assert st.flags[f"ba:melee:{VILLATTE}"]["attacker_until"] == 2 and f"ba:melee:{DELABASSEE}" not in st.flags
    replays_identically(w, tmp_path, "neighbour-support")


def test_two_attacks_on_a_common_target_through_the_window(qtbot, tmp_path, monkeypatch):
    w = _window(qtbot, tmp_path, monkeypatch, PLACES)
    doc = start(w)
    french_attack(qtbot, w, {ROGUET: AVANT, VILLATTE: AVANT})
    until(w, "melee", "french")
    res = {**entry(ROGUET, 7, 4, "U", on_d="1.5", on_a="5"), **entry(VILLATTE, 6, 5, "LU", on_d="0.75", on_a="3")}
    out = act(qtbot, w, AVANT, "melee", entry=res)
    assert f"{AVANT} takes the best attacker result, U, measured from {ROGUET} (4.1.5)" in out.explanation
    (melee,) = [e for e in doc.log.events if isinstance(e, Melee)]
    assert set(melee.attackers) == {ROGUET, VILLATTE} and melee.roll["best_for_defender"] == VILLATTE
    assert {k: v["difference"] for k, v in melee.roll["attacks"].items()} == {ROGUET: 3, VILLATTE: 1}
    # 1.5 + 0.75 summed before rounding down = 2; 3 inflicted (Villatte's attack) shared 2 : 1
    assert losses(doc) == {AVANT: 2, ROGUET: 2, VILLATTE: 1}
    assert doc.session.state.units[AVANT].state == "U"
    replays_identically(w, tmp_path, "common-target")


def test_an_attack_cancelled_by_a_flank_attack_through_the_window(qtbot, tmp_path, monkeypatch):
    w = _window(qtbot, tmp_path, monkeypatch, {**PLACES, CAV: CAV_FLANK})
    doc = start(w)
    until(w, "orders", "austrian")
    order(qtbot, w, CAV, ROGUET)
    until(w, "movement", "austrian")
    act(qtbot, w, CAV, "announce_attack")
    french_attack(qtbot, w, {ROGUET: AVANT})
    until(w, "melee", "french")
    cancelled = act(qtbot, w, AVANT, "melee")
    assert f"{ROGUET} is attacked in the flank by {CAV}: its own attack is cancelled" in cancelled.explanation
    assert not [e for e in doc.log.events if isinstance(e, Melee)]
    out = act(qtbot, w, ROGUET, "melee", entry=entry(CAV, 6, 3, "U", on_d="2", on_a="0.5"))
    (melee,) = [e for e in doc.log.events if isinstance(e, Melee)]
    assert "flank attack (4.1.8)" in melee.roll["factors"][CAV]
    assert melee.roll["counted"][f"{ROGUET}<-{CAV}"] == 6  # the two outermost files (4.1.3): 2 x 3 ranks
    assert f"{ROGUET} loses 2 figures" in out.explanation
    assert melee.attackers == (CAV,) and melee.defenders == (ROGUET,) and melee.winner == "attacker"
    assert melee.roll["attacks"][CAV]["difference"] == 3
    assert losses(doc) == {ROGUET: 2}
    st = doc.session.state
    assert st.units[ROGUET].state == "U" and st.flags[f"ba:melee:{ROGUET}"]["defender_until"] == 2
    replays_identically(w, tmp_path, "flank-cancelled")


CENTRE = "austrian-centre-bde"
NEXT_TO_AVANT = ((147.0, 61.0), 270.0)  # the centre brigade's line beside the avant-garde: Villatte touches both


def test_one_unit_attacking_two_its_losers_retreat_and_its_continued_advance_through_the_window(
    qtbot, tmp_path, monkeypatch
):
    w = _window(qtbot, tmp_path, monkeypatch, {**PLACES, CENTRE: NEXT_TO_AVANT})
    doc = start(w)
    french_attack(qtbot, w, {VILLATTE: AVANT})
    until(w, "melee", "french")
    res = {
        f"attacker_result:{AVANT}": 8,
        f"defender_result:{AVANT}": 3,
        f"loser_state:{AVANT}": "FU",
        f"losses_on_defender:{AVANT}": "2.5",
        f"losses_on_attacker:{AVANT}": "1",
        f"attacker_result:{CENTRE}": 6,
        f"defender_result:{CENTRE}": 5,
        f"loser_state:{CENTRE}": "LU",
        f"losses_on_defender:{CENTRE}": "1",
        f"losses_on_attacker:{CENTRE}": "0.5",
    }
    out = act(qtbot, w, VILLATTE, "melee_several", params={"targets": [AVANT, CENTRE]}, entry=res)
    assert f"{VILLATTE} 8 against {AVANT} 3: difference +5" in out.explanation
    (melee,) = [e for e in doc.log.events if isinstance(e, Melee)]
    assert melee.defenders == (AVANT, CENTRE) and melee.winner == "attacker"
    # 1 + 0.5 summed: 1; 2 inflicted from the best roll (against the avant-garde) shared 34 : 36,
    # each share rounded down (0 and 1) and the remainder to the larger (A8)
    assert losses(doc) == {VILLATTE: 1, CENTRE: 2}
    st = doc.session.state
    assert st.units[AVANT].state == "FU" and st.units[CENTRE].state == "LU"
    for loser, how in ((AVANT, "rout"), (CENTRE, "stays")):
        act(qtbot, w, loser, "retreat", params={"how": how}, entry={"distance_cm": 12})
    until(w, "continued-advance", "french")
    was = doc.session.state.units[VILLATTE].position
    moved = act(qtbot, w, VILLATTE, "continued_advance", params={"last_march_rate_cm": 20, "distance_cm": 4})
    assert "4 cm straight ahead, 4.0 of 10 cm (4.1.4)" in moved.explanation
    assert doc.session.state.units[VILLATTE].position == (was[0], was[1] + 4)
    replays_identically(w, tmp_path, "several-targets")


def test_the_defender_counts_a_unit_attacked_at_the_same_time_as_its_neighbour_through_the_window(
    qtbot, tmp_path, monkeypatch
):
    w = _window(qtbot, tmp_path, monkeypatch, {**PLACES, CENTRE: NEXT_TO_AVANT})
    doc = start(w)
    french_attack(qtbot, w, {VILLATTE: AVANT})
    until(w, "melee", "french")
    out = act(
        qtbot,
        w,
        AVANT,
        "melee",
        params={"defender_neighbour": CENTRE},
        entry=entry(VILLATTE, 7, 4, "U", on_d="1.5", on_a="1"),
    )
    assert f"{VILLATTE} 7 against {AVANT} 4: attacker wins by 3, the loser U (skema 11)" in out.explanation
    (melee,) = [e for e in doc.log.events if isinstance(e, Melee)]
    assert f"neighbour {CENTRE}, the defender's choice (4.1.6)" in melee.roll["factors"][AVANT]
    st = doc.session.state
    assert st.units[AVANT].state == "U" and st.units[CENTRE].state == "U"  # the same morale effect (4.1.6)
    assert losses(doc) == {AVANT: 1, VILLATTE: 1}
    replays_identically(w, tmp_path, "defender-neighbour")
