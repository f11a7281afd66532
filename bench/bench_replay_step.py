"""Benchmark: one replay step in the main window on the bundled Jena 1806 game (4,379 events).

Opens ``scenarios/jena-1806.battle.json`` in a ``MainWindow`` offscreen (settings and recovery in
a temporary folder) with the Analysis dock shown, then steps the replay cursor ±1 event and
±1 phase ``--steps`` times each from the middle of the game, and reports per kind of step, in
milliseconds (median and p95): the whole step (timeline, map items, command overlay, Analysis
marker, Replay dock, processed events), and the command overlay's and the Analysis dock's share
of it (marker and canvas redraws). Target: a step within one 60 Hz frame (16 ms).

Run:  QT_QPA_PLATFORM=offscreen /work/venv/bin/python bench/bench_replay_step.py [--steps 200]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication  # noqa: E402

from matplotlib.backends.backend_qtagg import FigureCanvasQTAgg  # noqa: E402

from battlestudio.ui.main_window import MainWindow  # noqa: E402
from battlestudio.ui.panels.analysis_panel import ChartView  # noqa: E402
from battlestudio.ui.recovery import RecoveryStore  # noqa: E402
from battlestudio.ui.resources import bundled_scenarios  # noqa: E402
from battlestudio.ui.settings import Settings  # noqa: E402


def _stats(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return f"median {statistics.median(xs) * 1e3:7.2f} ms   p95 {p95 * 1e3:7.2f} ms"


class _Timer:
    """Wraps ``obj.name`` and sums the seconds spent in it."""

    def __init__(self, obj, name: str) -> None:
        self.spent = 0.0
        original = getattr(obj, name)

        def timed(*a, **k):
            t0 = time.perf_counter()
            try:
                return original(*a, **k)
            finally:
                self.spent += time.perf_counter() - t0

        setattr(obj, name, timed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200)
    args = ap.parse_args()
    app = QApplication.instance() or QApplication([])
    jena = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")
    tmp = Path(tempfile.mkdtemp(prefix="bench-replay-step-"))
    w = MainWindow(Settings.at(tmp / "settings.ini"), RecoveryStore(tmp / "recovery"))
    w.resize(1500, 950)
    w.show()
    if not w.files.open_path(jena, ask=False):
        raise SystemExit(f"could not open {jena}")
    view = w.command_view
    view.docks["analysis"].show()
    view.docks["analysis"].raise_()
    app.processEvents()
    timeline = w.document.timeline
    overlay = _Timer(view.overlay, "show_state")
    analysis = _Timer(ChartView, "set_current_turn")
    drawing = _Timer(FigureCanvasQTAgg, "draw")  # draw_idle renders later, in the event loop
    print(f"Jena: {len(timeline.log)} events; {args.steps} steps of each kind")
    for label, step, n in (("±1 event", timeline.step_event, 1), ("±1 phase", timeline.step_phase, 1)):
        timeline.seek(len(timeline.log) // 2)
        app.processEvents()
        total, ov, an = [], [], []
        for i in range(args.steps):
            overlay.spent = analysis.spent = drawing.spent = 0.0
            t0 = time.perf_counter()
            step(n if i % 4 < 2 else -n)
            app.processEvents()
            total.append(time.perf_counter() - t0)
            ov.append(overlay.spent)
            an.append(analysis.spent + drawing.spent)
        print(f"{label:9s} step      {_stats(total)}")
        print(f"{'':9s} overlay   {_stats(ov)}")
        print(f"{'':9s} analysis  {_stats(an)}")
    w.close()


if __name__ == "__main__":
    main()
