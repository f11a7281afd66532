"""Torden over Europa melee (7.1-7.3) through ``GameSession.act`` at Jena.

The seed lost Tables 7 and 8; tests that roll give the scenario a stand-in table
(``toe_combat_world.TABLES``), the others have the umpire enter the result. The seed's own
numbers are tested as printed: artillery figures at 1/3 (7.1), support within 10 cm (7.1),
the winner's advance of up to 5 cm (7.3.1).
"""

from __future__ import annotations

from collections import Counter

import pytest
from fractions import Fraction

from battlestudio.replay.combat_events import Casualties, Melee
from battlestudio.replay.flow_events import Moved, OrderStateChanged, UnitRemoved
from battlestudio.rules.actions import ActionRequest
from battlestudio.rules.toe.melee import opposed_odds
from toe_combat_world import ATT, BATTERY, DEF, FRONT, HUSSAR, OTHER_CORPS, PCAV, SUP, TABLES, ScriptedDice, jena


def ids(s, uid):
    return {a.id: a for a in s.actions(uid)}


def melee(target=DEF, subject=ATT, umpire=None, **params):
    return ActionRequest("melee", subject, {"target": target, **params}, umpire)


def test_spec_names_the_lost_tables_and_the_umpire_fields():
    s = jena()
    spec = next(a for a in s.actions(ATT) if a.id == "melee")
    assert spec.legal and spec.term == "nærkamp"
    assert "Table 7" in spec.umpire_table and "toe.melee_modifiers" in spec.umpire_table
    assert "toe.melee_losses.infantry" in spec.umpire_table
    fields = {f.name: f for f in spec.umpire_result}
    assert fields["winner"].choices == ("attacker", "defender", "undecided")
    assert fields["attacker_losses"].maximum == 18  # the 100e Ligne's figures
    assert fields["defender_losses"].maximum == 24  # von Pelet's figures


def test_umpire_entered_melee_records_the_melee_then_the_losses():
    s = jena()
    n = len(s.log)
    res = s.act(melee(umpire={"winner": "attacker", "attacker_losses": 2, "defender_losses": 5}))
    assert res.status == "resolved", res.explanation
    evs = [s.log.events[i] for i in range(n, len(s.log))]
    m = [e for e in evs if isinstance(e, Melee)]
    assert len(m) == 1 and m[0].winner == "attacker" and m[0].attackers == (ATT,) and m[0].defenders == (DEF,)
    assert evs[0] is m[0] or isinstance(evs[0], Melee)
    cas = {e.unit: e.figures for e in evs if isinstance(e, Casualties)}
    assert cas == {ATT: 2, DEF: 5}
    assert s.state.units[ATT].figures == 16 and s.state.units[DEF].figures == 19
    assert "7.2.2" in res.explanation and "Taber skal altid teste moral" in res.explanation


def test_an_umpire_entry_of_more_figures_than_the_unit_has_is_refused():
    s = jena()
    n = len(s.log)
    res = s.act(melee(umpire={"winner": "defender", "attacker_losses": 19, "defender_losses": 0}))
    assert res.status == "refused"
    assert "19 is more than the 18" in res.explanation
    assert len(s.log) == n and s.state.units[ATT].figures == 18


def test_without_the_tables_a_roll_is_refused():
    s = jena()
    res = s.act(melee())
    assert res.status == "refused" and "Table 7" in res.explanation


def _two_d6_by_hand(ma, md):
    faces = [a + b for a in range(1, 7) for b in range(1, 7)]
    c = Counter()
    for x in faces:
        for y in faces:
            c["a" if x + ma > y + md else "d" if x + ma < y + md else "t"] += 1
    return Fraction(c["a"], 1296), Fraction(c["d"], 1296), Fraction(c["t"], 1296)


def test_the_preview_gives_the_exact_odds_of_the_opposed_2d6_with_table_7():
    s = jena(params=TABLES)
    pv = s.preview_action(melee(support=SUP))
    assert pv.legal and not pv.umpire_entry
    # attacker +1, support +1, column +1 = +3; von Pelet in line, defender 0; 18:24 and 24:18 reach no odds row
    odds = dict(pv.odds)
    assert (odds["attacker wins"], odds["defender wins"], odds["equal totals, undecided"]) == _two_d6_by_hand(3, 0)
    assert sum(odds.values()) == 1
    without = dict(s.preview_action(melee()).odds)
    assert without["attacker wins"] == _two_d6_by_hand(2, 0)[0] < odds["attacker wins"]


