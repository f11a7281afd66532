"""Belle Alliance's melee procedure (seed 001, 4.1.1–4.1.8) played through ``GameSession.act``
on the bundled Elchingen scenario: announcement against the order sheet, an attack with a
neighbour and a support, two attacks on a common target, an attack cancelled by a flank attack
of cavalry, a target that went FU in the fire phase, the continued attack, and the after-melee
status carried for the rest of this and all the next turn.

The excerpt lost the melee dice and skema 8, 11 and 12, so the umpire enters each side's
modified result, the loser's morale result and the losses; the numbers below are such entries,
and the tests check what the seed does with them (the lower result loses, best result for a
common target, losses summed before rounding down, inflicted losses from the defender's best
attack shared pro rata, prisoners only from FU units)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.combat_events import Casualties, Melee
from battlestudio.replay.flow_events import FormationChanged, Moved, OrderStateChanged
from battlestudio.rules import get_ruleset
from battlestudio.rules.actions import ActionRequest
from battlestudio.rules.belle_alliance.events import MeleeStatus
from battlestudio.rules.belle_alliance.geometry import classify
from battlestudio.rules.belle_alliance.melee import share
from battlestudio.rules.belle_alliance.melee_plan import carried
from battlestudio.rules.belle_alliance.paths import figures_of
from battlestudio.rules.protocol import OrderRequest
from battlestudio.session import GameSession

ELCHINGEN = Path(__file__).resolve().parents[2] / "scenarios" / "elchingen-1805.battle.json"
ROGUET, VILLATTE, DELABASSEE = "french-bde-roguet", "french-bde-villatte", "french-bde-delabassee"
AVANT, CAV, CENTRE = "austrian-avantgarde", "austrian-avantgarde-cavalry", "austrian-centre-bde"
ISSUER = {ROGUET: "french-2eme-division", VILLATTE: "french-2eme-division", CAV: "austrian-1st-div"}
# the Austrian avant-garde's front runs y = 61 from x 95 to 129, facing south (270°); the
# French columns face north with their fronts at y = 58: their 5 cm break-in zones touch it
PLACES = {ROGUET: ((106.0, 58.0), 90.0), VILLATTE: ((131.0, 58.0), 90.0), DELABASSEE: ((106.0, 52.0), 90.0)}


def session() -> GameSession:
    battle = store.load(ELCHINGEN)
    info = battle.scenario.info
    battle.scenario.info = replace(info, parameters={**info.parameters, "support_max_cm": 10})
    s = GameSession(battle, get_ruleset("belle-alliance"), seed=5)
    s.start()
    return s


def stamp(s: GameSession) -> dict:
    k = s.key
    return {"turn": k.turn, "side": k.side, "phase": k.phase}


def place(s: GameSession, places: dict) -> None:
    s.record_all([Moved(**stamp(s), id=u, path=(xy,), facing=f) for u, (xy, f) in places.items()])


def order(s: GameSession, unit: str, target: str, **extra) -> None:
    """Write ``unit``'s attack order and enter its order roll as passed (1.1.3 is missing)."""
    out = s.issue_order(OrderRequest(ISSUER[unit], unit, "attack", parameters={"target": target, **extra}))
    assert out.status == "pending", out.explanation
    assert s.act(ActionRequest("order_roll", unit, umpire_result={"result": "passed"})).status == "resolved"


def announce(s: GameSession, unit: str, **params) -> str:
    out = s.act(ActionRequest("announce_attack", unit, parameters=params))
    assert out.status == "resolved", out.explanation
    return out.explanation


def french_attacks(s: GameSession, attackers: dict) -> None:
    """French orders for ``attackers`` (unit → target), placed and announced in their movement."""
    s.advance_to("orders", side="french")
    for u, t in attackers.items():
        order(s, u, t)
    s.advance_to("movement", side="french")
    place(s, PLACES)
    for u in attackers:
        announce(s, u)


