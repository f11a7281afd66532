"""Bookmarks in the battle file: kept through .battle.json and .battle both ways, schema version 3
only when there are any, bad ones refused naming the path and the value, and an older reader is
told the file is newer rather than that a key is unknown."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle, Bookmark
from battlestudio.store import BattleFileError
from battlestudio.store.errors import DocumentError
from battlestudio.store.json_format import dumps, loads

JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"


@pytest.fixture(scope="module")
def jena() -> Battle:
    return store.load(JENA)


def _marked(b: Battle) -> Battle:
    marks = [Bookmark("Lannes attacks", 755, "the Vierzehnheiligen fight, 2nd side"), Bookmark("Deployed", 0)]
    return Battle(b.scenario, list(b.events), sorted(marks, key=lambda m: m.position))


def test_bookmarks_survive_json_and_sqlite_both_ways(tmp_path, jena):
    battle = _marked(jena)
    store.save(battle, tmp_path / "a.battle.json")
    a = store.load(tmp_path / "a.battle.json")
    store.save(a, tmp_path / "b.battle")
    b = store.load(tmp_path / "b.battle")
    lazy = store.load(tmp_path / "b.battle", lazy_events=True)
    assert a.bookmarks == b.bookmarks == lazy.bookmarks == battle.bookmarks
    assert b.bookmarks[1] == Bookmark("Lannes attacks", 755, "the Vierzehnheiligen fight, 2nd side")
    store.save(b, tmp_path / "c.battle.json")
    assert (tmp_path / "c.battle.json").read_text() == (tmp_path / "a.battle.json").read_text()
    doc = json.loads((tmp_path / "a.battle.json").read_text())
    assert doc["schema_version"] == 3 and list(doc)[-2:] == ["game", "events"]
    con = sqlite3.connect(tmp_path / "b.battle")
    meta = dict(con.execute("SELECT key, value FROM meta"))
    con.close()
    # 4: its recorded game's keyframes are stored too (store.keyframes)
    assert meta["schema_version"] == "4" and json.loads(meta["game"])["bookmarks"][0]["name"] == "Deployed"


def test_a_battle_without_bookmarks_is_written_as_before(tmp_path, jena):
    from dataclasses import replace as _replace

    jena = _replace(jena, ruleset_record=None)  # no bookmarks, no ruleset fingerprint
    doc = json.loads(dumps(jena))
    assert "game" not in doc and doc["schema_version"] < 3
    store.save(jena, tmp_path / "j.battle")
    con = sqlite3.connect(tmp_path / "j.battle")
    assert con.execute("SELECT value FROM meta WHERE key = 'game'").fetchone() is None
    con.close()


@pytest.mark.parametrize(
    ("bad", "where", "what"),
    [
        ({"name": "x", "position": 99999}, "game.bookmarks[0].position", "from 0 to 3586"),
        ({"name": "", "position": 1}, "game.bookmarks[0].name", "non-empty text"),
        ({"name": "x", "position": True}, "game.bookmarks[0].position", "got true"),
        ({"name": "x", "position": 1, "colour": "red"}, "game.bookmarks[0].colour", "unknown key"),
        ({"name": "x", "position": 1, "note": 3}, "game.bookmarks[0].note", "expected a text"),
    ],
)
def test_bad_bookmarks_are_refused_naming_the_path(jena, bad, where, what):
    doc = json.loads(dumps(_marked(jena)))
    doc["game"]["bookmarks"] = [bad]
    with pytest.raises(DocumentError) as err:
        loads(json.dumps(doc))
    assert err.value.where == where and what in str(err.value)


def test_a_bad_bookmark_in_a_battle_file_names_the_meta_row(tmp_path, jena):
    p = tmp_path / "m.battle"
    store.save(_marked(jena), p)
    con = sqlite3.connect(p)
    con.execute("""UPDATE meta SET value = '{"bookmarks": [{"name": "x", "position": -1}]}' WHERE key = 'game'""")
    con.execute("DELETE FROM meta WHERE key = 'checksums'")  # as a file saved before checksums
    con.commit()
    con.close()
    with pytest.raises(BattleFileError) as err:
        store.load(p)
    assert "meta key='game': bookmarks[0].position" in str(err.value) and "got -1" in str(err.value)
