"""General d'Armée at the table: attacks declared, rolled and resolved through ``GameSession.act``
on the bundled Elchingen scenario, and the brigade states that follow the units (seed 002,
ПРОВЕДЕНИЕ АТАКИ, ДРОГНУВШИЕ, example В)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.combat_events import Melee
from battlestudio.replay.flow_events import OrderStateChanged, UnitRemoved
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.rules import get_ruleset
from battlestudio.rules.actions import ActionRequest
from battlestudio.rules.dice import DiceSpec, SeededDice
from battlestudio.rules.gda.brigades import CommandState, brigade_status
from battlestudio.rules.gda.events import DamageTaken
from battlestudio.rules.gda.melee import natural_distribution
from battlestudio.session import GameSession

ELCHINGEN = Path(__file__).resolve().parents[2] / "scenarios" / "elchingen-1805.battle.json"
MOVES = {"normal_move_cm.infantry": 15, "normal_move_cm.cavalry": 25}
ATTACKER, SUPPORT, TARGET = "french-bde-villatte", "french-bde-roguet", "austrian-avantgarde"
LOUDON, LOISON = "austrian-1st-div", "french-2eme-division"


class ScriptedDice:
    """Faces for the purposes named (each purpose once, in order), seeded faces otherwise."""

    def __init__(self, script: dict[str, list[tuple[int, ...]]], seed: int = 3) -> None:
        self.script = {k: list(v) for k, v in script.items()}
        self.fallback = SeededDice(seed)
        self.asked: list[str] = []

    def roll(self, purpose: str, dice: DiceSpec) -> tuple[int, ...]:
        self.asked.append(purpose)
        if self.script.get(purpose):
            return self.script[purpose].pop(0)
        return self.fallback.roll(purpose, dice)


def elchingen(dullitz: bool = True, loison_tasks: tuple[str, ...] = ("infantry_assault",), **unit_changes):
    """Elchingen with the Austrian avant-garde 13 cm in front of Villatte (Roguet 2.5 cm
    behind him as his rear support). With ``dullitz`` Loudon's brigade is example В's: three
    Line battalions and one Veteran unit (his two cuirassier regiments stand under Hessen-Homburg)."""
    battle = store.load(ELCHINGEN)
    sc = battle.scenario
    sc.units[TARGET] = replace(sc.units[TARGET], position=(110.0, 45.0))
    c = sc.commanders[LOISON]
    sc.commanders[LOISON] = replace(c, attributes={**c.attributes, "gda": {"tasks": list(loison_tasks)}})
    if dullitz:
        for uid in ("austrian-centre-bde-cavalry", "austrian-reserve-bde-cavalry"):
            sc.oob.remove(uid)
            sc.oob.add("austrian-2nd-div", uid)
        sc.units["austrian-avantgarde-cavalry"] = replace(sc.units["austrian-avantgarde-cavalry"], quality="crack")
    for uid, changes in unit_changes.items():
        sc.units[uid] = replace(sc.units[uid], **changes)
    return battle


def session_at(phase: str, battle=None, dice=None, params=None) -> GameSession:
    s = GameSession(
        battle or elchingen(), get_ruleset("gda"), dice=dice or SeededDice(5), params={**MOVES, **(params or {})}
    )
    s.start()
    s.advance_to(phase, side="french")
    return s


def declared(dice=None, params=None, battle=None) -> GameSession:
    s = session_at("attack-declaration", battle, dice, params)
    out = s.act(ActionRequest("declare_attack", ATTACKER, {"target": TARGET, "supports": (SUPPORT,)}))
    assert out.status == "resolved", out.explanation
    s.advance_to("attacks", side="french")
    return s


BASE = f"gda-attack:{ATTACKER}:{TARGET}:t1"


def test_attack_actions_are_offered_only_in_their_phase():
    s = session_at("command")
    assert [a.id for a in s.actions(ATTACKER)] == []
    s.advance_to("attack-declaration", side="french")
    assert [a.id for a in s.actions(ATTACKER)] == ["declare_attack"]
    assert s.actions(TARGET) == []  # not the Austrian player-turn
    s.advance_to("attacks", side="french")
    assert s.actions(ATTACKER) == []  # nothing declared, nothing to roll
    refused = s.act(ActionRequest("declare_attack", ATTACKER, {"target": TARGET}))
    assert refused.status == "refused" and "not offered" in refused.explanation


def test_artillery_is_offered_no_legal_declaration():
    s = session_at("attack-declaration")
    (spec,) = s.actions("french-vi-corps-foot-guns-1")
    assert "restriction 14" in spec.unavailable


def test_a_hesitant_brigade_may_not_declare_restriction_6():
    battle = elchingen()
    c = battle.scenario.commanders[LOISON]
    battle.scenario.commanders[LOISON] = replace(c, attributes={"gda": {"state": "hesitant", "state_turn": 1}})
    s = session_at("attack-declaration", battle)
    req = ActionRequest("declare_attack", ATTACKER, {"target": TARGET})
    assert not s.preview_action(req).legal
    out = s.act(req)
    assert out.status == "refused" and "restriction 6" in out.explanation
    assert not any(isinstance(e, CommandStateChanged) and e.state == "gda-attack" for e in s.battle.events)


def test_a_supported_infantry_attack_needs_infantry_assault():
    s = session_at("attack-declaration", elchingen(loison_tasks=()))
    out = s.act(ActionRequest("declare_attack", ATTACKER, {"target": TARGET, "supports": (SUPPORT,)}))
    assert out.status == "refused" and "Infantry Assault" in out.explanation


def test_the_attack_odds_are_exact_before_the_roll():
    """ПРОВЕДЕНИЕ АТАКИ 9: both sides roll 2D6 and add the leading units' modifiers."""
    s = declared()
    p = s.preview_action(ActionRequest("attack", ATTACKER, {"reroll_below": 0}))
    assert p.legal
    # Villatte: Veteran +1, attacking +1; the avant-garde: Line 0 (Модификаторы атаки)
    assert "+1 Veteran" in p.explanation and "+1 attacking" in p.explanation
    faces = list(product(range(1, 7), repeat=4))
    higher = Fraction(sum(1 for a, b, c, d in faces if a + b + 2 > c + d), len(faces))
    tie = Fraction(sum(1 for a, b, c, d in faces if a + b + 2 == c + d), len(faces))
    odds = dict(p.odds)
    assert odds["attacker's total higher"] == higher
    assert odds["totals equal"] == tie
    assert sum(pr for _, pr in p.outcomes) == 1
    assert dict(p.outcomes)["difference +2"] == Fraction(sum(1 for a, b, c, d in faces if a + b == c + d), 1296)


