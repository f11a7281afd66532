"""Torden over Europa morale tests (7.2.2, chapter 8) and reorganisation (1.2 phase 7, 1.6,
chapter 9) through ``GameSession.act`` at Jena. Chapters 8-9 and Tables 9-11 are lost: the
umpire enters each result; who tests, flight, elimination at 2/3 (1.6) and who may
reorganise are computed."""

from __future__ import annotations

from battlestudio.replay.combat_events import MoraleTest
from battlestudio.replay.flow_events import Moved, OrderStateChanged, UnitRemoved
from battlestudio.rules.actions import ActionRequest
from toe_combat_world import ATT, DEF, FRONT, jena

AWAY = (FRONT[0], FRONT[1] + 30.0)


def melee(s, winner="attacker", la=0, ld=0):
    res = s.act(
        ActionRequest(
            "melee",
            ATT,
            {"target": DEF},
            {"winner": winner, "attacker_losses": la, "defender_losses": ld, "loser_morale_deduction": 2},
        )
    )
    assert res.status == "resolved", res.explanation


def morale(s, unit, result, move_to=None):
    entry = {"result": result} if move_to is None else {"result": result, "move_to": move_to}
    return s.act(ActionRequest("morale_test", unit, {}, entry))


def since(s, n):
    return list(s.log.events[n:])


def spec(s, unit, action):
    return next(a for a in s.actions(unit) if a.id == action)


def test_the_loser_must_test_the_winner_tests_as_normal():
    s = jena()
    melee(s)
    loser = spec(s, DEF, "morale_test")
    assert "required" in loser.label and "Taber skal altid teste moral" in loser.note
    assert "deduction of 2 from Table 8" in loser.note
    assert "Tables 9-10" in loser.umpire_table
    winner = spec(s, ATT, "morale_test")
    assert "required" not in winner.label and "tests as normal" in winner.note


def test_a_loser_falling_into_disorder_records_the_test_the_state_and_the_retreat():
    s = jena()
    melee(s, ld=3)
    n = len(s.log)
    res = morale(s, DEF, "U", (FRONT[0], FRONT[1] + 10.0))
    assert res.status == "resolved", res.explanation
    evs = since(s, n)
    assert isinstance(evs[0], MoraleTest) and evs[0].unit == DEF and not evs[0].passed and evs[0].result == "U"
    assert any(isinstance(e, OrderStateChanged) and e.state == "U" for e in evs)
    assert any(isinstance(e, Moved) for e in evs)
    u = s.state.units[DEF]
    assert u.state == "U" and u.position == (FRONT[0], FRONT[1] + 10.0)
    again = spec(s, DEF, "morale_test")
    assert not again.legal and "already tested" in again.unavailable


def test_a_unit_that_flees_into_fu_must_be_given_its_flight_move():
    s = jena()
    melee(s, ld=3)
    res = morale(s, DEF, "FU")
    assert res.status == "refused" and "flygter og kommer i FU" in res.explanation
    assert morale(s, DEF, "FU", AWAY).status == "resolved"
    assert s.state.units[DEF].state == "FU"


def test_two_thirds_lost_and_fu_eliminates_the_unit_after_its_flight_move():
    # von Pelet, 24 figures, loses 16 = 2/3 exactly: into FU it flees, then is removed (1.6)
    s = jena()
    melee(s, ld=16)
    n = len(s.log)
    res = morale(s, DEF, "FU", AWAY)
    assert res.status == "resolved", res.explanation
    kinds = [type(e).__name__ for e in since(s, n)]
    assert kinds == ["MoraleTest", "OrderStateChanged", "Moved", "OrderStateChanged", "UnitRemoved"]
    assert "16 of 24 figures lost" in res.explanation and "2/3" in res.explanation
    assert DEF not in s.state.units


def test_fifteen_of_twenty_four_is_less_than_two_thirds_and_the_unit_stays_in_fu():
    s = jena()
    melee(s, ld=15)
    morale(s, DEF, "FU", AWAY)
    assert s.state.units[DEF].state == "FU"