def entry(attacker: str, a: int, d: int, loser: str, on_d: str = "0", on_a: str = "0") -> dict:
    return {
        f"attacker_result:{attacker}": a,
        f"defender_result:{attacker}": d,
        f"loser_state:{attacker}": loser,
        f"losses_on_defender:{attacker}": on_d,
        f"losses_on_attacker:{attacker}": on_a,
    }


def recorded(s: GameSession, kind: type) -> list:
    return [e for e in s.battle.events if isinstance(e, kind)]


# -- 4.1.1 / 4.1.2: the announcement -----------------------------------------------------------
def test_announcement_is_checked_against_the_order_sheet():
    s = session()
    s.advance_to("orders", side="french")
    order(s, ROGUET, AVANT, against_position="yes")
    s.advance_to("movement", side="french")
    bad = s.act(ActionRequest("announce_attack", ROGUET, parameters={"target": CENTRE}))
    assert bad.status == "refused" and "names target 'austrian-avantgarde'" in bad.explanation
    # storm is announced, not written; the sheet's position not announced: an attack on the unit
    text = announce(s, ROGUET, storm="yes")
    assert "with storm" in text and "attack on the unit (4.1.2)" in text
    rec = s.state.flags[f"ba:attack:{ROGUET}"]
    assert rec["target"] == AVANT and rec["storm"] is True and rec["against_position"] is False
    (spec,) = [a for a in s.actions(ROGUET) if a.id == "announce_attack"]
    assert "already announced" in spec.unavailable


def test_an_order_never_rolled_cannot_be_announced():
    s = session()
    s.advance_to("orders", side="french")
    s.issue_order(OrderRequest(ISSUER[ROGUET], ROGUET, "attack", parameters={"target": AVANT}))
    s.advance_to("movement", side="french")
    (spec,) = [a for a in s.actions(ROGUET) if a.id == "announce_attack"]
    assert "never passed by an order roll" in spec.unavailable
    assert s.act(ActionRequest("announce_attack", ROGUET)).status == "refused"


def test_a_position_attack_records_the_position_when_announced():
    s = session()
    s.advance_to("orders", side="french")
    order(s, ROGUET, AVANT, against_position="yes")
    s.advance_to("movement", side="french")
    announce(s, ROGUET, against_position="yes")
    rec = s.state.flags[f"ba:attack:{ROGUET}"]
    assert rec["against_position"] and len(rec["position"]) == 5
    # the avant-garde leaves its position: the position attack finds it abandoned (4.1.2)
    s.record(Moved(**stamp(s), id=AVANT, path=((112.0, 90.0),)))
    s.advance_to("melee", side="french")
    out = s.act(ActionRequest("melee", AVANT))
    assert out.status == "resolved" and "abandoned" in out.explanation
    assert not recorded(s, Melee)


