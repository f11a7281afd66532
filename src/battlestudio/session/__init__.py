"""Recording a game: the pure (Qt-free) API the GUI and scripts both use.

``GameSession`` wraps a ``Battle`` (its scenario and game log) and a ruleset: it starts the game,
walks the ruleset's turn and phase sequence, issues orders through the ruleset with dice that are
seeded in play (``rules.dice.SeededDice``), records the umpire's moves, formation and state
changes, combat results and annotations as battle events, and takes back the last events of the
open phase. ``turns`` owns the turn and phase sequence, ``umpire`` the events the umpire enters
by hand, ``odds`` the exact chance of an order before it is rolled.
"""

from battlestudio.session.actions import IssueResult
from battlestudio.session.core import GameSession
from battlestudio.session.odds import OrderPreview, preview_order
from battlestudio.session.turns import PhaseStep, game_time, phase_sequence
from battlestudio.session.umpire import SessionError

__all__ = [
    "GameSession",
    "IssueResult",
    "SessionError",
    "OrderPreview",
    "preview_order",
    "PhaseStep",
    "game_time",
    "phase_sequence",
]
