"""Benchmark: the map part of ``run.py`` (issue 9) on the cached Leipzig battle, quickly.

Loads ``bench/.cache/leipzig-x1-s1813.battle`` and its ``GameLog`` once (not timed), then times
what ``run.py``'s ``map_measures`` times, on a 1280 x 800 ``MapView`` offscreen:

* ``view_create``: ``MapView(Document(battle))`` + resize + show + ``fit_table``;
* ``show_head``: ``show_state`` of the latest state on that fresh view;
* ``first_paint``: the first ``viewport().grab()`` after that (labels placed, caches filled);
* ``jump_scene`` / ``jump_painted``: random cursors, ``state_at`` + ``show_state`` (+ a grab);
* ``repaint_whole`` / ``repaint_close``: a grab with nothing changed (whole table; 10 px/cm);
* ``step_phase_whole`` / ``step_phase_close``: +/-1 phase steps, ``state_at`` + ``show_state`` + grab.

After the views are made the collector is frozen (``gc.freeze``), as the window's open does
(``FileCommands.open_path``), so the replay's records are not rescanned by every full collection
during the measures (``--no-freeze`` leaves it as it was).

Prints median, p95 and min in ms and the load average. ``--profile NAME`` runs one measure
under cProfile and prints the top functions. Asserts nothing.

Run:  QT_QPA_PLATFORM=offscreen /work/venv/bin/python bench/bench_map_step.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import os
import pstats
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_large import cached_file  # noqa: E402

from battlestudio import store  # noqa: E402
from battlestudio.replay.game import GameLog  # noqa: E402


SAMPLES: dict[str, list[float]] = {}


def _row(name: str, xs: list[float]) -> None:
    ms = sorted(x * 1e3 for x in xs)
    SAMPLES[name] = ms
    p95 = ms[min(len(ms) - 1, max(0, round(0.95 * len(ms)) - 1))]
    print(
        f"  {name:<18} median {statistics.median(ms):8.2f}  p95 {p95:8.2f}  min {ms[0]:8.2f} ms  (n={len(ms)})",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="fresh views created (creation, first paint)")
    ap.add_argument("--scale", type=int, default=1, help="1 (Leipzig) or 10 (make_large.py --scale)")
    ap.add_argument("--jumps", type=int, default=30)
    ap.add_argument("--steps", type=int, default=40)
    ap.add_argument("--file", default="", help="a .battle to read instead of the cached one (never written)")
    ap.add_argument("--json", default="", help="also write every sample (ms) per measure to this file")
    ap.add_argument("--profile", default="", help="one of: create, jump, step_whole, step_close, repaint_whole")
    ap.add_argument(
        "--cpu",
        action="store_true",
        help="time the main thread's CPU (time.thread_time) instead of the wall clock: "
        "comparable across loads on a shared machine, blind to waiting",
    )
    ap.add_argument(
        "--unit-path",
        default="",
        help="arrays or items: how the map draws units (MapScene.unit_path; default the scene's own)",
    )
    ap.add_argument(
        "--no-freeze",
        action="store_true",
        help="leave the collector unfrozen after the views are made (the window freezes it after an open)",
    )
    args = ap.parse_args()
    if args.unit_path:
        from battlestudio.ui import map_scene

        map_scene.UNIT_PATH = args.unit_path
    clock = time.thread_time if args.cpu else time.perf_counter
    from PySide6.QtWidgets import QApplication

    from battlestudio.document import Document
    from battlestudio.ui.map_view import MapView

    app = QApplication.instance() or QApplication([])
    path = Path(args.file) if args.file else cached_file(args.scale, 1813)
    battle = store.load(path)
    log = GameLog.from_battle(battle)
    s = battle.scenario
    print(
        f"{'CPU time of the main thread' if args.cpu else 'wall clock'}; {path.name}: {len(s.units)} units, "
        f"{len(s.commanders)} commanders, {len(s.terrain)} terrain, "
        f"{len(s.towns)} towns, {len(log)} events; unit path {args.unit_path or 'default'}; "
        f"load average {os.getloadavg()[0]:.2f}"
    )
    prof = cProfile.Profile() if args.profile else None

    def run(name: str, fn, *a):
        if prof is not None and args.profile == name:
            prof.enable()
        t0 = clock()
        out = fn(*a)
        dt = clock() - t0
        if prof is not None and args.profile == name:
            prof.disable()
        return dt, out

    create, head, first = [], [], []
    view = None
    for _ in range(args.repeat):
        if view is not None:
            view.close()
            view.deleteLater()
            app.processEvents()
        gc.collect()

        def make():
            v = MapView(Document(battle))
            v.resize(1280, 800)
            v.show()
            v.fit_table()
            return v

        dt, view = run("create", make)
        create.append(dt)
        dt, _ = run("create", view.show_state, log.head.units, log.head.commanders)
        head.append(dt)
        dt, _ = run("create", view.viewport().grab)
        first.append(dt)
    _row("view_create", create)
    _row("show_head", head)
    _row("first_paint", first)
    _row("create+head+paint", [a + b + c for a, b, c in zip(create, head, first, strict=True)])
    app.processEvents()
    if not args.no_freeze:
        # as the window does once a document is open (``FileCommands.open_path``): what lives as
        # long as the document (the battle, its log) is not rescanned by every full collection
        gc.collect()
        gc.freeze()
    rng = random.Random(3)
    jumps = [rng.randrange(len(log) + 1) for _ in range(args.jumps)]

    def show(pos: int) -> None:
        st = log.state_at(pos)
        view.show_state(st.units, st.commanders)

    def jump(pos: int) -> None:
        show(pos)
        view.viewport().grab()

    _row("jump_scene", [run("jump_scene", show, p)[0] for p in jumps])
    _row("jump_painted", [run("jump", jump, p)[0] for p in jumps])
    starts = log.phase_starts()
    mid = len(starts) // 2
    for label, zoom in (("whole", None), ("close", 10.0)):
        if zoom is None:
            view.fit_table()
        else:
            view.set_zoom(zoom)
            view.centre_on_table((s.info.table_width / 2, s.info.table_height / 2))
        view.viewport().grab()
        _row(f"repaint_{label}", [run(f"repaint_{label}", view.viewport().grab)[0] for _ in range(20)])
        seq = starts[mid : mid + args.steps] + starts[mid : mid + args.steps][::-1]
        jump(seq[0])
        _row(f"step_phase_{label}", [run(f"step_{label}", jump, p)[0] for p in seq[1:]])
    print(f"load average {os.getloadavg()[0]:.2f}")
    if args.json:
        import json

        Path(args.json).write_text(json.dumps(SAMPLES))
    if prof is not None:
        pstats.Stats(prof).sort_stats(os.environ.get("BENCH_SORT", "tottime")).print_stats(
            int(os.environ.get("BENCH_TOP", "30"))
        )


if __name__ == "__main__":
    main()
