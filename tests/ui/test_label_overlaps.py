"""Label placement measured on the bundled Jena game and on the Leipzig benchmark battle
(``bench/make_large.py --scale 1``: 1,000 units, 316 generals, 400 features, 60 towns) at
whole-table zoom, 2.5 px/cm and 10 px/cm: no two placed label rectangles overlap, the most
important names win (every army and corps commander in view is named before a brigade), and
rivers, streams and roads are named along their lines."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from battlestudio import store
from battlestudio.document import Document
from battlestudio.replay.battle import Battle
from battlestudio.replay.game import GameLog
from battlestudio.ui.coords import table_to_scene
from battlestudio.ui.labels import AlongLabel
from battlestudio.ui.map_view import MapView
from battlestudio.ui.resources import bundled_scenarios

REPO = Path(__file__).resolve().parents[2]
JENA = next(p for p in bundled_scenarios() if p.name == "jena-1806.battle.json")


def _leipzig() -> Battle:
    sys.path.insert(0, str(REPO / "bench"))
    try:
        from make_large import large_battle
    finally:
        sys.path.remove(str(REPO / "bench"))
    return large_battle(1)


@pytest.fixture(scope="module")
def battles():
    jena = store.load(JENA)
    return {"jena": jena, "leipzig": _leipzig()}


def overlaps(rects) -> int:
    """Pairs of rectangles that share more than a boundary."""
    n = 0
    rs = sorted(rects, key=lambda r: r.left())
    for i, a in enumerate(rs):
        for b in rs[i + 1 :]:
            if b.left() >= a.right():
                break
            if a.intersects(b) and a.intersected(b).width() > 0 and a.intersected(b).height() > 0:
                n += 1
    return n


def _view(qtbot, battle: Battle, at_end: bool = True) -> MapView:
    view = MapView(Document(Battle(battle.scenario, [])))
    qtbot.addWidget(view)
    view.resize(1400, 900)
    view.show()
    qtbot.waitExposed(view)
    if at_end:
        log = GameLog.from_battle(battle)
        state = log.state_at(len(log))
        view.show_state(
            {k: v for k, v in state.units.items() if k not in state.off_table},
            {k: v for k, v in state.commanders.items() if k not in state.off_table},
        )
    return view


@pytest.mark.parametrize("name", ["jena", "leipzig"])
@pytest.mark.parametrize("zoom", ["table", 2.5, 10.0])
def test_no_two_labels_overlap(qtbot, battles, name, zoom):
    battle = battles[name]
    view = _view(qtbot, battle, at_end=name == "jena")
    info = battle.scenario.info
    if zoom == "table":
        view.fit_table()
        spots = [(info.table_width / 2, info.table_height / 2)]
    else:
        view.set_zoom(zoom)
        spots = [(info.table_width * fx, info.table_height * fy) for fx in (0.25, 0.5, 0.75) for fy in (0.3, 0.7)]
    total = 0
    for spot in spots:
        view.centerOn(table_to_scene(*spot))
        placed = view.placed_labels()
        total += len(placed)
        assert overlaps([r for r, _l in placed]) == 0, (name, zoom, spot)
        # the most important names win: no army or corps commander in view goes unnamed
        # while a brigade general or a unit is named
        vp = view.viewport().rect()
        named = {lab.text for _r, lab in placed}
        scene = view.map_scene
        for item in scene.items_by_kind["commanders"].values():
            if item.echelon not in ("army", "c_in_c", "corps") or not item.isVisible():
                continue
            p = view.mapFromScene(item.pos())
            if not vp.adjusted(60, 60, -60, -60).contains(p) or item.label_request(view.zoom()) is None:
                continue
            label = item.label_request(view.zoom()).label.text
            assert label in named or not any(
                (i.echelon == "brigade" and i.label_request(view.zoom()) is not None)
                and i.label_request(view.zoom()).label.text in named
                for i in scene.items_by_kind["commanders"].values()
            ), (name, zoom, label)
    assert total > 10


def test_rivers_streams_and_roads_are_named_along_them(qtbot, battles):
    view = _view(qtbot, battles["jena"], at_end=False)
    view.set_zoom(2.5)
    seen: set[str] = set()
    angles: list[float] = []
    info = battles["jena"].scenario.info
    for fx in (0.2, 0.5, 0.8):
        for fy in (0.25, 0.75):
            view.centerOn(table_to_scene(info.table_width * fx, info.table_height * fy))
            for _r, lab in view.placed_labels():
                if isinstance(lab, AlongLabel):
                    seen.add(lab.text)
                    angles.append(lab.angle)
    features = battles["jena"].scenario.terrain.values()
    linear = {f.name for f in features if f.name and f.kind.value in ("river", "stream", "road")}
    kinds = {f.kind.value for f in features if f.name in seen}
    assert {"river", "stream", "road"} <= kinds and len(seen) >= 3, seen
    assert seen <= linear
    assert all(-90.0 <= a <= 90.0 for a in angles) and any(abs(a) > 5 for a in angles)  # turned, never upside down
