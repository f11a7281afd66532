"""Regimental organisation and bases (1.1-1.2) on the bundled Elchingen: 75 men a figure, 6
figures an infantry base (assumed from 5-6), cavalry squadrons of 2 figures, base sizes, the
warnings for regiments outside 4-6 bases and batteries without a general; the switch report
carries the conversion."""

from __future__ import annotations

import math

from battlestudio import store
from battlestudio.model.units import Arm
from battlestudio.rules.params import RuleParameters
from battlestudio.rules.regimental.organisation import convert_units, regimental_unit
from battlestudio.rules.switch import switch_report

from regimental_world import ELCHINGEN

P = RuleParameters.for_ruleset("regimental", {})


def test_infantry_and_cavalry_at_75_men_a_figure_with_bases_and_sizes():
    sc = store.load(ELCHINGEN).scenario
    conv = convert_units(sc, P)
    av = conv.units["austrian-avantgarde"]  # 3,400 men
    assert (av.figures, av.bases) == (45, 8)  # round(3400 / 75) = 45; ceil(45 / 6) = 8
    assert av.men == 3400 and av.attributes["base_size_cm"] == [6.0, 2.0]
    # in line (2 ranks) a base of 6 figures is 6 cm wide and 2 cm deep (1.1)
    assert math.isclose(av.figure_width * 3, 6.0) and math.isclose(av.figure_depth * 2, 2.0)
    hussars = conv.units["austrian-avantgarde-cavalry"]  # 300 men: 4 figures, 2 squadrons of 2
    assert (hussars.figures, hussars.bases) == (4, 2) and hussars.attributes["base_size_cm"] == [4.0, 3.5]
    assert all(u.arm is not Arm.ARTILLERY for u in conv.units.values())  # Ambiguity 1: not converted
    assert any("3400 men / 75 = 45 figures, 8 bases" in n for n in conv.notes)
    assert "Avantgarde: 8 bases, a regiment has 4-6 (1.1)" in conv.warnings
    assert any("VI Corps foot artillery: no brigade or divisional general" in w for w in conv.warnings)


def test_assumed_figures_per_base_and_base_size_change_the_conversion():
    u = store.load(ELCHINGEN).scenario.units["austrian-avantgarde"]
    five = RuleParameters.for_ruleset("regimental", {"figures_per_base": {"infantry": 5, "cavalry": 2}})
    assert regimental_unit(u, five)[0].bases == 9  # ceil(45 / 5)
    wide = RuleParameters.for_ruleset(
        "regimental", {"base_size_cm": {"infantry": [5.0, 2.0], "skirmishers": [2.0, 2.0], "cavalry": [4.0, 3.5]}}
    )
    assert math.isclose(regimental_unit(u, wide)[0].figure_width * 3, 5.0)
    bases_only = regimental_unit(u.__class__(**{**{f: getattr(u, f) for f in u.__slots__}, "men": 0, "bases": 5}), P)
    assert bases_only[0].figures == 30 and "no men given: 5 bases × 6 figures" in bases_only[1]


def test_the_switch_report_carries_the_conversion():
    sc = store.load(ELCHINGEN).scenario
    sc.info = sc.info.__class__(**{**{f: getattr(sc.info, f) for f in sc.info.__slots__}, "ruleset": "toe"})
    rep = switch_report(sc, "regimental")
    assert not rep.lossless and rep.converted["austrian-avantgarde"].bases == 8
    assert any("converted to the Regimental rules scale" in line for line in rep.lines())
    assert "Avantgarde: 8 bases, a regiment has 4-6 (1.1)" in rep.text()
    assert not switch_report(sc, "gda").converted  # other rulesets convert nothing