# -- 4.1.3, 4.1.6, 4.1.7: one attack with a neighbour and a support ----------------------------
def test_attack_with_a_neighbour_and_a_support():
    s = session()
    french_attacks(s, {ROGUET: AVANT})
    # the avant-garde fires at roguet in the fire phase: the fired-this-turn deduction (4.1.3)
    s.advance_to("fire", side="french")
    fire = s.act(ActionRequest("fire", AVANT, {"target": ROGUET, "part": True}, {"losses": 0, "target_state": "O"}))
    assert fire.status == "resolved" and "only part of it" in fire.explanation
    s.advance_to("melee", side="french")
    req = ActionRequest("melee", AVANT, parameters={"neighbour": VILLATTE, "support": DELABASSEE})
    (spec,) = [a for a in s.actions(AVANT) if a.id == "melee"]
    assert "skema 11" in spec.umpire_table
    assert {f.name for f in spec.umpire_result} >= {f"attacker_result:{ROGUET}", f"loser_state:{ROGUET}"}
    preview = s.preview_action(req)
    assert preview.legal and preview.umpire_entry, preview.reason
    assert f"neighbour {VILLATTE} (4.1.6)" in preview.explanation
    assert f"support {DELABASSEE} (4.1.7)" in preview.explanation
    assert "deduction: fired this turn (4.1.3)" in preview.explanation
    # the two front ranks count for losses (4.1.3): 12 files of the column and 34 of the line
    assert f"figures counted for losses: 24 of {ROGUET}, 34 of {AVANT}" in preview.explanation
    # the roguet column rolls 8 against 5: the avant-garde loses by 3 and goes U (the umpire's skema 11)
    out = s.act(replace(req, umpire_result=entry(ROGUET, 8, 5, "U", on_d="2.5", on_a="1.5")))
    assert out.status == "resolved", out.explanation
    (melee,) = recorded(s, Melee)
    assert melee.winner == "attacker" and melee.attackers == (ROGUET,) and melee.defenders == (AVANT,)
    assert melee.roll["attacks"][ROGUET]["difference"] == 3
    assert s.state.units[AVANT].state == "U"
    losses = {e.unit: e.figures for e in recorded(s, Casualties)}
    assert losses == {AVANT: 2, ROGUET: 1}  # 2.5 and 1.5 rounded down
    assert s.state.units[AVANT].figures == 32 and s.state.units[ROGUET].figures == 33
    # the neighbour counts as attacker like the attacker (4.1.6); the support does not
    assert s.state.flags[f"ba:melee:{VILLATTE}"]["attacker_until"] == 2
    assert f"ba:melee:{DELABASSEE}" not in s.state.flags
    assert s.state.flags[f"ba:melee:{AVANT}"]["defender_until"] == 2
    # no FU, no prisoners and no continued attack
    assert f"ba:continue:{ROGUET}" not in s.state.flags


def test_a_neighbour_or_support_that_fails_the_conditions_is_refused():
    s = session()
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("melee", side="french")
    s.record(OrderStateChanged(**stamp(s), unit=VILLATTE, state="U"))
    res = entry(ROGUET, 8, 5, "U")
    out = s.act(ActionRequest("melee", AVANT, parameters={"neighbour": VILLATTE}, umpire_result=res))
    assert out.status == "refused" and "4.1.6: in U" in out.explanation
    far = s.act(ActionRequest("melee", AVANT, parameters={"support": "french-bde-de-marcognet"}, umpire_result=res))
    assert far.status == "refused" and "cannot be a support unit" in far.explanation


def test_support_distance_is_a_missing_scenario_parameter():
    s = session()
    s.params = {k: v for k, v in s.params.items() if k != "support_max_cm"}
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("melee", side="french")
    out = s.act(
        ActionRequest("melee", AVANT, parameters={"support": DELABASSEE}, umpire_result=entry(ROGUET, 8, 5, "U"))
    )
    assert out.status == "refused" and "support_max_cm" in out.explanation


def test_the_umpire_must_enter_the_lost_tables():
    s = session()
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("melee", side="french")
    out = s.act(ActionRequest("melee", AVANT))
    assert out.status == "refused" and "enter the table's result" in out.explanation
    bad = s.act(ActionRequest("melee", AVANT, umpire_result=entry(ROGUET, 8, 5, "routed")))
    assert bad.status == "refused" and "O, LU, U, FU" in bad.explanation
    no_fu = s.act(
        ActionRequest("melee", AVANT, umpire_result={**entry(ROGUET, 8, 5, "U"), "prisoners_from_defender": 2})
    )
    assert no_fu.status == "refused" and "only from a unit in FU" in no_fu.explanation
    too_many = s.act(ActionRequest("melee", AVANT, umpire_result=entry(ROGUET, 8, 5, "U", on_d="40")))
    assert too_many.status == "refused" and "more than the 34" in too_many.explanation
    assert not recorded(s, Melee)


