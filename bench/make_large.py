"""A deterministic generator of a Leipzig-scale game (issue 9), and of ten times that.

Scale 1 is Leipzig 1813 at brigade level: 1,000 units (500 a side), ~316 commanders (army,
corps, division generals), 400 terrain features (woods, hills, marshes, rivers, streams,
roads, hedges, fords), 60 town zones, 40 turns x 2 sides x Torden over Europa's 7 phases, and
at least 50,000 events of a played game's mix: moves, fire and casualties, formation changes,
melees with morale tests, routs, rallies, ammunition, standing orders with command rolls, a
reinforcement, the umpire's notes. Scale 10 multiplies units, commanders, terrain, towns and
events by ten (10,000 units, >= 500,000 events). The same seed gives the same file on every
machine (``session.synthetic`` uses no hash order).

Run: ``/work/venv/bin/python bench/make_large.py --scale 1 --out leipzig-x1.battle``
(``.battle`` or ``.battle.json``). ``run.py`` calls ``large_battle``/``cached_file`` itself.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from pathlib import Path

from shapely.geometry import LineString, Polygon

from battlestudio import store
from battlestudio.model.scenario import Scenario, ScenarioInfo
from battlestudio.model.terrain import TerrainFeature, TerrainKind, TownZone, default_town_polygon
from battlestudio.replay.battle import Battle
from battlestudio.session.synthetic import TOE_PARAMETERS, synthetic_game

UNITS = 1_000
"""Units at scale 1 (Leipzig 1813 at brigade level)."""
TERRAIN = 400
TOWNS = 60
TURNS = 40
MIN_EVENTS = 50_000
"""Events at scale 1 (at least)."""
GENERATOR = 4
"""Version of what this module generates, part of the cached file's name: raise it whenever the
generated battle changes, so no benchmark measures a stale file (2: army command zones read;
3: roll records as a recorded session writes them, so the luck analysis reads them; 4: played
through the Torden over Europa ruleset's actions)."""

CACHE = Path(__file__).resolve().parent / ".cache"


def add_terrain(s: Scenario, features: int, towns: int, seed: int) -> None:
    """Add ``features`` terrain features and ``towns`` town zones to ``s``, deterministically.

    Areas (woods, hills with levels, marshes, built-up patches) are irregular polygons of
    20-60 cm; linear features (rivers, streams, roads, hedges) cross the table in 4-8 bends;
    fords and bridges are small squares. Towns are 15 x 15 cm zones (Torden over Europa 4.8).
    """
    rng = random.Random(seed)
    w, h = s.info.table_width, s.info.table_height
    areas = [TerrainKind.WOODS] * 5 + [TerrainKind.HILL] * 4 + [TerrainKind.MARSH, TerrainKind.BUILT_UP]
    lines = [
        TerrainKind.RIVER,
        TerrainKind.STREAM,
        TerrainKind.STREAM,
        TerrainKind.ROAD,
        TerrainKind.ROAD,
        TerrainKind.ROAD,
        TerrainKind.HEDGE,
    ]
    for i in range(features):
        fid = f"t{i + 1}"
        roll = rng.random()
        if roll < 0.8:
            kind = rng.choice(areas)
            cx, cy, r = rng.uniform(10, w - 10), rng.uniform(10, h - 10), rng.uniform(10, 30)
            pts = [
                (cx + r * rng.uniform(0.6, 1.0) * math.cos(a), cy + r * rng.uniform(0.6, 1.0) * math.sin(a))
                for a in (2 * math.pi * k / 9 for k in range(9))
            ]
            geom = Polygon(pts)
            level = rng.randint(1, 3) if kind is TerrainKind.HILL else None
            s.terrain[fid] = TerrainFeature(
                fid, kind, geom, name=f"{kind.value.replace('_', ' ')} {i + 1}", level=level
            )
        elif roll < 0.95:
            kind = rng.choice(lines)
            x, y = rng.uniform(0, w), rng.uniform(0, h)
            heading = rng.uniform(0, 2 * math.pi)
            pts = [(x, y)]
            for _ in range(rng.randint(4, 8)):
                heading += rng.uniform(-0.5, 0.5)
                step = rng.uniform(30, 90)
                x = min(max(x + step * math.cos(heading), 0.0), w)
                y = min(max(y + step * math.sin(heading), 0.0), h)
                pts.append((x, y))
            if len(set(pts)) < 2:
                pts = [(0.0, y), (w, y)]
            width = {TerrainKind.RIVER: 4.0, TerrainKind.STREAM: 1.5, TerrainKind.ROAD: 2.0}.get(kind)
            s.terrain[fid] = TerrainFeature(fid, kind, LineString(pts), name=f"{kind.value} {i + 1}", width=width)
        else:
            kind = rng.choice((TerrainKind.FORD, TerrainKind.BRIDGE))
            cx, cy = rng.uniform(5, w - 5), rng.uniform(5, h - 5)
            s.terrain[fid] = TerrainFeature(
                fid,
                kind,
                Polygon([(cx - 2, cy - 2), (cx + 2, cy - 2), (cx + 2, cy + 2), (cx - 2, cy + 2)]),
                name=f"{kind.value} {i + 1}",
            )
    for i in range(towns):
        tid = f"town{i + 1}"
        s.towns[tid] = TownZone(
            tid, f"Town {i + 1}", default_town_polygon((rng.uniform(10, w - 10), rng.uniform(10, h - 10)))
        )


def large_battle(scale: int = 1, seed: int = 1813) -> Battle:
    """The Leipzig-scale battle at ``scale`` (1 or 10; any positive int works).

    Raises
    ------
    ValueError
        for ``scale`` < 1.
    """
    if scale < 1:
        raise ValueError(f"scale must be >= 1, got {scale}")
    per_side = UNITS * scale // 2
    # synthetic_game(target_events=...) calibrates on a trial at activity 1.0, the same game
    # every time: played once here, not once per try (the same activity, so the same events)
    trial = len(synthetic_game(turns=TURNS, units_per_side=per_side, seed=seed, command_orders=True).events)
    target = int(MIN_EVENTS * scale * 1.06)  # the calibration lands a few per cent short
    while True:
        game = synthetic_game(
            turns=TURNS,
            units_per_side=per_side,
            seed=seed,
            activity=1.0 * (target / max(1, trial)),
            command_orders=True,
        )
        if len(game.events) >= MIN_EVENTS * scale:
            break
        target = int(target * 1.05)
    s = game.scenario
    s.info = ScenarioInfo(
        title=f"Leipzig-scale synthetic battle (x{scale})",
        date="1813-10-16",
        place="Leipzig",
        ruleset="toe",
        parameters={**s.info.parameters, **TOE_PARAMETERS},
        table_width=s.info.table_width,
        table_height=s.info.table_height,
        turns=TURNS,
    )
    add_terrain(s, TERRAIN * scale, TOWNS * scale, seed)
    return Battle(s, game.events)


def cached_file(scale: int, seed: int = 1813, suffix: str = ".battle", log=print) -> Path:
    """The path of the generated file for ``scale`` and ``seed`` in ``bench/.cache``, writing it
    first if it is not there yet (a generated game is the same on every run)."""
    path = CACHE / f"leipzig-x{scale}-s{seed}-g{GENERATOR}{suffix}"
    if not path.exists():
        CACHE.mkdir(exist_ok=True)
        t0 = time.perf_counter()
        battle = large_battle(scale, seed)
        log(
            f"generated the x{scale} battle ({len(battle.events)} events) in {time.perf_counter() - t0:.1f} s; "
            f"writing {path}"
        )
        store.save(battle, path)
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=1, help="1 (Leipzig) or 10 (ten times Leipzig)")
    ap.add_argument("--seed", type=int, default=1813)
    ap.add_argument("--out", type=Path, required=True, help="a .battle or .battle.json file to write")
    args = ap.parse_args(argv)
    if args.scale < 1:
        ap.error(f"--scale must be a positive integer, got {args.scale}")
    try:
        store.format_of(args.out)
    except ValueError as exc:
        ap.error(str(exc))
    t0 = time.perf_counter()
    battle = large_battle(args.scale, args.seed)
    s = battle.scenario
    print(
        f"x{args.scale}: {len(s.units)} units, {len(s.commanders)} commanders, {len(s.terrain)} terrain features, "
        f"{len(s.towns)} town zones, {battle.turns_logged} turns, {len(battle.events)} events "
        f"(generated in {time.perf_counter() - t0:.1f} s)"
    )
    try:
        store.save(battle, args.out)
    except (OSError, store.BattleFileError) as exc:
        print(f"error: cannot write {args.out}: {exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.out} ({os.path.getsize(args.out) / 2**20:.1f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
