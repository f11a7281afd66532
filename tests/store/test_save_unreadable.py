"""Saving a battle whose recorded game holds events that cannot be read (opened lazily from a
damaged .battle file): a .battle file gets their rows unchanged, a .battle.json file refuses
(``UnreadableEvents``, naming the first) unless told to save the scenario without the game."""

from __future__ import annotations

import sqlite3

import pytest

from battlestudio import store
from battlestudio.store import UnreadableEvents


def _rows(path):
    con = sqlite3.connect(path)
    try:
        return con.execute("SELECT seq, kind, turn, side, phase, payload FROM event ORDER BY seq").fetchall()
    finally:
        con.close()


@pytest.fixture
def damaged(tmp_path, jena):
    p = tmp_path / "j.battle"
    store.save(jena, p)
    con = sqlite3.connect(p)
    con.execute("UPDATE event SET payload = '{' WHERE seq = 2")
    con.execute("UPDATE event SET payload = '[1]' WHERE seq = 4")
    con.execute("DELETE FROM meta WHERE key = 'checksums'")  # as a file saved before checksums
    con.commit()
    con.close()
    return p


def test_a_battle_save_copies_unreadable_rows_verbatim(tmp_path, damaged):
    rows = _rows(damaged)
    battle = store.load(damaged, lazy_events=True)
    assert [i for i, _ in store.unreadable_events(battle)] == [2, 4]
    out = tmp_path / "copy.battle"
    store.save(battle, out)
    assert _rows(out) == rows
    store.save(battle, damaged)  # over the file it was read from: still every row as it was
    assert _rows(damaged) == rows
    with pytest.raises(store.BattleFileError, match=r"event seq=2\.payload: not valid JSON"):
        store.load(out)  # still unreadable, as before: nothing was made up


def test_a_json_save_refuses_unreadable_events_unless_without_the_game(tmp_path, damaged):
    battle = store.load(damaged, lazy_events=True)
    out = tmp_path / "out.battle.json"
    with pytest.raises(UnreadableEvents) as info:
        store.save(battle, out)
    assert not out.exists()
    err = info.value
    assert err.total == len(battle.events) and [i for i, _ in err.unreadable] == [2, 4]
    assert str(err).startswith(f"{out}: 2 of the {len(battle.events)} recorded events cannot be read")
    assert f"{damaged}: event seq=2.payload: not valid JSON" in str(err)
    store.save(battle, out, without_game=True)
    saved = store.load(out)
    assert saved.events == [] and saved.scenario == battle.scenario
    assert len(battle.events) == len(_rows(damaged))  # the battle in memory keeps its game
