"""Benchmark of the editing core and the docks on a Leipzig-sized order of battle.

Builds a synthetic scenario of ~1,000 units under ~300 commanders (2 sides × 5 corps ×
4 divisions × ~6 brigades … in the shape of Leipzig 1813 at brigade level), then times:
pushing a drag of 100 merged moves, undo/redo of a reattachment, the OOB tree model's rebuild,
the problem checks (the Problems dock's, without the game log), and one autosave.
Run: ``QT_QPA_PLATFORM=offscreen python bench/bench_editor_core.py [scale]``.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

from battlestudio.document import Document
from battlestudio.edits import MoveRecords, Reattach
from battlestudio.model import Commander, Scenario, ScenarioInfo, Side, Unit
from battlestudio.validate import find_problems
from battlestudio.replay.battle import Battle


def leipzig_like(scale: int = 1) -> Scenario:
    """~1,000 × scale units and ~300 × scale commanders on a 600 × 300 cm table."""
    s = Scenario(info=ScenarioInfo(title="Synthetic Leipzig", table_width=600.0 * scale, table_height=300.0))
    s.sides = {"french": Side("french", "France"), "allied": Side("allied", "Allies", colour="#c03030")}
    n = 0
    for side, y0, facing in (("french", 40.0, 90.0), ("allied", 260.0, 270.0)):
        army = f"{side}-army"
        s.commanders[army] = Commander(army, f"{side} army", side, echelon="army", position=(300.0, y0))
        for c in range(7 * scale):
            corps = f"{side}-c{c}"
            s.commanders[corps] = Commander(corps, f"Corps {c}", side, echelon="corps", position=(40.0 + 80 * c, y0))
            s.oob.add(army, corps)
            for d in range(4):
                div = f"{corps}-d{d}"
                s.commanders[div] = Commander(div, f"Division {c}.{d}", side, echelon="division")
                s.oob.add(corps, div)
                for b in range(18):
                    uid = f"u{n}"
                    n += 1
                    x = 10.0 + (n * 13.0) % (600.0 * scale - 20.0)
                    y = y0 + (-1 if side == "french" else 1) * (10 + (b % 6) * 6)
                    s.units[uid] = Unit(uid, f"Bde {n}", side, figures=12, men=1200, position=(x, y), facing=facing)
                    s.oob.add(div, uid)
    return s


def timed(label: str, fn, repeat: int = 1) -> float:
    t0 = time.perf_counter()
    for _ in range(repeat):
        fn()
    ms = (time.perf_counter() - t0) * 1000.0 / repeat
    print(f"{label:<48s} {ms:9.2f} ms")
    return ms


def main(scale: int = 1) -> None:
    s = leipzig_like(scale)
    doc = Document(Battle(s))
    print(f"{len(s.units)} units, {len(s.commanders)} commanders")
    uid = next(iter(s.units))

    def drag() -> None:
        for i in range(100):
            doc.push(MoveRecords("units", {uid: (100.0 + i, 50.0)}, None, "Move", merge_key="bench"))

    timed("drag: 100 merged MoveRecords pushes", drag)
    doc.set_selection({uid})
    timed("one move push with a selection (prune)", lambda: doc.push(MoveRecords("units", {uid: (5.0, 5.0)})), 200)
    timed("reattach push + undo", lambda: (doc.push(Reattach(uid, "allied-c0-d0", "x")), doc.undo()), 50)
    from battlestudio.rules import available_rulesets

    timed("ruleset registry load (the first check's ruleset terms)", available_rulesets)
    timed("find_problems", lambda: find_problems(s), 3)

    from PySide6.QtWidgets import QApplication

    from battlestudio.ui.panels.oob_model import OobModel

    QApplication.instance() or QApplication([])
    model = OobModel(doc)
    timed("OobModel rebuild (tree reset)", model._rebuild, 10)
    from battlestudio import store

    with tempfile.TemporaryDirectory() as d:
        timed("autosave write (.battle.json)", lambda: store.save(doc.battle, Path(d) / "a.battle.json"), 3)


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
