"""Belle Alliance's odds of command (1.1.3) for the odds panel: the chance that a written
attack order passes its order roll, from the scenario's ``order_roll`` (the excerpt does not
give it; refused without it).
"""

from __future__ import annotations

from fractions import Fraction

from battlestudio.replay.state import GameState
from battlestudio.rules.belle_alliance.attacks import order_roll
from battlestudio.rules.dice import DiceSpec, distribution
from battlestudio.rules.odds import Odds, OddsRow, name_of, pct
from battlestudio.rules.params import RuleParameters


def belle_alliance_odds(state: GameState, p: RuleParameters, ruleset_id: str, issuer: str, unit: str) -> Odds:
    """The chance that ``unit``'s attack order passes the order roll (1.1.3).

    Raises
    ------
    RuleRefused
        without the scenario's ``order_roll``; ``KeyError`` for an unknown unit.
    """
    if unit not in state.units:
        raise KeyError(unit)
    n, sides, op, target = order_roll(p)
    dist = distribution(DiceSpec(n, sides))
    chance = sum((q for t, q in dist.items() if (t >= target if op == ">=" else t <= target)), Fraction(0))
    rows = (OddsRow(f"order roll {n}d{sides} {op} {target}", chance, None, "scenario parameter order_roll", True),)
    return Odds(
        ruleset_id,
        issuer,
        unit,
        f"{name_of(state, unit)}: {pct(chance)} that the attack order passes",
        rows,
        rule="Belle Alliance 1.1.3 (order roll from the scenario)",
    )
