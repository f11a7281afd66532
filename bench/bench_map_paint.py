"""Benchmark: how long the map takes to repaint its viewport with 1,000 and 10,000 units.

Builds a synthetic Leipzig-sized scenario (units in brigade lines and columns, with names,
commanders, woods, hills, rivers, roads and towns), shows it in a 1280 × 800 ``MapView``
offscreen and times ``viewport().grab()`` — a full software repaint of the viewport — at three
zooms: the whole table, a corps sector (names readable), and close up. Reports median and p95
in milliseconds; the first frame after each zoom (label placement) is reported separately.

Run:  QT_QPA_PLATFORM=offscreen /work/venv/bin/python bench/bench_map_paint.py [--frames 40]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtWidgets import QApplication  # noqa: E402
from shapely.geometry import LineString, Polygon  # noqa: E402

from battlestudio.document import Document  # noqa: E402
from battlestudio.model import (  # noqa: E402
    Arm,
    Commander,
    Formation,
    Scenario,
    ScenarioInfo,
    Side,
    TerrainFeature,
    TerrainKind,
    TownZone,
    Unit,
    default_town_polygon,
)
from battlestudio.replay.battle import Battle  # noqa: E402


def synthetic(n_units: int, seed: int = 1813) -> Scenario:
    """A scenario of ``n_units`` units in rows of brigades on a table sized to hold them."""
    rng = random.Random(seed)
    per_row = max(10, int((n_units / 2) ** 0.5 * 1.6))
    rows = -(-n_units // per_row)
    width, height = per_row * 24.0 + 40.0, rows * 18.0 + 60.0
    s = Scenario(info=ScenarioInfo(title=f"Synthetic {n_units}", table_width=width, table_height=height))
    s.sides = {
        "french": Side("french", "French", ("France",), "#2a4fb0"),
        "allied": Side("allied", "Allies", ("Russia", "Prussia", "Austria"), "#c03030"),
    }
    nations = {"french": ["France", "Saxony", "Poland", "Italy"], "allied": ["Russia", "Prussia", "Austria"]}
    arms = [Arm.INFANTRY] * 6 + [Arm.CAVALRY] * 2 + [Arm.ARTILLERY]
    forms = {
        Arm.INFANTRY: [Formation.LINE, Formation.COLUMN],
        Arm.CAVALRY: [Formation.LINE, Formation.COLUMN],
        Arm.ARTILLERY: [Formation.UNLIMBERED],
    }
    k = 0
    for r in range(rows):
        side = "french" if r < rows / 2 else "allied"
        facing = 90.0 if side == "french" else 270.0
        for c in range(per_row):
            if k >= n_units:
                break
            arm = rng.choice(arms)
            nation = rng.choice(nations[side])
            fw, fd = {Arm.INFANTRY: (2.0, 1.5), Arm.CAVALRY: (2.5, 3.0), Arm.ARTILLERY: (3.0, 4.0)}[arm]
            figures = {
                Arm.INFANTRY: rng.randint(12, 30),
                Arm.CAVALRY: rng.randint(3, 8),
                Arm.ARTILLERY: rng.randint(2, 4),
            }[arm]
            uid = f"u{k}"
            s.units[uid] = Unit(
                uid,
                f"{rng.randint(1, 120)}e "
                f"{'Ligne' if arm == Arm.INFANTRY else 'Cuirassiers' if arm == Arm.CAVALRY else 'Batterie'} {k}",
                side,
                nation,
                arm=arm,
                figures=figures,
                formation=rng.choice(forms[arm]),
                position=(30.0 + c * 24.0 + rng.uniform(-2, 2), 40.0 + r * 18.0 + rng.uniform(-2, 2)),
                facing=facing + rng.uniform(-10, 10),
                figure_width=fw,
                figure_depth=fd,
            )
            if k % 8 == 0:
                cid = f"c{k}"
                s.commanders[cid] = Commander(
                    cid,
                    f"General {k}",
                    side,
                    nation,
                    "brigade",
                    (30.0 + c * 24.0, 40.0 + r * 18.0 - 8.0 if side == "french" else 40.0 + r * 18.0 + 8.0),
                )
            k += 1
    for i in range(max(4, n_units // 100)):
        x, y = rng.uniform(0, width - 60), rng.uniform(0, height - 40)
        kind = rng.choice([TerrainKind.WOODS, TerrainKind.HILL, TerrainKind.MARSH])
        s.terrain[f"t{i}"] = TerrainFeature(
            f"t{i}",
            kind,
            Polygon([(x, y), (x + 50, y + 5), (x + 55, y + 35), (x + 5, y + 30)]),
            name=f"{kind.value} {i}",
            level=1 if kind == TerrainKind.HILL else None,
        )
    for i in range(max(2, n_units // 250)):
        y = rng.uniform(0, height)
        s.terrain[f"r{i}"] = TerrainFeature(
            f"r{i}",
            rng.choice([TerrainKind.RIVER, TerrainKind.ROAD]),
            LineString([(0, y), (width / 3, y + 20), (2 * width / 3, y - 10), (width, y + 5)]),
        )
        s.towns[f"town{i}"] = TownZone(f"town{i}", f"Town {i}", default_town_polygon((rng.uniform(20, width - 20), y)))
    return s


def time_frames(app: QApplication, view, frames: int) -> tuple[float, float, float]:
    """(first frame, median, p95) in ms of full viewport repaints."""
    app.processEvents()
    t0 = time.perf_counter()
    view.viewport().grab()
    first = (time.perf_counter() - t0) * 1000
    samples = []
    for _ in range(frames):
        t0 = time.perf_counter()
        view.viewport().grab()
        samples.append((time.perf_counter() - t0) * 1000)
    samples.sort()
    return first, statistics.median(samples), samples[int(0.95 * (len(samples) - 1))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=40)
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 10000])
    args = parser.parse_args()
    app = QApplication.instance() or QApplication([])
    from battlestudio.ui.map_view import MapView

    print(f"{'units':>6} {'view':<22} {'zoom px/cm':>10} {'first ms':>9} {'median ms':>10} {'p95 ms':>8}")
    for n in args.sizes:
        scenario = synthetic(n)
        view = MapView(Document(Battle(scenario)))
        view.resize(1280, 800)
        view.show()
        app.processEvents()
        view.fit_table()
        cases = [("whole table", None)]
        fit = view.zoom()
        cases += [("corps sector (x4)", fit * 4), ("close up (10 px/cm)", 10.0)]
        for label, zoom in cases:
            if zoom is not None:
                view.set_zoom(zoom)
                view.centre_on_table((scenario.info.table_width / 2, scenario.info.table_height / 4))
            first, med, p95 = time_frames(app, view, args.frames)
            print(f"{n:>6} {label:<22} {view.zoom():>10.2f} {first:>9.1f} {med:>10.1f} {p95:>8.1f}")
        view.close()
        view.deleteLater()
        app.processEvents()


if __name__ == "__main__":
    main()
