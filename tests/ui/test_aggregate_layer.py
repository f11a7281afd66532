"""Formation markers zoomed out (issue 21, ``ui.aggregate_layer``): on the Leipzig benchmark
battle (``bench/make_large.py --scale 1``) and the bundled Leipzig 1813, below
``CORPS_LOD`` one marker per corps, up to ``DIVISION_LOD`` one per division, none above; each
named with its men (the tree's figure, eliminated units left out) ahead of towns and brigades;
drawn in its side's colour on screen and in exports, listed in the legend, and a layer of the
Layers dock."""

from __future__ import annotations

from dataclasses import replace

import pytest
import shapely
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor

from battlestudio import store
from battlestudio.replay.game import GameLog
from battlestudio.ui.aggregate_layer import SYMBOL_PX
from battlestudio.ui.aggregates import (
    CORPS_LOD,
    DIVISION_LOD,
    _footprints,
    aggregates,
    convex_hull,
    echelon_at,
    formation_of,
)
from battlestudio.ui.map_export import MapPage, PageSpec
from battlestudio.ui.panels.oob_model import ID_ROLE
from battlestudio.ui.resources import bundled_scenarios
from tests.ui.test_label_overlaps import _leipzig, _view, overlaps
from tests.ui.window_helpers import ModalRecorder, make_window

LEIPZIG = next(p for p in bundled_scenarios() if p.name == "leipzig-1813.battle.json")


@pytest.fixture(scope="module")
def bench():
    return _leipzig()


@pytest.fixture
def window(qtbot, tmp_path, monkeypatch):
    ModalRecorder(monkeypatch)
    w = make_window(qtbot, tmp_path)
    w.resize(1500, 950)
    assert w.files.open_path(LEIPZIG, ask=False)
    return w


def test_zoom_decides_the_echelon():
    assert echelon_at(CORPS_LOD - 0.01) == "corps" and echelon_at(0.3) == "corps"
    assert echelon_at(CORPS_LOD) == "division" and echelon_at(DIVISION_LOD - 0.01) == "division"
    assert echelon_at(DIVISION_LOD) is None and echelon_at(10.0) is None