def test_the_defender_wins_when_the_attacker_rolls_lower():
    s = session()
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("melee", side="french")
    out = s.act(ActionRequest("melee", AVANT, umpire_result=entry(ROGUET, 4, 6, "LU", on_d="1", on_a="2")))
    assert out.status == "resolved", out.explanation
    (melee,) = recorded(s, Melee)
    assert melee.winner == "defender"
    assert s.state.units[ROGUET].state == "LU" and s.state.units[AVANT].state == "O"


# -- 4.1.5: a common target ------------------------------------------------------------------------
def test_two_attacks_on_a_common_target():
    s = session()
    french_attacks(s, {ROGUET: AVANT, VILLATTE: AVANT})
    s.advance_to("melee", side="french")
    res = {
        # roguet wins by 3 (skema 11: U), villatte by 1 (LU): the avant-garde takes U from roguet
        **entry(ROGUET, 7, 4, "U", on_d="1.5", on_a="5"),
        **entry(VILLATTE, 6, 5, "LU", on_d="0.75", on_a="3"),
    }
    out = s.act(ActionRequest("melee", AVANT, umpire_result=res))
    assert out.status == "resolved", out.explanation
    (melee,) = recorded(s, Melee)
    assert set(melee.attackers) == {ROGUET, VILLATTE}
    assert melee.roll["measured_from"] == ROGUET
    assert s.state.units[AVANT].state == "U"
    # losses suffered summed before rounding down: 1.5 + 0.75 = 2.25 -> 2 (each alone: 1 + 0)
    # losses inflicted from the attack where the defender did best (villatte's, -1 against -3):
    # 3 figures shared by the figures counted (24 and 24): 1 each, the remainder to the first
    losses: dict[str, int] = {}
    for e in recorded(s, Casualties):
        losses[e.unit] = losses.get(e.unit, 0) + e.figures
    assert losses == {AVANT: 2, ROGUET: 2, VILLATTE: 1}
    assert melee.roll["best_for_defender"] == VILLATTE


def test_equal_morale_results_let_the_defender_pick_whom_it_retreats_from():
    s = session()
    french_attacks(s, {ROGUET: AVANT, VILLATTE: AVANT})
    s.advance_to("melee", side="french")
    res = {**entry(ROGUET, 7, 4, "U"), **entry(VILLATTE, 6, 5, "U")}
    wrong = s.act(ActionRequest("melee", AVANT, parameters={"measured_from": DELABASSEE}, umpire_result=res))
    assert wrong.status == "refused" and "4.1.5" in wrong.explanation
    out = s.act(ActionRequest("melee", AVANT, parameters={"measured_from": VILLATTE}, umpire_result=res))
    assert out.status == "resolved"
    assert recorded(s, Melee)[0].roll["measured_from"] == VILLATTE


def test_prisoners_only_from_a_unit_in_fu_and_removed_from_the_table():
    s = session()
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("melee", side="french")
    res = {**entry(ROGUET, 9, 2, "FU", on_d="3.5"), "prisoners_from_defender": 4}
    out = s.act(ActionRequest("melee", AVANT, umpire_result=res))
    assert out.status == "resolved", out.explanation
    causes = [(e.figures, e.cause) for e in recorded(s, Casualties) if e.unit == AVANT]
    assert causes[0][0] == 3 and causes[1] == (4, "prisoners, removed from the table (4.1.3)")
    assert s.state.units[AVANT].figures == 27 and s.state.units[AVANT].state == "FU"
    # the FU bonus for the rest of this and all the next turn, and the right to a continued attack
    assert s.state.flags[f"ba:melee:{ROGUET}"]["fu_bonus_until"] == 2
    assert s.state.flags[f"ba:continue:{ROGUET}"]["turn"] == 1


# -- 4.1.1, 4.1.8: an attack cancelled by a flank attack --------------------------------------------
CAV_FLANK = ((91.0, 55.4), 0.0)  # facing east, wholly behind roguet's extended front (y 58), at its left flank