def test_a_support_reroll_at_minus_one_never_goes_below_one():
    # the Выгоды example: an Unformed support rerolls a 1 and the die still reads 1
    battle = elchingen(**{SUPPORT: {"state": "unformed"}})
    dice = ScriptedDice(
        {f"{BASE}:attacker": [(1, 5)], f"{BASE}:attacker:reroll1": [(1,)], f"{BASE}:defender": [(3, 3)]}
    )
    s = declared(dice, battle=battle)
    out = s.act(ActionRequest("attack", ATTACKER, {"reroll_below": 4}))
    assert out.status == "resolved", out.explanation
    reroll = out.outcome.rolls[1]
    assert reroll.raw == (1,) and reroll.modifiers[0].value == -1
    assert "now reads 1" in reroll.outcome
    (melee,) = [e for e in out.outcome.events if isinstance(e, Melee)]
    assert melee.roll["attacker_total"] == 1 + 5 + 2
    assert melee.roll["difference"] == 8 - 6
    assert melee.winner == ""  # the Attack Results table decides, not the roll
    # the distribution the preview used for that choice: a 1 on the first die stays 1 after a -1 reroll
    dist = dict(natural_distribution((-1,), 4))
    assert sum(dist.values()) == 1 and min(dist) == 2


def test_a_clean_double_six_calls_for_the_fate_test():
    dice = ScriptedDice({f"{BASE}:attacker": [(6, 6)], f"{BASE}:defender": [(2, 2)]})
    s = declared(dice)
    out = s.act(ActionRequest("attack", ATTACKER))
    assert "Fate test" in out.explanation
    (melee,) = [e for e in out.outcome.events if isinstance(e, Melee)]
    assert melee.roll["fate_test"] == ("attacker",)


