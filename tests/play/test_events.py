"""Gestures made during play as battle events (``play.events``), on Elchingen units: each field
an umpire may change maps to its event, applying the events gives the changed records, and
scenario-only changes are refused naming the field."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace

import pytest

from battlestudio.edits.moves import rotate_edit
from battlestudio.model.units import Formation
from battlestudio.play.events import NotAnEvent, events_for, move_events
from battlestudio.replay.state import GameState


def stamp(cls, **fields):
    return cls(turn=3, side="french", phase="movement", **fields)


def apply_all(state: GameState, events) -> GameState:
    for e in events:
        state = e.apply(state)
    return state


def test_each_change_becomes_its_event_and_replays_to_the_change(scenario):
    state = GameState.from_scenario(scenario)
    u = scenario.units["u-villatte"]
    new = replace(
        u,
        position=(95.0, 44.0),
        facing=80.0,
        formation=Formation.COLUMN,
        state="U",
        figures=u.figures - 3,
        men=u.men - 300,
    )
    events = events_for({u.id: u}, {u.id: new}, stamp)
    assert [e.kind for e in events] == ["moved", "formation_changed", "order_state_changed", "casualties"]
    moved = events[0]
    assert moved.path == (u.position, (95.0, 44.0)) and moved.facing == 80.0
    assert (events[3].figures, events[3].men) == (3, 300)
    assert all((e.turn, e.side, e.phase) == (3, "french", "movement") for e in events)
    assert apply_all(state, events).units[u.id] == new


def test_a_turn_about_the_centre_is_a_move_with_facing_and_a_commander_turn_is_a_rotation(scenario):
    state = GameState.from_scenario(scenario)
    u = scenario.units["u-roguet"]
    work = scenario.copy()
    rotate_edit({u.id: u}, 30.0).do(work)
    turned = work.units[u.id]
    events = events_for({u.id: u}, {u.id: turned}, stamp)
    assert [e.kind for e in events] == ["moved"] and events[0].facing == pytest.approx(turned.facing)
    assert apply_all(state, events).units[u.id].rect().centre == pytest.approx(u.rect().centre)
    assert move_events(u.id, u, turned.position, turned.facing, stamp) == events
    ney = scenario.commanders["c-ney"]
    events = events_for({ney.id: ney}, {ney.id: replace(ney, facing=120.0)}, stamp)
    assert [e.kind for e in events] == ["rotated"] and events[0].facing == 120.0
    assert move_events(ney.id, ney, ney.position, ney.facing, stamp) == []  # standing still is no event


def test_scenario_changes_are_refused_naming_the_field(scenario):
    u = scenario.units["u-delabassee"]
    with pytest.raises(NotAnEvent, match="name of Bde Delabassee belongs to the scenario"):
        events_for({u.id: u}, {u.id: replace(u, name="Bde Delabassée")}, stamp)
    with pytest.raises(NotAnEvent, match="cannot gain figures"):
        events_for({u.id: u}, {u.id: replace(u, figures=u.figures + 1)}, stamp)
    assert events_for({u.id: u}, {u.id: u}, stamp) == []


def test_the_play_layer_imports_no_qt():
    """In a fresh interpreter (pytest-qt has PySide6 loaded here): the play package, the gesture
    builders and the document load without PySide6."""
    code = (
        "import sys, battlestudio.play.document, battlestudio.play.problems, battlestudio.edits.place; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'PySide6'))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert out.stdout.strip() == "[]"
