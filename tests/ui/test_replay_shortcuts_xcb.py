"""The Replay dock's shortcuts clash with no other action of the window and no standard key, on
the offscreen platform and on xcb (X11, under xvfb-run), whose key table differs (there Ctrl+D is
also Delete)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.ui.window_helpers import NO_XVFB

REPO = Path(__file__).resolve().parents[2]

UNUSED_STANDARD = {"FindNext"}
"""Standard keys nothing in the window answers (no Find), so a replay shortcut may take theirs."""

SCRIPT = r"""
import json, sys, tempfile
from pathlib import Path
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication
from battlestudio.ui.recovery import RecoveryStore
from battlestudio.ui.settings import Settings
from battlestudio.ui.main_window import MainWindow

app = QApplication([])
tmp = Path(tempfile.mkdtemp())
w = MainWindow(Settings.at(tmp / "s.ini"), RecoveryStore(tmp / "r"), None)
actions = {}
for a in w.findChildren(QAction):
    keys = [k.toString() for k in a.shortcuts() if not k.isEmpty()]
    if keys and a.objectName():
        actions[a.objectName()] = keys
standard = {}
for k in QKeySequence.StandardKey:
    for b in QKeySequence.keyBindings(k):
        standard.setdefault(b.toString(), []).append(k.name)
print(json.dumps({"platform": app.platformName(), "actions": actions, "standard": standard}))
"""


def _keys(platform: str) -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": platform, "PYTHONPATH": str(REPO / "src") + os.pathsep + str(REPO)}
    cmd = [sys.executable, "-c", SCRIPT]
    if platform == "xcb":
        cmd = [shutil.which("xvfb-run") or "xvfb-run", "-a", *cmd]
    out = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout.strip().splitlines()[-1])
    assert data["platform"] == platform
    return data


@pytest.mark.parametrize(
    "platform",
    [
        "offscreen",
        pytest.param("xcb", marks=pytest.mark.skipif(NO_XVFB, reason="xvfb-run is not installed")),
    ],
)
def test_replay_shortcuts_clash_with_nothing(platform):
    data = _keys(platform)
    mine = {n: k for n, k in data["actions"].items() if n.startswith("action_replay_")}
    assert {"action_replay_goto"} <= set(mine)
    others = {k: n for n, keys in data["actions"].items() if n not in mine for k in keys}
    used = [k for keys in mine.values() for k in keys]
    assert len(used) == len(set(used)), mine
    for name, keys in mine.items():
        for k in keys:
            assert k not in others, f"{name} {k} is also {others[k]}"
            standard = set(data["standard"].get(k, [])) - UNUSED_STANDARD
            assert not standard, f"{name} {k} is the standard key for {standard} on {platform}"
