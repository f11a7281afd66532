"""Belle Alliance: the geometry glossary's fixtures F1–F5 and F14 (break-in, flank, rear,
overlap), attack announcements, who may attack, stopping at break-in distance, neighbour and
support eligibility, continued advance and attack, and one turn of orders end to end."""

from __future__ import annotations

import pytest

from battlestudio.model.geometry import UnitRect
from battlestudio.model.units import Arm, Formation
from battlestudio.rules import available_rulesets
from battlestudio.rules.belle_alliance import ruleset
from battlestudio.rules.belle_alliance.attacks import (
    Announcement,
    both_stop,
    check_announcement,
    check_continued_advance,
    check_continued_attack,
    check_neighbour,
    check_support,
    may_attack,
)
from battlestudio.rules.belle_alliance.geometry import (
    at_break_in,
    classify,
    figure_grid,
    figures_behind,
    stands_in_zone,
    target_still_ahead,
)
from battlestudio.rules.dice import ReplayDice
from battlestudio.rules.params import MissingParameterError, RuleParameters
from battlestudio.rules.protocol import OrderRequest
from battlestudio.replay.order_events import OrderDelivered

from gda_world import unit, world

P = RuleParameters.for_ruleset("belle-alliance", {"support_max_cm": 10})
D = UnitRect((5, 0), 90, 10, 2)  # glossary §7: the defender, facing north, FL (0,0) FR (10,0)


# -- glossary fixtures --------------------------------------------------------------------
@pytest.mark.parametrize(
    "name, rect, files, ranks, expected",
    [
        ("F1 rear contact", UnitRect((5, -2), 90, 6, 2), 3, 2, "rear"),
        ("F2 flank contact, long frontage", UnitRect((10, -1), 180, 4, 2), 2, 2, "overlap"),
        ("F3 flank contact, short frontage", UnitRect((10, -1), 180, 2, 2), 1, 2, "flank"),
        ("F4 overlap", UnitRect((12, 0.5), 250, 14, 2), 7, 2, "overlap"),
        ("F5 frontal", UnitRect((5, 0), 270, 10, 2), 5, 2, "front"),
    ],
)
def test_classification_fixtures(name, rect, files, ranks, expected):
    assert classify(rect, D, figure_grid(rect, files, ranks)) == expected, name


def test_f4_has_five_figures_behind_the_extended_front():
    o = UnitRect((12, 0.5), 250, 14, 2)
    assert figures_behind(D, figure_grid(o, 7, 2)) == 5


def test_flank_judged_at_the_start_of_movement():
    a2 = UnitRect((10, -1), 180, 2, 2)
    started_in_front = UnitRect((10, 3), 180, 2, 2)
    assert classify(a2, D, figure_grid(a2, 1, 2), a_start=started_in_front) != "flank"


def test_f14_break_in_zone_touches_within_eps_and_is_directional():
    assert not at_break_in(UnitRect((5, 7), 270, 10, 2), D, 5, 0.1)
    a = UnitRect((5, 5.05), 270, 10, 2)
    assert at_break_in(a, D, 5, 0.1)
    assert not at_break_in(D, UnitRect((30, 5.05), 270, 10, 2), 5, 0.1)
    assert stands_in_zone(UnitRect((5, 4), 270, 10, 2), D, 5)


def test_pursuit_limit_b5():
    assert target_still_ahead(UnitRect((5, -20), 90, 10, 2), D)
    assert not target_still_ahead(UnitRect((5, 1), 90, 10, 2), D)


# -- orders, announcements, who may attack ------------------------------------------------------
def ba_world(order: dict | None = None, attacker_state: str = "O"):
    us = [
        unit("a", side="danes", state=attacker_state, x=5, y=7, facing=270, formation=Formation.LINE, figures=20),
        unit("n", side="danes", x=17, y=7, facing=270, formation=Formation.LINE, figures=12),
        unit("s", side="danes", x=5, y=12, facing=270, formation=Formation.LINE, figures=12),
        unit("t", side="swedes", x=5, y=0, facing=90, formation=Formation.LINE, figures=20),
    ]
    state = world([], us, [], side="danes")
    state = state.evolve(flags={})
    if order is not None:
        out = ruleset.issue_order(state, OrderRequest("", "a", "attack", parameters=order), {}, ReplayDice([]))
        assert out.status == "pending", out.explanation
        for e in out.events:
            state = e.apply(state)
        # the order roll (1.1.3) passed: only a delivered order is in force (D15)
        state = OrderDelivered(state.turn, state.side, state.phase, order_id=out.order_id).apply(state)
    return state


def test_belle_alliance_is_registered():
    assert "belle-alliance" in available_rulesets(reload=True)


def test_without_an_attack_order_or_in_disorder_only_to_break_in_distance():
    ok, why = may_attack(ba_world(), "a", Announcement("a", "t"))
    assert not ok and "no attack order" in why[0]
    ok, why = may_attack(ba_world({"target": "t"}, attacker_state="U"), "a", Announcement("a", "t"))
    assert not ok and "in U" in why[0]
    ok, why = may_attack(ba_world({"target": "t"}), "a", None)
    assert not ok and "not announced" in why[0]
    assert may_attack(ba_world({"target": "t"}), "a", None, opponent_demands=True)[0]
    assert may_attack(ba_world({"target": "t"}), "a", Announcement("a", "t"))[0]


