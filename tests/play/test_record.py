"""Recording gestures on Jena 1806 without a window: a drag is one ``Moved`` per record and one
undo step, a continued drag replaces its events, turns and Properties fields become their
events, and anything else (replaying, scenario fields, terrain) is refused with the reason."""

from __future__ import annotations

import math

import pytest

from battlestudio.edits import PutRecords
from battlestudio.edits.moves import move_edit, rotate_edit, snapshot
from battlestudio.model.units import Formation
from battlestudio.play.document import PlayDocument
from battlestudio.play.events import events_for


def _isolated(play: PlayDocument, n: int, side: str = "french") -> list[str]:
    """``n`` units of ``side`` in the open, sorted by id (deterministic on Jena)."""
    units = [u for u in play.scenario.units.values() if u.side == side]
    return sorted(u.id for u in units)[:n]


def _refusals(play: PlayDocument) -> list[str]:
    said: list[str] = []
    play.refused.connect(said.append)
    return said


def test_a_drag_is_one_moved_per_record_and_one_undo_step(jena_play):
    play = jena_play
    a, b = _isolated(play, 2)
    general = sorted(c.id for c in play.scenario.commanders.values() if c.side == "french")[0]
    ids = [a, b, general]
    start = {i: play.scenario.record(i).position for i in ids}
    base = {i: play.base.scenario.record(i) for i in ids}
    n, steps = len(play.log), 0
    shown: list[list] = []
    play.changed.connect(shown.append)
    for k in range(1, 31):  # thirty mouse moves of one drag
        play.move(ids, 0.5 * k, -0.25 * k, key=("move", 1))
        steps += 1
    assert len(shown) == steps  # the view followed once per mouse move, not once per event
    events = play.log.events[n:]
    assert [e.kind for e in events] == ["moved"] * 3 and [e.id for e in events] == ids
    for e in events:
        assert e.path == (start[e.id], pytest.approx((start[e.id][0] + 15.0, start[e.id][1] - 7.5)))
        assert play.scenario.record(e.id).position == pytest.approx((start[e.id][0] + 15.0, start[e.id][1] - 7.5))
        assert play.base.scenario.record(e.id) is base[e.id]  # the scenario itself is untouched
    assert play.undo_text == "Move 3 items" and play.is_modified

    play.undo()
    assert len(play.log) == n and all(play.scenario.record(i).position == start[i] for i in ids)
    assert play.can_redo and play.redo_text == "Move 3 items"
    play.redo()
    assert list(play.log.events[n:]) == list(events) and not play.can_redo


def test_a_drag_continued_replaces_and_a_new_key_is_a_new_step(jena_play):
    play = jena_play
    (uid,) = _isolated(play, 1)
    x, y = play.scenario.units[uid].position
    n = len(play.log)
    play.move([uid], 10.0, 0.0, key=("move", 1))
    play.move([uid], 12.0, 3.0, key=("move", 1))  # the same drag: from where it began
    assert [e.path for e in play.log.events[n:]] == [((x, y), (x + 12.0, y + 3.0))]
    play.move([uid], 5.0, 0.0, key=("move", 2))  # a second drag starts where the first ended
    assert [e.path for e in play.log.events[n:]] == [
        ((x, y), (x + 12.0, y + 3.0)),
        ((x + 12.0, y + 3.0), (x + 17.0, y + 3.0)),
    ]
    play.move([uid], 0.0, 0.0, key=("move", 2))  # dragged back to its start: the drag is taken back
    assert len(play.log) == n + 1 and play.scenario.units[uid].position == (x + 12.0, y + 3.0)
    play.undo()
    assert len(play.log) == n and play.scenario.units[uid].position == (x, y)
    assert play.undo_text != "Move" and not play.undo_text.startswith("Move ")  # only the phase's start is left


def test_nothing_is_recorded_while_replaying_and_a_replay_only_game_says_why(jena_play, jena_battle):
    play = jena_play
    (uid,) = _isolated(play, 1)
    play.move([uid], 4.0, 4.0, key=("move", 1))
    n = len(play.log)
    play.timeline.seek(0)
    said = _refusals(play)
    at = play.scenario.units[uid].position
    play.move([uid], 4.0, 4.0, key=("move", 2))
    play.rotate([uid], 45.0)
    play.set_fields("units", {uid: {"formation": Formation.SQUARE}}, "Set formation")
    assert len(play.log) == n and play.scenario.units[uid].position == at
    assert len(said) == 3 and all(s.startswith("Replaying: the map shows the past") for s in said)

    replay = PlayDocument(play.base, None)
    said = _refusals(replay)
    replay.move([uid], 1.0, 1.0)
    assert said == ["This game is replayed only: its ruleset is not available for recording."]


