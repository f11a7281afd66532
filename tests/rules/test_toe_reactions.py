"""Torden over Europa chapter 5 as actions on Jena (tests/rules/toe_combat_world.py): an attack
is declared in base contact and in order (5.1); the target reacts with a d10 ≥ 6 against the
lost Table 3 (umpire entry until supplied, exact odds when it is); an emergency square against
cavalry, facing a flank attack, the cavalry reaction move at half a move, one reaction a turn
(5.2-5.3); an unattached battery attacked in flank is eliminated at once (5.3); an interrupted
attack turns about and goes back the march length (5.4, ERRATA 7); units that declared or
reacted do not fire (6.1)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from battlestudio.model.geometry import forward
from battlestudio.model.units import Formation
from battlestudio.rules.actions import ActionRequest
from tests.rules.toe_combat_world import ATT, BATTERY, DEF, FRONT, HUSSAR, PCAV, ScriptedDice, jena


def ids(s, uid):
    return {a.id: a for a in s.actions(uid)}


def test_declaration_needs_contact_and_order_and_is_refused_for_artillery():
    s = jena(phase="attack_declaration")
    spec = ids(s, ATT)["declare_attack"]
    assert spec.legal and DEF in spec.parameters[0].choices
    far = jena(phase="attack_declaration", placements={HUSSAR: ((100.0, 100.0), 90.0)})
    assert "base contact with no enemy" in ids(far, HUSSAR)["declare_attack"].unavailable
    out = s.act(ActionRequest("declare_attack", ATT, {"target": DEF}))
    assert out.status == "resolved" and "declares an attack on" in out.explanation
    assert s.state.flags[f"attack_declared:{ATT}"]["target"] == DEF
    assert "declared its attack" in ids(s, ATT)["declare_attack"].unavailable
    u = jena(phase="attack_declaration", changes={ATT: {"state": "U"}})
    assert "U/FU cannot declare" in ids(u, ATT)["declare_attack"].unavailable


def test_the_target_reacts_by_umpire_entry_until_table_3_is_supplied_then_rolls_with_exact_odds():
    s = jena(phase="attack_declaration", placements={HUSSAR: (FRONT, 90.0)})
    s.act(ActionRequest("declare_attack", HUSSAR, {"target": DEF}))
    spec = ids(s, DEF)["react"]
    assert spec.legal and "square" in spec.parameters[0].choices and "Table 3" in spec.umpire_table
    assert s.act(ActionRequest("react", DEF, {"kind": "square"})).status == "refused"  # no roll without Table 3
    out = s.act(ActionRequest("react", DEF, {"kind": "square"}, umpire_result={"passed": True}))
    assert out.status == "resolved" and "emergency square" in out.explanation
    assert s.state.units[DEF].formation is Formation.SQUARE
    assert "cannot react again" in ids(s, DEF)["react"].unavailable

    rolled = jena(
        phase="attack_declaration",
        placements={HUSSAR: (FRONT, 90.0)},
        params={"toe.reaction_modifiers": {"formation:line": -1}},
        dice=ScriptedDice([(6,)]),
    )
    rolled.act(ActionRequest("declare_attack", HUSSAR, {"target": DEF}))
    pre = rolled.preview_action(ActionRequest("react", DEF, {"kind": "square"}))
    assert pre.odds == (("square succeeds", Fraction(3, 10)),)  # d10 0-9, -1: 7, 8, 9
    out = rolled.act(ActionRequest("react", DEF, {"kind": "square"}))
    assert out.outcome.rolls[0].total == 5 and "fails" in out.explanation
    assert rolled.state.units[DEF].formation is not Formation.SQUARE


def test_a_flank_attack_on_an_unattached_battery_eliminates_it_without_reaction():
    gun_front = (FRONT[0] + 60.0, FRONT[1] + 30.0)
    s = jena(phase="attack_declaration", placements={BATTERY: (gun_front, 0.0), HUSSAR: ((0.0, 0.0), 0.0)})
    gun = s.state.units[BATTERY]
    right = gun.rect().edges()["left"]  # stand against its side, facing it
    mid = ((right[0][0] + right[1][0]) / 2, (right[0][1] + right[1][1]) / 2)
    s2 = jena(
        phase="attack_declaration", placements={BATTERY: (gun_front, 0.0), HUSSAR: ((mid[0], mid[1] - 0.1), 90.0)}
    )
    assert s2.preview_action(ActionRequest("declare_attack", HUSSAR, {"target": BATTERY})).legal
    out = s2.act(ActionRequest("declare_attack", HUSSAR, {"target": BATTERY}))
    assert "eliminated" in out.explanation and s2.state.units[BATTERY].state == "eliminated"
    assert "in the flank" in out.explanation


def test_cavalry_within_20_cm_reacts_with_half_a_move_and_may_then_be_dragged():
    cav_at = (FRONT[0] + 25.0, FRONT[1] + 12.0)
    s = jena(phase="attack_declaration", placements={PCAV: (cav_at, 270.0)})
    idle = ids(s, PCAV)["react"]  # the 100e is within 20 cm but has done nothing this player-turn (5.2)
    assert not idle.legal and "has acted this player-turn" in idle.unavailable
    s.act(ActionRequest("declare_attack", ATT, {"target": DEF}))  # it acts: an attack
    assert ids(s, PCAV)["react"].legal
    out = s.act(ActionRequest("react", PCAV, {"kind": "move"}, umpire_result={"passed": True}))
    assert "half a move" in out.explanation
    from battlestudio.rules import get_ruleset
    from battlestudio.rules.moves import MoveRequest

    u = s.state.units[PCAV]
    f = forward(u.facing)
    check = get_ruleset("toe").move_check(
        s.state, MoveRequest(PCAV, (u.position, (u.position[0] + f[0] * 10, u.position[1] + f[1] * 10))), s.params
    )
    assert check.allowed_cm == pytest.approx(45.0 / 2) and any("reaction move" in n for n in check.notes)
    assert not any("passive side" in p for p in check.problems)


def test_an_interrupted_attack_turns_about_and_goes_back_its_march_length_and_declarers_do_not_fire():
    s = jena(phase="attack_declaration")
    s.act(ActionRequest("declare_attack", ATT, {"target": DEF}))
    s.advance_to("attack")
    assert "interrupt_attack" in ids(s, ATT)
    before = s.state.units[ATT]
    out = s.act(ActionRequest("interrupt_attack", ATT))
    after = s.state.units[ATT]
    assert out.status == "resolved" and after.facing == pytest.approx((before.facing + 180) % 360)
    assert after.position[1] == pytest.approx(before.position[1] - before.rect().depth - 30.0)
    assert f"attack_declared:{ATT}" not in s.state.flags


def _cavalry_reacts_onto_the_rear_of_the_100e():
    """Jena: the 100e Ligne declares on von Pelet; Schimmelpfennig's cavalry, 15.5 cm behind it,
    passes its reaction move, is dragged 18.4 cm onto the 100e's rear and declares there."""
    from battlestudio.rules import get_ruleset
    from battlestudio.rules.moves import MoveRequest

    s = jena(phase="attack_declaration", placements={PCAV: ((372.0, 160.0), 90.0)})
    assert s.act(ActionRequest("declare_attack", ATT, {"target": DEF})).status == "resolved"
    assert "declare_attack" not in ids(s, PCAV)  # the passive side declares only as a reacting unit
    s.act(ActionRequest("react", PCAV, {"kind": "move"}, umpire_result={"passed": True}))
    rear = (FRONT[0], FRONT[1] - s.state.units[ATT].rect().depth)
    check = get_ruleset("toe").move_check(s.state, MoveRequest(PCAV, ((372.0, 160.0), rear)), s.params)
    assert check.legal, check.problems
    s.move(PCAV, [(372.0, 160.0), rear])
    return s


