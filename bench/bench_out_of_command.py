"""Benchmark: out of command for a whole army, every bundled ruleset, at Leipzig scale (issue 9).

Takes the generated Leipzig battle (``make_large.py``; x1: 1,000 units and 316 commanders,
x10: ten times it), folds its events to the start of the middle phase (the state
``run.py``'s ``out_of_command`` measures) and times ``ruleset.out_of_command(state, params)``:

* ``toe`` on that state with the battle's own parameters (Torden over Europa 2.4–2.5), as
  ``run.py`` calls it (the same state again and again: every finding is reused), plus three
  variants: ``toe cold`` with the per-record caches (footprints, general bases, superiors'
  sentence parts, kept findings) emptied before each call — the first check of a state whose
  records were never measured, e.g. after a far jump; ``toe step``, each call on the state
  one phase later than the call before (what a replay step forward costs: the records that
  phase changed are measured again); and ``toe + texts``, which also reads every finding's ``text`` (the
  sentences are written when first read);
* ``gda``, ``regimental``, ``belle-alliance`` on the same armies dressed in their terms
  (General d'Armée: the division generals become brigadiers; Regimental: the army generals
  become the HQs; Belle Alliance: a scenario command distance of 15 cm), with their own
  defaults otherwise.

Each call is preceded by ``gc.collect()`` as in ``run.py``. Prints, per ruleset, the findings
and those out of command, then median and min in ms over ``--repeat`` calls; asserts nothing.

Run:  /work/venv/bin/python bench/bench_out_of_command.py [--scale 1|10] [--repeat N]
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
from itertools import pairwise
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any
from collections.abc import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_large import cached_file  # noqa: E402

from battlestudio import store  # noqa: E402
from battlestudio.model import units as model_units  # noqa: E402
from battlestudio.replay.state import GameState  # noqa: E402
from battlestudio.rules import get_ruleset  # noqa: E402
from battlestudio.rules.toe import command as toe_command  # noqa: E402
from battlestudio.rules.toe import common as toe_common  # noqa: E402
from battlestudio.rules.toe import findings as toe_findings  # noqa: E402


def mid_game(path: Path, phases: int) -> tuple[list[GameState], dict[str, Any]]:
    """The states at the start of the middle phase and of the ``phases`` phases after it (as
    ``GameLog.phase_starts()``: just after each phase's first event), and the scenario's
    parameters. Folds the events from the start (no game log: at x10 building one takes
    minutes)."""
    battle = store.load(path)
    starts, last = [], None
    for i, e in enumerate(battle.events):
        key = (e.turn, e.side, e.phase)
        if key != last:
            starts.append(i + 1)
            last = key
    mid = len(starts) // 2
    state = GameState.from_scenario(battle.scenario)
    for e in battle.events[: starts[mid]]:
        state = e.apply(state)
    states = [state]
    for k in range(mid, min(mid + phases, len(starts) - 1)):
        for e in battle.events[starts[k] : starts[k + 1]]:
            state = e.apply(state)
        states.append(state)
    return states, dict(battle.scenario.info.parameters)


class Walk:
    """Stands for a run of states: each call of the measure gets the next one, as a replay
    steps forward phase by phase (the records each phase changed are new to the check)."""

    def __init__(self, states: list[GameState]) -> None:
        self.states, self.k = states, 0

    def next(self) -> GameState:
        self.k = (self.k + 1) % len(self.states)
        return self.states[self.k]


def dressed(state: GameState, echelons: dict[str, str]) -> GameState:
    """The same armies with commanders' echelons renamed (``{old: new}``)."""
    return state.evolve(
        commanders={cid: replace(c, echelon=echelons.get(c.echelon, c.echelon)) for cid, c in state.commanders.items()}
    )


def empty_caches() -> None:
    model_units._FOOTPRINTS.clear()
    toe_common._BASES.clear()
    toe_findings._CHIEFS.clear()
    toe_command._KNOWN.clear()


def timed(fn: Callable[[], Any], repeat: int, before: Callable[[], None] | None = None) -> tuple[float, float]:
    """Median and min in ms of ``repeat`` calls, each after ``before()`` and a full collection."""
    fn()
    out = []
    for _ in range(repeat):
        if before is not None:
            before()
        gc.collect()
        t0 = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t0)
    return statistics.median(out) * 1e3, min(out) * 1e3


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, choices=(1, 10), default=1)
    ap.add_argument("--repeat", type=int, default=None, help="calls per measure (default 20 at x1, 5 at x10)")
    args = ap.parse_args(argv)
    repeat = args.repeat or (20 if args.scale == 1 else 5)
    t0 = time.perf_counter()
    states, params = mid_game(cached_file(args.scale), repeat + 3)  # a new state for every call
    state = states[0]
    changed = statistics.median(
        sum(1 for u in b.units.values() if a.units.get(u.id) is not u) for a, b in pairwise(states)
    )
    print(
        f"x{args.scale}: {len(state.units)} units, {len(state.commanders)} commanders; mid-game state in "
        f"{time.perf_counter() - t0:.1f} s (a phase changes {changed:g} units, median); load average "
        f"{os.getloadavg()[0]:.2f}; {repeat} calls per measure"
    )
    toe = get_ruleset("toe")
    worlds: list[tuple[str, Any, GameState, dict[str, Any], Callable[[], None] | None, bool]] = [
        ("toe", toe, state, params, None, False),
        ("toe cold", toe, state, params, empty_caches, False),
        ("toe + texts", toe, state, params, None, True),
        ("toe step", toe, Walk(states), params, None, False),
        ("gda", get_ruleset("gda"), dressed(state, {"division": "brigade"}), {}, None, False),
        ("regimental", get_ruleset("regimental"), dressed(state, {"army": "c_in_c"}), {}, None, False),
        ("belle-alliance", get_ruleset("belle-alliance"), state, {"command_distance_cm": 15.0}, None, False),
    ]
    print(f"{'ruleset':<16} {'findings':>8} {'out':>6} {'median ms':>10} {'min ms':>9}")
    for name, ruleset, world, prm, before, texts in worlds:

        def call(ruleset=ruleset, world=world, prm=prm, texts=texts) -> Any:
            found = ruleset.out_of_command(world.next() if isinstance(world, Walk) else world, prm)
            if texts:
                for f in found:
                    _ = f.text  # word the lazily written sentence: part of what is timed
            return found

        try:
            found = call()
        except Exception as exc:  # noqa: BLE001 - a ruleset that refuses this world is reported, not fatal
            print(f"{name:<16} refused: {type(exc).__name__}: {exc}")
            continue
        med, low = timed(call, repeat, before)
        out = sum(1 for f in found if not f.within)
        print(f"{name:<16} {len(found):>8} {out:>6} {med:>10.2f} {low:>9.2f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
