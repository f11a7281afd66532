"""General d'Armée brigade command roll, Faltering table and quality averaging, with the
seed's worked examples (Girard A, Dullitz Б and В) and exact odds checked by enumeration."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from battlestudio.model.units import Arm, Subtype
from battlestudio.replay.flow_events import OrderStateChanged, UnitRemoved
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.rules.gda.brigades import (
    BrigadeStatus,
    CommandState,
    Grade,
    average_quality,
    brigade_quality,
    brigade_status,
    demoralised_now,
)
from battlestudio.rules.gda.command import (
    FalteringResult,
    command_roll,
    faltering_result,
    obey_probability,
    restrictions,
)
from battlestudio.rules.gda.events import DamageTaken, LowAmmunition

from gda_world import brigade, dice, gda_params, general, unit, world

P = gda_params()


def apply_all(state, events):
    for e in events:
        state = e.apply(state)
    return state


# -- averaged quality: the seed's three examples ------------------------------------------
@pytest.mark.parametrize(
    "grades, expected",
    [
        (["recruit"] * 4 + ["elite"], Grade.RECRUIT),  # "4 Recruits + 1 Elite → Recruit"
        (["veteran"] * 3 + ["line"] * 2, Grade.VETERAN),  # "3 Veteran + 2 Line → Veteran"
        (["line"] * 3 + ["veteran"], Grade.LINE),  # example В: "3 Line + 1 Veteran → Line"
        (["elite", "elite", "veteran", "veteran"], Grade.ELITE),  # 50/50 split: take the higher
        (["recruit"], Grade.RECRUIT),
    ],
)
def test_average_quality_matches_the_seed_examples(grades, expected):
    assert average_quality([Grade(g) for g in grades]) is expected


def test_average_quality_of_a_brigade_ignores_skirmishers_and_guns():
    units = [unit(f"l{i}", quality="line") for i in range(3)] + [unit("v", quality="veteran")]
    units += [unit("sk", quality="elite", subtype=Subtype.SKIRMISHERS), unit("bt", quality="elite", arm=Arm.ARTILLERY)]
    c, us, edges = brigade("b", units)
    assert brigade_quality(world([c], us, edges), "b", P) is Grade.LINE


# -- the Faltering table ------------------------------------------------------------------
@pytest.mark.parametrize(
    "grade, die, expected",
    [
        (Grade.ELITE, 6, "obeys"),
        (Grade.ELITE, 4, "obeys"),
        (Grade.ELITE, 3, "rally"),
        (Grade.ELITE, 2, "retreat"),
        (Grade.ELITE, 1, "retreat"),
        (Grade.VETERAN, 5, "obeys"),
        (Grade.LINE, 4, "rally"),
        (Grade.LINE, 3, "retreat"),
        (Grade.LINE, 2, "retreat"),
        (Grade.VETERAN, 1, "sauve_qui_peut"),
        (Grade.RECRUIT, 5, "obeys"),
        (Grade.RECRUIT, 4, "rally"),
        (Grade.RECRUIT, 3, "retreat"),
        (Grade.RECRUIT, 2, "sauve_qui_peut"),
        (Grade.RECRUIT, 1, "sauve_qui_peut"),
    ],
)
def test_faltering_table_cells(grade, die, expected):
    assert faltering_result(grade, die, P) is FalteringResult(expected)


# -- example A: Girard's five brigades ----------------------------------------------------
def girard():
    cs, us, edges = [general("girard", echelon="corps")], [], []
    for i in range(1, 6):
        c, u, e = brigade(f"b{i}", [unit(f"b{i}-u{j}", x=30.0 * i + 3 * j) for j in range(3)], x=30.0 * i)
        cs.append(c), us.extend(u), edges.extend(e)
        edges.append(("girard", f"b{i}"))
    return world(cs, us, edges)


def test_example_a_girard_attached_adc_reroll_2_then_3_obeys():
    from battlestudio.replay.order_events import OrderWritten

    state = girard()
    for oid, task, cost in (("o1", "forward", 1), ("o2", "brigade_attachment", 2)):
        state = OrderWritten(
            1,
            "french",
            "command",
            order_id=oid,
            issuer="girard",
            recipient="b1",
            order_type=task,
            parameters={"ruleset": "gda"},
            cost=cost,
        ).apply(state)
    res = command_roll(state, "b1", P, dice(("gda-command:b1:t1", (2,)), ("gda-command-reroll:b1:t1", (3,))))
    assert res.obeys and res.status.state is CommandState.STEADY
    assert [r.raw for r in res.rolls] == [(2,), (3,)]
    assert "reroll from the attached ADC" in res.rolls[1].label
    assert set(res.status.tasks) == {"forward", "brigade_attachment"}
    assert res.odds == Fraction(8, 9)  # 4/6 + 2/6 × 4/6
    after = apply_all(state, res.events)
    assert brigade_status(after, "b1").state is CommandState.STEADY
    assert after.orders["o1"].status.value == "delivered"


@pytest.mark.parametrize("b, die, obeys", [("b2", 4, True), ("b3", 5, True), ("b4", 6, True), ("b5", 2, False)])
def test_example_a_girard_other_brigades(b, die, obeys):
    res = command_roll(girard(), b, P, dice((f"gda-command:{b}:t1", (die,))))
    assert res.obeys is obeys
    assert len(res.rolls) == 1 and res.rolls[0].explain().startswith(f"Brigade command roll, {b}: d6 = {die}")
    if not obeys:
        assert res.status.state is CommandState.HESITANT
        assert any("no advance" in r for r in restrictions(res.status))
        assert res.odds == Fraction(2, 3)


def test_example_b_dullitz_cavalry_rolls_1_and_stays_hesitant_in_reserve():
    c, us, e = brigade("cav", [unit("hussars", arm=Arm.CAVALRY)], side="allies")
    res = command_roll(world([c], us, e, side="allies"), "cav", P, dice(("gda-command:cav:t1", (1,))))
    assert not res.obeys and res.status.state is CommandState.HESITANT
    assert "Hesitant" in res.explanation


# -- example В: Dullitz's Faltering brigade --------------------------------------------------
def test_example_c_faltering_line_brigade_rolls_3_retreat():
    units = [unit("l1"), unit("l2", x=15), unit("l3", x=30, state="routing"), unit("v1", quality="veteran", x=45)]
    c, us, e = brigade("dul", units, side="allies", state="faltering")
    state = world([c], us, e, side="allies")
    res = command_roll(state, "dul", P, dice(("gda-faltering:dul:t1", (3,))))
    assert res.grade is Grade.LINE and res.result is FalteringResult.RETREAT
    assert res.rolls[0].threshold_source == "Faltering Brigade table, row Line, column 3"
    removed = [e.id for e in res.events if isinstance(e, UnitRemoved)]
    assert removed == ["l3"]  # the routing unit disperses
    damage = {e.unit: e.points for e in res.events if isinstance(e, DamageTaken)}
    assert damage == {"l1": 1, "l2": 1, "v1": 1}  # every other unit takes 1 damage
    assert {e.unit for e in res.events if isinstance(e, OrderStateChanged)} == {"l1", "l2", "v1"}
    assert res.status.state is CommandState.FALTERING  # keeps rolling on the table
    after = apply_all(state, res.events)
    assert after.units["l1"].attributes["damage"] == 1 and after.units["l1"].state == "retreating"
    assert "l3" not in after.units


def test_faltering_rally_stops_retreat_disperses_routers_counts_hesitant():
    units = [unit("a", state="retreating"), unit("b", x=15, state="routing"), unit("c", x=30)]
    enemy = unit("e", side="allies", x=30, y=10, facing=270)
    c, us, e = brigade("br", units, state="faltering")
    res = command_roll(world([c], us + [enemy], e), "br", P, dice(("gda-faltering:br:t1", (4,))))
    assert res.result is FalteringResult.RALLY and res.status.state is CommandState.HESITANT
    assert [(ev.unit, ev.state) for ev in res.events if isinstance(ev, OrderStateChanged)] == [("a", "formed")]
    assert [ev.id for ev in res.events if isinstance(ev, UnitRemoved)] == ["b"]
    assert res.must_retire == ("c",)


def test_sauve_qui_peut_loses_adc_once_skirmishers_disperse_artillery_low_ammo():
    units = [unit(f"r{i}", quality="recruit", x=15 * i) for i in range(3)]
    units += [
        unit("sk", quality="recruit", subtype=Subtype.SKIRMISHERS, x=60, y=5),
        unit("hb", arm=Arm.ARTILLERY, subtype=Subtype.HORSE_ARTILLERY, x=20, y=-5, formation="unlimbered"),
    ]
    c, us, e = brigade("rb", units, state="faltering")
    state = world([c], us, e)
    res = command_roll(state, "rb", P, dice(("gda-faltering:rb:t1", (2,))))
    assert res.result is FalteringResult.SAUVE_QUI_PEUT
    assert res.status.adc_lost and res.status.sauve_qui_peut == 1
    assert [ev.id for ev in res.events if isinstance(ev, UnitRemoved)] == ["sk"]
    assert {ev.unit: ev.points for ev in res.events if isinstance(ev, DamageTaken)} == {
        "r0": 2,
        "r1": 2,
        "r2": 2,
        "hb": 2,
    }
    assert [ev.unit for ev in res.events if isinstance(ev, LowAmmunition)] == ["hb"]
    again = command_roll(apply_all(state, res.events).evolve(turn=2), "rb", P, dice(("gda-faltering:rb:t2", (1,))))
    assert again.status.sauve_qui_peut == 2 and "loses no further ADC" in again.explanation


def test_battery_far_behind_the_front_ignores_only_the_low_ammunition():
    """ERRATA GdA 1: «это требование» exempts the battery from Low Ammunition only; it still
    retreats with the brigade and takes its damage."""
    units = [
        unit("l1", y=0),
        unit("l2", x=15, y=0),
        unit("fa", arm=Arm.ARTILLERY, subtype=Subtype.FOOT_ARTILLERY, x=5, y=-35, formation="unlimbered"),
    ]
    c, us, e = brigade("b", units, state="faltering")
    res = command_roll(world([c], us, e), "b", P, dice(("gda-faltering:b:t1", (3,))))
    assert not [ev for ev in res.events if isinstance(ev, LowAmmunition)]
    assert [ev.points for ev in res.events if isinstance(ev, DamageTaken) and ev.unit == "fa"] == [1]
    assert [ev.state for ev in res.events if isinstance(ev, OrderStateChanged) and ev.unit == "fa"] == ["retreating"]
    assert "fa ignores the Low Ammunition requirement (35.0 cm behind" in res.explanation
    near = [
        units[0],
        units[1],
        unit("fa", arm=Arm.ARTILLERY, subtype=Subtype.FOOT_ARTILLERY, x=5, y=-10, formation="unlimbered"),
    ]
    c, us, e = brigade("b", near, state="faltering")
    res = command_roll(world([c], us, e), "b", P, dice(("gda-faltering:b:t1", (3,))))
    assert [ev.unit for ev in res.events if isinstance(ev, LowAmmunition)] == ["fa"]


# -- Demoralised ------------------------------------------------------------------------------
def test_more_than_half_dispersed_makes_demoralised_and_obeys_only_on_5():
    units = [unit("a"), unit("b", x=15)]
    c, us, e = brigade("b1", units)
    state = world([c], us, e + [("b1", "gone1"), ("b1", "gone2"), ("b1", "gone3")])  # 3 of 5 dispersed
    assert demoralised_now(state, "b1", P)[0]
    res = command_roll(state, "b1", P, dice(("gda-command:b1:t1", (4,))))
    assert res.status.demoralised and not res.obeys and res.rolls[0].threshold == 5
    assert res.odds == Fraction(1, 3)
    exactly_half = world([c], us, e + [("b1", "gone1"), ("b1", "gone2")])  # 2 of 4: not more than half
    assert not demoralised_now(exactly_half, "b1", P)[0]


def test_elite_brigades_never_become_demoralised():
    units = [unit("a", quality="elite"), unit("b", quality="elite", x=15)]
    c, us, e = brigade("g", units)
    state = world([c], us, e + [("g", "x1"), ("g", "x2"), ("g", "x3")])
    ok, why = demoralised_now(state, "g", P)
    assert not ok and "Elite" in why


def test_demoralised_and_faltering_disperses_without_a_roll():
    c, us, e = brigade("bd", [unit("a"), unit("z", x=15)], state="faltering", demoralised=True)
    res = command_roll(world([c], us, e), "bd", P, dice())
    assert res.rolls == () and {ev.id for ev in res.events if isinstance(ev, UnitRemoved)} == {"a", "z"}
    assert res.status.adc_lost and res.odds == 0


# -- exact odds against enumeration of the dice ------------------------------------------------
def enumerate_obeys(status: BrigadeStatus, grade: Grade | None, reroll: bool) -> Fraction:
    wins = 0
    faces = list(itertools.product(range(1, 7), repeat=2))
    for d1, d2 in faces:

        def ok(d):
            if status.state is CommandState.FALTERING:
                return faltering_result(grade, d, P) is FalteringResult.OBEYS
            return d >= (5 if status.demoralised else 3)

        first = ok(d1)
        wins += first or (reroll and ok(d2))
    return Fraction(wins, len(faces))


@pytest.mark.parametrize(
    "state, demoralised, grade, reroll",
    [
        ("steady", False, None, False),
        ("steady", False, None, True),
        ("hesitant", True, None, False),
        ("steady", True, None, True),
        ("faltering", False, Grade.LINE, False),
        ("faltering", False, Grade.ELITE, False),
        ("faltering", False, Grade.RECRUIT, True),
    ],
)
def test_obey_odds_match_enumeration(state, demoralised, grade, reroll):
    st = BrigadeStatus("b", CommandState(state), demoralised=demoralised)
    expected = enumerate_obeys(st, grade, reroll and state != "faltering")
    assert obey_probability(st, grade, P, reroll) == expected


def test_the_chance_that_a_faltering_line_brigade_obeys_is_one_third():
    st = BrigadeStatus("b", CommandState.FALTERING)
    assert obey_probability(st, Grade.LINE, P, reroll=False) == Fraction(1, 3)
    assert obey_probability(st, Grade.ELITE, P, reroll=False) == Fraction(1, 2)


def test_status_is_recorded_as_a_command_state_flag():
    c, us, e = brigade("b", [unit("a")])
    res = command_roll(world([c], us, e), "b", P, dice(("gda-command:b:t1", (6,))))
    flag = [ev for ev in res.events if isinstance(ev, CommandStateChanged)][-1]
    assert flag.state == "gda" and flag.subject == "b" and flag.value["state"] == "steady"
