"""The Timeline model: stepping and jumping in both directions, bounds, play/pause, speed,
loop and live recording, with no timer and no waiting."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battlestudio.replay.cursor import Cursor
from battlestudio.replay.events import Annotation, Moved, PhaseStarted
from battlestudio.replay.game import GameLog
from battlestudio.replay.timeline import Timeline


@pytest.fixture(scope="module")
def log(forty_turns):
    return forty_turns.log()


@pytest.fixture
def tl(log):
    t = Timeline(log, 0)
    yield t
    t.close()


def test_starts_at_the_end_unless_told(log):
    t = Timeline(log)
    assert t.at_end and t.position == len(log) and t.bounds == (0, len(log))
    assert t.state is log.head
    t.close()


def test_event_steps_stop_at_the_bounds(tl, log):
    moves = []
    tl.position_changed.connect(moves.append)
    tl.step_event(-1)
    assert tl.at_start and moves == []  # nothing emitted when nothing moves
    tl.step_event(3)
    assert tl.position == 3 and moves == [3]
    tl.step_event(10**6)
    assert tl.at_end
    tl.step_event(1)
    assert tl.at_end and moves == [3, len(log)]


def test_phase_steps_land_on_phase_starts_both_ways(tl, log):
    starts = log.phase_starts()
    tl.step_phase()
    assert tl.position == starts[0] == 1
    assert tl.cursor == Cursor(1, "french", "orders", 0)
    tl.step_phase()
    assert tl.cursor.phase == "movement" and tl.cursor.index == 0
    tl.step_event(2)  # inside the movement phase
    tl.step_phase(-1)  # back to its start
    assert tl.position == starts[1]
    tl.step_phase(-1)
    assert tl.position == starts[0]
    tl.step_phase(-1)
    assert tl.at_start
    tl.to_end()
    tl.step_phase(-1)
    assert tl.position == starts[-1]
    tl.step_phase(1)
    assert tl.at_end
    tl.step_phase(5)
    assert tl.at_end


def test_turn_steps_and_jumps(tl, log):
    tl.step_turn(14)
    assert tl.cursor.turn == 14 and tl.cursor.phase == "orders" and tl.cursor.index == 0
    tl.step_turn(-1)
    assert tl.cursor.turn == 13
    tl.jump_to(14, "prussian", "fire")
    assert tl.cursor == Cursor(14, "prussian", "fire", 0)
    assert tl.state.phase == "fire" and tl.state.side == "prussian" and tl.state.turn == 14
    tl.jump_to(40)
    assert tl.cursor.turn == 40 and tl.cursor.phase == "orders"
    before = tl.position
    with pytest.raises(ValueError, match="no phase with turn 41"):
        tl.jump_to(41)
    assert tl.position == before
    tl.step_turn(100)
    assert tl.at_end
    tl.step_turn(-100)
    assert tl.at_start


@given(moves=st.lists(st.tuples(st.sampled_from(["event", "phase", "turn"]), st.integers(-5, 5)), max_size=30))
@settings(max_examples=60, deadline=None)
def test_any_walk_stays_in_bounds_and_back_then_forward_is_identical(log, moves):
    tl = Timeline(log, 0)
    marks = {"event": set(range(len(log) + 1)), "phase": {0, *log.phase_starts()}, "turn": {0, *log.turn_starts()}}
    try:
        for unit, n in moves:
            tl.step(n, unit)
            here, state = tl.position, tl.state
            assert 0 <= here <= len(log)
            if n == 0 or here not in marks[unit]:
                assert n == 0 or tl.at_end
                continue
            if here > 0:
                tl.step(-1, unit)
                tl.step(1, unit)
                assert tl.position == here and tl.state == state
            if not tl.at_end:
                tl.step(1, unit)
                tl.step(-1, unit)
                assert tl.position == here and tl.state == state
    finally:
        tl.close()


def test_play_advances_by_the_step_unit_and_pauses_at_the_end(tl, log):
    flags = []
    tl.playing_changed.connect(flags.append)
    assert tl.advance() == 0  # paused: ticks do nothing
    tl.play()
    assert tl.playing and flags == [True]
    tl.advance()
    assert tl.position == 1
    tl.step_unit = "turn"
    tl.advance()
    assert tl.cursor.turn == 2
    tl.jump_to(40, "prussian", "reorganisation")
    tl.advance()
    assert tl.at_end and not tl.playing and flags == [True, False]
    tl.play()  # from the end, playback starts over
    assert tl.at_start and tl.playing


def test_loop_wraps_to_the_start_on_the_tick_after_the_end(tl, log):
    tl.loop = True
    tl.step_unit = "phase"
    tl.jump_to(40, "prussian", "reorganisation")
    tl.play()
    tl.advance()
    assert tl.at_end and tl.playing
    tl.advance()
    assert tl.at_start and tl.playing
    tl.advance()
    assert tl.position == log.phase_starts()[0]


def test_speed_scales_the_steps_per_elapsed_time(log):
    tl = Timeline(log, 0, steps_per_second=4.0)
    try:
        tl.play()
        assert tl.interval == pytest.approx(0.25)
        assert tl.advance(0.5) == 2 and tl.position == 2
        tl.faster()
        assert tl.speed == 2.0 and tl.interval == pytest.approx(0.125)
        assert tl.advance(0.5) == 4 and tl.position == 6
        tl.speed = 0.25
        assert tl.advance(0.5) == 0 and tl.advance(0.5) == 1  # fractions carry over
        assert tl.position == 7
        for _ in range(20):
            tl.slower()
        assert tl.speed == 1 / 16
        with pytest.raises(ValueError, match="speed must be between"):
            tl.speed = 0
        with pytest.raises(ValueError, match="step unit must be one of"):
            tl.step_unit = "minute"
    finally:
        tl.close()


def test_live_recording_follows_the_end_and_undo_pulls_back(jena):
    log = GameLog.from_scenario(jena)
    tl = Timeline(log)
    bounds = []
    tl.bounds_changed.connect(lambda a, b: bounds.append(b))
    log.append(PhaseStarted(1, "french", "movement"))
    log.append(Moved(1, "french", "movement", id="vedel", path=((125.0, 60.0), (125.0, 72.0))))
    assert tl.at_end and tl.state.units["vedel"].position == (125.0, 72.0)
    tl.step_event(-1)  # the umpire looks back ...
    log.append(Annotation(1, "french", "movement", text="Vedel halts in the fog"))
    assert tl.position == 1  # ... and stays where he looks
    tl.to_end()
    log.undo(2)
    assert tl.position == 1 and bounds == [1, 2, 3, 1]
    tl.close()


def test_a_late_tick_moves_once_dropping_the_positions_between(tl, log):
    tl.seek(0)
    tl.step_unit, tl.speed = "turn", 1.0
    seen: list[int] = []
    tl.position_changed.connect(seen.append)
    tl.play()
    seen.clear()
    assert tl.advance(5 / tl._rate) == 5  # five turns' worth of time at once
    assert seen == [log.turn_starts()[4]]  # one frame, five turns on
    tl.seek(log.turn_starts()[-1])
    seen.clear()
    assert tl.advance(10 / tl._rate) == 1 and seen == [len(log)]  # a tick stops at the end
    assert not tl.playing


def test_looping_playback_wraps_after_showing_the_end(tl, log):
    tl.step_unit, tl.loop = "phase", True
    tl.seek(log.phase_starts()[-1])
    tl.play()
    tl.advance(3 / tl._rate)
    assert tl.at_end and tl.playing
    tl.advance(1 / tl._rate)
    assert tl.position == 0 and tl.playing


def test_a_loop_range_goes_round_between_its_two_marks(tl, log):
    starts = log.turn_starts()
    lo, hi = starts[13], starts[15]  # turns 14 and 15
    tl.step_unit, tl.loop = "phase", True
    seen: list[tuple[int, int]] = []
    tl.loop_range_changed.connect(lambda r: seen.append(r))
    tl.loop_range = (lo, hi)
    assert tl.loop_range == (lo, hi) and seen == [(lo, hi)]
    tl.seek(0)
    tl.play()  # from outside the range: playing starts at its first mark
    assert tl.position == lo
    visited = [tl.position]
    for _ in range(80):
        tl.advance()
        visited.append(tl.position)
    assert all(lo <= p <= hi for p in visited)
    assert visited.count(hi) >= 2 and visited.count(lo) >= 3  # shown the last mark, then round
    i = visited.index(hi)
    assert visited[i + 1] == lo and tl.playing
    tl.advance(1000 / tl._rate)  # a tick worth many steps still stops at the range's end
    assert tl.position <= hi
    with pytest.raises(ValueError, match="before its last"):
        tl.loop_range = (hi, lo)
    tl.loop_range = None
    assert seen[-1] is None
    tl.pause()


def test_a_loop_range_is_dropped_when_its_events_are_undone(log):
    small = GameLog(log.initial, list(log.events[:400]))
    tl = Timeline(small, 0)
    try:
        tl.loop = True
        tl.loop_range = (10, 400)
        small.undo(1)  # the range's last event is gone
        assert len(small) == 399 and tl.loop_range is None
    finally:
        tl.close()
