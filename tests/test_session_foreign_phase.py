"""A game recorded under one ruleset and resumed under another names the phase it cannot
place instead of ending in a StopIteration from Next Phase."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.rules import get_ruleset
from battlestudio.session import GameSession
from battlestudio.session.umpire import SessionError

ELCHINGEN = Path(__file__).resolve().parents[1] / "scenarios" / "elchingen-1805.battle.json"


def test_next_phase_of_a_foreign_phase_is_a_session_error():
    battle = store.load(ELCHINGEN)
    battle.scenario.info = replace(battle.scenario.info, ruleset="gda")
    gda = GameSession(battle, get_ruleset("gda"), seed=3)
    gda.start()
    while gda.key.phase != "command":  # General d'Armée's command phase: the Regimental rules have none
        gda.next_phase()
    resumed = GameSession(Battle(battle.scenario, list(battle.events)), get_ruleset("regimental"))
    with pytest.raises(SessionError, match="is not a phase of ruleset 'regimental'"):
        resumed.next_step()
