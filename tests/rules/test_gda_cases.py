"""Data-driven General d'Armée cases: one folder per case in ``gda_cases/`` (format in its
README), run through ``case_runner`` with the actions below and the Protocol's."""

from __future__ import annotations

import pytest

from battlestudio.rules.gda import parameters
from battlestudio.rules.gda.attacks import Declaration, check_attack, check_support
from battlestudio.rules.gda.brigades import brigade_quality, brigade_status
from battlestudio.rules.gda.command import obey_probability
from battlestudio.rules.gda.geometry import attack_aspect, flanked_by
from battlestudio.rules.gda.modifiers import attack_modifiers, situation_from_positions

from tests.rules.case_runner import HERE, expect_three_files, folders, run_case

CASES = HERE / "gda_cases"
FOLDERS = folders(CASES)


def gda_action(state, params, action, dice, terrain):
    """The General d'Armée umpire checks a case may call (see gda_cases/README.md)."""
    do, p = action["do"], parameters(params)
    if do == "check_attack":
        declared = [Declaration(a, t) for a, t in action.get("declared", [])]
        decl = Declaration(
            action["attacker"],
            action["target"],
            tuple(action.get("supports", ())),
            action.get("line_of_sight", True),
            action.get("flank_or_rear"),
        )
        ck = check_attack(state, decl, p, terrain, declared)
        return {
            "legal": ck.legal,
            "reasons": list(ck.reasons),
            "notes": list(ck.notes),
            "supports": ck.supports,
            "explanation": ck.explain(),
        }, []
    if do == "support":
        lead, target = state.units[action["lead"]], state.units[action["target"]]
        return {
            "verdict": check_support(
                state,
                lead,
                target,
                action["support"],
                p,
                action.get("defending", False),
                terrain,
                attacked_in_flank_or_rear=action.get("attacked_in_flank_or_rear"),
                single_attacker=action.get("single_attacker", False),
            )
        }, []
    if do == "modifiers":
        u, e = state.units[action["unit"]], state.units[action["enemy"]]
        sit = situation_from_positions(state, u, e, action["attacking"], p, terrain, action.get("damage_in_attack", 0))
        mods = attack_modifiers(state, u, sit, p)
        return {
            "modifiers": [[m.value, m.source] for m in mods],
            "total": sum(m.value for m in mods),
            "flanked": sit.flanked,
            "attacked_in_flank_or_rear": sit.attacked_in_flank_or_rear,
        }, []
    if do == "aspect":
        return {"aspect": attack_aspect(state.units[action["attacker"]], state.units[action["target"]])}, []
    if do == "flanked":
        return {
            "by": flanked_by(state, state.units[action["unit"]], p, terrain, action.get("reach_key", "flanked"))
        }, []
    if do == "quality":
        return {"grade": brigade_quality(state, action["brigade"], p).value}, []
    if do == "obey_odds":
        st = brigade_status(state, action["brigade"])
        grade = brigade_quality(state, action["brigade"], p) if st.state.value == "faltering" else None
        return {"odds": str(obey_probability(st, grade, p, action.get("reroll", False)))}, []
    if do == "end_turn":
        from battlestudio.rules.gda import ruleset

        return {}, list(ruleset.end_turn(state, params, action.get("side")))
    raise KeyError(do)


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_case(folder):
    run_case(folder, CASES, "gda", gda_action)


def test_every_case_has_its_three_files():
    expect_three_files(CASES, 12)
