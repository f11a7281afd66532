"""Atomic saves (a failure or crash mid-save leaves the previous file intact) and appending
events to a .battle file in one transaction (issue 2 item 5, issue 7 item 2)."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import pytest

from battlestudio import store
from battlestudio.replay.events import BattleEvent
from battlestudio.store import BattleFileError, database_write, json_format
from battlestudio.store.json_format import dumps

REPO = Path(__file__).resolve().parents[2]


def _disk_full(*_args, **_kwargs):
    raise OSError(errno.ENOSPC, "No space left on device")


def _leftovers(directory: Path, keep: set[str]) -> list[str]:
    return sorted(set(os.listdir(directory)) - keep)


@pytest.mark.parametrize("name", ["a.battle", "a.battle.json"])
def test_full_disk_mid_save_leaves_previous_file_intact(tmp_path, monkeypatch, jena, name):
    path = tmp_path / name
    store.save(jena, path)
    before = path.read_bytes()
    changed = store.load(path)
    changed.scenario.info = changed.scenario.info.__class__(title="Auerstedt 1806")
    calls = {"n": 0}
    real_insert, real_write = database_write.insert_rows, json_format.write_all

    def insert_then_fail(conn, table, rows):  # a few tables get written, then the disk is full
        calls["n"] += 1
        if calls["n"] > 3:
            _disk_full()
        real_insert(conn, table, rows)

    def write_half_then_fail(f, data, block=1 << 20):
        real_write(f, data[: len(data) // 2], block)
        _disk_full()

    monkeypatch.setattr(database_write, "insert_rows", insert_then_fail)
    monkeypatch.setattr(json_format, "write_all", write_half_then_fail)
    with pytest.raises((OSError, BattleFileError), match="No space left on device"):
        store.save(changed, path)
    assert path.read_bytes() == before
    assert store.load(path) == jena
    assert _leftovers(tmp_path, {name}) == []  # the temp file is cleaned up


@pytest.mark.parametrize("name", ["b.battle", "b.battle.json"])
def test_failing_fsync_or_rename_leaves_previous_file_intact(tmp_path, monkeypatch, jena, name):
    path = tmp_path / name
    store.save(jena, path)
    before = path.read_bytes()
    other = store.load(path)
    other.events = []
    monkeypatch.setattr(os, "fsync", lambda fd: _disk_full())
    with pytest.raises(OSError):
        store.save(other, path)
    monkeypatch.undo()
    monkeypatch.setattr(os, "replace", lambda a, b: (_ for _ in ()).throw(OSError(errno.EXDEV, "cross-device link")))
    with pytest.raises(OSError):
        store.save(other, path)
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert _leftovers(tmp_path, {name}) == []


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])},  # this tree
        timeout=120,
    )


def test_process_killed_mid_save_leaves_previous_file_intact(tmp_path, jena):
    path = tmp_path / "k.battle"
    store.save(jena, path)
    before = path.read_bytes()
    done = _run(f"""
        import os
        from battlestudio import store
        from battlestudio.store import database_write
        from tests.store.conftest import jena_battle
        real = database_write.insert_rows
        def die(conn, table, rows):
            real(conn, table, rows)
            if table.__tablename__ == "unit":
                os._exit(9)  # the process dies with the new file half written
        database_write.insert_rows = die
        b = jena_battle(); b.events = []
        store.save(b, {str(path)!r})
    """)
    assert done.returncode == 9, done.stderr
    assert path.read_bytes() == before
    assert store.load(path) == jena


def test_permissions_of_an_existing_file_are_kept(tmp_path, jena):
    path = tmp_path / "p.battle.json"
    store.save(jena, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    path.chmod(0o600)
    store.save(jena, path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# -- appending events -----------------------------------------------------------------------
def _new_events() -> list[BattleEvent]:
    return [BattleEvent(2, "prussian", "command"), BattleEvent(2, "prussian", "movement")]


def test_append_adds_only_the_new_events_in_place(tmp_path, jena):
    path = tmp_path / "g.battle"
    store.save(jena, path)
    inode = path.stat().st_ino
    assert store.append_events(path, _new_events(), after=len(jena.events)) == len(jena.events) + 2
    assert store.append_events(path, [BattleEvent(3, "french", "command")]) == len(jena.events) + 3
    assert path.stat().st_ino == inode  # the file was not rewritten and swapped
    back = store.load(path)
    assert back.events == jena.events + _new_events() + [BattleEvent(3, "french", "command")]
    assert back.scenario == jena.scenario
    assert _leftovers(tmp_path, {"g.battle"}) == []


def test_append_refuses_a_stale_count_and_writes_nothing(tmp_path, jena):
    path = tmp_path / "s.battle"
    store.save(jena, path)
    before = path.read_bytes()
    with pytest.raises(BattleFileError, match=f"holds {len(jena.events)} events, expected 2"):
        store.append_events(path, _new_events(), after=2)
    assert path.read_bytes() == before


def test_append_failing_midway_keeps_the_events_there_were(tmp_path, monkeypatch, jena):
    path = tmp_path / "f.battle"
    store.save(jena, path)
    real = database_write.insert_rows

    def half_then_fail(conn, table, rows):
        real(conn, table, rows[:1])
        _disk_full()

    monkeypatch.setattr(database_write, "insert_rows", half_then_fail)
    with pytest.raises(OSError, match="No space left"):
        store.append_events(path, _new_events())
    monkeypatch.undo()
    assert store.load(path).events == jena.events
    assert store.append_events(path, _new_events()) == len(jena.events) + 2


def test_process_killed_between_events_loses_only_the_event_being_written(tmp_path, jena):
    path = tmp_path / "c.battle"
    store.save(jena, path)
    done = _run(f"""
        import os
        from battlestudio import store
        from battlestudio.replay.events import BattleEvent
        from battlestudio.store import database_write
        path = {str(path)!r}
        store.append_events(path, [BattleEvent(2, "prussian", "command")])   # recorded, committed
        real = database_write.insert_rows
        def die(conn, table, rows):
            real(conn, table, rows)
            os._exit(9)  # dies after writing the row, before COMMIT
        database_write.insert_rows = die
        store.append_events(path, [BattleEvent(2, "prussian", "movement")])
    """)
    assert done.returncode == 9, done.stderr
    back = store.load(path)  # SQLite rolls the interrupted transaction back
    assert back.events == jena.events + [BattleEvent(2, "prussian", "command")]
    assert store.append_events(path, [BattleEvent(2, "prussian", "firing")]) == len(jena.events) + 2


def test_append_refuses_bad_targets_and_bad_events(tmp_path, jena):
    store.save(jena, tmp_path / "j.battle.json")
    with pytest.raises(BattleFileError, match="only be appended to a .battle file"):
        store.append_events(tmp_path / "j.battle.json", _new_events())
    with pytest.raises(BattleFileError, match="no such file"):
        store.append_events(tmp_path / "missing.battle", _new_events())
    (tmp_path / "text.battle").write_text("not a database, just notes about Jena\n" * 50)
    with pytest.raises(BattleFileError, match="text.battle: cannot append events: file is not a database"):
        store.append_events(tmp_path / "text.battle", _new_events())
    assert (tmp_path / "text.battle").read_text() == "not a database, just notes about Jena\n" * 50
    store.save(jena, tmp_path / "ok.battle")
    before = (tmp_path / "ok.battle").read_bytes()
    with pytest.raises(BattleFileError, match=r"events\[\+1\]\.turn: expected an integer, got \"2\""):
        store.append_events(tmp_path / "ok.battle", [BattleEvent(2, "french", "x"), BattleEvent("2", "french", "y")])
    assert (tmp_path / "ok.battle").read_bytes() == before


def test_appended_log_reads_back_like_a_saved_one(tmp_path, jena):
    store.save(jena, tmp_path / "a.battle")
    store.append_events(tmp_path / "a.battle", _new_events())
    full = store.load(tmp_path / "a.battle")
    jena.events += _new_events()
    assert dumps(full) == dumps(jena)


@pytest.mark.parametrize("name", ["n.battle", "n.battle.json"])
def test_unstorable_value_is_refused_before_anything_is_written(tmp_path, jena, name):
    from dataclasses import replace

    jena.scenario.units["vedel"] = replace(jena.scenario.units["vedel"], facing=float("nan"))
    with pytest.raises(BattleFileError, match=r"units\[4\]\.facing: expected a finite number, got nan \(not saved\)"):
        store.save(jena, tmp_path / name)
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("name", ["p.battle", "p.battle.json"])
def test_event_with_a_non_json_payload_is_refused_with_its_path(tmp_path, jena, name):
    @dataclass(frozen=True, slots=True)
    class Measured(BattleEvent):  # deliberately not registered: saving needs only to_dict()
        kind: ClassVar[str] = "measured"
        value: Any = None

    jena.events.append(Measured(2, "french", "firing", value={"range_cm": float("inf")}))
    with pytest.raises(
        BattleFileError, match=r"events\[6\]\.value\.range_cm: expected a finite number, got inf \(not saved\)"
    ):
        store.save(jena, tmp_path / name)
    jena.events[-1] = Measured(2, "french", "firing", value={"when": object()})
    with pytest.raises(BattleFileError, match=r"events\[6\]\.value\.when: expected a JSON value, got object"):
        store.save(jena, tmp_path / name)
    assert os.listdir(tmp_path) == []