def test_a_reacting_unit_of_the_passive_side_may_attack_and_its_target_cannot_carry_out_its_attack():
    s = _cavalry_reacts_onto_the_rear_of_the_100e()
    spec = ids(s, PCAV)["declare_attack"]
    assert spec.legal and ATT in spec.parameters[0].choices
    out = s.act(ActionRequest("declare_attack", PCAV, {"target": ATT}))
    assert out.status == "resolved" and "in the rear" in out.explanation and "cannot carry out" in out.explanation
    other = ids(s, DEF).get("declare_attack")  # von Pelet did not react: no declaration for it
    assert other is None
    s.advance_to("attack")
    mine = ids(s, ATT)["melee"]  # the 100e is infantry attacked by cavalry through reactions (5.2)
    assert not mine.legal and "infantry attacked by cavalry through reactions" in mine.unavailable
    refused = s.act(
        ActionRequest("melee", ATT, {"target": DEF}, {"winner": "attacker", "attacker_losses": 0, "defender_losses": 1})
    )
    assert refused.status == "refused" and "5.2, 7.1" in refused.explanation
    theirs = ids(s, PCAV)["melee"]
    assert theirs.legal
    out = s.act(
        ActionRequest(
            "melee", PCAV, {"target": ATT}, {"winner": "attacker", "attacker_losses": 1, "defender_losses": 3}
        )
    )
    assert out.status == "resolved" and s.state.units[ATT].figures == 15
    assert "melee" not in ids(s, DEF) or not ids(s, DEF)["melee"].legal  # von Pelet declared nothing


