"""Torden over Europa fire (6.1) and ammunition (6.2) played through ``GameSession.act`` on the
bundled Elchingen and Jena scenarios, units placed where the rule needs them.

Elchingen: the French have the initiative (1.2), so in the Austrian player-turn's fire phase the
French fire (phase 5 "Passiv sides skydning"). Units not used by a test are parked far away
(Austrians at y = 400 cm, French at y = −300 cm) so nothing else stands in a line of fire.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.replay.combat_events import AmmunitionResupplied, AmmunitionUsed, Casualties, Fired
from battlestudio.replay.flow_events import OrderStateChanged
from battlestudio.replay.order_events import CommandStateChanged
from battlestudio.rules import get_ruleset
from battlestudio.rules.actions import ActionRequest
from battlestudio.rules.dice import DiceSpec
from battlestudio.rules.toe import fire, fire_geometry as geo
from battlestudio.rules.toe.common import params_for
from battlestudio.session import GameSession

ROOT = Path(__file__).resolve().parents[2]
ELCHINGEN = ROOT / "scenarios" / "elchingen-1805.battle.json"
JENA = ROOT / "scenarios" / "jena-1806.battle.json"

GUNS = "french-vi-corps-foot-guns-1"  # 1 gun model, 3 × 4 cm
HORSE_GUNS = "french-vi-corps-horse-guns-1"
CAV = "austrian-avantgarde-cavalry"  # 4 figures in line: 5 cm wide, 6 cm deep
FRIEND = "french-10e-chasseur"  # 2 figures in line: 2.5 cm wide, 6 cm deep
INFANTRY = "french-bde-roguet"  # 34 figures

TABLE = {
    "zones_cm": [5, 15, 30],
    "losses": [[0, 1, 1, 2, 2, 3, 3, 4, 4, 5], [0, 0, 1, 1, 2, 2, 2, 3, 3, 4], [0, 0, 0, 1, 1, 1, 2, 2, 2, 3]],
}


class Script:
    """Dice that throw the given faces in order, keeping the purposes asked for."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)
        self.asked: list[str] = []

    def roll(self, purpose: str, dice: DiceSpec) -> tuple[int, ...]:
        self.asked.append(purpose)
        return (self.faces.pop(0),)


def parked(battle: Battle, placements: dict[str, dict[str, Any]]) -> Battle:
    """``battle`` with the placed units changed (``replace`` fields) and every other unit parked
    out of the way, Austrians at y = 400, French at y = −300 (40 cm apart)."""
    units = battle.scenario.units
    for i, (uid, u) in enumerate(sorted(units.items())):
        if uid in placements:
            units[uid] = replace(u, **placements[uid])
        else:
            y = 400.0 if u.side != "french" else -300.0
            units[uid] = replace(u, position=(40.0 * i, y), facing=270.0 if y > 0 else 90.0)
    return battle


def elchingen(
    placements: dict[str, dict[str, Any]], dice: Any = None, params: dict[str, Any] | None = None
) -> GameSession:
    s = GameSession(parked(store.load(ELCHINGEN), placements), get_ruleset("toe"), dice=dice, seed=5, params=params)
    s.advance_to("fire", side="austrian")
    return s


def gun_at(x: float = 100.0, y: float = 40.0, facing: float = 90.0, **kw: Any) -> dict[str, Any]:
    return {"position": (x, y), "facing": facing, **kw}


def target_centre_at(x: float, y: float) -> dict[str, Any]:
    """CAV facing south with its centre at (x, y): front 3 cm north of it is (x, y − 3)."""
    return {"position": (x, y - 3.0), "facing": 270.0}


def fired(s: GameSession, n: int) -> list[Any]:
    return s.battle.events[n:]


def spec(s: GameSession, uid: str, action: str = "fire"):
    return next(a for a in s.actions(uid) if a.id == action)


# -- who fires, and when ------------------------------------------------------------------
def test_only_the_side_not_on_the_move_fires_and_only_in_the_fire_phase():
    s = elchingen({GUNS: gun_at(), CAV: target_centre_at(100, 55)})
    assert s.key.side == "austrian" and s.key.phase == "fire"
    assert spec(s, GUNS).legal and CAV in spec(s, GUNS).parameters[0].choices
    fire_actions = {"fire", "resupply"}
    assert not fire_actions & {a.id for a in s.actions(CAV)}  # the active side's units do not fire (6.1)
    s2 = GameSession(
        parked(store.load(ELCHINGEN), {GUNS: gun_at(), CAV: target_centre_at(100, 55)}), get_ruleset("toe")
    )
    s2.advance_to("movement", side="austrian")
    assert not fire_actions & {a.id for a in s2.actions(GUNS)}