def test_announcement_must_match_the_order_sheet():
    state = ba_world({"target": "t", "storm": True})
    assert check_announcement(state, Announcement("a", "t", storm=True))[0]
    ok, why = check_announcement(state, Announcement("a", "n"))
    assert not ok and "names target 't'" in why[0]
    ok, why = check_announcement(state, Announcement("a", "t", against_position=True))
    assert not ok and "4.1.2" in why[0]
    # D14: storm is announced, not written; a sheet position not announced is an attack on the unit
    plain = ba_world({"target": "t"})
    assert check_announcement(plain, Announcement("a", "t", storm=True))[0]
    pos = ba_world({"target": "t", "against_position": True})
    assert pos.orders["ba-attack-a-t1"].parameters["position"] is not None
    assert check_announcement(pos, Announcement("a", "t"))[0]


def test_an_attack_order_needs_a_target():
    out = ruleset.issue_order(ba_world(), OrderRequest("", "a", "attack"), {}, ReplayDice([]))
    assert out.status == "refused" and "names its target" in out.explanation


def test_both_stop_at_break_in_distance_when_the_mover_may_attack():
    state = ba_world({"target": "t"})
    moved = state.with_unit(state.units["a"].moved((5, 5.05)))
    assert both_stop(moved, "a", "t", P, Announcement("a", "t"))[:2] == (True, True)
    assert both_stop(moved, "a", "t", P, Announcement("a", "t"), cancels=True)[:2] == (True, False)
    no_order = ba_world().with_unit(state.units["a"].moved((5, 5.05)))
    assert both_stop(no_order, "a", "t", P, None)[:2] == (True, False)
    assert both_stop(state.with_unit(state.units["a"].moved((5, 9))), "a", "t", P, Announcement("a", "t"))[:2] == (
        False,
        False,
    )


# -- neighbour and support ---------------------------------------------------------------------------
def test_neighbour_unit_conditions():
    state = ba_world({"target": "t"})
    state = state.with_unit(state.units["a"].moved((5, 5))).with_unit(state.units["n"].moved((14, 5)))
    assert check_neighbour(state, "n", "a", "t", P) == (True, [])
    small = state.with_unit(unit("n", side="danes", x=14, y=5, facing=270, figures=8, formation=Formation.LINE))
    assert "fewer than half" in check_neighbour(small, "n", "a", "t", P)[1][0]
    cav = state.with_unit(
        unit("n", side="danes", x=14, y=5, facing=270, figures=12, arm=Arm.CAVALRY, formation=Formation.LINE)
    )
    assert any("not the attacker's arm" in r for r in check_neighbour(cav, "n", "a", "t", P)[1])
    assert any("defender" in r for r in check_neighbour(state, "n", "a", "t", P, defenders=["n"])[1])
    assert any("flank or rear" in r for r in check_neighbour(state, "n", "a", "t", P, flank_or_rear_attacked=["n"])[1])
    far = state.with_unit(state.units["n"].moved((40, 5)))
    assert any("A10" in r for r in check_neighbour(far, "n", "a", "t", P)[1])


def test_support_unit_conditions_and_missing_distance():
    state = ba_world({"target": "t"})
    assert check_support(state, "s", "a", P) == (True, [])
    with pytest.raises(MissingParameterError, match="support_max_cm"):
        check_support(state, "s", "a", RuleParameters.for_ruleset("belle-alliance", {}))
    art = state.with_unit(
        unit("s", side="danes", x=5, y=12, facing=270, arm=Arm.ARTILLERY, figures=12, formation=Formation.LINE)
    )
    assert any("artillery" in r for r in check_support(art, "s", "a", P)[1])
    cav = state.with_unit(
        unit("a", side="danes", x=5, y=7, facing=270, arm=Arm.CAVALRY, figures=20, formation=Formation.LINE)
    )
    assert any("infantry cannot support cavalry" in r for r in check_support(cav, "s", "a", P)[1])
    assert any("neighbour" in r for r in check_support(state, "s", "a", P, neighbours=["s"])[1])
    far = state.with_unit(state.units["s"].moved((5, 25)))
    assert any("more than 10 cm" in r for r in check_support(far, "s", "a", P)[1])


# -- continued advance and attack --------------------------------------------------------------------
@pytest.mark.parametrize(
    "distance, pivots, ok", [(10, [], True), (10.5, [], False), (8, [20], True), (8, [21], False), (8, [10, -5], False)]
)
def test_continued_advance_half_march_one_pivot_of_20(distance, pivots, ok):
    assert check_continued_advance(distance, 20.0, pivots, P)[0] is ok


def test_continued_advance_charges_the_pivot_arc_against_the_half_march():
    # a 10 cm frontage pivoting 20 degrees: the outer corner travels 3.49 cm (A20)
    assert check_continued_advance(6.5, 20.0, [20], P, frontage_cm=10)[0]
    ok, why = check_continued_advance(6.6, 20.0, [20], P, frontage_cm=10)
    assert not ok and "pivot arc of 3.5 cm" in why[0]


def test_continued_attack_only_against_fu_and_never_twice():
    assert check_continued_attack("FU")[0]
    assert not check_continued_attack("U")[0]
    assert "no further" in check_continued_attack("FU", already_continued=True)[1][0]
    assert "no continued attack" in check_continued_attack("FU", role="support")[1][0]


def test_command_distance_is_a_scenario_parameter():
    with pytest.raises(MissingParameterError, match="command_distance_cm"):
        ruleset.out_of_command(ba_world(), {})
    assert ruleset.command_reach(ba_world(), "x", {}).unknown == {"command distance": "command_distance_cm"}


def test_orders_phase_end_to_end():
    state = ba_world({"target": "t"})
    chk = ruleset.command_check(state, "a", {}, ReplayDice([]))
    assert chk.flags == {"a": "may attack"}
    assert ruleset.command_check(ba_world(), "a", {}, ReplayDice([])).flags == {"a": "break-in distance only"}
    assert ruleset.order_types(state, "", "a", {})[0].unavailable == ""
    assert ruleset.initiative(state, {}, ReplayDice([])).side == ""
