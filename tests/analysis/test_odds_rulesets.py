"""The odds dock's numbers and the command picture for all four rulesets on the rule-case worlds:
Belle Alliance's order roll from the scenario (enumerated), GdA's Faltering Line brigade, the
Regimental expected actions, and a picture of reaches and findings for each ruleset."""

from __future__ import annotations

import itertools
from fractions import Fraction
from pathlib import Path

import pytest

from battlestudio.analysis.command_picture import command_picture
from battlestudio.analysis.odds import order_odds
from battlestudio.rules import get_ruleset

from tests.rules.case_runner import load_case

RULES = Path(__file__).resolve().parents[1] / "rules"


def world(cases: str, case: str):
    state, params, _, _, _ = load_case(RULES / cases / case, RULES / cases)
    return state, params


def test_belle_alliance_order_roll_odds_match_enumeration():
    state, params = world("belle_alliance_cases", "attack-orders-and-command")
    missing = order_odds(state, "belle-alliance", params, "fc", "a")
    assert "order_roll" in missing.refusal
    odds = order_odds(state, "belle-alliance", {**params, "order_roll": "2d6 >= 7"}, "fc", "a")
    faces = list(itertools.product(range(1, 7), repeat=2))
    assert odds.rows[0].chance == Fraction(sum(a + b >= 7 for a, b in faces), len(faces)) == Fraction(7, 12)
    low = order_odds(state, "belle-alliance", {**params, "order_roll": "1d6 <= 2"}, "fc", "a")
    assert low.rows[0].chance == Fraction(1, 3)
    bad = order_odds(state, "belle-alliance", {**params, "order_roll": "seven or more"}, "fc", "a")
    assert "'seven or more' is not of the form" in bad.refusal


def test_gda_faltering_line_brigade_obeys_one_in_three_by_enumeration():
    state, params = world("gda_cases", "faltering-line-rolls-3-retreat")
    odds = order_odds(state, "gda", params, "girard", "fb1")
    table = ["sauve_qui_peut", "retreat", "retreat", "rally", "obeys", "obeys"]  # Veteran/Line row
    assert odds.rows[0].chance == Fraction(table.count("obeys"), 6) == Fraction(1, 3)


def test_regimental_expected_actions_by_enumeration():
    state, params = world("regimental_cases", "orders-test-table")
    odds = order_odds(state, "regimental", params, "hq", "div")
    actions = [3, 3, 2, 2, 1, 1]
    assert odds.rows[0].expected == Fraction(sum(actions), 6) == 2


@pytest.mark.parametrize(
    "ruleset, cases, case, commander, radius",
    [
        ("gda", "gda_cases", "command-roll-3-obeys-2-hesitant", "fb1", 30.0),
        ("regimental", "regimental_cases", "orders-test-table", "hq", 20.0),
        ("belle-alliance", "belle_alliance_cases", "attack-orders-and-command", "fc", 20.0),
    ],
)
def test_command_picture_for_each_ruleset(ruleset, cases, case, commander, radius):
    state, params = world(cases, case)
    pic = command_picture(state, get_ruleset(ruleset), params)
    assert pic.reaches[commander].radius == radius
    assert pic.findings and all(f.text for f in pic.findings.values())
