"""Out of command for a whole army at once (Torden over Europa 2.4–2.5): the vectorised check
gives, for every subject and in the same order, exactly what measuring each subject alone gives,
under every command measure; cached footprints and bases follow moved records."""

from __future__ import annotations

import pytest

from battlestudio.model.command_geometry import command_distances, within_command
from battlestudio.replay.state import GameState
from battlestudio.session.synthetic import synthetic_game
from battlestudio.rules.toe.command import check_command
from battlestudio.rules.toe.common import base_of, params_for, shape_of

PARAMS = {"corps_command_distance_cm": 60.0}


@pytest.fixture(scope="module")
def mid_game() -> GameState:
    game = synthetic_game(turns=12, units_per_side=96, seed=11)
    log = game.log()
    return log.state_at(log.phase_starts()[len(log.phases()) // 2])


def one_by_one(state: GameState, measure: str) -> list[tuple[str, str, float, bool]]:
    """Reference: every subject measured on its own, in the order the check lists them."""
    out = []
    subjects = [c for c in state.commanders.values() if c.echelon == "division"] + list(state.units.values())
    for rec in subjects:
        sup = state.oob.superior(rec.id)
        if (
            rec.id in state.off_table
            or getattr(rec, "state", "") == "eliminated"
            or sup is None
            or sup in state.off_table
        ):
            continue
        c = state.commanders[sup]
        if c.echelon not in ("corps", "division"):
            continue
        reach = 60.0 if c.echelon == "corps" else 15.0
        d = float(
            command_distances(base_of(c), [shape_of(state, rec.id)], "centre" if measure == "centre" else "nearest")[0]
        )
        out.append((rec.id, sup, d, within_command(base_of(c), shape_of(state, rec.id), reach, measure)))
    return out


@pytest.mark.parametrize("measure", ["nearest", "centre", "all"])
def test_the_bulk_check_equals_measuring_each_subject_alone(mid_game, measure):
    report = check_command(mid_game, params_for({**PARAMS, "command_measure": measure}))
    got = [(f.subject, f.superior, f.distance, f.within) for f in report.findings]
    assert got == one_by_one(mid_game, measure)
    assert len(got) > 150 and any(w for *_, w in got) and not all(w for *_, w in got)


def test_moving_a_general_changes_only_his_subordinates_findings(mid_game):
    p = params_for(PARAMS)
    before = {f.subject: f for f in check_command(mid_game, p).findings}
    div = next(c for c in mid_game.commanders.values() if c.echelon == "division" and c.id not in mid_game.off_table)
    moved = check_command(mid_game, p, positions={div.id: (div.position[0] + 200.0, div.position[1])})
    after = {f.subject: f for f in moved.findings}
    changed = {s for s in before if before[s].distance != after[s].distance}
    assert changed == set(mid_game.oob.subordinates(div.id)) | {div.id}
    assert all(not after[s].within for s in mid_game.oob.subordinates(div.id))


def test_footprints_and_bases_follow_the_record_not_the_id(mid_game):
    u = next(iter(mid_game.units.values()))
    assert u.footprint() is u.footprint()
    far = u.moved((u.position[0] + 50.0, u.position[1]))
    assert far.footprint().centroid.x == pytest.approx(u.footprint().centroid.x + 50.0)
    c = next(iter(mid_game.commanders.values()))
    c2 = c.moved((c.position[0], c.position[1] + 7.0))
    assert base_of(c2).y == pytest.approx(c.position[1] + 7.0) and base_of(c).y == pytest.approx(c.position[1])
