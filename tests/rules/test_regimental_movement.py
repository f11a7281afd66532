"""Regimental movement rates with terrain (Перемещение) on the Elchingen table: 10/20/7/15 cm an
action, the Grosser Forst (infantry 7 cm and disorganised unless light, light cavalry 10 cm,
other cavalry and artillery not at all), the Elchingen heights (5 cm less), a ford (1/3)."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from shapely.geometry import box

from battlestudio import store
from battlestudio.model.terrain import TerrainFeature, TerrainKind
from battlestudio.model.units import Subtype
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.regimental.movement import check_move

from regimental_world import ELCHINGEN

B = store.load(ELCHINGEN)
T = list(B.scenario.terrain.values())
U = B.scenario.units
P = RuleParameters.for_ruleset("regimental", {})
INF, GUNS, HORSE = U["austrian-avantgarde"], U["french-vi-corps-foot-guns-1"], U["french-vi-corps-horse-guns-1"]
HUSSARS, CUIRASSIERS = U["austrian-avantgarde-cavalry"], U["austrian-centre-bde-cavalry"]


def test_open_ground_rates_per_action():
    for u, rate in ((INF, 10), (HUSSARS, 20), (GUNS, 7), (HORSE, 15)):
        ok = check_move(u, [(15.0, 100.0), (15.0, 100.0 - rate)], T, P)
        assert ok.legal and ok.allowed_cm == rate and not ok.disorganises, ok.reasons
        too_far = check_move(u, [(15.0, 100.0), (15.0, 100.0 - rate - 0.5)], T, P)
        assert not too_far.legal and "more than" in too_far.reasons[-1]


def test_the_grosser_forst_slows_and_disorganises_infantry_but_not_light_infantry():
    into = [(20.0, 132.0), (20.0, 139.0)]  # the wood's edge is at y ≈ 138.6 here
    m = check_move(INF, into, T, P)
    assert m.legal and m.allowed_cm == 7 and m.disorganises
    assert "infantry in the wood" in " ".join(m.reasons) and "disorganised" in " ".join(m.reasons)
    assert not check_move(INF, [(20.0, 132.0), (20.0, 140.0)], T, P).legal
    light = check_move(replace(INF, subtype=Subtype.LIGHT_INFANTRY), into, T, P)
    assert light.legal and light.allowed_cm == 7 and not light.disorganises


def test_only_light_cavalry_enters_the_wood_and_artillery_never():
    into = [(20.0, 130.0), (20.0, 139.0)]
    h = check_move(HUSSARS, into, T, P)
    assert h.legal and h.allowed_cm == 10 and h.disorganises
    c = check_move(CUIRASSIERS, into, T, P)
    assert not c.legal and "only light cavalry" in " ".join(c.reasons)
    g = check_move(HORSE, [(20.0, 135.0), (20.0, 139.0)], T, P)
    assert not g.legal and "Артиллерия через лес" in " ".join(g.reasons)


def test_up_the_elchingen_heights_5_cm_less_and_the_reading_is_overridable():
    up = [(22.0, 70.0), (32.0, 70.0)]  # crosses the heights' western edge (x ≈ 30.4)
    m = check_move(INF, up, T, P)
    assert m.allowed_cm == 5 and not m.legal
    assert check_move(INF, [(26.0, 70.0), (31.0, 70.0)], T, P).legal
    flat = RuleParameters.for_ruleset("regimental", {"hill_penalty_cm": 0})
    assert check_move(INF, up, T, flat).legal
    # moving on the plateau, crossing no edge, costs nothing
    assert check_move(INF, [(60.0, 80.0), (70.0, 80.0)], T, P).allowed_cm == 10


def test_a_ford_allows_a_third_of_the_move():
    ford = TerrainFeature("ford", TerrainKind.FORD, box(60.0, 33.0, 64.0, 48.0), name="Danube ford")
    m = check_move(HUSSARS, [(62.0, 30.0), (62.0, 36.0)], [*T, ford], P)
    assert m.allowed_cm == Fraction(20, 3) and m.legal and "1/3" in m.reasons[-1]
    assert not check_move(HUSSARS, [(62.0, 30.0), (62.0, 37.0)], [*T, ford], P).legal
