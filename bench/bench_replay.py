"""Benchmark of random access in the game log: ``state_at`` at random cursors.

Generates a synthetic 40-turn game of about 50,000 events on 1,000 brigades (500 a side, ~320
commanders, Torden over Europa's seven phases per player-turn) and measures:

* building the log from the event list (what opening a file costs the replay core);
* ``state_at`` at random cursors with the recent-state cache off (a scrub or a jump): median,
  p95 and max, and the events applied per call;
* stepping one event forward/back along the log (playback, arrow keys) with the cache on,
  and stepping phase by phase through a ``Timeline``;
* folding from the start to the same cursors, for comparison (what a keyframe-less replay pays);
* memory held by the keyframes.

Run: ``/work/venv/bin/python bench/bench_replay.py [--events N] [--units-per-side N]
[--keyframe-every N] [--samples N]``. Prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
from bisect import bisect_right
import random
import statistics
import time
import tracemalloc
from itertools import pairwise

from battlestudio.replay.game import GameLog
from battlestudio.replay.state import GameState
from battlestudio.session.synthetic import synthetic_game
from battlestudio.replay.timeline import Timeline


def _ms(xs: list[float]) -> str:
    xs = sorted(xs)
    p95 = xs[min(len(xs) - 1, int(0.95 * len(xs)))]
    return f"median {statistics.median(xs) * 1e3:8.3f} ms   p95 {p95 * 1e3:8.3f} ms   max {xs[-1] * 1e3:8.3f} ms"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=50_000)
    ap.add_argument("--units-per-side", type=int, default=500)
    ap.add_argument("--turns", type=int, default=40)
    ap.add_argument("--keyframe-every", type=int, default=64)
    ap.add_argument("--samples", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1813)
    args = ap.parse_args()

    t0 = time.perf_counter()
    game = synthetic_game(
        turns=args.turns, units_per_side=args.units_per_side, seed=args.seed, target_events=args.events
    )
    t_gen = time.perf_counter() - t0
    n = len(game.events)
    print(
        f"game: {n} events, {len(game.scenario.units)} units, {len(game.scenario.commanders)} commanders, "
        f"{args.turns} turns  (generated in {t_gen:.2f} s)"
    )

    t0 = time.perf_counter()
    log = GameLog.from_scenario(game.scenario, game.events, keyframe_every=args.keyframe_every, cache_size=0)
    t_build = time.perf_counter() - t0
    del log
    tracemalloc.start()  # a second build, traced (tracing slows it down several times)
    log = GameLog.from_scenario(game.scenario, game.events, keyframe_every=args.keyframe_every, cache_size=0)
    mem = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    kf = log.keyframe_positions()
    gaps = [b - a for a, b in pairwise(kf)] + [n - kf[-1]]
    print(
        f"log built in {t_build:.2f} s; {len(log.phases())} phases, {len(kf)} keyframes "
        f"(every phase start, or {args.keyframe_every} events), largest gap {max(gaps)} events, "
        f"memory allocated while building (log, keyframes, states) ≈ {mem / 2**20:.1f} MiB"
    )

    rng = random.Random(args.seed)
    cursors = [rng.randrange(n + 1) for _ in range(args.samples)]
    times, applied = [], []
    for p in cursors:
        t0 = time.perf_counter()
        log.state_at(p)
        times.append(time.perf_counter() - t0)
        applied.append(p - kf[bisect_right(kf, p) - 1] if p < n else 0)
    print(
        f"state_at, random cursor, no cache ({args.samples}x): {_ms(times)}   "
        f"events applied: median {statistics.median(applied):.0f}, max {max(applied)}"
    )
    best = []
    for p in cursors:
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            log.state_at(p)
            runs.append(time.perf_counter() - t0)
        best.append(min(runs))
    print(f"state_at, same cursors, best of 3 each (filters preemption on a busy machine): {_ms(best)}")

    cached = GameLog.from_scenario(game.scenario, game.events, keyframe_every=args.keyframe_every)
    start = n // 2
    cached.state_at(start)
    step_times = []
    for d in [1] * 200 + [-1] * 200:
        start += d
        t0 = time.perf_counter()
        cached.state_at(start)
        step_times.append(time.perf_counter() - t0)
    print(f"state_at, stepping ±1 event with the cache (400x): {_ms(step_times)}")

    tl = Timeline(cached, 0)
    phase_times = []
    for _ in range(300):
        t0 = time.perf_counter()
        tl.step_phase(1)
        _ = tl.state  # build the state: part of what is timed
        phase_times.append(time.perf_counter() - t0)
    tl.close()
    print(f"Timeline.step_phase(+1) then .state, from the start (300x): {_ms(phase_times)}")

    initial = GameState.from_scenario(game.scenario)
    fold_times = []
    for p in cursors[:20]:
        t0 = time.perf_counter()
        s = initial
        for e in game.events[:p]:
            s = e.apply(s)
        fold_times.append(time.perf_counter() - t0)
    print(f"fold from the start to a random cursor (20x, no keyframes): {_ms(fold_times)}")


if __name__ == "__main__":
    main()
