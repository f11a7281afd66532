"""Nothing lost: autosave to the recovery folder, and recovery after a crash.

The central test starts the real editor in a subprocess on the bundled Elchingen scenario,
makes an edit, waits for the autosave, kills the process (SIGKILL, no chance to clean up) and
checks that the next start offers the recovered document with the edit in it.
"""

from __future__ import annotations

import os
import select
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from PySide6.QtWidgets import QMessageBox

from battlestudio import store
from battlestudio.edits import MoveRecords
from battlestudio.ui.recovery import RecoveryStore
from tests.ui.window_helpers import ELCHINGEN, ModalRecorder, make_window

CHILD = textwrap.dedent(
    """
    import sys
    from PySide6.QtCore import QTimer
    from battlestudio.edits import MoveRecords
    from battlestudio.ui.app import create

    app, win = create(sys.argv[1])
    uid = sys.argv[2]

    def edit():
        win.document.push(MoveRecords("units", {uid: (77.5, 66.25)}, {uid: 30.0}, "Move unit"))
        print("EDITED", win.document.path, flush=True)

    win.autosaver.saved.connect(lambda path: print("AUTOSAVED", path, flush=True))
    QTimer.singleShot(0, edit)
    app.exec()
    """
)

GUARD_S = 120.0
"""Give up on a child that never autosaves (a hang, not a speed requirement)."""


def read_until(proc: subprocess.Popen, marker: str) -> str:
    end = time.monotonic() + GUARD_S
    seen = []
    while time.monotonic() < end:
        ready, _, _ = select.select([proc.stdout], [], [], 1.0)
        if ready:
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            if line.startswith(marker):
                return line
    proc.kill()
    raise AssertionError(f"child never printed {marker}; output: {''.join(seen)}; stderr: {proc.stderr.read()}")


def test_killed_editor_offers_recovered_document_with_the_edit(qtbot, tmp_path, monkeypatch):
    work = tmp_path / "elchingen.battle.json"
    store.save(store.load(ELCHINGEN), work)
    uid = next(iter(store.load(work).scenario.units))
    config, data = tmp_path / "config", tmp_path / "data"
    (config / "BattleStudio").mkdir(parents=True)
    (config / "BattleStudio" / "BattleStudio.conf").write_text("[autosave]\nidle_s=1\ninterval_s=60\n")
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        XDG_CONFIG_HOME=str(config),
        XDG_DATA_HOME=str(data),
        HOME=str(tmp_path),
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(work), uid],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        read_until(proc, "EDITED")
        line = read_until(proc, "AUTOSAVED")
    finally:
        proc.kill()
        proc.wait()
    folder = data / "BattleStudio" / "recovery"
    autosaved = Path(line.split(" ", 1)[1].strip())
    assert autosaved.parent == folder and autosaved.exists()
    assert store.load(work).scenario.units[uid].position != (77.5, 66.25)  # the file itself was never saved

    modals = ModalRecorder(monkeypatch)
    modals.question_answer = QMessageBox.StandardButton.Yes
    w = make_window(qtbot, tmp_path / "next-start", recovery=RecoveryStore(folder))
    assert w.files.offer_recovery()
    (ask,) = modals.of("question")
    assert "elchingen.battle.json" in ask[2] and "Elchingen" in ask[2]
    unit = w.document.scenario.units[uid]
    assert unit.position == (77.5, 66.25) and unit.facing == 30.0
    assert w.document.path == work and w.document.is_modified and w.isWindowModified()
    assert not autosaved.exists()  # the old copy now belongs to this session ...
    assert w.recovery.data_path.exists()  # ... which wrote its own right away
    assert w.files.save()
    assert not w.recovery.data_path.exists()  # a clean save discards it
    assert store.load(work).scenario.units[uid].position == (77.5, 66.25)


def _leftover(folder: Path, document) -> Path:
    """A recovery copy as a dead editor (pid 0 is never alive) would leave it."""
    old = RecoveryStore(folder)
    old.write(document)
    meta = old.meta_path.read_text().replace(f'"pid": {os.getpid()}', '"pid": 0')
    old.meta_path.write_text(meta)
    return old.data_path


def test_declining_discards_the_copy(qtbot, tmp_path, monkeypatch, document):
    folder = tmp_path / "recovery"
    data = _leftover(folder, document)
    modals = ModalRecorder(monkeypatch)
    modals.question_answer = QMessageBox.StandardButton.No
    w = make_window(qtbot, tmp_path, recovery=RecoveryStore(folder))
    assert not w.files.offer_recovery()
    assert not data.exists() and list(folder.iterdir()) == []


def test_copies_of_running_editors_are_not_offered(tmp_path, document):
    folder = tmp_path / "recovery"
    RecoveryStore(folder).write(document)  # this process is alive
    assert RecoveryStore(folder).pending() == []
    _leftover(folder, document)
    (entry,) = RecoveryStore(folder).pending()
    assert entry.source is None and entry.title == "Elchingen 1805"


def test_unreadable_copy_is_kept_aside_and_reported(qtbot, tmp_path, monkeypatch, document):
    folder = tmp_path / "recovery"
    data = _leftover(folder, document)
    data.write_text("{ truncated")
    modals = ModalRecorder(monkeypatch)
    modals.question_answer = QMessageBox.StandardButton.Yes
    w = make_window(qtbot, tmp_path, recovery=RecoveryStore(folder))
    assert not w.files.offer_recovery()
    assert "kept as" in modals.of("critical")[0][2]
    assert (folder / (data.name + ".unreadable")).exists() and RecoveryStore(folder).pending() == []


def test_autosaver_writes_only_unsaved_changes(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    assert w.files.open_path(ELCHINGEN)
    saver, rec = w.autosaver, w.recovery
    saver.set_timing(60, 0.2)
    assert not saver.save_now() and not rec.data_path.exists()  # nothing to save
    uid = next(iter(w.document.scenario.units))
    w.document.push(MoveRecords("units", {uid: (12.0, 34.0)}, None, "Move"))
    with qtbot.waitSignal(saver.saved, timeout=10_000):
        pass  # the idle timer fires after the edit
    assert store.load(rec.data_path).scenario.units[uid].position == (12.0, 34.0)
    assert not saver.save_now()  # unchanged since
    w.document.undo()  # back to the file's state: the copy is not needed
    assert not rec.data_path.exists()
    w.document.redo()
    assert saver.save_now() and rec.data_path.exists()
    w.close()
    assert not rec.data_path.exists()  # a normal close leaves nothing behind


@pytest.mark.parametrize("bad", ["not json", '{"pid": "x"}'])
def test_unreadable_description_is_treated_as_dead(tmp_path, document, bad):
    folder = tmp_path / "recovery"
    data = _leftover(folder, document)
    data.with_name(data.name.replace(".battle.json", ".json")).write_text(bad)
    (entry,) = RecoveryStore(folder).pending()
    assert entry.data == data
