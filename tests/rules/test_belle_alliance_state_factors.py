"""Belle Alliance melee factors read from the game rather than entered by the umpire (seed 001,
4.1.1, 4.1.3): a unit that fired this turn — even only in part — takes the deduction, from the
fire action's record, and only in that turn; the defender's cover comes from the scenario's
terrain (B-8); a target that the fire put in FU at break-in distance is not fought and gives
the FU bonus and a continued attack (4.1.1, 4.1.4)."""

from __future__ import annotations

from shapely.geometry import box

from battlestudio.model.terrain import TerrainFeature, TerrainKind
from battlestudio.replay.combat_events import Casualties, Fired, Melee
from battlestudio.rules.actions import ActionRequest
from tests.rules.test_belle_alliance_melee import (
    AVANT,
    CAV,
    CENTRE,
    DELABASSEE,
    PLACES,
    ROGUET,
    VILLATTE,
    announce,
    entry,
    french_attacks,
    order,
    place,
    recorded,
    session,
)


def fire(s, unit: str, target: str, losses: int = 0, state: str = "O", part: bool = False):
    entry_ = {"losses": losses, "target_state": state}
    return s.act(ActionRequest("fire", unit, {"target": target, "part": part}, entry_))


def test_fired_this_turn_is_read_from_the_fire_record_and_lasts_only_this_turn():
    s = session()
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("fire", side="french")
    out = fire(s, ROGUET, AVANT, losses=1)
    assert out.status == "resolved", out.explanation
    assert "fired-this-turn deduction in melee (4.1.3)" in out.explanation
    assert [e.unit for e in recorded(s, Fired)] == [ROGUET]
    assert [(e.unit, e.figures) for e in recorded(s, Casualties)] == [(AVANT, 1)]
    (spec,) = [a for a in s.actions(ROGUET) if a.id == "fire"]
    assert "already fired this turn" in spec.unavailable
    s.advance_to("melee", side="french")
    pv = s.preview_action(ActionRequest("melee", AVANT))
    attacker_part, defender_part = pv.explanation.split(f"{AVANT}'s skema 8 factors")
    assert "deduction: fired this turn (4.1.3)" in attacker_part  # roguet fired
    assert "fired this turn" not in defender_part  # the avant-garde did not
    # the melee parameters no longer ask the umpire who fired
    (spec,) = [a for a in s.actions(AVANT) if a.id == "melee"]
    assert "fired" not in {p.name for p in spec.parameters}
    assert s.act(ActionRequest("melee", AVANT, umpire_result=entry(ROGUET, 6, 6, "O"))).status == "resolved"
    # next turn the record is old: no deduction
    s.advance_to("orders", side="french")
    assert not s.state.flags[f"ba:fired:{ROGUET}"]["turn"] == s.state.turn


def test_a_unit_that_did_not_fire_has_no_deduction():
    s = session()
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("melee", side="french")
    pv = s.preview_action(ActionRequest("melee", AVANT))
    assert "fired this turn" not in pv.explanation


def test_the_fire_puts_the_target_in_fu_and_the_melee_is_not_fought():
    s = session()
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("fire", side="french")
    assert fire(s, VILLATTE, AVANT, losses=3, state="FU").status == "resolved"
    assert s.state.units[AVANT].state == "FU" and s.state.units[AVANT].figures == 31
    s.advance_to("melee", side="french")
    out = s.act(ActionRequest("melee", AVANT))
    assert out.status == "resolved" and "went FU in the fire phase" in out.explanation
    (melee,) = recorded(s, Melee)
    assert melee.winner is None or melee.winner == ""
    assert s.state.flags[f"ba:melee:{ROGUET}"]["fu_bonus_until"] == 2
    assert s.state.flags[f"ba:continue:{ROGUET}"]["turn"] == 1


def test_a_fire_entry_must_name_an_enemy_and_a_state():
    s = session()
    s.advance_to("fire", side="french")
    assert fire(s, ROGUET, VILLATTE).status == "refused"
    bad = s.act(ActionRequest("fire", ROGUET, {"target": AVANT}, {"losses": 0, "target_state": "routed"}))
    assert bad.status == "refused" and "O, LU, U, FU" in bad.explanation


WOOD = TerrainFeature("wood", TerrainKind.WOODS, box(90.0, 60.5, 135.0, 70.0), name="wood")
"""A wood holding the avant-garde (its front at y 61, two ranks deep), Roguet outside it (front y 58)."""