def test_a_turn_is_a_move_about_the_centre_and_fields_become_their_events(jena_play):
    play = jena_play
    (uid,) = _isolated(play, 1)
    u = play.scenario.units[uid]
    n = len(play.log)
    for delta in (10.0, 25.0, 40.0):  # one rotate drag
        play.rotate([uid], delta, key=("rotate", 1))
    (moved,) = play.log.events[n:]
    turned = play.scenario.units[uid]
    assert moved.kind == "moved" and moved.facing == pytest.approx((u.facing + 40.0) % 360)
    assert turned.rect().centre == pytest.approx(u.rect().centre)
    assert play.undo_text == f"Rotate {u.name}"

    new = Formation.COLUMN if u.formation is not Formation.COLUMN else Formation.LINE
    play.set_fields("units", {uid: {"formation": new}}, f"Set formation of {u.name}", key=("properties", "f"))
    play.set_fields("units", {uid: {"men": u.men - 100}}, f"Set men of {u.name}", key=("properties", "m"))
    play.set_fields("units", {uid: {"men": u.men - 150}}, f"Set men of {u.name}", key=("properties", "m"))
    kinds = [e.kind for e in play.log.events[n:]]
    assert kinds == ["moved", "formation_changed", "casualties"]  # the spin box's steps merged
    assert play.log.events[-1].men == 150 and play.scenario.units[uid].formation is new
    play.undo()
    assert play.scenario.units[uid].men == u.men and play.scenario.units[uid].formation is new


def test_the_scenario_is_refused_naming_the_field_or_the_edit(jena_play):
    play = jena_play
    (uid,) = _isolated(play, 1)
    u = play.scenario.units[uid]
    wood = next(iter(play.scenario.terrain))
    said = _refusals(play)
    n = len(play.log)
    play.set_fields("units", {uid: {"name": "Renamed"}}, "Set name")
    play.move([uid, wood], 3.0, 0.0, key=("move", 1))
    play.push(PutRecords("units", {uid: u}, f"Rename {u.name}"))
    play.set_fields("units", {uid: {"name": u.name}}, "Set name")  # no change: not even a refusal
    assert len(play.log) == n and play.scenario.units[uid] is u and len(said) == 3
    assert said[0].startswith(f"name of {u.name} belongs to the scenario")
    assert said[1].startswith("Move 2 items changes the scenario, not the game")
    assert said[2].startswith(f"Rename {u.name} changes the scenario, not the game")


def test_a_drop_from_the_order_of_battle_records_the_placing(jena_play):
    play = jena_play
    a, b = _isolated(play, 2)
    n = len(play.log)
    placed = play.place([a, b], (300.0, 100.0))
    assert placed == [a, b] and play.undo_text == "Place 2 units"
    moved = [e for e in play.log.events[n:] if e.kind == "moved"]
    from battlestudio.edits.place import DROP_STEP_DEG, facing_towards_enemy

    side = play.scenario.units[a].side  # a drop faces the enemy, to the nearest 15 degrees
    want = round(facing_towards_enemy(play.battle.scenario, side, (300.0, 100.0)) / DROP_STEP_DEG) * DROP_STEP_DEG
    assert [e.id for e in moved] == [a, b] and all(play.scenario.units[i].facing == want % 360 for i in placed)
    centre = [play.scenario.units[i].position for i in placed]
    assert math.dist(*centre) > 1.0 and abs((centre[0][0] + centre[1][0]) / 2 - 300.0) < 20.0


def test_the_recorded_move_is_what_the_edit_of_the_same_drag_translates_to(jena_play):
    """The old path (edit done on a copy, read, diffed, translated) and the verb agree."""
    play = jena_play
    ids = _isolated(play, 3)
    work = play.scenario.copy()
    before = {i: work.units[i] for i in ids}
    move_edit(snapshot(work, ids), 7.5, -2.5).do(work)
    expected = events_for(before, {i: work.units[i] for i in ids}, play.session.stamped)
    n = len(play.log)
    play.move(ids, 7.5, -2.5, key=("move", 9))
    assert list(play.log.events[n:]) == expected

    work = play.scenario.copy()
    before = {i: work.units[i] for i in ids}
    rotate_edit(before, -30.0).do(work)
    expected = events_for(before, {i: work.units[i] for i in ids}, play.session.stamped)
    n = len(play.log)
    play.rotate(ids, -30.0)
    assert list(play.log.events[n:]) == expected