def test_without_a_flight_move_a_two_thirds_unit_stays_in_permanent_disorder_and_never_reorganises():
    s = jena()
    melee(s, ld=16)
    res = morale(s, DEF, "FU")
    assert res.status == "resolved" and "permanent disorder" in res.explanation
    assert s.state.units[DEF].state == "U"
    s.advance_to("reorganisation", "french")
    rally = spec(s, DEF, "rally")
    assert not rally.legal and "permanent uorden" in rally.unavailable


def test_a_unit_already_in_fu_put_into_u_again_makes_a_new_flight_move():
    s = jena(changes={DEF: {"state": "FU"}})
    melee(s, ld=2)
    res = morale(s, DEF, "U")
    assert res.status == "refused" and "fornyet flugttræk" in res.explanation
    n = len(s.log)
    assert morale(s, DEF, "U", AWAY).status == "resolved"
    assert any(isinstance(e, Moved) for e in since(s, n)) and s.state.units[DEF].state == "U"


def test_a_passed_test_changes_nothing():
    s = jena()
    melee(s, winner="undecided", la=1, ld=1)
    n = len(s.log)
    res = morale(s, ATT, "pass")
    assert res.status == "resolved" and "ved ikke afgjort nærkamp" in res.explanation
    evs = since(s, n)
    assert isinstance(evs[0], MoraleTest) and evs[0].passed
    assert not any(isinstance(e, (OrderStateChanged, Moved)) for e in evs)
    assert s.state.units[ATT].state == "O"


def test_an_unknown_result_is_refused():
    s = jena()
    melee(s)
    assert morale(s, DEF, "routed").status == "refused"


# ------------------------------------------------------------------------------ reorganisation
def test_both_sides_reorganise_in_phase_7_u_to_o_and_fu_to_u():
    s = jena(phase="reorganisation", changes={DEF: {"state": "U"}, ATT: {"state": "FU"}})
    assert s.key.side == "french"
    u_spec = spec(s, DEF, "rally")  # the passive side reorganises too (1.2 'BEGGE SIDER')
    assert u_spec.legal and u_spec.umpire_result[0].choices == ("O", "U") and "Table 11" in u_spec.umpire_table
    assert spec(s, ATT, "rally").umpire_result[0].choices == ("U", "FU")
    assert s.act(ActionRequest("rally", ATT, {}, {"result": "O"})).status == "refused"  # FU does not jump to O
    n = len(s.log)
    assert s.act(ActionRequest("rally", DEF, {}, {"result": "O"})).status == "resolved"
    assert any(isinstance(e, OrderStateChanged) and e.state == "O" for e in since(s, n))
    assert s.state.units[DEF].state == "O"
    assert s.act(ActionRequest("rally", ATT, {}, {"result": "U"})).status == "resolved"
    assert s.state.units[ATT].state == "U"
    again = spec(s, ATT, "rally")
    assert not again.legal and "already tried" in again.unavailable


def test_a_unit_in_order_has_nothing_to_reorganise_and_rally_is_not_offered_in_the_attack_phase():
    s = jena(phase="reorganisation")
    assert not [a for a in s.actions(ATT) if a.id == "rally"]
    s = jena(changes={DEF: {"state": "U"}})
    assert not [a for a in s.actions(DEF) if a.id == "rally"]


def test_a_failed_reorganisation_is_recorded_and_leaves_the_state():
    s = jena(phase="reorganisation", changes={DEF: {"state": "U"}})
    n = len(s.log)
    res = s.act(ActionRequest("rally", DEF, {}, {"result": "U"}))
    assert res.status == "resolved" and "fails to reorganise" in res.explanation
    assert len(s.log) == n + 1 and s.state.units[DEF].state == "U"
    assert not any(isinstance(e, UnitRemoved) for e in since(s, n))
