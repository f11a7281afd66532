"""Benchmark: does replaying cost more per event in a bigger army? (issue 9: "no operation grows
faster than linearly with the number of units").

For the generated Leipzig battle at x1 (1,000 units, 51,203 events) and x10 (10,000 units,
509,645 events) — ``make_large.cached_file`` — each scale in its own process (so memory is its
own), this measures per event:

* ``build``: ``RecordedEvents.build_all`` after ``store.load(lazy_events=True)`` (parsing the
  payloads into event objects), with the collector paused as ``GameLog`` does;
* ``validate``: ``GameLog.lazy_from_battle`` + ``validate()`` on events already built: applying,
  keyframing and indexing by id (what grows with the units if anything in ``replay`` does), with
  the memory the finished log holds (RSS growth: keyframes, id index);
* ``eager``: ``GameLog.from_battle`` on the same built events;
* ``gui path``: a fresh lazy load checked in slices of 20,000 (``validate(20000)`` until done),
  building and applying, as the GUI's idle check does;
* ``state_at`` p95 at 1,000 random positions with the recent-state cache off;
* ``gc pause``: one full ``gc.collect()`` once everything is loaded, without and with
  ``gc.freeze()`` right after ``store.load`` (what a GUI pays when a full collection strikes);
* the GUI path again with ``gc.freeze()`` after loading (``gui, frozen``: what
  ``ui/file_commands`` does) and with ``gc.freeze()`` after every slice too
  (``gui, freeze/slice``: the events built and keyframes taken are not rescanned by the
  collector's young generations).

Times are CPU seconds of the process (``time.process_time``), min of ``--repeat`` runs, because
the machine is shared; wall times are printed too. Run from the repository root:
``/work/venv/bin/python bench/bench_replay_scale.py [--scales 1 10] [--repeat N] [--files TEMPLATE]``.
Prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from make_large import cached_file  # noqa: E402

from battlestudio import store  # noqa: E402
from battlestudio.replay.game import GameLog  # noqa: E402


def _rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def _timed(fn):
    w, c = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.process_time() - c, time.perf_counter() - w


def child(scale: int, freeze: str, template: str | None = None) -> dict:
    """One run at ``scale`` in this process (the file ``template.format(scale=scale)``, else
    the generated one); returns the measures (seconds, MiB)."""
    path = Path(template.format(scale=scale)) if template else cached_file(scale, log=lambda *a: None)
    r: dict = {"scale": scale}
    battle, r["load_cpu"], r["load_wall"] = _timed(lambda: store.load(path, lazy_events=True))
    n = r["events"] = len(battle.events)
    r["units"] = len(battle.scenario.units)
    if freeze:  # "open" or "slices": right after loading, as ui/file_commands does
        gc.freeze()
    paused = gc.isenabled()
    gc.disable()
    rss = _rss_mib()
    _, r["build_cpu"], r["build_wall"] = _timed(battle.events.build_all)
    r["events_mib"] = _rss_mib() - rss
    if paused:
        gc.enable()
    rss = _rss_mib()
    log, r["validate_cpu"], r["validate_wall"] = _timed(
        lambda: _validated(GameLog.lazy_from_battle(battle, cache_size=0))
    )
    r["log_mib"] = _rss_mib() - rss
    r["keyframes"] = len(log.keyframe_positions())
    rng = random.Random(9)
    times = []
    for p in [rng.randrange(n + 1) for _ in range(1000)]:
        t = time.perf_counter()
        log.state_at(p)
        times.append(time.perf_counter() - t)
    times.sort()
    r["state_at_p95_ms"] = times[int(0.95 * len(times))] * 1e3
    del log
    _, r["eager_cpu"], r["eager_wall"] = _timed(lambda: GameLog.from_battle(battle))
    battle = None
    gc.collect()
    # the GUI path: a fresh lazy load, checked in slices
    fresh = store.load(path, lazy_events=True)
    if freeze:
        gc.freeze()
    lazy = GameLog.lazy_from_battle(fresh)
    _, r["gui_cpu"], r["gui_wall"] = _timed(lambda: _in_slices(lazy, freeze == "slices"))
    _, r["gc_cpu"], r["gc_wall"] = _timed(gc.collect)
    r["rss_mib"] = _rss_mib()
    return r


def _validated(log: GameLog) -> GameLog:
    log.validate()
    return log


def _in_slices(log: GameLog, freeze: bool) -> None:
    while not log.validate(20_000):
        if freeze:  # what an idle check could do after each slice: the events built stay unscanned
            gc.freeze()
        [[] for _ in range(1000)]  # a GUI allocates between slices (the collector runs then)


def _run(scale: int, freeze: str, template: str | None) -> dict:
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(scale), "--freeze", freeze]
        + (["--files", template] if template else []),
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scales", type=int, nargs="+", default=[1, 10])
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument(
        "--files",
        help="battle files to measure instead of the generated ones, e.g. "
        "'bench/.cache/leipzig-x{scale}-s1813-g2.battle' (to compare code on the same data)",
    )
    ap.add_argument("--child", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--freeze", default="", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(args.child, args.freeze, args.files)))
        return
    print(
        f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; CPU µs per event, min of {args.repeat} "
        f"(wall in brackets)"
    )
    rows = []
    for scale in args.scales:
        runs = [_run(scale, "", args.files) for _ in range(args.repeat)]
        frozen = [_run(scale, "open", args.files) for _ in range(args.repeat)]
        sliced = [_run(scale, "slices", args.files) for _ in range(args.repeat)]

        def best(key: str, rs: list[dict] = runs) -> float:
            return min(r[key] for r in rs)

        n = runs[0]["events"]

        def us(key: str, rs: list[dict] = runs, n: int = n) -> str:
            return f"{best(key + '_cpu', rs) / n * 1e6:6.1f} ({best(key + '_wall', rs) / n * 1e6:6.1f})"

        rows.append(
            (
                scale,
                runs[0]["units"],
                n,
                us("build"),
                us("validate"),
                us("eager"),
                us("gui"),
                us("gui", frozen),
                us("gui", sliced),
                f"{best('log_mib') * 1024 / n:5.2f}",
                f"{best('state_at_p95_ms'):5.2f}",
                f"{best('gc_wall') * 1e3:7.0f}",
                f"{best('gc_wall', frozen) * 1e3:7.0f}",
                f"{best('rss_mib'):6.0f}",
            )
        )
    head = (
        "scale",
        "units",
        "events",
        "build",
        "validate",
        "eager",
        "gui path",
        "gui, frozen",
        "gui, freeze/slice",
        "KiB/event held",
        "state_at p95 ms",
        "gc pause ms",
        "frozen gc ms",
        "RSS MiB",
    )
    widths = [max(len(h), max(len(str(r[i])) for r in rows)) for i, h in enumerate(head)]
    print("  ".join(h.rjust(w) for h, w in zip(head, widths, strict=True)))
    for r in rows:
        print("  ".join(str(v).rjust(w) for v, w in zip(r, widths, strict=True)))
    if len(rows) > 1:
        print("growth per event from the first scale to the last: ", end="")
        print(", ".join(f"{h} x{_num(rows[-1][i]) / _num(rows[0][i]):.2f}" for i, h in enumerate(head) if 3 <= i <= 8))


def _num(cell: str) -> float:
    return float(cell.split("(")[0])


if __name__ == "__main__":
    main()