def test_a_rolled_melee_reads_table_8_by_the_margin():
    dice = ScriptedDice([(3, 4), (2, 2)])
    s = jena(params=TABLES, dice=dice)
    res = s.act(melee(support=SUP))
    assert res.status == "resolved", res.explanation
    # 7 + 3 = 10 against 4: margin 6, row [6, 0, 4, 2]: the winner loses 0, the loser 4 and tests at -2
    assert [r.total for r in res.outcome.rolls] == [10, 4]
    assert all(p.startswith("toe-melee:1:") for p in dice.asked) and len(set(dice.asked)) == 2
    assert s.state.units[DEF].figures == 20 and s.state.units[ATT].figures == 18
    m = next(s.log.events[i] for i in range(len(s.log)) if isinstance(s.log.events[i], Melee))
    assert m.winner == "attacker" and m.roll["loser_morale_deduction"] == 2 and m.roll["support"] == SUP
    assert "support (Table 7)" in res.explanation and "7.3.1" in res.explanation


def test_equal_totals_leave_the_melee_undecided_and_both_take_the_winner_column():
    s = jena(params=TABLES, dice=ScriptedDice([(2, 3), (3, 4)]))  # 5 + 2 = 7 against 7
    res = s.act(melee())
    m = [s.log.events[i] for i in range(len(s.log)) if isinstance(s.log.events[i], Melee)][0]
    assert m.winner == "" and "undecided" in res.explanation
    assert s.state.units[ATT].figures == 17 and s.state.units[DEF].figures == 23  # margin-0 row, winner column: 1
    s = jena(params={**TABLES, "toe.melee_tie_loss_column": "loser"}, dice=ScriptedDice([(2, 3), (3, 4)]))
    s.act(melee())
    assert s.state.units[ATT].figures == 16 and s.state.units[DEF].figures == 22  # loser column: 2


# ------------------------------------------------------------------------------ support (7.1)
def test_support_more_than_10_cm_behind_is_refused_and_within_10_cm_is_accepted():
    far = jena(support_gap=10.5)
    res = far.preview_action(melee(support=SUP))
    assert not res.legal and "10.5 cm" in res.reason and "maksimalt 10 cm" in res.reason
    near = jena(support_gap=9.9)
    assert near.preview_action(melee(support=SUP)).legal


def test_support_from_another_corps_or_arm_or_not_behind_is_refused():
    depth = 4.5
    s = jena(placements={OTHER_CORPS: ((FRONT[0], FRONT[1] - depth - 3.0), 90.0)})
    r = s.preview_action(melee(support=OTHER_CORPS))
    assert not r.legal and "fra eget korps" in r.reason
    s = jena(placements={HUSSAR: ((FRONT[0], FRONT[1] - depth - 3.0), 90.0)})
    r = s.preview_action(melee(support=HUSSAR))
    assert not r.legal and "samme våbenart" in r.reason
    s = jena(support_gap=None, placements={SUP: ((FRONT[0] + 14.0, FRONT[1]), 90.0)})  # beside, not behind
    r = s.preview_action(melee(support=SUP))
    assert not r.legal and "bagerste geled" in r.reason


def test_i_ordren_read_as_the_same_order_accepts_a_disordered_supporter_read_as_orden_refuses_it():
    ch = {SUP: {"state": "U"}}
    s = jena(changes=ch)
    assert s.preview_action(melee(support=SUP)).legal  # ERRATA 1: 'i ordren' = under the same order
    s = jena(changes=ch, params={"toe.support_reading": "O"})
    r = s.preview_action(melee(support=SUP))
    assert not r.legal and "not in order O" in r.reason


# ------------------------------------------------------------------------------ who may attack
def test_infantry_cannot_attack_cavalry_and_a_disordered_unit_cannot_attack():
    s = jena(placements={PCAV: (FRONT, 270.0), DEF: ((100.0, 300.0), 270.0)})
    r = s.preview_action(melee(target=PCAV))
    assert not r.legal and "Infanterienheder kan ikke erklære angreb mod" in r.reason
    s = jena(changes={ATT: {"state": "U"}})
    spec = next(a for a in s.actions(ATT) if a.id == "melee")
    assert not spec.legal and "U" in spec.unavailable and "5.1" in spec.unavailable
    assert s.act(melee(umpire={"winner": "attacker", "attacker_losses": 0, "defender_losses": 0})).status == "refused"


