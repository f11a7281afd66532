"""Benchmark of club play on a PostgreSQL server (issue 25).

Measures, on a throwaway server of this machine (``tests/club/pgserver``: initdb + pg_ctl on a
temporary folder; or ``--url`` of a running server, where it publishes new battles):

* append one action of one phase's events (``ClubConnection.append_action``), p50/p95/max, on
  the Leipzig-scale battle (``make_large.py --scale 1``: ~91 events a phase);
* a second connection's delay until it has read those events (LISTEN, ``poll`` woken, then
  ``events_after``), from the moment ``append_action`` returned and from when it was called;
* opening that battle (1,000 units, 51,203 events) from the server to a loaded Battle
  (``load_club``: every value checked, every event built), beside ``store.load`` of the same
  ``.battle`` file, and to the lazy game log a window builds from it;
* opening it in the real window (``MainWindow.club.open_url``, offscreen) to the map's first
  paint, beside the same window opening the ``.battle`` file (``bench_open.open_in_window``);
* publishing it.

Run: ``.venv/bin/python bench/bench_club.py [--actions 100] [--repeat 5] [--url postgresql://...]``.
Prints a table; asserts nothing.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from itertools import groupby
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from battlestudio import store  # noqa: E402
from battlestudio.replay.battle import Battle  # noqa: E402
from battlestudio.replay.game import GameLog  # noqa: E402
from battlestudio.store.club import ClubConnection, ClubURL, load_club, serve_init  # noqa: E402
from battlestudio.store.club.battles import publish_battle  # noqa: E402


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def ms(values: list[float]) -> str:
    return f"p50 {pct(values, 50) * 1e3:7.1f}  p95 {pct(values, 95) * 1e3:7.1f}  max {max(values) * 1e3:7.1f} ms"


def window_first_frames(url: str, repeat: int) -> list[float]:
    """Seconds from ``MainWindow.club.open_url(url)`` to the end of the map's first paint after it,
    ``repeat`` times, each in a fresh window (offscreen)."""
    import os
    import tempfile

    from PySide6.QtCore import QEvent, QObject
    from PySide6.QtWidgets import QApplication, QMessageBox

    from battlestudio.ui.main_window import MainWindow
    from battlestudio.ui.recovery import RecoveryStore
    from battlestudio.ui.settings import Settings

    app = QApplication.instance() or QApplication([])
    for kind in ("critical", "warning", "information", "question"):  # nothing may block
        setattr(QMessageBox, kind, staticmethod(lambda *a, **k: QMessageBox.StandardButton.Discard))
    tmp = tempfile.mkdtemp(prefix="bench-club-")

    class Painted(QObject):
        def __init__(self) -> None:
            super().__init__()
            self.done_at = 0.0

        def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt API
            if event.type() == QEvent.Type.Paint and not self.done_at:
                obj.removeEventFilter(self)
                QApplication.sendEvent(obj, event)  # paint now, then note the time
                self.done_at = time.perf_counter()
                return True
            return False

    out = []
    for i in range(repeat):
        w = MainWindow(Settings.at(os.path.join(tmp, f"s{i}.ini")), RecoveryStore(os.path.join(tmp, f"r{i}")))
        w.resize(1280, 800)
        w.show()
        for _ in range(5):
            app.processEvents()
        spy = Painted()
        w.map_view.viewport().installEventFilter(spy)
        t0 = time.perf_counter()
        assert w.club.open_url(url, f"bench{i}") is not None
        while not spy.done_at:
            app.processEvents()
        out.append(spy.done_at - t0)
        w.club.close()
        w.close()
        w.deleteLater()
        app.processEvents()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--actions", type=int, default=100, help="phases appended (default 100)")
    ap.add_argument("--repeat", type=int, default=5, help="opens measured (default 5)")
    ap.add_argument("--url", help="a running club server (default: a throwaway one)")
    args = ap.parse_args()
    from make_large import cached_file

    path = cached_file(1)
    server = None
    if args.url:
        base = args.url
    else:
        from tests.club import pgserver

        server = pgserver.start()
        base = server.url()
    try:
        serve_init(base)
        battle = store.load(path)
        print(f"{path.name}: {len(battle.scenario.units)} units, {len(battle.events)} events")
        t0 = time.perf_counter()
        whole = publish_battle(battle, ClubURL.parse(base))
        print(f"publish (whole battle)        {time.perf_counter() - t0:7.2f} s")
        url = ClubURL.parse(base).with_battle(whole)

        opens, files, logs = [], [], []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            loaded = load_club(url)
            opens.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            GameLog.lazy_from_battle(loaded)
            logs.append(time.perf_counter() - t0 + opens[-1])
            t0 = time.perf_counter()
            store.load(path)
            files.append(time.perf_counter() - t0)
        assert len(loaded.events) == len(battle.events)
        print(f"open from the server (load_club)   median {statistics.median(opens):.2f} s  min {min(opens):.2f} s")
        print(f"  + lazy GameLog                   median {statistics.median(logs):.2f} s  min {min(logs):.2f} s")
        print(f"store.load of the .battle file     median {statistics.median(files):.2f} s  min {min(files):.2f} s")
        firsts = window_first_frames(str(url), args.repeat)
        print(f"window: club URL -> first map paint median {statistics.median(firsts):.2f} s  min {min(firsts):.2f} s")
        from bench_open import open_in_window

        local, _ = open_in_window(path, args.repeat)
        print(f"window: .battle -> first map paint  median {statistics.median(local):.2f} s  min {min(local):.2f} s")

        phases = [list(g) for _, g in groupby(battle.events, key=lambda e: (e.turn, e.side, e.phase))]
        start = len(phases) - args.actions
        head = [e for ph in phases[:start] for e in ph]
        game = publish_battle(Battle(battle.scenario, head), ClubURL.parse(base))
        gurl = ClubURL.parse(base).with_battle(game)
        writer, follower = ClubConnection(gurl, "writer"), ClubConnection(gurl, "follower")
        follower.listen()
        seen_at: dict[int, float] = {}
        stop = threading.Event()

        def follow() -> None:
            last = len(head) - 1
            while not stop.is_set():
                if follower.poll(timeout=0.5) is not None:
                    news = follower.events_after(last)
                    now = time.perf_counter()
                    for seq, _ in news:
                        seen_at[seq] = now
                    if news:
                        last = news[-1][0]

        thread = threading.Thread(target=follow)
        thread.start()
        appends, called, returned, sizes = [], [], [], []
        for ph in phases[start:]:
            t0 = time.perf_counter()
            seqs = writer.append_action(ph)
            t1 = time.perf_counter()
            appends.append(t1 - t0)
            called.append((seqs[-1], t0))
            returned.append((seqs[-1], t1))
            sizes.append(len(ph))
            time.sleep(0.05)  # an umpire does not record 20 phases a second
        deadline = time.monotonic() + 10
        while returned[-1][0] not in seen_at and time.monotonic() < deadline:
            time.sleep(0.01)
        stop.set()
        thread.join()
        after_return = [seen_at[s] - t for s, t in returned if s in seen_at]
        after_call = [seen_at[s] - t for s, t in called if s in seen_at]
        print(
            f"append one phase ({min(sizes)}-{max(sizes)} events, median {statistics.median(sizes):.0f}), "
            f"{len(appends)} actions:"
        )
        print(f"  append_action                   {ms(appends)}")
        print(f"  second window has read them, after append returned  {ms(after_return)}")
        print(f"  second window has read them, after append was called {ms(after_call)}")
        print(f"  actions seen by the follower: {len(after_return)} of {len(returned)}")
        writer.close()
        follower.close()
    finally:
        if server is not None:
            server.stop()


if __name__ == "__main__":
    main()