def test_battery_fire_without_table_6_is_entered_by_the_umpire_and_recorded():
    s = elchingen({GUNS: gun_at(), CAV: target_centre_at(100, 55)})
    sp = spec(s, GUNS)
    assert "fire_table.artillery" in sp.umpire_table and "fire_modifiers.artillery" in sp.umpire_table
    assert sp.umpire_result[0].name == "figures" and sp.umpire_result[0].maximum >= 4
    req = ActionRequest("fire", GUNS, {"target": CAV})
    pre = s.preview_action(req)
    assert pre.legal and pre.umpire_entry and "14.0 cm" in pre.explanation
    n = len(s.battle.events)
    assert s.act(req).status == "refused" and len(s.battle.events) == n  # no table, no entry
    res = s.act(replace(req, umpire_result={"figures": 2}))
    assert res.status == "resolved", res.explanation
    ev = fired(s, n)
    assert [type(e) for e in ev] == [Fired, Casualties, AmmunitionResupplied, AmmunitionUsed, CommandStateChanged]
    f = ev[0]
    assert (f.unit, f.target, f.range_cm, f.result) == (GUNS, CAV, 14.0, "2 figures lost")
    assert "6.1" in f.explanation and "full allowance" in f.explanation and "8 rounds" in f.explanation
    assert ev[1].figures == 2 and ev[2].ammunition == 8 and ev[3].rounds == 1
    assert s.state.units[GUNS].ammunition == 7 and s.state.units[CAV].figures == 2
    again = s.act(replace(req, umpire_result={"figures": 1}))
    assert again.status == "refused" and "already fired this turn" in again.explanation


def test_the_umpire_cannot_enter_more_figures_than_the_target_has():
    s = elchingen({GUNS: gun_at(), CAV: target_centre_at(100, 55)})
    n = len(s.battle.events)
    res = s.act(ActionRequest("fire", GUNS, {"target": CAV}, umpire_result={"figures": 5}))
    assert res.status == "refused" and "more than the 4" in res.explanation
    assert len(s.battle.events) == n


def test_a_target_losing_every_figure_is_eliminated():
    s = elchingen({GUNS: gun_at(), CAV: target_centre_at(100, 55)})
    s.act(ActionRequest("fire", GUNS, {"target": CAV}, umpire_result={"figures": 4}))
    gone = [e for e in s.battle.events if isinstance(e, OrderStateChanged)]
    assert gone[-1].unit == CAV and gone[-1].state == "eliminated"


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"state": "FU"}, "'enhed i FU'"),
        ({"formation": "limbered"}, "'påprodset artilleri'"),
    ],
)
def test_who_may_not_fire_says_which_rule(change, words):
    s = elchingen({GUNS: gun_at(**change), CAV: target_centre_at(100, 55)})
    sp = spec(s, GUNS)
    assert not sp.legal and words in sp.unavailable and "6.1" in sp.unavailable


def test_march_column_and_cavalry_do_not_fire():
    s = elchingen({INFANTRY: gun_at(formation="march_column"), CAV: target_centre_at(100, 60), FRIEND: gun_at(60, 40)})
    assert "'enheder i marchkolonne'" in spec(s, INFANTRY).unavailable
    assert "cavalry" in spec(s, FRIEND).unavailable
    s = elchingen({FRIEND: gun_at(100, 40), CAV: target_centre_at(100, 60)}, params={"toe.cavalry_fires": True})
    assert spec(s, FRIEND).legal  # the assumed reading, overridden, changes the answer


