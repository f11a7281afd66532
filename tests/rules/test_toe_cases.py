"""Data-driven Torden over Europa order-system cases: one folder per case in ``toe_cases/``."""

from __future__ import annotations

import pytest

from tests.rules.toe_runner import CASES, final_view, load_case, match, run_action

FOLDERS = sorted(p for p in CASES.iterdir() if p.is_dir() and not p.name.startswith("_"))


@pytest.mark.parametrize("folder", FOLDERS, ids=[f.name for f in FOLDERS])
def test_case(folder):
    state, params, actions, expected = load_case(folder)
    steps = expected["steps"]
    assert len(steps) == len(actions), f"{folder.name}: {len(actions)} actions but {len(steps)} expected steps"
    for i, (action, want) in enumerate(zip(actions, steps, strict=True)):
        result, state = run_action(state, params, action)
        match(want, result, f"{folder.name} step {i + 1} ({action['do']})")
    if "final" in expected:
        match(expected["final"], final_view(state), f"{folder.name} final")


def test_every_case_has_its_three_files():
    assert len(FOLDERS) >= 20
    for f in FOLDERS:
        assert {"scenario.json", "actions.json", "expected.json"} <= {p.name for p in f.iterdir()}, f.name
