"""One Regimental turn at Elchingen through ``GameSession.act``: activations with their action
counts, a fire, a melee with the combat result, a cavalry charge against a square, a morale
test, reform and the end of the turn, a commander casualty test; saved, reopened and replayed
to the same state."""

from __future__ import annotations

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.rules.dice import SeededDice

from regimental_world import Script, act, activate, session

AV, CAV, VIL = "austrian-avantgarde", "austrian-avantgarde-cavalry", "french-bde-villatte"
ROG = "french-bde-roguet"


class Seeded(Script):
    """Scripted faces where given, seeded faces for every other roll."""

    def __init__(self) -> None:
        super().__init__()
        self.rest = SeededDice(1805)

    def roll(self, purpose, dice):
        if any(k in purpose and q for k, q in self.table.items()):
            return super().roll(purpose, dice)
        faces = self.rest.roll(purpose, dice)
        self.log.append((purpose, faces))
        return faces


def test_a_played_turn_saves_reopens_and_replays_to_the_same_state(tmp_path):
    units = {
        VIL: {"position": (112.0, 60.5), "facing": 90.0, "formation": "line"},
        ROG: {"position": (131.0, 60.5), "facing": 90.0, "formation": "line"},
        CAV: {"position": (140.0, 61.0), "facing": 270.0},
        "austrian-centre-bde": {"state": "disorganised"},
    }
    s = session(Seeded(), units)
    activate(s, "austrian", "austrian-1st-div", ["fire", "melee", "reform"])
    assert act(s, "fire", AV, target=VIL).status == "resolved"
    assert act(s, "melee", AV, target=VIL, attack="front").status == "resolved"
    charge = act(s, "melee", CAV, target=ROG)
    assert charge.status == "resolved" and "Square test" in charge.explanation
    assert act(s, "reform", "austrian-centre-bde").status == "resolved"
    assert act(s, "fire", AV, target=VIL).status == "refused"  # its second fire was never announced
    activate(s, "austrian", "austrian-2nd-div", ["move"])
    for div in ("french-2eme-division", "french-3eme-division", "french-4eme-dragoon-division", "french-cav-bde"):
        activate(s, "french", div, ["move"])
    assert act(s, "morale_test", ROG).status == "resolved"
    assert act(s, "end_of_turn", "").status == "resolved"
    assert s.state.units["austrian-centre-bde"].state == "normal"
    kinds = {e.kind for e in s.battle.events}
    assert {"fired", "melee", "regimental_markers", "morale_test"} <= kinds

    path = tmp_path / "elchingen-regimental.battle.json"
    store.save(s.battle, path)
    again = store.load(path)
    head = GameLog.from_battle(Battle(again.scenario, list(again.events))).head
    assert head.units == s.state.units and head.flags == s.state.flags


def test_a_formation_chosen_to_activate_next_cannot_be_chosen_again_before_it_activates():
    """Issue 15: the Regimental activation could be chosen twice (2.2: one formation at a time)."""
    from dataclasses import replace
    from pathlib import Path

    import pytest

    from battlestudio import store
    from battlestudio.rules import get_ruleset
    from battlestudio.session import GameSession, SessionError

    b = store.load(Path(__file__).resolve().parents[2] / "scenarios" / "elchingen-1805.battle.json")
    b.scenario.info = replace(b.scenario.info, ruleset="regimental")
    s = GameSession(b, get_ruleset("regimental"), seed=5)
    s.advance_to("activation")
    first, other = s.activation_choices()[:2]
    s.choose_activation(first)
    n = len(s.log)
    for again in (first, other):
        with pytest.raises(SessionError, match="has not activated yet"):
            s.choose_activation(again)
    assert len(s.log) == n
