"""A lazily built game log (``GameLog.lazy``) is the same log as an eager one: the same state at
every cursor, the same index, keyframes and queries; it applies events only as far as asked,
checks the rest in slices, and names the first event that cannot apply as the eager one does."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.replay.events import OrderStateChanged, PhaseStarted
from battlestudio.replay.flow_events import Moved
from battlestudio.replay.game import GameLog

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"


@pytest.fixture(scope="module")
def jena_game() -> Battle:
    """The bundled Jena 1806 scenario with its recorded 40-turn game."""
    return store.load(JENA)


def _cursors(log: GameLog, n: int, seed: int) -> list[int]:
    rng = random.Random(seed)
    ps = [rng.randrange(len(log) + 1) for _ in range(n)]
    return ps + log.phase_starts()[::7] + [0, len(log)]


@pytest.mark.parametrize("game", ["jena", "synthetic"])
def test_lazy_and_eager_logs_give_the_same_state_at_every_cursor(game, jena_game, forty_turns):
    scenario, events = (
        (jena_game.scenario, jena_game.events) if game == "jena" else (forty_turns.scenario, forty_turns.events)
    )
    eager = GameLog.from_scenario(scenario, events)
    lazy = GameLog.lazy(scenario, events)
    assert len(lazy) == len(eager) > 500
    assert lazy.phases() == eager.phases() and lazy.turn_starts() == eager.turn_starts()
    assert lazy.validated == 0  # nothing applied by indexing
    for p in _cursors(eager, 300, seed=len(events)):  # jumps forward and back, in random order
        assert lazy.state_at(p) == eager.state_at(p), p
        assert lazy.cursor_at(p) == eager.cursor_at(p)
    assert lazy.validate() is True
    assert lazy.keyframe_positions() == eager.keyframe_positions()
    assert lazy.head == eager.head
    unit = next(iter(scenario.units))
    assert lazy.events_touching(unit) == eager.events_touching(unit)
    assert lazy.trail(unit, 3, len(lazy) // 2) == eager.trail(unit, 3, len(eager) // 2)


def test_a_lazy_log_applies_only_as_far_as_asked_and_validates_in_slices(forty_turns):
    eager = GameLog.from_scenario(forty_turns.scenario, forty_turns.events)
    lazy = GameLog.lazy(forty_turns.scenario, forty_turns.events)
    assert lazy.state_at(0) is lazy.initial and lazy.validated == 0
    mid = len(lazy) // 3
    assert lazy.state_at(mid) == eager.state_at(mid)
    assert lazy.validated == mid
    unit = next(iter(forty_turns.scenario.units))
    assert lazy.changed_between(0, mid) == eager.changed_between(0, mid)
    slices = 0
    while not lazy.validate(100):
        slices += 1
        assert lazy.validated == min(len(lazy), mid + 100 * slices)
    assert slices == (len(lazy) - mid - 1) // 100
    assert lazy.events_touching(unit) == eager.events_touching(unit)
    assert lazy.keyframe_positions() == eager.keyframe_positions()


def test_recording_on_a_lazy_log_checks_it_first_then_appends_and_undoes(forty_turns):
    eager = GameLog.from_scenario(forty_turns.scenario, forty_turns.events)
    lazy = GameLog.lazy(forty_turns.scenario, forty_turns.events)
    turn, side, phase = lazy.phases()[-1]
    unit = next(u for u in lazy.initial.units)
    where = eager.head.units[unit].position if unit in eager.head.units else (1.0, 1.0)
    event = Moved(turn, side, phase, id=unit, path=(where,))
    for log in (eager, lazy):
        log.append(event)
    assert lazy.validated == len(lazy) == len(eager)
    assert lazy.head == eager.head and lazy.undoable == eager.undoable
    assert lazy.undo(1) == eager.undo(1) == [event]
    assert lazy.head == eager.head and lazy.state_at(len(lazy) - 5) == eager.state_at(len(eager) - 5)


def test_a_lazy_log_names_the_first_bad_event_when_it_reaches_it(jena_game):
    events = list(jena_game.events)
    bad = next(i for i, e in enumerate(events) if isinstance(e, OrderStateChanged) and i > 200)
    e = events[bad]
    events[bad] = OrderStateChanged(e.turn, e.side, e.phase, unit="ghost", state=e.state)
    with pytest.raises(ValueError) as eager:
        GameLog.from_scenario(jena_game.scenario, events)
    lazy = GameLog.lazy(jena_game.scenario, events)  # indexing applies nothing: no error yet
    assert lazy.state_at(bad).units == GameLog.from_scenario(jena_game.scenario, events[:bad]).head.units
    with pytest.raises(ValueError) as first:
        while not lazy.validate(64):
            pass
    assert str(first.value) == str(eager.value)
    assert f"game log event {bad + 1}: " in str(first.value) and "no unit 'ghost'" in str(first.value)
    assert lazy.validated == bad
    for again in (lambda: lazy.validate(10), lambda: lazy.state_at(bad + 1), lambda: lazy.head):
        with pytest.raises(ValueError, match=f"game log event {bad + 1}: "):
            again()
    assert lazy.state_at(bad - 3) == GameLog.from_scenario(jena_game.scenario, events[:bad]).state_at(bad - 3)


@pytest.mark.parametrize("lazy", [True, False])
def test_events_out_of_phase_order_name_the_event_before_too(jena, lazy):
    make = GameLog.lazy if lazy else GameLog.from_scenario  # the same message either way
    events = [PhaseStarted(2, "french", "movement"), PhaseStarted(1, "french", "orders")]
    with pytest.raises(
        ValueError,
        match=r"^game log event 2: event 'phase_started' is in turn 1, but event 1 before "
        r"it is in turn 2; turns cannot go back$",
    ):
        make(jena, events)
    events = [
        PhaseStarted(1, "french", "movement"),
        PhaseStarted(1, "french", "fire"),
        PhaseStarted(1, "french", "movement"),
    ]
    with pytest.raises(
        ValueError,
        match=r"^game log event 3: turn 1, french, movement is closed \(event 2 before it "
        r"is in turn 1, french, fire\); events can only be added",
    ):
        make(jena, events)


@pytest.mark.parametrize("lazy", [True, False])
@pytest.mark.parametrize(
    "column, value, message",
    [
        (
            "turn",
            999,
            "game log event {n2}: event {kind!r} is in turn {turn}, but event {n1} before it is in turn 999; "
            "turns cannot go back",
        ),
        (
            "phase",
            "tea",
            "game log event {n2}: turn {turn}, {side}, {phase} is closed (event {n1} before it is in turn "
            "{turn}, {side}, tea)",
        ),
    ],
)
def test_a_damaged_row_in_a_file_is_named_not_only_the_next_event(tmp_path, jena_game, lazy, column, value, message):
    import sqlite3

    p = tmp_path / "g.battle"
    store.save(jena_game, p)
    ev = jena_game.events
    s = next(s for s in range(100, len(ev) - 1) if len({(e.turn, e.side, e.phase) for e in ev[s - 1 : s + 2]}) == 1)
    con = sqlite3.connect(p)
    con.execute(f"UPDATE event SET {column} = ? WHERE seq = ?", (value, s))  # row s: game log event s + 1
    con.execute("DELETE FROM meta WHERE key = 'checksums'")  # as a file saved before checksums
    con.commit()
    con.close()
    nxt = ev[s + 1]
    expected = message.format(n1=s + 1, n2=s + 2, kind=nxt.kind, turn=nxt.turn, side=nxt.side, phase=nxt.phase)
    battle = store.load(p, lazy_events=lazy)
    with pytest.raises(ValueError) as info:
        (GameLog.lazy_from_battle if lazy else GameLog.from_battle)(battle)
    assert str(info.value).startswith(expected)


def test_a_lazy_log_of_a_lazily_read_file_builds_events_only_as_replayed(tmp_path, forty_turns):
    p = tmp_path / "g.battle"
    store.save(Battle(forty_turns.scenario, list(forty_turns.events)), p)
    battle = store.load(p, lazy_events=True)
    log = GameLog.lazy_from_battle(battle)
    assert battle.events.built_count() == 0
    log.state_at(100)
    assert 100 <= battle.events.built_count() < 200  # up to the cursor, shared with the battle
    assert log.validate()
    assert battle.events.built_count() == len(battle.events)
    assert log.head == GameLog.from_battle(store.load(p)).head