def test_the_passive_side_is_not_offered_an_attack():
    s = jena()
    assert not [a for a in s.actions(DEF) if a.id == "melee"]


# ------------------------------------------------------------------------------ artillery (7.1)
def test_artillery_figures_count_one_third_in_the_odds():
    # a battery of 3 gun figures counts 1 against the 100e's 18: 18:1 reaches the 3:1 row (+3)
    s = jena(
        params=TABLES,
        placements={BATTERY: (FRONT, 270.0), DEF: ((100.0, 300.0), 270.0)},
        changes={BATTERY: {"figures": 3}},
    )
    pv = s.preview_action(melee(target=BATTERY))
    assert pv.legal, pv.reason
    assert "1/3" in pv.explanation
    assert dict(pv.odds)["attacker wins"] == _two_d6_by_hand(2 + 3, 0)[0]
    s2 = jena(
        params=TABLES,
        dice=ScriptedDice([(1, 1), (6, 6)]),
        placements={BATTERY: (FRONT, 270.0), DEF: ((100.0, 300.0), 270.0)},
        changes={BATTERY: {"figures": 3}},
    )
    s2.act(melee(target=BATTERY))
    m = next(s2.log.events[i] for i in range(len(s2.log)) if isinstance(s2.log.events[i], Melee))
    assert m.roll["strength"] == ("18", "1")


def test_an_unattached_battery_attacked_in_the_flank_is_taken_off_without_a_roll():
    s = jena(placements={BATTERY: ((FRONT[0] + 4.0, FRONT[1] + 1.5), 0.0), DEF: ((100.0, 300.0), 270.0)})
    # the battery faces east; the 100e's front touches its right side: a flank attack (measured)
    n = len(s.log)
    res = s.act(melee(target=BATTERY, umpire={}))
    assert res.status == "resolved", res.explanation
    assert res.outcome.rolls == ()
    evs = [s.log.events[i] for i in range(n, len(s.log))]
    assert isinstance(evs[0], Melee) and evs[0].winner == "attacker"
    assert any(isinstance(e, UnitRemoved) and e.id == BATTERY for e in evs)
    assert not any(isinstance(e, Casualties) for e in evs)
    assert BATTERY not in s.state.units and s.state.units[ATT].figures == 18


def test_limbered_artillery_is_lost_without_a_roll_and_attached_artillery_fights():
    s = jena(
        placements={BATTERY: (FRONT, 270.0), DEF: ((100.0, 300.0), 270.0)},
        changes={BATTERY: {"formation": "limbered"}},
    )
    res = s.act(melee(target=BATTERY, umpire={}))
    assert res.status == "resolved" and "Påprodset artilleri" in res.explanation
    assert BATTERY not in s.state.units
    # a battery in contact with its infantry that did not shelter is attacked itself, with a roll or entry
    s = jena(
        placements={
            BATTERY: ((FRONT[0] + 4.0, FRONT[1] + 1.5), 0.0),
            DEF: ((FRONT[0], FRONT[1] + 3.0 + 12.0), 0.0),  # von Pelet's flank touches the battery
        }
    )
    r = s.preview_action(melee(target=BATTERY))
    assert r.legal and "did not shelter" in r.explanation and r.umpire_entry


def test_a_battery_with_the_attacked_infantry_does_not_count():
    s = jena(placements={BATTERY: ((FRONT[0] + 13.0, FRONT[1]), 270.0)})
    pv = s.preview_action(melee())
    assert "does not count in the melee" in pv.explanation


# ------------------------------------------------------------------------------ towns (7.1)
def test_units_in_a_town_have_no_flank():
    s = jena(params=TABLES)
    flank = dict(s.preview_action(melee(aspect="flank")).odds)["attacker wins"]
    town = s.preview_action(melee(aspect="flank", town=True))
    assert "Enheder i byer anses ikke for havende flanke" in town.explanation
    assert dict(town.odds)["attacker wins"] == _two_d6_by_hand(2, 0)[0] < flank  # attacks_flank +2 dropped


