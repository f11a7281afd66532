"""The game log: random access equals folding from the start, keyframes bound the cost, the
turn → side → phase → event index, undo during recording, what changed, trails."""

from __future__ import annotations

import random
import subprocess
import sys
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from battlestudio.replay.battle import Battle
from battlestudio.replay.cursor import START, Cursor, PhaseKey
from battlestudio.replay.events import (
    Annotation,
    Casualties,
    Fired,
    Moved,
    OrderStateChanged,
    PhaseStarted,
    event_kinds,
)
from battlestudio.replay.game import GameLog
from battlestudio.replay.state import GameState
from battlestudio.session.synthetic import TOE_PHASES, synthetic_game


def folded(game) -> list[GameState]:
    """Reference: states[p] = the initial state with the first p events applied, one by one."""
    states = [GameState.from_scenario(game.scenario)]
    for e in game.events:
        states.append(e.apply(states[-1]))
    return states


@pytest.fixture(scope="module")
def reference(forty_turns):
    return folded(forty_turns)


def test_the_synthetic_game_is_a_realistic_40_turn_game(forty_turns):
    log = forty_turns.log()
    assert log.turns() == list(range(1, 41))
    assert len(log.phases()) == 40 * 2 * len(TOE_PHASES)
    assert {e.kind for e in forty_turns.events} >= {
        k for k, c in event_kinds().items() if c.__module__.endswith(("flow_events", "combat_events"))
    }
    assert len(forty_turns.scenario.units) == 48 and len(forty_turns.scenario.commanders) > 10
    again = synthetic_game(turns=40, units_per_side=24, seed=1807)
    assert again.events == forty_turns.events  # deterministic


def test_state_at_every_cursor_equals_folding_from_the_start(forty_turns, reference):
    log = forty_turns.log(keyframe_every=16)
    positions = list(range(len(log) + 1))
    random.Random(7).shuffle(positions)  # random order: no help from the recent-state cache
    for p in positions:
        cursor = log.cursor_at(p)
        assert log.position(cursor) == p
        assert log.state_at(cursor) == reference[p], f"state differs at {cursor}"


def test_every_phase_boundary_has_a_keyframe_and_no_gap_exceeds_n(forty_turns):
    log = forty_turns.log(keyframe_every=8)
    kf = log.keyframe_positions()
    starts = {start for start, _ in (log.phase_range(k) for k in log.phases())}
    assert starts <= set(kf)
    assert max(b - a for a, b in pairwise(kf)) <= 8
    assert len(log) - kf[-1] < 8


def test_state_at_applies_only_the_events_since_the_keyframe(forty_turns, monkeypatch):
    log = forty_turns.log(keyframe_every=10, cache_size=0)
    applied = []
    for cls in event_kinds().values():
        original = cls.apply

        def counting(self, state, _original=original):
            applied.append(self)
            return _original(self, state)

        monkeypatch.setattr(cls, "apply", counting)
    rng = random.Random(3)
    for p in rng.sample(range(len(log)), 300):
        applied.clear()
        log.state_at(p)
        assert len(applied) < 10


@given(steps=st.lists(st.sampled_from([-7, -1, 1, 1, 3, 40, -40]), min_size=1, max_size=60), start=st.integers(0, 2000))
@settings(max_examples=40, deadline=None)
def test_stepping_back_and_forth_returns_the_identical_state(forty_turns, reference, steps, start):
    log = forty_turns.log()
    p = min(start, len(log))
    first = log.state_at(p)
    for d in steps:
        p = min(max(p + d, 0), len(log))
        assert log.state_at(p) == reference[p]
    back = log.state_at(min(start, len(log)))
    assert back == first


def test_cursors_read_as_turn_side_phase_event(forty_turns):
    log = forty_turns.log()
    assert log.cursor_at(0) == START and log.position(START) == 0
    assert log.cursor_at(1) == Cursor(1, "french", "orders", 0)
    key = log.find_phase(14, phase="fire")
    start, end = log.phase_range(key)
    assert log.cursor_at(end) == Cursor(*key, end - start - 1)
    assert log.position(Cursor(*key, -1)) == start
    assert log.cursor_at(len(log)).turn == 40
    with pytest.raises(ValueError, match="no phase turn 41"):
        log.position(Cursor(41, "french", "orders", 0))
    with pytest.raises(ValueError, match="no index 999"):
        log.position(Cursor(*key, 999))
    with pytest.raises(ValueError, match="outside the game log"):
        log.state_at(len(log) + 1)


