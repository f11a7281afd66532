"""Torden over Europa's formation changes (1.6, 1.7, 4.4, 4.5) on the Elchingen test table:
the front-edge midpoint stays, line ↔ march column turns on the spot, FU units and too small
columns are refused, and the march-length deduction is taken from the scenario or said missing."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battlestudio.model.units import Formation
from battlestudio.replay.state import GameState
from battlestudio.rules import RuleRefused, get_ruleset

from tests.elchingen import elchingen_scenario

TOE = get_ruleset("toe")


def state_of(**changes) -> GameState:
    s = elchingen_scenario()
    for uid, fields in changes.items():
        s.units[uid] = replace(s.units[uid], **fields)
    return GameState.from_scenario(s)


def test_front_edge_midpoint_and_facing_stay():
    st = state_of()
    u = st.units["u-villatte"]
    ch = TOE.formation_change(st, "u-villatte", "column", {})
    assert ch.unit.formation is Formation.COLUMN and (ch.unit.position, ch.unit.facing) == (u.position, u.facing)
    assert ch.unit.rect().front == pytest.approx(u.rect().front)
    assert ch.cost_cm is None and "4.5" in ch.explanation and "none is deducted" in ch.explanation


def test_line_to_march_column_turns_on_the_spot():
    st = state_of()
    u = st.units["u-villatte"]
    ch = TOE.formation_change(st, "u-villatte", "march_column", {})
    a, b = u.rect().edges()["right"]
    assert ch.unit.position == pytest.approx(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
    assert ch.unit.facing == pytest.approx((u.facing - 90.0) % 360.0)


def test_the_scenario_deduction_is_the_cost():
    ch = TOE.formation_change(state_of(), "u-villatte", "square", {"formation_change_cm.France": 5})
    assert ch.cost_cm == 5.0 and "5 cm of its march length" in ch.explanation


def test_what_the_rules_forbid_is_refused():
    with pytest.raises(RuleRefused, match="complete disorder.*1.6"):
        TOE.formation_change(state_of(**{"u-villatte": {"state": "FU"}}), "u-villatte", "column", {})
    with pytest.raises(RuleRefused, match="only a unit in complete disorder"):
        TOE.formation_change(state_of(), "u-villatte", "none", {})
    with pytest.raises(RuleRefused, match="cannot form column"):
        TOE.formation_change(state_of(**{"u-villatte": {"figures": 4}}), "u-villatte", "column", {})
    with pytest.raises(RuleRefused, match="not a formation"):
        TOE.formation_change(state_of(), "u-villatte", "wedge", {})
