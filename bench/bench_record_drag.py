"""Benchmark of a drag while a game is recorded (no window): Jena 1806, recording from turn 1.

Times N mouse moves of one drag, for one unit and for a selection of ten units and a general,
through whatever the tree under test offers: ``PlayDocument.move`` (the gesture verb), or on a
tree without it the old path (``move_edit`` built by the tool and pushed: the document does
the edit on its view, reads, undoes, diffs and translates it). Also counts the document's
``changed`` announcements per mouse move (each one makes the map and docks re-read).

Run on two trees for an A/B (``PYTHONPATH`` picks the tree):
``PYTHONPATH=src python bench/bench_record_drag.py [steps] [repeat]``.
"""

from __future__ import annotations

import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

from battlestudio import store
from battlestudio.document import Document
from battlestudio.replay.battle import Battle
from battlestudio.session import GameSession

try:  # the gesture verbs
    from battlestudio.play.document import PlayDocument

    def drag_step(play, ids, dx, dy, key, originals) -> None:
        play.move(ids, dx, dy, key)

    PATH = "verb: PlayDocument.move"
except ImportError:  # the old path: the tool builds an edit, the document translates it
    from battlestudio.ui.play.play_document import PlayDocument  # type: ignore[no-redef]
    from battlestudio.ui.tools.moves import move_edit

    def drag_step(play, ids, dx, dy, key, originals) -> None:
        play.push(move_edit(play.scenario, originals, dx, dy, merge_key=key))

    PATH = "old: push(move_edit) -> do/read/undo/diff/translate"

JENA = Path(__file__).resolve().parents[1] / "scenarios" / "jena-1806.battle.json"


def recording() -> PlayDocument:
    """Jena without its recorded game, the game started (turn 1, French orders)."""
    b = store.load(JENA)
    s = b.scenario
    s.info = replace(s.info, parameters={**s.info.parameters, "initiative": "french"})
    base = Document(Battle(s, []))
    session = GameSession(base.battle, seed=1806)
    session.start()
    play = PlayDocument(base, session)
    assert play.recording
    return play


def one_drag(ids: list[str], steps: int) -> tuple[float, int]:
    """ms per mouse move of a ``steps``-move drag of ``ids``; ``changed`` signals per move."""
    play = recording()
    originals = {i: (("units" if i in play.scenario.units else "commanders"), play.scenario.record(i)) for i in ids}
    emitted = [0]
    play.changed.connect(lambda _c: emitted.__setitem__(0, emitted[0] + 1))
    n = len(play.log)
    t0 = time.perf_counter()
    for k in range(1, steps + 1):
        drag_step(play, ids, 0.2 * k, 0.1 * k, ("move", 1), originals)
    ms = (time.perf_counter() - t0) * 1000.0 / steps
    assert len(play.log) - n == len(ids), "one Moved per record"
    play.close()
    return ms, round(emitted[0] / steps)


def main(steps: int = 200, repeat: int = 5) -> None:
    play = recording()
    french = sorted(u for u, r in play.scenario.units.items() if r.side == "french")
    general = sorted(c for c, r in play.scenario.commanders.items() if r.side == "french")[0]
    play.close()
    print(f"{PATH}; Jena, {steps} mouse moves per drag, {repeat} runs (min / median ms per move)")
    for label, ids in (("1 unit", french[:1]), ("10 units + 1 general", french[:10] + [general])):
        runs = [one_drag(ids, steps) for _ in range(repeat)]
        times = [r[0] for r in runs]
        print(f"  {label:<22s} {min(times):7.3f} / {statistics.median(times):7.3f} ms   changed per move: {runs[0][1]}")


if __name__ == "__main__":
    main(*(int(a) for a in sys.argv[1:3]))