def test_footprints_in_one_pass_are_the_units_own_rectangles(bench):
    """The markers' footprint corners and centres, worked out for every unit at once, are
    ``Unit.rect()``'s (scene y down) for every formation, facing and size in a played game."""
    log = GameLog.from_battle(bench)
    units = [u for pos in (0, len(log) // 2, len(log)) for u in log.state_at(pos).units.values()]
    assert len({(u.formation, u.figures) for u in units}) > 5 and len({u.facing for u in units}) > 5
    centres, corners = _footprints(units)
    for i, u in enumerate(units):
        r = u.rect()
        assert centres[i] == pytest.approx((r.centre[0], -r.centre[1]), abs=1e-9)
        assert corners[i].ravel().tolist() == pytest.approx([v for x, y in r.corners() for v in (x, -y)], abs=1e-9)
    assert _footprints([])[1].shape == (0, 4, 2)


def test_convex_hull_keeps_the_outer_corners():
    pts = [(0, 0), (4, 0), (4, 3), (0, 3), (2, 1), (1, 2), (4, 0)]
    assert sorted(convex_hull(pts)) == [(0, 0), (0, 3), (4, 0), (4, 3)]
    assert convex_hull([(1, 1)]) == [(1, 1)]


def test_a_marker_counts_the_living_men_of_its_corps(bench):
    s = bench.scenario
    corps = [c for c in s.commanders.values() if c.echelon == "corps"]
    markers = {m.id: m for m in aggregates(s.units, s.commanders, s.oob, "corps")}
    assert set(markers) == {c.id for c in corps if any(u in s.units for u in s.oob.all_subordinates(c.id))}
    first = markers[sorted(markers)[0]]
    members = [u for u in s.oob.all_subordinates(first.id) if u in s.units]
    assert first.men == sum(s.units[u].men for u in members) and first.units == len(members)
    gone = s.units[members[0]]
    units = {**s.units, gone.id: replace(gone, state="eliminated")}
    again = {m.id: m for m in aggregates(units, s.commanders, s.oob, "corps")}[first.id]
    assert again.men == first.men - gone.men and again.units == first.units - 1  # eliminated: left out
    xs = [x for x, _y in first.hull]
    assert min(xs) < first.centre[0] < max(xs)


def test_whole_table_benchmark_reads_as_corps(qtbot, bench):
    """The ×1 battle at whole-table zoom: a marker and a "name men" label per corps, no two
    labels overlapping, army and corps names placed before any town's."""
    view = _view(qtbot, bench, at_end=False)
    view.fit_table()
    assert view.zoom() < CORPS_LOD
    layer = view.map_scene.aggregate_layer
    markers = layer.markers()
    corps = [c for c in bench.scenario.commanders.values() if c.echelon == "corps"]
    assert markers and {m.echelon for m in markers} == {"corps"} and len(markers) == len(corps)
    placed = view.placed_labels()
    assert overlaps([r for r, _l in placed]) == 0
    texts = [lab.text for _r, lab in placed]
    want = {m.text for m in markers}
    # 64 corps in rows 25 px apart: a few names find no free place among their neighbours
    assert len(want & set(texts)) >= 0.8 * len(want), sorted(want - set(texts))[:5]
    assert not {c.name for c in corps} & set(texts)  # the marker names the corps, not a second label
    # divisions and brigades are not named at this zoom; towns come after the corps
    divisions = {c.name for c in bench.scenario.commanders.values() if c.echelon in ("division", "brigade")}
    assert not divisions & set(texts)
    view.set_zoom(2.0)
    assert {m.echelon for m in layer.markers()} == {"division"}
    view.set_zoom(DIVISION_LOD + 0.5)
    assert layer.markers() == []
    assert not any(t in want for _r, t in ((r, lab.text) for r, lab in view.placed_labels()))


def test_zooming_out_in_the_window_shows_corps_then_divisions_then_brigades(window, qtbot):
    view = window.map_view
    scene = view.map_scene
    s = window.document.scenario
    view.set_layer_visible("commanders", False)  # the generals' flags stand over the symbols
    view.set_zoom(1.0)
    view.centerOn(scene.table_rect().center())
    markers = scene.aggregate_layer.markers()
    assert markers and {m.echelon for m in markers} == {"corps"}
    # the men on a corps marker are the tree's figure for that corps
    model = window.oob_panel.model
    for m in markers:
        if m.units != sum(1 for u in s.oob.all_subordinates(m.id) if u in s.units):
            continue  # some of its units wait off the table: the tree lists what is on it
        men = model.data(model.index_of(m.id, 1))
        assert int(str(men or 0).replace(",", "")) == m.men, m.name
    # drawn: the symbol's frame is in the side's colour at the marker's centre
    for layer in ("labels", "command"):  # names and the command overlay's lines drawn over them
        view.set_layer_visible(layer, False)
    image = view.viewport().grab().toImage()
    for layer in ("labels", "command"):
        view.set_layer_visible(layer, True)
    drawn = in_view = 0
    for m in markers:
        p = view.mapFromScene(QPointF(*m.centre))
        w, h = SYMBOL_PX["corps"]
        if not view.viewport().rect().adjusted(20, 20, -20, -20).contains(p):
            continue
        in_view += 1
        c = image.pixelColor(p.x(), round(p.y() - h / 4))  # between the diagonals
        side = QColor(s.sides[m.side].colour)
        drawn += abs(c.red() - side.red()) + abs(c.green() - side.green()) + abs(c.blue() - side.blue()) < 40
    # a marker standing on another's symbol hides it: most, not all, show their own
    assert in_view >= 10 and drawn >= 0.8 * in_view, (drawn, in_view)
    texts = {lab.text for _r, lab in view.placed_labels()}
    assert any(m.text in texts for m in markers)

    view.set_zoom(2.2)  # closer: one per division
    assert {m.echelon for m in scene.aggregate_layer.markers()} == {"division"}
    view.set_zoom(6.0)  # brigades readable one by one: no markers
    assert scene.aggregate_layer.markers() == []
    after = view.viewport().grab().toImage()
    assert after != image

    # the Layers dock turns them off
    view.set_zoom(1.0)
    layers = window.layers_panel.tree
    item = next(
        layers.topLevelItem(g).child(k)
        for g in range(layers.topLevelItemCount())
        for k in range(layers.topLevelItem(g).childCount())
        if layers.topLevelItem(g).child(k).data(0, Qt.ItemDataRole.UserRole + 1) == "formations"
    )
    assert item.text(0) == "Formations (zoomed out)"
    item.setCheckState(0, Qt.CheckState.Unchecked)
    assert scene.aggregate_layer.markers() == []
    assert not any(m.text == lab.text for _r, lab in view.placed_labels() for m in markers)
    item.setCheckState(0, Qt.CheckState.Checked)
    assert scene.aggregate_layer.markers()
    assert ID_ROLE  # the tree's id role is what index_of keys on


def test_exports_draw_and_list_the_markers_at_the_same_zooms(qapp):
    battle = store.load(LEIPZIG)
    log = GameLog.from_battle(battle)
    pos = len(log)
    far = MapPage(battle, pos, PageSpec(width_px=600, command_layer=False), log=log)
    near = MapPage(battle, pos, PageSpec(width_px=2600, command_layer=False), log=log)
    try:
        assert far.layout.zoom < CORPS_LOD and near.layout.zoom > DIVISION_LOD
        texts = [t for _k, _c, t in far.legend_entries()]
        kinds = {t: k for k, _c, t in far.legend_entries()}
        corps_line = next(t for t in texts if t.startswith("corps:"))
        assert kinds[corps_line] == "formation"
        assert not any(t.startswith(("corps:", "division:")) for _k, _c, t in near.legend_entries())
        markers = far.view.map_scene.aggregate_layer.markers()
        assert markers and near.view.map_scene.aggregate_layer.markers() == []
        far.image()  # paints without error, the markers included
        svg = far.svg_bytes().decode("utf-8", "replace")
        assert "<image" not in svg
        named = [m for m in markers if m.text in svg]
        assert named, "the corps names and strengths are text in the SVG"
    finally:
        far.close()
        near.close()


def test_only_the_formations_whose_units_changed_are_worked_out_again(bench):
    s = bench.scenario
    members = formation_of(s.units, s.commanders, s.oob, "corps")
    cache: dict = {}
    first = {m.id: m for m in aggregates(s.units, s.commanders, s.oob, "corps", members_of=members, cache=cache)}
    uid = sorted(members)[0]
    u = s.units[uid]
    moved = {**s.units, uid: replace(u, position=(u.position[0] + 30.0, u.position[1]))}
    again = {m.id: m for m in aggregates(moved, s.commanders, s.oob, "corps", members_of=members, cache=cache)}
    changed = {cid for cid in again if again[cid] is not first[cid]}
    assert changed == {members[uid]}
    assert again[members[uid]].centre[0] > first[members[uid]].centre[0]
    assert again == {m.id: m for m in aggregates(moved, s.commanders, s.oob, "corps")}  # same as from scratch


def test_a_corps_name_gives_way_only_to_army_and_corps_names(qtbot, bench):
    """The most important names win: at whole-table zoom a corps marker's name left out had
    each of its places taken by an army's or another corps' name, never by a town's, a
    division's or a brigade's alone (the map view here has no command overlay's badges)."""
    view = _view(qtbot, bench, at_end=False)
    view.fit_table()
    layer = view.map_scene.aggregate_layer
    requests, _named = layer.label_requests(view.zoom())
    placed = view.placed_labels()
    texts = {lab.text for _r, lab in placed}
    armies = {c.name for c in bench.scenario.commanders.values() if c.echelon in ("army", "c_in_c")}
    higher = armies | {m.text for m in layer.markers()}
    t = view.viewportTransform()
    vp = view.viewport().rect().adjusted(150, 40, -150, -40)
    left_out = 0
    for req in requests:
        if req.label.text in texts:
            continue
        p = t.map(req.anchor)
        if not vp.contains(p.toPoint()):
            continue  # near the edge a name is slid inside: its places are not these
        left_out += 1
        w, h = req.label.width_px, req.label.height_px
        for sx, sy in req.shifts:
            cand = QRectF(round(p.x() - w / 2 + sx), round(p.y() - h / 2 + sy), w, h)
            blockers = [lab.text for r, lab in placed if r.intersects(cand) and r.intersected(cand).width() > 0]
            # taken first by a name that ranks as high (a lesser one may fill the place after)
            assert any(b in higher for b in blockers), (req.label.text, (sx, sy), blockers)
    assert left_out < len(requests)


def test_markers_from_the_unit_arrays_are_the_markers_of_the_records(qtbot, bench):
    """The map works the markers out from its unit arrays (``MarkerRows``); at the start,
    middle and end of the played ×1 game, corps and divisions, they are the records' own
    (``aggregates``): same formations, men, guns, arm and units, the same centre and hull
    ground; a phase step works out again only the formations whose units changed."""
    view = _view(qtbot, bench, at_end=False)
    view.fit_table()
    scene = view.map_scene
    assert scene.arrays_on
    layer = scene.aggregate_layer
    log = GameLog.from_battle(bench)
    t = scene.table_rect()
    table = (t.left(), t.top(), t.right(), t.bottom())
    starts = log.phase_starts()
    for pos in (0, starts[len(starts) // 2], len(log)):
        state = log.state_at(pos)
        view.show_state(state.units, state.commanders)
        for echelon in ("corps", "division"):
            got = layer.markers(echelon)
            want = aggregates(state.units, state.commanders, bench.scenario.oob, echelon, frozenset(), table)
            assert [m.id for m in got] == [m.id for m in want] and len(got) > 50
            for g, w in zip(got, want, strict=True):
                assert (g.name, g.side, g.men, g.guns, g.arm, g.units) == (
                    w.name,
                    w.side,
                    w.men,
                    w.guns,
                    w.arm,
                    w.units,
                )
                assert g.centre == pytest.approx(w.centre, abs=1e-6)
                a, b = shapely.Polygon(g.hull), shapely.Polygon(w.hull)
                assert a.symmetric_difference(b).area <= 1e-6 * b.area, g.id
    # phase by phase on: a marker is made again only for a formation whose units the phase
    # changed (or all of them, when units arrive or a commander's echelon changes)
    state = log.state_at(starts[len(starts) // 2])
    view.show_state(state.units, state.commanders)
    before = {m.id: m for m in layer.markers("corps")}
    partial = 0
    for pos in starts[len(starts) // 2 + 1 : len(starts) // 2 + 12]:
        after = log.state_at(pos)
        view.show_state(after.units, after.commanders)
        now = {m.id: m for m in layer.markers("corps")}
        remade = {cid for cid in now if now[cid] is not before.get(cid)}
        members = layer._members
        touched = {members[u] for u in after.units.changed_keys(state.units) if u in members}
        if len(remade) < len(now):
            assert remade <= touched
            partial += bool(remade)
        state, before = after, now
    assert partial >= 2
    # a side's units hidden: its formations draw no marker
    side = layer.markers("corps")[0].side
    view.set_layer_visible(f"units:{side}", False)
    assert layer.markers("corps") and {m.side for m in layer.markers("corps")} == {s for s in bench.scenario.sides} - {
        side
    }