# ------------------------------------------------------------------------------ after the melee (7.3)
def test_the_same_pair_fights_once_a_player_turn_and_on_as_continued_melee_with_both_defender():
    s = jena(params=TABLES, dice=ScriptedDice([(3, 3), (3, 3), (4, 4), (2, 2)]))
    s.act(melee())  # 6 + 2 = 8 against 6: the 100e wins, von Pelet stays in contact
    again = s.preview_action(melee())
    assert not again.legal and "continued melee in the next" in again.reason
    s.advance_to("attack", "prussian")
    spec = next(a for a in s.actions(DEF) if a.id == "melee")
    assert spec.legal  # the passive side fights on in continued melee
    res = s.act(ActionRequest("melee", DEF, {"target": ATT}))
    assert res.status == "resolved", res.explanation
    assert "continued melee: both count as defender (7.3.3)" in res.explanation
    assert "attacker (Table 7)" not in res.explanation  # nobody takes the attacker's +1


def test_a_column_winner_advances_5_cm_once_the_loser_has_fallen_back():
    s = jena()
    s.act(melee(umpire={"winner": "attacker", "attacker_losses": 1, "defender_losses": 3}))
    spec = next(a for a in s.actions(ATT) if a.id == "advance")
    assert not spec.legal and "trukket sig tilbage" in spec.unavailable
    s.act(ActionRequest("morale_test", DEF, {}, {"result": "U", "move_to": (FRONT[0], FRONT[1] + 20.0)}))
    assert next(a for a in s.actions(ATT) if a.id == "advance").legal
    assert s.act(ActionRequest("advance", ATT, {"follow_up": "advance", "distance_cm": 3})).status == "refused"
    n = len(s.log)
    res = s.act(ActionRequest("advance", ATT, {"follow_up": "advance"}))
    assert res.status == "resolved"
    moved = s.log.events[n]
    assert isinstance(moved, Moved) and moved.id == ATT
    assert s.state.units[ATT].position == (FRONT[0], FRONT[1] + 5.0)
    assert not [a for a in s.actions(ATT) if a.id == "advance"]  # done once


def test_up_to_5_cm_may_stop_short_when_follow_up_exact_is_overridden():
    s = jena(params={"toe.follow_up_exact": False})
    s.act(melee(umpire={"winner": "attacker", "attacker_losses": 0, "defender_losses": 2}))
    s.act(ActionRequest("morale_test", DEF, {}, {"result": "U", "move_to": (FRONT[0], FRONT[1] + 20.0)}))
    assert s.act(ActionRequest("advance", ATT, {"follow_up": "advance", "distance_cm": 6})).status == "refused"
    assert s.act(ActionRequest("advance", ATT, {"follow_up": "advance", "distance_cm": 3})).status == "resolved"
    assert s.state.units[ATT].position == (FRONT[0], FRONT[1] + 3.0)


def test_a_line_winner_and_a_winning_defender_need_not_advance():
    s = jena(changes={ATT: {"formation": "line"}})
    s.act(melee(umpire={"winner": "attacker", "attacker_losses": 0, "defender_losses": 2}))
    assert not [a for a in s.actions(ATT) if a.id == "advance"]
    s = jena()
    s.act(melee(umpire={"winner": "defender", "attacker_losses": 2, "defender_losses": 0}))
    assert not [a for a in s.actions(DEF) if a.id == "advance"]


def test_a_unit_that_loses_its_last_figures_is_eliminated():
    s = jena(changes={ATT: {"figures": 2}})
    n = len(s.log)
    s.act(melee(umpire={"winner": "defender", "attacker_losses": 2, "defender_losses": 0}))
    evs = [s.log.events[i] for i in range(n, len(s.log))]
    assert any(isinstance(e, OrderStateChanged) and e.state == "eliminated" for e in evs)
    assert ATT not in s.state.units


def test_opposed_odds_sum_to_one():
    assert sum(opposed_odds(0, 0)) == 1 and opposed_odds(0, 0)[0] == opposed_odds(0, 0)[1] == Fraction(575, 1296)


# ------------------------------------------------------------------------------ undecided melee (7.3.2)
def _undecided(params=None, dice=None):
    s = jena(params=params, dice=dice)
    s.act(melee(umpire={"winner": "undecided", "attacker_losses": 1, "defender_losses": 1}))
    return s


