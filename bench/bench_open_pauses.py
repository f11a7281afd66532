"""Where the window's event loop stalls while a large game is opened and checked (issue 26).

Opens ``FILE`` through the real window (``MainWindow``'s ``FileCommands.open_path``) once, to the
map's first paint, then runs the event loop until the idle check and the Analysis dock's charts
are done, with a 5 ms probe timer. Prints the first frame (wall and the window thread's CPU
time, ``time.thread_time``), the check and the charts (wall), the probe's latency (p95, max, the
ticks over 100 ms) and what took the time: the idle check's slices, matplotlib draws, the
Analysis dock's steps, the order-of-battle tree's rebuild and the collector's collections by
generation (``gc.callbacks``), each with count, sum (wall and the thread's CPU time) and max,
and every one over 40 ms with its time since the open and (for collections) its thread. A
``RESULT {json}`` line holds the main figures, for an A/B of two trees (run this script with
``PYTHONPATH`` at each, alternating).

Run: ``QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_open_pauses.py FILE [--no-analysis]``.
Asserts nothing (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import functools
import gc
import json
import os
import resource
import tempfile
import threading
import time
from pathlib import Path
from typing import Any


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", type=Path)
    ap.add_argument("--no-analysis", action="store_true", help="close the Analysis dock before opening")
    args = ap.parse_args(argv)

    from matplotlib.backends import backend_agg
    from PySide6.QtCore import QEvent, QObject, QTimer
    from PySide6.QtWidgets import QApplication, QMessageBox

    import battlestudio.ui.panels.analysis_panel as analysis_panel
    import battlestudio.ui.panels.oob_model as oob_model
    import battlestudio.ui.play.idle_check as idle_check
    from battlestudio.ui.main_window import MainWindow
    from battlestudio.ui.recovery import RecoveryStore
    from battlestudio.ui.settings import Settings

    stats: dict[str, list[float]] = {}
    cpu: dict[str, float] = {}  # the thread's CPU seconds per label (steadier than wall on a loaded machine)
    slow: list[tuple[Any, ...]] = []
    t0 = [time.perf_counter()]

    def note(label: str, seconds: float, cpu_s: float, *more: str) -> None:
        stats.setdefault(label, []).append(seconds)
        cpu[label] = cpu.get(label, 0.0) + cpu_s
        if seconds > 0.04:
            slow.append((round(seconds * 1000), label, round(time.perf_counter() - t0[0], 2), *more))

    def wrap(cls: type, name: str, label: str) -> None:
        f = getattr(cls, name)

        @functools.wraps(f)
        def timed(*a: Any, **k: Any) -> Any:
            t, c = time.perf_counter(), time.thread_time()
            try:
                return f(*a, **k)
            finally:
                note(label, time.perf_counter() - t, time.thread_time() - c)

        setattr(cls, name, timed)

    started: dict[str, tuple[float, float]] = {}

    def on_gc(phase: str, info: dict[str, int]) -> None:
        name = threading.current_thread().name
        if phase == "start":
            started[name] = (time.perf_counter(), time.thread_time())
        elif name in started:
            t, c = started.pop(name)
            note(f"gc gen{info['generation']}", time.perf_counter() - t, time.thread_time() - c, name)

    gc.callbacks.append(on_gc)
    wrap(idle_check.IdleCheck, "_slice", "idle check slice")
    wrap(backend_agg.FigureCanvasAgg, "draw", "chart draw (matplotlib)")
    wrap(analysis_panel.AnalysisPanel, "_show", "Analysis: show charts")
    wrap(analysis_panel.AnalysisPanel, "_start_worker", "Analysis: start worker")
    wrap(analysis_panel.AnalysisPanel, "_build_when_checked", "Analysis: build_when_checked")
    wrap(oob_model.OobModel, "rebuild", "tree rebuild")

    app = QApplication.instance() or QApplication([])
    for kind in ("critical", "warning", "information", "question"):  # nothing may block
        setattr(QMessageBox, kind, staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))
    tmp = tempfile.mkdtemp(prefix="bench-pauses-")
    w = MainWindow(Settings.at(os.path.join(tmp, "s.ini")), RecoveryStore(os.path.join(tmp, "r")))
    w.resize(1280, 800)
    w.show()
    if args.no_analysis:
        w.command_view.docks["analysis"].hide()
    for _ in range(5):
        app.processEvents()

    class Painted(QObject):
        done = 0.0

        def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
            if event.type() == QEvent.Type.Paint and not self.done:
                obj.removeEventFilter(self)
                QApplication.sendEvent(obj, event)  # paint now
                self.done = time.perf_counter()
                return True
            return False

    spy = Painted()
    w.map_view.viewport().installEventFilter(spy)
    ticks: list[float] = []
    ticker = QTimer()
    ticker.setInterval(5)
    ticker.timeout.connect(lambda: ticks.append(time.perf_counter()))
    gc.collect()
    c0 = time.thread_time()
    t0[0] = time.perf_counter()
    w.files.open_path(args.file, ask=False)
    while not spy.done:
        app.processEvents()
    first, first_cpu = spy.done - t0[0], time.thread_time() - c0
    log = w.document.log
    ticker.start()
    while log.validated < len(log) and time.perf_counter() - spy.done < 600:
        app.processEvents()
    checked = time.perf_counter() - t0[0]
    panel = w.command_view.analysis_panel
    while not args.no_analysis and panel._pending is not None and time.perf_counter() - spy.done < 600:
        app.processEvents()
    analysed = time.perf_counter() - t0[0]
    ticker.stop()
    lags = sorted(max(0.0, b - a - 0.005) for a, b in zip(ticks, ticks[1:], strict=False)) or [0.0]
    p95 = lags[min(len(lags) - 1, int(len(lags) * 0.95))]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{args.file.name}: load average {os.getloadavg()[0]:.2f}")
    print(f"  first frame {first * 1000:.0f} ms (window thread CPU {first_cpu * 1000:.0f} ms)")
    print(f"  checked {checked * 1000:.0f} ms, charts built {analysed * 1000:.0f} ms (from the open)")
    print(f"  latency p95 {p95 * 1000:.1f} ms, max {lags[-1] * 1000:.0f} ms (n={len(lags)})")
    print(f"  ticks over 100 ms: {[round(x * 1000) for x in lags if x > 0.1]}")
    for label, v in sorted(stats.items()):
        print(
            f"  {label:<30} n={len(v):<5} sum {sum(v) * 1000:7.0f} ms (CPU {cpu[label] * 1000:6.0f})   "
            f"max {max(v) * 1000:5.0f} ms"
        )
    print("  over 40 ms (ms, what, s since the open[, thread]):", slow)
    print(f"  peak RSS {rss:.0f} MiB")
    result = dict(first=first, first_cpu=first_cpu, checked=checked, analysed=analysed, p95=p95, max=lags[-1])
    result.update(gc2=sum(stats.get("gc gen2", [])), gc_cpu=sum(v for k, v in cpu.items() if k.startswith("gc")))
    result.update(slices_cpu=cpu.get("idle check slice", 0.0), draws_cpu=cpu.get("chart draw (matplotlib)", 0.0))
    result.update(tree_cpu=cpu.get("tree rebuild", 0.0), rss=rss)
    print("RESULT", json.dumps(result))
    w.document.mark_saved()
    w.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
