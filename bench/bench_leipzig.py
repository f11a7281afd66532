"""Benchmark: the bundled Leipzig 1813 battle in the window (offscreen).

Two measures, each ``--repeat`` times, printed as min / median / max in milliseconds:

* open: a fresh ``MainWindow`` (settings and recovery in a temporary folder) opens
  ``scenarios/leipzig-1813.battle.json`` through ``FileActions.open_path`` (read, every dock
  bound) and Qt events are processed until the map's viewport has received its first Paint
  event;
* replay: from the start of the recorded game, ``Timeline.step_turn(1)`` with the events
  processed after each step, turn by turn to the end of the game (the whole recorded opening);
  the time of the whole walk, and per turn step.

Run:  QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_leipzig.py [--repeat 5]
Asserts nothing (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QEvent, QObject  # noqa: E402
from PySide6.QtWidgets import QApplication, QMessageBox  # noqa: E402

from battlestudio.ui.main_window import MainWindow  # noqa: E402
from battlestudio.ui.recovery import RecoveryStore  # noqa: E402
from battlestudio.ui.settings import Settings  # noqa: E402

FILE = Path(__file__).resolve().parents[1] / "scenarios" / "leipzig-1813.battle.json"


class _Painted(QObject):
    """Notes when the watched viewport's first Paint event since ``done_at`` was reset has finished."""

    def __init__(self) -> None:
        super().__init__()
        self.done_at = 0.0

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Paint:
            obj.removeEventFilter(self)
            QApplication.sendEvent(obj, event)
            obj.installEventFilter(self)
            if not self.done_at:
                self.done_at = time.perf_counter()
            return True
        return False


def _stats(label: str, xs: list[float]) -> str:
    ms = [x * 1000 for x in xs]
    return (
        f"{label:<38} min {min(ms):8.1f}   median {statistics.median(ms):8.1f}   max {max(ms):8.1f} ms   (n={len(ms)})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    app = QApplication.instance() or QApplication([])
    for kind in ("critical", "warning", "information", "question"):  # nothing may block
        setattr(QMessageBox, kind, staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))
    tmp = Path(tempfile.mkdtemp(prefix="bench-leipzig-"))
    opened: list[float] = []
    walks: list[float] = []
    steps: list[float] = []
    turns = events = 0
    for i in range(args.repeat):
        w = MainWindow(Settings.at(tmp / f"s{i}.ini"), RecoveryStore(tmp / f"r{i}"))
        w.resize(1500, 950)
        w.show()
        for _ in range(5):
            app.processEvents()
        spy = _Painted()
        w.map_view.viewport().installEventFilter(spy)
        gc.collect()
        t0 = time.perf_counter()
        if not w.files.open_path(FILE, ask=False):
            raise SystemExit(f"could not open {FILE}")
        spy.done_at = 0.0
        while not spy.done_at:
            app.processEvents()
        opened.append(spy.done_at - t0)
        w.map_view.viewport().removeEventFilter(spy)
        timeline = w.document.timeline
        events = len(timeline.log)
        turns = max(timeline.log.turns())
        timeline.seek(0)
        app.processEvents()
        t1 = time.perf_counter()
        while not timeline.at_end:
            s0 = time.perf_counter()
            before = timeline.position
            timeline.step_turn(1)
            app.processEvents()
            steps.append(time.perf_counter() - s0)
            if timeline.position == before:
                break
        walks.append(time.perf_counter() - t1)
        w.document.mark_saved()
        w.close()
        w.deleteLater()
        app.processEvents()
    print(f"Leipzig 1813: {events} events, {turns} turns; {args.repeat} runs")
    print(_stats("open -> first map paint", opened))
    print(_stats("replay start -> end, step by turn", walks))
    print(_stats("  one turn step (with events)", steps))


if __name__ == "__main__":
    main()
