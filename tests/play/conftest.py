"""Fixtures of the play tests (no Qt): Jena 1806 recorded from its start, and Elchingen."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.document import Document
from battlestudio.model.scenario import Scenario
from battlestudio.play.document import PlayDocument
from battlestudio.replay.battle import Battle
from battlestudio.session import GameSession
from tests.elchingen import elchingen_scenario
from tests.jena import ENGINE

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"


@pytest.fixture
def scenario() -> Scenario:
    return elchingen_scenario()


@pytest.fixture(scope="session")
def jena_battle() -> Battle:
    """The bundled Jena 1806 with its recorded game."""
    return store.load(JENA)


@pytest.fixture
def jena_play(jena_battle: Battle) -> PlayDocument:
    """Jena without its recorded game, the game started: recording turn 1, French orders."""
    s = jena_battle.scenario.copy()
    s.info = replace(s.info, parameters={**s.info.parameters, **ENGINE})
    base = Document(Battle(s, []))
    session = GameSession(base.battle, seed=1806)
    session.start()
    play = PlayDocument(base, session)
    assert play.recording
    return play
