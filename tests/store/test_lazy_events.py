"""Reading a .battle file with ``lazy_events``: no event is built until read, the events equal
an eager read, appending and taking back work as on a list, and a bad payload value is
reported with the file, the row and the value when that event is first built."""

from __future__ import annotations

import sqlite3

import pytest

from battlestudio import store
from battlestudio.replay.recorded import RecordedEvents
from battlestudio.store import BattleFileError
from battlestudio.replay.events import Annotation


def _sql(path, *statements):
    con = sqlite3.connect(path)
    for s in statements:
        con.execute(s)
    con.execute("DELETE FROM meta WHERE key = 'checksums'")  # as a file saved before checksums
    con.commit()
    con.close()


def _first_seq(path, kind):
    con = sqlite3.connect(path)
    (seq,) = con.execute("SELECT seq FROM event WHERE kind = ? ORDER BY seq LIMIT 1", (kind,)).fetchone()
    con.close()
    return seq


def test_lazy_events_equal_the_eager_read_and_are_built_on_demand(tmp_path, jena):
    p = tmp_path / "j.battle"
    store.save(jena, p)
    eager = store.load(p)
    lazy = store.load(p, lazy_events=True)
    assert type(eager.events) is list
    assert isinstance(lazy.events, RecordedEvents)
    assert len(lazy.events) == len(eager.events) == len(jena.events) > 3
    assert lazy.events.built_count() == 0
    assert lazy.events.heads() == [(e.turn, e.side, e.phase) for e in eager.events]
    assert lazy.events[2] == eager.events[2] and lazy.events.built_count() == 1
    assert lazy.events[-1] == eager.events[-1]
    assert lazy.events[1:3] == eager.events[1:3]
    assert lazy.events == eager.events and eager.events == lazy.events  # builds the rest
    assert lazy.scenario.units == eager.scenario.units


def test_lazy_events_append_take_back_and_copy_like_a_list(tmp_path, jena):
    p = tmp_path / "j.battle"
    store.save(jena, p)
    events = store.load(p, lazy_events=True).events
    plain = list(store.load(p).events)
    copy = events.copy()
    note = Annotation(9, "french", "end", text="a note")
    events.append(note)
    plain.append(note)
    assert events == plain and len(copy) == len(plain) - 1
    del events[len(events) - 3 :]  # taking back into the rows read
    del plain[len(plain) - 3 :]
    assert events == plain and copy[-1] == jena.events[-1]
    events[0] = note  # anything else turns it into a plain list of the same events
    plain[0] = note
    assert events == plain
    assert copy.built_count() == len(copy)  # built once, shared by the copies


def test_a_bad_payload_value_is_named_when_its_event_is_first_built(tmp_path, jena):
    p = tmp_path / "v.battle"
    store.save(jena, p)
    seq = _first_seq(p, "moved")
    _sql(p, f"UPDATE event SET payload = json_set(payload, '$.path', json('[]')) WHERE seq = {seq}")
    with pytest.raises(BattleFileError) as eager:  # the default read checks every event
        store.load(p)
    battle = store.load(p, lazy_events=True)  # the scenario and the places are read
    assert battle.events[seq - 1] is not None
    with pytest.raises(BattleFileError) as lazy:
        battle.events[seq]
    for err in (eager.value, lazy.value):
        msg = str(err)
        assert msg.startswith(f"{p}: event seq={seq}: "), msg
        assert "path of" in msg and "is empty" in msg
    with pytest.raises(BattleFileError):  # asked again, still refused (nothing was kept)
        list(battle.events)


def test_bad_json_in_a_payload_is_named_lazily_too(tmp_path, jena):
    p = tmp_path / "j.battle"
    store.save(jena, p)
    _sql(p, "UPDATE event SET payload = '{\"name\": ' WHERE seq = 0")
    battle = store.load(p, lazy_events=True)
    with pytest.raises(BattleFileError, match=r"event seq=0\.payload: not valid JSON"):
        battle.events[0]


def test_a_bad_place_is_refused_at_load_even_when_lazy(tmp_path, jena):
    p = tmp_path / "t.battle"
    store.save(jena, p)
    _sql(p, "UPDATE event SET turn = 'one' WHERE seq = 1", "UPDATE event SET kind = 'teleported' WHERE seq = 2")
    with pytest.raises(BattleFileError, match=r"event seq=1\.turn: expected an integer"):
        store.load(p, lazy_events=True)
    _sql(p, "UPDATE event SET turn = 1 WHERE seq = 1")
    with pytest.raises(BattleFileError, match=r"event seq=2: unknown event kind 'teleported'"):
        store.load(p, lazy_events=True)


def test_reading_needs_no_sqlalchemy_and_knows_the_tables_of_the_schema(tmp_path, jena):
    import subprocess
    import sys

    from battlestudio.store import rows, tables

    assert rows.COLLECTION_TABLE_NAMES == {k: t.__tablename__ for k, t in tables.COLLECTION_TABLES.items()}
    assert rows.REQUIRED_TABLE_NAMES == tables.REQUIRED_TABLES and rows.APPLICATION_ID == tables.APPLICATION_ID
    p = tmp_path / "j.battle"
    store.save(jena, p)
    code = (
        "import sys; from battlestudio import store; b = store.load(sys.argv[1], lazy_events=True); "
        "assert len(b.events) and b.events[-1]; "
        "print(sorted(m for m in ('sqlalchemy', 'sqlmodel', 'pydantic') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code, str(p)], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("lazy", [False, True])
@pytest.mark.parametrize(
    "delete, where",
    [
        ("seq BETWEEN 2 AND 3", "event seq=2 to 3: missing:"),
        ("seq = 0", "event seq=0: missing:"),
        ("seq IN (1, 4)", "event seq=1: missing (2 rows missing in 2 gaps):"),
    ],
)
def test_deleted_event_rows_are_refused_naming_the_missing_seqs(tmp_path, jena, lazy, delete, where):
    p = tmp_path / "j.battle"
    store.save(jena, p)
    _sql(p, f"DELETE FROM event WHERE {delete}")
    with pytest.raises(BattleFileError) as info:
        store.load(p, lazy_events=lazy)
    assert str(info.value).startswith(f"{p}: {where}") and "without gaps" in str(info.value)


def test_the_last_rows_deleted_are_no_gap(tmp_path, jena):
    p = tmp_path / "j.battle"
    store.save(jena, p)
    _sql(p, "DELETE FROM event WHERE seq >= 4")  # as if the game had stopped there: still readable
    assert store.load(p, lazy_events=True).events == jena.events[:4]


@pytest.mark.parametrize("lazy", [False, True])
def test_an_event_of_an_unknown_side_is_refused_at_load_naming_its_row(tmp_path, jena, lazy):
    p = tmp_path / "j.battle"
    store.save(jena, p)
    _sql(p, "UPDATE event SET side = 'martians' WHERE seq = 3")
    with pytest.raises(BattleFileError) as info:
        store.load(p, lazy_events=lazy)
    assert str(info.value) == f"{p}: event seq=3.side: unknown side 'martians' (the scenario's sides: french, prussian)"


def test_an_event_of_an_unknown_side_in_a_json_file_is_refused_too(tmp_path, jena):
    import json

    p = tmp_path / "j.battle.json"
    store.save(jena, p)
    data = json.loads(p.read_text())
    data["events"][3]["side"] = "martians"
    p.write_text(json.dumps(data))
    with pytest.raises(BattleFileError, match=r"events\[3\]\.side: unknown side 'martians' \(the scenario's sides: "):
        store.load(p)