def test_the_defenders_cover_is_read_from_the_scenario_terrain():
    bare = session()
    french_attacks(bare, {ROGUET: AVANT})
    bare.advance_to("melee", side="french")
    assert "in cover" not in bare.preview_action(ActionRequest("melee", AVANT)).explanation

    s = session()
    s.battle.scenario.terrain["wood"] = WOOD
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("melee", side="french")
    pv = s.preview_action(ActionRequest("melee", AVANT))
    assert f"in cover against {ROGUET}" in pv.explanation
    assert "24 of 24 figures at break-in distance are covered by woods (4.1.3)" in pv.explanation
    out = s.act(ActionRequest("melee", AVANT, umpire_result=entry(ROGUET, 5, 7, "LU")))
    assert out.status == "resolved"
    (melee,) = recorded(s, Melee)
    assert any("in cover" in f for f in melee.roll["factors"][AVANT])


# -- 4.1.6: the defender counts a unit attacked at the same time as a neighbour ------------------
NEXT_TO_AVANT = ((147.0, 61.0), 270.0)  # the centre brigade's line, x 129-165, beside the avant-garde
"""Villatte's column (front x 119-143 at y 58) touches both the avant-garde and the centre brigade."""


def test_the_defender_counts_a_unit_attacked_at_the_same_time_as_its_neighbour():

    s = session()
    s.advance_to("orders", side="french")

    order(s, VILLATTE, AVANT)
    s.advance_to("movement", side="french")
    place(s, {**PLACES, CENTRE: NEXT_TO_AVANT})
    announce(s, VILLATTE)
    s.advance_to("melee", side="french")
    req = ActionRequest("melee", AVANT, parameters={"defender_neighbour": CENTRE})
    pv = s.preview_action(req)
    assert pv.legal and f"neighbour {CENTRE}, the defender's choice (4.1.6)" in pv.explanation
    out = s.act(ActionRequest("melee", AVANT, req.parameters, entry(VILLATTE, 7, 4, "U", on_d="1")))
    assert out.status == "resolved", out.explanation
    # the neighbour takes the defender's morale result and counts as having been defender (4.1.6, 4.1.1)
    assert s.state.units[AVANT].state == "U" and s.state.units[CENTRE].state == "U"
    assert s.state.flags[f"ba:melee:{CENTRE}"]["defender_until"] == 2
    (melee,) = recorded(s, Melee)
    assert list(melee.roll["defender_neighbour"]) == [CENTRE, VILLATTE]
    assert s.state.flags["ba:subphase:1:melee"]["roles"][CENTRE] == "neighbour"


def test_a_unit_the_attacker_does_not_reach_cannot_be_the_defenders_neighbour():

    s = session()
    s.advance_to("orders", side="french")
    order(s, ROGUET, AVANT)
    s.advance_to("movement", side="french")
    place(s, {**PLACES, CENTRE: NEXT_TO_AVANT})  # roguet's front x 94-118 does not reach x 129
    announce(s, ROGUET)
    s.advance_to("melee", side="french")
    out = s.act(ActionRequest("melee", AVANT, {"defender_neighbour": CENTRE}, entry(ROGUET, 7, 4, "U")))
    assert out.status == "refused" and "no attacker of this melee attacks it at the same time" in out.explanation
    cav = s.act(ActionRequest("melee", AVANT, {"defender_neighbour": CAV}, entry(ROGUET, 7, 4, "U")))
    assert cav.status == "refused" and f"cavalry, not {AVANT}'s arm (infantry)" in cav.explanation
    assert not recorded(s, Melee)


# -- 4.1.4: the continued advance as a move -----------------------------------------------------
def _fu_in_fire(s) -> None:
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("fire", side="french")
    assert fire(s, VILLATTE, AVANT, state="FU").status == "resolved"
    s.advance_to("melee", side="french")
    assert s.act(ActionRequest("melee", AVANT)).status == "resolved"
    s.advance_to("continued-advance", side="french")


def advance(s, unit: str, dist: int, rate: int = 30, pivot: int = 0):
    params = {"last_march_rate_cm": rate, "distance_cm": dist, "pivot_deg": pivot}
    return s.act(ActionRequest("continued_advance", unit, params))


