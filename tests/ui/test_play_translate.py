"""Edits made during play as battle events (``ui.play.translate``), on Elchingen units: each
field an umpire may change maps to its event, applying the events gives the edited records, and
scenario-only changes are refused naming the field."""

from __future__ import annotations

from dataclasses import replace

import pytest

from battlestudio.edits import MoveRecords, PutRecords, RemoveRecords, SetInfo
from battlestudio.model.units import Formation
from battlestudio.replay.state import GameState
from battlestudio.ui.play.translate import NotAnEvent, events_for, playable
from battlestudio.ui.tools.rotate import rotate_edit


def stamp(cls, **fields):
    return cls(turn=3, side="french", phase="movement", **fields)


def apply_all(state: GameState, events) -> GameState:
    for e in events:
        state = e.apply(state)
    return state


def test_each_change_becomes_its_event_and_replays_to_the_edit(scenario):
    state = GameState.from_scenario(scenario)
    u = scenario.units["u-69ligne"]
    new = replace(u, position=(95.0, 44.0), facing=80.0, formation=Formation.LINE, state="U", figures=u.figures - 3,
                  men=u.men - 300)
    events = events_for({u.id: u}, {u.id: new}, stamp)
    assert [e.kind for e in events] == ["moved", "formation_changed", "order_state_changed", "casualties"]
    moved = events[0]
    assert moved.path == (u.position, (95.0, 44.0)) and moved.facing == 80.0
    assert (events[3].figures, events[3].men) == (3, 300)
    assert all((e.turn, e.side, e.phase) == (3, "french", "movement") for e in events)
    assert apply_all(state, events).units[u.id] == new


def test_a_turn_about_the_centre_is_a_move_with_facing_and_a_commander_turn_is_a_rotation(scenario):
    state = GameState.from_scenario(scenario)
    u = scenario.units["u-39ligne"]
    edit = rotate_edit({u.id: u}, 30.0)
    assert playable(edit)
    work = scenario.copy()
    edit.do(work)
    turned = work.units[u.id]
    events = events_for({u.id: u}, {u.id: turned}, stamp)
    assert [e.kind for e in events] == ["moved"] and events[0].facing == pytest.approx(turned.facing)
    assert apply_all(state, events).units[u.id].rect().centre == pytest.approx(u.rect().centre)
    ney = scenario.commanders["c-ney"]
    events = events_for({ney.id: ney}, {ney.id: replace(ney, facing=120.0)}, stamp)
    assert [e.kind for e in events] == ["rotated"] and events[0].facing == 120.0


def test_scenario_changes_are_refused_naming_the_field(scenario):
    u = scenario.units["u-6leger"]
    with pytest.raises(NotAnEvent, match="name of 6e Léger belongs to the scenario"):
        events_for({u.id: u}, {u.id: replace(u, name="6e Léger (Rgt)")}, stamp)
    with pytest.raises(NotAnEvent, match="cannot gain figures"):
        events_for({u.id: u}, {u.id: replace(u, figures=u.figures + 1)}, stamp)
    assert events_for({u.id: u}, {u.id: u}, stamp) == []


def test_only_unit_and_commander_edits_are_playable(scenario):
    assert playable(MoveRecords("units", {"u-6leger": (1.0, 2.0)}, None, text="Move"))
    assert playable(PutRecords("commanders", {"c-ney": scenario.commanders["c-ney"]}, "Set"))
    assert not playable(PutRecords("terrain", {"t-mill": scenario.terrain["t-mill"]}, "Set"))
    assert not playable(RemoveRecords("units", ["u-6leger"], "Delete"))
    assert not playable(SetInfo({"title": "x"}, "Set title"))
