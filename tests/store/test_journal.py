"""The journal beside a ``.battle`` file: what a recording writes instead of touching the file,
read back after a crash (a torn last write left out, undo lines applied), checked against the
file it began from, and removed only by its own editor or once that editor is gone."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.replay.battle import Battle
from battlestudio.store.errors import BattleFileError
from battlestudio.store.journal import JournalWriter, journal_path, read_journal, remove_journal

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def saved(tmp_path, jena):
    """The battle with the last 3 events of its log left out, saved; the left-out events."""
    path = tmp_path / "g.battle"
    head, tail = list(jena.events[:-3]), list(jena.events[-3:])
    store.save(Battle(jena.scenario, head), path)
    return path, head, tail


def test_writes_and_undo_lines_read_back_as_the_game(saved):
    path, head, tail = saved
    before = path.read_bytes()
    n = len(head)
    w = JournalWriter(path, n)
    assert not journal_path(path).exists()  # created by the first write only
    w.write(n, tail[:2])
    w.write(n + 2, tail[2:])
    j = read_journal(path)
    assert j is not None and j.keep == n and list(j.events) == tail and j.changes_game
    assert j.events_in_file == n and j.fits() and not j.stale  # written by this process
    assert store.load(path).events == head and path.read_bytes() == before  # the file is untouched
    assert j.applied(store.load(path)).events == head + tail
    w.write(n + 1, [])  # an undo took the last two back
    assert list(read_journal(path).events) == tail[:1]
    w.write(n - 2, [])  # ... and two of the saved ones
    j = read_journal(path)
    assert j.keep == n - 2 and j.events == () and j.applied(store.load(path)).events == head[:-2]
    w.remove()
    assert read_journal(path) is None


def test_a_torn_last_write_is_left_out_and_a_bad_line_named(saved):
    path, head, tail = saved
    w = JournalWriter(path, len(head))
    w.write(len(head), tail[:1])
    jp = journal_path(path)
    with open(jp, "a", encoding="utf-8") as f:
        f.write('{"at": 5, "events": [{"kind": "mov')  # the process died mid-write
    assert list(read_journal(path).events) == tail[:1]
    with open(jp, "a", encoding="utf-8") as f:
        f.write("\n" + json.dumps({"at": 10_000, "events": []}) + "\n")
    with pytest.raises(BattleFileError, match=r"line 3: not JSON"):
        read_journal(path)
    jp.write_text('{"format": "something else"}\n', encoding="utf-8")
    with pytest.raises(BattleFileError, match="not a BattleStudio journal"):
        read_journal(path)


def test_a_changed_file_no_longer_fits_its_journal(saved):
    path, head, tail = saved
    JournalWriter(path, len(head)).write(len(head), tail)
    j = read_journal(path)
    assert j.fits()
    store.save(Battle(store.load(path).scenario, head[:-1]), path)  # saved elsewhere meanwhile
    assert not j.fits()
    with pytest.raises(BattleFileError, match=f"continues a game of {len(head)} events"):
        j.applied(store.load(path))


def test_a_second_writer_does_not_take_over_a_journal(saved):
    path, head, tail = saved
    JournalWriter(path, len(head)).write(len(head), tail[:1])
    with pytest.raises(BattleFileError, match="journal of unsaved recording is there already"):
        JournalWriter(path, len(head)).write(len(head), tail)
    assert list(read_journal(path).events) == tail[:1]


def test_a_killed_recorder_leaves_a_stale_journal_only_it_or_its_successor_removes(saved):
    path, head, tail = saved
    code = f"""
        import os
        from battlestudio import store
        from battlestudio.store.journal import JournalWriter
        path = {str(path)!r}
        events = store.load({str(path)!r} + ".src.battle").events
        w = JournalWriter(path, {len(head)})
        w.write({len(head)}, events[{len(head)}:])
        print(os.getpid(), flush=True)
        os._exit(9)  # killed: nothing cleaned up
    """
    store.save(Battle(store.load(path).scenario, head + tail), str(path) + ".src.battle")
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=REPO,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO / "src")},
        timeout=120,
    )
    assert done.returncode == 9, done.stderr
    j = read_journal(path)
    assert j is not None and j.pid == int(done.stdout.split()[0]) and j.stale
    assert j.fits() and j.applied(store.load(path)).events == head + tail
    assert remove_journal(path) and read_journal(path) is None


def test_a_running_editors_journal_is_not_removed(saved, monkeypatch):
    path, head, tail = saved
    JournalWriter(path, len(head)).write(len(head), tail)
    jp = journal_path(path)
    lines = jp.read_text(encoding="utf-8").splitlines(keepends=True)
    head_line = json.loads(lines[0])
    head_line["pid"] = os.getppid()  # another process that is running
    jp.write_text(json.dumps(head_line) + "\n" + "".join(lines[1:]), encoding="utf-8")
    assert not read_journal(path).stale
    assert not remove_journal(path) and jp.exists()