def test_attack_declared_reaction_and_continued_melee_flags_forbid_fire():
    s = elchingen({GUNS: gun_at(), CAV: target_centre_at(100, 55)})
    p = params_for(s.params)
    u = s.state.units[GUNS]
    for flag, words in (
        (fire.ATTACK_DECLARED, "erklæret angreb"),
        (fire.REACTION_ATTEMPTED, "reaction"),
        (fire.CONTINUED_MELEE, "fortsat nærkamp"),
    ):
        st = s.state.evolve(flags={**s.state.flags, f"{flag}:{GUNS}": True})
        assert words in fire.cannot_fire(st, p, u)
    st = s.state.evolve(flags={**s.state.flags, f"{fire.CONTINUED_MELEE}:{CAV}": True})
    with pytest.raises(Exception, match="kan ikke beskydes"):
        fire.plan(st, p, u, CAV)


# -- arcs -----------------------------------------------------------------------------------
def test_artillery_fires_within_30_degrees_and_45_only_at_zone_1():
    import math

    def corner_at(d: float) -> dict[str, Any]:
        """CAV facing south with its front-right corner (seen from the gun: its near left
        corner) d cm from the gun's front-right corner along a ray 37.5° off the front normal."""
        a = math.radians(37.5)
        cx, cy = 101.5 + d * math.sin(a), 40 + d * math.cos(a)
        return {"position": (cx + 2.5, cy), "facing": 270.0}

    def shot(d: float, **params: Any) -> Any:
        s = elchingen({GUNS: gun_at(), CAV: corner_at(d)}, params=params)
        return fire.plan(s.state, params_for(s.params), s.state.units[GUNS], CAV)

    assert shot(10).half_angle == 30.0 and not shot(10).close  # part of it lies within 30°
    with pytest.raises(Exception, match="no zone 1 shot"):
        shot(40)  # wholly outside 30°, inside 45°, 40 cm away
    with pytest.raises(Exception, match="no zone 1 shot"):
        shot(25)
    wide = shot(25, **{"toe.artillery_zone1_max_cm": 30})  # the assumed zone 1 bound, overridden
    assert wide.close and wide.half_angle == 45.0 and wide.range_cm <= 30


def test_infantry_fires_within_45_degrees_measured_from_anywhere_on_its_front():
    s = elchingen({INFANTRY: gun_at(100, 40), CAV: target_centre_at(100, 60)})
    width = s.state.units[INFANTRY].rect().width
    inside = elchingen({INFANTRY: gun_at(100, 40), CAV: target_centre_at(100 + width / 2 + 9, 50)})
    assert CAV in spec(inside, INFANTRY).parameters[0].choices  # 45° from the right corner
    outside = elchingen({INFANTRY: gun_at(100, 40), CAV: target_centre_at(100 + width / 2 + 12, 44)})
    assert CAV not in spec(outside, INFANTRY).parameters[0].choices


# -- the safety corridor (6.1, Figure 4) -------------------------------------------------------
def test_safety_distance_is_ten_percent_at_least_one_and_a_half_cm():
    assert geo.safety_half_width(15, 0.10, 1.5) == pytest.approx(1.5)  # Figure 4: 15 cm → 1.5 cm
    assert geo.safety_half_width(8, 0.10, 1.5) == pytest.approx(1.5)
    assert geo.safety_half_width(40, 0.10, 1.5) == pytest.approx(4.0)


@pytest.mark.parametrize(("gap", "blocked"), [(1.4, True), (1.6, False)])
def test_figure_4_a_15_cm_shot_keeps_own_unit_b_1_5_cm_clear(gap, blocked):
    # gun front centre (100, 40), target centre (100, 55): shot distance 15 cm, corridor ±1.5 cm;
    # own unit B (2.5 cm wide) stands left of the line of fire with its right edge `gap` cm off it
    b = {"position": (100 - gap - 1.25, 48.0), "facing": 90.0}
    s = elchingen({GUNS: gun_at(), CAV: target_centre_at(100, 55), FRIEND: b})
    req = ActionRequest("fire", GUNS, {"target": CAV})
    pre = s.preview_action(req)
    if blocked:
        assert not pre.legal and "safety corridor (1.5 cm each side of the 15.0 cm line of fire" in pre.reason
    else:
        assert pre.legal, pre.reason