def test_the_continued_advance_moves_half_a_march_once():
    s = session()
    _fu_in_fire(s)
    too_far = advance(s, ROGUET, 16)
    assert too_far.status == "refused" and "more than half a march (15 cm of 30 cm)" in too_far.explanation
    out = advance(s, ROGUET, 8)
    assert out.status == "resolved", out.explanation
    assert "8 cm straight ahead, 8.0 of 15 cm (4.1.4)" in out.explanation
    u = s.state.units[ROGUET]
    assert u.position == (106.0, 66.0) and u.facing == 90.0
    (again,) = [a for a in s.actions(ROGUET) if a.id == "continued_advance"]
    assert "made its continued advance this turn" in again.unavailable
    # a unit without the right (its opponent not in FU) has no continued advance
    assert "continued_advance" not in {a.id for a in s.actions(VILLATTE)}


def test_the_continued_advance_pivots_once_at_most_20_degrees_and_pays_the_arc():
    s = session()
    _fu_in_fire(s)
    assert "a pivot of 25° exceeds 20°" in advance(s, ROGUET, 0, pivot=25).explanation
    # roguet's front is 24 cm wide: a 10° pivot's outer corner travels 4.2 cm of the 15
    assert "more than half a march" in advance(s, ROGUET, 11, pivot=10).explanation
    out = advance(s, ROGUET, 10, pivot=10)
    assert out.status == "resolved" and "a pivot of +10° (4.2 cm of arc)" in out.explanation
    assert s.state.units[ROGUET].facing == 100.0


# -- 4.1.5: one unit attacking several targets at once -------------------------------------------
def test_one_attacker_on_two_targets_gets_a_roll_from_each_and_is_treated_as_a_common_target():
    s = session()
    s.advance_to("orders", side="french")
    order(s, VILLATTE, AVANT)
    order(s, ROGUET, AVANT)
    s.advance_to("movement", side="french")
    place(s, {**PLACES, CENTRE: NEXT_TO_AVANT})
    announce(s, VILLATTE)
    announce(s, ROGUET)
    s.advance_to("melee", side="french")
    # roguet reaches the avant-garde only; villatte reaches it and the centre brigade
    assert "melee_several" not in {a.id for a in s.actions(ROGUET)}
    (spec,) = [a for a in s.actions(VILLATTE) if a.id == "melee_several"]
    assert spec.parameters[0].choices == (AVANT, CENTRE) and "skema 11" in spec.umpire_table
    res = {
        f"attacker_result:{AVANT}": 7,
        f"defender_result:{AVANT}": 4,
        f"loser_state:{AVANT}": "LU",
        f"losses_on_defender:{AVANT}": "1.5",
        f"losses_on_attacker:{AVANT}": "1",
        f"attacker_result:{CENTRE}": 3,
        f"defender_result:{CENTRE}": 6,
        f"loser_state:{CENTRE}": "U",
        f"losses_on_defender:{CENTRE}": "0.75",
        f"losses_on_attacker:{CENTRE}": "0.5",
    }
    out = s.act(ActionRequest("melee_several", VILLATTE, {"targets": [AVANT, CENTRE]}, res))
    assert out.status == "resolved", out.explanation
    (melee,) = recorded(s, Melee)
    assert melee.attackers == (VILLATTE,) and melee.defenders == (AVANT, CENTRE) and melee.winner == "draw"
    assert {t: r["difference"] for t, r in melee.roll["attacks"].items()} == {AVANT: 3, CENTRE: -3}
    # each target that lost takes its own result; the lone attacker takes the best of the targets that beat it
    st = s.state.units
    assert st[AVANT].state == "LU" and st[CENTRE].state == "O" and st[VILLATTE].state == "U"
    assert melee.roll["measured_from"] == CENTRE
    # the attacker's losses 1 + 0.5 summed before rounding down: 1; it inflicts 1 (its best roll,
    # against the avant-garde) shared 34 : 36 by the figures counted: the one figure to the centre
    lost: dict[str, int] = {}
    for e in recorded(s, Casualties):
        lost[e.unit] = lost.get(e.unit, 0) + e.figures
    assert lost == {VILLATTE: 1, CENTRE: 1}
    assert melee.roll["counted"] == {AVANT: 34, CENTRE: 36} and melee.roll["best_for_attacker"] == AVANT
    assert s.state.flags[f"ba:melee:{CENTRE}"]["defender_until"] == 2
    assert s.state.flags[f"ba:attack:{VILLATTE}"]["resolved"]
    # roguet's attack on the avant-garde is still fought on its own
    (m,) = [a for a in s.actions(AVANT) if a.id == "melee"]
    assert m.note == f"the attacks on {AVANT}: {ROGUET}"


