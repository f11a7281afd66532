"""Issue 18's Done-when in the window: two full turns of the Regimental rules at Elchingen,
switched from the Properties dock (the units converted to Regimental bases, 1.1-1.2), played
with Next Phase, Choose Activation, the order dialog's orders test and the Actions dock —
the initiative test (2.1), activations with their action counts (2.2), a fire (3.3.1), a melee
with its combat-result test (3.4), a cavalry charge against infantry that forms square
(3.4.2), morale tests and casualty markers (Тест на мораль), a commander casualty test (Тест на
потери командования) and the end of the turn — then saved, reopened and replayed to identical
state digests event by event (``replay.digest.state_digest``).

The designer sets the engagement in the editor first: Villatte's brigade and a battery brought
up to the Austrian centre, the French hussars against the Austrian Avantgarde's line (so the
charge meets infantry), and the Avantgarde's losses at Haslach-Jungingen (11 casualty markers
received, a division's "more than 10") entered on the unit.
"""

from __future__ import annotations

from dataclasses import replace

from battlestudio.edits import PutRecords
from battlestudio.model.units import Arm
from battlestudio.play.document import PlayDocument
from battlestudio.replay.combat_events import Fired, Melee, MoraleTest
from battlestudio.replay.flow_events import FormationChanged
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.rules.regimental.morale import MarkersPlaced
from tests.ui import test_every_ruleset_two_turns as loop
from tests.ui.test_play_elchingen_rulesets import elchingen_under

AV = "austrian-avantgarde"
HUSSARS = "french-3e-hussar"
ENGAGE = {**loop.ENGAGE, HUSSARS: (0.25, 40.5)}  # hussars' front at (130, 60.5): the Avantgarde's front


def _play_turns(qtbot, w, last: int, used, offered, failed) -> None:
    """Every phase to the end of turn ``last``; in an activation phase the side activates each
    of its brigades and divisions in turn (2.2) before Next Phase, and the end of the turn is
    taken once all have."""
    doc: PlayDocument = w.document
    for _ in range(80):
        for _again in range(8):
            n = len(doc.log)
            loop._phase_steps(qtbot, w, used, offered, failed)
            s = doc.session
            if len(doc.log) == n or not s.ruleset.activation_choices(s.state, s.params):
                break
        loop._act_all(qtbot, w, used, offered, failed)  # the end of the turn, once all have activated
        if doc.session.next_step().turn > last:
            break
        w.play_view.actions["next_phase"].trigger()
    assert doc.session.key.turn == last


def test_two_regimental_turns_through_the_window_replay_identically(qtbot, tmp_path, monkeypatch):
    w = elchingen_under(qtbot, tmp_path, monkeypatch, "regimental")
    doc = w.document
    av = doc.scenario.units[AV]
    assert av.bases == 8 and av.figures == round(av.men / 75)  # converted by the switch (1.1-1.2)
    for uid, (dx, dy) in ENGAGE.items():
        doc.move([uid], dx, dy, key=("engage", uid))
    attrs = {**av.attributes, "markers_received": 11}  # Haslach-Jungingen's losses, entered by the designer
    doc.push(PutRecords("units", {AV: replace(doc.scenario.units[AV], attributes=attrs)}, "Avantgarde's losses"))
    # the charge is announced first, so even one granted action is the melee
    monkeypatch.setattr(loop, "ENGAGED", loop.ENGAGED | {HUSSARS, AV})
    monkeypatch.setattr(loop, "PREFER", ("melee", "fire", "move", "reform"))
    w.play_view.actions["start"].trigger()
    play = w.document
    assert isinstance(play, PlayDocument) and play.recording
    outcomes: list[str] = []
    panel = w.play_view.action_panel
    panel.outcome.textChanged.connect(lambda: outcomes.append(panel.outcome.toPlainText()))

    used: dict[str, int] = {}
    offered: set[str] = set()
    failed: dict[str, str] = {}
    _play_turns(qtbot, w, 2, used, offered, failed)
    print(f"regimental: used {dict(sorted(used.items()))}")
    assert offered <= set(used), f"offered but never used: {sorted(offered - set(used))}: {failed}"

    events = play.log.events
    state = play.session.state
    initiative = [e for e in events if isinstance(e, CommandStateChanged) and e.state == "initiative"]
    assert {e.turn for e in initiative} == {1, 2}  # the initiative test each turn (2.1)
    activations = [e for e in events if isinstance(e, CommandStateChanged) and e.state == "activated"]
    assert len(activations) >= 8 and {e.turn for e in activations} == {1, 2}
    assert all(1 <= len(e.value["actions"]) <= 3 or not e.value["actions"] for e in activations)
    assert any(len(e.value["actions"]) >= 2 for e in activations)  # the orders test's counts (2.2)
    assert any(isinstance(e, Fired) for e in events)
    melees = [e for e in events if isinstance(e, Melee)]
    assert any(e.winner in ("attacker", "defender") for e in melees)
    assert any("combat result" in t for t in outcomes)  # the combat-result test (3.4)
    charge = [e for e in melees if HUSSARS in e.attackers]
    assert charge, f"the hussars never charged: {failed}"
    assert any("Square test" in t for t in outcomes)  # 3.4.2
    squares = [e for e in events if isinstance(e, FormationChanged) and e.formation == "square"]
    assert squares or any("does not form square" in t for t in outcomes)
    assert any(isinstance(e, MoraleTest) for e in events)
    assert any(isinstance(e, MarkersPlaced) and e.added > 0 for e in events)
    casualty = [e for e in events if isinstance(e, CommandStateChanged) and e.state == "casualty_tested"]
    assert casualty and casualty[0].subject == "austrian-1st-div"
    assert used.get("commander_casualty_test") and used.get("end_of_turn") == 2
    assert not any(e.phase == "initiative" and isinstance(e, MoraleTest) for e in events)
    assert all(u.bases for u in state.units.values() if u.arm is not Arm.ARTILLERY)

    path = tmp_path / "elchingen-regimental.battle"
    assert w.files.save_to(path)
    recorded = loop._digests(play)
    assert w.files.open_path(path, ask=False)
    again = w.document
    assert isinstance(again, PlayDocument) and again is not play
    assert loop._digests(again) == recorded
