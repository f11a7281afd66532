"""Issue 17's remaining fixes for General d'Armée (D-5, D-7, D-9, D-11, D-12, D-14, D-15; D-10 is
the rewritten case ``gda_cases/support-prohibitions-zh-and-k``): each test pins the seed's
reading (seed 002) and fails on the reading it replaces. D-15: every "assumed" parameter of
``gda.toml`` changes behaviour when a scenario overrides it (``ASSUMED`` names the test)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from shapely.geometry import LineString, box

from battlestudio.model.orders import Order, OrderStatus
from battlestudio.model.terrain import TerrainFeature, TerrainKind
from battlestudio.model.units import Arm, Formation, Subtype
from battlestudio.rules.dice import ReplayDice
from battlestudio.rules.gda.adc import adc_sender_of, adcs_left
from battlestudio.rules.gda.attacks import Declaration, check_attack, check_support
from battlestudio.rules.gda.brigades import CommandState, Grade, brigade_quality, demoralised_now, grade_of
from battlestudio.rules.gda.command import command_roll, end_of_turn
from battlestudio.rules.gda.geometry import battery_exempt, must_retire_on_rally
from battlestudio.rules.gda.initiative import initiative_modifiers, roll_initiative
from battlestudio.rules.gda.modifiers import AttackSituation, attack_modifiers
from battlestudio.rules.params import RuleRefused
from dataclasses import replace

from gda_world import brigade, dice, gda_params, general, unit, world

ROOT = Path(__file__).resolve().parents[2]
MOVE = {"normal_move_cm.infantry": 15, "normal_move_cm.cavalry": 30}
ASSAULT = {"state": "steady", "tasks": ["infantry_assault"]}


def apply_all(state, events):
    for e in events:
        state = e.apply(state)
    return state


def line(uid, x=0.0, y=0.0, facing=90.0, side="french", **kw):
    return unit(uid, side=side, x=x, y=y, facing=facing, formation=Formation.LINE, **kw)


def attack_with_left_support(target_at=(0.0, 12.0)):
    """fb leads, s stands 5 cm to its left, enemy t opposite; brigade b has Infantry Assault!."""
    lead, s = line("lead"), line("s", x=-17)
    t = line("t", side="austrian", x=target_at[0], y=target_at[1], facing=270)
    c, us, e = brigade("b", [lead, s], **ASSAULT)
    return world([c], us + [t], e)


# -- D-5: prohibition В ------------------------------------------------------------------------
TOWN = TerrainFeature("town", TerrainKind.BUILT_UP, box(-10, 8, 10, 20), name="Elchingen")


def test_d5_no_support_against_a_settlement():
    """В: «атакует или обороняет населенный пункт или опорный пункт» — the target stands in a
    built-up area; the same target in the open may be supported."""
    st, p = attack_with_left_support(), gda_params(**MOVE)
    lead, t = st.units["lead"], st.units["t"]
    assert check_support(st, lead, t, "s", p) == "left"
    verdict = check_support(st, lead, t, "s", p, terrain=[TOWN])
    assert verdict.startswith("refused: В") and "Elchingen" in verdict


def test_d5_no_support_for_a_defender_holding_a_settlement_or_a_garrison():
    st, p = attack_with_left_support(), gda_params(**MOVE)
    lead, t = st.units["lead"], st.units["t"]
    town = TerrainFeature("v", TerrainKind.BUILT_UP, box(-8, -4, 8, 1), name="Unterelchingen")
    assert check_support(st, lead, t, "s", p, defending=True) == "left"
    assert check_support(st, lead, t, "s", p, defending=True, terrain=[town]).startswith("refused: В")
    garrison = st.evolve(units={**st.units, "t": replace(st.units["t"], attributes={"garrison": True})})
    assert check_support(garrison, lead, garrison.units["t"], "s", p).startswith("refused: В")


def test_d5_settlement_terrain_is_an_assumed_list():
    st = attack_with_left_support()
    lead, t = st.units["lead"], st.units["t"]
    assert check_support(st, lead, t, "s", gda_params(settlement_terrain=[]), terrain=[TOWN]) == "left"


# -- D-7: restriction 10 -----------------------------------------------------------------------
def cavalry_charge():
    hus = unit("hus", arm=Arm.CAVALRY, figures=8, formation=Formation.LINE, x=0, y=0)
    tgt = line("tgt", side="austrian", x=0, y=25, facing=270)
    c, us, e = brigade("cb", [hus], x=0, y=-5)
    return world([c], us + [tgt], e)


WALL = TerrainFeature("w", TerrainKind.WALL, LineString([(-20, 12), (20, 12)]), name="park wall")


def test_d7_cavalry_may_not_charge_across_a_high_wall_in_its_path():
    """«через высокие стены»: the wall lies 12 cm ahead, nowhere near the target (25 cm): the
    charge is refused; a low wall (property low) does not stop it."""
    st, p = cavalry_charge(), gda_params(**MOVE)
    d = Declaration("hus", "tgt")
    assert check_attack(st, d, p).legal
    text = check_attack(st, d, p, [WALL]).explain()
    assert "restriction 10" in text and "across a high wall (park wall)" in text
    low = TerrainFeature("w", TerrainKind.WALL, WALL.geometry, properties={"low": True})
    assert check_attack(st, d, p, [low]).legal
    aside = TerrainFeature("w2", TerrainKind.WALL, LineString([(40, 12), (60, 12)]))
    assert check_attack(st, d, p, [aside]).legal


def test_d7_broken_ground_and_woods_in_the_path():
    """«в лес, пересеченную местность»: broken ground is any feature with property broken."""
    st, p = cavalry_charge(), gda_params(**MOVE)
    d = Declaration("hus", "tgt")
    broken = TerrainFeature("vy", TerrainKind.HILL, box(-3, 8, 3, 14), name="vineyards", properties={"broken": True})
    assert "into or through broken ground (vineyards)" in check_attack(st, d, p, [broken]).explain()
    woods = TerrainFeature("wd", TerrainKind.WOODS, box(-3, 8, 3, 14))
    assert "into or through woods" in check_attack(st, d, p, [woods]).explain()
    infantry = st.evolve(units={**st.units, "hus": replace(st.units["hus"], arm=Arm.INFANTRY)})
    assert "restriction 10" not in check_attack(infantry, d, p, [broken, woods]).explain()


def test_d7_cavalry_terrain_lists_are_assumed():
    st = cavalry_charge()
    d = Declaration("hus", "tgt")
    woods = TerrainFeature("wd", TerrainKind.WOODS, box(-3, 8, 3, 14))
    assert check_attack(st, d, gda_params(cavalry_no_attack_across=[], **MOVE), [WALL]).legal
    assert check_attack(st, d, gda_params(cavalry_no_attack_into=[], **MOVE), [woods]).legal


# -- D-9: prohibition Г measured from the target ---------------------------------------------
def test_d9_an_enemy_within_5_cm_of_the_target_is_involved_in_the_attack():
    """Г: «не вовлеченного в атаку (т.е. не находящегося в 5см[3"] дистанции поддержки)». The
    enemy 12 cm in front of the support stands 5 cm from the target (its flank support): it is
    involved, the support stands. It is 13 cm from the leader, so measuring from the leader
    refused it. 18 cm from the target it is not involved, and the support is refused."""
    st, p = attack_with_left_support(), gda_params(**MOVE)
    lead, t = st.units["lead"], st.units["t"]
    e = line("e", side="austrian", x=-17, y=12, facing=270)
    near = st.evolve(units={**st.units, "e": e})
    assert check_support(near, lead, t, "s", p) == "left"
    far = st.evolve(units={**st.units, "e": replace(e, position=(-30.0, 12.0))})
    verdict = check_support(far, lead, t, "s", p)
    assert verdict.startswith("refused: Г — enemy e not involved in the attack (more than 5 cm from t)")


# -- D-12: the exception to prohibition З ------------------------------------------------------
def faltering_pair(second_x=13.0):
    """Two adjacent battalions of a Faltering brigade, one French battalion attacking d1 with
    its frontage over both."""
    d1, d2 = line("d1", side="austrian", y=10, facing=270), line("d2", side="austrian", x=second_x, y=10, facing=270)
    c, us, e = brigade("ab", [d1, d2], side="austrian", y=30, state="faltering")
    a = line("a", x=6)
    return world([c], us + [a], e)


def test_d12_one_attacker_on_two_adjacent_faltering_defenders_gets_a_support():
    """З: «Исключение: когда одно атакующее подразделение проводит прямую атаку против двух
    соседних обороняющихся подразделений Дрогнувшей Бригады, одно из двух автоматически
    присоединяется в качестве поддержки»."""
    st, p = faltering_pair(), gda_params()
    d1, a = st.units["d1"], st.units["a"]
    assert check_support(st, d1, a, "d2", p, defending=True).startswith("refused: З")
    assert check_support(st, d1, a, "d2", p, defending=True, single_attacker=True) in ("left", "right")
    apart = faltering_pair(second_x=30.0)  # not adjacent and not in the attacker's frontage
    assert check_support(apart, apart.units["d1"], a, "d2", p, defending=True, single_attacker=True).startswith(
        "refused: З"
    )


# -- D-14: quality guard --------------------------------------------------------------------
def test_d14_guard_quality_is_elite_with_the_guard_damage_threshold():
    """«Урон подразделения 4+/8+ (10+ если Гвардия или Крупное)»: a guard unit with 8 damage
    takes -1, not -2; it is Elite (+2)."""
    g = line("g", quality="guard", damage=8)
    enemy = line("en", side="austrian", y=5, facing=270)
    c, us, e = brigade("gb", [g])
    st, p = world([c], us + [enemy], e), gda_params()
    assert grade_of(g, p) is Grade.ELITE
    mods = {m.source: m.value for m in attack_modifiers(st, g, AttackSituation(True, enemy), p)}
    assert mods["unit damage 8 (≥ 4)"] == -1 and "unit damage 8 (≥ 10)" not in mods
    line_unit = replace(g, quality="elite")
    st2 = st.evolve(units={**st.units, "g": line_unit})
    mods = {m.source: m.value for m in attack_modifiers(st2, line_unit, AttackSituation(True, enemy), p)}
    assert mods["unit damage 8 (≥ 8)"] == -2


# -- D-11: how long ADC tasks last -------------------------------------------------------------
def tasked_brigade(turn=2):
    corps = general("corps", echelon="corps", y=-60, adcs=3)
    c, us, e = brigade("b", [line("u1")], state="steady", tasks=["forward", "brigade_attachment"])
    st = world([corps, c], us, e + [("corps", "b")], turn=turn)
    orders = {
        "o1": Order("o1", "corps", "b", "forward", status=OrderStatus.DELIVERED, turn_issued=1),
        "o2": Order("o2", "corps", "b", "brigade_attachment", status=OrderStatus.DELIVERED, turn_issued=1),
    }
    return st.evolve(orders=orders)


def test_d11_tasks_end_with_their_turn_and_the_adcs_come_back():
    """Assumed ``adc_task_duration = "turn"``: example Б sends Assault! again the next turn; at
    the end of the turn Forward! and Brigade Attachment! end, the supply is whole again, and
    the next command roll has no attached ADC's reroll."""
    p = gda_params(adc_cost_forward=1)
    st = tasked_brigade()
    assert adcs_left(st, "corps", p) == 3
    after = apply_all(st, end_of_turn(st, p))
    assert list(after.flags["gda:b"]["tasks"]) == []
    nxt = after.evolve(turn=3)
    res = command_roll(nxt, "b", p, dice(("gda-command:b:t3", (2,))))
    assert not res.obeys and not res.rolls[1:]  # no reroll: the attached ADC went home


def test_d11_standing_tasks_keep_their_adcs_out_of_the_supply():
    p = gda_params(adc_cost_forward=1, adc_task_duration="standing")
    st = tasked_brigade()
    assert adcs_left(st, "corps", p) == 0  # Forward! 1 + Brigade Attachment! 2 stand with the brigade
    after = apply_all(st, end_of_turn(st, p))
    assert after.flags.get("gda:b") is None or list(after.flags["gda:b"]["tasks"]) == ["forward", "brigade_attachment"]
    res = command_roll(
        after.evolve(turn=3), "b", p, dice(("gda-command:b:t3", (2,)), ("gda-command-reroll:b:t3", (3,)))
    )
    assert res.obeys  # Girard's reroll, the ADC still attached


# -- D-15: the other assumed parameters --------------------------------------------------------
def three_of_five_dispersed(quality="line", survivors=2):
    units = [line(f"u{i}", x=15 * i, quality=quality) for i in range(survivors)]
    c, us, e = brigade("b", units)
    return world([c], us, e + [("b", "gone1"), ("b", "gone2"), ("b", "gone3")])


def test_demoralised_counts_original_units():
    """3 dispersed of 5 is more than half; with 2 of 4 it is not — unless counted against the
    units remaining (2 dispersed against 2 left)."""
    st = three_of_five_dispersed()
    assert demoralised_now(st, "b", gda_params())[0]
    two = world(
        [general("b", x=0, y=-10)],
        [line("u0"), line("u1", x=15)],
        [("b", "u0"), ("b", "u1"), ("b", "gone1"), ("b", "gone2")],
    )
    assert not demoralised_now(two, "b", gda_params())[0]
    assert demoralised_now(two, "b", gda_params(demoralised_counts_original_units=False))[0]


def test_elite_brigade_by_average_quality():
    """2 Elite + 1 Veteran survivors of a brigade whose dispersed grades are unknown: Elite by
    the averaged quality; not Elite when every unit must be."""
    units = [line("e1", quality="elite"), line("e2", x=15, quality="elite"), line("v", x=30, quality="veteran")]
    c, us, e = brigade("b", units, dispersed_grades=["elite", "elite", "elite", "elite"])
    st = world([c], us, e + [("b", f"g{i}") for i in range(4)])
    assert not demoralised_now(st, "b", gda_params())[0]
    assert demoralised_now(st, "b", gda_params(elite_brigade_by_average_quality=False))[0]


def test_quality_average_rule():
    units = [line("a", quality="elite"), line("b2", x=15, quality="elite"), line("c", x=30), line("d", x=45)]
    c, us, e = brigade("b", units)
    st = world([c], us, e)
    assert brigade_quality(st, "b", gda_params()) is Grade.ELITE
    assert brigade_quality(st, "b", gda_params(quality_average="lower_median")) is Grade.LINE


def test_quality_counts_skirmishers_and_artillery():
    units = [line("l"), unit("sk", quality="elite", subtype=Subtype.SKIRMISHERS, x=20)]
    c, us, e = brigade("b", units)
    st = world([c], us, e)
    assert brigade_quality(st, "b", gda_params()) is Grade.LINE
    assert brigade_quality(st, "b", gda_params(quality_counts_skirmishers_and_artillery=True)) is Grade.ELITE


def test_quality_aliases():
    u = line("u", quality="grenadier")
    with pytest.raises(RuleRefused, match="grenadier"):
        grade_of(u, gda_params())
    aliases = dict(gda_params().get("quality_aliases"), grenadier="veteran")
    assert grade_of(u, gda_params(quality_aliases=aliases)) is Grade.VETERAN


def test_faltering_adc_reroll():
    """A Faltering Line brigade with Brigade Attachment! rolls 3 (Retreat): no reroll by
    default (Ambiguity 1); with the reroll a 5 obeys."""
    c, us, e = brigade("b", [line("l1"), line("l2", x=15)], state="faltering", tasks=["brigade_attachment"])
    st = world([c], us, e)
    res = command_roll(st, "b", gda_params(), dice(("gda-faltering:b:t1", (3,))))
    assert res.status.state is CommandState.FALTERING and len(res.rolls) == 1
    res = command_roll(
        st,
        "b",
        gda_params(faltering_adc_reroll=True),
        dice(("gda-faltering:b:t1", (3,)), ("gda-faltering-reroll:b:t1", (5,))),
    )
    assert res.obeys and len(res.rolls) == 2


def test_battery_exemption_mode():
    units = [
        line("l1"),
        unit("fa", arm=Arm.ARTILLERY, subtype=Subtype.FOOT_ARTILLERY, x=5, y=-35, formation="unlimbered"),
    ]
    c, us, e = brigade("b", units)
    st = world([c], us, e)
    assert battery_exempt(st, "b", st.units["fa"], gda_params())[0]
    assert not battery_exempt(st, "b", st.units["fa"], gda_params(battery_exemption_mode="within"))[0]


def test_rally_retire_enemy_only():
    c, us, e = brigade("b", [line("l1"), line("l2", x=15)])
    friend = line("f", x=0, y=10)
    st = world([c], us + [friend], e)
    assert must_retire_on_rally(st, "b", gda_params()) == ()
    assert set(must_retire_on_rally(st, "b", gda_params(rally_retire_enemy_only=False))) == {"l1", "l2"}


def test_adc_senders():
    div = general("div", echelon="division", y=-40)
    c, us, e = brigade("b", [line("u")])
    st = world([div, c], us, e + [("div", "b")])
    assert adc_sender_of(st, "b", gda_params()) is None
    assert adc_sender_of(st, "b", gda_params(adc_senders=["division"])) == "div"


def test_initiative_count_brigade_once():
    """A brigade that rallied this turn is Faltering and Hesitant: -1 once (Ambiguity 15), -2
    when each state counts."""
    c, us, e = brigade("b", [line("u")], state="faltering")
    st = world([c], us, e)
    res = command_roll(st, "b", gda_params(), dice(("gda-faltering:b:t1", (4,))))  # Line, 4: Rally
    after = apply_all(st, res.events)
    assert [m.value for m in initiative_modifiers(after, "french", gda_params())] == [-1]
    assert [
        m.value for m in initiative_modifiers(after, "french", gda_params(initiative_count_brigade_once=False))
    ] == [-2]


def test_initiative_repeat_tie_reroll():
    st = world([], [], [])
    faces = [
        ("gda-initiative:french:t1", (3, 4)),
        ("gda-initiative:austrian:t1", (5, 2)),
        ("gda-initiative-rolloff:french:t1:1", (2,)),
        ("gda-initiative-rolloff:austrian:t1:1", (2,)),
        ("gda-initiative-rolloff:french:t1:2", (6,)),
        ("gda-initiative-rolloff:austrian:t1:2", (1,)),
    ]
    assert roll_initiative(st, ("french", "austrian"), gda_params(), ReplayDice(faces)).side == "french"
    with pytest.raises(RuleRefused, match="tied again"):
        roll_initiative(st, ("french", "austrian"), gda_params(initiative_repeat_tie_reroll=False), ReplayDice(faces))


def test_blocking_terrain():
    st, p = attack_with_left_support(), gda_params()
    lead, t = st.units["lead"], st.units["t"]
    hedge = TerrainFeature("h", TerrainKind.HEDGE, LineString([(-8.5, -5), (-8.5, 2)]))
    assert check_support(st, lead, t, "s", p, terrain=[hedge]).startswith("refused: К")
    assert check_support(st, lead, t, "s", gda_params(blocking_terrain=[]), terrain=[hedge]) == "left"


def test_support_facing_tolerance_deg():
    st = attack_with_left_support()
    turned = st.evolve(units={**st.units, "s": replace(st.units["s"], facing=105.0)})
    lead, t = turned.units["lead"], turned.units["t"]
    assert check_support(turned, lead, t, "s", gda_params()).startswith("refused: not on a flank")
    assert check_support(turned, lead, t, "s", gda_params(support_facing_tolerance_deg=20)) == "left"


ASSUMED = {
    "measurement": "tests/rules/test_gda_rules.py",
    "faltering_adc_reroll": "test_faltering_adc_reroll",
    "demoralised_counts_original_units": "test_demoralised_counts_original_units",
    "elite_brigade_by_average_quality": "test_elite_brigade_by_average_quality",
    "quality_average": "test_quality_average_rule",
    "quality_counts_skirmishers_and_artillery": "test_quality_counts_skirmishers_and_artillery",
    "quality_aliases": "test_quality_aliases",
    "battery_exemption_mode": "test_battery_exemption_mode",
    "rally_retire_enemy_only": "test_rally_retire_enemy_only",
    "rallied_unit_state": "tests/rules/test_gda_actions.py",
    "adc_senders": "test_adc_senders",
    "brigade_leaders": "tests/test_session_phase_steps.py",
    "adc_cost_infantry_assault": "tests/rules/test_gda_fixes.py",
    "adc_cost_forward_plus_attachment": "tests/rules/test_gda_fixes.py",
    "adc_task_duration": "test_d11_standing_tasks_keep_their_adcs_out_of_the_supply",
    "french_initiative": "tests/rules/test_gda_rules.py",
    "initiative_count_brigade_once": "test_initiative_count_brigade_once",
    "initiative_repeat_tie_reroll": "test_initiative_repeat_tie_reroll",
    "blocking_terrain": "test_blocking_terrain",
    "cavalry_no_attack_into": "test_d7_cavalry_terrain_lists_are_assumed",
    "cavalry_no_attack_across": "test_d7_cavalry_terrain_lists_are_assumed",
    "settlement_terrain": "test_d5_settlement_terrain_is_an_assumed_list",
    "support_facing_tolerance_deg": "test_support_facing_tolerance_deg",
    "fire_damage_split": "tests/rules/test_gda_actions.py",
    "fire_support_arc": "tests/rules/test_gda_attack_steps.py",
    "evade_direction": "tests/rules/test_gda_attack_steps.py",
    "wheel_short": "tests/rules/test_gda_attack_steps.py",
}
"""Every assumed parameter of gda.toml → the test (here, or the file) whose override changes
behaviour."""


def test_every_assumed_parameter_has_an_override_test():
    rules = tomllib.loads((ROOT / "resources" / "rulesets" / "gda.toml").read_text(encoding="utf-8"))["rules"]
    assumed = {k for k, v in rules.items() if v.get("status") == "assumed"}
    assert assumed == set(ASSUMED), f"assumed without a test: {sorted(assumed - set(ASSUMED))}"
    for key, where in ASSUMED.items():
        if where.startswith("tests/"):
            assert key in (ROOT / where).read_text(encoding="utf-8"), f"{key} not overridden in {where}"
        else:
            assert callable(globals().get(where)), f"{key}: no test {where}"


# -- the seed's support examples -----------------------------------------------------------------
def test_support_example_1_two_columns_on_the_flanks_and_one_directly_behind():
    """Support example 1 (ПОДДЕРЖКА АТАКИ, «Пример»): two columns behind and to the sides of the
    leading column, each within 5 cm [3"] of it, are its left and right flank supports; a column
    directly behind is its rear support. Columns are 8 cm wide and 4.5 cm deep."""
    lead = unit("lead", y=0)
    left, right = unit("l", x=-12, y=-2), unit("r", x=12, y=-2)  # 4 cm gap each side, 2 cm further back
    rear = unit("rr", y=-8)  # 3.5 cm behind, squarely behind the leader
    t = unit("t", side="russian", y=14, facing=270)
    c, us, e = brigade("b", [lead, left, right, rear], **ASSAULT)
    st, p = world([c], us + [t], e), gda_params(**MOVE)
    chk = check_attack(st, Declaration("lead", "t", ("l", "r", "rr")), p)
    assert chk.legal and chk.supports == {"l": "left", "r": "right", "rr": "rear"}
    wide = world([c], [lead, unit("l", x=-14.5, y=-2), right, rear, t], e)  # 6.5 cm off: beyond 5 cm
    assert check_attack(wide, Declaration("lead", "t", ("l",)), p).supports["l"].startswith("refused")


def test_support_example_2_the_russian_brigade_unit_3_has_a_french_unit_to_its_front():
    """Support example 2: Russian unit 1 leads, units 2 and 3 are named as supports; a French
    unit not involved in the attack stands directly in front of unit 3 (prohibition Г), so only
    unit 2 supports."""
    u1, u2, u3 = (line(f"r{i}", side="russian", x=x) for i, x in ((1, 0.0), (2, -17.0), (3, 17.0)))
    target = line("fr-t", x=0, y=14, facing=270, side="french")
    blocker = line("fr-x", x=30, y=12, facing=270, side="french")  # 13 cm from the target: not involved
    c, us, e = brigade("rb", [u1, u2, u3], side="russian", **ASSAULT)
    st = world([c], us + [target, blocker], e, side="russian")
    chk = check_attack(st, Declaration("r1", "fr-t", ("r2", "r3")), gda_params(**MOVE))
    assert chk.supports["r2"] == "left"
    assert chk.supports["r3"].startswith("refused: Г — enemy fr-x not involved in the attack")


# -- several separate attacks on one target ------------------------------------------------------
def test_several_attacks_on_one_target_defender_rolls_once_and_the_best_counts():
    """ТАБЛИЦА «РЕЗУЛЬТАТЫ АТАКИ»: «Несколько отдельных атак на одну цель»: Villatte and Roguet
    attack the avant-garde separately (Infantry Assault!); each rolls with its own modifiers,
    the defender rolls once (his 4 + 3 stands against both), the best difference is applied to
    every attacker and the worst is ignored."""
    from battlestudio.rules.actions import ActionRequest
    from test_gda_actions import TARGET, ScriptedDice, elchingen, session_at

    a1, a2 = "french-bde-villatte", "french-bde-roguet"
    battle = elchingen(**{a2: {"position": (124.0, 32.0)}})
    base = f"gda-attack:{{}}:{TARGET}:t1"
    dice = ScriptedDice(
        {
            f"{base.format(a1)}:attacker": [(2, 3)],
            f"{base.format(a1)}:defender": [(4, 3)],
            f"{base.format(a2)}:attacker": [(6, 4)],
            f"{base.format(a2)}:defender": [(1, 1)],  # never asked: the defender rolled once
        }
    )
    s = session_at("attack-declaration", battle, dice)
    for a in (a1, a2):
        out = s.act(ActionRequest("declare_attack", a, {"target": TARGET}))
        assert out.status == "resolved", out.explanation
    s.advance_to("attacks", side="french")
    assert s.act(ActionRequest("attack", a1, {"reroll_below": 0})).status == "resolved"
    (spec,) = [x for x in s.actions(a1) if x.id == "attack_result"]
    assert spec.unavailable.startswith(f"roll every attack on {TARGET} first ({a2})")
    out = s.act(ActionRequest("attack", a2, {"reroll_below": 0}))
    assert "the defender rolled once (7" in out.explanation
    assert f"{base.format(a2)}:defender" not in dice.asked
    flags = s.state.flags
    d1, d2 = flags[f"gda-attack:{a1}"], flags[f"gda-attack:{a2}"]
    assert d1["defender_natural"] == d2["defender_natural"] == 7
    assert d2["difference"] > d1["difference"]  # 10 + mods against 5 + mods
    (spec,) = [x for x in s.actions(a1) if x.id == "attack_result"]
    assert f"{a2}'s attack on {TARGET} is the best" in spec.unavailable
    umpire = {"winner": "attacker", "attacker": "stands", "defender": "retreating", "defender_damage": 1}
    out = s.act(ActionRequest("attack_result", a2, {}, umpire_result=umpire))
    assert out.status == "resolved", out.explanation
    assert f"the best ({a2}'s) counts for {a1} too" in out.explanation
    flags = s.state.flags
    assert flags[f"gda-attack:{a1}"]["stage"] == flags[f"gda-attack:{a2}"]["stage"] == "applied"
    assert s.state.units[TARGET].state == "retreating"
    assert not [x for x in s.actions(a1) if x.id == "attack_result"]


# -- the restrictions and prohibitions no other test pins ----------------------------------------
def test_restrictions_5_8_11_12_and_15():
    """ОГРАНИЧЕНИЯ НА АТАКУ 5 (several attacks from one Combined Column), 8 (a garrison does not
    attack out of its settlement), 11 (infantry and cavalry not on one target), 12 (Company
    Column), 15 (no line of sight and the enemy beyond 15 cm of the attacker and its brigadier)."""
    p = gda_params(**MOVE)
    st = attack_with_left_support(target_at=(0.0, 18.0))
    ok = Declaration("lead", "t")
    assert check_attack(st, ok, p).legal

    def with_lead(**attrs):
        return st.evolve(units={**st.units, "lead": replace(st.units["lead"], attributes=attrs)})

    assert "restriction 8" in check_attack(with_lead(garrison=True), ok, p).explain()
    assert "restriction 12" in check_attack(with_lead(company_column=True), ok, p).explain()
    assert check_attack(with_lead(company_column=True, terrain_forces_column=True), ok, p).legal
    cc = with_lead(combined_column=True)
    assert "restriction 5" in check_attack(cc, ok, p, declared=[Declaration("s", "t")]).explain()
    cav = unit("cav", arm=Arm.CAVALRY, figures=8, formation=Formation.LINE, x=30)
    mixed = st.evolve(units={**st.units, "cav": cav})
    assert "restriction 11" in check_attack(mixed, ok, p, declared=[Declaration("cav", "t")]).explain()
    assert check_attack(st, Declaration("lead", "t", line_of_sight=False), p).explain().count("restriction 15") == 1
    close = attack_with_left_support(target_at=(0.0, 14.0))
    assert check_attack(close, Declaration("lead", "t", line_of_sight=False), p).legal  # within 15 cm: known


def test_support_prohibitions_a_b_d_e_and_i():
    """Запрет на оказание поддержки А (out of the brigadier's 30 cm), Б (another brigade), Д
    (artillery, skirmishers, garrisons, retreating units), Е (square), И (another arm)."""
    p = gda_params(**MOVE)
    st = attack_with_left_support()
    lead, t = st.units["lead"], st.units["t"]
    assert check_support(st, lead, t, "s", p) == "left"

    def verdict(**changes):
        s2 = replace(st.units["s"], **changes)
        return check_support(st.evolve(units={**st.units, "s": s2}), lead, t, "s", p)

    far = st.evolve(commanders={"b": replace(st.commanders["b"], position=(0.0, -45.0))})
    assert check_support(far, lead, t, "s", p).startswith("refused: А")
    assert verdict(state="retreating").startswith("refused: Д")
    assert verdict(arm=Arm.ARTILLERY).startswith("refused: Д")
    assert verdict(formation=Formation.SQUARE).startswith("refused: Е")
    assert verdict(arm=Arm.CAVALRY).startswith("refused: И")
    other = general("b2", y=-10)
    moved = world([st.commanders["b"], other], list(st.units.values()), [("b", "lead"), ("b2", "s")])
    assert check_support(moved, lead, t, "s", p).startswith("refused: Б")
