"""Torden over Europa's odds of command (3.2, Table 1) for the odds panel: a chief's order
needs d10 + KE + Table 1 modifiers ≥ the threshold of the zone the recipient is in; the
chance in every zone, which zone applies now, and what riding into the next zone inward would
give (and how far). A corps general's own order rolls as zone 1 (A20).
"""

from __future__ import annotations

from battlestudio.model.command_geometry import command_distances
from battlestudio.replay.state import GameState
from battlestudio.rules.dice import success_probability
from battlestudio.rules.odds import Odds, OddsRow, name_of, pct
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.toe.command import zones_for
from battlestudio.rules.toe.common import (
    base_of,
    command_ability,
    commander,
    is_detached,
    issuing_echelon,
    shape_of,
)
from battlestudio.rules.toe.control import dice_spec, table1_modifiers, thresholds
from battlestudio.rules.toe.orders import goes_as_chief


def toe_odds(state: GameState, p: RuleParameters, ruleset_id: str, issuer: str, recipient: str) -> Odds:
    """Command control of an order from ``issuer`` to ``recipient`` (3.2), with the ruleset's
    numbers ``p``.

    Raises
    ------
    RuleRefused
        for a value the scenario lacks (thresholds, zones, KE); ``KeyError`` for an unknown id.
    """
    c = commander(state, issuer)
    mods = [(command_ability(p, c), f"command ability (KE) of {c.name} (2.12)")]
    mods += [(m.value, m.source) for m in table1_modifiers(p)]
    total = sum(v for v, _ in mods)
    spec = dice_spec(p)
    chief = goes_as_chief(state, p, issuer, recipient, "A")  # an acting army chief orders as one (2.3)
    _, th = thresholds(p, issuing_echelon(p, c) if chief else c.echelon)
    d = float(command_distances(base_of(c), [shape_of(state, recipient)], "nearest")[0])
    who, to = c.name, name_of(state, recipient)
    if not chief and recipient != issuer and recipient in state.commanders and not is_detached(state, recipient):
        div = state.commanders[recipient]  # his own order to a division or brigade is a detachment (2.11)
        mods.append((command_ability(p, div), f"command ability (KE) of {div.name}, used for detachments (2.12)"))
        total = sum(v for v, _ in mods)
    if not chief:
        chance = success_probability(spec, total, th[0])
        row = OddsRow(f"own order (zone 1, needs {th[0]})", chance, None, f"{spec} {total:+d} ≥ {th[0]}", True)
        return Odds(
            ruleset_id,
            issuer,
            recipient,
            f"{who}'s own order to {to}: {pct(chance)} (A20, zone 1)",
            (row,),
            tuple(mods),
            d,
            1,
            "A corps general's own order always rolls as zone 1.",
            rule="3.2, A20",
        )
    zones = zones_for(p, c)
    zone = next((b.zone for b in zones if b.outer is None or d <= b.outer + 1e-9), None)
    rows = []
    for b in zones:
        chance = success_probability(spec, total, th[b.zone - 1])
        span = f"{b.inner:g}–{b.outer:g} cm" if b.outer is not None else f"beyond {b.inner:g} cm"
        rows.append(
            OddsRow(
                f"zone {b.zone} ({span}), needs {th[b.zone - 1]}",
                chance,
                None,
                f"{spec} {total:+d} ≥ {th[b.zone - 1]}",
                b.zone == zone,
            )
        )
    if zone is None:
        last = zones[-1]
        head = (
            f"{to} is {d:.1f} cm from {who}, beyond zone {last.zone} ({last.outer:g} cm): "
            "no order can be sent (2.2, 3.2)"
        )
        what = (
            f"Riding {d - (last.outer or 0):.1f} cm closer brings {to} into zone {last.zone}: {pct(rows[-1].chance)}."
        )
    else:
        now = rows[zone - 1].chance
        head = f"{who} → {to}: {d:.1f} cm, zone {zone}: {pct(now)} that the order gets through"
        if zone == 1:
            what = "Already in zone 1: riding closer does not change the odds."
        else:
            inner = zones[zone - 2]
            what = (
                f"Riding {d - (inner.outer or 0):.1f} cm closer (into zone {zone - 1}, ≤ {inner.outer:g} cm) "
                f"raises the chance from {pct(now)} to {pct(rows[zone - 2].chance)}."
            )
    return Odds(ruleset_id, issuer, recipient, head, tuple(rows), tuple(mods), d, zone, what, rule="3.2, Table 1, 2.12")
