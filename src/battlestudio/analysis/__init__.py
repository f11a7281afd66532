"""Post-game analysis of a recorded game: pure figures computed from a ``GameLog``, no Qt.

Modules: ``common`` (sampling the log per turn, the corps a node belongs to), ``strength``
(men and figures per side and per corps over turns), ``losses`` (losses per turn and phase; the
ledger: start − end = lost + left),
``luck`` (command rolls observed against their exact expected successes), ``command_time``
(turns each formation spent out of command), ``order_history`` (each corps' orders as
written → delivered/failed → completed/cancelled spans), ``highlights`` (annotated moments of
the log for reports) and ``command_picture`` (who is in or out of command now, reaches, standing
orders and order budgets: what the command overlay draws), ``odds`` (exact odds of command
for an issuer and a recipient, as the ruleset gives them).

Every figure is a plain frozen dataclass so charts, reports and tests read the same numbers.
"""

from battlestudio.analysis.command_picture import CommandPicture, command_picture
from battlestudio.analysis.command_time import OutOfCommandTime, out_of_command_time
from battlestudio.analysis.common import corps_of, turn_end_positions
from battlestudio.analysis.highlights import Highlight, highlights
from battlestudio.analysis.losses import LossLedger, LossRow, loss_ledger, losses_by_turn_and_phase
from battlestudio.analysis.odds import order_odds
from battlestudio.analysis.luck import LuckRow, command_luck
from battlestudio.analysis.order_history import OrderSpan, order_history
from battlestudio.analysis.strength import StrengthPoint, strength_over_turns

__all__ = [
    "CommandPicture",
    "command_picture",
    "OutOfCommandTime",
    "out_of_command_time",
    "corps_of",
    "turn_end_positions",
    "Highlight",
    "highlights",
    "LossLedger",
    "LossRow",
    "loss_ledger",
    "losses_by_turn_and_phase",
    "LuckRow",
    "command_luck",
    "order_odds",
    "OrderSpan",
    "order_history",
    "StrengthPoint",
    "strength_over_turns",
]