def test_the_result_is_the_umpires_until_the_scenario_gives_the_table():
    """ПРОВЕДЕНИЕ АТАКИ 9: the difference goes to the lost Attack Results table."""
    dice = ScriptedDice({f"{BASE}:attacker": [(4, 4)], f"{BASE}:defender": [(2, 3)]})
    s = declared(dice)
    s.act(ActionRequest("attack", ATTACKER))
    (spec,) = [a for a in s.actions(ATTACKER) if a.id == "attack_result"]
    assert "РЕЗУЛЬТАТЫ АТАКИ" in spec.umpire_table and "+5" in spec.label
    refused = s.act(ActionRequest("attack_result", ATTACKER))
    assert refused.status == "refused" and "enter the table's result" in refused.explanation
    bad = s.act(
        ActionRequest(
            "attack_result", ATTACKER, umpire_result={"winner": "attacker", "attacker": "stands", "defender": "fled"}
        )
    )
    assert bad.status == "refused" and "fled" in bad.explanation
    out = s.act(
        ActionRequest(
            "attack_result",
            ATTACKER,
            umpire_result={
                "winner": "attacker",
                "attacker": "unformed",
                "defender": "retreating",
                "defender_damage": 2,
            },
        )
    )
    assert out.status == "resolved", out.explanation
    st = s.state
    assert st.units[TARGET].state == "retreating" and st.units[TARGET].attributes["damage"] == 2
    # «ко всем подразделениям, вовлеченным в атаку»: the rear support shares the attacker's result
    assert st.units[ATTACKER].state == "unformed" and st.units[SUPPORT].state == "unformed"
    # one retreating battalion does not make Loudon's brigade Faltering (two are needed)
    assert brigade_status(st, LOUDON).state is CommandState.STEADY
    assert [a.id for a in s.actions(ATTACKER) if a.legal] == []  # applied once


def test_a_supplied_results_table_is_applied_without_the_umpire():
    table = [
        {"min": 1, "winner": "attacker", "attacker": "stands", "defender": "routing", "defender_damage": 1},
        {"max": 0, "winner": "defender", "attacker": "retreating", "defender": "stands", "attacker_damage": 1},
    ]
    dice = ScriptedDice({f"{BASE}:attacker": [(1, 1)], f"{BASE}:defender": [(6, 5)]})
    s = declared(dice, params={"gda.attack_results": table})
    s.act(ActionRequest("attack", ATTACKER))
    (spec,) = [a for a in s.actions(ATTACKER) if a.id == "attack_result"]
    assert spec.umpire_table == ""
    out = s.act(ActionRequest("attack_result", ATTACKER))
    assert out.status == "resolved", out.explanation
    assert s.state.units[ATTACKER].state == "retreating" and s.state.units[SUPPORT].state == "retreating"
    # two close-order infantry battalions of Loison retreat: his brigade is Faltering (D-1)
    assert brigade_status(s.state, LOISON).state is CommandState.FALTERING
    assert any(isinstance(e, DamageTaken) and e.unit == ATTACKER for e in out.outcome.events)