def test_several_targets_must_be_at_break_in_distance():
    s = session()
    s.advance_to("orders", side="french")
    order(s, VILLATTE, AVANT)
    s.advance_to("movement", side="french")
    place(s, {**PLACES, CENTRE: NEXT_TO_AVANT})
    announce(s, VILLATTE)
    s.advance_to("melee", side="french")
    out = s.act(ActionRequest("melee_several", VILLATTE, {"targets": [AVANT, CAV]}, {}))
    assert out.status == "refused" and f"4.1.5: {CAV} not at {VILLATTE}'s break-in distance" in out.explanation
    alone = s.act(ActionRequest("melee_several", VILLATTE, {"targets": [AVANT]}, {}))
    assert alone.status == "refused" and "at least one more target" in alone.explanation
    assert not recorded(s, Melee)


def test_a_support_joins_the_continued_advance_but_makes_no_continued_attack():
    s = session()
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("melee", side="french")
    out = s.act(ActionRequest("melee", AVANT, {"support": DELABASSEE}, entry(ROGUET, 9, 2, "FU", on_d="1")))
    assert out.status == "resolved", out.explanation
    s.advance_to("continued-advance", side="french")
    # the continued advance waits for the loser's rout (4.1.4), measured from roguet (4.1.5)
    (wait,) = [a for a in s.actions(DELABASSEE) if a.id == "continued_advance"]
    assert wait.unavailable.endswith(f"still to retreat: {AVANT}")
    rout = s.act(ActionRequest("retreat", AVANT, {"how": "rout"}, {"distance_cm": 20}))
    assert rout.status == "resolved" and f"{AVANT} routs 20 cm straight away from {ROGUET}" in rout.explanation
    ids = {a.id: a for a in s.actions(DELABASSEE)}
    assert "continued_attack" not in ids and "continued_advance" in ids
    assert ids["continued_advance"].note.startswith(f"joins {ROGUET}'s continued advance as its support (4.1.7)")
    assert advance(s, DELABASSEE, 6).status == "resolved"
    assert s.state.units[DELABASSEE].position == (106.0, 58.0)
    # a unit that was no support has neither
    assert not {"continued_attack", "continued_advance"} & {a.id for a in s.actions(VILLATTE)}


# -- 4.1.4 / 4.1.5: the loser's retreat or rout before the continued decisions ------------------
def test_the_losers_retreat_is_measured_from_the_picked_attacker_and_comes_first():
    s = session()
    french_attacks(s, {ROGUET: AVANT, VILLATTE: AVANT})
    s.advance_to("melee", side="french")
    res = {**entry(ROGUET, 7, 4, "FU"), **entry(VILLATTE, 6, 5, "FU")}
    assert s.act(ActionRequest("melee", AVANT, {"measured_from": VILLATTE}, res)).status == "resolved"
    assert s.state.flags[f"ba:lost:{AVANT}"]["from"] == VILLATTE
    s.advance_to("continued-advance", side="french")
    (spec,) = [a for a in s.actions(ROGUET) if a.id == "continued_attack"]
    assert f"still to retreat: {AVANT}" in spec.unavailable
    bad = s.act(ActionRequest("retreat", AVANT, {"how": "flees"}, {"distance_cm": 5}))
    assert bad.status == "refused" and "retreat, rout, stays" in bad.explanation
    stay = s.act(ActionRequest("retreat", AVANT, {"how": "stays"}, {"distance_cm": 0}))
    assert stay.status == "resolved" and s.state.units[AVANT].position == (112.0, 61.0)
    assert "retreat" not in {a.id for a in s.actions(AVANT)}
    (spec,) = [a for a in s.actions(ROGUET) if a.id == "continued_attack"]
    assert spec.unavailable == ""


def test_the_scenarios_retreat_and_rout_distances_replace_the_umpires_entry():
    s = session()
    s.params = {**s.params, "retreat_cm": 10, "rout_cm": 25}
    french_attacks(s, {ROGUET: AVANT})
    s.advance_to("melee", side="french")
    assert s.act(ActionRequest("melee", AVANT, umpire_result=entry(ROGUET, 8, 5, "U"))).status == "resolved"
    (spec,) = [a for a in s.actions(AVANT) if a.id == "retreat"]
    assert spec.umpire_table == "" and spec.umpire_result == ()
    out = s.act(ActionRequest("retreat", AVANT, {"how": "rout"}))
    assert out.status == "resolved" and "routs 25 cm straight away from" in out.explanation
    assert "scenario parameter rout_cm" in out.explanation