def test_a_40_cm_shot_needs_4_cm_each_side_and_a_higher_battery_fires_over_own_units():
    b = {"position": (100 - 3.5 - 1.25, 56.0), "facing": 90.0}  # 3.5 cm off the line, 10 cm from the gun
    placements = {GUNS: gun_at(), CAV: target_centre_at(100, 80), FRIEND: b}
    s = elchingen(placements)
    pre = s.preview_action(ActionRequest("fire", GUNS, {"target": CAV}))
    assert not pre.legal and "4 cm each side of the 40.0 cm line of fire" in pre.reason
    high = elchingen({**placements, GUNS: gun_at(attributes={geo.LEVEL_ATTRIBUTE: 1})})
    pre = high.preview_action(ActionRequest("fire", GUNS, {"target": CAV}))
    assert pre.legal and "fires over 10e Chasseur" in pre.explanation
    near = elchingen(
        {
            **placements,
            GUNS: gun_at(attributes={geo.LEVEL_ATTRIBUTE: 1}),
            FRIEND: {**b, "position": (b["position"][0], 46.0)},
        }
    )
    pre = near.preview_action(ActionRequest("fire", GUNS, {"target": CAV}))
    assert not pre.legal and "at least 5 cm from the gun" in pre.reason


def test_infantry_does_not_fire_through_units_unless_the_assumed_reading_is_overridden():
    # a friendly brigade in line (34 cm wide) between the firing brigade and its target
    placements = {
        INFANTRY: gun_at(100, 40),
        CAV: target_centre_at(100, 70),
        "french-bde-villatte": gun_at(100, 55, formation="line"),
    }
    s = elchingen(placements)
    with pytest.raises(Exception, match="stands between"):
        fire.plan(s.state, params_for(s.params), s.state.units[INFANTRY], CAV)
    free = elchingen(placements, params={"toe.line_of_fire_blocked_by_units": False})
    assert fire.plan(free.state, params_for(free.params), free.state.units[INFANTRY], CAV)


# -- squares, towns, flank fire -------------------------------------------------------------------
def test_a_square_fires_from_each_side_with_a_quarter_of_its_figures():
    s = elchingen(
        {
            INFANTRY: gun_at(100, 40, formation="square"),
            CAV: target_centre_at(100, 55),
            "austrian-centre-bde-cavalry": target_centre_at(130, 20),
        }
    )
    sp = spec(s, INFANTRY)
    assert sp.parameters[1].name == "side" and set(sp.parameters[1].choices) == {"front", "right", "rear", "left"}
    res = s.act(ActionRequest("fire", INFANTRY, {"target": CAV, "side": "front"}, umpire_result={"figures": 1}))
    assert res.status == "resolved", res.explanation
    assert "8 of 34 figures fire from the front side" in res.explanation
    again = s.act(ActionRequest("fire", INFANTRY, {"target": CAV, "side": "front"}, umpire_result={"figures": 1}))
    assert again.status == "refused" and "already fired from its front side" in again.explanation
    other = s.act(
        ActionRequest(
            "fire", INFANTRY, {"target": "austrian-centre-bde-cavalry", "side": "right"}, umpire_result={"figures": 0}
        )
    )
    assert other.status == "resolved", other.explanation


def test_infantry_cannot_fire_at_a_town_artillery_can():
    """4.8.4 'Der kan ikke med infanteriild skydes på byer'; artillery may (4.8.5)."""
    town = {**target_centre_at(100, 55), "attributes": {geo.TOWN_ATTRIBUTE: "elchingen"}}
    s = elchingen({INFANTRY: gun_at(100, 40), GUNS: gun_at(125, 40), CAV: {**town, "position": (120.0, 52.0)}})
    with pytest.raises(Exception, match="infanteri kan ikke beskyde byer"):
        fire.plan(s.state, params_for(s.params), s.state.units[INFANTRY], CAV)
    assert fire.plan(s.state, params_for(s.params), s.state.units[GUNS], CAV)


def test_flank_fire_is_fire_from_behind_the_targets_extended_front():
    """6.1.8 Flankebeskydning."""
    s = elchingen({GUNS: gun_at(100, 40), CAV: {"position": (106.0, 50.0), "facing": 0.0}})
    assert geo.flank_fire(s.state.units[GUNS], s.state.units[CAV])  # facing east, its extended front x = 106
    s = elchingen({GUNS: gun_at(100, 40), CAV: target_centre_at(100, 55)})
    assert not geo.flank_fire(s.state.units[GUNS], s.state.units[CAV])


