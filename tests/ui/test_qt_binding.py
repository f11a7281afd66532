"""Guard against a broken PySide6: 6.12.0 on Python 3.11 leaks a reference to None on every call
of a Qt method that returns nothing, and the interpreter aborts after a few thousand calls."""

from __future__ import annotations

import subprocess
import sys

import PySide6

VOID_CALLS = 20_000


def test_pyside6_version_is_pinned_below_6_12() -> None:
    major, minor = (int(p) for p in PySide6.__version__.split(".")[:2])
    assert (major, minor) < (6, 12), f"PySide6 {PySide6.__version__} is outside the pin"


def test_void_qt_method_called_20000_times_keeps_none_alive() -> None:
    # Run in a subprocess: the failure mode is an interpreter abort ("deallocating None").
    code = (
        "import sys\n"
        "from PySide6.QtCore import QObject\n"
        "from PySide6.QtWidgets import QApplication, QGraphicsRectItem\n"
        "app = QApplication([])\n"
        "before = sys.getrefcount(None)\n"
        "obj = QObject(); item = QGraphicsRectItem(0, 0, 1, 1)\n"
        f"for i in range({VOID_CALLS}):\n"
        "    obj.setObjectName('n')\n"
        "    item.setPos(i, i)\n"
        "after = sys.getrefcount(None)\n"
        "print(before, after, item.pos().x())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    assert result.returncode == 0, f"interpreter died: {result.stderr[-500:]}"
    before, after, last_x = result.stdout.split()
    assert float(last_x) == VOID_CALLS - 1
    # None is immortal-ish; a leak would raise the count by ~2 per call (40,000).
    assert int(after) - int(before) < 1000