def test_example_v_dullitz_one_unit_routs_the_brigade_falters_and_a_3_is_retreat():
    """Example В: one of Dullitz's units routs, the brigade is Faltering at once; three Line
    and one Veteran make it Line; a 3 on the Faltering table is Retreat: every unit retreats
    with 1 damage and the routing unit disperses."""
    dice = ScriptedDice(
        {f"{BASE}:attacker": [(5, 5)], f"{BASE}:defender": [(1, 2)], f"gda-faltering:{LOUDON}:t2": [(3,)]}
    )
    s = declared(dice)
    s.act(ActionRequest("attack", ATTACKER))
    out = s.act(
        ActionRequest(
            "attack_result", ATTACKER, umpire_result={"winner": "attacker", "attacker": "stands", "defender": "routing"}
        )
    )
    assert out.status == "resolved"
    changes = [e for e in out.outcome.events if isinstance(e, CommandStateChanged) and e.subject == LOUDON]
    assert changes and changes[0].value["state"] == "faltering"
    assert "routs" in out.explanation and "ДРОГНУВШИЕ" in out.explanation
    s.advance_to("command", side="austrian")
    while s.key.turn < 2:
        s.next_phase()
        s.advance_to("command", side="austrian")
    res = s.command_check(LOUDON)
    assert res.flags["faltering_result"] == "retreat" and res.flags["quality"] == "line"
    st = s.state
    assert TARGET not in st.units  # the routing unit disperses
    for uid in ("austrian-centre-bde", "austrian-reserve-bde", "austrian-avantgarde-cavalry"):
        assert st.units[uid].state == "retreating"
        assert st.units[uid].attributes["damage"] == 1


def test_a_dispersed_unit_makes_the_brigade_faltering_and_demoralised_above_half():
    battle = elchingen()
    sc = battle.scenario
    # Loudon's brigade with two units only: the avant-garde and its hussars
    for uid in ("austrian-centre-bde", "austrian-reserve-bde"):
        sc.oob.remove(uid)
        sc.oob.add("austrian-2nd-div", uid)
    dice = ScriptedDice({f"{BASE}:attacker": [(6, 5)], f"{BASE}:defender": [(1, 1)]})
    s = declared(dice, battle=battle)
    s.act(ActionRequest("attack", ATTACKER))
    out = s.act(
        ActionRequest(
            "attack_result",
            ATTACKER,
            umpire_result={"winner": "attacker", "attacker": "stands", "defender": "dispersed"},
        )
    )
    assert out.status == "resolved", out.explanation
    # 1 of 2 dispersed is not more than half: Faltering, not Demoralised
    st = brigade_status(s.state, LOUDON)
    assert st.state is CommandState.FALTERING and not st.demoralised
    assert any(isinstance(e, UnitRemoved) and e.id == TARGET for e in out.outcome.events)


def test_a_demoralised_brigade_that_falters_disperses_at_once_with_its_adc():
    battle = elchingen()
    c = battle.scenario.commanders[LOUDON]
    battle.scenario.commanders[LOUDON] = replace(c, attributes={"gda": {"demoralised": True}})
    dice = ScriptedDice({f"{BASE}:attacker": [(6, 5)], f"{BASE}:defender": [(1, 1)]})
    s = declared(dice, battle=battle)
    s.act(ActionRequest("attack", ATTACKER))
    out = s.act(
        ActionRequest(
            "attack_result", ATTACKER, umpire_result={"winner": "attacker", "attacker": "stands", "defender": "routing"}
        )
    )
    removed = {e.id for e in out.outcome.events if isinstance(e, UnitRemoved)}
    assert removed == {TARGET, "austrian-centre-bde", "austrian-reserve-bde", "austrian-avantgarde-cavalry"}
    st = brigade_status(s.state, LOUDON)
    assert st.adc_lost and st.state is CommandState.FALTERING
    assert "теряют своего адъютанта" in out.explanation