def test_cavalry_attacked_after_a_reaction_move_cannot_carry_out_its_attack_under_7_1():
    # the 10e Hussards declare on von Pelet's corner; Schimmelpfennig, 19 cm behind them, reacts onto their rear
    s = jena(phase="attack_declaration", placements={HUSSAR: ((345.0, 180.0), 90.0), PCAV: ((345.0, 155.0), 90.0)})
    assert s.act(ActionRequest("declare_attack", HUSSAR, {"target": DEF})).status == "resolved"
    s.act(ActionRequest("react", PCAV, {"kind": "move"}, umpire_result={"passed": True}))
    s.move(PCAV, [(345.0, 155.0), (345.0, 174.0)])
    assert s.act(ActionRequest("declare_attack", PCAV, {"target": HUSSAR})).status == "resolved"
    s.advance_to("attack")
    spec = ids(s, HUSSAR)["melee"]
    assert not spec.legal and "voluntary reaction move" in spec.unavailable and "7.1" in spec.unavailable
    assert "5.2, 7.1" not in spec.unavailable  # the 5.2 case is infantry's
    assert ids(s, ATT)["melee"].legal  # the 100e was not attacked by the reacting unit


def _chain(params=None):
    """Jena, French player-turn: the 100e declares on von Pelet; Schimmelpfennig's cavalry, 15.5 cm
    behind the 100e, and the 10e Hussards, 8 cm beyond the cavalry, may answer each other."""
    at = {PCAV: ((372.0, 160.0), 90.0), HUSSAR: ((372.0, 140.0), 270.0)}
    s = jena(phase="attack_declaration", placements=at, params=params)
    s.act(ActionRequest("declare_attack", ATT, {"target": DEF}))
    return s


def test_the_passive_side_reacts_first_and_the_active_side_answers_its_reactions():
    s = _chain()
    first = ids(s, HUSSAR)["react"]  # nothing to answer yet: the passive side reacts first (5.2)
    assert not first.legal and "reacts only to a reaction of an enemy unit" in first.unavailable
    assert ids(s, PCAV)["react"].legal  # the 100e acted within 20 cm of it
    s.act(ActionRequest("react", PCAV, {"kind": "move"}, umpire_result={"passed": True}))
    assert ids(s, HUSSAR)["react"].legal  # it answers Schimmelpfennig's reaction
    s.act(ActionRequest("react", HUSSAR, {"kind": "move"}, umpire_result={"passed": True}))
    again = ids(s, PCAV)["react"]  # 'once' (assumed): the chain goes on with other units only
    assert not again.legal and "cannot react again" in again.unavailable