# -- Tables 5 and 6 supplied: the program rolls ---------------------------------------------------
def test_with_tables_5_and_6_the_program_rolls_with_exact_odds():
    params = {"toe.fire_table.artillery": TABLE, "toe.fire_modifiers.artillery": {"target_line": 1, "flank": 2}}
    dice = Script(5)
    s = elchingen({GUNS: gun_at(), CAV: target_centre_at(100, 55)}, dice=dice, params=params)
    assert spec(s, GUNS).umpire_table == ""
    req = ActionRequest("fire", GUNS, {"target": CAV})
    pre = s.preview_action(req)
    # 14 cm: zone 2; target in line +1: totals 1..10 read [0,1,1,2,2,2,3,3,4,4]
    assert dict(pre.outcomes) == {
        "0 figures lost": Fraction(1, 10),
        "1 figure lost": Fraction(2, 10),
        "2 figures lost": Fraction(3, 10),
        "3 figures lost": Fraction(2, 10),
        "4 figures lost": Fraction(2, 10),
    }
    n = len(s.battle.events)
    res = s.act(req)
    assert res.status == "resolved"
    f = s.battle.events[n]
    assert isinstance(f, Fired) and f.result == "2 figures lost" and list(f.roll["raw"]) == [5]
    assert f.roll["modifiers"][0]["value"] == 1 and "zone 2" in f.explanation
    assert dice.asked == [f"toe-fire:{GUNS}:front:{CAV}:t1:austrian"]
    far = elchingen({GUNS: gun_at(), CAV: target_centre_at(100, 80)}, params=params)
    pre = far.preview_action(ActionRequest("fire", GUNS, {"target": CAV}))
    assert not pre.legal and "beyond" in pre.reason and "30 cm" in pre.reason


# -- ammunition and resupply (6.2) -------------------------------------------------------------
def test_allowances_by_battery_type():
    s = elchingen({})
    p = params_for(s.params)
    foot = s.state.units[GUNS]
    assert fire.ammo.allowance(foot, p)[0] == 8
    assert fire.ammo.allowance(replace(foot, attributes={"gun_category": "12pdr"}), p)[0] == 10
    assert fire.ammo.allowance(replace(foot, quality="guard"), p)[0] == 12
    house = params_for({**s.params, "toe.ammunition_unstated_calibre": "12pdr"})
    assert fire.ammo.allowance(foot, house)[0] == 10  # the assumed reading changes the count


def test_a_battery_without_ammunition_cannot_fire_and_resupplies_only_beyond_50_cm():
    near = elchingen({GUNS: gun_at(ammunition=0), CAV: target_centre_at(100, 70)})
    assert "no ammunition left" in spec(near, GUNS).unavailable
    r = spec(near, GUNS, "resupply")
    assert (
        not r.legal
        and "more than 50 cm from every enemy unit" in r.unavailable
        and "Avantgarde (cavalry) is 27.0 cm" in r.unavailable
    )

    dice = Script(5, 4)
    s = elchingen({GUNS: gun_at(ammunition=0), HORSE_GUNS: gun_at(140, 40, ammunition=3)}, dice=dice)
    assert spec(s, GUNS, "resupply").legal
    pre = s.preview_action(ActionRequest("resupply", GUNS))
    assert pre.odds == (("resupplied", Fraction(1, 2)),)
    n = len(s.battle.events)
    miss = s.act(ActionRequest("resupply", GUNS))
    assert miss.status == "resolved" and miss.odds == (Fraction(1, 2),) and "not resupplied" in miss.explanation
    assert [type(e) for e in s.battle.events[n:]] == [CommandStateChanged]
    assert "already tried to resupply" in spec(s, GUNS, "resupply").unavailable
    hit = s.act(ActionRequest("resupply", HORSE_GUNS))
    assert hit.status == "resolved" and "resupplied to 8" in hit.explanation
    assert s.state.units[HORSE_GUNS].ammunition == 8
    assert "tried to resupply" in spec(s, HORSE_GUNS).unavailable  # fires or resupplies, not both (A24)