def test_elite_brigades_are_judged_as_formed_not_on_the_survivors():
    """D-6: 2 Elite + 3 Line; the three Line units disperse. The survivors are Elite, the
    brigade as formed is Line (upper median of E, E, L, L, L): it becomes Demoralised."""
    battle = elchingen(dullitz=False)
    sc = battle.scenario
    for uid in ("austrian-avantgarde-cavalry",):
        sc.oob.remove(uid)
        sc.oob.add("austrian-2nd-div", uid)
    # Loudon: avant-garde, centre, reserve (Line) + two cuirassier regiments (Elite)
    c = sc.commanders[LOUDON]
    sc.commanders[LOUDON] = replace(c, attributes={"gda": {"state": "faltering", "dispersed_grades": ["line", "line"]}})
    for uid in ("austrian-centre-bde", "austrian-reserve-bde"):
        del sc.units[uid]
    dice = ScriptedDice({f"{BASE}:attacker": [(6, 5)], f"{BASE}:defender": [(1, 1)]})
    s = declared(dice, battle=battle)
    s.act(ActionRequest("attack", ATTACKER))
    out = s.act(
        ActionRequest(
            "attack_result",
            ATTACKER,
            umpire_result={"winner": "attacker", "attacker": "stands", "defender": "dispersed"},
        )
    )
    assert out.status == "resolved", out.explanation
    st = brigade_status(s.state, LOUDON)
    assert st.demoralised
    assert sorted(st.dispersed_grades) == ["elite", "elite", "line", "line", "line"]
    # Demoralised and already Faltering: the two cuirassier regiments disperse too
    assert "austrian-centre-bde-cavalry" not in s.state.units


def test_the_retreat_result_is_recorded_as_unit_state_events():
    dice = ScriptedDice({f"{BASE}:attacker": [(2, 2)], f"{BASE}:defender": [(6, 6)]})
    s = declared(dice)
    out = s.act(ActionRequest("attack", ATTACKER))
    assert "defender" in out.explanation and "Fate test" in out.explanation
    res = s.act(
        ActionRequest(
            "attack_result",
            ATTACKER,
            umpire_result={"winner": "defender", "attacker": "retreating", "defender": "stands", "attacker_damage": 3},
        )
    )
    states = [(e.unit, e.state) for e in res.outcome.events if isinstance(e, OrderStateChanged)]
    assert states == [(ATTACKER, "retreating"), (SUPPORT, "retreating")]
    assert s.state.units[ATTACKER].attributes["damage"] == 3


@pytest.mark.parametrize("below", [0, 4, 7])
def test_reroll_distribution_sums_to_one(below):
    assert sum(p for _, p in natural_distribution((0, -1), below)) == 1


def movement_session(brigade_state: str, **unit_changes) -> GameSession:
    battle = elchingen(**unit_changes)
    c = battle.scenario.commanders[LOISON]
    battle.scenario.commanders[LOISON] = replace(c, attributes={"gda": {"state": brigade_state, "state_turn": 1}})
    s = GameSession(battle, get_ruleset("gda"), dice=SeededDice(2), params=MOVES)
    s.start()
    s.advance_to("movement", side="french")
    return s


def test_a_steady_brigade_rallies_its_retreating_and_routing_units_in_the_movement_phase():
    """СТОЙКИЕ: «Отступающие/Бегущие подразделения автоматически проводят Сбор»."""
    s = movement_session("steady", **{ATTACKER: {"state": "routing"}, SUPPORT: {"state": "retreating"}})
    assert [a.id for a in s.actions("french-bde-marcognet")] == []  # formed: nothing to rally
    (spec,) = s.actions(ATTACKER)
    assert spec.id == "rally" and spec.legal and "Фазу Движения" in spec.rule
    out = s.act(ActionRequest("rally", ATTACKER, {"formation": "line"}))
    assert out.status == "resolved", out.explanation
    assert s.state.units[ATTACKER].state == "formed" and s.state.units[ATTACKER].formation.value == "line"
    # the assumed rallied state changes what the unit stands in when the scenario overrides it
    s2 = movement_session("steady", **{SUPPORT: {"state": "retreating"}})
    s2.params["gda.rallied_unit_state"] = "unformed"
    s2.act(ActionRequest("rally", SUPPORT))
    assert s2.state.units[SUPPORT].state == "unformed"


