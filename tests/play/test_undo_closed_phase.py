"""Undo after Next Phase: taking back "Next phase" is one undo step that reopens the phase it
closed, and the actions of that phase can then be taken back in turn (and redone)."""

from __future__ import annotations

import pytest

from battlestudio.play.document import PlayDocument


def _french_unit(play: PlayDocument) -> str:
    return sorted(u.id for u in play.scenario.units.values() if u.side == "french")[0]


def test_undo_of_next_phase_reopens_the_phase_and_its_moves_can_be_undone(jena_play):
    play = jena_play
    uid = _french_unit(play)
    start = play.scenario.units[uid].position
    play.move([uid], 5.0, 0.0, key=("move", 1))
    moved = play.scenario.units[uid].position
    assert play.run("Next phase", lambda s: s.next_phase()) is not None
    assert play.session.key.phase == "movement" and play.undo_text == "Next phase"

    play.undo()  # "Undo Next phase": the orders phase is open again
    assert play.session.key.phase == "orders" and play.recording
    assert play.can_undo and play.undo_text.startswith("Move")
    play.undo()  # and the move made in it goes back too
    assert play.scenario.units[uid].position == pytest.approx(start)
    assert [e.kind for e in play.log.events] == ["phase_started"]
    assert play.battle.events == list(play.log.events)

    play.redo()
    assert play.scenario.units[uid].position == pytest.approx(moved)
    play.redo()
    assert play.session.key.phase == "movement" and not play.can_redo


def test_undo_of_the_turns_last_next_phase_takes_its_end_back_with_it(jena_play):
    play = jena_play
    while play.session.key.turn == 1:
        assert play.run("Next phase", lambda s: s.next_phase()) is not None
    n = len(play.log)
    ends = [e for e in play.log.events if e.kind == "turn_ended"]
    assert len(ends) == 1
    play.undo()  # one step: the next turn's start and the turn's end
    assert play.session.key.turn == 1 and not [e for e in play.log.events if e.kind == "turn_ended"]
    play.redo()
    assert len(play.log) == n and play.session.key.turn == 2
    assert [e for e in play.log.events if e.kind == "turn_ended"] == ends


def test_a_battle_file_is_untouched_and_its_journal_follows_undo(jena_play, tmp_path):
    from battlestudio import store
    from battlestudio.document import Document
    from battlestudio.session import GameSession
    from battlestudio.store.journal import read_journal

    path = tmp_path / "jena.battle"
    store.save(jena_play.battle, path)  # turn 1 started, French orders
    before = path.read_bytes()
    base = Document(store.load(path), path)
    play = PlayDocument(base, GameSession(base.battle, seed=7))
    uid = _french_unit(play)
    play.move([uid], 5.0, 0.0, key=("move", 1))
    assert read_journal(path) is None  # the open phase is not journaled
    play.run("Next phase", lambda s: s.next_phase())
    closed = list(play.log.events[:-1])
    assert list(read_journal(path).events) == closed[1:] and path.read_bytes() == before
    play.undo()  # Next phase: the journal still holds the reopened phase's move
    assert list(read_journal(path).events) == closed[1:]
    play.undo()  # the move: gone from the journal too
    j = read_journal(path)
    assert j.keep == 1 and j.events == () and path.read_bytes() == before
    play.mark_saved()
    assert read_journal(path) is None
