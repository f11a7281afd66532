"""The map drawn from unit and commander arrays (``ui.unit_arrays``, ``ui.commander_arrays``)
looks like the map drawn one item at a time (the older ``items`` path): Jena and the
Leipzig-scale battle (``bench/make_large.py`` ``--scale 1``) in the middle of their replays, at
the whole table, 4 px/cm and close up; the commanders' flags and dots alone too."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from PySide6.QtGui import QImage

from battlestudio import store
from battlestudio.document import Document
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.ui import map_scene
from battlestudio.ui.map_view import MapView
from battlestudio.ui.resources import bundled_scenarios
from battlestudio.ui.unit_arrays import DISORDERED, ELIMINATED, ROUTED

REPO = Path(__file__).resolve().parents[2]
JENA = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")

TOLERANCE = 0.001
"""Share of the viewport's pixels that may differ (by more than ``CHANNEL`` in a channel):
the subpixel placement of 1 px glyph lines (at most ~0.04 % of the pixels); a covered unit's
glyph showing through the unit above it (drawn in the wrong order) made 0.3 %."""
CHANNEL = 48


def _leipzig() -> Battle:
    sys.path.insert(0, str(REPO / "bench"))
    try:
        from make_large import large_battle
    finally:
        sys.path.remove(str(REPO / "bench"))
    return large_battle(1)


@pytest.fixture(scope="module")
def battles():
    return {"jena": store.load(JENA), "leipzig": _leipzig()}


def pixels(image: QImage) -> np.ndarray:
    image = image.convertToFormat(QImage.Format.Format_ARGB32)
    return np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine() // 4, 4).copy()


def render(
    qtbot, monkeypatch, battle: Battle, path: str, zoom: float | None, at: tuple[float, float], hide=()
) -> np.ndarray:
    """The viewport's picture at mid-game on ``path``, the layers ``hide`` hidden."""
    monkeypatch.setattr(map_scene, "UNIT_PATH", path)
    log = GameLog.from_battle(battle)
    view = MapView(Document(Battle(battle.scenario, [])))
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    qtbot.waitExposed(view)
    assert view.map_scene.unit_path == path
    state = log.state_at(len(log) // 2)
    view.show_state(state.units, state.commanders)
    for layer in hide:
        view.set_layer_visible(layer, False)
    if zoom is None:
        view.fit_table()
    else:
        view.set_zoom(zoom)
        view.centre_on_table(at)
    image = pixels(view.viewport().grab().toImage())
    view.close()
    return image


def busiest(battle: Battle) -> tuple[float, float]:
    """The table point with most units within 40 cm at mid-game (a close-up worth comparing)."""
    log = GameLog.from_battle(battle)
    pts = np.array([u.position for u in log.state_at(len(log) // 2).units.values()])
    counts = [(np.hypot(*(pts - p).T) < 40).sum() for p in pts]
    return tuple(pts[int(np.argmax(counts))])


@pytest.mark.parametrize("name", ["jena", "leipzig"])
@pytest.mark.parametrize("zoom", [None, 4.0, 12.0])
def test_the_array_path_draws_the_picture_of_the_item_path(qtbot, monkeypatch, battles, name, zoom):
    battle = battles[name]
    at = busiest(battle)
    old = render(qtbot, monkeypatch, battle, "items", zoom, at)
    new = render(qtbot, monkeypatch, battle, "arrays", zoom, at)
    assert old.shape == new.shape
    unit_pixels = (
        np.abs(old.astype(int) - pixels_of_empty(qtbot, monkeypatch, battle, zoom, at)).max(axis=2) > CHANNEL
    ).sum()
    assert unit_pixels > 500  # units (and their labels) are in the picture
    differ = (np.abs(old.astype(int) - new).max(axis=2) > CHANNEL).sum()
    assert differ <= TOLERANCE * old.shape[0] * old.shape[1], (name, zoom, differ)


def pixels_of_empty(qtbot, monkeypatch, battle: Battle, zoom: float | None, at) -> np.ndarray:
    """The same view with every unit layer hidden: what the units add is the difference."""
    monkeypatch.setattr(map_scene, "UNIT_PATH", "arrays")
    log = GameLog.from_battle(battle)
    view = MapView(Document(Battle(battle.scenario, [])))
    qtbot.addWidget(view)
    view.resize(1200, 800)
    view.show()
    qtbot.waitExposed(view)
    state = log.state_at(len(log) // 2)
    view.show_state(state.units, state.commanders)
    for side in battle.scenario.sides:
        view.set_layer_visible(f"units:{side}", False)
    if zoom is None:
        view.fit_table()
    else:
        view.set_zoom(zoom)
        view.centre_on_table(at)
    image = pixels(view.viewport().grab().toImage())
    view.close()
    return image.astype(int)


def test_the_arrays_carry_the_states_of_the_units(qtbot, battles):
    battle = battles["jena"]
    log = GameLog.from_battle(battle)
    scene = map_scene.MapScene(unit_path="arrays")
    seen: set[str] = set()
    for pos in range(0, len(log) + 1, max(1, len(log) // 20)):
        state = log.state_at(pos)
        scene.reconcile("units", state.units, lazy=True)
        a = scene.unit_arrays
        for uid, u in state.units.items():
            f = int(a.flags[a.row[uid]])
            assert bool(f & ELIMINATED) == (u.state == "eliminated")
            assert bool(f & DISORDERED) == (u.state == "U")
            assert bool(f & ROUTED) == (u.state in ("FU", "routed"))
            seen.add(u.state)
    assert {"eliminated", "U"} <= seen, seen


@pytest.mark.parametrize("name", ["jena", "leipzig"])
@pytest.mark.parametrize("zoom", [None, 2.5, 12.0])
def test_the_commander_layer_draws_the_flags_of_the_items(qtbot, monkeypatch, battles, name, zoom):
    battle = battles[name]
    log = GameLog.from_battle(battle)
    gens = np.array([c.position for c in log.state_at(len(log) // 2).commanders.values()])
    at = tuple(gens[int(np.argmin(np.hypot(*(gens - busiest(battle)).T)))])  # the general nearest the crowd
    hide = [f"units:{side}" for side in battle.scenario.sides] + ["formations"]
    old = render(qtbot, monkeypatch, battle, "items", zoom, at, hide)
    new = render(qtbot, monkeypatch, battle, "arrays", zoom, at, hide)
    bare = render(qtbot, monkeypatch, battle, "arrays", zoom, at, [*hide, "commanders"])
    flag_pixels = (np.abs(old.astype(int) - bare).max(axis=2) > CHANNEL).sum()
    assert flag_pixels > 200  # flags and dots (and their names) are in the picture
    differ = (np.abs(old.astype(int) - new).max(axis=2) > CHANNEL).sum()
    # a tenth of what the flags draw: a layer drawing none of them (or in the wrong place) fails
    assert differ <= min(TOLERANCE * old.shape[0] * old.shape[1], flag_pixels / 10), (name, zoom, differ, flag_pixels)
