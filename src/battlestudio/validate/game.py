"""Check of the recorded game: the game log replayed from the start, up to its first event that
cannot apply (``GameLog.from_battle``)."""

from __future__ import annotations

from collections.abc import Iterable

from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.validate.problem import Problem, error


def game_log(battle: Battle) -> Iterable[Problem]:
    """One error naming the first event of ``battle``'s game that cannot be replayed, if any."""
    if not battle.events:
        return
    try:
        GameLog.from_battle(battle)
    except ValueError as exc:
        yield replay_problem(exc)


def replay_problem(exc: Exception) -> Problem:
    """The error for a game that cannot be replayed: ``exc`` names its first bad event. The one
    wording of both ``battlestudio check`` and the Problems dock."""
    return error("game.replay", "events: " + " ".join(str(exc).split()))
