"""A lazy game log started from a stored keyframe (issue 26): jumps before the keyframe replay
up to there, undo below it checks it first, a snapshot of the checked part analyses alone, and a
keyframe at no phase start is not used."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.digest import state_digest, state_difference
from battlestudio.replay.game import GameLog

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"


@pytest.fixture(scope="module")
def jena():
    battle = store.load(JENA)
    ref = GameLog.from_battle(battle)
    return battle, ref


def _seeded(battle, ref, phase: int = -2) -> tuple[GameLog, int]:
    pos = ref.phase_range(ref.phases()[phase])[0]
    return GameLog.lazy(battle.scenario, battle.events, keyframe=(pos, ref.state_at(pos))), pos


def test_a_jump_before_the_keyframe_replays_only_up_to_it(jena):
    battle, ref = jena
    log, pos = _seeded(battle, ref)
    assert log.unverified_until == pos
    mid = pos // 2
    assert state_digest(log.state_at(mid)) == state_digest(ref.state_at(mid))
    assert log.validated == mid and log.verifying_keyframe  # replayed (checked) that far, no further
    assert log.events_touching(next(iter(ref.head.units)), pos, len(log)) == ref.events_touching(
        next(iter(ref.head.units)), pos, len(log)
    )
    assert log.validated == mid  # positions after the keyframe need nothing before it


def test_undo_below_the_keyframe_checks_it_first(jena):
    battle, ref = jena
    log, pos = _seeded(battle, ref, phase=-1)  # the last phase: undo may reopen the one before it
    n = log.undoable
    log.undo(n)  # the last phase's events: back to the keyframe itself, still unverified
    assert len(log) == pos and log.verifying_keyframe and state_digest(log.head) == state_digest(ref.state_at(pos))
    log.undo(1)  # into the phase before: the keyframe must have been checked
    assert not log.verifying_keyframe and log.keyframe_problem == ""
    assert state_digest(log.head) == state_digest(ref.state_at(pos - 1))


def test_the_checked_part_is_a_log_of_its_own(jena):
    battle, ref = jena
    log, pos = _seeded(battle, ref)
    log.validate(300)
    part = log.checked_prefix()
    assert len(part) == 300 == part.validated and state_digest(part.head) == state_digest(ref.state_at(300))
    assert part.phases() == [k for k in ref.phases() if ref.phase_range(k)[0] < 300]
    uid = next(iter(ref.head.units))
    assert part.events_touching(uid) == [p for p in ref.events_touching(uid) if p < 300]
    while not log.validate(500):
        pass
    whole = log.checked_prefix()
    assert len(whole) == len(ref) and state_digest(whole.head) == state_digest(ref.head)


def test_a_keyframe_inside_a_phase_is_not_used(jena):
    battle, ref = jena
    start, end = next(r for r in map(ref.phase_range, reversed(ref.phases())) if r[1] - r[0] > 1)
    log = GameLog.lazy(battle.scenario, battle.events, keyframe=(start + 1, ref.state_at(start + 1)))
    assert not log.verifying_keyframe and "not at the start of a phase" in log.keyframe_problem


def test_state_difference_names_what_differs(jena):
    _battle, ref = jena
    a = ref.head
    uid = next(iter(a.units))
    assert state_difference(a, a) == ""
    assert state_difference(a, a.without(uid)) == f"unit {uid!r} (in one state only)"
    assert state_difference(a, a.evolve(turn=a.turn + 1)).startswith("the turn")
