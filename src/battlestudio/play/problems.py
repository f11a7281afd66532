"""What the window says when a document's recorded game cannot be replayed.

``unplayable_text`` is the warning shown once (the file, the first bad event, what happens to
the game); ``game_problems`` is the Problems dock's error for the same game;
``keyframe_problems`` its warning when a stored keyframe did not match the replay.
"""

from __future__ import annotations

from battlestudio.document import Document
from battlestudio.validate import Problem
from battlestudio.validate.problem import warning
from battlestudio.validate.game import replay_problem
from battlestudio.store import BattleFileError


def unplayable_text(doc: Document, exc: Exception) -> str:
    """The warning shown when ``doc``'s recorded game cannot be replayed: the file, the first bad
    event (``exc``, from ``GameLog``), and what happens to the game."""
    name = str(doc.path) if doc.path is not None else "This battle"
    n = len(doc.battle.events)
    saving = (
        "Saving to a .battle file keeps the recorded events as they are, that one included; a "
        ".battle.json file cannot hold it, so saving there asks first whether to save the scenario "
        "without its recorded game."
        if isinstance(getattr(exc, "error", exc), BattleFileError)
        else "Saving keeps the recorded events as they are in the file."
    )
    return (
        f"{name}: the recorded game ({n} event{'' if n == 1 else 's'}) cannot be replayed.\n\n{exc}\n\n"
        f"The scenario was opened without the game: the map shows it as deployed. {saving}"
    )


def game_problems(doc: Document, exc: Exception | None) -> list[Problem]:
    """For the Problems dock: the error ``battlestudio check`` gives when ``doc``'s recorded game
    cannot be replayed (``exc``, naming the first bad event; None when it can)."""
    return [] if exc is None else [replay_problem(exc)]


def keyframe_problems(text: str) -> list[Problem]:
    """For the Problems dock: the warning that the keyframe a game was opened from did not match
    its replay (``text``: ``GameLog.keyframe_problem``, naming the keyframe's turn and phase)."""
    return [warning("game.keyframe", text)]
