"""kill -9 during a save of the bundled Jena 1806 battle (108 units, a recorded 40-turn game of
3,503 events), in each format: the next open finds the old or the new file, never a damaged
one, and leaves no temp or journal file beside it (issue 27). CI runs ``CI_KILLS`` kills per
format, two saving processes at a time (36 s for .battle and 11 s for .battle.json with the
2 cores at a load of 7; a save of Jena as .battle takes 0.2 s on an idle core);
``bench/bench_kill_save.py`` runs the 100 per format of the issue."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from battlestudio import store
from tests.store.kill_save import kill_saves

CI_KILLS = 20
JENA = Path(__file__).resolve().parents[2] / "scenarios" / "jena-1806.battle.json"


@pytest.mark.skipif(not hasattr(__import__("os"), "fork") or sys.platform == "darwin", reason="needs os.fork")
@pytest.mark.parametrize("name", ["jena.battle", "jena.battle.json"])
def test_kill_during_save_leaves_old_or_new_and_nothing_beside_it(tmp_path, name):
    report = kill_saves(store.load(JENA), tmp_path, name, CI_KILLS, parallel=2)
    assert report.bad == []
    assert report.trials == report.killed == CI_KILLS
    assert report.old + report.new == CI_KILLS
    assert report.old > 0 and report.new > 0  # the kills fell before and after a save's replace
    if name.endswith(".battle"):  # building the SQLite file takes most of a save: temp files were left
        assert report.left_before_open > 0
