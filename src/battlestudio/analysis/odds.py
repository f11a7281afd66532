"""Exact odds of command for an issuer and a recipient, for the odds panel: asks the
scenario's ruleset (``Ruleset.odds``; each ruleset computes its own, e.g.
``rules.toe.odds``) and turns every refusal into an ``Odds`` with ``refusal`` set.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from battlestudio.replay.state import GameState
from battlestudio.rules import RuleRefused, UnknownRuleset, get_ruleset
from battlestudio.rules.odds import Odds


def order_odds(state: GameState, ruleset_id: str, params: Mapping[str, Any], issuer: str, recipient: str) -> Odds:
    """The odds for ``issuer`` → ``recipient`` under ruleset ``ruleset_id``; never raises for
    bad input: an unknown ruleset, one that gives no odds, an unknown id or a missing
    parameter comes back as ``refusal``."""
    try:
        rs = get_ruleset(ruleset_id)
    except UnknownRuleset as exc:
        return Odds(ruleset_id, issuer, recipient, refusal=str(exc))
    try:
        odds = rs.odds(state, params, issuer, recipient)
    except (RuleRefused, KeyError) as exc:
        msg = str(exc) if isinstance(exc, RuleRefused) else f"no unit or commander {exc.args[0]!r} in this game"
        return Odds(rs.id, issuer, recipient, refusal=msg)
    if odds is None:
        return Odds(rs.id, issuer, recipient, refusal=f"{rs.describe().name} gives no odds of command")
    return odds