# -- coordination of artillery fire (Jena) -------------------------------------------------------
def jena(
    placements: dict[str, dict[str, Any]], side: str, params: dict[str, Any] | None = None, chief: str = ""
) -> GameSession:
    """Jena from its first phase, every reinforcement on the table; ``chief`` a commander marked
    as an artillery chief."""
    battle = store.load(JENA)
    battle.events.clear()
    battle.scenario.reinforcements = {}
    if chief:
        c = battle.scenario.commanders[chief]
        battle.scenario.commanders[chief] = replace(c, attributes={**c.attributes, "artillery_chief": True})
    s = GameSession(parked(battle, placements), get_ruleset("toe"), seed=3, params=params)
    s.advance_to("fire", side=side)
    return s


def test_batteries_of_different_corps_do_not_fire_at_one_target_unless_it_is_their_only_one():
    battle = store.load(JENA)
    ids = set(battle.scenario.units)
    t1 = next(i for i in sorted(ids) if i.startswith("prussian") and battle.scenario.units[i].arm.value == "cavalry")
    t2 = next(
        i
        for i in sorted(ids)
        if i.startswith("prussian") and battle.scenario.units[i].arm.value == "cavalry" and i != t1
    )
    placements = {
        "french-v-corps-foot-guns-1": gun_at(100, 40),
        "french-vi-corps-12pdr-guns-1": gun_at(110, 40),
        "french-cavalry-reserve-horse-guns-1": gun_at(90, 40),
        t1: {"position": (105.0, 60.0), "facing": 270.0},
        t2: {"position": (125.0, 60.0), "facing": 270.0},
    }
    s = jena(placements, "prussian")
    one = {"figures": 0}
    assert (
        s.act(ActionRequest("fire", "french-v-corps-foot-guns-1", {"target": t1}, umpire_result=one)).status
        == "resolved"
    )
    no = s.act(ActionRequest("fire", "french-vi-corps-12pdr-guns-1", {"target": t1}, umpire_result=one))
    assert no.status == "refused" and "of another corps" in no.explanation and "forskellige korps" in no.explanation
    assert (
        s.act(ActionRequest("fire", "french-vi-corps-12pdr-guns-1", {"target": t2}, umpire_result=one)).status
        == "resolved"
    )


def test_the_only_target_and_the_artillery_chief_lift_the_corps_limit():
    battle = store.load(JENA)
    t1, t2 = sorted(i for i, u in battle.scenario.units.items() if u.side == "prussian" and u.arm.value == "cavalry")[
        :2
    ]
    placements = {
        "french-v-corps-foot-guns-1": gun_at(100, 40),
        "french-cavalry-reserve-horse-guns-1": gun_at(90, 40),
        "french-vii-corps-foot-guns-1": gun_at(80, 60, facing=0.0),  # east: t1 at 25 cm, t2 out of range
        t1: {"position": (105.0, 60.0), "facing": 270.0},
        t2: {"position": (125.0, 60.0), "facing": 270.0},
    }
    s = jena(placements, "prussian", params={"toe.fire_table.artillery": TABLE}, chief="french-corps-artillery-5")
    one = {"figures": 0}
    assert (
        s.act(ActionRequest("fire", "french-v-corps-foot-guns-1", {"target": t1}, umpire_result=one)).status
        == "resolved"
    )
    only = s.act(ActionRequest("fire", "french-vii-corps-foot-guns-1", {"target": t1}, umpire_result=one))
    assert only.status == "resolved" and "only target it can fire at" in only.explanation
    chief = s.act(ActionRequest("fire", "french-cavalry-reserve-horse-guns-1", {"target": t1}, umpire_result=one))
    assert chief.status == "resolved" and "under an artillery chief" in chief.explanation


def test_at_most_two_batteries_fire_at_one_target():
    battle = store.load(JENA)
    t1, t2 = sorted(i for i, u in battle.scenario.units.items() if u.side == "french" and u.arm.value == "cavalry")[:2]
    guns = [
        "prussian-south-hohenlohe-12pdr-guns-1",
        "prussian-south-hohenlohe-foot-guns-1",
        "prussian-south-hohenlohe-foot-guns-2",
    ]
    placements = {g: gun_at(100 + 6 * i, 100, facing=270.0) for i, g in enumerate(guns)}
    placements |= {t1: {"position": (104.0, 80.0), "facing": 90.0}, t2: {"position": (125.0, 80.0), "facing": 90.0}}
    s = jena(placements, "french")
    one = {"figures": 0}
    for g in guns[:2]:
        assert s.act(ActionRequest("fire", g, {"target": t1}, umpire_result=one)).status == "resolved"
    third = s.act(ActionRequest("fire", guns[2], {"target": t1}, umpire_result=one))
    assert third.status == "refused" and "Max. 2 batterier" in third.explanation
    assert s.act(ActionRequest("fire", guns[2], {"target": t2}, umpire_result=one)).status == "resolved"


