"""Label placement at a far jump (issue 26): the commanders who may be named are found from the
commander arrays, and the names of terrain, towns and the other fixed kinds are kept between
steps; the labels placed are those of a placement from scratch over every item."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF

from battlestudio.replay.game import GameLog
from battlestudio.ui.labels import labels_in_view
from tests.ui.test_label_overlaps import _leipzig, _view


@pytest.fixture(scope="module")
def bench():
    return _leipzig()


def _from_scratch(view) -> list:
    """Every label placed as before the caches: every commander item walked (and synced)."""
    scene = view.map_scene
    t = view.viewportTransform()
    vp = QRectF(view.viewport().rect())
    inverse, _ = t.inverted()
    by_kind = {**scene.items_by_kind, "units": scene.unit_items_in(inverse.mapRect(vp))}
    fixed = [
        item.deviceTransform(t).mapRect(item.shape().boundingRect())
        for items in scene.label_obstacles
        for item in items()
        if item.isVisible()
    ]
    return labels_in_view(by_kind, t, vp, view.zoom(), scene.table_rect(), fixed, scene.aggregate_layer)


def _texts(placed) -> list:
    return [(r.getCoords(), getattr(lab, "label", lab).text) for r, lab in placed]


@pytest.mark.parametrize("zoom", ["table", 2.5])
def test_labels_after_jumps_are_those_placed_from_scratch(qtbot, bench, zoom):
    view = _view(qtbot, bench, at_end=False)
    scene = view.map_scene
    if zoom == "table":
        view.fit_table()
    else:
        info = bench.scenario.info
        view.set_zoom(zoom)
        view.centre_on_table((info.table_width / 2, info.table_height / 3))
    log = GameLog.from_battle(bench)
    for pos in (len(log) // 3, len(log) // 2, len(log)):
        state = log.state_at(pos)
        view.show_state(state.units, state.commanders)
        placed = view.placed_labels()
        if zoom == "table":
            # at whole-table zoom only army commanders are named: the others stay unsynced
            assert scene._stale_commanders
        assert placed and _texts(placed) == _texts(_from_scratch(view))
    if zoom == "table":  # the army commanders' names are among them
        armies = {c.name for c in bench.scenario.commanders.values() if c.echelon in ("army", "c_in_c")}
        assert armies & {getattr(lab, "label", lab).text for _r, lab in view.placed_labels()}


def test_the_commanders_named_at_a_zoom_are_found_from_the_arrays(qtbot, bench):
    view = _view(qtbot, bench, at_end=True)
    scene = view.map_scene
    everywhere = QRectF(-1e6, -1e6, 2e6, 2e6)
    for lod, echelons in ((0.5, {"army", "c_in_c"}), (1.2, {"army", "c_in_c", "corps"})):
        named = scene.commander_items_named(everywhere, lod)
        want = [
            i
            for i in dict.values(scene.items_by_kind["commanders"])
            if bench.scenario.commanders[i.id].echelon in echelons
        ]
        assert [i.id for i in named] == [i.id for i in want] and named
    table = scene.table_rect()
    half = scene.commander_items_named(QRectF(table.left(), table.top(), table.width() / 2, table.height()), 2.0)
    assert 0 < len(half) < len(scene.commander_items_named(table, 2.0))
    assert all(i.pos().x() <= table.center().x() for i in half)
