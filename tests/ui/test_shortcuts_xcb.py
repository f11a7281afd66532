"""No key of the window's actions is bound twice, on the xcb (X11) key table too: there the
standard Delete binding includes Ctrl+D, which made Ctrl+D "Ambiguous shortcut overload"
between Delete and Duplicate. The offscreen platform uses another key table, so the check runs
the window under Xvfb with QT_QPA_PLATFORM=xcb, and in-process with the X11 bindings of Delete."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from PySide6.QtGui import QAction, QKeySequence

from tests.ui.window_helpers import NO_XVFB, make_window

SRC = Path(__file__).parents[2] / "src"

SCRIPT = r"""
import sys, tempfile
from collections import Counter
from pathlib import Path
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QApplication
app = QApplication([])
assert app.platformName() == "xcb", app.platformName()
from battlestudio.ui.main_window import MainWindow
from battlestudio.ui.recovery import RecoveryStore
from battlestudio.ui.settings import Settings
d = Path(tempfile.mkdtemp())
w = MainWindow(Settings.at(d / "s.ini"), RecoveryStore(d / "r"))
print("DELETE_STANDARD", [k.toString() for k in QKeySequence.keyBindings(QKeySequence.StandardKey.Delete)])
keys = Counter(k.toString() for a in w.findChildren(QAction) for k in a.shortcuts())
print("CLASHES", sorted(k for k, n in keys.items() if n > 1))
ctrl_d = [a.objectName() for a in w.findChildren(QAction) if "Ctrl+D" in [k.toString() for k in a.shortcuts()]]
print("CTRL_D", sorted(ctrl_d))
"""


def _clashes(w) -> list[str]:
    keys = Counter(k.toString() for a in w.findChildren(QAction) for k in a.shortcuts())
    return sorted(k for k, n in keys.items() if n > 1)


@pytest.mark.skipif(NO_XVFB, reason="needs xvfb-run for the xcb platform")
def test_no_ambiguous_shortcut_on_xcb(tmp_path):
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "xcb",
        "PYTHONPATH": str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""),
    }
    out = subprocess.run(
        ["xvfb-run", "-a", sys.executable, "-c", SCRIPT], env=env, capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    lines = dict(line.split(" ", 1) for line in out.stdout.splitlines() if line.split(" ", 1)[0].isupper())
    assert "Ctrl+D" in lines["DELETE_STANDARD"]  # the X11 table really binds it
    assert lines["CLASHES"] == "[]"
    assert lines["CTRL_D"] == "['action_duplicate']"


def test_x11_delete_binding_does_not_shadow_duplicate(qtbot, tmp_path, monkeypatch):
    real = QKeySequence.keyBindings

    def x11(key):
        got = real(key)
        if key == QKeySequence.StandardKey.Delete:  # as on xcb: Del and Ctrl+D
            return [QKeySequence("Del"), QKeySequence("Ctrl+D")]
        return got

    monkeypatch.setattr(QKeySequence, "keyBindings", staticmethod(x11))
    w = make_window(qtbot, tmp_path)
    assert _clashes(w) == []
    assert [k.toString() for k in w.actions["delete"].shortcuts()] == ["Del"]
    assert [k.toString() for k in w.actions["duplicate"].shortcuts()] == ["Ctrl+D"]
