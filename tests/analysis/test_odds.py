"""Exact odds of command per ruleset (analysis.odds): Torden over Europa per zone with its
modifiers and the next-zone what-if, General d'Armée's chance to obey, Regimental expected
actions; refusals instead of exceptions."""

from __future__ import annotations

from fractions import Fraction

from battlestudio.analysis.odds import order_odds
from battlestudio.rules.odds import pct
from battlestudio.model.oob import OrderOfBattle
from battlestudio.model.units import Commander, Unit
from battlestudio.replay.state import GameState
from tests.analysis import known_game


def known_state() -> GameState:
    return GameState.from_scenario(known_game.scenario())


def test_toe_chances_per_zone_with_the_chiefs_command_ability():
    # d10 read 0-9 (A1) + KE 1 against 4 / 6 / 8: 7/10, 1/2, 3/10
    odds = order_odds(known_state(), "toe", known_game.PARAMS, "french-army", "french-c1")
    assert [r.chance for r in odds.rows] == [Fraction(7, 10), Fraction(1, 2), Fraction(3, 10)]
    assert [r.current for r in odds.rows] == [False, True, False]
    assert odds.zone == 2 and odds.distance == 30.0
    assert odds.modifiers == ((1, "command ability (KE) of France army (2.12)"),)
    assert "zone 2: 50 %" in odds.headline
    assert odds.what_if.startswith("Riding 10.0 cm closer (into zone 1, ≤ 20 cm) raises the chance from 50 % to 70 %")


def test_toe_table1_modifiers_shift_every_zone():
    params = {**known_game.PARAMS, "toe.command_modifiers": {"night": -2}}
    odds = order_odds(known_state(), "toe", params, "french-army", "french-c1")
    assert [r.chance for r in odds.rows] == [Fraction(1, 2), Fraction(3, 10), Fraction(1, 10)]
    assert (-2, "night (scenario Table 1 modifier)") in odds.modifiers


def test_toe_beyond_the_last_zone_and_a_corps_generals_own_order():
    s = known_state()
    params = {**known_game.PARAMS, "toe.zones_cm.army": [20, 40, 60]}
    far = s.with_commander(s.commanders["french-c1"].moved((100.0, 85.0)))
    odds = order_odds(far, "toe", params, "french-army", "french-c1")
    assert odds.zone is None and "no order can be sent" in odds.headline
    assert odds.what_if.startswith("Riding 15.0 cm closer brings France corps into zone 3: 30 %")
    # a corps general's own order to his division is a detachment: the division general's KE counts
    # too (2.12, D5), so the scenario must rate him; with none set the odds say which value is missing
    unrated = order_odds(s, "toe", known_game.PARAMS, "french-c1", "french-d1")
    assert "command_ability.France.division" in unrated.refusal
    rated = {**known_game.PARAMS, "toe.command_ability.France.division": -1}
    own = order_odds(s, "toe", rated, "french-c1", "french-d1")
    assert own.zone == 1 and [r.chance for r in own.rows] == [Fraction(6, 10)]  # KE 1 - 1, needs 4
    assert any("used for detachments (2.12)" in m for _v, m in own.modifiers)


def test_refusals_name_what_is_missing():
    assert (
        "needs scenario parameter 'command_modifiers'"
        in order_odds(known_state(), "toe", {}, "french-army", "french-c1").refusal
    )
    assert "no ruleset" not in order_odds(known_state(), "toe", known_game.PARAMS, "nobody", "x").headline
    assert "nobody" in order_odds(known_state(), "toe", known_game.PARAMS, "nobody", "x").refusal
    assert (
        "known: belle-alliance, gda, regimental, toe" in order_odds(known_state(), "kriegsspiel", {}, "a", "b").refusal
    )


def _gda_state(**status) -> GameState:
    b = Commander(
        "b1",
        "Brigade Ruffin",
        "french",
        "France",
        "brigade",
        (0.0, -10.0),
        attributes={"gda": status} if status else {},
    )
    units = {
        f"u{i}": Unit(
            f"u{i}", f"u{i}", "french", "France", figures=12, quality="line", position=(i * 30.0, 0.0), state="formed"
        )
        for i in range(2)
    }
    return GameState(
        units=units,
        commanders={"b1": b},
        orders={},
        oob=OrderOfBattle([("b1", "u0"), ("b1", "u1")]),
        turn=1,
        side="french",
        phase="command",
    )


def test_gda_chance_to_obey_with_and_without_an_adc():
    odds = order_odds(_gda_state(), "gda", {}, "", "b1")
    assert [r.chance for r in odds.rows] == [Fraction(2, 3), Fraction(8, 9)]  # 3-6 on a D6; reroll a failure
    assert odds.rows[0].current and "66.7 % to obey" in odds.headline
    assert "from 66.7 % to 88.9 %" in odds.what_if
    dem = order_odds(_gda_state(demoralised=True), "gda", {}, "", "b1")
    assert [r.chance for r in dem.rows] == [Fraction(1, 3), Fraction(5, 9)]  # 5-6 when Demoralised


def _regimental_state(div_at: tuple[float, float]) -> GameState:
    hq = Commander("hq", "Kutuzov", "russia", "Russia", "c_in_c", (0.0, 0.0))
    div = Commander("div", "Dokhturov", "russia", "Russia", "division", div_at)
    return GameState(
        units={},
        commanders={"hq": hq, "div": div},
        orders={},
        oob=OrderOfBattle([("hq", "div")]),
        turn=1,
        side="russia",
        phase="activation",
    )


def test_regimental_expected_actions_in_and_out_of_the_hq_zone():
    inside = order_odds(_regimental_state((0.0, 10.0)), "regimental", {}, "hq", "div")
    assert [r.expected for r in inside.rows] == [Fraction(2), Fraction(1)]  # (3+2+1)/3; 1/3·2 + 1/3·1
    assert inside.rows[0].current and "2.00 actions expected" in inside.headline
    outside = order_odds(_regimental_state((0.0, 40.0)), "regimental", {}, "hq", "div")
    assert outside.rows[1].current and "raises it from 1.00 to 2.00" in outside.what_if


def test_pct():
    assert pct(Fraction(1, 2)) == "50 %" and pct(Fraction(8, 9)) == "88.9 %" and pct(None) == "–"
