"""Torden over Europa fixes of issue 16 (D2-D13, towns 4.8): each test names the seed section it tests."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from pathlib import Path

import pytest
from shapely.geometry import box

from battlestudio import store
from battlestudio.model.terrain import TownZone
from battlestudio.model.units import Arm, Formation
from battlestudio.rules import OrderRequest, ReplayDice, get_ruleset
from battlestudio.rules.moves import MoveRequest
from battlestudio.rules.toe import ruleset
from battlestudio.session import GameSession

from tests.rules.toe_runner import CASES, load_case


def _auerstedt():
    state, params, _, _ = load_case(CASES / "order-and-cancel-per-corps")
    return replace(state, orders={}), params


def test_2_12_odds_of_a_detachment_include_the_division_generals_ke():
    """2.12: a detachment rolls d10 + the corps general's KE + the division general's KE; the
    odds panel says the same chance the roll has (Davout KE 1, Gudin KE 1, zone 1 needs 4: 80 %)."""
    state, params = _auerstedt()
    odds = ruleset.odds(state, params, "davout", "gudin")
    assert [v for v, _ in odds.modifiers][:2] == [1, 1]
    assert "Gudin, used for detachments (2.12)" in odds.modifiers[1][1]
    assert odds.rows[0].chance == Fraction(8, 10)
    req = OrderRequest("davout", "gudin", "D", parameters={"mode": "H", "point": (60.0, 40.0)})
    dice = ReplayDice([("toe-command-control:o-2-1:order:t2", (2,))])  # 2 + 1 + 1 = 4: passes
    out = ruleset.order_phase(state, [req], params, dice)
    roll = out.outcomes[0].rolls[0]
    assert roll.success and roll.probability() == odds.rows[0].chance
    assert ruleset.odds(state, params, "davout", "davout").rows[0].chance == Fraction(7, 10)  # own T: no division KE


def test_2_5_a_division_general_rated_outside_10_20_cm_does_not_stop_the_army_check():
    """2.5: a division general's command distance is 10-20 cm; one rated 25 cm is reported, but the
    rest of the army is still checked, and his own brigades are measured with his rating."""
    from battlestudio.rules.toe import command
    from battlestudio.rules.toe.common import params_for

    state, params = _auerstedt()
    gudin = state.commanders["gudin"]
    state = replace(state, commanders={**state.commanders, "gudin": replace(gudin, command_distance=25)})
    found = {f.subject: f for f in ruleset.out_of_command(state, params, "french")}
    assert {"friant", "kister", "lochet", "debilly", "petit", "gautier"} <= set(found)
    assert found["petit"].reach == 25 and found["kister"].reach == 15
    report = command.check_command(state, params_for(params), "french")
    assert any("Gudin has command distance 25 cm, outside the rule's 10-20 cm" in str(r) for r in report.refusals)


# -- 4.8 towns in the move check ------------------------------------------------------------
ELCHINGEN = Path(__file__).resolve().parents[2] / "scenarios" / "elchingen-1805.battle.json"
TABLE = (240.0, 180.0)


@pytest.fixture(scope="module")
def movement():
    battle = store.load(ELCHINGEN)
    s = GameSession(battle, seed=4)
    s.advance_to("movement")
    return s.state, dict(s.params), battle.scenario


def _infantry(state, figures: int, at: tuple[float, float], uid: str = "", formation=Formation.LINE, side=None):
    side = side or state.side
    u = next(u for u in sorted(state.units.values(), key=lambda u: u.id) if u.arm is Arm.INFANTRY and u.side == side)
    return replace(
        u,
        id=uid or u.id,
        name=uid or u.name,
        figures=figures,
        position=at,
        facing=90.0,
        state="O",
        formation=formation,
        attributes={},
    )


def _move(state, params, u, to, towns, facing=None):
    req = MoveRequest(u.id, (u.position, to), facing, (), TABLE, towns)
    return get_ruleset("toe").move_check(state, req, params)


ZONE = TownZone("z", "Oberelchingen", box(100.0, 100.0, 115.0, 115.0))  # 225 cm², 4.8's default


def test_4_8_a_town_zone_holds_one_unit_or_40_figures(movement):
    """4.8 (D13): 'en enhed eller 40 figurer i en byzone' — a second unit may enter only while the
    two together have at most 40 figures; a battery may stand there besides them, one at most."""
    state, params, _ = movement
    holder = replace(_infantry(state, 24, (103.0, 110.0), "holder"), figure_width=0.5, figure_depth=0.5)
    small = _infantry(state, 16, (111.0, 95.0), "small")
    big = _infantry(state, 17, (111.0, 95.0), "big")
    st = state.evolve(units={u.id: u for u in (holder, small, big)})
    ok = _move(st, params, small, (111.0, 106.0), (ZONE,))
    assert ok.legal, ok.problems
    assert any("deploys in the town zone Oberelchingen (40 of at most 40 figures, 4.8)" in n for n in ok.notes)
    over = _move(st, params, big, (111.0, 106.0), (ZONE,))
    assert not over.legal
    assert "2 units of 41 figures; a town zone holds one unit or 40 figures (4.8" in over.problems[0]
    alone = state.evolve(units={big.id: big})
    assert _move(alone, params, big, (111.0, 106.0), (ZONE,)).legal  # one unit, however large
    assert not _move(st, params, big, (111.0, 106.0), ()).problems  # no towns given: nothing checked


def test_4_8_a_march_column_passes_an_empty_town_but_not_an_occupied_one(movement):
    """4.8 Gennemmarch af byer: a march column marches through an unoccupied town zone at no cost;
    through a zone others occupy it does not."""
    state, params, _ = movement
    col = replace(_infantry(state, 12, (107.5, 92.0), "col"), formation=Formation.MARCH_COLUMN)
    st = state.evolve(units={col.id: col})
    through = _move(st, params, col, (107.5, 120.0), (ZONE,))
    assert any(
        "marches through the empty town zone Oberelchingen in march column at no cost (4.8)" in n for n in through.notes
    )
    enemy_side = next(u.side for u in state.units.values() if u.side != state.side)
    held = _infantry(state, 10, (112.0, 107.5), "held", side=enemy_side)
    blocked = _move(state.evolve(units={col.id: col, held.id: held}), params, col, (107.5, 120.0), (ZONE,))
    assert not blocked.legal and "cannot march through the town zone Oberelchingen" in blocked.problems[-1]


def test_4_8_an_enemy_held_town_is_not_entered_and_one_battery_at_most(movement):
    """4.8/4.8.6: a zone the enemy holds is taken by attack, not by a move; one battery at most."""
    state, params, _ = movement
    gun = next(
        u for u in sorted(state.units.values(), key=lambda u: u.id) if u.arm is Arm.ARTILLERY and u.side == state.side
    )
    gun = replace(gun, position=(107.5, 95.0), facing=90.0, state="O", formation=Formation.LIMBERED, attributes={})
    other = replace(gun, id="gun2", name="gun2", position=(104.0, 108.0))
    st = state.evolve(units={gun.id: gun, other.id: other})
    two = _move(st, params, gun, (110.0, 106.0), (ZONE,))
    assert not two.legal and "at most one battery stands in a town zone (4.8, 4.8.6)" in two.problems[-1]
    enemy_side = next(u.side for u in state.units.values() if u.side != state.side)
    foe = _infantry(state, 10, (107.5, 107.5), "foe", side=enemy_side)
    me = _infantry(state, 10, (107.5, 95.0), "me")
    st = state.evolve(units={foe.id: foe, me.id: me})
    assert (
        "holds it; a town is taken by attack (4.8, 7.1)" in _move(st, params, me, (107.5, 106.0), (ZONE,)).problems[-1]
    )


def test_4_8_the_session_gives_the_move_check_the_scenarios_towns(movement):
    """4.8: an action's request carries the scenario's town zones, as it carries its terrain."""
    from battlestudio.rules.actions import ActionRequest

    battle = store.load(ELCHINGEN)
    s = GameSession(battle, seed=4)
    filled = s._with_table(ActionRequest("execute_order", "x"))
    assert len(filled.towns) == len(battle.scenario.towns) > 0


def test_2_10_a_corps_marches_only_with_its_artillery_limbered():
    """2.10 'Artilleri skal være påprodset': with a battery of the corps unlimbered the march does
    not take place; limbered, the corps marches its 15 cm (the case march-75cm-path-limit moves
    the Prussians away so nothing else stops it)."""
    state, params, _, _ = load_case(CASES / "march-75cm-path-limit")
    state = state.evolve(
        units={k: v for k, v in state.units.items() if k != "prussian-3"}
        | {"prussian-3": replace(state.units["prussian-3"], position=(400.0, 50.0))}
    )
    free = ruleset.legal_move(state, "davout", params)
    assert free.max_cm == pytest.approx(15.0)
    gun = replace(state.units["iii-artillery"], formation=Formation.UNLIMBERED)
    held = ruleset.legal_move(state.evolve(units={**state.units, gun.id: gun}), "davout", params)
    assert held.max_cm == 0.0 and not held.events
    assert "artillery must be limbered ('Artilleri skal være påprodset', 2.10): III Corps artillery" in held.explanation


def test_2_9_an_automatic_retreat_is_assigned_only_with_its_cause():
    """2.9: a corps general may assign the automatic retreat only when more than half the corps'
    non-artillery units are in U/FU or the enemy has his position."""
    state, params = _auerstedt()
    req = OrderRequest("davout", "davout", "T", parameters={"automatic": True})
    out = ruleset.order_phase(state, [req], params, ReplayDice([]))
    assert out.outcomes[0].status == "refused"
    assert "has no cause for an automatic retreat" in out.outcomes[0].explanation
    assert not out.events


# -- the order-system cases, by the section each tests ----------------------------------------
def _run_cases(*names: str) -> None:
    from tests.rules.toe_runner import final_view, match, run_action

    for name in names:
        state, params, actions, expected = load_case(CASES / name)
        for i, (action, want) in enumerate(zip(actions, expected["steps"], strict=True)):
            result, state = run_action(state, params, action)
            match(want, result, f"{name} step {i + 1}")
        if "final" in expected:
            match(expected["final"], final_view(state), f"{name} final")


def test_2_1_orders_go_to_corps_generals_and_the_rest_follow_command_distance():
    """2.1: orders go to corps (and army) generals; the other echelons get no orders of their own."""
    _run_cases("order-types-and-reach", "corps-own-retreat")


def test_2_6_every_order_but_hold_has_an_objective():
    """2.6 Objektiv: an attack without an objective is refused; its limits (2.7)."""
    _run_cases("attack-objective-limits", "attack-objective-reached")


def test_2_8_hold_is_the_default_and_the_defence_order():
    """2.8 Holdordre: a completed order leaves a defence order read as hold (A7); a new order replaces it."""
    _run_cases("superseded-and-defence", "new-order-replaces-pending")


def test_2_11_detachment_of_divisions_and_brigades():
    """2.11 Detachering: detached with M, H or T to a point, no attack order, lifted by a march order,
    an order in force not cancelled (2.12, ERRATA 6)."""
    _run_cases(
        "detachment-of-a-division",
        "detachment-and-lifting",
        "detached-formations-move-to-their-point",
        "detachment-cancelled",
    )


def test_3_1_command_control_of_chiefs_and_corps_generals_own_orders():
    """3.1 Kommandokontrol, generelt: a chief's order rolls in his zones (3.2), a corps general's own
    order rolls as zone 1 (A20)."""
    _run_cases("control-zone-boundaries", "corps-own-retreat", "failed-order-rerolled")


def test_1_4_generals_measure_command_from_their_position():
    """1.4 Generaler: a general is measured from his position (Table 12 lost, assumed general_base)."""
    _run_cases("out-of-command-boundaries")


def test_2_12_a_corps_general_moved_with_order_capacity_gets_no_order_that_turn():
    """2.12: 1 OAS moves a corps general only while he carries out no other order, so after his
    bought 15 cm move (an order phase declared one at a time) he gets no A/H/T/M order that turn;
    the next turn he may."""
    from tests.rules.toe_runner import run_action

    state, params, _, _ = load_case(CASES / "oas-general-moves")
    move = {"issuer": "napoleon", "recipient": "davout", "order_type": "move", "parameters": {"to": [100, 35]}}
    result, state = run_action(state, params, {"do": "order_phase", "requests": [move]})
    assert result["outcomes"][0]["status"] == "delivered" and state.flags["moved_by_oas:davout"] == 1
    hold = {"issuer": "napoleon", "recipient": "davout", "order_type": "H"}
    result, after = run_action(state, params, {"do": "order_phase", "requests": [hold]})
    out = result["outcomes"][0]
    assert out["status"] == "refused" and "was moved with order capacity this turn" in out["explanation"]
    assert "(2.12)" in out["explanation"] and after.orders == state.orders
    dice = [["toe-command-control:o-2-1:order:t2", [9]]]
    result, _ = run_action(state.evolve(turn=2), params, {"do": "order_phase", "requests": [hold], "dice": dice})
    assert result["outcomes"][0]["status"] == "delivered"


def test_2_9_an_automatic_retreat_off_the_table_is_said_or_held_on_it():
    """2.9 puts the objective 1 m directly away from the enemy: for Davout at (100, 50) facing the
    Prussians that is (100, -50), beyond the table. An objective is a point on the table (2.6,
    ERRATA 4), so by default ('edge') it is held on the retreat line 1 cm inside the table and
    the order the corps general writes carries the held objective; the assumed reading 'off'
    keeps it, and the command check says the corps is lost if it retreats over the edge (4.4)."""
    from battlestudio.rules.toe.checks import auto_retreat_objective
    from battlestudio.rules.toe.common import params_for

    state, params = _auerstedt()
    table = {**params, "table_cm": [240.0, 180.0]}
    assert params_for(params).get("auto_retreat_off_table") == "edge"
    assert auto_retreat_objective(state, params_for(params), "davout") == pytest.approx((100.0, -50.0))  # no table
    assert auto_retreat_objective(state, params_for(table), "davout") == pytest.approx((100.0, 1.0))
    off = {**table, "toe.auto_retreat_off_table": "off"}
    assert auto_retreat_objective(state, params_for(off), "davout") == pytest.approx((100.0, -50.0))
    # a corps with most of its units in disorder may retreat automatically
    corps = [u for u in state.units.values() if u.side == "french" and u.arm is not Arm.ARTILLERY]
    state = state.evolve(units={**state.units, **{u.id: replace(u, state="U") for u in corps}})
    check = ruleset.command_check(state, "davout", off, ReplayDice([]))
    assert "beyond the 240 × 180 cm table" in check.explanation and "(4.4" in check.explanation
    held = ruleset.command_check(state, "davout", table, ReplayDice([]))
    assert "beyond" not in held.explanation and "(100.0, 1.0)" in held.explanation
    req = OrderRequest("davout", "davout", "T", parameters={"automatic": True})
    dice = [("toe-command-control:o-1-1:order:t1", (9,))]
    out = ruleset.order_phase(state, [req], table, ReplayDice(dice))
    written = [e for e in out.events if e.kind == "order_written"]
    assert written and written[0].objective == pytest.approx((100.0, 1.0)), out.explanation()
    out = ruleset.order_phase(state, [req], off, ReplayDice(dice))
    written = [e for e in out.events if e.kind == "order_written"]
    assert written and written[0].objective == pytest.approx((100.0, -50.0)), out.explanation()


def test_2_9_a_corps_at_the_table_edge_gets_no_automatic_retreat_and_holds():
    """A corps whose automatic retreat is due but whose general already stands at the table edge
    on his line of retreat has no point on the table further back (2.6, 2.9): the forced
    assignment writes no order and the check says so; with 'off' it writes the 1 m order."""
    state, params = _auerstedt()
    corps = [u for u in state.units.values() if u.side == "french" and u.arm is not Arm.ARTILLERY]
    davout = state.commanders["davout"]
    state = state.evolve(
        units={**state.units, **{u.id: replace(u, state="U") for u in corps}},
        commanders={**state.commanders, "davout": replace(davout, position=(davout.position[0], 0.5))},
    )
    forced = {**params, "table_cm": [240.0, 180.0], "toe.auto_retreat_assignment": "forced"}
    held = ruleset.command_check(state, "davout", forced, ReplayDice([]))
    assert held.flags["auto_retreat_at_edge"] and not [e for e in held.events if e.kind == "order_written"]
    assert "stands at the table edge" in held.explanation and "(2.6, 2.9)" in held.explanation
    # offered (the default assignment): the check says so and the corps general's own order is refused
    offered = {**params, "table_cm": [240.0, 180.0]}
    assert "stands at the table edge" in ruleset.command_check(state, "davout", offered, ReplayDice([])).explanation
    req = OrderRequest("davout", "davout", "T", parameters={"automatic": True})
    out = ruleset.order_phase(state, [req], offered, ReplayDice([]))
    assert out.outcomes[0].status == "refused" and "(2.6, 2.9)" in out.outcomes[0].explanation
    off = {**forced, "toe.auto_retreat_off_table": "off"}
    gone = ruleset.command_check(state, "davout", off, ReplayDice([]))
    written = [e for e in gone.events if e.kind == "order_written"]
    assert written and written[0].objective == pytest.approx((100.0, -99.5))


LEIPZIG = Path(__file__).resolve().parents[2] / "scenarios" / "leipzig-1813.battle.json"
BARCLAY = "russo-prussian-army-hq-russo-prussian-army-hq"
CONSTANTINE = "russian-reserve-constantine-russian-reserve-army"
GUARD, RUSSIAN_1 = "russo-prussian-5-guard-corps-russo-prussian-5th-guard-corps", "russian-1-corps-1st-russian-corps"


def _leipzig_with_barclay_at(offset_cm: float):
    """Leipzig's deployment with the Allied C-in-C (Barclay) moved to ``offset_cm`` beside Grand Duke
    Constantine, the army chief of the reserve (Guard corps, reserve cavalry and artillery)."""
    from battlestudio.replay.game import GameLog

    battle = store.load(LEIPZIG)
    state = GameLog.from_battle(replace(battle, events=[])).initial
    reserve = {CONSTANTINE, *state.oob.all_subordinates(CONSTANTINE)}  # arrived at Güldengossa
    x, y = state.commanders[CONSTANTINE].position
    barclay = replace(state.commanders[BARCLAY], position=(x + offset_cm, y))
    state = state.evolve(commanders={**state.commanders, BARCLAY: barclay}, off_table=state.off_table - reserve)
    return state, dict(battle.scenario.info.parameters)


def _why(state, params, issuer, recipient):
    from battlestudio.rules.toe.common import params_for
    from battlestudio.rules.toe.orders import check_request

    return check_request(state, params_for(params), OrderRequest(issuer, recipient, "H"))


def test_2_2_a_c_in_c_attached_to_an_army_chief_takes_over_his_command():
    """2.2 "En hærchef kan tilknyttes en arméchef ... hærchefen overtager kommandoen", 2.12 base
    contact, read as one (A5): Barclay in base contact with Constantine orders Constantine's Guard
    corps and Constantine orders none; 2 cm apart, each orders only his own."""
    from battlestudio.rules.toe.common import attachments, commander_of, params_for

    apart, params = _leipzig_with_barclay_at(2.0)
    assert attachments(apart, params_for(params)) == {}
    assert "orders only corps generals or divisions directly under him" in _why(apart, params, BARCLAY, GUARD)
    assert _why(apart, params, CONSTANTINE, GUARD) == ""
    assert _why(apart, params, BARCLAY, RUSSIAN_1) == ""

    joined, params = _leipzig_with_barclay_at(0.3)  # within contact_tolerance_cm
    p = params_for(params)
    assert attachments(joined, p) == {CONSTANTINE: BARCLAY}
    assert commander_of(joined, p, GUARD) == BARCLAY and commander_of(joined, p, RUSSIAN_1) == BARCLAY
    assert _why(joined, params, BARCLAY, GUARD) == "" and _why(joined, params, BARCLAY, RUSSIAN_1) == ""
    refused = _why(joined, params, CONSTANTINE, GUARD)
    assert "has taken over his command" in refused and "(2.2" in refused
    # the order goes through Barclay's command control with his OAS (3) and KE
    req = OrderRequest(BARCLAY, GUARD, "H")
    out = ruleset.order_phase(joined, [req], params, ReplayDice([("toe-command-control:o-0-1:order:t0", (9,))]))
    kinds = [e.kind for e in out.events]
    assert kinds[0] == "order_written" and "order_delivered" in kinds, out.explanation()
    assert "KE) of Barclay de Tolly (2.12)" in out.explanation()
    assert out.events[0].issuer == BARCLAY and out.events[0].cost == 1


def test_2_12_read_literally_the_army_chief_in_base_contact_acts_as_c_in_c():
    """The other reading (attached_chief_commands = "army", 2.12 "vil det være arméchefen der
    fungere som hærchef"): Constantine in base contact with Barclay orders Barclay's corps as well
    as his own, and Barclay orders none."""
    from battlestudio.rules.toe.common import commander_of, params_for

    joined, params = _leipzig_with_barclay_at(0.3)
    army = {**params, "toe.attached_chief_commands": "army"}
    assert commander_of(joined, params_for(army), RUSSIAN_1) == CONSTANTINE
    assert _why(joined, army, CONSTANTINE, RUSSIAN_1) == "" and _why(joined, army, CONSTANTINE, GUARD) == ""
    refused = _why(joined, army, BARCLAY, RUSSIAN_1)
    assert "acts as C-in-C" in refused and "(2.12" in refused
    assert _why(joined, params, BARCLAY, RUSSIAN_1) == ""  # the default reading: Barclay commands
    bad = {**params, "toe.attached_chief_commands": "both"}
    with pytest.raises(Exception, match="attached_chief_commands 'both' is not supported"):
        _why(joined, bad, BARCLAY, RUSSIAN_1)


def test_1_1_an_imported_map_becomes_table_cm_at_1_m_to_3_km():
    """1.1 "1m. på terrænet ... svarer til 3 km": ORBAT Mapper's two batteries at 10.7° and 10.8° E on
    59.89° N are 5.60 km apart on the WGS84 ellipsoid, so 186.6 cm apart on the table the import
    lays out (30 m per cm, toe.toml ground_scale_m_per_cm); a scenario's other scale changes it."""
    import math

    from battlestudio.rules.toe.scale import ground_distance_cm, ground_scale_m_per_cm, table_cm
    from battlestudio.store.importers.orbat_mapper import import_orbat_mapper

    assert ground_scale_m_per_cm() == 30.0 and table_cm(3, "km") == pytest.approx(100.0)
    assert table_cm(1000, "yd") == pytest.approx(914.4 / 30)
    want = ground_distance_cm((10.7, 59.89), (10.8, 59.89))
    assert want == pytest.approx(186.6, abs=0.1)
    data = Path(__file__).resolve().parents[1] / "data" / "orbat-mapper" / "issue663Scenario.json"
    sc = import_orbat_mapper(data).scenario
    assert sc.info.ground_scale == 30.0
    placed = math.dist(sc.units["alpha-battery"].position, sc.units["bravo-battery"].position)
    assert placed == pytest.approx(want, rel=2e-3)
    assert ground_distance_cm((10.7, 59.89), (10.8, 59.89), {"toe.ground_scale_m_per_cm": 60}) == pytest.approx(
        want / 2
    )
    with pytest.raises(Exception, match="ground_scale_m_per_cm must be metres per table cm above 0"):
        table_cm(1, "km", {"toe.ground_scale_m_per_cm": 0})
    with pytest.raises(ValueError, match="unknown distance unit 'pace'"):
        table_cm(100, "pace")
