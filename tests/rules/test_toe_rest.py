"""Torden over Europa fixes of issue 16 (D2-D13, towns 4.8): each test names the seed section it tests."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import pytest

from battlestudio.rules import OrderRequest, ReplayDice
from battlestudio.rules.toe import ruleset

from tests.rules.toe_runner import CASES, load_case


def _auerstedt():
    state, params, _, _ = load_case(CASES / "order-and-cancel-per-corps")
    return replace(state, orders={}), params


def test_2_12_odds_of_a_detachment_include_the_division_generals_ke():
    """2.12: a detachment rolls d10 + the corps general's KE + the division general's KE; the
    odds panel says the same chance the roll has (Davout KE 1, Gudin KE 1, zone 1 needs 4: 80 %)."""
    state, params = _auerstedt()
    odds = ruleset.odds(state, params, "davout", "gudin")
    assert [v for v, _ in odds.modifiers][:2] == [1, 1]
    assert "Gudin, used for detachments (2.12)" in odds.modifiers[1][1]
    assert odds.rows[0].chance == Fraction(8, 10)
    req = OrderRequest("davout", "gudin", "D", parameters={"mode": "H", "point": (60.0, 40.0)})
    dice = ReplayDice([("toe-command-control:o-2-1:order:t2", (2,))])  # 2 + 1 + 1 = 4: passes
    out = ruleset.order_phase(state, [req], params, dice)
    roll = out.outcomes[0].rolls[0]
    assert roll.success and roll.probability() == odds.rows[0].chance
    assert ruleset.odds(state, params, "davout", "davout").rows[0].chance == Fraction(7, 10)  # own T: no division KE


def test_2_5_a_division_general_rated_outside_10_20_cm_does_not_stop_the_army_check():
    """2.5: a division general's command distance is 10-20 cm; one rated 25 cm is reported, but the
    rest of the army is still checked, and his own brigades are measured with his rating."""
    from battlestudio.rules.toe import command
    from battlestudio.rules.toe.common import params_for

    state, params = _auerstedt()
    gudin = state.commanders["gudin"]
    state = replace(state, commanders={**state.commanders, "gudin": replace(gudin, command_distance=25)})
    found = {f.subject: f for f in ruleset.out_of_command(state, params, "french")}
    assert {"friant", "kister", "lochet", "debilly", "petit", "gautier"} <= set(found)
    assert found["petit"].reach == 25 and found["kister"].reach == 15
    report = command.check_command(state, params_for(params), "french")
    assert any("Gudin has command distance 25 cm, outside the rule's 10-20 cm" in str(r) for r in report.refusals)