def test_the_index_is_turn_side_phase_event(forty_turns):
    log = forty_turns.log()
    idx = log.index()
    assert list(idx) == list(range(1, 41))
    for turn, sides in idx.items():
        assert sorted(sides) == ["french", "prussian"]
        for side, phases in sides.items():
            assert list(phases) == [p for p, _ in TOE_PHASES]
            for phase, events in phases.items():
                assert isinstance(events[0], PhaseStarted)
                assert all((e.turn, e.side, e.phase) == (turn, side, phase) for e in events)
                assert log.events_of(turn, side, phase) == events
    assert sum(len(ev) for _, ev in log.iter_phases()) == len(log)
    # initiative is recorded as played: some turns the Prussians go first
    assert any(list(idx[t])[0] == "prussian" for t in idx)
    assert log.find_phase(14, "prussian", "fire") == PhaseKey(14, "prussian", "fire")
    with pytest.raises(ValueError, match="no phase with turn 14, side 'saxon'"):
        log.find_phase(14, "saxon")


def test_phase_and_turn_starts(forty_turns):
    log = forty_turns.log()
    assert len(log.phase_starts()) == len(log.phases())
    ts = log.turn_starts()
    assert len(ts) == 40 and ts[0] == 1
    for p in ts:
        assert log.cursor_at(p).index == 0 and log.cursor_at(p).phase == "orders"


# -- recording and undo ----------------------------------------------------------------------
def test_undo_takes_back_only_the_open_phase(jena):
    log = GameLog.from_scenario(jena)
    log.append(PhaseStarted(1, "french", "movement"))
    log.append(Moved(1, "french", "movement", id="vedel", path=((125.0, 60.0), (125.0, 75.0))))
    log.append(PhaseStarted(1, "french", "firing"))
    after_move = log.head
    log.append(Fired(1, "french", "firing", unit="zweiffel", target="vedel"))
    log.append(Casualties(1, "french", "firing", unit="vedel", figures=2, men=200))
    assert log.undoable == 3
    removed = log.undo(2)
    assert [e.kind for e in removed] == ["fired", "casualties"]
    assert log.head == after_move and log.head.units["vedel"].figures == 24
    log.undo()  # the "next phase" itself
    # back in the movement phase: it is open again, its own events can be taken back in turn
    assert log.undoable == 2 and log.phases()[-1] == PhaseKey(1, "french", "movement")
    with pytest.raises(ValueError, match="can undo 1 to 2"):
        log.undo(3)
    moved = log.undo()
    assert [e.kind for e in moved] == ["moved"] and log.head.units["vedel"].position == jena.units["vedel"].position
    log.extend(moved)
    # it takes more events
    log.append(Moved(1, "french", "movement", id="claparede", path=((100.0, 60.0), (100.0, 70.0))))
    assert log.undoable == 3
    log.append(PhaseStarted(1, "french", "firing"))
    log.extend(removed)
    assert log.head.units["vedel"].figures == 22
    assert log.state_at(len(log)) == GameLog.from_scenario(jena, log.events).head


def test_undo_then_reappend_gives_identical_states(forty_turns, reference):
    log = forty_turns.log(keyframe_every=4)
    for _ in range(5):
        k = log.undoable
        removed = log.undo(k)
        p = len(log)
        assert p + k == len(reference) - 1 and removed[0].kind == "phase_started"
        assert log.head == reference[p] and log.state_at(p) == reference[p]
        assert all(x <= p for x in log.keyframe_positions())
        # the phase before is open again: its events go back too, down to its own start
        k2 = log.undoable
        earlier = log.undo(k2)
        assert earlier[0].kind == "phase_started" and log.head == reference[p - k2]
        log.extend(earlier + removed)
        assert log.head == reference[-1]
    rng = random.Random(11)
    for p in rng.sample(range(len(log) + 1), 200):
        assert log.state_at(p) == reference[p]


def test_refused_events_leave_the_log_unchanged(jena):
    log = GameLog.from_scenario(jena)
    log.append(PhaseStarted(2, "french", "movement"))
    log.append(PhaseStarted(2, "french", "firing"))
    before = (len(log), log.head)
    with pytest.raises(
        ValueError,
        match=r"turn 2, french, movement is closed \(event 2 before it is in turn 2, "
        r"french, firing\)",
    ):
        log.append(Moved(2, "french", "movement", id="vedel", path=((0, 0),)))
    with pytest.raises(ValueError, match="is in turn 1, but event 2 before it is in turn 2; turns cannot go back"):
        log.append(PhaseStarted(1, "prussian", "orders"))
    with pytest.raises(ValueError, match="no unit or commander 'davout'"):
        log.append(Moved(2, "french", "firing", id="davout", path=((0, 0),)))
    assert (len(log), log.head) == before


def test_a_stored_log_with_a_bad_event_names_it(jena):
    events = [
        PhaseStarted(1, "french", "movement"),
        OrderStateChanged(1, "french", "movement", unit="ney-6e", state="U"),
    ]
    with pytest.raises(ValueError, match="game log event 2: event 'order_state_changed'.*no unit 'ney-6e'"):
        GameLog.from_scenario(jena, events)


