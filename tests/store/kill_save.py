"""kill -9 during a save: a forked process saves a battle over itself, a new and an old version
in turn, and is killed at a random moment; the next open must find the old or the new file,
whole, and nothing beside it.

``kill_saves`` runs ``trials`` such kills, ``parallel`` at a time, each in its own folder, and
returns what it saw (``KillReport``); ``tests/store/test_kill_save.py`` runs it in CI and
``bench/bench_kill_save.py`` the long run. POSIX only (``os.fork``).
"""

from __future__ import annotations

import hashlib
import os
import random
import signal
import time
from dataclasses import dataclass, field, replace
from pathlib import Path

from battlestudio import store
from battlestudio.replay.battle import Battle


@dataclass
class KillReport:
    """What ``kill_saves`` saw.

    ``killed``: trials where the saving process was killed (it saves new, old, new, … until
    then, so the kill lands at a random moment of some save); ``left_before_open``: trials
    where files lay beside the battle after the kill (what the open must clean); ``old`` and
    ``new``: what the file held after; ``bad``: one line per trial that went wrong (a stray
    file after the open, a file neither old nor new, a failed open, a save that failed by
    itself).
    """

    trials: int = 0
    killed: int = 0
    left_before_open: int = 0
    old: int = 0
    new: int = 0
    seconds: float = 0.0
    bad: list[str] = field(default_factory=list)


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def versions(battle: Battle) -> tuple[Battle, Battle]:
    """An old and a new version of ``battle``: the new one retitled and with its game cut to
    half, so old and new differ in size and in every table."""
    info = replace(battle.scenario.info, title=battle.scenario.info.title + " (revised)")
    scenario = replace(battle.scenario, info=info)
    return battle, Battle(scenario, list(battle.events[: len(battle.events) // 2]), list(battle.bookmarks))


def save_seconds(battle: Battle, folder: Path, name: str, repeat: int = 3) -> float:
    """The time one save of ``battle`` as ``name`` takes here (the best of ``repeat``), s."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        store.save(battle, folder / name)
        best = min(best, time.perf_counter() - t)
    (folder / name).unlink()
    return best


def batch_seconds(battle: Battle, slots: list[Path], name: str) -> float:
    """Wall time for ``len(slots)`` processes saving ``battle`` at once, each in its slot, s
    (how long a save takes with as many running as the kill trials run)."""
    t = time.perf_counter()
    pids = []
    for slot in slots:
        pid = os.fork()
        if pid == 0:
            try:
                store.save(battle, slot / name)
            finally:
                os._exit(0)
        pids.append(pid)
    for pid in pids:
        os.waitpid(pid, 0)
    for slot in slots:
        (slot / name).unlink(missing_ok=True)
    return time.perf_counter() - t


def kill_saves(
    battle: Battle, folder: Path, name: str, trials: int, parallel: int = 4, seed: int = 27, span: float | None = None
) -> KillReport:
    """Kill ``trials`` processes saving the new and old versions of ``battle`` (``versions``)
    in turn as ``name``, ``parallel`` at once in subfolders of ``folder``, each after a random
    delay in [0, ``span``] s (default 1.5 × the time ``parallel`` saves at once take:
    ``batch_seconds``, so a kill falls at any moment of a save)."""
    rng = random.Random(seed)
    old, new = versions(battle)
    folder.mkdir(parents=True, exist_ok=True)
    report = KillReport()
    slots = [folder / f"slot{i}" for i in range(parallel)]
    for s in slots:
        s.mkdir(exist_ok=True)
    span = span if span is not None else 1.5 * batch_seconds(new, slots, name)
    store.save(old, slots[0] / name)
    store.save(new, slots[0] / ("new-" + name))
    old_bytes = (slots[0] / name).read_bytes()
    want = {hashlib.sha256(old_bytes).hexdigest(): "old", _digest(slots[0] / ("new-" + name)): "new"}
    (slots[0] / ("new-" + name)).unlink()
    started = time.perf_counter()
    while report.trials < trials:
        batch = slots[: min(parallel, trials - report.trials)]
        running: list[tuple[float, int, Path]] = []  # (kill time, pid, slot)
        for slot in batch:  # start them all, then only kill until the batch is done: the kills are on time
            (slot / name).write_bytes(old_bytes)
            pid = os.fork()
            if pid == 0:  # the saving process
                try:
                    while True:  # new, old, new, …: a kill at any moment lands inside some save
                        store.save(new, slot / name)
                        store.save(old, slot / name)
                except BaseException:  # noqa: BLE001 - reported as a failed save by the exit code
                    os._exit(3)
            running.append((time.perf_counter() + rng.uniform(0, span), pid, slot))
        for at, pid, _slot in sorted(running):
            time.sleep(max(0.0, at - time.perf_counter()))
            os.kill(pid, signal.SIGKILL)
        for _at, pid, slot in running:
            _, status = os.waitpid(pid, 0)
            report.trials += 1
            if os.WIFSIGNALED(status):
                report.killed += 1
            else:
                report.bad.append(f"trial {report.trials}: the save failed by itself (exit {os.WEXITSTATUS(status)})")
            _check(slot, name, want, report)
    report.seconds = time.perf_counter() - started
    return report


def _check(slot: Path, name: str, want: dict[str, str], report: KillReport) -> None:
    """The next open of ``slot/name``: it must read, be old or new, and leave nothing beside it."""
    if set(os.listdir(slot)) != {name}:
        report.left_before_open += 1
    n = report.trials
    try:
        store.load(slot / name)
    except Exception as exc:  # noqa: BLE001 - a damaged file is what the test looks for
        report.bad.append(f"trial {n}: the file does not open: {exc}")
        return
    which = want.get(_digest(slot / name))
    if which is None:
        report.bad.append(f"trial {n}: the file is neither the old nor the new save")
    elif which == "old":
        report.old += 1
    else:
        report.new += 1
    stray = sorted(set(os.listdir(slot)) - {name})
    if stray:
        report.bad.append(f"trial {n}: left after the open: {', '.join(stray)}")
        for s in stray:
            (slot / s).unlink()
