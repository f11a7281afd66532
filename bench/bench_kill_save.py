"""kill -9 during saves of the bundled Jena 1806 battle, in each format (issue 27): how many
kills, how many left temp files that the next open removed, how many files were old or new,
how many went wrong (a stray file after the open, a damaged file: should be 0), and the time.

    PYTHONPATH=src python bench/bench_kill_save.py [--kills 100] [--parallel 2]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT)]

from battlestudio import store  # noqa: E402
from tests.store.kill_save import kill_saves  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kills", type=int, default=100, help="kills per format (default 100)")
    ap.add_argument("--parallel", type=int, default=2, help="saving processes at once (default 2)")
    args = ap.parse_args()
    battle = store.load(ROOT / "scenarios" / "jena-1806.battle.json")
    print(f"{'format':<14}{'kills':>7}{'left temp':>11}{'old':>6}{'new':>6}{'bad':>5}{'seconds':>9}")
    for name in ("jena.battle", "jena.battle.json"):
        with tempfile.TemporaryDirectory() as tmp:
            r = kill_saves(battle, Path(tmp), name, args.kills, parallel=args.parallel)
        print(
            f"{name[4:]:<14}{r.killed:>7}{r.left_before_open:>11}{r.old:>6}{r.new:>6}{len(r.bad):>5}{r.seconds:>9.1f}"
        )
        for line in r.bad[:10]:
            print("   ", line)


if __name__ == "__main__":
    main()