@pytest.mark.parametrize("state", ["hesitant", "faltering"])
def test_hesitant_and_faltering_brigades_do_not_rally(state):
    s = movement_session(state, **{SUPPORT: {"state": "retreating"}})
    (spec,) = [a for a in s.actions(SUPPORT) if a.id == "rally"]
    assert not spec.legal
    assert ("не могут быть Собраны" if state == "hesitant" else "Faltering table") in spec.unavailable
    assert s.act(ActionRequest("rally", SUPPORT)).status == "refused"


def test_a_hesitant_brigade_retreating_unit_takes_1_damage_and_a_router_disperses_falter():
    s = movement_session("hesitant", **{ATTACKER: {"state": "routing"}, SUPPORT: {"state": "retreating"}})
    (spec,) = s.actions(LOISON)
    assert spec.id == "hesitant_morale" and spec.legal
    out = s.act(ActionRequest("hesitant_morale", LOISON))
    assert out.status == "resolved", out.explanation
    st = s.state
    assert ATTACKER not in st.units
    assert st.units[SUPPORT].attributes["damage"] == 1 and st.units[SUPPORT].state == "retreating"
    # a dispersed unit makes the brigade Faltering (ДРОГНУВШИЕ)
    assert brigade_status(st, LOISON).state is CommandState.FALTERING
    assert [a.id for a in s.actions(LOISON) if a.legal] == []


def flank_supported(params=None) -> GameSession:
    """Villatte attacks with Roguet on his right flank, 3 cm away, both in Infantry Assault!."""
    battle = elchingen(**{SUPPORT: {"position": (137.0, 32.0)}})
    s = session_at("attack-declaration", battle, params=params)
    out = s.act(ActionRequest("declare_attack", ATTACKER, {"target": TARGET, "supports": (SUPPORT,)}))
    assert out.status == "resolved", out.explanation
    s.advance_to("attacks", side="french")
    return s


def test_defensive_fire_three_damage_leader_takes_two_the_flank_support_one():
    """Step 5 А's example: three damage, the leading unit takes two."""
    s = flank_supported()
    (spec,) = [a for a in s.actions(ATTACKER) if a.id == "defensive_fire"]
    assert "Missing piece 10" in spec.umpire_table
    out = s.act(ActionRequest("defensive_fire", ATTACKER, umpire_result={"damage": 3}))
    assert out.status == "resolved", out.explanation
    assert s.state.units[ATTACKER].attributes["damage"] == 2
    assert s.state.units[SUPPORT].attributes["damage"] == 1
    # the 2 damage in this attack and the unit's own 2 now cost the leader -1 (Урон в Атаке 2*)
    p = s.preview_action(ActionRequest("attack", ATTACKER))
    assert "-1 2 damage in this attack" in p.explanation


def test_defensive_fire_on_a_rear_supported_attack_all_goes_on_the_leader():
    s = declared()
    s.act(ActionRequest("defensive_fire", ATTACKER, umpire_result={"damage": 3}))
    assert s.state.units[ATTACKER].attributes["damage"] == 3
    assert "damage" not in s.state.units[SUPPORT].attributes


def test_the_assumed_fire_split_changes_the_damage_when_overridden():
    s = flank_supported(params={"gda.fire_damage_split": "leader"})
    s.act(ActionRequest("defensive_fire", ATTACKER, umpire_result={"damage": 3}))
    assert s.state.units[ATTACKER].attributes["damage"] == 3
    assert "damage" not in s.state.units[SUPPORT].attributes