def test_fire_arcs_are_polygons_for_the_map():
    s = elchingen({GUNS: gun_at(), INFANTRY: gun_at(60, 40, formation="square")})
    p = params_for(s.params)
    arcs = fire.fire_arcs(s.state, p, GUNS)
    assert set(arcs) == {"front"} and arcs["front"].contains(geo.ShapelyPoint(100, 60))
    assert not arcs["front"].contains(geo.ShapelyPoint(100, 30))
    assert set(fire.fire_arcs(s.state, p, INFANTRY)) == {"front", "right", "rear", "left"}


def test_artillery_at_infantry_in_a_town_reads_zone_1_as_zone_2():
    # 4.8.5 (Byer og artilleri skydninger): "Skydninger mod infanteri i en by på zone 1 gælder som en zone 2 skydning"
    params = {"toe.fire_table.artillery": TABLE, "toe.fire_modifiers.artillery": {}}
    town = {"position": (100.0, 43.0), "facing": 270.0, "attributes": {geo.TOWN_ATTRIBUTE: "elchingen"}}
    s = elchingen({GUNS: gun_at(), "austrian-avantgarde": town}, dice=Script(5), params=params)
    res = s.act(ActionRequest("fire", GUNS, {"target": "austrian-avantgarde"}))
    assert res.status == "resolved", res.explanation
    assert "counts as zone 2 (4.8.5)" in res.explanation and "2 figures lost" in res.explanation  # zone 1 would be 3
    open_ground = elchingen(
        {GUNS: gun_at(), "austrian-avantgarde": {**town, "attributes": {}}}, dice=Script(5), params=params
    )
    assert (
        "3 figures lost" in open_ground.act(ActionRequest("fire", GUNS, {"target": "austrian-avantgarde"})).explanation
    )


def test_resupply_on_a_one_to_ten_die_reads_the_ten_as_nought():
    s = elchingen({GUNS: gun_at(ammunition=2)}, dice=Script(10), params={"toe.d10_zero_based": False})
    assert s.preview_action(ActionRequest("resupply", GUNS)).odds == (("resupplied", Fraction(1, 2)),)
    res = s.act(ActionRequest("resupply", GUNS))
    assert "resupplied to 8" in res.explanation and s.state.units[GUNS].ammunition == 8
    zero_based = elchingen({GUNS: gun_at(ammunition=2)}, dice=Script(9))
    assert "not resupplied" in zero_based.act(ActionRequest("resupply", GUNS)).explanation


def test_a_fire_phase_saved_and_opened_again_replays_to_the_same_state(tmp_path):
    s = elchingen({GUNS: gun_at(), HORSE_GUNS: gun_at(140, 40, ammunition=3), CAV: target_centre_at(100, 55)})
    s.act(ActionRequest("fire", GUNS, {"target": CAV}, umpire_result={"figures": 1}))
    s.act(ActionRequest("resupply", HORSE_GUNS))
    path = tmp_path / "fire.battle.json"
    store.save(s.battle, path)
    again = GameSession(store.load(path), get_ruleset("toe"))
    assert again.state.units[GUNS] == s.state.units[GUNS] and again.state.units[CAV].figures == 3
    assert dict(again.state.flags) == dict(s.state.flags)
    assert "already fired this turn" in spec(again, GUNS).unavailable