def test_with_reaction_repeat_answer_a_unit_answers_a_reaction_made_after_its_own():
    s = _chain({"toe.reaction_repeat": "answer"})
    s.act(ActionRequest("react", PCAV, {"kind": "move"}, umpire_result={"passed": True}))
    assert not ids(s, PCAV)["react"].legal  # no enemy has reacted since its own reaction
    s.act(ActionRequest("react", HUSSAR, {"kind": "move"}, umpire_result={"passed": True}))
    spec = ids(s, PCAV)["react"]
    assert spec.legal and spec.parameters[0].choices == ("move",)
    out = s.act(ActionRequest("react", PCAV, {"kind": "move"}, umpire_result={"passed": False}))
    assert out.status == "resolved" and s.state.flags[f"reaction_attempted:{PCAV}"]["seq"] == 3
    assert not ids(s, HUSSAR)["react"].legal  # Schimmelpfennig's failed reaction is no action to answer


def test_only_an_enemy_that_acted_within_20_cm_opens_the_cavalry_reaction():
    # the 10e Hussards stand 15.5 cm from Schimmelpfennig's cavalry; in the French movement phase they
    # turn, move or do nothing, and the other French units within 20 cm of the Prussian cavalry stand still
    at = {PCAV: ((372.0, 140.0), 90.0), HUSSAR: ((400.0, 130.0), 180.0)}
    still = jena(phase="movement", placements=at)
    still.advance_to("attack_declaration")
    spec = ids(still, PCAV)["react"]
    assert not spec.legal and "no enemy unit within 20 cm" in spec.unavailable and "has acted" in spec.unavailable
    turned = jena(phase="movement", placements=at)
    turned.rotate(HUSSAR, 200.0)  # a turn is an action (5.2 'vendinger/pivoteringer')
    turned.advance_to("attack_declaration")
    assert ids(turned, PCAV)["react"].legal
    moved = jena(phase="movement", placements=at)
    moved.move(HUSSAR, [(400.0, 130.0), (395.0, 130.0)])
    moved.advance_to("attack_declaration")
    assert ids(moved, PCAV)["react"].legal


def _hussars_ride_onto_von_pelets_flank(start):
    """The 10e Hussards move in the French movement phase from ``start`` onto von Pelet's right
    flank (facing west, their front on his right edge) and declare there."""
    s = jena(phase="movement", placements={HUSSAR: (start, 180.0)})
    s.move(HUSSAR, [start, (374.0, 181.5)])
    s.advance_to("attack_declaration")
    return s, s.act(ActionRequest("declare_attack", HUSSAR, {"target": DEF}))


def test_a_flank_attack_is_judged_from_where_the_move_started():
    # von Pelet faces south, his front on y = 180: a move from y = 170 starts in front of his
    # extended front, one from y = 195 behind it (5.3)
    s, out = _hussars_ride_onto_von_pelets_flank((385.0, 170.0))
    assert "in the front" in out.explanation and "its move started in front of" in out.explanation
    assert s.state.flags[f"attack_declared:{HUSSAR}"]["aspect"] == "front"
    s.advance_to("attack")
    pv = s.preview_action(ActionRequest("melee", HUSSAR, {"target": DEF}))
    assert "front as declared" in pv.explanation  # the melee takes the declared side, not where it stands
    s2, out2 = _hussars_ride_onto_von_pelets_flank((385.0, 195.0))
    assert "in the flank" in out2.explanation and s2.state.flags[f"attack_declared:{HUSSAR}"]["aspect"] == "flank"
    face = ids(s2, DEF)["react"]  # 5.3: attacked in the flank, von Pelet may try to face
    assert "face" in face.parameters[0].choices