def test_signals_tell_views_about_appends_and_undo(jena):
    log = GameLog.from_scenario(jena)
    seen = []
    log.appended.connect(lambda a, b: seen.append(("appended", a, b)))
    log.truncated.connect(lambda n: seen.append(("truncated", n)))
    log.append(PhaseStarted(1, "french", "movement"))
    log.extend([Annotation(1, "french", "movement", text="fog"), Annotation(1, "french", "movement", text="mist")])
    log.undo()
    assert seen == [("appended", 0, 1), ("appended", 1, 3), ("truncated", 2)]


# -- what changed, trails -------------------------------------------------------------------
def test_changed_between_is_what_a_highlight_needs(forty_turns, reference):
    log = forty_turns.log()
    rng = random.Random(5)
    for _ in range(100):
        a, b = sorted(rng.sample(range(len(log) + 1), 2))
        expected = set()
        for e in forty_turns.events[a:b]:
            expected.update(e.touched())
        sa, sb = reference[a], reference[b]
        for ka in (sa.units, sa.commanders):
            kb = sb.units if ka is sa.units else sb.commanders
            expected.update(k for k in ka.keys() | kb.keys() if ka.get(k) != kb.get(k))
        expected.update(sa.off_table ^ sb.off_table)
        assert log.changed_between(a, b) == expected == log.changed_between(b, a)
    key = log.find_phase(5, "french", "movement")
    start, end = log.phase_range(key)
    moved = {e.id for e in log.events_of(*key) if isinstance(e, Moved)}
    assert moved and moved <= log.changed_between(start, end)


def test_trail_follows_the_moves_of_the_last_turns(forty_turns, reference):
    log = forty_turns.log()
    at = log.turn_starts()[20] - 1  # end of turn 20
    assert log.cursor_at(at).turn == 20
    moved_ids = [e.id for e in log.events[:at] if isinstance(e, Moved) and e.turn >= 18]
    uid = max(set(moved_ids), key=moved_ids.count)
    trail = log.trail(uid, turns=3, at=at)
    start = log.turn_starts()[17] - 1  # before turn 18's first event
    expected = [reference[start].record(uid).position]
    for e in log.events[start:at]:
        if isinstance(e, Moved) and e.id == uid:
            expected.extend(p for p in e.path)
    dedup = [p for i, p in enumerate(expected) if i == 0 or p != expected[i - 1]]
    assert trail == dedup
    assert trail[-1] == reference[at].record(uid).position
    assert log.trail(uid, turns=0, at=at) == [] and log.trail(uid, turns=3, at=0) == []


def test_reinforcements_enter_from_off_the_table(forty_turns, reference):
    log = forty_turns.log()
    r = forty_turns.scenario.reinforcements["r-late"]
    waiting = reference[0].off_table
    assert r.formation in waiting and len(waiting) > 4
    arrival = next(p for p, e in enumerate(log.events) if e.kind == "reinforcement_arrived")
    assert log.events[arrival].turn == r.earliest_turn
    assert reference[arrival].off_table == waiting and not reference[arrival + 1].off_table
    uid = next(i for i in sorted(waiting) if i in reference[0].units)
    trail = log.trail(uid, turns=1, at=arrival + 1)
    assert trail == [reference[arrival + 1].units[uid].position]


def test_a_battle_from_a_file_opens_as_a_log(forty_turns):
    battle = Battle(scenario=forty_turns.scenario, events=list(forty_turns.events))
    log = GameLog.from_battle(battle)
    assert len(log) == len(forty_turns.events) and log.events == tuple(forty_turns.events)
    notes = log.events_between(log.turn_starts()[9], None, "annotation")
    assert notes and all(isinstance(e, Annotation) and e.turn >= 10 for _, e in notes)
    assert all(log.events[p] is e for p, e in notes)


def test_importing_the_package_registers_every_event_module():
    """In a fresh interpreter, ``import battlestudio.replay`` alone must register every kind
    that any replay module defines (the store relies on it to read events back)."""
    code = (
        "import battlestudio.replay, importlib, pkgutil, inspect\n"
        "from battlestudio.replay.events import BattleEvent, event_kinds\n"
        "before = set(event_kinds())\n"
        "classes = set()\n"
        "for m in pkgutil.iter_modules(battlestudio.replay.__path__):\n"
        "    mod = importlib.import_module('battlestudio.replay.' + m.name)\n"
        "    classes |= {c.kind for _, c in inspect.getmembers(mod, inspect.isclass)\n"
        "                if issubclass(c, BattleEvent) and c.__module__ == mod.__name__}\n"
        "print(sorted(classes - before))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
