"""Issue 17's "Fix" list for General d'Armée: each test pins the seed's reading (seed 002) and
failed on the reading it replaces."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.model.units import Arm, Subtype
from battlestudio.rules.gda.adc import task_cost
from battlestudio.rules.gda.attacks import Declaration, check_attack
from battlestudio.rules.gda.brigades import BrigadeStatus, CommandState, demoralised_now
from battlestudio.rules.gda.initiative import initiative_modifiers
from battlestudio.rules.gda.modifiers import AttackSituation, attack_modifiers
from battlestudio.rules.params import RuleParameters
from battlestudio.session import GameSession
from battlestudio.rules import get_ruleset

from gda_world import brigade, gda_params, unit, world

ELCHINGEN = Path(__file__).resolve().parents[2] / "scenarios" / "elchingen-1805.battle.json"
MOVE = {"normal_move_cm.infantry": 15, "normal_move_cm.cavalry": 30}


def elchingen_state():
    s = GameSession(store.load(ELCHINGEN), get_ruleset("gda"))
    s.start()
    return s.state


def test_d4_cuirassiers_by_subtype_are_heavy_cavalry():
    """Модификаторы атаки: «Тяжелая кавалерия +1», «Ординарная кавалерия против Тяжелой -1»;
    the importers mark Elchingen's Austrian cuirassiers only by subtype ``heavy_cavalry``."""
    st, p = elchingen_state(), gda_params()
    cuir = st.units["austrian-centre-bde-cavalry"]
    hussar = st.units["french-3e-hussar"]
    assert cuir.subtype is Subtype.HEAVY_CAVALRY and "heavy" not in cuir.attributes
    mods = {m.source: m.value for m in attack_modifiers(st, cuir, AttackSituation(True, hussar), p)}
    assert mods["heavy cavalry"] == 1
    mods = {m.source: m.value for m in attack_modifiers(st, hussar, AttackSituation(False, cuir), p)}
    assert mods["ordinary cavalry against heavy/shock cavalry"] == -1


def test_d4_cossacks_may_not_charge_cuirassiers_frontally():
    """Restriction 13: no frontal Cossack attack on heavy cavalry (subtype heavy_cavalry)."""
    cos = unit("cos", side="russian", arm=Arm.CAVALRY, figures=4, x=0, y=0, facing=90, cossack=True)
    cuir = unit("cuir", side="french", arm=Arm.CAVALRY, subtype=Subtype.HEAVY_CAVALRY, figures=4, x=0, y=10, facing=270)
    c, us, e = brigade("b", [cos], side="russian")
    st = world([c], us + [cuir], e, side="russian")
    assert "restriction 13" in check_attack(st, Declaration("cos", "cuir"), gda_params(**MOVE)).explain()


@pytest.mark.parametrize(("gap", "refused"), [(15.0, False), (14.9, True)])
def test_d8_restriction_7_is_closer_than_15_cm(gap, refused):
    """«проводит атаку перед фронтом Построенной вражеской кавалерии ближе, чем в 15см»: at
    exactly 15 cm the infantry may attack."""
    inf = unit("inf", x=0, y=0, facing=90)
    cav = unit("cav", side="austrian", arm=Arm.CAVALRY, figures=4, x=0, y=gap, facing=270)
    tgt = unit("tgt", side="austrian", x=40, y=8, facing=270)
    c, us, e = brigade("b", [inf])
    st = world([c], us + [cav, tgt], e)
    text = check_attack(st, Declaration("inf", "tgt"), gda_params(**MOVE)).explain()
    assert ("restriction 7" in text) is refused


def test_d2_a_dispersed_brigade_costs_no_initiative():
    """ИНИЦИАТИВА: -1 for each Hesitant and Faltering brigade; a brigade whose units have all
    dispersed is gone from the table and no longer counts."""
    alive = unit("a1")
    c1, us1, e1 = brigade("b1", [alive], state="faltering")
    c2, _, _ = brigade("b2", [], state="faltering")
    st = world([c1, c2], us1, e1 + [("b2", "gone1"), ("b2", "gone2")])
    mods = initiative_modifiers(st, "french", gda_params())
    assert [m.value for m in mods] == [-1]
    assert "b1" in mods[0].source


def test_d6_elite_is_judged_on_the_brigade_as_formed():
    """2 Elite + 3 Line that lost its three Line battalions: the survivors are Elite, the brigade
    as formed (E, E, L, L, L) is Line: it becomes Demoralised."""
    e1, e2 = unit("e1", quality="elite"), unit("e2", quality="elite", x=30)
    status = BrigadeStatus("b", CommandState.STEADY, dispersed_grades=("line", "line", "line"))
    c, us, e = brigade("b", [e1, e2], **status.to_value())
    st = world([c], us, e + [("b", "l1"), ("b", "l2"), ("b", "l3")])
    dem, why = demoralised_now(st, "b", gda_params())
    assert dem, why
    # an Elite brigade as formed still never becomes Demoralised
    c, us, e = brigade("b", [e1, e2], dispersed_grades=["elite", "line", "line"])
    st = world([c], us, e + [("b", "l1"), ("b", "l2"), ("b", "l3")])
    assert not demoralised_now(st, "b", gda_params())[0]


def test_d16_adc_costs_inferred_from_the_examples_are_assumed_and_overridable():
    p = RuleParameters.for_ruleset("gda", {})
    for key in ("adc_cost_infantry_assault", "adc_cost_forward_plus_attachment"):
        assert p.entries[key].status == "assumed", key
    assert task_cost("infantry_assault", gda_params()) == 2
    assert task_cost("infantry_assault", gda_params(adc_cost_infantry_assault=1)) == 1
    assert task_cost("forward", gda_params(adc_cost_brigade_attachment=1)) == 2
    assert task_cost("forward", gda_params(adc_cost_brigade_attachment=1, adc_cost_forward_plus_attachment=4)) == 3


def test_d3_an_adc_lost_to_sauve_qui_peut_leaves_the_corps_commanders_supply():
    """«Бригада перманентно теряет своего Адъютанта» (Ambiguity 23: the supply is reduced by one)."""
    from battlestudio.rules.gda.adc import adcs_left
    from gda_world import general

    ney = general("ney", echelon="corps", adcs=3)
    c1, us1, e1 = brigade("b1", [unit("a1")], adc_lost=True, state="faltering")
    c2, us2, e2 = brigade("b2", [unit("a2", x=30)])
    st = world([ney, c1, c2], us1 + us2, e1 + e2 + [("ney", "b1"), ("ney", "b2")])
    assert adcs_left(st, "ney", gda_params()) == 2
    healthy = st.evolve(flags={"gda:b1": {"state": "faltering", "adc_lost": False}})
    assert adcs_left(healthy, "ney", gda_params()) == 3
