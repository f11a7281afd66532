"""Data-driven Belle Alliance cases: one folder per case in ``belle_alliance_cases/`` (format in
its README), run through ``case_runner`` with the umpire checks below and the Protocol's."""

from __future__ import annotations

import pytest

from battlestudio.rules.belle_alliance import parameters
from battlestudio.rules.belle_alliance.attacks import (
    Announcement,
    both_stop,
    check_announcement,
    check_continued_advance,
    check_neighbour,
    check_support,
    figures_in_grid,
    may_attack,
)
from battlestudio.rules.belle_alliance.geometry import classify, figures_behind
from battlestudio.rules.belle_alliance.paths import (
    continued_attack_reach,
    counted_figures,
    first_break_in,
    in_cover,
    intervening,
    position_status,
)

from tests.rules.case_runner import HERE, expect_three_files, folders, run_case

CASES = HERE / "belle_alliance_cases"
FOLDERS = folders(CASES)


def _ann(d):
    return (
        Announcement(d["attacker"], d.get("target"), d.get("storm", False), d.get("against_position", False))
        if d
        else None
    )


def ba_action(state, params, action, dice, terrain):
    """The Belle Alliance umpire checks a case may call (see belle_alliance_cases/README.md)."""
    do, p = action["do"], parameters(params)
    if do == "may_attack":
        ok, why = may_attack(
            state, action["unit"], _ann(action.get("announcement")), action.get("opponent_demands", False)
        )
        return {"ok": ok, "reasons": why}, []
    if do == "announce":
        ok, why = check_announcement(state, _ann(action["announcement"]))
        return {"ok": ok, "reasons": why}, []
    if do == "both_stop":
        m, e, why = both_stop(
            state, action["mover"], action["enemy"], p, _ann(action.get("announcement")), action.get("cancels", False)
        )
        return {"mover_stops": m, "enemy_stops": e, "why": why}, []
    if do == "classify":
        a, t = state.units[action["attacker"]], state.units[action["target"]]
        figs = figures_in_grid(a)
        start = state.units[action["attacker_start"]].rect() if action.get("attacker_start") else None
        return {
            "as": classify(
                a.rect(),
                t.rect(),
                figs,
                a_start=start,
                flank_mode=str(p.get("flank_mode")),
                min_behind=int(p.get("overlap_min_figures_behind")),
            ),
            "figures_behind": figures_behind(t.rect(), figs),
        }, []
    if do == "neighbour":
        ok, why = check_neighbour(
            state,
            action["unit"],
            action["attacker"],
            action["enemy"],
            p,
            action.get("defenders", ()),
            action.get("fighting", ()),
            action.get("taken", ()),
            action.get("flank_or_rear_attacked", ()),
        )
        return {"ok": ok, "reasons": why}, []
    if do == "support":
        ok, why = check_support(
            state,
            action["unit"],
            action["supported"],
            p,
            action.get("fighting", ()),
            action.get("neighbours", ()),
            action.get("taken", ()),
        )
        return {"ok": ok, "reasons": why}, []
    if do == "continued_advance":
        ok, why = check_continued_advance(action["distance"], action["last_march_rate"], action.get("pivots", ()), p)
        return {"ok": ok, "reasons": why}, []
    if do == "continued_attack":
        ok, why = continued_attack_reach(
            state, action["attacker"], action["target"], action["last_march_rate"], p, action["opponent_state"]
        )
        return {"ok": ok, "why": why}, []
    if do == "path":
        stop = first_break_in(state, action["mover"], [tuple(x) for x in action["path"]], p)
        return {"enemy": stop.enemy, "at": list(stop.at), "travelled": stop.travelled}, []
    if do == "intervening":
        stop, choices, why = intervening(
            state, action["mover"], action.get("target"), [tuple(x) for x in action["path"]], p
        )
        return {"enemy": stop.enemy, "travelled": stop.travelled, "choices": list(choices), "why": why}, []
    if do == "position":
        poly = action.get("position") or list(state.units[action["of"]].footprint().exterior.coords)
        return position_status(state, state.units[action["attacker"]], poly, p), []
    if do == "cover":
        ok, why = in_cover(state.units[action["defender"]], state.units[action["attacker"]], terrain, p)
        return {"covered": ok, "why": why}, []
    if do == "counted":
        return {"figures": counted_figures(state.units[action["unit"]], action.get("situation", "front"))}, []
    raise KeyError(do)


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_case(folder):
    run_case(folder, CASES, "belle-alliance", ba_action)


def test_every_case_has_its_three_files():
    expect_three_files(CASES, 10)