def test_an_attacker_attacked_in_the_flank_loses_its_attack_and_defends():
    s = session()
    s.advance_to("orders", side="austrian")
    order(s, CAV, ROGUET)
    s.advance_to("movement", side="austrian")
    place(s, {**PLACES, CAV: CAV_FLANK})
    a, t = s.state.units[CAV], s.state.units[ROGUET]
    assert classify(a.rect(), t.rect(), figures_of(a)) == "flank"
    announce(s, CAV)
    s.advance_to("orders", side="french")
    order(s, ROGUET, AVANT)
    s.advance_to("movement", side="french")
    announce(s, ROGUET)
    s.advance_to("melee", side="french")  # all attacks of the turn resolved together (4.1.1)
    cancelled = s.act(ActionRequest("melee", AVANT))
    assert cancelled.status == "resolved"
    assert f"{ROGUET} is attacked in the flank by {CAV}: its own attack is cancelled" in cancelled.explanation
    assert s.state.flags[f"ba:attack:{ROGUET}"]["cancelled"]
    assert not recorded(s, Melee)
    # the cavalry's melee with roguet as defender; its losses count the two outermost files
    pv = s.preview_action(ActionRequest("melee", ROGUET))
    assert "flank attack (4.1.8)" in pv.explanation
    assert f"of {CAV}, 6 of {ROGUET}" in pv.explanation  # 2 files x 3 ranks
    out = s.act(ActionRequest("melee", ROGUET, umpire_result=entry(CAV, 6, 3, "U", on_d="2")))
    assert out.status == "resolved", out.explanation
    assert s.state.units[ROGUET].state == "U"
    assert s.state.flags[f"ba:melee:{ROGUET}"]["defender_until"] == 2


def test_infantry_attacked_by_cavalry_loses_its_attack():
    s = session()
    s.advance_to("orders", side="austrian")
    order(s, CAV, ROGUET)
    s.advance_to("movement", side="austrian")
    # at roguet's left flank but reaching beyond its extended front (y 58): not a flank attack
    place(s, {**PLACES, CAV: ((91.0, 57.0), 0.0)})
    a, t = s.state.units[CAV], s.state.units[ROGUET]
    assert classify(a.rect(), t.rect(), figures_of(a)) not in ("flank", "rear")
    announce(s, CAV)
    s.advance_to("orders", side="french")
    order(s, ROGUET, AVANT)
    s.advance_to("movement", side="french")
    announce(s, ROGUET)
    s.advance_to("melee", side="french")
    out = s.act(ActionRequest("melee", AVANT))
    assert f"infantry {ROGUET} is attacked by cavalry {CAV}: its own attack is cancelled" in out.explanation
    assert not recorded(s, Melee)


def test_a_cavalry_attack_not_at_break_in_distance_cancels_nothing():
    s = session()
    s.advance_to("orders", side="austrian")
    order(s, CAV, ROGUET)
    s.advance_to("movement", side="austrian")
    place(s, {**PLACES, CAV: ((80.0, 57.0), 0.0)})  # 14 cm off: its zone does not reach roguet
    announce(s, CAV)
    s.advance_to("orders", side="french")
    order(s, ROGUET, AVANT)
    s.advance_to("movement", side="french")
    announce(s, ROGUET)
    s.advance_to("melee", side="french")
    assert [f.name for f in s.actions(AVANT)[0].umpire_result][0] == f"attacker_result:{ROGUET}"