def test_after_an_undecided_melee_a_passed_reaction_roll_moves_back_half_a_march():
    # Jena's march length of infantry is 30 cm: back 15 cm; d10 (0-9) + 0 ≥ 6 passes on 6-9
    s = _undecided(params={"toe.reaction_modifiers": {}}, dice=ScriptedDice([(7,)]))
    pv = s.preview_action(ActionRequest("break_off", ATT))
    assert dict(pv.odds)["breaks off"] == Fraction(4, 10)
    n = len(s.log)
    res = s.act(ActionRequest("break_off", ATT))
    assert res.status == "resolved" and "½ marchlængde" in res.explanation
    assert res.outcome.rolls[0].success is True
    assert any(isinstance(e, Moved) for e in s.log.events[n:])
    assert s.state.units[ATT].position == (FRONT[0], FRONT[1] - 15.0)


def test_a_failed_reaction_roll_stays_and_the_umpire_may_enter_the_order_it_costs():
    s = _undecided()
    spec = next(a for a in s.actions(ATT) if a.id == "break_off")
    assert "Table 3" in spec.umpire_table
    res = s.act(ActionRequest("break_off", ATT, {}, {"passed": False, "state": "U"}))
    assert res.status == "resolved"
    assert s.state.units[ATT].position == FRONT and s.state.units[ATT].state == "U"


def test_no_break_off_once_a_side_has_left_its_original_order():
    s = _undecided()
    s.act(ActionRequest("morale_test", DEF, {}, {"result": "U"}))
    spec = next(a for a in s.actions(ATT) if a.id == "break_off")
    assert not spec.legal and "oprindelig" not in spec.unavailable and "original O" in spec.unavailable


def test_a_melee_with_support_the_loser_s_test_and_the_advance_replay_identically(tmp_path):
    from battlestudio import store
    from battlestudio.replay.battle import Battle
    from battlestudio.replay.game import GameLog

    s = jena(params=TABLES, dice=ScriptedDice([(5, 6), (1, 2)]))
    assert s.act(melee(support=SUP)).status == "resolved"
    s.act(ActionRequest("morale_test", DEF, {}, {"result": "FU", "move_to": (FRONT[0], FRONT[1] + 25.0)}))
    s.act(ActionRequest("advance", ATT, {"follow_up": "advance"}))
    path = tmp_path / "melee.battle.json"
    store.save(Battle(s.battle.scenario, list(s.log.events)), path)
    again = GameLog.from_battle(store.load(path)).head
    for uid in (ATT, DEF, SUP):
        assert again.units[uid] == s.state.units[uid]
    assert again.flags == s.state.flags
    melee_event = next(e for e in s.log.events if isinstance(e, Melee))
    assert all("Table 7" in r["threshold_source"] for r in (melee_event.roll["attacker"], melee_event.roll["defender"]))


def test_i_ordren_refuses_a_supporter_detached_under_another_order_and_i_orden_does_not():
    from battlestudio.model.orders import Order, OrderStatus
    from battlestudio.rules.toe.common import params_for
    from battlestudio.rules.toe.melee import support_problems

    s = jena()
    st = s.state
    orders = {
        "o-v": Order("o-v", "french-napoleon", "french-v-corps", "A", status=OrderStatus.DELIVERED, turn_issued=1),
        "o-d": Order("o-d", "french-v-corps", SUP, "D", status=OrderStatus.DELIVERED, turn_issued=1),
    }
    st = st.evolve(orders={**dict(st.orders), **orders}, flags={**dict(st.flags), f"detached:{SUP}": True})
    att, sup = st.units[ATT], st.units[SUP]
    literal = support_problems(st, params_for(s.params), att, sup)
    assert len(literal) == 1 and "i ordren" in literal[0]
    assert support_problems(st, params_for({**s.params, "toe.support_reading": "O"}), att, sup) == []
    assert len(support_problems(st, params_for({**s.params, "toe.support_reading": "both"}), att, sup)) == 1


def _hussars_on_the_sheltered_battery():
    """Jena: the Advanced Guard foot battery stands in base contact with von Pelet's right; the
    10e Hussards declare on the battery's front and it passes its reaction into von Pelet."""
    s = jena(phase="attack_declaration", placements={BATTERY: ((375.8, 180.0), 270.0), HUSSAR: ((379.0, 180.0), 90.0)})
    s.act(ActionRequest("declare_attack", HUSSAR, {"target": BATTERY}))
    spec = next(a for a in s.actions(BATTERY) if a.id == "react")
    assert spec.legal and spec.parameters[0].choices == ("shelter",)  # 5.3.2: foot artillery, cavalry attacking
    out = s.act(ActionRequest("react", BATTERY, {"kind": "shelter"}, umpire_result={"passed": True}))
    assert out.status == "resolved" and "moves into Bde von Pelet" in out.explanation
    assert s.state.flags[f"attack_declared:{HUSSAR}"]["target"] == DEF  # 5.3.2: the attacker must attack it
    s.advance_to("attack")
    return s


