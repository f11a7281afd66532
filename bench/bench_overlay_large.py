"""Benchmark: the command overlay's update while a corps general is dragged, at Leipzig scale.

Reproduces ``run.py``'s ``Bench.overlay`` measure (issue 9, "command-overlay update after moving
one general <= 16 ms") on its own: the cached ``make_large`` battle (``bench/.cache/
leipzig-x1-s1813.battle``: 1,000 units, 316 commanders), a 1280 x 800 ``MapView`` offscreen at
whole-table zoom showing the document, the ``CommandOverlay`` bound to the editor ``Document``,
and the middle corps general dragged by ``MoveRecords`` edits (one ``doc.push`` per mouse move,
merged, random steps within 40 cm of his start, seed 1813 as in ``run.py``). Reports in ms
(median, p95, min over ``--moves`` moves, repeated ``--rounds`` times):

* ``edit, map only``    -- the same pushes with the overlay unbound: the map items syncing the
  moved general (the map's share, owned by the map);
* ``edit + overlay``    -- what ``run.py`` calls ``overlay_drag``: document change, map items and
  the overlay's update;
* ``overlay share``     -- the difference of the two medians (and the overlay's own time,
  measured inside its change handler);
* ``edit, map only + paint`` -- the map's pushes plus a full repaint, the overlay unbound and hidden;
* ``edit + overlay + paint`` -- ``overlay_drag_painted``: the same plus a full repaint;
* ``replay +/-1 event / phase (overlay)`` -- the overlay (unbound) shown on the log's state at
  the cursor, stepped by one event or one phase (state_at outside the timing), and how each step
  was drawn (kept, moved = updated, full);
* ``repaint, overlay shown / hidden`` -- a full repaint with nothing changed: what drawing the
  overlay's items adds.

Asserts nothing. Run:
``QT_QPA_PLATFORM=offscreen /work/venv/bin/python bench/bench_overlay_large.py [--scale 1] [--moves 20]``
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_large import cached_file  # noqa: E402

from battlestudio import store  # noqa: E402


CLOCK = [time.perf_counter]
"""The clock of every measure: wall time, or this process's CPU time with ``--cpu`` (steadier on a
shared machine; offscreen painting runs in this thread)."""


def stats(ms: list[float]) -> str:
    xs = sorted(ms)
    p95 = xs[min(len(xs) - 1, max(0, round(0.95 * len(xs)) - 1))]
    return f"median {statistics.median(xs):8.2f}   p95 {p95:8.2f}   min {xs[0]:8.2f}   (n={len(xs)})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=1)
    ap.add_argument("--moves", type=int, default=20, help="mouse moves per round (run.py: 20)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--profile", type=Path, help="write a cProfile of the overlay-bound pushes here")
    ap.add_argument("--cpu", action="store_true", help="measure this process's CPU time, not wall time")
    args = ap.parse_args()
    if args.cpu:
        CLOCK[0] = time.process_time

    from PySide6.QtWidgets import QApplication

    from battlestudio.document import Document
    from battlestudio.edits import MoveRecords
    from battlestudio.replay.game import GameLog
    from battlestudio.ui.command_overlay import CommandOverlay
    from battlestudio.ui.map_view import MapView

    app = QApplication.instance() or QApplication([])
    battle = store.load(cached_file(args.scale))
    log = GameLog.from_battle(battle)
    doc = Document(battle)
    view = MapView(doc)
    view.resize(1280, 800)
    view.show()
    view.fit_table()
    head = log.head
    view.show_state(head.units, head.commanders)
    view.viewport().grab()
    app.processEvents()

    overlay = CommandOverlay(view.map_scene)
    spent: list[float] = []  # the overlay's own change handler, per push
    handler = overlay._on_changed

    def timed_handler(changes: list) -> None:
        t0 = CLOCK[0]()
        handler(changes)
        spent.append((CLOCK[0]() - t0) * 1e3)

    overlay._on_changed = timed_handler  # type: ignore[method-assign]
    t0 = CLOCK[0]()
    overlay.bind(doc)
    bind_ms = (CLOCK[0]() - t0) * 1e3
    s = doc.scenario
    corps = [c for c in s.commanders.values() if c.echelon == "corps"]
    general = corps[len(corps) // 2]
    pic = overlay.picture
    print(
        f"x{args.scale}: {len(s.units)} units, {len(s.commanders)} commanders; dragging {general.name} ({general.id}, "
        f"{len(list(doc.scenario.oob.subordinates(general.id)))} direct subordinates); overlay: {len(overlay.items())} "
        f"items, {len(pic.findings)} findings, {len(pic.out_of_command())} out of command; bind {bind_ms:.0f} ms"
    )
    rng = random.Random(1813)
    start = general.position
    moves = [(start[0] + rng.uniform(-40, 40), start[1] + rng.uniform(-40, 40)) for _ in range(1 + 2 * args.moves)]

    def push(pos: tuple[float, float]) -> None:
        doc.push(MoveRecords("commanders", {general.id: pos}, None, "Move", merge_key=("bench", general.id)))

    def run(fn, args_) -> list[float]:
        out = []
        gc.collect()
        for a in args_:
            t = CLOCK[0]()
            fn(a)
            out.append((CLOCK[0]() - t) * 1e3)
        return out

    rows: dict[str, list[float]] = {
        "edit, map only": [],
        "edit + overlay": [],
        "overlay handler": [],
        "edit, map only + paint": [],
        "edit + overlay + paint": [],
    }
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile()
    for _ in range(args.rounds):
        overlay.unbind()
        push(moves[0])
        rows["edit, map only"] += run(push, moves[1 : 1 + args.moves])

        def painted(pos: tuple[float, float]) -> None:
            push(pos)
            view.viewport().grab()

        overlay.set_visible(False)
        rows["edit, map only + paint"] += run(painted, moves[1 + args.moves :])
        overlay.set_visible(True)
        doc.undo()
        overlay.bind(doc)
        push(moves[0])
        spent.clear()
        if profiler is not None:
            profiler.enable()
        rows["edit + overlay"] += run(push, moves[1 : 1 + args.moves])
        if profiler is not None:
            profiler.disable()
        rows["overlay handler"] += spent[:]
        rows["edit + overlay + paint"] += run(painted, moves[1 + args.moves :])
        doc.undo()
    # replay: the overlay shown on the log's state at the cursor, stepped one event or one phase
    overlay.unbind()
    starts = log.phase_starts()
    mid = len(starts) // 2
    steps = {
        "replay +/-1 event": list(range(starts[mid], starts[mid] + 40))
        + list(range(starts[mid] + 40, starts[mid], -1)),
        "replay +/-1 phase": starts[mid : mid + 20] + starts[mid : mid + 20][::-1],
    }
    kinds: dict[str, list[str]] = {}
    for name, cursors in steps.items():
        overlay.show_state(log.state_at(cursors[0]))
        states = [log.state_at(c) for c in cursors[1:]]
        kinds[name] = []

        def show(st, shown: list[str] = kinds[name]) -> None:
            overlay.show_state(st)
            shown.append(getattr(overlay, "last_update", "?"))

        rows[f"{name} (overlay)"] = run(show, states)
    overlay.bind(doc)
    for shown in (True, False):  # what drawing the overlay adds to a full repaint
        overlay.set_visible(shown)
        view.viewport().grab()
        rows[f"repaint, overlay {'shown' if shown else 'hidden'}"] = run(
            lambda _: view.viewport().grab(), range(2 * args.moves)
        )
    overlay.set_visible(True)
    print(f"\n{'measure (ms)':<26} {'':>8}")
    for name, xs in rows.items():
        print(f"  {name:<24} {stats(xs)}")
    share = statistics.median(rows["edit + overlay"]) - statistics.median(rows["edit, map only"])
    print(f"  {'overlay share (medians)':<24} {share:8.2f}")
    for name, ks in kinds.items():
        print(f"  {name}: " + ", ".join(f"{k} {ks.count(k)}" for k in sorted(set(ks))))
    print(f"\nload: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    if profiler is not None:
        profiler.dump_stats(str(args.profile))
    overlay.unbind()
    view.close()


if __name__ == "__main__":
    main()
