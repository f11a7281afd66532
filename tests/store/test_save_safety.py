"""Saving safely (issue 27): a file changed by another writer is noticed (``FileIdentity``),
events are not appended to a replaced ``.battle``, saves write through symlinks, read-only
files are not replaced unasked, non-regular inputs are refused at once, and the temp files of
an interrupted save are removed by the next write to the folder or open of the file."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import time
from dataclasses import replace
from pathlib import Path

import pytest

from battlestudio import cli, store
from battlestudio.replay.events import BattleEvent
from battlestudio.store import BattleFileError, FileIdentity, FileReplaced
from battlestudio.store.atomic import leftovers, remove_leftovers

REPO = Path(__file__).resolve().parents[2]
JENA = REPO / "scenarios" / "jena-1806.battle.json"


def _retitled(battle, title: str):
    battle.scenario.info = replace(battle.scenario.info, title=title)
    return battle


# -- FileIdentity ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["a.battle", "a.battle.json"])
def test_identity_sees_a_save_by_another_writer_and_not_a_touch(tmp_path, jena, name):
    path = tmp_path / name
    store.save(jena, path)
    mine = FileIdentity.of(path)
    assert mine.still(path) is None
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 5_000_000_000))  # touched: same bytes
    assert mine.still() is None
    store.save(_retitled(store.load(path), "Auerstedt 1806"), path)  # another window saves
    reason = mine.still(path)
    assert reason is not None and reason.startswith("was replaced by another file (modified ")
    assert "since it was opened or last saved here" in reason
    assert FileIdentity.of(path).still(path) is None


def test_identity_of_a_battle_reads_sqlite_change_counter_and_sees_in_place_writes(tmp_path, jena):
    path = tmp_path / "c.battle"
    store.save(jena, path)
    mine = FileIdentity.of(path)
    assert mine.sqlite_changes is not None and mine.sqlite_changes >= 1
    assert FileIdentity.of(JENA).sqlite_changes is None  # not SQLite
    con = sqlite3.connect(path)  # another program writes into the file itself
    con.execute("UPDATE unit SET men = men + 1")
    con.commit()
    con.close()
    reason = mine.still(path)
    assert reason is not None and reason.startswith("was changed by another program")
    assert "1 more SQLite writes" in reason


def test_identity_same_size_same_mtime_other_bytes_is_a_change(tmp_path):
    path = tmp_path / "s.battle.json"
    shutil.copy(JENA, path)
    mine = FileIdentity.of(path)
    data = bytearray(path.read_bytes())
    i = data.index(b'"Jena')
    data[i + 1 : i + 5] = b"JENA"
    path.write_bytes(bytes(data))
    os.utime(path, ns=(mine.mtime_ns, mine.mtime_ns))
    st = path.stat()
    assert (st.st_size, st.st_mtime_ns) == (mine.size, mine.mtime_ns)
    assert mine.still(path) is not None


def test_identity_of_a_deleted_or_non_regular_file(tmp_path):
    path = tmp_path / "d.battle.json"
    shutil.copy(JENA, path)
    mine = FileIdentity.of(path)
    path.unlink()
    assert mine.still(path) == "was deleted or moved away"
    os.mkfifo(path)
    assert mine.still(path).startswith("is no longer a file you can save over (not a regular file")
    with pytest.raises(BattleFileError, match=r"d.battle.json: not a regular file"):
        FileIdentity.of(path)  # at once: a FIFO without a writer would block an open()
    with pytest.raises(BattleFileError, match="is a directory"):
        FileIdentity.of(tmp_path)


# -- appending to a replaced .battle ----------------------------------------------------------
def test_append_to_a_replaced_battle_is_refused_and_writes_nothing(tmp_path, jena):
    path = tmp_path / "g.battle"
    store.save(jena, path)
    opened = FileIdentity.of(path)
    other = store.load(path)
    del other.scenario.units["vedel"]  # another program puts a battle without Vedel there
    other.events = other.events[:]  # the same number of events
    store.save(other, path)
    before = path.read_bytes()
    with pytest.raises(FileReplaced, match=r"g.battle: cannot append events: the file was replaced by another file"):
        store.append_events(path, [BattleEvent(2, "prussian", "command")], after=len(jena.events), identity=opened)
    assert path.read_bytes() == before
    fresh = FileIdentity.of(path)  # the file as it is now may be appended to
    assert store.append_events(path, [BattleEvent(2, "prussian", "command")], identity=fresh) == len(jena.events) + 1


# -- symlinks, read-only files, non-regular inputs -------------------------------------------
@pytest.mark.parametrize("name", ["l.battle", "l.battle.json"])
def test_save_through_a_symlink_writes_the_target_and_keeps_the_link(tmp_path, jena, name):
    real_dir = tmp_path / "library"
    real_dir.mkdir()
    target = real_dir / name
    store.save(jena, target)
    link = tmp_path / name
    link.symlink_to(target)
    store.save(_retitled(store.load(link), "Jena, revised"), link)
    assert link.is_symlink() and link.resolve() == target
    assert store.load(target).scenario.info.title == "Jena, revised"
    assert sorted(os.listdir(tmp_path)) == sorted(["library", name])
    assert os.listdir(real_dir) == [name]


@pytest.mark.parametrize("name", ["r.battle", "r.battle.json"])
def test_read_only_file_is_refused_unless_asked(tmp_path, jena, name):
    path = tmp_path / name
    store.save(jena, path)
    path.chmod(0o444)
    before = path.read_bytes()
    changed = _retitled(store.load(path), "Auerstedt 1806")
    with pytest.raises(PermissionError) as err:
        store.save(changed, path)
    assert err.value.filename == str(path)
    assert err.value.strerror == "is read-only (mode 0444); make it writable (chmod u+w) or write another file"
    assert path.read_bytes() == before
    store.save(changed, path, replace_read_only=True)  # the window asked the user first
    assert store.load(path).scenario.info.title == "Auerstedt 1806"
    assert stat.S_IMODE(path.stat().st_mode) == 0o444  # still read-only
    with pytest.raises(PermissionError):
        store.save(jena, path)  # the permission was for that one save
    assert os.listdir(tmp_path) == [name]


def test_cli_convert_refuses_a_read_only_output_and_keeps_overwriting_others(tmp_path, capsys):
    out = tmp_path / "out.battle"
    assert cli.main(["convert", str(JENA), str(out)]) == 0
    assert cli.main(["convert", str(JENA), str(out)]) == 0  # an existing writable output: replaced
    out.chmod(0o444)
    before = out.read_bytes()
    capsys.readouterr()
    assert cli.main(["convert", str(JENA), str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{out}: is read-only (mode 0444); make it writable (chmod u+w) or write another file" in err
    assert out.read_bytes() == before


@pytest.mark.parametrize("kind", ["fifo", "device", "directory"])
@pytest.mark.parametrize("suffix", [".battle", ".battle.json"])
def test_non_regular_inputs_are_refused_at_once(tmp_path, kind, suffix):
    path = tmp_path / f"in{suffix}"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to("/dev/zero")
    else:
        path.mkdir()
    t = time.perf_counter()
    with pytest.raises(BattleFileError, match=rf"in{suffix.replace('.', '[.]')}: (not a regular file|is a directory)"):
        store.load(path)
    with pytest.raises(BattleFileError, match="not a regular file|is a directory"):
        FileIdentity.of(path)
    assert time.perf_counter() - t < 2


def test_cli_refuses_a_fifo_output(tmp_path, capsys):
    out = tmp_path / "pipe.battle.json"
    os.mkfifo(out)
    assert cli.main(["convert", str(JENA), str(out)]) == 1
    assert f"{out}: is not a regular file" in capsys.readouterr().err


# -- leftovers of interrupted saves ----------------------------------------------------------
def _dead_pid() -> int:
    pid = os.fork()
    if pid == 0:
        os._exit(0)
    os.waitpid(pid, 0)
    return pid


def test_temp_files_of_a_dead_writer_go_at_the_next_open_and_the_next_write(tmp_path, jena):
    path = tmp_path / "t.battle"
    store.save(jena, path)
    dead = _dead_pid()
    mine = f".t.battle.bs{dead}-abcd_123.tmp"
    (tmp_path / mine).write_bytes(b"half a save")
    (tmp_path / (mine + "-journal")).write_bytes(b"its SQLite journal")
    other = f".u.battle.json.bs{dead}-zzzzzzzz.tmp"
    (tmp_path / other).write_bytes(b"{")
    live = f".t.battle.bs{os.getppid()}-livelive.tmp"  # a running editor's save in progress
    (tmp_path / live).write_bytes(b"being written")
    notes = ".t.battle.notes.tmp"  # not ours
    (tmp_path / notes).write_bytes(b"notes")
    store.load(path)  # the open removes this file's leftovers only
    assert sorted(os.listdir(tmp_path)) == sorted(["t.battle", other, live, notes])
    store.save(jena, tmp_path / "v.battle.json")  # a write removes every dead writer's leftover in the folder
    assert sorted(os.listdir(tmp_path)) == sorted(["t.battle", "v.battle.json", live, notes])
    old = time.time() - 2 * 24 * 3600
    os.utime(tmp_path / live, (old, old))  # a day old: its pid has been reused
    assert leftovers(tmp_path) == [str(tmp_path / live)]
    assert remove_leftovers(tmp_path) == [str(tmp_path / live)]


def test_older_versions_temp_files_go_after_an_hour(tmp_path, jena):
    path = tmp_path / "o.battle"
    store.save(jena, path)
    fresh, stale = tmp_path / ".o.battle.k3j2h1g0.tmp", tmp_path / ".o.battle.a1b2c3d4.tmp-journal"
    fresh.write_bytes(b"x")
    stale.write_bytes(b"y")
    old = time.time() - 2 * 3600
    os.utime(stale, (old, old))
    store.load(path)
    assert sorted(os.listdir(tmp_path)) == [fresh.name, "o.battle"]


def test_a_clean_battle_save_and_append_leave_no_sqlite_journal(tmp_path, jena):
    path = tmp_path / "n.battle"
    store.save(jena, path)
    store.append_events(path, [BattleEvent(2, "prussian", "command")], identity=FileIdentity.of(path))
    store.load(path)
    assert os.listdir(tmp_path) == ["n.battle"]


def test_a_fifo_journal_or_mapping_is_refused_at_once(tmp_path, jena):
    from battlestudio.store.importers import OobImportError
    from battlestudio.store.importers.tabular_mapping import load_mapping
    from battlestudio.store.journal import journal_path, read_journal

    path = tmp_path / "f.battle"
    store.save(jena, path)
    os.mkfifo(journal_path(path))
    with pytest.raises(BattleFileError, match=r"f.battle.journal: not a regular file"):
        read_journal(path)
    os.mkfifo(tmp_path / "map.toml")
    with pytest.raises(OobImportError, match=r"map.toml: not a regular file"):
        load_mapping(tmp_path / "map.toml")


def test_an_append_killed_before_commit_leaves_a_journal_sqlite_rolls_back_at_the_next_open(tmp_path, jena):
    from battlestudio.store import database_write

    path = tmp_path / "h.battle"
    store.save(jena, path)
    before = store.load(path)
    pid = os.fork()
    if pid == 0:  # the recording process dies with the event row written, before COMMIT
        real = database_write.insert_rows

        def die(conn, table, rows):
            real(conn, table, rows)
            os.kill(os.getpid(), 9)

        database_write.insert_rows = die
        try:
            store.append_events(path, [BattleEvent(2, "prussian", "command")])
        finally:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status)
    assert sorted(os.listdir(tmp_path)) == ["h.battle", "h.battle-journal"]  # SQLite's hot journal
    assert store.load(path) == before  # SQLite rolled the half-written append back ...
    assert os.listdir(tmp_path) == ["h.battle"]  # ... and removed its journal


def test_a_live_writers_journal_is_never_deleted(tmp_path, jena):
    from battlestudio.store.atomic import remove_stale_sqlite_journal

    path = tmp_path / "w.battle"
    store.save(jena, path)
    writer = sqlite3.connect(path, isolation_level=None)  # another program, mid-transaction
    writer.execute("BEGIN IMMEDIATE")
    writer.execute("UPDATE unit SET men = men + 1")
    journal = tmp_path / "w.battle-journal"
    assert journal.exists()
    assert remove_stale_sqlite_journal(path) is False and journal.exists()
    writer.execute("ROLLBACK")
    writer.close()
    journal.write_bytes(bytes(512))  # stale, zeroed header, nobody writing
    assert remove_stale_sqlite_journal(path) is True and not journal.exists()