def test_a_battery_that_sheltered_in_its_unit_sends_the_attack_there_and_does_not_count():
    s = _hussars_on_the_sheltered_battery()
    refused = s.act(melee(BATTERY, HUSSAR, {"winner": "attacker", "attacker_losses": 0, "defender_losses": 1}))
    assert refused.status == "refused" and "the attack is made on Bde von Pelet" in refused.explanation
    assert "7.1" in refused.explanation
    out = s.act(melee(DEF, HUSSAR, {"winner": "defender", "attacker_losses": 2, "defender_losses": 0}))
    assert out.status == "resolved" and "sheltered in Bde von Pelet does not count" in out.explanation
    assert s.state.units[BATTERY].figures == 1  # untouched (its one gun model): it is not in the melee
    assert "battery_lost" not in ids(s, BATTERY)  # von Pelet won: nothing to lose


def test_a_battery_that_did_not_shelter_is_attacked_itself():
    s = jena(phase="attack_declaration", placements={BATTERY: ((375.8, 180.0), 270.0), HUSSAR: ((379.0, 180.0), 90.0)})
    s.act(ActionRequest("declare_attack", HUSSAR, {"target": BATTERY}))
    s.act(ActionRequest("react", BATTERY, {"kind": "shelter"}, umpire_result={"passed": False}))
    s.advance_to("attack")
    pv = s.preview_action(melee(BATTERY, HUSSAR))
    assert (
        pv.legal and "did not shelter in Bde von Pelet" in pv.explanation
    )  # 7.1 'Et angreb kan dog føres mod batteriet'


def test_the_sheltered_battery_is_destroyed_when_its_beaten_unit_moves_away():
    s = _hussars_on_the_sheltered_battery()
    out = s.act(melee(DEF, HUSSAR, {"winner": "attacker", "attacker_losses": 0, "defender_losses": 2}))
    assert "the battery is destroyed (5.3.2" in out.explanation
    spec = ids(s, BATTERY)["battery_lost"]
    assert not spec.legal and "has not moved away" in spec.unavailable  # lost, but still standing by its guns
    pelet = s.state.units[DEF]
    s.move(DEF, [pelet.position, (pelet.position[0], pelet.position[1] + 12.0)])  # its flight away from the guns
    spec = ids(s, BATTERY)["battery_lost"]
    assert spec.legal
    done = s.act(ActionRequest("battery_lost", BATTERY))
    assert done.status == "resolved" and "5.3.2" in done.explanation
    assert BATTERY not in s.state.units or s.state.units[BATTERY].state == "eliminated"


def test_cavalry_that_moves_leaves_the_sheltered_gunners_behind():
    from battlestudio.rules.toe.contact import sheltered_in

    at = {PCAV: ((450.0, 250.0), 270.0), BATTERY: ((464.3, 250.0), 270.0), HUSSAR: ((464.3, 250.0), 90.0)}
    s = jena(phase="attack_declaration", placements=at)
    s.act(ActionRequest("declare_attack", HUSSAR, {"target": BATTERY}))
    out = s.act(ActionRequest("react", BATTERY, {"kind": "shelter"}, umpire_result={"passed": True}))
    assert "If Cav Bde von Schimmelpfennig moves, the gunners are left behind (5.3.2)" in out.explanation
    assert sheltered_in(s.state, s.ruleset.parameters(s.params), s.state.units[BATTERY]).id == PCAV
    s.act(ActionRequest("react", PCAV, {"kind": "move"}, umpire_result={"passed": True}))
    s.move(PCAV, [(450.0, 250.0), (450.0, 262.0)])  # the cavalry rides off
    assert sheltered_in(s.state, s.ruleset.parameters(s.params), s.state.units[BATTERY]) is None
    s.advance_to("attack")
    pv = s.preview_action(melee(BATTERY, HUSSAR))
    assert pv.legal  # 5.3.2: the guns left behind may be attacked themselves


