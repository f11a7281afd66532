"""The Regimental rules' odds of command (2.2) for the odds panel: the orders test's
distribution of actions and the expected number carried out, in and out of the HQ's command
zone (1-2 full, 3-4 one action, 5-6 none).
"""

from __future__ import annotations

from fractions import Fraction

from battlestudio.replay.state import GameState
from battlestudio.rules.odds import Odds, OddsRow, name_of, pct
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.regimental.command import actions_distribution, hq_link


def regimental_odds(state: GameState, p: RuleParameters, ruleset_id: str, issuer: str, formation: str) -> Odds:
    """Expected actions of ``formation`` from the orders test (2.2), in and out of the HQ's
    command zone, with the ruleset's numbers ``p``.

    Raises
    ------
    RuleRefused
        for a value the scenario lacks (the HQ's zone).
    """
    dist = actions_distribution(p)
    k = int(p.get("max_actions"))
    full = sum((Fraction(min(n, k)) * q for n, q in dist.items()), Fraction(0))
    table = [str(v) for v in p.get("out_of_zone_table")]
    f_full, f_one = Fraction(table.count("full"), 6), Fraction(table.count("one"), 6)
    out = f_full * full + f_one * sum((q for n, q in dist.items() if n >= 1), Fraction(0))
    c = state.commanders.get(formation)
    inside = True
    d = None
    if c is not None and c.echelon == "division":
        link = hq_link(state, c.side, c.position, p)
        inside, d = link.within, link.distance
    spread = ", ".join(f"{n} action{'s' if n > 1 else ''}: {pct(q)}" for n, q in dist.items())
    rows = (
        OddsRow("in the command zone", None, full, spread, inside),
        OddsRow(
            "outside the HQ's zone (order test: full / one / none)",
            None,
            out,
            f"full {pct(f_full)}, one action {pct(f_one)}, none {pct(1 - f_full - f_one)}",
            not inside,
        ),
    )
    name = name_of(state, formation)
    now = full if inside else out
    head = f"{name}: {float(now):.2f} actions expected with {k} announced"
    what = (
        "Already in the command zone."
        if inside
        else f"Bringing {name} into the HQ's zone (or an adjutant chain) raises it from {float(out):.2f} "
        f"to {float(full):.2f}."
    )
    return Odds(ruleset_id, issuer, formation, head, rows, (), d, None, what, rule="Regimental 2.2")
