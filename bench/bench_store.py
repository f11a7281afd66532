"""Benchmark of the store at Leipzig scale (issue 2 item 5, issue 7 item 2): save and load of
``.battle`` and ``.battle.json``, file sizes, and appending one event to a ``.battle``.

Run: ``/work/venv/bin/python bench/bench_store.py [--scale 1] [--repeat 3]``.
Prints median wall-clock times; asserts nothing (timings do not belong in tests).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_large import large_battle  # noqa: E402

from battlestudio import store  # noqa: E402
from battlestudio.replay.events import Annotation  # noqa: E402


def _median(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=1, help="1 = Leipzig (1,000 units, ~50,000 events), 10 = ten times")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args(argv)
    battle = large_battle(args.scale)
    s = battle.scenario
    print(
        f"scale {args.scale}: {len(s.units)} units, {len(s.commanders)} commanders, {len(s.terrain)} terrain, "
        f"{len(s.towns)} towns, {len(battle.events)} events"
    )
    with tempfile.TemporaryDirectory() as d:
        for name in ("x.battle", "x.battle.json"):
            path = os.path.join(d, name)
            save = _median(lambda path=path: store.save(battle, path), args.repeat)
            load = _median(lambda path=path: store.load(path), args.repeat)
            print(
                f"{name:14s} save {save * 1000:8.0f} ms   load {load * 1000:8.0f} ms   "
                f"{os.path.getsize(path) / 1e6:6.1f} MB"
            )
        path = os.path.join(d, "x.battle")
        n = len(battle.events)
        times = []
        for i in range(50):
            t = time.perf_counter()
            n = store.append_events(path, [Annotation(99, "", "end", text=f"note {i}")], after=n)
            times.append(time.perf_counter() - t)
        times.sort()
        print(
            f"append one event: median {statistics.median(times) * 1000:.1f} ms, "
            f"p95 {times[int(0.95 * len(times)) - 1] * 1000:.1f} ms"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