# -- 4.1.1, 4.1.4: FU in the fire phase; the continued attack; carried status -----------------------
def test_a_target_in_fu_from_the_fire_phase_gives_the_bonus_and_a_continued_attack():
    s = session()
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("fire", side="french")
    s.record(OrderStateChanged(**stamp(s), unit=AVANT, state="FU", reason="fire"))
    s.advance_to("melee", side="french")
    (spec,) = [a for a in s.actions(AVANT) if a.id == "melee"]
    assert spec.umpire_table == ""  # nothing to roll: the melee is not fought
    out = s.act(ActionRequest("melee", AVANT))
    assert out.status == "resolved" and "not fought" in out.explanation
    assert s.state.flags[f"ba:melee:{ROGUET}"] == {"attacker_until": 2, "fu_bonus_until": 2}
    assert s.state.flags[f"ba:melee:{AVANT}"] == {"defender_until": 2}
    s.advance_to("continued-advance", side="french")
    # the centre brigade's front at y 70 is 7 cm beyond roguet's zone: within half of 30 cm
    req = ActionRequest("continued_attack", ROGUET, parameters={"target": CENTRE, "last_march_rate_cm": 30})
    out = s.act(req)
    assert out.status == "resolved", out.explanation
    assert "no order roll" in out.explanation
    (again,) = [a for a in s.actions(ROGUET) if a.id == "continued_attack"]
    assert "already announced" in again.unavailable
    # the continued attack is a new attack, fought in the continued-advance sub-phase
    s.record(Moved(**stamp(s), id=ROGUET, path=((106.0, 66.0),)))
    out = s.act(ActionRequest("melee", CENTRE, umpire_result=entry(ROGUET, 9, 2, "FU")))
    assert out.status == "resolved", out.explanation
    assert s.state.units[CENTRE].state == "FU"
    # the FU bonus again, but no further continued attack, whatever the outcome (4.1.4)
    last = [e for e in s.battle.events if isinstance(e, MeleeStatus) and e.unit == ROGUET][-1]
    assert last.fu_bonus and not last.continued_attack


def test_the_continued_attack_must_be_within_half_a_march_and_one_pivot():
    s = session()
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("fire", side="french")
    s.record(OrderStateChanged(**stamp(s), unit=AVANT, state="FU", reason="fire"))
    s.advance_to("melee", side="french")
    s.act(ActionRequest("melee", AVANT))
    s.advance_to("continued-advance", side="french")
    out = s.act(ActionRequest("continued_attack", ROGUET, parameters={"target": CENTRE, "last_march_rate_cm": 8}))
    assert out.status == "refused" and "half a march" in out.explanation


def test_after_melee_status_lasts_the_rest_of_this_and_all_the_next_turn():
    s = session()
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("melee", side="french")
    s.act(ActionRequest("melee", AVANT, umpire_result=entry(ROGUET, 9, 2, "FU")))
    assert carried(s.state, ROGUET)[0].startswith("deduction: was attacker (until the end of turn 2")
    s.advance_to("melee", side="austrian")
    assert s.key.turn == 2
    assert len(carried(s.state, ROGUET)) == 2  # was attacker, FU bonus
    assert carried(s.state, AVANT) == ["deduction: was defender (until the end of turn 2, 4.1.1)"]
    s.advance_to("orders", side="french")
    s.advance_to("orders", side="austrian")
    assert s.key.turn == 3
    assert carried(s.state, ROGUET) == [] and carried(s.state, AVANT) == []


@pytest.mark.parametrize(
    "total, weights, expected",
    [(3, {"a": 24, "b": 24}, {"a": 2, "b": 1}), (5, {"a": 30, "b": 10}, {"a": 4, "b": 1}), (0, {"a": 1}, {"a": 0})],
)
def test_inflicted_losses_are_shared_pro_rata(total, weights, expected):
    assert share(total, weights) == expected


def test_a_common_target_melee_is_saved_and_replayed(tmp_path):
    s = session()
    french_attacks(s, {ROGUET: AVANT, VILLATTE: AVANT})
    s.advance_to("melee", side="french")
    res = {**entry(ROGUET, 7, 4, "U", on_d="1.5", on_a="5"), **entry(VILLATTE, 6, 5, "LU", on_d="0.75", on_a="3")}
    assert s.act(ActionRequest("melee", AVANT, umpire_result=res)).status == "resolved"
    path = tmp_path / "ba.battle.json"
    store.save(s.battle, path)
    again = GameSession(store.load(path), get_ruleset("belle-alliance"))
    assert again.key == s.key
    assert again.state.units[AVANT] == s.state.units[AVANT]
    assert again.state.units[ROGUET].figures == s.state.units[ROGUET].figures == 32
    assert dict(again.state.flags) == dict(s.state.flags)
    (melee,) = [e for e in again.battle.events if isinstance(e, Melee)]
    assert melee.roll["measured_from"] == ROGUET


