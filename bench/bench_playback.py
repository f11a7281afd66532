"""Event-loop latency while the Replay dock plays the bundled Jena game at high speed.

Opens the real window (offscreen unless QT_QPA_PLATFORM says otherwise), plays by ``--unit``
(turn, phase or event) at ``--speed`` for ``--seconds``, and meanwhile a probe timer asks to run
every 5 ms: how late it runs is the latency a click or a key would see. Prints p50, p95 and max
latency (ms), the frames drawn (positions shown) and the steps taken. Playback starts after
``--settle`` seconds of idle event loop, so the window's work after opening (the Analysis
charts, the idle check) is not counted as playback.

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_playback.py --unit turn --speed 32
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from battlestudio.ui.main_window import MainWindow  # noqa: E402
from battlestudio.ui.recovery import RecoveryStore  # noqa: E402
from battlestudio.ui.settings import Settings  # noqa: E402

JENA = Path(__file__).resolve().parents[1] / "scenarios" / "jena-1806.battle.json"
PROBE_MS = 5


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--unit", default="turn", choices=("event", "phase", "turn"))
    ap.add_argument("--speed", type=float, default=32.0)
    ap.add_argument("--seconds", type=float, default=6.0)
    ap.add_argument(
        "--settle", type=float, default=3.0, help="seconds of idle event loop after opening (charts, checks)"
    )
    args = ap.parse_args(argv)
    app = QApplication.instance() or QApplication(sys.argv[:1])
    tmp = Path(tempfile.mkdtemp())
    w = MainWindow(Settings.at(tmp / "s.ini"), RecoveryStore(tmp / "r"))
    w.resize(1600, 1000)
    w.show()
    assert w.files.open_path(JENA, ask=False)
    t = w.document.timeline
    t.step_unit, t.speed, t.loop = args.unit, args.speed, True
    settle = time.perf_counter() + args.settle  # the window's idle work after opening is not playback
    while time.perf_counter() < settle:
        app.processEvents()
        time.sleep(0.002)
    late: list[float] = []
    shown: list[int] = []
    t.position_changed.connect(shown.append)
    bar = w.play_view.panel.bar
    costs: list[float] = []  # what each frame cost (the bar's own measure, when it has one)
    t.position_changed.connect(lambda _p: costs.append(getattr(bar, "frame_ms", float("nan"))))
    last = [time.perf_counter()]

    def probe() -> None:
        now = time.perf_counter()
        late.append(max(0.0, (now - last[0]) * 1000 - PROBE_MS))
        last[0] = now

    timer = QTimer()
    timer.setInterval(PROBE_MS)
    timer.timeout.connect(probe)
    timer.start()
    w.play_view.panel.bar.press("play")
    end = time.perf_counter() + args.seconds
    while time.perf_counter() < end:
        app.processEvents()
        time.sleep(0.0005)
    t.pause()
    timer.stop()
    q = statistics.quantiles(late, n=100)
    print(f"by {args.unit} at {args.speed:g}x for {args.seconds:g} s on Jena ({len(t.log)} events)")
    print(f"event-loop latency ms: p50 {q[49]:.1f}  p95 {q[94]:.1f}  max {max(late):.1f}  ({len(late)} probes)")
    print(f"frames (positions shown) {len(shown)}, distinct {len(set(shown))}")
    known = sorted(c for c in costs[1:] if c == c)
    if known:
        print(f"frame cost ms (step + slices + repaint): median {known[len(known) // 2]:.1f}  max {known[-1]:.1f}")
    w.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
