"""General d'Armée ADC tasks, initiative, attack declaration (Adam's Light Brigade example),
supports and attack modifiers; and one full command phase through the ruleset Protocol."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battlestudio.model.units import Arm, Formation
from battlestudio.rules import available_rulesets
from battlestudio.rules.dice import ReplayDice, SeededDice
from battlestudio.rules.gda import ruleset
from battlestudio.rules.gda.adc import check_task, task_cost
from battlestudio.rules.gda.attacks import Declaration, check_attack, rerolled_die, support_reroll_penalty
from battlestudio.rules.gda.initiative import roll_initiative
from battlestudio.rules.gda.modifiers import AttackSituation, attack_modifiers
from battlestudio.rules.params import MissingParameterError
from battlestudio.rules.protocol import OrderRequest

from gda_world import brigade, dice, gda_params, general, unit, world

MOVE = {"normal_move_cm.infantry": 15, "normal_move_cm.cavalry": 30}  # scenario-supplied (movement chapter lost)


def apply_all(state, events):
    for e in events:
        state = e.apply(state)
    return state


def test_gda_is_registered():
    assert "gda" in available_rulesets(reload=True)


# -- ADC tasks ---------------------------------------------------------------------------------
def test_infantry_assault_costs_two_adcs_and_forward_plus_attachment_make_three():
    p = gda_params()
    assert task_cost("infantry_assault", p) == 2
    with pytest.raises(MissingParameterError) as exc:
        task_cost("forward", p)
    assert "adc_cost_forward" in str(exc.value) and "adc_cost_brigade_attachment" in str(exc.value)
    p = gda_params(adc_cost_forward=1)
    assert task_cost("forward", p) == 1 and task_cost("brigade_attachment", p) == 2
    with pytest.raises(MissingParameterError, match="adc_cost_redeploy"):
        task_cost("redeploy", p)


def corps_world(adcs: int | None = 3, nation: str = "France"):
    extra = {"adcs": adcs} if adcs is not None else {}
    cs = [general("girard", echelon="corps", nation=nation, **extra)]
    c, us, e = brigade("b1", [unit("u1")])
    return world(cs + [c], us, e + [("girard", "b1")])


def test_adc_supply_is_a_named_parameter_and_spending_is_limited():
    with pytest.raises(MissingParameterError, match="adcs"):
        check_task(corps_world(None), "girard", "b1", "infantry_assault", gda_params())
    state = corps_world(3)
    out = ruleset.issue_order(state, OrderRequest("girard", "b1", "infantry_assault"), {}, dice())
    assert out.status == "pending" and out.spent == {"adc": 2} and "1 left" in out.explanation
    state = apply_all(state, out.events)
    again = ruleset.issue_order(
        state, OrderRequest("girard", "b1", "infantry_assault", parameters={"order_id": "x"}), {}, dice()
    )
    assert again.status == "refused" and "needs 2 ADCs" in again.explanation and "has 1 left" in again.explanation


def test_brigadiers_do_not_send_adcs():
    assert (
        "ADCs are sent by the C-in-C or a corps commander"
        in check_task(corps_world(), "b1", "b1", "infantry_assault", gda_params()).reason
    )


def test_initiative_adcs_need_the_optional_french_rule_and_at_most_two():
    p = gda_params()
    assert "not in use" in check_task(corps_world(), "girard", "", "initiative", p).reason
    p = gda_params(french_initiative=True)
    assert check_task(corps_world(), "girard", "", "initiative", p, adcs=2, year=1806).reason == ""
    assert "at most 2" in check_task(corps_world(), "girard", "", "initiative", p, adcs=3).reason
    assert "1805-1812" in check_task(corps_world(), "girard", "", "initiative", p, adcs=1, year=1813).reason
    assert "French" in check_task(corps_world(nation="Prussia"), "girard", "", "initiative", p).reason


# -- initiative --------------------------------------------------------------------------------
def two_sides(hesitant_french: int = 0, turn: int = 1, holder: str | None = None):
    cs, us, edges = [], [], []
    for side in ("allies", "french"):
        for i in range(2):
            st = {"state": "hesitant", "state_turn": turn} if side == "french" and i < hesitant_french else {}
            c, u, e = brigade(f"{side}-b{i}", [unit(f"{side}-u{i}", side=side)], side=side, **st)
            cs.append(c), us.extend(u), edges.extend(e)
    flags = {"initiative:holder": holder} if holder else {}
    return world(cs, us, edges, turn=turn, flags=flags)


def test_initiative_minus_one_per_hesitant_brigade_higher_total_wins():
    res = roll_initiative(
        two_sides(hesitant_french=2),
        ("allies", "french"),
        gda_params(),
        dice(("gda-initiative:allies:t1", (3, 4)), ("gda-initiative:french:t1", (4, 4))),
    )
    assert [r.total for r in res.rolls] == [7, 6] and res.side == "allies"
    assert "-1 french-b0 hesitant" in res.rolls[1].explain()


def test_initiative_tie_keeps_the_previous_holder_and_turn_one_rolls_off():
    res = roll_initiative(
        two_sides(turn=3, holder="french"),
        ("allies", "french"),
        gda_params(),
        dice(("gda-initiative:allies:t3", (5, 2)), ("gda-initiative:french:t3", (1, 6))),
    )
    assert res.side == "french" and "keeps it" in res.explanation
    res = roll_initiative(
        two_sides(),
        ("allies", "french"),
        gda_params(),
        dice(
            ("gda-initiative:allies:t1", (5, 2)),
            ("gda-initiative:french:t1", (1, 6)),
            ("gda-initiative-rolloff:allies:t1:1", (4,)),
            ("gda-initiative-rolloff:french:t1:1", (4,)),
            ("gda-initiative-rolloff:allies:t1:2", (2,)),
            ("gda-initiative-rolloff:french:t1:2", (6,)),
        ),
    )
    assert res.side == "french" and "roll-off 6 to 2" in res.explanation


def test_girards_initiative_adc_adds_one():
    from battlestudio.replay.order_events import OrderWritten

    state = two_sides()
    state = state.evolve(commanders={**state.commanders, "girard": general("girard", echelon="corps", adcs=3)})
    state = OrderWritten(
        1,
        "french",
        "adc",
        order_id="i1",
        issuer="girard",
        recipient="",
        order_type="initiative",
        parameters={"ruleset": "gda", "adcs": 1},
        cost=1,
    ).apply(state)
    res = roll_initiative(
        state,
        ("allies", "french"),
        gda_params(french_initiative=True),
        dice(("gda-initiative:allies:t1", (3, 2)), ("gda-initiative:french:t1", (3, 2))),
    )
    assert res.rolls[1].total == 6 and res.side == "french" and "+1 1 Initiative! ADC" in res.rolls[1].explain()


# -- attack declaration: Adam's Light Brigade ----------------------------------------------------
def adam(assault: bool):
    units = [
        unit("52nd", side="british", x=0, y=0, formation=Formation.LINE),
        unit("43rd", side="british", x=16, y=0, formation=Formation.LINE),
        unit("1cac", side="british", x=0, y=-4, formation=Formation.LINE),
    ]
    status = {"tasks": ["infantry_assault"]} if assault else {}
    c, us, e = brigade("adam", units, side="british", y=-8, **status)
    french = [unit("col1", side="french", x=0, y=12, facing=270), unit("col2", side="french", x=40, y=12, facing=270)]
    return world([c], us + french, e, side="british")


def test_example_adam_without_assault_one_battalion_attacks_and_may_not_be_supported():
    state, p = adam(False), gda_params(**MOVE)
    first = check_attack(state, Declaration("52nd", "col1"), p)
    assert first.legal, first.explain()
    second = check_attack(state, Declaration("43rd", "col2"), p, declared=[first.declaration])
    assert not second.legal and "only one battalion" in second.explain()
    supported = check_attack(state, Declaration("52nd", "col1", supports=("43rd", "1cac")), p)
    assert "restriction 3" in supported.explain()
    assert supported.supports["43rd"].startswith("refused") and "Infantry Assault!" in supported.supports["1cac"]


def test_example_adam_with_assault_all_may_attack_and_support():
    state, p = adam(True), gda_params(**MOVE)
    first = check_attack(state, Declaration("52nd", "col1", supports=("43rd", "1cac")), p)
    assert first.legal, first.explain()
    assert first.supports == {"43rd": "right", "1cac": "rear"}
    assert check_attack(state, Declaration("43rd", "col2"), p, declared=[first.declaration]).legal


def test_attack_refusals_name_their_rule():
    state, p = adam(False), gda_params(**MOVE)
    assert "normal_move_cm.infantry" in str(
        pytest.raises(MissingParameterError, check_attack, state, Declaration("52nd", "col1"), gda_params()).value
    )
    far = state.with_unit(unit("far", side="french", x=0, y=60, facing=270))
    assert "restrictions 1 and 16" in check_attack(far, Declaration("52nd", "far"), p).explain()
    hes = state.evolve(flags={"gda:adam": {"state": "hesitant", "state_turn": 1}})
    assert "restriction 6" in check_attack(hes, Declaration("52nd", "col1"), p).explain()
    unformed = state.with_unit(unit("52nd", side="british", state="unformed", formation=Formation.LINE))
    assert "restriction 2" in check_attack(unformed, Declaration("52nd", "col1"), p).explain()
    cav = state.with_unit(unit("col1", side="french", x=0, y=12, facing=270, arm=Arm.CAVALRY))
    assert "restriction 7" in check_attack(cav, Declaration("52nd", "col1"), p).explain()
    flanking = state.with_unit(unit("hus", side="french", x=31, y=-1, facing=180, arm=Arm.CAVALRY, figures=6))
    assert "restriction 4" in check_attack(flanking, Declaration("43rd", "col2"), p).explain()
    far_brigadier = state.evolve(commanders={**state.commanders, "adam": general("adam", side="british", y=-60)})
    assert "beyond his 30 cm" in check_attack(far_brigadier, Declaration("52nd", "col1"), p).explain()


def test_imperial_measurement_uses_the_inch_column():
    p = gda_params(measurement="imperial", **MOVE)
    state = adam(False).evolve(commanders={"adam": general("adam", side="british", y=-40)})
    # 18" = 45.72 cm reaches a unit 40 cm away; 30 cm would not
    assert "beyond" not in check_attack(state, Declaration("52nd", "col1"), p).explain()


# -- supports and modifiers -----------------------------------------------------------------------
def test_support_rerolls_at_minus_one_never_below_one():
    p = gda_params()
    assert support_reroll_penalty(unit("r", quality="recruit"), p) == -1
    assert support_reroll_penalty(unit("v", quality="veteran"), p) == 0
    assert support_reroll_penalty(unit("v", quality="veteran", state="unformed"), p) == -1
    assert rerolled_die(1, -1) == 1 and rerolled_die(4, -1) == 3


def test_attack_modifiers_of_the_leading_unit():
    p = gda_params()
    c, us, e = brigade("b", [unit("gren", quality="line", general_attached=True, damage=4)], state="hesitant")
    state = world([c], us, e)
    mods = attack_modifiers(state, state.units["gren"], AttackSituation(True, unit("x", side="allies")), p)
    assert [(m.value, m.source) for m in mods] == [
        (1, "Veteran (general attached)"),
        (1, "attacking"),
        (-1, "unit damage 4 (≥ 4)"),
        (-1, "brigade Hesitant"),
    ]
    rec = unit("rec", quality="recruit", formation=Formation.LINE)
    hus = unit("hus", side="allies", arm=Arm.CAVALRY)
    mods = attack_modifiers(
        world([], [rec, hus], []),
        rec,
        AttackSituation(False, hus, damage_in_attack=2, flanked=True, attacked_in_flank_or_rear=True),
        p,
    )
    assert sum(m.value for m in mods) == -1 - 2 - 1 - 4
    elite = unit("el", quality="elite", general_attached=True)
    m = attack_modifiers(world([], [elite], []), elite, AttackSituation(False, hus, damage_in_attack=2), p)
    assert [x.value for x in m] == [2, 2]  # general on Elite stays +2; 2 damage does not count for Elite


# -- one full command phase through the Protocol ----------------------------------------------------
def test_full_command_phase_end_to_end_and_replay():
    cs = [
        general("girard", echelon="corps", adcs=3),
        general("dullitz", side="allies", echelon="corps", nation="Prussia", adcs=2),
    ]
    us, edges = [], [("girard", "fb1"), ("girard", "fb2"), ("dullitz", "ab1")]
    for bid, side, x in (("fb1", "french", 0), ("fb2", "french", 40), ("ab1", "allies", 20)):
        c, u, e = brigade(
            bid, [unit(f"{bid}-1", side=side, x=x), unit(f"{bid}-2", side=side, x=x + 15)], side=side, x=x
        )
        cs.append(c), us.extend(u), edges.extend(e)
    start = world(cs, us, edges, side="french")
    params = {"adc_cost_forward": 1}

    def play(d):
        state, log = start, []
        for req in (
            OrderRequest("girard", "fb1", "forward"),
            OrderRequest("girard", "fb1", "brigade_attachment"),
            OrderRequest("dullitz", "ab1", "infantry_assault"),
        ):
            out = ruleset.issue_order(state, req, params, d)
            assert out.status == "pending", out.explanation
            state = apply_all(state, out.events)
            log.append(out.explanation)
        for b in ("fb1", "fb2", "ab1"):
            chk = ruleset.command_check(state, b, params, d)
            state = apply_all(state, chk.events)
            log.append(chk.explanation)
        ini = ruleset.initiative(state, params, d)
        log.append(ini.explanation)
        return state, log, ini

    seeded = SeededDice(seed=1806)
    state, log, ini = play(seeded)
    assert state.flags["oas_spent:girard"] == (1, 3)  # Forward! 1 + Brigade Attachment! 2
    assert ini.side in ("french", "allies") and all(r.explain() for r in ini.rolls)
    assert all(s for s in log)
    replayed = play(ReplayDice(seeded.drawn))
    assert replayed[1] == log and replayed[0].flags == state.flags
    fb1 = ruleset.brigade_restrictions(state, "fb1")
    assert isinstance(fb1, tuple)
    findings = ruleset.out_of_command(state, params, side="french")
    assert {f.subject for f in findings} == {"fb1-1", "fb1-2", "fb2-1", "fb2-2"} and all(f.within for f in findings)
    assert ruleset.command_reach(state, "fb1", params).radius == 30
    assert Fraction(8, 9) == Fraction(
        ruleset.command_check(
            start.evolve(orders=state.orders), "fb1", params, ReplayDice([("gda-command:fb1:t1", (6,))])
        ).flags["odds"]
    )
