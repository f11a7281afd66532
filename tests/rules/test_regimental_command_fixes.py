"""Regimental command fixes of issue 18: D-R2 (a regiment whose general fell asks the HQ), D-R4
(one adjutant move a turn), D-R5 (the zone bonuses' readings as assumed parameters, each
changing behaviour when overridden), and no morale test in the initiative phase (2.1)."""

from __future__ import annotations

from battlestudio.rules.dice import ReplayDice
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.regimental import ruleset
from battlestudio.rules.regimental.activation import regiment_order
from battlestudio.rules.regimental.morale import morale_test

from gda_world import unit
from regimental_world import Script, session
from test_regimental import apply_all, army

P = RuleParameters.for_ruleset("regimental", {})


def d(*draws):
    return ReplayDice(list(draws))


def test_d_r2_regiment_of_a_fallen_general_near_the_hq_gets_the_order_without_a_test():
    # b1-r0 stands about 12 cm from the HQ; its general is killed: orders only from the HQ (D-R2)
    state = army(**{"general:b1": "killed"})
    near = regiment_order(state, "b1-r0", 3, P, d())
    assert near.within and near.actions == 3 and near.roll is None
    assert "orders only from the HQ" in near.explanation
    # the same regiment 40 cm from the HQ takes the order test against the HQ's distance
    far_state = state.with_unit(unit("b1-r0", side="russia", x=-16, y=50, bases=4))
    far = regiment_order(far_state, "b1-r0", 3, P, d(("regimental-zone:b1-r0:t1", (5,))))
    assert not far.within and far.actions == 0 and "from the HQ" in far.explanation
    # with the general alive, the same far regiment is measured to its brigade (in zone)
    alive = army().with_unit(unit("b1-r0", side="russia", x=-16, y=50, bases=4))
    assert regiment_order(alive, "b1-r0", 3, P, d()).within


def test_d_r4_an_adjutant_moves_20cm_once_a_turn():
    state = army(adjutants=[(0.0, 20.0)])
    two = {"adjutants.russia": 1}
    first = ruleset.move_adjutant(state, "adj0", (0.0, 35.0), two)
    assert first.status == "delivered"
    moved = apply_all(state, first.events)
    assert moved.commanders["adj0"].position == (0.0, 35.0)
    again = ruleset.move_adjutant(moved, "adj0", (0.0, 40.0), two)
    assert again.status == "refused" and "already moved this turn" in again.explanation
    next_turn = moved.evolve(turn=moved.turn + 1)
    assert ruleset.move_adjutant(next_turn, "adj0", (0.0, 40.0), two).status == "delivered"


def test_d_r5_zone_bonus_readings_are_assumed_and_change_behaviour():
    state = army()
    roll = ("regimental-morale:b1-r0:t1", (4, 5))
    # default: zone lines only in the melee morale test (ERRATA Regimental 3)
    assert morale_test(state, "b1-r0", P, d(roll)).target == 8
    every = RuleParameters.for_ruleset("regimental", {"zone_bonus_tests": "all"})
    assert morale_test(state, "b1-r0", every, d(roll)).target == 11
    assert any("zone_bonus_tests" in a for a in P.assumptions())
    # a unit reached only through an adjutant chain: no HQ bonus by default, +2 with 'hq'
    chained = army(div_at=(0.0, 45.0), adjutants=[(0.0, 20.0), (0.0, 38.0)])
    key = ("regimental-morale:b1-r0:t1", (4, 5))
    direct = RuleParameters.for_ruleset("regimental", {"adjutants.russia": 2})
    hq = RuleParameters.for_ruleset("regimental", {"adjutants.russia": 2, "chain_zone_bonus": "hq"})
    t_direct = morale_test(chained, "b1-r0", direct, d(key), melee=True)
    t_hq = morale_test(chained, "b1-r0", hq, d(key), melee=True)
    assert t_hq.target == t_direct.target + 2
    assert "HQ's command zone" in t_hq.roll.threshold_source
    assert "HQ's command zone" not in t_direct.roll.threshold_source


def test_no_morale_test_offered_in_the_initiative_phase():
    s = session(Script())
    assert s.key.phase == "initiative"  # the session opens on the initiative test (2.1)
    assert "morale_test" not in {a.id for a in s.actions("austrian-avantgarde")}
    s.advance_to("activation", "austrian")
    assert "morale_test" in {a.id for a in s.actions("austrian-avantgarde")}
