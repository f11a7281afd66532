"""Regimental rules: initiative, alternating activations with the orders test, command zones
(general 15 cm, HQ 20 cm), adjutant chains, the out-of-zone test, light cavalry, commander
casualty test, morale 2D6 ≤ 8 and casualty-marker limits; one full turn end to end."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from battlestudio.model.units import Arm, Subtype
from battlestudio.rules import available_rulesets
from battlestudio.rules.dice import Modifier, ReplayDice, SeededDice
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.protocol import OrderRequest
from battlestudio.rules.regimental import ruleset
from battlestudio.rules.regimental.activation import activate, regiment_order
from battlestudio.rules.regimental.command import actions_distribution, hq_link, orders_test_actions, out_of_zone_result
from battlestudio.rules.regimental.morale import add_markers, commander_casualty_test, morale_test, pass_probability

from gda_world import general, unit, world

P = RuleParameters.for_ruleset("regimental", {})


def d(*draws):
    return ReplayDice(list(draws))


def apply_all(state, events):
    for e in events:
        state = e.apply(state)
    return state


def army(hq_at=(0.0, 0.0), div_at=(0.0, 10.0), adjutants=(), side="russia", **flags):
    """HQ → division (2 brigades of 2 regiments) on one side; a French division opposite."""
    cs = [
        general("hq", side=side, echelon="c_in_c", x=hq_at[0], y=hq_at[1]),
        general("div", side=side, echelon="division", x=div_at[0], y=div_at[1]),
        general("b1", side=side, x=div_at[0] - 10, y=div_at[1] + 5),
        general("b2", side=side, x=div_at[0] + 10, y=div_at[1] + 5),
    ]
    edges = [("hq", "div"), ("div", "b1"), ("div", "b2")]
    for i, (ax, ay) in enumerate(adjutants):
        cs.append(general(f"adj{i}", side=side, echelon="corps", x=ax, y=ay, role="adjutant"))
        edges.append(("hq", f"adj{i}"))
    us = []
    for b, dx in (("b1", -10), ("b2", 10)):
        for j in range(2):
            us.append(unit(f"{b}-r{j}", side=side, x=div_at[0] + dx + 12 * j - 6, y=div_at[1] + 8, bases=4))
            edges.append((b, f"{b}-r{j}"))
    cs += [
        general("fhq", side="france", echelon="c_in_c", y=150),
        general("fdiv", side="france", echelon="division", y=140),
    ]
    us.append(unit("f-r", side="france", y=130, facing=270))
    edges += [("fhq", "fdiv"), ("fdiv", "f-r")]
    return world(cs, us, edges, side=side, flags=dict(flags))


def test_regimental_is_registered():
    assert "regimental" in available_rulesets(reload=True)


@pytest.mark.parametrize("die, actions", [(1, 3), (2, 3), (3, 2), (4, 2), (5, 1), (6, 1)])
def test_orders_test_table(die, actions):
    assert orders_test_actions(die, P) == actions


def test_actions_odds_are_one_third_each():
    assert actions_distribution(P) == {1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 3)}


@pytest.mark.parametrize("die, result", [(1, "full"), (2, "full"), (3, "one"), (4, "one"), (5, "none"), (6, "none")])
def test_out_of_zone_table(die, result):
    assert out_of_zone_result(die, P) == result


def test_announced_actions_first_n_are_carried_out():
    state = army()
    act = activate(state, "b1", ("move", "move", "fire"), P, d(("regimental-orders:b1:t1", (4,))))
    assert act.status == "delivered" and act.granted == ("move", "move")
    assert "announced: move, move, fire" in act.rolls[0].label
    after = apply_all(state, act.events)
    again = activate(after, "b1", ("fire",), P, d())
    assert again.status == "refused" and "already received orders" in again.explanation
    div = activate(after, "div", ("move",), P, d())
    assert div.status == "refused" and "brigade of div has already been activated" in div.explanation
    assert activate(state, "b2", ("move",) * 4, P, d()).status == "refused"


def test_division_outside_the_hq_zone_takes_the_order_test_and_adjutants_extend_it():
    far = army(div_at=(0.0, 45.0))
    assert not hq_link(far, "russia", far.commanders["div"].position, P).within
    act = activate(
        far, "div", ("move", "move", "move"), P, d(("regimental-orders:div:t1", (1,)), ("regimental-zone:div:t1", (3,)))
    )
    assert act.granted == ("move",) and "outside the HQ's zone (45.0 cm)" in act.explanation
    lost = activate(far, "div", ("move",), P, d(("regimental-orders:div:t1", (1,)), ("regimental-zone:div:t1", (6,))))
    assert lost.status == "failed" and lost.granted == ()
    chained = army(div_at=(0.0, 45.0), adjutants=[(0.0, 20.0), (0.0, 38.0)])
    two = RuleParameters.for_ruleset("regimental", {"adjutants.russia": 2})
    link = hq_link(chained, "russia", chained.commanders["div"].position, two)
    assert link.within and link.chain == ("hq", "adj0", "adj1")
    ok = activate(chained, "div", ("move", "fire"), two, d(("regimental-orders:div:t1", (5,))))
    assert ok.granted == ("move",) and "via adjutants adj0 → adj1" in ok.explanation
    gap = army(div_at=(0.0, 45.0), adjutants=[(0.0, 20.0)])  # second link 25 cm > 20 cm
    assert not hq_link(gap, "russia", gap.commanders["div"].position, two).within


def test_general_zone_15cm_for_single_regiments_and_light_cavalry_exemption():
    # Дистанция командования (15 cm); Кавалерия: light cavalry may ignore command distance
    state = army()
    inside = regiment_order(state, "b1-r0", 3, P, d())
    assert inside.within and inside.actions == 3 and inside.roll is None
    moved = state.evolve(commanders={**state.commanders, "b1": general("b1", side="russia", x=-10, y=40)})
    out = regiment_order(moved, "b1-r0", 3, P, d(("regimental-zone:b1-r0:t1", (4,))))
    assert not out.within and out.actions == 1 and "zone 15 cm" in out.explanation
    hussars = moved.with_unit(unit("b1-r0", side="russia", arm=Arm.CAVALRY, subtype=Subtype.LIGHT_CAVALRY, x=-16, y=18))
    free = regiment_order(hussars, "b1-r0", 2, P, d())
    assert free.exempt and free.actions == 2
    findings = {f.subject: f for f in ruleset.out_of_command(moved, {}, side="russia")}
    assert findings["b1-r0"].consequence == "order-test" and findings["b2-r0"].within
    assert findings["div"].within


def test_general_lost_orders_only_from_hq():
    state = army(div_at=(0.0, 60.0), **{"general:b1": "killed"})
    act = activate(state, "b1", ("move",), P, d(("regimental-orders:b1:t1", (2,)), ("regimental-zone:b1:t1", (5,))))
    assert act.granted == () and "orders only from the HQ" in act.explanation


# -- commander casualty test -------------------------------------------------------------------
def test_casualty_test_after_more_than_7_brigade_losses():
    state = army()
    seven = state.with_unit(unit("b1-r0", side="russia", x=-16, y=18, markers_received=7))
    assert not commander_casualty_test(seven, "b1", P, d()).due
    eight = state.with_unit(unit("b1-r0", side="russia", x=-16, y=18, markers_received=8))
    t = commander_casualty_test(eight, "b1", P, d(("regimental-casualty:b1:t1", (2,))))
    assert t.due and t.result == "badly_wounded"
    chk = ruleset.command_check(eight, "b1", {}, d(("regimental-casualty:b1:t1", (1,))))
    assert chk.flags["general"] == "killed" and "orders only from the HQ" in chk.restrictions[0]
    after = apply_all(eight, chk.events)
    assert ruleset.command_check(after, "b1", {}, d()).flags["casualty_test_due"] is False
    div = state.with_unit(unit("b1-r0", side="russia", x=-16, y=18, markers_received=10))
    assert not commander_casualty_test(div, "div", P, d()).due  # a division needs more than 10


@pytest.mark.parametrize(
    "die, result",
    [
        (1, "killed"),
        (2, "badly_wounded"),
        (3, "lightly_wounded"),
        (4, "lightly_wounded"),
        (5, "unharmed"),
        (6, "unharmed"),
    ],
)
def test_casualty_table(die, result):
    state = army().with_unit(unit("b1-r0", side="russia", x=-16, y=18, markers_received=9))
    assert commander_casualty_test(state, "b1", P, d(("regimental-casualty:b1:t1", (die,)))).result == result


# -- morale -----------------------------------------------------------------------------------------
def test_morale_two_d6_at_most_8_with_zone_bonus_and_exact_odds():
    state = army()
    far = state.with_unit(unit("x", side="russia", y=100))
    r = morale_test(far, "x", P, d(("regimental-morale:x:t1", (4, 5))))
    assert r.target == 8 and not r.passed and r.odds == Fraction(26, 36)
    # the zone lines of 3.4.1 count in a melee morale test only (ERRATA Regimental 3)
    r = morale_test(state, "b1-r0", P, d(("regimental-morale:b1-r0:t1", (4, 5))))
    assert r.target == 8 and not r.passed
    r = morale_test(state, "b1-r0", P, d(("regimental-morale:b1-r0:t1", (4, 5))), melee=True)
    assert r.target == 11 and r.passed and "HQ's command zone" in r.roll.threshold_source
    assert "general's command zone" in r.roll.threshold_source
    better = RuleParameters.for_ruleset("regimental", {"zone_bonuses": "better"})
    r = morale_test(state, "b1-r0", better, d(("regimental-morale:b1-r0:t1", (4, 5))), melee=True)
    assert r.target == 10
    r = morale_test(far, "x", P, d(("regimental-morale:x:t1", (3, 3))), situational=[Modifier(-2, "enemy guard")])
    assert r.target == 6 and r.passed
    enumerated = Fraction(sum(a + b <= 6 for a, b in itertools.product(range(1, 7), repeat=2)), 36)
    assert r.odds == enumerated == pass_probability(6)


def test_casualty_marker_limits_per_base_and_forced_tests():
    inf = unit("i", bases=4)
    r = add_markers(inf, 7, P)
    assert (r.bases_removed, r.markers, r.forced_test) == (1, 1, True)
    cav = unit("c", arm=Arm.CAVALRY, bases=4)
    r = add_markers(cav, 3, P)
    assert (r.bases_removed, r.markers, r.forced_test, r.since_test) == (1, 1, False, 3)
    r2 = add_markers(
        cav.__class__(
            **{**{f: getattr(cav, f) for f in cav.__slots__}, "attributes": {"markers": 1, "markers_since_test": 3}}
        ),
        1,
        P,
    )
    assert r2.forced_test and r2.bases_removed == 1
    art = unit("a", arm=Arm.ARTILLERY, bases=2)
    assert add_markers(art, 3, P).forced_test and add_markers(art, 3, P).bases_removed == 0


# -- a full turn -----------------------------------------------------------------------------------
def test_full_turn_alternating_activations_end_to_end():
    start = army()

    def play(dice):
        state, log = start, []
        ini = ruleset.initiative(state, {}, dice)
        state = state.evolve(flags={**state.flags, "initiative:holder": ini.side})
        log.append(ini.explanation)
        while (side := ruleset.next_activation(state)) != "turn over":
            state = state.evolve(side=side)
            todo = [
                f
                for f in ("b1", "b2", "fdiv")
                if state.commanders[f].side == side and not ruleset.order_types(state, "", f, {})[0].unavailable
            ]
            out = ruleset.issue_order(
                state, OrderRequest("", todo[0], "activate", parameters={"actions": ["move", "fire", "move"]}), {}, dice
            )
            assert out.status in ("delivered", "failed"), out.explanation
            state = apply_all(state, out.events)
            log.append(f"{side}: {out.explanation}")
        return state, log

    seeded = SeededDice(seed=72)
    state, log = play(seeded)
    activated = [k for k in state.flags if k.startswith("activated:")]
    assert sorted(activated) == ["activated:b1", "activated:b2", "activated:fdiv"]
    assert len(log) == 4 and all("Orders test" in line for line in log[1:])
    assert play(ReplayDice(seeded.drawn))[1] == log


def test_roll_under_records_round_trip_and_give_exact_odds():
    import itertools
    from fractions import Fraction

    from battlestudio.rules.dice import DiceSpec, RollRecord

    rec = RollRecord("m", "Morale", DiceSpec(2, 6), (6, 3), threshold=8, at_most=True)
    assert rec.probability() == Fraction(sum(a + b <= 8 for a, b in itertools.product(range(1, 7), repeat=2)), 36)
    assert "= 9 > 8" in rec.explain()
    assert RollRecord.from_dict(rec.to_dict()) == rec
    plain = RollRecord("c", "Command", DiceSpec(1, 6), (3,), threshold=3)
    assert "at_most" not in plain.to_dict() and RollRecord.from_dict(plain.to_dict()) == plain
