"""What is said about a recorded game that cannot be replayed (``play.problems``), on Jena with
an event about a unit that does not exist slipped into its first phase."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlestudio.document import Document
from battlestudio.validate import Problem
from battlestudio.play.problems import game_problems, unplayable_text
from battlestudio.replay.battle import Battle
from battlestudio.replay.flow_events import Moved
from battlestudio.replay.game import GameLog
from battlestudio.store import BattleFileError


def test_a_broken_game_is_one_error_naming_the_bad_event(jena_battle):
    e = jena_battle.events[5]
    bad = Moved(turn=e.turn, side=e.side, phase=e.phase, id="nobody", path=((0.0, 0.0), (1.0, 1.0)))
    events = [*jena_battle.events[:6], bad, *jena_battle.events[6:]]
    doc = Document(Battle(jena_battle.scenario, events), Path("jena.battle"))
    with pytest.raises(ValueError) as caught:
        GameLog.from_battle(doc.battle)
    exc = caught.value
    (problem,) = game_problems(doc, exc)
    assert isinstance(problem, Problem) and (problem.severity, problem.check) == ("error", "game.replay")
    assert problem.message.startswith("events: game log event 7")  # as battlestudio check words it
    assert "game log event 7" in problem.message and "no unit or commander 'nobody'" in problem.message
    text = unplayable_text(doc, exc)
    assert text.startswith("jena.battle: the recorded game") and "Saving keeps the recorded events" in text
    unreadable = BattleFileError("jena.battle", "not valid JSON", "event seq=7")
    assert "a .battle.json file cannot hold it" in unplayable_text(doc, unreadable)
    assert game_problems(Document(jena_battle), None) == []
