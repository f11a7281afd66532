"""The one place syntax (``--at`` and the Replay dock's Go to box) on the bundled Jena game: what
``start`` and ``end`` mean, agreeing with the timeline's phase and turn steps; sides by id or order
of play; event numbers; ``at_text`` writes back what ``position_at`` reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.game import GameLog
from battlestudio.replay.timeline import Timeline
from battlestudio.session.text import at_text, position_at

JENA = Path(__file__).resolve().parents[1] / "scenarios" / "jena-1806.battle.json"


@pytest.fixture(scope="module")
def log() -> GameLog:
    return GameLog.from_battle(store.load(JENA))


def test_start_is_where_the_phase_step_stops_and_end_is_every_event_applied(log):
    start, end = log.phase_range((14, "prussian", "movement"))
    t = Timeline(log, position=start)  # the last event of the phase before applied
    t.step_phase(1)
    assert position_at(log, "14:prussian:movement:start") == t.position == start + 1
    assert log.cursor_at(t.position).key == (14, "prussian", "movement")
    assert position_at(log, "14:prussian:movement") == position_at(log, "14:prussian:movement:end") == end
    assert log.cursor_at(end).key == (14, "prussian", "movement")
    t.jump_to(14, "prussian", "movement")  # the Turn box and Go to's start agree
    assert t.position == start + 1


def test_turn_and_player_turn_marks(log):
    t = Timeline(log, position=position_at(log, "13"))
    t.step_turn(1)
    assert position_at(log, "14:start") == t.position
    assert log.cursor_at(position_at(log, "14")).turn == 14
    assert log.cursor_at(position_at(log, "14") + 1).turn == 15
    french_end = position_at(log, "14:french")
    assert log.cursor_at(french_end).side == "french"
    assert log.cursor_at(french_end + 1).side == "prussian"


def test_second_side_by_order_of_play_and_names_in_any_case(log):
    assert position_at(log, "14:2:fire:start") == position_at(log, "14:prussian:fire:start")
    assert position_at(log, "14:1:orders") == position_at(log, "14:french:orders")
    assert position_at(log, "14:Prussian:Visual Contact") == position_at(log, "14:prussian:visual_contact")


def test_event_numbers_and_their_errors(log):
    start, end = log.phase_range((14, "prussian", "movement"))
    assert position_at(log, "14:prussian:movement:3") == start + 3
    with pytest.raises(ValueError, match=f"has {end - start} events; no event {end - start + 1}"):
        position_at(log, f"14:prussian:movement:{end - start + 1}")
    with pytest.raises(ValueError, match="no phase at 99"):
        position_at(log, "99:prussian:fire")


def test_at_text_round_trips_every_phase_start_and_end(log):
    for p in [0, len(log), *log.phase_starts()[::7], *(log.phase_range(k)[1] for k in log.phases()[::11])]:
        assert position_at(log, at_text(log, p)) == p
