"""Benchmark: the command overlay's update after one general moves, on Jena's size.

Loads ``scenarios/jena-1806.battle.json`` (108 units, 39 commanders on a 480 × 300 cm table),
adds any Torden over Europa parameter the engine needs that the file lacks under the engine's
name (older files carried them as ``toe.placeholder.*``, see notes/toe-parameters.md), shows it in a
1280 × 800 ``MapView`` offscreen with the command overlay bound to the document, then drags a
corps general (Lannes) and the C-in-C about: each step pushes one ``MoveRecords`` edit, as the
select tool does per mouse move. Reports, in milliseconds (median and p95):

* ``overlay``  — the overlay's own share of each move (its document-change handler: the moved
  general's part of the command picture and his items; ``update`` says how many moves were
  drawn incrementally);
* ``full``     — a full recompute of the same state (``refresh``: the whole command picture
  from the engine and every item), what a move cost before the overlay updated incrementally;
* ``edit``     — the whole edit: document change, map items and overlay (what one mouse move costs
  before painting);
* ``edit+paint`` — the same plus a full software repaint of the viewport (``grab``);
* ``repaint`` with the overlay shown and hidden — what drawing the overlay adds.

Target: ``edit`` ≤ 16 ms (one frame at 60 Hz).

Run:  QT_QPA_PLATFORM=offscreen /work/venv/bin/python bench/bench_overlay.py [--steps 200]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication  # noqa: E402

from battlestudio import store  # noqa: E402
from battlestudio.document import Document  # noqa: E402
from battlestudio.edits import MoveRecords  # noqa: E402
from battlestudio.ui.command_overlay import CommandOverlay  # noqa: E402
from battlestudio.ui.map_view import MapView  # noqa: E402

JENA = Path(__file__).resolve().parents[1] / "scenarios" / "jena-1806.battle.json"
ENGINE_KEYS = {  # notes/toe-parameters.md, "Mapping from the names jena-1806.battle.json uses today"
    "toe.zones_cm.army": [20, 40, "60+"],
    "toe.zones_cm.c_in_c": [20, 40, "60+"],
    "toe.command_thresholds": "toe.placeholder.table1.success_min_d10_by_zone",
    "toe.command_modifiers": {},
    "toe.corps_command_distance_cm": "toe.placeholder.corps_command_distance_cm",
    "toe.division_command_distance_cm": "toe.placeholder.division_command_distance_cm",
}


def jena_document() -> Document:
    battle = store.load(JENA)
    info = battle.scenario.info
    params = dict(info.parameters)
    for key, value in ENGINE_KEYS.items():  # only where the file lacks the engine's own key
        if key not in params and (not isinstance(value, str) or value in params):
            params[key] = params[value] if isinstance(value, str) else value
    battle.scenario.info = replace(info, parameters=params)
    return Document(battle)


CLOCK = [time.perf_counter]
"""The clock of every measure: wall time, or this process's CPU time with ``--cpu`` (steadier on a
shared machine; offscreen painting runs in this thread)."""


def stats(ms: list[float]) -> str:
    ms = sorted(ms)
    return (
        f"median {statistics.median(ms):6.2f} ms   p95 {ms[int(0.95 * (len(ms) - 1))]:6.2f} ms   max {ms[-1]:6.2f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--cpu", action="store_true", help="measure this process's CPU time, not wall time")
    args = ap.parse_args()
    if args.cpu:
        CLOCK[0] = time.process_time
    app = QApplication.instance() or QApplication([])
    doc = jena_document()
    view = MapView(doc)
    view.resize(1280, 800)
    view.show()
    overlay = CommandOverlay(view.map_scene)
    overlay.bind(doc)
    view.fit_table()
    app.processEvents()
    s = doc.scenario
    print(
        f"Jena: {len(s.units)} units, {len(s.commanders)} commanders; overlay: {len(overlay.items())} items, "
        f"{len(overlay.picture.findings)} command findings, {len(overlay.picture.out_of_command())} out of command"
        + (f"; refused: {overlay.message}" if overlay.message else "")
    )
    rng = random.Random(1806)
    handler = overlay._on_changed
    t_overlay: list[float] = []

    def timed_handler(changes: list) -> None:
        t = CLOCK[0]()
        handler(changes)
        t_overlay.append((CLOCK[0]() - t) * 1e3)

    doc.changed.disconnect(handler)
    doc.changed.connect(timed_handler)
    for general in ("french-v-corps", "french-imperial-guard"):
        start = s.commanders[general].position
        t_edit, t_paint, t_full, kinds = [], [], [], []
        t_overlay.clear()
        for _ in range(args.steps):
            pos = (start[0] + rng.uniform(-40, 40), start[1] + rng.uniform(-40, 40))
            t0 = CLOCK[0]()
            doc.push(MoveRecords("commanders", {general: pos}, None, "Move", merge_key=("bench", general)))
            t1 = CLOCK[0]()
            kinds.append(getattr(overlay, "last_update", "?"))
            view.viewport().grab()
            t2 = CLOCK[0]()
            t_edit.append((t1 - t0) * 1e3)
            t_paint.append((t2 - t0) * 1e3)
        for _ in range(args.steps // 4):
            t0 = CLOCK[0]()
            overlay.refresh()
            t_full.append((CLOCK[0]() - t0) * 1e3)
        doc.undo()
        print(
            f"\nmoving {s.commanders[general].name} ({args.steps} steps, {kinds.count('moved')} drawn incrementally):"
        )
        print(f"  overlay     {stats(t_overlay)}")
        print(f"  full        {stats(t_full)}")
        print(f"  edit        {stats(t_edit)}")
        print(f"  edit+paint  {stats(t_paint)}")
    for visible in (True, False):  # what the overlay adds to a full repaint
        overlay.set_visible(visible)
        t_grab = []
        for _ in range(args.steps // 2):
            t0 = CLOCK[0]()
            view.viewport().grab()
            t_grab.append((CLOCK[0]() - t0) * 1e3)
        print(f"\nrepaint, overlay {'shown' if visible else 'hidden'}:  {stats(t_grab)}")
    view.close()


if __name__ == "__main__":
    main()