def test_a_square_counts_the_two_ranks_of_the_attacked_side_whichever_side():
    from battlestudio.model.units import Formation
    from battlestudio.rules.belle_alliance.paths import counted_figures

    u = replace(session().state.units[AVANT], formation=Formation.SQUARE)  # 34 figures: side 7
    counts = {side: counted_figures(u, side) for side in ("front", "left", "right", "rear")}
    assert counts == {"front": 14, "left": 14, "right": 14, "rear": 14}


def test_a_tie_has_no_loser_unless_the_scenario_reads_it_for_the_defender():
    s = session()
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("melee", side="french")
    out = s.act(ActionRequest("melee", AVANT, umpire_result=entry(ROGUET, 5, 5, "U", on_d="1", on_a="1")))
    assert "tie, no loser (A5)" in out.explanation
    assert recorded(s, Melee)[0].winner == "draw"
    assert s.state.units[ROGUET].state == "O" and s.state.units[AVANT].state == "O"
    # overridden: the defender holds a tie
    s2 = session()
    s2.params = {**s2.params, "melee_tie": "defender_wins"}
    french_attacks(s2, {ROGUET: AVANT})
    s2.advance_to("melee", side="french")
    s2.act(ActionRequest("melee", AVANT, umpire_result=entry(ROGUET, 5, 5, "U")))
    assert recorded(s2, Melee)[0].winner == "defender" and s2.state.units[ROGUET].state == "U"


def test_the_defenders_best_attack_and_the_sharing_are_readings_the_scenario_may_change():
    res = {
        # the defender's margin is best against villatte (-1), its highest result against roguet (6)
        **entry(ROGUET, 9, 6, "U", on_a="4"),
        **entry(VILLATTE, 5, 4, "LU", on_a="3"),
    }

    def play(**params) -> dict[str, int]:
        s = session()
        s.params = {**s.params, **params}
        french_attacks(s, {ROGUET: AVANT, VILLATTE: AVANT})
        # villatte deploys into line (17 files): its two ranks count 34 figures, roguet's column 24
        s.record(FormationChanged(**stamp(s), unit=VILLATTE, formation="line"))
        s.record(Moved(**stamp(s), id=VILLATTE, path=((138.0, 58.0),)))
        s.advance_to("melee", side="french")
        assert s.act(ActionRequest("melee", AVANT, umpire_result=res)).status == "resolved"
        return {e.unit: e.figures for e in recorded(s, Casualties)}

    # 3 from villatte's attack, by counted figures 24 : 34 -> 1 and 1, the remainder to villatte
    assert play() == {ROGUET: 1, VILLATTE: 2}
    # 4 from roguet's attack, where the defender rolled highest: 1 and 2, the remainder to villatte
    assert play(defender_best_conditions="highest_result") == {ROGUET: 1, VILLATTE: 3}
    # shared by all figures (34 : 34) instead: 2 and 2
    assert play(defender_best_conditions="highest_result", loss_sharing="all_figures") == {ROGUET: 2, VILLATTE: 2}


# -- 4.1.1: an unannounced attack demanded; 4.1.2: an intervening unit -----------------------------
def test_the_opponent_may_demand_an_unannounced_attack():
    s = session()
    s.advance_to("orders", side="french")
    order(s, ROGUET, AVANT)
    s.advance_to("movement", side="french")
    place(s, PLACES)
    s.advance_to("melee", side="french")
    assert not [a for a in s.actions(AVANT) if a.id == "melee"]  # nothing announced: no melee
    out = s.act(ActionRequest("demand_attack", ROGUET))
    assert out.status == "resolved" and "4.1.1" in out.explanation
    (spec,) = [a for a in s.actions(AVANT) if a.id == "melee"]
    assert ROGUET in spec.note