# -- towns with the scenario's zones (Jena: Cospeda 339.5-354.5 x 132.5-147.5, Lützeroda 299.5-314.5 x 162.5-177.5)
def test_the_range_to_a_unit_in_a_town_is_measured_to_the_town_zone():
    """6.1 'Rækkevidde': "Ved beskydning af byer måles afstanden til byzonen"."""
    from tests.rules.toe_combat_world import BATTERY, jena

    inf = "french-18e-ligne"
    s = jena(
        phase="fire",
        support_gap=None,
        params={"toe.fire_table.artillery": TABLE, "toe.fire_modifiers.artillery": {}},
        dice=Script(5),
        placements={inf: ((307.0, 172.0), 270.0), BATTERY: ((307.0, 150.0), 90.0)},
        changes={inf: {"attributes": {geo.TOWN_ATTRIBUTE: "lutzeroda"}}},
    )
    towns = tuple(s.battle.scenario.towns.values())
    gun, p = s.state.units[BATTERY], params_for(s.params)
    assert fire.plan(s.state, p, gun, inf).range_cm == pytest.approx(172.0 - 148.0)  # the column's front, zone 3
    shot = fire.plan(s.state, p, gun, inf, towns=towns)
    assert shot.range_cm == pytest.approx(162.5 - 148.0) and shot.zone == 2  # the zone's edge
    # through the session (what the Actions dock asks): the zone is measured and said
    res = s.act(ActionRequest("fire", BATTERY, {"target": inf}))
    assert res.status == "resolved", res.explanation
    assert "range 14.5 cm" in res.explanation and "måles afstanden til byzonen" in res.explanation
    assert "zone 2:" in res.explanation and "2 figures lost" in res.explanation  # zone 3 (the unit) reads 1
    # a unit moved into the town (its centre in the zone, no town_zone mark) is in it too
    moved = jena(
        phase="fire",
        support_gap=None,
        placements={inf: ((307.0, 172.0), 270.0), BATTERY: ((307.0, 150.0), 90.0)},
    )
    assert moved.state.units[inf].attributes.get(geo.TOWN_ATTRIBUTE) is None
    shot = fire.plan(moved.state, params_for(moved.params), moved.state.units[BATTERY], inf, towns=towns)
    assert shot.range_cm == pytest.approx(162.5 - 148.0) and shot.in_town


def test_a_battery_in_a_town_is_fired_at_only_through_its_side():
    """4.8.6: "Batteriet kan kun beskydes, hvis en fjendtlige enheds skydelinie går igennem den side af
    byen/byzonen hvor batteriet er placeret"; it stands on a side, rear into the town."""
    from tests.rules.toe_combat_world import BATTERY, jena

    town_gun = "french-iv-corps-foot-guns-1"
    cases = {((347.0, 165.0), 270.0): True, ((320.0, 152.0), 0.0): True, ((347.0, 118.0), 90.0): False}
    for placed, through_its_side in cases.items():
        s = jena(
            phase="fire",
            support_gap=None,
            placements={town_gun: ((347.0, 150.0), 90.0), BATTERY: placed},  # on Cospeda's south side
            changes={town_gun: {"attributes": {geo.TOWN_ATTRIBUTE: "cospeda"}}},
        )
        towns = tuple(s.battle.scenario.towns.values())
        gun, p = s.state.units[BATTERY], params_for(s.params)
        untowned = fire.plan(s.state, p, gun, town_gun)  # without the zones: the umpire's judgement
        pre = s.preview_action(ActionRequest("fire", BATTERY, {"target": town_gun}))
        assert pre.legal is through_its_side, (placed, pre.reason)
        if through_its_side:
            assert fire.plan(s.state, p, gun, town_gun, towns=towns).range_cm == untowned.range_cm  # to the gun
        else:
            assert "side of Cospeda" in pre.reason and "(4.8.6" in pre.reason


def test_a_battery_whose_front_points_into_its_town_does_not_fire():
    """4.6.3: "Batteriet kan ikke skyde når det peger forinden mod byen" — a battery changing side
    of a town stands with its front to the town for a movement phase and cannot fire meanwhile."""
    from tests.rules.toe_combat_world import BATTERY, jena

    target = "french-18e-ligne"
    for facing, fires in ((270.0, True), (90.0, False)):  # Lützeroda's north side: out is 270°
        s = jena(
            phase="fire",
            support_gap=None,
            placements={BATTERY: ((307.0, 161.0), facing), target: ((307.0, 140.0), 90.0)},
            changes={BATTERY: {"attributes": {geo.TOWN_ATTRIBUTE: "lutzeroda"}}},
        )
        pre = s.preview_action(ActionRequest("fire", BATTERY, {"target": target}))
        if fires:
            assert pre.legal, pre.reason
        else:
            assert not pre.legal and "cannot fire while its front points at the town (4.6.3)" in pre.reason