HOHENLOHE = "prussian-south-hohenlohe"
NAPOLEON = "french-imperial-guard"


def test_an_army_chief_in_base_contact_may_be_committed_to_melee_and_table_7_reads_him():
    # Hohenlohe led the Prussian-Saxon army at Jena under Brunswick: an army chief (2.3), placed at
    # von Pelet's rear edge; Napoleon, the C-in-C, stands with the 100e Ligne
    pelet_rear = (FRONT[0], FRONT[1] + 3.0)
    s = jena(
        params={**TABLES, "toe.melee_modifiers": {**TABLES["toe.melee_modifiers"], "army_chief": 2}},
        commanders={
            HOHENLOHE: {"echelon": "army", "position": pelet_rear},
            NAPOLEON: {"position": (FRONT[0], FRONT[1] - 4.5)},
        },
    )
    spec = ids(s, ATT)["melee"]
    fields = {f.name: f for f in spec.parameters}
    assert fields["defender_army_chief"].choices == (HOHENLOHE,) and fields["army_chief"].choices == ()
    plain = s.preview_action(melee())
    pv = s.preview_action(melee(defender_army_chief=HOHENLOHE))
    assert pv.legal and "army chief Hohenlohe is committed" in pv.explanation and "2.3" in pv.explanation
    assert dict(pv.odds)["defender wins"] > dict(plain.odds)["defender wins"]  # Table 7's army_chief +2
    refused = s.preview_action(melee(army_chief=NAPOLEON))
    assert not refused.legal and "only an army chief may be committed" in refused.reason
    out = s.act(
        melee(defender_army_chief=HOHENLOHE, umpire={"winner": "defender", "attacker_losses": 2, "defender_losses": 1})
    )
    assert out.status == "resolved"
    m = next(e for e in reversed(s.log.events) if isinstance(e, Melee))
    assert tuple(m.roll["army_chiefs"]) == ("", HOHENLOHE)


def test_the_army_chief_reach_is_an_assumed_reading_the_scenario_may_widen():
    away = (FRONT[0], FRONT[1] + 9.0)  # 6 cm behind von Pelet's rear edge
    kept = jena(commanders={HOHENLOHE: {"echelon": "army", "position": away}})
    pv = kept.preview_action(melee(defender_army_chief=HOHENLOHE))
    assert not pv.legal and "6.0 cm from Bde von Pelet, more than 0.5 cm" in pv.reason
    wide = jena(
        params={"toe.army_chief_melee_reach_cm": 10}, commanders={HOHENLOHE: {"echelon": "army", "position": away}}
    )
    assert wide.preview_action(melee(defender_army_chief=HOHENLOHE)).legal


def test_only_a_march_column_fights_on_a_bridge():
    """4.7 Broer: "Enheder i marchkolonne kan krydse broer eller være i kamp på broer. Enheder i
    enhver anden formation end marchkolonne anses for at være i flod" — on Jena's bridge over the
    Saale (465-475 x 71-77 cm) von Pelet in line stands in the river and no melee is fought there;
    in march column it fights; with the assumed river_crossing = 'umpire' the umpire rules."""
    from battlestudio.model.units import Formation
    from battlestudio.rules.params import RuleRefused
    from battlestudio.rules.toe import melee as melee_rules
    from battlestudio.rules.toe.common import params_for
    from tests.rules.toe_combat_world import ATT, DEF, TABLES, jena

    at = {ATT: ((470.0, 70.0), 90.0), DEF: ((470.0, 70.0), 270.0)}
    s = jena(params=TABLES, support_gap=None, placements=at)
    req = ActionRequest("melee", ATT, {"target": DEF}, terrain=tuple(s.battle.scenario.terrain.values()))
    with pytest.raises(RuleRefused, match=r"stands on the bridge .* counts as in the river \(4.7\)"):
        melee_rules.situation(s.state, req, params_for(s.params))
    assert not s.preview_action(ActionRequest("melee", ATT, {"target": DEF})).legal
    column = jena(params=TABLES, support_gap=None, placements=at, changes={DEF: {"formation": Formation.MARCH_COLUMN}})
    assert melee_rules.situation(column.state, req, params_for(column.params))
    umpire = jena(params={**TABLES, "toe.river_crossing": "umpire"}, support_gap=None, placements=at)
    assert melee_rules.situation(umpire.state, req, params_for(umpire.params))