def test_an_intervening_unit_takes_the_attack_or_the_attacker_cancels():
    s = session()
    s.advance_to("orders", side="french")
    order(s, ROGUET, CENTRE)
    s.advance_to("movement", side="french")
    place(s, PLACES)
    announce(s, ROGUET)  # on the centre brigade behind the avant-garde, but it reaches the avant-garde first
    (spec,) = [a for a in s.actions(ROGUET) if a.id == "intervening"]
    assert AVANT in spec.note
    out = s.act(ActionRequest("intervening", ROGUET, parameters={"choice": "switch"}))
    assert out.status == "resolved" and "not its position" in out.explanation
    assert s.state.flags[f"ba:attack:{ROGUET}"]["target"] == AVANT
    s.advance_to("melee", side="french")
    assert [a for a in s.actions(AVANT) if a.id == "melee"]
    # the same approach cancelled instead: no melee, and the target stays tied (no other re-targeting)
    c = session()
    c.advance_to("orders", side="french")
    order(c, ROGUET, CENTRE)
    c.advance_to("movement", side="french")
    place(c, PLACES)
    announce(c, ROGUET)
    c.act(ActionRequest("intervening", ROGUET, parameters={"choice": "cancel"}))
    assert c.state.flags[f"ba:attack:{ROGUET}"]["cancelled"].startswith("4.1.2")
    c.advance_to("melee", side="french")
    assert not [a for a in c.actions(AVANT) if a.id == "melee"]
    assert not [a for a in c.actions(CENTRE) if a.id == "melee"]


def test_continued_attacks_wait_until_every_other_attack_is_fought():
    s = session()
    s.advance_to("orders", side="french")
    order(s, ROGUET, AVANT)
    order(s, VILLATTE, CENTRE)
    s.advance_to("movement", side="french")
    place(s, {ROGUET: PLACES[ROGUET], VILLATTE: ((150.0, 40.0), 90.0)})
    announce(s, ROGUET)
    announce(s, VILLATTE)
    s.advance_to("fire", side="french")
    s.record(OrderStateChanged(**stamp(s), unit=AVANT, state="FU", reason="fire"))
    s.advance_to("melee", side="french")
    s.act(ActionRequest("melee", AVANT))
    s.advance_to("continued-advance", side="french")
    (spec,) = [a for a in s.actions(ROGUET) if a.id == "continued_attack"]
    assert "after all other attacks" in spec.unavailable and VILLATTE in spec.unavailable
    # villatte never reached the centre brigade: its attack is settled as not fought (4.1.1, 4.1.2)
    out = s.act(ActionRequest("melee", CENTRE))
    assert out.status == "resolved" and f"{VILLATTE} is not at break-in distance" in out.explanation
    (spec,) = [a for a in s.actions(ROGUET) if a.id == "continued_attack"]
    assert spec.unavailable == ""


@pytest.mark.parametrize("flank_when, why", [("start_of_movement", "attacked by cavalry"), ("at_contact", "flank")])
def test_the_flank_is_judged_where_the_cavalry_stood_when_it_announced(flank_when, why):
    s = session()
    s.params = {**s.params, "flank_when": flank_when}
    s.advance_to("orders", side="austrian")
    order(s, CAV, ROGUET)
    s.advance_to("movement", side="austrian")
    place(s, {**PLACES, CAV: ((91.0, 62.0), 0.0)})  # announced in front of roguet's extended front (y 58)
    announce(s, CAV)
    place(s, {CAV: CAV_FLANK})  # then rides round to its left flank
    s.advance_to("orders", side="french")
    order(s, ROGUET, AVANT)
    s.advance_to("movement", side="french")
    announce(s, ROGUET)
    s.advance_to("melee", side="french")
    out = s.act(ActionRequest("melee", AVANT))
    assert out.status == "resolved" and why in out.explanation, out.explanation
