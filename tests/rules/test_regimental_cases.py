"""Data-driven Regimental rules cases: one folder per case in ``regimental_cases/`` (format in
its README), run through ``case_runner`` with the actions below and the Protocol's."""

from __future__ import annotations

import pytest

from battlestudio.rules.dice import Modifier
from battlestudio.rules.regimental import parameters, ruleset
from battlestudio.rules.regimental.command import hq_link
from battlestudio.rules.regimental.morale import add_markers, marker_event, morale_test

from tests.rules.case_runner import HERE, expect_three_files, folders, run_case

CASES = HERE / "regimental_cases"
FOLDERS = folders(CASES)


def regimental_action(state, params, action, dice, terrain):
    """The Regimental umpire checks a case may call (see regimental_cases/README.md)."""
    do, p = action["do"], parameters(params)
    if do == "regiment_order":
        r = ruleset.regiment_order(state, action["regiment"], action["division_actions"], params, dice)
        return {
            "actions": r.actions,
            "distance": r.distance,
            "within": r.within,
            "exempt": r.exempt,
            "explanation": r.explanation,
        }, []
    if do == "move_adjutant":
        out = ruleset.move_adjutant(state, action["adjutant"], tuple(action["to"]), params)
        return {"status": out.status, "explanation": out.explanation}, list(out.events)
    if do == "hq_link":
        target = tuple(action["point"]) if "point" in action else [state.units[u] for u in action["units"]]
        link = hq_link(state, action["side"], target, p)
        return {"within": link.within, "chain": list(link.chain), "distance": link.distance}, []
    if do == "morale":
        sit = tuple(Modifier(v, s) for v, s in action.get("situational", ()))
        r = morale_test(state, action["unit"], p, dice, sit, melee=bool(action.get("melee")))
        return {
            "passed": r.passed,
            "target": r.target,
            "odds": str(r.odds),
            "roll": r.roll.explain(),
            "roll_odds": str(r.roll.probability()),
        }, []
    if do == "markers":
        r = add_markers(state.units[action["unit"]], action["added"], p)
        return (
            {
                "bases_removed": r.bases_removed,
                "markers": r.markers,
                "forced_test": r.forced_test,
                "since_test": r.since_test,
            },
            [marker_event(state, r)],
        )
    raise KeyError(do)


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_case(folder):
    run_case(folder, CASES, "regimental", regimental_action)


def test_every_case_has_its_three_files():
    expect_three_files(CASES, 10)
